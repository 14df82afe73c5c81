//! The live preview: one runtime [`Pipeline`] per creature, rebuilt when the clip, the roster
//! or a variant changes and run every frame. The editor only calls the runtime (DESIGN.md's
//! one-pipeline rule); it never computes a pose itself.

use crate::editor::document::{Document, Revisions};
use crate::editor::layout;
use crate::runtime::bind::{Binding, bind};
use crate::runtime::clip::Clip;
use crate::runtime::creature::{BodyId, Creature};
use crate::runtime::eval::{EvalInput, StageTimes};
use crate::runtime::pipeline::{Pipeline, clip_local_time};
use crate::runtime::pose::BodyPose;
use glam::Vec3;
use std::time::Instant;

/// Samples per second of clip when tracing a channel's curve in space.
const CURVE_SAMPLES_PER_SEC: f32 = 60.0;
const MAX_CURVE_SAMPLES: usize = 400;

/// The active channel's curve on one body: specialized goal positions over the clip.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CurveTrace {
    pub body: BodyId,
    /// Character space, in time order.
    pub points: Vec<Vec3>,
    /// Where the keys fall, character space.
    pub keys: Vec<Vec3>,
}

/// One creature's preview state.
#[derive(Clone, Debug)]
pub struct CreaturePreview {
    pub binding: Binding,
    /// `None` when the clip does not bind (the creature stands at rest).
    pub pipeline: Option<Pipeline>,
    /// Character space, one per body.
    pub pose: Vec<BodyPose>,
    /// World = character + offset.
    pub offset: Vec3,
    pub curves: Vec<CurveTrace>,
}

impl CreaturePreview {
    pub fn binds(&self) -> bool {
        self.binding.binds()
    }
}

/// Where the preview's time goes, for the status bar.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PreviewTimes {
    /// Binding the clip to every creature and building plans (only when something changed).
    pub bind_us: f32,
    /// `Pipeline::run` on every creature this frame, measured around the calls.
    pub evaluate_us: f32,
    /// The runtime's own per-stage split of this frame, summed over creatures (ns).
    pub stages: StageTimes,
    /// Tracing the active channel's curves (only when something changed).
    pub trace_us: f32,
}

/// What the preview was built from, to know when to rebuild.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BuiltFrom {
    revisions: Revisions,
    active_channel: Option<usize>,
}

/// Every creature's preview, in roster order.
#[derive(Debug, Default)]
pub struct Preview {
    pub creatures: Vec<CreaturePreview>,
    built: Option<BuiltFrom>,
    traced: Option<BuiltFrom>,
    pub times: PreviewTimes,
}

impl Preview {
    /// Rebinds and re-plans what the document's changes made stale.
    pub fn sync(&mut self, doc: &Document, active_channel: Option<usize>) {
        let now = BuiltFrom {
            revisions: doc.revisions,
            active_channel,
        };
        let Some(before) = self.built else {
            self.rebind(doc);
            self.built = Some(now);
            return;
        };
        if before.revisions.clip != now.revisions.clip
            || before.revisions.roster != now.revisions.roster
            || self.creatures.len() != doc.roster.len()
        {
            self.rebind(doc);
        } else if before.revisions.variants != now.revisions.variants {
            self.replan(doc);
        }
        self.built = Some(now);
    }

    fn rebind(&mut self, doc: &Document) {
        let start = Instant::now();
        let offsets = layout::side_by_side(
            &doc.roster
                .iter()
                .map(|e| e.creature.bounds())
                .collect::<Vec<_>>(),
        );
        self.creatures = doc
            .roster
            .iter()
            .zip(offsets)
            .map(|(entry, offset)| {
                let binding = match doc.shown_clip() {
                    Some(clip) => bind(clip, &entry.creature),
                    None => Binding {
                        reason: Some("the project has no clip".into()),
                        selections: Vec::new(),
                        variants: Vec::new(),
                    },
                };
                let pipeline = doc
                    .shown_clip()
                    .and_then(|clip| Pipeline::new(clip, &entry.creature, &binding, entry.variant))
                    .map(with_ik_debug);
                CreaturePreview {
                    binding,
                    pipeline,
                    pose: rest_pose(&entry.creature),
                    offset,
                    curves: Vec::new(),
                }
            })
            .collect();
        self.traced = None;
        self.times.bind_us = start.elapsed().as_secs_f32() * 1e6;
        log::debug!(
            "bound '{}' to {} creatures in {:.0} µs",
            doc.shown_clip().map_or("", |c| c.name.as_str()),
            self.creatures.len(),
            self.times.bind_us
        );
    }

    fn replan(&mut self, doc: &Document) {
        let start = Instant::now();
        for (p, entry) in self.creatures.iter_mut().zip(&doc.roster) {
            p.pipeline = doc
                .shown_clip()
                .and_then(|clip| Pipeline::new(clip, &entry.creature, &p.binding, entry.variant))
                .map(with_ik_debug);
            if p.pipeline.is_none() {
                p.pose = rest_pose(&entry.creature);
            }
        }
        self.traced = None;
        self.times.bind_us = start.elapsed().as_secs_f32() * 1e6;
    }

    /// Runs every creature's pipeline at `clock_secs` on the playback clock.
    pub fn evaluate(&mut self, doc: &Document, clock_secs: f32, dt_secs: f32) {
        let Some(clip) = doc.shown_clip() else {
            return;
        };
        let input = EvalInput {
            time_secs: clip_local_time(clip, clock_secs),
            external_targets: doc.shown_targets(),
            ground_height: 0.0,
            dt_secs,
        };
        let start = Instant::now();
        let mut stages = StageTimes::default();
        for (p, entry) in self.creatures.iter_mut().zip(&doc.roster) {
            if let Some(pipeline) = &mut p.pipeline {
                let pose = pipeline.run_timed(clip, &entry.creature, &input, Some(&mut stages));
                p.pose.clear();
                p.pose.extend_from_slice(pose);
            }
        }
        self.times.evaluate_us = start.elapsed().as_secs_f32() * 1e6;
        self.times.stages = stages;
    }

    /// Traces the active channel's curve on every creature when it went stale: its
    /// bodies' goals over the whole clip, from a copy of each creature's pipeline.
    pub fn trace_curves(&mut self, doc: &Document, active_channel: Option<usize>) {
        let now = BuiltFrom {
            revisions: doc.revisions,
            active_channel,
        };
        if self.traced == Some(now) {
            return;
        }
        self.traced = Some(now);
        let start = Instant::now();
        for (p, entry) in self.creatures.iter_mut().zip(&doc.roster) {
            p.curves = match (doc.shown_clip(), active_channel, &p.pipeline) {
                (Some(clip), Some(channel), Some(pipeline)) => {
                    trace_channel(clip, channel, &entry.creature, pipeline, doc)
                }
                _ => Vec::new(),
            };
        }
        self.times.trace_us = start.elapsed().as_secs_f32() * 1e6;
    }
}

/// The rest pose: where every body stands before any clip plays.
pub fn rest_pose(creature: &Creature) -> Vec<BodyPose> {
    creature
        .bodies()
        .iter()
        .map(|b| BodyPose::new(b.position, b.rotation))
        .collect()
}

/// Runs a copy of `pipeline` over the clip and records the goal of every body the channel
/// moves: the paper's red spline, exactly as the runtime specializes and blends it.
fn trace_channel(
    clip: &Clip,
    channel: usize,
    creature: &Creature,
    pipeline: &Pipeline,
    doc: &Document,
) -> Vec<CurveTrace> {
    let Some(ch) = clip.channels.get(channel) else {
        return Vec::new();
    };
    if ch.position.is_none() {
        return Vec::new();
    }
    let mut bodies: Vec<BodyId> = pipeline
        .plan()
        .tracks()
        .filter(|&(c, _)| c == channel)
        .map(|(_, b)| b)
        .collect();
    bodies.dedup();
    if bodies.is_empty() {
        return Vec::new();
    }
    let mut tracer = pipeline.clone();
    let mut sample = |t: f32| -> Vec<Option<Vec3>> {
        let input = EvalInput {
            time_secs: t,
            external_targets: doc.shown_targets(),
            ground_height: 0.0,
            dt_secs: 0.0,
        };
        tracer.run(clip, creature, &input);
        bodies
            .iter()
            .map(|&b| tracer.goals().position(b).map(|(p, _)| p))
            .collect()
    };
    let count =
        ((clip.duration_secs * CURVE_SAMPLES_PER_SEC).ceil() as usize).clamp(2, MAX_CURVE_SAMPLES);
    let mut traces: Vec<CurveTrace> = bodies
        .iter()
        .map(|&body| CurveTrace {
            body,
            ..CurveTrace::default()
        })
        .collect();
    for i in 0..count {
        let t = clip.duration_secs * i as f32 / (count - 1) as f32;
        for (trace, p) in traces.iter_mut().zip(sample(t)) {
            trace.points.extend(p);
        }
    }
    let key_times: Vec<f32> = ch
        .position
        .as_ref()
        .map(|c| c.keys().iter().map(|k| k.time).collect())
        .unwrap_or_default();
    for t in key_times {
        for (trace, p) in traces.iter_mut().zip(sample(t)) {
            trace.keys.extend(p);
        }
    }
    traces
}

/// The viewport draws the solver's particles and constraints: record them.
fn with_ik_debug(mut pipeline: Pipeline) -> Pipeline {
    pipeline.record_ik_debug(true);
    pipeline
}
