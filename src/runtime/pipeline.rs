//! The one pipeline (DESIGN.md): clip curves → `S` → blend → goals → pose. The editor, the
//! CLI, the validation grid and games all run a frame through [`Pipeline::run`].

use crate::runtime::bind::Binding;
use crate::runtime::clip::Clip;
use crate::runtime::creature::Creature;
use crate::runtime::eval::{EvalInput, Goals, Plan, pose_by_forward_kinematics};
use crate::runtime::pose::BodyPose;

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

/// One clip playing on one creature in one variant, with its per-frame buffers.
#[derive(Clone, Debug)]
pub struct Pipeline {
    plan: Plan,
    goals: Goals,
    pose: Vec<BodyPose>,
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
            pose: Vec::with_capacity(creature.len()),
        })
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Runs one frame; returns every body's pose in character space.
    pub fn run(&mut self, clip: &Clip, creature: &Creature, input: &EvalInput) -> &[BodyPose] {
        self.plan.evaluate(clip, creature, input, &mut self.goals);
        pose_by_forward_kinematics(creature, &self.goals, &mut self.pose);
        &self.pose
    }

    /// The goals of the last frame run.
    pub fn goals(&self) -> &Goals {
        &self.goals
    }

    pub fn pose(&self) -> &[BodyPose] {
        &self.pose
    }
}
