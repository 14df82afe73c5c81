//! The solver's debug record: what the editor draws over the viewport.

use crate::runtime::creature::BodyId;
use glam::Vec3;

/// The two phases of the solver (paper 4.3.2 and 4.3.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IkPhase {
    #[default]
    Spine,
    Limb,
}

/// A particle at the end of a solve, in character space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DebugParticle {
    pub position: Vec3,
    /// The body whose joint the particle stands for.
    pub body: BodyId,
    pub phase: IkPhase,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ConstraintKind {
    /// Between two particles along the skeleton.
    #[default]
    Bone,
    /// A whole limb simplified to one constraint to the spine (spine phase).
    SimplifiedLimb,
    /// Between sibling IK children, keeping their relative placement.
    Cross,
    /// From a spine particle to its root-relative rest position (anti-buckling).
    AntiBuckling,
}

/// A length constraint between two particles (indices into [`IkDebug::particles`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DebugConstraint {
    pub a: usize,
    pub b: usize,
    pub rest_length: f32,
    /// The length at the end of the solve.
    pub length: f32,
    pub kind: ConstraintKind,
    pub phase: IkPhase,
}

/// What one solve did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IkDebug {
    pub particles: Vec<DebugParticle>,
    pub constraints: Vec<DebugConstraint>,
    /// Largest remaining goal error after each phase (spine, limb), metres.
    pub phase_error: [f32; 2],
    /// Constraint iterations run in each phase (spine, limb).
    pub iterations: [u32; 2],
    /// How much of the root-relative rest pose anti-buckling blended into the spine (0..1).
    pub buckling_weight: f32,
}
