//! Per-frame goal preparation (paper 4.3.1): the forward-kinematic root, and every 6-DOF
//! body goal turned into a 3-DOF goal at its joint (delegated goals at their spine
//! parent's joint), blended from the root-relative rest pose by the goal weights.

use super::constraint::{arc, frame_of, hinge_point};
use super::limb::Anchor;
use super::plan::Plan;
use super::setup::{NONE, Rig};
use crate::eval::Goals;
use crate::math::{rotate, smoothstep};

/// How far beyond its reach a turned body's joint may be left, as a share of the reach
/// (see `FrameGoals::reachable_joints`).
const REACH_SLACK: f32 = 0.005;

use glam::{Quat, Vec3A};

/// The empty sum of rotation goals.
const NO_ROTATION: Quat = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);

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
    /// Goal body and trunk body pairs the body is sent to touch ([`Goals::touch`]): the
    /// touched body, the one carrying it and those it carries. Usually none.
    pub touching: Vec<(u32, u32)>,
    /// Per target of the plan (in [`Plan::targets`] order), the weighted sums of its
    /// sources' goals: scratch of [`FrameGoals::prepare`], a few entries, not one per body.
    joint_sum: Vec<Vec3A>,
    centre_sum: Vec<Vec3A>,
    rotation_sum: Vec<Quat>,
}

impl FrameGoals {
    pub fn prepare(&mut self, plan: &Plan, rig: &Rig, goals: &Goals, root: &RootPose) {
        self.grow(rig.len());
        if plan.sole_sources {
            self.prepare_sole(plan, rig, goals, root);
        } else {
            self.prepare_shared(plan, rig, goals, root);
        }
        if plan.limbs.turned_pins {
            self.reachable_joints(plan, root);
        }
        self.touching.clear();
        if !goals.any_touch() {
            return;
        }
        for b in 0..goals.len().min(rig.len()) {
            let Some(c) = goals.touch(b).filter(|&c| c < rig.len()) else {
                continue;
            };
            let carries =
                |s: usize| std::iter::successors(Some(s), |&x| rig.parent_of(x)).any(|x| x == c);
            for s in (0..rig.len()).filter(|&s| rig.spine[s]) {
                if Some(s) == rig.parent_of(c) || carries(s) {
                    self.touching.push((b as u32, s as u32));
                }
            }
        }
    }

    /// A limb body sent somewhere with no rotation of its own takes the turn its limb
    /// takes toward the goal (see [`FrameGoals::turn_toward_position`]), and that turn puts
    /// its joint goal. Where the limb bends otherwise, the turn can put the joint out of the
    /// limb's reach though the body's centre is well within it: a wing tip or a foot whose
    /// centre lies off its joint, sent where its limb bends at rest, missed by up to 24 % of
    /// the limb's length (3 % of such goal sets on the zoo). Any turn of the body about its
    /// centre goal is as good a way to get there, so the body turns about its centre goal,
    /// as little as it must, until its joint is where the limb can hold it: within the
    /// farthest its bones reach from what it hangs from (at rest relative to the root; with
    /// their stretch, for a limb's only goal), and no nearer than they allow.
    ///
    /// Measured from the body lying in line with the limb (its joint toward what the limb
    /// hangs from), the turns that keep the joint within reach are a cone, and a body
    /// outside it goes to its edge. Near full reach the cone closes as the square root of
    /// how far inside the reach the centre goal is, so a goal moving the last centimetre to
    /// the edge of reach swings the body (and the limb) through the whole of its turn: clips
    /// reaching for targets jittered on 20 % of the broad zoo's cells (the grid's jitter
    /// check). The cone is therefore taken for a reach [`REACH_SLACK`] longer: at the edge
    /// of the true reach it is still open (about the square root of the slack), the body
    /// turns there at a bounded rate, and the joint it leaves beyond reach costs at most
    /// that slack of the limb's length. Beyond reach the body turns no farther than at the
    /// edge, easing back to its own turn over half the limb's reach farther out. A joint
    /// within reach is never moved, so rest goals give the rest pose.
    fn reachable_joints(&mut self, plan: &Plan, root: &RootPose) {
        let limbs = &plan.limbs;
        for (k, (&q, &(anchor, reach))) in limbs.pinned.iter().zip(&limbs.reach).enumerate() {
            let t = limbs.particles[q as usize].goal_body as usize;
            if self.rotation_weight[t] > 0.0 || self.position_weight[t] <= 0.0 {
                continue;
            }
            let from = match anchor {
                Anchor::Pin(i) => {
                    let pin = limbs.pinned[i as usize] as usize;
                    self.joint[limbs.particles[pin].goal_body as usize]
                }
                Anchor::Attachment(a) => root.point(limbs.particles[a as usize].rest),
            };
            let (joint, centre) = (self.joint[t], self.centre[t]);
            let radius = centre.distance(joint);
            let apart = centre.distance(from);
            if !(radius > 0.0 && apart > 0.0) {
                continue;
            }
            // A limb's only goal is reached by stretching its bones up to their limit.
            let reach = if limbs.single_pin[k] {
                reach * limbs.max_stretch
            } else {
                reach
            };
            let at = if joint.distance(from) < limbs.near[k] {
                // Nearer than a one-bone path can fold: the nearest point it can hold. A
                // centre goal so near `from` that every turn leaves the joint too near takes
                // the farthest turn, straight away from `from`: where the circle of holdable
                // points shrinks to as the centre comes in. Left where it was, the joint
                // jumped across the hand as that circle appeared (a clapping hand at its
                // shoulder moved 11 cm for a goal moved 0.15 mm).
                let (at, met) = hinge_point(from, centre, limbs.near[k], radius, joint);
                if met {
                    at
                } else {
                    centre + (centre - from) * (radius / apart)
                }
            } else {
                // Turns are measured from the body lying in line, its joint toward `from`.
                let toward = (from - centre) / apart;
                let now = (joint - centre) / radius;
                let angle = now.dot(toward).clamp(-1.0, 1.0).acos();
                let edge = reach + radius;
                // The turns that keep the joint within reach (and a little beyond): a cone
                // about the in-line direction.
                let cone_at = |apart: f32| {
                    let far = reach * (1.0 + REACH_SLACK);
                    ((apart * apart + radius * radius - far * far) / (2.0 * apart * radius))
                        .clamp(-1.0, 1.0)
                        .acos()
                };
                let allowed = if apart + radius <= reach {
                    continue;
                } else if apart <= edge {
                    let cone = cone_at(apart);
                    if angle <= cone {
                        continue;
                    }
                    cone
                } else {
                    // Out of reach: as near in line as at the edge, easing back to its own
                    // turn farther out.
                    let near = angle.min(cone_at(edge));
                    near + (angle - near) * smoothstep(edge, edge + 0.5 * reach, apart)
                };
                if allowed >= angle {
                    continue;
                }
                let side = (now - toward * now.dot(toward))
                    .try_normalize()
                    .unwrap_or_else(|| toward.any_orthonormal_vector());
                centre + (toward * allowed.cos() + side * allowed.sin()) * radius
            };
            if !at.is_finite() {
                continue;
            }
            let turn = arc(joint - centre, at - centre);
            self.joint[t] = at;
            self.rotation_used[t] = (turn * self.rotation_used[t]).normalize();
        }
    }

    fn grow(&mut self, n: usize) {
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
    }

    /// Every target has one source (no mouth delegating to a head with a goal of its own,
    /// the usual case): each target is finished in one go from its source's goals, rather
    /// than summed over all sources in a pass per step. The sums start from zero as in
    /// [`FrameGoals::prepare_shared`], so both give the same goals to the bit.
    fn prepare_sole(&mut self, plan: &Plan, rig: &Rig, goals: &Goals, root: &RootPose) {
        for (k, (s, &pivot)) in plan.sources.iter().zip(&plan.turn_about).enumerate() {
            let (b, t) = (s.body as usize, s.target as usize);
            let (rotation_sum, rotation_weight) = match goals.rotation(b).filter(|_| s.rotation) {
                Some((q, w)) => (NO_ROTATION + q * s.source_to_target * w, 0.0 + w),
                None => (NO_ROTATION, 0.0),
            };
            self.finish_rotation(t, rotation_sum, rotation_weight, rig, root);
            let Some((c, w)) = goals.position(b).filter(|_| s.position) else {
                self.position_weight[t] = 0.0;
                continue;
            };
            let c = Vec3A::from(c);
            let (centre_sum, total) = (Vec3A::ZERO + c * w, 0.0 + w);
            let partner = partner_goal(plan.turn_with[k], rig, goals, root);
            self.turn_toward_position(t, pivot, centre_sum, total, rig, root, partner, || {
                (Vec3A::ZERO + root.point(rig.centre[b]) * w) / (0.0 + w)
            });
            let joint_sum =
                Vec3A::ZERO + (c - rotate(self.rotation_used[t], s.centre_in_target)) * w;
            self.finish_position(t, joint_sum, centre_sum, total, rig, root);
        }
    }

    /// Several sources share a target (a mouth delegating to the head): their goals are
    /// summed by weight per target before each target is finished.
    fn prepare_shared(&mut self, plan: &Plan, rig: &Rig, goals: &Goals, root: &RootPose) {
        let slots = plan.targets.len();
        self.joint_sum.clear();
        self.joint_sum.resize(slots, Vec3A::ZERO);
        self.centre_sum.clear();
        self.centre_sum.resize(slots, Vec3A::ZERO);
        self.rotation_sum.clear();
        self.rotation_sum.resize(slots, NO_ROTATION);
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
            self.finish_rotation(t, self.rotation_sum[k], self.rotation_weight[t], rig, root);
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
        for (k, (&t, &pivot)) in plan.targets.iter().zip(&plan.turn_about).enumerate() {
            let t = t as usize;
            // The goal is the sources' centres averaged; so is the rest it is turned from (a
            // head's goal averages in its delegating mouth's).
            let rest_centre = || {
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
            };
            let (centre_sum, total) = (self.centre_sum[k], self.position_weight[t]);
            let partner = partner_goal(plan.turn_with[k], rig, goals, root);
            self.turn_toward_position(t, pivot, centre_sum, total, rig, root, partner, rest_centre);
        }
        for s in plan.sources.iter().filter(|s| s.position) {
            let (b, t, k) = (s.body as usize, s.target as usize, s.slot as usize);
            let Some((c, w)) = goals.position(b) else {
                continue;
            };
            let c = Vec3A::from(c);
            self.joint_sum[k] += (c - rotate(self.rotation_used[t], s.centre_in_target)) * w;
        }
        for (k, &t) in plan.targets.iter().enumerate() {
            let t = t as usize;
            let total = self.position_weight[t];
            self.finish_position(t, self.joint_sum[k], self.centre_sum[k], total, rig, root);
        }
    }

    /// The target's rotation goal from its sources' weighted sum, and the rotation that
    /// carries its centre goal to its joint.
    #[inline(always)]
    fn finish_rotation(&mut self, t: usize, sum: Quat, weight: f32, rig: &Rig, root: &RootPose) {
        let rest = || (root.delta * rig.rotation[t]).normalize();
        let w = weight.min(1.0);
        let len = if w > 0.0 { sum.length() } else { 0.0 };
        if w > 0.0 && len > 1e-12 && len.is_finite() {
            let goal = sum * len.recip();
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

    /// A limb body sent somewhere with no rotation of its own turns with its limb: the
    /// hand of an arm reaching across the body points across too, rather than keeping its
    /// rest direction and putting its wrist out of reach. A spine body on the root turns
    /// about its own joint, which the root carries: it has no other way toward its goal (a
    /// floater's crown breathing on its bell). `own_rest_centre` is the rest centre of the
    /// target's sources, averaged as their goals are.
    ///
    /// Two ends of one limb sent somewhere this way (a forked leg's two feet) turn as one:
    /// by the turn that carries the pair of their rest directions from the shoulder onto
    /// the pair of directions to their goals. Each turned by its own least arc, the two
    /// feet's joints were put where no knee joins them (a forked leg missed by up to 11 %
    /// of its length). `partner`: the other end's rest centre and goal, blended by weight.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn turn_toward_position(
        &mut self,
        t: usize,
        pivot: u32,
        centre_sum: Vec3A,
        total: f32,
        rig: &Rig,
        root: &RootPose,
        partner: Option<(Vec3A, Vec3A)>,
        own_rest_centre: impl FnOnce() -> Vec3A,
    ) {
        if self.rotation_weight[t] > 0.0 || total <= 0.0 || pivot == NONE {
            return;
        }
        let pivot = pivot as usize;
        let shoulder = root.point(rig.pivot[pivot]);
        let rest_centre = if pivot == t {
            own_rest_centre()
        } else {
            root.point(rig.centre[t])
        };
        let goal = rest_centre.lerp(centre_sum / total, total.min(1.0));
        let (from, to) = (rest_centre - shoulder, goal - shoulder);
        let paired = partner.and_then(|(rest, at)| {
            let rest_frame = frame_of(from, rest - shoulder)?;
            Some(frame_of(to, at - shoulder)? * rest_frame.conjugate())
        });
        let turn = paired.unwrap_or_else(|| arc(from, to));
        self.rotation_used[t] = (turn * self.rotation_used[t]).normalize();
    }

    /// The target's joint and centre goals from its sources' weighted sums, blended from
    /// the root-relative rest pose by their total weight.
    #[inline(always)]
    fn finish_position(
        &mut self,
        t: usize,
        joint_sum: Vec3A,
        centre_sum: Vec3A,
        total: f32,
        rig: &Rig,
        root: &RootPose,
    ) {
        self.position_weight[t] = total;
        if total > 0.0 {
            let w = total.min(1.0);
            let inv = total.recip();
            let (joint, centre) = (joint_sum * inv, centre_sum * inv);
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

/// The rest centre and the (weight-blended) centre goal of a target another turns with, or
/// `None` for `NONE` or a target without a position goal this frame.
#[inline(always)]
fn partner_goal(partner: u32, rig: &Rig, goals: &Goals, root: &RootPose) -> Option<(Vec3A, Vec3A)> {
    if partner == NONE {
        return None;
    }
    let p = partner as usize;
    let (at, w) = goals.position(p)?;
    let rest = root.point(rig.centre[p]);
    Some((rest, rest.lerp(Vec3A::from(at), w.min(1.0))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ik::IkTuning;
    use crate::ik::plan::goal_key;
    use glam::Vec3;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The one-source shortcut prepares what the summing passes prepare, to the bit: for
    /// random goals on random bodies of every sample creature, at full and partial
    /// weights, with rotation goals and without (so a body turns toward its position goal).
    #[test]
    fn a_sole_source_prepares_the_goals_the_sums_prepare() {
        let tuning = IkTuning::default();
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let (mut sole, mut turned, mut partial) = (0, 0, 0);
        for creature in crate::test_samples::creatures().unwrap() {
            let rig = Rig::new(&creature, &tuning);
            for _ in 0..60 {
                let mut goals = Goals::new(creature.len());
                let weight = |rng: &mut ChaCha8Rng| {
                    if rng.random_bool(0.5) {
                        1.0
                    } else {
                        rng.random_range(0.05..1.0)
                    }
                };
                for (b, body) in creature.bodies().iter().enumerate() {
                    let jiggle = Vec3::new(rng.random(), rng.random(), rng.random()) - 0.5;
                    if rng.random_bool(0.3) {
                        let w = weight(&mut rng);
                        goals.set_position(b, body.position + jiggle * creature.size() * 0.3, w);
                    }
                    if rng.random_bool(0.3) {
                        let turn = Quat::from_axis_angle(
                            jiggle.normalize_or(Vec3::X),
                            rng.random_range(-1.5..1.5),
                        );
                        let w = weight(&mut rng);
                        goals.set_rotation(b, turn * body.rotation, w);
                    }
                }
                let mut key = Vec::new();
                goal_key(&rig, &goals, &mut key);
                let plan = Plan::build(&creature, &rig, &tuning, &key);
                if !plan.sole_sources {
                    continue;
                }
                sole += 1;
                let root = RootPose::new(&rig, &goals);
                let (mut shortcut, mut summed) = (FrameGoals::default(), FrameGoals::default());
                shortcut.prepare(&plan, &rig, &goals, &root);
                summed.grow(rig.len());
                summed.prepare_shared(&plan, &rig, &goals, &root);
                if plan.limbs.turned_pins {
                    summed.reachable_joints(&plan, &root);
                }
                for (&t, &pivot) in plan.targets.iter().zip(&plan.turn_about) {
                    let t = t as usize;
                    let (a, b) = (&shortcut, &summed);
                    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    let fields = |f: &FrameGoals| {
                        let mut v = f.joint[t].to_array().to_vec();
                        v.extend(f.centre[t].to_array());
                        v.extend(f.rotation[t].to_array());
                        v.extend(f.rotation_used[t].to_array());
                        v.extend([f.position_weight[t], f.rotation_weight[t]]);
                        v
                    };
                    assert_eq!(
                        bits(&fields(a)),
                        bits(&fields(b)),
                        "{} body {}",
                        creature.name(),
                        creature.body(t).name
                    );
                    let (p, r) = (b.position_weight[t], b.rotation_weight[t]);
                    turned += usize::from(p > 0.0 && r == 0.0 && pivot != NONE);
                    partial += usize::from((p > 0.0 && p < 1.0) || (r > 0.0 && r < 1.0));
                }
            }
        }
        assert!(
            sole >= 200 && turned >= 200 && partial >= 200,
            "too few cases: {sole} plans, {turned} turned, {partial} partial"
        );
    }

    /// A limb end sent toward what its limb hangs from, past where its bones can fold, turns
    /// about its centre goal continuously: its joint goal never jumps across the body. The
    /// centre comes in on a line from its rest place past the shoulder (nearer than any turn
    /// can hold the joint) and as far beyond, for every limb end of every sample creature;
    /// a step where the joint moves is halved down to a millionth of the path, and the joint
    /// may not move by more than 2 % of the body's radius about its centre there. Before,
    /// once every turn left the joint too near, the joint went back where it was and crossed
    /// the body in one step (a clapping hand at its shoulder: 11 cm for 0.15 mm).
    #[test]
    fn a_limb_end_folding_past_its_reach_turns_continuously() {
        let tuning = IkTuning::default();
        let (mut swept, mut folded) = (0, 0);
        for creature in crate::test_samples::creatures().unwrap() {
            let rig = Rig::new(&creature, &tuning);
            let ends: Vec<usize> = (0..creature.len())
                .filter(|&b| {
                    creature.children(b).is_empty()
                        && creature.limb_top(b).is_some()
                        && creature.limb_length(b) > 0.0
                })
                .collect();
            for &end in &ends {
                let mut goals = Goals::new(creature.len());
                goals.set_position(end, creature.body(end).position, 1.0);
                let mut key = Vec::new();
                goal_key(&rig, &goals, &mut key);
                let plan = Plan::build(&creature, &rig, &tuning, &key);
                let limbs = &plan.limbs;
                let Some(k) = limbs
                    .pinned
                    .iter()
                    .position(|&q| limbs.particles[q as usize].goal_body as usize == end)
                else {
                    continue;
                };
                let root = RootPose::new(&rig, &goals);
                let Anchor::Attachment(a) = limbs.reach[k].0 else {
                    continue;
                };
                let from = root.point(limbs.particles[a as usize].rest);
                let start = Vec3A::from(creature.body(end).position);
                let radius = start.distance(Vec3A::from(creature.pivot(end)));
                let gap = limbs.near[k] - radius;
                if gap <= 0.0 {
                    continue;
                }
                // Past the shoulder, nearer than any turn can hold the joint, and as far
                // beyond (straight through it, the way out flips at one point).
                let side = (start - from).any_orthonormal_vector();
                let target = 2.0 * (from + side * (0.3 * gap)) - start;
                let steps = 400;
                let mut frame = FrameGoals::default();
                let mut joint_at = |t: f32| {
                    goals.set_position(end, start.lerp(target, t).into(), 1.0);
                    frame.prepare(&plan, &rig, &goals, &root);
                    (frame.joint[end], frame.centre[end])
                };
                swept += 1;
                let mut last = joint_at(0.0);
                for i in 1..=steps {
                    let (t0, t1) = ((i - 1) as f32 / steps as f32, i as f32 / steps as f32);
                    let now = joint_at(t1);
                    let radius = now.0.distance(now.1);
                    if now.1.distance(from) + radius < limbs.near[k] {
                        folded += 1;
                    }
                    // A steep turn (the centre passing near the shoulder) is no jump: halve
                    // the step, keeping the half where the joint moves more, until the centre
                    // moves by a millionth of the path; a jump is still there.
                    let (mut lo, mut hi, mut a, mut b) = (t0, t1, last, now);
                    for _ in 0..20 {
                        let m = 0.5 * (lo + hi);
                        let mid = joint_at(m);
                        if a.0.distance(mid.0) >= mid.0.distance(b.0) {
                            (hi, b) = (m, mid);
                        } else {
                            (lo, a) = (m, mid);
                        }
                    }
                    let jumped = a.0.distance(b.0);
                    assert!(
                        jumped <= 0.02 * radius,
                        "{} {}: the joint goal jumped {jumped} m (body radius {radius} m) at {lo}",
                        creature.name(),
                        creature.body(end).name
                    );
                    last = now;
                }
            }
        }
        assert!(
            swept >= 12 && folded >= 500,
            "too few cases: {swept} ends, {folded} folded steps"
        );
    }
}
