//! Creatures whose spine is most of the animal, or who have no legs at all: a snake, a wavy
//! sea-dragon and a floating jellyfish-ghost.

use super::kit::{Kit, knee, v};
use anymorph::runtime::creature::{Cap, CreatureBuilder, Shape};
use glam::{Quat, Vec3};
use std::f32::consts::TAU;

/// A 2.2 m snake lying on the ground in a gentle S: a head and 24 spine capsules, each
/// resting on y = 0 (the centre line is at its own radius).
pub fn snake() -> CreatureBuilder {
    let mut k = Kit::new("snake");
    let id = Quat::IDENTITY;
    let head = v(0.0, 0.03, 1.1);
    k.block(
        "head",
        None,
        &[Cap::Spine, Cap::Head],
        head,
        head,
        id,
        v(0.045, 0.03, 0.07),
        Shape::Box,
    );
    k.block(
        "mouth",
        Some("head"),
        &[Cap::Mouth],
        v(0.0, 0.02, 1.17),
        v(0.0, 0.02, 1.185),
        id,
        v(0.03, 0.01, 0.015),
        Shape::Box,
    );
    k.sphere(
        "eye_l",
        "head",
        &[Cap::Eye],
        v(0.035, 0.05, 1.14),
        v(0.035, 0.05, 1.14),
        0.01,
    );

    const SEGMENTS: usize = 24;
    const LENGTH: f32 = 0.085;
    let mut at = v(0.0, 0.0, 1.03);
    let mut parent = "head".to_string();
    for i in 1..=SEGMENTS {
        // Heading of the body at this arc length: 0 at the head, so it looks straight ahead,
        // swinging wider toward the tail so the body crosses x = 0 (an S, not a C).
        let s = (i as f32 - 0.5) * LENGTH;
        let swing = 0.4 * (0.5 + s / (SEGMENTS as f32 * LENGTH));
        let heading = swing * (TAU * s / 1.3).sin();
        let next = at - LENGTH * v(heading.sin(), 0.0, heading.cos());
        let taper = ((i as f32 - 14.0) / 10.0).clamp(0.0, 1.0);
        let r = 0.04 - 0.025 * taper;
        let name = format!("seg_{i:02}");
        k.bone(
            &name,
            &parent,
            &[Cap::Spine],
            v(at.x, r, at.z),
            v(next.x, r, next.z),
            r,
        );
        parent = name;
        at = next;
    }
    k.mirrored()
}

/// A 3 m sea-dragon (tail fin to snout): fourteen spine capsules and a head whose centre line
/// waves up and down along the whole body and sideways (one S) between the hind and front
/// hips, four short legs, dorsal fins and a finned tail.
pub fn wavy_spine() -> CreatureBuilder {
    let mut k = Kit::new("wavy_spine");
    let (rear_hip, front_hip) = (3, 11);
    let z = |i: usize| -1.0 + 0.15 * i as f32;
    let (za, zb) = (z(rear_hip), z(front_hip));
    let centre = |z: f32| {
        let t = (z - za) / (zb - za);
        // sin(2πt)·sin(πt): one S with flat ends, so the hips sit straight on x = 0.
        let x = if (0.0..=1.0).contains(&t) {
            0.2 * (TAU * t).sin() * (0.5 * TAU * t).sin()
        } else {
            0.0
        };
        v(x, 0.5 + 0.07 * (TAU * (z + 1.0) / 0.8).sin(), z)
    };
    let points: Vec<Vec3> = (0..=14).map(|i| centre(z(i))).collect();
    let radius = |i: usize| match i {
        0 => 0.08,
        12 => 0.07,
        13 => 0.06,
        _ => 0.09,
    };
    let names: Vec<String> = (0..14).map(|i| format!("spine_{i:02}")).collect();
    k.top_bone(&names[0], &[Cap::Spine], points[0], points[1], radius(0));
    for i in 1..14 {
        k.bone(
            &names[i],
            &names[i - 1],
            &[Cap::Spine],
            points[i],
            points[i + 1],
            radius(i),
        );
    }
    let id = Quat::IDENTITY;
    let neck_end = points[14];
    let head = neck_end + v(0.0, 0.01, 0.12);
    k.block(
        "head",
        Some("spine_13"),
        &[Cap::Spine, Cap::Head],
        neck_end,
        head,
        id,
        v(0.08, 0.07, 0.13),
        Shape::Box,
    );
    k.block(
        "mouth",
        Some("head"),
        &[Cap::Mouth],
        head + v(0.0, -0.03, 0.13),
        head + v(0.0, -0.03, 0.16),
        id,
        v(0.05, 0.02, 0.03),
        Shape::Box,
    );
    k.sphere(
        "eye_l",
        "head",
        &[Cap::Eye],
        head + v(0.07, 0.04, 0.07),
        head + v(0.07, 0.04, 0.07),
        0.02,
    );

    for (n, i) in [5, 7, 9].into_iter().enumerate() {
        let (a, b) = (points[i], points[i + 1]);
        let mid = (a + b) * 0.5 + v(0.0, radius(i), 0.0);
        let turn = Quat::from_rotation_y((b - a).x.atan2((b - a).z));
        let name = format!("dorsal_fin_{}", n + 1);
        k.block(
            &name,
            Some(&names[i]),
            &[Cap::Fin],
            mid,
            mid + v(0.0, 0.05, 0.0),
            turn,
            v(0.008, 0.05, 0.06),
            Shape::Box,
        );
    }
    let tail: Vec<Vec3> = (0..=4).map(|j| centre(-1.0 - 0.15 * j as f32)).collect();
    k.chain(
        "spine_00",
        &[Cap::Tail],
        &[
            ("tail_1", 0.07),
            ("tail_2", 0.055),
            ("tail_3", 0.04),
            ("tail_4", 0.03),
        ],
        &tail,
    );
    let end = tail[4];
    k.block(
        "tail_fin",
        Some("tail_4"),
        &[Cap::Tail, Cap::Fin],
        end,
        end + v(0.0, 0.0, -0.06),
        id,
        v(0.006, 0.07, 0.06),
        Shape::Box,
    );

    for (which, i, reach, bend) in [
        ("hind", rear_hip, 0.04, v(0.3, 0.0, 1.0)),
        ("front", front_hip, -0.02, v(0.3, 0.0, -1.0)),
    ] {
        let hip = points[i] + v(0.07, -0.05, 0.0);
        let ankle = v(0.2, 0.07, points[i].z + reach);
        let span = hip.distance(ankle) * 1.12;
        let bent = knee(hip, ankle, span * 0.52, span * 0.48, bend);
        let (thigh, shin) = (format!("{which}_thigh_l"), format!("{which}_shin_l"));
        k.chain(
            &names[i],
            &[Cap::Limb],
            &[(&thigh, 0.045), (&shin, 0.035)],
            &[hip, bent, ankle],
        );
        k.foot(
            &format!("{which}_foot_l"),
            &shin,
            ankle,
            v(0.04, 0.035, 0.07),
            0.04,
            0.0,
        );
    }
    k.mirrored()
}

/// A jellyfish-ghost hovering about 0.6 m above the ground: a bell (spine and head) with a crown,
/// eyes, a mouth, two arms with graspers in front and four tentacles, no feet.
pub fn floater() -> CreatureBuilder {
    let mut k = Kit::new("floater");
    let id = Quat::IDENTITY;
    let bell = v(0.0, 1.6, 0.0);
    k.block(
        "bell",
        None,
        &[Cap::Spine, Cap::Head],
        bell,
        bell,
        id,
        Vec3::splat(0.28),
        Shape::Sphere,
    );
    k.sphere(
        "crown",
        "bell",
        &[Cap::Spine],
        v(0.0, 1.88, 0.0),
        v(0.0, 1.95, 0.0),
        0.1,
    );
    k.block(
        "mouth",
        Some("bell"),
        &[Cap::Mouth],
        v(0.0, 1.44, 0.22),
        v(0.0, 1.43, 0.245),
        id,
        v(0.06, 0.02, 0.03),
        Shape::Box,
    );
    k.sphere(
        "eye_l",
        "bell",
        &[Cap::Eye],
        v(0.1, 1.68, 0.25),
        v(0.1, 1.68, 0.25),
        0.04,
    );

    let around = |deg: f32, reach: f32, y: f32, forward: f32| {
        let a = deg.to_radians();
        v(a.sin() * reach, y, a.cos() * reach + forward)
    };
    let arm = [
        around(30.0, 0.22, 1.43, 0.0),
        around(30.0, 0.32, 1.20, 0.0),
        around(30.0, 0.38, 0.98, 0.05),
        around(30.0, 0.40, 0.80, 0.10),
        around(30.0, 0.40, 0.66, 0.12),
    ];
    k.chain(
        "bell",
        &[Cap::Limb],
        &[("arm_1_l", 0.035), ("arm_2_l", 0.03), ("arm_3_l", 0.025)],
        &arm[..4],
    );
    k.bone("hand_l", "arm_3_l", &[Cap::Grasper], arm[3], arm[4], 0.025);
    for (which, deg) in [("side", 90.0), ("back", 150.0)] {
        let points = [
            around(deg, 0.22, 1.43, 0.0),
            around(deg, 0.30, 1.18, 0.0),
            around(deg, 0.34, 0.95, 0.0),
            around(deg, 0.33, 0.75, 0.0),
            around(deg, 0.30, 0.60, 0.0),
        ];
        let names: Vec<String> = (1..=4).map(|j| format!("tentacle_{which}_{j}_l")).collect();
        let radii = [0.035, 0.03, 0.025, 0.02];
        let segments: Vec<(&str, f32)> = names.iter().map(String::as_str).zip(radii).collect();
        k.chain("bell", &[Cap::Limb], &segments, &points);
    }
    k.mirrored()
}
