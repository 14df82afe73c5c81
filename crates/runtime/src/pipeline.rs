//! The one pipeline (DESIGN.md): clip curves → `S` → blend → goals → IK → jiggles → pose.
//! The editor, the CLI, the validation grid and games all run a frame through these stages.

use crate::bind::Binding;
use crate::clip::Clip;
use crate::creature::Creature;
use crate::eval::{EvalInput, Goals, Plan, StageTimes, Stopwatch};
use crate::gait::{Gait, GaitInput, GaitLayer, default_walk};
use crate::ik::{IkDebug, IkSolver, IkTuning};
use crate::jiggle::Jiggles;
use crate::pose::BodyPose;
use crate::terrain::Terrain;
use std::sync::Arc;

/// Maps a time on the playback clock to clip-local time: wrapped for a looping clip,
/// clamped otherwise. A non-finite time maps to the start.
pub fn clip_local_time(clip: &Clip, time_secs: f32) -> f32 {
    if !time_secs.is_finite() {
        return 0.0;
    }
    if clip.looping {
        time_secs.rem_euclid(clip.duration_secs)
    } else {
        time_secs.clamp(0.0, clip.duration_secs)
    }
}

/// Goals to pose: IK, then passive secondary motion. One per character; it keeps the
/// solver's buffers and the jiggle state between frames.
#[derive(Clone, Debug)]
pub struct PoseStage {
    ik: IkSolver,
    jiggles: Jiggles,
    pose: Vec<BodyPose>,
}

impl PoseStage {
    /// Asks for its per-character buffers without waiting (see `Character::update_many`).
    pub(crate) fn prefetch(&self) {
        crate::shared::prefetch_lines(&self.pose);
        self.jiggles.prefetch();
        self.ik.prefetch();
    }

    /// Asks for its fields (see `Character::update_many`).
    pub(crate) fn prefetch_struct(&self) {
        self.jiggles.prefetch_struct();
        crate::shared::prefetch(&self.pose);
        self.ik.prefetch_struct();
    }

    /// What [`PoseStage::prefetch`] brought in points at.
    pub(crate) fn prefetch_nested(&self) {
        self.jiggles.prefetch_states();
    }

    /// A stage for `creature` with the default tuning, compiling its own solver plans
    /// (see [`PoseStage::shared`] for a crowd).
    pub fn new(creature: &Creature) -> Self {
        Self::with_tuning(creature, IkTuning::default())
    }

    /// A stage whose solver and jiggles share what they compile with every other stage made
    /// this way for the same creature `Arc` (see [`IkSolver::shared`], [`Jiggles::shared`]):
    /// what a character uses.
    pub fn shared(creature: &Arc<Creature>) -> Self {
        let tuning = IkTuning::default();
        PoseStage {
            jiggles: Jiggles::shared(creature, &tuning.jiggle),
            ik: IkSolver::shared(creature, tuning),
            pose: Vec::with_capacity(creature.len()),
        }
    }

    /// A stage with its own IK and jiggle tuning.
    pub fn with_tuning(creature: &Creature, tuning: IkTuning) -> Self {
        PoseStage {
            jiggles: Jiggles::new(creature, &tuning.jiggle),
            ik: IkSolver::with_tuning(creature, tuning),
            pose: Vec::with_capacity(creature.len()),
        }
    }

    /// Poses every body in character space. `dt_secs` is the time since the previous
    /// frame, for jiggles; 0 holds them (a paused editor).
    pub fn run(&mut self, creature: &Creature, goals: &Goals, dt_secs: f32) -> &[BodyPose] {
        self.run_timed(creature, goals, dt_secs, None)
    }

    /// [`PoseStage::run`], adding the time of IK and jiggles to `times` when given.
    pub fn run_timed(
        &mut self,
        creature: &Creature,
        goals: &Goals,
        dt_secs: f32,
        mut times: Option<&mut StageTimes>,
    ) -> &[BodyPose] {
        let mut watch = Stopwatch::start(times.is_some());
        if self.jiggles.poses_every_free_body(creature.len()) {
            self.ik.solve_ik_bodies(creature, goals, &mut self.pose);
        } else {
            self.ik.solve(creature, goals, &mut self.pose);
        }
        if let Some(t) = times.as_deref_mut() {
            watch.lap(&mut t.ik);
        }
        // Jiggles read the solved pose and write only the bodies without IK: nothing
        // flows back into the solver or the goals.
        self.jiggles.apply(
            self.ik.has_ik(),
            &mut self.pose,
            dt_secs,
            goals.ground_height,
        );
        if let Some(t) = times {
            watch.lap(&mut t.jiggle);
        }
        &self.pose
    }

    /// Every body's pose in character space from the last run.
    pub fn pose(&self) -> &[BodyPose] {
        &self.pose
    }

    /// What the last solve did; empty unless [`PoseStage::record_ik_debug`] is on.
    pub fn ik_debug(&self) -> &IkDebug {
        self.ik.debug()
    }

    /// Switches the IK debug record on for overlays and reports (off by default).
    pub fn record_ik_debug(&mut self, on: bool) {
        self.ik.set_record_debug(on);
    }

    /// Whether each body had IK in the last frame (jiggles moved the others).
    pub fn has_ik(&self) -> &[bool] {
        self.ik.has_ik()
    }

    /// The IK and jiggle tuning the stage runs with.
    pub fn tuning(&self) -> &IkTuning {
        self.ik.tuning()
    }

    /// Replaces the IK and jiggle tuning; takes effect from the next frame.
    pub fn set_tuning(&mut self, creature: &Creature, tuning: IkTuning) {
        self.jiggles.set_tuning(creature, &tuning.jiggle);
        *self.ik.tuning_mut() = tuning;
    }

    /// Forgets the jiggles' motion (after a cut or a teleport the game knows about).
    pub fn reset_jiggles(&mut self) {
        self.jiggles.reset();
    }
}

/// One clip playing on one creature in one variant: what the editor previews, the CLI
/// evaluates and the validation grid checks.
#[derive(Clone, Debug)]
pub struct Pipeline {
    plan: Plan,
    goals: Goals,
    gait: Gait,
    gait_layers: Vec<GaitLayer>,
    stage: PoseStage,
}

impl Pipeline {
    /// `None` when the clip does not bind or the variant does not exist.
    pub fn new(
        clip: &Clip,
        creature: &Creature,
        binding: &Binding,
        variant: usize,
    ) -> Option<Self> {
        Some(Pipeline {
            plan: Plan::new(clip, creature, binding, variant)?,
            goals: Goals::new(creature.len()),
            gait: Gait::new(creature),
            gait_layers: vec![GaitLayer::new(default_walk())],
            stage: PoseStage::new(creature),
        })
    }

    /// The clip's plan in this pipeline's variant.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Runs one frame; returns every body's pose in character space.
    pub fn run(&mut self, clip: &Clip, creature: &Creature, input: &EvalInput) -> &[BodyPose] {
        self.run_timed(clip, creature, input, None)
    }

    /// [`Pipeline::run`], adding the time of each stage to `times` when given (the
    /// editor's status bar).
    pub fn run_timed(
        &mut self,
        clip: &Clip,
        creature: &Creature,
        input: &EvalInput,
        mut times: Option<&mut StageTimes>,
    ) -> &[BodyPose] {
        self.plan
            .evaluate_timed(clip, creature, input, &mut self.goals, times.as_deref_mut());
        let mut watch = Stopwatch::start(times.is_some());
        // A creature previewed in place stands on its feet exactly as a game character
        // that is not moving does.
        let gait = GaitInput {
            dt_secs: input.dt_secs,
            world_from_character: BodyPose::IDENTITY,
            velocity: glam::Vec3::ZERO,
            turn_rate: 0.0,
            terrain: &Terrain::Flat,
            layers: &self.gait_layers,
        };
        self.gait.update(creature, &gait, &mut self.goals);
        if let Some(t) = times.as_deref_mut() {
            watch.lap(&mut t.gait);
        }
        self.stage
            .run_timed(creature, &self.goals, input.dt_secs, times)
    }

    /// The goals of the last frame run.
    pub fn goals(&self) -> &Goals {
        &self.goals
    }

    /// Every body's pose in character space from the last frame run.
    pub fn pose(&self) -> &[BodyPose] {
        self.stage.pose()
    }

    /// What the last solve did; empty unless [`Pipeline::record_ik_debug`] is on.
    pub fn ik_debug(&self) -> &IkDebug {
        self.stage.ik_debug()
    }

    /// Switches the IK debug record on (the editor's overlays draw it).
    pub fn record_ik_debug(&mut self, on: bool) {
        self.stage.record_ik_debug(on);
    }
}
