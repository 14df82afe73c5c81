//! The limb phase (paper 4.3.3): particles at every limb joint, a constraint per limb body,
//! cross-constraints between sibling IK children, the aim preconditioner and the iteration.
//! The posed spine is fixed here; reconstruction is in `reconstruct.rs`.

use super::constraint::{
    ArcTurn, Constraint, Hinges, Op, compile, frame_of, relax, soft_correction, tripod_point,
};
use super::goals::FrameGoals;
use super::plan::Topology;
use super::rebuild::{self, AxisLanes, GoalLanes, Rebuild};
use super::setup::NONE;
use super::tuning::{LimbTuning, shares};
use crate::creature::Cap;
use crate::jiggle::swings_free;
use crate::math::{rotate, segment_closest, segment_distance};
use crate::pose::BodyPose;
use glam::{Quat, Vec3A};

/// Marks "no particle".
pub(super) const NO_PARTICLE: u16 = u16::MAX;

/// How far a hand's goal deep in a trunk body leans toward the side the hand hangs on at
/// rest as it is pushed out (relative to straight out, at the body's axis).
pub const HAND_SIDE_LEAN: f32 = 0.3;

/// How deep a hand may sink beyond the clearance (a fraction of the thinner radius of it and
/// the trunk body) and count as all but out: a push from deeper that leaves it no deeper
/// than this is kept (see [`pushed_pin_kept`]).
pub const PUSHED_PIN_DEPTH: f32 = 0.1;

/// Whether a hand pushed out of the trunk keeps the push, from how deep it sinks at its goal
/// (`was`) and where the push leaves it (`now`), beyond the clearance, as fractions of the
/// thinner radius (the deepest of the trunk bodies it could reach): the push must
/// at least halve the depth, or bring a hand from deeper than [`PUSHED_PIN_DEPTH`] to no
/// deeper than it. Otherwise the hand goes to its goal: a miss for a hand hardly less deep
/// (out of one body and into the next) buys nothing, and one already all but out has
/// nothing to gain. Shared by the IK and the validation grid, which expects what it does.
pub fn pushed_pin_kept(was: f32, now: f32) -> bool {
    now <= 0.5 * was || (was > PUSHED_PIN_DEPTH && now <= PUSHED_PIN_DEPTH)
}

/// A limb whose joints all lie nearer the line from its pivot to its goal particles than
/// this fraction of that distance, at rest, is bowed by the aim (see [`bow`]).
const STRAIGHT_LIMB: f32 = 0.05;

/// A limb straight enough for the aim's [`bow`] whose joints lie this fraction of its
/// length off the line at rest, or farther, bows the way it bends.
const OWN_BEND: f32 = 0.005;

/// How much of a straight limb's squash its bones take before the aim's [`bow`] takes
/// over, as a fraction of the limb phase's soft zone: they take it all at first and never
/// more than this (a smooth, saturating share), well inside the half soft zone the passes
/// count as met.
const BOW_BONE_SHARE: f32 = 0.3;

/// A bow higher than this fraction of its limb's length is refined by a Newton step on the
/// bones' exact lengths (below, the second-order height is off by under a thousandth of
/// the length).
const NEWTON_BOW: f32 = 0.05;

/// Rounds of [`meet`] finding a point within two balls.
const FOOT_HOLD_ROUNDS: usize = 8;

/// The least bend at rest (radians) of a joint that a chain of hinges may pass through.
const HINGE_MIN_BEND: f32 = 0.35;

/// A [`Tripod`](super::constraint::Tripod)'s knee standing off the plane of its hip and feet at rest by more than
/// this fraction of its leg's length bends that way; nearer the plane, it bends to the
/// clearer side.
const TRIPOD_REST_OFFSET: f32 = 0.005;

/// How far (radians) a [`Tripod`](super::constraint::Tripod)'s knee is swung each way to
/// see which side is clearer, and by how much (a fraction of its leg's length) one side
/// must be clearer to be chosen for it.
const TRIPOD_TRIAL_SWING: f32 = 0.5;
const TRIPOD_CLEARER: f32 = 0.01;

/// A limb: the IK sub-tree under one non-spine child of a spine body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Limb {
    pub spine_body: u32,
    /// Particle range; `first` sits on the spine attachment and never moves.
    pub first: u16,
    pub end: u16,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct LimbParticle {
    /// The body whose pivot the particle stands for (siblings sharing a pivot share it).
    pub body: u32,
    /// The body whose joint goal pins it, or `NONE`.
    pub goal_body: u32,
    /// Where it is at rest: the body's pivot.
    pub rest: Vec3A,
    pub parent: u16,
    pub limb: u16,
    pub rest_len: f32,
    /// Rest direction from the parent particle, for the rare zero-length fallback.
    pub rest_axis: Vec3A,
    /// The rest pivot seen from the limb's spine body's rest centre.
    pub from_spine: Vec3A,
    /// One past the last particle of its sub-tree (particles are in depth-first order).
    pub subtree_end: u16,
    /// In a limb with one pinned particle: on the path from the attachment to it.
    pub on_pin_path: bool,
    /// Its index in [`LimbPlan::pinned`], or [`NO_PARTICLE`].
    pub pin: u16,
    /// It or a particle below it is pinned: the reaching sweeps move it toward a goal.
    pub toward_pin: bool,
    /// It or a particle below it is pinned by a foot, in a limb with a goal off that path: it
    /// holds the creature up (see [`Builder::mark_support`]).
    pub support: bool,
}

/// Where a pinned particle's reach is measured from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Anchor {
    Pin(u16),
    Attachment(u16),
}

/// A pin held beside a foot pin of its limb: both hang from a fork, an unpinned particle
/// that hangs in turn from `anchor`; the rest lengths of the bones from each to the fork.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct FootBound {
    /// The held pin and the foot's, indices in [`LimbPlan::pinned`].
    pub pin: u16,
    pub foot: u16,
    pub anchor: Anchor,
    pub anchor_to_fork: f32,
    /// From the fork to the joint where the foot's side leaves it, and from the foot to
    /// that joint.
    pub fork_to_joint: f32,
    pub foot_to_joint: f32,
    pub pin_to_fork: f32,
    /// From the pin to the joint toward the foot, through the joint toward the pin: the
    /// fork's body holds the two joints a fixed length apart.
    pub pin_to_joint: f32,
}

/// A limb phase's per-frame buffers.
#[derive(Clone, Debug, Default)]
pub(super) struct LimbScratch {
    /// Per pinned particle: where it is pinned (its goal, or the reach toward it).
    pins: Vec<Vec3A>,
    /// Per pinned particle: how much its limb is stretched after the passes to reach a
    /// goal beyond the bones' lengths (1: not at all).
    stretch: Vec<f32>,
    /// Per particle: how far the stretch moved it.
    moved: Vec<Vec3A>,
    /// Per particle: the sum and count of where its pinned children would put it (the
    /// reaching sweeps, `reach.rs`).
    sweep: Vec<(Vec3A, f32)>,
    /// Per obstacle of the plan: its posed centre and half axis, and one over the half
    /// axis's squared length.
    obstacles: Vec<(Vec3A, Vec3A, f32)>,
    /// The keep-out's rounds: the particles before a push, and the same settled by the
    /// passes with no push (see [`keep_out_rounds`]).
    unpushed: Vec<Vec3A>,
    settled: Vec<Vec3A>,
}

/// One step of the aim preconditioner: rotate and scale particles `first..end` about
/// `pivot` so the weighted average of their goal particles lands on its goal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct AimStep {
    pub pivot: u16,
    /// The pivot has a goal of its own: put it there first. Its index in
    /// [`LimbPlan::pinned`].
    pub pin_pivot: Option<u16>,
    pub first: u16,
    pub end: u16,
    /// Range into [`LimbPlan::pinned`].
    pub goals: (u16, u16),
    /// Whether and which way the aim bows the particles when it squashes them (see
    /// [`bow`]).
    pub bow: Bow,
}

/// Which way the aim bows a squashed limb (see [`bow`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bow {
    /// Bent enough at rest for the passes to bend it further.
    None,
    /// The way it bends at rest, a little.
    Own,
    /// In a line at rest: toward the creature's front.
    Ahead,
}

/// How a limb body's rotation is rebuilt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum BodyKind {
    /// No IK child, and its joint sits on the spine: it turns to aim its centre at the goal.
    AimAtGoal,
    /// No IK child, with a position goal: the rotation that carried that goal to the joint.
    Goal,
    /// No IK child and only a rotation goal: follows its parent, then the goal by weight.
    Follow,
    /// One IK child particle: minimal twist from the parent-relative rest axis (unit
    /// length; zero for a child on the body's own joint).
    Axis { child: u16, rest_axis: Vec3A },
    /// Several IK child particles fix the frame: the first two constraint axes.
    Frame {
        first: u16,
        second: u16,
        rest_axis: Vec3A,
        rest_frame_inverse: Quat,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct LimbBody {
    pub body: u32,
    pub parent: u32,
    pub particle: u16,
    pub kind: BodyKind,
    /// The body is the target of a rotation goal.
    pub rotation_goal: bool,
}

/// A limb goal as the spine phase sees it: one constraint from the spine to the goal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SimplifiedLimb {
    pub spine_body: u32,
    pub goal_body: u32,
    pub rest_chord: f32,
    /// The farthest the limb reaches from the spine body's pivot.
    pub reach: f32,
}

/// An arm bone and a trunk body it must not sink into deeper than at rest (see
/// [`keep_out`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct KeepOut {
    /// The bone runs between these particles.
    pub a: u16,
    pub b: u16,
    /// How much of a push each end takes: 0 for an end that may not move.
    pub share_a: f32,
    pub share_b: f32,
    /// Index into [`LimbPlan::obstacles`].
    pub obstacle: u16,
    /// The least distance the bone's and the body's axes keep: both radii, less however
    /// deep they already overlap at rest and a quarter of the thinner radius.
    pub clearance: f32,
    /// Beyond this distance between the bone's middle and the body's axis they cannot
    /// touch (half the bone at its longest, and the clearance).
    pub bound: f32,
    /// Beyond this squared distance between the bone's middle and the body's centre they
    /// cannot touch either (`bound` and half the body's axis): a test with no projection
    /// onto the axis, which sets most pairs aside (see [`far_apart`]).
    pub far_sq: f32,
    /// The side of the body the bone is on at rest (unit, rest-pose space, from the body's
    /// axis), which a deep bone is pushed out toward (see [`out_of`]).
    pub side: Vec3A,
}

/// A bone of [`LimbPlan::keep_out`] on the path of bones from its limb's attachment to a
/// pin: where the limb is held nearly straight toward that pin, the keep-out can bend the
/// bone aside only as far as the limb's slack allows (see [`pull_in`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ChordKeepOut {
    /// Index into [`LimbPlan::pinned`].
    pub pin: u16,
    /// Index into [`LimbPlan::keep_out`].
    pub keep_out: u16,
    /// Where the bone starts and ends along the path, as fractions of the pin's reach.
    pub from: f32,
    pub to: f32,
}

/// A hand whose goal is moved out of a trunk body it would sink into (see
/// [`deflect_pins`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct PinKeepOut {
    /// Index into [`LimbPlan::pinned`].
    pub pin: u16,
    /// The trunk body.
    pub body: u32,
    /// The goal body: its capsule is what must stay out.
    pub target: u32,
    /// Half its capsule's axis in its own frame.
    pub half_axis: Vec3A,
    /// Index into [`LimbPlan::obstacles`].
    pub obstacle: u16,
    /// As [`KeepOut::clearance`], between the hand's axis and the body's.
    pub clearance: f32,
    /// The thinner radius of the two, the unit of how deep the hand sinks: a small hand
    /// half inside a large body is deep, though a small part of their clearance.
    pub thinner: f32,
    /// Beyond this distance between the hand's centre and the body's axis they cannot
    /// touch (half the hand's axis, and the clearance).
    pub bound: f32,
    /// As [`KeepOut::far_sq`], from the hand's centre.
    pub far_sq: f32,
    /// The side of the body the hand hangs on at rest (unit, rest-pose space, from the
    /// body's axis), which a deep goal is pushed out toward.
    pub side: Vec3A,
}

/// A trunk body, or a body of a free limb, some arm bone keeps out of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Obstacle {
    pub body: u32,
    /// The trunk body the spine phase places that it follows rigidly (itself when the
    /// spine phase places it): a neck or head with no goal is posed only after the limbs,
    /// so its place is carried from that body's.
    pub anchor: u32,
    /// Its rest centre seen from its anchor's, and half its capsule's axis, both in
    /// rest-pose space: the posed ones are the anchor's rotation delta times these.
    pub offset: Vec3A,
    pub half_axis: Vec3A,
    /// A body of a free limb (see [`Builder::solids`]): `offset` reaches the
    /// limb's joint on the trunk, and the body hangs from there as at rest relative to
    /// the root, `hang` (its centre from that joint, rest-pose space) and `half_axis`
    /// turned by the root's delta, as the jiggles animate it.
    pub hang: Option<Vec3A>,
    /// One over `half_axis`'s squared length (0 for a sphere): fixed by the rest pose.
    pub inv_axis_sq: f32,
}

#[derive(Clone, Debug, Default)]
pub(super) struct LimbPlan {
    pub limbs: Vec<Limb>,
    pub particles: Vec<LimbParticle>,
    /// Leaves inward.
    pub constraints: Vec<Constraint>,
    /// What a pass runs: the constraints with hinges merged.
    pub ops: Vec<Op>,
    /// Every step is a hinge: a pass whose hinges all met their lengths solved the limbs.
    pub all_hinges: bool,
    /// What the first pass runs, when it differs from `ops`: hinge chains also anchored on
    /// settled particles ([`Hinges::Settled`]), so the biped's arm (a bent shoulder, a
    /// straight elbow) is solved in one pass when its wrist is within reach.
    pub first_ops: Option<(Vec<Op>, bool)>,
    /// The particles `first_ops` settles. The aim turns them with their limb; they start
    /// the first pass back where their spine body carries them instead, and are settled
    /// from there: the biped's straight elbow lands on its sphere about the wrist's goal
    /// on the side of its rest place, below the shoulder, rather than wherever the aim
    /// swung it (often into the chest).
    pub settled: Vec<u16>,
    pub aims: Vec<AimStep>,
    /// Pinned particles, ascending.
    pub pinned: Vec<u16>,
    /// Per pinned particle: what it hangs from — the nearest pinned ancestor (its index
    /// in `pinned`) or else the attachment (its particle) — and the length of the path of
    /// bones between them, the farthest the limb can hold it from there.
    pub reach: Vec<(Anchor, f32)>,
    /// Per pinned particle: from how far it is held softly (see [`held_distance`]): as far
    /// short of the reach as the stretch limit lets the limb go beyond it, but never
    /// nearer than at rest, so a limb held at its rest extension keeps its rest shape.
    pub soft_start: Vec<f32>,
    /// Per pinned particle: the nearest its path of bones can hold it to what it hangs from
    /// (0 for a path that can fold; a bone's shortest for a path of one).
    pub near: Vec<f32>,
    /// Per pinned particle: it is its limb's only one, so the limb may stretch toward it.
    pub single_pin: Vec<bool>,
    /// Pins held beside a foot of their limb they neither hang from nor carry (see
    /// [`Builder::bound_by_feet`]), pins in order, parents first.
    pub foot_bounds: Vec<FootBound>,
    /// Some pinned particle's body has a position goal and no rotation goal: its joint goal
    /// comes from a turn the goals guess, and may have to be brought within reach
    /// (`FrameGoals::reachable_joints`).
    pub turned_pins: bool,
    /// Reconstruction order: parents first, the limbs' bodies taken in turn.
    pub bodies: Vec<LimbBody>,
    /// How the rebuild takes `bodies`: one by one or four alike at once, depth by depth
    /// (see `rebuild.rs`).
    pub rebuild: Vec<Rebuild>,
    pub axis_lanes: Vec<AxisLanes>,
    pub goal_lanes: Vec<GoalLanes>,
    /// The particles projected to the allowed stretch before the rebuild, parents first,
    /// the limbs taken in turn (each limb's first particle, on the spine, stays).
    pub projection: Vec<u16>,
    pub simplified: Vec<SimplifiedLimb>,
    pub keep_out: Vec<KeepOut>,
    pub chord_keep_out: Vec<ChordKeepOut>,
    /// By pin, ascending.
    pub pin_keep_out: Vec<PinKeepOut>,
    /// The trunk's first, then the free limbs' ([`Obstacle::hang`]) from
    /// `first_hanging` on.
    pub obstacles: Vec<Obstacle>,
    pub first_hanging: u16,
    /// The root body, whose delta turns the free limbs.
    pub root: u32,
    /// The constraints of the limbs with [`LimbPlan::keep_out`] pairs, as a pass runs them.
    pub keep_out_ops: Vec<Op>,
    /// Projection limits per particle (relative), fixed by the tuning.
    pub min_stretch: f32,
    pub max_stretch: f32,
    pub tolerance: f32,
}

/// Building state: per particle the bodies it stands for and their child particles.
struct Builder<'a, 't> {
    topo: &'a Topology<'t>,
    plan: LimbPlan,
    /// Per particle: (body, child particles) for each body sharing it.
    members: Vec<Vec<(u32, Vec<u16>)>>,
    /// Per limb: some body of it is a foot.
    limb_has_foot: Vec<bool>,
    /// What an arm keeps out of: the spine bodies, then every body of the free limbs
    /// (limbs, graspers and feet on the spine with no goal this frame, and what hangs from
    /// them). A passive arm hangs where the jiggles animate it, and an arm reaching past it
    /// went through it: the four-armed creature's upper arm through the lower one.
    solids: Vec<usize>,
}

impl LimbPlan {
    pub fn build(topo: &Topology) -> LimbPlan {
        let t = &topo.tuning.limb;
        let mut b = Builder {
            topo,
            plan: LimbPlan {
                min_stretch: t.min_stretch.min(1.0),
                max_stretch: t.max_stretch.max(1.0),
                tolerance: topo.tuning.tolerance * topo.rig.size,
                ..LimbPlan::default()
            },
            members: Vec::new(),
            limb_has_foot: Vec::new(),
            solids: Vec::new(),
        };
        let rig = topo.rig;
        b.plan.root = rig.root;
        b.solids = solids(topo);
        let mut ranges = Vec::new();
        for &s in topo.creature.order() {
            if !rig.spine[s] || !topo.has_ik[s] {
                continue;
            }
            for &c in topo.creature.children(s) {
                if rig.spine[c] || !topo.has_ik[c] || topo.delegating[c] {
                    continue;
                }
                let first = b.plan.particles.len() as u16;
                let limb = b.plan.limbs.len() as u16;
                let constraints_from = b.plan.constraints.len();
                b.visit(&[c as u32], NO_PARTICLE, limb, s);
                let end = b.plan.particles.len() as u16;
                let has_foot = b.members[first as usize..end as usize].iter().any(|m| {
                    m.iter()
                        .any(|&(body, _)| topo.creature.body(body as usize).has_cap(&Cap::Foot))
                });
                b.limb_has_foot.push(has_foot);
                b.plan.limbs.push(Limb {
                    spine_body: s as u32,
                    first,
                    end,
                });
                b.finish_limb(first, end, s, t);
                if !has_foot && t.keep_out_rounds > 0 {
                    b.keep_out_pairs(first, end, s);
                }
                ranges.push(constraints_from..b.plan.constraints.len());
            }
        }
        // Limbs share no particle, so interleaving their constraints changes no result;
        // it lets the processor overlap the limbs' dependency chains within a pass.
        let per_limb: Vec<Vec<Constraint>> = ranges
            .iter()
            .map(|r| b.plan.constraints[r.clone()].to_vec())
            .collect();
        b.plan.constraints.clear();
        let longest = per_limb.iter().map(Vec::len).max().unwrap_or(0);
        for k in 0..longest {
            b.plan
                .constraints
                .extend(per_limb.iter().filter_map(|c| c.get(k).copied()));
        }
        // The same for the rebuild: a body's turn waits on its parent's, so one limb's
        // bodies form a chain of square roots and products; taken limb by limb in turn,
        // neighbouring bodies belong to different limbs and their chains overlap.
        b.plan.bodies = round_robin(&b.plan.bodies, |lb| {
            b.plan.particles[lb.particle as usize].limb as usize
        });
        rebuild::schedule(&mut b.plan, rig);
        b.plan.projection = round_robin(
            &(0..b.plan.particles.len() as u16)
                .filter(|&q| b.plan.particles[q as usize].parent != NO_PARTICLE)
                .collect::<Vec<_>>(),
            |&q| b.plan.particles[q as usize].limb as usize,
        );
        let still: Vec<bool> = b
            .plan
            .particles
            .iter()
            .enumerate()
            .map(|(q, p)| p.parent == NO_PARTICLE || p.goal_body != NONE || q >= u16::MAX as usize)
            .collect();
        let bent = b.bent_at_rest();
        let mut compiled = compile(&b.plan.constraints, &still, Hinges::Chained(&bent));
        b.orient_tripods(&mut compiled.ops);
        // What restores the bones' lengths after keeping out: only the limbs that keep out.
        let keeps_out: Vec<bool> = {
            let mut limbs = vec![false; b.plan.limbs.len()];
            for k in &b.plan.keep_out {
                limbs[b.plan.particles[k.b as usize].limb as usize] = true;
            }
            limbs
        };
        let arm_constraints: Vec<Constraint> = b
            .plan
            .constraints
            .iter()
            .filter(|c| keeps_out[b.plan.particles[c.b as usize].limb as usize])
            .copied()
            .collect();
        let mut keep_out_ops = compile(&arm_constraints, &still, Hinges::Chained(&bent)).ops;
        b.orient_tripods(&mut keep_out_ops);
        b.plan.keep_out_ops = keep_out_ops;
        // Arms only: a leg's joints start the first pass where the aim put them (settling a
        // leg's joints from their rest place made planted legs twitch as the body crouched).
        let settle: Vec<bool> = b
            .plan
            .particles
            .iter()
            .map(|p| !b.limb_has_foot[p.limb as usize])
            .collect();
        let mut first = compile(
            &b.plan.constraints,
            &still,
            Hinges::Settled {
                bent: &bent,
                settle: &settle,
            },
        );
        b.orient_tripods(&mut first.ops);
        if first.ops != compiled.ops {
            b.plan.settled = first
                .ops
                .iter()
                .filter_map(|op| match op {
                    Op::Settle(s) => Some(s.q),
                    _ => None,
                })
                .collect();
            b.plan.first_ops = Some((first.ops, first.all_hinges));
        }
        // A step whose free particles the first pass places exactly wherever the aim left
        // them (hinges on their circle, settled joints from their rest place) has nothing
        // to gain from a bow: the biped's arm, a bent shoulder over a straight elbow. But
        // for a limb in a line at rest (a straight tail between its root and its goal), the
        // aim squashes its joints onto the line from pivot to goal, where a hinge's circle
        // has no nearest side: rounding chose one, and the limb flipped between the two for
        // goals a hair apart (15 % of the creature's size, `check ik`'s goal paths). Its
        // bow gives the side.
        let exact: Vec<bool> = {
            let mut exact = still.clone();
            for op in b
                .plan
                .first_ops
                .as_ref()
                .map_or(&compiled.ops, |(ops, _)| ops)
            {
                match op {
                    Op::Hinge(h) => exact[h.q as usize] = true,
                    Op::Settle(s) => exact[s.q as usize] = true,
                    Op::Tripod(t) => exact[t.q as usize] = true,
                    Op::Length(_) => {}
                }
            }
            exact
        };
        for step in &mut b.plan.aims {
            if step.bow != Bow::Ahead && (step.first..step.end).all(|q| exact[q as usize]) {
                step.bow = Bow::None;
            }
        }
        b.plan.ops = compiled.ops;
        b.plan.all_hinges = compiled.all_hinges;
        b.trunk_obstacles_first();
        b.plan
    }
}

/// The spine bodies, then the bodies of the free limbs: on the spine, with no IK, and
/// topped by a limb, grasper or foot (the parts the jiggles hang from the root).
fn solids(topo: &Topology) -> Vec<usize> {
    let (creature, rig) = (topo.creature, topo.rig);
    let free = |top: usize| !topo.has_ik[top] && swings_free(creature.body(top));
    let mut solids: Vec<usize> = (0..rig.len()).filter(|&s| rig.spine[s]).collect();
    solids.extend(
        creature
            .order()
            .iter()
            .copied()
            .filter(|&b| creature.limb_top(b).is_some_and(free)),
    );
    solids
}

/// `items` with each group's (by `group`) order kept, the groups taken one item at a
/// time in turn: the first of every group, then the second of every group, and so on.
fn round_robin<T: Copy>(items: &[T], group: impl Fn(&T) -> usize) -> Vec<T> {
    let groups = items.iter().map(&group).max().map_or(0, |g| g + 1);
    let mut by_group: Vec<Vec<T>> = vec![Vec::new(); groups];
    for x in items {
        by_group[group(x)].push(*x);
    }
    let longest = by_group.iter().map(Vec::len).max().unwrap_or(0);
    (0..longest)
        .flat_map(|k| by_group.iter().filter_map(move |g| g.get(k).copied()))
        .collect()
}

impl Builder<'_, '_> {
    fn coincide(&self, a: u32, b: u32) -> bool {
        self.topo.rig.same_pivot(a as usize, b as usize)
    }

    /// Depth-first: allocates a particle for `bodies` (siblings sharing a pivot), then
    /// one per group of coincident IK children of each.
    fn visit(&mut self, bodies: &[u32], parent: u16, limb: u16, spine_body: usize) -> u16 {
        let topo = self.topo;
        let rig = topo.rig;
        let idx = self.plan.particles.len() as u16;
        let body = bodies[0];
        let goal_body = if parent == NO_PARTICLE {
            NONE // the attachment never moves
        } else {
            bodies
                .iter()
                .copied()
                .find(|&b| topo.position_target[b as usize])
                .unwrap_or(NONE)
        };
        let rest = rig.pivot[body as usize];
        let (rest_len, rest_axis) = if parent == NO_PARTICLE {
            (0.0, Vec3A::ZERO)
        } else {
            let axis = rest - self.plan.particles[parent as usize].rest;
            (axis.length(), axis)
        };
        self.plan.particles.push(LimbParticle {
            body,
            goal_body,
            rest,
            parent,
            limb,
            rest_len,
            rest_axis,
            from_spine: rest - rig.centre[spine_body],
            subtree_end: idx + 1,
            on_pin_path: false,
            pin: NO_PARTICLE,
            toward_pin: false,
            support: false,
        });
        self.members.push(Vec::new());
        for &member in bodies {
            let mut groups: Vec<Vec<u32>> = Vec::new();
            for &c in topo.creature.children(member as usize) {
                if !topo.has_ik[c] {
                    continue;
                }
                let c = c as u32;
                match groups.iter_mut().find(|g| self.coincide(g[0], c)) {
                    Some(g) => g.push(c),
                    None => groups.push(vec![c]),
                }
            }
            let children: Vec<u16> = groups
                .iter()
                .map(|g| self.visit(g, idx, limb, spine_body))
                .collect();
            self.members[idx as usize].push((member, children));
        }
        self.plan.particles[idx as usize].subtree_end = self.plan.particles.len() as u16;
        idx
    }

    /// Per particle: a joint with one IK child whose two bones meet at more than
    /// [`HINGE_MIN_BEND`] at rest, so a hinge there keeps a clear side to bend to.
    fn bent_at_rest(&self) -> Vec<bool> {
        let pivot = |q: u16| self.plan.particles[q as usize].rest;
        (0..self.plan.particles.len() as u16)
            .map(|q| {
                let p = self.plan.particles[q as usize];
                let children: Vec<u16> = self.members[q as usize]
                    .iter()
                    .flat_map(|(_, c)| c.iter().copied())
                    .collect();
                match (p.parent, children.as_slice()) {
                    (NO_PARTICLE, _) => false,
                    (parent, [c]) => {
                        let (u, v) = (pivot(q) - pivot(parent), pivot(*c) - pivot(q));
                        u.angle_between(v) > HINGE_MIN_BEND
                    }
                    _ => false,
                }
            })
            .collect()
    }

    /// Chooses each [`Tripod`](super::constraint::Tripod)'s side from the rest pose: the
    /// side its knee stands off the plane of its hip and feet, when it does by more than
    /// [`TRIPOD_REST_OFFSET`] of its bones. Else the side where the knee, swung
    /// [`TRIPOD_TRIAL_SWING`] out of the plane, keeps clearer of every bone outside its limb
    /// (a forked leg's knee bends away from the other legs and the trunk); else, when both
    /// are as clear, away from its spine body's centre; else either, fixed. Then its bias:
    /// the turn from where the step puts the knee at rest to where the knee is at rest.
    fn orient_tripods(&self, ops: &mut [Op]) {
        let rig = self.topo.rig;
        let at = |q: u16| self.plan.particles[q as usize].rest;
        for op in ops {
            let Op::Tripod(t) = op else { continue };
            let (hip, b, c, knee) = (at(t.a), at(t.b), at(t.c), at(t.q));
            let u = (c - b).normalize_or_zero();
            let radial = (hip - b) - u * (hip - b).dot(u);
            let across = u.cross(radial).normalize_or_zero();
            let off = (knee - b).dot(across);
            let leg = t.len_a + t.len_b.max(t.len_c);
            let limit = TRIPOD_REST_OFFSET * leg;
            let centre = b + u * (knee - b).dot(u);
            let limb_root = rig.limb_root[self.plan.particles[t.q as usize].body as usize];
            let clearance = |side: f32| {
                let swung = centre
                    + Quat::from_axis_angle(u.into(), side * TRIPOD_TRIAL_SWING) * (knee - centre);
                (0..rig.len())
                    .filter(|&o| rig.limb_root[o] != limb_root)
                    .flat_map(|o| {
                        let parent = rig.parent[o] as usize;
                        let bone = (parent < rig.len()).then(|| (rig.pivot[parent], rig.pivot[o]));
                        [Some((rig.pivot[o], rig.centre[o])), bone]
                    })
                    .flatten()
                    .map(|(from, to)| {
                        segment_distance(swung.into(), swung.into(), from.into(), to.into())
                    })
                    .fold(f32::INFINITY, f32::min)
            };
            let (plus, minus) = (clearance(1.0), clearance(-1.0));
            let spine = self.plan.limbs[self.plan.particles[t.q as usize].limb as usize].spine_body;
            let outward = (hip - rig.centre[spine as usize]).dot(across);
            t.side = if off.abs() > limit {
                off.signum()
            } else if (plus - minus).abs() > TRIPOD_CLEARER * leg {
                if plus > minus { 1.0 } else { -1.0 }
            } else if outward.abs() > limit {
                outward.signum()
            } else {
                1.0
            };
            let stepped = tripod_point([hip, b, c], t, knee).0;
            let (from, to) = (stepped - centre, knee - centre);
            let (cos, sin) = (from.dot(to), from.cross(to).dot(u * t.side));
            let len = (cos * cos + sin * sin).sqrt();
            if len > 0.0 && len.is_finite() {
                t.bias = (cos / len, sin / len);
            }
        }
    }

    fn immovable(&self, q: u16, first: u16) -> bool {
        q == first || self.plan.particles[q as usize].goal_body != NONE
    }

    /// Marks the particles from the attachment to every foot with a goal as the limb's
    /// support, when the limb also has a goal off that path (a hand on a branch of a leg).
    ///
    /// A hand sent past its branch's length pulled, through the spine phase, the trunk its
    /// leg hangs from, and with it every other leg: planted feet left their goals by up to
    /// a leg length. A foot holds the creature up and a hand on its leg does not, so a goal
    /// behind the support path puts no pull into the spine phase: the hand reaches from
    /// where its leg, standing on its foot, holds it. Within the limb the leg's joints may
    /// still bend toward the hand (the foot stays pinned): giving them no share of the
    /// branch's pull left reachable goal sets that need the leg bent missed by 3 %.
    fn mark_support(&mut self, first: u16, end: u16) {
        let creature = self.topo.creature;
        let is_foot = |q: u16| {
            let g = self.plan.particles[q as usize].goal_body;
            g != NONE && creature.body(g as usize).has_cap(&Cap::Foot)
        };
        let feet: Vec<u16> = (first + 1..end).filter(|&q| is_foot(q)).collect();
        let others = (first + 1..end)
            .any(|q| self.plan.particles[q as usize].goal_body != NONE && !is_foot(q));
        if feet.is_empty() || !others {
            return;
        }
        for q in feet {
            let mut at = q;
            while at != NO_PARTICLE && !self.plan.particles[at as usize].support {
                self.plan.particles[at as usize].support = true;
                if at == first {
                    break;
                }
                at = self.plan.particles[at as usize].parent;
            }
        }
    }

    /// Holds each pin of the limb that is not a foot's where its bones reach from a fork it
    /// shares with a foot pin, a fork that the foot's bones and those above it can hold (a
    /// hand on a branch of a leg: the fork on the leg, within the foot's bones below it and
    /// the thigh's above).
    ///
    /// Each pin is held within reach of what it hangs from, but two ends forking below the
    /// attachment may be sent where no fork joins them: a hand sent to the mouth from a
    /// branch of a planted leg. The passes then split the difference, and the foot left its
    /// goal by most of a leg's length while the hand still missed. A foot holds the creature
    /// up (see [`Builder::mark_support`]), so the other pin yields. Ends that are both feet,
    /// or neither, still meet halfway, as neither holds the other up.
    fn bound_by_feet(&mut self, pins_from: usize, first: u16) {
        let creature = self.topo.creature;
        let particles = &self.plan.particles;
        let pinned = &self.plan.pinned;
        let is_foot = |q: u16| {
            creature
                .body(particles[q as usize].goal_body as usize)
                .has_cap(&Cap::Foot)
        };
        let up = |q: u16| -> Vec<u16> {
            std::iter::successors(Some(q), |&x| {
                let parent = particles[x as usize].parent;
                (x != first && parent != NO_PARTICLE).then_some(parent)
            })
            .collect()
        };
        // The rest length of the bones from `chain`'s first particle up to `to`.
        let length = |chain: &[u16], to: u16| -> f32 {
            chain
                .iter()
                .take_while(|&&x| x != to)
                .map(|&x| particles[x as usize].rest_len)
                .sum()
        };
        let pins = &pinned[pins_from..];
        let mut bounds = Vec::new();
        for (k, &q) in pins.iter().enumerate() {
            if is_foot(q) {
                continue;
            }
            let from_q = up(q);
            for (j, &foot) in pins.iter().enumerate() {
                if !is_foot(foot) {
                    continue;
                }
                let from_foot = up(foot);
                let Some(at_q) = from_q.iter().position(|x| from_foot.contains(x)) else {
                    continue;
                };
                let fork = from_q[at_q];
                let Some(at_foot) = from_foot.iter().position(|&x| x == fork) else {
                    continue;
                };
                // A pin that carries the other, or a pinned fork, holds it by reach alone.
                if at_q == 0 || at_foot == 0 || particles[fork as usize].goal_body != NONE {
                    continue;
                }
                let (to_pin, to_foot) = (from_q[at_q - 1], from_foot[at_foot - 1]);
                let from_fork = up(fork);
                let held_by = from_fork[1..]
                    .iter()
                    .copied()
                    .find(|&x| x == first || particles[x as usize].goal_body != NONE)
                    .unwrap_or(first);
                let anchor = match pinned.binary_search(&held_by) {
                    Ok(i) => Anchor::Pin(i as u16),
                    Err(_) => Anchor::Attachment(held_by),
                };
                // The foot's side leaves the fork at a joint the fork's body carries: the
                // fork is held within that body of it, the joint within the foot's bones of
                // the foot. Balls about the fork alone would let the hand reach as if the
                // fork could stand anywhere within the foot's whole path.
                bounds.push(FootBound {
                    pin: (pins_from + k) as u16,
                    foot: (pins_from + j) as u16,
                    anchor,
                    anchor_to_fork: length(&from_fork, held_by),
                    fork_to_joint: particles[to_foot as usize].rest_len,
                    foot_to_joint: length(&from_foot, to_foot),
                    pin_to_fork: length(&from_q, fork),
                    pin_to_joint: length(&from_q, to_pin)
                        + particles[to_pin as usize]
                            .rest
                            .distance(particles[to_foot as usize].rest),
                });
            }
        }
        self.plan.foot_bounds.extend(bounds);
    }

    /// A pinned particle off the support path that hangs from it below the attachment. A
    /// branch leaving the leg's first bone hangs from the attachment's particle, beside the
    /// support particle that bone also carries (a hand on a thigh): behind the leg too.
    fn behind_support(&self, q: u16, first: u16) -> bool {
        let particles = &self.plan.particles;
        if particles[q as usize].support {
            return false;
        }
        let mut below = q;
        let mut at = particles[q as usize].parent;
        while at != NO_PARTICLE {
            if at == first {
                return self.members[first as usize].iter().any(|(_, children)| {
                    children.contains(&below)
                        && children.iter().any(|&c| particles[c as usize].support)
                });
            }
            if particles[at as usize].support {
                return true;
            }
            below = at;
            at = particles[at as usize].parent;
        }
        false
    }

    fn finish_limb(&mut self, first: u16, end: u16, spine_body: usize, t: &LimbTuning) {
        let rig = self.topo.rig;
        self.mark_support(first, end);
        // Constraints, leaves inward: a node's constraints after all of its descendants'.
        for q in (first..end).rev() {
            for (_, children) in self.members[q as usize].clone() {
                if children.len() >= 2 {
                    let closing = children.len() >= 3;
                    let pairs = children.len() - usize::from(!closing);
                    for k in 0..pairs {
                        let (a, b) = (children[k], children[(k + 1) % children.len()]);
                        self.push_constraint(a, b, first, t, (1.0, 1.0));
                    }
                }
                for &c in &children {
                    self.push_constraint(q, c, first, t, (t.rootward_mass, t.leafward_mass));
                }
            }
        }
        let pins_from = self.plan.pinned.len();
        for q in first..end {
            if self.plan.particles[q as usize].goal_body != NONE {
                self.plan.pinned.push(q);
                let (mut path, mut longest) = (0.0f32, 0.0f32);
                let mut at = q;
                loop {
                    let p = self.plan.particles[at as usize];
                    path += p.rest_len;
                    longest = longest.max(p.rest_len);
                    at = p.parent;
                    if at == NO_PARTICLE || self.immovable(at, first) {
                        break;
                    }
                }
                // The rebuild keeps every bone within its stretch limits, so the longest
                // bone, as short as it may be, folded back on the rest, as long as they may
                // be: a one-bone path holds its pin on a shell, not in a ball.
                let near =
                    self.plan.min_stretch * longest - self.plan.max_stretch * (path - longest);
                self.plan.near.push(near.max(0.0));
                let anchor = match self.plan.pinned.binary_search(&at) {
                    Ok(k) => Anchor::Pin(k as u16),
                    Err(_) => Anchor::Attachment(at),
                };
                self.plan.reach.push((anchor, path));
                let stretch = self.plan.max_stretch;
                let particle_pivot = |i: u16| self.plan.particles[i as usize].rest;
                let rest = particle_pivot(at).distance(particle_pivot(q));
                self.plan
                    .soft_start
                    .push(((2.0 - stretch) * path).max(rest).min(path));
            }
        }
        for k in pins_from..self.plan.pinned.len() {
            let mut at = self.plan.pinned[k];
            self.plan.particles[at as usize].pin = k as u16;
            while at != NO_PARTICLE && !self.plan.particles[at as usize].toward_pin {
                self.plan.particles[at as usize].toward_pin = true;
                at = self.plan.particles[at as usize].parent;
            }
        }
        self.plan.turned_pins |= self.plan.pinned[pins_from..].iter().any(|&q| {
            let b = self.plan.particles[q as usize].goal_body as usize;
            !self.topo.rotation_target[b]
        });
        let single = self.plan.pinned.len() == pins_from + 1;
        self.plan.single_pin.resize(self.plan.pinned.len(), single);
        self.bound_by_feet(pins_from, first);
        if single {
            let mut at = self.plan.pinned[pins_from];
            while at != first && at != NO_PARTICLE {
                self.plan.particles[at as usize].on_pin_path = true;
                at = self.plan.particles[at as usize].parent;
            }
        }
        // Aim steps, outward: the whole limb about its attachment, then each sub-branch
        // about its own first particle, and whatever hangs below a pinned joint about it.
        self.push_aim(first, false);
        for q in first + 1..end {
            let p = self.plan.particles[q as usize];
            let parent_branches = self.members[p.parent as usize]
                .iter()
                .map(|(_, c)| c.len())
                .sum::<usize>()
                >= 2;
            let pinned = p.goal_body != NONE;
            if parent_branches || pinned {
                self.push_aim(q, pinned);
            }
        }
        // Bodies to rebuild, parents first (depth-first order is parents first).
        for q in first..end {
            for (body, children) in self.members[q as usize].clone() {
                let kind = self.body_kind(body, q, first, &children);
                self.plan.bodies.push(LimbBody {
                    body,
                    parent: rig.parent[body as usize],
                    particle: q,
                    kind,
                    rotation_goal: self.topo.rotation_target[body as usize],
                });
            }
        }
        // What the spine phase sees of this limb: one constraint per goal.
        let attach = self.plan.particles[first as usize].rest;
        let spine_pivot = rig.pivot[spine_body];
        for q in first + 1..end {
            let p = self.plan.particles[q as usize];
            if p.goal_body == NONE || self.behind_support(q, first) {
                continue;
            }
            let mut path = 0.0;
            let mut at = q;
            while at != first && at != NO_PARTICLE {
                let pa = self.plan.particles[at as usize];
                path += pa.rest_len;
                at = pa.parent;
            }
            self.plan.simplified.push(SimplifiedLimb {
                spine_body: spine_body as u32,
                goal_body: p.goal_body,
                rest_chord: spine_pivot.distance(p.rest),
                reach: spine_pivot.distance(attach) + path,
            });
        }
    }

    /// The arm's bones against every trunk body they could reach, their attachment's too (a
    /// biped's forearm folding to its mouth passes the chest it hangs from). The first bone
    /// (a clavicle, or the upper arm of an arm without one) is left out: it turns about its
    /// joint on the trunk and sits against it by design; so is the second against the
    /// attachment. Then the hands (see [`deflect_pins`]).
    fn keep_out_pairs(&mut self, first: u16, end: u16, spine_body: usize) {
        let (rig, creature) = (self.topo.rig, self.topo.creature);
        let attach = self.plan.particles[first as usize].rest;
        let mut path = vec![0.0f32; (end - first) as usize];
        for q in first + 1..end {
            let particle = self.plan.particles[q as usize];
            let (a, b) = (particle.parent, q);
            path[(q - first) as usize] = path[(a - first) as usize] + particle.rest_len;
            if a == first {
                continue;
            }
            let Some(&(bone, _)) = self.members[a as usize]
                .iter()
                .find(|(_, children)| children.contains(&b))
            else {
                continue;
            };
            let bone_radius = creature.body(bone as usize).rounded().1;
            let share = |q: u16| if self.immovable(q, first) { 0.0 } else { 1.0 };
            let (share_a, share_b) = (share(a), share(b));
            if bone_radius <= 0.0 || share_a + share_b == 0.0 {
                continue;
            }
            let reach = path[(q - first) as usize];
            let (pa, pb) = (
                self.plan.particles[a as usize].rest,
                self.plan.particles[b as usize].rest,
            );
            // The bone after the first hangs beside its attachment at rest (a biped's upper
            // arm by its chest): tested against it, it would be pushed nearly every frame.
            let second = self.plan.particles[a as usize].parent == first;
            for k in 0..self.solids.len() {
                let s = self.solids[k];
                // A free limb hanging by this arm (from the same spine body) sits against
                // its upper bones by design, as the spine body does.
                let by_design = if rig.spine[s] {
                    s == spine_body && second
                } else {
                    creature.joined(bone as usize, s)
                };
                if by_design {
                    continue;
                }
                let Some((obstacle, clearance, (c0, c1))) =
                    self.trunk_pair(s, attach, 1.1 * reach, (pa, pb, bone_radius))
                else {
                    continue;
                };
                let (u, v) = segment_closest(pa.into(), pb.into(), c0.into(), c1.into());
                let side = (pa.lerp(pb, u) - c0.lerp(c1, v)).normalize_or_zero();
                let bound = 0.5 * self.plan.max_stretch * particle.rest_len + clearance;
                self.plan.keep_out.push(KeepOut {
                    side,
                    a,
                    b,
                    share_a,
                    share_b,
                    obstacle,
                    clearance,
                    bound,
                    far_sq: self.far_sq(obstacle, bound),
                });
                let keep_out = (self.plan.keep_out.len() - 1) as u16;
                for (pin, &(anchor, reach)) in self.plan.reach.iter().enumerate() {
                    let mut at = self.plan.pinned[pin];
                    if anchor != Anchor::Attachment(first) || !(first..end).contains(&at) {
                        continue;
                    }
                    while at != b && at != first && at != NO_PARTICLE {
                        at = self.plan.particles[at as usize].parent;
                    }
                    if at == b && reach > 0.0 {
                        self.plan.chord_keep_out.push(ChordKeepOut {
                            pin: pin as u16,
                            keep_out,
                            from: path[(a - first) as usize] / reach,
                            to: path[(b - first) as usize] / reach,
                        });
                    }
                }
            }
        }
        // A goal raised into the belly would put the hand there: hands keep out of every
        // trunk body too.
        for q in first + 1..end {
            let target = self.plan.particles[q as usize].goal_body;
            let Ok(pin) = self.plan.pinned.binary_search(&q) else {
                continue;
            };
            if target == NONE {
                continue;
            }
            let t = target as usize;
            let (half, radius) = creature.body(t).rounded();
            if radius <= 0.0 {
                continue;
            }
            let hand_axis = rig.rotation[t] * Vec3A::from(half);
            let (h0, h1) = (rig.centre[t] - hand_axis, rig.centre[t] + hand_axis);
            let reach = path[(q - first) as usize] + rig.centre[t].distance(rig.pivot[t]);
            for s in 0..rig.len() {
                if !rig.spine[s] {
                    continue;
                }
                let extent = 1.1 * reach + half.length();
                let Some((obstacle, clearance, (c0, c1))) =
                    self.trunk_pair(s, attach, extent, (h0, h1, radius))
                else {
                    continue;
                };
                let (u, v) = segment_closest(h0.into(), h1.into(), c0.into(), c1.into());
                let side = (h0.lerp(h1, u) - c0.lerp(c1, v)).normalize_or_zero();
                let bound = half.length() + clearance;
                self.plan.pin_keep_out.push(PinKeepOut {
                    body: s as u32,
                    side,
                    bound,
                    far_sq: self.far_sq(obstacle, bound),
                    pin: pin as u16,
                    target,
                    half_axis: Vec3A::from(half),
                    obstacle,
                    clearance,
                    thinner: radius.min(creature.body(s).rounded().1),
                });
            }
        }
    }

    /// A limb part (a capsule's axis ends and radius, at rest) against trunk body `s`: the
    /// body's obstacle, the clearance their axes keep, and the body's axis at rest. The
    /// clearance is both radii, less however deep they overlap at rest and a quarter of the
    /// thinner radius: a part grazing the trunk shows nothing, and most frames then need no
    /// push. `None` when the body is out of the part's reach (farther from the limb's
    /// attachment than `extent` and both radii, even with the spine bent toward it) or the
    /// part sinks into it at rest.
    fn trunk_pair(
        &mut self,
        s: usize,
        attach: Vec3A,
        extent: f32,
        (p0, p1, part_radius): (Vec3A, Vec3A, f32),
    ) -> Option<(u16, f32, (Vec3A, Vec3A))> {
        let rig = self.topo.rig;
        let (half, radius) = self.topo.creature.body(s).rounded();
        if radius <= 0.0 {
            return None;
        }
        let half_axis = rig.rotation[s] * Vec3A::from(half);
        let (c0, c1) = (rig.centre[s] - half_axis, rig.centre[s] + half_axis);
        let far = segment_distance(attach.into(), attach.into(), c0.into(), c1.into());
        if far > extent + part_radius + radius {
            return None;
        }
        let rest = segment_distance(p0.into(), p1.into(), c0.into(), c1.into());
        let clearance = (part_radius + radius).min(rest) - 0.25 * part_radius.min(radius);
        if clearance <= 0.0 {
            return None;
        }
        Some((self.obstacle(s)?, clearance, (c0, c1)))
    }

    /// The squared distance from obstacle `o`'s centre beyond which a point is farther
    /// than `bound` from every point of its axis. A hair wider than exact, so rounding
    /// never sets aside a pair the exact test would look at.
    fn far_sq(&self, o: u16, bound: f32) -> f32 {
        let reach = (bound + self.plan.obstacles[o as usize].half_axis.length()) * 1.001;
        reach * reach
    }

    /// The obstacle for body `s` of [`Builder::solids`], added on first use; `None` when
    /// nothing on the spine above it has IK to carry it.
    fn obstacle(&mut self, s: usize) -> Option<u16> {
        let rig = self.topo.rig;
        if let Some(i) = self.plan.obstacles.iter().position(|o| o.body == s as u32) {
            return Some(i as u16);
        }
        // A free limb's body: where its limb leaves the spine.
        let top = self.topo.creature.limb_top(s);
        let mut anchor = match top {
            Some(top) => rig.parent_of(top)?,
            None => s,
        };
        while !self.topo.has_ik[anchor] {
            match rig.parent_of(anchor) {
                Some(up) if rig.spine[up] => anchor = up,
                _ => break,
            }
        }
        if !self.topo.has_ik[anchor] {
            return None;
        }
        let half = self.topo.creature.body(s).rounded().0;
        let half_axis = rig.rotation[s] * Vec3A::from(half);
        let len_sq = half_axis.length_squared();
        // Without the jiggles a free limb follows its spine body rigidly, as the trunk does.
        let hang_from = top.filter(|_| self.topo.tuning.jiggle.enabled);
        self.plan.obstacles.push(Obstacle {
            body: s as u32,
            anchor: anchor as u32,
            offset: hang_from.map_or(rig.centre[s], |top| rig.pivot[top]) - rig.centre[anchor],
            half_axis,
            hang: hang_from.map(|top| rig.centre[s] - rig.pivot[top]),
            inv_axis_sq: if len_sq > 1e-20 { 1.0 / len_sq } else { 0.0 },
        });
        Some((self.plan.obstacles.len() - 1) as u16)
    }

    /// Orders the obstacles the trunk's first, so a frame poses each kind in its own loop.
    fn trunk_obstacles_first(&mut self) {
        let plan = &mut self.plan;
        let mut order: Vec<usize> = (0..plan.obstacles.len()).collect();
        order.sort_by_key(|&o| plan.obstacles[o].hang.is_some());
        let mut index = vec![0u16; order.len()];
        for (new, &old) in order.iter().enumerate() {
            index[old] = new as u16;
        }
        plan.obstacles = order.iter().map(|&o| plan.obstacles[o]).collect();
        plan.first_hanging = plan.obstacles.iter().filter(|o| o.hang.is_none()).count() as u16;
        for k in &mut plan.keep_out {
            k.obstacle = index[k.obstacle as usize];
        }
        for k in &mut plan.pin_keep_out {
            k.obstacle = index[k.obstacle as usize];
        }
    }

    fn push_constraint(&mut self, a: u16, b: u16, first: u16, t: &LimbTuning, masses: (f32, f32)) {
        let (fixed_a, fixed_b) = (self.immovable(a, first), self.immovable(b, first));
        if fixed_a && fixed_b {
            return;
        }
        let (share_a, share_b) = match (fixed_a, fixed_b) {
            (true, _) => (0.0, 1.0),
            (_, true) => (1.0, 0.0),
            _ => shares(masses.0, masses.1),
        };
        let pa = self.plan.particles[a as usize].rest;
        let pb = self.plan.particles[b as usize].rest;
        let rest = pa.distance(pb);
        self.plan.constraints.push(Constraint {
            a,
            b,
            share_a,
            share_b,
            min_len: rest,
            max_len: rest,
            soft: t.soft_zone * rest,
            overshoot: t.over_relaxation.clamp(1.0, 1.95) - 1.0,
            overshoot_cap: 0.25 * rest,
        });
    }

    fn push_aim(&mut self, pivot: u16, pin_pivot: bool) {
        let pin_pivot = pin_pivot
            .then(|| self.plan.pinned.binary_search(&pivot).ok())
            .flatten()
            .map(|k| k as u16);
        let p = self.plan.particles[pivot as usize];
        let (first, end) = (pivot + 1, p.subtree_end);
        let lo = self.plan.pinned.partition_point(|&g| g < first);
        let hi = self.plan.pinned.partition_point(|&g| g < end);
        if first < end && lo < hi {
            let rig = self.topo.rig;
            let at = |q: u16| self.plan.particles[q as usize].rest;
            let goal = self.plan.pinned[lo..hi]
                .iter()
                .fold(Vec3A::ZERO, |sum, &g| sum + at(g))
                / (hi - lo) as f32;
            let (line, from) = (goal - at(pivot), at(pivot));
            let across = (first..end)
                .map(|q| {
                    let v = at(q) - from;
                    (v - line * (v.dot(line) / line.length_squared().max(1e-12))).length()
                })
                .fold(0.0, f32::max);
            let off = across / line.length().max(1e-12);
            let bow = if line.length() <= 1e-6 * rig.size || off >= STRAIGHT_LIMB {
                Bow::None
            } else if off >= OWN_BEND {
                Bow::Own
            } else {
                Bow::Ahead
            };
            self.plan.aims.push(AimStep {
                pivot,
                pin_pivot,
                first,
                end,
                goals: (lo as u16, hi as u16),
                bow,
            });
        }
    }

    fn body_kind(&self, body: u32, q: u16, first: u16, children: &[u16]) -> BodyKind {
        let rig = self.topo.rig;
        let axis_to = |c: u16| self.plan.particles[c as usize].rest - rig.pivot[body as usize];
        match children {
            [] if self.topo.position_target[body as usize] && q == first => BodyKind::AimAtGoal,
            [] if self.topo.position_target[body as usize] => BodyKind::Goal,
            [] => BodyKind::Follow,
            [c] => BodyKind::Axis {
                child: *c,
                rest_axis: axis_to(*c).normalize_or_zero(),
            },
            [c1, c2, ..] => match frame_of(axis_to(*c1), axis_to(*c2)) {
                Some(f) => BodyKind::Frame {
                    first: *c1,
                    second: *c2,
                    rest_axis: axis_to(*c1),
                    rest_frame_inverse: f.conjugate(),
                },
                None => BodyKind::Axis {
                    child: *c1,
                    rest_axis: axis_to(*c1).normalize_or_zero(),
                },
            },
        }
    }
}

/// Places every limb particle rigidly with its posed spine body, runs the aim
/// preconditioner, pins the goals and iterates. Returns the passes run.
///
/// A goal beyond the bones' reach is pinned at the reach, on the line toward it: the limb
/// straightens toward the goal (the paper's "reaches toward"), and the passes converge on
/// lengths they can meet instead of tugging at an overstretched limb until they run out.
/// Then a limb with that one goal stretches along its line toward it, its bones alike, up
/// to the tuning's stretch limit (the paper's organic give).
pub(super) fn solve_limbs(
    plan: &LimbPlan,
    tuning: &LimbTuning,
    goals: &mut FrameGoals,
    pose: &[BodyPose],
    delta: &[Quat],
    p: &mut Vec<Vec3A>,
    scratch: &mut LimbScratch,
) -> u32 {
    let pins = &mut scratch.pins;
    p.clear();
    for limb in &plan.limbs {
        let s = limb.spine_body as usize;
        let d = delta[s];
        let at = Vec3A::from(pose[s].position);
        p.extend(
            plan.particles[limb.first as usize..limb.end as usize]
                .iter()
                .map(|q| at + rotate(d, q.from_spine)),
        );
    }
    pins.clear();
    scratch.stretch.clear();
    for (k, (&q, &(anchor, reach))) in plan.pinned.iter().zip(&plan.reach).enumerate() {
        let start = if plan.single_pin[k] {
            plan.soft_start[k]
        } else {
            reach
        };
        let goal = goals.joint[plan.particles[q as usize].goal_body as usize];
        // Pins come parents first, so a pinned anchor is already in `pins`.
        let from = match anchor {
            Anchor::Pin(i) => pins[i as usize],
            Anchor::Attachment(a) => p[a as usize],
        };
        let d = goal - from;
        let dist = d.length();
        let held = held_distance(dist, reach, start);
        if held < dist && dist.is_finite() {
            pins.push(from + d * (held / dist));
            let stretch = if plan.single_pin[k] {
                (dist / held).min(plan.max_stretch)
            } else {
                1.0
            };
            scratch.stretch.push(stretch);
        } else {
            pins.push(goal);
            scratch.stretch.push(1.0);
        }
    }
    if !plan.foot_bounds.is_empty() {
        hold_by_feet(plan, p, pins);
    }
    let keeps_out = tuning.keep_out_rounds > 0 && !plan.obstacles.is_empty();
    if keeps_out {
        pose_obstacles(plan, pose, delta, &mut scratch.obstacles);
        deflect_pins(plan, goals, delta, &scratch.obstacles, p, pins);
    }
    for step in &plan.aims {
        aim(plan, step, goals, pins, p, tuning, delta);
    }

    for (&q, &at) in plan.pinned.iter().zip(pins.iter()) {
        p[q as usize] = at;
    }
    for &q in &plan.settled {
        let particle = &plan.particles[q as usize];
        let s = plan.limbs[particle.limb as usize].spine_body as usize;
        p[q as usize] = Vec3A::from(pose[s].position) + rotate(delta[s], particle.from_spine);
    }
    let mut passes = 0;
    // A second round only where a limb held straight could not keep a bone out for want of
    // room (see [`pull_in`]).
    for round in 0..2 {
        let mut converged = plan.ops.is_empty();
        for _ in 0..tuning.iterations {
            let (ops, all_hinges) = match &plan.first_ops {
                Some((ops, all_hinges)) if passes == 0 => (ops, *all_hinges),
                _ => (&plan.ops, plan.all_hinges),
            };
            passes += 1;
            let pass = relax(p, ops);
            if pass.worst <= plan.tolerance || (all_hinges && pass.hinges_met) {
                // A pass that moves nothing but leaves a hinge or tripod short of its lengths
                // is stuck, not done: its pins cannot all be met from where they are.
                converged = pass.hinges_met;
                break;
            }
        }
        if !converged {
            passes += super::reach::finish(
                plan,
                tuning,
                goals,
                &mut scratch.pins,
                p,
                &mut scratch.sweep,
            );
        }
        if !keeps_out || plan.keep_out.is_empty() {
            break;
        }
        let (kept, pushing) = keep_out_rounds(plan, tuning, p, scratch, delta);
        passes += kept;
        if round > 0
            || !pushing
            || plan.chord_keep_out.is_empty()
            || !pull_in(plan, goals, delta, &scratch.obstacles, p, &mut scratch.pins)
        {
            break;
        }
        for (&q, &at) in plan.pinned.iter().zip(&scratch.pins) {
            p[q as usize] = at;
        }
    }
    for (k, &stretch) in scratch.stretch.iter().enumerate() {
        if stretch > 1.0 {
            stretch_limb(plan, plan.pinned[k], stretch, p, &mut scratch.moved);
        }
    }
    passes
}

/// Keeps the arms out of the trunk: rounds of [`keep_out`] and passes to restore the
/// bones' lengths, while any bone is in. Returns the passes run, and whether the last round
/// still found a bone in. Not inlined, so the solve's own loop keeps its registers.
#[inline(never)]
fn keep_out_rounds(
    plan: &LimbPlan,
    tuning: &LimbTuning,
    p: &mut [Vec3A],
    scratch: &mut LimbScratch,
    delta: &[Quat],
) -> (u32, bool) {
    let (mut passes, mut pushing) = (0, false);
    for _ in 0..tuning.keep_out_rounds {
        scratch.unpushed.clear();
        scratch.unpushed.extend_from_slice(p);
        pushing = keep_out(plan, &scratch.obstacles, delta, p);
        if !pushing {
            break;
        }
        // The passes that restore the pushed bones' lengths would also take up whatever
        // slack the limb phase left every bone of the limb (it counts 1 % as met), and a
        // nearly straight arm whose elbow merely grazed the trunk would jump by that much
        // the frame it touched: an arm held out toward a goal beyond its reach flipped its
        // elbow. So the limb moves by what the passes do to the pushed particles less what
        // they would do to the unpushed ones: nothing as the push goes to nothing.
        scratch.settled.clear();
        scratch.settled.extend_from_slice(&scratch.unpushed);
        for _ in 0..tuning.keep_out_relax {
            passes += 1;
            relax(p, &plan.keep_out_ops);
            relax(&mut scratch.settled, &plan.keep_out_ops);
        }
        for ((q, &settled), &unpushed) in p.iter_mut().zip(&scratch.settled).zip(&scratch.unpushed)
        {
            *q -= settled - unpushed;
        }
    }
    (passes, pushing)
}

/// Where the posed spine puts each obstacle: its centre and half axis, and one over the half
/// axis's squared length.
fn pose_obstacles(
    plan: &LimbPlan,
    pose: &[BodyPose],
    delta: &[Quat],
    obstacles: &mut Vec<(Vec3A, Vec3A, f32)>,
) {
    obstacles.clear();
    let (trunk, hanging) = plan.obstacles.split_at(plan.first_hanging as usize);
    obstacles.extend(trunk.iter().map(|o| {
        let turn = delta[o.anchor as usize];
        let at = Vec3A::from(pose[o.anchor as usize].position);
        // A trunk body the spine phase places is its own anchor: nothing to turn.
        let centre = if o.offset == Vec3A::ZERO {
            at
        } else {
            at + rotate(turn, o.offset)
        };
        (centre, rotate(turn, o.half_axis), o.inv_axis_sq)
    }));
    let root = delta[plan.root as usize];
    obstacles.extend(hanging.iter().map(|o| {
        let joint = Vec3A::from(pose[o.anchor as usize].position)
            + rotate(delta[o.anchor as usize], o.offset);
        let centre = joint + rotate(root, o.hang.unwrap_or(Vec3A::ZERO));
        (centre, rotate(root, o.half_axis), o.inv_axis_sq)
    }));
}

/// Moves each pinned hand whose goal would sink it into a trunk body deeper than at rest out
/// to where their axes keep the clearance, along the line between their nearest points. The
/// IK pins a hand where it is sent, so a goal inside the belly (a single grasper under it
/// raised "up", a rear hand sweeping forward past the flank) can only be kept out here: the
/// hand slides over the body's surface instead of through it.
///
/// A pin pushed beyond its limb's reach would be pulled back in by the passes: it is brought
/// back within reach and pushed out once more. Where the reach and the trunk leave no way out
/// (a short limb whose goal lies deep between two trunk bodies: out of one is into the
/// other), the pin goes back to its goal unless the push at least halves how deep the hand
/// sinks, or all but brings it out: a miss of a limb's length for a hand hardly less deep
/// buys nothing.
#[inline(never)]
fn deflect_pins(
    plan: &LimbPlan,
    goals: &FrameGoals,
    delta: &[Quat],
    obstacles: &[(Vec3A, Vec3A, f32)],
    p: &[Vec3A],
    pins: &mut [Vec3A],
) {
    let mut rest = &plan.pin_keep_out[..];
    while let Some(first) = rest.first() {
        let pin = first.pin as usize;
        let (group, after) = rest.split_at(rest.iter().take_while(|k| k.pin == first.pin).count());
        rest = after;
        let goal = pins[pin];
        // Most hands are far from every trunk body: one look at each settles it.
        let t = first.target as usize;
        let hand = goal + (goals.centre[t] - goals.joint[t]);
        if group.iter().all(|k| beyond(k, obstacles, hand))
            || !push_out(plan, group, goals, delta, obstacles, &mut pins[pin])
        {
            continue;
        }
        let (anchor, reach) = plan.reach[pin];
        let near = plan.near[pin];
        let from = match anchor {
            Anchor::Pin(i) => pins[i as usize],
            Anchor::Attachment(a) => p[a as usize],
        };
        let held = within_reach(from, pins[pin], near, reach);
        if held != pins[pin] {
            pins[pin] = held;
            push_out(plan, group, goals, delta, obstacles, &mut pins[pin]);
        }
        // The passes and the rebuild bring a pin pushed out of reach back in toward its
        // anchor, and one pushed nearer than its bones can fold back out.
        let ends = within_reach(from, pins[pin], near, reach);
        let (was, now) = (
            depth(group, goals, obstacles, goal),
            depth(group, goals, obstacles, ends),
        );
        if !pushed_pin_kept(was, now) {
            pins[pin] = goal;
        }
    }
}

/// Brings each pin nearer its limb's attachment where, once solved, a bone of the limb still
/// sinks into a trunk body for want of room. A limb held nearly straight toward its pin (a
/// goal beyond its reach, a hand sent to the mouth at arm's length) lies along the line
/// between them: where that line runs through a neck, the keep-out cannot push the bone
/// aside without bending the limb, which the pin, held at the reach, does not allow. Bowing
/// the point `a` along a limb `a + b` long by `h` off the line shortens its chord to
/// `√(a² − h²) + √(b² − h²)` (see [`bowed_chord`]): the pin is brought in along the line
/// until that point could bow out past the clearance, on the side the keep-out pushes it to,
/// and the limb is solved once more. The hand stays on the line toward its goal, short by
/// the bow's cost: a few per cent for a neck across the middle of an arm, nothing for a limb
/// with room to bend. Whether any pin was brought in, so the limbs must be solved again.
fn pull_in(
    plan: &LimbPlan,
    goals: &FrameGoals,
    delta: &[Quat],
    obstacles: &[(Vec3A, Vec3A, f32)],
    p: &mut [Vec3A],
    pins: &mut [Vec3A],
) -> bool {
    let mut any = false;
    for c in &plan.chord_keep_out {
        let k = &plan.keep_out[c.keep_out as usize];
        if k.obstacle >= plan.first_hanging {
            continue;
        }
        let pin = c.pin as usize;
        let (Anchor::Attachment(a), reach) = plan.reach[pin] else {
            continue;
        };
        // A hand sent to touch a body comes to it along a line that ends in it.
        let target = plan.particles[plan.pinned[pin] as usize].goal_body;
        if goals
            .touching
            .contains(&(target, plan.obstacles[k.obstacle as usize].body))
        {
            continue;
        }
        let (b0, b1) = (p[k.a as usize], p[k.b as usize]);
        let (centre, half_axis, inv_axis_sq) = obstacles[k.obstacle as usize];
        // As the keep-out: most pairs are apart by far more.
        let mid = (b0 + b1) * 0.5;
        if far_apart(mid, centre, k.far_sq)
            || from_axis(mid, centre, half_axis, inv_axis_sq).length_squared() >= k.bound * k.bound
        {
            continue;
        }
        let (s, gap) = axis_gap(b0, b1, centre, half_axis);
        let out = k.clearance - gap.length();
        if out <= 0.0 || !out.is_finite() {
            continue;
        }
        let from = p[a as usize];
        let line = pins[pin] - from;
        let chord = line.length();
        let at = reach * (c.from + s * (c.to - c.from));
        // How far the bone's part of the straight line passes from the body's axis, and on
        // which side the keep-out pushes it out: the limb must bow that point out past the
        // clearance there, across the axis where the push leans back to the bone's side at
        // rest.
        let (l0, l1) = (from + line * c.from, from + line * c.to);
        let (_, off) = axis_gap(l0, l1, centre, half_axis);
        let across = off.length();
        let side = obstacle_turn(plan, delta, k.obstacle) * k.side;
        let Some(normal) = out_of(off, across, k.clearance, side) else {
            continue;
        };
        let need = if normal.dot(off) < 0.0 {
            k.clearance + across
        } else {
            k.clearance - across
        };
        // No more than the bow the limb has room for and the depth it still sinks: the
        // pull-in grows from nothing as the bone starts to sink.
        let need = need.min(bowed(at, reach - at, chord) + out);
        let room = bowed_chord(at, reach - at, need);
        // Less than the passes count as met would be solved again for nothing.
        if chord - room <= plan.tolerance {
            continue;
        }
        pins[pin] = from + line * (room / chord);
        any = true;
        // The limb bowed that way by the depth to start the passes from: a straight limb
        // whose pin comes nearer bends whichever way rounding sends its joints, and one ulp
        // of the goal flipped it from frame to frame.
        let dir = line / chord;
        let Some(bend) = (normal - dir * normal.dot(dir)).try_normalize() else {
            continue;
        };
        let peak = at / reach;
        let mut q = plan.particles[plan.pinned[pin] as usize].parent;
        let mut to_pin = plan.particles[plan.pinned[pin] as usize].rest_len;
        while q != a && q != NO_PARTICLE {
            let f = 1.0 - to_pin / reach;
            let w = if f <= peak {
                f / peak.max(1e-6)
            } else {
                (1.0 - f) / (1.0 - peak).max(1e-6)
            };
            p[q as usize] += bend * (out * w.clamp(0.0, 1.0));
            to_pin += plan.particles[q as usize].rest_len;
            q = plan.particles[q as usize].parent;
        }
    }
    any
}

/// The chord of two bones `a` and `b` long, end to end, whose joint stands `h` off the line
/// between their far ends.
fn bowed_chord(a: f32, b: f32, h: f32) -> f32 {
    (a * a - h * h).max(0.0).sqrt() + (b * b - h * h).max(0.0).sqrt()
}

/// How far off the line between their far ends the joint of two bones `a` and `b` long
/// stands with their ends `chord` apart: [`bowed_chord`] inverted, by halving.
fn bowed(a: f32, b: f32, chord: f32) -> f32 {
    let (mut near, mut far) = (0.0f32, a.min(b));
    if bowed_chord(a, b, far) >= chord {
        return far;
    }
    for _ in 0..24 {
        let mid = 0.5 * (near + far);
        if bowed_chord(a, b, mid) >= chord {
            near = mid;
        } else {
            far = mid;
        }
    }
    near
}

/// Brings each pin bound by feet (`LimbPlan::foot_bounds`) within what its bones reach
/// beside them: the fork body's joint toward the foot is put within the foot's bones of the
/// foot and within reach of the anchor, the fork's own joint within one bone of that and
/// within reach of the anchor, and the pin within its bones of both (each a ball, met by
/// alternating projections from the pin, so a pin within all of them is not moved). The
/// feet are not moved: they hold. Pins go parents first, and a pin that hangs from a moved
/// one is brought back within its reach.
fn hold_by_feet(plan: &LimbPlan, p: &[Vec3A], pins: &mut [Vec3A]) {
    let mut bounds = plan.foot_bounds.iter().peekable();
    for (k, &(anchor, reach)) in plan.reach.iter().enumerate() {
        if let Anchor::Pin(i) = anchor {
            pins[k] = within_reach(pins[i as usize], pins[k], 0.0, reach);
        }
        while let Some(b) = bounds.next_if(|b| b.pin as usize == k) {
            let from = match b.anchor {
                Anchor::Pin(i) => pins[i as usize],
                Anchor::Attachment(a) => p[a as usize],
            };
            let foot = pins[b.foot as usize];
            let joint = meet(
                (from, b.anchor_to_fork + b.fork_to_joint),
                (foot, b.foot_to_joint),
                pins[k],
            );
            let fork = meet((from, b.anchor_to_fork), (joint, b.fork_to_joint), pins[k]);
            pins[k] = meet((fork, b.pin_to_fork), (joint, b.pin_to_joint), pins[k]);
        }
    }
}

/// A point within both balls (centre, radius), found from `start` by alternating
/// projections: they overlap where the foot is within reach, so a few rounds close in;
/// when they do not, it ends within the second.
fn meet(a: (Vec3A, f32), b: (Vec3A, f32), start: Vec3A) -> Vec3A {
    let mut at = start;
    for _ in 0..FOOT_HOLD_ROUNDS {
        let held = within_reach(b.0, within_reach(a.0, at, 0.0, a.1), 0.0, b.1);
        let done = held == at;
        at = held;
        if done {
            break;
        }
    }
    at
}

/// `at` brought to between `near` and `reach` of `from`, along the line between them.
fn within_reach(from: Vec3A, at: Vec3A, near: f32, reach: f32) -> Vec3A {
    let d = at - from;
    let dist = d.length();
    if dist > reach && dist.is_finite() {
        from + d * (reach / dist)
    } else if dist < near && dist > 1e-6 * near {
        from + d * (near / dist)
    } else {
        at
    }
}

/// How deep a pinned hand sinks into the deepest body of `group` beyond the clearance their
/// axes keep, as a fraction of the thinner radius of the two (0 where it keeps it
/// everywhere): the validation grid's measure of interpenetration.
fn depth(
    group: &[PinKeepOut],
    goals: &FrameGoals,
    obstacles: &[(Vec3A, Vec3A, f32)],
    pin: Vec3A,
) -> f32 {
    group
        .iter()
        .filter_map(|k| Some((k.clearance - overlap(k, goals, obstacles, pin)?.1) / k.thinner))
        .fold(0.0, f32::max)
}

/// Where a pinned hand comes nearer a trunk body than the clearance: the gap between their
/// axes' nearest points and its length.
#[inline(always)]
fn overlap(
    k: &PinKeepOut,
    goals: &FrameGoals,
    obstacles: &[(Vec3A, Vec3A, f32)],
    pin: Vec3A,
) -> Option<(Vec3A, f32)> {
    let t = k.target as usize;
    let hand = pin + (goals.centre[t] - goals.joint[t]);
    if beyond(k, obstacles, hand) || goals.touching.contains(&(k.target, k.body)) {
        return None;
    }
    let (centre, half_axis, _) = obstacles[k.obstacle as usize];
    let hand_axis = goals.rotation_used[t] * k.half_axis;
    let (s, u) = segment_closest(
        (hand - hand_axis).into(),
        (hand + hand_axis).into(),
        (centre - half_axis).into(),
        (centre + half_axis).into(),
    );
    let gap = (hand + hand_axis * (2.0 * s - 1.0)) - (centre + half_axis * (2.0 * u - 1.0));
    let dist_sq = gap.length_squared();
    if dist_sq >= k.clearance * k.clearance || !dist_sq.is_finite() {
        return None;
    }
    Some((gap, dist_sq.sqrt()))
}

/// Whether a hand centred at `hand` is too far from the body of `k` to touch it: its
/// centre against the body's centre, then against its axis. Most hands are far from most
/// bodies.
#[inline(always)]
fn beyond(k: &PinKeepOut, obstacles: &[(Vec3A, Vec3A, f32)], hand: Vec3A) -> bool {
    let (centre, half_axis, inv_axis_sq) = obstacles[k.obstacle as usize];
    far_apart(hand, centre, k.far_sq)
        || from_axis(hand, centre, half_axis, inv_axis_sq).length_squared() >= k.bound * k.bound
}

/// One push of a pin out of each body of `group` it sinks into; whether any was needed.
#[inline(always)]
fn push_out(
    plan: &LimbPlan,
    group: &[PinKeepOut],
    goals: &FrameGoals,
    delta: &[Quat],
    obstacles: &[(Vec3A, Vec3A, f32)],
    pin: &mut Vec3A,
) -> bool {
    let mut pushed = false;
    for k in group {
        let Some((gap, dist)) = overlap(k, goals, obstacles, *pin) else {
            continue;
        };
        let side = obstacle_turn(plan, delta, k.obstacle) * k.side;
        let Some(normal) = out_of(gap, dist, k.clearance, side) else {
            continue;
        };
        *pin += normal * k.clearance - gap;
        pushed = true;
    }
    pushed
}

/// How obstacle `o` has turned from rest: with its spine body, or for a free limb's body,
/// which hangs as at rest relative to the root, with the root (as [`pose_obstacles`]).
#[inline(always)]
fn obstacle_turn(plan: &LimbPlan, delta: &[Quat], o: u16) -> Quat {
    if o >= plan.first_hanging {
        delta[plan.root as usize]
    } else {
        delta[plan.obstacles[o as usize].anchor as usize]
    }
}

/// The way out of a trunk body for a part whose axis is `gap` (of length `dist`) from the
/// body's axis, inside the `clearance`: straight out where it is shallow, leaning toward
/// `side`, the side of the body the part is on at rest, the deeper it is. The nearest way
/// out of a part near the body's axis flips from one side to the other as the part crosses
/// it (an elbow knocked from above the chest to below it in a frame); the lean gives a deep
/// part one way out that does not, and still one when it lies on the axis.
#[inline(always)]
fn out_of(gap: Vec3A, dist: f32, clearance: f32, side: Vec3A) -> Option<Vec3A> {
    let depth = 1.0 - dist / clearance;
    (gap / clearance + side * (HAND_SIDE_LEAN * depth)).try_normalize()
}

/// The segment `p0`–`p1` against a body's axis (`half_axis` either side of `centre`): how far
/// along the segment they come nearest, and the segment's point there less the axis's.
#[inline(always)]
fn axis_gap(p0: Vec3A, p1: Vec3A, centre: Vec3A, half_axis: Vec3A) -> (f32, Vec3A) {
    let (s, t) = segment_closest(
        p0.into(),
        p1.into(),
        (centre - half_axis).into(),
        (centre + half_axis).into(),
    );
    (
        s,
        (p0 + (p1 - p0) * s) - (centre + half_axis * (2.0 * t - 1.0)),
    )
}

/// `point` less the point of a body's axis nearest it: the axis runs `half_axis` either
/// side of `centre`, and `inv_axis_sq` is one over `half_axis`'s squared length.
#[inline(always)]
fn from_axis(point: Vec3A, centre: Vec3A, half_axis: Vec3A, inv_axis_sq: f32) -> Vec3A {
    let from_end = point - (centre - half_axis);
    let along = (from_end.dot(half_axis) * 0.5 * inv_axis_sq).clamp(0.0, 1.0);
    from_end - half_axis * (2.0 * along)
}

/// Whether a bone (its middle `centre_to_mid` from a trunk body's centre, `bone` from end
/// to end) keeps `clearance` from the body's axis (`half_axis` either side of its centre)
/// along `off`, the line from the axis's point nearest the bone's middle to it (`off_sq` its
/// squared length): their extents along it are apart by that much, so their nearest points
/// are too. A bone hanging beside the trunk (an upper arm by the chest) is within reach of
/// the sphere test but parallel to the body: set aside here, it needs no closest points.
/// A middle on the axis has no such line and goes on to the exact test. A hair stricter
/// than exact, so rounding never sets aside a pair the exact test would push.
#[inline(always)]
fn apart_across(
    off: Vec3A,
    off_sq: f32,
    centre_to_mid: Vec3A,
    bone: Vec3A,
    half_axis: Vec3A,
    clearance: f32,
) -> bool {
    // All along `off` unnormalized: the separation times its length.
    let gap = off.dot(centre_to_mid) - 0.5 * off.dot(bone).abs() - off.dot(half_axis).abs();
    gap > 1.001 * clearance * off_sq.sqrt()
}

/// Whether `point` is at least `sqrt(far_sq)` from `centre`: the cheap first test of a
/// keep-out pair, before the distance to the body's axis (NaN passes on to that test).
#[inline(always)]
fn far_apart(point: Vec3A, centre: Vec3A, far_sq: f32) -> bool {
    point.distance_squared(centre) >= far_sq
}

/// Pushes every arm bone sunk into a trunk body deeper than at rest back out to where their
/// axes keep the clearance, along the line between their nearest points; the bone's free
/// ends share the push by how near each is to the contact. Returns whether any bone was in.
/// A goal inside the body still pins its particle: only the bones between are moved.
fn keep_out(
    plan: &LimbPlan,
    obstacles: &[(Vec3A, Vec3A, f32)],
    delta: &[Quat],
    p: &mut [Vec3A],
) -> bool {
    let mut any = false;
    for k in &plan.keep_out {
        let (centre, half_axis, inv_axis_sq) = obstacles[k.obstacle as usize];
        let (a, b) = (p[k.a as usize], p[k.b as usize]);
        let mid = (a + b) * 0.5;
        // The bone's middle against the body's axis: most pairs are apart by far more.
        if far_apart(mid, centre, k.far_sq) {
            continue;
        }
        let off = from_axis(mid, centre, half_axis, inv_axis_sq);
        let off_sq = off.length_squared();
        if off_sq >= k.bound * k.bound
            || apart_across(off, off_sq, mid - centre, b - a, half_axis, k.clearance)
        {
            continue;
        }
        let (s, gap) = axis_gap(a, b, centre, half_axis);
        let dist_sq = gap.length_squared();
        if dist_sq >= k.clearance * k.clearance || !dist_sq.is_finite() {
            continue;
        }
        let dist = dist_sq.sqrt();
        let depth = k.clearance - dist;
        let side = obstacle_turn(plan, delta, k.obstacle) * k.side;
        let Some(normal) = out_of(gap, dist, k.clearance, side) else {
            continue;
        };
        let (wa, wb) = ((1.0 - s) * k.share_a, s * k.share_b);
        let norm = wa * wa + wb * wb;
        if norm < 1e-6 {
            continue;
        }
        // A bone held at one end and touching near it would need a long lever: cap the
        // free end's move and let the next round finish.
        let push = normal * (depth / norm).min(4.0 * depth);
        p[k.a as usize] += push * wa;
        p[k.b as usize] += push * wb;
        any = true;
    }
    any
}

/// How far from its anchor a goal `dist` away is pinned, for a limb of `reach`: up to
/// `start`, at the goal; beyond, the pin eases into the full reach (C1, quadratically: the
/// "soft IK" of animation rigs, here the soft-correction curve) and gets there as far
/// beyond the reach as `start` is short of it, the limb's stretch making up the rest.
/// Bending and then straightening a joint by the hinge alone makes the last tenth of a
/// reach cost half the elbow's turn, which at a steady goal speed snaps the arm straight
/// in a frame or two; eased, the same straightening is spread over the approach.
/// `start = reach`: pinned at the reach.
fn held_distance(dist: f32, reach: f32, start: f32) -> f32 {
    let zone = 2.0 * (reach - start);
    if dist <= start || !dist.is_finite() || zone <= 1e-6 * reach {
        dist.min(reach)
    } else {
        dist - soft_correction(dist - start, zone)
    }
}

/// Stretches the straight path from a limb's attachment to its one pinned particle by
/// `stretch` about the attachment; what hangs off the path moves with its particle there.
fn stretch_limb(plan: &LimbPlan, q: u16, stretch: f32, p: &mut [Vec3A], moved: &mut Vec<Vec3A>) {
    let limb = plan.limbs[plan.particles[q as usize].limb as usize];
    let (first, end) = (limb.first as usize, limb.end as usize);
    let anchor = p[first];
    moved.clear();
    moved.resize(end - first, Vec3A::ZERO);
    for i in first + 1..end {
        let particle = &plan.particles[i];
        let by = if particle.on_pin_path {
            (p[i] - anchor) * (stretch - 1.0)
        } else {
            moved[particle.parent as usize - first]
        };
        moved[i - first] = by;
        p[i] += by;
    }
}

/// The aim preconditioner: a minimal-twist rotation and a scale along the goal direction
/// about the pivot, so the goal particles' weighted average lands on their goals' — the
/// limb keeps its rest shape while reaching, and rotation is favoured at the shoulder.
fn aim(
    plan: &LimbPlan,
    step: &AimStep,
    goals: &FrameGoals,
    pins: &[Vec3A],
    p: &mut [Vec3A],
    tuning: &LimbTuning,
    delta: &[Quat],
) {
    let max_widen = tuning.aim_max_widen;
    let pivot = step.pivot as usize;
    if let Some(k) = step.pin_pivot {
        p[pivot] = pins[k as usize];
    }
    let c = p[pivot];
    let (mut now, mut goal, mut total) = (Vec3A::ZERO, Vec3A::ZERO, 0.0);
    let range = step.goals.0 as usize..step.goals.1 as usize;
    for (&g, &at) in plan.pinned[range.clone()].iter().zip(&pins[range]) {
        let body = plan.particles[g as usize].goal_body as usize;
        let w = goals.position_weight[body];
        now += p[g as usize] * w;
        goal += at * w;
        total += w;
    }
    if total.is_nan() || total <= 0.0 {
        return;
    }
    // One goal at full weight (the usual aim) divides by one: skipped, for the same
    // numbers without a division for the whole limb to wait on.
    let (now, goal) = if total == 1.0 {
        (now, goal)
    } else {
        (now / total, goal / total)
    };
    let (from, to) = (now - c, goal - c);
    let (from_len, to_len) = (from.length(), to.length());
    if !from_len.is_finite() || from_len <= 1e-9 || !to_len.is_finite() {
        return;
    }
    let turn = ArcTurn::between(from, to, from_len, to_len);
    let axis = if to_len > 1e-9 {
        to / to_len
    } else {
        from / from_len
    };
    // Lengths a part in a million apart are equal: the goal and the particle reach the same
    // point by different sums, and rest goals must give the rest pose. Read as a squash,
    // that rounding made the bow below bend a straight limb at rest by the square root of
    // it, 0.05 % of its length (a hand 1.5 mrad off its rest rotation).
    let scale = if (to_len - from_len).abs() <= 1e-6 * from_len {
        1.0
    } else {
        to_len / from_len
    };
    // Squashing a limb along the goal direction keeps its joints' sideways offsets, which
    // for a nearly straight limb leaves it in a line it cannot bend out of; widen them as
    // much as the squash shortens, up to `max_widen`.
    let widen = if scale < 1.0 && max_widen > 1.0 {
        // `sqrt(1 / scale)` from the lengths themselves: the particles wait on one division
        // here, not two.
        (from_len / to_len).min(1e6).sqrt().min(max_widen)
    } else {
        1.0
    };
    for x in &mut p[step.first as usize..step.end as usize] {
        let y = turn.apply(*x - c);
        let along = axis * y.dot(axis);
        *x = c + along * scale + (y - along) * widen;
    }
    if scale < 1.0 && max_widen > 1.0 && to_len > 1e-6 * from_len && step.bow != Bow::None {
        let give = BOW_BONE_SHARE * tuning.soft_zone;
        let limb = plan.particles[step.pivot as usize].limb as usize;
        let spine_turn = delta[plan.limbs[limb].spine_body as usize];
        bow(
            plan,
            step,
            p,
            c,
            axis,
            to_len,
            1.0 - scale,
            give,
            spine_turn,
        );
    }
}

/// Bows a limb (nearly) straight at rest that the aim squashed by `slack` of its length
/// along `axis`: a parabola through the pivot and the goal, high enough that the bones
/// keep all of their length but a share of the squash.
///
/// Widening barely lengthens a limb this straight, and the passes can bend a limb squashed
/// along its own line only by creeping from rounding errors. Near full reach the floater's
/// arm took up to 52 passes to; a little farther its squash fell within the half soft
/// zone the passes count as met and one pass ended the phase, so it jumped between two
/// shapes from one frame to the next. Here the bones take the squash at first, up to
/// `give` of their length and smoothly less, and the bow the rest: the bow grows from
/// nothing, smoothly, as the goal comes inside the reach, and the passes start from a limb
/// as long as they would make it, bent one way. (The parabola shares the length out
/// unevenly: on a limb jointed off its middle, the bone across the top gains least.)
///
/// A limb bent a little bows the way it bends; one in a line toward the creature's front
/// (a knee, an elbow before the chest), turning to up for a limb reaching nearly straight
/// ahead: front and up as `spine_turn`, its spine body's turn from rest, carries them.
#[allow(clippy::too_many_arguments)]
fn bow(
    plan: &LimbPlan,
    step: &AimStep,
    p: &mut [Vec3A],
    c: Vec3A,
    axis: Vec3A,
    to_len: f32,
    slack: f32,
    give: f32,
    spine_turn: Quat,
) {
    let range = step.first as usize..step.end as usize;
    let side = |v: Vec3A| v - axis * v.dot(axis);
    let dir = if step.bow == Bow::Own {
        side(
            p[range.clone()]
                .iter()
                .fold(Vec3A::ZERO, |sum, &x| sum + (x - c)),
        )
        .try_normalize()
    } else {
        let (ahead, up) = (side(spine_turn * Vec3A::Z), side(spine_turn * Vec3A::Y));
        let k = crate::math::smoothstep(0.1, 0.3, ahead.length());
        (ahead.normalize_or_zero() * k + up.normalize_or_zero() * (1.0 - k)).try_normalize()
    };
    let Some(dir) = dir else { return };
    let per_len = 1.0 / to_len;
    let shape = |x: Vec3A| {
        let u = ((x - c).dot(axis) * per_len).clamp(0.0, 1.0);
        4.0 * u * (1.0 - u)
    };
    // Each bone's length with the bow `h` is, to second order in `h`, its length now plus
    // `h df cos` plus `h^2 df^2 sin^2 / 2 len`: `df` is the difference of the parabola's
    // height between its ends (the bow moves them across the axis only), and the angles
    // are the bone's with the bow's direction.
    let (mut rest, mut now, mut linear, mut square) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for i in range.clone() {
        let particle = &plan.particles[i];
        let from = p[particle.parent as usize];
        let bone = p[i] - from;
        let len = bone.length();
        rest += particle.rest_len;
        now += len;
        if len > 1e-9 {
            let df = shape(p[i]) - shape(from);
            let cos = bone.dot(dir) / len;
            linear += df * cos;
            square += df * df * (1.0 - cos * cos) / (2.0 * len);
        }
    }
    // Smooth and saturating, like `tanh`, for a square root.
    let taken = slack / (1.0 + (slack / give.max(1e-9)).powi(2)).sqrt();
    let target = rest * (1.0 - taken);
    let missing = target - now;
    // The positive root of `square h^2 + linear h = missing`, written so it neither
    // cancels nor divides by a vanishing `square`.
    let root = linear * linear + 4.0 * square * missing;
    let below = linear + root.max(0.0).sqrt();
    if !(missing > 0.0 && below > 1e-12) {
        return;
    }
    // A goal all but on the pivot would ask for a bow longer than the limb.
    let guess = (2.0 * missing / below).min(0.5 * rest);
    // The second-order guess falls short by about a tenth of the missing length on a limb
    // squashed by a tenth: one Newton step on the bones' exact lengths for a bow that high.
    let h = if guess > NEWTON_BOW * rest {
        let (mut length, mut slope) = (0.0f32, 0.0f32);
        for i in range.clone() {
            let from = p[plan.particles[i].parent as usize];
            let df = shape(p[i]) - shape(from);
            let bone = p[i] - from + dir * (df * guess);
            let len = bone.length();
            length += len;
            if len > 1e-9 {
                slope += bone.dot(dir) * df / len;
            }
        }
        if slope > 1e-9 {
            (guess + (target - length) / slope).clamp(0.0, 0.5 * rest)
        } else {
            guess
        }
    } else {
        guess
    };
    for x in &mut p[range] {
        *x += dir * (h * shape(*x));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::creature::Cap;
    use crate::ik::test_support::plan_sending;

    /// The sample forked leg's knees lie in the plane of their hips and feet at rest: with
    /// both feet planted each is one tripod step, bending away from the other leg (the
    /// left one to +x, the right to -x), and the step leaves the rest pose where it is.
    #[test]
    fn a_forked_legs_knees_are_tripods_bending_away_from_each_other() {
        use super::super::constraint::tripod_point;
        let c = crate::test_samples::creature("branching_leg");
        let (_rig, plan) = plan_sending(&c, &[Cap::Foot], false);
        let plan = &plan.limbs;
        let at = |q: u16| plan.particles[q as usize].rest;
        let tripods: Vec<_> = plan
            .ops
            .iter()
            .filter_map(|op| match op {
                Op::Tripod(t) => Some(*t),
                _ => None,
            })
            .collect();
        assert_eq!(tripods.len(), 2, "{:?}", plan.ops);
        assert!(plan.all_hinges);
        for t in tripods {
            let (hip, b, c) = (at(t.a), at(t.b), at(t.c));
            let knee = tripod_point([hip, b, c], &t, at(t.q)).0;
            assert!(
                knee.distance(at(t.q)) < 1e-6,
                "at rest: {knee} vs {}",
                at(t.q)
            );
            // Lower the hip 10 cm: the knee leaves the plane on the hip's side of the body.
            let low = tripod_point([hip - Vec3A::Y * 0.1, b, c], &t, at(t.q)).0;
            let out = (low.x - at(t.q).x) * hip.x.signum();
            assert!(
                out > 0.02,
                "hip at x {}: the knee moved {out} outward",
                hip.x
            );
        }
    }

    /// A part crossing a trunk body's axis deep inside is pushed out on one side, its rest
    /// side, all the way across: the nearest way out flips with the part, this does not.
    /// Near the surface it is the nearest way out.
    #[test]
    fn a_deep_part_crossing_the_axis_keeps_one_way_out() {
        let clearance = 0.1;
        let side = Vec3A::new(0.0, -1.0, 0.0);
        let across = Vec3A::new(0.0, 1.0, 0.0);
        let mut last: Option<Vec3A> = None;
        for i in -20..=20 {
            let gap = across * (i as f32 * 0.001) + Vec3A::new(1e-4, 0.0, 0.0);
            let normal = out_of(gap, gap.length(), clearance, side).unwrap();
            assert!(normal.dot(side) > 0.0, "at {i}: {normal}");
            if let Some(before) = last {
                assert!(normal.angle_between(before) < 0.2, "a jump at {i}");
            }
            last = Some(normal);
        }
        let shallow = Vec3A::new(0.0, 0.099, 0.0);
        let normal = out_of(shallow, shallow.length(), clearance, side).unwrap();
        assert!(normal.dot(across) > 0.999, "{normal}");
    }

    #[test]
    fn a_push_is_kept_when_it_halves_the_depth_or_all_but_brings_the_hand_out() {
        // (depth at the goal, depth where pushed, kept)
        for (was, now, kept) in [
            (0.62, 0.30, true),    // halved
            (0.62, 0.40, false),   // out of one body, hardly less deep in the next
            (0.15, 0.09, true),    // all but out, from deeper
            (0.15, 0.11, false),   // neither
            (0.037, 0.031, false), // all but out already: nothing to gain
            (0.037, 0.0, true),    // out
            (0.0, 0.0, true),      // no push needed
        ] {
            assert_eq!(pushed_pin_kept(was, now), kept, "{was} -> {now}");
        }
    }

    /// The test that sets a bone hanging beside a trunk body aside sets aside only bones
    /// that keep the clearance from its axis: on 200,000 random bones and bodies (a quarter
    /// of them nearly parallel, as an arm by the chest), everything it sets aside is at
    /// least the clearance away by the closest points. And it does set most of the parallel
    /// ones aside, or it would buy nothing.
    #[test]
    fn a_bone_set_aside_as_apart_across_keeps_the_clearance() {
        use crate::math::segment_distance;
        use rand::{RngExt, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let v = |rng: &mut ChaCha8Rng, by: f32| {
            (Vec3A::new(rng.random(), rng.random(), rng.random()) - 0.5) * by
        };
        let (mut parallel, mut parallel_aside) = (0, 0);
        for i in 0..200_000 {
            let centre = v(&mut rng, 2.0);
            let half_axis = v(&mut rng, 1.0);
            let clearance = rng.random_range(0.01..0.3);
            let along_body = i % 4 == 0;
            let bone = if along_body {
                half_axis * rng.random_range(-1.5f32..1.5) + v(&mut rng, 0.05)
            } else {
                v(&mut rng, 1.0)
            };
            let mid = centre + half_axis * rng.random_range(-1.2f32..1.2) + v(&mut rng, 1.0);
            let off = from_axis(mid, centre, half_axis, half_axis.length_squared().recip());
            let aside = apart_across(
                off,
                off.length_squared(),
                mid - centre,
                bone,
                half_axis,
                clearance,
            );
            let (a, b) = (mid - bone * 0.5, mid + bone * 0.5);
            let dist = segment_distance(
                a.into(),
                b.into(),
                (centre - half_axis).into(),
                (centre + half_axis).into(),
            );
            if aside {
                assert!(
                    dist >= clearance,
                    "set aside at {dist}, within the clearance {clearance}"
                );
            }
            if along_body && dist > 1.1 * clearance {
                parallel += 1;
                parallel_aside += usize::from(aside);
            }
        }
        assert!(
            parallel_aside * 10 > parallel * 8,
            "only {parallel_aside} of {parallel} parallel bones clear of the body set aside"
        );
    }

    #[test]
    fn a_pin_is_held_between_the_nearest_and_farthest_its_bones_allow() {
        let from = Vec3A::new(1.0, 2.0, 3.0);
        let dir = Vec3A::new(0.6, 0.0, 0.8);
        let at = |d: f32| within_reach(from, from + dir * d, 0.95, 1.0).distance(from);
        assert!((at(0.5) - 0.95).abs() < 1e-6);
        assert!((at(0.97) - 0.97).abs() < 1e-6);
        assert!((at(2.0) - 1.0).abs() < 1e-6);
        // On the anchor there is no way out to choose: left where it is.
        assert_eq!(within_reach(from, from, 0.95, 1.0), from);
    }

    #[test]
    fn a_one_bone_path_holds_its_pin_no_nearer_than_the_bone_can_shorten() {
        let mut one_bone = 0;
        for c in crate::test_samples::creatures().unwrap() {
            // A goal on every limb body: most pins hang from the pin one bone up.
            let (_, plan) = plan_sending(&c, &[Cap::Limb, Cap::Grasper], false);
            let plan = &plan.limbs;
            assert_eq!(plan.near.len(), plan.pinned.len());
            for (k, &pin) in plan.pinned.iter().enumerate() {
                let (_, reach) = plan.reach[k];
                let near = plan.near[k];
                assert!(
                    (0.0..reach).contains(&near),
                    "{}: {near} of {reach}",
                    c.name()
                );
                if (reach - plan.particles[pin as usize].rest_len).abs() <= 1e-6 * reach {
                    one_bone += 1;
                    assert!((near - plan.min_stretch * reach).abs() <= 1e-5 * reach);
                }
            }
        }
        assert!(one_bone > 20, "{one_bone} pins one bone from their anchor");
    }

    /// Every aim step a sample creature's plan bows (feet and graspers pinned), squashed by
    /// 0.2 % to 10 % of its reach: the limb keeps its length within the half soft zone the
    /// passes count as met (unbowed, a straight limb would be squashed by all of it), and
    /// the bow rises with the squash from nothing.
    #[test]
    fn the_aim_bows_a_straight_limb_so_it_keeps_its_length() {
        use crate::ik::IkTuning;
        use crate::ik::goals::FrameGoals;
        let tuning = IkTuning::default().limb;
        let band = 0.5 * tuning.soft_zone;
        let (mut own, mut ahead) = (0, 0);
        for c in crate::test_samples::creatures().unwrap() {
            let (rig, plan) = plan_sending(&c, &[Cap::Grasper, Cap::Foot], false);
            let plan = &plan.limbs;
            let mut goals = FrameGoals::default();
            goals.position_weight = vec![1.0; rig.len()];
            let delta = vec![Quat::IDENTITY; rig.len()];
            let rest: Vec<Vec3A> = plan.particles.iter().map(|q| q.rest).collect();
            for step in &plan.aims {
                match step.bow {
                    Bow::None => continue,
                    Bow::Own => own += 1,
                    Bow::Ahead => ahead += 1,
                }
                let pivot = rest[step.pivot as usize];
                let range = step.goals.0 as usize..step.goals.1 as usize;
                let mut last_off = 0.0f32;
                for slack in [0.002, 0.005, 0.01, 0.02, 0.05, 0.1] {
                    let mut pins = vec![Vec3A::ZERO; plan.pinned.len()];
                    for k in range.clone() {
                        let g = rest[plan.pinned[k] as usize];
                        pins[k] = pivot + (g - pivot) * (1.0 - slack);
                    }
                    let mut p = rest.clone();
                    aim(plan, step, &goals, &pins, &mut p, &tuning, &delta);
                    let (mut path, mut rest_path, mut off) = (0.0f32, 0.0f32, 0.0f32);
                    for i in step.first as usize..step.end as usize {
                        let q = &plan.particles[i];
                        path += p[i].distance(p[q.parent as usize]);
                        rest_path += q.rest_len;
                        off = off.max((p[i] - rest[i]).length());
                    }
                    assert!(
                        (path / rest_path - 1.0).abs() <= band,
                        "{} step at {}, squashed by {slack}: {path} of {rest_path}",
                        c.name(),
                        step.pivot
                    );
                    assert!(
                        p.iter().all(|x| x.is_finite()) && off > last_off,
                        "{} step at {}: moved {off} at {slack}, {last_off} before",
                        c.name(),
                        step.pivot
                    );
                    last_off = off;
                }
            }
        }
        assert!(own > 0, "{own} steps bow their own way, {ahead} ahead");
    }

    #[test]
    fn round_robin_takes_the_groups_in_turn_and_keeps_each_groups_order() {
        let items = [(0, 'a'), (0, 'b'), (0, 'c'), (1, 'x'), (2, 'p'), (2, 'q')];
        let mixed: String = round_robin(&items, |x| x.0).iter().map(|x| x.1).collect();
        assert_eq!(mixed, "axpbqc");
        assert!(round_robin(&[] as &[(usize, char)], |x| x.0).is_empty());
    }

    /// The rebuild reads a body's parent's turn and a particle's parent's projected place,
    /// so both orders must stay parents first however the limbs are interleaved; and every
    /// limb body and every particle off the spine must be in them once.
    #[test]
    fn interleaved_rebuild_orders_keep_parents_first() {
        let mut interleaved = 0;
        for creature in crate::test_samples::creatures().unwrap() {
            let (rig, plan) = plan_sending(&creature, &[Cap::Grasper, Cap::Foot], true);
            let plan = &plan.limbs;
            let name = creature.name();
            let mut posed = vec![false; creature.len()];
            for lb in &plan.bodies {
                let parent = lb.parent as usize;
                assert!(
                    rig.spine[parent] || posed[parent],
                    "{name}: {} before its parent",
                    lb.body
                );
                assert!(!posed[lb.body as usize], "{name}: {} twice", lb.body);
                posed[lb.body as usize] = true;
            }
            let mut projected = vec![false; plan.particles.len()];
            for l in &plan.limbs {
                projected[l.first as usize] = true;
            }
            for &q in &plan.projection {
                let parent = plan.particles[q as usize].parent as usize;
                assert!(projected[parent], "{name}: particle {q} before its parent");
                assert!(!projected[q as usize], "{name}: particle {q} twice");
                projected[q as usize] = true;
            }
            assert!(projected.iter().all(|&x| x), "{name}: a particle left out");
            let limb_of = |lb: &LimbBody| plan.particles[lb.particle as usize].limb;
            if plan.limbs.len() >= 2 {
                assert_ne!(
                    limb_of(&plan.bodies[0]),
                    limb_of(&plan.bodies[1]),
                    "{name}: the first two bodies are of one limb"
                );
                interleaved += 1;
            }
        }
        assert!(
            interleaved >= 10,
            "only {interleaved} creatures with two limbs"
        );
    }
}
