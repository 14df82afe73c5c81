//! Poses and goals: what channels produce and what IK consumes.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

/// A body's position (its centre) and rotation in character space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BodyPose {
    /// The body's centre, in metres.
    pub position: Vec3,
    /// The body's orientation (its rest rotation turned by however it moved).
    pub rotation: Quat,
}

impl BodyPose {
    /// At the origin, not turned.
    pub const IDENTITY: BodyPose = BodyPose {
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    };

    /// A pose from its parts.
    pub fn new(position: Vec3, rotation: Quat) -> Self {
        BodyPose { position, rotation }
    }

    /// Every component is a finite number (the runtime never returns a pose that is not).
    pub fn is_finite(&self) -> bool {
        self.position.is_finite() && self.rotation.is_finite()
    }
}
