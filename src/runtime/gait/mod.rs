//! Procedural gaits for any leg morphology (paper section 4.2): feet planted in the world,
//! stepping in styled patterns, the body riding on them; clips own the feet they animate and
//! the gait fills in the rest.

mod foot;
mod legs;
pub mod style;

pub use foot::{FootPhase, FootState};
pub use legs::{GROUP_LENGTH_RATIO, Gear, Group, Limb, Locomotion, nearest_small_ratio};
pub use style::{GaitStyle, GroupParams};

use crate::runtime::creature::{BodyId, Creature};
use crate::runtime::eval::Goals;
use crate::runtime::pose::BodyPose;
use crate::runtime::shared::PerCreature;
use crate::runtime::terrain::Terrain;
use foot::BodyMotionNow;
use glam::{Quat, Vec3};
use std::sync::{Arc, OnceLock};
use style::blend_params;

/// The hips drop by at most this fraction of the reference leg length.
const MAX_HIP_DROP: f32 = 0.3;
/// Time constant of the hips rising back after a long stride.
const HIP_RISE_SECS: f32 = 0.15;

/// A style applied to a character with a weight, to every leg group or to one.
#[derive(Clone, Debug, PartialEq)]
pub struct GaitLayer {
    pub style: Arc<GaitStyle>,
    pub weight: f32,
    /// Only this leg group (index into [`Gear::groups`]); `None` for all.
    pub group: Option<usize>,
}

impl GaitLayer {
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
        let text = include_str!("../../../assets/gaits/walk.gait.json");
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
    pub dt_secs: f32,
    /// Where the character's frame is now (after this frame's locomotion).
    pub world_from_character: BodyPose,
    /// Commanded velocity in character space (+Z forward), m/s.
    pub velocity: Vec3,
    /// Commanded turn rate about +Y, rad/s.
    pub turn_rate: f32,
    pub terrain: &'a Terrain,
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
}

static SHARED: PerCreature<(), Gear> = PerCreature::new();

impl Gait {
    /// Asks for its fields (see `Character::update_many`).
    pub(crate) fn prefetch_struct(&self) {
        use crate::runtime::shared::prefetch;
        prefetch(&self.gear);
        prefetch(&self.feet);
        prefetch(&self.params);
        prefetch(&self.cycle);
        prefetch(&self.layer_params);
        prefetch(&self.time_secs);
        prefetch(&self.planted);
        prefetch(&self.drop);
    }

    /// Asks for its per-character buffers without waiting (see `Character::update_many`).
    pub(crate) fn prefetch(&self) {
        use crate::runtime::shared::prefetch;
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
        crate::runtime::shared::prefetch_lines(&self.params);
    }

    /// Asks for the feet's parameters of each group, once [`Gait::prefetch`] brought in
    /// the groups that point at them.
    pub(crate) fn prefetch_nested(&self) {
        for p in &self.params {
            crate::runtime::shared::prefetch_lines(&p.feet);
        }
        crate::runtime::shared::prefetch_lines(&self.layer_params.feet);
    }

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
        }
    }

    pub fn gear(&self) -> &Gear {
        &self.gear
    }

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

    /// Plants every foot under the body again (after a teleport).
    pub fn replant(&mut self) {
        self.planted = false;
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
            self.group_params_at(g, planar_speed, input);
        }
        let reference = self.gear.reference;
        let ref_speed = self.group_speed(reference, planar_speed, input.turn_rate);
        let ref_group = &self.gear.groups[reference];
        let stride = self.params[reference].stride.max(1e-3) * ref_group.length;
        let rate = ref_speed / stride;
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
        for (g, group) in self.gear.groups.iter().enumerate() {
            let group_cycle = style::fraction(self.cycle * group.ratio);
            let group_rate = rate * group.ratio;
            for (k, &limb_index) in group.limbs.iter().enumerate() {
                let limb = &self.gear.limbs[limb_index];
                if let Some((p, _)) = goals.position(limb.foot) {
                    // A clip owns this foot: stand it where the clip puts it, so the gait
                    // picks up from there when the clip lets go.
                    let w = input.world_from_character;
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
        // drop for the legs to reach.
        let root = creature.root();
        if self.gear.limbs.iter().all(|l| l.foot != root) {
            let (rise, tilt) = self.ride(creature, input, planar_speed);
            let rest_root = creature.body(root).position;
            let base = goals.position(root).map_or(rest_root, |(p, _)| p);
            self.lower_hips_to_reach(goals, dt, |attach| {
                base + Vec3::Y * rise + tilt * (attach - rest_root)
            });
            let offset = Vec3::Y * (rise - self.drop);
            apply_to_root(creature, goals, offset, tilt, &self.gear.riders);
        }
    }

    /// Lowers the hips when a planted (or landing) foot would otherwise be out of the leg's
    /// reach, as a walker bends its knees and drops its pelvis at long strides (paper 4.2:
    /// "the hips are translated … as the feet are moved"). The drop follows a foot at once
    /// and eases back up, so the legs never overreach and the body does not bob harshly.
    fn lower_hips_to_reach(&mut self, goals: &Goals, dt: f32, hip_at: impl Fn(Vec3) -> Vec3) {
        if self.gear.locomotion != Locomotion::Legs {
            return;
        }
        let mut needed = 0.0f32;
        for (limb, foot) in self.gear.limbs.iter().zip(&self.feet) {
            let Some((centre, _)) = goals.position(limb.foot) else {
                continue;
            };
            let rotation = goals
                .rotation(limb.foot)
                .map_or(limb.rest_rotation, |(r, _)| r);
            let ankle = centre + rotation * limb.reach_local;
            let weight = match foot.phase {
                FootPhase::Stance => 1.0,
                // A landing foot counts more the closer it is to touching down.
                FootPhase::Flight => foot.u * foot.u * (3.0 - 2.0 * foot.u),
            };
            let drop = legs::hip_drop_for(hip_at(limb.attach), ankle, limb.reach) - limb.rest_drop;
            needed = needed.max(weight * drop.max(0.0));
        }
        let limit = MAX_HIP_DROP
            * self
                .gear
                .groups
                .get(self.gear.reference)
                .map_or(0.0, |g| g.length);
        let target = needed.min(limit);
        self.drop = if target > self.drop {
            target
        } else {
            target + (self.drop - target) * (-dt / HIP_RISE_SECS).exp()
        };
    }

    /// The speed the group's feet move at: the body's, plus turning about the body's centre
    /// for the group's farthest foot.
    fn group_speed(&self, group: usize, planar_speed: f32, turn_rate: f32) -> f32 {
        planar_speed + turn_rate.abs() * self.gear.groups[group].turn_reach
    }

    /// Blends the style layers' parameters for a group at its speed.
    fn group_params_at(&mut self, g: usize, planar_speed: f32, input: &GaitInput) {
        let group = &self.gear.groups[g];
        let speed = self.group_speed(g, planar_speed, input.turn_rate) / group.length;
        let mut first = true;
        for layer in input
            .layers
            .iter()
            .filter(|l| l.group.is_none_or(|x| x == g))
        {
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
            input.layers[0]
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

    /// The body rides on the feet: it rises while feet swing, pitches and rolls with the
    /// ground under it and leans into turns.
    fn ride(&self, creature: &Creature, input: &GaitInput, planar_speed: f32) -> (f32, Quat) {
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
        let tilt = Quat::from_rotation_x(-pitch * body.follow_slope)
            * Quat::from_rotation_z(roll * body.follow_slope + lean);
        (rise, tilt)
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
