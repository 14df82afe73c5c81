//! Issue 49, item 5: after a movement-mode change every creature shows, for a moment, its
//! pose under the old mode beside the new one. Driven on the real app; the old pose must be
//! the runtime's for the clip as it was, and the comparison must leave the project alone.
#![cfg(feature = "editor")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod editor_common;

use anymorph::editor::command::Command;
use anymorph::editor::mode_compare::MODE_COMPARISON_SECS;
use anymorph::runtime::bind::bind;
use anymorph::runtime::eval::EvalInput;
use anymorph::runtime::movement::ScaleMode;
use anymorph::runtime::pipeline::{Pipeline, clip_local_time};
use editor_common::{editor, max_distance};

#[test]
fn a_mode_change_shows_the_old_modes_pose_on_every_creature_for_a_moment() {
    let mut h = editor();
    let t = 0.7;
    h.state_mut().run_command(Command::SetTime(t));
    h.run();
    assert!(h.state().preview().mode_comparison.is_none());
    let old_clip = h.state().document().clip().unwrap().clone();
    let channel = 0;
    let mut mode = old_clip.channels[channel].mode;
    // Another size rule: the remap keeps one creature's curve, so the others must move.
    mode.scale = match mode.scale {
        ScaleMode::None => ScaleMode::CreatureSize,
        _ => ScaleMode::None,
    };
    h.state_mut()
        .run_command(Command::SetChannelMode { channel, mode });
    // `step`, not `run`: the fading comparison asks for frames until it is gone. Commands
    // apply after a frame's preview: the second frame is the first to pose the ghosts.
    h.step();
    h.step();

    let app = h.state();
    assert_eq!(
        app.history().len(),
        1,
        "only the mode change is an undo step"
    );
    assert_eq!(app.document().clip().unwrap().channels[channel].mode, mode);
    let comparison = app
        .preview()
        .mode_comparison
        .as_ref()
        .expect("a comparison after the mode change");
    assert!(
        comparison.opacity > 0.0 && comparison.opacity < 1.0,
        "fading: {}",
        comparison.opacity
    );
    let targets = app.document().shown_targets().to_vec();
    let mut differs = 0;
    let mut compared = 0;
    for (i, entry) in app.document().roster.iter().enumerate() {
        let binding = bind(&old_clip, &entry.creature);
        let expected =
            Pipeline::new(&old_clip, &entry.creature, &binding, entry.variant).map(|mut p| {
                let input = EvalInput {
                    time_secs: clip_local_time(&old_clip, t),
                    external_targets: &targets,
                    ground_height: 0.0,
                    dt_secs: 0.0,
                };
                p.run(&old_clip, &entry.creature, &input).to_vec()
            });
        let shown_old = comparison.poses[i].clone();
        assert_eq!(
            shown_old.is_some(),
            expected.is_some(),
            "{}",
            entry.creature.name()
        );
        let (Some(shown_old), Some(expected)) = (shown_old, expected) else {
            continue;
        };
        compared += 1;
        assert_eq!(shown_old.len(), expected.len());
        for (k, (a, b)) in shown_old.iter().zip(&expected).enumerate() {
            assert!(
                a.position.abs_diff_eq(b.position, 1e-5)
                    && a.rotation.abs_diff_eq(b.rotation, 1e-5),
                "{}: body {k}: the old-mode ghost {a:?} is not the runtime's pose of the old clip {b:?}",
                entry.creature.name(),
            );
        }
        let shown_new = &app.preview().creatures[i].pose;
        if max_distance(&shown_old, shown_new) > 1e-3 {
            differs += 1;
        }
    }
    assert!(compared >= 2, "the old clip played on {compared} creatures");
    assert!(differs >= 1, "the mode change moved no creature");

    // The moment passes (each harness step is a quarter of a second).
    let steps = (MODE_COMPARISON_SECS / 0.25).ceil() as usize;
    for _ in 0..steps {
        h.step();
    }
    assert!(h.state().preview().mode_comparison.is_none(), "still shown");
    assert_eq!(h.state().history().len(), 1);
}

/// Undo shows nothing: the comparison belonged to the change, and the clip it compared
/// against is the one now shown.
#[test]
fn undoing_a_mode_change_drops_the_comparison() {
    let mut h = editor();
    let mut mode = h.state().document().clip().unwrap().channels[0].mode;
    mode.scale = match mode.scale {
        ScaleMode::None => ScaleMode::LimbLength,
        _ => ScaleMode::None,
    };
    h.state_mut()
        .run_command(Command::SetChannelMode { channel: 0, mode });
    h.step();
    assert!(h.state().preview().mode_comparison.is_some());
    h.state_mut().run_command(Command::Undo);
    h.step();
    h.step();
    assert!(h.state().preview().mode_comparison.is_none());
    assert!(!h.state().history().is_dirty());
}
