//! The player: what a game calls every frame for every character (paper section 4: "a
//! typical animation API … playback, caching, queueing, layering animations with weights").
//!
//! ```no_run
//! # use std::sync::Arc;
//! # use anymorph_runtime::player::{Character, PlayParams};
//! # fn demo(creature: anymorph_runtime::creature::Creature, wave: Arc<anymorph_runtime::clip::Clip>) {
//! let mut hero = Character::new(Arc::new(creature));
//! hero.play(&wave, PlayParams { fade_in_secs: 0.2, ..Default::default() }).ok();
//! for _frame in 0..60 {
//!     let pose = hero.update(1.0 / 60.0);
//!     // draw `pose` (character space) placed at `hero.world_from_character()`
//! #   let _ = pose;
//! }
//! # }
//! ```

mod blend;
mod instance;

pub use instance::{FiredEvent, PlayId};

use crate::action::Action;
use crate::bind::{Binding, Variant, bind};
use crate::clip::Clip;
use crate::creature::Creature;
use crate::eval::{EvalInput, Goals, Plan, StageTimes, Stopwatch};
use crate::gait::{Gait, GaitInput, GaitLayer, default_walk};
use crate::ik::IkDebug;
use crate::pipeline::PoseStage;
use crate::pose::BodyPose;
use crate::shared::PerCreature;
use crate::terrain::Terrain;
use blend::{LayerAccum, blend_layers};
use glam::{Quat, Vec3};
use instance::{Instance, InstanceSettings, Phase};
use std::sync::{Arc, OnceLock, Weak};
use thiserror::Error;

/// The longest step passed to secondary motion in one update.
pub const MAX_SIMULATION_STEP_SECS: f32 = 0.1;

/// Which variant to play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VariantChoice {
    /// The variant at this index in the clip's binding to the creature (see
    /// [`Character::variants`]); 0 is always there when the clip binds.
    Index(usize),
    /// The variant whose lead body (its first single-variant group's body) is closest to this
    /// world-space point now: the grasper nearest the fruit.
    ClosestTo(Vec3),
}

/// How to play a clip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayParams {
    /// Which variant of the clip plays (which leg waves, which hand grasps).
    pub variant: VariantChoice,
    /// Blend weight at full fade (0..=1).
    pub weight: f32,
    /// Time warp: 2 plays twice as fast; 0 freezes. Must be ≥ 0.
    pub speed: f32,
    /// Overrides the clip's own loop flag.
    pub looping: Option<bool>,
    /// Higher layers take weight first; lower layers get the rest.
    pub layer: i32,
    /// Add this clip's offsets from rest on top of the layers below instead of replacing them.
    pub additive: bool,
    /// Fade in over this long; playing on a layer crossfades out what was playing there.
    pub fade_in_secs: f32,
    /// A one-shot fades out over this long before its end.
    pub fade_out_secs: f32,
    /// A one-shot holds its last frame at the end instead of stopping.
    pub hold: bool,
    /// Start when what plays on the layer nears its end (crossfading over `fade_in_secs`).
    pub queue: bool,
    /// Clip-local time to start at.
    pub start_secs: f32,
}

impl Default for PlayParams {
    fn default() -> Self {
        PlayParams {
            variant: VariantChoice::Index(0),
            weight: 1.0,
            speed: 1.0,
            looping: None,
            layer: 0,
            additive: false,
            fade_in_secs: 0.0,
            fade_out_secs: 0.0,
            hold: false,
            queue: false,
            start_secs: 0.0,
        }
    }
}

/// Why [`Character::play`] or [`Character::play_action`] did not start anything. The
/// character is left as it was.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum PlayError {
    /// The clip's predicates or required channels rule this creature out (the bind phase).
    #[error("clip '{clip}' does not play on '{creature}': {reason}")]
    DoesNotBind {
        /// The clip's name.
        clip: String,
        /// The creature's name.
        creature: String,
        /// The binding's explanation, in a tester's words.
        reason: String,
    },
    /// [`VariantChoice::Index`] is past the clip's variants on this creature, or that
    /// variant's plan could not be built.
    #[error("clip '{clip}' has {count} variants on '{creature}'; there is no variant {variant}")]
    NoSuchVariant {
        /// The clip's name.
        clip: String,
        /// The creature's name.
        creature: String,
        /// The variant asked for.
        variant: usize,
        /// How many variants the clip has on this creature.
        count: usize,
    },
    /// A [`PlayParams`] field is out of range or not finite; the message names it.
    #[error("play parameters: {0}")]
    InvalidParams(String),
    /// No branch of the action binds to this creature (or the action has no branches).
    #[error("action '{action}' has no branch that plays on '{creature}': {reasons}")]
    NoBranch {
        /// The action's name.
        action: String,
        /// The creature's name.
        creature: String,
        /// Each branch's reason, `clip: reason`, joined by "; ".
        reasons: String,
    },
}

/// A clip's binding to a creature, with a plan per variant built on demand (ownership and
/// frames resolved once, paper 4.1). Cached per (clip, creature): every character of one
/// creature (`Arc`) playing one clip (`Arc`) reads the same one.
#[derive(Debug)]
struct CachedBinding {
    clip: Arc<Clip>,
    binding: Binding,
    plans: Vec<OnceLock<Option<Plan>>>,
}

/// A clip by identity (its `Arc`), as the key of the binding cache.
#[derive(Clone)]
struct ClipKey(Weak<Clip>);

impl PartialEq for ClipKey {
    fn eq(&self, other: &Self) -> bool {
        Weak::ptr_eq(&self.0, &other.0)
    }
}

static BINDINGS: PerCreature<ClipKey, CachedBinding> = PerCreature::new();

/// One animated character: a creature and the clips playing on it.
#[derive(Clone, Debug)]
pub struct Character {
    creature: Arc<Creature>,
    bindings: Vec<Arc<CachedBinding>>,
    instances: Vec<Instance>,
    next_id: u64,
    targets_world: Vec<Vec3>,
    targets: Vec<Vec3>,
    velocity: Vec3,
    turn_rate: f32,
    world_from_character: BodyPose,
    ground_height: f32,
    scratch: Goals,
    deforms: Vec<crate::eval::DeformValue>,
    layers: Vec<LayerAccum>,
    goals: Goals,
    gait: Gait,
    gait_layers: Vec<GaitLayer>,
    terrain: Terrain,
    stage: PoseStage,
    events: Vec<FiredEvent>,
}

impl Character {
    /// A character of `creature` standing at the world origin on flat ground, playing
    /// nothing and walking with the default gait when moved. Characters of one `Arc`'d
    /// creature share its bindings, plans and solver setup.
    pub fn new(creature: Arc<Creature>) -> Self {
        let n = creature.len();
        let stage = PoseStage::shared(&creature);
        let gait = Gait::shared(&creature);
        let goals = Goals::new(n);
        Character {
            creature,
            bindings: Vec::new(),
            instances: Vec::new(),
            next_id: 1,
            targets_world: Vec::new(),
            targets: Vec::new(),
            velocity: Vec3::ZERO,
            turn_rate: 0.0,
            world_from_character: BodyPose::IDENTITY,
            ground_height: 0.0,
            scratch: Goals::new(0),
            deforms: Vec::new(),
            layers: Vec::new(),
            goals,
            gait,
            gait_layers: vec![GaitLayer::new(default_walk())],
            terrain: Terrain::Flat,
            stage,
            events: Vec::new(),
        }
    }

    /// The creature this character animates.
    pub fn creature(&self) -> &Arc<Creature> {
        &self.creature
    }

    fn cached(&mut self, clip: &Arc<Clip>) -> usize {
        if let Some(i) = self
            .bindings
            .iter()
            .position(|b| Arc::ptr_eq(&b.clip, clip))
        {
            return i;
        }
        let creature = &self.creature;
        let key = ClipKey(Arc::downgrade(clip));
        let entry = BINDINGS.get(creature, &key, || {
            let binding = bind(clip, creature);
            CachedBinding {
                clip: Arc::clone(clip),
                plans: binding.variants.iter().map(|_| OnceLock::new()).collect(),
                binding,
            }
        });
        self.bindings.push(entry);
        self.bindings.len() - 1
    }

    /// The clip's binding to this character's creature (computed once, then cached).
    pub fn binding(&mut self, clip: &Arc<Clip>) -> &Binding {
        let i = self.cached(clip);
        &self.bindings[i].binding
    }

    /// The ways `clip` can play on this creature, indexed as [`VariantChoice::Index`];
    /// empty when the clip does not bind.
    pub fn variants(&mut self, clip: &Arc<Clip>) -> &[Variant] {
        &self.binding(clip).variants
    }

    /// The variant whose lead body is closest to `point_world` in the current pose.
    pub fn choose_variant(&mut self, clip: &Arc<Clip>, point_world: Vec3) -> Option<usize> {
        let point = self.to_character(point_world);
        let i = self.cached(clip);
        let pose = self.stage.pose();
        let creature = &self.creature;
        let at = |b: usize| {
            pose.get(b)
                .map_or(creature.body(b).position, |p| p.position)
        };
        self.bindings[i]
            .binding
            .variants
            .iter()
            .enumerate()
            .min_by(|(_, a), (_, b)| {
                let da = a
                    .choices
                    .first()
                    .map_or(0.0, |&x| at(x).distance_squared(point));
                let db = b
                    .choices
                    .first()
                    .map_or(0.0, |&x| at(x).distance_squared(point));
                da.total_cmp(&db)
            })
            .map(|(v, _)| v)
    }

    /// The branch of `action` that plays on this creature: the first whose clip binds. When
    /// none does, the error gives each branch's reason.
    pub fn action_branch(&mut self, action: &Action) -> Result<usize, PlayError> {
        action
            .first_branch(|clip| self.binding(clip).reason.clone())
            .map_err(|reasons| PlayError::NoBranch {
                action: action.name.clone(),
                creature: self.creature.name().to_string(),
                reasons: if reasons.is_empty() {
                    "it has no branches".into()
                } else {
                    reasons
                },
            })
    }

    /// Starts the branch of `action` that plays on this creature (see
    /// [`Character::action_branch`]) as [`Character::play`] starts a clip; returns the play
    /// and the branch's index.
    pub fn play_action(
        &mut self,
        action: &Action,
        params: PlayParams,
    ) -> Result<(PlayId, usize), PlayError> {
        let k = self.action_branch(action)?;
        let id = self.play(&action.branches[k], params)?;
        Ok((id, k))
    }

    /// Starts a clip. It plays from the next [`Character::update`].
    pub fn play(&mut self, clip: &Arc<Clip>, params: PlayParams) -> Result<PlayId, PlayError> {
        let checks = [
            (
                params.weight.is_finite() && (0.0..=1.0).contains(&params.weight),
                "weight must be between 0 and 1",
            ),
            (
                params.speed.is_finite() && params.speed >= 0.0,
                "speed must be a finite number ≥ 0",
            ),
            (
                params.fade_in_secs.is_finite() && params.fade_in_secs >= 0.0,
                "fade_in_secs must be ≥ 0",
            ),
            (
                params.fade_out_secs.is_finite() && params.fade_out_secs >= 0.0,
                "fade_out_secs must be ≥ 0",
            ),
            (params.start_secs.is_finite(), "start_secs must be finite"),
        ];
        if let Some((_, why)) = checks.iter().find(|(ok, _)| !ok) {
            return Err(PlayError::InvalidParams((*why).to_string()));
        }
        let variant = match params.variant {
            VariantChoice::Index(v) => v,
            VariantChoice::ClosestTo(p) => self.choose_variant(clip, p).unwrap_or(0),
        };
        let i = self.cached(clip);
        let entry = &self.bindings[i];
        if let Some(reason) = &entry.binding.reason {
            return Err(PlayError::DoesNotBind {
                clip: clip.name.clone(),
                creature: self.creature.name().to_string(),
                reason: reason.clone(),
            });
        }
        let count = entry.binding.variants.len();
        let Some(slot) = entry.plans.get(variant) else {
            return Err(PlayError::NoSuchVariant {
                clip: clip.name.clone(),
                creature: self.creature.name().to_string(),
                variant,
                count,
            });
        };
        let built = slot.get_or_init(|| Plan::new(clip, &self.creature, &entry.binding, variant));
        // The clone shares the plan's tracks and has buffers of its own.
        let Some(plan) = built.clone() else {
            return Err(PlayError::NoSuchVariant {
                clip: clip.name.clone(),
                creature: self.creature.name().to_string(),
                variant,
                count,
            });
        };
        let queued = params.queue
            && self.instances.iter().any(|x| {
                x.layer == params.layer
                    && x.additive == params.additive
                    && x.phase != Phase::Stopping
            });
        if !queued {
            for other in &mut self.instances {
                if other.layer == params.layer && other.additive == params.additive {
                    other.stop(params.fade_in_secs);
                }
            }
        }
        let id = PlayId(self.next_id);
        self.next_id += 1;
        let looping = params.looping.unwrap_or(clip.looping);
        let start = if looping {
            params.start_secs.rem_euclid(clip.duration_secs)
        } else {
            params.start_secs.clamp(0.0, clip.duration_secs)
        };
        self.instances.push(Instance::new(
            id,
            Arc::clone(clip),
            plan,
            InstanceSettings {
                layer: params.layer,
                additive: params.additive,
                weight: params.weight,
                speed: params.speed,
                looping,
                fade_in_secs: params.fade_in_secs,
                fade_out_secs: params.fade_out_secs,
                hold: params.hold,
                start_secs: start,
                queued,
            },
        ));
        Ok(id)
    }

    /// Fades a playing clip out; false if it is not playing.
    pub fn stop(&mut self, id: PlayId, fade_out_secs: f32) -> bool {
        let fade = if fade_out_secs.is_finite() {
            fade_out_secs.max(0.0)
        } else {
            0.0
        };
        match self.instances.iter_mut().find(|x| x.id == id) {
            Some(x) => {
                x.stop(fade);
                true
            }
            None => false,
        }
    }

    /// Fades out everything on a layer.
    pub fn stop_layer(&mut self, layer: i32, fade_out_secs: f32) {
        let fade = if fade_out_secs.is_finite() {
            fade_out_secs.max(0.0)
        } else {
            0.0
        };
        self.instances
            .iter_mut()
            .filter(|x| x.layer == layer)
            .for_each(|x| x.stop(fade));
    }

    /// Fades out every clip on every layer, queued ones included.
    pub fn stop_all(&mut self, fade_out_secs: f32) {
        let fade = if fade_out_secs.is_finite() {
            fade_out_secs.max(0.0)
        } else {
            0.0
        };
        self.instances.iter_mut().for_each(|x| x.stop(fade));
    }

    /// Whether the clip is still playing or queued (a fading-out clip counts until it is gone).
    pub fn is_playing(&self, id: PlayId) -> bool {
        self.instances.iter().any(|x| x.id == id)
    }

    /// Clip-local time and effective weight of a playing clip.
    pub fn play_state(&self, id: PlayId) -> Option<(f32, f32)> {
        self.instances
            .iter()
            .find(|x| x.id == id)
            .map(|x| (x.time_secs, x.effective_weight()))
    }

    /// Sets external target `index` (world space) for secondary-relative and look-at channels.
    pub fn set_target(&mut self, index: usize, position_world: Vec3) {
        if !position_world.is_finite() {
            return;
        }
        if self.targets_world.len() <= index {
            self.targets_world.resize(index + 1, position_world);
        }
        self.targets_world[index] = position_world;
    }

    /// Locomotion input: velocity in character space (+Z forward, m/s) and turn rate about +Y
    /// (rad/s). Moves the character through the world; the gait system plants its feet.
    pub fn set_locomotion(&mut self, velocity: Vec3, turn_rate: f32) {
        if velocity.is_finite() && turn_rate.is_finite() {
            self.velocity = velocity;
            self.turn_rate = turn_rate;
        }
    }

    /// The locomotion input last set: velocity in character space (m/s) and turn rate
    /// about +Y (rad/s).
    pub fn locomotion(&self) -> (Vec3, f32) {
        (self.velocity, self.turn_rate)
    }

    /// Places the character in the world (a teleport).
    pub fn set_world_from_character(&mut self, pose: BodyPose) {
        if pose.is_finite() {
            self.world_from_character = BodyPose::new(pose.position, pose.rotation.normalize());
            self.gait.replant();
        }
    }

    /// The ground the character walks on; its frame follows the ground's height.
    pub fn set_terrain(&mut self, terrain: Terrain) {
        self.terrain = terrain;
    }

    /// The ground the character walks on.
    pub fn terrain(&self) -> &Terrain {
        &self.terrain
    }

    /// The gait styles to walk with, the first at full weight and each later one laid over
    /// it by its weight (a limp over a walk). An empty list turns the gait off.
    pub fn set_gait_layers(&mut self, layers: Vec<GaitLayer>) {
        self.gait_layers = layers;
    }

    /// The gait styles the character walks with, base first.
    pub fn gait_layers(&self) -> &[GaitLayer] {
        &self.gait_layers
    }

    /// The gait's state: leg groups and where each foot is in its cycle.
    pub fn gait(&self) -> &Gait {
        &self.gait
    }

    /// Where the character is in the world: maps character space to world space. Moved by
    /// the locomotion input each update, its height following the terrain.
    pub fn world_from_character(&self) -> BodyPose {
        self.world_from_character
    }

    /// Height of the ground under the character, in character space.
    pub fn set_ground_height(&mut self, height: f32) {
        if height.is_finite() {
            self.ground_height = height;
        }
    }

    fn to_character(&self, world: Vec3) -> Vec3 {
        let w = self.world_from_character;
        w.rotation.inverse() * (world - w.position)
    }

    /// Advances every clip by `dt` seconds and poses the character. Returns every body's
    /// pose in character space.
    pub fn update(&mut self, dt_secs: f32) -> &[BodyPose] {
        self.update_with(dt_secs, None);
        self.stage.pose()
    }

    /// [`Character::update`] for every character of a crowd, in order, calling `input` with
    /// each one's index and itself just before (to set its targets or locomotion for the
    /// frame). Same poses as calling them one by one, faster: while one character updates,
    /// the processor is asked for the memory of the next few, which a whole frame of other
    /// characters has pushed out of its caches (a crowd of 10,000 runs about 4 % faster).
    ///
    /// To use several threads, hand each a contiguous run of the characters
    /// (`par_chunks_mut` in rayon, as `anymorph bench` does).
    pub fn update_many(
        characters: &mut [Character],
        dt_secs: f32,
        mut input: impl FnMut(usize, &mut Character),
    ) {
        // Three steps, each one character nearer: a character's buffers are found through
        // its struct and its clips' buffers through its clips, so each step reads
        // addresses the step before brought in, and none waits.
        for i in 0..characters.len() {
            if let Some(c) = characters.get(i + 3) {
                c.prefetch_struct();
            }
            if let Some(c) = characters.get(i + 2) {
                c.prefetch_buffers();
            }
            if let Some(c) = characters.get(i + 1) {
                c.prefetch_clip_buffers();
            }
            let ch = &mut characters[i];
            input(i, ch);
            ch.update_with(dt_secs, None);
        }
    }

    /// Asks for the struct's own lines (see [`Character::update_many`]). It spans about
    /// seventeen, laid out as the compiler likes: each field is asked for by its address,
    /// and a field that is itself a struct of several lines by its own fields (its address
    /// brings only its first line, and the frame then waited on the rest).
    fn prefetch_struct(&self) {
        use crate::shared::prefetch;
        prefetch(&self.creature);
        prefetch(&self.bindings);
        prefetch(&self.instances);
        prefetch(&self.next_id);
        prefetch(&self.targets_world);
        prefetch(&self.targets);
        prefetch(&self.velocity);
        prefetch(&self.turn_rate);
        prefetch(&self.world_from_character.position);
        prefetch(&self.world_from_character.rotation);
        prefetch(&self.ground_height);
        prefetch(&self.deforms);
        prefetch(&self.layers);
        self.goals.prefetch_struct();
        prefetch(&self.gait_layers);
        prefetch(&self.terrain);
        prefetch(&self.events);
        self.gait.prefetch_struct();
        self.stage.prefetch_struct();
    }

    /// Asks for the buffers the character itself holds (see [`Character::update_many`]).
    fn prefetch_buffers(&self) {
        use crate::shared::prefetch_lines;
        for i in &self.instances {
            i.prefetch_struct();
        }
        prefetch_lines(&self.targets_world);
        prefetch_lines(&self.targets);
        prefetch_lines(&self.layers);
        self.goals.prefetch();
        self.gait.prefetch();
        self.stage.prefetch();
    }

    /// Asks for the buffers held by what it holds: its clips', the jiggle states it will
    /// read and, when several clips blend, the layers'.
    fn prefetch_clip_buffers(&self) {
        self.stage.prefetch_nested();
        self.gait.prefetch_nested();
        for i in &self.instances {
            i.plan.prefetch();
        }
        if self.instances.len() > 1 {
            self.scratch.prefetch();
            for l in &self.layers {
                l.prefetch();
            }
        }
    }

    /// [`Character::update`], adding the time of each pipeline stage to `times`.
    pub fn update_timed(&mut self, dt_secs: f32, times: &mut StageTimes) -> &[BodyPose] {
        self.update_with(dt_secs, Some(times));
        self.stage.pose()
    }

    fn update_with(&mut self, dt_secs: f32, mut times: Option<&mut StageTimes>) {
        // Clocks advance by the real frame time (a hitch still passes its events); the
        // simulated secondary motion gets a capped step so a hitch cannot blow it up.
        let dt = if dt_secs.is_finite() {
            dt_secs.max(0.0)
        } else {
            0.0
        };
        let sim_dt = dt.min(MAX_SIMULATION_STEP_SECS);
        self.events.clear();
        self.start_queued();
        for inst in &mut self.instances {
            inst.advance(dt, &mut self.events);
        }
        self.instances.retain(|x| !x.is_finished());

        let w = &mut self.world_from_character;
        // Most characters do not turn: no sine and cosine for them.
        let turn = self.turn_rate * dt;
        w.rotation = if turn != 0.0 {
            Quat::from_rotation_y(turn) * w.rotation
        } else {
            w.rotation
        }
        .normalize();
        w.position += w.rotation * self.velocity * dt;
        w.position.y = self.terrain.height(w.position.x, w.position.z);
        self.targets.clear();
        let inverse = self.world_from_character.rotation.inverse();
        let origin = self.world_from_character.position;
        self.targets
            .extend(self.targets_world.iter().map(|&t| inverse * (t - origin)));

        // One clip at full weight (the common case): its goals are the blend, exactly.
        if let [only] = self.instances.as_mut_slice()
            && !only.additive
            && only.effective_weight() >= 1.0
        {
            let input = EvalInput {
                time_secs: only.time_secs,
                external_targets: &self.targets,
                ground_height: self.ground_height,
                dt_secs: sim_dt,
            };
            only.plan.evaluate_timed(
                &only.clip,
                &self.creature,
                &input,
                &mut self.goals,
                times.as_deref_mut(),
            );
            self.finish_frame(dt, sim_dt, times);
            return;
        }
        for l in &mut self.layers {
            l.clear();
        }
        self.deforms.clear();
        // Made on the first blend: a character that plays one clip at a time never needs
        // it, and in a crowd its buffers sat between the ones every frame reads, spreading
        // them over more pages (each page's first touch in a frame waits on the page tables).
        if self.scratch.len() != self.creature.len() {
            self.scratch = Goals::new(self.creature.len());
        }
        for inst in &mut self.instances {
            let weight = inst.effective_weight();
            if weight <= 0.0 {
                continue;
            }
            let input = EvalInput {
                time_secs: inst.time_secs,
                external_targets: &self.targets,
                ground_height: self.ground_height,
                dt_secs: sim_dt,
            };
            inst.plan.evaluate_timed(
                &inst.clip,
                &self.creature,
                &input,
                &mut self.scratch,
                times.as_deref_mut(),
            );
            let mut watch = Stopwatch::start(times.is_some());
            let layer = match self
                .layers
                .iter()
                .position(|l| l.layer == inst.layer && l.additive == inst.additive)
            {
                Some(i) => i,
                None => {
                    self.layers.push(LayerAccum::new(
                        inst.layer,
                        inst.additive,
                        self.creature.len(),
                    ));
                    self.layers.len() - 1
                }
            };
            self.layers[layer].add(&self.creature, &self.scratch, weight);
            self.deforms.extend(self.scratch.deforms.iter().map(|d| {
                let mut d = *d;
                d.value *= weight;
                d
            }));
            if let Some(t) = times.as_deref_mut() {
                watch.lap(&mut t.blend);
            }
        }
        let mut watch = Stopwatch::start(times.is_some());
        blend_layers(&self.creature, &mut self.layers, &mut self.goals);
        self.goals.deforms.extend_from_slice(&self.deforms);
        if let Some(t) = times.as_deref_mut() {
            watch.lap(&mut t.blend);
        }
        self.finish_frame(dt, sim_dt, times);
    }

    /// Gait on top of the blended clips, then IK and jiggles.
    fn finish_frame(&mut self, dt: f32, sim_dt: f32, mut times: Option<&mut StageTimes>) {
        self.goals.ground_height = self.ground_height;
        let mut watch = Stopwatch::start(times.is_some());
        let input = GaitInput {
            dt_secs: dt,
            world_from_character: self.world_from_character,
            velocity: self.velocity,
            turn_rate: self.turn_rate,
            terrain: &self.terrain,
            layers: &self.gait_layers,
        };
        self.gait.update(&self.creature, &input, &mut self.goals);
        if let Some(t) = times.as_deref_mut() {
            watch.lap(&mut t.gait);
        }
        self.stage
            .run_timed(&self.creature, &self.goals, sim_dt, times);
    }

    /// Starts a queued clip once what plays on its layer is within its fade of the end.
    fn start_queued(&mut self) {
        for q in 0..self.instances.len() {
            if self.instances[q].phase != Phase::Queued {
                continue;
            }
            let (layer, additive, fade) = {
                let x = &self.instances[q];
                (x.layer, x.additive, x.fade_in_secs)
            };
            let same_layer = |x: &Instance| x.layer == layer && x.additive == additive;
            // A queue plays in order: wait for clips queued earlier on the layer.
            if self.instances[..q]
                .iter()
                .any(|x| same_layer(x) && x.phase == Phase::Queued)
            {
                continue;
            }
            let ready = self
                .instances
                .iter()
                .filter(|x| same_layer(x) && x.phase == Phase::Playing)
                .all(|x| x.time_to_end() <= fade.max(1e-6));
            if ready {
                for (i, x) in self.instances.iter_mut().enumerate() {
                    if i != q
                        && x.layer == layer
                        && x.additive == additive
                        && x.phase == Phase::Playing
                    {
                        x.stop(fade);
                    }
                }
                self.instances[q].begin_fade_in();
            }
        }
    }

    /// Events fired by the last update, in the order they were passed.
    pub fn events(&self) -> &[FiredEvent] {
        &self.events
    }

    /// The blended goals of the last update.
    pub fn goals(&self) -> &Goals {
        &self.goals
    }

    /// Every body's pose in character space after the last update.
    pub fn pose(&self) -> &[BodyPose] {
        self.stage.pose()
    }

    /// A body's pose in world space after the last update.
    pub fn world_pose(&self, body: usize) -> Option<BodyPose> {
        let p = self.stage.pose().get(body)?;
        let w = self.world_from_character;
        Some(BodyPose::new(
            w.position + w.rotation * p.position,
            w.rotation * p.rotation,
        ))
    }

    /// What the last solve did; empty unless [`Character::record_ik_debug`] is on.
    pub fn ik_debug(&self) -> &IkDebug {
        self.stage.ik_debug()
    }

    /// Switches the IK debug record on (off by default: a game rarely draws it).
    pub fn record_ik_debug(&mut self, on: bool) {
        self.stage.record_ik_debug(on);
    }
}
