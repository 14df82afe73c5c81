//! Body poses from solved particles: the spine outward (projection to the allowed stretch,
//! minimal-twist rotations from rest and posed tangents, interior bodies by frame
//! transport), then the limbs (projection, minimal twist or two-axis frames), then the
//! bodies without IK, which follow their parent rigidly.

use super::constraint::{arc, arc_unit, arc_unscaled, frame_of, twist_about};
use super::goals::{FrameGoals, RootPose};
use super::limb::{BodyKind, LimbBody, LimbPlan};
use super::rebuild::{self, Rebuild, Rebuilt};
use super::setup::{NONE, Rig};
use super::spine::{SpinePlan, tangents};
use super::spline::Hermite;
use crate::math::{renormalize, rotate, smoothstep};
use crate::pose::BodyPose;
use glam::{Quat, Vec3A};

/// Scratch reused across frames.
#[derive(Clone, Debug, Default)]
pub(super) struct Scratch {
    /// Per body, posed rotation times inverse rest rotation: what its children follow.
    pub delta: Vec<Quat>,
    pub tangent: Vec<Vec3A>,
    pub frames: Vec<Quat>,
    /// Per spine particle, the rotation its spline segments end with (see `spine_poses`).
    pub curve_rotation: Vec<Quat>,
    /// Per body, the joint the spine pass placed it at: the bone aim reads them back
    /// instead of working them out of the posed centres again.
    pub joint: Vec<Vec3A>,
}

/// Marks a body with several spine children in [`Scratch::only_child`].
const MANY: u32 = u32::MAX - 1;

#[inline]
fn pose(joint: Vec3A, rotation: Quat, rig: &Rig, b: usize, delta: &mut [Quat]) -> BodyPose {
    delta[b] = rotation * rig.inv_rotation[b];
    BodyPose {
        position: (joint + rotate(rotation, rig.centre_from_pivot[b])).into(),
        rotation,
    }
}

/// Moves `p` along the direction from `from` so its distance lies in `[lo, hi]`; a
/// particle on top of `from` goes along `fallback` instead.
#[inline]
fn project(from: Vec3A, p: Vec3A, lo: f32, hi: f32, fallback: impl FnOnce() -> Vec3A) -> Vec3A {
    let d = p - from;
    let len = d.length();
    if len >= lo && len <= hi {
        p
    } else if len > 1e-12 && len.is_finite() {
        from + d * (len.clamp(lo, hi) / len)
    } else {
        from + fallback().normalize_or_zero() * lo
    }
}

/// The root where its goal puts it, and the delta its children follow.
fn pose_root(rig: &Rig, root: &RootPose, scratch: &mut Scratch, out: &mut [BodyPose]) {
    if scratch.delta.len() < rig.len() {
        scratch.delta.resize(rig.len(), Quat::IDENTITY);
    }
    out[rig.root as usize] = BodyPose {
        position: root.position.into(),
        rotation: root.rotation,
    };
    scratch.delta[rig.root as usize] = root.delta;
}

/// The root and every spine body with IK at the rest pose the root carries: what
/// [`spine_poses`] rebuilds, to rounding, from particles a solve left at a rigid
/// forward-kinematic start ([`SpinePlan::unmoved`]). In `anymorph bench`'s crowd a third of
/// the solves (nearly half of a biped's) bend the spine nowhere: an arm reaching within its
/// reach, feet planted under the hips.
pub(super) fn spine_rest_poses(
    plan: &SpinePlan,
    rig: &Rig,
    root: &RootPose,
    scratch: &mut Scratch,
    out: &mut [BodyPose],
) {
    pose_root(rig, root, scratch, out);
    for step in &plan.fk {
        let b = step.body as usize;
        out[b] = BodyPose {
            position: root.point(rig.centre[b]).into(),
            rotation: (root.delta * rig.rotation[b]).normalize(),
        };
        scratch.delta[b] = root.delta;
    }
}

/// Rebuilds the root and every spine body with IK.
pub(super) fn spine_poses(
    plan: &SpinePlan,
    rig: &Rig,
    goals: &FrameGoals,
    root: &RootPose,
    p: &mut [Vec3A],
    scratch: &mut Scratch,
    out: &mut [BodyPose],
) {
    pose_root(rig, root, scratch, out);
    // Forks sharing a joint meet on it: their mean direction from the particle they hang
    // from, at their mean distance (the plain mean of points pulled apart on a sphere lies
    // inside it, and would shorten the bone they share).
    for &(from, len) in &plan.shared_pivots {
        let members = &plan.shared_members[from as usize..(from + len) as usize];
        let r = p[plan.particles[members[0] as usize].rootward as usize];
        let (mut sum, mut dist) = (Vec3A::ZERO, 0.0);
        for &i in members {
            sum += p[i as usize] - r;
            dist += p[i as usize].distance(r);
        }
        let joint = match sum.try_normalize() {
            Some(dir) => r + dir * (dist / f32::from(len)),
            None => r + sum / f32::from(len),
        };
        for &i in members {
            p[i as usize] = joint;
        }
    }
    let count = plan.particles.len();
    for i in 1..count {
        let q = plan.particles[i];
        if q.fixed {
            continue;
        }
        let r = p[q.rootward as usize];
        let fallback = || {
            root.delta
                * (rig.pivot[q.body as usize]
                    - rig.pivot[plan.particles[q.rootward as usize].body as usize])
        };
        p[i] = project(
            r,
            p[i],
            plan.min_stretch * q.rest_len,
            plan.max_stretch * q.rest_len,
            fallback,
        );
    }
    scratch.tangent.resize(count, Vec3A::ZERO);
    tangents(plan, p, root.delta, &mut scratch.tangent);
    scratch.curve_rotation.resize(count, Quat::IDENTITY);
    scratch.curve_rotation[0] = root.rotation;
    if scratch.joint.len() < rig.len() {
        scratch.joint.resize(rig.len(), Vec3A::ZERO);
    }
    for (i, q) in plan.particles.iter().enumerate().skip(1) {
        let b = q.body as usize;
        let rest = root.delta * plan.rest_tangent[i];
        let r = arc(rest, scratch.tangent[i]) * root.delta * rig.rotation[b];
        let rotation = if q.end_goal {
            goals.rotation_used[b]
        } else {
            if q.rotation_goal && q.leaf_count > 0 {
                // The goal already bent the spine through the forward-kinematic start;
                // the body must follow the curve to stay joined to the next particle, so
                // only the goal's twist about the curve is left to take.
                twist_toward(
                    r,
                    goals.rotation[b],
                    goals.rotation_weight[b],
                    scratch.tangent[i],
                )
            } else if q.rotation_goal {
                blend(r, goals.rotation[b], goals.rotation_weight[b])
            } else {
                r
            }
        };
        // An end of the spine turned by a rotation goal alone (a head looking at
        // something) turns about its own joint: the spline keeps the curve's own end, or
        // bending it to the goal with the joint held would kink the neck in an S and pull
        // its bones apart.
        scratch.curve_rotation[i] = if q.rotation_goal && q.leaf_count == 0 && !q.end_goal {
            r
        } else {
            rotation
        };
        if plan.aimed[b] {
            out[b].rotation = rotation;
        } else {
            out[b] = pose(p[i], rotation, rig, b, &mut scratch.delta);
        }
        scratch.joint[b] = p[i];
    }
    for seg in &plan.segments {
        segment_poses(seg, &plan.aimed, rig, p, scratch, out);
    }
    aim_spine_bones(plan, rig, scratch, out);
}

/// The spine bodies [`aim_spine_bones`] turns toward their only spine child, parents
/// first: (body, child). Fixed by the plan, so computed once with it.
pub(super) fn spine_aim_pairs(plan: &SpinePlan, rig: &Rig) -> Vec<AimPair> {
    let n = rig.len();
    // Per body, its only spine child (`NONE` without one, `MANY` with several).
    let mut only_child = vec![NONE; n];
    for c in 0..n {
        let b = rig.parent[c];
        if !rig.spine[c] || b == NONE || !rig.spine[b as usize] {
            continue;
        }
        // Forks from one joint (several necks) are one child to aim at: they share it.
        let slot = &mut only_child[b as usize];
        *slot = match *slot {
            NONE => c as u32,
            MANY => MANY,
            s if rig.same_pivot(s as usize, c) => s,
            _ => MANY,
        };
    }
    // Per body, whether the spine pass places it (a particle or on a segment).
    let mut placed = vec![false; n];
    let mut rotation_goal = vec![false; n];
    for q in &plan.particles {
        placed[q.body as usize] = true;
        rotation_goal[q.body as usize] = q.rotation_goal;
        if q.body == rig.root || q.end_goal || (q.rotation_goal && q.leaf_count == 0) {
            only_child[q.body as usize] = NONE;
        }
    }
    for seg in &plan.segments {
        for body in &seg.record.interior {
            placed[body.body as usize] = true;
        }
    }
    (0..n)
        .filter_map(|b| {
            let c = only_child[b];
            // Bodies the spine pass does not place (past the last particle) follow their
            // parent later; their pose there is stale.
            (b != rig.root as usize && c != NONE && c != MANY && placed[b] && placed[c as usize])
                .then(|| AimPair {
                    body: b as u32,
                    child: c,
                    local_bone: rig.inv_rotation[b] * (rig.pivot[c as usize] - rig.pivot[b]),
                    rotation_goal: rotation_goal[b],
                })
                // A bone this short fixes no direction to aim along; a turn preserves its
                // length, so that is known here once and for all.
                .filter(|pair| pair.local_bone.length() >= AIM_SHORTEST * rig.size)
        })
        .collect()
}

/// A spine body turned toward its only spine child after the splines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct AimPair {
    pub body: u32,
    pub child: u32,
    /// Its rest bone (the child's rest joint minus its own) in its own rest frame.
    pub local_bone: Vec3A,
    /// The body carries a rotation goal: it keeps the goal's rotation while its bone is
    /// within a hair of its child (rest goals must give the rest pose exactly, and the
    /// spline's interior bodies are placed only to about 1e-4), and turns fully once it is
    /// visibly off ([`GOAL_AIM_START`]..[`GOAL_AIM_FULL`], smoothly in between).
    pub rotation_goal: bool,
}

/// Angles (rad) between a rotation-goal body's bone and its child over which the aim
/// fades in.
const GOAL_AIM_START: f32 = 2e-3;
const GOAL_AIM_FULL: f32 = 8e-3;

/// Bones and chords shorter than this fraction of the creature's size are not aimed.
const AIM_SHORTEST: f32 = 0.01;

/// Turns every spine body the spine pass placed that has a single spine child, placed too,
/// by the least arc that puts its rest bone (its joint to the child's) onto the posed one.
/// Tangent and transported frames follow the curve, but where the spine bends hard the
/// curve's tangent at a joint no longer points at the next joint, and the child then sits
/// off the end of its parent (a visible dislocation). Joints do not move; the frame's twist
/// is kept. The root and ends of the spine carrying a goal keep the rotation they were given;
/// a body jointed to the root turns like any other (only its joint is held by the root).
///
/// The pairs are independent of each other (each reads the rotation the spine pass left its
/// own body), so most are turned four at a time (see [`rebuild::aim_bones`]).
pub(super) fn aim_spine_bones(
    plan: &SpinePlan,
    rig: &Rig,
    scratch: &mut Scratch,
    out: &mut [BodyPose],
) {
    let shortest_sq = (AIM_SHORTEST * rig.size).powi(2);
    for lanes in &plan.aim_lanes {
        match rebuild::aim_bones(lanes, shortest_sq, &scratch.joint, out) {
            Some(r) => write_lanes(lanes.count, &lanes.body, &r, &mut scratch.delta, out),
            None => {
                for &k in &lanes.index[..lanes.count as usize] {
                    let pair = &plan.aim_pairs[k as usize];
                    aim_spine_bone(plan, pair, rig, shortest_sq, scratch, out);
                }
            }
        }
    }
    for &k in &plan.aim_alone {
        aim_spine_bone(
            plan,
            &plan.aim_pairs[k as usize],
            rig,
            shortest_sq,
            scratch,
            out,
        );
    }
}

/// [`aim_spine_bones`] for one pair; chords shorter than `sqrt(shortest_sq)` aim nowhere.
#[inline(always)]
fn aim_spine_bone(
    plan: &SpinePlan,
    pair: &AimPair,
    rig: &Rig,
    shortest_sq: f32,
    scratch: &mut Scratch,
    out: &mut [BodyPose],
) {
    let (b, c) = (pair.body as usize, pair.child as usize);
    let from = scratch.joint[b];
    let chord = scratch.joint[c] - from;
    if chord.length_squared() < shortest_sq {
        if plan.aimed[b] {
            // The spine pass left it to this pass, which leaves it as it is.
            out[b] = pose(
                from,
                out[b].rotation.normalize(),
                rig,
                b,
                &mut scratch.delta,
            );
        }
        return;
    }
    // Its rotation as the spine pass left it: unit to rounding only (the pass left the
    // normalization to this one), so its rest bone turns where the body points.
    let bone = rotate(out[b].rotation, pair.local_bone);
    if !pair.rotation_goal {
        // Normalized once, after the product: as the lanes do it.
        let turn = arc_unscaled(bone, chord).unwrap_or_else(|| arc(bone, chord));
        let rotation = (turn * out[b].rotation).normalize();
        out[b] = pose(from, rotation, rig, b, &mut scratch.delta);
        return;
    }
    let mut turn = arc(bone, chord);
    // The turn's angle is `2 acos |w|`: compared through `|w|`, no arccosine for a
    // goal's body left within a hair of its child (most of them) or turned well past it.
    let (still_w, full_w) = ((0.5 * GOAL_AIM_START).cos(), (0.5 * GOAL_AIM_FULL).cos());
    let w = turn.w.abs().min(1.0);
    if w >= still_w {
        return;
    }
    if w > full_w {
        let k = smoothstep(GOAL_AIM_START, GOAL_AIM_FULL, 2.0 * w.acos());
        turn = Quat::IDENTITY.slerp(turn, k);
    }
    let rotation = (turn * out[b].rotation).normalize();
    out[b] = pose(from, rotation, rig, b, &mut scratch.delta);
}

/// Rebuilds the spine bodies inside one segment by transporting a frame along the posed
/// spline, spreading any twist between its end bodies evenly along it.
fn segment_poses(
    seg: &super::spine::Segment,
    aimed: &[bool],
    rig: &Rig,
    p: &[Vec3A],
    scratch: &mut Scratch,
    out: &mut [BodyPose],
) {
    let rec = &seg.record;
    let qa = scratch.curve_rotation[seg.a as usize];
    let qb = scratch.curve_rotation[seg.b as usize];
    let chord = p[seg.a as usize].distance(p[seg.b as usize]);
    let s = if rec.rest_chord > 1e-9 {
        chord / rec.rest_chord
    } else {
        1.0
    };
    let h = Hermite {
        p0: p[seg.a as usize],
        v0: rotate(qa, rec.v0_local) * s,
        a0: rotate(qa, rec.a0_local) * s,
        a1: rotate(qb, rec.a1_local) * s,
        v1: rotate(qb, rec.v1_local) * s,
        p1: p[seg.b as usize],
    };
    scratch.frames.clear();
    let mut frame = qa;
    let mut tangent = h.v0;
    for body in &rec.interior {
        let next = h.eval(&body.basis_derivative);
        frame = arc(tangent, next) * frame;
        tangent = next;
        scratch.frames.push(frame);
    }
    // Seen from the transported frame the curve's tangent is always `rec.axis` (each step
    // turns the frame by the arc between tangents), so the twist left at the end, and its
    // share at each body, are worked out there: no tangent to normalize per body.
    let end_frame = arc(tangent, h.v1) * frame;
    let expected = qb * rec.end_in_frame.conjugate();
    // The twist part of the mismatch (swing-twist) as its sine and cosine of the half
    // angle, both times the same length `len`: each body's share below is normalized
    // anyway, so the twist needs no division of its own.
    let miss = end_frame.conjugate() * expected;
    let (mut sin_half, mut cos_half) = (Vec3A::new(miss.x, miss.y, miss.z).dot(rec.axis), miss.w);
    if cos_half < 0.0 {
        (sin_half, cos_half) = (-sin_half, -cos_half);
    }
    let len = (sin_half * sin_half + cos_half * cos_half).sqrt();
    let carried = seg
        .carried_first
        .map(|(a, offset)| p[seg.a as usize] + out[a as usize].rotation * offset);
    for (k, body) in rec.interior.iter().enumerate() {
        // A fraction t of the end twist about the tangent (normalized lerp of the
        // half-angle: exact at the ends, close enough between).
        let t = body.t;
        let part = rec.axis * (t * sin_half);
        let q = Quat::from_xyzw(part.x, part.y, part.z, (1.0 - t) * len + t * cos_half);
        let frame = scratch.frames[k] * q.try_normalize_quat();
        let joint = match carried {
            Some(at) if k == 0 => at,
            _ => h.eval(&body.basis) + rotate(frame, body.pivot_in_frame),
        };
        let b = body.body as usize;
        let rotation = frame * body.rotation_in_frame;
        if aimed[b] {
            out[b].rotation = rotation;
        } else {
            // The frame is a product of unit turns and the twist, unit to rounding: a
            // Newton step brings it back without a square root.
            out[b] = pose(joint, renormalize(rotation), rig, b, &mut scratch.delta);
        }
        scratch.joint[b] = joint;
    }
}

trait TryNormalizeQuat {
    fn try_normalize_quat(self) -> Quat;
}

impl TryNormalizeQuat for Quat {
    fn try_normalize_quat(self) -> Quat {
        let len = self.length();
        if len > 1e-12 && len.is_finite() {
            self / len
        } else {
            Quat::IDENTITY
        }
    }
}

/// Rebuilds every limb body with IK.
pub(super) fn limb_poses(
    plan: &LimbPlan,
    rig: &Rig,
    goals: &FrameGoals,
    p: &mut [Vec3A],
    delta: &mut [Quat],
    out: &mut [BodyPose],
) {
    for &q in &plan.projection {
        let particle = plan.particles[q as usize];
        let r = particle.rest_len;
        p[q as usize] = project(
            p[particle.parent as usize],
            p[q as usize],
            plan.min_stretch * r,
            plan.max_stretch * r,
            || delta[plan.limbs[particle.limb as usize].spine_body as usize] * particle.rest_axis,
        );
    }
    for step in &plan.rebuild {
        match *step {
            Rebuild::One(i) => limb_body_pose(&plan.bodies[i as usize], rig, goals, p, delta, out),
            Rebuild::Axes(i) => {
                let lanes = &plan.axis_lanes[i as usize];
                match rebuild::axes(lanes, p, delta) {
                    Some(r) => write_lanes(lanes.count, &lanes.body, &r, delta, out),
                    None => {
                        for &k in &lanes.index[..lanes.count as usize] {
                            limb_body_pose(&plan.bodies[k as usize], rig, goals, p, delta, out);
                        }
                    }
                }
            }
            Rebuild::Goals(i) => {
                let lanes = &plan.goal_lanes[i as usize];
                let r = rebuild::goals(lanes, p, &goals.rotation_used);
                write_lanes(lanes.count, &lanes.body, &r, delta, out);
            }
        }
    }
}

/// The first `count` lanes of a group rebuilt at once.
#[inline(always)]
fn write_lanes(count: u8, body: &[u32; 4], r: &Rebuilt, delta: &mut [Quat], out: &mut [BodyPose]) {
    for (k, &b) in body.iter().enumerate().take(count as usize) {
        let b = b as usize;
        delta[b] = r.delta[k];
        out[b] = BodyPose {
            position: r.position[k].into(),
            rotation: r.rotation[k],
        };
    }
}

/// Rebuilds one limb body from its parent's delta and the solved particles.
#[inline(always)]
fn limb_body_pose(
    lb: &LimbBody,
    rig: &Rig,
    goals: &FrameGoals,
    p: &[Vec3A],
    delta: &mut [Quat],
    out: &mut [BodyPose],
) {
    let b = lb.body as usize;
    let parent_delta = delta[lb.parent as usize];
    let joint = p[lb.particle as usize];
    let w = if lb.rotation_goal {
        goals.rotation_weight[b]
    } else {
        0.0
    };
    // Without a rotation goal to blend in, a body's delta (what its children turn by)
    // is its parent's turned by the least arc: worked out directly, it waits on one
    // product down the chain instead of three, and the rotation follows from it.
    let turned = match lb.kind {
        BodyKind::Follow if w <= 0.0 => Some(parent_delta),
        BodyKind::Axis { child, rest_axis } if w <= 0.0 => Some(axis_turn(
            parent_delta,
            rest_axis,
            p[child as usize] - joint,
        )),
        _ => None,
    };
    if let Some(d) = turned {
        delta[b] = d;
        let rotation = d * rig.rotation[b];
        out[b] = BodyPose {
            position: (joint + rotate(rotation, rig.centre_from_pivot[b])).into(),
            rotation,
        };
        return;
    }
    let follow = parent_delta * rig.rotation[b];
    let rotation = match lb.kind {
        BodyKind::Goal => goals.rotation_used[b],
        BodyKind::Follow => blend(follow, goals.rotation[b], w),
        BodyKind::AimAtGoal => {
            let offset = follow * rig.centre_from_pivot[b];
            let to_goal = goals.centre[b] - joint;
            let aimed = arc(offset, to_goal) * follow;
            blend(aimed, goals.rotation[b], w)
        }
        BodyKind::Axis { child, rest_axis } => {
            let axis = p[child as usize] - joint;
            let r = arc_unit(rotate(parent_delta, rest_axis), axis.normalize_or_zero()) * follow;
            twist_toward(r, goals.rotation[b], w, axis)
        }
        BodyKind::Frame {
            first,
            second,
            rest_axis,
            rest_frame_inverse,
        } => {
            let (a1, a2) = (p[first as usize] - joint, p[second as usize] - joint);
            let r = match frame_of(a1, a2) {
                Some(f) => f * rest_frame_inverse * rig.rotation[b],
                None => arc(parent_delta * rest_axis, a1) * follow,
            };
            twist_toward(r, goals.rotation[b], w, a1)
        }
    };
    // One renormalization per body keeps the products of unit quaternions from
    // drifting down the tree.
    let rotation = renormalize(rotation);
    out[b] = pose(joint, rotation, rig, b, delta);
}

/// `parent_delta` turned by the least arc taking its rest axis (turned with it) onto
/// `axis`. The arc is left at the length `|axis|` gives it, `(from × axis, |axis| + from ·
/// axis)`, and the product normalized once: down a limb each body waits on its parent's
/// delta, and this way it waits on one normalization, not on the axis's, the arc's and a
/// Newton step after the product. The lanes (`rebuild::axes`) do the same arithmetic.
#[inline(always)]
fn axis_turn(parent_delta: Quat, rest_axis: Vec3A, axis: Vec3A) -> Quat {
    let from = rotate(parent_delta, rest_axis);
    let len = axis.length();
    let w = len + from.dot(axis);
    if len > 1e-30 && len < 1e18 && w >= len * 1e-6 {
        let c = from.cross(axis);
        (Quat::from_xyzw(c.x, c.y, c.z, w) * parent_delta).normalize()
    } else {
        renormalize(arc_unit(from, axis.normalize_or_zero()) * parent_delta)
    }
}

/// `from` turned toward `goal` by `weight` (0 keeps `from`).
#[inline]
fn blend(from: Quat, goal: Quat, weight: f32) -> Quat {
    if weight <= 0.0 {
        from
    } else if weight >= 1.0 {
        goal
    } else {
        from.slerp(goal, weight).normalize()
    }
}

/// A body that must keep pointing at its IK child can only take the twist of a rotation
/// goal about that direction.
fn twist_toward(r: Quat, goal: Quat, weight: f32, axis: Vec3A) -> Quat {
    if weight <= 0.0 {
        return r;
    }
    let Some(axis) = axis.try_normalize() else {
        return r;
    };
    let twist = twist_about(goal * r.conjugate(), axis);
    let weight = weight.min(1.0);
    let part = if weight >= 1.0 {
        // The whole twist (a full-weight goal, the usual one), on the short way round as
        // the slerp takes it, without the slerp's arccosine and sines.
        if twist.w < 0.0 { -twist } else { twist }
    } else {
        Quat::IDENTITY.slerp(twist, weight)
    };
    (part * r).normalize()
}

/// A body posed rigidly with its parent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Follower {
    pub body: u32,
    pub parent: u32,
    /// Rest centre minus the parent's rest centre.
    pub offset: Vec3A,
}

/// Bodies without IK (and those that delegated their goal) keep their rest pose relative
/// to their parent: they turn with the parent's delta, which thus is theirs too.
pub(super) fn follower_poses(
    followers: &[Follower],
    rig: &Rig,
    delta: &mut [Quat],
    out: &mut [BodyPose],
) {
    for f in followers {
        let (b, parent) = (f.body as usize, f.parent as usize);
        let d = delta[parent];
        delta[b] = d;
        out[b] = BodyPose {
            position: (Vec3A::from(out[parent].position) + rotate(d, f.offset)).into(),
            rotation: d * rig.rotation[b],
        };
    }
}
