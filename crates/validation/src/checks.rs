//! The measurements behind each check, on one creature's poses.

use anymorph_runtime::creature::{BodyId, Cap, Creature};
use anymorph_runtime::ik::{HAND_SIDE_LEAN, pushed_pin_kept};
use anymorph_runtime::math::{segment_closest, segment_distance};
use anymorph_runtime::pose::BodyPose;
use glam::Vec3;
use std::collections::BTreeSet;

/// A body as a capsule: a segment along its longest axis and a radius.
#[derive(Clone, Copy, Debug)]
struct Capsule {
    /// Half of the segment, in the body's frame.
    half_axis: Vec3,
    radius: f32,
}

/// Pairs of bodies that are not joined (not parent and child, not siblings), with how deep
/// they already overlap at rest: only sinking deeper than that counts.
#[derive(Clone, Debug)]
pub struct Overlaps {
    capsules: Vec<Capsule>,
    pairs: Vec<(BodyId, BodyId, f32)>,
}

impl Overlaps {
    pub fn of(creature: &Creature) -> Self {
        let capsules: Vec<Capsule> = creature
            .bodies()
            .iter()
            .map(|b| {
                let h = b.half_extents;
                let (axis, long, a, c) = if h.y >= h.x && h.y >= h.z {
                    (Vec3::Y, h.y, h.x, h.z)
                } else if h.x >= h.z {
                    (Vec3::X, h.x, h.y, h.z)
                } else {
                    (Vec3::Z, h.z, h.x, h.y)
                };
                let radius = a.min(c);
                Capsule {
                    half_axis: axis * (long - radius).max(0.0),
                    radius,
                }
            })
            .collect();
        let rest: Vec<BodyPose> = creature
            .bodies()
            .iter()
            .map(|b| BodyPose::new(b.position, b.rotation))
            .collect();
        // A rig's control bones (IK targets, sockets) are no flesh: nothing passes through
        // them.
        let control = Cap::Other(anymorph_io::gltf::CONTROL_CAP.into());
        let solid: Vec<bool> = (0..creature.len())
            .map(|b| capsules[b].radius > 0.0 && !creature.body(b).has_cap(&control))
            .collect();
        let mut pairs = Vec::new();
        for a in 0..creature.len() {
            for b in a + 1..creature.len() {
                if creature.joined(a, b) || !solid[a] || !solid[b] {
                    continue;
                }
                let depth = depth(&capsules[a], &rest[a], &capsules[b], &rest[b]);
                pairs.push((a, b, depth.max(0.0)));
            }
        }
        Overlaps { capsules, pairs }
    }

    /// These overlaps without the pairs in `contacts` (pairs the clip brings together on
    /// purpose, `a < b`).
    pub fn excluding(&self, contacts: &BTreeSet<(BodyId, BodyId)>) -> Overlaps {
        Overlaps {
            capsules: self.capsules.clone(),
            pairs: self
                .pairs
                .iter()
                .filter(|&&(a, b, _)| !contacts.contains(&(a, b)))
                .copied()
                .collect(),
        }
    }

    /// Where limb body `body`, centred at `at` and turned by `rotation`, stops sinking into
    /// the trunk (spine, neck and head bodies as posed in `pose`) deeper than at rest: pushed
    /// out of each in turn along the line between their axes, leaning toward the side the
    /// body hangs on at rest as the IK's hands do (`HAND_SIDE_LEAN`). The IK keeps a hand
    /// sent into the belly on its surface by design, as it keeps a goal beyond reach at the
    /// reach, so a goal there is missed by that much.
    pub fn out_of_trunk(
        &self,
        creature: &Creature,
        pose: &[BodyPose],
        body: BodyId,
        goal: Vec3,
        rotation: glam::Quat,
    ) -> Vec3 {
        let mut at = goal;
        for &pair in &self.pairs {
            let Some((gap, keep, other)) = self.trunk_gap(creature, pose, body, pair, at, rotation)
            else {
                continue;
            };
            let dist = gap.length();
            // As the IK pushes a hand out: straight out where shallow, leaning deeper in
            // toward the side the hand hangs on at rest, so a goal crossing the body's axis
            // is pushed out on one side throughout instead of flipping to the other.
            let side = {
                let (mine, theirs) = (&self.capsules[body], &self.capsules[other]);
                let (mine_rest, theirs_rest) = (creature.body(body), creature.body(other));
                let (r0, r1) = (
                    theirs_rest.position - theirs_rest.rotation * theirs.half_axis,
                    theirs_rest.position + theirs_rest.rotation * theirs.half_axis,
                );
                let own = mine_rest.rotation * mine.half_axis;
                let (h0, h1) = (mine_rest.position - own, mine_rest.position + own);
                let (v, u) = segment_closest(h0, h1, r0, r1);
                let out = h0.lerp(h1, v) - r0.lerp(r1, u);
                (pose[other].rotation * theirs_rest.rotation.inverse()) * out.normalize_or_zero()
            };
            let depth = 1.0 - dist / keep;
            let lean = side * (HAND_SIDE_LEAN * depth);
            if let Some(normal) = (gap / keep + lean).try_normalize() {
                at += normal * keep - gap;
            }
        }
        at
    }

    /// How deep limb body `body`, centred at `at` and turned by `rotation`, sinks into the
    /// trunk beyond rest at the deepest, as a fraction of the thinner radius of the two, as
    /// [`Overlaps::worst`] measures it (0 where it does not).
    pub fn trunk_depth(
        &self,
        creature: &Creature,
        pose: &[BodyPose],
        body: BodyId,
        at: Vec3,
        rotation: glam::Quat,
    ) -> f32 {
        self.pairs
            .iter()
            .filter_map(|&pair| {
                let (gap, keep, other) =
                    self.trunk_gap(creature, pose, body, pair, at, rotation)?;
                let thinner = self.capsules[body].radius.min(self.capsules[other].radius);
                Some((keep - gap.length()) / thinner)
            })
            .fold(0.0, f32::max)
    }

    /// Where `pair` is `body` against a trunk body it comes nearer than at rest: the gap
    /// between their axes' nearest points, the distance they keep at rest, and the trunk body.
    fn trunk_gap(
        &self,
        creature: &Creature,
        pose: &[BodyPose],
        body: BodyId,
        (a, b, rest): (BodyId, BodyId, f32),
        at: Vec3,
        rotation: glam::Quat,
    ) -> Option<(Vec3, f32, BodyId)> {
        let other = match (a == body, b == body) {
            (true, _) => b,
            (_, true) => a,
            _ => return None,
        };
        if !creature.is_spine(other) {
            return None;
        }
        let (mine, theirs) = (&self.capsules[body], &self.capsules[other]);
        let axis = rotation * mine.half_axis;
        let (o, turn) = (pose[other].position, pose[other].rotation);
        let (o0, o1) = (o - turn * theirs.half_axis, o + turn * theirs.half_axis);
        let (s, t) = segment_closest(at - axis, at + axis, o0, o1);
        let gap = (at - axis).lerp(at + axis, s) - o0.lerp(o1, t);
        let keep = mine.radius + theirs.radius - rest;
        (gap.length() < keep).then_some((gap, keep, other))
    }

    /// What a limb body sent to `goal` can reach without sinking into the trunk: the goal
    /// brought within the limb's reach ([`reachable_goal`]) and out of the trunk
    /// ([`Overlaps::out_of_trunk`]); if that took it beyond reach, back within it and out
    /// once more, as the IK places a hand sent into the trunk, and last within reach, where
    /// the bones' stretch limit leaves a hand whose pin the second push (leaning toward the
    /// hand's side, not straight back) left beyond it. `None` for spine bodies.
    pub fn reachable_outside(
        &self,
        creature: &Creature,
        pose: &[BodyPose],
        body: BodyId,
        goal: Vec3,
        goal_rotation: Option<glam::Quat>,
        stretch: (f32, f32),
    ) -> Option<Vec3> {
        // Plain calls, not closures taking the points: rustc 1.95 at opt-level 1 and up has
        // been seen to hand such a closure the point of an earlier call (docs/TOOLCHAIN.md).
        let turn = pose[body].rotation;
        let reached = reachable_goal(creature, pose, body, goal, goal_rotation, stretch)?;
        let first = self.out_of_trunk(creature, pose, body, reached, turn);
        let pushed = match reachable_goal(creature, pose, body, first, goal_rotation, stretch) {
            Some(back) if back != first => {
                let again = self.out_of_trunk(creature, pose, body, back, turn);
                reachable_goal(creature, pose, body, again, goal_rotation, stretch)?
            }
            _ => first,
        };
        // As the IK: a push that does not at least halve how deep the hand sinks (or all but
        // bring it out) is not taken, and the hand goes to its goal.
        let (was, now) = (
            self.trunk_depth(creature, pose, body, reached, turn),
            self.trunk_depth(creature, pose, body, pushed, turn),
        );
        Some(if pushed_pin_kept(was, now) {
            pushed
        } else {
            reached
        })
    }

    /// The deepest overlap beyond rest, as a fraction of the thinner body's radius.
    pub fn worst(&self, pose: &[BodyPose]) -> Option<(f32, BodyId, BodyId)> {
        self.pairs
            .iter()
            .map(|&(a, b, rest)| {
                let (ca, cb) = (&self.capsules[a], &self.capsules[b]);
                let excess = depth(ca, &pose[a], cb, &pose[b]) - rest;
                (excess / ca.radius.min(cb.radius), a, b)
            })
            .max_by(|x, y| x.0.total_cmp(&y.0))
    }
}

/// `point` brought, for a limb body sent there, within what its bones allow beside each foot
/// pinned on the same limb (`pins`: body and goal) that it neither hangs from nor carries: a
/// hand on a branch of a planted leg. The body on which their paths fork carries the joint
/// of the foot's side, which must be within the foot's bones of the foot and within the
/// bones above it of the posed shoulder; the point must be within its own bones of that
/// joint (rest lengths, times `max_stretch`). The IK holds such a hand there and the foot
/// on its goal, since the foot holds the creature up; a foot is never held by another body.
pub fn within_pins(
    creature: &Creature,
    pose: &[BodyPose],
    pins: &[(BodyId, Vec3)],
    body: BodyId,
    point: Vec3,
    max_stretch: f32,
) -> Vec3 {
    let foot = |b: BodyId| creature.body(b).has_cap(&Cap::Foot);
    let Some(limb) = creature.limb_top(body) else {
        return point;
    };
    if foot(body) {
        return point;
    }
    let up = |x: BodyId| -> Vec<BodyId> {
        std::iter::successors(Some(x), |&y| creature.parent(y)).collect()
    };
    let from_body = up(body);
    let shoulder = posed_shoulder(creature, pose, body);
    // Rest length along the joints of `chain` from its first body's centre up to the joint
    // of `to` (a body of the chain).
    let length = |chain: &[BodyId], to: BodyId| -> f32 {
        let mut points = vec![creature.body(chain[0]).position];
        for &x in chain {
            points.push(creature.pivot(x));
            if x == to {
                break;
            }
        }
        points.windows(2).map(|w| w[0].distance(w[1])).sum()
    };
    let mut p = point;
    for &(f, at) in pins {
        if !foot(f) || creature.limb_top(f) != Some(limb) {
            continue;
        }
        let from_foot = up(f);
        let Some(at_body) = from_body.iter().position(|x| from_foot.contains(x)) else {
            continue;
        };
        let fork = from_body[at_body];
        let Some(at_foot) = from_foot.iter().position(|&x| x == fork) else {
            continue;
        };
        // A body that carries the foot, or hangs from it, is held by its reach alone.
        if at_body == 0 || at_foot == 0 {
            continue;
        }
        let (to_body, to_foot) = (from_body[at_body - 1], from_foot[at_foot - 1]);
        // Joint to joint from the shoulder down to the fork's.
        let shoulder_to_fork = {
            let mut points: Vec<Vec3> = up(fork)
                .iter()
                .take_while(|&&x| x != limb)
                .map(|&x| creature.pivot(x))
                .collect();
            points.push(creature.pivot(limb));
            points.windows(2).map(|w| w[0].distance(w[1])).sum::<f32>() * max_stretch
        };
        let fork_to_joint = creature.pivot(fork).distance(creature.pivot(to_foot)) * max_stretch;
        let foot_to_joint = length(&from_foot, to_foot) * max_stretch;
        let body_to_fork = length(&from_body, fork) * max_stretch;
        let joint = meet(
            (shoulder, shoulder_to_fork + fork_to_joint),
            (at, foot_to_joint),
            p,
        );
        let fork_joint = meet((shoulder, shoulder_to_fork), (joint, fork_to_joint), p);
        let body_to_joint = (length(&from_body, to_body)
            + creature.pivot(to_body).distance(creature.pivot(to_foot)))
            * max_stretch;
        p = meet((fork_joint, body_to_fork), (joint, body_to_joint), p);
    }
    if p.is_finite() { p } else { point }
}

/// A point within both balls (centre, radius), by alternating projections from `start`.
fn meet(a: (Vec3, f32), b: (Vec3, f32), start: Vec3) -> Vec3 {
    let mut at = start;
    for _ in 0..32 {
        let held = toward(b.0, toward(a.0, at, a.1), b.1);
        let done = held == at;
        at = held;
        if done {
            break;
        }
    }
    at
}

/// `at` brought within `reach` of `from`, along the line between them.
fn toward(from: Vec3, at: Vec3, reach: f32) -> Vec3 {
    let d = at - from;
    let dist = d.length();
    if dist > reach && dist.is_finite() {
        from + d * (reach / dist)
    } else {
        at
    }
}

/// Where `pose` puts the joint at which the limb `body` is on leaves the spine.
fn posed_shoulder(creature: &Creature, pose: &[BodyPose], body: BodyId) -> Vec3 {
    let root = limb_root(creature, body);
    let rest = creature.body(root);
    let local = rest.rotation.inverse() * (creature.pivot(root) - rest.position);
    pose[root].position + pose[root].rotation * local
}

/// The first body of the limb `body` is on: where the limb leaves the spine.
pub(super) fn limb_root(creature: &Creature, body: BodyId) -> BodyId {
    creature.limb_top(body).unwrap_or(body)
}

/// Pairs of bodies a clip means to touch: a channel that moves a body relative to another
/// of the same creature (hand to mouth, hand to the other hand) asks for contact there, so
/// the two ends — each with its parent and everything below it (fingers, the head around a
/// mouth) — may overlap.
pub fn intended_contacts(
    creature: &Creature,
    ends: impl IntoIterator<Item = (BodyId, BodyId)>,
) -> BTreeSet<(BodyId, BodyId)> {
    let near = |b: BodyId| -> Vec<BodyId> {
        (0..creature.len())
            .filter(|&d| {
                creature.parent(b) == Some(d)
                    || std::iter::successors(Some(d), |&x| creature.parent(x)).any(|x| x == b)
            })
            .collect()
    };
    let mut pairs = BTreeSet::new();
    for (a, b) in ends {
        let around_b = near(b);
        for x in near(a) {
            for &y in &around_b {
                if x != y {
                    pairs.insert((x.min(y), x.max(y)));
                }
            }
        }
    }
    pairs
}

fn depth(ca: &Capsule, pa: &BodyPose, cb: &Capsule, pb: &BodyPose) -> f32 {
    let (a0, a1) = (
        pa.position - pa.rotation * ca.half_axis,
        pa.position + pa.rotation * ca.half_axis,
    );
    let (b0, b1) = (
        pb.position - pb.rotation * cb.half_axis,
        pb.position + pb.rotation * cb.half_axis,
    );
    ca.radius + cb.radius - segment_distance(a0, a1, b0, b1)
}

/// How far the IK lets a bone's length go, relative to rest: the spine's bones (both ends on
/// the spine) and everything else (limbs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StretchLimits {
    pub spine: (f32, f32),
    pub limb: (f32, f32),
}

impl StretchLimits {
    /// The limits of an IK tuning: what its reconstruction projects bones into.
    pub fn of(tuning: &anymorph_runtime::ik::IkTuning) -> Self {
        StretchLimits {
            spine: (tuning.spine.min_stretch, tuning.spine.max_stretch),
            limb: (tuning.limb.min_stretch, tuning.limb.max_stretch),
        }
    }
}

/// The worst change of a bone's length beyond what the IK allows that bone (the paper lets a
/// spine stretch to 120 %, a limb only a little), or the worst joint off the line its parent
/// holds the bone along (a dislocation, allowed nothing), as a fraction of the bone's rest
/// length.
pub fn worst_stretch(
    creature: &Creature,
    pose: &[BodyPose],
    limits: StretchLimits,
) -> Option<(f32, BodyId)> {
    let joint_in = |body: BodyId, point: Vec3| {
        let rest = creature.body(body);
        let local = rest.rotation.inverse() * (point - rest.position);
        pose[body].position + pose[body].rotation * local
    };
    (0..creature.len())
        .filter_map(|b| {
            let p = creature.parent(b)?;
            let rest_len = creature.pivot(b).distance(creature.pivot(p));
            if rest_len < 0.01 * creature.size() {
                return None;
            }
            let here = joint_in(b, creature.pivot(b));
            let seen_from_parent = joint_in(p, creature.pivot(b));
            let parent_joint = joint_in(p, creature.pivot(p));
            let (lo, hi) = if creature.is_spine(b) && creature.is_spine(p) {
                limits.spine
            } else {
                limits.limb
            };
            let ratio = here.distance(parent_joint) / rest_len;
            let stretch = (ratio - hi).max(lo - ratio).max(0.0);
            // The joint off the line the parent holds the bone along; a bone only longer
            // or shorter than at rest is the stretch above, not counted twice.
            let (chord, held) = (here - parent_joint, seen_from_parent - parent_joint);
            let along = held.normalize_or_zero() * chord.length();
            let dislocation = chord.distance(along) / rest_len;
            Some((stretch.max(dislocation), b))
        })
        .max_by(|x, y| x.0.total_cmp(&y.0))
}

/// Where a limb can put `body` on the way to `goal`: the goal itself when it lies within the
/// limb's reach (its rest length from the limb's root joint to the body, times the IK's
/// `stretch.1`, its `max_stretch`), else the point of that reach toward the goal. The IK
/// clamps out-of-reach goals there by design, so goal error is measured against it. With a
/// rotation goal the body's joint must sit where that rotation puts it, so the joint is what
/// is held to the limb's reach (a hand turned away from the shoulder reaches less far); where
/// one bone holds that joint, no nearer than the bone's shortest (`stretch.0`, the IK's
/// `min_stretch`). `None` for spine bodies.
pub fn reachable_goal(
    creature: &Creature,
    pose: &[BodyPose],
    body: BodyId,
    goal: Vec3,
    goal_rotation: Option<glam::Quat>,
    stretch: (f32, f32),
) -> Option<Vec3> {
    if creature.is_spine(body) {
        return None;
    }
    let root = limb_root(creature, body);
    let shoulder = posed_shoulder(creature, pose, body);
    if let Some(turn) = goal_rotation {
        let rest = creature.body(body);
        let centre_from_joint =
            turn * (rest.rotation.inverse() * (rest.position - creature.pivot(body)));
        let joint = goal - centre_from_joint;
        let reach = creature.limb_length(body) * stretch.1;
        let near = if creature.parent(body) == Some(root) {
            (creature.limb_length(body) * stretch.0.min(1.0)).min(reach)
        } else {
            0.0
        };
        let to_joint = joint - shoulder;
        let d = to_joint.length();
        // Not `clamp`: a tuning with a stretch that is not a number would panic in it.
        let held = if d > reach {
            reach
        } else if d < near {
            near
        } else {
            d
        };
        let joint = if d <= 1e-6 || held == d {
            joint
        } else {
            shoulder + to_joint * (held / d)
        };
        return Some(joint + centre_from_joint);
    }
    let reach = (creature.limb_length(body)
        + creature.pivot(body).distance(creature.body(body).position))
        * stretch.1;
    let to_goal = goal - shoulder;
    let d = to_goal.length();
    Some(if d <= reach || d <= 1e-6 {
        goal
    } else {
        shoulder + to_goal * (reach / d)
    })
}

/// The deepest any body's shape (a capsule's rounded end, not the corner of its box) goes
/// under the ground, as a fraction of the creature's size.
pub fn worst_penetration(
    creature: &Creature,
    world: &[BodyPose],
    ground: impl Fn(f32, f32) -> f32,
) -> Option<(f32, BodyId)> {
    (0..creature.len())
        .map(|b| {
            let p = &world[b];
            let lowest = p.position.y - creature.body(b).reach_below(p.rotation);
            (
                (ground(p.position.x, p.position.z) - lowest) / creature.size(),
                b,
            )
        })
        .max_by(|x, y| x.0.total_cmp(&y.0))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn rest_pose(c: &Creature) -> Vec<BodyPose> {
        c.bodies()
            .iter()
            .map(|b| BodyPose::new(b.position, b.rotation))
            .collect()
    }

    /// A hand's goal raised through the biped's chest, across its axis (the chest's capsule
    /// runs left to right): where the check expects the hand stays on the side the hand
    /// hangs on, below the axis, and moves with the goal, as the IK keeps it. Pushed
    /// straight out, the expected hand jumped over the chest as the goal crossed the axis,
    /// and a hand the IK kept below was counted a miss.
    #[test]
    fn a_goal_crossing_the_chest_is_expected_on_the_hands_side_throughout() {
        let creatures = anymorph_io::samples::creatures().unwrap();
        let c = creatures.iter().find(|c| c.name() == "biped").unwrap();
        let (hand, chest) = (c.find("hand_l").unwrap(), c.find("spine_2").unwrap());
        let rest = rest_pose(c);
        let overlaps = Overlaps::of(c);
        let centre = c.body(chest).position + Vec3::X * 0.05;
        let steps = 40;
        let step = 0.16 / steps as f32;
        let mut last: Option<Vec3> = None;
        for i in 0..=steps {
            let goal = centre + Vec3::Y * (i as f32 * step - 0.08);
            let at = overlaps.out_of_trunk(c, &rest, hand, goal, c.body(hand).rotation);
            assert!(
                at.y < centre.y,
                "goal y {}: expected at {at}, over the chest",
                goal.y
            );
            // Pushed out of several trunk bodies in turn, the point may run ahead of the
            // goal; over the chest it would jump by more than the chest's thickness.
            if let Some(before) = last {
                assert!(
                    at.distance(before) < 0.05,
                    "goal y {}: expected point jumped {} for a step of {step}",
                    goal.y,
                    at.distance(before)
                );
            }
            last = Some(at);
        }
    }

    #[test]
    fn intended_contacts_cover_the_two_ends_and_nothing_else() {
        let creatures = anymorph_io::samples::creatures().unwrap();
        let biped = creatures.iter().find(|c| c.name() == "biped").unwrap();
        let id = |n: &str| biped.bodies().iter().position(|b| b.name == n).unwrap();
        let pairs = intended_contacts(biped, [(id("hand_l"), id("hand_r"))]);
        let has = |a: &str, b: &str| pairs.contains(&(id(a).min(id(b)), id(a).max(id(b))));
        assert!(has("hand_l", "hand_r"));
        assert!(
            has("forearm_l", "hand_r"),
            "the arm just above a hand may touch"
        );
        assert!(!has("hand_l", "head") && !has("hand_r", "pelvis"));
    }

    #[test]
    fn a_goal_inside_the_trunk_is_pushed_to_its_surface_and_one_outside_is_kept() {
        let creatures = anymorph_io::samples::creatures().unwrap();
        let biped = creatures.iter().find(|c| c.name() == "biped").unwrap();
        let id = |n: &str| biped.bodies().iter().position(|b| b.name == n).unwrap();
        let rest = rest_pose(biped);
        let overlaps = Overlaps::of(biped);
        let (hand, belly) = (id("hand_l"), id("spine_1"));
        let turn = rest[hand].rotation;
        let outside = rest[hand].position + Vec3::new(0.1, 0.0, 0.0);
        assert_eq!(
            overlaps.out_of_trunk(biped, &rest, hand, outside, turn),
            outside
        );
        let inside = rest[belly].position + Vec3::new(0.05, 0.0, 0.02);
        let out = overlaps.out_of_trunk(biped, &rest, hand, inside, turn);
        let mut pose = rest.clone();
        pose[hand] = BodyPose::new(out, turn);
        let deepest = overlaps.worst(&pose).unwrap();
        assert!(
            out.distance(inside) > 0.05 && deepest.0 < 0.05,
            "moved {} to {out}, still {} radii into {}",
            out.distance(inside),
            deepest.0,
            biped.body(deepest.2).name
        );
    }

    /// A joint held by one bone can come no nearer its limb's root joint than the bone can
    /// shorten, as the IK rebuilds it; a joint further down folds as near as it likes.
    #[test]
    fn a_joint_one_bone_from_the_shoulder_is_expected_no_nearer_than_the_bone_allows() {
        let creatures = anymorph_io::samples::creatures().unwrap();
        let c = creatures.iter().find(|c| c.name() == "biped").unwrap();
        let rest = rest_pose(c);
        let stretch = (0.95, 1.05);
        let (mut one_bone, mut folded) = (0, 0);
        for b in (0..c.len()).filter(|&b| !c.is_spine(b) && !c.is_spine(c.parent(b).unwrap())) {
            let body = c.body(b);
            let centre_from_joint = body.position - c.pivot(b);
            // The joint goal a tenth of the way from the limb's root joint to where it rests.
            let root = limb_root(c, b);
            let shoulder = c.pivot(root);
            let joint = shoulder.lerp(c.pivot(b), 0.1);
            let expected = reachable_goal(
                c,
                &rest,
                b,
                joint + centre_from_joint,
                Some(body.rotation),
                stretch,
            )
            .unwrap()
                - centre_from_joint;
            if c.parent(b) == Some(root) {
                one_bone += 1;
                let d = expected.distance(shoulder);
                assert!(
                    (d - 0.95 * c.limb_length(b)).abs() < 1e-4,
                    "{}: {d}",
                    body.name
                );
            } else {
                folded += 1;
                assert!(expected.distance(joint) < 1e-5, "{}", body.name);
            }
        }
        assert!(
            one_bone >= 2 && folded >= 2,
            "{one_bone} one bone, {folded} folded"
        );
    }

    /// A tuning that lets no bone reach its rest length (`max_stretch` below 1, below
    /// `min_stretch`) leaves a joint one bone from the shoulder no shell to sit on: it is
    /// expected at the reach, near goal or far, and a stretch that is not a number panics
    /// nothing.
    #[test]
    fn a_reach_shorter_than_the_shortest_bone_wins() {
        let creatures = anymorph_io::samples::creatures().unwrap();
        let c = creatures.iter().find(|c| c.name() == "biped").unwrap();
        let rest = rest_pose(c);
        let b = (0..c.len())
            .find(|&b| c.body(b).name == "upper_arm_l")
            .unwrap();
        let root = limb_root(c, b);
        assert_eq!(c.parent(b), Some(root));
        let centre_from_joint = c.body(b).position - c.pivot(b);
        let shoulder = c.pivot(root);
        for d in [0.1, 0.5, 0.92, 2.0] {
            let joint = shoulder.lerp(c.pivot(b), d);
            let goal = joint + centre_from_joint;
            let rotation = Some(c.body(b).rotation);
            let expected = reachable_goal(c, &rest, b, goal, rotation, (0.95, 0.9)).unwrap()
                - centre_from_joint;
            let reach = 0.9 * c.limb_length(b);
            assert!(
                (expected.distance(shoulder) - reach).abs() < 1e-4,
                "{d}: {}",
                expected.distance(shoulder)
            );
            let nan = reachable_goal(c, &rest, b, goal, rotation, (f32::NAN, f32::NAN));
            assert!(nan.is_some());
        }
    }

    fn within_reach(c: &Creature, rest: &[BodyPose], hand: BodyId, goal: Vec3) -> Vec3 {
        reachable_goal(c, rest, hand, goal, None, (0.95, 1.05)).unwrap()
    }

    /// Goals all through each sample creature's bounds, for each of its graspers: some,
    /// pushed out of the trunk, land beyond the arm's reach; those are brought back, pushed
    /// out again and end within the reach, as the bones' stretch limit leaves the hand. Some
    /// others, pushed out of one trunk body into another or hardly less deep, stay at the
    /// goal, as the IK keeps them.
    #[test]
    fn a_goal_pushed_beyond_reach_is_brought_back_and_pushed_out_again() {
        let (mut pushed_beyond, mut kept_in) = (0, 0);
        for c in anymorph_io::samples::creatures().unwrap() {
            let rest = rest_pose(&c);
            let overlaps = Overlaps::of(&c);
            let bounds = c.bounds();
            for hand in (0..c.len())
                .filter(|&b| c.body(b).has_cap(&anymorph_runtime::creature::Cap::Grasper))
            {
                let turn = rest[hand].rotation;
                for i in 0..=8 {
                    for j in 0..=8 {
                        for k in 0..=8 {
                            let f = Vec3::new(i as f32, j as f32, k as f32) / 8.0;
                            let goal = bounds.min + (bounds.max - bounds.min) * f;
                            let reached = within_reach(&c, &rest, hand, goal);
                            let first = overlaps.out_of_trunk(&c, &rest, hand, reached, turn);
                            let last = overlaps
                                .reachable_outside(&c, &rest, hand, goal, None, (0.95, 1.05))
                                .unwrap();
                            let within_first = within_reach(&c, &rest, hand, first);
                            let within_last = within_reach(&c, &rest, hand, last);
                            let (first_beyond, last_beyond) =
                                (first.distance(within_first), last.distance(within_last));
                            if last == reached && last != first {
                                // Out of one trunk body into another, or hardly less deep:
                                // the hand goes to its goal instead.
                                kept_in += 1;
                                let was = overlaps.trunk_depth(&c, &rest, hand, reached, turn);
                                let now = overlaps.trunk_depth(&c, &rest, hand, first, turn);
                                assert!(
                                    first_beyond > 0.0 || !pushed_pin_kept(was, now),
                                    "{} {goal}: pushed from {was} to {now} deep, kept at the goal",
                                    c.name()
                                );
                            } else if first_beyond > 0.0 {
                                pushed_beyond += 1;
                                assert!(
                                    last_beyond < 1e-4,
                                    "{} {goal}: pushed {first_beyond} beyond reach, then {last_beyond}",
                                    c.name(),
                                );
                            } else {
                                assert!(last.distance(first) < 1e-4, "{} {goal}", c.name());
                            }
                        }
                    }
                }
            }
        }
        assert!(
            pushed_beyond > 0 && kept_in > 0,
            "{pushed_beyond} goals pushed beyond reach, {kept_in} kept at the goal: the test shows too little"
        );
    }

    #[test]
    fn stretch_counts_beyond_each_bones_own_limit_and_dislocation_sideways() {
        let creatures = anymorph_io::samples::creatures().unwrap();
        let biped = creatures.iter().find(|c| c.name() == "biped").unwrap();
        let id = |n: &str| biped.bodies().iter().position(|b| b.name == n).unwrap();
        let limits = StretchLimits::of(&anymorph_runtime::ik::IkTuning::default());
        let rest = rest_pose(biped);
        let (worst, _) = worst_stretch(biped, &rest, limits).unwrap();
        assert!(worst < 1e-5, "the rest pose stretches nothing: {worst}");
        // Moves `b` and everything below it along its bone, by `f` of the bone's length.
        let lengthen = |b: usize, f: f32| {
            let p = biped.parent(b).unwrap();
            let bone = biped.pivot(b) - biped.pivot(p);
            let mut pose = rest.clone();
            for (d, x) in pose.iter_mut().enumerate() {
                if std::iter::successors(Some(d), |&y| biped.parent(y)).any(|y| y == b) {
                    x.position += bone * f;
                }
            }
            worst_stretch(biped, &pose, limits).unwrap()
        };
        // A spine bone 15 % long is within the spine's 120 %; a forearm 15 % long is not.
        let (spine, _) = lengthen(id("neck"), 0.15);
        assert!(spine < 1e-4, "spine stretch within its limit: {spine}");
        let (limb, at) = lengthen(id("hand_l"), 0.15);
        assert!((limb - 0.10).abs() < 1e-3 && at == id("hand_l"), "{limb}");
        // A hand moved sideways off its forearm is a dislocation whatever the length.
        let mut pose = rest.clone();
        pose[id("hand_l")].position += Vec3::Z * 0.3 * biped.limb_length(id("hand_l"));
        let (off, at) = worst_stretch(biped, &pose, limits).unwrap();
        assert!(off > 0.1 && at == id("hand_l"), "{off}");
    }

    #[test]
    fn ground_penetration_measures_a_capsule_by_its_rounded_shape_not_its_box() {
        let creatures = anymorph_io::samples::creatures().unwrap();
        let biped = creatures.iter().find(|c| c.name() == "biped").unwrap();
        let hand = biped
            .bodies()
            .iter()
            .position(|b| b.name == "hand_l")
            .unwrap();
        assert_eq!(
            biped.body(hand).shape,
            anymorph_runtime::creature::Shape::Capsule
        );
        let mut pose: Vec<BodyPose> = biped
            .bodies()
            .iter()
            .map(|b| BodyPose::new(b.position, b.rotation))
            .collect();
        // Lying level, rolled 45° about its length: the box's edge reaches lower than the
        // capsule's round side, which is 5 mm above the ground.
        let radius = biped
            .body(hand)
            .half_extents
            .x
            .min(biped.body(hand).half_extents.z);
        pose[hand].rotation = glam::Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)
            * glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_4);
        pose[hand].position.y = radius + 0.005;
        let (clear, _) = worst_penetration(biped, &pose, |_, _| 0.0).unwrap();
        assert!(
            clear < 1e-4,
            "the rounded hand is above the ground: {clear}"
        );
        pose[hand].position.y -= 0.015;
        let (sunk, at) = worst_penetration(biped, &pose, |_, _| 0.0).unwrap();
        assert_eq!(at, hand);
        assert!((sunk * biped.size() - 0.01).abs() < 1e-4, "{sunk}");
    }

    #[test]
    fn segment_distance_handles_parallel_crossing_and_points() {
        let d = segment_distance(
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
        );
        assert!((d - 1.0).abs() < 1e-6);
        let d = segment_distance(
            -Vec3::X,
            Vec3::X,
            -Vec3::Z + Vec3::Y * 0.5,
            Vec3::Z + Vec3::Y * 0.5,
        );
        assert!((d - 0.5).abs() < 1e-6);
        let d = segment_distance(
            Vec3::ZERO,
            Vec3::ZERO,
            Vec3::new(3.0, 4.0, 0.0),
            Vec3::new(3.0, 4.0, 0.0),
        );
        assert!((d - 5.0).abs() < 1e-6);
    }

    /// A trunk of two spine bodies, a leg of thigh, shin and foot, and a branch of forearm
    /// and hand leaving the thigh halfway down, all at rest along straight lines.
    fn hand_on_a_leg() -> Creature {
        // Name, parent, caps, joint, centre, half length; every body upright.
        #[rustfmt::skip]
        let bodies = [
            ("spine_0", "", "spine", [0.0, 1.0, -0.3], [0.0, 1.0, -0.15], 0.15),
            ("spine_1", "spine_0", "spine", [0.0, 1.0, 0.0], [0.0, 1.0, 0.15], 0.15),
            ("thigh", "spine_0", "limb", [0.2, 1.0, 0.0], [0.2, 0.8, 0.0], 0.2),
            ("shin", "thigh", "limb", [0.2, 0.6, 0.0], [0.2, 0.35, 0.0], 0.25),
            ("foot", "shin", "foot", [0.2, 0.1, 0.0], [0.2, 0.05, 0.05], 0.05),
            ("forearm", "thigh", "limb", [0.25, 0.8, 0.0], [0.45, 0.8, 0.0], 0.2),
            ("hand", "forearm", "grasper", [0.65, 0.8, 0.0], [0.75, 0.8, 0.0], 0.1),
        ];
        let bodies: Vec<String> = bodies
            .iter()
            .map(|(name, parent, cap, joint, pos, half)| {
                let parent = if parent.is_empty() {
                    "null".to_string()
                } else {
                    format!("\"{parent}\"")
                };
                format!(
                    r#"{{"name":"{name}","parent":{parent},"caps":["{cap}"],"joint":{joint:?},"position":{pos:?},"rotation":[0,0,0,1],"half_extents":[0.04,{half},0.04],"shape":"capsule"}}"#
                )
            })
            .collect();
        let text = format!(
            r#"{{"format":"anymorph-creature","version":1,"name":"hand_on_a_leg","bodies":[{}]}}"#,
            bodies.join(",")
        );
        anymorph_io::creature_file::creature_from_str(&text, "hand_on_a_leg").unwrap()
    }

    /// The judge expects a hand on a branch of a planted leg no farther from the foot than
    /// the bones between them, and leaves a goal the bones reach where it is: it excuses
    /// only what no pose could reach.
    #[test]
    fn a_hand_beside_a_planted_foot_is_expected_where_its_bones_reach() {
        let c = hand_on_a_leg();
        let pose = rest_pose(&c);
        let (foot, hand) = (c.find("foot").unwrap(), c.find("hand").unwrap());
        let planted = c.body(foot).position;
        let pins = [(foot, planted), (hand, Vec3::ZERO)];
        // Hand centre to the branch's joint on the thigh, down the thigh to the knee, the
        // shin to the foot's joint and on to its centre.
        let bones = 0.1 + 0.4 + 0.2 + 0.5 + 0.0f32.hypot(0.05).hypot(0.1);
        for dir in [
            Vec3::X,
            Vec3::Y,
            -Vec3::Z,
            Vec3::new(1.0, 1.0, 1.0).normalize(),
        ] {
            let far = c.body(hand).position + dir * 5.0;
            let expected = within_pins(&c, &pose, &pins, hand, far, 1.05);
            assert!(
                expected.distance(planted) <= 1.05 * bones + 1e-3,
                "{dir}: expected {expected}, {} from the foot",
                expected.distance(planted)
            );
            assert!(
                expected.distance(far) > 1.0,
                "{dir}: the far goal was expected"
            );
        }
        for goal in [
            c.body(hand).position,
            Vec3::new(0.5, 0.5, 0.2),
            Vec3::new(0.2, 1.1, 0.4),
        ] {
            assert_eq!(within_pins(&c, &pose, &pins, hand, goal, 1.05), goal);
        }
        // The foot is never held by the hand.
        let away = planted + Vec3::X * 3.0;
        assert_eq!(within_pins(&c, &pose, &pins, foot, away, 1.05), away);
    }
}
