//! Poses and goals: what channels produce and what IK consumes.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

/// A body's position (its centre) and rotation in character space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BodyPose {
    pub position: Vec3,
    pub rotation: Quat,
}

impl BodyPose {
    pub const IDENTITY: BodyPose = BodyPose {
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    };

    pub fn new(position: Vec3, rotation: Quat) -> Self {
        BodyPose { position, rotation }
    }

    pub fn is_finite(&self) -> bool {
        self.position.is_finite() && self.rotation.is_finite()
    }
}
