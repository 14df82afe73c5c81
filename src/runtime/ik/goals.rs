//! Per-frame goal preparation (paper 4.3.1): the forward-kinematic root, and every 6-DOF
//! body goal turned into a 3-DOF goal at its joint (delegated goals at their spine
//! parent's joint), blended from the root-relative rest pose by the goal weights.

use super::constraint::arc;
use super::plan::Plan;
use super::setup::{NONE, Rig};
use crate::runtime::eval::Goals;
use glam::{Quat, Vec3A};

/// The root's pose and the root-relative rest transform it defines: every other body
/// starts where the rest pose puts it when the root is moved here (the preconditioner).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct RootPose {
    pub position: Vec3A,
    pub rotation: Quat,
    /// Posed rotation times inverse rest rotation.
    pub delta: Quat,
    pub rest_centre: Vec3A,
}

impl RootPose {
    /// The root's goal blended from its rest pose by the goal weights, or its rest pose.
    pub fn new(rig: &Rig, goals: &Goals) -> RootPose {
        let r = rig.root as usize;
        let mut position = rig.centre[r];
        let mut rotation = rig.rotation[r];
        if let Some((p, w)) = goals.position(r) {
            position = position.lerp(p.into(), w);
        }
        if let Some((q, w)) = goals.rotation(r) {
            rotation = if w >= 1.0 { q } else { rotation.slerp(q, w) }.normalize();
        }
        RootPose {
            position,
            rotation,
            delta: (rotation * rig.inv_rotation[r]).normalize(),
            rest_centre: rig.centre[r],
        }
    }

    /// A rest-pose point carried along with the root.
    #[inline]
    pub fn point(&self, rest: Vec3A) -> Vec3A {
        self.position + self.delta * (rest - self.rest_centre)
    }
}

/// This frame's goals per target body, indexed by body. Only the plan's targets are
/// written; weights are 0 elsewhere.
#[derive(Clone, Debug, Default)]
pub(super) struct FrameGoals {
    /// Where the target's joint should go, blended from its root-relative rest position.
    pub joint: Vec<Vec3A>,
    /// Where its centre should go, blended the same way.
    pub centre: Vec<Vec3A>,
    pub position_weight: Vec<f32>,
    /// The (averaged) rotation goal and its weight.
    pub rotation: Vec<Quat>,
    pub rotation_weight: Vec<f32>,
    /// The rotation that carried the centre goal to the joint: the rotation goal blended
    /// into the root-relative rest rotation. A goal body with no IK below it ends with it.
    pub rotation_used: Vec<Quat>,
    /// Per target of the plan (in [`Plan::targets`] order), the weighted sums of its
    /// sources' goals: scratch of [`FrameGoals::prepare`], a few entries, not one per body.
    joint_sum: Vec<Vec3A>,
    centre_sum: Vec<Vec3A>,
    rotation_sum: Vec<Quat>,
}

impl FrameGoals {
    pub fn prepare(&mut self, plan: &Plan, rig: &Rig, goals: &Goals, root: &RootPose) {
        let n = rig.len();
        // Grown for the largest creature the thread has solved, never shrunk: only this
        // plan's targets are written, and the plan reads only them (stale values of another
        // goal mask's, or another creature's, targets are never looked at).
        if self.joint.len() < n {
            self.joint.resize(n, Vec3A::ZERO);
            self.centre.resize(n, Vec3A::ZERO);
            self.position_weight.resize(n, 0.0);
            self.rotation.resize(n, Quat::IDENTITY);
            self.rotation_weight.resize(n, 0.0);
            self.rotation_used.resize(n, Quat::IDENTITY);
        }
        let slots = plan.targets.len();
        self.joint_sum.clear();
        self.joint_sum.resize(slots, Vec3A::ZERO);
        self.centre_sum.clear();
        self.centre_sum.resize(slots, Vec3A::ZERO);
        self.rotation_sum.clear();
        self.rotation_sum
            .resize(slots, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0));
        for &t in &plan.targets {
            self.position_weight[t as usize] = 0.0;
            self.rotation_weight[t as usize] = 0.0;
        }
        // Rotations first: they carry the position goals to the joints.
        for s in plan.sources.iter().filter(|s| s.rotation) {
            let (b, t, k) = (s.body as usize, s.target as usize, s.slot as usize);
            let Some((q, w)) = goals.rotation(b) else {
                continue;
            };
            let q = q * s.source_to_target;
            let sum = self.rotation_sum[k];
            let q = if sum.dot(q) < 0.0 { -q } else { q };
            self.rotation_sum[k] = sum + q * w;
            self.rotation_weight[t] += w;
        }
        for (k, &t) in plan.targets.iter().enumerate() {
            let t = t as usize;
            let rest = || (root.delta * rig.rotation[t]).normalize();
            let w = self.rotation_weight[t].min(1.0);
            let len = if w > 0.0 {
                self.rotation_sum[k].length()
            } else {
                0.0
            };
            if w > 0.0 && len > 1e-12 && len.is_finite() {
                let goal = self.rotation_sum[k] * len.recip();
                self.rotation[t] = goal;
                self.rotation_weight[t] = w;
                self.rotation_used[t] = if w >= 1.0 {
                    goal
                } else {
                    rest().slerp(goal, w).normalize()
                };
            } else {
                self.rotation_weight[t] = 0.0;
                self.rotation_used[t] = rest();
            }
        }
        for s in plan.sources.iter().filter(|s| s.position) {
            let (b, t, k) = (s.body as usize, s.target as usize, s.slot as usize);
            let Some((c, w)) = goals.position(b) else {
                continue;
            };
            let c = Vec3A::from(c);
            self.centre_sum[k] += c * w;
            self.position_weight[t] += w;
        }
        // A limb body sent somewhere with no rotation of its own turns with its limb: the
        // hand of an arm reaching across the body points across too, rather than keeping
        // its rest direction and putting its wrist out of reach. A spine body on the root
        // turns about its own joint, which the root carries: it has no other way toward its
        // goal (a floater's crown breathing on its bell).
        for (k, &t) in plan.targets.iter().enumerate() {
            let t = t as usize;
            let (total, pivot) = (self.position_weight[t], plan.turn_about[k]);
            if self.rotation_weight[t] > 0.0 || total <= 0.0 || pivot == NONE {
                continue;
            }
            let pivot = pivot as usize;
            let shoulder = root.point(rig.pivot[pivot]);
            // The goal is the sources' centres averaged; so is the rest it is turned from (a
            // head's goal averages in its delegating mouth's).
            let rest_centre = if pivot == t {
                let (mut sum, mut weight) = (Vec3A::ZERO, 0.0);
                for s in plan
                    .sources
                    .iter()
                    .filter(|s| s.position && s.target as usize == t)
                {
                    if let Some((_, w)) = goals.position(s.body as usize) {
                        sum += root.point(rig.centre[s.body as usize]) * w;
                        weight += w;
                    }
                }
                sum / weight
            } else {
                root.point(rig.centre[t])
            };
            let goal = rest_centre.lerp(self.centre_sum[k] / total, total.min(1.0));
            let turn = arc(rest_centre - shoulder, goal - shoulder);
            self.rotation_used[t] = (turn * self.rotation_used[t]).normalize();
        }
        for s in plan.sources.iter().filter(|s| s.position) {
            let (b, t, k) = (s.body as usize, s.target as usize, s.slot as usize);
            let Some((c, w)) = goals.position(b) else {
                continue;
            };
            let c = Vec3A::from(c);
            self.joint_sum[k] += (c - self.rotation_used[t] * s.centre_in_target) * w;
        }
        for (k, &t) in plan.targets.iter().enumerate() {
            let t = t as usize;
            let total = self.position_weight[t];
            if total > 0.0 {
                let w = total.min(1.0);
                let inv = total.recip();
                let (joint, centre) = (self.joint_sum[k] * inv, self.centre_sum[k] * inv);
                // At full weight the blend is the goal (`lerp` at 1 gives it exactly).
                (self.joint[t], self.centre[t]) = if w >= 1.0 {
                    (joint, centre)
                } else {
                    (
                        root.point(rig.pivot[t]).lerp(joint, w),
                        root.point(rig.centre[t]).lerp(centre, w),
                    )
                };
                self.position_weight[t] = w;
            }
        }
    }
}
