//! Particle IK properties on every sample creature: rest goals give the rest pose,
//! reachable goals are reached, unreachable goals are reached toward without stretching a
//! bone past its limit, and the same goals give the same pose whatever came before.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Rng;

use anymorph::runtime::creature::{BodyId, Creature};
use anymorph::runtime::eval::Goals;
use anymorph::runtime::ik::{IkSolver, IkTuning};
use anymorph::runtime::math::rotation_angle_between;
use anymorph::runtime::pose::BodyPose;
use glam::{Quat, Vec3};

fn solve(c: &Creature, goals: &Goals) -> Vec<BodyPose> {
    solve_with(c, goals, IkTuning::default())
}

fn solve_with(c: &Creature, goals: &Goals, tuning: IkTuning) -> Vec<BodyPose> {
    let mut solver = IkSolver::with_tuning(c, tuning);
    let mut out = Vec::new();
    solver.solve(c, goals, &mut out);
    out
}

/// The paper's solver: no keeping limbs out of the trunk.
fn paper_tuning() -> IkTuning {
    let mut tuning = IkTuning::default();
    tuning.limb.keep_out_rounds = 0;
    tuning
}

/// How much deeper than at rest body `b` sinks into the trunk (spine, neck and head bodies)
/// in `pose`, as a fraction of the thinner radius: the worst over the trunk.
fn trunk_sink(c: &Creature, pose: &[BodyPose], b: BodyId) -> f32 {
    (0..c.len())
        .filter(|&s| c.is_spine(s) && s != b && c.body(s).rounded().1 > 0.0)
        .map(|s| common::sunk(c, pose, b, s))
        .fold(f32::NEG_INFINITY, f32::max)
}

/// The posed joint of a body: where its rest pivot went.
fn joint(c: &Creature, pose: &[BodyPose], b: BodyId) -> Vec3 {
    let body = c.body(b);
    let local = body.rotation.inverse() * (body.position - c.pivot(b));
    pose[b].position - pose[b].rotation * local
}

/// The first non-spine body on the path from the spine down to `b`.
fn limb_root(c: &Creature, b: BodyId) -> Option<BodyId> {
    let mut at = b;
    while let Some(p) = c.parent(at) {
        if c.is_spine(p) {
            return (!c.is_spine(at)).then_some(at);
        }
        at = p;
    }
    None
}

/// Chain from the limb root down to `end`.
fn chain(c: &Creature, end: BodyId) -> Vec<BodyId> {
    let root = limb_root(c, end).unwrap();
    let mut v = vec![end];
    let mut at = end;
    while at != root {
        at = c.parent(at).unwrap();
        v.push(at);
    }
    v.reverse();
    v
}

/// Limb bodies with at least one joint between them and the spine.
fn limb_ends(c: &Creature) -> Vec<BodyId> {
    (0..c.len())
        .filter(|&b| !c.is_spine(b) && limb_root(c, b).is_some_and(|r| r != b))
        .collect()
}

#[test]
fn rest_goals_give_the_rest_pose() {
    let mut rng = Rng::seeded(7);
    for c in common::creatures() {
        let mut sets: Vec<Goals> = Vec::new();
        let mut all = Goals::new(c.len());
        for (b, body) in c.bodies().iter().enumerate() {
            all.set_position(b, body.position, 1.0);
            all.set_rotation(b, body.rotation, 1.0);
        }
        sets.push(all);
        sets.push(Goals::new(c.len()));
        for _ in 0..20 {
            let mut g = Goals::new(c.len());
            for (b, body) in c.bodies().iter().enumerate() {
                match rng.index(4) {
                    0 => g.set_position(b, body.position, rng.range(0.1, 1.0)),
                    1 => g.set_rotation(b, body.rotation, rng.range(0.1, 1.0)),
                    2 => {
                        g.set_position(b, body.position, 1.0);
                        g.set_rotation(b, body.rotation, 1.0);
                    }
                    _ => {}
                }
            }
            sets.push(g);
        }
        for goals in &sets {
            let pose = solve(c, goals);
            for (b, body) in c.bodies().iter().enumerate() {
                assert!(
                    pose[b].position.distance(body.position) < 1e-4 * c.size(),
                    "{} {}: {:?} vs {:?}",
                    c.name(),
                    body.name,
                    pose[b].position,
                    body.position
                );
                assert!(
                    rotation_angle_between(pose[b].rotation, body.rotation) < 1e-3,
                    "{} {}",
                    c.name(),
                    body.name
                );
            }
        }
    }
}

/// Bends a limb at a random joint and swings it about its root joint, so every bone keeps
/// its length, and returns the end body's new centre and rotation.
fn bent_goal(c: &Creature, end: BodyId, rng: &mut Rng) -> (Vec3, Quat) {
    let chain = chain(c, end);
    let bend_at = chain[rng.index(chain.len())];
    let bend = rng.turn(1.2);
    let swing = rng.turn(1.0);
    let (hinge, shoulder) = (c.pivot(bend_at), c.pivot(chain[0]));
    let mut centre = c.body(end).position;
    let mut rotation = c.body(end).rotation;
    centre = hinge + bend * (centre - hinge);
    rotation = bend * rotation;
    centre = shoulder + swing * (centre - shoulder);
    rotation = swing * rotation;
    (centre, rotation.normalize())
}

#[test]
fn reachable_goals_are_reached_within_one_percent_of_the_limb() {
    reachable_goals_are_reached(11);
}

/// Seeds whose draws once made the keep-out miss a goal for nothing (found by running the
/// property over seeds 100 to 6,000): 116 and 289 sent a short arm (a clavicle and the upper
/// arm with the goal) deep between two trunk bodies, where pushing the hand out of one pushed
/// it into the other, a miss of up to 39 cm with the arm as deep; 510 pushed a paw that only
/// grazed one trunk body into the next; 2792 pushed a forearm held by one bone (the upper arm)
/// nearer the shoulder than the bone can shorten to, so it ended 4.6 cm off its goal and
/// deeper in; 4328 pushed a small hand out of the waist and half its radius deeper into the
/// horse's withers, counted a fraction of their large clearance and so "halved".
#[test]
fn a_goal_deep_between_two_trunk_bodies_is_not_missed_for_nothing() {
    for seed in [116, 289, 510, 2792, 4328] {
        reachable_goals_are_reached(seed);
    }
}

fn reachable_goals_are_reached(seed: u64) {
    let mut rng = Rng::seeded(seed);
    let (mut checked, mut kept_out) = (0, 0);
    for c in common::creatures() {
        let ends = limb_ends(c);
        if ends.is_empty() {
            continue;
        }
        for _ in 0..60 {
            let end = ends[rng.index(ends.len())];
            let (centre, rotation) = bent_goal(c, end, &mut rng);
            let mut goals = Goals::new(c.len());
            goals.set_position(end, centre, 1.0);
            goals.set_rotation(end, rotation, 1.0);
            let limit = 0.01 * c.limb_length(end);
            let pose = solve_with(c, &goals, paper_tuning());
            let error = pose[end].position.distance(centre);
            assert!(
                error <= limit,
                "{} {}: missed by {error} (limit {limit})",
                c.name(),
                c.body(end).name
            );
            assert!(rotation_angle_between(pose[end].rotation, rotation) < 1e-3);
            // Keeping limbs out of the trunk misses only goals the limb reaches through it:
            // some body of the limb sinks into the trunk (more than the quarter radius let
            // graze) in the pose without it, and comes out to the surface, or less deep,
            // where the limb's reach allows. It need not be the goal body: a thumb's goal bent
            // in at the clavicle is outside the trunk, but the arm reaching it passes through
            // the belly.
            let reaching = pose;
            let pose = solve(c, &goals);
            let error = pose[end].position.distance(centre);
            if error > limit {
                let sinks: Vec<(f32, f32)> = chain(c, end)
                    .into_iter()
                    .map(|b| (trunk_sink(c, &reaching, b), trunk_sink(c, &pose, b)))
                    .collect();
                assert!(
                    sinks
                        .iter()
                        .any(|&(was, now)| was > 0.25 && (now <= 0.26 || now < was - 0.1)),
                    "{} {}: missed by {error} (limit {limit}); the limb's bodies sunk (reaching the goal, kept out): {sinks:?}",
                    c.name(),
                    c.body(end).name
                );
                kept_out += 1;
            }
            assert!(rotation_angle_between(pose[end].rotation, rotation) < 1e-3);
            checked += 1;
        }
    }
    assert!(checked > 500);
    assert!(
        kept_out < checked / 10,
        "{kept_out} of {checked} goals kept out"
    );
}

#[test]
fn unreachable_goals_are_reached_toward_without_overstretching() {
    let mut rng = Rng::seeded(13);
    let tuning = IkTuning::default();
    for c in common::creatures() {
        let ends = limb_ends(c);
        if ends.is_empty() {
            continue;
        }
        for _ in 0..30 {
            let end = ends[rng.index(ends.len())];
            let rest = c.body(end).position;
            let goal = rest + rng.direction() * (2.0 + 3.0 * rng.unit()) * c.limb_length(end);
            let mut goals = Goals::new(c.len());
            goals.set_position(end, goal, 1.0);
            let pose = solve(c, &goals);
            assert!(
                pose[end].position.distance(goal) < rest.distance(goal) - 1e-3 * c.size(),
                "{} {} did not reach toward its goal",
                c.name(),
                c.body(end).name
            );
            for &b in &chain(c, end)[1..] {
                let p = c.parent(b).unwrap();
                let rest_len = c.pivot(b).distance(c.pivot(p));
                let len = joint(c, &pose, b).distance(joint(c, &pose, p));
                assert!(
                    len <= rest_len * tuning.limb.max_stretch + 1e-4 * c.size(),
                    "{} {}: bone {} stretched to {len} from {rest_len}",
                    c.name(),
                    c.body(end).name,
                    c.body(p).name
                );
            }
        }
    }
}

/// Reachable goals for up to three limb ends, each bent at a random joint (with its rotation
/// at `rotation_weight`, when given).
fn bent_goals(c: &Creature, rng: &mut Rng, rotation_weight: Option<f32>) -> Goals {
    let ends = limb_ends(c);
    let mut goals = Goals::new(c.len());
    for _ in 0..3.min(ends.len()) {
        let end = ends[rng.index(ends.len())];
        let (centre, turn) = bent_goal(c, end, rng);
        goals.set_position(end, centre, 1.0);
        if let Some(w) = rotation_weight {
            goals.set_rotation(end, turn, w);
        }
    }
    goals
}

#[test]
fn the_same_goals_give_the_same_pose_whatever_came_before() {
    let mut rng = Rng::seeded(17);
    for c in common::creatures() {
        let fixed = bent_goals(c, &mut rng, None);
        let fresh = solve(c, &fixed);
        let mut solver = IkSolver::new(c);
        let mut out = Vec::new();
        for _ in 0..40 {
            let mut g = Goals::new(c.len());
            for _ in 0..4 {
                let b = rng.index(c.len());
                let at = c.body(b).position + rng.direction() * rng.range(0.0, 1.0) * c.size();
                g.set_position(b, at, rng.range(0.1, 1.0));
                g.set_rotation(b, rng.turn(3.0), rng.range(0.1, 1.0));
            }
            solver.solve(c, &g, &mut out);
        }
        solver.solve(c, &fixed, &mut out);
        for (b, (x, y)) in out.iter().zip(&fresh).enumerate() {
            assert!(
                x.position.distance(y.position) <= 1e-5
                    && x.rotation.dot(y.rotation).abs() >= 1.0 - 1e-6,
                "{} {}",
                c.name(),
                c.body(b).name
            );
        }
    }
}

/// Solvers on one thread share their working memory: whatever creatures were solved on it
/// before, bigger or smaller, with whatever goals, a solve gives exactly the pose it gives on
/// a thread that has solved nothing else.
#[test]
fn the_same_goals_give_the_same_pose_whatever_was_solved_before_on_the_thread() {
    let creatures = common::creatures();
    for (i, c) in creatures.iter().enumerate() {
        let mut rng = Rng::seeded(29 + i as u64);
        let fixed = bent_goals(c, &mut rng, Some(0.7));
        let alone = std::thread::scope(|s| s.spawn(|| solve(c, &fixed)).join().unwrap());
        let after_others = std::thread::scope(|s| {
            s.spawn(|| {
                for other in creatures.iter().filter(|o| o.name() != c.name()) {
                    let mut g = Goals::new(other.len());
                    for _ in 0..4 {
                        let b = rng.index(other.len());
                        let at = other.body(b).position + rng.direction() * other.size();
                        g.set_position(b, at, rng.range(0.1, 1.0));
                        g.set_rotation(b, rng.turn(3.0), rng.range(0.1, 1.0));
                    }
                    solve(other, &g);
                }
                solve(c, &fixed)
            })
            .join()
            .unwrap()
        });
        for (b, (x, y)) in after_others.iter().zip(&alone).enumerate() {
            assert!(
                x == y,
                "{} {}: {x:?} after other creatures, {y:?} alone",
                c.name(),
                c.body(b).name
            );
        }
    }
}
