//! Clips and channels: what an animator authors (paper sections 3 and 4.1).

use crate::curve::{CurveError, Keyable, KeyedCurve, TangentMode};
use crate::movement::{
    MotionFrame, MovementMode, PositionMode, RestBody, RotationMode, Surroundings,
};
use crate::pose::BodyPose;
use crate::query::{ContextQuery, SecondaryContext};
use glam::{Mat3, Quat, Vec3};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use thiserror::Error;

/// How a single-variant channel's body relates in side to the clip's lead variant group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideConstraint {
    /// Any side.
    #[default]
    None,
    /// On the same side of the sagittal plane as the lead group's body.
    Same,
    /// On the other side (a centre body is on neither side, so it never qualifies).
    Opposite,
}

/// How a channel takes part in variants (paper 4.1.2).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VariantSettings {
    /// Play on one selected body at a time; each body makes a variant.
    #[serde(default)]
    pub single: bool,
    /// Single-variant channels with the same group vary together (a grasper and its
    /// shoulder); with no group, a channel is a group of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// For a single-variant channel: which side its body must be on relative to the lead
    /// group's.
    #[serde(default)]
    pub side: SideConstraint,
    /// Mirror the motion on bodies right of the sagittal plane.
    #[serde(default = "yes")]
    pub mirror: bool,
}

fn yes() -> bool {
    true
}

impl Default for VariantSettings {
    fn default() -> Self {
        VariantSettings {
            single: false,
            group: None,
            side: SideConstraint::None,
            mirror: true,
        }
    }
}

/// One animated selection: context, movement mode and keyed curves in generalized space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Channel {
    /// The channel's name, unique in its clip.
    pub name: String,
    /// Which bodies the channel moves: a semantic query ("the graspers on the front left").
    pub context: ContextQuery,
    /// What the motion is relative to, for modes that need a second body or a target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secondary: Option<SecondaryContext>,
    /// How the motion generalizes across creatures (relative to rest, scaled by limb
    /// length, relative to the ground, toward a target…).
    #[serde(default)]
    pub mode: MovementMode,
    /// Channels with the same blend group may share a body's DOF; the first channel (by
    /// priority, then order) to select a body owns that DOF for its group.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub blend_group: String,
    /// Higher priorities claim bodies first.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub priority: i32,
    /// How the channel takes part in variants.
    #[serde(default)]
    pub variant: VariantSettings,
    /// The clip does not bind on a creature where this channel selects nothing.
    #[serde(default, skip_serializing_if = "is_false")]
    pub require: bool,
    /// Left out of playback (an animator's switch; the channel stays in the clip).
    #[serde(default, skip_serializing_if = "is_false")]
    pub muted: bool,
    /// Generalized position `qg`, per the movement mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<KeyedCurve<Vec3>>,
    /// Generalized rotation `qg`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<KeyedCurve<Quat>>,
    /// Blend weight of the position (1 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position_weight: Option<KeyedCurve<f32>>,
    /// Blend weight of the rotation (1 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation_weight: Option<KeyedCurve<f32>>,
    /// Opaque per-body scalar curves (mouth open, eyes closed), passed through to the game.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub deforms: BTreeMap<String, KeyedCurve<f32>>,
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

fn is_false(v: &bool) -> bool {
    !*v
}

impl Channel {
    /// A channel on `context` with the default mode and no curves.
    pub fn new(name: impl Into<String>, context: ContextQuery) -> Self {
        Channel {
            name: name.into(),
            context,
            secondary: None,
            mode: MovementMode::default(),
            blend_group: String::new(),
            priority: 0,
            variant: VariantSettings::default(),
            require: false,
            muted: false,
            position: None,
            rotation: None,
            position_weight: None,
            rotation_weight: None,
            deforms: BTreeMap::new(),
        }
    }

    /// Changes the movement mode and remaps the keys (paper 3.3) so that the active body's
    /// specialized curve is unchanged: `qg_new = G_new(b, S_old(b, qg_old))`. Both maps are
    /// affine, so mapping values and tangents keeps the curve between keys too.
    pub fn remap_mode(
        &mut self,
        new_mode: MovementMode,
        active: &RestBody,
        around: &Surroundings,
        mirrored: bool,
    ) -> Result<(), CurveError> {
        let old = MotionFrame::new(&self.mode, active, around, mirrored);
        let new = MotionFrame::new(&new_mode, active, around, mirrored);
        // Auto-clamped tangents are decided per component (is this key an extremum?), which a
        // map that mixes components does not preserve; such keys keep their current tangents
        // as free ones, carried over exactly. A positive per-axis scale keeps the mode.
        let linear = Mat3::from_cols(
            new.generalize_vector(old.specialize_vector(Vec3::X)),
            new.generalize_vector(old.specialize_vector(Vec3::Y)),
            new.generalize_vector(old.specialize_vector(Vec3::Z)),
        );
        if let Some(c) = &mut self.position
            && !is_positive_diagonal(linear)
        {
            freeze_clamped_tangents(c);
        }
        let rotation_is_identity = [
            Quat::IDENTITY,
            Quat::from_xyzw(1.0, 0.0, 0.0, 0.0),
            Quat::from_xyzw(0.0, 1.0, 0.0, 0.0),
            Quat::from_xyzw(0.0, 0.0, 1.0, 0.0),
        ]
        .iter()
        .all(|&q| {
            new.generalize_rotation_tangent(old.specialize_rotation_tangent(q))
                .abs_diff_eq(q, 1e-6)
        });
        if let Some(c) = &mut self.rotation
            && !rotation_is_identity
        {
            freeze_clamped_tangents(c);
        }
        if let Some(c) = &mut self.position {
            let pose = |p: Vec3| BodyPose::new(p, Quat::IDENTITY);
            c.map(
                |v| new.generalize(old.specialize(pose(v))).position,
                |t| new.generalize_vector(old.specialize_vector(t)),
            )?;
        }
        if let Some(c) = &mut self.rotation {
            let pose = |q: Quat| BodyPose::new(Vec3::ZERO, q);
            c.map(
                |v| new.generalize(old.specialize(pose(v))).rotation,
                |t| new.generalize_rotation_tangent(old.specialize_rotation_tangent(t)),
            )?;
        }
        self.mode = new_mode;
        Ok(())
    }

    fn curves_mut(&mut self) -> impl Iterator<Item = &mut dyn CyclicCurve> {
        let p = self.position.iter_mut().map(|c| c as &mut dyn CyclicCurve);
        let r = self.rotation.iter_mut().map(|c| c as &mut dyn CyclicCurve);
        let pw = self
            .position_weight
            .iter_mut()
            .map(|c| c as &mut dyn CyclicCurve);
        let rw = self
            .rotation_weight
            .iter_mut()
            .map(|c| c as &mut dyn CyclicCurve);
        let d = self.deforms.values_mut().map(|c| c as &mut dyn CyclicCurve);
        p.chain(r).chain(pw).chain(rw).chain(d)
    }
}

fn is_positive_diagonal(m: Mat3) -> bool {
    let off = [
        m.x_axis.y, m.x_axis.z, m.y_axis.x, m.y_axis.z, m.z_axis.x, m.z_axis.y,
    ];
    off.iter()
        .all(|v| v.abs() <= 1e-6 * m.diagonal().abs().max_element().max(1e-12))
        && m.diagonal().cmpgt(Vec3::ZERO).all()
}

/// Turns auto-clamped keys into free keys with the tangents they have now.
fn freeze_clamped_tangents<T: Keyable>(curve: &mut KeyedCurve<T>) {
    for i in 0..curve.len() {
        let k = curve.keys()[i];
        if k.mode == TangentMode::AutoClamped {
            curve.set_tangents(i, k.in_tangent, k.out_tangent, false);
        }
    }
}

/// Lets a clip set the loop period on all its curves whatever their value type.
trait CyclicCurve {
    fn set_period(&mut self, period: Option<f32>);
}

impl<T: Keyable> CyclicCurve for KeyedCurve<T> {
    fn set_period(&mut self, period: Option<f32>) {
        self.set_cyclic(period);
    }
}

/// A three-valued test on a creature (paper 4.1.1). A predicate that is not listed in a clip
/// is ignored; a listed one must evaluate to `expect`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Predicate {
    /// The spine runs more up than along (see [`crate::creature::Upright`]).
    UprightSpine,
    /// Some body has the `grasper` cap.
    HasGraspers,
    /// The creature has at least one leg (a foot on a limb).
    HasFeet,
    /// Some body has this cap.
    HasCap(crate::creature::Cap),
    /// At least `count` bodies have `cap`.
    MinCount {
        /// The cap counted.
        cap: crate::creature::Cap,
        /// The least number of bodies with it.
        count: usize,
    },
}

/// A predicate and the value it must have for the clip to bind (paper 4.1.1: a clip for
/// creatures without graspers lists `HasGraspers` expecting `false`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Branch {
    /// The test on the creature.
    pub predicate: Predicate,
    /// The value the test must give.
    pub expect: bool,
}

/// A visual, sound or data event fired when playback passes its time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClipEvent {
    /// Clip-local time at which it fires, in seconds.
    pub time_secs: f32,
    /// What the game sees (`footstep`, `roar_sound`).
    pub name: String,
    /// The channel whose key the event sits on, for the editor; playback ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// Whatever the game attached to the event, passed through untouched.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub data: serde_json::Value,
}

/// A clip: channels over a duration, with the predicates that say where it binds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Clip {
    /// The clip's name, unique in its project or package.
    pub name: String,
    /// One line saying what the clip is for and how it should generalize.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub intent: String,
    /// Length in seconds.
    pub duration_secs: f32,
    /// The frame rate the animator keyed at (keys sit on frames; playback is continuous).
    #[serde(default = "default_fps")]
    pub fps: f32,
    /// Plays again from the start at its end (a [`crate::player::PlayParams`] can
    /// override it).
    #[serde(default, rename = "loop")]
    pub looping: bool,
    /// The predicates a creature must meet for the clip to bind on it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<Branch>,
    /// Events fired as playback passes their times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<ClipEvent>,
    /// The animated selections.
    pub channels: Vec<Channel>,
}

fn default_fps() -> f32 {
    30.0
}

/// Why a clip is not valid. Messages start with the JSON path of the field.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ClipError {
    /// A field breaks a rule (a duration that is not positive, an event past the end…).
    #[error("{field}: {message}")]
    Invalid {
        /// The JSON path of the field.
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// A channel's curve is not valid.
    #[error("channels[{channel}].{curve}{source}")]
    Curve {
        /// The channel's index.
        channel: usize,
        /// Which curve (`position`, `rotation_weight`, `deforms.mouth_open`…).
        curve: String,
        /// What is wrong with it.
        source: CurveError,
    },
}

impl ClipError {
    fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        ClipError::Invalid {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl Clip {
    /// An empty clip: no channels, 30 fps, not looping.
    pub fn new(name: impl Into<String>, duration_secs: f32) -> Self {
        Clip {
            name: name.into(),
            intent: String::new(),
            duration_secs,
            fps: default_fps(),
            looping: false,
            branches: Vec::new(),
            events: Vec::new(),
            channels: Vec::new(),
        }
    }

    /// Checks what the types cannot, and prepares curves for playback (loop periods).
    pub fn validate(&mut self) -> Result<(), ClipError> {
        if !(self.duration_secs.is_finite() && self.duration_secs > 0.0) {
            return Err(ClipError::invalid(
                "duration_secs",
                format!(
                    "must be a positive number of seconds, found {}",
                    self.duration_secs
                ),
            ));
        }
        if !(self.fps.is_finite() && self.fps > 0.0 && self.fps <= 1000.0) {
            return Err(ClipError::invalid(
                "fps",
                format!(
                    "must be between 0 and 1000 frames per second, found {}",
                    self.fps
                ),
            ));
        }
        for (i, e) in self.events.iter().enumerate() {
            if !(e.time_secs.is_finite() && (0.0..=self.duration_secs).contains(&e.time_secs)) {
                return Err(ClipError::invalid(
                    format!("events[{i}].time_secs"),
                    format!(
                        "{} is outside the clip (0 to {} s)",
                        e.time_secs, self.duration_secs
                    ),
                ));
            }
            if let Some(name) = &e.channel
                && !self.channels.iter().any(|c| &c.name == name)
            {
                return Err(ClipError::invalid(
                    format!("events[{i}].channel"),
                    format!("no channel is named '{name}'"),
                ));
            }
        }
        for (i, c) in self.channels.iter().enumerate() {
            if c.name.trim().is_empty() {
                return Err(ClipError::invalid(
                    format!("channels[{i}].name"),
                    "must not be empty",
                ));
            }
            if self.channels[..i].iter().any(|o| o.name == c.name) {
                return Err(ClipError::invalid(
                    format!("channels[{i}].name"),
                    format!("'{}' is used by another channel", c.name),
                ));
            }
            if c.mode.uses_target() && c.secondary.is_none() {
                return Err(ClipError::invalid(
                    format!("channels[{i}].secondary"),
                    format!(
                        "the movement mode ({}) aims at a target, so the channel needs a secondary context",
                        describe_target_use(&c.mode)
                    ),
                ));
            }
            let limits = c.mode.look_at;
            if !(limits.full_effect_rad.is_finite()
                && limits.no_effect_rad.is_finite()
                && 0.0 <= limits.full_effect_rad
                && limits.full_effect_rad <= limits.no_effect_rad)
            {
                return Err(ClipError::invalid(
                    format!("channels[{i}].mode.look_at"),
                    "needs 0 <= full_effect_rad <= no_effect_rad",
                ));
            }
            if !(limits.max_turn_rad.is_finite() && limits.max_turn_rad > 0.0) {
                return Err(ClipError::invalid(
                    format!("channels[{i}].mode.look_at.max_turn_rad"),
                    "needs a finite turn above 0",
                ));
            }
        }
        let period = self.looping.then_some(self.duration_secs);
        for c in &mut self.channels {
            for curve in c.curves_mut() {
                curve.set_period(period);
            }
        }
        Ok(())
    }

    /// The channel named `name`.
    pub fn channel(&self, name: &str) -> Option<&Channel> {
        self.channels.iter().find(|c| c.name == name)
    }
}

fn describe_target_use(mode: &MovementMode) -> &'static str {
    match (mode.position, mode.rotation) {
        (PositionMode::SecondaryRelative, _) => "secondary-relative position",
        (PositionMode::SecondaryDirectional, _) => "secondary-directional position",
        (_, RotationMode::LookAt) => "look-at rotation",
        _ => "target",
    }
}
