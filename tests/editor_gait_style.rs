//! Tuning a gait style as an animator does: with every creature walking, the footfall
//! window shows each foot's stance and swing; dragging the end of a foot's swing changes the
//! trot's duty factor, every walking creature steps with it at once, undo takes it back, and
//! a save writes it to the project's gait file.
#![cfg(feature = "editor")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod editor_common;

use anymorph::editor::AnymorphApp;
use anymorph::editor::command::Command;
use anymorph::editor::panels::footfall::{DUTY, FOOTFALLS, REFUSED, footfalls};
use anymorph::editor::panels::locomotion::{GAIT, LOCOMOTION};
use anymorph::editor::panels::menu_bar::{NEW_GAIT_STYLE, gait_template_label};
use anymorph::runtime::gait::{FootPhase, GaitStyle};
use editor_common::{WINDOW, cpu_wgpu_setup, creature_index, drag_over_frames, test_options};
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::Path;

const FRAME_SECS: f32 = 1.0 / 30.0;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// The sample project copied into `dir` (its clips, gaits and creatures), so a save writes
/// there.
fn sample_copy(dir: &Path) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let assets = dir.join("assets");
    std::fs::create_dir_all(&assets).unwrap();
    std::fs::copy(
        root.join("assets/sample.project.json"),
        assets.join("sample.project.json"),
    )
    .unwrap();
    for sub in ["clips", "gaits"] {
        copy_dir(&root.join("assets").join(sub), &assets.join(sub));
    }
    copy_dir(
        &root.join("sample_creatures"),
        &dir.join("sample_creatures"),
    );
    assets.join("sample.project.json")
}

fn editor_on(project: &Path) -> Harness<'static, AnymorphApp> {
    let options = anymorph::editor::AppOptions {
        project: project.to_path_buf(),
        ..test_options()
    };
    let mut h = Harness::builder()
        .with_size(WINDOW)
        .with_step_dt(FRAME_SECS)
        .wgpu_setup(cpu_wgpu_setup())
        .build_eframe(move |cc| AnymorphApp::new(cc, options.clone()));
    h.run_steps(4);
    h
}

/// Walk on, the trot picked in the Locomotion panel, and the footfall window open (Alt+F).
fn trot_with_footfalls(h: &mut Harness<'static, AnymorphApp>) {
    h.get_by_label(LOCOMOTION).click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "Walk").click();
    h.run();
    h.get_by_label(GAIT).click();
    h.run();
    h.get_by_label("trot").click();
    h.run();
    h.key_press_modifiers(Modifiers::ALT, Key::F);
    h.run();
    assert!(
        h.state().preferences().panels.footfalls,
        "Alt+F opened no window"
    );
    h.get_by_label(FOOTFALLS);
}

/// The share of `frames` frames of playback that each of the biped's feet stood, from its
/// player's gait.
fn stance_share(h: &mut Harness<'static, AnymorphApp>, creature: usize, frames: usize) -> Vec<f32> {
    h.key_press(Key::Space);
    let mut standing: Vec<usize> = Vec::new();
    for _ in 0..frames {
        h.step();
        let app = h.state();
        let walker = app.preview().creatures[creature]
            .walker
            .as_ref()
            .expect("not walking");
        let feet = walker.character().gait().feet();
        standing.resize(feet.len(), 0);
        for (k, f) in feet.iter().enumerate() {
            standing[k] += usize::from(f.phase == FootPhase::Stance);
        }
    }
    h.key_press(Key::Space);
    h.run();
    standing.iter().map(|&n| n as f32 / frames as f32).collect()
}

/// The project's trot as the editor holds it now.
fn trot_style(app: &AnymorphApp) -> &std::sync::Arc<anymorph::runtime::gait::GaitStyle> {
    app.document()
        .gaits
        .iter()
        .find(|g| g.name == "trot")
        .expect("the sample project has a trot")
}

fn trot_file(project: &Path) -> String {
    std::fs::read_to_string(project.parent().unwrap().join("gaits/trot.gait.json")).unwrap()
}

#[test]
fn dragging_a_swings_end_in_the_footfall_window_retimes_every_walker_undoably_and_saves() {
    let dir = tempfile::tempdir().unwrap();
    let project = sample_copy(dir.path());
    let file_before = trot_file(&project);
    let mut h = editor_on(&project);
    trot_with_footfalls(&mut h);
    let biped = creature_index(&h, "biped");

    // Every walking creature has a bar per foot, read from its player.
    let app = h.state();
    let shown = footfalls(app.document(), app.preview(), &app.preferences().locomotion);
    assert_eq!(
        shown.len(),
        app.document().roster.len(),
        "a creature has no bars"
    );
    let biped_bars = &shown.iter().find(|c| c.creature == biped).unwrap().groups[0];
    assert_eq!(biped_bars.feet.len(), 2);
    let foot = biped_bars.feet[0].clone();
    let trot_before = trot_style(app).clone();

    let before = stance_share(&mut h, biped, 60);
    // The foot's landing, at the end of its light swing, dragged back a fifth of the cycle:
    // a shorter swing, a longer stance.
    let bar = h
        .state()
        .footfall_bar_on_screen(biped, 0, 0)
        .expect("the biped's first foot has no bar");
    let landing = (foot.trigger + 1.0 - foot.duty).rem_euclid(1.0);
    let from = egui::pos2(bar.min.x + landing * bar.width(), bar.center().y);
    let to = from - egui::vec2(0.2 * bar.width(), 0.0);
    drag_over_frames(&mut h, from, to);
    let app = h.state();
    assert_eq!(
        app.history().labels().last(),
        Some("Move a foot's landing"),
        "the drag made no edit: {:?}",
        app.message()
    );
    assert_eq!(app.history().len(), 1, "one drag, one undo step");
    let trot = trot_style(app);
    let rows = &trot.groups.iter().find(|g| g.feet == 2).unwrap().speeds;
    assert!(rows.iter().all(|r| r.duty_per_foot.len() == 2), "{rows:?}");

    // Every walker whose leg group reads the trot's two-foot rows takes the edit at once,
    // with no step taken: its first foot's duty rose by what the drag moved.
    let app = h.state();
    let now = footfalls(app.document(), app.preview(), &app.preferences().locomotion);
    let mut followed = 0;
    for (was, is) in shown.iter().zip(&now) {
        for (g0, g1) in was.groups.iter().zip(&is.groups) {
            if trot_before.table(g0.table)
                != trot_before
                    .groups
                    .iter()
                    .find(|g| g.feet == 2)
                    .map(|g| &g.speeds[..])
            {
                continue;
            }
            let rose = g1.feet[0].duty - g0.feet[0].duty;
            assert!((rose - 0.2).abs() < 0.03, "{}: duty rose {rose}", is.name);
            followed += 1;
        }
    }
    assert!(followed >= 1, "no walker reads the two-foot rows");
    let after = stance_share(&mut h, biped, 60);
    assert!(
        after[0] > before[0] + 0.1,
        "the dragged foot stands no longer: {before:?} -> {after:?}"
    );

    // Undo: the style is as loaded, and the feet step as before.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    let app = h.state();
    let trot = trot_style(app);
    assert_eq!(**trot, *trot_before, "undo left the style edited");
    let undone = stance_share(&mut h, biped, 60);
    assert!(
        (undone[0] - before[0]).abs() < 0.08,
        "after undo: {before:?} vs {undone:?}"
    );

    // Redo, and a typed duty in the fields; then save: the trot's file holds the edit.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    h.get_by_role_and_label(Role::SpinButton, DUTY).focus();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, DUTY)
        .type_text("0.6");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().history().len(), 2, "{:?}", h.state().message());
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(!h.state().history().is_dirty(), "{:?}", h.state().message());
    let file_after = trot_file(&project);
    assert_ne!(
        file_after, file_before,
        "the save left the trot's file alone"
    );
    let saved =
        anymorph::io::load_gait(&project.parent().unwrap().join("gaits/trot.gait.json")).unwrap();
    let edited = h
        .state()
        .document()
        .gaits
        .iter()
        .find(|g| g.name == "trot")
        .unwrap()
        .clone();
    assert_eq!(saved, *edited);
    // The styles not edited keep their files as written by hand.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for other in ["walk", "run", "limp"] {
        let name = format!("gaits/{other}.gait.json");
        assert_eq!(
            std::fs::read_to_string(project.parent().unwrap().join(&name)).unwrap(),
            std::fs::read_to_string(root.join("assets").join(&name)).unwrap(),
            "{other} was rewritten"
        );
    }
}

/// A number no style allows is clamped by the field or refused with a message, never saved,
/// never a panic.
#[test]
fn a_typed_duty_out_of_range_is_clamped_and_a_style_with_nan_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let project = sample_copy(dir.path());
    let mut h = editor_on(&project);
    trot_with_footfalls(&mut h);
    let mut duties = Vec::new();
    for text in ["7", "-1", "NaN"] {
        h.get_by_role_and_label(Role::SpinButton, DUTY).focus();
        h.run();
        h.get_by_role_and_label(Role::SpinButton, DUTY)
            .type_text(text);
        h.run();
        h.key_press(Key::Enter);
        h.run();
        h.key_press(Key::Escape);
        h.run();
        let app = h.state();
        let trot = trot_style(app);
        duties.push(trot.groups[1].speeds[0].duty);
    }
    // The field's range clamps whatever is typed (egui takes "NaN" to the top of the range).
    assert_eq!(duties, [0.95, 0.05, 0.95]);
    let steps = h.state().history().len();
    // A style no runtime would load is refused with the field named, and nothing changes.
    let index = h
        .state()
        .document()
        .gaits
        .iter()
        .position(|g| g.name == "trot")
        .unwrap();
    let mut bad = (*h.state().document().gaits[index]).clone();
    bad.groups[1].speeds[0].stride = f32::NAN;
    h.state_mut().run_command(Command::EditGait {
        index,
        style: Box::new(bad),
        label: "bad".into(),
        drag: None,
    });
    h.run();
    let message = h.state().message().unwrap_or_default().to_string();
    assert!(message.contains("finite"), "{message:?}");
    assert_eq!(h.state().history().len(), steps);
    let trot = h
        .state()
        .document()
        .gaits
        .iter()
        .find(|g| g.name == "trot")
        .unwrap()
        .clone();
    trot.validate().unwrap();
    for table in &trot.groups {
        for row in &table.speeds {
            assert!((0.05..=0.95).contains(&row.duty), "{row:?}");
        }
    }
}

/// Dragging near the start of a swing moves the foot's lift-off (its trigger): the bar moves
/// along the cycle, and the walkers lift that foot later.
#[test]
fn dragging_a_swings_start_moves_the_feet_trigger() {
    let dir = tempfile::tempdir().unwrap();
    let project = sample_copy(dir.path());
    let mut h = editor_on(&project);
    trot_with_footfalls(&mut h);
    let biped = creature_index(&h, "biped");
    let app = h.state();
    let shown = footfalls(app.document(), app.preview(), &app.preferences().locomotion);
    let foot = shown.iter().find(|c| c.creature == biped).unwrap().groups[0].feet[1].clone();
    let bar = h.state().footfall_bar_on_screen(biped, 0, 1).unwrap();
    // A little inside the swing, so the press is nearer its start than its end.
    let from = egui::pos2(
        bar.min.x + (foot.trigger + 0.02) * bar.width(),
        bar.center().y,
    );
    drag_over_frames(&mut h, from, from + egui::vec2(0.1 * bar.width(), 0.0));
    let app = h.state();
    assert_eq!(
        app.history().labels().last(),
        Some("Move a foot's lift-off"),
        "{:?}",
        app.message()
    );
    let now = footfalls(app.document(), app.preview(), &app.preferences().locomotion);
    let moved = now.iter().find(|c| c.creature == biped).unwrap().groups[0].feet[1].trigger;
    assert!(
        (moved - foot.trigger - 0.1).abs() < 0.02,
        "{} -> {moved}",
        foot.trigger
    );
    // The other foot keeps its own.
    let other = now.iter().find(|c| c.creature == biped).unwrap().groups[0].feet[0].trigger;
    assert_eq!(
        other,
        shown.iter().find(|c| c.creature == biped).unwrap().groups[0].feet[0].trigger
    );
}

/// The editor started with `options` (the frame time the walk tests use).
fn editor_with_options(options: anymorph::editor::AppOptions) -> Harness<'static, AnymorphApp> {
    let mut h = Harness::builder()
        .with_size(WINDOW)
        .with_step_dt(FRAME_SECS)
        .wgpu_setup(cpu_wgpu_setup())
        .build_eframe(move |cc| AnymorphApp::new(cc, options.clone()));
    h.run_steps(4);
    h
}

/// Playback > New Gait Style from Template > `template`, as the animator clicks it.
fn new_style_by_menu(h: &mut Harness<'static, AnymorphApp>, template: &str) {
    h.get_by_label("Playback").click();
    h.run();
    h.get_by_label(NEW_GAIT_STYLE).click();
    h.run();
    h.get_by_label(&gait_template_label(template)).click();
    h.run();
}

/// Bundled style `name`, as the template menu copies it.
fn bundled(name: &str) -> GaitStyle {
    let (_, json) = anymorph::samples::GAITS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap();
    anymorph::io::gait_from_str(json, name).unwrap()
}

/// `style` under another name (to compare a copy with its template).
fn renamed(style: &GaitStyle, name: &str) -> GaitStyle {
    GaitStyle {
        name: name.into(),
        ..style.clone()
    }
}

#[test]
fn a_style_from_a_template_gets_a_free_name_undoes_and_saves_beside_the_project() {
    let dir = tempfile::tempdir().unwrap();
    let project = sample_copy(dir.path());
    let gaits_dir = project.parent().unwrap().join("gaits");
    // A file where a save would put "trot-2", which the project does not list: not ours.
    let stranger = gaits_dir.join("trot-2.gait.json");
    std::fs::write(&stranger, "a file the project never read").unwrap();
    let mut h = editor_on(&project);
    let n = h.state().document().gaits.len();
    new_style_by_menu(&mut h, "trot");
    let app = h.state();
    assert_eq!(app.document().gaits.len(), n + 1, "{:?}", app.message());
    let made = app.document().gaits[n].clone();
    // "trot" is the project's, "trot-2" a file beside it.
    assert_eq!(made.name, "trot-3");
    assert_eq!(renamed(&made, "trot"), bundled("trot"));
    assert_eq!(
        app.history().labels().last(),
        Some("New gait style from template")
    );
    // The walk takes it up, so the Footfalls window edits it.
    assert_eq!(app.preferences().locomotion.gait, "trot-3");
    assert!(app.history().is_dirty());

    // A second one does not take the unsaved first one's name.
    new_style_by_menu(&mut h, "trot");
    assert_eq!(h.state().document().gaits[n + 1].name, "trot-4");
    // Each is one undo step.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().document().gaits.len(), n + 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().document().gaits.len(), n);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(h.state().document().gaits.len(), n + 1);
    assert_eq!(h.state().document().gaits[n], made);

    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(!h.state().history().is_dirty(), "{:?}", h.state().message());
    assert_eq!(
        std::fs::read_to_string(&stranger).unwrap(),
        "a file the project never read"
    );
    assert!(
        !gaits_dir.join("trot-4.gait.json").exists(),
        "an undone style was saved"
    );
    let saved = anymorph::io::load_project(&project).unwrap();
    assert_eq!(saved.gaits.len(), n + 1);
    assert_eq!(saved.gaits[n], *made);
    assert_eq!(
        saved.project.gaits[n],
        Path::new("gaits").join("trot-3.gait.json")
    );

    // Undone after the save and another made in its place: trot-3's file keeps trot-3.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    new_style_by_menu(&mut h, "run");
    assert_eq!(h.state().document().gaits[n].name, "run-2");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(
        anymorph::io::load_gait(&gaits_dir.join("trot-3.gait.json")).unwrap(),
        *made
    );
    let saved = anymorph::io::load_project(&project).unwrap();
    let names: Vec<&str> = saved.gaits.iter().map(|g| g.name.as_str()).collect();
    assert!(
        names.contains(&"run-2") && !names.contains(&"trot-3"),
        "{names:?}"
    );
}

/// Save As into a folder that already has a file of the new style's name leaves that file
/// alone: the style goes to a file of its own, and the project lists that one.
#[test]
fn a_new_style_never_overwrites_a_file_of_its_name_where_the_project_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("gaits")).unwrap();
    let theirs = dir.path().join("gaits/trot.gait.json");
    std::fs::write(&theirs, "someone else's").unwrap();
    let mut doc = anymorph::editor::document::Document::new_project(Vec::new());
    let mut content = doc.content();
    content.gaits.push(std::sync::Arc::new(bundled("trot")));
    doc.set_content(content);
    let path = dir.path().join("p.project.json");
    doc.save_as(&path).unwrap();
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), "someone else's");
    let saved = anymorph::io::load_project(&path).unwrap();
    assert_eq!(saved.gaits, [bundled("trot")]);
    assert_eq!(
        saved.project.gaits,
        [Path::new("gaits").join("trot_2.gait.json")]
    );
    // Saved again: the same file, not a third.
    doc.save_as(&path).unwrap();
    assert_eq!(
        anymorph::io::load_project(&path).unwrap().project.gaits,
        saved.project.gaits
    );
}

/// A style made and tuned but never saved is in the recovery file: a crash loses neither.
#[test]
fn a_new_style_not_yet_saved_comes_back_from_the_recovery_file() {
    let dir = tempfile::tempdir().unwrap();
    let project = sample_copy(dir.path());
    let recovery = dir.path().join("recovery");
    let options = anymorph::editor::AppOptions {
        project: project.clone(),
        recovery_dir: Some(recovery.clone()),
        autosave_secs: 0.0,
        ..test_options()
    };
    let n;
    let tuned;
    {
        let mut h = editor_with_options(options.clone());
        n = h.state().document().gaits.len();
        new_style_by_menu(&mut h, "run");
        let mut style = (*h.state().document().gaits[n]).clone();
        assert_eq!(style.name, "run-2");
        let row = &mut style.wave[0];
        row.stride = (row.stride + 0.25).min(10.0);
        h.state_mut().run_command(Command::EditGait {
            index: n,
            style: Box::new(style.clone()),
            label: "Gait Stride".into(),
            drag: None,
        });
        h.run_steps(3);
        tuned = h.state().document().gaits[n].clone();
        assert_eq!(*tuned, style, "{:?}", h.state().message());
        assert!(
            anymorph::editor::recovery::file_for(&recovery, Some(&project)).exists(),
            "nothing autosaved"
        );
        // Dropped without saving, as a crash would.
    }
    let mut h = editor_with_options(options);
    h.get_by_label(anymorph::editor::RECOVER).click();
    h.run();
    let doc = h.state().document();
    assert_eq!(doc.gaits.len(), n + 1, "the new style was not recovered");
    assert_eq!(doc.gaits[n], tuned);
    // The project's own styles are as their files hold them.
    let on_disk = anymorph::io::load_project(&project).unwrap();
    for (a, b) in doc.gaits.iter().zip(&on_disk.gaits) {
        assert_eq!(**a, *b);
    }
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let saved = anymorph::io::load_gait(
        &project
            .parent()
            .unwrap()
            .join("gaits")
            .join("run-2.gait.json"),
    )
    .unwrap();
    assert_eq!(saved, *tuned);
}

/// With Walk off the window still shows every creature's cycle, at the Locomotion panel's
/// speed: the feet it shows are the ones the walk then takes, and it follows the speed.
/// A drag that can change nothing says why in the window, not only in a tooltip.
#[test]
fn with_walk_off_the_diagram_shows_the_cycle_at_the_panels_speed_and_refusals_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let project = sample_copy(dir.path());
    let mut h = editor_on(&project);
    // Only the biped and the octopod (its eight feet read the generated wave), so both fit
    // the window without scrolling.
    let keep = [creature_index(&h, "biped"), creature_index(&h, "octopod")];
    for i in (0..h.state().document().roster.len()).rev() {
        if !keep.contains(&i) {
            h.state_mut().run_command(Command::RemoveCreature(i));
        }
    }
    h.run();
    let biped = creature_index(&h, "biped");
    let octopod = creature_index(&h, "octopod");
    h.get_by_label(LOCOMOTION).click();
    h.run();
    h.get_by_label(GAIT).click();
    h.run();
    h.get_by_label("trot").click();
    h.run();
    h.key_press_modifiers(Modifiers::ALT, Key::F);
    h.run();
    assert!(!h.state().preferences().locomotion.walking);

    let app = h.state();
    let standing = footfalls(app.document(), app.preview(), &app.preferences().locomotion);
    assert_eq!(standing.len(), 2, "Walk off shows no creature");
    let biped_standing = standing.iter().find(|c| c.creature == biped).unwrap();
    assert_eq!(biped_standing.groups[0].feet.len(), 2);
    assert!(h.state().footfall_bar_on_screen(biped, 0, 0).is_some());

    // The Locomotion panel's speed, faster: the diagram reads the rows for it.
    let mut prefs = h.state().preferences().locomotion.clone();
    prefs.speed *= 2.0;
    h.state_mut()
        .run_command(Command::SetLocomotion(Box::new(prefs)));
    h.run();
    let app = h.state();
    let faster = footfalls(app.document(), app.preview(), &app.preferences().locomotion);
    let biped_faster = faster.iter().find(|c| c.creature == biped).unwrap();
    let ratio = biped_faster.groups[0].speed_legs / biped_standing.groups[0].speed_legs;
    assert!((ratio - 2.0).abs() < 1e-3, "{ratio}");

    // Walking at that speed, the feet are the ones shown standing.
    h.get_by_role_and_label(Role::CheckBox, "Walk").click();
    h.run();
    h.run_steps(3);
    let app = h.state();
    let walking = footfalls(app.document(), app.preview(), &app.preferences().locomotion);
    let biped_walking = walking.iter().find(|c| c.creature == biped).unwrap();
    assert_eq!(biped_walking.groups[0].feet, biped_faster.groups[0].feet);
    assert_eq!(
        biped_walking.groups[0].speed_legs,
        biped_faster.groups[0].speed_legs
    );
    h.get_by_role_and_label(Role::CheckBox, "Walk").click();
    h.run();

    // The octopod's lift-offs are generated: a drag there is refused, in words.
    let wave = faster
        .iter()
        .find(|c| c.creature == octopod)
        .unwrap()
        .groups[0]
        .clone();
    assert_eq!(
        wave.table,
        anymorph::runtime::gait::style::TableId::Wave,
        "the octopod reads no wave"
    );
    assert!(h.query_by_label_contains(REFUSED).is_none());
    let steps = h.state().history().len();
    let bar = h.state().footfall_bar_on_screen(octopod, 0, 0).unwrap();
    let from = egui::pos2(
        bar.min.x + (wave.feet[0].trigger + 0.02).rem_euclid(1.0) * bar.width(),
        bar.center().y,
    );
    drag_over_frames(&mut h, from, from + egui::vec2(0.1 * bar.width(), 0.0));
    assert_eq!(h.state().history().len(), steps, "a refused drag edited");
    // In the window's text, not only in the bar's tooltip (which has no "Cannot drag").
    assert!(
        h.query_by_label_contains(&format!(
            "{REFUSED} the triggers of 7 or more feet are generated"
        ))
        .is_some(),
        "the refusal is not written in the window"
    );

    // A new project has no style of its own: its built-in walk says so when dragged.
    h.state_mut().run_command(Command::NewProject);
    h.run();
    h.run();
    let biped = creature_index(&h, "biped");
    let bar = h
        .state()
        .footfall_bar_on_screen(biped, 0, 0)
        .expect("the built-in walk shows no bar");
    drag_over_frames(
        &mut h,
        bar.center(),
        bar.center() + egui::vec2(0.1 * bar.width(), 0.0),
    );
    assert_eq!(h.state().history().len(), 0);
    assert!(
        h.query_by_label_contains(&format!("{REFUSED} the built-in walk"))
            .is_some(),
        "the refusal is not written in the window"
    );
}
