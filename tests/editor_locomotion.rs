//! Locomotion in the viewport, driven as an animator drives it: the Locomotion section of the
//! creatures panel makes every creature walk with the clip played over the walk, on a
//! treadmill or along its path, with its planted feet marked on the ground.
#![cfg(feature = "editor")]

mod editor_common;

use anymorph::editor::AnymorphApp;
use anymorph::editor::panels::locomotion::{LOCOMOTION, SPEED};
use anymorph::editor::walk::WalkView;
use editor_common::{WINDOW, cpu_wgpu_setup, creature_index, test_options};
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Vec3;

/// Frames of 1/30 s, so a walk is stepped as the editor steps it on screen (the harness's
/// default frame is a quarter of a second).
const FRAME_SECS: f32 = 1.0 / 30.0;

fn editor() -> Harness<'static, AnymorphApp> {
    let options = test_options();
    let mut h = Harness::builder()
        .with_size(WINDOW)
        .with_step_dt(FRAME_SECS)
        .wgpu_setup(cpu_wgpu_setup())
        .build_eframe(move |cc| AnymorphApp::new(cc, options.clone()));
    h.run_steps(4);
    h
}

fn body(h: &Harness<'_, AnymorphApp>, creature: usize, name: &str) -> usize {
    h.state().document().roster[creature]
        .creature
        .find(name)
        .unwrap_or_else(|| panic!("no body {name}"))
}

fn position(h: &Harness<'_, AnymorphApp>, creature: usize, body: usize) -> Vec3 {
    h.state().preview().creatures[creature].pose[body].position
}

/// Opens the Locomotion section, ticks Walk and types a speed, as an animator would.
fn walk_at(h: &mut Harness<'static, AnymorphApp>, speed: &str) {
    h.get_by_label(LOCOMOTION).click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "Walk").click();
    h.run();
    let field = |h: &mut Harness<'static, AnymorphApp>, act: &dyn Fn(&egui_kittest::Node<'_>)| {
        act(&h.get_by_role_and_label(Role::SpinButton, SPEED));
        h.run();
    };
    field(h, &|n| n.focus());
    field(h, &|n| n.type_text(speed));
    h.key_press(Key::Enter);
    h.run();
}

#[test]
fn walking_moves_every_creature_over_time_with_the_clip_over_the_walk_and_plants_feet() {
    let mut h = editor();
    walk_at(&mut h, "1.5");
    let prefs = h.state().preferences().locomotion.clone();
    assert!(prefs.walking, "the Walk box did not turn walking on");
    assert!((prefs.speed - 1.5).abs() < 1e-4, "speed {}", prefs.speed);
    // A view setting, not an edit: nothing to save, nothing to undo.
    assert!(!h.state().history().is_dirty());
    assert!(!h.state().title().starts_with('●'));

    let biped = creature_index(&h, "biped");
    let quadruped = creature_index(&h, "quadruped");
    let hand = body(&h, biped, "hand_l");
    let biped_feet: Vec<usize> = ["foot_l", "foot_r"]
        .iter()
        .map(|f| body(&h, biped, f))
        .collect();
    let paw = h.state().document().roster[quadruped].creature.legs()[0].foot;
    let hand_at_rest = position(&h, biped, hand);
    let paw_at_rest = position(&h, quadruped, paw);

    h.key_press(Key::Space);
    let mut paw_path = Vec::new();
    let mut biped_feet_path = Vec::new();
    let mut planted_counts = Vec::new();
    let mut hand_highest = f32::MIN;
    for _ in 0..60 {
        h.step();
        assert!(h.state().preview().is_walking());
        paw_path.push(position(&h, quadruped, paw));
        biped_feet_path.push(
            biped_feet
                .iter()
                .map(|&f| position(&h, biped, f))
                .collect::<Vec<_>>(),
        );
        planted_counts.push(h.state().preview().creatures[biped].planted_feet.len());
        hand_highest = hand_highest.max(position(&h, biped, hand).y);
    }
    assert!(h.state().playback().time_secs > 0.5);

    // The quadruped, which the wave does not play on, walks: its paw leaves its rest place
    // and goes back and forth under it (the treadmill keeps the creature in its slot).
    let paw_reach = paw_path
        .iter()
        .map(|p| (p.z - paw_at_rest.z).abs())
        .fold(0.0, f32::max);
    assert!(paw_reach > 0.05, "the paw never moved: {paw_reach} m");
    let paw_lifted = paw_path
        .iter()
        .map(|p| p.y - paw_at_rest.y)
        .fold(0.0, f32::max);
    assert!(paw_lifted > 0.01, "the paw never lifted: {paw_lifted} m");
    let last = paw_path.last().unwrap();
    assert!(
        (last.z - paw_at_rest.z).abs() < 1.0,
        "on the treadmill the quadruped left its slot: {last}"
    );
    // Each biped foot is planted some frames and in the air others: the feet step.
    for (k, _) in biped_feet.iter().enumerate() {
        let heights: Vec<f32> = biped_feet_path.iter().map(|f| f[k].y).collect();
        let (low, high) = heights
            .iter()
            .fold((f32::MAX, f32::MIN), |(l, h), &y| (l.min(y), h.max(y)));
        assert!(
            high - low > 0.02,
            "biped foot {k} never stepped: {low}..{high}"
        );
    }
    assert!(
        planted_counts.iter().any(|&n| n > 0),
        "no biped foot was ever marked planted"
    );
    assert!(
        planted_counts.iter().any(|&n| n < 2),
        "both biped feet stayed planted: {planted_counts:?}"
    );
    // The wave plays over the walk: the hand goes up as it does standing.
    assert!(
        hand_highest > hand_at_rest.y + 0.2,
        "the hand did not wave while walking: {} vs rest {}",
        hand_highest,
        hand_at_rest.y
    );
    // Planted feet are marked on the ground in the viewport's scene (drawn in the creature's slot).
    let marks: usize = h
        .state()
        .preview()
        .creatures
        .iter()
        .map(|p| p.planted_feet.len())
        .sum();
    assert!(marks > 0, "no foot on the ground anywhere");

    // The path view: creatures travel from their slot.
    h.get_by_label(WalkView::Path.label()).click();
    h.run_steps(20);
    assert_eq!(h.state().preferences().locomotion.view, WalkView::Path);
    let root = h.state().document().roster[quadruped].creature.root();
    let slot_root = h.state().document().roster[quadruped]
        .creature
        .body(root)
        .position;
    let travelled = position(&h, quadruped, root).z - slot_root.z;
    assert!(
        travelled > 0.3,
        "20 frames at 1.5 m/s on the path went {travelled} m"
    );

    // Walking off (Alt + W): back to the pipeline preview, the quadruped at rest again.
    h.key_press(Key::Space);
    h.key_press_modifiers(Modifiers::ALT, Key::W);
    h.run();
    assert!(!h.state().preferences().locomotion.walking);
    assert!(!h.state().preview().is_walking());
    let rest = h.state().document().roster[quadruped]
        .creature
        .body(paw)
        .position;
    assert!(
        position(&h, quadruped, paw).distance(rest) < 1e-4,
        "the quadruped kept walking's pose"
    );
    assert!(!h.state().history().is_dirty());
}

/// An edit to the clip reaches the walking creatures the next frame.
#[test]
fn a_clip_edit_reaches_the_walkers() {
    let mut h = editor();
    walk_at(&mut h, "1");
    let biped = creature_index(&h, "biped");
    let hand = body(&h, biped, "hand_l");
    for _ in 0..24 {
        h.key_press(Key::ArrowRight);
    }
    h.run();
    let waving = position(&h, biped, hand);
    // Mute the wave's channels: the hand comes down to swing with the walk.
    h.get_by_label("Play this channel (unchecked: muted)")
        .click();
    h.run();
    assert!(h.state().preview().is_walking());
    let muted = position(&h, biped, hand);
    assert!(
        muted.y < waving.y - 0.1,
        "muting did not reach the walking biped: {waving} then {muted}"
    );
}

/// A gait style and a slope picked in the panel reach every walker: the creatures trot up
/// the slope along their path, their planted feet marked on the slope itself and the slope
/// drawn around them.
#[test]
fn a_style_and_a_slope_picked_in_the_panel_reach_every_walker() {
    use anymorph::editor::panels::locomotion::{GAIT, GROUND, SLOPE};
    let mut h = editor();
    walk_at(&mut h, "1");
    h.get_by_label(WalkView::Path.label()).click();
    h.run();
    h.get_by_label(GAIT).click();
    h.run();
    h.get_by_label("trot").click();
    h.run();
    h.get_by_label(GROUND).click();
    h.run();
    h.get_by_label("Slope").click();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, SLOPE).focus();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, SLOPE)
        .type_text("12");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    let prefs = h.state().preferences().locomotion.clone();
    assert_eq!(prefs.gait, "trot");
    assert_eq!(
        prefs.terrain(),
        anymorph::runtime::terrain::Terrain::Slope { degrees: 12.0 }
    );
    assert!(!h.state().history().is_dirty());

    h.key_press(Key::Space);
    h.run_steps(30);
    let rise = 12f32.to_radians().tan();
    let mut marks = 0;
    for (entry, p) in h
        .state()
        .document()
        .roster
        .iter()
        .zip(&h.state().preview().creatures)
    {
        let name = entry.creature.name();
        let walker = p.walker.as_ref().expect("every creature walks");
        let styles: Vec<&str> = walker
            .character()
            .gait_layers()
            .iter()
            .map(|l| l.style.name.as_str())
            .collect();
        assert_eq!(styles, ["trot"], "{name}");
        assert!(!p.ground_lines.is_empty(), "{name}: no slope drawn");
        // The path view shows the walk's own world from the slot: a mark is on the slope
        // when its height is the slope's rise over its distance up it.
        for m in &p.planted_feet {
            assert!(
                (m.at.y - rise * m.at.z).abs() < 1e-3,
                "{name}: a foot mark off the slope at {}",
                m.at
            );
            marks += 1;
        }
    }
    assert!(marks > 0, "no foot on the slope");
    let biped = creature_index(&h, "biped");
    let root = h.state().document().roster[biped].creature.root();
    let climbed = h.state().preview().creatures[biped].pose[root].position;
    let rest = h.state().document().roster[biped]
        .creature
        .body(root)
        .position;
    assert!(
        climbed.y - rest.y > 0.05,
        "the biped walked {} m up the slope without rising",
        climbed.z - rest.z
    );
}

/// The paper's composition, as the animator sees it: a clip channel that owns a foot
/// overrides the gait. The quadruped waves a front foot (wave_foot) while walking: that foot
/// goes up as the clip says and is not marked on the ground, while its other feet step.
#[test]
fn a_foot_the_clip_owns_waves_over_the_walk_and_is_not_marked_planted() {
    use anymorph::editor::viewport::scene_build::moved_bodies;
    let mut h = editor();
    let clips = &h.state().document().clips;
    let at = |name: &str| clips.iter().position(|c| c.name == name).unwrap();
    // wave_foot comes some clips after wave in the sample project: PageDown steps to it.
    for _ in 0..at("wave_foot") - at("wave") {
        h.key_press(Key::PageDown);
    }
    h.run();
    assert_eq!(h.state().document().clip().unwrap().name, "wave_foot");
    let quadruped = creature_index(&h, "quadruped");
    // Standing, at 0.75 s: how high the clip alone lifts the foot.
    for _ in 0..23 {
        h.key_press(Key::ArrowRight);
    }
    h.run();
    let standing = {
        let p = &h.state().preview().creatures[quadruped];
        let variant = h.state().document().roster[quadruped].variant;
        p.pose[moved_bodies(p, variant, Some(0))[0]].position.y
    };
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowLeft);
    h.run();
    walk_at(&mut h, "0.8");
    h.key_press(Key::Escape);
    h.run();
    let variant = h.state().document().roster[quadruped].variant;
    let waving = moved_bodies(&h.state().preview().creatures[quadruped], variant, Some(0));
    assert_eq!(waving.len(), 1, "wave_foot moves one foot: {waving:?}");
    let waving = waving[0];
    let creature = h.state().document().roster[quadruped].creature.clone();
    let others: Vec<usize> = creature
        .legs()
        .iter()
        .map(|l| l.foot)
        .filter(|&f| f != waving)
        .collect();
    let rest_height = creature.body(waving).position.y;
    let mut highest = f32::MIN;
    let mut other_heights: Vec<Vec<f32>> = vec![Vec::new(); others.len()];
    // Frame by frame to 0.75 s, where the foot is highest.
    for _ in 0..23 {
        h.key_press(Key::ArrowRight);
        h.run();
        let p = &h.state().preview().creatures[quadruped];
        assert!(p.walker.is_some());
        let foot = p.pose[waving].position;
        highest = highest.max(foot.y);
        if foot.y > rest_height + 0.05 {
            for m in &p.planted_feet {
                let under = glam::Vec2::new(m.at.x - foot.x, m.at.z - foot.z).length();
                assert!(
                    under > 0.5 * m.size,
                    "the waving foot, {} m up, is marked on the ground",
                    foot.y - rest_height
                );
            }
        }
        for (k, &f) in others.iter().enumerate() {
            other_heights[k].push(p.pose[f].position.y);
        }
    }
    // As high as standing, give or take what the walk does to the body under it.
    let lift = standing - rest_height;
    assert!(lift > 0.1, "the clip alone lifts the foot {lift} m");
    assert!(
        (highest - standing).abs() < 0.3 * lift,
        "walking, the clip lifted the foot to {highest}; standing, to {standing} (rest {rest_height})"
    );
    let stepping = other_heights
        .iter()
        .filter(|hs| {
            let (lo, hi) = hs
                .iter()
                .fold((f32::MAX, f32::MIN), |(l, u), &y| (l.min(y), u.max(y)));
            hi - lo > 0.02
        })
        .count();
    assert!(stepping >= 2, "only {stepping} of the other feet stepped");
}
