//! No NaN or infinity out of the particle IK for 100,000 random goal sets over the sample
//! creatures and two degenerate ones (zero-length bodies; every body on one point),
//! including goals on joints, at ±1e6 m, at the origin and on top of each other.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Rng;

use anymorph::runtime::creature::{BodyDef, Cap, Creature, Extras, Shape};
use anymorph::runtime::eval::Goals;
use anymorph::runtime::ik::IkSolver;
use glam::{Quat, Vec3};

fn def(name: &str, parent: Option<&str>, caps: &[Cap], joint: Vec3, position: Vec3) -> BodyDef {
    BodyDef {
        name: name.into(),
        parent: parent.map(Into::into),
        caps: caps.to_vec(),
        joint,
        position,
        rotation: Quat::IDENTITY,
        half_extents: Vec3::ZERO,
        shape: Shape::Box,
        extra: Extras::new(),
    }
}

/// A spine with a head and two limbs in which several bodies have no length: joints on
/// top of each other and centres on their joints.
fn zero_length_creature() -> Creature {
    let y = Vec3::Y;
    let defs = vec![
        def("pelvis", None, &[Cap::Root, Cap::Spine], y, y),
        def("spine_1", Some("pelvis"), &[Cap::Spine], y, y),
        def("spine_2", Some("spine_1"), &[Cap::Spine], y, y * 1.2),
        def(
            "head",
            Some("spine_2"),
            &[Cap::Spine, Cap::Head],
            y * 1.4,
            y * 1.4,
        ),
        def("mouth", Some("head"), &[Cap::Mouth], y * 1.4, y * 1.4),
        def("arm", Some("spine_2"), &[Cap::Limb], y * 1.3, y * 1.3),
        def(
            "forearm",
            Some("arm"),
            &[Cap::Limb],
            y * 1.3,
            Vec3::new(0.2, 1.3, 0.0),
        ),
        def(
            "hand",
            Some("forearm"),
            &[Cap::Grasper],
            Vec3::new(0.4, 1.3, 0.0),
            Vec3::new(0.4, 1.3, 0.0),
        ),
        def(
            "finger_a",
            Some("hand"),
            &[Cap::Limb],
            Vec3::new(0.4, 1.3, 0.0),
            Vec3::new(0.45, 1.3, 0.0),
        ),
        def(
            "finger_b",
            Some("hand"),
            &[Cap::Limb],
            Vec3::new(0.4, 1.3, 0.0),
            Vec3::new(0.45, 1.3, 0.0),
        ),
        def("thigh", Some("pelvis"), &[Cap::Limb], y, y * 0.5),
        def("shin", Some("thigh"), &[Cap::Limb], Vec3::ZERO, Vec3::ZERO),
        def("foot", Some("shin"), &[Cap::Foot], Vec3::ZERO, Vec3::ZERO),
        def("tail", Some("pelvis"), &[Cap::Tail], y, y),
        def("tail_tip", Some("tail"), &[Cap::Tail], y, y),
    ];
    Creature::new("zero_length", defs).unwrap()
}

/// Every body, joint and centre on one point.
fn point_creature() -> Creature {
    let p = Vec3::new(0.0, 0.5, 0.0);
    let defs = vec![
        def("root", None, &[Cap::Root, Cap::Spine], p, p),
        def("spine", Some("root"), &[Cap::Spine], p, p),
        def("neck", Some("spine"), &[Cap::Spine], p, p),
        def("eye", Some("neck"), &[Cap::Eye], p, p),
        def("arm", Some("spine"), &[Cap::Limb], p, p),
        def("hand", Some("arm"), &[Cap::Grasper], p, p),
        def("leg", Some("root"), &[Cap::Limb], p, p),
        def("foot", Some("leg"), &[Cap::Foot], p, p),
    ];
    Creature::new("point", defs).unwrap()
}

/// A random goal position of one of the kinds that have broken solvers before.
fn goal_position(c: &Creature, b: usize, others: &[Vec3], rng: &mut Rng) -> Vec3 {
    match rng.index(8) {
        0 => c.pivot(b),
        1 => c.body(b).position,
        2 if !others.is_empty() => others[rng.index(others.len())],
        3 => rng.vec(1e6),
        4 => Vec3::splat(if rng.unit() < 0.5 { 1e6 } else { -1e6 }),
        5 => Vec3::ZERO,
        6 => c.pivot(c.root()),
        _ => c.body(b).position + rng.vec(2.0 * c.size()),
    }
}

#[test]
fn a_hundred_thousand_random_goal_sets_give_finite_poses() {
    const TOTAL: usize = 100_000;
    let mut creatures: Vec<Creature> = common::creatures().to_vec();
    creatures.push(zero_length_creature());
    creatures.push(point_creature());
    let per_creature = TOTAL.div_ceil(creatures.len());
    let mut rng = Rng::seeded(23);
    let mut solved = 0;
    for c in &creatures {
        let mut solver = IkSolver::new(c);
        solver.set_record_debug(true);
        let mut out = Vec::new();
        let mut goals = Goals::new(c.len());
        for i in 0..per_creature {
            goals.clear();
            let mut placed = Vec::new();
            for _ in 0..1 + rng.index(6) {
                let b = rng.index(c.len());
                let weight = if rng.unit() < 0.5 {
                    1.0
                } else {
                    rng.range(1e-6, 1.0)
                };
                if rng.unit() < 0.8 {
                    let p = goal_position(c, b, &placed, &mut rng);
                    placed.push(p);
                    goals.set_position(b, p, weight);
                }
                if rng.unit() < 0.5 {
                    goals.set_rotation(b, rng.rotation(), weight);
                }
            }
            solver.solve(c, &goals, &mut out);
            solved += 1;
            for (b, pose) in out.iter().enumerate() {
                assert!(
                    pose.is_finite(),
                    "{} {} in goal set {i}: {pose:?} from {goals:?}",
                    c.name(),
                    c.body(b).name
                );
            }
            let d = solver.debug();
            assert!(
                d.particles.iter().all(|p| p.position.is_finite()),
                "{} debug",
                c.name()
            );
            assert!(d.buckling_weight.is_finite() && (0.0..=1.0).contains(&d.buckling_weight));
        }
    }
    assert!(solved >= TOTAL);
}
