//! An imported rig in the editor, driven as an animator drives it (egui_kittest on the real
//! app): its skinned mesh in the viewport following the runtime's pose, its caps edited in
//! the caps window, saved as `*.creature.json` that still finds the mesh, and a creature
//! whose mesh is missing still shown by its bodies.
#![cfg(feature = "editor")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod editor_common;

use anymorph::editor::command::{Command, Selection};
use anymorph::editor::panels::caps::{ADD_CAP, EDITED_SOURCE, FILTER, chip_label};
use anymorph::io::gltf::mesh_for_creature;
use anymorph::runtime::creature::Cap;
use editor_common::{creature_index, editor};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};

type App = anymorph::editor::AnymorphApp;

fn humanoid_glb() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gltf/humanoid.glb")
}

/// The editor with the humanoid rig imported, selected and framed.
fn with_humanoid() -> (Harness<'static, App>, usize) {
    let mut h = editor();
    h.state_mut()
        .run_command(Command::AddCreature(humanoid_glb()));
    h.run();
    let ci = creature_index(&h, "humanoid");
    h.state_mut().run_command(Command::Select(Some(Selection {
        creature: ci,
        body: None,
    })));
    h.state_mut().run_command(Command::FrameSelected);
    h.run();
    (h, ci)
}

/// Pixels of the viewport that differ clearly between two renders of the window.
fn viewport_difference(h: &Harness<'_, App>, a: &image::RgbaImage, b: &image::RgbaImage) -> usize {
    let ppp = h.ctx.pixels_per_point();
    let r = h.state().viewport().rect();
    let (x0, y0) = ((r.min.x * ppp) as u32, (r.min.y * ppp) as u32);
    let (x1, y1) = ((r.max.x * ppp) as u32, (r.max.y * ppp) as u32);
    let mut n = 0;
    for y in y0..y1.min(a.height()) {
        for x in x0..x1.min(a.width()) {
            let (p, q) = (a.get_pixel(x, y), b.get_pixel(x, y));
            if p.0.iter().zip(q.0).any(|(u, v)| u.abs_diff(v) > 24) {
                n += 1;
            }
        }
    }
    n
}

fn skinned_positions(h: &Harness<'_, App>, ci: usize) -> Vec<glam::Vec3> {
    let mesh = h.state().creature_mesh(ci).expect("a mesh");
    let mut skin = Vec::new();
    mesh.skin_matrices(&h.state().preview().creatures[ci].pose, &mut skin);
    mesh.skin_positions(&skin)
}

#[test]
fn an_imported_rig_draws_its_skinned_mesh_which_follows_the_pose() {
    let (mut h, ci) = with_humanoid();
    let app = h.state();
    let mesh = app.creature_mesh(ci).expect("the rig's mesh is loaded");
    assert!(mesh.triangle_count() > 100);
    assert_eq!(
        mesh.inverse_bind.len(),
        app.document().roster[ci].creature.len()
    );
    assert_eq!(app.viewport().mesh_count, 1, "only the rig has a mesh");

    // The mesh reaches the image: hiding it changes the viewport where the rig stands.
    let with_mesh = h.render().unwrap();
    h.state_mut().run_command(Command::ToggleMesh);
    h.run();
    assert_eq!(h.state().viewport().mesh_count, 0);
    let without = h.render().unwrap();
    let shown = viewport_difference(&h, &with_mesh, &without);
    assert!(shown > 300, "the mesh changed {shown} pixels");
    h.state_mut().run_command(Command::ToggleMesh);
    h.run();

    // Find a clip that moves the humanoid; the mesh skinned to the preview's pose moves
    // with it (the pose the runtime computed: the editor poses nothing itself).
    let rest = skinned_positions(&h, ci);
    let clips = h.state().document().clips.len();
    let mut moved = None;
    for i in 0..clips {
        h.state_mut().run_command(Command::SetActiveClip(i));
        h.run();
        if !h.state().preview().creatures[ci].binds() {
            continue;
        }
        let duration = h.state().document().clip().unwrap().duration_secs;
        h.state_mut().run_command(Command::SetTime(duration * 0.4));
        h.run();
        let posed = skinned_positions(&h, ci);
        let furthest = rest
            .iter()
            .zip(&posed)
            .map(|(a, b)| a.distance(*b))
            .fold(0.0f32, f32::max);
        if furthest > 0.05 {
            moved = Some((i, furthest));
            break;
        }
    }
    let (clip, furthest) = moved.expect("some sample clip moves the humanoid");
    eprintln!("clip {clip} moves a vertex {furthest:.2} m");
    let posed = h.render().unwrap();
    h.state_mut().run_command(Command::SetTime(0.0));
    h.run();
    let start = h.render().unwrap();
    let changed = viewport_difference(&h, &posed, &start);
    assert!(changed > 100, "posing changed {changed} pixels");

    // Proxies off: the mesh is drawn alone (opaque) and the other creatures keep theirs.
    h.state_mut().run_command(Command::ToggleProxies);
    h.run();
    assert_eq!(h.state().viewport().mesh_count, 1);
    assert!(
        h.state().viewport().body_count > 0,
        "bodies still count for picking"
    );
}

#[test]
fn caps_edited_in_the_caps_window_are_undoable_and_saved_with_the_mesh_reference() {
    let (mut h, ci) = with_humanoid();
    h.state_mut().run_command(Command::ToggleCapsPanel);
    h.run();
    let hand = h.state().document().roster[ci]
        .creature
        .find("hand.L")
        .unwrap();
    let caps = |h: &Harness<'_, App>| {
        h.state().document().roster[ci]
            .creature
            .body(hand)
            .caps
            .clone()
    };
    assert_eq!(caps(&h), vec![Cap::Grasper]);

    // Narrow the list down to the left hand, then add a cap from its menu.
    h.get_by_label(FILTER).click();
    h.run();
    h.get_by_label(FILTER).type_text("hand.L");
    h.run();
    h.get_by_label(ADD_CAP).click();
    h.run();
    h.get_by_label("weapon").click();
    h.run();
    assert_eq!(caps(&h), vec![Cap::Grasper, Cap::Weapon]);
    let creature = &h.state().document().roster[ci].creature;
    assert_eq!(creature.count_cap(&Cap::Weapon), 1);
    assert_eq!(
        creature
            .body(hand)
            .extra
            .get("caps_source")
            .and_then(|s| s.as_str()),
        Some(EDITED_SOURCE)
    );

    // Remove the grasper chip: the creature is derived again and the clip rebinds.
    h.get_by_label(&chip_label(&Cap::Grasper)).click();
    h.run();
    assert_eq!(caps(&h), vec![Cap::Weapon]);
    assert_eq!(
        h.state().document().roster[ci]
            .creature
            .count_cap(&Cap::Grasper),
        1
    );
    let labels: Vec<String> = h.state().history().labels().map(String::from).collect();
    assert_eq!(labels.last().map(String::as_str), Some("Caps of hand.L"));

    // One undo is one chip.
    h.state_mut().run_command(Command::Undo);
    h.run();
    assert_eq!(caps(&h), vec![Cap::Grasper, Cap::Weapon]);

    // Save as a creature file elsewhere: the caps and a working mesh reference survive, and
    // the project now refers to that file.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("creatures/humanoid.creature.json");
    h.state_mut().run_command(Command::SaveCreatureTo {
        creature: ci,
        path: file.clone(),
    });
    h.run();
    assert!(file.exists(), "{:?}", h.state().message());
    let loaded = anymorph::io::load_creature(&file).unwrap();
    let b = loaded.find("hand.L").unwrap();
    assert_eq!(loaded.body(b).caps, vec![Cap::Grasper, Cap::Weapon]);
    let reference = loaded.extra().get("mesh").and_then(|m| m.as_str()).unwrap();
    assert!(reference.ends_with("humanoid.glb"), "{reference}");
    assert!(Path::new(reference).is_relative(), "{reference}");
    let mesh = mesh_for_creature(&loaded, &file)
        .unwrap()
        .expect("the mesh");
    assert_eq!(mesh.inverse_bind.len(), loaded.len());
    assert_eq!(
        h.state().document().roster[ci].path.as_deref(),
        Some(file.as_path())
    );
    assert!(
        h.state().creature_mesh(ci).is_some(),
        "the saved creature keeps its mesh"
    );

    let project = dir.path().join("rig.project.json");
    h.state_mut()
        .run_command(Command::SaveProjectTo(project.clone()));
    h.run();
    let reopened = anymorph::io::load_project(&project).unwrap();
    assert!(
        reopened
            .project
            .creatures
            .iter()
            .any(|c| c == Path::new("creatures/humanoid.creature.json")),
        "{:?}",
        reopened.project.creatures
    );
}

#[test]
fn a_creature_whose_mesh_is_missing_is_shown_by_its_bodies_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let creature = anymorph::io::load_creature(&humanoid_glb()).unwrap();
    let text = anymorph::io::creature_to_string(&creature)
        .replace("\"mesh\": \"humanoid.glb\"", "\"mesh\": \"gone.glb\"");
    assert!(text.contains("gone.glb"));
    let file = dir.path().join("lost.creature.json");
    std::fs::write(&file, text).unwrap();

    let mut h = editor();
    let bodies_before = h.state().viewport().body_count;
    h.state_mut().run_command(Command::AddCreature(file));
    h.run();
    let ci = creature_index(&h, "humanoid");
    assert!(h.state().creature_mesh(ci).is_none());
    let message = h.state().message().unwrap_or_default().to_string();
    assert!(
        message.contains("mesh was not loaded") && message.contains("gone.glb"),
        "{message}"
    );
    assert_eq!(h.state().viewport().mesh_count, 0);
    assert_eq!(
        h.state().viewport().body_count,
        bodies_before + creature.len(),
        "its bodies are drawn"
    );
}
