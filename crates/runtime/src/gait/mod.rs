//! Procedural gaits for any leg morphology (paper section 4.2): feet planted in the world,
//! stepping in styled patterns, the body riding on them; clips own the feet they animate and
//! the gait fills in the rest.

mod foot;
mod legs;
pub mod style;

pub use foot::{FootPhase, FootState};
pub use legs::{GROUP_LENGTH_RATIO, Gear, Group, Limb, Locomotion, nearest_small_ratio};
pub use style::{GaitStyle, GroupParams};

use crate::creature::{BodyId, Creature};
use crate::eval::Goals;
use crate::pose::BodyPose;
use crate::shared::PerCreature;
use crate::terrain::Terrain;
use foot::BodyMotionNow;
use glam::{Quat, Vec2, Vec3};
use std::sync::{Arc, OnceLock};
use style::blend_params;

/// The hips drop (or rise) by at most this fraction of the reference leg length, and never
/// so far that the trunk would touch the ground ([`Gear::trunk_clearance`]).
const MAX_HIP_DROP: f32 = 0.5;
/// Time constant of the hips going back to their ride height after a long stride.
const HIP_RISE_SECS: f32 = 0.15;
/// Strides are planned for the hips dropped this share of the way to [`MAX_HIP_DROP`]: the
/// rest is left for what the plan leaves out (a stance on a turn follows an arc, not a
/// chord; the body bobs).
const PLANNED_DROP_SHARE: f32 = 0.75;
/// What turning the body costs against dropping it, in reference leg lengths a radian.
const SWAY_COST_LEGS: f32 = 1.0;
/// The most the body pitches or rolls to keep its feet in reach, radians.
const MAX_SWAY: f32 = 0.35;
/// Rounds of projections fitting the hips to the feet, at most.
const FIT_PASSES: usize = 24;
/// The most of a cycle the fastest group may step in one frame: at a quarter it still flies
/// at least one frame of four, and a cycle never runs so far in a frame that it looks to go
/// backwards (half a cycle) to the feet that follow it.
const MAX_CYCLE_PER_FRAME: f32 = 0.22;
/// How fast the cadence quickens while a planted foot is out of reach of the fitted hips:
/// per second, per reference leg length the hips fall short.
const PACE_GAIN: f32 = 120.0;
/// Time constant of the cadence easing back to the plan's once every planted foot is held.
const PACE_EASE_SECS: f32 = 2.0;
/// The most the cadence quickens over the plan's: a foot whose home is itself out of reach
/// is not helped by shorter strides, and steps no faster than this.
const MAX_PACE: f32 = 2.0;

/// A style applied to a character with a weight, to every leg group or to one.
#[derive(Clone, Debug, PartialEq)]
pub struct GaitLayer {
    /// The style's speed tables; the first layer's also sets the flight path and body motion.
    pub style: Arc<GaitStyle>,
    /// How far (0..=1) this layer's stepping parameters pull a group's away from the layers
    /// before it. The first layer that applies to a group sets them outright, whatever its
    /// weight.
    pub weight: f32,
    /// Only this leg group (index into [`Gear::groups`]); `None` for all.
    pub group: Option<usize>,
}

impl GaitLayer {
    /// The style at full weight on every group.
    pub fn new(style: Arc<GaitStyle>) -> Self {
        GaitLayer {
            style,
            weight: 1.0,
            group: None,
        }
    }
}

/// The built-in walk (`assets/gaits/walk.gait.json`), used until a game sets its own styles.
pub fn default_walk() -> Arc<GaitStyle> {
    static WALK: OnceLock<Arc<GaitStyle>> = OnceLock::new();
    Arc::clone(WALK.get_or_init(|| {
        let text = include_str!("../../../../assets/gaits/walk.gait.json");
        match serde_json::from_str::<GaitStyle>(text) {
            Ok(s) if s.validate().is_ok() => Arc::new(s),
            // The file is part of this crate and checked by its tests; never reached.
            _ => Arc::new(fallback_walk()),
        }
    }))
}

fn fallback_walk() -> GaitStyle {
    let row = |speed: f32, stride: f32, duty: f32| style::SpeedKey {
        speed,
        stride,
        duty,
        lift: 0.1,
        triggers: Vec::new(),
        duty_per_foot: Vec::new(),
        lift_per_foot: Vec::new(),
        bob: 0.0,
    };
    GaitStyle {
        name: "walk".into(),
        intent: String::new(),
        groups: Vec::new(),
        wave: vec![row(0.3, 0.5, 0.75), row(2.0, 1.0, 0.6)],
        crawl: Vec::new(),
        flight: style::FlightPath::default(),
        body: style::BodyMotion::default(),
    }
}

/// What the gait needs each frame.
#[derive(Clone, Copy, Debug)]
pub struct GaitInput<'a> {
    /// Time since the previous frame, seconds.
    pub dt_secs: f32,
    /// Where the character's frame is now (after this frame's locomotion).
    pub world_from_character: BodyPose,
    /// Commanded velocity in character space (+Z forward), m/s.
    pub velocity: Vec3,
    /// Commanded turn rate about +Y, rad/s.
    pub turn_rate: f32,
    /// The ground the feet plant on, in world space.
    pub terrain: &'a Terrain,
    /// The styles to step with, base first (see [`GaitLayer`]); empty turns the gait off.
    pub layers: &'a [GaitLayer],
}

/// One character's gait state.
#[derive(Clone, Debug)]
pub struct Gait {
    /// What depends only on the creature, shared by the characters of one creature when
    /// made with [`Gait::shared`].
    gear: Arc<Gear>,
    feet: Vec<FootState>,
    /// The reference group's cycle, kept modulo 12 so every group's phase (a multiple p/q of
    /// it with q ≤ 4) stays continuous when it wraps.
    cycle: f32,
    params: Vec<GroupParams>,
    layer_params: GroupParams,
    time_secs: f32,
    planted: bool,
    /// How far the hips are lowered so the legs reach their feet.
    drop: f32,
    /// How far the body is pitched (about +X) and rolled (about +Z) so the legs reach
    /// their feet, radians.
    sway: Vec2,
    /// Scratch for fitting the hips: one range per foot.
    slabs: Vec<Slab>,
    /// Per foot, whether a clip owns it this frame (it stands where the clip puts it, on
    /// the ground or not, so it does not take a planted foot's precedence over the hips).
    clip_owned: Vec<bool>,
    /// How much quicker than the plan the feet step (1 = the plan): raised while the fitted
    /// hips leave a planted foot out of reach (see `Gait::fit_hips_to_reach`).
    pace: f32,
}

/// What one foot allows the hips: a range of drops of its hip, linear in the body's drop,
/// pitch and roll (see `Gait::fit_hips_to_reach`).
#[derive(Clone, Copy, Debug, Default)]
struct Slab {
    normal: Vec3,
    least: f32,
    most: f32,
    /// Dykstra's correction carried between passes.
    increment: Vec3,
    /// A planted foot's hip (less the root) and reach point, and its leg's reach (folded,
    /// straight) and rest allowance (drop, rise), to check the fitted hips exactly.
    arm: Vec3,
    point: Vec3,
    reach: Vec2,
    rest: Vec2,
    /// A planted foot's range (a landing one asks less and counts for nothing here), in
    /// reference leg lengths per metre.
    planted: f32,
    /// A foot the gait has planted (not one a clip holds): its range comes first when the
    /// feet ask for more than the hips can give.
    first: bool,
}

impl Slab {
    fn holds(&self, at: Vec3) -> bool {
        let d = self.normal.dot(at);
        d >= self.least - 1e-6 && d <= self.most + 1e-6
    }

    /// The nearest point to `at` within the range.
    fn project(&self, at: Vec3) -> Vec3 {
        let d = self.normal.dot(at);
        let norm = self.normal.length_squared().max(1e-12);
        if d < self.least {
            at + self.normal * ((self.least - d) / norm)
        } else if d > self.most {
            at + self.normal * ((self.most - d) / norm)
        } else {
            at
        }
    }
}

static SHARED: PerCreature<(), Gear> = PerCreature::new();

impl Gait {
    /// Asks for its fields (see `Character::update_many`).
    pub(crate) fn prefetch_struct(&self) {
        use crate::shared::prefetch;
        prefetch(&self.gear);
        prefetch(&self.feet);
        prefetch(&self.params);
        prefetch(&self.cycle);
        prefetch(&self.layer_params);
        prefetch(&self.time_secs);
        prefetch(&self.planted);
        prefetch(&self.drop);
        prefetch(&self.sway);
        prefetch(&self.slabs);
        prefetch(&self.pace);
    }

    /// Asks for its per-character buffers without waiting (see `Character::update_many`).
    pub(crate) fn prefetch(&self) {
        use crate::shared::prefetch;
        // A foot's state spans two or three lines: each field is asked for by address
        // (asking for the slice's elements brings only the line each starts on).
        for f in &self.feet {
            prefetch(&f.phase);
            prefetch(&f.anchor);
            prefetch(&f.u);
            prefetch(&f.target);
            prefetch(&f.pose);
            prefetch(&f.cycle);
        }
        crate::shared::prefetch_lines(&self.params);
    }

    /// Asks for the feet's parameters of each group, once [`Gait::prefetch`] brought in
    /// the groups that point at them.
    pub(crate) fn prefetch_nested(&self) {
        for p in &self.params {
            crate::shared::prefetch_lines(&p.feet);
        }
        crate::shared::prefetch_lines(&self.layer_params.feet);
    }

    /// A gait for `creature` with gear of its own, its feet not yet planted (they plant on
    /// the first update).
    pub fn new(creature: &Creature) -> Self {
        Gait::with_gear(Arc::new(Gear::of(creature)))
    }

    /// A gait whose legs and groups are shared with every other character of the same
    /// creature (`Arc`); it steps exactly as [`Gait::new`]'s.
    pub fn shared(creature: &Arc<Creature>) -> Self {
        Gait::with_gear(SHARED.get(creature, &(), || Gear::of(creature)))
    }

    fn with_gear(gear: Arc<Gear>) -> Self {
        let params = gear.groups.iter().map(|_| GroupParams::default()).collect();
        Gait {
            gear,
            feet: Vec::new(),
            cycle: 0.0,
            params,
            layer_params: GroupParams::default(),
            time_secs: 0.0,
            planted: false,
            drop: 0.0,
            sway: Vec2::ZERO,
            slabs: Vec::new(),
            clip_owned: Vec::new(),
            pace: 1.0,
        }
    }

    /// The creature's walking gear: its feet and how they group.
    pub fn gear(&self) -> &Gear {
        &self.gear
    }

    /// How the creature gets about: on legs, crawling or floating.
    pub fn locomotion(&self) -> Locomotion {
        self.gear.locomotion
    }

    /// Each foot's state, parallel to [`Gear::limbs`].
    pub fn feet(&self) -> &[FootState] {
        &self.feet
    }

    /// This frame's parameters of a group.
    pub fn group_params(&self, group: usize) -> Option<&GroupParams> {
        self.params.get(group)
    }

    /// Where a group is in its cycle now (0..1; a foot lifts off when this passes its
    /// trigger): what a footfall diagram's cursor shows.
    pub fn group_cycle(&self, group: usize) -> Option<f32> {
        let g = self.gear.groups.get(group)?;
        Some(style::fraction(self.cycle * g.ratio))
    }

    /// The speed, in the group's leg lengths per second, at which a group looks up its
    /// style's rows for a body moving at `velocity` (character space) turning at
    /// `turn_rate`: the speed [`Gait::group_params`] were read at.
    pub fn group_speed_legs(&self, group: usize, velocity: Vec3, turn_rate: f32) -> Option<f32> {
        let g = self.gear.groups.get(group)?;
        let planar_speed = Vec3::new(velocity.x, 0.0, velocity.z).length();
        Some(self.group_speed(group, planar_speed, turn_rate) / g.length)
    }

    /// Reads every group's parameters from `layers` for a body moving at `velocity`
    /// (character space) turning at `turn_rate`, as [`Gait::update`] would, without moving
    /// a foot or the cycle: what a footfall diagram shows of a character standing still.
    pub fn read_params(&mut self, layers: &[GaitLayer], velocity: Vec3, turn_rate: f32) {
        if layers.is_empty() || self.gear.locomotion == Locomotion::Float {
            return;
        }
        let planar_speed = Vec3::new(velocity.x, 0.0, velocity.z).length();
        for g in 0..self.gear.groups.len() {
            self.group_params_at(g, planar_speed, turn_rate, layers);
        }
    }

    /// Plants every foot under the body again (after a teleport).
    pub fn replant(&mut self) {
        self.planted = false;
        self.pace = 1.0;
    }

    /// Steps the feet and adds goals for every foot no clip owns, and the body's motion to
    /// the root. Goals are in character space.
    pub fn update(&mut self, creature: &Creature, input: &GaitInput, goals: &mut Goals) {
        if input.layers.is_empty() {
            return;
        }
        let dt = input.dt_secs.max(0.0);
        self.time_secs = (self.time_secs + dt) % 3600.0;
        let body = BodyMotionNow {
            world_from_character: input.world_from_character,
            velocity: input.velocity,
            turn_rate: input.turn_rate,
        };
        if !self.planted {
            self.feet = self
                .gear
                .limbs
                .iter()
                .map(|l| FootState::planted(l, &body, input.terrain))
                .collect();
            self.planted = true;
        }
        if self.gear.locomotion == Locomotion::Float {
            self.float(creature, input, goals);
            return;
        }
        let planar_speed = Vec3::new(input.velocity.x, 0.0, input.velocity.z).length();
        for g in 0..self.gear.groups.len() {
            self.group_params_at(g, planar_speed, input.turn_rate, input.layers);
        }
        let reference = self.gear.reference;
        let ref_speed = self.group_speed(reference, planar_speed, input.turn_rate);
        let ref_group = &self.gear.groups[reference];
        let stride = self.params[reference].stride.max(1e-3) * ref_group.length;
        let root = creature.root();
        let rest_root = creature.body(root).position;
        let tilt = self.tilt(creature, input, planar_speed);
        // The style's stride, or shorter steps where its stance would carry a foot out of
        // its leg's reach: a short-legged walker takes quick steps rather than sliding.
        let rate = (ref_speed / stride).max(self.reach_rate(input, goals, tilt, rest_root));
        // The plan leaves out what it cannot foresee (other feet holding the hips up, the
        // body's bob, a turn's arc on a slope): where the fitted hips still left a planted
        // foot out of reach, the feet step quicker, so the stance ends before the foot drags.
        let rate = rate * self.pace;
        let fastest = self.gear.groups.iter().map(|g| g.ratio).fold(1.0, f32::max);
        let rate = if dt > 0.0 {
            rate.min(MAX_CYCLE_PER_FRAME / (fastest * dt))
        } else {
            rate
        };
        let rate = if rate.is_finite() { rate } else { 0.0 };
        self.cycle = (self.cycle + rate * dt).rem_euclid(12.0);

        let inverse = input.world_from_character.rotation.inverse();
        let origin = input.world_from_character.position;
        let to_character = |p: BodyPose| {
            BodyPose::new(
                inverse * (p.position - origin),
                (inverse * p.rotation).normalize(),
            )
        };
        let flight = &input.layers[0].style.flight;
        self.clip_owned.clear();
        self.clip_owned.resize(self.gear.limbs.len(), false);
        for (g, group) in self.gear.groups.iter().enumerate() {
            let group_cycle = style::fraction(self.cycle * group.ratio);
            let group_rate = rate * group.ratio;
            for (k, &limb_index) in group.limbs.iter().enumerate() {
                let limb = &self.gear.limbs[limb_index];
                if let Some((p, _)) = goals.position(limb.foot) {
                    // A clip owns this foot: stand it where the clip puts it, so the gait
                    // picks up from there when the clip lets go.
                    let w = input.world_from_character;
                    self.clip_owned[limb_index] = true;
                    let foot = &mut self.feet[limb_index];
                    foot.phase = FootPhase::Stance;
                    foot.anchor = BodyPose::new(w.position + w.rotation * p, foot.anchor.rotation);
                    foot.pose = foot.anchor;
                    continue;
                }
                match group.steps_with[k] {
                    // A forked leg's second foot moves as one piece with the first: the knee
                    // they share allows no other placement.
                    Some(lead_k) => {
                        let lead_limb = &self.gear.limbs[group.limbs[lead_k]];
                        let lead = self.feet[group.limbs[lead_k]];
                        let offset = BodyPose::new(
                            lead_limb.rest_rotation.inverse() * (limb.home - lead_limb.home),
                            lead_limb.rest_rotation.inverse() * limb.rest_rotation,
                        );
                        let carry = |p: BodyPose| {
                            BodyPose::new(
                                p.position + p.rotation * offset.position,
                                (p.rotation * offset.rotation).normalize(),
                            )
                        };
                        let foot = &mut self.feet[limb_index];
                        foot.phase = lead.phase;
                        foot.u = lead.u;
                        foot.cycle = lead.cycle;
                        foot.anchor = carry(lead.anchor);
                        foot.target = carry(lead.target);
                        foot.pose = carry(lead.pose);
                    }
                    None => {
                        let params = self.params[g].feet.get(k).copied().unwrap_or_default();
                        self.feet[limb_index].step(
                            limb,
                            &params,
                            group_cycle,
                            group_rate,
                            dt,
                            &body,
                            input.terrain,
                            flight,
                        );
                    }
                }
                let goal = to_character(self.feet[limb_index].pose);
                goals.set_position(limb.foot, goal.position, 1.0);
                goals.set_rotation(limb.foot, goal.rotation, 1.0);
            }
        }
        // The body rides on the feet; where that puts the hips decides how far they must
        // drop, or rise, for the legs to reach.
        if self.gear.limbs.iter().all(|l| l.foot != root) {
            let rise = self.rise();
            let base = goals.position(root).map_or(rest_root, |(p, _)| p);
            let hip_at = |attach: Vec3| base + Vec3::Y * rise + tilt * (attach - rest_root);
            self.fit_hips_to_reach(goals, dt, base + Vec3::Y * rise, hip_at);
            self.swing_wide(goals, base + Vec3::Y * rise, hip_at);
            let tilt =
                Quat::from_rotation_x(self.sway.x) * Quat::from_rotation_z(self.sway.y) * tilt;
            let offset = Vec3::Y * (rise - self.drop);
            apply_to_root(creature, goals, offset, tilt, &self.gear.riders);
        }
    }

    /// The least reference cadence (cycles per second) at which every foot's stance stays
    /// within its leg's reach with the hips dropped [`PLANNED_DROP_SHARE`] of the way: a
    /// foot is planted for `duty / cadence` seconds, in which the body carries its hip
    /// `speed × duty / cadence` past it, half before its home and half after. Where the
    /// ground slopes along the foot's way, the foot planted ahead stands higher. 0 when no
    /// stance needs shortening (or none can help: a foot whose home is out of reach).
    fn reach_rate(&self, input: &GaitInput, goals: &Goals, tilt: Quat, rest_root: Vec3) -> f32 {
        if self.gear.locomotion != Locomotion::Legs {
            return 0.0;
        }
        let w = input.world_from_character;
        let at = w.position;
        let normal = input.terrain.normal(at.x, at.z);
        // The ground's rise per metre along a character-space direction.
        let uphill = if normal.y > 1e-3 {
            w.rotation.inverse() * Vec3::new(-normal.x, 0.0, -normal.z) / normal.y
        } else {
            Vec3::ZERO
        };
        let limit = self.drop_limit();
        let velocity = Vec3::new(input.velocity.x, 0.0, input.velocity.z);
        let mut rate = 0.0f32;
        for (g, group) in self.gear.groups.iter().enumerate() {
            for (k, &i) in group.limbs.iter().enumerate() {
                let limb = &self.gear.limbs[i];
                if goals.position(limb.foot).is_some() {
                    continue;
                }
                let duty = self.params[g].feet.get(k).map_or(0.0, |f| f.duty);
                // The ground under the foot runs past it with the body's motion there.
                let moving = velocity + Vec3::Y.cross(limb.home) * input.turn_rate;
                let moving = Vec3::new(moving.x, 0.0, moving.z);
                let speed = moving.length();
                if speed < 1e-5 || duty <= 0.0 {
                    continue;
                }
                let along = moving / speed;
                let point = limb.home + limb.rest_rotation * limb.reach_local;
                let hip = rest_root + tilt * (limb.attach - rest_root);
                let to = point - hip;
                let across = Vec3::new(to.x, 0.0, to.z);
                let drop = PLANNED_DROP_SHARE * limit + limb.rest_drop;
                let below = -to.y - drop;
                let slope = uphill.dot(along);
                // |across + d·along|² + (below − d·slope)² ≤ reach² for the foot d metres
                // ahead of its home: a quadratic in d.
                let a = 1.0 + slope * slope;
                let b = across.dot(along) - below * slope;
                let c = across.length_squared() + below * below - limb.reach * limb.reach;
                let room = b * b - a * c;
                if room <= 0.0 {
                    continue;
                }
                let half = (room.sqrt() - b.abs()) / a;
                if half <= 1e-4 * limb.length {
                    continue;
                }
                rate = rate.max(speed * duty / (2.0 * half * group.ratio));
            }
        }
        rate
    }

    /// Lowers the hips when a planted (or landing) foot would otherwise be out of the leg's
    /// reach, as a walker bends its knees and drops its pelvis at long strides, and raises
    /// them when a foot would come nearer its hip than the leg folds (a leg of one bone
    /// vaults the body over its foot); where the feet ask different heights of their hips,
    /// the body pitches and rolls too (paper 4.2: "the hips are translated and rotated as
    /// the feet are moved").
    ///
    /// Each foot allows its hip a range of drops (weighted: a landing foot asks more the
    /// nearer it is to touching down). The body's drop, pitch and roll ease back toward
    /// none, and are then moved the least way into what every foot allows (Dykstra's
    /// alternating projections, angles costing [`SWAY_COST_LEGS`] reference leg lengths a
    /// radian, so the body drops rather than tilts when dropping will do). Where the feet
    /// allow nothing, the passes end in between.
    fn fit_hips_to_reach(
        &mut self,
        goals: &Goals,
        dt: f32,
        root: Vec3,
        hip_at: impl Fn(Vec3) -> Vec3,
    ) {
        if self.gear.locomotion != Locomotion::Legs {
            return;
        }
        let length = self
            .gear
            .groups
            .get(self.gear.reference)
            .map_or(0.0, |g| g.length)
            .max(1e-4);
        let lever = SWAY_COST_LEGS * length;
        self.slabs.clear();
        for (i, (limb, foot)) in self.gear.limbs.iter().zip(&self.feet).enumerate() {
            let Some((centre, _)) = goals.position(limb.foot) else {
                continue;
            };
            let rotation = goals
                .rotation(limb.foot)
                .map_or(limb.rest_rotation, |(r, _)| r);
            let point = centre + rotation * limb.reach_local;
            let weight = match foot.phase {
                FootPhase::Stance => 1.0,
                // A landing foot counts more the closer it is to touching down.
                FootPhase::Flight => foot.u * foot.u * (3.0 - 2.0 * foot.u),
            };
            // A leg that cannot fold lifts its foot only as the hips rise: a flying foot
            // asks all the rise it needs from lift-off on.
            let rise_weight = if foot.phase == FootPhase::Flight {
                1.0
            } else {
                weight
            };
            if weight <= 0.0 && rise_weight <= 0.0 {
                continue;
            }
            let hip = hip_at(limb.attach);
            let (least, most) = legs::hip_offsets_for(hip, point, limb.reach_min, limb.reach);
            let least = least - limb.rest_drop;
            let most = most + limb.rest_rise;
            // A foot that counts less asks less and allows more, nothing at weight 0.
            let least = if weight <= 0.0 {
                f32::NEG_INFINITY
            } else if least > 0.0 {
                least * weight
            } else {
                least / weight
            };
            let most = if most < 0.0 {
                most * rise_weight
            } else {
                most / rise_weight
            };
            // The hip drops by `drop + pitch·z − roll·x` (small turns about the root), in
            // the scaled unknowns (drop, pitch·lever, roll·lever).
            let arm = hip - root;
            self.slabs.push(Slab {
                normal: Vec3::new(1.0, arm.z / lever, -arm.x / lever),
                least,
                most,
                increment: Vec3::ZERO,
                arm,
                point,
                reach: Vec2::new(limb.reach_min, limb.reach),
                rest: Vec2::new(limb.rest_drop, limb.rest_rise),
                planted: if foot.phase == FootPhase::Stance {
                    1.0 / limb.length.max(1e-4)
                } else {
                    0.0
                },
                first: foot.phase == FootPhase::Stance
                    && !self.clip_owned.get(i).copied().unwrap_or(false),
            });
        }
        let limit = Vec3::new(self.drop_limit(), MAX_SWAY * lever, MAX_SWAY * lever);
        let settle = (-dt / HIP_RISE_SECS).exp();
        let start = Vec3::new(self.drop, self.sway.x * lever, self.sway.y * lever) * settle;
        let start = start.clamp(-limit, limit);
        let mut at = dykstra(&mut self.slabs, start, limit, |_| true);
        // Where the feet ask more than the hips can give (a flying leg that cannot fold asks
        // them up, a planted foot far behind asks them down), the planted feet win: a foot
        // that leaves the ground mid-stance slides when it comes back, while a flying foot
        // held low only lifts less. The compromise is moved to the nearest point every
        // planted foot allows, so the flying feet keep all of it that costs the planted
        // nothing.
        if self.slabs.iter().any(|s| s.first && !s.holds(at)) {
            for slab in &mut self.slabs {
                slab.increment = Vec3::ZERO;
            }
            at = dykstra(&mut self.slabs, at, limit, |s| s.first);
        }
        let at = if at.is_finite() {
            at.clamp(-limit, limit)
        } else {
            Vec3::ZERO
        };
        self.drop = at.x;
        self.sway = Vec2::new(at.y, at.z) / lever;
        // How far short of a planted foot the hips stay, in its leg's lengths: the cadence
        // quickens with it (integrating, so the stance shortens until the foot is held at
        // its end) and eases back to the plan's when nothing falls short.
        let turn = Quat::from_rotation_x(self.sway.x) * Quat::from_rotation_z(self.sway.y);
        let short = self
            .slabs
            .iter()
            .filter(|s| s.planted > 0.0)
            .map(|s| {
                // Exactly: the hip turned about the root and dropped (the slabs' linear
                // model errs by the square of the turn), too far from its foot or too near.
                let hip = root + turn * s.arm - Vec3::Y * at.x;
                let (least, most) = legs::hip_offsets_for(hip, s.point, s.reach.x, s.reach.y);
                let off = (least - s.rest.x).max(-(most + s.rest.y));
                off.max(0.0) * s.planted
            })
            .fold(0.0, f32::max);
        let eased = 1.0 + (self.pace - 1.0) * (-dt / PACE_EASE_SECS).exp();
        let pace = eased + PACE_GAIN * short * dt;
        self.pace = if pace.is_finite() {
            pace.clamp(1.0, MAX_PACE)
        } else {
            1.0
        };
    }

    /// Moves each flying foot's goal sideways, away from the body, where the fitted hips
    /// leave it nearer its hip than the leg can fold at all: a leg that cannot fold (one
    /// bone, or nearly straight) clears the ground under its hip only by swinging wide, as
    /// a stiff leg circles out. The planted feet decide how high the hips may rise (see
    /// `fit_hips_to_reach`); asked nearer, the IK would push such a foot out along the line
    /// from its hip, down through the ground. The goal keeps its height and its way
    /// forward, on the sphere the leg reaches; the shift grows from nothing as the goal
    /// comes inside it, so a foot that lifts off or lands within reach does not jump.
    fn swing_wide(&self, goals: &mut Goals, root: Vec3, hip_at: impl Fn(Vec3) -> Vec3) {
        let turn = Quat::from_rotation_x(self.sway.x) * Quat::from_rotation_z(self.sway.y);
        for (limb, foot) in self.gear.limbs.iter().zip(&self.feet) {
            let fold = limb.fold_min;
            if foot.phase != FootPhase::Flight || fold <= 0.0 {
                continue;
            }
            let Some((centre, _)) = goals.position(limb.foot) else {
                continue;
            };
            let rotation = goals
                .rotation(limb.foot)
                .map_or(limb.rest_rotation, |(r, _)| r);
            let hip = root + turn * (hip_at(limb.attach) - root) - Vec3::Y * self.drop;
            let to = centre + rotation * limb.reach_local - hip;
            let across = fold * fold - to.y * to.y - to.z * to.z;
            if to.length_squared() >= fold * fold || across <= 0.0 {
                continue;
            }
            // Outward: the side the foot rests on, from the body's midline.
            let side = if limb.home.x - root.x < 0.0 {
                -1.0
            } else {
                1.0
            };
            let x = side * across.sqrt();
            if (x - to.x) * side > 0.0 {
                goals.set_position(limb.foot, centre + Vec3::X * (x - to.x), 1.0);
            }
        }
    }

    /// The most the hips may drop (or rise).
    fn drop_limit(&self) -> f32 {
        let length = self
            .gear
            .groups
            .get(self.gear.reference)
            .map_or(0.0, |g| g.length);
        (MAX_HIP_DROP * length).min(self.gear.trunk_clearance)
    }

    /// The speed the group's feet move at: the body's, plus turning about the body's centre
    /// for the group's farthest foot.
    fn group_speed(&self, group: usize, planar_speed: f32, turn_rate: f32) -> f32 {
        planar_speed + turn_rate.abs() * self.gear.groups[group].turn_reach
    }

    /// Blends the style layers' parameters for a group at its speed.
    fn group_params_at(
        &mut self,
        g: usize,
        planar_speed: f32,
        turn_rate: f32,
        layers: &[GaitLayer],
    ) {
        let group = &self.gear.groups[g];
        let speed = self.group_speed(g, planar_speed, turn_rate) / group.length;
        let mut first = true;
        for layer in layers.iter().filter(|l| l.group.is_none_or(|x| x == g)) {
            if first {
                layer
                    .style
                    .params(group.rows, speed, &group.places, &mut self.params[g]);
                first = false;
            } else {
                layer
                    .style
                    .params(group.rows, speed, &group.places, &mut self.layer_params);
                blend_params(&mut self.params[g], &self.layer_params, layer.weight);
            }
        }
        if first {
            layers[0]
                .style
                .params(group.rows, speed, &group.places, &mut self.params[g]);
        }
        for (k, partner) in group.steps_with.iter().enumerate() {
            if let Some(p) = *partner {
                let lead = self.params[g].feet[p];
                if let Some(f) = self.params[g].feet.get_mut(k) {
                    f.trigger = lead.trigger;
                    f.duty = lead.duty;
                }
            }
        }
    }

    /// The body rises while feet swing.
    fn rise(&self) -> f32 {
        let mut rise = 0.0;
        for (g, group) in self.gear.groups.iter().enumerate() {
            let swing: f32 = group
                .limbs
                .iter()
                .map(|&i| match self.feet[i].phase {
                    FootPhase::Flight => (std::f32::consts::PI * self.feet[i].u).sin(),
                    FootPhase::Stance => 0.0,
                })
                .sum::<f32>()
                / group.limbs.len().max(1) as f32;
            rise += self.params[g].bob * group.length * swing;
        }
        rise
    }

    /// The body pitches and rolls with the ground under it and leans into turns.
    fn tilt(&self, creature: &Creature, input: &GaitInput, planar_speed: f32) -> Quat {
        let body = input.layers[0].style.body;
        let w = input.world_from_character;
        let (forward, left) = (w.rotation * Vec3::Z, w.rotation * Vec3::X);
        let size = creature.bounds().size();
        let (half_len, half_wide) = ((0.5 * size.z).max(0.05), (0.5 * size.x).max(0.05));
        let h = |p: Vec3| input.terrain.height(p.x, p.z);
        let pitch = ((h(w.position + forward * half_len) - h(w.position - forward * half_len))
            / (2.0 * half_len))
            .atan();
        let roll = ((h(w.position + left * half_wide) - h(w.position - left * half_wide))
            / (2.0 * half_wide))
            .atan();
        let ref_length = self
            .gear
            .groups
            .get(self.gear.reference)
            .map_or(1.0, |g| g.length);
        let lean = -body.turn_lean * (planar_speed / ref_length) * input.turn_rate;
        Quat::from_rotation_x(-pitch * body.follow_slope)
            * Quat::from_rotation_z(roll * body.follow_slope + lean)
    }

    /// Footless and off the ground: bob gently and lean into the direction of travel.
    fn float(&self, creature: &Creature, input: &GaitInput, goals: &mut Goals) {
        let height = creature.bounds().size().y.max(0.05);
        let bob = 0.03 * height * (std::f32::consts::TAU * 0.5 * self.time_secs).sin();
        let speed = input.velocity / height;
        let tilt = Quat::from_rotation_x((0.15 * speed.z).clamp(-0.35, 0.35))
            * Quat::from_rotation_z((-0.15 * speed.x).clamp(-0.35, 0.35));
        apply_to_root(creature, goals, Vec3::Y * bob, tilt, &self.gear.riders);
    }
}

/// Dykstra's alternating projections from `start` onto the ranges `chosen` picks and the
/// box `±limit`: the nearest point of their intersection when there is one, a compromise
/// leaning to the last projected when there is none.
fn dykstra(slabs: &mut [Slab], start: Vec3, limit: Vec3, chosen: impl Fn(&Slab) -> bool) -> Vec3 {
    let mut at = start;
    let held = |slabs: &[Slab], at: Vec3| slabs.iter().all(|s| !chosen(s) || s.holds(at));
    if held(slabs, at) {
        return at;
    }
    let mut box_increment = Vec3::ZERO;
    for _ in 0..FIT_PASSES {
        for slab in slabs.iter_mut().filter(|s| chosen(s)) {
            let moved = slab.project(at + slab.increment);
            slab.increment += at - moved;
            at = moved;
        }
        let moved = (at + box_increment).clamp(-limit, limit);
        box_increment += at - moved;
        at = moved;
        if held(slabs, at) {
            break;
        }
    }
    at
}

/// Moves and turns the root by the body motion, on top of whatever a clip asks of it, and
/// the goals a clip gives the rest of the spine (a chest rising, a neck reared) with it: the
/// body motion moves the whole body. Left behind, a spine goal held its body where the root
/// had been, and a short spine could not reach it as the body bobbed (the floater's crown
/// missed its breathing goal by 4 cm). `riders`: the spine bodies that ride
/// ([`Gear::riders`]).
fn apply_to_root(
    creature: &Creature,
    goals: &mut Goals,
    offset: Vec3,
    tilt: Quat,
    riders: &[BodyId],
) {
    let root = creature.root();
    let rest = creature.body(root);
    let (position, pw) = goals.position(root).unwrap_or((rest.position, 1.0));
    let (rotation, rw) = goals.rotation(root).unwrap_or((rest.rotation, 1.0));
    if offset != Vec3::ZERO || tilt != Quat::IDENTITY {
        for &b in riders {
            if let Some((p, w)) = goals.position(b) {
                goals.set_position(b, position + offset + tilt * (p - position), w);
            }
            if let Some((q, w)) = goals.rotation(b) {
                goals.set_rotation(b, (tilt * q).normalize(), w);
            }
        }
    }
    goals.set_position(root, position + offset, pw.max(1e-3));
    goals.set_rotation(root, tilt * rotation, rw.max(1e-3));
}
