//! Snapshots of the real editor, viewport included, rendered by wgpu on the CPU adapter.
//! A missing creature, a blank viewport or a broken shader changes thousands of pixels.
//!
//! Update after an intended change: `UPDATE_SNAPSHOTS=1 cargo test --test editor_snapshots`,
//! then look at every changed PNG under tests/snapshots/ before committing it.
#![cfg(feature = "editor")]

mod editor_common;

use anymorph::render::{BodyInstance, Camera, Ground, LineSegment, OffscreenRenderer, Scene};
use anymorph::runtime::creature::Shape;
use anymorph::runtime::math::Aabb;
use editor_common::{editor, snapshot_editor, snapshot_options};
use eframe::egui_wgpu::wgpu;
use egui::{Key, Modifiers};
use glam::{Quat, Vec3};

/// The sample project as it opens, the wave clip at frame 24 (the hand up).
#[test]
fn editor_wave_on_eight_creatures() {
    let mut h = editor();
    for _ in 0..24 {
        h.key_press(Key::ArrowRight);
    }
    h.run();
    snapshot_editor(&mut h, "editor_wave");
}

/// Reach toward the target with every overlay on and a body selected.
#[test]
fn editor_reach_with_overlays() {
    let mut h = editor();
    let clips = &h.state().document().clips;
    let at = |name: &str| clips.iter().position(|c| c.name == name).unwrap();
    for _ in 0..at("wave") - at("reach_target") {
        h.key_press(Key::PageUp);
    }
    for _ in 0..12 {
        h.key_press(Key::ArrowRight);
    }
    h.key_press_modifiers(Modifiers::ALT, Key::J);
    h.key_press_modifiers(Modifiers::ALT, Key::G);
    h.key_press_modifiers(Modifiers::ALT, Key::I);
    h.run();
    let biped = 0;
    let head = h.state().document().roster[biped]
        .creature
        .find("head")
        .unwrap();
    // Selected as the roster's body tree does it: at this frame the reaching hand covers
    // the head on screen (clicking is covered by the editor_app tests).
    h.state_mut()
        .run_command(anymorph::editor::command::Command::Select(Some(
            anymorph::editor::command::Selection {
                creature: biped,
                body: Some(head),
            },
        )));
    h.run();
    assert_eq!(h.state().selection().and_then(|s| s.body), Some(head));
    snapshot_editor(&mut h, "editor_reach_overlays");
}

/// The locomotion view: every creature walking on the treadmill at 1.2 m/s, stepped frame by
/// frame to frame 24 (the wave's hand up over the walk), planted feet ringed on the ground
/// and the ground behind them dotted with footprints.
#[test]
fn editor_locomotion_on_the_treadmill() {
    use anymorph::editor::panels::locomotion::{LOCOMOTION, SPEED};
    use egui::accesskit::Role;
    use egui_kittest::kittest::Queryable;
    let mut h = editor();
    h.get_by_label(LOCOMOTION).click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "Walk").click();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, SPEED).focus();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, SPEED)
        .type_text("1.2");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    // The field lets go of the keyboard so the arrows step the playhead.
    h.key_press(Key::Escape);
    h.run();
    for _ in 0..24 {
        h.key_press(Key::ArrowRight);
    }
    h.run();
    let app = h.state();
    assert!(app.preview().is_walking());
    assert_eq!(app.playback().frame(30.0), 24);
    assert!(
        app.preview()
            .creatures
            .iter()
            .any(|p| !p.planted_feet.is_empty()),
        "no foot marked on the ground"
    );
    snapshot_editor(&mut h, "editor_locomotion");
}

/// The footfall window over the trotting creatures on the treadmill at frame 12: a bar per
/// foot of every walker (stance dark, swing light) with the cycle's cursor, and the trot's
/// two-foot row below.
#[test]
fn editor_footfall_diagram() {
    use anymorph::editor::panels::footfall::FOOTFALLS;
    use anymorph::editor::panels::locomotion::{GAIT, LOCOMOTION};
    use egui::accesskit::Role;
    use egui_kittest::kittest::Queryable;
    let mut h = editor();
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
    for _ in 0..12 {
        h.key_press(Key::ArrowRight);
    }
    h.run();
    h.get_by_label(FOOTFALLS);
    assert!(h.state().preview().is_walking());
    snapshot_editor(&mut h, "editor_footfalls");
}

/// The renderer alone, as the validation grid's thumbnails use it: no window, no egui.
#[test]
fn offscreen_shapes() {
    let body = |shape, x: f32, selected| BodyInstance {
        position: Vec3::new(x, 0.45, 0.0),
        rotation: Quat::from_rotation_z(0.3 * x),
        half_extents: Vec3::new(0.18, 0.4, 0.25),
        shape,
        color: [0.55, 0.6, 0.8],
        hovered: false,
        selected,
    };
    let scene = Scene {
        camera: Camera {
            eye: Vec3::new(1.2, 1.6, 3.6),
            target: Vec3::new(0.0, 0.4, 0.0),
            ..Camera::default()
        },
        bodies: vec![
            body(Shape::Box, -0.9, false),
            body(Shape::Capsule, 0.0, true),
            body(Shape::Sphere, 0.9, false),
        ],
        overlay: vec![LineSegment::new(
            Vec3::new(-0.9, 1.2, 0.0),
            Vec3::new(0.9, 1.2, 0.0),
            [0.9, 0.1, 0.1, 1.0],
            3.0,
        )],
        ground: Some(Ground::around(
            Aabb::from_points([Vec3::splat(-1.0), Vec3::splat(1.0)]),
            0.0,
        )),
        ..Scene::default()
    };
    let mut renderer =
        OffscreenRenderer::with_backends(4, wgpu::Backends::GL).expect("Mesa's llvmpipe");
    let image = renderer.render(&scene, 400, 260).unwrap();
    egui_kittest::image_snapshot_options(&image, "offscreen_shapes", &snapshot_options());
}
