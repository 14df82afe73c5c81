//! Building creatures in code: sample creatures, the random zoo and tests all use this.

use super::{BodyDef, Cap, Creature, CreatureError, Extras, Shape};
use crate::math::{frame_along, mirror_point, mirror_rotation};
use glam::{Quat, Vec3};

/// Accumulates bodies (parents first) and validates them in [`CreatureBuilder::build`].
#[derive(Clone, Debug, Default)]
pub struct CreatureBuilder {
    name: String,
    defs: Vec<BodyDef>,
}

impl CreatureBuilder {
    /// A builder for a creature named `name`, with no bodies yet.
    pub fn new(name: impl Into<String>) -> Self {
        CreatureBuilder {
            name: name.into(),
            defs: Vec::new(),
        }
    }

    /// A capsule spanning a bone from `joint` to `end` with the given radius: its +Y runs
    /// along the bone and its +Z faces the creature's front as far as the bone allows.
    pub fn bone(
        &mut self,
        name: &str,
        parent: Option<&str>,
        caps: &[Cap],
        joint: Vec3,
        end: Vec3,
        radius: f32,
    ) -> &mut Self {
        let len = joint.distance(end);
        self.push(BodyDef {
            name: name.into(),
            parent: parent.map(Into::into),
            caps: caps.to_vec(),
            joint,
            position: (joint + end) * 0.5,
            rotation: frame_along(end - joint, Vec3::Z),
            half_extents: Vec3::new(radius, len * 0.5 + radius, radius),
            shape: Shape::Capsule,
            extra: Extras::new(),
        })
    }

    /// A body with an explicit centre, rotation, half extents and shape.
    #[allow(clippy::too_many_arguments)]
    pub fn body(
        &mut self,
        name: &str,
        parent: Option<&str>,
        caps: &[Cap],
        joint: Vec3,
        position: Vec3,
        rotation: Quat,
        half_extents: Vec3,
        shape: Shape,
    ) -> &mut Self {
        self.push(BodyDef {
            name: name.into(),
            parent: parent.map(Into::into),
            caps: caps.to_vec(),
            joint,
            position,
            rotation,
            half_extents,
            shape,
            extra: Extras::new(),
        })
    }

    /// Adds a body as a file lists it (its parent added before it).
    pub fn push(&mut self, def: BodyDef) -> &mut Self {
        self.defs.push(def);
        self
    }

    /// Adds the mirror image (across `x = 0`) of every body whose name ends in `_l`, named
    /// `_r`; parents ending in `_l` are mirrored too. Build one side, then call this.
    pub fn mirror_left(&mut self) -> &mut Self {
        let right = |name: &str| match name.strip_suffix("_l") {
            Some(stem) => format!("{stem}_r"),
            None => name.to_string(),
        };
        let mirrored: Vec<BodyDef> = self
            .defs
            .iter()
            .filter(|d| d.name.ends_with("_l"))
            .map(|d| BodyDef {
                name: right(&d.name),
                parent: d.parent.as_deref().map(right),
                caps: d.caps.clone(),
                joint: mirror_point(d.joint),
                position: mirror_point(d.position),
                rotation: mirror_rotation(d.rotation),
                half_extents: d.half_extents,
                shape: d.shape,
                extra: d.extra.clone(),
            })
            .collect();
        self.defs.extend(mirrored);
        self
    }

    /// The bodies added so far.
    pub fn defs(&self) -> &[BodyDef] {
        &self.defs
    }

    /// Validates the bodies and derives the creature (see [`Creature::new`]).
    pub fn build(&self) -> Result<Creature, CreatureError> {
        Creature::new(self.name.clone(), self.defs.clone())
    }
}
