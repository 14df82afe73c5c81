//! Vertebrates on four or two legs with a horizontal spine: a dog, a two-headed dog, a
//! centaur, a bird, a raptor, and a meerkat-sized critter.

use super::kit::{Kit, other, v};
use anymorph::runtime::creature::{Cap, CreatureBuilder, Shape};
use glam::{Quat, Vec3};

/// A point given in a head's frame (`rotation`, centred at `centre`) in character space.
fn on(centre: Vec3, rotation: Quat, local: Vec3) -> Vec3 {
    centre + rotation * local
}

/// Pelvis to chest of a 0.6 m dog: five spine capsules running front (+Z), the four legs
/// (three segments and a paw each) and a five-segment tail hanging down behind.
fn dog_body(k: &mut Kit) {
    let spine = [Cap::Spine];
    let points = [
        v(0.0, 0.50, -0.42),
        v(0.0, 0.505, -0.27),
        v(0.0, 0.515, -0.12),
        v(0.0, 0.515, 0.03),
        v(0.0, 0.51, 0.18),
        v(0.0, 0.50, 0.32),
    ];
    k.top_bone("pelvis", &spine, points[0], points[1], 0.09);
    k.chain(
        "pelvis",
        &spine,
        &[
            ("lumbar", 0.09),
            ("back", 0.1),
            ("thorax", 0.11),
            ("chest", 0.11),
        ],
        &points[1..],
    );

    let limb = [Cap::Limb];
    let paw = v(0.03, 0.0225, 0.045);
    let front_paw = v(0.1, 0.045, 0.28);
    k.chain(
        "chest",
        &limb,
        &[
            ("upper_arm_l", 0.04),
            ("forearm_l", 0.03),
            ("front_pastern_l", 0.022),
        ],
        &[
            v(0.09, 0.45, 0.27),
            v(0.1, 0.30, 0.22),
            v(0.1, 0.10, 0.25),
            front_paw,
        ],
    );
    k.foot("front_paw_l", "front_pastern_l", front_paw, paw, 0.02, 0.0);
    let hind_paw = v(0.1, 0.045, -0.38);
    k.chain(
        "pelvis",
        &limb,
        &[
            ("thigh_l", 0.045),
            ("shin_l", 0.035),
            ("hind_pastern_l", 0.025),
        ],
        &[
            v(0.08, 0.45, -0.36),
            v(0.1, 0.30, -0.26),
            v(0.1, 0.15, -0.42),
            hind_paw,
        ],
    );
    k.foot("hind_paw_l", "hind_pastern_l", hind_paw, paw, 0.025, 0.0);

    let mut tail = vec![v(0.0, 0.52, -0.44)];
    let mut radii = Vec::new();
    for (i, droop) in [20.0_f32, 30.0, 40.0, 45.0, 45.0].iter().enumerate() {
        let a = droop.to_radians();
        let last = tail[i];
        tail.push(last + 0.075 * v(0.0, -a.sin(), -a.cos()));
        radii.push(0.03 - 0.004 * i as f32);
    }
    let names = ["tail_1", "tail_2", "tail_3", "tail_4", "tail_5"];
    let segments: Vec<(&str, f32)> = names.iter().copied().zip(radii).collect();
    k.chain("pelvis", &[Cap::Tail], &segments, &tail);
}

/// A dog's neck and head on `parent`, starting at `base` and leaning by `yaw` (outward for the
/// second dog's two heads); `suffix` names the parts ("" or "_l").
fn dog_head(k: &mut Kit, parent: &str, suffix: &str, base: Vec3, yaw: f32, ears: bool) {
    let turn = Quat::from_rotation_y(yaw);
    let neck_1 = base + turn * v(0.0, 0.09, 0.10);
    let neck_2 = neck_1 + turn * v(0.0, 0.08, 0.08);
    let (n1, n2) = (format!("neck_1{suffix}"), format!("neck_2{suffix}"));
    k.chain(
        parent,
        &[Cap::Spine],
        &[(&n1, 0.06), (&n2, 0.055)],
        &[base, neck_1, neck_2],
    );

    let head = format!("head{suffix}");
    let centre = on(neck_2, turn, v(0.0, 0.03, 0.08));
    k.block(
        &head,
        Some(&n2),
        &[Cap::Spine, Cap::Head],
        neck_2,
        centre,
        turn,
        v(0.07, 0.065, 0.1),
        Shape::Box,
    );
    k.block(
        &format!("mouth{suffix}"),
        Some(&head),
        &[Cap::Mouth],
        on(centre, turn, v(0.0, -0.03, 0.1)),
        on(centre, turn, v(0.0, -0.03, 0.14)),
        turn,
        v(0.04, 0.035, 0.05),
        Shape::Box,
    );
    if suffix.is_empty() {
        let eye = on(centre, turn, v(0.04, 0.03, 0.09));
        k.sphere("eye_l", &head, &[Cap::Eye], eye, eye, 0.015);
    } else {
        for side in ["outer", "inner"] {
            let x = if side == "outer" { 0.04 } else { -0.04 };
            let eye = on(centre, turn, v(x, 0.03, 0.09));
            k.sphere(
                &format!("eye_{side}{suffix}"),
                &head,
                &[Cap::Eye],
                eye,
                eye,
                0.015,
            );
        }
    }
    if ears {
        k.block(
            "ear_l",
            Some(&head),
            &[Cap::Ear],
            on(centre, turn, v(0.05, 0.065, -0.04)),
            on(centre, turn, v(0.05, 0.105, -0.04)),
            turn,
            v(0.02, 0.04, 0.01),
            Shape::Box,
        );
    }
}

/// A dog/wolf, 0.6 m at the shoulder.
pub fn quadruped() -> CreatureBuilder {
    let mut k = Kit::new("quadruped");
    dog_body(&mut k);
    dog_head(&mut k, "chest", "", v(0.0, 0.54, 0.36), 0.0, true);
    k.mirrored()
}

/// The dog with two necks on its chest, the heads turned 25° outward.
pub fn twoheaded() -> CreatureBuilder {
    let mut k = Kit::new("twoheaded");
    dog_body(&mut k);
    dog_head(
        &mut k,
        "chest",
        "_l",
        v(0.06, 0.54, 0.36),
        25f32.to_radians(),
        false,
    );
    k.mirrored()
}

/// A horse body (4 legs with hooves, a tail) with a human torso rising from its front: the
/// spine runs pelvis → barrel → withers → waist → chest → neck → head.
pub fn centaur() -> CreatureBuilder {
    let mut k = Kit::new("centaur");
    let spine = [Cap::Spine];
    let id = Quat::IDENTITY;
    let horse = [
        v(0.0, 1.15, -0.65),
        v(0.0, 1.16, -0.38),
        v(0.0, 1.16, -0.10),
        v(0.0, 1.16, 0.18),
        v(0.0, 1.15, 0.45),
    ];
    k.top_bone("pelvis", &spine, horse[0], horse[1], 0.23);
    k.chain(
        "pelvis",
        &spine,
        &[("barrel_1", 0.25), ("barrel_2", 0.26), ("withers", 0.24)],
        &horse[1..],
    );
    k.block(
        "waist",
        Some("withers"),
        &spine,
        v(0.0, 1.34, 0.55),
        v(0.0, 1.46, 0.56),
        id,
        v(0.14, 0.11, 0.1),
        Shape::Box,
    );
    k.block(
        "chest",
        Some("waist"),
        &spine,
        v(0.0, 1.57, 0.56),
        v(0.0, 1.68, 0.57),
        id,
        v(0.17, 0.11, 0.11),
        Shape::Box,
    );
    k.bone(
        "neck",
        "chest",
        &spine,
        v(0.0, 1.79, 0.57),
        v(0.0, 1.87, 0.58),
        0.05,
    );
    k.block(
        "head",
        Some("neck"),
        &[Cap::Spine, Cap::Head],
        v(0.0, 1.87, 0.58),
        v(0.0, 1.955, 0.59),
        id,
        v(0.075, 0.085, 0.09),
        Shape::Capsule,
    );
    k.block(
        "mouth",
        Some("head"),
        &[Cap::Mouth],
        v(0.0, 1.915, 0.665),
        v(0.0, 1.915, 0.67),
        id,
        v(0.03, 0.012, 0.015),
        Shape::Box,
    );
    k.sphere(
        "eye_l",
        "head",
        &[Cap::Eye],
        v(0.03, 1.98, 0.658),
        v(0.03, 1.98, 0.658),
        0.014,
    );

    k.chain(
        "chest",
        &[Cap::Limb],
        &[("upper_arm_l", 0.045), ("forearm_l", 0.035)],
        &[
            v(0.18, 1.75, 0.57),
            v(0.29, 1.49, 0.55),
            v(0.35, 1.26, 0.61),
        ],
    );
    k.bone(
        "hand_l",
        "forearm_l",
        &[Cap::Grasper],
        v(0.35, 1.26, 0.61),
        v(0.375, 1.11, 0.65),
        0.035,
    );

    let limb = [Cap::Limb];
    let hoof = v(0.05, 0.05, 0.06);
    let front = v(0.17, 0.10, 0.35);
    k.chain(
        "withers",
        &limb,
        &[
            ("front_upper_l", 0.07),
            ("front_forearm_l", 0.055),
            ("front_cannon_l", 0.04),
        ],
        &[
            v(0.16, 0.98, 0.36),
            v(0.17, 0.72, 0.30),
            v(0.17, 0.42, 0.32),
            front,
        ],
    );
    k.foot("front_hoof_l", "front_cannon_l", front, hoof, 0.02, 0.0);
    let hind = v(0.18, 0.10, -0.57);
    k.chain(
        "pelvis",
        &limb,
        &[
            ("thigh_l", 0.08),
            ("gaskin_l", 0.055),
            ("hind_cannon_l", 0.04),
        ],
        &[
            v(0.16, 0.98, -0.52),
            v(0.18, 0.70, -0.40),
            v(0.18, 0.48, -0.62),
            hind,
        ],
    );
    k.foot("hind_hoof_l", "hind_cannon_l", hind, hoof, 0.02, 0.0);
    k.chain(
        "pelvis",
        &[Cap::Tail],
        &[
            ("tail_1", 0.045),
            ("tail_2", 0.04),
            ("tail_3", 0.035),
            ("tail_4", 0.03),
        ],
        &[
            v(0.0, 1.25, -0.84),
            v(0.0, 1.21, -0.95),
            v(0.0, 1.12, -1.03),
            v(0.0, 1.00, -1.08),
            v(0.0, 0.88, -1.11),
        ],
    );
    k.mirrored()
}

/// A 0.75 m bird: a nearly level body, a three-segment neck reaching forward and up,
/// half-spread wings, legs with toes (toes are not feet) and a tail fan. Its spine runs more
/// along than up, so it is not upright.
pub fn bird() -> CreatureBuilder {
    let mut k = Kit::new("bird");
    let spine = [Cap::Spine];
    let id = Quat::IDENTITY;
    k.top_bone(
        "pelvis",
        &spine,
        v(0.0, 0.42, -0.16),
        v(0.0, 0.44, -0.02),
        0.09,
    );
    k.chain(
        "pelvis",
        &spine,
        &[("chest", 0.1)],
        &[v(0.0, 0.44, -0.02), v(0.0, 0.47, 0.12)],
    );
    k.chain(
        "chest",
        &spine,
        &[("neck_1", 0.035), ("neck_2", 0.03), ("neck_3", 0.028)],
        &[
            v(0.0, 0.51, 0.18),
            v(0.0, 0.58, 0.25),
            v(0.0, 0.65, 0.29),
            v(0.0, 0.70, 0.34),
        ],
    );
    k.block(
        "head",
        Some("neck_3"),
        &[Cap::Spine, Cap::Head],
        v(0.0, 0.70, 0.34),
        v(0.0, 0.73, 0.38),
        id,
        v(0.03, 0.03, 0.045),
        Shape::Box,
    );
    k.block(
        "beak",
        Some("head"),
        &[Cap::Mouth],
        v(0.0, 0.725, 0.425),
        v(0.0, 0.725, 0.455),
        id,
        v(0.012, 0.01, 0.03),
        Shape::Box,
    );
    k.sphere(
        "eye_l",
        "head",
        &[Cap::Eye],
        v(0.03, 0.74, 0.39),
        v(0.03, 0.74, 0.39),
        0.008,
    );

    let ankle = v(0.07, 0.03, -0.03);
    k.chain(
        "pelvis",
        &[Cap::Limb],
        &[
            ("thigh_l", 0.03),
            ("drumstick_l", 0.022),
            ("tarsus_l", 0.012),
        ],
        &[
            v(0.06, 0.37, -0.06),
            v(0.07, 0.30, 0.02),
            v(0.07, 0.14, -0.06),
            ankle,
        ],
    );
    k.foot(
        "foot_l",
        "tarsus_l",
        ankle,
        v(0.02, 0.01, 0.025),
        0.015,
        0.0,
    );
    let toe = [other("toe")];
    for (name, yaw, reach) in [
        ("toe_inner_l", -0.45_f32, 0.045),
        ("toe_middle_l", 0.0, 0.05),
        ("toe_outer_l", 0.45, 0.045),
        ("toe_back_l", std::f32::consts::PI, 0.03),
    ] {
        let turn = Quat::from_rotation_y(yaw);
        let base = v(0.07, 0.007, 0.0);
        k.block(
            name,
            Some("foot_l"),
            &toe,
            base + turn * v(0.0, 0.0, 0.015),
            base + turn * v(0.0, 0.0, 0.015 + reach * 0.5),
            turn,
            v(0.006, 0.007, reach * 0.5),
            Shape::Box,
        );
    }

    k.chain(
        "chest",
        &[Cap::Wing],
        &[
            ("humerus_l", 0.025),
            ("wing_forearm_l", 0.02),
            ("wing_hand_l", 0.015),
        ],
        &[
            v(0.08, 0.52, 0.08),
            v(0.22, 0.50, 0.0),
            v(0.38, 0.47, -0.06),
            v(0.55, 0.42, -0.14),
        ],
    );
    k.chain(
        "pelvis",
        &[Cap::Tail],
        &[("tail_1", 0.03), ("tail_2", 0.025)],
        &[
            v(0.0, 0.41, -0.23),
            v(0.0, 0.40, -0.31),
            v(0.0, 0.385, -0.39),
        ],
    );
    k.block(
        "tail_fan",
        Some("tail_2"),
        &[Cap::Tail],
        v(0.0, 0.385, -0.39),
        v(0.0, 0.375, -0.46),
        id,
        v(0.07, 0.01, 0.07),
        Shape::Box,
    );
    k.mirrored()
}

/// A prone biped dinosaur: horizontal spine, long tail, tiny arms and a sickle claw (a
/// weapon) on each foot.
pub fn raptor() -> CreatureBuilder {
    let mut k = Kit::new("raptor");
    let spine = [Cap::Spine];
    let id = Quat::IDENTITY;
    k.top_bone(
        "pelvis",
        &spine,
        v(0.0, 0.95, -0.15),
        v(0.0, 0.97, 0.05),
        0.15,
    );
    k.chain(
        "pelvis",
        &spine,
        &[
            ("back", 0.14),
            ("chest", 0.13),
            ("neck_1", 0.07),
            ("neck_2", 0.06),
        ],
        &[
            v(0.0, 0.97, 0.05),
            v(0.0, 0.98, 0.25),
            v(0.0, 1.0, 0.45),
            v(0.0, 1.14, 0.64),
            v(0.0, 1.26, 0.75),
        ],
    );
    k.block(
        "head",
        Some("neck_2"),
        &[Cap::Spine, Cap::Head],
        v(0.0, 1.26, 0.75),
        v(0.0, 1.30, 0.86),
        id,
        v(0.06, 0.07, 0.14),
        Shape::Box,
    );
    k.block(
        "jaw",
        Some("head"),
        &[Cap::Mouth],
        v(0.0, 1.245, 0.82),
        v(0.0, 1.235, 0.93),
        id,
        v(0.045, 0.025, 0.11),
        Shape::Box,
    );
    k.sphere(
        "eye_l",
        "head",
        &[Cap::Eye],
        v(0.055, 1.34, 0.92),
        v(0.055, 1.34, 0.92),
        0.015,
    );

    let mut tail = vec![v(0.0, 0.95, -0.28)];
    for y in [0.93, 0.91, 0.90, 0.90, 0.91, 0.92] {
        let last = tail[tail.len() - 1];
        tail.push(v(0.0, y, last.z - 0.22));
    }
    k.chain(
        "pelvis",
        &[Cap::Tail],
        &[
            ("tail_1", 0.1),
            ("tail_2", 0.085),
            ("tail_3", 0.07),
            ("tail_4", 0.055),
            ("tail_5", 0.045),
            ("tail_6", 0.035),
        ],
        &tail,
    );

    let ankle = v(0.14, 0.05, -0.02);
    k.chain(
        "pelvis",
        &[Cap::Limb],
        &[("thigh_l", 0.08), ("shin_l", 0.05), ("metatarsus_l", 0.035)],
        &[
            v(0.11, 0.87, -0.05),
            v(0.14, 0.55, 0.12),
            v(0.14, 0.28, -0.10),
            ankle,
        ],
    );
    k.foot(
        "foot_l",
        "metatarsus_l",
        ankle,
        v(0.05, 0.025, 0.09),
        0.08,
        0.0,
    );
    k.block(
        "claw_l",
        Some("foot_l"),
        &[Cap::Weapon],
        v(0.10, 0.05, 0.04),
        v(0.10, 0.08, 0.05),
        Quat::from_rotation_x(-0.4),
        v(0.008, 0.03, 0.015),
        Shape::Box,
    );
    k.chain(
        "chest",
        &[Cap::Limb],
        &[("upper_arm_l", 0.03), ("forearm_l", 0.025)],
        &[
            v(0.11, 0.93, 0.50),
            v(0.16, 0.82, 0.55),
            v(0.16, 0.78, 0.66),
        ],
    );
    k.bone(
        "hand_l",
        "forearm_l",
        &[Cap::Grasper],
        v(0.16, 0.78, 0.66),
        v(0.16, 0.74, 0.72),
        0.02,
    );
    k.mirrored()
}

/// A meerkat-like critter 0.2 m tall standing on its hind legs, front paws (graspers) held in
/// front, tail resting behind.
pub fn tiny() -> CreatureBuilder {
    let mut k = Kit::new("tiny");
    let spine = [Cap::Spine];
    let id = Quat::IDENTITY;
    k.block(
        "pelvis",
        None,
        &spine,
        v(0.0, 0.075, -0.005),
        v(0.0, 0.075, -0.005),
        id,
        v(0.022, 0.014, 0.018),
        Shape::Box,
    );
    k.block(
        "spine_1",
        Some("pelvis"),
        &spine,
        v(0.0, 0.089, -0.003),
        v(0.0, 0.101, 0.0),
        id,
        v(0.02, 0.012, 0.017),
        Shape::Box,
    );
    k.block(
        "chest",
        Some("spine_1"),
        &spine,
        v(0.0, 0.113, 0.0),
        v(0.0, 0.127, 0.003),
        id,
        v(0.021, 0.014, 0.018),
        Shape::Box,
    );
    k.bone(
        "neck",
        "chest",
        &spine,
        v(0.0, 0.141, 0.005),
        v(0.0, 0.156, 0.008),
        0.007,
    );
    k.block(
        "head",
        Some("neck"),
        &[Cap::Spine, Cap::Head],
        v(0.0, 0.156, 0.008),
        v(0.0, 0.172, 0.015),
        id,
        v(0.016, 0.016, 0.022),
        Shape::Box,
    );
    k.block(
        "mouth",
        Some("head"),
        &[Cap::Mouth],
        v(0.0, 0.166, 0.037),
        v(0.0, 0.166, 0.041),
        id,
        v(0.008, 0.005, 0.005),
        Shape::Box,
    );
    k.sphere(
        "eye_l",
        "head",
        &[Cap::Eye],
        v(0.01, 0.178, 0.034),
        v(0.01, 0.178, 0.034),
        0.004,
    );
    k.block(
        "ear_l",
        Some("head"),
        &[Cap::Ear],
        v(0.013, 0.188, 0.008),
        v(0.014, 0.194, 0.008),
        id,
        v(0.005, 0.006, 0.002),
        Shape::Box,
    );

    k.chain(
        "chest",
        &[Cap::Limb],
        &[("upper_arm_l", 0.005), ("forearm_l", 0.0045)],
        &[
            v(0.018, 0.132, 0.006),
            v(0.027, 0.114, 0.012),
            v(0.025, 0.100, 0.027),
        ],
    );
    k.bone(
        "paw_l",
        "forearm_l",
        &[Cap::Grasper],
        v(0.025, 0.100, 0.027),
        v(0.023, 0.094, 0.035),
        0.004,
    );

    let ankle = v(0.019, 0.009, 0.0);
    k.chain(
        "pelvis",
        &[Cap::Limb],
        &[("thigh_l", 0.007), ("shin_l", 0.0055)],
        &[v(0.016, 0.066, -0.004), v(0.019, 0.040, 0.009), ankle],
    );
    k.foot(
        "foot_l",
        "shin_l",
        ankle,
        v(0.008, 0.004, 0.016),
        0.008,
        0.0,
    );
    k.chain(
        "pelvis",
        &[Cap::Tail],
        &[
            ("tail_1", 0.005),
            ("tail_2", 0.0045),
            ("tail_3", 0.004),
            ("tail_4", 0.0035),
        ],
        &[
            v(0.0, 0.068, -0.022),
            v(0.0, 0.050, -0.040),
            v(0.0, 0.033, -0.055),
            v(0.0, 0.019, -0.070),
            v(0.0, 0.010, -0.088),
        ],
    );
    k.mirrored()
}
