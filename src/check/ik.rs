//! The particle IK's contracts on one creature (`anymorph check ik`):
//!
//! * **reachable goals are reached**: goal sets made by rigidly bending one joint of every
//!   limb (any joint, any axis, up to ±0.8 rad) and swinging the whole limb about its top
//!   joint (up to ±0.6 rad), every bone keeping its length, with goals on all limb ends at
//!   once and the spine free; half with the ends' rotations as goals too, half positions
//!   only. Each end must land within 1 % of its limb length. A limb straightened to 99 % of
//!   its full length (toward its rest chord, swung) must reach too;
//! * a miss counts as **kept out** (unreachable by construction), not as a failure, only when
//!   the solver without its keep-out reaches the set and, reaching it, sinks a body of the
//!   missing limb into the trunk or into a limb no goal moves (more than a quarter of the
//!   thinner radius deeper than at rest): the keep-out is there to stop exactly that;
//! * **unreachable goals are reached toward**: the limb points at a goal two to five limb
//!   lengths away from its posed top joint (cosine ≥ 0.9), and no bone stretches past
//!   `limb.max_stretch`;
//! * **rest goals give the rest pose**, **the same goals give the same pose** whatever the
//!   solver solved before, and **no goal gives NaN** (far goals, tiny weights, any rotation);
//! * **a goal moved a hair moves the pose a hair**: along a path of goal sets (from a bent
//!   set to another, or to points anywhere in and around the creature: inside the trunk, at
//!   a shoulder, beyond reach), no body jumps. A step of the path that moves a body farther
//!   than [`MAX_JUMP`] of the creature's size is halved, keeping the half that moves it
//!   more, until the goals move by a hundred-thousandth of the path: a pose that still
//!   jumps there is a discontinuity, which a clip sweeping its goals shows as jitter.

use super::{Draws, Subject, limb_tops, path, posed_joint, subtree};
use crate::runtime::creature::{BodyId, Creature};
use crate::runtime::eval::Goals;
use crate::runtime::ik::{IkSolver, IkTuning};
use crate::runtime::math::{rotation_angle_between, segment_distance};
use crate::runtime::pose::BodyPose;
use glam::{Quat, Vec3};
use serde::Serialize;

/// A reachable goal set is met when every end lands within this fraction of its limb length.
pub const REACH_TOLERANCE: f32 = 0.01;
/// How far a straightened limb's chord is of its full length.
pub const STRAIGHT_CHORD: f32 = 0.99;
/// A limb pointing at an unreachable goal: the least cosine between where it points and where
/// the goal is, from its posed top joint.
pub const POINTING_COSINE: f32 = 0.9;
/// How much deeper than at rest a limb body must sink into the trunk, in the thinner radius,
/// for a miss to count as kept out.
pub const KEPT_OUT_DEPTH: f32 = 0.25;
/// The most a body may jump, as a fraction of the creature's size, for goals moved by a
/// hair: half the validation grid's jitter limit (a jump in one frame is an acceleration of
/// its size there and back).
pub const MAX_JUMP: f32 = 0.005;
/// Samples along a goal path, and halvings of a step that moves a body too far.
const PATH_STEPS: usize = 48;
const HALVINGS: usize = 17;

/// How many cases of each kind per creature.
#[derive(Clone, Copy, Debug)]
pub struct IkCheckOptions {
    /// Goal sets with every limb bent and swung, all ends at once.
    pub bent_sets: usize,
    /// Limbs straightened to [`STRAIGHT_CHORD`], one end at a time (at most this many).
    pub straight_sets: usize,
    /// Goals beyond reach, one end at a time.
    pub unreachable_sets: usize,
    /// Random and absurd goal sets for the NaN check.
    pub random_sets: usize,
    /// Goal paths along which no body may jump.
    pub paths: usize,
}

impl Default for IkCheckOptions {
    fn default() -> Self {
        IkCheckOptions {
            bent_sets: 12,
            straight_sets: 8,
            unreachable_sets: 6,
            random_sets: 6,
            paths: 6,
        }
    }
}

/// What a reachable goal set was made by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SetKind {
    /// Every limb bent and swung; ends' positions and rotations as goals.
    Bent,
    /// Every limb bent and swung; ends' positions only.
    BentPositions,
    /// One limb straightened; its end's position and rotation.
    Straight,
    /// One limb straightened; its end's position only.
    StraightPositions,
}

/// One goal of a set: a body's centre, and its rotation when the set gives one.
#[derive(Clone, Debug, Serialize)]
pub struct GoalOut {
    pub body: String,
    pub position: [f32; 3],
    pub rotation: Option<[f32; 4]>,
}

/// A limb body the keep-out held out of the trunk (or of a limb hanging free).
#[derive(Clone, Debug, Serialize)]
pub struct KeptOut {
    pub body: String,
    pub trunk: String,
    /// How deep it sank reaching the goals, in the thinner radius beyond its rest overlap.
    pub depth: f32,
}

/// How a reachable goal set went.
#[derive(Clone, Debug, Serialize)]
pub struct ReachResult {
    pub kind: SetKind,
    pub index: usize,
    /// The worst end's miss, as a fraction of its limb length.
    pub error: f32,
    /// That end.
    pub end: String,
    /// The largest rotation miss among ends with a rotation goal (radians).
    pub rotation_error: f32,
    /// Set when the miss is the keep-out's (see the module's doc).
    pub kept_out: Option<KeptOut>,
    /// How many ends had goals, and how many of them were missed.
    pub goals_count: usize,
    pub missed_ends: usize,
    /// The goals, kept for sets that missed (to replay with `anymorph solve`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub goals: Vec<GoalOut>,
}

impl ReachResult {
    /// Every end not kept out landed within [`REACH_TOLERANCE`] of its limb length.
    pub fn reached(&self) -> bool {
        self.error <= REACH_TOLERANCE
    }

    /// Some end missed only because the keep-out held its limb out (see the module's doc).
    pub fn kept_out(&self) -> bool {
        self.kept_out.is_some()
    }
}

/// How a goal beyond reach went.
#[derive(Clone, Debug, Serialize)]
pub struct UnreachableResult {
    pub end: String,
    /// Cosine between where the limb points and where the goal is, from its posed top joint.
    pub cosine: f32,
    /// The most any bone of the limb stretched, as a multiple of its rest length.
    pub stretch: f32,
    /// It points elsewhere only because the keep-out holds it out of the trunk.
    pub kept_out: bool,
    pub passed: bool,
}

/// Where along a goal path the pose jumps (see the module's doc).
#[derive(Clone, Debug, Serialize)]
pub struct JumpResult {
    pub path: usize,
    /// Whether the path ends at points anywhere around the creature (else at a bent set).
    pub anywhere: bool,
    /// Where along the path (0 at its start, 1 at its end).
    pub at: f32,
    /// The body that jumped, and how far for goals moved by a hair, in the creature's size.
    pub body: String,
    pub jump: f32,
    /// The goals either side of the jump (to replay with `anymorph solve`).
    pub before: Vec<GoalOut>,
    pub after: Vec<GoalOut>,
}

/// Every IK case of one creature.
#[derive(Clone, Debug, Serialize)]
pub struct IkCreatureReport {
    pub creature: String,
    pub family: &'static str,
    pub reach: Vec<ReachResult>,
    pub unreachable: Vec<UnreachableResult>,
    /// Rest goal sets whose pose left the rest pose (body, how far).
    pub rest_failures: Vec<String>,
    /// The same goals after other solves gave another pose (body, how far).
    pub path_failures: Vec<String>,
    /// Goal sets that gave a non-finite pose.
    pub nan_sets: usize,
    /// Goal paths walked, and the jumps found on them by the solver without its keep-out
    /// (`jumps`) and with it (`kept_out_jumps`).
    pub paths: usize,
    pub jumps: Vec<JumpResult>,
    pub kept_out_jumps: Vec<JumpResult>,
}

impl IkCreatureReport {
    /// Reachable sets with an end missed for no reason the keep-out gives.
    pub fn missed(&self) -> impl Iterator<Item = &ReachResult> {
        self.reach.iter().filter(|r| !r.reached())
    }

    /// Every contract held.
    pub fn passed(&self) -> bool {
        self.missed().next().is_none()
            && self.unreachable.iter().all(|u| u.passed)
            && self.rest_failures.is_empty()
            && self.path_failures.is_empty()
            && self.nan_sets == 0
            && self.jumps.is_empty()
    }
}

/// Runs every IK case on one creature.
pub fn check_creature(subject: &Subject, options: &IkCheckOptions) -> IkCreatureReport {
    let c = &*subject.creature;
    let mut draws = Draws::seeded(subject.case_seed());
    let tuning = IkTuning::default();
    let mut solver = IkSolver::with_tuning(c, tuning.clone());
    let mut paper = IkSolver::with_tuning(c, {
        let mut t = tuning.clone();
        t.limb.keep_out_rounds = 0;
        t
    });
    let mut report = IkCreatureReport {
        creature: c.name().to_string(),
        family: subject.family_name(),
        reach: Vec::new(),
        unreachable: Vec::new(),
        rest_failures: Vec::new(),
        path_failures: Vec::new(),
        nan_sets: 0,
        paths: 0,
        jumps: Vec::new(),
        kept_out_jumps: Vec::new(),
    };
    let limbs: Vec<Limb> = limb_tops(c)
        .into_iter()
        .filter_map(|top| Limb::of(c, top))
        .collect();
    let mut pose = Vec::new();
    if !limbs.is_empty() {
        for index in 0..options.bent_sets {
            let kind = if index % 2 == 0 {
                SetKind::Bent
            } else {
                SetKind::BentPositions
            };
            let set = bent_set(c, &limbs, &mut draws, kind == SetKind::Bent);
            report.reach.push(reach(
                c,
                &set,
                kind,
                index,
                &mut solver,
                &mut paper,
                &mut pose,
            ));
        }
        let chains: Vec<(BodyId, BodyId)> = limbs
            .iter()
            .flat_map(|l| l.ends.iter().map(move |&e| (l.top, e)))
            .filter(|&(top, end)| path(c, top, end).len() >= 3)
            .collect();
        for index in 0..options.straight_sets.min(chains.len()) {
            let (top, end) = chains[draws.index(chains.len())];
            let kind = if index % 2 == 0 {
                SetKind::Straight
            } else {
                SetKind::StraightPositions
            };
            let set = straight_set(c, top, end, &mut draws, kind == SetKind::Straight);
            report.reach.push(reach(
                c,
                &set,
                kind,
                index,
                &mut solver,
                &mut paper,
                &mut pose,
            ));
        }
        let ends: Vec<(BodyId, BodyId)> = limbs
            .iter()
            .flat_map(|l| l.ends.iter().map(move |&e| (l.top, e)))
            .collect();
        for _ in 0..options.unreachable_sets {
            let (top, end) = ends[draws.index(ends.len())];
            report.unreachable.push(unreachable(
                c,
                top,
                end,
                &mut draws,
                &mut solver,
                &mut paper,
                &tuning,
                &mut pose,
            ));
        }
        path_independence(c, &limbs, &mut draws, &mut report);
    }
    rest_goals(c, &mut draws, &mut solver, &mut report, &mut pose);
    for _ in 0..options.random_sets {
        let goals = absurd_goals(c, &mut draws);
        solver.solve(c, &goals, &mut pose);
        if !pose.iter().all(|p| p.is_finite()) {
            report.nan_sets += 1;
        }
    }
    if !limbs.is_empty() {
        // Drawn from a stream of their own, so the cases above stay what they were.
        let mut draws = Draws::seeded(subject.case_seed() ^ 0x6a75_6d70);
        for index in 0..options.paths {
            report.paths += 1;
            let (from, to) = path_ends(c, &limbs, index, &mut draws);
            if let Some(j) = goal_path(c, &from, &to, index, &mut paper) {
                report.jumps.push(j);
            }
            if let Some(j) = goal_path(c, &from, &to, index, &mut solver) {
                report.kept_out_jumps.push(j);
            }
        }
    }
    report
}

/// A goal set `t` of the way from `a` to `b` (the same ends in the same order).
fn between(a: &GoalSet, b: &GoalSet, t: f32) -> GoalSet {
    GoalSet {
        ends: a
            .ends
            .iter()
            .zip(&b.ends)
            .map(|(&(e, p, q), &(_, p2, q2))| (e, p.lerp(p2, t), q.slerp(q2, t).normalize()))
            .collect(),
        rotations: a.rotations,
    }
}

/// The ends of goal path `index`: a bent set, and another or points anywhere around.
fn path_ends(c: &Creature, limbs: &[Limb], index: usize, draws: &mut Draws) -> (GoalSet, GoalSet) {
    let rotations = index.is_multiple_of(2);
    let anywhere = index % 4 >= 2;
    let from = bent_set(c, limbs, draws, rotations);
    let to = if anywhere {
        // Anywhere in the creature's box and a little beyond: inside the trunk, at a
        // shoulder, out of reach.
        let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
        for b in 0..c.len() {
            lo = lo.min(c.body(b).position);
            hi = hi.max(c.body(b).position);
        }
        let margin = Vec3::splat(0.2 * c.size());
        let (lo, hi) = (lo - margin, hi + margin);
        GoalSet {
            ends: from
                .ends
                .iter()
                .map(|&(e, _, q)| {
                    let p = Vec3::new(
                        draws.range(lo.x, hi.x),
                        draws.range(lo.y, hi.y),
                        draws.range(lo.z, hi.z),
                    );
                    (e, p, (draws.turn(1.5) * q).normalize())
                })
                .collect(),
            rotations,
        }
    } else {
        bent_set(c, limbs, draws, rotations)
    };
    (from, to)
}

/// Walks one goal path and returns its worst jump, if any body jumps farther than
/// [`MAX_JUMP`] for goals moved by a hair.
fn goal_path(
    c: &Creature,
    from: &GoalSet,
    to: &GoalSet,
    index: usize,
    solver: &mut IkSolver,
) -> Option<JumpResult> {
    let anywhere = index % 4 >= 2;
    let limit = MAX_JUMP * c.size();
    let mut pose_at = |t: f32, pose: &mut Vec<BodyPose>| {
        solver.solve(c, &between(from, to, t).goals(c), pose);
    };
    let apart = |x: &[BodyPose], y: &[BodyPose]| {
        x.iter()
            .zip(y)
            .enumerate()
            .map(|(b, (p, q))| (p.position.distance(q.position), b))
            .fold(
                (0.0f32, 0),
                |m, d| if d.0 > m.0 || d.0.is_nan() { d } else { m },
            )
    };
    let (mut before, mut after, mut mid) = (Vec::new(), Vec::new(), Vec::new());
    let mut worst: Option<JumpResult> = None;
    pose_at(0.0, &mut before);
    for k in 0..PATH_STEPS {
        let (t0, t1) = (
            k as f32 / PATH_STEPS as f32,
            (k + 1) as f32 / PATH_STEPS as f32,
        );
        pose_at(t1, &mut after);
        if apart(&before, &after).0 > limit {
            // Halve the step, keeping the half that moves a body more.
            let (mut lo, mut hi) = (t0, t1);
            let (mut p_lo, mut p_hi) = (before.clone(), after.clone());
            for _ in 0..HALVINGS {
                let m = 0.5 * (lo + hi);
                pose_at(m, &mut mid);
                if apart(&p_lo, &mid).0 >= apart(&mid, &p_hi).0 {
                    hi = m;
                    std::mem::swap(&mut p_hi, &mut mid);
                } else {
                    lo = m;
                    std::mem::swap(&mut p_lo, &mut mid);
                }
            }
            let (jump, body) = apart(&p_lo, &p_hi);
            let jump = jump / c.size();
            if (jump > MAX_JUMP || jump.is_nan()) && worst.as_ref().is_none_or(|w| jump > w.jump) {
                worst = Some(JumpResult {
                    path: index,
                    anywhere,
                    at: lo,
                    body: c.body(body).name.clone(),
                    jump,
                    before: between(from, to, lo).out(c),
                    after: between(from, to, hi).out(c),
                });
            }
        }
        std::mem::swap(&mut before, &mut after);
    }
    worst
}

/// A limb: its top body and the ends whose miss is measured (leaves a joint or more from the
/// spine).
struct Limb {
    top: BodyId,
    bodies: Vec<BodyId>,
    ends: Vec<BodyId>,
}

impl Limb {
    fn of(c: &Creature, top: BodyId) -> Option<Limb> {
        let bodies = subtree(c, top);
        let ends: Vec<BodyId> = bodies
            .iter()
            .copied()
            .filter(|&b| c.children(b).is_empty() && c.limb_length(b) > 1e-4 * c.size())
            .collect();
        (!ends.is_empty()).then_some(Limb { top, bodies, ends })
    }
}

/// A goal set: per end, its centre and (maybe) its rotation.
struct GoalSet {
    ends: Vec<(BodyId, Vec3, Quat)>,
    rotations: bool,
}

impl GoalSet {
    fn goals(&self, c: &Creature) -> Goals {
        let mut goals = Goals::new(c.len());
        for &(b, p, q) in &self.ends {
            goals.set_position(b, p, 1.0);
            if self.rotations {
                goals.set_rotation(b, q, 1.0);
            }
        }
        goals
    }

    fn out(&self, c: &Creature) -> Vec<GoalOut> {
        self.ends
            .iter()
            .map(|&(b, p, q)| GoalOut {
                body: c.body(b).name.clone(),
                position: p.to_array(),
                rotation: self.rotations.then(|| q.to_array()),
            })
            .collect()
    }
}

/// Every limb bent at one joint and swung about its top joint; goals on all its ends.
fn bent_set(c: &Creature, limbs: &[Limb], draws: &mut Draws, rotations: bool) -> GoalSet {
    let mut ends = Vec::new();
    for limb in limbs {
        let bend_at = if limb.bodies.len() > 1 {
            limb.bodies[1 + draws.index(limb.bodies.len() - 1)]
        } else {
            limb.top
        };
        let bend = draws.turn(0.8);
        let swing = draws.turn(0.6);
        let bent = subtree(c, bend_at);
        let (hinge, top) = (c.pivot(bend_at), c.pivot(limb.top));
        for &end in &limb.ends {
            let body = c.body(end);
            let (mut centre, mut rotation) = (body.position, body.rotation);
            if bent.contains(&end) {
                centre = hinge + bend * (centre - hinge);
                rotation = bend * rotation;
            }
            centre = top + swing * (centre - top);
            rotation = (swing * rotation).normalize();
            ends.push((end, centre, rotation));
        }
    }
    GoalSet { ends, rotations }
}

/// The path from `top` to `end` laid on a circular arc whose chord is [`STRAIGHT_CHORD`] of
/// its length, every bone keeping its length, in the plane the limb bends in at rest, its
/// chord along the rest chord swung by up to 0.6 rad; the goal is where that puts `end`.
fn straight_set(
    c: &Creature,
    top: BodyId,
    end: BodyId,
    draws: &mut Draws,
    rotations: bool,
) -> GoalSet {
    let chain = path(c, top, end);
    let joints: Vec<Vec3> = chain.iter().map(|&b| c.pivot(b)).collect();
    let lengths: Vec<f32> = joints.windows(2).map(|w| w[0].distance(w[1])).collect();
    let chord = (joints[joints.len() - 1] - joints[0]).normalize_or(Vec3::NEG_Y);
    // The side the joints stand off the chord at rest (any side for a limb in line).
    let off: Vec3 = joints
        .iter()
        .map(|&j| {
            let d = j - joints[0];
            d - chord * d.dot(chord)
        })
        .sum();
    let side = off
        .try_normalize()
        .unwrap_or_else(|| chord.any_orthonormal_vector());
    let swing = draws.turn(0.6);
    let (chord, side) = (swing * chord, swing * side);
    // Equal turns between bones: the chord shrinks as the turn grows; find the turn by
    // bisection (headings run symmetric about the chord).
    let n = lengths.len();
    let laid = |turn: f32| -> Vec<Vec3> {
        let mut points = vec![Vec3::ZERO];
        let mut at = Vec3::ZERO;
        for (k, &len) in lengths.iter().enumerate() {
            let heading = turn * (k as f32 - 0.5 * (n as f32 - 1.0));
            at += (chord * heading.cos() - side * heading.sin()) * len;
            points.push(at);
        }
        points
    };
    let total: f32 = lengths.iter().sum();
    let (mut lo, mut hi) = (0.0f32, std::f32::consts::PI / n as f32);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        let pts = laid(mid);
        if pts[n].length() > STRAIGHT_CHORD * total {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let pts = laid(0.5 * (lo + hi));
    // The end body turns with its last bone.
    let rest_bone = joints[n] - joints[n - 1];
    let posed_bone = pts[n] - pts[n - 1];
    let turn = Quat::from_rotation_arc(
        rest_bone.normalize_or(Vec3::Y),
        posed_bone.normalize_or(Vec3::Y),
    );
    let body = c.body(end);
    let joint = joints[0] + pts[n];
    let centre = joint + turn * (body.position - joints[n]);
    GoalSet {
        ends: vec![(end, centre, (turn * body.rotation).normalize())],
        rotations,
    }
}

/// Solves a reachable set; each end that misses is asked whether the keep-out made it.
fn reach(
    c: &Creature,
    set: &GoalSet,
    kind: SetKind,
    index: usize,
    solver: &mut IkSolver,
    paper: &mut IkSolver,
    pose: &mut Vec<BodyPose>,
) -> ReachResult {
    let goals = set.goals(c);
    solver.solve(c, &goals, pose);
    let miss_of = |pose: &[BodyPose], b: BodyId, p: Vec3| {
        let e = pose[b].position.distance(p) / c.limb_length(b);
        if e.is_finite() { e } else { f32::INFINITY }
    };
    let missed: Vec<(BodyId, Vec3)> = set
        .ends
        .iter()
        .filter(|&&(b, p, _)| {
            // A NaN miss is a miss.
            let miss = miss_of(pose, b, p);
            miss.is_nan() || miss > REACH_TOLERANCE
        })
        .map(|&(b, p, _)| (b, p))
        .collect();
    let mut result = ReachResult {
        kind,
        index,
        error: 0.0,
        end: c.body(set.ends[0].0).name.clone(),
        rotation_error: 0.0,
        kept_out: None,
        goals_count: set.ends.len(),
        missed_ends: missed.len(),
        goals: Vec::new(),
    };
    for &(b, _, q) in &set.ends {
        if set.rotations {
            result.rotation_error = result
                .rotation_error
                .max(rotation_angle_between(pose[b].rotation, q));
        }
    }
    // An end missed only to keep its limb out of what the keep-out protects: the solver
    // without the keep-out reaches it, and reaching it sinks a body of its limb into the
    // trunk or into a limb no goal moves (those hang free). Pairs joined at rest (a limb's
    // top and the spine body it hangs from) are left out, as the keep-out leaves them, but
    // for the end itself (a hand is kept out of the body its arm hangs from too).
    let mut reaching = Vec::new();
    if !missed.is_empty() {
        paper.solve(c, &goals, &mut reaching);
    }
    let moved: Vec<BodyId> = set
        .ends
        .iter()
        .filter_map(|&(b, _, _)| c.limb_top(b))
        .collect();
    let protected = |s: BodyId| {
        c.body(s).rounded().1 > 0.0
            && (c.is_spine(s) || c.limb_top(s).is_some_and(|t| !moved.contains(&t)))
    };
    // The set's miss: the worst end not kept out.
    let mut worst = (0.0f32, set.ends[0].0);
    for &(b, p, _) in &set.ends {
        let e = miss_of(pose, b, p);
        if e <= REACH_TOLERANCE && e > worst.0 {
            worst = (e, b);
        }
    }
    for &(end, p) in &missed {
        let mut deepest: Option<KeptOut> = None;
        if miss_of(&reaching, end, p) <= REACH_TOLERANCE {
            let top = c.limb_top(end).unwrap_or(end);
            for b in subtree(c, top) {
                // The keep-out holds a hand out of every trunk body, the one its limb hangs
                // from included; the limb's other bodies out of those they are not joined to.
                let trunk = (0..c.len()).filter(|&s| protected(s) && (b == end || !c.joined(b, s)));
                for s in trunk {
                    let depth = sunk(c, &reaching, b, s);
                    if depth > KEPT_OUT_DEPTH && deepest.as_ref().is_none_or(|d| depth > d.depth) {
                        deepest = Some(KeptOut {
                            body: c.body(b).name.clone(),
                            trunk: c.body(s).name.clone(),
                            depth,
                        });
                    }
                }
            }
        }
        match deepest {
            Some(k) => {
                if result.kept_out.as_ref().is_none_or(|d| k.depth > d.depth) {
                    result.kept_out = Some(k);
                }
            }
            None => {
                let e = miss_of(pose, end, p);
                if e > worst.0 || worst.0 <= REACH_TOLERANCE {
                    worst = (e, end);
                }
            }
        }
    }
    result.error = worst.0;
    result.end = c.body(worst.1).name.clone();
    if !missed.is_empty() {
        result.goals = set.out(c);
    }
    result
}

/// How much deeper than at rest the capsules of `a` and `b` overlap in `pose`, in the
/// thinner one's radius.
pub fn sunk(c: &Creature, pose: &[BodyPose], a: BodyId, b: BodyId) -> f32 {
    let capsule = |x: BodyId, at: &BodyPose| {
        let (half, radius) = c.body(x).rounded();
        let axis = at.rotation * half;
        (at.position - axis, at.position + axis, radius)
    };
    let depth = |pa: &BodyPose, pb: &BodyPose| {
        let ((a0, a1, ra), (b0, b1, rb)) = (capsule(a, pa), capsule(b, pb));
        ra + rb - segment_distance(a0, a1, b0, b1)
    };
    let rest = |x: BodyId| BodyPose::new(c.body(x).position, c.body(x).rotation);
    let thinner = c.body(a).rounded().1.min(c.body(b).rounded().1).max(1e-9);
    (depth(&pose[a], &pose[b]) - depth(&rest(a), &rest(b)).max(0.0)) / thinner
}

#[allow(clippy::too_many_arguments)]
fn unreachable(
    c: &Creature,
    top: BodyId,
    end: BodyId,
    draws: &mut Draws,
    solver: &mut IkSolver,
    paper: &mut IkSolver,
    tuning: &IkTuning,
    pose: &mut Vec<BodyPose>,
) -> UnreachableResult {
    let rest = c.body(end).position;
    let goal = rest + draws.direction() * draws.range(2.0, 5.0) * c.limb_length(end);
    let mut goals = Goals::new(c.len());
    goals.set_position(end, goal, 1.0);
    let measure = |pose: &[BodyPose]| {
        let from = posed_joint(c, pose, top);
        let cosine = (pose[end].position - from)
            .normalize_or_zero()
            .dot((goal - from).normalize_or_zero());
        let stretch = path(c, top, end)
            .windows(2)
            .map(|w| {
                let rest = c.pivot(w[0]).distance(c.pivot(w[1]));
                let now = posed_joint(c, pose, w[0]).distance(posed_joint(c, pose, w[1]));
                if rest > 1e-6 * c.size() {
                    now / rest
                } else {
                    1.0
                }
            })
            .fold(1.0f32, f32::max);
        let slack = 1e-4 * c.size() / c.limb_length(end).max(1e-6);
        let passed = cosine >= POINTING_COSINE
            && stretch <= tuning.limb.max_stretch + slack
            && cosine.is_finite();
        (cosine, stretch, passed)
    };
    solver.solve(c, &goals, pose);
    let (cosine, stretch, passed) = measure(pose);
    // A limb that would point at the goal through the trunk is held out of it instead (as
    // for reachable goals, see the module's doc): it points elsewhere for that reason.
    let kept_out = !passed && {
        let mut reaching = Vec::new();
        paper.solve(c, &goals, &mut reaching);
        let limb = subtree(c, c.limb_top(end).unwrap_or(end));
        measure(&reaching).2
            && limb.iter().any(|&b| {
                (0..c.len()).any(|s| {
                    c.is_spine(s)
                        && c.body(s).rounded().1 > 0.0
                        && (b == end || !c.joined(b, s))
                        && sunk(c, &reaching, b, s) > KEPT_OUT_DEPTH
                })
            })
    };
    UnreachableResult {
        end: c.body(end).name.clone(),
        cosine,
        stretch,
        kept_out,
        passed: passed || kept_out,
    }
}

/// Rest goals, on every body or a random few, give the rest pose.
fn rest_goals(
    c: &Creature,
    draws: &mut Draws,
    solver: &mut IkSolver,
    report: &mut IkCreatureReport,
    pose: &mut Vec<BodyPose>,
) {
    for set in 0..4 {
        let mut goals = Goals::new(c.len());
        for (b, body) in c.bodies().iter().enumerate() {
            match if set == 0 { 2 } else { draws.index(4) } {
                0 => goals.set_position(b, body.position, draws.range(0.1, 1.0)),
                1 => goals.set_rotation(b, body.rotation, draws.range(0.1, 1.0)),
                2 => {
                    goals.set_position(b, body.position, 1.0);
                    goals.set_rotation(b, body.rotation, 1.0);
                }
                _ => {}
            }
        }
        solver.solve(c, &goals, pose);
        for (b, body) in c.bodies().iter().enumerate() {
            let moved = pose[b].position.distance(body.position);
            let turned = rotation_angle_between(pose[b].rotation, body.rotation);
            if !(moved <= 1e-4 * c.size() && turned <= 1e-3) {
                report.rest_failures.push(format!(
                    "rest set {set}: {} moved {moved:.2e} m, turned {turned:.2e} rad",
                    body.name
                ));
                break;
            }
        }
    }
}

/// A bent set solved by a fresh solver and by one that solved other goals first.
fn path_independence(
    c: &Creature,
    limbs: &[Limb],
    draws: &mut Draws,
    report: &mut IkCreatureReport,
) {
    let fixed = bent_set(c, limbs, draws, true).goals(c);
    let mut fresh = Vec::new();
    IkSolver::new(c).solve(c, &fixed, &mut fresh);
    let mut used = IkSolver::new(c);
    let mut pose = Vec::new();
    for _ in 0..6 {
        let goals = absurd_goals(c, draws);
        used.solve(c, &goals, &mut pose);
    }
    used.solve(c, &fixed, &mut pose);
    for (b, (x, y)) in pose.iter().zip(&fresh).enumerate() {
        let apart = x.position.distance(y.position);
        if !(apart <= 1e-5 * c.size() && x.rotation.dot(y.rotation).abs() >= 1.0 - 1e-6) {
            report
                .path_failures
                .push(format!("{} {apart:.2e} m apart", c.body(b).name));
            break;
        }
    }
}

/// Goals a game should never send, but might: far away, tiny weights, any rotation.
fn absurd_goals(c: &Creature, draws: &mut Draws) -> Goals {
    let mut goals = Goals::new(c.len());
    for _ in 0..4 {
        let b = draws.index(c.len());
        let far = 10f32.powf(draws.range(-2.0, 3.0)) * c.size();
        let weight = 10f32.powf(draws.range(-6.0, 0.0));
        goals.set_position(b, c.body(b).position + draws.direction() * far, weight);
        goals.set_rotation(
            b,
            draws.turn(std::f32::consts::PI),
            draws.range(0.0, 1.0).max(1e-6),
        );
    }
    goals
}

/// One family's figures (or all families', as the last row).
#[derive(Clone, Debug, Default, Serialize)]
pub struct IkFamilySummary {
    pub family: String,
    pub creatures: usize,
    /// Reachable goal sets, of every kind.
    pub reach_sets: usize,
    pub reached: usize,
    /// Missed because the keep-out held a limb out of the trunk (see the module's doc).
    pub kept_out: usize,
    /// Goals (set ends) in all, and of them the ones missed in sets kept out.
    pub reach_goals: usize,
    pub kept_out_goals: usize,
    /// The worst miss of a set not kept out, as a fraction of limb length.
    pub worst_error: f32,
    pub worst_case: String,
    /// Per kind: (kind, sets, reached).
    pub by_kind: Vec<(SetKind, usize, usize)>,
    pub unreachable_sets: usize,
    pub unreachable_passed: usize,
    pub rest_failures: usize,
    pub path_failures: usize,
    pub nan_sets: usize,
    /// Goal paths walked; those where the solver without its keep-out jumps, and those
    /// where the full solver does; the worst jump of the latter (in the creature's size).
    pub paths: usize,
    pub jumps: usize,
    pub kept_out_jumps: usize,
    pub worst_jump: f32,
    pub worst_jump_case: String,
}

impl IkFamilySummary {
    /// The share of sets whose every end not kept out was reached.
    pub fn reached_share(&self) -> f32 {
        if self.reach_sets == 0 {
            1.0
        } else {
            self.reached as f32 / self.reach_sets as f32
        }
    }

    fn add(&mut self, r: &IkCreatureReport) {
        self.creatures += 1;
        for set in &r.reach {
            self.reach_sets += 1;
            self.reach_goals += set.goals_count;
            if set.kept_out.is_some() {
                self.kept_out_goals += set.missed_ends;
            }
            let slot = match self.by_kind.iter_mut().find(|k| k.0 == set.kind) {
                Some(slot) => slot,
                None => {
                    self.by_kind.push((set.kind, 0, 0));
                    self.by_kind.sort_by_key(|k| k.0 as u8);
                    self.by_kind
                        .iter_mut()
                        .find(|k| k.0 == set.kind)
                        .expect("just pushed")
                }
            };
            slot.1 += 1;
            if set.kept_out() {
                self.kept_out += 1;
            }
            if set.reached() {
                self.reached += 1;
                slot.2 += 1;
            }
            if set.error > self.worst_error || !set.error.is_finite() {
                self.worst_error = set.error;
                self.worst_case =
                    format!("{} {:?} {} {}", r.creature, set.kind, set.index, set.end);
            }
        }
        self.unreachable_sets += r.unreachable.len();
        self.unreachable_passed += r.unreachable.iter().filter(|u| u.passed).count();
        self.rest_failures += r.rest_failures.len();
        self.path_failures += r.path_failures.len();
        self.nan_sets += r.nan_sets;
        self.paths += r.paths;
        self.jumps += r.jumps.len();
        self.kept_out_jumps += r.kept_out_jumps.len();
        for j in r.jumps.iter().chain(&r.kept_out_jumps) {
            if j.jump > self.worst_jump || j.jump.is_nan() {
                self.worst_jump = j.jump;
                self.worst_jump_case = format!("{} path {} {}", r.creature, j.path, j.body);
            }
        }
    }
}

/// Per family, in the zoo's order, then `all`.
pub fn summarize(reports: &[IkCreatureReport]) -> Vec<IkFamilySummary> {
    let mut rows: Vec<IkFamilySummary> = Vec::new();
    let mut all = IkFamilySummary {
        family: "all".into(),
        ..Default::default()
    };
    for r in reports {
        let row = match rows.iter_mut().position(|x| x.family == r.family) {
            Some(i) => &mut rows[i],
            None => {
                rows.push(IkFamilySummary {
                    family: r.family.to_string(),
                    ..Default::default()
                });
                rows.last_mut().expect("just pushed")
            }
        };
        row.add(r);
        all.add(r);
    }
    let order = |name: &str| {
        crate::zoo::Family::ALL
            .iter()
            .position(|f| f.name() == name)
            .unwrap_or(usize::MAX)
    };
    rows.sort_by_key(|r| order(&r.family));
    rows.push(all);
    rows
}
