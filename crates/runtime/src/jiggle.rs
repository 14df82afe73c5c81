//! Jiggles (paper 4.4): passive, highly damped secondary motion on the sub-trees that have
//! no IK this frame — a tail, antennae, ears, a hand the clip leaves alone.
//!
//! In the spirit of the kinematic-clone paper (`reference/kinematic-clone-dynamics-paper.txt`)
//! each such body is a damped spring pulling it toward the animated pose — its rest pose
//! relative to its (possibly jiggling) parent, so a chain lags and whips — and the motion
//! is strictly passive: it moves only bodies without IK and feeds nothing back to the
//! solver or the goals. A body is simulated as a point mass at its centre swinging on a
//! rigid rod from its joint: the joint follows the parent, the mass lags behind.

use crate::creature::{Body, BodyId, Cap, Creature};
use crate::math::{renormalize, segment_closest, segment_distance, smoothstep};
use crate::pose::BodyPose;
use crate::shared::{PerCreature, with_workspace};
use glam::{Quat, Vec3, Vec3A};
use std::cell::RefCell;
use std::sync::Arc;

/// How loose each kind of body is and how the simulation is stepped.
#[derive(Clone, Debug, PartialEq)]
pub struct JiggleTuning {
    /// Off: bodies without IK simply follow their parents.
    pub enabled: bool,
    /// Natural frequency (rad/s) of a body's spring toward its animated pose, by cap; the
    /// first entry whose cap the body has wins. Low is loose (tails, antennae), high stiff.
    pub frequency_by_cap: Vec<(Cap, f32)>,
    /// The frequency of bodies with none of those caps.
    pub default_frequency: f32,
    /// Heavy parts are stiff: the frequency is multiplied by `1 + heaviness_stiffening *
    /// heaviness`, where heaviness is the cube root of the body's box volume over the
    /// creature's size (about 0.05 for a finger, 0.3 for a torso).
    pub heaviness_stiffening: f32,
    /// Frequencies are for a creature of this size (m); bigger creatures sway slower, as a
    /// pendulum does (`sqrt(reference / size)`, within 0.25..4).
    pub reference_size: f32,
    /// Damping ratio of every spring: 1 is critical; below it a body overshoots once. Above
    /// it (the paper's "highly damped" jiggles) a body lags and creeps back: a chain of
    /// critically damped links still hands its motion on down the chain as a whip.
    pub damping_ratio: f32,
    /// Longest internal step (s). A frame is split into equal steps no longer than this,
    /// so a given frame time always gives the same result. The implicit step is stable at
    /// any length; shorter steps only track a fast parent more closely, and the slight lag
    /// of one step per 60 Hz frame smooths the abrupt starts a free limb feels through
    /// the torso rather than passing them on (the validation grid passes more cells).
    pub max_substep_secs: f32,
    /// Frame times above this are treated as this (a hitch must not fling a tail).
    pub max_dt_secs: f32,
    /// Largest angle (rad) a body may swing away from its animated pose.
    pub max_angle: f32,
    /// Passive bodies rest on the ground, which gives a little: it pushes back ever more
    /// over the first `ground_cushion` (fraction of the creature's size) a body would sink,
    /// so they settle rather than bounce off; none sinks more than half of it.
    pub ground_cushion: f32,
    /// A joint that jumps farther than this fraction of the creature's size in one frame
    /// (a teleport, a scrub) resets its body to the animated pose.
    pub teleport_fraction: f32,
}

impl Default for JiggleTuning {
    fn default() -> Self {
        JiggleTuning {
            enabled: true,
            frequency_by_cap: vec![
                (Cap::Tail, 8.0),
                (Cap::Other("antenna".into()), 9.0),
                (Cap::Fin, 11.0),
                (Cap::Ear, 12.0),
                (Cap::Wing, 12.0),
                (Cap::Mouth, 20.0),
                (Cap::Head, 18.0),
                // A passive stretch of spine is the trunk, a stiff column: loose, the
                // five or six bodies above an arm's spine body whip the heads about as
                // the arm pulls on it.
                (Cap::Spine, 60.0),
                // Digits keep the shape of their hand or foot: loose, a waving hand's
                // fingers flopped like an empty glove's (a rig's fingertip swung 120° off
                // its hand and through the next finger).
                (Cap::Other("finger".into()), 60.0),
                (Cap::Other("toe".into()), 60.0),
                (Cap::Eye, 30.0),
                // A limb the clip leaves alone hangs from its parent like a heavy
                // pendulum of several bodies; loose, each swings to its limit and the
                // whole arm whips across the body when the torso turns.
                (Cap::Grasper, 28.0),
                (Cap::Foot, 28.0),
                (Cap::Limb, 28.0),
            ],
            default_frequency: 15.0,
            heaviness_stiffening: 4.0,
            reference_size: 1.7,
            damping_ratio: 2.0,
            max_substep_secs: 1.0 / 60.0,
            max_dt_secs: 0.1,
            max_angle: 0.6,
            ground_cushion: 0.02,
            teleport_fraction: 0.5,
        }
    }
}

/// One simulated body. Stored compactly (`Vec3`, not `Vec3A`) in exactly one cache line: a
/// crowd's frame streams every character's states through the caches, and a state that
/// straddled two lines (80 bytes, with the swing stored too) cost the jiggles a fifth of
/// their time waiting on memory.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
struct State {
    /// The point mass relative to the joint: small numbers keep their precision far from
    /// the origin (a giant's mouth sits 5.5 m up on a 2 cm rod).
    mass: Vec3,
    velocity: Vec3,
    /// Where the joint and the animated centre (relative to it) were last frame: a frame's
    /// steps move them linearly from there.
    pivot: Vec3,
    target: Vec3,
    /// The parent's delta when the swing was taken (the swing itself, `turn`, follows from
    /// `target` and `mass`). Kept so a held frame (`dt = 0`) shows the same swing in the
    /// parent's frame, however the parent moved since.
    turn_parent_delta: Quat,
}

impl State {
    const REST: State = State {
        mass: Vec3::ZERO,
        velocity: Vec3::ZERO,
        pivot: Vec3::ZERO,
        target: Vec3::ZERO,
        turn_parent_delta: Quat::IDENTITY,
    };

    /// At rest on the animated pose, in the frame `frame_delta` keeps it in.
    fn at(pivot: Vec3A, arm: Vec3A, frame_delta: Quat) -> State {
        State {
            mass: arm.into(),
            velocity: Vec3::ZERO,
            pivot: pivot.into(),
            target: arm.into(),
            turn_parent_delta: frame_delta,
        }
    }

    /// The swing off the animated pose, in the world: the posed rotation is `turn *
    /// animated`. The same arithmetic as the step that stored `mass`, so the same rotation.
    fn turn(&self, jb: &JiggleBody) -> Quat {
        let target = Vec3A::from(self.target);
        if jb.arm_length < 1e-6 {
            return Quat::IDENTITY;
        }
        let inv_length = jb.inv_arm_length;
        let turn = Quat::from_rotation_arc(
            (target * inv_length).into(),
            (Vec3A::from(self.mass) * inv_length).into(),
        );
        if turn.is_finite() {
            turn
        } else {
            Quat::IDENTITY
        }
    }
}

/// The jiggle simulation of one character. Deterministic: the same poses and frame times
/// give the same result.
#[derive(Clone, Debug)]
pub struct Jiggles {
    /// Per body, whether it was simulated last frame; a body that just lost its IK starts
    /// at rest. Apart from the states, so a body with IK touches only this.
    active: Vec<bool>,
    state: Vec<State>,
    /// Per [`HangPair`], how far its limbs hang turned toward their spine bodies: it
    /// follows the turn the pair's overlap asks for with a lag of [`HANG_SECS`], so a
    /// limb swept quickly into another turns aside over a few frames rather than in one.
    /// NaN where the pair was not worked out last frame.
    turned: Vec<f32>,
    /// What depends only on the creature and the tuning, shared by the characters of one
    /// creature when made with [`Jiggles::shared`].
    rig: Arc<JiggleRig>,
}

static SHARED: PerCreature<JiggleTuning, JiggleRig> = PerCreature::new();

thread_local! {
    /// Per body, the delta (posed rotation times inverse rest rotation) and centre a
    /// simulated body hands its children within one [`Jiggles::apply`], in registers'
    /// layout: the thread's characters share it, as nothing reads it after the call.
    static DELTAS: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            delta: Vec::new(),
            hang: Vec::new(),
        })
    };
}

/// What one [`Jiggles::apply`] hands from body to body.
#[derive(Debug, Default)]
struct Scratch {
    /// Per body, the delta and centre a simulated body hands its children.
    delta: Vec<(Quat, Vec3A)>,
    /// Per [`HangPair`], how far its limbs have turned from hanging relative to the root
    /// toward hanging with their spine bodies this frame (NaN: not worked out yet).
    hang: Vec<f32>,
}

/// One body's constants, in the order a frame visits them (parents first): one stride
/// through one array, where a body's numbers were spread over nine.
#[derive(Clone, Copy, Debug)]
struct JiggleBody {
    body: u32,
    parent: u32,
    /// The spring's natural frequency (rad/s).
    frequency: f32,
    /// A limb hanging off the spine, whose animated pose keeps its rest direction relative
    /// to the root rather than to its spine body. A free arm hangs as it does at rest when
    /// the torso bends over it, instead of swinging forward with the chest into the ground
    /// or the thighs; the IK blends a limb goal fading out from the same root-relative
    /// rest, so a limb losing its IK hands over where it already is.
    hangs_from_root: bool,
    /// At most how far below its joint its shape reaches, however it turns (a hair more,
    /// for rounding): a body whose joint is higher than this above the ground cannot touch
    /// it, and most bodies are spared the exact test.
    reach_below: f32,
    rest_rotation: Quat,
    /// Rest pivot minus the parent's rest centre.
    pivot_from_parent: Vec3A,
    /// Rest centre minus rest pivot, in the character's rest frame: a delta turns it to
    /// the posed arm without the body's rotation first.
    rest_arm: Vec3A,
    /// Its length and one over it: a turn keeps the length of the arm it turns, so the
    /// chain of bodies a frame walks down need not take a square root and a division per
    /// body to find it again.
    arm_length: f32,
    inv_arm_length: f32,
    /// Its shape as a segment and a radius (`Body::rounded`) where it meets the ground:
    /// tilting a capsule about a joint above it lifts its lowest point steadily, where a
    /// flat box's corner would dip first.
    capsule: (Vec3A, f32),
    /// Its range of [`JiggleRig::solids`].
    solids: (u32, u32),
    /// A limb's top body: its range of [`JiggleRig::top_pairs`].
    hang_pairs: (u32, u32),
}

/// Two free limbs hanging from different places on the trunk, near each other at rest
/// (the four-armed creature's arms on one side). Each hangs as at rest relative to the
/// root, but a torso bending between their spine bodies carries one hanging limb into the
/// other. As their root-relative hangs come to overlap, both turn toward hanging with
/// their spine bodies, which keeps them about as far apart as at rest: the animated pose
/// changes, and the springs follow it, so the limbs ease apart rather than being pushed
/// (pushes out of each other shook, the line between two crossing axes flipping side).
/// How deep the hangs overlap depends only on where one limb's top joint is relative to
/// the other's in the root's frame, so the weight is smooth in the trunk's pose.
#[derive(Clone, Copy, Debug)]
struct HangPair {
    tops: [u32; 2],
    parents: [u32; 2],
    /// Each top's rest pivot less its parent's rest centre.
    pivot_from_parent: [Vec3A; 2],
    /// The first top's rest pivot less the second's.
    rest_apart: Vec3A,
    /// How far (m) the first top's joint must move from its rest place relative to the
    /// second's, in the root's frame, before any of their contacts can overlap enough to
    /// turn them: most frames stop at this one length.
    still_apart: f32,
    /// Its range of [`JiggleRig::hang_contacts`].
    contacts: (u32, u32),
}

/// A body of a [`HangPair`]'s first limb against one of its second, each as a segment
/// relative to its limb's top rest pivot (in the rest pose's frame), and how near their
/// axes may come: their radii, less what they overlap at rest.
#[derive(Clone, Copy, Debug)]
struct HangContact {
    a: (Vec3A, Vec3A),
    b: (Vec3A, Vec3A),
    clearance: f32,
    /// How far their axes are apart at rest, less the overlap that turns them: a move
    /// of one limb's joint shorter than this cannot bring them that deep.
    slack: f32,
}

/// A trunk body a simulated limb body keeps out of: a spine body other than the one the
/// limb hangs from and not joined to the limb body (neither its parent, a sibling, nor two
/// joints away), as the validation grid counts sinking.
#[derive(Clone, Copy, Debug)]
struct Solid {
    body: u32,
    /// Visited after the simulated body in a frame, so posed by then only when it has IK.
    later: bool,
    /// How near the two axes may come: their radii, less what they overlap at rest (a
    /// body sunk into another at rest may stay as deep).
    clearance: f32,
    /// Farther apart than this, the two bodies' centres are too far for their axes to come
    /// within the clearance: most pairs stop here.
    far: f32,
}

#[derive(Clone, Debug)]
struct JiggleRig {
    /// Every body but the root, parents first.
    bodies: Vec<JiggleBody>,
    /// What each simulated body keeps out of, in ranges per body.
    solids: Vec<Solid>,
    hang_pairs: Vec<HangPair>,
    hang_contacts: Vec<HangContact>,
    /// Per top body, in ranges: the pairs it is in.
    top_pairs: Vec<u32>,
    /// Per body (by id), its shape rounded to a capsule (`Body::rounded`).
    shapes: Vec<(Vec3A, f32)>,
    /// Per body (by id): what a child reads of its parent.
    inv_rest_rotation: Vec<Quat>,
    root: u32,
    size: f32,
    tuning: JiggleTuning,
}

impl Jiggles {
    /// Jiggles for `creature` with per-body constants of their own, every body at rest.
    pub fn new(creature: &Creature, tuning: &JiggleTuning) -> Jiggles {
        Jiggles {
            active: vec![false; creature.len()],
            state: vec![State::REST; creature.len()],
            turned: Vec::new(),
            rig: Arc::new(JiggleRig::new(creature, tuning)),
        }
    }

    /// Jiggles whose per-body constants are shared with every other character of the same
    /// creature (`Arc`) and tuning; they simulate exactly as [`Jiggles::new`]'s.
    pub fn shared(creature: &Arc<Creature>, tuning: &JiggleTuning) -> Jiggles {
        Jiggles {
            active: vec![false; creature.len()],
            state: vec![State::REST; creature.len()],
            turned: Vec::new(),
            rig: SHARED.get(creature, tuning, || JiggleRig::new(creature, tuning)),
        }
    }

    /// Adopts a new tuning (frequencies are derived from it per body).
    pub fn set_tuning(&mut self, creature: &Creature, tuning: &JiggleTuning) {
        Arc::make_mut(&mut self.rig).set_tuning(creature, tuning);
    }

    /// The tuning the jiggles simulate with.
    pub fn tuning(&self) -> &JiggleTuning {
        &self.rig.tuning
    }

    /// Whether [`Jiggles::apply`] writes every body of a creature of `bodies` bodies that
    /// has no IK: switched on and made for a creature of that size. The IK then need not
    /// pose those bodies first.
    pub fn poses_every_free_body(&self, bodies: usize) -> bool {
        self.rig.tuning.enabled && self.state.len() == bodies && self.rig.bodies.len() + 1 == bodies
    }

    /// Forgets all motion: the next frame starts every jiggle at its animated pose.
    pub fn reset(&mut self) {
        self.active.fill(false);
        self.state.fill(State::REST);
        self.turned.fill(f32::NAN);
    }
}

impl JiggleRig {
    fn new(creature: &Creature, tuning: &JiggleTuning) -> JiggleRig {
        let inv_rest_rotation: Vec<Quat> = creature
            .bodies()
            .iter()
            .map(|b| b.rotation.normalize().conjugate())
            .collect();
        let bodies = creature
            .order()
            .iter()
            .filter_map(|&b| {
                let p = creature.parent(b)?;
                let body = creature.body(b);
                let rest_rotation = body.rotation.normalize();
                let rest_arm = Vec3A::from(body.position - creature.pivot(b));
                let (half_axis, radius) = body.rounded();
                let half_axis = Vec3A::from(half_axis);
                Some(JiggleBody {
                    body: b as u32,
                    parent: p as u32,
                    frequency: 0.0,
                    hangs_from_root: creature.is_spine(p)
                        && !creature.is_spine(b)
                        && swings_free(body),
                    reach_below: (rest_arm.length() + half_axis.length() + radius) * (1.0 + 1e-4),
                    rest_rotation,
                    pivot_from_parent: Vec3A::from(creature.pivot(b) - creature.body(p).position),
                    rest_arm,
                    arm_length: rest_arm.length(),
                    inv_arm_length: 1.0 / rest_arm.length().max(1e-6),
                    capsule: (half_axis, radius),
                    solids: (0, 0),
                    hang_pairs: (0, 0),
                })
            })
            .collect();
        let (mut bodies, solids) = solids_of(creature, bodies);
        let (hang_pairs, hang_contacts, top_pairs) = hang_pairs_of(creature, &mut bodies);
        let mut j = JiggleRig {
            bodies,
            solids,
            hang_pairs,
            hang_contacts,
            top_pairs,
            shapes: creature
                .bodies()
                .iter()
                .map(|b| {
                    let (half_axis, radius) = b.rounded();
                    (half_axis.into(), radius)
                })
                .collect(),
            inv_rest_rotation,
            root: creature.root() as u32,
            size: creature.size(),
            tuning: tuning.clone(),
        };
        j.set_tuning(creature, tuning);
        j
    }

    fn set_tuning(&mut self, creature: &Creature, tuning: &JiggleTuning) {
        self.tuning = tuning.clone();
        let scale = (tuning.reference_size / self.size.max(1e-6))
            .sqrt()
            .clamp(0.25, 4.0);
        for jb in &mut self.bodies {
            let body = creature.body(jb.body as usize);
            let base = tuning
                .frequency_by_cap
                .iter()
                .find(|(cap, _)| body.has_cap(cap))
                .map_or(tuning.default_frequency, |(_, f)| *f);
            let e = body.half_extents * 2.0;
            let heaviness = (e.x * e.y * e.z).max(0.0).cbrt() / self.size.max(1e-6);
            let f = base * (1.0 + tuning.heaviness_stiffening * heaviness) * scale;
            jb.frequency = if f.is_finite() {
                f.clamp(0.1, 200.0)
            } else {
                10.0
            };
        }
    }
}

/// How deep (in clearances) two free limbs may overlap before they turn: bodies touching
/// at rest (the clavicles at the breastbone) do so to rounding.
const HANG_TOUCH: f32 = 0.05;

/// The lag (s) with which a pair of free limbs turns as its overlap asks.
const HANG_SECS: f32 = 0.05;

/// Over how much more overlap (in clearances) the turn eases in.
const HANG_ONSET: f32 = 0.25;

/// Halvings of the search for how far a pair of free limbs turns (a 4096th of the way).
const HANG_STEPS: usize = 12;

impl JiggleRig {
    /// The delta and centre a child reads of its parent `p` this frame: its posed ones
    /// when it has IK (or is the root), else what its own step left behind (reading
    /// them keeps a product, and the wait on it, off the chain from body to body down a
    /// tail). The parent is posed or stepped already.
    #[inline(always)]
    fn parent_frame(
        &self,
        p: usize,
        has_ik: &[bool],
        pose: &[BodyPose],
        delta: &[(Quat, Vec3A)],
    ) -> (Quat, Vec3A) {
        if has_ik[p] || p == self.root as usize {
            (
                pose[p].rotation * self.inv_rest_rotation[p],
                Vec3A::from(pose[p].position),
            )
        } else {
            delta[p]
        }
    }

    /// How far pair `k`'s limbs ask to turn toward hanging with their spine bodies this
    /// frame: 0 while their root-relative hangs keep apart (or a limb has IK); else the
    /// least turn that keeps them apart, eased in over [`HANG_ONSET`] of overlap. Both
    /// tops' parents are posed before either top (see [`hang_pairs_of`]).
    fn hang_weight(
        &self,
        k: usize,
        has_ik: &[bool],
        pose: &[BodyPose],
        delta: &[(Quat, Vec3A)],
        root_delta: Quat,
    ) -> f32 {
        let pair = &self.hang_pairs[k];
        let posed = has_ik.len().min(pose.len()).min(delta.len());
        if pair.parents.iter().any(|&p| p as usize >= posed)
            || pair
                .tops
                .iter()
                .any(|&t| has_ik.get(t as usize).copied().unwrap_or(true))
        {
            return 0.0;
        }
        let parent = |i: usize| self.parent_frame(pair.parents[i] as usize, has_ik, pose, delta);
        let ((d0, c0), (d1, c1)) = (parent(0), parent(1));
        let (p0, p1) = (
            c0 + d0 * pair.pivot_from_parent[0],
            c1 + d1 * pair.pivot_from_parent[1],
        );
        // Hanging from the root's frame the two limbs are rest-pose copies, one moved by
        // `moved` relative to the other (in the root's rest frame).
        let moved = root_delta.conjugate() * (p0 - p1) - pair.rest_apart;
        let reach = moved.length();
        // A NaN joint turns nothing.
        if reach <= pair.still_apart || reach.is_nan() {
            return 0.0;
        }
        let contacts = &self.hang_contacts[pair.contacts.0 as usize..pair.contacts.1 as usize];
        let start = contacts
            .iter()
            .filter(|c| c.slack < reach)
            .map(|c| {
                let dist = segment_distance(
                    (c.a.0 + pair.rest_apart + moved).into(),
                    (c.a.1 + pair.rest_apart + moved).into(),
                    c.b.0.into(),
                    c.b.1.into(),
                );
                1.0 - dist / c.clearance
            })
            .fold(f32::NEG_INFINITY, f32::max);
        if start.is_nan() || start <= HANG_TOUCH {
            return 0.0;
        }
        // How deep the two limbs overlap, in clearances, hanging `w` of the way from the
        // root's frame to their spine bodies'.
        let depth = |w: f32| {
            let (q0, q1) = (root_delta.slerp(d0, w), root_delta.slerp(d1, w));
            contacts
                .iter()
                .map(|c| {
                    let dist = segment_distance(
                        (p0 + q0 * c.a.0).into(),
                        (p0 + q0 * c.a.1).into(),
                        (p1 + q1 * c.b.0).into(),
                        (p1 + q1 * c.b.1).into(),
                    );
                    1.0 - dist / c.clearance
                })
                .fold(f32::NEG_INFINITY, f32::max)
        };
        // Turning eases in as they come to overlap: how far the least turn below needs
        // to go can change fast where turning gains little depth.
        let onset = smoothstep(HANG_TOUCH, HANG_TOUCH + HANG_ONSET, start);
        let end = depth(1.0);
        if end > HANG_TOUCH {
            // No turn keeps them apart: turn wholly where that is clearly shallower, the
            // weight fading in with the gain so it never jumps.
            return onset * smoothstep(0.0, 0.1, start - end);
        }
        // The least turn that keeps them apart: as the trunk bends further it grows
        // steadily from nothing, so the limbs come to rest against each other.
        let (mut lo, mut hi) = (0.0f32, 1.0f32);
        for _ in 0..HANG_STEPS {
            let mid = 0.5 * (lo + hi);
            if depth(mid) > HANG_TOUCH {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        onset * hi
    }
}

/// The [`HangPair`]s of a creature: limbs hanging from the root's frame (see
/// `JiggleBody::hangs_from_root`) whose bodies come within a tenth of the creature's size
/// of each other at rest, with both tops' parents visited before either top (so a frame
/// knows where both joints are when it reaches the first). Fills each top's
/// `hang_pairs` range.
fn hang_pairs_of(
    creature: &Creature,
    bodies: &mut [JiggleBody],
) -> (Vec<HangPair>, Vec<HangContact>, Vec<u32>) {
    let n = creature.len();
    let mut visited = vec![0; n];
    for (k, jb) in bodies.iter().enumerate() {
        visited[jb.body as usize] = k + 1;
    }
    let tops: Vec<usize> = bodies
        .iter()
        .filter(|jb| jb.hangs_from_root)
        .map(|jb| jb.body as usize)
        .collect();
    // Each limb's bodies with a shape, as segments relative to its top's rest pivot, found in
    // one pass over the bodies: the pairs below are quadratic in the tops, and rescanning
    // every body for each pair made a creature of a thousand arms cubic.
    let mut limb_segments: Vec<Vec<(Vec3A, Vec3A, f32)>> = vec![Vec::new(); n];
    for c in 0..n {
        let Some(top) = creature.limb_top(c) else {
            continue;
        };
        let body = creature.body(c);
        let (half, radius) = body.rounded();
        let half = body.rotation * half;
        if radius > 0.0 {
            let at = creature.pivot(top);
            limb_segments[top].push((
                Vec3A::from(body.position - half - at),
                Vec3A::from(body.position + half - at),
                radius,
            ));
        }
    }
    let segments = |top: usize| &limb_segments[top];
    let near = 0.1 * creature.size();
    let (mut pairs, mut contacts) = (Vec::new(), Vec::new());
    for (i, &t0) in tops.iter().enumerate() {
        for &t1 in &tops[i + 1..] {
            let (Some(p0), Some(p1)) = (creature.parent(t0), creature.parent(t1)) else {
                continue;
            };
            let first = visited[t0].min(visited[t1]);
            if visited[p0] >= first || visited[p1] >= first {
                continue;
            }
            let rest_apart = Vec3A::from(creature.pivot(t0) - creature.pivot(t1));
            let (s0, s1) = (segments(t0), segments(t1));
            let mut found = Vec::new();
            let mut gap = f32::INFINITY;
            for &(a0, a1, ra) in s0 {
                for &(b0, b1, rb) in s1 {
                    let dist = segment_distance(
                        (a0 + rest_apart).into(),
                        (a1 + rest_apart).into(),
                        b0.into(),
                        b1.into(),
                    );
                    gap = gap.min(dist - ra - rb);
                    let clearance = (ra + rb).min(dist);
                    if clearance > 1e-6 * creature.size() {
                        found.push(HangContact {
                            a: (a0, a1),
                            b: (b0, b1),
                            clearance,
                            // A hair less, so rounding never skips a contact that turns.
                            slack: (dist - (1.0 - HANG_TOUCH) * clearance) * (1.0 - 1e-4),
                        });
                    }
                }
            }
            if gap >= near || found.is_empty() {
                continue;
            }
            let from = contacts.len() as u32;
            let pivot_from_parent =
                |t: usize, p: usize| Vec3A::from(creature.pivot(t) - creature.body(p).position);
            pairs.push(HangPair {
                tops: [t0 as u32, t1 as u32],
                parents: [p0 as u32, p1 as u32],
                pivot_from_parent: [pivot_from_parent(t0, p0), pivot_from_parent(t1, p1)],
                rest_apart,
                still_apart: found.iter().map(|c| c.slack).fold(f32::INFINITY, f32::min),
                contacts: (from, from + found.len() as u32),
            });
            contacts.extend(found);
        }
    }
    let mut pairs_of: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (k, pair) in pairs.iter().enumerate() {
        for &t in &pair.tops {
            pairs_of[t as usize].push(k as u32);
        }
    }
    let mut top_pairs = Vec::new();
    for jb in bodies.iter_mut() {
        let from = top_pairs.len() as u32;
        top_pairs.extend_from_slice(&pairs_of[jb.body as usize]);
        jb.hang_pairs = (from, top_pairs.len() as u32);
    }
    (pairs, contacts, top_pairs)
}

impl Jiggles {
    /// Asks for its fields (see `Character::update_many`).
    pub(crate) fn prefetch_struct(&self) {
        use crate::shared::prefetch;
        prefetch(&self.active);
        prefetch(&self.state);
        prefetch(&self.rig);
    }

    /// Asks for the flags of the bodies simulated last frame.
    pub(crate) fn prefetch(&self) {
        crate::shared::prefetch_lines(&self.active);
    }

    /// Asks for the states of the bodies simulated last frame, most likely the ones this
    /// frame simulates, once the flags are in (after [`Jiggles::prefetch`]): the others'
    /// states are not read.
    pub(crate) fn prefetch_states(&self) {
        for (s, _) in self.state.iter().zip(&self.active).filter(|(_, a)| **a) {
            crate::shared::prefetch(s);
        }
    }

    /// Moves the bodies without IK (`has_ik[b]` false) from their rigid follow of their
    /// parents by `dt_secs` of simulation; 0 holds them where they were. Bodies with IK
    /// are never written. A body that would sink below `ground_height` (character space)
    /// swings up about its joint to rest on it, as a hanging arm does when the torso bends
    /// low; a free limb sinking into the trunk swings out to rest on it. The ground and the
    /// trunk push passive bodies, nothing else does.
    pub fn apply(
        &mut self,
        has_ik: &[bool],
        pose: &mut [BodyPose],
        dt_secs: f32,
        ground_height: f32,
    ) {
        with_workspace(&DELTAS, |scratch| {
            self.apply_in(has_ik, pose, dt_secs, ground_height, scratch)
        });
    }

    fn apply_in(
        &mut self,
        has_ik: &[bool],
        pose: &mut [BodyPose],
        dt_secs: f32,
        ground_height: f32,
        scratch: &mut Scratch,
    ) {
        let Scratch { delta, hang } = scratch;
        let (rig, state, active) = (&*self.rig, &mut self.state, &mut self.active);
        let turned = &mut self.turned;
        if turned.len() != rig.hang_pairs.len() {
            turned.clear();
            turned.resize(rig.hang_pairs.len(), f32::NAN);
        }
        let n = pose.len().min(state.len()).min(has_ik.len());
        if !rig.tuning.enabled {
            turned.fill(f32::NAN);
            active.fill(false);
            state.fill(State::REST);
            return;
        }
        let dt = if dt_secs.is_finite() {
            dt_secs.clamp(0.0, rig.tuning.max_dt_secs.max(0.0))
        } else {
            0.0
        };
        let h_max = rig.tuning.max_substep_secs.max(1e-4);
        let steps = if dt > 0.0 {
            (dt / h_max).ceil().clamp(1.0, 1000.0) as u32
        } else {
            0
        };
        let h = if steps > 0 { dt / steps as f32 } else { 0.0 };
        let follow = 1.0 - (-dt / HANG_SECS).exp();
        let inv_h = if steps > 0 { 1.0 / h } else { 0.0 };
        let inv_steps = if steps > 0 { 1.0 / steps as f32 } else { 0.0 };
        let teleport = rig.tuning.teleport_fraction * rig.size;
        let cushion = rig.tuning.ground_cushion * rig.size;
        let cos_max = rig.tuning.max_angle.clamp(0.0, std::f32::consts::PI).cos();
        let root = rig.root as usize;
        let root_delta = match pose.get(root) {
            Some(r) => r.rotation * rig.inv_rest_rotation[root],
            None => return,
        };
        if delta.len() < n {
            delta.resize(n, (Quat::IDENTITY, Vec3A::ZERO));
        }
        hang.clear();
        hang.resize(rig.hang_pairs.len(), f32::NAN);
        for jb in &rig.bodies {
            let (b, p) = (jb.body as usize, jb.parent as usize);
            if b >= n || p >= n {
                continue;
            }
            if has_ik[b] {
                active[b] = false;
                continue;
            }
            let (parent_delta, parent_centre) = rig.parent_frame(p, has_ik, pose, delta);
            let pivot = parent_centre + parent_delta * jb.pivot_from_parent;
            // The frame the body's animated pose keeps its rest rotation in.
            let frame_delta = if !jb.hangs_from_root {
                parent_delta
            } else if jb.hang_pairs.0 == jb.hang_pairs.1 {
                root_delta
            } else {
                let w = rig.top_pairs[jb.hang_pairs.0 as usize..jb.hang_pairs.1 as usize]
                    .iter()
                    .map(|&k| {
                        let k = k as usize;
                        if hang[k].is_nan() {
                            let asked = rig.hang_weight(k, has_ik, pose, delta, root_delta);
                            let was = turned[k];
                            hang[k] = if was.is_nan() {
                                asked
                            } else {
                                was + (asked - was) * follow
                            };
                            turned[k] = hang[k];
                        }
                        hang[k]
                    })
                    .fold(0.0f32, f32::max);
                if w > 0.0 {
                    root_delta.slerp(parent_delta, w)
                } else {
                    root_delta
                }
            };
            let arm = frame_delta * jb.rest_arm;
            let length = jb.arm_length;
            let s = &mut state[b];
            // The swing this frame's step took, when it took one.
            let mut stepped = None;
            let jump = Vec3A::from(s.pivot).distance(pivot);
            let moved_far = jump.is_nan() || jump > teleport;
            if !active[b] || length < 1e-6 || (steps > 0 && moved_far) {
                *s = State::at(pivot, arm, frame_delta);
                active[b] = true;
            } else if steps > 0 {
                let w = jb.frequency;
                let stiffness = w * w;
                let damping = 2.0 * rig.tuning.damping_ratio.max(0.0) * w;
                let inv_denominator = 1.0 / (1.0 + h * damping + h * h * stiffness);
                let inv_length = jb.inv_arm_length;
                let (pivot0, target0) = (Vec3A::from(s.pivot), Vec3A::from(s.target));
                let (mut mass, mut velocity) = (Vec3A::from(s.mass), Vec3A::from(s.velocity));
                let mut at = pivot0;
                let mut goal_before = target0;
                for i in 1..=steps {
                    let f = i as f32 * inv_steps;
                    let next = pivot0.lerp(pivot, f);
                    let goal = target0.lerp(arm, f);
                    let shift = next - at;
                    // How fast the animated pose itself moves: damping acts on motion
                    // relative to it, so a body carried along steadily does not lag.
                    let goal_velocity = (shift + goal - goal_before) * inv_h;
                    // The mass keeps its place in the world as the joint moves under it.
                    let before = mass - shift;
                    at = next;
                    goal_before = goal;
                    // Implicit Euler on the damped spring: stable for any step.
                    let v = (velocity
                        + (goal - before) * (h * stiffness)
                        + goal_velocity * (h * damping))
                        * inv_denominator;
                    let free = before + v * h;
                    let placed = free.try_normalize().unwrap_or(goal * inv_length) * length;
                    velocity = (placed - before) * inv_h;
                    mass = placed;
                }
                // Never swing past the limit from the animated pose.
                let cos = mass.dot(arm) * (inv_length * inv_length);
                if cos.is_nan() || cos < cos_max {
                    let angle = cos.clamp(-1.0, 1.0).acos().max(1e-6);
                    let limit = Quat::IDENTITY.slerp(arc(arm, mass), rig.tuning.max_angle / angle);
                    mass = limit * arm;
                    velocity = Vec3A::ZERO;
                }
                // Both are `length` long: unit vectors without two more square roots.
                let turn =
                    Quat::from_rotation_arc((arm * inv_length).into(), (mass * inv_length).into());
                (*s, stepped) = if turn.is_finite() && mass.is_finite() && velocity.is_finite() {
                    let state = State {
                        mass: mass.into(),
                        velocity: velocity.into(),
                        pivot: pivot.into(),
                        target: arm.into(),
                        turn_parent_delta: frame_delta,
                    };
                    (state, Some(turn))
                } else {
                    (State::at(pivot, arm, frame_delta), None)
                };
            }
            let turn = match stepped {
                Some(turn) => turn,
                None if steps > 0 || s.turn_parent_delta == frame_delta => s.turn(jb),
                None => {
                    // A held frame after the parent moved (a scrub in a paused editor): the
                    // same swing in the parent's new frame.
                    let swing = s.turn_parent_delta.conjugate() * s.turn(jb) * s.turn_parent_delta;
                    frame_delta * swing * frame_delta.conjugate()
                }
            };
            // Both unit: one Newton step keeps the product there, off the chain's square roots.
            let mut turned = renormalize(turn * frame_delta);
            let mut rotation = turned * jb.rest_rotation;
            let animated_arm = arm;
            // The turn takes the animated arm onto the mass the state holds: that is the
            // arm, without turning the rest arm once more (and the same in a held frame). A
            // held frame after the parent moved has the swing in the parent's new frame.
            let mut arm = if steps > 0 || s.turn_parent_delta == frame_delta {
                Vec3A::from(s.mass)
            } else {
                turned * jb.rest_arm
            };
            let (first, end) = (jb.solids.0 as usize, jb.solids.1 as usize);
            if first < end
                && let Some(clear) = keep_clear(
                    &rig.solids[first..end],
                    &rig.shapes,
                    has_ik,
                    pose,
                    jb.capsule.0,
                    pivot,
                    arm,
                    rotation,
                )
            {
                (arm, rotation) = clear;
                turned = rotation * rig.inv_rest_rotation[b];
            }
            let near_ground = ground_height - (pivot.y - jb.reach_below) > 1e-3 * cushion;
            if near_ground
                && let Some(lifted) = rest_on_ground(
                    pivot,
                    arm,
                    animated_arm,
                    rotation,
                    jb.capsule,
                    ground_height,
                    cushion,
                )
            {
                (arm, rotation) = lifted;
                turned = rotation * rig.inv_rest_rotation[b];
            }
            delta[b] = (turned, pivot + arm);
            pose[b] = BodyPose {
                position: (pivot + arm).into(),
                rotation,
            };
        }
        // A pair no free limb asked about this frame starts afresh when one does.
        for (t, h) in turned.iter_mut().zip(hang.iter()) {
            if h.is_nan() {
                *t = f32::NAN;
            }
        }
    }
}

/// Whether a limb starting with `top` (its body on the spine) swings free when it has no
/// goal: an arm, a leg or a grasper on the trunk hangs as at rest relative to the root, and
/// the IK's arms keep out of it there. A tail, an ear or an eye follows its spine body.
pub(crate) fn swings_free(top: &Body) -> bool {
    [Cap::Limb, Cap::Grasper, Cap::Foot]
        .iter()
        .any(|c| top.has_cap(c))
}

/// Each simulated body's solids (see [`Solid`]) and its range of them: the trunk bodies a
/// free limb keeps out of. Not other limbs: a clip brings those together on purpose (hands
/// clapping, a claw at a mouth), and keeping them apart made them jitter.
fn solids_of(creature: &Creature, mut bodies: Vec<JiggleBody>) -> (Vec<JiggleBody>, Vec<Solid>) {
    let n = creature.len();
    // Where each body comes in a frame: the root first, then the simulated bodies.
    let mut visited = vec![0; n];
    for (k, jb) in bodies.iter().enumerate() {
        visited[jb.body as usize] = k + 1;
    }
    let parent = |b: BodyId| creature.parent(b);
    let axis = |b: BodyId| {
        let body = creature.body(b);
        let (half, radius) = body.rounded();
        let half = body.rotation * half;
        (body.position - half, body.position + half, radius)
    };
    let mut solids = Vec::new();
    for jb in &mut bodies {
        let b = jb.body as usize;
        let (b0, b1, rb) = axis(b);
        let first = solids.len() as u32;
        // Only limbs (an arm, a leg, a grasper on the trunk) and what hangs from them: the
        // free parts that swing far enough to reach the trunk. A tail, an ear or an eye
        // near its own spine body would only cost the test.
        let top = creature.limb_top(b);
        let limb = top.is_some_and(|top| swings_free(creature.body(top)));
        if rb > 0.0 && jb.arm_length > 1e-6 && limb {
            // The spine body the limb hangs from holds its joint: a limb is near it
            // throughout, and swinging away from it would push it into the next one.
            let attachment = top.and_then(parent);
            let solid =
                |c: BodyId| creature.is_spine(c) && Some(c) != attachment && !creature.joined(b, c);
            for c in (0..n).filter(|&c| solid(c)) {
                let (c0, c1, rc) = axis(c);
                if rc <= 0.0 {
                    continue;
                }
                let rest_overlap = (rb + rc - segment_distance(b0, b1, c0, c1)).max(0.0);
                let clearance = rb + rc - rest_overlap;
                solids.push(Solid {
                    body: c as u32,
                    later: visited[c] > visited[b],
                    clearance,
                    far: (jb.capsule.0.length() + c0.distance(c1) * 0.5 + clearance) * (1.0 + 1e-4),
                });
            }
        }
        jb.solids = (first, solids.len() as u32);
    }
    (bodies, solids)
}

/// How a simulated body (at `pivot`, its centre `arm` away, turned by `rotation`) swings
/// about its joint out of the bodies it keeps out of: for each in turn, by the least turn
/// that takes its point nearest the other's axis out to the clearance. `None` when it is
/// clear of all of them. Like the ground, the push is passive: it moves this body (and
/// what hangs from it) and never a body with IK. A free arm rests on the trunk the torso
/// bends over, or against the arm beside it, rather than sinking in.
#[allow(clippy::too_many_arguments)]
fn keep_clear(
    solids: &[Solid],
    shapes: &[(Vec3A, f32)],
    has_ik: &[bool],
    pose: &[BodyPose],
    half_axis: Vec3A,
    pivot: Vec3A,
    arm: Vec3A,
    rotation: Quat,
) -> Option<(Vec3A, Quat)> {
    // Out of the one it sinks deepest into: pushed out of each in turn, a body wedged
    // between two would end up in whichever came first.
    let mut deepest: Option<(f32, Vec3A, Vec3A)> = None;
    let own = rotation * half_axis;
    let at = pivot + arm;
    let (b0, b1) = (at - own, at + own);
    for solid in solids {
        let c = solid.body as usize;
        let Some(other) = pose.get(c) else {
            continue;
        };
        if solid.later && !has_ik.get(c).copied().unwrap_or(false) {
            continue;
        }
        let centre = Vec3A::from(other.position);
        if at.distance_squared(centre) > solid.far * solid.far {
            continue;
        }
        let theirs = other.rotation * shapes[c].0;
        let (c0, c1) = (centre - theirs, centre + theirs);
        let (s, t) = segment_closest(b0.into(), b1.into(), c0.into(), c1.into());
        let (on_body, on_solid) = (b0.lerp(b1, s), c0.lerp(c1, t));
        let gap = on_body - on_solid;
        let dist = gap.length();
        // Axes that cross give no way out, nor does a touch at the joint, which no swing
        // about it moves: the parent, pushed first, keeps those out.
        if !(dist < solid.clearance && dist > 1e-6 * solid.clearance)
            || on_body.distance_squared(pivot) < 0.01 * solid.clearance * solid.clearance
        {
            continue;
        }
        let depth = (solid.clearance - dist) / solid.clearance;
        if deepest.is_none_or(|(d, _, _)| depth > d) {
            deepest = Some((depth, on_body, on_solid + gap * (solid.clearance / dist)));
        }
    }
    let (_, on_body, out) = deepest?;
    let turn = arc(on_body - pivot, out - pivot);
    Some((turn * arm, (turn * rotation).normalize()))
}

/// How a body sunk into the ground swings up about its joint (at `pivot`, its centre `arm`
/// away, turned by `rotation`, its shape rounded to a capsule) to rest on it: the new arm
/// and rotation, or `None` when it is clear of the ground. It rises in the vertical plane
/// it leans in (its animated pose's lean when it hangs straight down), by the least angle
/// that lifts its shape's lowest point out. The ground gives by up to `cushion / 2`,
/// easing in (C1), so a body settling onto it slows down instead of stopping dead in one
/// frame; a body resting on it at rest is left alone. A body whose joint is too low to clear stands straight up.
fn rest_on_ground(
    pivot: Vec3A,
    arm: Vec3A,
    animated_arm: Vec3A,
    rotation: Quat,
    (half_axis, radius): (Vec3A, f32),
    ground: f32,
    cushion: f32,
) -> Option<(Vec3A, Quat)> {
    let length = arm.length();
    let sink = |a: Vec3A, r: Quat| ground - (pivot.y + a.y - (r * half_axis).y.abs() - radius);
    let first = sink(arm, rotation);
    // A body resting on the ground at rest (a toe) is on it to rounding error, not in it.
    if !first.is_finite() || first <= 1e-3 * cushion || length <= 1e-6 {
        return None;
    }
    // Soft ground: the first `cushion` of a sink is pushed back by a growing share of
    // it, deeper only `cushion / 2` is left (the IK's C1 soft correction, turned over).
    let left = if first < cushion {
        first - first * first / (2.0 * cushion)
    } else {
        0.5 * cushion
    };
    let lean = |a: Vec3A| {
        let flat = Vec3A::new(a.x, 0.0, a.z);
        (flat.length_squared() > 1e-4 * length * length).then_some(flat)
    };
    let level = lean(arm).or_else(|| lean(animated_arm))?.normalize();
    let at = |elevation: f32| {
        let (sin, cos) = elevation.sin_cos();
        let a = (level * cos + Vec3A::Y * sin) * length;
        (a, (arc(arm, a) * rotation).normalize())
    };
    // The lowest point need not rise steadily with the angle (a capsule reaching past its
    // joint stops rising as it passes level), so the least angle is searched for: first
    // coarsely for the span where the sink first drops to what is left (or, with the joint
    // too low for that, to within a little of the least it can be), then finely.
    const SPANS: usize = 8;
    let from = (arm.y / length).clamp(-1.0, 1.0).asin();
    let span = (std::f32::consts::FRAC_PI_2 - from) / SPANS as f32;
    let mut samples = [0.0f32; SPANS + 1];
    for (k, s) in samples.iter_mut().enumerate() {
        let (a, r) = at(from + span * k as f32);
        *s = sink(a, r);
    }
    let least = samples.iter().copied().fold(f32::INFINITY, f32::min);
    let target = left.max(least + 0.1 * cushion);
    let k = samples.iter().position(|&s| s <= target)?;
    if k == 0 {
        return None;
    }
    let (mut lo, mut hi) = (from + span * (k - 1) as f32, from + span * k as f32);
    let left = target;
    for _ in 0..16 {
        let mid = 0.5 * (lo + hi);
        let (a, r) = at(mid);
        if sink(a, r) > left {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(at(hi))
}

/// The minimal rotation taking direction `from` to direction `to`; identity when either
/// is zero.
fn arc(from: Vec3A, to: Vec3A) -> Quat {
    match (from.try_normalize(), to.try_normalize()) {
        (Some(a), Some(b)) => Quat::from_rotation_arc(a.into(), b.into()),
        _ => Quat::IDENTITY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each simulated body's range of `top_pairs` lists exactly the pairs it is a top of, in
    /// order, on creatures with several hanging limbs (the index is built in one pass).
    #[test]
    fn each_top_lists_exactly_its_own_hang_pairs() {
        let mut seen = 0;
        for name in ["four_armed", "octopod", "centaur", "biped"] {
            let c = crate::test_samples::creature(name);
            let rig = JiggleRig::new(&c, &JiggleTuning::default());
            for jb in &rig.bodies {
                let listed: Vec<u32> =
                    rig.top_pairs[jb.hang_pairs.0 as usize..jb.hang_pairs.1 as usize].to_vec();
                let want: Vec<u32> = (0..rig.hang_pairs.len() as u32)
                    .filter(|&k| rig.hang_pairs[k as usize].tops.contains(&jb.body))
                    .collect();
                assert_eq!(listed, want, "{name}: body {}", jb.body);
                seen += listed.len();
            }
        }
        assert!(seen > 0, "no creature had a hang pair");
    }

    /// The four-armed creature's arms on each side make a pair. They ask no turn at rest or
    /// when the whole creature moves and turns (their hangs keep their rest relation), and
    /// ask more the further the torso bends between their spine bodies.
    #[test]
    fn stacked_free_arms_turn_only_as_the_trunk_bends_between_them() {
        let c = crate::test_samples::creature("four_armed");
        let rig = JiggleRig::new(&c, &JiggleTuning::default());
        let id = |n: &str| c.find(n).unwrap();
        let k = rig
            .hang_pairs
            .iter()
            .position(|p| {
                let mut tops = p.tops.map(|t| t as usize);
                tops.sort_unstable();
                let mut want = [id("clavicle_r"), id("low_upper_arm_r")];
                want.sort_unstable();
                tops == want
            })
            .expect("the right arms pair up");
        let has_ik: Vec<bool> = (0..c.len()).map(|b| c.is_spine(b)).collect();
        let delta = vec![(Quat::IDENTITY, Vec3A::ZERO); c.len()];
        let (chest, root) = (id("spine_3"), c.root());
        // Every spine body carried by `whole` (about the root's centre, then moved by
        // `shift`), the chest and what it carries bent forward by `bend` about its joint.
        let posed = |whole: Quat, shift: Vec3, bend: f32| -> (Vec<BodyPose>, Quat) {
            let bent = Quat::from_rotation_x(bend);
            let hinge = c.pivot(chest);
            let centre = c.body(root).position;
            let pose = (0..c.len())
                .map(|b| {
                    let body = c.body(b);
                    let above =
                        std::iter::successors(Some(b), |&x| c.parent(x)).any(|x| x == chest);
                    let (mut at, mut turn) = (body.position, body.rotation);
                    if above {
                        at = hinge + bent * (at - hinge);
                        turn = bent * turn;
                    }
                    BodyPose::new(centre + shift + whole * (at - centre), whole * turn)
                })
                .collect();
            (pose, whole)
        };
        let weight = |(pose, root_delta): (Vec<BodyPose>, Quat)| {
            rig.hang_weight(k, &has_ik, &pose, &delta, root_delta)
        };
        assert_eq!(weight(posed(Quat::IDENTITY, Vec3::ZERO, 0.0)), 0.0);
        let whole = Quat::from_rotation_y(1.2) * Quat::from_rotation_z(0.4);
        assert_eq!(weight(posed(whole, Vec3::new(3.0, 0.5, -2.0), 0.0)), 0.0);
        let (some, more) = (
            weight(posed(whole, Vec3::ZERO, 0.7)),
            weight(posed(whole, Vec3::ZERO, 1.0)),
        );
        assert!(
            some > 0.0 && more > some && more <= 1.0,
            "bent 0.7 rad: {some}, 1.0 rad: {more}"
        );
        let mut free_arm = has_ik.clone();
        free_arm[id("low_upper_arm_r")] = true;
        assert_eq!(
            rig.hang_weight(
                k,
                &free_arm,
                &posed(whole, Vec3::ZERO, 1.0).0,
                &delta,
                whole
            ),
            0.0,
            "a limb with IK turns nothing"
        );
    }
}
