//! The particle IK solver (paper section 4.3): goals in, body poses out.

mod debug;

pub use debug::{ConstraintKind, DebugConstraint, DebugParticle, IkDebug, IkPhase};

use crate::runtime::creature::Creature;
use crate::runtime::eval::{Goals, pose_by_forward_kinematics};
use crate::runtime::pose::BodyPose;

/// Solves a creature's goals into body poses. Built once per creature; `solve` reuses its
/// buffers, so a frame allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct IkSolver {
    debug: IkDebug,
}

impl IkSolver {
    pub fn new(_creature: &Creature) -> Self {
        IkSolver::default()
    }

    /// Character-space poses of every body that best meet `goals`. Until the particle solver
    /// lands this is forward kinematics from the rest pose with goal bodies pulled onto their
    /// goals.
    pub fn solve(&mut self, creature: &Creature, goals: &Goals, out: &mut Vec<BodyPose>) {
        pose_by_forward_kinematics(creature, goals, out);
    }

    /// What the last solve did, for the editor's overlays and for tests.
    pub fn debug(&self) -> &IkDebug {
        &self.debug
    }
}
