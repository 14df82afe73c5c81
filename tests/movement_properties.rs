//! The movement-mode contract of DESIGN.md ("Movement modes: what G must satisfy"), checked
//! with random poses on every body of every sample creature, in every mode.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::runtime::clip::Channel;
use anymorph::runtime::creature::{Creature, Side};
use anymorph::runtime::curve::{Key, KeyedCurve, TangentMode};
use anymorph::runtime::math::{mirror_point, mirror_rotation, rotation_angle_between};
use anymorph::runtime::movement::{
    MotionFrame, MovementMode, PositionMode, RestBody, RotationMode, ScaleMode, Surroundings,
};
use anymorph::runtime::pose::BodyPose;
use anymorph::runtime::query::ContextQuery;
use glam::{Quat, Vec3, Vec3Swizzles};
use proptest::prelude::*;

const POSITION_MODES: [PositionMode; 5] = [
    PositionMode::Absolute,
    PositionMode::RestRelative,
    PositionMode::GroundRelative,
    PositionMode::SecondaryRelative,
    PositionMode::SecondaryDirectional,
];
const ROTATION_MODES: [RotationMode; 3] = [
    RotationMode::Absolute,
    RotationMode::RestRelative,
    RotationMode::LookAt,
];
const SCALE_MODES: [ScaleMode; 3] = [
    ScaleMode::None,
    ScaleMode::CreatureSize,
    ScaleMode::LimbLength,
];

fn all_modes() -> Vec<MovementMode> {
    let mut v = Vec::new();
    for position in POSITION_MODES {
        for rotation in ROTATION_MODES {
            for scale in SCALE_MODES {
                v.push(MovementMode {
                    position,
                    rotation,
                    scale,
                    ..Default::default()
                });
            }
        }
    }
    v
}

fn unit_vec() -> impl Strategy<Value = Vec3> {
    (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn rotation() -> impl Strategy<Value = Quat> {
    (-3.1f32..3.1, -1.5f32..1.5, -3.1f32..3.1)
        .prop_map(|(a, b, c)| Quat::from_euler(glam::EulerRot::YXZ, a, b, c))
}

fn target_for(c: &Creature, unit: Vec3) -> Vec3 {
    c.bounds().center() + unit * c.size()
}

fn assert_pose_close(a: BodyPose, b: BodyPose, size: f32, what: &str) -> Result<(), TestCaseError> {
    let d = a.position.distance(b.position);
    prop_assert!(
        d <= 1e-4 * size,
        "{what}: positions differ by {d} (size {size}): {a:?} vs {b:?}"
    );
    let angle = rotation_angle_between(a.rotation, b.rotation);
    prop_assert!(
        angle <= 1e-4,
        "{what}: rotations differ by {angle} rad: {a:?} vs {b:?}"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// 1. `S(b, G(b, q, m), m) = q`, and `G(S(qg)) = qg`.
    #[test]
    fn generalize_then_specialize_is_identity(
        offset in unit_vec(), rot in rotation(), target in unit_vec(), qg_pos in unit_vec(), qg_rot in rotation()
    ) {
        let modes = all_modes();
        for c in common::creatures() {
            let around = Surroundings { target: Some(target_for(c, target)), ground_height: 0.0 };
            for b in 0..c.len() {
                let rest = RestBody::of(c, b);
                let qs = BodyPose::new(rest.rest.position + offset * c.size(), rot);
                for mode in &modes {
                    for mirrored in [false, true] {
                        let f = MotionFrame::new(mode, &rest, &around, mirrored);
                        let what = format!("{} {} {mode:?} m={mirrored}", c.name(), c.body(b).name);
                        assert_pose_close(f.specialize(f.generalize(qs)), qs, c.size(), &what)?;
                        let qg = BodyPose::new(qg_pos, qg_rot);
                        let back = f.generalize(f.specialize(qg));
                        prop_assert!(back.position.distance(qg.position) <= 1e-3, "{what}: G(S(qg)) {back:?} vs {qg:?}");
                        prop_assert!(rotation_angle_between(back.rotation, qg.rotation) <= 1e-4, "{what}");
                    }
                }
            }
        }
    }

    /// 2. Rest-relative: the same qg moves every body by the same offset and rotation from
    /// its own rest; qg = 0 is the rest pose in every relative mode.
    #[test]
    fn rest_relative_moves_every_body_by_the_same_offset(qg_pos in unit_vec(), qg_rot in rotation(), target in unit_vec()) {
        let rest_relative = MovementMode::default();
        for c in common::creatures() {
            let around = Surroundings { target: Some(target_for(c, target)), ground_height: 0.0 };
            for b in 0..c.len() {
                let rest = RestBody::of(c, b);
                let qs = MotionFrame::new(&rest_relative, &rest, &around, false).specialize(BodyPose::new(qg_pos, qg_rot));
                prop_assert!((qs.position - rest.rest.position).distance(qg_pos) <= 1e-5 * c.size().max(1.0));
                prop_assert!(rotation_angle_between(qs.rotation * rest.rest.rotation.inverse(), qg_rot) <= 1e-4);
                for mode in all_modes().iter().filter(|m| m.position != PositionMode::Absolute && m.rotation != RotationMode::Absolute) {
                    for mirrored in [false, true] {
                        let at_rest = MotionFrame::new(mode, &rest, &around, mirrored).specialize(BodyPose::IDENTITY);
                        prop_assert!(at_rest.position.distance(rest.rest.position) <= 1e-5 * c.size().max(1.0), "{mode:?}");
                        if mode.rotation == RotationMode::RestRelative {
                            prop_assert!(rotation_angle_between(at_rest.rotation, rest.rest.rotation) <= 1e-4, "{mode:?}");
                        }
                    }
                }
            }
        }
    }

    /// 3. CreatureSize: a creature scaled by λ gets offsets scaled by λ (in every position
    /// mode, its target scaled with it). LimbLength: offsets are qg times the limb length.
    #[test]
    fn scale_modes_follow_creature_size_and_limb_length(lambda in 0.1f32..10.0, qg_pos in unit_vec(), target in unit_vec()) {
        for c in common::creatures() {
            let scaled = scale_creature(c, lambda);
            let t = target_for(c, target);
            for position in POSITION_MODES {
                let mode = MovementMode { position, scale: ScaleMode::CreatureSize, ..Default::default() };
                for b in 0..c.len() {
                    for mirrored in [false, true] {
                        let qg = BodyPose::new(qg_pos, Quat::IDENTITY);
                        let a = MotionFrame::new(&mode, &RestBody::of(c, b), &Surroundings { target: Some(t), ground_height: 0.0 }, mirrored).specialize(qg);
                        let s = MotionFrame::new(&mode, &RestBody::of(&scaled, b), &Surroundings { target: Some(t * lambda), ground_height: 0.0 }, mirrored).specialize(qg);
                        prop_assert!(s.position.distance(a.position * lambda) <= 1e-4 * scaled.size(),
                            "{} {} {position:?}: {:?} vs λ·{:?}", c.name(), c.body(b).name, s.position, a.position);
                    }
                }
            }
            let limb = MovementMode { scale: ScaleMode::LimbLength, ..Default::default() };
            for b in 0..c.len() {
                let rest = RestBody::of(c, b);
                if rest.limb_length < 0.01 * c.size() {
                    continue;
                }
                let qs = MotionFrame::new(&limb, &rest, &Surroundings::default(), false).specialize(BodyPose::new(qg_pos, Quat::IDENTITY));
                let per_limb = (qs.position - rest.rest.position) / rest.limb_length;
                prop_assert!(per_limb.distance(qg_pos) <= 1e-4, "{} {}", c.name(), c.body(b).name);
            }
        }
    }

    /// 4. Ground-relative: qg.y = 0 is the rest height, qg.y = 1 puts the body's lowest point
    /// on the ground, whatever the ground height.
    #[test]
    fn ground_relative_reaches_the_ground(x in -1.0f32..1.0, z in -1.0f32..1.0, ground in -0.5f32..0.5) {
        for c in common::creatures() {
            let g = ground * c.size();
            for scale in SCALE_MODES {
                let mode = MovementMode { position: PositionMode::GroundRelative, scale, ..Default::default() };
                for b in 0..c.len() {
                    let rest = RestBody::of(c, b);
                    let drop = rest.rest.position.y - rest.contact_height - g;
                    let around = Surroundings { target: None, ground_height: g };
                    for mirrored in [false, true] {
                        let f = MotionFrame::new(&mode, &rest, &around, mirrored);
                        let up = f.specialize(BodyPose::new(Vec3::new(x, 0.0, z), Quat::IDENTITY));
                        prop_assert!((up.position.y - rest.rest.position.y).abs() <= 1e-5 * c.size().max(1.0));
                        if drop.abs() >= 0.01 * c.size() {
                            let down = f.specialize(BodyPose::new(Vec3::new(x, 1.0, z), Quat::IDENTITY));
                            let lowest = down.position.y - rest.contact_height;
                            prop_assert!((lowest - g).abs() <= 1e-4 * c.size(), "{} {}: lowest {lowest} ground {g}", c.name(), c.body(b).name);
                        }
                    }
                }
            }
        }
    }

    /// 5. Secondary-relative: qg = (1,0,0) puts the body on its target; moving the target
    /// never moves the rest pose. Directional-only turns toward the target at fixed scale.
    #[test]
    fn secondary_relative_reaches_the_target(target in unit_vec(), other in unit_vec()) {
        for c in common::creatures() {
            let t = target_for(c, target);
            for scale in SCALE_MODES {
                let rel = MovementMode { position: PositionMode::SecondaryRelative, scale, ..Default::default() };
                let dir = MovementMode { position: PositionMode::SecondaryDirectional, scale, ..Default::default() };
                for b in 0..c.len() {
                    let rest = RestBody::of(c, b);
                    let to_target = t - rest.rest.position;
                    for mirrored in [false, true] {
                        let around = Surroundings { target: Some(t), ground_height: 0.0 };
                        let moved = Surroundings { target: Some(target_for(c, other)), ground_height: 0.0 };
                        let f = MotionFrame::new(&rel, &rest, &around, mirrored);
                        if to_target.length() >= 0.01 * c.size() {
                            let at = f.specialize(BodyPose::new(Vec3::X, Quat::IDENTITY));
                            prop_assert!(at.position.distance(t) <= 1e-4 * c.size(), "{} {}", c.name(), c.body(b).name);
                            let d = MotionFrame::new(&dir, &rest, &around, mirrored).specialize(BodyPose::new(Vec3::X, Quat::IDENTITY));
                            let step = d.position - rest.rest.position;
                            prop_assert!(step.normalize().dot(to_target.normalize()) >= 1.0 - 1e-4);
                            let unit_len = MotionFrame::new(&dir, &rest, &moved, mirrored).specialize(BodyPose::new(Vec3::X, Quat::IDENTITY)).position - rest.rest.position;
                            prop_assert!((step.length() - unit_len.length()).abs() <= 1e-4 * c.size(), "directional keeps its scale");
                        }
                        for fr in [f, MotionFrame::new(&rel, &rest, &moved, mirrored)] {
                            let r = fr.specialize(BodyPose::IDENTITY);
                            prop_assert!(r.position.distance(rest.rest.position) <= 1e-5 * c.size().max(1.0));
                        }
                    }
                }
            }
        }
    }

    /// 6. Look-at: the forward (+Z) aims at the target within the soft limits (up to half the
    /// turn limit; past it the turn eases toward the limit and never reaches it), fades to
    /// none behind the body, and keyed rotations are relative to the look frame.
    #[test]
    fn look_at_aims_forward_with_soft_limits(target in unit_vec(), keyed in rotation()) {
        let mode = MovementMode { rotation: RotationMode::LookAt, ..Default::default() };
        for c in common::creatures() {
            let t = target_for(c, target);
            for b in 0..c.len() {
                let rest = RestBody::of(c, b);
                let Some(to_target) = (t - rest.rest.position).try_normalize() else { continue };
                let forward = rest.rest.rotation * Vec3::Z;
                let angle = forward.angle_between(to_target);
                let f = MotionFrame::new(&mode, &rest, &Surroundings { target: Some(t), ground_height: 0.0 }, false);
                let look = f.specialize(BodyPose::IDENTITY).rotation;
                let aimed = look * Vec3::Z;
                let limits = mode.look_at;
                let (max, knee) = (limits.max_turn_rad, 0.5 * limits.max_turn_rad);
                let turned = forward.angle_between(aimed);
                if angle <= limits.full_effect_rad.min(knee) - 1e-3 {
                    prop_assert!(aimed.angle_between(to_target) <= 2e-3, "{} {}: off by {}", c.name(), c.body(b).name, aimed.angle_between(to_target));
                } else if angle >= limits.no_effect_rad {
                    prop_assert!(rotation_angle_between(look, rest.rest.rotation) <= 1e-4);
                } else {
                    prop_assert!(aimed.angle_between(to_target) <= angle + 1e-3, "turns toward, never away");
                    prop_assert!(turned < max + 1e-3, "{} {}: turned {turned} past the limit", c.name(), c.body(b).name);
                    if angle <= limits.full_effect_rad - 1e-3 {
                        // Past the knee the turn eases toward the limit as documented.
                        let eased = max - (max - knee) * (-(angle - knee) / (max - knee)).exp();
                        prop_assert!((turned - eased).abs() <= 2e-3, "{} {}: turned {turned}, documented {eased}", c.name(), c.body(b).name);
                        prop_assert!(aimed.angle_between(to_target) <= angle - turned + 2e-3, "turned straight toward the target");
                    }
                }
                let with_key = f.specialize(BodyPose::new(Vec3::ZERO, keyed)).rotation;
                let expected = look * rest.rest.rotation.inverse() * keyed * rest.rest.rotation;
                prop_assert!(rotation_angle_between(with_key, expected) <= 1e-4);
            }
        }
    }

    /// 7. Mirroring: a right-side body moves as the reflection of what the same qg does to
    /// its left twin.
    #[test]
    fn mirroring_reflects_the_left_side(qg_pos in unit_vec(), qg_rot in rotation(), target in unit_vec()) {
        let modes = all_modes();
        let mut pairs = 0;
        for c in common::creatures() {
            let t = target_for(c, target);
            for right in 0..c.len() {
                let name = &c.body(right).name;
                let Some(left) = name.strip_suffix("_r").and_then(|s| c.find(&format!("{s}_l"))) else { continue };
                if c.side(right) != Side::Right {
                    continue;
                }
                pairs += 1;
                let (l, r) = (RestBody::of(c, left), RestBody::of(c, right));
                for mode in &modes {
                    let qg = BodyPose::new(qg_pos, qg_rot);
                    let on_left = MotionFrame::new(mode, &l, &Surroundings { target: Some(t), ground_height: 0.0 }, false).specialize(qg);
                    let on_right = MotionFrame::new(mode, &r, &Surroundings { target: Some(mirror_point(t)), ground_height: 0.0 }, true).specialize(qg);
                    let reflected = BodyPose::new(mirror_point(on_left.position), mirror_rotation(on_left.rotation));
                    assert_pose_close(on_right, reflected, c.size(), &format!("{} {name} {mode:?}", c.name()))?;
                }
            }
        }
        prop_assert!(pairs > 100, "only {pairs} mirror pairs in the samples");
    }

    /// 8. Key remap: after a mode change the active body's specialized curve is unchanged,
    /// at the keys and between them.
    #[test]
    fn key_remap_keeps_the_active_bodys_curve(
        keys in prop::collection::vec((unit_vec(), rotation(), 0usize..6), 2..5),
        from in 0usize..45, to in 0usize..45, pick in 0usize..10_000, target in unit_vec(), mirrored in any::<bool>()
    ) {
        let modes = all_modes();
        let c = &common::creatures()[pick % common::creatures().len()];
        let b = pick % c.len();
        let rest = RestBody::of(c, b);
        let around = Surroundings { target: Some(target_for(c, target)), ground_height: 0.0 };
        let mut ch = Channel::new("c", ContextQuery::default());
        ch.mode = modes[from];
        let modes_of_keys = [TangentMode::Auto, TangentMode::AutoClamped, TangentMode::Flat, TangentMode::Linear, TangentMode::Step, TangentMode::Free];
        ch.position = Some(KeyedCurve::new(keys.iter().enumerate().map(|(i, k)| {
            let key = Key::new(i as f32 * 0.5, k.0).with_mode(modes_of_keys[k.2]);
            if k.2 == 5 { key.with_tangents(k.0.zxy(), k.0.yzx(), i % 2 == 0) } else { key }
        }).collect()).unwrap());
        ch.rotation = Some(KeyedCurve::new(keys.iter().enumerate().map(|(i, k)| Key::new(i as f32 * 0.5, k.1).with_mode(modes_of_keys[k.2 % 5])).collect()).unwrap());
        let before = ch.clone();
        ch.remap_mode(modes[to], &rest, &around, mirrored).unwrap();
        prop_assert_eq!(ch.mode, modes[to]);
        let old = MotionFrame::new(&before.mode, &rest, &around, mirrored);
        let new = MotionFrame::new(&ch.mode, &rest, &around, mirrored);
        let end = (keys.len() - 1) as f32 * 0.5;
        for i in 0..=40 {
            let t = end * i as f32 / 40.0;
            let sample = |c: &Channel| BodyPose::new(c.position.as_ref().unwrap().sample(t).unwrap(), c.rotation.as_ref().unwrap().sample(t).unwrap());
            let a = old.specialize(sample(&before));
            let n = new.specialize(sample(&ch));
            prop_assert!(a.position.distance(n.position) <= 1e-3 * c.size().max(1.0), "t={t}: {:?} vs {:?}", a.position, n.position);
            prop_assert!(rotation_angle_between(a.rotation, n.rotation) <= 1e-3, "t={t}");
        }
    }
}

fn scale_creature(c: &Creature, lambda: f32) -> Creature {
    let defs = c
        .to_defs()
        .into_iter()
        .map(|mut d| {
            d.joint *= lambda;
            d.position *= lambda;
            d.half_extents *= lambda;
            d
        })
        .collect();
    Creature::new(c.name(), defs).unwrap()
}
