//! The particle IK's contracts as properties over generated creatures of every morphology
//! family (`anymorph::check::ik`, which `anymorph check ik --random N` runs over thousands):
//! reachable goal sets reached within 1 % of limb length, limbs pointing at goals beyond
//! reach without overstretching, rest goals giving the rest pose, the same goals giving the
//! same pose, no NaN. A bounded number of creatures here, from a fixed seed; a failure is
//! kept in `ik_zoo.proptest-regressions` and names the creature to make again.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use anymorph::check::Subject;
use anymorph::check::ik::{IkCheckOptions, check_creature};
use anymorph::zoo::{Family, generate_family};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use std::sync::Arc;

fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(45),
        // A zoo creature is one seed: shrinking it gives another creature, not a smaller
        // one, so a failure is reported as drawn.
        max_shrink_iters: 0,
        ..Config::default()
    }
}

fn subject(family: Family, seed: u64) -> Subject {
    Subject {
        creature: Arc::new(generate_family(seed, family).unwrap()),
        origin: Some((family, seed)),
    }
}

proptest! {
    #![proptest_config(config(180))]

    #[test]
    fn any_creature_keeps_the_ik_contracts(
        family in proptest::sample::select(Family::ALL.to_vec()),
        seed in 0u64..1_000_000,
    ) {
        let s = subject(family, seed);
        let options = IkCheckOptions { bent_sets: 8, straight_sets: 6, unreachable_sets: 4, random_sets: 4, paths: 0 };
        let r = check_creature(&s, &options);
        let how = s.how_to_make();
        for m in r.missed() {
            prop_assert!(
                false,
                "{how}: {:?} set {} missed {} by {:.2} % of its limb",
                m.kind, m.index, m.end, 100.0 * m.error
            );
        }
        for u in r.unreachable.iter().filter(|u| !u.passed) {
            prop_assert!(
                false,
                "{how}: {} reached toward a far goal at cosine {:.3}, stretched {:.3}",
                u.end, u.cosine, u.stretch
            );
        }
        prop_assert!(r.rest_failures.is_empty(), "{how}: {:?}", r.rest_failures);
        prop_assert!(r.path_failures.is_empty(), "{how}: {:?}", r.path_failures);
        prop_assert_eq!(r.nan_sets, 0, "{}: NaN", how);
    }
}

/// The keep-out may miss a goal only to keep a limb out of the trunk (or out of a limb no
/// goal moves), and rarely: under 1 % of the goals over a few hundred creatures.
#[test]
fn goals_kept_out_of_the_trunk_are_rare() {
    let (mut goals, mut kept) = (0, 0);
    for seed in 0..270u64 {
        let s = subject(Family::of_seed(seed), seed + 10_000);
        let r = check_creature(&s, &IkCheckOptions::default());
        for m in &r.reach {
            goals += m.goals_count;
            if m.kept_out.is_some() {
                kept += m.missed_ends;
            }
        }
    }
    assert!(goals > 5_000, "{goals} goals");
    assert!(
        (kept as f32) < 0.01 * goals as f32,
        "{kept} of {goals} goals kept out"
    );
}

/// A limb in a line at rest (a straight tail, a straight finger), its end sent nearer its
/// root while swinging, bends one way throughout: no body of it jumps for goals a hair
/// apart. The aim squashes such a limb onto the line from its root to its goal; a hinge
/// there has no nearest side, and before, rounding picked one, flipping the limb by up to
/// 15 % of the creature's size (`zoo_limbs-on-limbs_170`'s tail). Each step of the sweep
/// that moves a body more than half a percent of the creature is halved, keeping the half
/// that moves it more, down to a ten-millionth of the sweep. The solver without its
/// keep-out: the keep-out's own jumps are another matter (docs/IK.md, 5c).
#[test]
fn a_limb_straight_at_rest_bends_one_way() {
    use anymorph::runtime::eval::Goals;
    use anymorph::runtime::ik::{IkSolver, IkTuning};
    use glam::Quat;
    let mut tuning = IkTuning::default();
    tuning.limb.keep_out_rounds = 0;
    let (mut limbs, mut steps) = (0, 0);
    for seed in 0..240u64 {
        let family = Family::ALL[seed as usize % Family::ALL.len()];
        let c = generate_family(seed + 70_000, family).unwrap();
        let mut solver = IkSolver::with_tuning(&c, tuning.clone());
        for end in (0..c.len()).filter(|&b| c.children(b).is_empty()) {
            let Some(top) = c.limb_top(end) else { continue };
            let mut chain = vec![end];
            while *chain.last().unwrap() != top {
                chain.push(c.parent(*chain.last().unwrap()).unwrap());
            }
            if chain.len() < 3 {
                continue;
            }
            let (root, tip) = (c.pivot(top), c.pivot(end));
            let line = tip - root;
            let straight = chain.iter().all(|&b| {
                let v = c.pivot(b) - root;
                (v - line * (v.dot(line) / line.length_squared())).length() <= 0.005 * line.length()
            });
            if !straight || line.length() < 1e-3 * c.size() {
                continue;
            }
            limbs += 1;
            let axis = line.any_orthonormal_vector();
            let rest = c.body(end).position;
            let goal_at = |s: f32| {
                let swing = Quat::from_axis_angle(axis, 0.8 * s);
                root + swing * ((rest - root) * (1.0 - 0.5 * s))
            };
            let mut pose_at = |s: f32, out: &mut Vec<_>| {
                let mut goals = Goals::new(c.len());
                goals.set_position(end, goal_at(s), 1.0);
                solver.solve(&c, &goals, out);
            };
            let moved = |a: &[anymorph::runtime::pose::BodyPose],
                         b: &[anymorph::runtime::pose::BodyPose]| {
                chain
                    .iter()
                    .map(|&x| a[x].position.distance(b[x].position))
                    .fold(0.0f32, f32::max)
            };
            let limit = 0.005 * c.size();
            let n = 48;
            let (mut before, mut after, mut mid) = (Vec::new(), Vec::new(), Vec::new());
            pose_at(0.0, &mut before);
            for k in 0..n {
                let (mut lo, mut hi) = (k as f32 / n as f32, (k + 1) as f32 / n as f32);
                pose_at(hi, &mut after);
                steps += 1;
                if moved(&before, &after) > limit {
                    let (mut a, mut b) = (before.clone(), after.clone());
                    for _ in 0..17 {
                        let m = 0.5 * (lo + hi);
                        pose_at(m, &mut mid);
                        if moved(&a, &mid) >= moved(&mid, &b) {
                            hi = m;
                            b = mid.clone();
                        } else {
                            lo = m;
                            a = mid.clone();
                        }
                    }
                    let jump = moved(&a, &b);
                    assert!(
                        jump <= limit,
                        "{} {}: jumped {:.2} % of the creature's size at {lo} of the sweep   anymorph generate --seed {} --family {family} --out x.creature.json",
                        c.name(),
                        c.body(end).name,
                        100.0 * jump / c.size(),
                        seed + 70_000,
                    );
                }
                std::mem::swap(&mut before, &mut after);
            }
        }
    }
    assert!(
        limbs >= 20 && steps >= 1000,
        "too few straight limbs: {limbs} ({steps} steps)"
    );
}

/// A hand on a branch of a leg, sent past where its bones reach from the planted feet,
/// yields to them: the feet stay on their goals and the hand reaches as far as the branch
/// lets it. Over every foot and every other end forking off the same limb of 120 creatures
/// with limbs on limbs (137 pairs), each hand sent three limb lengths away in six
/// directions, 822 solves. The passes used to split the difference: feet left their goals by
/// up to 32 % of their leg, 233 solves by over 1 %, while the hand still missed. Not yet the
/// 1 % the IK keeps on reachable goals: the pins are held by balls about the fork's joints,
/// and the fork body's turn, which ties its two joints, is not solved (docs/IK.md, 5b): 22
/// solves over 1 %, the worst 3.4 %. This holds the ground gained.
#[test]
fn a_hand_on_a_planted_leg_yields_to_the_foot() {
    use anymorph::runtime::creature::Cap;
    use anymorph::runtime::eval::Goals;
    use anymorph::runtime::ik::IkSolver;
    use glam::Vec3;
    let (mut pairs, mut solves, mut over) = (0, 0, 0);
    let mut worst = (0.0f32, String::new());
    for seed in 0..120u64 {
        let c = generate_family(seed + 71_000, Family::LimbsOnLimbs).unwrap();
        let mut solver = IkSolver::new(&c);
        let up =
            |x: usize| -> Vec<usize> { std::iter::successors(Some(x), |&y| c.parent(y)).collect() };
        let ends: Vec<usize> = (0..c.len())
            .filter(|&b| c.children(b).is_empty() && c.limb_top(b).is_some())
            .collect();
        let mut out = Vec::new();
        for &foot in ends.iter().filter(|&&b| c.body(b).has_cap(&Cap::Foot)) {
            for &hand in ends.iter().filter(|&&b| !c.body(b).has_cap(&Cap::Foot)) {
                let from_hand = up(hand);
                if c.limb_top(foot) != c.limb_top(hand) || from_hand.contains(&foot) {
                    continue;
                }
                pairs += 1;
                let far = 3.0 * c.limb_length(hand);
                for dir in [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z] {
                    let mut goals = Goals::new(c.len());
                    for b in (0..c.len()).filter(|&b| c.body(b).has_cap(&Cap::Foot)) {
                        goals.set_position(b, c.body(b).position, 1.0);
                        goals.set_rotation(b, c.body(b).rotation, 1.0);
                    }
                    goals.set_position(hand, c.body(hand).position + dir * far, 1.0);
                    solver.solve(&c, &goals, &mut out);
                    assert!(out.iter().all(|p| p.is_finite()), "{}: NaN", c.name());
                    let miss =
                        out[foot].position.distance(c.body(foot).position) / c.limb_length(foot);
                    solves += 1;
                    over += usize::from(miss > 0.01);
                    if miss > worst.0 {
                        worst = (
                            miss,
                            format!(
                                "{} {} with {} sent {dir}",
                                c.name(),
                                c.body(foot).name,
                                c.body(hand).name
                            ),
                        );
                    }
                }
            }
        }
    }
    assert!(pairs >= 40, "too few hands on legs: {pairs}");
    assert!(
        worst.0 <= 0.05 && over * 30 <= solves,
        "planted feet left their goals by over 1 % of their limb in {over} of {solves} solves, the worst by {:.1} %: {}",
        100.0 * worst.0,
        worst.1
    );
}

/// A foot holds the creature up and a hand does not: every foot held where it rests and one
/// hand (on a limb with no foot) sent three limb lengths away in each of six directions,
/// the spine leans toward the hand only as far as the feet allow. Over 200 creatures of the
/// default mix, a foot may end over 1 % of its leg off its goal in at most 1 % of the
/// solves. Before the spine's give was bounded (`spine.limb_give_most`) and the feet held
/// after the passes, 2.2 % did (worst 72 %; now 0.3 %, worst 18 %): a hind arm sent ahead
/// folded the spine under the belly.
#[test]
fn planted_feet_hold_while_a_hand_reaches_far() {
    use anymorph::runtime::creature::Cap;
    use anymorph::runtime::ik::IkSolver;
    use glam::Vec3;
    let (mut solves, mut over) = (0, 0);
    let mut worst = (0.0f32, String::new());
    for seed in 72_000..72_200u64 {
        let c = anymorph::zoo::generate(seed).unwrap();
        let (hands, feet) = (leaves(&c, Cap::Grasper), leaves(&c, Cap::Foot));
        let mut solver = IkSolver::new(&c);
        let mut out = Vec::new();
        for &hand in &hands {
            if feet.iter().any(|&f| c.limb_top(f) == c.limb_top(hand)) {
                continue;
            }
            let far = 3.0 * c.limb_length(hand);
            for dir in [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z] {
                let mut goals = held_at_rest(&c, &feet);
                goals.set_position(hand, c.body(hand).position + dir * far, 1.0);
                solver.solve(&c, &goals, &mut out);
                assert!(out.iter().all(|p| p.is_finite()), "{}: NaN", c.name());
                for &f in &feet {
                    let miss = out[f].position.distance(c.body(f).position) / c.limb_length(f);
                    solves += 1;
                    over += usize::from(miss > 0.01);
                    if miss > worst.0 {
                        worst = (
                            miss,
                            format!(
                                "{} {} with {} sent {dir}",
                                c.name(),
                                c.body(f).name,
                                c.body(hand).name
                            ),
                        );
                    }
                }
            }
        }
    }
    eprintln!(
        "{over} of {solves} planted feet left their goals by over 1 % of their leg, the worst by {:.1} %: {}",
        100.0 * worst.0,
        worst.1
    );
    assert!(
        solves >= 2_000,
        "too few hands beside planted feet: {solves}"
    );
    assert!(
        over * 100 <= solves,
        "{over} of {solves} planted feet left their goals by over 1 % of their leg, the worst by {:.1} %: {}",
        100.0 * worst.0,
        worst.1
    );
}

/// Goals holding `bodies` (the feet) where they rest, position and rotation.
fn held_at_rest(
    c: &anymorph::runtime::creature::Creature,
    bodies: &[usize],
) -> anymorph::runtime::eval::Goals {
    let mut goals = anymorph::runtime::eval::Goals::new(c.len());
    for &b in bodies {
        goals.set_position(b, c.body(b).position, 1.0);
        goals.set_rotation(b, c.body(b).rotation, 1.0);
    }
    goals
}

/// The bodies with `cap` that carry nothing: the hands, mouths and feet a goal would go to.
fn leaves(
    c: &anymorph::runtime::creature::Creature,
    cap: anymorph::runtime::creature::Cap,
) -> Vec<usize> {
    (0..c.len())
        .filter(|&b| c.body(b).has_cap(&cap) && c.children(b).is_empty())
        .collect()
}

/// How deep body `b` sinks into body `s` in `pose`, beyond how deep it sinks at rest, in the
/// thinner radius of the two (the grid's measure of interpenetration).
fn sinks(
    c: &anymorph::runtime::creature::Creature,
    pose: &[anymorph::runtime::pose::BodyPose],
    b: usize,
    s: usize,
) -> f32 {
    use anymorph::runtime::math::segment_distance;
    let axis = |x: usize, at: glam::Vec3, turn: glam::Quat| {
        let (half, r) = c.body(x).rounded();
        (at - turn * half, at + turn * half, r)
    };
    let posed = |x: usize| axis(x, pose[x].position, pose[x].rotation);
    let rest = |x: usize| axis(x, c.body(x).position, c.body(x).rotation);
    let ((b0, b1, rb), (s0, s1, rs)) = (posed(b), posed(s));
    let ((h0, h1, _), (r0, r1, _)) = (rest(b), rest(s));
    let at_rest = (rb + rs - segment_distance(h0, h1, r0, r1)).max(0.0);
    (rb + rs - segment_distance(b0, b1, s0, s1) - at_rest) / rb.min(rs)
}

/// A hand a clip sends to the mouth (`Goals::set_touch`, from the channel's secondary body)
/// is meant to touch the head: the IK does not push it out of the head, only out of the
/// rest of the trunk. Every grasper of 2,000 creatures sent to every mouth, feet held: where
/// the solver without its keep-out reaches the mouth with none of the limb's bones sunk into
/// the trunk (the first, which turns about its joint on it, and the second against the body
/// it hangs from, are never kept out) and the hand into nothing but the head's family, the
/// solver with it reaches the mouth too. Before, it pushed the hand out of the head: 1 of 81
/// such goals reached.
#[test]
fn a_hand_sent_to_touch_the_mouth_is_not_kept_out_of_the_head() {
    use anymorph::runtime::creature::Cap;
    use anymorph::runtime::ik::{IkSolver, IkTuning};
    let (mut clear, mut over) = (0, 0);
    let mut worst = (0.0f32, String::new());
    for seed in 30_000..32_000u64 {
        let c = anymorph::zoo::generate(seed).unwrap();
        let (mouths, hands, feet) = (
            leaves(&c, Cap::Mouth),
            leaves(&c, Cap::Grasper),
            leaves(&c, Cap::Foot),
        );
        let mut solver = IkSolver::new(&c);
        let mut bare = IkTuning::default();
        bare.limb.keep_out_rounds = 0;
        let mut reference = IkSolver::with_tuning(&c, bare);
        let spine: Vec<usize> = (0..c.len()).filter(|&s| c.is_spine(s)).collect();
        let mut out = Vec::new();
        for &m in &mouths {
            let head = |s: usize| {
                Some(s) == c.parent(m)
                    || std::iter::successors(Some(s), |&x| c.parent(x)).any(|x| x == m)
            };
            for &h in &hands {
                let mut goals = held_at_rest(&c, &feet);
                let goal = c.body(m).position;
                goals.set_position(h, goal, 1.0);
                goals.set_touch(h, m);
                let miss = |out: &[anymorph::runtime::pose::BodyPose]| {
                    out[h].position.distance(goal) / c.limb_length(h)
                };
                reference.solve(&c, &goals, &mut out);
                if miss(&out) > 0.01 {
                    continue;
                }
                // The limb, hand first.
                let limb: Vec<usize> = std::iter::successors(Some(h), |&x| c.parent(x))
                    .take_while(|&x| !c.is_spine(x))
                    .collect();
                let attachment = limb.last().and_then(|&top| c.parent(top));
                let sunk = limb.iter().enumerate().any(|(i, &b)| {
                    i + 1 < limb.len()
                        && spine.iter().any(|&s| {
                            let allowed = (i == 0 && head(s))
                                || (i + 2 == limb.len() && Some(s) == attachment);
                            !allowed && sinks(&c, &out, b, s) > 0.25
                        })
                });
                if sunk {
                    continue;
                }
                clear += 1;
                solver.solve(&c, &goals, &mut out);
                assert!(out.iter().all(|p| p.is_finite()), "{}: NaN", c.name());
                let e = miss(&out);
                over += usize::from(e > 0.01);
                if e > worst.0 {
                    worst = (
                        e,
                        format!("{} {} to {}", c.name(), c.body(h).name, c.body(m).name),
                    );
                }
            }
        }
    }
    assert!(
        clear >= 40,
        "too few mouths within a hand's clear reach: {clear}"
    );
    assert!(
        worst.0 <= 0.05 && over * 30 <= clear,
        "hands sent to touch a mouth missed it by over 1 % of their limb in {over} of {clear} goals, the worst by {:.1} %: {}",
        100.0 * worst.0,
        worst.1
    );
}

/// A limb sent toward a goal beyond its reach is held straight, so it lies along the line
/// from its shoulder: where that line runs through a neck or a head, the keep-out cannot bend
/// the straight limb aside while its hand is held at the reach, and its bones went through.
/// The IK now brings such a hand in by what bowing the limb there costs and solves it once
/// more (`pull_in`). Every grasper of 1,500 creatures sent at twice its reach through the
/// middle of each neck and head within that reach, feet held: the limb (hand included, the
/// first bone and the one hanging by its own spine body aside) sinks into no trunk body
/// deeper than the grid allows (three quarters of the thinner radius beyond rest) in at
/// least three of four. Before, 775 of 2,322 sank; now 484 do, most where the line crosses
/// the body's axis and one bow is not enough.
#[test]
fn a_straight_limb_reaching_past_a_neck_keeps_its_bones_out_of_it() {
    use anymorph::runtime::creature::Cap;
    use anymorph::runtime::ik::IkSolver;
    let (mut tried, mut sunk) = (0, Vec::new());
    for seed in 40_000..41_500u64 {
        let c = anymorph::zoo::generate(seed).unwrap();
        let (hands, feet) = (leaves(&c, Cap::Grasper), leaves(&c, Cap::Foot));
        let spine: Vec<usize> = (0..c.len()).filter(|&s| c.is_spine(s)).collect();
        let necks: Vec<usize> = spine
            .iter()
            .copied()
            .filter(|&s| c.body(s).name.starts_with("neck") || c.body(s).has_cap(&Cap::Head))
            .collect();
        let mut solver = IkSolver::new(&c);
        let mut out = Vec::new();
        for &h in &hands {
            let limb: Vec<usize> = std::iter::successors(Some(h), |&x| c.parent(x))
                .take_while(|&x| !c.is_spine(x))
                .collect();
            let (Some(&top), true) = (limb.last(), limb.len() >= 3) else {
                continue;
            };
            let shoulder = c.pivot(top);
            let reach = c.limb_length(h);
            let attachment = c.parent(top);
            for &n in &necks {
                let through = c.body(n).position - shoulder;
                if through.length() > 0.8 * reach || through.length() < 1e-6 {
                    continue;
                }
                let goal = shoulder + through.normalize() * 2.0 * reach;
                let mut goals = held_at_rest(&c, &feet);
                goals.set_position(h, goal, 1.0);
                solver.solve(&c, &goals, &mut out);
                assert!(out.iter().all(|p| p.is_finite()), "{}: NaN", c.name());
                tried += 1;
                // The bones below the first (the limb runs hand first).
                let deepest = limb[..limb.len() - 1]
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &b)| {
                        let second = i + 2 == limb.len();
                        spine
                            .iter()
                            .filter(move |&&s| !(second && Some(s) == attachment))
                            .map(move |&s| (b, s))
                    })
                    .map(|(b, s)| (sinks(&c, &out, b, s), b, s))
                    .fold((0.0f32, 0, 0), |w, x| if x.0 > w.0 { x } else { w });
                if deepest.0 > 0.75 {
                    sunk.push(format!(
                        "{} {} into {} ({:.2})",
                        c.name(),
                        c.body(deepest.1).name,
                        c.body(deepest.2).name,
                        deepest.0
                    ));
                }
            }
        }
    }
    eprintln!(
        "{} of {tried} straight limbs reaching past a neck sank",
        sunk.len()
    );
    assert!(tried >= 100, "too few necks within a hand's reach: {tried}");
    assert!(
        sunk.len() * 4 <= tried,
        "{} of {tried} straight limbs reaching past a neck sank into the trunk: {:?}",
        sunk.len(),
        &sunk[..sunk.len().min(8)]
    );
}
