//! Many-legged and odd-legged creatures: a mantis-like hexapod, a radial octopod, a scorpion
//! and an asymmetric tripod.

use super::kit::{Kit, knee, other, v, yaw_toward};
use anymorph::runtime::creature::{Cap, CreatureBuilder, Shape};
use glam::{Quat, Vec3};

/// An insect leg: coxa, femur and tibia through `points`, then a tarsus (the foot) on the
/// ground pointing the way the tibia leans.
fn insect_leg(
    k: &mut Kit,
    parent: &str,
    names: [&str; 4],
    radii: [f32; 3],
    points: [Vec3; 4],
    foot_half: Vec3,
) {
    let segments: Vec<(&str, f32)> = names[..3].iter().copied().zip(radii).collect();
    k.chain(parent, &[Cap::Limb], &segments, &points);
    let yaw = yaw_toward(points[3] - points[2]);
    k.foot(
        names[3],
        names[2],
        points[3],
        foot_half,
        foot_half.z * 0.6,
        yaw,
    );
}

/// A mantis-like insect, 0.8 m tall at the antennae: three thorax segments with a pair of
/// walking legs each, a raised prothorax with two raptorial graspers, a head with antennae.
pub fn hexapod() -> CreatureBuilder {
    let mut k = Kit::new("hexapod");
    let spine = [Cap::Spine];
    let points = [
        v(0.0, 0.40, -0.80),
        v(0.0, 0.38, -0.64),
        v(0.0, 0.37, -0.48),
        v(0.0, 0.36, -0.32),
        v(0.0, 0.36, -0.18),
        v(0.0, 0.37, -0.04),
        v(0.0, 0.38, 0.08),
        v(0.0, 0.52, 0.30),
    ];
    k.top_bone("abdomen_3", &spine, points[0], points[1], 0.07);
    k.chain(
        "abdomen_3",
        &spine,
        &[
            ("abdomen_2", 0.085),
            ("abdomen_1", 0.09),
            ("thorax_3", 0.07),
            ("thorax_2", 0.07),
            ("thorax_1", 0.065),
            ("prothorax", 0.045),
        ],
        &points[1..],
    );
    let id = Quat::IDENTITY;
    k.block(
        "head",
        Some("prothorax"),
        &[Cap::Spine, Cap::Head],
        points[7],
        v(0.0, 0.56, 0.36),
        id,
        v(0.06, 0.05, 0.05),
        Shape::Box,
    );
    k.block(
        "mouth",
        Some("head"),
        &[Cap::Mouth],
        v(0.0, 0.53, 0.41),
        v(0.0, 0.52, 0.42),
        id,
        v(0.025, 0.015, 0.015),
        Shape::Box,
    );
    k.sphere(
        "eye_l",
        "head",
        &[Cap::Eye],
        v(0.06, 0.58, 0.38),
        v(0.06, 0.58, 0.38),
        0.022,
    );
    k.chain(
        "head",
        &[other("antenna")],
        &[("antenna_1_l", 0.006), ("antenna_2_l", 0.005)],
        &[
            v(0.02, 0.61, 0.38),
            v(0.06, 0.72, 0.46),
            v(0.12, 0.80, 0.60),
        ],
    );

    let foot = v(0.012, 0.015, 0.04);
    let radii = [0.025, 0.02, 0.015];
    insect_leg(
        &mut k,
        "thorax_3",
        ["hind_coxa_l", "hind_femur_l", "hind_tibia_l", "hind_foot_l"],
        radii,
        [
            v(0.05, 0.33, -0.25),
            v(0.10, 0.31, -0.28),
            v(0.30, 0.45, -0.42),
            v(0.45, 0.035, -0.62),
        ],
        foot,
    );
    insect_leg(
        &mut k,
        "thorax_2",
        ["mid_coxa_l", "mid_femur_l", "mid_tibia_l", "mid_foot_l"],
        radii,
        [
            v(0.05, 0.34, -0.11),
            v(0.10, 0.32, -0.11),
            v(0.32, 0.46, -0.09),
            v(0.50, 0.035, -0.03),
        ],
        foot,
    );
    insect_leg(
        &mut k,
        "thorax_1",
        [
            "front_coxa_l",
            "front_femur_l",
            "front_tibia_l",
            "front_foot_l",
        ],
        radii,
        [
            v(0.05, 0.35, 0.02),
            v(0.10, 0.33, 0.04),
            v(0.28, 0.46, 0.16),
            v(0.42, 0.035, 0.32),
        ],
        foot,
    );
    k.chain(
        "prothorax",
        &[Cap::Limb],
        &[("raptor_coxa_l", 0.025), ("raptor_femur_l", 0.022)],
        &[
            v(0.04, 0.49, 0.28),
            v(0.09, 0.40, 0.36),
            v(0.11, 0.38, 0.52),
        ],
    );
    k.bone(
        "raptor_claw_l",
        "raptor_femur_l",
        &[Cap::Grasper],
        v(0.11, 0.38, 0.52),
        v(0.11, 0.30, 0.60),
        0.015,
    );
    k.mirrored()
}

/// A radial creature: one round body (spine and head) with eight three-segment legs spaced
/// every 45° around it, two eyes on top and a mouth in front.
pub fn octopod() -> CreatureBuilder {
    let mut k = Kit::new("octopod");
    let centre = v(0.0, 0.55, 0.0);
    let id = Quat::IDENTITY;
    // Wider than tall: the sphere drawn inside is 0.22 m, the box is a flattened disc.
    let half = v(0.26, 0.22, 0.26);
    k.block(
        "body",
        None,
        &[Cap::Spine, Cap::Head],
        centre,
        centre,
        id,
        half,
        Shape::Sphere,
    );
    k.block(
        "mouth",
        Some("body"),
        &[Cap::Mouth],
        v(0.0, 0.44, 0.19),
        v(0.0, 0.435, 0.215),
        id,
        v(0.05, 0.02, 0.03),
        Shape::Box,
    );
    k.sphere(
        "eye_l",
        "body",
        &[Cap::Eye],
        v(0.07, 0.755, 0.06),
        v(0.07, 0.755, 0.06),
        0.035,
    );
    for i in 0..4 {
        let azimuth = (22.5 + 45.0 * i as f32).to_radians();
        let out = v(azimuth.sin(), 0.0, azimuth.cos());
        let at = |reach: f32, y: f32| out * reach + v(0.0, y, 0.0);
        let n = i + 1;
        let names = [
            format!("leg_{n}_upper_l"),
            format!("leg_{n}_middle_l"),
            format!("leg_{n}_lower_l"),
        ];
        let ankle = at(0.85, 0.05);
        k.chain(
            "body",
            &[Cap::Limb],
            &[(&names[0], 0.045), (&names[1], 0.035), (&names[2], 0.025)],
            &[at(0.21, 0.49), at(0.45, 0.72), at(0.72, 0.35), ankle],
        );
        k.foot(
            &format!("foot_{n}_l"),
            &names[2],
            ankle,
            v(0.035, 0.025, 0.055),
            0.03,
            azimuth,
        );
    }
    k.mirrored()
}

/// A scorpion: all eight legs on the prosoma, two pincers (graspers that are also weapons)
/// and a tail curled up over the back ending in a stinger.
pub fn scorpion() -> CreatureBuilder {
    let mut k = Kit::new("scorpion");
    let spine = [Cap::Spine];
    let id = Quat::IDENTITY;
    k.top_bone(
        "prosoma",
        &spine,
        v(0.0, 0.28, -0.05),
        v(0.0, 0.28, 0.18),
        0.11,
    );
    k.block(
        "head",
        Some("prosoma"),
        &[Cap::Spine, Cap::Head],
        v(0.0, 0.28, 0.18),
        v(0.0, 0.29, 0.25),
        id,
        v(0.09, 0.06, 0.07),
        Shape::Box,
    );
    k.block(
        "mouth",
        Some("head"),
        &[Cap::Mouth],
        v(0.0, 0.27, 0.32),
        v(0.0, 0.27, 0.335),
        id,
        v(0.04, 0.02, 0.015),
        Shape::Box,
    );
    k.sphere(
        "eye_l",
        "head",
        &[Cap::Eye],
        v(0.03, 0.355, 0.26),
        v(0.03, 0.355, 0.26),
        0.012,
    );
    k.chain(
        "prosoma",
        &spine,
        &[
            ("mesosoma_1", 0.12),
            ("mesosoma_2", 0.11),
            ("mesosoma_3", 0.09),
        ],
        &[
            v(0.0, 0.28, -0.05),
            v(0.0, 0.27, -0.22),
            v(0.0, 0.26, -0.38),
            v(0.0, 0.25, -0.52),
        ],
    );
    k.chain(
        "mesosoma_3",
        &[Cap::Tail],
        &[
            ("tail_1", 0.05),
            ("tail_2", 0.045),
            ("tail_3", 0.04),
            ("tail_4", 0.035),
            ("tail_5", 0.03),
        ],
        &[
            v(0.0, 0.27, -0.58),
            v(0.0, 0.36, -0.70),
            v(0.0, 0.50, -0.76),
            v(0.0, 0.64, -0.74),
            v(0.0, 0.75, -0.66),
            v(0.0, 0.80, -0.55),
        ],
    );
    k.bone(
        "stinger",
        "tail_5",
        &[Cap::Tail, Cap::Weapon],
        v(0.0, 0.80, -0.55),
        v(0.0, 0.76, -0.45),
        0.025,
    );

    for (i, (z, dz)) in [(0.14, 0.10), (0.08, 0.04), (0.02, -0.04), (-0.04, -0.10)]
        .into_iter()
        .enumerate()
    {
        let n = i + 1;
        let (femur, tibia) = (format!("leg_{n}_femur_l"), format!("leg_{n}_tibia_l"));
        let (bend, ankle) = (v(0.30, 0.40, z + dz), v(0.48, 0.035, z + 2.2 * dz));
        k.chain(
            "prosoma",
            &[Cap::Limb],
            &[(&femur, 0.022), (&tibia, 0.017)],
            &[v(0.09, 0.24, z), bend, ankle],
        );
        let foot = v(0.015, 0.015, 0.04);
        k.foot(
            &format!("leg_{n}_foot_l"),
            &tibia,
            ankle,
            foot,
            0.025,
            yaw_toward(ankle - bend),
        );
    }
    k.chain(
        "prosoma",
        &[Cap::Limb],
        &[("pedipalp_femur_l", 0.03), ("pedipalp_patella_l", 0.03)],
        &[
            v(0.08, 0.30, 0.16),
            v(0.20, 0.33, 0.34),
            v(0.20, 0.31, 0.52),
        ],
    );
    k.block(
        "pincer_l",
        Some("pedipalp_patella_l"),
        &[Cap::Grasper, Cap::Weapon],
        v(0.20, 0.31, 0.52),
        v(0.19, 0.30, 0.61),
        id,
        v(0.045, 0.03, 0.08),
        Shape::Box,
    );
    k.mirrored()
}

/// Three legs of 1.0, 0.8 and 0.6 m under a level body (hips at different heights, longer
/// legs splayed wider) and one arm, on the right only.
pub fn tripod() -> CreatureBuilder {
    let mut k = Kit::new("tripod");
    let spine = [Cap::Spine];
    let id = Quat::IDENTITY;
    k.top_bone("body", &spine, v(0.0, 0.75, -0.2), v(0.0, 0.75, 0.15), 0.17);
    k.bone(
        "neck",
        "body",
        &spine,
        v(0.0, 0.83, 0.22),
        v(0.0, 0.95, 0.32),
        0.05,
    );
    k.block(
        "head",
        Some("neck"),
        &[Cap::Spine, Cap::Head],
        v(0.0, 0.95, 0.32),
        v(0.0, 1.02, 0.38),
        id,
        v(0.075, 0.085, 0.085),
        Shape::Capsule,
    );
    k.block(
        "mouth",
        Some("head"),
        &[Cap::Mouth],
        v(0.0, 0.99, 0.455),
        v(0.0, 0.99, 0.465),
        id,
        v(0.03, 0.012, 0.015),
        Shape::Box,
    );
    k.sphere(
        "eye_l",
        "head",
        &[Cap::Eye],
        v(0.03, 1.05, 0.449),
        v(0.03, 1.05, 0.449),
        0.014,
    );

    for (which, length, hip, ankle, bend) in [
        (
            "long",
            1.0,
            v(0.14, 0.84, 0.05),
            v(0.60, 0.08, 0.30),
            v(1.0, 1.0, 0.0),
        ),
        (
            "mid",
            0.8,
            v(-0.17, 0.74, 0.05),
            v(-0.45, 0.08, 0.30),
            v(-1.0, 1.0, 0.0),
        ),
        (
            "short",
            0.6,
            v(0.0, 0.60, -0.10),
            v(0.0, 0.08, -0.35),
            v(0.0, 0.3, -1.0),
        ),
    ] {
        let (thigh, shin) = (format!("thigh_{which}"), format!("shin_{which}"));
        let bent = knee(hip, ankle, length * 0.5, length * 0.5, bend);
        k.chain(
            "body",
            &[Cap::Limb],
            &[(&thigh, 0.05), (&shin, 0.04)],
            &[hip, bent, ankle],
        );
        k.foot(
            &format!("foot_{which}"),
            &shin,
            ankle,
            v(0.045, 0.04, 0.08),
            0.03,
            yaw_toward(ankle - hip),
        );
    }

    k.chain(
        "body",
        &[Cap::Limb],
        &[("upper_arm_r", 0.04), ("forearm_r", 0.03)],
        &[
            v(-0.12, 0.82, 0.16),
            v(-0.26, 0.68, 0.32),
            v(-0.30, 0.52, 0.46),
        ],
    );
    k.bone(
        "hand_r",
        "forearm_r",
        &[Cap::Grasper],
        v(-0.30, 0.52, 0.46),
        v(-0.31, 0.44, 0.54),
        0.03,
    );
    k.mirrored()
}
