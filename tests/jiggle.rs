//! Jiggles on every sample creature: strictly passive (bodies with IK are bit-identical with
//! jiggles on or off), deterministic, settling to the animated pose when the motion stops,
//! held by `dt = 0`, and finite under random motion, huge steps and teleports.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::runtime::creature::{Cap, Creature};
use anymorph::runtime::eval::Goals;
use anymorph::runtime::ik::IkTuning;
use anymorph::runtime::math::rotation_angle_between;
use anymorph::runtime::pipeline::PoseStage;
use anymorph::runtime::pose::BodyPose;
use anymorph::zoo::Family;
use glam::{Quat, Vec3};
use std::sync::Arc;

const DT: f32 = 1.0 / 60.0;

fn stage(c: &Creature, jiggle: bool) -> PoseStage {
    let mut tuning = IkTuning::default();
    tuning.jiggle.enabled = jiggle;
    PoseStage::with_tuning(c, tuning)
}

/// Goals at time `t`: the graspers and feet swing, the root bobs and turns — keyed motion
/// that leaves tails, heads and other bodies to the jiggles.
fn goals_at(c: &Creature, t: f32) -> Goals {
    let mut g = Goals::new(c.len());
    // The root bobs below its rest height; the ground, which would hold up what hangs
    // below it, has its own test.
    g.ground_height = -100.0 * c.size();
    let root = c.root();
    let s = c.size();
    g.set_position(
        root,
        c.body(root).position + Vec3::new((t * 3.0).sin() * 0.1, (t * 5.0).sin() * 0.05, 0.0) * s,
        1.0,
    );
    g.set_rotation(
        root,
        Quat::from_rotation_y((t * 2.5).sin() * 0.5)
            * Quat::from_rotation_z((t * 4.0).cos() * 0.2)
            * c.body(root).rotation,
        1.0,
    );
    for b in 0..c.len() {
        let body = c.body(b);
        if !c.is_spine(b) && (body.has_cap(&Cap::Grasper) || body.has_cap(&Cap::Foot)) {
            let l = c.limb_length(b).max(0.05 * s);
            let wave =
                Vec3::new(0.0, (t * 6.0 + b as f32).sin(), (t * 4.0 + b as f32).cos()) * 0.3 * l;
            g.set_position(b, body.position + wave, 1.0);
        }
    }
    g
}

fn has_jiggle_bodies(st: &PoseStage) -> bool {
    st.has_ik().iter().any(|&h| !h)
}

#[test]
fn jiggles_never_move_a_body_with_ik() {
    for c in common::creatures() {
        let (mut on, mut off) = (stage(c, true), stage(c, false));
        for i in 0..120 {
            let g = goals_at(c, i as f32 * DT);
            let a = on.run(c, &g, DT).to_vec();
            let b = off.run(c, &g, DT).to_vec();
            for (body, &ik) in on.has_ik().iter().enumerate() {
                if ik {
                    assert_eq!(
                        a[body],
                        b[body],
                        "{} {} frame {i}",
                        c.name(),
                        c.body(body).name
                    );
                }
            }
        }
    }
}

#[test]
fn jiggles_move_what_the_clip_leaves_alone() {
    let mut moved = 0;
    for c in common::creatures() {
        let (mut on, mut off) = (stage(c, true), stage(c, false));
        let mut most = 0.0f32;
        for i in 0..120 {
            let g = goals_at(c, i as f32 * DT);
            let a = on.run(c, &g, DT).to_vec();
            let b = off.run(c, &g, DT).to_vec();
            for (x, y) in a.iter().zip(&b) {
                most = most.max(rotation_angle_between(x.rotation, y.rotation));
            }
        }
        if has_jiggle_bodies(&on) && most > 0.01 {
            moved += 1;
        }
    }
    assert!(moved >= 12, "jiggles visibly moved only {moved} creatures");
}

#[test]
fn the_same_frames_give_the_same_jiggles() {
    for c in common::creatures() {
        let (mut a, mut b) = (stage(c, true), stage(c, true));
        for i in 0..90 {
            let g = goals_at(c, i as f32 * DT);
            let dt = if i % 7 == 3 { 0.05 } else { DT };
            assert_eq!(a.run(c, &g, dt), b.run(c, &g, dt), "{} frame {i}", c.name());
        }
    }
}

fn assert_near(c: &Creature, a: &[BodyPose], b: &[BodyPose], what: &str) {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(
            x.position.distance(y.position) < 1e-3 * c.size()
                && rotation_angle_between(x.rotation, y.rotation) < 2e-3,
            "{} {}: {what}",
            c.name(),
            c.body(i).name
        );
    }
}

#[test]
fn jiggles_settle_to_the_animated_pose_when_the_motion_stops() {
    for c in common::creatures() {
        let (mut on, mut off) = (stage(c, true), stage(c, false));
        for i in 0..90 {
            on.run(c, &goals_at(c, i as f32 * DT), DT);
        }
        let still = goals_at(c, 1.5);
        for _ in 0..(6.0 / DT) as usize {
            on.run(c, &still, DT);
        }
        let animated = off.run(c, &still, DT).to_vec();
        assert_near(c, on.pose(), &animated, "did not settle");
    }
}

#[test]
fn a_zero_step_holds_the_jiggles() {
    for c in common::creatures() {
        let mut st = stage(c, true);
        let mut g = goals_at(c, 0.0);
        for i in 0..40 {
            g = goals_at(c, i as f32 * DT);
            st.run(c, &g, DT);
        }
        let held = st.pose().to_vec();
        for _ in 0..5 {
            assert_eq!(st.run(c, &g, 0.0), held.as_slice(), "{}", c.name());
        }
    }
}

#[test]
fn random_motion_huge_steps_and_teleports_stay_finite_and_bounded() {
    let tuning = IkTuning::default();
    for c in common::creatures() {
        let (mut st, mut off) = (stage(c, true), stage(c, false));
        let mut seed = 0x2545_F491_4F6C_DD1Du64 ^ c.len() as u64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        for i in 0..200 {
            let mut g = goals_at(c, rand() * 10.0);
            if i % 37 == 5 {
                // Teleport the root far away and back.
                g.set_position(c.root(), Vec3::splat(1e6 * (rand() - 0.5)), 1.0);
            }
            let dt = match i % 11 {
                0 => 1e6,
                1 => 0.0,
                2 => 1e-7,
                3 => f32::NAN,
                _ => rand() * 0.2,
            };
            let pose = st.run(c, &g, dt).to_vec();
            let rigid = off.run(c, &g, 0.0).to_vec();
            for (b, (p, r)) in pose.iter().zip(&rigid).enumerate() {
                assert!(p.is_finite(), "{} {} frame {i}", c.name(), c.body(b).name);
                assert!(
                    rotation_angle_between(p.rotation, r.rotation)
                        <= tuning.jiggle.max_angle * 8.0 + 1e-3,
                    "{} {} swung too far",
                    c.name(),
                    c.body(b).name
                );
            }
        }
    }
}

/// Stages of one creature made for a crowd share their compiled data and pose exactly as
/// a stage of its own does; retuning one leaves the others as they were.
#[test]
fn shared_stages_pose_as_their_own_and_retune_alone() {
    use std::sync::Arc;
    for c in common::creatures() {
        let shared = Arc::new(c.clone());
        let (mut a, mut b) = (PoseStage::shared(&shared), PoseStage::shared(&shared));
        let mut own = PoseStage::new(c);
        let mut tuning = IkTuning::default();
        tuning.jiggle.default_frequency *= 0.5;
        tuning.jiggle.frequency_by_cap.clear();
        b.set_tuning(c, tuning.clone());
        let mut retuned = PoseStage::with_tuning(c, tuning);
        let mut differ = false;
        for i in 0..90 {
            let g = goals_at(c, i as f32 * DT);
            let pa = a.run(&shared, &g, DT).to_vec();
            assert_eq!(pa, own.run(c, &g, DT), "{} frame {i}", c.name());
            let pb = b.run(&shared, &g, DT).to_vec();
            assert_eq!(
                pb,
                retuned.run(c, &g, DT),
                "{} retuned, frame {i}",
                c.name()
            );
            differ |= pa != pb;
        }
        assert!(
            differ || !has_jiggle_bodies(&a),
            "{}: the retuned stage moved like the others",
            c.name()
        );
    }
}

/// The lowest point of a body's shape.
fn lowest(c: &Creature, pose: &[BodyPose], b: usize) -> f32 {
    pose[b].position.y - c.body(b).reach_below(pose[b].rotation)
}

#[test]
fn passive_bodies_rest_on_the_ground_instead_of_sinking_through_it() {
    let c = common::creature("biped");
    let hand = c.bodies().iter().position(|b| b.name == "hand_l").unwrap();
    // Ground raised above the hanging hands, below the pelvis: nothing has a goal, so the
    // legs and arms are all passive and would hang through it.
    let ground = 0.85;
    let settle = |ground_height: f32| {
        let mut st = stage(c, true);
        let mut g = Goals::new(c.len());
        g.ground_height = ground_height;
        for _ in 0..120 {
            st.run(c, &g, DT);
        }
        assert!(st.has_ik().iter().skip(1).all(|&h| !h));
        st.pose().to_vec()
    };
    let sunk = settle(-100.0);
    assert!(
        lowest(c, &sunk, hand) < ground - 0.05,
        "the hand hangs below the raised ground without it"
    );
    let rested = settle(ground);
    let give = 0.5 * IkTuning::default().jiggle.ground_cushion * c.size();
    for b in (0..c.len()).filter(|&b| b != c.root()) {
        let low = lowest(c, &rested, b);
        assert!(
            low >= ground - give - 1e-3 && low.is_finite(),
            "{} sinks to {low}",
            c.body(b).name
        );
    }
    // Ground below the feet changes nothing.
    assert_eq!(settle(0.0), settle(-100.0));
}

#[test]
fn a_free_arm_hangs_from_the_root_when_the_chest_bends() {
    let c = common::creature("biped");
    let id = |n: &str| c.bodies().iter().position(|b| b.name == n).unwrap();
    let (chest, shoulder, hand) = (id("spine_3"), id("upper_arm_l"), id("hand_l"));
    let mut g = Goals::new(c.len());
    let bow = Quat::from_rotation_x(0.8);
    g.set_rotation(chest, bow * c.body(chest).rotation, 1.0);
    let mut st = stage(c, true);
    for _ in 0..180 {
        st.run(c, &g, DT);
    }
    let pose = st.pose();
    let turned = rotation_angle_between(pose[chest].rotation, c.body(chest).rotation);
    assert!(turned > 0.6, "the chest bows: {turned}");
    let hang = |p: &[BodyPose]| (p[hand].position - p[shoulder].position).normalize();
    let rest: Vec<BodyPose> = c
        .bodies()
        .iter()
        .map(|b| BodyPose::new(b.position, b.rotation))
        .collect();
    let off = hang(pose).angle_between(hang(&rest));
    assert!(
        off < 0.2,
        "the arm keeps hanging as at rest, not bowed with the chest: {off} rad"
    );
}

/// A tall creature reaching with one arm pulls the spine body the arm hangs from; the
/// trunk above it, its necks and heads have no goal and are jiggled. They must ride on it as
/// a stiff column: at a tail's looseness the five spine bodies above the arm whipped the
/// heads half a metre back and forth (zoo seed 196: an eye's frame-to-frame jitter at ten
/// times the grid's limit).
#[test]
fn a_passive_trunk_carries_its_heads_without_whipping_them() {
    let clip = Arc::new(common::clip("reach_target").clone());
    let config = anymorph::validation::ValidationConfig::default();
    for seed in [96, 142, 167, 196] {
        let creature = Arc::new(anymorph::zoo::generate_family(seed, Family::Classic).unwrap());
        let passive = |name: &str| {
            let b = creature
                .bodies()
                .iter()
                .position(|b| b.name == name)
                .unwrap();
            creature.is_spine(b)
                || [Cap::Head, Cap::Eye, Cap::Mouth]
                    .iter()
                    .any(|c| creature.body(b).has_cap(c))
        };
        let cell = anymorph::validation::check_cell(&clip, &creature, &config);
        assert!(!cell.variants.is_empty(), "zoo {seed} binds reach_target");
        for v in &cell.variants {
            for f in &v.failures {
                assert!(
                    f.check != anymorph::validation::Check::Jitter || !passive(&f.body),
                    "zoo {seed}, {}: {}",
                    v.label,
                    f.describe()
                );
            }
        }
    }
}

#[test]
fn a_stage_poses_as_a_full_solve_followed_by_the_jiggles() {
    // The stage leaves the bodies without IK to the jiggles instead of posing them twice:
    // with jiggles on the result must be bit for bit the full solve's with the jiggles
    // applied, and with them off the full solve's own (the rigid followers). Mouths with
    // goals delegate them to their heads and are posed by the IK either way.
    for c in common::creatures() {
        for jiggle in [true, false] {
            let mut st = stage(c, jiggle);
            let mut tuning = IkTuning::default();
            tuning.jiggle.enabled = jiggle;
            let mut ik = anymorph::runtime::ik::IkSolver::with_tuning(c, tuning.clone());
            let mut jiggles = anymorph::runtime::jiggle::Jiggles::new(c, &tuning.jiggle);
            let mut full = Vec::new();
            for f in 0..20 {
                let mut goals = goals_at(c, f as f32 * DT);
                // A mouth sent somewhere delegates its goal to its head: it has IK, and no
                // jiggle places it.
                for b in 0..c.len() {
                    if c.body(b).has_cap(&Cap::Mouth) {
                        let lift = Vec3::new(0.0, 0.02, 0.03) * c.size() * (f as f32 * 0.3).sin();
                        goals.set_position(b, c.body(b).position + lift, 1.0);
                    }
                }
                let staged = st.run(c, &goals, DT).to_vec();
                ik.solve(c, &goals, &mut full);
                jiggles.apply(ik.has_ik(), &mut full, DT, goals.ground_height);
                assert_eq!(staged, full, "{} frame {f}, jiggles {jiggle}", c.name());
            }
            assert!(has_jiggle_bodies(&st), "{}: some body has no IK", c.name());
        }
    }
}

/// A limb the clip leaves alone rests on the trunk it swings against rather than sinking
/// in: the centaur's free arm when the torso bows over the withers to pick something up
/// (it sank 1.8 radii deep before the jiggles kept limbs out of the trunk), and a zoo
/// creature's middle arm under a chest reaching forward. Every limb body against every
/// spine body it does not hang from, frame by frame, within the validation grid's limit.
#[test]
fn a_free_limb_rests_on_the_trunk_instead_of_sinking_into_it() {
    let limit = anymorph::validation::ValidationConfig::default().interpenetration;
    let cases = [
        (
            Arc::new(common::creature("centaur").clone()),
            "pick_up_prone",
        ),
        (
            Arc::new(anymorph::zoo::generate_family(136, Family::Classic).unwrap()),
            "reach_target",
        ),
    ];
    for (creature, clip) in cases {
        let c = &*creature;
        let clip = Arc::new(common::clip(clip).clone());
        let parent = |b: usize| c.parent(b);
        let attachment =
            |b: usize| std::iter::successors(Some(b), |&x| parent(x)).find(|&x| c.is_spine(x));
        let pairs: Vec<(usize, usize)> = (0..c.len())
            .filter(|&l| !c.is_spine(l) && c.body(l).rounded().1 > 0.0)
            .flat_map(|l| (0..c.len()).map(move |s| (l, s)))
            .filter(|&(l, s)| c.is_spine(s) && Some(s) != attachment(l) && !c.joined(l, s))
            .collect();
        for variant in 0..2 {
            let (d, l, s, f) = common::deepest_overlap(&creature, &clip, variant, false, &pairs);
            assert!(
                d < limit,
                "{} {}, variant {variant}: {} sinks {d:.2} radii into {} at frame {f}",
                c.name(),
                clip.name,
                c.body(l).name,
                c.body(s).name
            );
        }
    }
}

/// Two free limbs hanging near each other from different spine bodies (the four-armed
/// creature's arms on one side, a zoo creature's front arm above its middle one) each hang
/// as at rest relative to the root; a torso bending between their spine bodies carries one
/// into the other. They turn aside toward hanging with their spine bodies instead, as far as
/// keeps them apart, and ease into it without shaking: before, the four-armed creature's
/// free arms passed 2.1 radii into each other while its low hand reached.
#[test]
fn free_limbs_hanging_near_each_other_turn_aside_without_shaking() {
    let config = anymorph::validation::ValidationConfig::default();
    let zoo = Arc::new(anymorph::zoo::generate_family(103, Family::Classic).unwrap());
    let zoo_arms = [("arm0_0_r", "arm1_0"), ("arm0_0_l", "arm1_0")];
    // The last: clip whose limbs are only checked for shaking (the zoo creature's middle
    // hand still sinks into its front arm as it picks up, less deep than before).
    let cases = [
        (
            Arc::new(common::creature("four_armed").clone()),
            "reach_target",
            [
                ("clavicle_r", "low_upper_arm_r"),
                ("clavicle_l", "low_upper_arm_l"),
            ],
            [1, 3],
            true,
        ),
        (Arc::clone(&zoo), "reach_target", zoo_arms, [0, 1], true),
        (zoo, "pick_up_prone", zoo_arms, [0, 1], false),
    ];
    for (creature, clip, limbs, variants, apart) in cases {
        let clip = Arc::new(common::clip(clip).clone());
        let c = &*creature;
        let id = |n: &str| c.bodies().iter().position(|b| b.name == n).unwrap();
        let limb = |top: usize| -> Vec<usize> {
            (0..c.len())
                .filter(|&b| c.limb_top(b) == Some(top) && c.body(b).rounded().1 > 0.0)
                .collect()
        };
        let pairs: Vec<(usize, usize)> = limbs
            .iter()
            .flat_map(|&(x, y)| {
                let (a, b) = (limb(id(x)), limb(id(y)));
                a.iter()
                    .flat_map(|&i| b.iter().map(move |&j| (i, j)))
                    .collect::<Vec<_>>()
            })
            .collect();
        let watched: Vec<usize> = limbs
            .iter()
            .flat_map(|&(x, y)| [limb(id(x)), limb(id(y))].concat())
            .collect();
        for variant in variants {
            let (d, a, b, f) = common::deepest_overlap(&creature, &clip, variant, true, &pairs);
            assert!(
                d < config.interpenetration || !apart,
                "{} variant {variant}: {} sinks {d:.2} radii into {} at frame {f}",
                c.name(),
                c.body(a).name,
                c.body(b).name
            );
            // The grid's jitter: acceleration flipping from one frame to the next.
            let mut ch = anymorph::runtime::player::Character::new(Arc::clone(&creature));
            ch.play(
                &clip,
                anymorph::runtime::player::PlayParams {
                    variant: anymorph::runtime::player::VariantChoice::Index(variant),
                    hold: true,
                    ..Default::default()
                },
            )
            .unwrap();
            let scene = anymorph::validation::TargetScene::of(&clip, &creature, variant);
            let dt = 1.0 / config.fps;
            let mut seen: Vec<Vec<Vec3>> = Vec::new();
            let mut last_acc = vec![Vec3::ZERO; watched.len()];
            for f in 0..=(clip.duration_secs * config.fps).ceil() as usize {
                ch.set_target(0, scene.at(c, f as f32 * dt));
                let pose = ch.update(if f == 0 { 0.0 } else { dt });
                seen.push(watched.iter().map(|&b| pose[b].position).collect());
                let n = seen.len();
                if n < 3 {
                    continue;
                }
                for (k, &b) in watched.iter().enumerate() {
                    let acc = seen[n - 1][k] - 2.0 * seen[n - 2][k] + seen[n - 3][k];
                    let back = acc.dot(last_acc[k]) < -0.5 * acc.length() * last_acc[k].length();
                    let shake = acc.length().min(last_acc[k].length()) / c.size();
                    assert!(
                        !(n >= 4 && back && shake > config.jitter),
                        "{} variant {variant}: {} shakes {shake:.4} of its size at frame {f}",
                        c.name(),
                        c.body(b).name
                    );
                    last_acc[k] = acc;
                }
            }
        }
    }
}
