//! Issue 49's target, driven as an animator drives it (egui_kittest on the real app): from
//! an empty project, a new clip with a key, a new action with two branches and a gait style
//! made from the trot and tuned in the Footfalls window, saved, then read back from disk by
//! the project loader a game's build would use.
#![cfg(feature = "editor")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod editor_common;

use anymorph::editor::AnymorphApp;
use anymorph::editor::command::Command;
use anymorph::editor::panels::channels::{ADD_CHANNEL, EMPTY_CLIP, NEW_CLIP};
use anymorph::editor::panels::footfall::{FOOTFALLS, STRIDE};
use anymorph::editor::panels::inspector::QUERY_CAP;
use anymorph::editor::panels::menu_bar::{NEW_GAIT_STYLE, gait_template_label};
use anymorph::runtime::clip::Clip;
use anymorph::runtime::gait::GaitStyle;
use editor_common::{creature_index, editor};
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::Path;

type App = AnymorphApp;

fn clip(h: &Harness<'_, App>) -> Clip {
    h.state().document().clip().unwrap().clone()
}

/// Opens menu `menu` of the menu bar and clicks `item` in it (its label also holds the
/// shortcut).
fn menu(h: &mut Harness<'_, App>, menu: &str, item: &str) {
    // The menu bar is laid out first: its "Clip" before the panel's.
    h.get_all_by_label(menu).next().unwrap().click();
    h.run();
    h.get_by_label_contains(item).click();
    h.run();
}

/// Picks `option` in the combo box labelled `label`.
fn choose(h: &mut Harness<'_, App>, label: &str, option: &str) {
    h.get_all_by_label(label).last().unwrap().scroll_to_me();
    h.run();
    h.get_all_by_label(label).last().unwrap().click();
    h.run();
    h.get_all_by_label(option).last().unwrap().click();
    h.run();
}

/// Clicks a body in the viewport.
fn click_body(h: &mut Harness<'_, App>, creature: usize, body: &str) {
    let b = h.state().document().roster[creature]
        .creature
        .find(body)
        .unwrap_or_else(|| panic!("no body {body}"));
    let at = h.state().body_on_screen(creature, b).unwrap();
    h.hover_at(at);
    h.run();
    h.drag_at(at);
    h.drop_at(at);
    h.run();
    let sel = h.state().selection().expect("the click selected nothing");
    assert_eq!((sel.creature, sel.body), (creature, Some(b)));
}

/// Types `text` into the number field labelled `label` and confirms it.
fn type_number(h: &mut Harness<'_, App>, label: &str, text: &str) {
    h.get_by_role_and_label(Role::SpinButton, label).focus();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, label)
        .type_text(text);
    h.run();
    h.key_press(Key::Enter);
    h.run();
    h.key_press(Key::Escape);
    h.run();
}

#[test]
fn a_clip_an_action_with_two_branches_and_a_tuned_trot_are_made_from_an_empty_project() {
    let mut h = editor();
    // File > New Project: one empty clip, no action, no gait style.
    menu(&mut h, "File", "New Project");
    let doc = h.state().document();
    assert_eq!(doc.path, None);
    assert_eq!(
        (doc.clips.len(), doc.actions.len(), doc.gaits.len()),
        (1, 0, 0)
    );
    let first = clip(&h).name;

    // A new clip, keyed: a grasper channel, the biped's left hand raised by the gizmo, S.
    h.get_by_label(NEW_CLIP).click();
    h.run();
    h.get_by_label(EMPTY_CLIP).click();
    h.run();
    assert_eq!(h.state().document().clips.len(), 2);
    let made = clip(&h).name;
    assert_ne!(made, first);
    h.get_by_label(ADD_CHANNEL).click();
    h.run();
    choose(&mut h, QUERY_CAP, "grasper");
    let biped = creature_index(&h, "biped");
    click_body(&mut h, biped, "hand_l");
    let (centre, dirs) = h.state().gizmo_on_screen().expect("no gizmo");
    let grab = centre + dirs[1] * 45.0;
    editor_common::drag_over_frames(&mut h, grab, grab + dirs[1] * 40.0);
    h.key_press(Key::S);
    h.run();
    let keyed = clip(&h);
    let keys = keyed.channels[0]
        .position
        .as_ref()
        .expect("S keyed nothing")
        .keys()
        .to_vec();
    assert_eq!(keys.len(), 1);
    assert!(
        keys[0].value.y > 0.05,
        "the key is not up: {}",
        keys[0].value
    );

    // A new action from it, and the project's first clip added as its second branch.
    menu(&mut h, "Clip", "New Action from Clip");
    assert_eq!(h.state().document().actions.len(), 1);
    h.key_press(Key::PageUp);
    h.run();
    assert_eq!(clip(&h).name, first, "PageUp did not go to the first clip");
    menu(&mut h, "Clip", "Add Clip to Its Action");
    let action = h.state().document().actions[0].clone();
    assert_eq!(action.branches, [made.clone(), first.clone()]);

    // A gait style from the trot, its stride tuned in the Footfalls window's fields.
    h.get_by_label("Playback").click();
    h.run();
    h.get_by_label(NEW_GAIT_STYLE).click();
    h.run();
    h.get_by_label(&gait_template_label("trot")).click();
    h.run();
    assert_eq!(h.state().document().gaits.len(), 1);
    let style = h.state().document().gaits[0].clone();
    h.key_press_modifiers(Modifiers::ALT, Key::F);
    h.run();
    h.get_by_label(FOOTFALLS);
    // The fields show the row the first creature reads at the Locomotion panel's speed;
    // a stride no row of the trot has, so the one typed is the one that changed.
    let stride = 1.77;
    let strides = |s: &GaitStyle| -> Vec<f32> {
        s.groups
            .iter()
            .flat_map(|g| &g.speeds)
            .chain(&s.wave)
            .map(|r| r.stride)
            .collect()
    };
    let before = strides(&style);
    assert!(!before.contains(&stride));
    type_number(&mut h, STRIDE, &format!("{stride}"));
    let tuned = h.state().document().gaits[0].clone();
    let after = strides(&tuned);
    let changed: Vec<usize> = (0..before.len())
        .filter(|&i| before[i] != after[i])
        .collect();
    assert_eq!(changed.len(), 1, "{:?}", h.state().message());
    assert_eq!(after[changed[0]], stride);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("library.project.json");
    h.state_mut()
        .run_command(Command::SaveProjectTo(path.clone()));
    h.run();
    assert!(!h.state().history().is_dirty(), "{:?}", h.state().message());

    // Read back from disk as a build would: nothing of it lives only in the editor.
    let saved = anymorph::io::load_project(&path).unwrap();
    let names: Vec<&str> = saved.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, [first.as_str(), made.as_str()]);
    let saved_clip = saved.clips.iter().find(|c| c.name == made).unwrap();
    let saved_keys = saved_clip.channels[0]
        .position
        .as_ref()
        .expect("the key was not saved")
        .keys();
    assert_eq!(saved_keys.len(), 1);
    assert!(saved_keys[0].value.abs_diff_eq(keys[0].value, 1e-5));
    assert_eq!(saved.project.actions.len(), 1);
    assert_eq!(saved.project.actions[0].name, action.name);
    assert_eq!(saved.project.actions[0].branches, [made, first]);
    assert_eq!(
        saved.project.gaits,
        [Path::new("gaits").join("trot.gait.json")]
    );
    let file = dir.path().join("gaits/trot.gait.json");
    let on_disk = anymorph::io::load_gait(&file).unwrap();
    assert_eq!(on_disk.name, "trot");
    assert_eq!(strides(&on_disk)[changed[0]], stride);
    assert_eq!(on_disk, *tuned);
    assert_eq!(saved.gaits, [on_disk]);
}
