//! The live preview: one runtime [`Pipeline`] per creature, rebuilt when the clip, the roster
//! or a variant changes and run every frame. While the creatures walk (the Locomotion panel),
//! each runs through the runtime's player instead ([`Walker`]), the clip laid over its gait.
//! The editor only calls the runtime (DESIGN.md's one-pipeline rule); it never computes a
//! pose itself.

use crate::document::{Document, Revisions};
use crate::layer::{LayerPrefs, PreviewLayer, base_params};
use crate::layout;
use crate::mode_compare::ModeComparison;
use crate::walk::{FootMark, WalkSettings, WalkView, Walker};
use anymorph_runtime::bind::{Binding, bind};
use anymorph_runtime::clip::Clip;
use anymorph_runtime::creature::{BodyId, Creature};
use anymorph_runtime::eval::{EvalInput, Goals, StageTimes};
use anymorph_runtime::gait::GaitStyle;
use anymorph_runtime::ik::IkDebug;
use anymorph_runtime::pipeline::{Pipeline, clip_local_time};
use anymorph_runtime::player::Character;
use anymorph_runtime::pose::BodyPose;
use anymorph_runtime::terrain::Terrain;
use glam::Vec3;
use std::sync::Arc;
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
    /// One per body, in display space: character space, moved by `display_from_character`
    /// while walking in the path view.
    pub pose: Vec<BodyPose>,
    /// World = display + offset: the creature's slot.
    pub offset: Vec3,
    pub curves: Vec<CurveTrace>,
    /// While the creatures walk: this creature in the runtime's player.
    pub walker: Option<Walker>,
    /// With a layer on and not walking: the player that posed it this frame, playing the
    /// active clip and the layer.
    pub layered: Option<Character>,
    /// Where character space is shown in the slot: identity unless walking in the path
    /// view. Goals, IK particles and curves (character space) are drawn through it.
    pub display_from_character: BodyPose,
    /// While walking: the feet on the ground now, display space.
    pub planted_feet: Vec<FootMark>,
    /// While walking: where feet stood before, oldest first, display space.
    pub footprints: Vec<FootMark>,
    /// While walking on ground that is not flat: the ground around the creature as line
    /// segments, display space.
    pub ground_lines: Vec<[Vec3; 2]>,
}

impl CreaturePreview {
    pub fn binds(&self) -> bool {
        self.binding.binds()
    }

    /// Where a point of character space is drawn, world space.
    pub fn to_world(&self, in_character: Vec3) -> Vec3 {
        let d = self.display_from_character;
        self.offset + d.position + d.rotation * in_character
    }

    /// The goals of the pose shown: the player's (clip and gait) while walking, else the
    /// pipeline's.
    pub fn goals(&self) -> Option<&Goals> {
        match (&self.walker, &self.layered) {
            (Some(w), _) => Some(w.character().goals()),
            (None, Some(c)) => Some(c.goals()),
            (None, None) => self.pipeline.as_ref().map(Pipeline::goals),
        }
    }

    /// The solver's record of the pose shown.
    pub fn ik_debug(&self) -> Option<&IkDebug> {
        match (&self.walker, &self.layered) {
            (Some(w), _) => Some(w.character().ik_debug()),
            (None, Some(c)) => Some(c.ik_debug()),
            (None, None) => self.pipeline.as_ref().map(Pipeline::ik_debug),
        }
    }

    /// Back to the pipeline's way of showing the creature (not walking).
    fn stop_walking(&mut self, creature: &Creature) {
        self.walker = None;
        self.display_from_character = BodyPose::IDENTITY;
        self.planted_feet.clear();
        self.footprints.clear();
        self.ground_lines.clear();
        if self.pipeline.is_none() {
            self.pose = rest_pose(creature);
        }
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

/// What the walkers were started from: a change to any of it starts them again, but for an
/// edit of the style they walk (see [`WalkKey::walks_on_as`]).
#[derive(Clone, Debug)]
struct WalkKey {
    clip: u64,
    roster: u64,
    variants: u64,
    gait: Arc<GaitStyle>,
    terrain: Terrain,
    view: WalkView,
    /// The layer's [`PreviewLayer::id`].
    layer: Option<u64>,
}

impl WalkKey {
    /// Whether a walk started from `self` walks on under `other`: the same in everything,
    /// or only an edit of the same style (which the walkers take up without stopping).
    fn walks_on_as(&self, other: &WalkKey) -> bool {
        self.clip == other.clip
            && self.roster == other.roster
            && self.variants == other.variants
            && self.gait.name == other.gait.name
            && self.terrain == other.terrain
            && self.view == other.view
            && self.layer == other.layer
    }
}

/// The walk in progress.
#[derive(Clone, Debug)]
struct Walking {
    key: WalkKey,
    /// The playhead last frame, to tell playback from a jump.
    clock_secs: f32,
    /// What the players share, kept across restarts (the runtime caches bindings and leg
    /// analyses per `Arc`).
    creatures: Vec<Arc<Creature>>,
    clip: Option<Arc<anymorph_runtime::clip::Clip>>,
}

/// What the layer was made from: a change to any of it makes it again.
#[derive(Clone, Debug, PartialEq)]
struct LayerKey {
    clip: u64,
    actions: u64,
    prefs: LayerPrefs,
}

/// What the layered players were started from: a change to any of it starts them again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LayeredKey {
    clip: u64,
    roster: u64,
    variants: u64,
    /// The layer's [`PreviewLayer::id`].
    layer: u64,
}

/// The layered players in progress: the playhead they were last stepped to.
#[derive(Clone, Copy, Debug)]
struct LayeredRun {
    key: LayeredKey,
    clock_secs: f32,
}

/// The shown clip and the creatures as the layered players share them, kept while the clip
/// and the roster are unchanged (the runtime caches bindings per `Arc`).
#[derive(Clone, Debug)]
struct Shared {
    clip_revision: u64,
    roster_revision: u64,
    clip: Option<Arc<Clip>>,
    creatures: Vec<Arc<Creature>>,
}

/// Every creature's preview, in roster order.
#[derive(Debug, Default)]
pub struct Preview {
    pub creatures: Vec<CreaturePreview>,
    built: Option<BuiltFrom>,
    traced: Option<BuiltFrom>,
    walking: Option<Walking>,
    layer: Option<PreviewLayer>,
    layer_key: Option<LayerKey>,
    layers_made: u64,
    layered_run: Option<LayeredRun>,
    shared: Option<Shared>,
    pub times: PreviewTimes,
    /// For a moment after a movement-mode change: the poses under the old mode.
    pub mode_comparison: Option<ModeComparison>,
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
                    walker: None,
                    layered: None,
                    display_from_character: BodyPose::IDENTITY,
                    planted_feet: Vec::new(),
                    footprints: Vec::new(),
                    ground_lines: Vec::new(),
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

    /// The onion skin: creature `index`'s pose at each of `offsets_secs` from `clock_secs`
    /// on the playback clock, by a copy of its pipeline (the copy, so looking ahead does
    /// not step the jiggles of the pose shown), or with a layer on by a player of the clip
    /// and the layer, as the pose shown is made. Empty while walking, where what comes
    /// before and after is the walk, which only playing it gives, and for a creature the
    /// clip does not play on.
    pub fn ghost_poses(
        &self,
        doc: &Document,
        index: usize,
        clock_secs: f32,
        offsets_secs: &[f32],
    ) -> Vec<(f32, Vec<BodyPose>)> {
        let (Some(clip), Some(p), Some(entry)) = (
            doc.shown_clip(),
            self.creatures.get(index),
            doc.roster.get(index),
        ) else {
            return Vec::new();
        };
        if p.walker.is_some() {
            return Vec::new();
        }
        // With a layer on, the pose shown is the player's of the clip and the layer: the
        // ghosts must come from the same two plays, or they would stand where the creature
        // never will.
        if let (Some(layer), Some(_), Some(shared)) = (&self.layer, &p.layered, &self.shared)
            && let Some(creature) = shared.creatures.get(index)
        {
            return offsets_secs
                .iter()
                .map(|&offset| {
                    let character = layered_character(
                        creature,
                        shared.clip.as_ref(),
                        entry.variant,
                        layer,
                        doc.shown_targets(),
                        clock_secs + offset,
                    );
                    (offset, character.pose().to_vec())
                })
                .collect();
        }
        let Some(pipeline) = p.pipeline.as_ref() else {
            return Vec::new();
        };
        let mut pipeline = pipeline.clone();
        offsets_secs
            .iter()
            .map(|&offset| {
                let input = EvalInput {
                    time_secs: clip_local_time(clip, clock_secs + offset),
                    external_targets: doc.shown_targets(),
                    ground_height: 0.0,
                    dt_secs: 0.0,
                };
                let pose = pipeline.run(clip, &entry.creature, &input).to_vec();
                (offset, pose)
            })
            .collect()
    }

    /// Runs every creature's pipeline at `clock_secs` on the playback clock.
    pub fn evaluate(&mut self, doc: &Document, clock_secs: f32, dt_secs: f32) {
        if self.walking.take().is_some() {
            for (p, entry) in self.creatures.iter_mut().zip(&doc.roster) {
                p.stop_walking(&entry.creature);
            }
        }
        if let Some(layer) = self.layer.clone() {
            self.evaluate_layered(doc, &layer, clock_secs, dt_secs);
            return;
        }
        self.layered_run = None;
        for p in &mut self.creatures {
            p.layered = None;
        }
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

    /// Makes the layer again when its setting, the project's clips or its actions changed;
    /// `prefs` naming nothing of the project turns it off.
    pub fn set_layer(&mut self, doc: &Document, prefs: &LayerPrefs) {
        let key = LayerKey {
            clip: doc.revisions.clip,
            actions: doc.revisions.actions,
            prefs: prefs.clone(),
        };
        if self.layer_key.as_ref() == Some(&key) {
            return;
        }
        self.layer = prefs.source(doc).map(|source| {
            self.layers_made += 1;
            PreviewLayer {
                source,
                additive: prefs.additive,
                weight: prefs.weight(),
                id: self.layers_made,
            }
        });
        self.layer_key = Some(key);
    }

    /// The layer the preview plays over the active clip, if any.
    pub fn layer(&self) -> Option<&PreviewLayer> {
        self.layer.as_ref()
    }

    /// The shown clip and the roster's creatures as shared `Arc`s, made again only when
    /// they changed.
    fn shared(&mut self, doc: &Document) -> Shared {
        let fresh = self.shared.as_ref().is_some_and(|s| {
            s.clip_revision == doc.revisions.clip
                && s.roster_revision == doc.revisions.roster
                && s.creatures.len() == doc.roster.len()
        });
        if !fresh {
            self.shared = Some(Shared {
                clip_revision: doc.revisions.clip,
                roster_revision: doc.revisions.roster,
                clip: doc.shown_clip().cloned().map(Arc::new),
                creatures: doc
                    .roster
                    .iter()
                    .map(|e| Arc::new(e.creature.clone()))
                    .collect(),
            });
        }
        self.shared.clone().unwrap_or(Shared {
            clip_revision: 0,
            roster_revision: 0,
            clip: None,
            creatures: Vec::new(),
        })
    }

    /// Poses every creature at `clock_secs` by a player of its own playing the shown clip
    /// and `layer`, standing (no gait). Playback steps the players on, so the jiggles swing
    /// as in a game playing the same two; a scrub, a jump, the shown clip starting over or
    /// any edit starts them again at the playhead, the pose at that time whatever was shown
    /// before (a player's state is its play so far, which no edit applies to in place).
    fn evaluate_layered(
        &mut self,
        doc: &Document,
        layer: &PreviewLayer,
        clock_secs: f32,
        dt_secs: f32,
    ) {
        let start = Instant::now();
        let shared = self.shared(doc);
        let targets = doc.shown_targets();
        let key = LayeredKey {
            clip: doc.revisions.clip,
            roster: doc.revisions.roster,
            variants: doc.revisions.variants,
            layer: layer.id,
        };
        // Only playback (or standing still) steps on, as the pipeline's jiggles step only
        // with playback: a frame step, a scrub and the clip starting over (the layer starts
        // with it, as a scrub to there has it) start over.
        let plays_on = self.layered_run.is_some_and(|run| {
            run.key == key
                && (clock_secs - (run.clock_secs + dt_secs)).abs() <= SAME_TIME_SECS
                && self.creatures.iter().all(|p| p.layered.is_some())
        });
        self.layered_run = Some(LayeredRun { key, clock_secs });
        if plays_on {
            let dt = dt_secs.max(0.0);
            for p in &mut self.creatures {
                if let Some(character) = &mut p.layered {
                    for (i, &t) in targets.iter().enumerate() {
                        character.set_target(i, t);
                    }
                    character.update(dt);
                    p.pose.clear();
                    p.pose.extend_from_slice(character.pose());
                }
            }
            self.times.evaluate_us = start.elapsed().as_secs_f32() * 1e6;
            self.times.stages = StageTimes::default();
            return;
        }
        for ((p, entry), creature) in self
            .creatures
            .iter_mut()
            .zip(&doc.roster)
            .zip(&shared.creatures)
        {
            let character = layered_character(
                creature,
                shared.clip.as_ref(),
                entry.variant,
                layer,
                targets,
                clock_secs,
            );
            p.pose.clear();
            p.pose.extend_from_slice(character.pose());
            p.layered = Some(character);
        }
        self.times.evaluate_us = start.elapsed().as_secs_f32() * 1e6;
        self.times.stages = StageTimes::default();
    }

    /// Walks every creature `dt_secs` further through the runtime's player, the shown clip
    /// laid over the gait, and shows each in its slot as `settings.view` says.
    ///
    /// The players are started again, at the playhead, whenever what they play changed (the
    /// clip, an edit to it, the roster, a variant, the style, the ground, the view) or the
    /// playhead jumped (a scrub, a step, a clip change): a player's state is the walk so far,
    /// which no edit can be applied to in place, and starting over costs one frame where a
    /// game would cross-fade. In the path view the walk also starts over when the clip
    /// does, so the path shown is the one of one play of the clip, from the slot.
    pub fn walk(&mut self, doc: &Document, settings: &WalkSettings, clock_secs: f32, dt_secs: f32) {
        let key = WalkKey {
            clip: doc.revisions.clip,
            roster: doc.revisions.roster,
            variants: doc.revisions.variants,
            gait: Arc::clone(&settings.gait),
            terrain: settings.terrain,
            view: settings.view,
            layer: self.layer.as_ref().map(|l| l.id),
        };
        self.layered_run = None;
        for p in &mut self.creatures {
            p.layered = None;
        }
        let clip = doc.shown_clip().map(|c| (c.duration_secs, c.looping));
        let step = match &mut self.walking {
            Some(w)
                if w.key.walks_on_as(&key) && self.creatures.iter().all(|p| p.walker.is_some()) =>
            {
                if !Arc::ptr_eq(&w.key.gait, &key.gait) {
                    for walker in self.creatures.iter_mut().filter_map(|p| p.walker.as_mut()) {
                        walker.set_style(&key.gait);
                    }
                    w.key.gait = Arc::clone(&key.gait);
                }
                walk_step(w.clock_secs, clock_secs, dt_secs, clip, settings.view)
            }
            _ => None,
        };
        let start = Instant::now();
        let dt = match step {
            Some(dt) => dt,
            None => {
                self.start_walking(doc, key, settings, clock_secs);
                // The player starts at the playhead; it has not walked yet.
                0.0
            }
        };
        let mut stages = StageTimes::default();
        let targets = doc.shown_targets();
        for p in &mut self.creatures {
            let Some(walker) = &mut p.walker else {
                continue;
            };
            walker.update(settings, targets, dt, &mut stages);
            walker.display_pose(settings.view, &mut p.pose);
            p.display_from_character = walker.display_from_character(settings.view);
            p.planted_feet = walker.planted_feet(settings.view);
            p.footprints = walker.footprints(settings.view);
            p.ground_lines = walker.ground_lines(settings.view);
        }
        if let Some(w) = &mut self.walking {
            w.clock_secs = clock_secs;
        }
        self.times.evaluate_us = start.elapsed().as_secs_f32() * 1e6;
        self.times.stages = stages;
    }

    fn start_walking(
        &mut self,
        doc: &Document,
        key: WalkKey,
        settings: &WalkSettings,
        clock_secs: f32,
    ) {
        let previous = self.walking.take();
        // The shared `Arc`s outlive restarts of the same clip and roster.
        let creatures = match &previous {
            Some(w) if w.key.roster == key.roster && w.creatures.len() == doc.roster.len() => {
                w.creatures.clone()
            }
            _ => doc
                .roster
                .iter()
                .map(|e| Arc::new(e.creature.clone()))
                .collect(),
        };
        let clip = match previous {
            Some(w) if w.key.clip == key.clip => w.clip,
            _ => doc.shown_clip().cloned().map(Arc::new),
        };
        for ((p, entry), creature) in self.creatures.iter_mut().zip(&doc.roster).zip(&creatures) {
            p.walker = Some(Walker::new(
                Arc::clone(creature),
                clip.as_ref(),
                entry.variant,
                settings,
                self.layer.as_ref(),
                clock_secs,
            ));
        }
        self.walking = Some(Walking {
            key,
            clock_secs,
            creatures,
            clip,
        });
    }

    /// Whether the creatures are walking (the last frame ran [`Preview::walk`]).
    pub fn is_walking(&self) -> bool {
        self.walking.is_some()
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

/// A player of `creature` standing at its slot (no gait), playing `clip` and `layer` from
/// where the playback clock `clock_secs` has them, posed once: the layered preview's pose,
/// and what a game playing the same two gets (tests compare the two).
pub fn layered_character(
    creature: &Arc<Creature>,
    clip: Option<&Arc<Clip>>,
    variant: usize,
    layer: &PreviewLayer,
    targets_in_character: &[Vec3],
    clock_secs: f32,
) -> Character {
    let mut character = Character::new(Arc::clone(creature));
    character.set_gait_layers(Vec::new());
    character.record_ik_debug(true);
    if let Some(clip) = clip
        && let Err(e) = character.play(clip, base_params(clip, variant, clock_secs))
    {
        // Where the clip does not bind the layer still plays (the roster says why).
        log::trace!("layered preview without the clip: {e}");
    }
    if let Err(e) = layer.play(&mut character, clock_secs) {
        log::trace!("layered preview without the layer: {e}");
    }
    for (i, &t) in targets_in_character.iter().enumerate() {
        character.set_target(i, t);
    }
    character.update(0.0);
    character
}

/// The rest pose: where every body stands before any clip plays.
pub fn rest_pose(creature: &Creature) -> Vec<BodyPose> {
    creature
        .bodies()
        .iter()
        .map(|b| BodyPose::new(b.position, b.rotation))
        .collect()
}

/// Playhead times this close are the same moment (the clock sums frame times).
const SAME_TIME_SECS: f32 = 1e-3;

/// How far the walk goes for the playhead's move from `before` to `now` (`dt_secs` of
/// playback), or `None` to start it over: the playhead jumped back or far, or the clip
/// (duration, looping) started over where the player would not (a one-shot holds its end)
/// or the path view wants to. A short step forward (the next frame, a scrub forward) walks
/// on, so stepping through a walk frame by frame shows it.
fn walk_step(
    before: f32,
    now: f32,
    dt_secs: f32,
    clip: Option<(f32, bool)>,
    view: WalkView,
) -> Option<f32> {
    const SAME: f32 = SAME_TIME_SECS;
    const LONGEST_STEP_SECS: f32 = 0.25;
    let expected = before + dt_secs;
    if (now - expected).abs() <= SAME {
        return Some(dt_secs);
    }
    if let Some((duration, looping)) = clip
        && (now - (expected - duration)).abs() <= SAME
    {
        return (view == WalkView::Treadmill && looping).then_some(dt_secs);
    }
    let moved = now - before;
    (moved > 0.0 && moved <= LONGEST_STEP_SECS).then_some(moved)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A ghost is the pose the preview shows at its time, and looking ahead leaves the pose
    /// shown (and the jiggles it carries) as it was.
    #[test]
    fn ghosts_are_the_poses_shown_at_their_times_and_change_nothing() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let doc = Document::open(&root.join("assets/sample.project.json")).unwrap();
        let mut preview = Preview::default();
        preview.sync(&doc, None);
        let index = preview
            .creatures
            .iter()
            .position(|p| p.binds())
            .expect("the sample clip plays on some sample creature");
        let (t, step) = (0.8, 0.1);
        preview.evaluate(&doc, t, 1.0 / 30.0);
        let shown = preview.creatures[index].pose.clone();
        let ghosts = preview.ghost_poses(&doc, index, t, &[-step, step]);
        assert_eq!(ghosts.len(), 2);
        assert_eq!(preview.creatures[index].pose, shown);
        let mut moved = 0.0f32;
        for (offset, ghost) in &ghosts {
            let mut again = Preview::default();
            again.sync(&doc, None);
            again.evaluate(&doc, t + offset, 0.0);
            let expected = &again.creatures[index].pose;
            assert_eq!(ghost.len(), expected.len());
            for (g, e) in ghost.iter().zip(expected) {
                assert!(
                    g.position.distance(e.position) < 1e-4,
                    "{offset}: {g:?} {e:?}"
                );
            }
            for (g, s) in ghost.iter().zip(&shown) {
                moved = moved.max(g.position.distance(s.position));
            }
        }
        assert!(
            moved > 1e-3,
            "the ghosts stand where the creature does: {moved}"
        );
    }

    #[test]
    fn playback_walks_on_and_a_jump_starts_the_walk_again() {
        let looping = Some((2.0, true));
        let dt = 1.0 / 60.0;
        for view in [WalkView::Treadmill, WalkView::Path] {
            // Playback and the next frame walk on; a jump back or far starts over.
            assert_eq!(walk_step(0.5, 0.5 + dt, dt, looping, view), Some(dt));
            let step = walk_step(0.5, 0.5 + 1.0 / 30.0, 0.0, looping, view);
            assert!(
                step.is_some_and(|s| (s - 1.0 / 30.0).abs() < 1e-6),
                "{step:?}"
            );
            assert_eq!(walk_step(0.5, 0.2, 0.0, looping, view), None);
            assert_eq!(walk_step(0.5, 1.5, 0.0, looping, view), None);
            // Paused and still: nothing to walk.
            assert_eq!(walk_step(0.5, 0.5, 0.0, looping, view), Some(0.0));
        }
        // The clip starting over: the treadmill walks on through a looping clip; the path
        // starts over from the slot, and so does a one-shot (the player holds its end).
        let wrapped = 1.99 + dt - 2.0;
        assert_eq!(
            walk_step(1.99, wrapped, dt, looping, WalkView::Treadmill),
            Some(dt)
        );
        assert_eq!(walk_step(1.99, wrapped, dt, looping, WalkView::Path), None);
        assert_eq!(
            walk_step(1.99, wrapped, dt, Some((2.0, false)), WalkView::Treadmill),
            None
        );
    }
}
