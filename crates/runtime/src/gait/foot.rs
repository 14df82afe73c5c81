//! One foot's cycle: planted in stance, flying along the style's path to a landing point
//! predicted from the body's motion (paper 4.2, "Foot and Hip Posing").

use super::legs::Limb;
use super::style::{FlightPath, FootParams};
use crate::pose::BodyPose;
use crate::terrain::Terrain;
use glam::{Quat, Vec3};

/// Below this many cycles per second the body counts as standing still.
const MIN_RATE: f32 = 1e-3;
/// Cycles per second at which a step begun before stopping is finished.
const SETTLE_RATE: f32 = 0.8;
/// How far ahead a landing point is predicted, at most.
const MAX_LOOKAHEAD_SECS: f32 = 2.0;

/// Where a foot is in its cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FootPhase {
    /// On the ground: the foot stays at its world-space anchor and does not slip.
    Stance,
    /// Lifted: the foot follows the style's flight path toward its landing target.
    Flight,
}

/// One foot's state, world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FootState {
    /// Planted or flying.
    pub phase: FootPhase,
    /// Where the foot stands (stance) or lifted off (flight).
    pub anchor: BodyPose,
    /// Flight progress, 0 at lift-off, 1 at landing.
    pub u: f32,
    /// Where the foot will land, updated every frame of its flight.
    pub target: BodyPose,
    /// The foot's goal this frame.
    pub pose: BodyPose,
    /// Its place in the cycle last frame (0 = lift-off).
    pub cycle: f32,
}

/// The body's motion, for predicting where a foot should land.
#[derive(Clone, Copy, Debug)]
pub struct BodyMotionNow {
    pub world_from_character: BodyPose,
    /// Character space, m/s.
    pub velocity: Vec3,
    /// rad/s about +Y.
    pub turn_rate: f32,
}

impl BodyMotionNow {
    /// Where a point fixed in character space will be in the world `t` seconds from now,
    /// if the velocity and turn rate hold.
    pub fn predict(&self, point_character: Vec3, t: f32) -> Vec3 {
        let angle = self.turn_rate * t;
        let turn = Quat::from_rotation_y(angle);
        let half_turn = Quat::from_rotation_y(0.5 * angle);
        // Turning, the body runs along an arc: it ends up a chord away, shorter than the arc
        // by sin(θ/2)/(θ/2), in the direction half way round.
        let half = 0.5 * angle;
        let chord = if half.abs() > 1e-4 {
            half.sin() / half
        } else {
            1.0
        };
        let moved = half_turn * self.velocity * (t * chord) + turn * point_character;
        let w = self.world_from_character;
        w.position + w.rotation * moved
    }

    pub fn yaw_in(&self, t: f32) -> Quat {
        Quat::from_rotation_y(self.turn_rate * t) * self.world_from_character.rotation
    }
}

/// The ground pose of a foot whose rest centre is `home_height` above the ground at `at`.
pub fn grounded(
    terrain: &Terrain,
    at: Vec3,
    home_height: f32,
    yaw: Quat,
    rest_rotation: Quat,
    follow: f32,
) -> BodyPose {
    let ground = terrain.height(at.x, at.z);
    let tilt = Quat::IDENTITY.slerp(
        Quat::from_rotation_arc(Vec3::Y, terrain.normal(at.x, at.z)),
        follow,
    );
    BodyPose::new(
        Vec3::new(at.x, ground + home_height, at.z),
        (tilt * yaw * rest_rotation).normalize(),
    )
}

impl FootState {
    /// A foot standing at its home under the body.
    pub fn planted(limb: &Limb, body: &BodyMotionNow, terrain: &Terrain) -> Self {
        let at = body.predict(limb.home, 0.0);
        let pose = grounded(
            terrain,
            at,
            limb.home.y,
            body.yaw_in(0.0),
            limb.rest_rotation,
            1.0,
        );
        FootState {
            phase: FootPhase::Stance,
            anchor: pose,
            u: 0.0,
            target: pose,
            pose,
            cycle: 0.0,
        }
    }

    /// Advances the foot by `dt`. Its group's cycle is at `cycle_now` (0..1) and runs at
    /// `rate` cycles per second (0 when the body stands still).
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        limb: &Limb,
        params: &FootParams,
        cycle_now: f32,
        rate: f32,
        dt: f32,
        body: &BodyMotionNow,
        terrain: &Terrain,
        path: &FlightPath,
    ) {
        let flight_share = (1.0 - params.duty).clamp(0.05, 0.95);
        let cycle = super::style::fraction(cycle_now - params.trigger);
        let previous = self.cycle;
        self.cycle = cycle;
        let moving = rate > MIN_RATE;
        // The cycle ran past the lift-off point this frame.
        let wrapped = cycle < previous && previous - cycle > 0.5;
        // The cycle says this foot should be flying: on a start from standstill too, where
        // waiting for the next lift-off point would leave it behind the walking body.
        let due = wrapped || (cycle < flight_share && previous <= cycle);
        // Cycles the foot's own timeline has run past its landing point (it lands this frame).
        let mut late = 0.0;
        let setting_down = match self.phase {
            FootPhase::Stance if moving && due => {
                self.phase = FootPhase::Flight;
                self.anchor = self.pose;
                self.u = (cycle / flight_share).min(1.0);
                false
            }
            FootPhase::Stance => {
                self.pose = self.anchor;
                return;
            }
            FootPhase::Flight if moving => {
                let before = self.u;
                // Follow the cycle while it runs, so the feet keep their pattern; a cycle that
                // passed the landing point (or wrapped, after a long frame) lands the foot.
                let u = if wrapped {
                    late = cycle + 1.0 - flight_share;
                    1.0
                } else {
                    late = (cycle - flight_share).max(0.0);
                    (cycle / flight_share).min(1.0)
                };
                self.u = u.max(self.u);
                path.is_setting_down(before)
            }
            FootPhase::Flight => {
                let before = self.u;
                // Stopping mid-step still finishes the step, at a walking tempo.
                self.u = (self.u + SETTLE_RATE * dt / flight_share).min(1.0);
                path.is_setting_down(before)
            }
        };
        // A foot already coming straight down keeps the landing point it is over: moved now,
        // it would slide along the ground as it touches down.
        if !setting_down {
            // Land where the foot's home will be half way through its next stance.
            let ahead = if moving {
                ((1.0 - self.u) * flight_share + 0.5 * params.duty - late).max(0.0) / rate
            } else {
                0.0
            };
            let ahead = ahead.min(MAX_LOOKAHEAD_SECS);
            let at = body.predict(limb.home, ahead);
            self.target = grounded(
                terrain,
                at,
                limb.home.y,
                body.yaw_in(ahead),
                limb.rest_rotation,
                1.0,
            );
        }
        if self.u >= 1.0 {
            self.phase = FootPhase::Stance;
            self.anchor = self.target;
            self.pose = self.target;
            self.u = 0.0;
            return;
        }
        let (height, forward) = path.at(self.u);
        let mut p = self.anchor.position.lerp(self.target.position, forward);
        let ground = terrain.height(p.x, p.z) + limb.home.y;
        p.y = p.y.max(ground) + height * params.lift * limb.length;
        let rotation = self
            .anchor
            .rotation
            .slerp(self.target.rotation, forward)
            .normalize();
        self.pose = BodyPose::new(p, rotation);
    }
}
