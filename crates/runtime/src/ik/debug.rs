//! The solver's debug record: what the editor draws over the viewport.

use super::goals::FrameGoals;
use super::limb::LimbPlan;
use super::setup::NONE;
use super::spine::SpinePlan;
use crate::creature::BodyId;
use glam::{Vec3, Vec3A};

/// The two phases of the solver (paper 4.3.2 and 4.3.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IkPhase {
    /// The spine solved with each limb simplified to one constraint to its goal.
    #[default]
    Spine,
    /// Each limb solved from its spine body, once the spine is placed.
    Limb,
}

/// A particle at the end of a solve, in character space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DebugParticle {
    /// Where the particle ended, character space (m).
    pub position: Vec3,
    /// The body whose joint the particle stands for.
    pub body: BodyId,
    /// The phase the particle belongs to (a body can have a particle in each).
    pub phase: IkPhase,
}

/// What a [`DebugConstraint`] holds together.
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
    /// One end (the rootward one of a bone).
    pub a: usize,
    /// The other end: for a simplified limb its goal, for anti-buckling the rest position
    /// the particle is pulled toward.
    pub b: usize,
    /// The longest the constraint allows, m: a bone's rest length, a simplified limb's
    /// reach; 0 for anti-buckling.
    pub rest_length: f32,
    /// The length at the end of the solve.
    pub length: f32,
    /// What the constraint stands for.
    pub kind: ConstraintKind,
    /// The phase that enforced it.
    pub phase: IkPhase,
}

/// What one solve did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IkDebug {
    /// Every particle of both phases: the spine phase's first, then the limb phase's.
    pub particles: Vec<DebugParticle>,
    /// Every constraint of both phases, indexing into `particles`.
    pub constraints: Vec<DebugConstraint>,
    /// Largest remaining goal error after each phase (spine, limb), metres.
    pub phase_error: [f32; 2],
    /// Constraint iterations run in each phase (spine, limb).
    pub iterations: [u32; 2],
    /// How much of the root-relative rest pose anti-buckling blended into the spine (0..1).
    pub buckling_weight: f32,
}

/// What a solve hands the debug record.
pub(super) struct Solved<'a> {
    pub spine: &'a SpinePlan,
    pub limbs: &'a LimbPlan,
    pub goals: &'a FrameGoals,
    /// After reconstruction's projection: where the bodies' joints went.
    pub spine_particles: &'a [Vec3A],
    pub limb_particles: &'a [Vec3A],
    pub anti_buckling_rest: &'a [Vec3A],
    pub passes: [u32; 2],
    pub buckling: f32,
}

/// Refills `debug` from a solve, reusing its storage.
pub(super) fn record(debug: &mut IkDebug, s: Solved) {
    debug.particles.clear();
    debug.constraints.clear();
    let spine_count = s.spine.particles.len();
    let mut spine_error = 0.0f32;
    for (i, &p) in s.spine_particles.iter().enumerate() {
        let body = match s.spine.particles.get(i) {
            Some(q) => {
                if q.goal_body != NONE {
                    spine_error = spine_error.max(p.distance(s.goals.joint[q.goal_body as usize]));
                }
                q.body
            }
            None => s.spine.goal_slots[i - spine_count],
        };
        push_particle(debug, p, body as usize, IkPhase::Spine);
    }
    for c in &s.spine.constraints {
        let kind = if c.b as usize >= spine_count {
            ConstraintKind::SimplifiedLimb
        } else {
            ConstraintKind::Bone
        };
        let (a, b) = (
            s.spine_particles[c.a as usize],
            s.spine_particles[c.b as usize],
        );
        let length = a.distance(b);
        if kind == ConstraintKind::SimplifiedLimb {
            spine_error = spine_error.max(length - length.clamp(c.min_len, c.max_len));
        }
        debug.constraints.push(DebugConstraint {
            a: c.a as usize,
            b: c.b as usize,
            rest_length: c.max_len,
            length,
            kind,
            phase: IkPhase::Spine,
        });
    }
    if s.buckling > 0.0 {
        for &i in &s.spine.free {
            let i = i as usize;
            let Some(&rest) = s.anti_buckling_rest.get(i) else {
                continue;
            };
            let at = debug.particles.len();
            push_particle(
                debug,
                rest,
                s.spine.particles[i].body as usize,
                IkPhase::Spine,
            );
            debug.constraints.push(DebugConstraint {
                a: i,
                b: at,
                rest_length: 0.0,
                length: rest.distance(s.spine_particles[i]),
                kind: ConstraintKind::AntiBuckling,
                phase: IkPhase::Spine,
            });
        }
    }
    let offset = debug.particles.len();
    let mut limb_error = 0.0f32;
    for (q, &p) in s.limb_particles.iter().enumerate() {
        let particle = s.limbs.particles[q];
        if particle.goal_body != NONE {
            limb_error = limb_error.max(p.distance(s.goals.joint[particle.goal_body as usize]));
        }
        push_particle(debug, p, particle.body as usize, IkPhase::Limb);
    }
    for c in &s.limbs.constraints {
        let kind = if s.limbs.particles[c.b as usize].parent == c.a {
            ConstraintKind::Bone
        } else {
            ConstraintKind::Cross
        };
        debug.constraints.push(DebugConstraint {
            a: offset + c.a as usize,
            b: offset + c.b as usize,
            rest_length: c.max_len,
            length: s.limb_particles[c.a as usize].distance(s.limb_particles[c.b as usize]),
            kind,
            phase: IkPhase::Limb,
        });
    }
    debug.phase_error = [spine_error, limb_error];
    debug.iterations = s.passes;
    debug.buckling_weight = s.buckling;
}

fn push_particle(debug: &mut IkDebug, p: Vec3A, body: BodyId, phase: IkPhase) {
    debug.particles.push(DebugParticle {
        position: p.into(),
        body,
        phase,
    });
}
