//! The authoring loop driven as an animator drives it (egui_kittest on the real app): build a
//! channel, pose with the gizmo, key, change modes, undo, save, recover — checked against the
//! saved files and the poses the runtime then gives two creatures of different shape.
#![cfg(feature = "editor")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod editor_common;

use anymorph::editor::AppOptions;
use anymorph::editor::RECOVER;
use anymorph::editor::command::Command;
use anymorph::editor::panels::channels::ADD_CHANNEL;
use anymorph::editor::panels::inspector::{MODE_POSITION, QUERY_CAP};
use anymorph::runtime::clip::Clip;
use anymorph::runtime::query::CapFilter;
use editor_common::{creature_index, editor, editor_with};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Vec3;

type App = anymorph::editor::AnymorphApp;

fn body_id(h: &Harness<'_, App>, creature: usize, body: &str) -> usize {
    h.state().document().roster[creature]
        .creature
        .find(body)
        .unwrap_or_else(|| panic!("no body {body}"))
}

fn clip(h: &Harness<'_, App>) -> Clip {
    h.state().document().clip().unwrap().clone()
}

/// Clicks a body in the viewport.
fn click_body(h: &mut Harness<'_, App>, creature: usize, body: &str) {
    let b = body_id(h, creature, body);
    let at = h.state().body_on_screen(creature, b).unwrap();
    h.hover_at(at);
    h.run();
    h.drag_at(at);
    h.drop_at(at);
    h.run();
    let sel = h.state().selection().expect("the click selected nothing");
    assert_eq!((sel.creature, sel.body), (creature, Some(b)));
}

/// Drags the gizmo's `axis` handle by `pixels` along it on screen, over several frames.
fn drag_gizmo(h: &mut Harness<'_, App>, axis: usize, pixels: f32) {
    let (centre, dirs) = h
        .state()
        .gizmo_on_screen()
        .expect("no gizmo on the active body");
    let grab = centre + dirs[axis] * 45.0;
    let to = grab + dirs[axis] * pixels;
    editor_common::drag_over_frames(h, grab, to);
}

/// Picks `option` in the combo box labelled `label` (the first one, unless `nth`).
fn choose(h: &mut Harness<'_, App>, label: &str, option: &str) {
    h.get_all_by_label(label).last().unwrap().scroll_to_me();
    h.run();
    h.get_all_by_label(label).last().unwrap().click();
    h.run();
    h.get_all_by_label(option).last().unwrap().click();
    h.run();
}

fn step_frames(h: &mut Harness<'_, App>, n: usize) {
    for _ in 0..n {
        h.key_press(Key::ArrowRight);
    }
    h.run();
}

/// The goal the runtime gave a body this frame, character space.
fn goal(h: &Harness<'_, App>, creature: usize, body: usize) -> Option<Vec3> {
    let p = &h.state().preview().creatures[creature];
    p.pipeline.as_ref()?.goals().position(body).map(|(g, _)| g)
}

fn rest(h: &Harness<'_, App>, creature: usize, body: usize) -> Vec3 {
    h.state().document().roster[creature]
        .creature
        .body(body)
        .position
}

#[test]
fn a_clip_is_built_from_an_empty_project_posed_keyed_played_and_saved() {
    let mut h = editor();
    h.state_mut().run_command(Command::NewProject);
    h.run();
    assert!(clip(&h).channels.is_empty());
    h.get_by_label(ADD_CHANNEL).click();
    h.run();
    assert_eq!(clip(&h).channels.len(), 1);
    choose(&mut h, QUERY_CAP, "grasper");
    assert_eq!(
        clip(&h).channels[0].context.cap,
        CapFilter::Cap(anymorph::runtime::creature::Cap::Grasper)
    );

    let biped = creature_index(&h, "biped");
    let hexapod = creature_index(&h, "hexapod");
    click_body(&mut h, biped, "hand_l");
    // Up by the Y handle, then S keys it at frame 0.
    drag_gizmo(&mut h, 1, 40.0);
    assert!(
        clip(&h).channels[0].position.is_none(),
        "auto-key is off: nothing is keyed before S"
    );
    h.key_press(Key::S);
    h.run();
    // Fifteen frames on, out along X, and key again.
    step_frames(&mut h, 15);
    drag_gizmo(&mut h, 0, 50.0);
    h.key_press(Key::S);
    h.run();
    let c = clip(&h);
    let keys = c.channels[0].position.as_ref().unwrap().keys();
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0].time, 0.0);
    assert!((keys[1].time - 0.5).abs() < 1e-6);
    assert!(
        keys[0].value.y > 0.05,
        "the first key is not up: {}",
        keys[0].value
    );
    assert!(
        keys[1].value.x.abs() > 0.05,
        "the second key did not move out"
    );

    // Play, then look at frame 15 on two creatures of different shape.
    h.key_press(Key::Space);
    h.run_steps(10);
    assert!(h.state().playback().playing);
    // Scrubbing pauses.
    h.state_mut().run_command(Command::SetTime(0.5));
    h.run_steps(2);
    let hand = body_id(&h, biped, "hand_l");
    let biped_offset = goal(&h, biped, hand).unwrap() - rest(&h, biped, hand);
    assert!(
        biped_offset.abs_diff_eq(keys[1].value, 1e-4),
        "{biped_offset}"
    );
    // Rest-relative in metres: the hexapod's left grasper moves by the same offset.
    let hex = &h.state().document().roster[hexapod].creature;
    let left_grasper = hex
        .bodies()
        .iter()
        .position(|b| b.caps.iter().any(|c| c.as_str() == "grasper") && b.position.x > 0.0)
        .unwrap();
    let hex_offset = goal(&h, hexapod, left_grasper).unwrap() - rest(&h, hexapod, left_grasper);
    assert!(
        hex_offset.abs_diff_eq(biped_offset, 1e-4),
        "{hex_offset} vs {biped_offset}"
    );
    // The bodies themselves follow (IK), on both creatures.
    let posed = h.state().preview().creatures[hexapod].pose[left_grasper].position;
    assert!(posed.distance(rest(&h, hexapod, left_grasper)) > 0.03);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("built.project.json");
    h.state_mut()
        .run_command(Command::SaveProjectTo(path.clone()));
    h.run();
    assert!(!h.state().title().starts_with('●'), "{}", h.state().title());
    let saved = anymorph::io::load_project(&path).unwrap();
    assert_eq!(saved.clips.len(), 1);
    assert_eq!(saved.clips[0].channels, c.channels);
    assert_eq!(saved.creatures.len(), h.state().document().roster.len());
}

#[test]
fn changing_the_movement_mode_keeps_the_active_bodys_curve() {
    let mut h = editor();
    let biped = creature_index(&h, "biped");
    click_body(&mut h, biped, "hand_l");
    let active = h
        .state()
        .active_body()
        .expect("hand_l is not in the active channel");
    let ch = h.state().active_channel().unwrap();
    let before = clip(&h);
    let times: Vec<f32> = (0..=10)
        .map(|i| before.duration_secs * i as f32 / 10.0)
        .collect();
    let specialized = |c: &Clip, a: &anymorph::editor::posing::ActiveBody| -> Vec<Vec3> {
        times
            .iter()
            .map(|&t| a.specialized(&c.channels[ch], t).position)
            .collect()
    };
    let curve_before = specialized(&before, &active);

    choose(&mut h, MODE_POSITION, "absolute");
    let after = clip(&h);
    assert_ne!(after.channels[ch].mode, before.channels[ch].mode);
    assert_ne!(after.channels[ch].position, before.channels[ch].position);
    h.run();
    let active = h.state().active_body().unwrap();
    for (a, b) in specialized(&after, &active).iter().zip(&curve_before) {
        assert!(a.abs_diff_eq(*b, 1e-4), "{a} vs {b}");
    }
    // And the runtime agrees: the goal is where it was.
    let hand = body_id(&h, biped, "hand_l");
    let t = h.state().playback().time_secs;
    let g = goal(&h, biped, hand).unwrap();
    assert!(g.abs_diff_eq(active.specialized(&after.channels[ch], t).position, 1e-4));
}

#[test]
fn a_gizmo_drag_is_one_undo_step() {
    let mut h = editor();
    h.state_mut().run_command(Command::ToggleAutoKey);
    let biped = creature_index(&h, "biped");
    click_body(&mut h, biped, "hand_l");
    step_frames(&mut h, 10);
    let before = clip(&h);
    let steps = h.state().history().len();
    drag_gizmo(&mut h, 2, 50.0);
    let dragged = clip(&h);
    assert_ne!(dragged, before, "auto-key wrote nothing");
    assert_eq!(h.state().history().len(), steps + 1);
    assert!(h.state().title().starts_with('●'));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(clip(&h), before);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(clip(&h), dragged);
}

#[test]
fn work_is_recovered_from_the_autosave() {
    let dir = tempfile::tempdir().unwrap();
    let options = AppOptions {
        recovery_dir: Some(dir.path().to_path_buf()),
        autosave_secs: 0.0,
        ..editor_common::test_options()
    };
    let edited = {
        let mut h = editor_with(options.clone());
        assert!(!h.state().recovery_offered());
        h.get_by_label(ADD_CHANNEL).click();
        h.run_steps(2);
        let file = h.state().recovery_file().unwrap();
        assert!(file.exists(), "no autosave in {}", file.display());
        clip(&h)
        // Dropped without saving: a crash, as far as the files know.
    };
    let mut h = editor_with(options);
    assert!(h.state().recovery_offered());
    h.get_by_label(RECOVER).click();
    h.run();
    assert!(!h.state().recovery_offered());
    assert_eq!(clip(&h), edited);
    assert!(
        h.state().title().starts_with('●'),
        "recovered work is unsaved"
    );
}

#[test]
fn keys_are_set_deleted_copied_and_pasted_at_the_playhead() {
    let mut h = editor();
    let ch = h.state().active_channel().unwrap();
    let count = |h: &Harness<'_, App>| clip(h).channels[ch].position.as_ref().unwrap().len();
    let before = count(&h);
    step_frames(&mut h, 7);
    h.key_press(Key::S);
    h.run();
    assert_eq!(count(&h), before + 1);
    h.key_press(Key::Delete);
    h.run();
    assert_eq!(count(&h), before);

    step_frames(&mut h, 10);
    let t_copy = h.state().key_time();
    let value = clip(&h).channels[ch]
        .position
        .as_ref()
        .unwrap()
        .sample(t_copy)
        .unwrap();
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowLeft);
    step_frames(&mut h, 3);
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run();
    let t = h.state().key_time();
    let pasted = clip(&h).channels[ch]
        .position
        .as_ref()
        .unwrap()
        .sample(t)
        .unwrap();
    assert!((t - 0.1).abs() < 1e-6);
    assert!(pasted.abs_diff_eq(value, 1e-5), "{pasted} vs {value}");
}

#[test]
fn channels_are_added_duplicated_reordered_muted_soloed_and_deleted() {
    let mut h = editor();
    let n = clip(&h).channels.len();
    h.get_by_label(ADD_CHANNEL).click();
    h.run();
    assert_eq!(clip(&h).channels.len(), n + 1);
    assert_eq!(h.state().active_channel(), Some(n));
    h.get_by_label("⎘ Duplicate").click();
    h.run();
    assert_eq!(clip(&h).channels.len(), n + 2);
    assert!(clip(&h).channels[n + 1].name.ends_with("copy"));
    h.get_by_label("⏶").click();
    h.run();
    assert_eq!(h.state().active_channel(), Some(n));
    assert!(clip(&h).channels[n].name.ends_with("copy"));
    h.get_by_label("🗑 Delete").click();
    h.run();
    assert_eq!(clip(&h).channels.len(), n + 1);

    // Solo plays one channel in the preview but leaves the clip alone.
    let biped = creature_index(&h, "biped");
    step_frames(&mut h, 20);
    let hand = body_id(&h, biped, "hand_l");
    let playing = h.state().preview().creatures[biped].pose[hand].position;
    let saved = clip(&h);
    // The new channel's row may be below the fold of the channel list.
    h.get_all_by_label("S").last().unwrap().scroll_to_me();
    h.run();
    h.get_all_by_label("S").last().unwrap().click();
    h.run_steps(2);
    assert_eq!(clip(&h), saved);
    assert!(
        h.state().document().shown_clip().unwrap().channels[..n]
            .iter()
            .all(|c| c.muted)
    );
    let soloed = h.state().preview().creatures[biped].pose[hand].position;
    assert!(soloed.distance(playing) > 0.05, "solo changed nothing");

    // Undo walks back through all of it.
    for _ in 0..4 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    }
    h.run();
    assert_eq!(clip(&h).channels.len(), n);
}

#[test]
fn the_query_builder_counts_what_it_selects_on_every_creature() {
    let mut h = editor();
    h.get_by_label(ADD_CHANNEL).click();
    h.run();
    choose(&mut h, QUERY_CAP, "grasper");
    choose(&mut h, "Left/right", "left");
    let app = h.state();
    let q = clip(&h).channels.last().unwrap().context.clone();
    for e in &app.document().roster {
        let n = q.select(&e.creature).len();
        let text = match n {
            0 => format!("{}: selects nothing", e.creature.name()),
            1 => format!("{}: 1 body", e.creature.name()),
            n => format!("{}: {n} bodies", e.creature.name()),
        };
        // Creatures where the clip does not bind say so instead.
        if app.preview().creatures[creature_index(&h, e.creature.name())].binds() {
            assert!(h.query_by_label(&text).is_some(), "no '{text}'");
        }
    }
    let biped = creature_index(&h, "biped");
    assert_eq!(
        q.select(&h.state().document().roster[biped].creature).len(),
        1
    );
}

#[test]
fn the_history_list_goes_back_and_the_title_shows_unsaved_work() {
    let mut h = editor();
    assert!(!h.state().title().starts_with('●'));
    let original = clip(&h);
    h.get_by_label(ADD_CHANNEL).click();
    h.run();
    h.get_by_label("⎘ Duplicate").click();
    h.run();
    assert!(h.state().title().starts_with('●'));
    h.state_mut().run_command(Command::ShowHistory);
    h.run();
    h.get_by_label("(as opened)").click();
    h.run();
    assert_eq!(clip(&h), original);
    assert!(!h.state().title().starts_with('●'));
    h.get_by_label("Duplicate channel").click();
    h.run();
    assert_eq!(clip(&h).channels.len(), original.channels.len() + 2);
}

#[test]
fn a_tangent_is_edited_in_the_specialized_view_and_undone_in_one_step() {
    use anymorph::editor::panels::curve_edit::{Component, SelectedKey};
    use anymorph::editor::panels::curve_editor::SPECIALIZED;
    use anymorph::editor::panels::key_edit::Dof;
    use anymorph::runtime::curve::TangentMode;

    let mut h = editor();
    let biped = creature_index(&h, "biped");
    click_body(&mut h, biped, "hand_l");
    assert!(h.state().active_body().is_some());
    h.get_by_label(anymorph::editor::app::CURVES).click();
    h.run();
    h.get_by_label(SPECIALIZED).click();
    h.run_steps(2);
    let ch = h.state().active_channel().unwrap();
    let before = clip(&h);
    let key = before.channels[ch].position.as_ref().unwrap().keys()[2];
    assert_ne!(key.mode, TangentMode::Linear);
    let point = SelectedKey {
        component: Component {
            dof: Dof::Position,
            index: 1,
        },
        time: key.time,
    };
    let at = h
        .state()
        .curve_key_on_screen(&point)
        .expect("the key is not drawn");
    h.hover_at(at);
    h.run();
    h.drag_at(at);
    h.drop_at(at);
    h.run();
    h.get_by_label("Linear").click();
    h.run();
    let after = clip(&h);
    let edited = after.channels[ch].position.as_ref().unwrap().keys()[2];
    assert_eq!(edited.mode, TangentMode::Linear);
    assert_eq!(edited.value, key.value, "a tangent edit moved the key");
    // The active body's specialized curve now runs straight into the key from the left.
    let active = h.state().active_body().unwrap();
    let prev = before.channels[ch].position.as_ref().unwrap().keys()[1];
    let mid = (prev.time + key.time) / 2.0;
    assert_ne!(
        active.specialized(&after.channels[ch], mid),
        active.specialized(&before.channels[ch], mid)
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(clip(&h), before);
}

#[test]
fn file_bake_writes_one_glb_per_creature_the_clip_plays_on() {
    let mut h = editor();
    let dir = tempfile::tempdir().unwrap();
    h.state_mut()
        .run_command(Command::BakeGltfTo(dir.path().to_path_buf()));
    h.run();
    let app = h.state();
    let clip = app.document().clip().unwrap();
    for (e, p) in app.document().roster.iter().zip(&app.preview().creatures) {
        let file = dir
            .path()
            .join(format!("{}_{}.glb", clip.name, e.creature.name()));
        assert_eq!(file.exists(), p.binds(), "{}", file.display());
        if p.binds() {
            // It opens as glTF with one animation, the chosen variant.
            let rig = anymorph::io::gltf::import_rig(&file).unwrap();
            assert_eq!(rig.creature.len(), e.creature.len());
        }
    }
}

/// The look-at turn limit is an inspector field in degrees, like the fade angles beside it:
/// typed in, it changes the clip; undo puts it back.
#[test]
fn the_look_at_turn_limit_is_typed_in_the_inspector_and_undone() {
    let mut h = editor();
    // nod_lookat, some clips before wave in the sample project: PageUp steps back to it.
    let clips = &h.state().document().clips;
    let at = |name: &str| clips.iter().position(|c| c.name == name).unwrap();
    for _ in 0..at("wave") - at("nod_lookat") {
        h.key_press(Key::PageUp);
    }
    h.run();
    assert_eq!(clip(&h).name, "nod_lookat");
    let limit = |h: &Harness<'_, App>| clip(h).channels[0].mode.look_at.max_turn_rad.to_degrees();
    assert!((limit(&h) - 40.0).abs() < 1e-3, "{}", limit(&h));
    let field = |h: &mut Harness<'_, App>, act: &dyn Fn(&egui_kittest::Node<'_>)| {
        act(&h.get_by_role_and_label(egui::accesskit::Role::SpinButton, "turning at most"));
        h.run();
    };
    field(&mut h, &|n| n.scroll_to_me());
    field(&mut h, &|n| n.focus());
    field(&mut h, &|n| n.type_text("35"));
    h.key_press(Key::Enter);
    h.run();
    assert!((limit(&h) - 35.0).abs() < 1e-3, "{}", limit(&h));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!((limit(&h) - 40.0).abs() < 1e-3, "{}", limit(&h));
}

/// Actions in the editor: the roster says which branch plays on each creature; an action is
/// made from the active clip, gets branches, has them reordered and removed, all undoable,
/// and saved in the project (a renamed clip stays its branch).
#[test]
fn actions_are_made_reordered_undone_and_saved() {
    let mut h = editor();
    let doc = h.state().document();
    let n = doc.actions.len();
    let roster = doc.roster.len();
    assert_eq!(doc.clip().unwrap().name, "wave");
    // Every creature of the sample project waves, each with what it has.
    let summary = format!("Action 'wave' plays on {roster} of {roster}: ");
    assert!(
        h.query_by_label_contains(&summary).is_some(),
        "no roster line starting {summary}"
    );
    assert!(h.query_by_label("action wave plays wave_head").is_some());

    h.get_by_label_contains("Actions (").click();
    h.run();
    h.get_by_label("New Action from Clip").click();
    h.run();
    let actions = &h.state().document().actions;
    assert_eq!(actions.len(), n + 1);
    let made = actions.last().unwrap().clone();
    assert_eq!(made.name, "wave_2", "named after the clip, not clashing");
    assert_eq!(made.branches, vec!["wave".to_string()]);
    // The new action is picked: the next clip becomes its second branch.
    h.state_mut().run_command(Command::NextClip);
    h.run();
    let second = h.state().document().clip().unwrap().name.clone();
    h.get_by_label("Add Clip to Its Action").click();
    h.run();
    assert_eq!(
        h.state().document().actions[n].branches,
        vec!["wave".to_string(), second.clone()]
    );
    h.state_mut().run_command(Command::MoveBranch {
        action: n,
        from: 1,
        to: 0,
    });
    h.run();
    assert_eq!(h.state().document().actions[n].branches[0], second);
    // A name of its own, and what it is for; a taken name is refused.
    h.state_mut().run_command(Command::SetActionText {
        action: n,
        name: "wave".into(),
        intent: String::new(),
    });
    h.run();
    assert_eq!(h.state().document().actions[n].name, "wave_2");
    h.state_mut().run_command(Command::SetActionText {
        action: n,
        name: " salute ".into(),
        intent: "a raised hand, held".into(),
    });
    h.run();
    assert_eq!(h.state().document().actions[n].name, "salute");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().document().actions[n].name, "wave_2");
    // Undo walks back through the reorder, the added branch and the new action.
    for _ in 0..3 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
    }
    assert_eq!(h.state().document().actions.len(), n);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(h.state().document().actions.len(), n + 1);

    // Renaming a clip keeps it the branch it was, through the save.
    h.state_mut().run_command(Command::SetActiveClip(0));
    h.run();
    let mut renamed = h.state().document().clip().unwrap().clone();
    let old = renamed.name.clone();
    renamed.name = format!("{old}_renamed");
    h.state_mut().run_command(Command::EditClip {
        clip: Box::new(renamed.clone()),
        label: "Rename".into(),
        drag: None,
    });
    h.run();
    let dir = tempfile::tempdir().unwrap();
    // The project's files are relative to it: save next to the samples' folder layout.
    let path = dir.path().join("acts.project.json");
    h.state_mut()
        .run_command(Command::SaveProjectTo(path.clone()));
    h.run();
    let saved = anymorph::io::load_project(&path).unwrap();
    assert_eq!(saved.project.actions.len(), n + 1);
    let holding: Vec<&str> = saved
        .project
        .actions
        .iter()
        .filter(|a| a.branches.contains(&renamed.name))
        .map(|a| a.name.as_str())
        .collect();
    assert!(
        !holding.is_empty(),
        "'{old}' was a branch; its new name must be"
    );
    assert!(
        saved
            .project
            .actions
            .iter()
            .all(|a| !a.branches.contains(&old))
    );
}

#[test]
fn clips_are_made_duplicated_deleted_undone_and_saved_as_files() {
    use anymorph::editor::panels::channels::{DELETE_CLIP, DUPLICATE_CLIP, NEW_CLIP};
    let mut h = editor();
    let n = h.state().document().clips.len();
    let a = h.state().document().active_clip;
    let first = clip(&h);
    // Duplicate: the same channels and keys under a name of its own, right after it.
    h.get_by_label(DUPLICATE_CLIP).click();
    h.run();
    let doc = h.state().document();
    assert_eq!(doc.clips.len(), n + 1);
    assert_eq!(doc.active_clip, a + 1);
    let copy = clip(&h);
    assert_eq!(copy.name, format!("{}_2", first.name));
    assert_eq!(copy.channels, first.channels);
    // New: empty, named untitled, and the keys go to it.
    h.get_by_label(NEW_CLIP).click();
    h.run();
    h.get_by_label(anymorph::editor::panels::channels::EMPTY_CLIP)
        .click();
    h.run();
    let doc = h.state().document();
    assert_eq!(doc.clips.len(), n + 2);
    assert_eq!(doc.active_clip, a + 2);
    assert_eq!(clip(&h).name, "untitled");
    assert!(clip(&h).channels.is_empty());
    h.state_mut().run_command(Command::NewClip);
    h.run();
    assert_eq!(
        clip(&h).name,
        "untitled_2",
        "a second new clip does not clash"
    );
    // Delete: out of the library and out of every action that had it as a branch.
    h.state_mut().run_command(Command::SetActiveClip(a));
    h.run();
    let actions_before = h.state().document().actions.clone();
    assert!(
        actions_before
            .iter()
            .any(|a| a.branches.contains(&first.name))
    );
    h.get_by_label(DELETE_CLIP).click();
    h.run();
    let doc = h.state().document();
    assert_eq!(doc.clips.len(), n + 2);
    assert!(doc.clips.iter().all(|c| c.name != first.name));
    assert!(
        doc.actions
            .iter()
            .all(|a| !a.branches.contains(&first.name) && !a.branches.is_empty())
    );
    assert_eq!(
        doc.clip().unwrap().name,
        copy.name,
        "the next clip is active"
    );
    // Undo brings the clip back, in its place and in its actions.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    let doc = h.state().document();
    assert_eq!(doc.clips[a], first);
    assert_eq!(doc.actions, actions_before);
    // Saved: each clip its own file beside the project, the deleted one not listed.
    h.state_mut().run_command(Command::DeleteClip);
    h.run();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.project.json");
    h.state_mut()
        .run_command(Command::SaveProjectTo(path.clone()));
    h.run();
    let saved = anymorph::io::load_project(&path).unwrap();
    let names: Vec<&str> = saved.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), n + 2);
    for want in [copy.name.as_str(), "untitled", "untitled_2"] {
        assert!(names.contains(&want), "{want} not saved: {names:?}");
    }
    assert!(!names.contains(&first.name.as_str()));
    for file in &saved.project.clips {
        assert!(
            dir.path().join(file).is_file(),
            "{} missing",
            file.display()
        );
    }
    // Down to one clip, Delete is refused: a project always has a clip to key.
    let clips = h.state().document().clips.len();
    for _ in 1..clips {
        h.state_mut().run_command(Command::DeleteClip);
        h.run();
    }
    assert_eq!(h.state().document().clips.len(), 1);
    h.state_mut().run_command(Command::DeleteClip);
    h.run();
    assert_eq!(h.state().document().clips.len(), 1);
}

#[test]
fn the_editor_opens_playing_the_active_clip() {
    let mut h = editor_with(AppOptions {
        play_on_open: true,
        ..editor_common::test_options()
    });
    assert!(h.state().playback().playing, "opened paused");
    let before = h.state().playback().time_secs;
    h.run_steps(3);
    // It may have looped: moved is enough.
    assert_ne!(
        h.state().playback().time_secs,
        before,
        "the playhead stood still"
    );
    // Tests and tools start paused at frame 0 when they ask to.
    let h = editor();
    assert!(!h.state().playback().playing);
}

#[test]
fn a_new_channel_is_scrolled_into_view() {
    let mut h = editor();
    let heading = h.get_by_label("Channels").rect();
    for _ in 0..12 {
        h.get_by_label(ADD_CHANNEL).click();
        h.run_steps(2);
        let clip = clip(&h);
        let active = h
            .state()
            .active_channel()
            .expect("the new channel is active");
        assert_eq!(active, clip.channels.len() - 1);
        let name = &clip.channels[active].name;
        let row = h
            .query_all_by_label(name)
            .map(|n| n.rect())
            .find(|r| r.left() < heading.right() + 200.0 && r.top() > heading.bottom())
            .unwrap_or_else(|| panic!("no row for {name}"));
        // Within the list under the heading, not pushed below the panel's end.
        assert!(
            row.bottom() < heading.bottom() + 0.5 * editor_common::WINDOW.y,
            "channel {} ({name}) is out of view at {row:?}",
            clip.channels.len()
        );
    }
}

#[test]
fn a_new_clip_starts_from_a_bundled_template() {
    use anymorph::editor::panels::channels::NEW_CLIP;
    let mut h = editor();
    let n = h.state().document().clips.len();
    h.get_by_label(NEW_CLIP).click();
    h.run();
    h.get_by_label("look_at_body").click();
    h.run();
    let doc = h.state().document();
    assert_eq!(doc.clips.len(), n + 1);
    let made = clip(&h);
    // The project has its own look_at_body: the copy is named apart, with the bundled keys.
    assert_eq!(made.name, "look_at_body_2");
    let bundled = anymorph::samples::clips()
        .unwrap()
        .into_iter()
        .find(|c| c.name == "look_at_body")
        .unwrap();
    assert_eq!(made.channels, bundled.channels);
    assert!(!made.channels.is_empty());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().document().clips.len(), n);
}

#[test]
fn an_action_is_duplicated_under_a_name_of_its_own_and_undone() {
    let mut h = editor();
    let actions = h.state().document().actions.clone();
    let wave = actions.iter().position(|a| a.name == "wave").unwrap();
    h.get_by_label_contains("Actions (").click();
    h.run();
    // The row's ⎘ buttons are in action order.
    let copies: Vec<_> = h.query_all_by_label("⎘").collect();
    assert_eq!(copies.len(), actions.len());
    copies[wave].click();
    h.run();
    let doc = h.state().document();
    assert_eq!(doc.actions.len(), actions.len() + 1);
    let made = &doc.actions[wave + 1];
    assert_eq!(made.name, "wave_2");
    assert_eq!(made.branches, actions[wave].branches);
    assert_eq!(made.intent, actions[wave].intent);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().document().actions, actions);
}
