//! Upright two-legged creatures: the benchmark biped and its variants (a giant, four arms,
//! forked legs). They share one torso and differ in limbs.

use super::kit::{Kit, other, v};
use anymorph::runtime::creature::{Cap, CreatureBuilder, Shape};
use glam::{Quat, Vec3};

/// Pelvis, three spine blocks, neck and a forward-facing head with a mouth and the left eye,
/// 1.7 m tall at scale 1.
fn torso(k: &mut Kit) {
    let spine = [Cap::Spine];
    let id = Quat::IDENTITY;
    k.block(
        "pelvis",
        None,
        &spine,
        v(0.0, 0.97, 0.0),
        v(0.0, 0.97, 0.0),
        id,
        v(0.15, 0.08, 0.1),
        Shape::Box,
    );
    k.block(
        "spine_1",
        Some("pelvis"),
        &spine,
        v(0.0, 1.05, 0.0),
        v(0.0, 1.11, 0.0),
        id,
        v(0.14, 0.06, 0.09),
        Shape::Box,
    );
    k.block(
        "spine_2",
        Some("spine_1"),
        &spine,
        v(0.0, 1.17, 0.0),
        v(0.0, 1.235, 0.005),
        id,
        v(0.15, 0.065, 0.095),
        Shape::Box,
    );
    k.block(
        "spine_3",
        Some("spine_2"),
        &spine,
        v(0.0, 1.30, 0.005),
        v(0.0, 1.38, 0.0),
        id,
        v(0.17, 0.08, 0.105),
        Shape::Box,
    );
    k.bone(
        "neck",
        "spine_3",
        &spine,
        v(0.0, 1.46, 0.0),
        v(0.0, 1.53, 0.01),
        0.05,
    );
    k.block(
        "head",
        Some("neck"),
        &[Cap::Spine, Cap::Head],
        v(0.0, 1.53, 0.01),
        v(0.0, 1.615, 0.02),
        id,
        v(0.075, 0.085, 0.09),
        Shape::Capsule,
    );
    k.block(
        "mouth",
        Some("head"),
        &[Cap::Mouth],
        v(0.0, 1.575, 0.095),
        v(0.0, 1.575, 0.1),
        id,
        v(0.03, 0.012, 0.015),
        Shape::Box,
    );
    k.sphere(
        "eye_l",
        "head",
        &[Cap::Eye],
        v(0.03, 1.64, 0.088),
        v(0.03, 1.64, 0.088),
        0.014,
    );
}

/// Clavicle, upper arm, forearm and hand, hanging a little away from the body (A-pose).
fn arm(k: &mut Kit) {
    let shoulder = v(0.18, 1.42, -0.005);
    k.bone(
        "clavicle_l",
        "spine_3",
        &[Cap::Limb],
        v(0.03, 1.43, 0.02),
        shoulder,
        0.03,
    );
    k.chain(
        "clavicle_l",
        &[Cap::Limb],
        &[("upper_arm_l", 0.045), ("forearm_l", 0.035)],
        &[shoulder, v(0.27, 1.15, -0.02), v(0.34, 0.91, 0.03)],
    );
    k.bone(
        "hand_l",
        "forearm_l",
        &[Cap::Grasper],
        v(0.34, 0.91, 0.03),
        v(0.365, 0.76, 0.05),
        0.035,
    );
}

/// Thigh, shin and a foot under a slightly bent knee.
fn leg(k: &mut Kit, toes: bool) {
    let ankle = v(0.10, 0.085, -0.01);
    k.chain(
        "pelvis",
        &[Cap::Limb],
        &[("thigh_l", 0.065), ("shin_l", 0.05)],
        &[v(0.09, 0.92, 0.0), v(0.10, 0.50, 0.035), ankle],
    );
    k.foot("foot_l", "shin_l", ankle, v(0.045, 0.04, 0.1), 0.06, 0.0);
    if toes {
        k.block(
            "toes_l",
            Some("foot_l"),
            &[other("toe")],
            v(0.10, 0.025, 0.15),
            v(0.10, 0.02, 0.18),
            Quat::IDENTITY,
            v(0.045, 0.02, 0.03),
            Shape::Box,
        );
    }
}

/// The benchmark creature: 25 bodies, 1.7 m.
pub fn biped() -> CreatureBuilder {
    let mut k = Kit::new("biped");
    torso(&mut k);
    arm(&mut k);
    leg(&mut k, true);
    k.mirrored()
}

/// The biped at 3.5 times the size (5.95 m), with a thumb and fingers on each hand.
pub fn giant() -> CreatureBuilder {
    let mut k = Kit::scaled("giant", 3.5);
    torso(&mut k);
    arm(&mut k);
    let finger = [other("finger")];
    k.bone(
        "thumb_l",
        "hand_l",
        &finger,
        v(0.35, 0.85, 0.06),
        v(0.355, 0.79, 0.095),
        0.012,
    );
    k.bone(
        "fingers_l",
        "hand_l",
        &finger,
        v(0.365, 0.76, 0.05),
        v(0.375, 0.68, 0.06),
        0.03,
    );
    leg(&mut k, true);
    k.mirrored()
}

/// A biped with a second, lower pair of arms on `spine_2`, reaching forward.
pub fn four_armed() -> CreatureBuilder {
    let mut k = Kit::new("four_armed");
    torso(&mut k);
    arm(&mut k);
    k.chain(
        "spine_2",
        &[Cap::Limb],
        &[("low_upper_arm_l", 0.04), ("low_forearm_l", 0.032)],
        &[
            v(0.14, 1.24, 0.04),
            v(0.22, 1.06, 0.16),
            v(0.26, 0.99, 0.38),
        ],
    );
    k.bone(
        "low_hand_l",
        "low_forearm_l",
        &[Cap::Grasper],
        v(0.26, 0.99, 0.38),
        v(0.27, 0.975, 0.5),
        0.032,
    );
    leg(&mut k, true);
    k.mirrored()
}

/// A biped whose legs fork at the knee into a front and a back shin, each with a foot.
pub fn branching_leg() -> CreatureBuilder {
    let mut k = Kit::new("branching_leg");
    torso(&mut k);
    arm(&mut k);
    let knee: Vec3 = v(0.10, 0.52, 0.03);
    k.bone(
        "thigh_l",
        "pelvis",
        &[Cap::Limb],
        v(0.09, 0.92, 0.0),
        knee,
        0.065,
    );
    for (fork, ankle, forward) in [
        ("front", v(0.11, 0.085, 0.13), 0.05),
        ("back", v(0.11, 0.085, -0.10), 0.03),
    ] {
        let shin = format!("shin_{fork}_l");
        k.bone(&shin, "thigh_l", &[Cap::Limb], knee, ankle, 0.045);
        k.foot(
            &format!("foot_{fork}_l"),
            &shin,
            ankle,
            v(0.04, 0.04, 0.08),
            forward,
            0.0,
        );
    }
    k.mirrored()
}
