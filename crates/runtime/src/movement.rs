//! Movement modes and the generalize/specialize pair `G`/`S` (paper section 3.2).
//!
//! Every mode is an affine map per body: `qs.position = origin + axes · qg.position` and
//! `qs.rotation = pre · qg.rotation · post`, built from the body's rest pose, the creature's
//! size, the ground and the channel's target. `S` applies the map and `G` inverts it, so
//! `S(G(qs)) = qs` exactly, and `qg = 0` (identity) is the rest pose in every relative mode.
//! Mirroring evaluates the map in the reflected creature and reflects the result back.

use crate::creature::{BodyId, Creature};
use crate::math::{mirror_point, mirror_rotation, partial_rotation_arc, smoothstep};
use crate::pose::BodyPose;
use glam::{Mat3, Quat, Vec3};
use serde::{Deserialize, Serialize};

/// What a channel's generalized position `qg.position` means: where its origin is and
/// which way its axes point. The scale mode sets the axes' lengths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionMode {
    /// `qg` is the character-space position: every selected body goes to the same place.
    Absolute,
    /// `qg` is an offset from the body's own rest position.
    #[default]
    RestRelative,
    /// Like rest-relative across, but vertically `qg.y = 0` is the rest height and
    /// `qg.y = 1` puts the body's lowest point on the ground.
    GroundRelative,
    /// The frame's x axis runs from the rest position (0) to the secondary target (1).
    SecondaryRelative,
    /// The frame turns toward the secondary target but keeps the scale mode's size, so a
    /// punch keeps its shape however far the target is.
    SecondaryDirectional,
}

/// What a channel's generalized rotation `qg.rotation` means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RotationMode {
    /// `qg` is the character-space rotation.
    Absolute,
    /// `qg` is a character-space rotation applied on top of the rest rotation.
    #[default]
    RestRelative,
    /// The frame's forward (+Z) turns toward the secondary target; `qg` is relative to it.
    LookAt,
}

/// The unit of a channel's generalized position offsets, so one clip moves a mouse and
/// a giant in proportion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScaleMode {
    /// Offsets are metres on every creature.
    #[default]
    None,
    /// Offsets are fractions of the creature's bounds, per axis.
    CreatureSize,
    /// Offsets are multiples of the body's limb length.
    LimbLength,
}

/// The soft limits of look-at: full effect while the target is within `full_effect_rad` of
/// the body's rest forward, fading smoothly to none at `no_effect_rad`, so a head never
/// snaps round to look behind itself and a creature's other head can take over. The turn
/// itself eases toward `max_turn_rad` past half of it, as a neck's joint limit would: a head
/// sent to look steeply down at a target near the body otherwise turned its mouth into its
/// own chest, and heads side by side turned into each other.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LookAtLimits {
    /// Angle from the rest forward (radians) within which the body turns fully toward
    /// the target; 90° by default.
    pub full_effect_rad: f32,
    /// Angle from the rest forward (radians) at and past which the target is ignored;
    /// 150° by default. At or below `full_effect_rad` the effect cuts off there instead
    /// of fading.
    pub no_effect_rad: f32,
    /// The most the body turns from its rest forward (radians), approached softly; 60° by
    /// default.
    #[serde(default = "default_max_turn")]
    pub max_turn_rad: f32,
}

fn default_max_turn() -> f32 {
    60f32.to_radians()
}

impl Default for LookAtLimits {
    fn default() -> Self {
        LookAtLimits {
            full_effect_rad: 90f32.to_radians(),
            no_effect_rad: 150f32.to_radians(),
            max_turn_rad: default_max_turn(),
        }
    }
}

/// How a channel's motion generalizes: the semantics that define `G` and `S`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MovementMode {
    /// How generalized positions map to character space.
    #[serde(default)]
    pub position: PositionMode,
    /// How generalized rotations map to character space.
    #[serde(default)]
    pub rotation: RotationMode,
    /// The unit of generalized positions.
    #[serde(default)]
    pub scale: ScaleMode,
    /// How far a [`RotationMode::LookAt`] channel turns toward its target; unused by the
    /// other rotation modes.
    #[serde(default, skip_serializing_if = "is_default_limits")]
    pub look_at: LookAtLimits,
}

fn is_default_limits(l: &LookAtLimits) -> bool {
    *l == LookAtLimits::default()
}

impl MovementMode {
    /// Whether `S` depends on the channel's secondary target (which may move every frame).
    pub fn uses_target(&self) -> bool {
        matches!(
            self.position,
            PositionMode::SecondaryRelative | PositionMode::SecondaryDirectional
        ) || self.rotation == RotationMode::LookAt
    }
}

/// What `S` needs to know about one body of one creature.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RestBody {
    /// The body's rest pose in character space.
    pub rest: BodyPose,
    /// Path length of joints from the body to the nearest spine body (m; 0 on the spine):
    /// the unit of [`ScaleMode::LimbLength`].
    pub limb_length: f32,
    /// The creature's bounds size per axis.
    pub creature_extent: Vec3,
    /// Height of the body's centre above its lowest point at rest.
    pub contact_height: f32,
}

impl RestBody {
    /// Body `id` of `creature`, at rest.
    pub fn of(creature: &Creature, id: BodyId) -> Self {
        let b = creature.body(id);
        RestBody {
            rest: BodyPose::new(b.position, b.rotation),
            limb_length: creature.limb_length(id),
            creature_extent: creature.bounds().size(),
            contact_height: creature.contact_height(id),
        }
    }

    fn size(&self) -> f32 {
        self.creature_extent.max_element().max(1e-6)
    }

    /// Below this a length used as a scale is raised to it, so `G` stays invertible on a
    /// body with no limb or one resting on the ground.
    fn floor(&self) -> f32 {
        0.01 * self.size()
    }

    fn mirrored(self) -> Self {
        RestBody {
            rest: BodyPose::new(
                mirror_point(self.rest.position),
                mirror_rotation(self.rest.rotation),
            ),
            ..self
        }
    }
}

/// The per-frame inputs of `S` that do not belong to the body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Surroundings {
    /// The channel's secondary target in character space, if it has one.
    pub target: Option<Vec3>,
    /// Height of the ground in character space.
    pub ground_height: f32,
}

impl Default for Surroundings {
    fn default() -> Self {
        Surroundings {
            target: None,
            ground_height: 0.0,
        }
    }
}

/// `S` and `G` for one body, one mode, one set of surroundings and one mirror flag.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionFrame {
    /// Where `qg.position = 0` lands, in character space.
    pub origin: Vec3,
    /// The generalized axes in character space, scaled to their unit (columns x, y, z);
    /// invertible.
    pub axes: Mat3,
    inverse_axes: Mat3,
    /// Applied before `qg.rotation`: the look-at turn, or identity.
    pub rotation_pre: Quat,
    /// Applied after `qg.rotation`: the rest rotation in relative modes, or identity.
    pub rotation_post: Quat,
    /// The body is on the right side and plays the motion of its left-side mirror image
    /// (reflected in x).
    pub mirrored: bool,
}

impl MotionFrame {
    /// The frame of `body` in `mode`, given this frame's target and ground.
    pub fn new(
        mode: &MovementMode,
        body: &RestBody,
        around: &Surroundings,
        mirrored: bool,
    ) -> Self {
        // Evaluate in the reflected creature, then reflect back: a right-side body does
        // what its mirror image on the left would do.
        let (body_m, target_m) = if mirrored {
            (body.mirrored(), around.target.map(mirror_point))
        } else {
            (*body, around.target)
        };
        let (origin, axes) = position_frame(mode, &body_m, target_m, around.ground_height);
        let (pre, post) = rotation_frame(mode, &body_m, target_m);
        let (origin, axes, pre, post) = if mirrored {
            let f = Mat3::from_diagonal(Vec3::new(-1.0, 1.0, 1.0));
            (
                mirror_point(origin),
                f * axes,
                mirror_rotation(pre),
                mirror_rotation(post),
            )
        } else {
            (origin, axes, pre, post)
        };
        MotionFrame {
            origin,
            axes,
            inverse_axes: axes.inverse(),
            rotation_pre: pre,
            rotation_post: post,
            mirrored,
        }
    }

    /// `S`: generalized to specialized (character space).
    pub fn specialize(&self, qg: BodyPose) -> BodyPose {
        let r = if self.mirrored {
            mirror_rotation(qg.rotation)
        } else {
            qg.rotation
        };
        BodyPose {
            position: self.origin + self.axes * qg.position,
            rotation: self.rotation_pre * r * self.rotation_post,
        }
    }

    /// `G`: specialized to generalized. Keeps the quaternion's sign as the input has it so a
    /// hemisphere-aligned key sequence stays aligned.
    pub fn generalize(&self, qs: BodyPose) -> BodyPose {
        let r = self.rotation_pre.inverse() * qs.rotation * self.rotation_post.inverse();
        BodyPose {
            position: self.inverse_axes * (qs.position - self.origin),
            rotation: if self.mirrored { mirror_rotation(r) } else { r },
        }
    }

    /// The linear part of `S` for positions: how a generalized velocity or tangent maps.
    pub fn specialize_vector(&self, v: Vec3) -> Vec3 {
        self.axes * v
    }

    /// The inverse of [`MotionFrame::specialize_vector`]: a character-space velocity or
    /// tangent in generalized units.
    pub fn generalize_vector(&self, v: Vec3) -> Vec3 {
        self.inverse_axes * v
    }

    /// The linear part of `S` on quaternion components, for rotation tangents.
    pub fn specialize_rotation_tangent(&self, t: Quat) -> Quat {
        let r = if self.mirrored { mirror_rotation(t) } else { t };
        self.rotation_pre * r * self.rotation_post
    }

    /// The inverse of [`MotionFrame::specialize_rotation_tangent`].
    pub fn generalize_rotation_tangent(&self, t: Quat) -> Quat {
        let r = self.rotation_pre.inverse() * t * self.rotation_post.inverse();
        if self.mirrored { mirror_rotation(r) } else { r }
    }
}

/// `S(b, qg, m)`.
pub fn specialize(
    mode: &MovementMode,
    body: &RestBody,
    around: &Surroundings,
    mirrored: bool,
    qg: BodyPose,
) -> BodyPose {
    MotionFrame::new(mode, body, around, mirrored).specialize(qg)
}

/// `G(b, qs, m)`.
pub fn generalize(
    mode: &MovementMode,
    body: &RestBody,
    around: &Surroundings,
    mirrored: bool,
    qs: BodyPose,
) -> BodyPose {
    MotionFrame::new(mode, body, around, mirrored).generalize(qs)
}

/// The generalized pose that leaves a body at rest in this mode.
pub fn rest_qg(
    mode: &MovementMode,
    body: &RestBody,
    around: &Surroundings,
    mirrored: bool,
) -> BodyPose {
    generalize(mode, body, around, mirrored, body.rest)
}

fn scale_vector(mode: &MovementMode, body: &RestBody) -> Vec3 {
    let floor = body.floor();
    match mode.scale {
        ScaleMode::None => Vec3::ONE,
        ScaleMode::CreatureSize => body.creature_extent.max(Vec3::splat(floor)),
        ScaleMode::LimbLength => Vec3::splat(body.limb_length.max(floor)),
    }
}

fn scale_uniform(mode: &MovementMode, body: &RestBody) -> f32 {
    match mode.scale {
        ScaleMode::None => 1.0,
        ScaleMode::CreatureSize => body.size(),
        ScaleMode::LimbLength => body.limb_length.max(body.floor()),
    }
}

fn position_frame(
    mode: &MovementMode,
    body: &RestBody,
    target: Option<Vec3>,
    ground_height: f32,
) -> (Vec3, Mat3) {
    let rest = body.rest.position;
    let s = scale_vector(mode, body);
    match mode.position {
        PositionMode::Absolute => (Vec3::ZERO, Mat3::from_diagonal(s)),
        PositionMode::RestRelative => (rest, Mat3::from_diagonal(s)),
        PositionMode::GroundRelative => {
            let mut drop = ground_height + body.contact_height - rest.y;
            if drop.abs() < body.floor() {
                drop = -body.floor();
            }
            (rest, Mat3::from_diagonal(Vec3::new(s.x, drop, s.z)))
        }
        PositionMode::SecondaryRelative | PositionMode::SecondaryDirectional => {
            let uniform = scale_uniform(mode, body);
            let to_target = target.map(|t| t - rest).unwrap_or(Vec3::ZERO);
            let distance = to_target.length();
            let (x, x_len) = match to_target.try_normalize() {
                Some(dir) if distance > 1e-6 * body.size() => {
                    let len = if mode.position == PositionMode::SecondaryDirectional {
                        uniform
                    } else {
                        distance.max(body.floor())
                    };
                    (dir, len)
                }
                // No target (or on top of it): a plain rest-relative frame.
                _ => (Vec3::X, uniform),
            };
            // Keep the frame's y as close to up as the direction allows so an arc keyed
            // "above the line to the target" stays above it on every creature. Up less its
            // part along x, `Y - x x.y`, is found through `x × Y` (length `sqrt(x.x² +
            // x.z²)`, no cancellation): toward a target nearly overhead, `1 - x.y²` lost
            // half a percent of a key's height to rounding.
            let mut side = x.cross(Vec3::Y);
            if side.length_squared() < 1e-6 {
                side = x.cross(Vec3::Z);
            }
            let z = side.normalize_or_zero();
            let y = z.cross(x);
            (rest, Mat3::from_cols(x * x_len, y * uniform, z * uniform))
        }
    }
}

fn rotation_frame(mode: &MovementMode, body: &RestBody, target: Option<Vec3>) -> (Quat, Quat) {
    let rest = body.rest.rotation;
    match mode.rotation {
        RotationMode::Absolute => (Quat::IDENTITY, Quat::IDENTITY),
        RotationMode::RestRelative => (Quat::IDENTITY, rest),
        RotationMode::LookAt => (look_rotation(mode, body, target), rest),
    }
}

/// The turn that aims the body's rest forward at the target, faded by the soft limits.
fn look_rotation(mode: &MovementMode, body: &RestBody, target: Option<Vec3>) -> Quat {
    let Some(target) = target else {
        return Quat::IDENTITY;
    };
    let forward = body.rest.rotation * Vec3::Z;
    let Some(to_target) = (target - body.rest.position).try_normalize() else {
        return Quat::IDENTITY;
    };
    let angle = forward.angle_between(to_target);
    let limits = mode.look_at;
    let effect = 1.0 - smoothstep(limits.full_effect_rad, limits.no_effect_rad, angle);
    if effect <= 0.0 {
        return Quat::IDENTITY;
    }
    let turn = soft_limit(angle * effect, limits.max_turn_rad);
    partial_rotation_arc(
        forward,
        to_target,
        if angle > 1e-6 { turn / angle } else { 0.0 },
    )
}

/// `x` unchanged up to half of `limit`, then easing toward `limit` without reaching it:
/// C1 continuous, so a target sweeping past the limit slows the turn instead of stopping it.
fn soft_limit(x: f32, limit: f32) -> f32 {
    let knee = 0.5 * limit;
    if x <= knee || limit <= 0.0 {
        return x;
    }
    let room = limit - knee;
    limit - room * (-(x - knee) / room).exp()
}
