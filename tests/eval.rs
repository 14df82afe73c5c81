//! Evaluating clips through the one pipeline: curves → S → blend by ownership → goals → pose.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::runtime::bind::bind;
use anymorph::runtime::clip::{Channel, Clip};
use anymorph::runtime::creature::{Cap, Creature};
use anymorph::runtime::curve::KeyedCurve;
use anymorph::runtime::eval::{EvalInput, Goals, default_external_target};
use anymorph::runtime::ik::{IkSolver, IkTuning};
use anymorph::runtime::math::{mirror_point, rotation_angle_between};
use anymorph::runtime::movement::LookAtLimits;
use anymorph::runtime::pipeline::{Pipeline, clip_local_time};
use anymorph::runtime::query::ContextQuery;
use glam::{Quat, Vec3};

fn run(
    clip: &Clip,
    c: &Creature,
    variant: usize,
    t: f32,
    targets: &[Vec3],
) -> (Goals, Vec<anymorph::runtime::pose::BodyPose>) {
    let b = bind(clip, c);
    let mut p = Pipeline::new(clip, c, &b, variant)
        .unwrap_or_else(|| panic!("{} on {}: {:?}", clip.name, c.name(), b.reason));
    // One evaluation of a fresh pipeline: no time has passed for secondary motion or an
    // idle bob.
    let input = EvalInput {
        time_secs: clip_local_time(clip, t),
        external_targets: targets,
        ground_height: 0.0,
        dt_secs: 0.0,
    };
    let pose = p.run(clip, c, &input).to_vec();
    (p.goals().clone(), pose)
}

fn variant_on(clip: &Clip, c: &Creature, body: &str) -> usize {
    let id = c.find(body).unwrap();
    bind(clip, c)
        .variants
        .iter()
        .position(|v| v.choices.first() == Some(&id))
        .unwrap()
}

#[test]
fn every_clip_on_every_creature_and_variant_is_finite() {
    let mut frames = 0;
    for clip in common::clips() {
        for c in common::creatures() {
            let b = bind(clip, c);
            for v in 0..b.variants.len().min(8) {
                let mut p = Pipeline::new(clip, c, &b, v).unwrap();
                let target = [c.bounds().center() + Vec3::new(0.3, 0.2, 0.5) * c.size()];
                for i in 0..=(clip.duration_secs * 30.0) as usize {
                    let input = EvalInput {
                        time_secs: i as f32 / 30.0,
                        external_targets: &target,
                        ground_height: 0.0,
                        dt_secs: 1.0 / 30.0,
                    };
                    let pose = p.run(clip, c, &input);
                    assert_eq!(pose.len(), c.len());
                    assert!(
                        pose.iter().all(|b| b.is_finite()),
                        "{} on {} v{v} t{i}",
                        clip.name,
                        c.name()
                    );
                    frames += 1;
                }
            }
        }
    }
    assert!(frames > 10_000, "{frames}");
}

#[test]
fn clips_that_start_at_rest_pose_the_rest_pose_at_time_zero() {
    for name in [
        "wave",
        "wave_prone",
        "reach_target",
        "pick_up",
        "pick_up_prone",
        "hand_to_mouth",
        "pass_fruit",
        "roar",
        "clap",
    ] {
        let clip = common::clip(name);
        for c in common::creatures() {
            if !bind(clip, c).binds() {
                continue;
            }
            let (_, pose) = run(clip, c, 0, 0.0, &[]);
            for (i, p) in pose.iter().enumerate() {
                let rest = c.body(i);
                assert!(
                    p.position.distance(rest.position) < 1e-4 * c.size(),
                    "{name} on {} {}",
                    c.name(),
                    rest.name
                );
                assert!(
                    rotation_angle_between(p.rotation, rest.rotation) < 1e-3,
                    "{name} on {} {}",
                    c.name(),
                    rest.name
                );
            }
        }
    }
}

#[test]
fn the_right_hand_variant_is_the_mirror_of_the_left() {
    let clip = common::clip("wave");
    for name in ["biped", "four_armed", "giant", "tiny"] {
        let c = common::creature(name);
        // The wave's left grasper (the four-armed's lower, front pair) and its twin.
        let left = clip.channels[0]
            .context
            .select(c)
            .into_iter()
            .map(|b| c.body(b).name.clone())
            .find(|n| n.ends_with("_l"));
        let Some(left) = left else { continue };
        let (l, r) = (
            c.find(&left),
            c.find(&format!("{}_r", left.trim_end_matches("_l"))),
        );
        let (Some(l), Some(r)) = (l, r) else { continue };
        for t in [0.5, 0.8, 1.25] {
            let (gl, _) = run(clip, c, variant_on(clip, c, &c.body(l).name), t, &[]);
            let (gr, _) = run(clip, c, variant_on(clip, c, &c.body(r).name), t, &[]);
            let (pl, _) = gl.position(l).unwrap();
            let (pr, _) = gr.position(r).unwrap();
            assert!(mirror_point(pl).distance(pr) < 1e-4, "{name} t={t}");
            assert!(
                gl.position(r).is_none(),
                "a single-variant channel moves one grasper"
            );
        }
    }
}

#[test]
fn hand_to_mouth_brings_every_grasper_to_the_mouth() {
    let clip = common::clip("hand_to_mouth");
    let mut checked = 0;
    for c in common::creatures() {
        let b = bind(clip, c);
        if !b.binds() {
            continue;
        }
        let mouths = ContextQuery::cap(Cap::Mouth).select(c);
        for (v, variant) in b.variants.iter().enumerate() {
            let hand = variant.choices[0];
            let rest = c.body(hand).position;
            let mouth = mouths
                .iter()
                .map(|&m| c.body(m).position)
                .min_by(|a, b| a.distance(rest).total_cmp(&b.distance(rest)))
                .unwrap();
            let (g, _) = run(clip, c, v, 1.0, &[]);
            let (at, w) = g.position(hand).unwrap();
            assert_eq!(w, 1.0);
            // Keyed at 92% of the way and 0.15 limb lengths across that line (in front of
            // the face): the hand stops 8% of its rest distance short, held that far off.
            let across = 0.15 * c.limb_length(hand).max(0.01 * c.size());
            let expected = (0.08 * mouth.distance(rest)).hypot(across);
            assert!(
                (at.distance(mouth) - expected).abs() < 1e-3 * c.size(),
                "{} {}: {} vs {expected}",
                c.name(),
                c.body(hand).name,
                at.distance(mouth)
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked}");
}

#[test]
fn reach_target_touches_the_target_wherever_it_is() {
    let clip = common::clip("reach_target");
    for c in common::creatures() {
        let b = bind(clip, c);
        if !b.binds() {
            continue;
        }
        for offset in [Vec3::new(0.4, 0.3, 0.6), Vec3::new(-0.5, -0.2, 0.3)] {
            let target = c.bounds().center() + offset * c.size();
            for v in 0..b.variants.len() {
                let hand = b.variants[v].choices[0];
                let (g, _) = run(clip, c, v, 0.8, &[target]);
                assert!(
                    g.position(hand).unwrap().0.distance(target) < 1e-4 * c.size(),
                    "{} v{v}",
                    c.name()
                );
            }
        }
        // No target given: the default one ahead of the creature.
        let (g, _) = run(clip, c, 0, 0.8, &[]);
        let hand = b.variants[0].choices[0];
        assert!(
            g.position(hand)
                .unwrap()
                .0
                .distance(default_external_target(c))
                < 1e-4 * c.size()
        );
    }
}

#[test]
fn pick_up_puts_the_grasper_on_the_ground_on_time() {
    for c in common::creatures() {
        // Each creature with graspers binds one of the two branches.
        let Some((clip, b)) = ["pick_up", "pick_up_prone"]
            .map(|name| (common::clip(name), bind(common::clip(name), c)))
            .into_iter()
            .find(|(_, b)| b.binds())
        else {
            continue;
        };
        let hand = b.variants[0].choices[0];
        let (g, _) = run(clip, c, 0, 0.9, &[]);
        let lowest = g.position(hand).unwrap().0.y - c.contact_height(hand);
        let rest_height = c.body(hand).position.y - c.contact_height(hand);
        if rest_height > 0.01 * c.size() {
            assert!(
                lowest.abs() < 1e-4 * c.size(),
                "{}: lowest point {lowest}",
                c.name()
            );
        }
    }
}

#[test]
fn clapping_hands_meet_in_the_middle() {
    let clip = common::clip("clap");
    for name in ["biped", "giant", "four_armed", "centaur"] {
        let c = common::creature(name);
        let b = bind(clip, c);
        for (v, variant) in b.variants.iter().enumerate() {
            let (a, bb) = (variant.choices[0], variant.choices[1]);
            let (g, _) = run(clip, c, v, 0.35, &[]);
            let gap = g.position(a).unwrap().0.distance(g.position(bb).unwrap().0);
            let apart = c.body(a).position.distance(c.body(bb).position);
            // Each travels 46% of the way, and then as far up and forward as the clip keys
            // in its own limb's lengths: arms of one length meet with 8% of the rest
            // distance left between them; a long arm meeting a short one reaches that much
            // further past.
            let offset = clip.channels[0]
                .position
                .as_ref()
                .unwrap()
                .sample(0.35)
                .unwrap();
            assert!((offset.x - 0.46).abs() < 1e-6, "{offset}");
            let uneven = (c.limb_length(a) - c.limb_length(bb)).abs()
                * glam::Vec2::new(offset.y, offset.z).length();
            assert!(
                (gap - 0.08 * apart).abs() <= uneven + 1e-3 * c.size(),
                "{name} {}: gap {gap}, rest {apart}",
                variant.label
            );
        }
    }
}

#[test]
fn look_at_turns_every_head_toward_the_target() {
    // At the default turn limit (the sample clip turns at most 40 degrees).
    let mut clip = common::clip("nod_lookat").clone();
    clip.channels[0].mode.look_at = LookAtLimits::default();
    let clip = &clip;
    let c = common::creature("twoheaded");
    let heads = ContextQuery::cap(Cap::Head).select(c);
    assert_eq!(heads.len(), 2);
    let target = c.bounds().center() + Vec3::new(0.0, 0.2, 1.5);
    let (g, _) = run(clip, c, 0, 0.0, &[target]);
    let max = clip.channels[0].mode.look_at.max_turn_rad;
    for h in heads {
        let (r, _) = g.rotation(h).unwrap();
        let to = (target - c.body(h).position).normalize();
        // The heads rest turned 25 degrees outward: this target is past half the turn
        // limit, where the turn eases toward the limit (docs/FORMAT.md), so each head stops
        // just short of it.
        let angle = (c.body(h).rotation * Vec3::Z).angle_between(to);
        let knee = 0.5 * max;
        assert!(
            angle > knee,
            "{}: the target tests the easing",
            c.body(h).name
        );
        let turned = max - (max - knee) * (-(angle - knee) / (max - knee)).exp();
        let off = (r * Vec3::Z).angle_between(to);
        assert!(
            (off - (angle - turned)).abs() < 2e-3,
            "{}: {off} from the target",
            c.body(h).name
        );
        assert!(off < 0.05 * angle, "{}: barely turned", c.body(h).name);
    }
}

#[test]
fn roar_passes_the_mouth_deform_through() {
    let clip = common::clip("roar");
    let c = common::creature("quadruped");
    let (g, _) = run(clip, c, 0, 1.2, &[]);
    let mouth = c.find("mouth").unwrap();
    let d = g.deforms.iter().find(|d| d.body == mouth).unwrap();
    assert_eq!(
        clip.channels[d.channel]
            .deforms
            .keys()
            .nth(d.deform)
            .unwrap(),
        "open"
    );
    assert!((d.value - 1.0).abs() < 1e-5);
}

fn constant_channel(
    name: &str,
    cap: Cap,
    offset: Vec3,
    group: &str,
    priority: i32,
    weight: f32,
) -> Channel {
    let mut c = Channel::new(name, ContextQuery::cap(cap));
    c.position = Some(KeyedCurve::constant(offset));
    c.position_weight = Some(KeyedCurve::constant(weight));
    c.blend_group = group.into();
    c.priority = priority;
    c
}

#[test]
fn ownership_goes_to_the_first_channel_and_its_blend_group() {
    let c = common::creature("biped");
    let hand = c.find("hand_l").unwrap();
    let rest = c.body(hand).position;
    let eval = |channels: Vec<Channel>| {
        let mut clip = Clip::new("t", 1.0);
        clip.channels = channels;
        clip.validate().unwrap();
        run(&clip, c, 0, 0.0, &[]).0.position(hand).unwrap()
    };
    let up = |g: &str, p: i32, w: f32| constant_channel("up", Cap::Grasper, Vec3::Y * 0.1, g, p, w);
    let fwd =
        |g: &str, p: i32, w: f32| constant_channel("fwd", Cap::Grasper, Vec3::Z * 0.1, g, p, w);
    // Different groups: the first channel owns the hand.
    let (p, w) = eval(vec![up("a", 0, 1.0), fwd("b", 0, 1.0)]);
    assert!(p.distance(rest + Vec3::Y * 0.1) < 1e-6 && w == 1.0);
    // Priority claims first whatever the order.
    let (p, _) = eval(vec![up("a", 0, 1.0), fwd("b", 5, 1.0)]);
    assert!(p.distance(rest + Vec3::Z * 0.1) < 1e-6);
    // Same group: a weighted blend; the goal weight is the summed weight, capped at 1.
    let (p, w) = eval(vec![up("a", 0, 0.25), fwd("a", 0, 0.75)]);
    assert!(
        p.distance(rest + Vec3::Y * 0.025 + Vec3::Z * 0.075) < 1e-6,
        "{p}"
    );
    assert_eq!(w, 1.0);
    let (_, w) = eval(vec![up("a", 0, 0.2), fwd("a", 0, 0.3)]);
    assert!((w - 0.5).abs() < 1e-6);
    // Ownership is per DOF: a rotation-only channel of another group still turns the hand.
    let mut turn = Channel::new("turn", ContextQuery::cap(Cap::Grasper));
    turn.rotation = Some(KeyedCurve::constant(Quat::from_rotation_y(0.5)));
    turn.blend_group = "b".into();
    let mut clip = Clip::new("t", 1.0);
    clip.channels = vec![up("a", 0, 1.0), turn];
    clip.validate().unwrap();
    let (g, _) = run(&clip, c, 0, 0.0, &[]);
    assert!(g.position(hand).is_some() && g.rotation(hand).is_some());
}

#[test]
fn a_muted_channel_plays_nothing_and_owns_nothing() {
    let c = common::creature("biped");
    let hand = c.find("hand_l").unwrap();
    let mut first = constant_channel("up", Cap::Grasper, Vec3::Y * 0.1, "a", 0, 1.0);
    first.muted = true;
    let second = constant_channel("fwd", Cap::Grasper, Vec3::Z * 0.1, "b", 0, 1.0);
    let mut clip = Clip::new("t", 1.0);
    clip.channels = vec![first, second];
    clip.validate().unwrap();
    let (g, _) = run(&clip, c, 0, 0.0, &[]);
    assert!(
        g.position(hand)
            .unwrap()
            .0
            .distance(c.body(hand).position + Vec3::Z * 0.1)
            < 1e-6
    );
}

#[test]
fn looping_clips_wrap_and_others_clamp() {
    let looping = common::clip("idle_breathe");
    assert!((clip_local_time(looping, 3.5) - 0.5).abs() < 1e-6);
    assert!((clip_local_time(looping, -0.5) - 2.5).abs() < 1e-6);
    let once = common::clip("wave");
    assert_eq!(clip_local_time(once, 10.0), once.duration_secs);
    assert_eq!(clip_local_time(once, f32::NAN), 0.0);
}

#[test]
fn a_plan_back_on_level_ground_evaluates_as_one_that_never_left_it() {
    let clip = common::clip("pick_up");
    let c = common::creature("biped");
    let b = bind(clip, c);
    let input = |ground_height: f32| EvalInput {
        time_secs: 0.5 * clip.duration_secs,
        external_targets: &[],
        ground_height,
        dt_secs: 0.0,
    };
    let mut level = Pipeline::new(clip, c, &b, 0).unwrap();
    level.run(clip, c, &input(0.0));
    let mut moved = Pipeline::new(clip, c, &b, 0).unwrap();
    moved.run(clip, c, &input(0.3));
    // The raised ground moves the ground-relative hands: the frames really were rebuilt.
    assert_ne!(moved.goals(), level.goals());
    moved.run(clip, c, &input(0.0));
    assert_eq!(moved.goals(), level.goals());
    for (channel, body) in level.plan().tracks() {
        assert_eq!(
            moved.plan().motion_frame(channel, body),
            level.plan().motion_frame(channel, body),
            "channel {channel}, body {body}"
        );
    }
}

/// Picking something up, the biped bends forward and its hand heads for the ground past
/// its belly. Solved without keeping the arm out of the trunk, the upper arm sinks into the
/// belly as the hand passes; kept out, the elbow swings clear and no arm bone sinks into
/// the pelvis or the spine below the chest half its radius deeper than at rest (the keep-out
/// lets a quarter of it graze unpushed, and a body's capsule is not quite the bone between
/// its joints),
/// while the hand gets as near its goal (at this moment beyond its reach) within 1% of the
/// creature's size.
#[test]
fn an_arm_reaching_down_past_the_belly_keeps_out_of_it() {
    let clip = common::clip("pick_up");
    let c = common::creature("biped");
    let hand = c.find("hand_l").unwrap();
    let v = variant_on(clip, c, "hand_l");
    let arm = ["upper_arm_l", "forearm_l", "hand_l"].map(|n| c.find(n).unwrap());
    let trunk = ["pelvis", "spine_1", "spine_2"].map(|n| c.find(n).unwrap());
    let worst = |rounds: u32| {
        let mut tuning = IkTuning::default();
        tuning.limb.keep_out_rounds = rounds;
        let mut solver = IkSolver::with_tuning(c, tuning);
        let mut out = Vec::new();
        let (mut sink, mut miss) = (0.0f32, 0.0f32);
        for i in 0..=15 {
            let (goals, _) = run(clip, c, v, 0.1 + 0.02 * i as f32, &[]);
            solver.solve(c, &goals, &mut out);
            for a in arm {
                for t in trunk {
                    sink = sink.max(common::sunk(c, &out, a, t));
                }
            }
            let goal = goals.position(hand).unwrap().0;
            miss = miss.max(out[hand].position.distance(goal));
        }
        (sink, miss)
    };
    let (without, miss_without) = worst(0);
    let (with, miss) = worst(2);
    assert!(
        without > 0.75,
        "the arm does not sink into the belly even without keeping out ({without}): the test shows nothing"
    );
    assert!(with < 0.5, "an arm bone sinks {with} radii into the trunk");
    assert!(
        miss <= miss_without + 0.01 * c.size(),
        "the hand misses its goal by {miss} (without keeping out {miss_without})"
    );
}
