//! Jiggles (paper 4.4): passive, highly damped secondary motion on the sub-trees that have
//! no IK this frame — a tail, antennae, ears, a hand the clip leaves alone.
//!
//! In the spirit of the kinematic-clone paper (`reference/kinematic-clone-dynamics-paper.txt`)
//! each such body is a damped spring pulling it toward the animated pose — its rest pose
//! relative to its (possibly jiggling) parent, so a chain lags and whips — and the motion
//! is strictly passive: it moves only bodies without IK and feeds nothing back to the
//! solver or the goals. A body is simulated as a point mass at its centre swinging on a
//! rigid rod from its joint: the joint follows the parent, the mass lags behind.

use crate::runtime::creature::{Cap, Creature};
use crate::runtime::pose::BodyPose;
use crate::runtime::shared::PerCreature;
use glam::{Quat, Vec3A};
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
    /// Damping ratio of every spring: 1 is critical; below it a body overshoots once.
    pub damping_ratio: f32,
    /// Longest internal step (s). A frame is split into equal steps no longer than this,
    /// so a given frame time always gives the same result.
    pub max_substep_secs: f32,
    /// Frame times above this are treated as this (a hitch must not fling a tail).
    pub max_dt_secs: f32,
    /// Largest angle (rad) a body may swing away from its animated pose.
    pub max_angle: f32,
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
                (Cap::Spine, 20.0),
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
            damping_ratio: 1.0,
            max_substep_secs: 1.0 / 120.0,
            max_dt_secs: 0.1,
            max_angle: 0.6,
            teleport_fraction: 0.5,
        }
    }
}

/// One simulated body.
#[derive(Clone, Copy, Debug, PartialEq)]
struct State {
    /// Simulating last frame; a body that just lost its IK starts at rest.
    active: bool,
    /// The point mass relative to the joint: small numbers keep their precision far from
    /// the origin (a giant's mouth sits 5.5 m up on a 2 cm rod).
    mass: Vec3A,
    velocity: Vec3A,
    /// Where the joint and the animated centre (relative to it) were last frame: a frame's
    /// steps move them linearly from there.
    pivot: Vec3A,
    target: Vec3A,
    /// The swing off the animated pose, in the world, and the parent's delta when it was
    /// taken: the posed rotation is `turn * animated`. Kept so a held frame (`dt = 0`)
    /// shows the same swing in the parent's frame, however the parent moved since.
    turn: Quat,
    turn_parent_delta: Quat,
}

impl State {
    const REST: State = State {
        active: false,
        mass: Vec3A::ZERO,
        velocity: Vec3A::ZERO,
        pivot: Vec3A::ZERO,
        target: Vec3A::ZERO,
        turn: Quat::IDENTITY,
        turn_parent_delta: Quat::IDENTITY,
    };

    /// At rest on the animated pose.
    fn at(pivot: Vec3A, arm: Vec3A) -> State {
        State {
            active: true,
            mass: arm,
            velocity: Vec3A::ZERO,
            pivot,
            target: arm,
            turn: Quat::IDENTITY,
            turn_parent_delta: Quat::IDENTITY,
        }
    }
}

/// The jiggle simulation of one character. Deterministic: the same poses and frame times
/// give the same result.
#[derive(Clone, Debug)]
pub struct Jiggles {
    state: Vec<State>,
    /// What depends only on the creature and the tuning, shared by the characters of one
    /// creature when made with [`Jiggles::shared`].
    rig: Arc<JiggleRig>,
}

static SHARED: PerCreature<JiggleTuning, JiggleRig> = PerCreature::new();

#[derive(Clone, Debug)]
struct JiggleRig {
    /// Per body, the spring's natural frequency (rad/s).
    frequency: Vec<f32>,
    order: Vec<u32>,
    parent: Vec<u32>,
    rest_rotation: Vec<Quat>,
    inv_rest_rotation: Vec<Quat>,
    /// Rest pivot minus the parent's rest centre.
    pivot_from_parent: Vec<Vec3A>,
    /// Rest centre minus rest pivot, in the body's rest frame.
    centre_from_pivot: Vec<Vec3A>,
    size: f32,
    tuning: JiggleTuning,
}

impl Jiggles {
    pub fn new(creature: &Creature, tuning: &JiggleTuning) -> Jiggles {
        Jiggles {
            state: vec![State::REST; creature.len()],
            rig: Arc::new(JiggleRig::new(creature, tuning)),
        }
    }

    /// Jiggles whose per-body constants are shared with every other character of the same
    /// creature (`Arc`) and tuning; they simulate exactly as [`Jiggles::new`]'s.
    pub fn shared(creature: &Arc<Creature>, tuning: &JiggleTuning) -> Jiggles {
        Jiggles {
            state: vec![State::REST; creature.len()],
            rig: SHARED.get(creature, tuning, || JiggleRig::new(creature, tuning)),
        }
    }

    /// Adopts a new tuning (frequencies are derived from it per body).
    pub fn set_tuning(&mut self, creature: &Creature, tuning: &JiggleTuning) {
        Arc::make_mut(&mut self.rig).set_tuning(creature, tuning);
    }

    pub fn tuning(&self) -> &JiggleTuning {
        &self.rig.tuning
    }

    /// Forgets all motion: the next frame starts every jiggle at its animated pose.
    pub fn reset(&mut self) {
        self.state.fill(State::REST);
    }
}

impl JiggleRig {
    fn new(creature: &Creature, tuning: &JiggleTuning) -> JiggleRig {
        let n = creature.len();
        let rest_rotation: Vec<Quat> = creature
            .bodies()
            .iter()
            .map(|b| b.rotation.normalize())
            .collect();
        let inv_rest_rotation: Vec<Quat> = rest_rotation.iter().map(|q| q.conjugate()).collect();
        let parent: Vec<u32> = (0..n)
            .map(|b| creature.parent(b).map_or(u32::MAX, |p| p as u32))
            .collect();
        let pivot_from_parent = (0..n)
            .map(|b| match creature.parent(b) {
                Some(p) => Vec3A::from(creature.pivot(b) - creature.body(p).position),
                None => Vec3A::ZERO,
            })
            .collect();
        let centre_from_pivot = (0..n)
            .map(|b| {
                inv_rest_rotation[b] * Vec3A::from(creature.body(b).position - creature.pivot(b))
            })
            .collect();
        let mut j = JiggleRig {
            frequency: vec![0.0; n],
            order: creature.order().iter().map(|&b| b as u32).collect(),
            parent,
            rest_rotation,
            inv_rest_rotation,
            pivot_from_parent,
            centre_from_pivot,
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
        for (b, body) in creature.bodies().iter().enumerate() {
            let base = tuning
                .frequency_by_cap
                .iter()
                .find(|(cap, _)| body.has_cap(cap))
                .map_or(tuning.default_frequency, |(_, f)| *f);
            let e = body.half_extents * 2.0;
            let heaviness = (e.x * e.y * e.z).max(0.0).cbrt() / self.size.max(1e-6);
            let f = base * (1.0 + tuning.heaviness_stiffening * heaviness) * scale;
            self.frequency[b] = if f.is_finite() {
                f.clamp(0.1, 200.0)
            } else {
                10.0
            };
        }
    }
}

impl Jiggles {
    /// Moves the bodies without IK (`has_ik[b]` false) from their rigid follow of their
    /// parents by `dt_secs` of simulation; 0 holds them where they were. Bodies with IK
    /// are never written.
    pub fn apply(&mut self, has_ik: &[bool], pose: &mut [BodyPose], dt_secs: f32) {
        let (rig, state) = (&*self.rig, &mut self.state);
        let n = pose.len().min(state.len()).min(has_ik.len());
        if !rig.tuning.enabled {
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
        let inv_h = if steps > 0 { 1.0 / h } else { 0.0 };
        let inv_steps = if steps > 0 { 1.0 / steps as f32 } else { 0.0 };
        let teleport = rig.tuning.teleport_fraction * rig.size;
        let cos_max = rig.tuning.max_angle.clamp(0.0, std::f32::consts::PI).cos();
        for k in 0..rig.order.len() {
            let b = rig.order[k] as usize;
            let p = rig.parent[b] as usize;
            if b >= n || p >= n {
                continue;
            }
            if has_ik[b] {
                state[b].active = false;
                continue;
            }
            let parent_delta = pose[p].rotation * rig.inv_rest_rotation[p];
            let pivot = Vec3A::from(pose[p].position) + parent_delta * rig.pivot_from_parent[b];
            let animated = parent_delta * rig.rest_rotation[b];
            let arm = animated * rig.centre_from_pivot[b];
            let length = arm.length();
            let s = &mut state[b];
            let jump = s.pivot.distance(pivot);
            let moved_far = jump.is_nan() || jump > teleport;
            if !s.active || length < 1e-6 || (steps > 0 && moved_far) {
                *s = State::at(pivot, arm);
            } else if steps > 0 {
                let w = rig.frequency[b];
                let stiffness = w * w;
                let damping = 2.0 * rig.tuning.damping_ratio.max(0.0) * w;
                let inv_denominator = 1.0 / (1.0 + h * damping + h * h * stiffness);
                let inv_length = 1.0 / length;
                let (pivot0, target0) = (s.pivot, s.target);
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
                    let before = s.mass - shift;
                    at = next;
                    goal_before = goal;
                    // Implicit Euler on the damped spring: stable for any step.
                    let v = (s.velocity
                        + (goal - before) * (h * stiffness)
                        + goal_velocity * (h * damping))
                        * inv_denominator;
                    let free = before + v * h;
                    let placed = free.try_normalize().unwrap_or(goal * inv_length) * length;
                    s.velocity = (placed - before) * inv_h;
                    s.mass = placed;
                }
                // Never swing past the limit from the animated pose.
                let cos = s.mass.dot(arm) * (inv_length * inv_length);
                if cos.is_nan() || cos < cos_max {
                    let angle = cos.clamp(-1.0, 1.0).acos().max(1e-6);
                    let limit =
                        Quat::IDENTITY.slerp(arc(arm, s.mass), rig.tuning.max_angle / angle);
                    s.mass = limit * arm;
                    s.velocity = Vec3A::ZERO;
                }
                s.pivot = pivot;
                s.target = arm;
                // Both are `length` long: unit vectors without two more square roots.
                s.turn = Quat::from_rotation_arc(
                    (arm * inv_length).into(),
                    (s.mass * inv_length).into(),
                );
                s.turn_parent_delta = parent_delta;
                if !s.turn.is_finite() || !s.mass.is_finite() || !s.velocity.is_finite() {
                    *s = State::at(pivot, arm);
                }
            }
            let s = &state[b];
            let turn = if steps > 0 || s.turn_parent_delta == parent_delta {
                s.turn
            } else {
                // A held frame after the parent moved (a scrub in a paused editor): the
                // same swing in the parent's new frame.
                let swing = s.turn_parent_delta.conjugate() * s.turn * s.turn_parent_delta;
                parent_delta * swing * parent_delta.conjugate()
            };
            let rotation = (turn * animated).normalize();
            pose[b] = BodyPose {
                position: (pivot + rotation * rig.centre_from_pivot[b]).into(),
                rotation,
            };
        }
    }
}

/// The minimal rotation taking direction `from` to direction `to`; identity when either
/// is zero.
fn arc(from: Vec3A, to: Vec3A) -> Quat {
    match (from.try_normalize(), to.try_normalize()) {
        (Some(a), Some(b)) => Quat::from_rotation_arc(a.into(), b.into()),
        _ => Quat::IDENTITY,
    }
}
