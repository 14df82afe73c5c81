//! The order the limb rebuild takes its bodies in, and the bodies it takes four at a time.
//!
//! A limb body's rotation depends only on its parent's and on the solved particles, so the
//! bodies at one depth below the spine, across every limb, are independent of each other.
//! Most of them are rebuilt the same way: a bone with one IK child and no rotation goal
//! turns by the least arc onto its child ([`BodyKind::Axis`]), and an end body with a
//! position goal takes the rotation that carried its goal ([`BodyKind::Goal`]). Those are
//! taken four alike at once in SIMD lanes (`lanes.rs`), the rest one by one. A Goal body
//! reads nothing of its parent, so all of them go first, whatever their depth; the others
//! go depth by depth, each after the parent whose delta it turns. Each lane repeats the
//! single-body arithmetic in its order, so the poses are the same to the bit (to rounding
//! in a build where glam fuses multiplies and adds, which the lanes do not).
//!
//! The spine's bone aims (`reconstruct::aim_spine_bones`) are independent of each other too,
//! and go four at a time the same way ([`AimLanes`]).

use super::lanes::{Q, V3};
use super::limb::{BodyKind, LimbBody, LimbPlan};
use super::reconstruct::AimPair;
use super::setup::Rig;
use crate::pose::BodyPose;
use glam::{Quat, Vec3A};

/// One step of the limb rebuild.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Rebuild {
    /// `LimbPlan::bodies[i]`, alone.
    One(u16),
    /// `LimbPlan::axis_lanes[i]`.
    Axes(u16),
    /// `LimbPlan::goal_lanes[i]`.
    Goals(u16),
}

/// Up to four [`BodyKind::Axis`] bodies without a rotation goal, none the parent of
/// another. Lanes past `count` repeat the first lane and are not written back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct AxisLanes {
    pub count: u8,
    /// Into `LimbPlan::bodies`, for the rare lane that needs the single-body code.
    pub index: [u16; 4],
    pub body: [u32; 4],
    pub parent: [u32; 4],
    pub particle: [u16; 4],
    pub child: [u16; 4],
    pub rest_axis: V3,
    pub rotation: Q,
    pub centre_from_pivot: V3,
}

/// Up to four [`BodyKind::Goal`] bodies. Lanes past `count` repeat the first lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct GoalLanes {
    pub count: u8,
    pub body: [u32; 4],
    pub particle: [u16; 4],
    pub inv_rotation: Q,
    pub centre_from_pivot: V3,
}

/// Fewer bodies alike than this at one depth are taken one by one: the lanes' gathering
/// and scattering would cost more than they save.
const MIN_LANES: usize = 2;

/// How `bodies` is taken into lanes: whether it is an Axis body without a rotation goal, a
/// Goal body, or neither.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Axis,
    Goal,
    Alone,
}

fn class(lb: &LimbBody) -> Class {
    match lb.kind {
        BodyKind::Axis { .. } if !lb.rotation_goal => Class::Axis,
        BodyKind::Goal => Class::Goal,
        _ => Class::Alone,
    }
}

/// Fills `plan.rebuild`, `plan.axis_lanes` and `plan.goal_lanes` from `plan.bodies`
/// (parents first).
pub(super) fn schedule(plan: &mut LimbPlan, rig: &Rig) {
    let bodies = &plan.bodies;
    // Depth below the spine: a body whose parent is no limb body of the plan is at 0.
    let mut depth = vec![0usize; bodies.len()];
    for (i, lb) in bodies.iter().enumerate() {
        if let Some(p) = bodies[..i].iter().position(|x| x.body == lb.parent) {
            depth[i] = depth[p] + 1;
        }
    }
    let deepest = depth.iter().copied().max().unwrap_or(0);
    let (mut rebuild, mut axis_lanes, mut goal_lanes) = (Vec::new(), Vec::new(), Vec::new());
    // A Goal body reads nothing of its parent (its rotation is its goal's, its joint its
    // particle), so every one goes first, four at a time whatever their depths: the
    // biped's hands and feet in one group rather than two half-empty ones. Their children
    // then find their deltas written.
    let goal_bodies: Vec<usize> = (0..bodies.len())
        .filter(|&i| class(&bodies[i]) == Class::Goal)
        .collect();
    for group in goal_bodies.chunks(4) {
        if group.len() < MIN_LANES {
            rebuild.extend(group.iter().map(|&i| Rebuild::One(i as u16)));
            continue;
        }
        rebuild.push(Rebuild::Goals(goal_lanes.len() as u16));
        goal_lanes.push(goal_group(bodies, group, rig));
    }
    for d in 0..=deepest {
        let at = |c: Class| -> Vec<usize> {
            (0..bodies.len())
                .filter(|&i| depth[i] == d && class(&bodies[i]) == c)
                .collect()
        };
        for group in at(Class::Axis).chunks(4) {
            if group.len() < MIN_LANES {
                rebuild.extend(group.iter().map(|&i| Rebuild::One(i as u16)));
                continue;
            }
            rebuild.push(Rebuild::Axes(axis_lanes.len() as u16));
            axis_lanes.push(axis_group(bodies, group, rig));
        }
        rebuild.extend(at(Class::Alone).into_iter().map(|i| Rebuild::One(i as u16)));
    }
    plan.rebuild = rebuild;
    plan.axis_lanes = axis_lanes;
    plan.goal_lanes = goal_lanes;
}

/// Lane `k` of a group of up to four, the first again past its end.
fn lane(group: &[usize], k: usize) -> usize {
    group.get(k).copied().unwrap_or(group[0])
}

fn axis_group(bodies: &[LimbBody], group: &[usize], rig: &Rig) -> AxisLanes {
    let at = |k: usize| &bodies[lane(group, k)];
    let (child, rest_axis): (Vec<u16>, Vec<Vec3A>) = (0..4)
        .map(|k| match at(k).kind {
            BodyKind::Axis { child, rest_axis } => (child, rest_axis),
            _ => unreachable!("only Axis bodies are grouped as axes"),
        })
        .unzip();
    let b = |k: usize| at(k).body as usize;
    AxisLanes {
        count: group.len() as u8,
        index: std::array::from_fn(|k| lane(group, k) as u16),
        body: std::array::from_fn(|k| at(k).body),
        parent: std::array::from_fn(|k| at(k).parent),
        particle: std::array::from_fn(|k| at(k).particle),
        child: std::array::from_fn(|k| child[k]),
        rest_axis: V3::gather(std::array::from_fn(|k| rest_axis[k])),
        rotation: Q::gather(std::array::from_fn(|k| rig.rotation[b(k)])),
        centre_from_pivot: V3::gather(std::array::from_fn(|k| rig.centre_from_pivot[b(k)])),
    }
}

fn goal_group(bodies: &[LimbBody], group: &[usize], rig: &Rig) -> GoalLanes {
    let at = |k: usize| &bodies[lane(group, k)];
    let b = |k: usize| at(k).body as usize;
    GoalLanes {
        count: group.len() as u8,
        body: std::array::from_fn(|k| at(k).body),
        particle: std::array::from_fn(|k| at(k).particle),
        inv_rotation: Q::gather(std::array::from_fn(|k| rig.inv_rotation[b(k)])),
        centre_from_pivot: V3::gather(std::array::from_fn(|k| rig.centre_from_pivot[b(k)])),
    }
}

/// Up to four spine bone aims (`reconstruct::aim_spine_bones`) without a rotation goal.
/// Lanes past `count` repeat the first lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct AimLanes {
    pub count: u8,
    /// Into `SpinePlan::aim_pairs`, for a group the single-pair code must take.
    pub index: [u16; 4],
    pub body: [u32; 4],
    pub child: [u32; 4],
    pub local_bone: V3,
    pub inv_rotation: Q,
    pub centre_from_pivot: V3,
}

/// The spine bone aims taken four at a time, and the indices of those taken alone (with a
/// rotation goal, or too few).
pub(super) fn aim_groups(pairs: &[AimPair], rig: &Rig) -> (Vec<AimLanes>, Vec<u16>) {
    let plain: Vec<usize> = (0..pairs.len())
        .filter(|&i| !pairs[i].rotation_goal)
        .collect();
    let mut alone: Vec<u16> = (0..pairs.len())
        .filter(|&i| pairs[i].rotation_goal)
        .map(|i| i as u16)
        .collect();
    let mut lanes = Vec::new();
    for group in plain.chunks(4) {
        if group.len() < MIN_LANES {
            alone.extend(group.iter().map(|&i| i as u16));
            continue;
        }
        let at = |k: usize| &pairs[lane(group, k)];
        let b = |k: usize| at(k).body as usize;
        lanes.push(AimLanes {
            count: group.len() as u8,
            index: std::array::from_fn(|k| lane(group, k) as u16),
            body: std::array::from_fn(|k| at(k).body),
            child: std::array::from_fn(|k| at(k).child),
            local_bone: V3::gather(std::array::from_fn(|k| at(k).local_bone)),
            inv_rotation: Q::gather(std::array::from_fn(|k| rig.inv_rotation[b(k)])),
            centre_from_pivot: V3::gather(std::array::from_fn(|k| rig.centre_from_pivot[b(k)])),
        });
    }
    (lanes, alone)
}

/// Four spine bones turned at once by the least arc that puts each rest bone onto the chord
/// to its child's joint (`constraint::arc`, its usual case). `None` when some lane is not
/// that case (a chord too short to aim along, a half turn, a number out of range), which
/// the single-pair code takes.
#[inline(always)]
pub(super) fn aim_bones(
    l: &AimLanes,
    shortest_sq: f32,
    joint: &[Vec3A],
    out: &[BodyPose],
) -> Option<Rebuilt> {
    use glam::Vec4;
    let from = V3::gather(l.body.map(|b| joint[b as usize]));
    let chord = V3::gather(l.child.map(|c| joint[c as usize])) - from;
    let chord_sq = chord.dot(chord);
    let rotation = Q::gather(l.body.map(|b| out[b as usize].rotation));
    let bone = rotation.rotate(l.local_bone);
    let ll = (bone.dot(bone) * chord_sq).sqrt();
    let w = ll + bone.dot(chord);
    // `arc`'s usual case, each of its tests passed by a number and failed by NaN.
    let usual = chord_sq.cmpge(Vec4::splat(shortest_sq))
        & ll.cmpgt(Vec4::splat(1e-30))
        & ll.cmplt(Vec4::splat(1e18))
        & w.cmpge(ll * 1e-6);
    if !usual.all() {
        return None;
    }
    let c = bone.cross(chord);
    // Left at its length: the product is normalized (`arc_unscaled`).
    let turn = Q {
        x: c.x,
        y: c.y,
        z: c.z,
        w,
    };
    let rotation = (turn * rotation).normalize();
    Some(Rebuilt {
        delta: (rotation * l.inv_rotation).lanes(),
        rotation: rotation.lanes(),
        position: (from + rotation.rotate(l.centre_from_pivot)).lanes(),
    })
}

/// What a lane group rebuilt: per lane, its delta (what its children turn by), rotation
/// and centre.
pub(super) struct Rebuilt {
    pub delta: [Quat; 4],
    pub rotation: [Quat; 4],
    pub position: [Vec3A; 4],
}

/// Four Axis bodies at once: each turns its parent's delta by the least arc that takes
/// its rest axis onto the direction to its child. `None` when some lane's arc is a half
/// turn or not a number, which the single-body code resolves.
#[inline(always)]
pub(super) fn axes(l: &AxisLanes, p: &[Vec3A], delta: &[Quat]) -> Option<Rebuilt> {
    let joint = V3::gather(l.particle.map(|q| p[q as usize]));
    let child = V3::gather(l.child.map(|q| p[q as usize]));
    let parent = Q::gather(l.parent.map(|b| delta[b as usize]));
    let axis = child - joint;
    let len = axis.dot(axis).sqrt();
    let from = parent.rotate(l.rest_axis);
    let w = len + from.dot(axis);
    // `axis_turn`'s usual case, each test failed by NaN.
    let usual = len.cmpgt(glam::Vec4::splat(1e-30))
        & len.cmplt(glam::Vec4::splat(1e18))
        & w.cmpge(len * 1e-6);
    if !usual.all() {
        return None;
    }
    let c = from.cross(axis);
    let arc = Q {
        x: c.x,
        y: c.y,
        z: c.z,
        w,
    };
    let d = (arc * parent).normalize();
    let rotation = d * l.rotation;
    let position = joint + rotation.rotate(l.centre_from_pivot);
    Some(Rebuilt {
        delta: d.lanes(),
        rotation: rotation.lanes(),
        position: position.lanes(),
    })
}

/// Four Goal bodies at once: each ends with the rotation that carried its goal to its
/// joint (`rotation_used`), brought back to unit length.
#[inline(always)]
pub(super) fn goals(l: &GoalLanes, p: &[Vec3A], rotation_used: &[Quat]) -> Rebuilt {
    let joint = V3::gather(l.particle.map(|q| p[q as usize]));
    let rotation = Q::gather(l.body.map(|b| rotation_used[b as usize])).renormalize();
    let d = rotation * l.inv_rotation;
    let position = joint + rotation.rotate(l.centre_from_pivot);
    Rebuilt {
        delta: d.lanes(),
        rotation: rotation.lanes(),
        position: position.lanes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::creature::{Cap, Creature};
    use crate::ik::reconstruct::Scratch;
    use crate::ik::test_support::{plan_sending, same};
    use crate::pose::BodyPose;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A rotation by up to `angle` radians about a random axis.
    fn turn(rng: &mut ChaCha8Rng, angle: f32) -> Quat {
        let axis = Vec3A::new(rng.random(), rng.random(), rng.random()) - 0.5;
        Quat::from_axis_angle(
            axis.normalize_or(Vec3A::X).into(),
            rng.random_range(-angle..angle),
        )
    }

    /// `at` moved by up to `by` along each axis.
    fn scattered(rng: &mut ChaCha8Rng, at: Vec3A, by: f32) -> Vec3A {
        at + Vec3A::new(rng.random(), rng.random(), rng.random()) * by
    }

    /// Both runs posed every body alike: its delta, rotation and centre.
    fn assert_same_poses(
        creature: &Creature,
        (d1, o1): (&[Quat], &[BodyPose]),
        (d2, o2): (&[Quat], &[BodyPose]),
    ) {
        for b in 0..creature.len() {
            let name = format!("{} {}", creature.name(), creature.body(b).name);
            assert!(same(&d1[b].to_array(), &d2[b].to_array()), "{name}: delta");
            assert!(
                same(&o1[b].rotation.to_array(), &o2[b].rotation.to_array()),
                "{name}: rotation"
            );
            assert!(
                same(&o1[b].position.to_array(), &o2[b].position.to_array()),
                "{name}: position"
            );
        }
    }

    /// The bodies of every step in order: a group's lanes, a single body.
    fn steps(plan: &LimbPlan) -> Vec<Vec<u32>> {
        plan.rebuild
            .iter()
            .map(|s| match *s {
                Rebuild::One(i) => vec![plan.bodies[i as usize].body],
                Rebuild::Axes(i) => {
                    let l = &plan.axis_lanes[i as usize];
                    l.body[..l.count as usize].to_vec()
                }
                Rebuild::Goals(i) => {
                    let l = &plan.goal_lanes[i as usize];
                    l.body[..l.count as usize].to_vec()
                }
            })
            .collect()
    }

    /// On every sample creature with its graspers and feet sent somewhere: each limb body
    /// is rebuilt exactly once, and never in one group with its parent; each body that
    /// reads its parent's delta (all but the Goal bodies, whose pose is their goal's) comes
    /// after it; groups hold only bodies of their kind; and most creatures take some
    /// bodies four at a time.
    #[test]
    fn the_schedule_rebuilds_each_body_once_after_its_parent() {
        let mut grouped = 0;
        for creature in crate::test_samples::creatures().unwrap() {
            let (rig, plan) = plan_sending(&creature, &[Cap::Grasper, Cap::Foot], true);
            let plan = &plan.limbs;
            let name = creature.name();
            let reads_parent = |b: u32| {
                plan.bodies
                    .iter()
                    .find(|lb| lb.body == b)
                    .is_some_and(|lb| class(lb) != Class::Goal)
            };
            let mut posed = vec![false; creature.len()];
            for step in steps(plan) {
                for &b in &step {
                    let parent = rig.parent[b as usize] as usize;
                    assert!(
                        rig.spine[parent] || posed[parent] || !reads_parent(b),
                        "{name}: {b} before its parent"
                    );
                    assert!(
                        !step.contains(&(parent as u32)),
                        "{name}: {b} with its parent"
                    );
                    assert!(!posed[b as usize], "{name}: {b} twice");
                }
                for &b in &step {
                    posed[b as usize] = true;
                }
            }
            for lb in &plan.bodies {
                assert!(posed[lb.body as usize], "{name}: {} left out", lb.body);
            }
            for l in &plan.axis_lanes {
                for &k in &l.index[..l.count as usize] {
                    assert!(class(&plan.bodies[k as usize]) == Class::Axis, "{name}");
                }
            }
            if !plan.axis_lanes.is_empty() && !plan.goal_lanes.is_empty() {
                grouped += 1;
            }
        }
        assert!(
            grouped >= 10,
            "only {grouped} creatures rebuild bodies in lanes"
        );
    }

    /// The lanes give the poses the one-by-one rebuild gives, to the bit (to rounding where
    /// glam fuses multiplies and adds): on every sample creature, with particles scattered
    /// about their rest places and every delta and goal rotation random.
    #[test]
    fn lanes_pose_as_the_bodies_one_by_one() {
        use crate::ik::goals::FrameGoals;
        use crate::ik::reconstruct::limb_poses;
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut compared = 0;
        for creature in crate::test_samples::creatures().unwrap() {
            let n = creature.len();
            let (rig, plan) = plan_sending(&creature, &[Cap::Grasper, Cap::Foot], true);
            let lanes = plan.limbs;
            let mut alone = lanes.clone();
            alone.rebuild = (0..alone.bodies.len() as u16).map(Rebuild::One).collect();
            let mut frame = FrameGoals::default();
            frame.rotation_used = (0..n).map(|_| turn(&mut rng, 3.0)).collect();
            frame.rotation = (0..n).map(|_| turn(&mut rng, 3.0)).collect();
            frame.rotation_weight = vec![0.0; n];
            let delta: Vec<Quat> = (0..n).map(|_| turn(&mut rng, 3.0)).collect();
            let p: Vec<Vec3A> = lanes
                .particles
                .iter()
                .map(|q| scattered(&mut rng, rig.pivot[q.body as usize], 0.1))
                .collect();
            let run = |plan: &LimbPlan| {
                let (mut p, mut delta, mut out) =
                    (p.clone(), delta.clone(), vec![BodyPose::IDENTITY; n]);
                limb_poses(plan, &rig, &frame, &mut p, &mut delta, &mut out);
                (delta, out)
            };
            let ((d1, o1), (d2, o2)) = (run(&lanes), run(&alone));
            assert_same_poses(&creature, (&d1, &o1), (&d2, &o2));
            compared += usize::from(!lanes.axis_lanes.is_empty());
        }
        assert!(compared >= 10, "only {compared} creatures have lanes");
    }

    /// The spine bone aims taken four at a time turn each bone as taken alone, to the bit:
    /// on every sample creature with its head sent somewhere, joints scattered about their
    /// rest places and every body's rotation random.
    #[test]
    fn aim_lanes_turn_as_the_bones_one_by_one() {
        use crate::ik::reconstruct::aim_spine_bones;
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut compared = 0;
        for creature in crate::test_samples::creatures().unwrap() {
            let n = creature.len();
            let caps = [Cap::Head, Cap::Grasper, Cap::Foot];
            let (rig, plan) = plan_sending(&creature, &caps, false);
            let lanes = plan.spine;
            let mut alone = lanes.clone();
            alone.aim_lanes.clear();
            alone.aim_alone = (0..alone.aim_pairs.len() as u16).collect();
            let scratch = Scratch {
                delta: vec![Quat::IDENTITY; n],
                joint: (0..n)
                    .map(|b| scattered(&mut rng, rig.pivot[b], 0.05))
                    .collect(),
                ..Scratch::default()
            };
            let start: Vec<BodyPose> = (0..n)
                .map(|_| BodyPose::new(glam::Vec3::ZERO, turn(&mut rng, 1.0)))
                .collect();
            let run = |plan: &super::super::spine::SpinePlan| {
                let (mut s, mut out) = (scratch.clone(), start.clone());
                aim_spine_bones(plan, &rig, &mut s, &mut out);
                (s.delta, out)
            };
            let ((d1, o1), (d2, o2)) = (run(&lanes), run(&alone));
            assert_same_poses(&creature, (&d1, &o1), (&d2, &o2));
            compared += usize::from(!lanes.aim_lanes.is_empty());
        }
        assert!(
            compared >= 5,
            "only {compared} creatures aim spine bones in lanes"
        );
    }
}
