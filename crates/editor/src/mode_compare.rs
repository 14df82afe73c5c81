//! After a movement-mode change, every creature shows for a moment the pose the clip gave
//! it under the old mode, so the animator sees what the change did on each morphology
//! (issue 49, item 5). The old pose comes from the runtime's own [`Pipeline`] run on a
//! copy of the clip as it was before the edit (DESIGN.md's one-pipeline rule). It lives
//! beside the document, not in it: showing it neither marks the project unsaved nor adds
//! an undo step.

use crate::document::Document;
use anymorph_runtime::bind::bind;
use anymorph_runtime::clip::Clip;
use anymorph_runtime::eval::EvalInput;
use anymorph_runtime::pipeline::{Pipeline, clip_local_time};
use anymorph_runtime::pose::BodyPose;

/// Long enough to look from one creature to the next, short enough not to linger as
/// clutter once the animator has moved on.
pub const MODE_COMPARISON_SECS: f64 = 1.5;

/// The clip before a mode change and, per creature, the pipeline that plays it.
#[derive(Clone, Debug)]
pub struct ModeComparison {
    old_clip: Clip,
    /// Per roster entry; `None` where the old clip does not play.
    pipelines: Vec<Option<Pipeline>>,
    started_secs: f64,
    /// The clip revision the change produced: any later clip edit (undo included) makes
    /// the comparison stale, and it is dropped rather than shown against the wrong clip.
    clip_revision: u64,
    /// The old-mode pose of each creature at the playhead, character space, as of the last
    /// [`ModeComparison::update`].
    pub poses: Vec<Option<Vec<BodyPose>>>,
    /// 1 when the change was made, fading linearly to 0 at [`MODE_COMPARISON_SECS`].
    pub opacity: f32,
}

impl ModeComparison {
    /// Starts a comparison against `old_clip`, `doc` being the document after the change
    /// and `now_secs` the wall clock.
    pub fn new(doc: &Document, old_clip: Clip, now_secs: f64) -> Self {
        let pipelines = doc
            .roster
            .iter()
            .map(|entry| {
                let binding = bind(&old_clip, &entry.creature);
                Pipeline::new(&old_clip, &entry.creature, &binding, entry.variant)
            })
            .collect();
        ModeComparison {
            old_clip,
            poses: Vec::new(),
            pipelines,
            started_secs: now_secs,
            clip_revision: doc.revisions.clip,
            opacity: 1.0,
        }
    }

    /// Poses every creature under the old clip at `clock_secs` on the playback clock.
    /// Returns `false` once the moment has passed or the clip changed again: drop it then.
    pub fn update(&mut self, doc: &Document, clock_secs: f32, now_secs: f64) -> bool {
        let elapsed = now_secs - self.started_secs;
        if !(0.0..MODE_COMPARISON_SECS).contains(&elapsed)
            || doc.revisions.clip != self.clip_revision
            || self.pipelines.len() != doc.roster.len()
        {
            return false;
        }
        self.opacity = (1.0 - elapsed / MODE_COMPARISON_SECS) as f32;
        let input = EvalInput {
            time_secs: clip_local_time(&self.old_clip, clock_secs),
            external_targets: doc.shown_targets(),
            ground_height: 0.0,
            // A still comparison of two poses: no jiggle carried from frame to frame.
            dt_secs: 0.0,
        };
        let clip = &self.old_clip;
        // A fresh copy each frame: the solver starts from its last pose, so a pipeline run
        // again and again would drift from the one-frame pose of the old clip as the frames
        // go by, and the comparison would show the history rather than the clip.
        self.poses = self
            .pipelines
            .iter()
            .zip(&doc.roster)
            .map(|(pipeline, entry)| {
                pipeline
                    .clone()
                    .map(|mut p| p.run(clip, &entry.creature, &input).to_vec())
            })
            .collect();
        true
    }
}
