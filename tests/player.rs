//! The player: layers, fades, queueing, events, targets and locomotion, through the same
//! pipeline as everything else.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::runtime::bind::bind;
use anymorph::runtime::clip::{Channel, Clip, ClipEvent};
use anymorph::runtime::creature::{Cap, Creature};
use anymorph::runtime::curve::KeyedCurve;
use anymorph::runtime::eval::EvalInput;
use anymorph::runtime::pipeline::{Pipeline, clip_local_time};
use anymorph::runtime::player::{Character, PlayError, PlayParams, VariantChoice};
use anymorph::runtime::pose::BodyPose;
use anymorph::runtime::query::ContextQuery;
use glam::{Quat, Vec3};
use std::sync::Arc;

fn clip(name: &str) -> Arc<Clip> {
    Arc::new(common::clip(name).clone())
}

fn character(name: &str) -> Character {
    Character::new(Arc::new(common::creature(name).clone()))
}

/// A clip holding every grasper `offset` from rest at `weight`, for blend arithmetic.
fn hold(name: &str, offset: Vec3, events: &[(f32, &str)], looping: bool) -> Arc<Clip> {
    let mut c = Channel::new("hands", ContextQuery::cap(Cap::Grasper));
    c.position = Some(KeyedCurve::constant(offset));
    let mut clip = Clip::new(name, 1.0);
    clip.looping = looping;
    clip.channels = vec![c];
    clip.events = events
        .iter()
        .map(|&(t, n)| ClipEvent {
            time_secs: t,
            name: n.into(),
            channel: None,
            data: serde_json::Value::Null,
        })
        .collect();
    clip.validate().unwrap();
    Arc::new(clip)
}

fn hand_goal(ch: &Character) -> Vec3 {
    let hand = ch.creature().find("hand_l").unwrap();
    ch.goals().position(hand).unwrap().0 - ch.creature().body(hand).position
}

#[test]
fn one_clip_poses_exactly_as_the_pipeline_does() {
    for name in ["dance", "wave", "roar", "idle_breathe"] {
        let clip = clip(name);
        for creature in ["biped", "quadruped", "hexapod", "twoheaded"] {
            let c: &Creature = common::creature(creature);
            let binding = bind(&clip, c);
            if !binding.binds() {
                continue;
            }
            let mut ch = character(creature);
            ch.play(&clip, PlayParams::default()).unwrap();
            let mut p = Pipeline::new(&clip, c, &binding, 0).unwrap();
            let mut t = 0.0f32;
            for _ in 0..40 {
                let dt = 1.0 / 30.0;
                let pose = ch.update(dt).to_vec();
                t += dt;
                let input = EvalInput {
                    time_secs: clip_local_time(&clip, t),
                    external_targets: &[],
                    ground_height: 0.0,
                    dt_secs: dt,
                };
                let expected = p.run(&clip, c, &input);
                for (a, b) in pose.iter().zip(expected) {
                    assert!(
                        a.position.distance(b.position) < 1e-4,
                        "{name} on {creature} at {t}"
                    );
                }
            }
        }
    }
}

#[test]
fn clips_that_do_not_bind_say_why() {
    let mut ch = character("snake");
    let e = ch.play(&clip("wave"), PlayParams::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "clip 'wave' does not play on 'snake': the clip needs graspers; this creature has none"
    );
    let mut ch = character("biped");
    let e = ch
        .play(
            &clip("wave"),
            PlayParams {
                variant: VariantChoice::Index(5),
                ..Default::default()
            },
        )
        .unwrap_err();
    assert!(
        matches!(e, PlayError::NoSuchVariant { count: 2, .. }),
        "{e}"
    );
    let e = ch
        .play(
            &clip("wave"),
            PlayParams {
                speed: -1.0,
                ..Default::default()
            },
        )
        .unwrap_err();
    assert!(matches!(e, PlayError::InvalidParams(_)));
    let e = ch
        .play(
            &clip("wave"),
            PlayParams {
                weight: f32::NAN,
                ..Default::default()
            },
        )
        .unwrap_err();
    assert!(matches!(e, PlayError::InvalidParams(_)));
}

#[test]
fn higher_layers_take_weight_first() {
    let up = hold("up", Vec3::Y * 0.1, &[], true);
    let fwd = hold("fwd", Vec3::Z * 0.1, &[], true);
    let side = hold("side", Vec3::X * 0.1, &[], true);
    let mut ch = character("biped");
    // The article's example: requests of 70%, 70% and 100% are granted 70%, 21% and 9%.
    ch.play(
        &up,
        PlayParams {
            layer: 2,
            weight: 0.7,
            ..Default::default()
        },
    )
    .unwrap();
    ch.play(
        &fwd,
        PlayParams {
            layer: 1,
            weight: 0.7,
            ..Default::default()
        },
    )
    .unwrap();
    ch.play(
        &side,
        PlayParams {
            layer: 0,
            weight: 1.0,
            ..Default::default()
        },
    )
    .unwrap();
    ch.update(0.01);
    let g = hand_goal(&ch);
    assert!(g.abs_diff_eq(Vec3::new(0.009, 0.07, 0.021), 1e-5), "{g}");
    // A top layer at full weight hides the rest on the bodies it animates.
    let mut ch = character("biped");
    ch.play(
        &up,
        PlayParams {
            layer: 1,
            ..Default::default()
        },
    )
    .unwrap();
    ch.play(
        &clip("dance"),
        PlayParams {
            layer: 0,
            ..Default::default()
        },
    )
    .unwrap();
    ch.update(0.5);
    assert!(hand_goal(&ch).abs_diff_eq(Vec3::Y * 0.1, 1e-5));
    // … and leaves the bodies it does not animate to the layers below.
    let foot = ch.creature().find("foot_l").unwrap();
    assert!(
        ch.goals().position(foot).is_some(),
        "dance keeps the feet planted"
    );
}

#[test]
fn fade_in_and_crossfade_move_weight_smoothly() {
    let up = hold("up", Vec3::Y * 0.1, &[], true);
    let fwd = hold("fwd", Vec3::Z * 0.1, &[], true);
    let mut ch = character("biped");
    let a = ch
        .play(
            &up,
            PlayParams {
                fade_in_secs: 1.0,
                ..Default::default()
            },
        )
        .unwrap();
    ch.update(0.5);
    let hand = ch.creature().find("hand_l").unwrap();
    let (_, w) = ch.goals().position(hand).unwrap();
    assert!(
        (w - 0.5).abs() < 1e-4,
        "half way through a smooth fade: {w}"
    );
    ch.update(0.6);
    assert_eq!(ch.goals().position(hand).unwrap().1, 1.0);
    let b = ch
        .play(
            &fwd,
            PlayParams {
                fade_in_secs: 0.4,
                ..Default::default()
            },
        )
        .unwrap();
    ch.update(0.2);
    let g = hand_goal(&ch);
    assert!(
        g.y > 0.01 && g.z > 0.01 && (g.y + g.z - 0.1).abs() < 1e-5,
        "a crossfade is a blend: {g}"
    );
    ch.update(0.3);
    assert!(!ch.is_playing(a) && ch.is_playing(b));
    assert!(hand_goal(&ch).abs_diff_eq(Vec3::Z * 0.1, 1e-5));
}

#[test]
fn queued_clips_start_as_the_current_one_ends() {
    let one_shot = hold("one_shot", Vec3::Y * 0.1, &[], false);
    let next = hold("next", Vec3::Z * 0.1, &[], true);
    let mut ch = character("biped");
    let a = ch.play(&one_shot, PlayParams::default()).unwrap();
    let b = ch
        .play(
            &next,
            PlayParams {
                queue: true,
                fade_in_secs: 0.2,
                ..Default::default()
            },
        )
        .unwrap();
    ch.update(0.5);
    assert_eq!(ch.play_state(b).unwrap().1, 0.0, "still queued");
    assert!(hand_goal(&ch).abs_diff_eq(Vec3::Y * 0.1, 1e-5));
    ch.update(0.35); // 0.85 s: within the fade of the end
    ch.update(0.05);
    assert!(ch.play_state(b).unwrap().1 > 0.0);
    ch.update(0.3);
    assert!(!ch.is_playing(a));
    assert!(hand_goal(&ch).abs_diff_eq(Vec3::Z * 0.1, 1e-5));
}

#[test]
fn a_one_shot_ends_unless_it_holds() {
    let one_shot = hold("one_shot", Vec3::Y * 0.1, &[], false);
    let mut ch = character("biped");
    let a = ch.play(&one_shot, PlayParams::default()).unwrap();
    ch.update(1.2);
    assert!(!ch.is_playing(a));
    let b = ch
        .play(
            &one_shot,
            PlayParams {
                hold: true,
                ..Default::default()
            },
        )
        .unwrap();
    ch.update(5.0);
    assert!(ch.is_playing(b));
    assert_eq!(ch.play_state(b).unwrap().0, 1.0);
}

#[test]
fn events_fire_as_time_passes_them_also_across_loops() {
    let clip = hold(
        "evented",
        Vec3::ZERO,
        &[(0.0, "start"), (0.25, "a"), (0.75, "b")],
        true,
    );
    let mut ch = character("biped");
    ch.play(&clip, PlayParams::default()).unwrap();
    let mut fired = Vec::new();
    for dt in [0.1, 0.2, 0.5, 0.3, 2.0] {
        ch.update(dt);
        fired.push(
            ch.events()
                .iter()
                .map(|e| e.name().to_string())
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(fired[0], ["start"]);
    assert_eq!(fired[1], ["a"]);
    assert_eq!(fired[2], ["b"]);
    // 1.1 → wraps past 1.0: the next loop's start fires.
    assert_eq!(fired[3], ["start"]);
    // Two whole loops in one long frame: every event of both, in order.
    assert_eq!(fired[4], ["a", "b", "start", "a", "b", "start"]);
    // Speed warps time: at 2× a quarter second passes half a clip.
    let mut ch = character("biped");
    ch.play(
        &clip,
        PlayParams {
            speed: 2.0,
            ..Default::default()
        },
    )
    .unwrap();
    ch.update(0.25);
    assert_eq!(
        ch.events().iter().map(|e| e.name()).collect::<Vec<_>>(),
        ["start", "a"]
    );
}

#[test]
fn additive_layers_add_offsets_on_top() {
    let up = hold("up", Vec3::Y * 0.1, &[], true);
    let fwd = hold("fwd", Vec3::Z * 0.2, &[], true);
    let mut ch = character("biped");
    ch.play(&up, PlayParams::default()).unwrap();
    ch.play(
        &fwd,
        PlayParams {
            additive: true,
            weight: 0.5,
            layer: 3,
            ..Default::default()
        },
    )
    .unwrap();
    ch.update(0.1);
    assert!(
        hand_goal(&ch).abs_diff_eq(Vec3::new(0.0, 0.1, 0.1), 1e-5),
        "{}",
        hand_goal(&ch)
    );
}

#[test]
fn targets_and_locomotion_live_in_world_space() {
    let reach = clip("reach_target");
    let mut ch = character("biped");
    let placed = BodyPose::new(Vec3::new(5.0, 0.0, -2.0), Quat::from_rotation_y(1.0));
    ch.set_world_from_character(placed);
    let target_world = Vec3::new(5.5, 1.3, -1.6);
    ch.set_target(0, target_world);
    let v = ch.choose_variant(&reach, target_world).unwrap();
    let id = ch
        .play(
            &reach,
            PlayParams {
                variant: VariantChoice::Index(v),
                ..Default::default()
            },
        )
        .unwrap();
    ch.update(0.8);
    let hand = ch.variants(&reach)[v].choices[0];
    let at = ch.world_pose(hand).unwrap().position;
    assert!(
        at.distance(target_world) < 0.02,
        "the hand reaches the world target: {at} vs {target_world}"
    );
    assert!(ch.is_playing(id));
    // Walking forward at 1 m/s for a second moves a metre along the character's forward.
    let mut ch = character("quadruped");
    ch.set_locomotion(Vec3::Z, 0.0);
    for _ in 0..60 {
        ch.update(1.0 / 60.0);
    }
    assert!(
        ch.world_from_character()
            .position
            .abs_diff_eq(Vec3::Z, 1e-4)
    );
    ch.set_locomotion(Vec3::ZERO, std::f32::consts::FRAC_PI_2);
    ch.update(1.0);
    assert!((ch.world_from_character().rotation * Vec3::Z).abs_diff_eq(Vec3::X, 1e-4));
}

#[test]
fn the_chooser_picks_the_grasper_closest_to_a_point() {
    // reach_target lets the game pick any grasper.
    let wave = clip("reach_target");
    let mut ch = character("four_armed");
    for (point, expected) in [
        (Vec3::new(1.0, 1.0, 0.5), "low_hand_l"),
        (Vec3::new(-1.0, 0.5, 0.0), "hand_r"),
    ] {
        let v = ch.choose_variant(&wave, point).unwrap();
        assert_eq!(ch.variants(&wave)[v].label, expected);
    }
}

#[test]
fn bad_input_never_poisons_the_pose() {
    let mut ch = character("biped");
    ch.play(&clip("dance"), PlayParams::default()).unwrap();
    ch.set_target(0, Vec3::NAN);
    ch.set_locomotion(Vec3::new(f32::INFINITY, 0.0, 0.0), 0.0);
    for dt in [f32::NAN, -1.0, 1e9, 0.0, 1.0 / 60.0] {
        let pose = ch.update(dt);
        assert!(pose.iter().all(BodyPose::is_finite));
    }
    assert!(ch.world_from_character().is_finite());
}

#[test]
fn one_clip_at_full_weight_blends_like_any_other_mix() {
    // The player short-cuts a lone clip at full weight; a second clip on another layer at
    // weight 0 forces the general layer blend. Both must give the same goals.
    let dance = clip("dance");
    let silent = hold("silent", Vec3::ZERO, &[], true);
    for creature in ["biped", "octopod", "four_armed"] {
        let mut fast = character(creature);
        let mut general = character(creature);
        fast.play(&dance, PlayParams::default()).unwrap();
        general.play(&dance, PlayParams::default()).unwrap();
        general
            .play(
                &silent,
                PlayParams {
                    layer: 5,
                    weight: 0.0,
                    ..Default::default()
                },
            )
            .unwrap();
        for _ in 0..20 {
            fast.update(0.05);
            general.update(0.05);
            for b in 0..fast.creature().len() {
                let (f, g) = (fast.goals().position(b), general.goals().position(b));
                assert_eq!(f.is_some(), g.is_some(), "{creature} body {b}");
                if let (Some((f, fw)), Some((g, gw))) = (f, g) {
                    assert!(f.distance(g) < 1e-5 && (fw - gw).abs() < 1e-6);
                }
                let (f, g) = (fast.goals().rotation(b), general.goals().rotation(b));
                assert_eq!(f.is_some(), g.is_some());
                if let (Some((f, _)), Some((g, _))) = (f, g) {
                    assert!(anymorph::runtime::math::rotation_angle_between(f, g) < 1e-4);
                }
            }
        }
    }
}

#[test]
fn characters_of_one_creature_share_a_clips_binding_and_play_alike() {
    let creature = Arc::new(common::creature("biped").clone());
    let reach = clip("reach_target");
    let (mut a, mut b) = (
        Character::new(Arc::clone(&creature)),
        Character::new(Arc::clone(&creature)),
    );
    // The same creature in another `Arc`: bound and planned on its own.
    let mut own = character("biped");
    assert!(std::ptr::eq(a.binding(&reach), b.binding(&reach)));
    assert!(!std::ptr::eq(a.binding(&reach), own.binding(&reach)));
    // Another clip `Arc` with the same content is another clip to the cache.
    let copy = Arc::new((*reach).clone());
    assert!(!std::ptr::eq(a.binding(&reach), a.binding(&copy)));
    for ch in [&mut a, &mut b, &mut own] {
        ch.play(&reach, PlayParams::default()).unwrap();
    }
    b.set_target(0, Vec3::new(0.5, 1.2, 0.6));
    for _ in 0..30 {
        a.update(1.0 / 60.0);
        b.update(1.0 / 60.0);
        own.update(1.0 / 60.0);
        assert_eq!(a.pose(), own.pose());
    }
    assert_ne!(
        a.pose(),
        b.pose(),
        "a target set on one character moved another"
    );
}

/// A crowd updated together (prefetching ahead) poses every character exactly as updating
/// them one by one does, with each one's per-frame input applied before its own update.
#[test]
fn a_crowd_updated_together_poses_as_one_by_one() {
    let creatures = ["biped", "quadruped", "hexapod", "snake", "floater"];
    let clips = ["dance", "wave", "roar", "idle_breathe", "reach_target"];
    let make = || -> Vec<Character> {
        (0..12)
            .map(|i| {
                let mut ch = character(creatures[i % creatures.len()]);
                // Some play one clip, some blend two on one layer.
                let played = (0..clips.len())
                    .filter_map(|k| {
                        let params = PlayParams {
                            looping: Some(true),
                            weight: if i % 2 == 0 { 1.0 } else { 0.6 },
                            ..Default::default()
                        };
                        ch.play(&clip(clips[(i + k) % clips.len()]), params).ok()
                    })
                    .take(1 + i % 2)
                    .count();
                assert_eq!(played, 1 + i % 2, "character {i}");
                ch
            })
            .collect()
    };
    let (mut together, mut alone) = (make(), make());
    for frame in 0..40 {
        let target = |i: usize| Vec3::new((frame as f32 * 0.1 + i as f32).sin(), 1.0, 0.5);
        let mut seen = vec![];
        Character::update_many(&mut together, 1.0 / 60.0, |i, ch| {
            ch.set_target(0, target(i));
            ch.set_locomotion(Vec3::new(0.0, 0.0, 0.3 * (i % 3) as f32), 0.0);
            seen.push(i);
        });
        let all: Vec<usize> = (0..together.len()).collect();
        assert_eq!(seen, all, "input runs once per character, in order");
        for (i, ch) in alone.iter_mut().enumerate() {
            ch.set_target(0, target(i));
            ch.set_locomotion(Vec3::new(0.0, 0.0, 0.3 * (i % 3) as f32), 0.0);
            ch.update(1.0 / 60.0);
        }
        for (i, (a, b)) in together.iter().zip(&alone).enumerate() {
            assert_eq!(a.pose(), b.pose(), "frame {frame}, character {i}");
            let fired = |c: &Character| -> Vec<(u64, String)> {
                c.events()
                    .iter()
                    .map(|e| (e.play.0, e.name().to_owned()))
                    .collect()
            };
            assert_eq!(fired(a), fired(b), "frame {frame}, character {i}");
        }
    }
    // The targets reached the poses: a crowd with other targets poses differently.
    let mut other = make();
    Character::update_many(&mut other, 1.0 / 60.0, |_, ch| {
        ch.set_target(0, Vec3::new(5.0, 0.0, 0.0));
    });
    let mut fresh = make();
    Character::update_many(&mut fresh, 1.0 / 60.0, |_, ch| {
        ch.set_target(0, Vec3::new(-5.0, 2.0, 0.0));
    });
    assert!(other.iter().zip(&fresh).any(|(a, b)| a.pose() != b.pose()));
}

/// A goal weight below the documented minimum is no goal: a subnormal weight (1e-45) once
/// gave NaN in the solver's phase error and, on the centaur reaching far, a NaN pose.
#[test]
fn a_vanishing_goal_weight_is_no_goal() {
    use anymorph::runtime::curve::Key;
    use anymorph::runtime::eval::{Goals, MIN_GOAL_WEIGHT};
    let mut goals = Goals::new(2);
    goals.set_position(0, Vec3::ONE, 1e-45);
    goals.set_rotation(1, Quat::IDENTITY, MIN_GOAL_WEIGHT * 0.5);
    assert!(goals.position(0).is_none() && goals.rotation(1).is_none());
    goals.set_position(0, Vec3::ONE, MIN_GOAL_WEIGHT);
    assert!(goals.position(0).is_some());

    let mut clip = common::clip("reach_target").clone();
    for c in &mut clip.channels {
        c.position_weight = Some(KeyedCurve::new(vec![Key::new(0.0, 1e-45)]).unwrap());
    }
    let clip = std::sync::Arc::new(clip);
    let centaur = common::creature("centaur");
    let graspers: Vec<usize> = (0..centaur.len())
        .filter(|&b| centaur.body(b).has_cap(&Cap::Grasper))
        .collect();
    assert!(!graspers.is_empty());
    let mut ch = Character::new(std::sync::Arc::new(centaur.clone()));
    ch.set_target(0, Vec3::new(0.0, 1.0, 60.0));
    ch.play(&clip, PlayParams::default()).unwrap();
    for _ in 0..40 {
        ch.update(1.0 / 30.0);
        assert!(ch.pose().iter().all(|p| p.position.is_finite()));
        // The gait still plants the feet; the reaching hand has no goal.
        assert!(graspers.iter().all(|&b| ch.goals().position(b).is_none()));
    }
}

/// A hand a clip sends to a body (a channel's secondary body: the mouth) is sent to touch
/// it, alone or blended with another clip, so the IK lets it into the head; a clip aiming at
/// no body sends nothing to touch.
#[test]
fn a_hand_sent_to_the_mouth_is_sent_to_touch_it_alone_and_blended() {
    let touched = |ch: &Character| -> Vec<(String, String)> {
        let c = ch.creature();
        ch.goals()
            .bodies()
            .filter_map(|b| {
                Some((
                    c.body(b).name.clone(),
                    c.body(ch.goals().touch(b)?).name.clone(),
                ))
            })
            .collect()
    };
    let mut ch = character("biped");
    let mouth = ch
        .creature()
        .bodies()
        .iter()
        .find(|b| b.has_cap(&Cap::Mouth))
        .unwrap()
        .name
        .clone();
    ch.play(&clip("hand_to_mouth"), PlayParams::default())
        .unwrap();
    ch.update(0.5);
    let alone = touched(&ch);
    assert!(
        !alone.is_empty() && alone.iter().all(|(_, t)| *t == mouth),
        "{alone:?}"
    );

    let mut ch = character("biped");
    // Most of the hand from the upper layer, the rest from the one below.
    let on = |layer, weight| PlayParams {
        layer,
        weight,
        ..Default::default()
    };
    ch.play(&clip("hand_to_mouth"), on(1, 0.7)).unwrap();
    ch.play(&hold("hold", Vec3::X * 0.1, &[], true), on(0, 1.0))
        .unwrap();
    ch.update(0.5);
    assert_eq!(touched(&ch), alone, "blended with a clip touching nothing");

    let mut ch = character("biped");
    ch.play(
        &hold("hold", Vec3::X * 0.1, &[], true),
        PlayParams::default(),
    )
    .unwrap();
    ch.update(0.5);
    assert!(touched(&ch).is_empty());
}
