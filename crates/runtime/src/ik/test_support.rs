//! What the solver's unit tests share: a plan for goals on chosen bodies, and "the same
//! number" for comparing the four-at-a-time lanes with the one-at-a-time code.

use super::IkTuning;
use super::plan::{Plan, goal_key};
use super::setup::Rig;
use crate::creature::{Cap, Creature};
use crate::eval::Goals;

/// The creature's rig and the plan for position goals (and rotation goals, with
/// `rotations`) on the bodies with any of `caps`, each at its rest pose.
pub(super) fn plan_sending(creature: &Creature, caps: &[Cap], rotations: bool) -> (Rig, Plan) {
    let tuning = IkTuning::default();
    let rig = Rig::new(creature, &tuning);
    let mut goals = Goals::new(creature.len());
    for (b, body) in creature.bodies().iter().enumerate() {
        if caps.iter().any(|c| body.has_cap(c)) {
            goals.set_position(b, body.position, 1.0);
            if rotations {
                goals.set_rotation(b, body.rotation, 1.0);
            }
        }
    }
    let mut key = Vec::new();
    goal_key(&rig, &goals, &mut key);
    let plan = Plan::build(creature, &rig, &tuning, &key);
    (rig, plan)
}

/// The same numbers: to the bit where glam does not fuse multiplies and adds (the
/// lanes never do), else to rounding.
pub(super) fn same(a: &[f32], b: &[f32]) -> bool {
    a.iter().zip(b).all(|(x, y)| {
        if cfg!(target_feature = "fma") {
            (x - y).abs() <= 1e-5 * (1.0 + y.abs())
        } else {
            x.to_bits() == y.to_bits()
        }
    })
}
