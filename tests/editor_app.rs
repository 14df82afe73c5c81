//! The editor driven as a user drives it: clicks, keys and drags on the real app
//! (egui_kittest), checked against what the runtime then poses.
#![cfg(feature = "editor")]

mod editor_common;

use anymorph::editor::panels::timeline::{PAUSE, PLAY, TIMELINE};
use editor_common::{creature_index, editor};
use egui::{Key, Modifiers, Pos2, Vec2};
use egui_kittest::kittest::Queryable;
use glam::Vec3;

fn body_position(
    h: &egui_kittest::Harness<'_, anymorph::editor::AnymorphApp>,
    creature: usize,
    body: &str,
) -> Vec3 {
    let app = h.state();
    let b = app.document().roster[creature]
        .creature
        .find(body)
        .unwrap_or_else(|| panic!("no body {body}"));
    app.preview().creatures[creature].pose[b].position
}

#[test]
fn play_and_pause_by_button_and_by_space() {
    let mut h = editor();
    assert!(!h.state().playback().playing);
    h.get_by_label(PLAY).click();
    h.run_steps(5);
    assert!(h.state().playback().playing);
    let t = h.state().playback().time_secs;
    assert!(t > 0.0, "time did not move: {t}");
    h.get_by_label(PAUSE).click();
    h.run_steps(2);
    assert!(!h.state().playback().playing);
    let paused_at = h.state().playback().time_secs;
    h.run_steps(5);
    assert_eq!(h.state().playback().time_secs, paused_at);

    // Space plays and pauses too, even right after clicking a button (which keeps focus).
    h.key_press(Key::Space);
    h.run_steps(3);
    assert!(h.state().playback().playing);
    h.key_press(Key::Space);
    h.run_steps(2);
    assert!(!h.state().playback().playing);
}

#[test]
fn playing_moves_the_waving_hand_on_every_creature_that_binds() {
    let mut h = editor();
    let biped = creature_index(&h, "biped");
    let rest = body_position(&h, biped, "hand_l");
    h.key_press(Key::Space);
    h.run_steps(40);
    let app = h.state();
    assert!(app.playback().time_secs > 0.3);
    let moved = body_position(&h, biped, "hand_l");
    assert!(moved.distance(rest) > 0.1, "hand_l stayed at {moved}");
    // Creatures without graspers do not bind and stand at rest.
    let quadruped = creature_index(&h, "quadruped");
    let p = &h.state().preview().creatures[quadruped];
    assert!(!p.binds());
    assert!(p.binding.reason.as_deref().unwrap().contains("graspers"));
}

#[test]
fn the_timeline_scrubs_steps_and_jumps() {
    let mut h = editor();
    let ruler = h.get_by_label(TIMELINE).rect();
    // The ruler has a 10-point inset at both ends.
    let middle = Pos2::new(ruler.center().x, ruler.center().y);
    h.drag_at(middle);
    h.step();
    h.drop_at(middle);
    h.run();
    let duration = h.state().document().clip().unwrap().duration_secs;
    let t = h.state().playback().time_secs;
    assert!(
        (t - duration / 2.0).abs() < 0.05,
        "scrubbed to {t} of {duration}"
    );
    // On a frame: frames of 1/30 s.
    assert!(((t * 30.0) - (t * 30.0).round()).abs() < 1e-3);

    h.key_press(Key::ArrowRight);
    h.run();
    assert!((h.state().playback().time_secs - (t + 1.0 / 30.0)).abs() < 1e-4);
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().playback().time_secs, 0.0);
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowRight);
    h.run();
    assert_eq!(h.state().playback().time_secs, duration);
}

#[test]
fn a_sample_creature_is_added_and_removed_from_the_roster() {
    let mut h = editor();
    let before = h.state().document().roster.len();
    h.get_by_label("➕ Add").click();
    h.run();
    h.get_by_label("giant").click();
    h.run();
    let app = h.state();
    assert_eq!(app.document().roster.len(), before + 1);
    assert_eq!(app.preview().creatures.len(), before + 1);
    let giant = creature_index(&h, "giant");
    // It shows in the roster with its bind status, and the clip plays on it.
    assert!(h.query_by_label("giant").is_some());
    assert!(h.state().preview().creatures[giant].binds());

    // The giant is last in the list, scrolled out of view: scroll to its delete button.
    h.get_all_by_label("🗑").last().unwrap().scroll_to_me();
    h.run();
    h.get_all_by_label("🗑").last().unwrap().click();
    h.run();
    assert_eq!(h.state().document().roster.len(), before);
}

#[test]
fn choosing_a_variant_moves_the_other_hand() {
    let mut h = editor();
    let biped = creature_index(&h, "biped");
    // Frame 24: the hand is up.
    h.state_mut();
    for _ in 0..24 {
        h.key_press(Key::ArrowRight);
    }
    h.run();
    let left_up = body_position(&h, biped, "hand_l");
    let right_rest = body_position(&h, biped, "hand_r");

    // The biped's variant box (the first in the roster) shows its first variant; pick the
    // second.
    assert_eq!(biped, 0);
    h.get_all_by_label("Variant").next().unwrap().click();
    h.run();
    h.get_by_label("hand_r (mirrored)").click();
    h.run();
    assert_eq!(h.state().document().roster[biped].variant, 1);
    let right_up = body_position(&h, biped, "hand_r");
    let left_now = body_position(&h, biped, "hand_l");
    assert!(
        right_up.y > right_rest.y + 0.2,
        "hand_r did not rise: {right_rest} → {right_up}"
    );
    assert!(left_now.y < left_up.y - 0.2, "hand_l stayed up");
    // Mirrored: the right hand goes where the left went, reflected across x = 0.
    assert!((right_up.x + left_up.x).abs() < 1e-3 && (right_up.y - left_up.y).abs() < 1e-3);
}

#[test]
fn dragging_the_target_drives_the_reach_live() {
    let mut h = editor();
    // reach_target, some clips before wave in the sample project: PageUp steps back to it.
    let clips = &h.state().document().clips;
    let at = |name: &str| clips.iter().position(|c| c.name == name).unwrap();
    for _ in 0..at("wave") - at("reach_target") {
        h.key_press(Key::PageUp);
    }
    h.run();
    assert_eq!(h.state().document().clip().unwrap().name, "reach_target");
    // Frame 18 (0.6 s): the grasper is on the target.
    for _ in 0..18 {
        h.key_press(Key::ArrowRight);
    }
    h.run();
    let biped = creature_index(&h, "biped");
    let variant_body = {
        let p = &h.state().preview().creatures[biped];
        p.binding.variants[0].choices[0]
    };
    // The clip asks for the grasper on the target (its goal); IK gets it as close as the
    // arm reaches.
    let goal = |h: &egui_kittest::Harness<'_, anymorph::editor::AnymorphApp>| {
        let p = &h.state().preview().creatures[biped];
        p.pipeline
            .as_ref()
            .unwrap()
            .goals()
            .position(variant_body)
            .unwrap()
            .0
    };
    let target_before = h.state().document().target().unwrap();
    let hand_before = h.state().preview().creatures[biped].pose[variant_body].position;
    assert!(
        goal(&h).distance(target_before) < 1e-3,
        "{} vs {target_before}",
        goal(&h)
    );

    let from = h.state().target_on_screen(biped).unwrap();
    let to = from + Vec2::new(60.0, -40.0);
    editor_common::drag_over_frames(&mut h, from, to);

    let target_after = h.state().document().target().unwrap();
    assert!(
        target_after.distance(target_before) > 0.1,
        "the target did not move"
    );
    // Moved right and up on screen: +X and +Y in the world for the default camera.
    assert!(target_after.x > target_before.x && target_after.y > target_before.y);
    // The next frame the goal is on the new target and the hand has followed it.
    assert!(
        goal(&h).distance(target_after) < 1e-3,
        "{} vs {target_after}",
        goal(&h)
    );
    let hand_after = h.state().preview().creatures[biped].pose[variant_body].position;
    let moved = hand_after - hand_before;
    assert!(
        moved.dot(target_after - target_before) > 0.0 && moved.length() > 0.02,
        "the hand did not follow: {hand_before} → {hand_after}"
    );
    // And the handle follows the mouse.
    let handle = h.state().target_on_screen(biped).unwrap();
    assert!(
        handle.distance(to) < 3.0,
        "handle at {handle}, mouse at {to}"
    );
}

#[test]
fn clicking_a_body_selects_it_and_empty_space_deselects() {
    let mut h = editor();
    let biped = creature_index(&h, "biped");
    let chest = h.state().document().roster[biped]
        .creature
        .find("spine_2")
        .unwrap();
    let at = h.state().body_on_screen(biped, chest).unwrap();
    h.hover_at(at);
    h.run();
    assert_eq!(h.state().viewport().hovered(), Some((biped, chest)));
    h.drag_at(at);
    h.drop_at(at);
    h.run();
    let sel = h.state().selection().unwrap();
    assert_eq!((sel.creature, sel.body), (biped, Some(chest)));

    // The sky above everything: nothing there.
    let empty = h.state().viewport().rect().center_top() + Vec2::new(0.0, 40.0);
    h.drag_at(empty);
    h.drop_at(empty);
    h.run();
    assert_eq!(h.state().selection(), None);
}

#[test]
fn overlays_toggle_by_shortcut_and_by_menu() {
    let mut h = editor();
    assert!(!h.state().preferences().overlays.joints);
    h.key_press_modifiers(Modifiers::ALT, Key::J);
    h.run();
    assert!(h.state().preferences().overlays.joints);
    h.get_by_label("View").click();
    h.run();
    h.get_by_label_contains("Joints and Bones").click();
    h.run();
    assert!(!h.state().preferences().overlays.joints);
}

#[test]
fn muting_a_channel_shows_on_every_creature_the_next_frame() {
    let mut h = editor();
    for _ in 0..24 {
        h.key_press(Key::ArrowRight);
    }
    h.run();
    let biped = creature_index(&h, "biped");
    let rest = h.state().document().roster[biped]
        .creature
        .body(
            h.state().document().roster[biped]
                .creature
                .find("hand_l")
                .unwrap(),
        )
        .position;
    assert!(body_position(&h, biped, "hand_l").distance(rest) > 0.1);
    // The channel's checkbox plays or mutes it.
    h.get_by_label("Play this channel (unchecked: muted)")
        .click();
    h.run();
    assert!(h.state().document().clip().unwrap().channels[0].muted);
    assert!(body_position(&h, biped, "hand_l").distance(rest) < 1e-4);
}

#[test]
fn the_help_lists_every_shortcut() {
    let mut h = editor();
    h.key_press(Key::F1);
    h.run();
    assert!(h.query_all_by_label("Keyboard Shortcuts").count() >= 1);
    for command in anymorph::editor::command::Command::ALL {
        assert!(
            h.query_all_by_label(command.label()).next().is_some(),
            "{} is missing from the help",
            command.label()
        );
    }
    // The keys the dope sheet and the curve editor read themselves are listed too.
    use anymorph::editor::panels::{curve_editor, dope_sheet};
    for (keys, what) in dope_sheet::KEYS.iter().chain(curve_editor::KEYS) {
        assert!(
            h.query_all_by_label(keys).next().is_some()
                && h.query_all_by_label(what).next().is_some(),
            "'{keys}: {what}' is missing from the help"
        );
    }
}

#[test]
fn frame_selected_and_frame_all_move_the_camera() {
    let mut h = editor();
    let all = h.state().viewport().orbit;
    // Select the floater in the roster, then F.
    h.get_by_label("floater").scroll_to_me();
    h.run();
    h.get_by_label("floater").click();
    h.run();
    let floater = creature_index(&h, "floater");
    assert_eq!(h.state().selection().map(|s| s.creature), Some(floater));
    h.key_press(Key::F);
    h.run();
    let close = h.state().viewport().orbit;
    assert!(
        close.distance < all.distance * 0.6,
        "{} vs {}",
        close.distance,
        all.distance
    );
    let at = h.state().preview().creatures[floater].offset;
    assert!(
        (close.target.x - at.x).abs() < 1.0,
        "{} vs {}",
        close.target,
        at
    );
    h.key_press(Key::A);
    h.run();
    assert!((h.state().viewport().orbit.distance - all.distance).abs() < 1e-3);
}

/// A grid cell is shown as the grid checked it: the creature in the variant at the moment,
/// and for a clip that reaches for external target 0, the target where the grid had it then,
/// so the hand is where the grid found it (the same runtime poses both).
#[test]
fn a_grid_cell_is_shown_as_the_grid_checked_it() {
    use anymorph::validation::{ValidationConfig, pose_at, target_at};
    use std::sync::Arc;
    let mut h = editor();
    let biped = creature_index(&h, "biped");
    let config = ValidationConfig::default();
    let (variant, frame) = (1, 15);
    let t = frame as f32 / config.fps;
    let clip = Arc::new(
        h.state()
            .document()
            .clips
            .iter()
            .find(|c| c.name == "reach_target")
            .expect("the sample project has reach_target")
            .clone(),
    );
    let creature = Arc::new(h.state().document().roster[biped].creature.clone());
    let target = target_at(&clip, &creature, variant, t).unwrap();
    let before = h.state().document().external_targets.first().copied();
    assert!(
        before.is_none_or(|b| b.distance(target) > 0.1),
        "the project's target is already where the grid had it: the test shows nothing"
    );

    let title = h.state().title();
    h.state_mut()
        .show_validation_cell("reach_target", "biped", variant, t);
    h.run_steps(3);
    // Shown where the grid had it, and nothing edited: the project's target, the title's
    // unsaved mark and Undo are as they were.
    assert_eq!(h.state().document().target(), Some(target));
    assert_eq!(
        h.state().document().external_targets.first().copied(),
        before
    );
    assert_eq!(
        h.state().title(),
        title,
        "viewing a cell marked the project unsaved"
    );
    assert!(
        !h.state().history().can_undo(),
        "viewing a cell made an undo step"
    );
    assert_eq!(h.state().document().roster[biped].variant, variant);
    assert_eq!(h.state().playback().time_secs, t);
    let checked = pose_at(&clip, &creature, &config, variant, frame, false).unwrap();
    let hand = creature.find("hand_r").unwrap();
    let shown = body_position(&h, biped, "hand_r");
    assert!(
        shown.distance(checked[hand].position) < 1e-3,
        "the editor shows the hand at {shown}, the grid checked it at {}",
        checked[hand].position
    );
    assert!(
        checked[hand]
            .position
            .distance(creature.body(hand).position)
            > 0.1,
        "the hand has not moved at this moment: the test shows nothing"
    );
    // Reset Target goes back to the project's target.
    h.state_mut()
        .run_command(anymorph::editor::command::Command::ResetTarget);
    h.run();
    assert_eq!(h.state().document().target(), before);
}
