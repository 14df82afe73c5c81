//! The spine phase (paper 4.3.2): particles only at IK branch points, each limb goal as one
//! constraint to the spine, spine splines between the particles, inner iterations leaves
//! inward inside outer iterations that watch for buckling.

use super::constraint::{Constraint, Hinges, Op, compile, relax};
use super::goals::{FrameGoals, RootPose};
use super::limb::SimplifiedLimb;
use super::plan::Topology;
use super::setup::{NONE, Rig};
use super::spline::{SegmentRecord, record_segment};
use super::tuning::{SpineTuning, shares};
use crate::creature::{Cap, Creature};
use crate::math::{rotate, smoothstep};
use glam::{Quat, Vec3A};

/// A spine particle, at the pivot of the spine body it is associated with. Particle 0 is
/// the root (at its centre), placed by the animator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SpineParticle {
    pub body: u32,
    /// The nearest rootward particle (0 for the root's children).
    pub rootward: u16,
    /// Rigidly attached to the root: the root and its children.
    pub fixed: bool,
    /// The body whose joint goal pins it, or `NONE`.
    pub goal_body: u32,
    /// Range into [`SpinePlan::leafward`].
    pub leaf_first: u16,
    pub leaf_count: u16,
    pub rest_len: f32,
    /// The rest tangent the root offers a child particle that ends the spine.
    pub root_tangent: Vec3A,
    /// Ends the spine with a position goal: its rotation is the one that carried the goal
    /// to its joint, so the goal body's centre lands on its goal (or, on a joint the root
    /// carries, points at it).
    pub end_goal: bool,
    /// The body is the target of a rotation goal.
    pub rotation_goal: bool,
}

/// A spline between two spine particles and the spine bodies rebuilt from it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Segment {
    pub a: u16,
    pub b: u16,
    pub record: SegmentRecord,
    /// The segment starts on a spine body that forks (several necks, a neck and a tail
    /// off one chest): its first interior body's joint is where that body carries it, in
    /// the body's rest frame. Each fork's spline would otherwise put the shared joint
    /// somewhere of its own, pulling the necks off the chest and apart. (That body, and
    /// the joint seen from its own in its rest frame.)
    pub carried_first: Option<(u32, Vec3A)>,
}

/// One step of the spine's forward kinematics from its rotation goals, parents first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct FkStep {
    pub body: u32,
    pub parent: u32,
    /// The body turns by its rotation goal; otherwise with its parent.
    pub rotation_goal: bool,
    /// Its rest pivot seen from its parent's, in rest-pose space.
    pub bone: Vec3A,
}

/// The spine posed forward-kinematically by its rotation goals: where the spine particles
/// start and where anti-buckling pulls them. A clip that bends the spine by rotations (bow,
/// nod) bends it before any limb pulls on it, so the position goals pull on the authored
/// bend and the rebuilt bodies keep their bones joined.
#[derive(Clone, Debug, Default)]
pub(super) struct SpineFk {
    pub joint: Vec<Vec3A>,
    pub delta: Vec<Quat>,
}

impl SpineFk {
    pub fn pose(&mut self, plan: &SpinePlan, rig: &Rig, goals: &FrameGoals, root: &RootPose) {
        let n = rig.len();
        if self.joint.len() < n {
            self.joint.resize(n, Vec3A::ZERO);
            self.delta.resize(n, Quat::IDENTITY);
        }
        let r = rig.root as usize;
        self.joint[r] = root.point(rig.pivot[r]);
        self.delta[r] = root.delta;
        for s in &plan.fk {
            let (b, p) = (s.body as usize, s.parent as usize);
            self.joint[b] = self.joint[p] + rotate(self.delta[p], s.bone);
            self.delta[b] = if s.rotation_goal {
                goals.rotation_used[b] * rig.inv_rotation[b]
            } else {
                self.delta[p]
            };
        }
    }
}

/// Neighbouring constraints `r→i` and `i→c` whose angle the buckling metric watches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct BucklePair {
    pub r: u16,
    pub i: u16,
    pub c: u16,
    /// `1 - cos` of their angle at rest.
    pub rest: f32,
}

#[derive(Clone, Debug, Default)]
pub(super) struct SpinePlan {
    pub particles: Vec<SpineParticle>,
    /// Pinned goal particles of simplified limbs, after the spine particles: their bodies.
    pub goal_slots: Vec<u32>,
    /// How each goal slot's simplified limb gives before it pulls the spine, one per slot.
    pub slot_give: Vec<LimbGive>,
    /// Leaves inward.
    pub constraints: Vec<Constraint>,
    /// What a pass runs: the constraints with hinges merged.
    pub ops: Vec<Op>,
    /// The passes that follow when the spine could not meet every goal: the same without
    /// the limbs whose goals do not hold the creature up (see [`iterate`]). Empty when no
    /// limb's goal is a foot's, or every one is.
    pub held_ops: Vec<Op>,
    pub leafward: Vec<u16>,
    pub segments: Vec<Segment>,
    /// Groups of particles whose bodies share a rest pivot (forks off one spine body, each
    /// with a goal): ranges into `shared_members`. They end a solve at their mean, one
    /// joint, as the limb phase gives such siblings one particle from the start.
    pub shared_pivots: Vec<(u16, u16)>,
    pub shared_members: Vec<u16>,
    pub buckle: Vec<BucklePair>,
    /// Particles free to move, pulled by anti-buckling.
    pub free: Vec<u16>,
    pub rest_tangent: Vec<Vec3A>,
    /// Spine bodies turned toward their only spine child after the splines, parents first.
    pub aim_pairs: Vec<super::reconstruct::AimPair>,
    /// The pairs without a rotation goal, four at a time (see `rebuild.rs`), and the rest,
    /// by their index in `aim_pairs`.
    pub aim_lanes: Vec<super::rebuild::AimLanes>,
    pub aim_alone: Vec<u16>,
    /// Per body, whether the bone aim poses it in the end (it has an aim pair without a
    /// rotation goal): the spine pass then leaves it with its rotation and joint only.
    pub aimed: Vec<bool>,
    /// Forward kinematics of the spine bodies with IK below the root, parents first.
    pub fk: Vec<FkStep>,
    pub min_stretch: f32,
    pub max_stretch: f32,
    /// A pass whose largest error is below this ends the iterations early (metres).
    pub tolerance: f32,
    /// No spine body but the root is a goal's target: a solve whose particles all stay at
    /// the forward-kinematic start leaves every spine body at its rest pose carried by the
    /// root, and [`reconstruct::spine_rest_poses`](super::reconstruct::spine_rest_poses)
    /// gives them that pose without fitting the splines that would rebuild it.
    pub rigid: bool,
}

impl SpinePlan {
    pub fn build(topo: &Topology, simplified: &[SimplifiedLimb]) -> SpinePlan {
        let rig = topo.rig;
        let t = &topo.tuning.spine;
        let root = rig.root as usize;
        let creature = topo.creature;
        let ik_children = |b: usize| {
            creature
                .children(b)
                .iter()
                .filter(|&&c| topo.has_ik[c] && !topo.delegating[c])
                .count()
        };
        let limb_attach = |b: usize| {
            creature
                .children(b)
                .iter()
                .any(|&c| !rig.spine[c] && topo.has_ik[c] && !topo.delegating[c])
        };
        // Rotation goals count too: the body must be rebuilt from a particle to take one.
        let has_goal = |b: usize| topo.position_target[b] || topo.rotation_target[b];
        let branch = |b: usize| has_goal(b) || ik_children(b) >= 2 || limb_attach(b);

        let mut plan = SpinePlan {
            min_stretch: t.min_stretch.min(1.0),
            max_stretch: t.max_stretch.max(1.0),
            tolerance: topo.tuning.tolerance * rig.size,
            ..SpinePlan::default()
        };
        let mut particle_of = vec![u16::MAX; rig.len()];
        plan.particles.push(SpineParticle {
            body: root as u32,
            rootward: 0,
            fixed: true,
            goal_body: NONE,
            leaf_first: 0,
            leaf_count: 0,
            rest_len: 0.0,
            root_tangent: Vec3A::ZERO,
            end_goal: false,
            rotation_goal: false,
        });
        particle_of[root] = 0;
        for &b in creature.order() {
            if b == root || !rig.spine[b] || !topo.has_ik[b] {
                continue;
            }
            let parent = rig.parent[b] as usize;
            if parent != root && !branch(b) {
                continue;
            }
            let mut up = parent;
            while particle_of[up] == u16::MAX {
                up = rig.parent[up] as usize;
            }
            let fixed = parent == root;
            plan.particles.push(SpineParticle {
                body: b as u32,
                rootward: particle_of[up],
                fixed,
                goal_body: if topo.position_target[b] && !fixed {
                    b as u32
                } else {
                    NONE
                },
                leaf_first: 0,
                leaf_count: 0,
                rest_len: rig.pivot[b]
                    .distance(rig.pivot[plan.particles[particle_of[up] as usize].body as usize]),
                root_tangent: rig.pivot[b] - rig.centre[root],
                end_goal: false,
                rotation_goal: topo.rotation_target[b],
            });
            particle_of[b] = (plan.particles.len() - 1) as u16;
        }
        let count = plan.particles.len();
        for i in 0..count {
            plan.particles[i].leaf_first = plan.leafward.len() as u16;
            for j in 1..count {
                if plan.particles[j].rootward as usize == i {
                    plan.leafward.push(j as u16);
                }
            }
            let p = &mut plan.particles[i];
            p.leaf_count = plan.leafward.len() as u16 - p.leaf_first;
            // A child of the root ends the spine on a joint the root carries: it can only
            // turn about it, and does, toward its goal (see `FrameGoals::prepare`).
            let fixed_goal = p.fixed && i > 0 && topo.position_target[p.body as usize];
            p.end_goal = p.leaf_count == 0 && (p.goal_body != NONE || fixed_goal);
        }

        // Simplified limbs hang pinned goal particles off their spine particle.
        let mut limb_constraints: Vec<Vec<Constraint>> = vec![Vec::new(); count];
        let mut reaching_slots = Vec::new();
        for s in simplified {
            let i = particle_of[s.spine_body as usize];
            if i == u16::MAX
                || plan.particles[i as usize].fixed
                || plan.particles[i as usize].goal_body != NONE
            {
                continue;
            }
            let slot = (count + plan.goal_slots.len()) as u16;
            plan.goal_slots.push(s.goal_body);
            if !creature.body(s.goal_body as usize).has_cap(&Cap::Foot) {
                reaching_slots.push(slot);
            }
            let (share, _) = shares(t.limb_attach_mass, t.limb_goal_mass);
            let reach = s.reach.max(s.rest_chord);
            let q = plan.particles[i as usize];
            let beyond = if q.leaf_count == 0 {
                spine_beyond(creature, rig, q.body as usize)
            } else {
                0.0
            };
            plan.slot_give.push(LimbGive {
                attach: i,
                reach,
                zone: t.limb_give_zone.max(0.0) * reach,
                most: t.limb_give_most.max(0.0) * reach,
                follow: if q.rest_len + beyond > 0.0 {
                    (t.limb_give_lever.max(0.0) * q.rest_len / (q.rest_len + beyond)).min(1.0)
                } else {
                    1.0
                },
            });
            limb_constraints[i as usize].push(Constraint {
                a: i,
                b: slot,
                share_a: share,
                share_b: 0.0,
                min_len: t.limb_min_compress * s.rest_chord,
                max_len: reach,
                soft: 0.0,
                overshoot: 0.0,
                overshoot_cap: 0.0,
            });
        }
        for i in (1..count).rev() {
            plan.constraints.extend(limb_constraints[i].iter().copied());
            let p = plan.particles[i];
            let r = plan.particles[p.rootward as usize];
            if p.fixed {
                continue;
            }
            let (still_i, still_r) = (p.goal_body != NONE, r.fixed || r.goal_body != NONE);
            let (share_a, share_b) = match (still_r, still_i) {
                (true, true) => continue,
                (true, false) => (0.0, 1.0),
                (false, true) => (1.0, 0.0),
                (false, false) => shares(t.rootward_mass, t.leafward_mass),
            };
            plan.constraints.push(Constraint {
                a: p.rootward,
                b: i as u16,
                share_a,
                share_b,
                min_len: p.rest_len,
                max_len: p.rest_len,
                soft: t.soft_zone * p.rest_len,
                overshoot: 0.0,
                overshoot_cap: 0.0,
            });
        }

        let still: Vec<bool> = (0..count + plan.goal_slots.len())
            .map(|i| i >= count || plan.particles[i].fixed || plan.particles[i].goal_body != NONE)
            .collect();
        plan.ops = compile(&plan.constraints, &still, Hinges::Anchored).ops;
        if !reaching_slots.is_empty() && reaching_slots.len() < plan.goal_slots.len() {
            let held: Vec<Constraint> = plan
                .constraints
                .iter()
                .filter(|c| !reaching_slots.contains(&c.b))
                .copied()
                .collect();
            plan.held_ops = compile(&held, &still, Hinges::Anchored).ops;
        }

        let rest: Vec<Vec3A> = plan
            .particles
            .iter()
            .enumerate()
            .map(|(i, p)| {
                if i == 0 {
                    rig.centre[root]
                } else {
                    rig.pivot[p.body as usize]
                }
            })
            .collect();
        plan.rest_tangent = vec![Vec3A::ZERO; count];
        let mut tangent = std::mem::take(&mut plan.rest_tangent);
        tangents(&plan, &rest, Quat::IDENTITY, &mut tangent);
        plan.rest_tangent = tangent;

        for i in 1..count {
            let p = plan.particles[i];
            if !p.fixed && p.goal_body == NONE {
                plan.free.push(i as u16);
            }
            for &c in &plan.leafward[p.leaf_first as usize..(p.leaf_first + p.leaf_count) as usize]
            {
                plan.buckle.push(BucklePair {
                    r: p.rootward,
                    i: i as u16,
                    c,
                    rest: bend(rest[p.rootward as usize], rest[i], rest[c as usize]),
                });
            }
            if p.rootward != 0 {
                plan.push_segment(rig, p.rootward, i as u16);
            }
        }
        for i in 1..count as u16 {
            let body = |k: u16| plan.particles[k as usize].body as usize;
            let same = |j: u16| {
                plan.particles[j as usize].rootward == plan.particles[i as usize].rootward
                    && rig.same_pivot(body(j), body(i))
            };
            if (1..i).any(same) {
                continue;
            }
            let from = plan.shared_members.len() as u16;
            plan.shared_members
                .extend((i..count as u16).filter(|&j| j == i || same(j)));
            let len = plan.shared_members.len() as u16 - from;
            if len >= 2 {
                plan.shared_pivots.push((from, len));
            } else {
                plan.shared_members.truncate(from as usize);
            }
        }
        plan.aim_pairs = super::reconstruct::spine_aim_pairs(&plan, rig);
        (plan.aim_lanes, plan.aim_alone) = super::rebuild::aim_groups(&plan.aim_pairs, rig);
        plan.aimed = vec![false; rig.len()];
        for pair in plan.aim_pairs.iter().filter(|p| !p.rotation_goal) {
            plan.aimed[pair.body as usize] = true;
        }
        plan.fk = creature
            .order()
            .iter()
            .filter(|&&b| b != root && rig.spine[b] && topo.has_ik[b])
            .filter(|&&b| rig.parent[b] != NONE)
            .map(|&b| FkStep {
                body: b as u32,
                parent: rig.parent[b],
                rotation_goal: topo.rotation_target[b],
                bone: rig.pivot[b] - rig.pivot[rig.parent[b] as usize],
            })
            .collect();
        plan.rigid = plan.fk.iter().all(|f| !has_goal(f.body as usize));
        plan
    }

    /// Whether the solve left every spine particle where it started: no constraint was off
    /// by anything (a limb in reach pulls on nothing). Exact comparison: a particle moved
    /// by rounding alone is moved, and takes the full rebuild.
    pub fn unmoved(&self, p: &[Vec3A], fk: &SpineFk) -> bool {
        self.rigid
            && self
                .particles
                .iter()
                .zip(p)
                .skip(1)
                .all(|(q, &at)| at == fk.joint[q.body as usize])
    }

    fn push_segment(&mut self, rig: &Rig, a: u16, b: u16) {
        let (body_a, body_b) = (
            self.particles[a as usize].body as usize,
            self.particles[b as usize].body as usize,
        );
        let mut inner = Vec::new();
        let mut at = rig.parent[body_b] as usize;
        while at != body_a {
            inner.push(at as u32);
            at = rig.parent[at] as usize;
        }
        if inner.is_empty() {
            return;
        }
        inner.reverse();
        let mut pivots = vec![rig.pivot[body_a]];
        pivots.extend(inner.iter().map(|&x| rig.pivot[x as usize]));
        pivots.push(rig.pivot[body_b]);
        let rotations: Vec<Quat> = inner.iter().map(|&x| rig.rotation[x as usize]).collect();
        let record = record_segment(
            &pivots,
            &inner,
            &rotations,
            rig.rotation[body_a],
            rig.rotation[body_b],
        );
        let forks = (0..rig.len())
            .filter(|&c| rig.spine[c] && rig.parent[c] == body_a as u32)
            .count()
            >= 2;
        let carried_first = forks.then(|| {
            (
                body_a as u32,
                rig.inv_rotation[body_a] * (pivots[1] - pivots[0]),
            )
        });
        self.segments.push(Segment {
            a,
            b,
            record,
            carried_first,
        });
    }
}

/// A simplified limb holds back before it pulls the spine: as its goal passes the limb's
/// reach the spine eases in (C1, by the soft-correction curve) over `spine.limb_give_zone`
/// of the reach, and then follows the goal, easing out again into `spine.limb_give_most` of
/// the reach (see [`SpineTuning::limb_give_most`]). The give is measured once, from where the
/// root-relative rest pose puts the spine particle, so the constraint stays hard: the result
/// does not depend on how many passes run, and the chest (and the head riding on it) turns
/// smoothly as an animated reach grazes the arm's length.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LimbGive {
    /// The spine particle the limb hangs from.
    pub attach: u16,
    pub reach: f32,
    /// Width of the soft zone; the limb keeps at most half of it as stretch.
    pub zone: f32,
    /// How much of the pull the attachment follows: the spine beyond the attachment (a long
    /// front half, a neck and head) rides on it rigidly and sweeps farther than it moves,
    /// so it follows only as much as keeps that sweep within `spine.limb_give_lever` times
    /// the pull (see [`SpineTuning::limb_give_lever`]).
    pub follow: f32,
    /// The most the spine moves toward the goal (`spine.limb_give_most` of the reach).
    pub most: f32,
}

impl LimbGive {
    /// Where the limb's goal particle goes: the goal, drawn toward the attachment by what
    /// the limb keeps as stretch and by what the spine does not follow.
    fn slot(&self, attach: Vec3A, goal: Vec3A) -> Vec3A {
        let d = goal - attach;
        let dist = d.length();
        let excess = dist - self.reach;
        if excess <= 0.0 || !dist.is_finite() {
            return goal;
        }
        let pulled = self.follow * give(excess, self.zone, self.most);
        let kept = excess - pulled;
        goal - d * (kept / dist)
    }
}

/// How far the spine follows a goal `excess` beyond the reach: it eases in over `zone` (the
/// soft-correction curve, at most slope 1), follows, and eases out as gently into `most`,
/// which it then keeps. A `most` too small to reach full slope meets the ease-out halfway,
/// so the curve never bends more sharply than the ease-in: a knee sharper than it jerked the
/// spine to a stop as a goal swept out.
fn give(excess: f32, zone: f32, most: f32) -> f32 {
    if most <= 0.0 {
        return 0.0;
    }
    if zone <= 0.0 {
        return excess.min(most);
    }
    let ease = zone.min((most * zone).sqrt());
    let slope = ease / zone;
    let out = most / slope;
    if excess <= ease {
        excess * excess / (2.0 * zone)
    } else if excess <= out {
        slope * (0.5 * ease + excess - ease)
    } else if excess <= out + ease {
        let left = out + ease - excess;
        most - left * left / (2.0 * zone)
    } else {
        most
    }
}

/// The longest path of spine joints leafward of body `b`'s joint: how far the spine reaches
/// beyond it.
fn spine_beyond(creature: &Creature, rig: &Rig, b: usize) -> f32 {
    creature
        .children(b)
        .iter()
        .filter(|&&c| rig.spine[c])
        .map(|&c| rig.pivot[b].distance(rig.pivot[c]) + spine_beyond(creature, rig, c))
        .fold(0.0, f32::max)
}

/// `1 - cos` of the angle between `i - r` and `c - i`: 0 straight on, 2 folded back.
fn bend(r: Vec3A, i: Vec3A, c: Vec3A) -> f32 {
    let (u, v) = (i - r, c - i);
    let ll = (u.length_squared() * v.length_squared()).sqrt();
    if ll > 1e-20 && ll.is_finite() {
        1.0 - u.dot(v) / ll
    } else {
        0.0
    }
}

/// Particle tangents (paper 4.3.2, "Reconstruction"): three-point differences inside the
/// spine, natural-cubic end tangents at its ends, the root's own rest tangent carried by
/// the root for particles that hang straight off it.
pub(super) fn tangents(plan: &SpinePlan, p: &[Vec3A], root_delta: Quat, out: &mut [Vec3A]) {
    for i in 1..plan.particles.len() {
        let q = plan.particles[i];
        let r = q.rootward as usize;
        out[i] = if q.leaf_count > 0 {
            let leaves =
                &plan.leafward[q.leaf_first as usize..(q.leaf_first + q.leaf_count) as usize];
            let mean =
                leaves.iter().map(|&c| p[c as usize]).sum::<Vec3A>() / f32::from(q.leaf_count);
            (mean - p[r]) * 0.5
        } else {
            // Zero second derivative at the end of a cubic from the rootward particle.
            let v_r = if r == 0 {
                root_delta * q.root_tangent
            } else {
                out[r]
            };
            (p[i] - p[r]) * 1.5 - v_r * 0.5
        };
    }
}

/// Places the spine particles (root-relative rest, goals pinned) and iterates. Returns
/// (passes run, anti-buckling weight reached).
///
/// The weight is judged on the spine as the passes alone would leave it, and then the
/// spine is solved again from the start with every pass pulling toward rest by it: the
/// pose then follows the goals continuously. Judged between outer iterations instead, as
/// the passes went, it depended on the iteration in which the spine first bent past
/// `buckling_start` (a whole outer iteration more or less of pulling from one frame to
/// the next), and on a spine already pulled: a centaur lowering its hands to the ground
/// bobbed its chest up and down by 3 cm on the validation grid.
#[allow(clippy::too_many_arguments)]
pub(super) fn solve_spine(
    plan: &SpinePlan,
    tuning: &SpineTuning,
    goals: &FrameGoals,
    root: &RootPose,
    fk: &SpineFk,
    p: &mut Vec<Vec3A>,
    rest: &mut Vec<Vec3A>,
) -> (u32, f32) {
    place(plan, goals, root, fk, p);
    rest.clear();
    if plan.constraints.is_empty() {
        // Nothing can move, but the record still says how folded the spine is.
        return (0, buckling(plan, p, tuning));
    }
    let passes = iterate(plan, tuning, p, rest, 0.0);
    let weight = buckling(plan, p, tuning);
    if weight <= 0.0 {
        return (passes, 0.0);
    }
    rest.push(root.position);
    rest.extend(
        plan.particles[1..]
            .iter()
            .map(|q| fk.joint[q.body as usize]),
    );
    place(plan, goals, root, fk, p);
    // Each pass pulls by the share that, over all of them, comes to `weight × strength` of
    // the way to rest: the blend then grows in step with the weight. Pulled by the blend
    // itself every pass, ten passes made the first hundredth of weight a tenth of the way.
    let blend = (weight * tuning.anti_buckling_strength).clamp(0.0, 1.0);
    let total = tuning.outer_iterations * tuning.inner_iterations;
    let pull = if blend >= 1.0 {
        1.0
    } else {
        1.0 - (1.0 - blend).powf(1.0 / total.max(1) as f32)
    };
    (passes + iterate(plan, tuning, p, rest, pull), weight)
}

/// The spine particles where a solve starts: the root, goals on their joints, the rest at
/// the forward-kinematic start, and the simplified limbs' goal ends.
fn place(plan: &SpinePlan, goals: &FrameGoals, root: &RootPose, fk: &SpineFk, p: &mut Vec<Vec3A>) {
    p.clear();
    p.push(root.position);
    for q in &plan.particles[1..] {
        p.push(if q.goal_body != NONE {
            goals.joint[q.goal_body as usize]
        } else {
            fk.joint[q.body as usize]
        });
    }
    for (&g, give) in plan.goal_slots.iter().zip(&plan.slot_give) {
        p.push(give.slot(p[give.attach as usize], goals.joint[g as usize]));
    }
}

/// The outer and inner iterations, each pass pulling every free particle toward `rest` by
/// `pull` (none at 0). Returns the passes run.
fn iterate(
    plan: &SpinePlan,
    tuning: &SpineTuning,
    p: &mut [Vec3A],
    rest: &[Vec3A],
    pull: f32,
) -> u32 {
    // The buckling metric is judged once, after all of them, so the outer iterations are
    // only a count of passes now.
    let total = tuning.outer_iterations * tuning.inner_iterations;
    for passes in 1..=total {
        let worst = relax(p, &plan.ops).worst;
        if pull > 0.0 {
            for &i in &plan.free {
                let i = i as usize;
                p[i] += (rest[i] - p[i]) * pull;
            }
        }
        // Without a pull, a pass that moved nothing leaves nothing for the next.
        if worst <= plan.tolerance && pull <= 0.0 {
            return passes;
        }
    }
    // The goals could not all be met. A foot holds the creature up and a hand does not
    // (see `Builder::mark_support` in limb.rs), so the spine leans toward the hands only as
    // far as the feet allow: passes without the hands' limbs take the spine from where the
    // hands pulled it to the nearest place the feet and the spine's own bones accept. The
    // hands then reach from there. Every foot held and a hand sent three limb lengths away
    // (`planted_feet_hold_while_a_hand_reaches_far`), 42 of 10,452 feet ended over 1 % of
    // their leg off without these passes (worst 26 %), 33 with them (worst 18 %).
    let mut passes = total;
    if !plan.held_ops.is_empty() {
        for _ in 0..total {
            passes += 1;
            if relax(p, &plan.held_ops).worst <= plan.tolerance {
                break;
            }
        }
    }
    passes
}

/// The buckling metric turned into the anti-buckling weight (0..1): how much more than at
/// rest the most bent pair of neighbouring spine constraints folds.
fn buckling(plan: &SpinePlan, p: &[Vec3A], tuning: &SpineTuning) -> f32 {
    let start = tuning.buckling_start;
    let worst = plan
        .buckle
        .iter()
        .filter_map(|b| {
            let (r, i, c) = (p[b.r as usize], p[b.i as usize], p[b.c as usize]);
            // Below `start` a pair adds nothing, and nearly every pair of every frame is
            // far below it: `1 - cos >= rest + start` is first tested without the square
            // root and division of the exact value, as `dot <= k |u| |v|` squared.
            let (u, v) = (i - r, c - i);
            let (dot, k) = (u.dot(v), 1.0 - b.rest - start);
            let bound = k * k * (u.length_squared() * v.length_squared());
            let maybe = if k >= 0.0 {
                dot <= 0.0 || dot * dot <= bound
            } else {
                dot < 0.0 && dot * dot >= bound
            };
            // Not a NaN: a non-finite product fails both tests and must still be judged.
            (maybe || !bound.is_finite()).then(|| bend(r, i, c) - b.rest)
        })
        .fold(0.0f32, f32::max);
    smoothstep(start, tuning.buckling_full, worst)
}

#[cfg(test)]
mod tests {
    use super::super::constraint::soft_correction;
    use super::*;
    use proptest::prelude::*;

    /// The metric exactly as the paper states it: every pair's `1 - cos` beyond its rest,
    /// the worst through the smoothstep.
    fn exact(plan: &SpinePlan, p: &[Vec3A], tuning: &SpineTuning) -> f32 {
        let worst = plan
            .buckle
            .iter()
            .map(|b| bend(p[b.r as usize], p[b.i as usize], p[b.c as usize]) - b.rest)
            .fold(0.0f32, f32::max);
        smoothstep(tuning.buckling_start, tuning.buckling_full, worst)
    }

    /// The spine's pull toward a far goal: the soft-correction curve until it nears its
    /// most, which it never passes; it never shrinks as the goal goes farther, has no kink,
    /// and never bends more sharply than its ease-in.
    #[test]
    fn the_spines_give_eases_in_and_out() {
        let zone = 0.6;
        for most in [0.0f32, 0.05, 0.2, 0.3, 0.6, 2.0] {
            let h = 1e-3;
            let slope = |x: f32| (give(x + h, zone, most) - give(x - h, zone, most)) / (2.0 * h);
            let mut last = 0.0;
            for i in 0..=600 {
                let x = 4.0 * i as f32 / 600.0;
                let y = give(x, zone, most);
                assert!(y <= most && y >= last - 1e-6, "{most}: {x} gives {y}");
                if most >= 2.0 && x <= 1.5 {
                    assert!((y - soft_correction(x, zone)).abs() < 1e-5, "{x}: {y}");
                }
                last = y;
                if i > 0 {
                    let bend = (slope(x + 2.0 * h) - slope(x - 2.0 * h)) / (4.0 * h);
                    assert!(
                        bend.abs() <= 1.0 / zone + 0.05,
                        "{most}: bends {bend} at {x}"
                    );
                }
            }
            assert!((give(10.0, zone, most) - most).abs() < 1e-6);
        }
    }

    fn point() -> impl Strategy<Value = Vec3A> {
        (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0).prop_map(|(x, y, z)| Vec3A::new(x, y, z))
    }

    proptest! {
        /// The shortcut that skips pairs well short of buckling gives the exact metric:
        /// straight, bent and folded-back pairs, with rest bends and thresholds either side
        /// of 1 (where the test's sign flips), and coincident points.
        #[test]
        fn the_buckling_shortcut_gives_the_exact_metric(
            points in proptest::collection::vec(point(), 3..8),
            rests in proptest::collection::vec(0.0f32..2.0, 6),
            start in -0.5f32..2.0,
            width in 0.0f32..1.0,
            coincide in any::<bool>(),
        ) {
            let mut p = points;
            if coincide {
                p[1] = p[0];
            }
            let plan = SpinePlan {
                buckle: (0..p.len() - 2)
                    .map(|k| BucklePair {
                        r: k as u16,
                        i: k as u16 + 1,
                        c: k as u16 + 2,
                        rest: rests[k % rests.len()],
                    })
                    .collect(),
                ..SpinePlan::default()
            };
            let tuning = SpineTuning {
                buckling_start: start,
                buckling_full: start + width,
                ..SpineTuning::default()
            };
            let (fast, slow) = (buckling(&plan, &p, &tuning), exact(&plan, &p, &tuning));
            prop_assert!((fast - slow).abs() < 1e-4, "{fast} vs {slow}");
        }
    }
}
