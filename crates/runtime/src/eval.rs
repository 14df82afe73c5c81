//! Evaluating a clip on a creature: generalized curves → `S` per selected body → blend by
//! ownership → goals (paper sections 3.2.3 and 4). The plan is built once per
//! (clip, creature, variant); evaluating a frame allocates nothing.

use crate::bind::Binding;
use crate::clip::Clip;
use crate::creature::{BodyId, Creature};
use crate::movement::{MotionFrame, RestBody, Surroundings};
use crate::pose::BodyPose;
use crate::query::SecondaryContext;
use crate::shared::with_workspace;
use glam::{Quat, Vec3};
use std::cell::RefCell;
use std::sync::Arc;

/// The smallest goal weight that counts; below it a goal is no goal. A subnormal weight
/// (1e-45) divides the blended sum back to garbage and the solver's phase error to NaN, and
/// a millionth of a goal moves no body by a visible amount.
pub const MIN_GOAL_WEIGHT: f32 = 1e-6;

/// Per-body targets with weights: what channels and gaits ask of IK. A body without a
/// goal (weight 0) has no position or rotation: whatever its slot holds is never read.
#[derive(Clone, Debug)]
pub struct Goals {
    position: Vec<Vec3>,
    position_weight: Vec<f32>,
    rotation: Vec<Quat>,
    rotation_weight: Vec<f32>,
    /// Per body, the body its goal is aimed at (a channel's secondary body, `u32::MAX` for
    /// none): a hand sent to the mouth is meant to touch the head, and the IK's keep-out
    /// lets it.
    touch: Vec<u32>,
    /// Whether any body has a touch: most frames have none, and skip looking.
    touching: bool,
    /// Deform values of this frame.
    pub deforms: Vec<DeformValue>,
    /// The ground's height in character space this frame (the ground that ground-relative
    /// channels use): passive bodies rest on it rather than sink through it.
    pub ground_height: f32,
}

/// Goals are equal when they ask the same of every body (what a slot without a goal holds
/// does not count).
impl PartialEq for Goals {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self.ground_height == other.ground_height
            && self.deforms == other.deforms
            && (0..self.len()).all(|b| {
                self.position(b) == other.position(b)
                    && self.rotation(b) == other.rotation(b)
                    && (self.position(b).is_none() || self.touch(b) == other.touch(b))
            })
    }
}

/// One deform curve's value on one body; its name is `clip.channels[channel].deforms`' key
/// number `deform` (in name order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeformValue {
    /// The body the channel moves (one channel selecting several bodies gives one value each).
    pub body: BodyId,
    /// Index of the channel in `clip.channels`.
    pub channel: usize,
    /// Index of the deform among the channel's deform curves, in name order.
    pub deform: usize,
    /// The curve's value at this frame's time; when a character blends several clips,
    /// scaled by this clip's weight.
    pub value: f32,
}

impl Goals {
    /// Asks for every cache line of its buffers without waiting (see `Character::update_many`).
    /// Asks for its fields (see `Character::update_many`): it spans two or three lines, and
    /// asking for its address brings only the first.
    pub(crate) fn prefetch_struct(&self) {
        use crate::shared::prefetch;
        prefetch(&self.position);
        prefetch(&self.position_weight);
        prefetch(&self.rotation);
        prefetch(&self.rotation_weight);
        prefetch(&self.deforms);
        prefetch(&self.ground_height);
    }

    pub(crate) fn prefetch(&self) {
        use crate::shared::prefetch_lines;
        prefetch_lines(&self.position);
        prefetch_lines(&self.position_weight);
        prefetch_lines(&self.rotation);
        prefetch_lines(&self.rotation_weight);
    }

    /// No goals for a creature of `bodies` bodies, on ground at height 0.
    pub fn new(bodies: usize) -> Self {
        Goals {
            position: vec![Vec3::ZERO; bodies],
            position_weight: vec![0.0; bodies],
            rotation: vec![Quat::IDENTITY; bodies],
            rotation_weight: vec![0.0; bodies],
            touch: vec![u32::MAX; bodies],
            touching: false,
            deforms: Vec::new(),
            ground_height: 0.0,
        }
    }

    /// How many bodies the goals are for (with a goal or not): the creature's body count.
    pub fn len(&self) -> usize {
        self.position.len()
    }

    /// Whether the goals are for no bodies at all (not whether any goal is set; see
    /// [`Goals::bodies`]).
    pub fn is_empty(&self) -> bool {
        self.position.is_empty()
    }

    /// Removes every goal. Only the weights are reset: a slot's value is written with its
    /// weight, so the values of a character's last frame need not be touched again.
    pub fn clear(&mut self) {
        self.position_weight.fill(0.0);
        self.rotation_weight.fill(0.0);
        if self.touching {
            self.touch.fill(u32::MAX);
            self.touching = false;
        }
        self.deforms.clear();
    }

    /// The position goal and its weight (0 < w ≤ 1), if the body has one.
    pub fn position(&self, body: BodyId) -> Option<(Vec3, f32)> {
        let w = self.position_weight[body];
        (w > 0.0).then(|| (self.position[body], w))
    }

    /// The rotation goal (the body's orientation in character space) and its weight
    /// (0 < w ≤ 1), if the body has one.
    pub fn rotation(&self, body: BodyId) -> Option<(Quat, f32)> {
        let w = self.rotation_weight[body];
        (w > 0.0).then(|| (self.rotation[body], w))
    }

    /// Sets a position goal; a weight outside [`MIN_GOAL_WEIGHT`, 1] or a non-finite goal is
    /// ignored.
    pub fn set_position(&mut self, body: BodyId, position: Vec3, weight: f32) {
        if position.is_finite() && weight.is_finite() && weight >= MIN_GOAL_WEIGHT {
            self.position[body] = position;
            self.position_weight[body] = weight.min(1.0);
        }
    }

    /// Sets a rotation goal, normalized; a weight outside [`MIN_GOAL_WEIGHT`, 1] or a
    /// rotation that is not finite or cannot be normalized is ignored.
    pub fn set_rotation(&mut self, body: BodyId, rotation: Quat, weight: f32) {
        if let Some(r) = rotation
            .is_finite()
            .then(|| rotation.normalize())
            .filter(|r| r.is_finite())
            && weight.is_finite()
            && weight >= MIN_GOAL_WEIGHT
        {
            self.rotation[body] = r;
            self.rotation_weight[body] = weight.min(1.0);
        }
    }

    /// The body `body`'s position goal is aimed at, meant to touch it (a hand sent to the
    /// mouth), if any.
    pub fn touch(&self, body: BodyId) -> Option<BodyId> {
        let t = self.touch[body];
        (t != u32::MAX).then_some(t as BodyId)
    }

    /// Says that `body`'s position goal is aimed at `other`, which it may touch: the IK
    /// does not keep it out of that body, the one carrying it or those it carries (a hand
    /// sent to the mouth sinks into the head). The clip evaluation sets it for every track
    /// aimed at a body; a body out of range is ignored.
    pub fn set_touch(&mut self, body: BodyId, other: BodyId) {
        if other < self.len()
            && let Some(t) = self.touch.get_mut(body)
        {
            *t = other as u32;
            self.touching = true;
        }
    }

    /// Whether any body's goal is sent to touch another ([`Goals::touch`]).
    pub fn any_touch(&self) -> bool {
        self.touching
    }

    /// Removes the body's position and rotation goals; the solver is then free to place it.
    pub fn remove(&mut self, body: BodyId) {
        self.position_weight[body] = 0.0;
        self.rotation_weight[body] = 0.0;
    }

    /// Per body, the weights of its position and rotation goals (0: none).
    pub(crate) fn weights(&self) -> (&[f32], &[f32]) {
        (&self.position_weight, &self.rotation_weight)
    }

    /// Bodies with any goal, in body order.
    pub fn bodies(&self) -> impl Iterator<Item = BodyId> + '_ {
        (0..self.len()).filter(|&b| self.position_weight[b] > 0.0 || self.rotation_weight[b] > 0.0)
    }
}

/// Where a track's secondary target comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TargetSource {
    None,
    External(usize),
    Body(BodyId),
}

/// One selected body of one channel, with everything `S` needs precomputed.
#[derive(Clone, Debug)]
struct Track {
    channel: usize,
    body: BodyId,
    rest: RestBody,
    mirrored: bool,
    target: TargetSource,
    /// The frame when `target` is `None` and the ground is at 0; otherwise each plan
    /// rebuilds it every frame into [`Plan::frames`].
    frame: MotionFrame,
    owns_position: bool,
    owns_rotation: bool,
}

/// Nanoseconds spent in each stage of the pipeline, summed over the frames timed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageTimes {
    /// Sampling the clips' generalized curves.
    pub curves: u64,
    /// Specializing the samples to each selected body (`S`: motion frames, targets).
    pub specialize: u64,
    /// Blending channels by ownership into goals, and clips and layers into one set of goals.
    pub blend: u64,
    /// Gait: planting and swinging the feet, moving the body over them.
    pub gait: u64,
    /// The IK solve from goals to body poses.
    pub ik: u64,
    /// Secondary motion of passive bodies.
    pub jiggle: u64,
}

impl StageTimes {
    /// Nanoseconds over all stages.
    pub fn total(&self) -> u64 {
        self.curves + self.specialize + self.blend + self.gait + self.ik + self.jiggle
    }

    /// Adds another set of times to this one, stage by stage.
    pub fn add(&mut self, o: &StageTimes) {
        self.curves += o.curves;
        self.specialize += o.specialize;
        self.blend += o.blend;
        self.gait += o.gait;
        self.ik += o.ik;
        self.jiggle += o.jiggle;
    }
}

/// Times stages only when asked, so untimed frames pay nothing for it.
pub(crate) struct Stopwatch(Option<std::time::Instant>);

impl Stopwatch {
    pub(crate) fn start(enabled: bool) -> Self {
        Stopwatch(enabled.then(std::time::Instant::now))
    }

    /// Adds the time since the last lap to `slot` and starts the next lap.
    pub(crate) fn lap(&mut self, slot: &mut u64) {
        if let Some(t) = self.0 {
            let now = std::time::Instant::now();
            *slot += u64::try_from((now - t).as_nanos()).unwrap_or(u64::MAX);
            self.0 = Some(now);
        }
    }
}

/// A clip bound to a creature in one variant: the tracks to evaluate each frame, the
/// curves' cursors and the last frame's motion frames. Clones share the tracks, so a plan
/// cached per (clip, creature) costs each character that plays it only its cursors.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Which of the binding's variants this plan plays.
    pub variant: usize,
    tracks: Arc<Tracks>,
    /// Per track, the frame used in the last evaluation when it was not the track's own
    /// (a target or a raised ground); empty until one is needed.
    frames: Vec<Option<MotionFrame>>,
    /// Per channel, where its curves were last sampled: the next sample starts there.
    cursors: Vec<[usize; 4]>,
}

/// One evaluation's working memory. Nothing in it outlives an evaluation, so one per thread
/// serves every plan on that thread and stays in the processor's caches across a crowd.
/// Grown for the largest clip and creature seen, never shrunk; an evaluation reads only
/// what it wrote.
#[derive(Debug, Default)]
struct Workspace {
    /// Per track, this frame's specialized pose.
    track_poses: Vec<BodyPose>,
    /// Per channel, this frame's samples.
    samples: Vec<ChannelSample>,
    /// Per body, the weighted sums of the goals the channels blend.
    position_sum: Vec<Vec3>,
    rotation_sum: Vec<Quat>,
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::new(Workspace::default());
}

/// What a plan evaluates, fixed once built.
#[derive(Debug)]
struct Tracks {
    /// Sorted by channel priority (highest first), then clip order.
    tracks: Vec<Track>,
    /// `tracks[tiers[i]..tiers[i + 1]]` share one priority.
    tiers: Vec<usize>,
}

#[derive(Clone, Copy, Debug, Default)]
struct ChannelSample {
    position: Option<Vec3>,
    rotation: Option<Quat>,
    position_weight: f32,
    rotation_weight: f32,
}

/// The inputs of one frame that are not part of the clip or the creature.
#[derive(Clone, Copy, Debug)]
pub struct EvalInput<'a> {
    /// Clip-local time in seconds (the caller wraps or clamps it).
    pub time_secs: f32,
    /// External targets in character space, by index; a missing one is
    /// [`default_external_target`].
    pub external_targets: &'a [Vec3],
    /// The ground's height under the character in character space (m); ground-relative
    /// channels stand on it.
    pub ground_height: f32,
    /// Time since the previous frame, for passive secondary motion; 0 holds it.
    pub dt_secs: f32,
}

/// Where an external target sits until the game sets one: ahead of the creature at the
/// height of its middle, so reach and look-at clips preview sensibly.
pub fn default_external_target(creature: &Creature) -> Vec3 {
    let b = creature.bounds();
    Vec3::new(0.0, b.center().y, b.max.z + 0.25 * creature.size())
}

impl Plan {
    /// Asks for its fields (see `Character::update_many`).
    pub(crate) fn prefetch_struct(&self) {
        use crate::shared::prefetch;
        prefetch(&self.variant);
        prefetch(&self.tracks);
        prefetch(&self.frames);
        prefetch(&self.cursors);
    }

    /// Asks for its per-character buffers without waiting (see `Character::update_many`).
    pub(crate) fn prefetch(&self) {
        crate::shared::prefetch_lines(&self.cursors);
        crate::shared::prefetch_lines(&self.frames);
    }

    /// Resolves ownership (paper 3.2.3) and precomputes frames for one variant; `None` if the
    /// clip does not bind or the variant does not exist.
    pub fn new(
        clip: &Clip,
        creature: &Creature,
        binding: &Binding,
        variant: usize,
    ) -> Option<Plan> {
        if !binding.binds() {
            return None;
        }
        let v = binding.variants.get(variant)?;
        let n = creature.len();
        let mut position_owner: Vec<Option<&str>> = vec![None; n];
        let mut rotation_owner: Vec<Option<&str>> = vec![None; n];
        let mut tracks = Vec::new();
        let mut tiers = Vec::new();
        let mut tier_priority = None;
        for ch in evaluation_order(clip) {
            let channel = &clip.channels[ch];
            if channel.muted {
                continue;
            }
            let group = channel.blend_group.as_str();
            for &body in &v.bodies[ch] {
                let owns_position =
                    claim(&mut position_owner[body], group, channel.position.is_some());
                let owns_rotation =
                    claim(&mut rotation_owner[body], group, channel.rotation.is_some());
                if !owns_position && !owns_rotation && channel.deforms.is_empty() {
                    continue;
                }
                let target = match &channel.secondary {
                    None => TargetSource::None,
                    Some(SecondaryContext::ExternalTarget(i)) => TargetSource::External(*i),
                    Some(SecondaryContext::Query(_)) => {
                        secondary_body(creature, body, &binding.selections[ch].secondary, v)
                            .map_or(TargetSource::None, TargetSource::Body)
                    }
                };
                let rest = RestBody::of(creature, body);
                let mirrored =
                    channel.variant.mirror && creature.side(body) == crate::creature::Side::Right;
                let frame =
                    MotionFrame::new(&channel.mode, &rest, &Surroundings::default(), mirrored);
                if tier_priority != Some(channel.priority) {
                    tier_priority = Some(channel.priority);
                    tiers.push(tracks.len());
                }
                tracks.push(Track {
                    channel: ch,
                    body,
                    rest,
                    mirrored,
                    target,
                    frame,
                    owns_position,
                    owns_rotation,
                });
            }
        }
        tiers.push(tracks.len());
        // The buffers are sized by the first evaluation: a plan kept only to be cloned
        // holds none.
        Some(Plan {
            variant,
            tracks: Arc::new(Tracks { tracks, tiers }),
            frames: Vec::new(),
            cursors: Vec::new(),
        })
    }

    /// The (channel, body) pairs this plan moves, in evaluation order.
    pub fn tracks(&self) -> impl Iterator<Item = (usize, BodyId)> + '_ {
        self.tracks.tracks.iter().map(|t| (t.channel, t.body))
    }

    /// The `S`/`G` frame a channel used for a body in the last evaluated frame: what an
    /// editor poses and keys through, so a dragged body lands exactly where the runtime
    /// will put it.
    pub fn motion_frame(&self, channel: usize, body: BodyId) -> Option<MotionFrame> {
        let i = self
            .tracks
            .tracks
            .iter()
            .position(|t| t.channel == channel && t.body == body)?;
        Some(
            self.frames
                .get(i)
                .copied()
                .flatten()
                .unwrap_or(self.tracks.tracks[i].frame),
        )
    }

    /// Sizes the cursors for `clip` and the workspace for `clip` and `creature` (a no-op
    /// once they are big enough).
    fn size_buffers(&mut self, ws: &mut Workspace, clip: &Clip, creature: &Creature) {
        let (tracks, channels, n) = (
            self.tracks.tracks.len(),
            clip.channels.len(),
            creature.len(),
        );
        if self.cursors.len() != channels {
            self.cursors.resize(channels, [0; 4]);
        }
        if ws.track_poses.len() < tracks {
            ws.track_poses.resize(tracks, BodyPose::IDENTITY);
        }
        if ws.samples.len() < channels {
            ws.samples.resize(channels, ChannelSample::default());
        }
        if ws.position_sum.len() < n {
            ws.position_sum.resize(n, Vec3::ZERO);
            ws.rotation_sum.resize(n, Quat::IDENTITY);
        }
    }

    /// Evaluates one frame into `goals` (cleared first).
    pub fn evaluate(
        &mut self,
        clip: &Clip,
        creature: &Creature,
        input: &EvalInput,
        goals: &mut Goals,
    ) {
        self.evaluate_timed(clip, creature, input, goals, None);
    }

    /// [`Plan::evaluate`], adding the time of each stage to `times` when given.
    pub fn evaluate_timed(
        &mut self,
        clip: &Clip,
        creature: &Creature,
        input: &EvalInput,
        goals: &mut Goals,
        times: Option<&mut StageTimes>,
    ) {
        with_workspace(&WORKSPACE, |ws| {
            let mut scratch = StageTimes::default();
            let mut watch = Stopwatch::start(times.is_some());
            goals.clear();
            goals.ground_height = input.ground_height;
            self.size_buffers(ws, clip, creature);
            self.sample_curves(ws, clip, input.time_secs);
            watch.lap(&mut scratch.curves);
            // Tier by tier: a tier's targets see only what higher-priority tiers posed, so
            // equal priorities aiming at each other (a clap) behave symmetrically whatever
            // their order.
            for tier in 1..self.tracks.tiers.len() {
                let range = self.tracks.tiers[tier - 1]..self.tracks.tiers[tier];
                self.specialize_tier(ws, clip, creature, input, goals, range.clone());
                watch.lap(&mut scratch.specialize);
                self.blend_tier(ws, clip, goals, range, input.time_secs);
                watch.lap(&mut scratch.blend);
            }
            finish(ws, goals);
            watch.lap(&mut scratch.blend);
            if let Some(t) = times {
                t.add(&scratch);
            }
        });
    }

    fn sample_curves(&mut self, ws: &mut Workspace, clip: &Clip, t: f32) {
        for ((sample, channel), cursor) in ws
            .samples
            .iter_mut()
            .zip(&clip.channels)
            .zip(&mut self.cursors)
        {
            let [cp, cr, cpw, crw] = cursor;
            let weight = |c: &Option<crate::curve::KeyedCurve<f32>>, cur: &mut usize| {
                let w = c
                    .as_ref()
                    .and_then(|c| c.sample_with_cursor(t, cur))
                    .unwrap_or(1.0);
                if w >= MIN_GOAL_WEIGHT { w } else { 0.0 }
            };
            *sample = ChannelSample {
                position: channel
                    .position
                    .as_ref()
                    .and_then(|c| c.sample_with_cursor(t, cp)),
                rotation: channel
                    .rotation
                    .as_ref()
                    .and_then(|c| c.sample_with_cursor(t, cr)),
                position_weight: weight(&channel.position_weight, cpw),
                rotation_weight: weight(&channel.rotation_weight, crw),
            };
        }
    }

    fn specialize_tier(
        &mut self,
        ws: &mut Workspace,
        clip: &Clip,
        creature: &Creature,
        input: &EvalInput,
        goals: &Goals,
        range: std::ops::Range<usize>,
    ) {
        let ground = input.ground_height;
        for i in range {
            let track = &self.tracks.tracks[i];
            let channel = &clip.channels[track.channel];
            let sample = ws.samples[track.channel];
            let target = match track.target {
                TargetSource::None => None,
                TargetSource::External(i) => Some(
                    input
                        .external_targets
                        .get(i)
                        .copied()
                        .unwrap_or_else(|| default_external_target(creature)),
                ),
                // Posed by a higher tier: aim where it is going; otherwise at its rest.
                TargetSource::Body(b) => Some(match goals.position_weight[b] {
                    w if w > 0.0 => ws.position_sum[b] / w,
                    _ => creature.body(b).position,
                }),
            };
            let frame = if target.is_some() || ground != 0.0 {
                let frame = MotionFrame::new(
                    &channel.mode,
                    &track.rest,
                    &Surroundings {
                        target,
                        ground_height: ground,
                    },
                    track.mirrored,
                );
                if self.frames.is_empty() {
                    self.frames.resize(self.tracks.tracks.len(), None);
                }
                self.frames[i] = Some(frame);
                frame
            } else {
                if let Some(f) = self.frames.get_mut(i) {
                    *f = None;
                }
                track.frame
            };
            let qg = BodyPose {
                position: sample.position.unwrap_or(Vec3::ZERO),
                rotation: sample.rotation.unwrap_or(Quat::IDENTITY),
            };
            ws.track_poses[i] = frame.specialize(qg);
        }
    }

    fn blend_tier(
        &self,
        ws: &mut Workspace,
        clip: &Clip,
        goals: &mut Goals,
        range: std::ops::Range<usize>,
        t: f32,
    ) {
        for i in range {
            let track = &self.tracks.tracks[i];
            let channel = &clip.channels[track.channel];
            let sample = ws.samples[track.channel];
            let qs = ws.track_poses[i];
            let b = track.body;
            if track.owns_position && sample.position.is_some() && sample.position_weight > 0.0 {
                let w = sample.position_weight;
                if goals.position_weight[b] == 0.0 {
                    ws.position_sum[b] = Vec3::ZERO;
                }
                ws.position_sum[b] += qs.position * w;
                goals.position_weight[b] += w;
                if let TargetSource::Body(other) = track.target {
                    goals.set_touch(b, other);
                }
            }
            if track.owns_rotation && sample.rotation.is_some() && sample.rotation_weight > 0.0 {
                let w = sample.rotation_weight;
                if goals.rotation_weight[b] == 0.0 {
                    ws.rotation_sum[b] = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
                }
                let sum = ws.rotation_sum[b];
                let r = if sum.dot(qs.rotation) < 0.0 {
                    -qs.rotation
                } else {
                    qs.rotation
                };
                ws.rotation_sum[b] = sum + r * w;
                goals.rotation_weight[b] += w;
            }
            for (k, curve) in channel.deforms.values().enumerate() {
                if let Some(value) = curve.sample(t) {
                    goals.deforms.push(DeformValue {
                        body: b,
                        channel: track.channel,
                        deform: k,
                        value,
                    });
                }
            }
        }
    }
}

/// Turns the weighted sums into goals.
fn finish(ws: &Workspace, goals: &mut Goals) {
    for b in 0..goals.len() {
        let w = goals.position_weight[b];
        if w > 0.0 && w < MIN_GOAL_WEIGHT {
            goals.position_weight[b] = 0.0;
        } else if w > 0.0 {
            goals.position[b] = ws.position_sum[b] / w;
            goals.position_weight[b] = w.min(1.0);
        }
        let w = goals.rotation_weight[b];
        if w > 0.0 {
            match ws.rotation_sum[b].try_normalize() {
                Some(r) => {
                    goals.rotation[b] = r;
                    goals.rotation_weight[b] = w.min(1.0);
                }
                None => goals.rotation_weight[b] = 0.0,
            }
        }
    }
}

trait TryNormalizeQuat {
    fn try_normalize(self) -> Option<Quat>;
}

impl TryNormalizeQuat for Quat {
    fn try_normalize(self) -> Option<Quat> {
        let len = self.length();
        (len.is_finite() && len > 1e-6).then(|| self / len)
    }
}

/// The first channel to animate a DOF of a body owns it for its blend group; later ones
/// share it only from the same group.
fn claim<'a>(owner: &mut Option<&'a str>, group: &'a str, animates: bool) -> bool {
    if !animates {
        return false;
    }
    match owner {
        None => {
            *owner = Some(group);
            true
        }
        Some(g) => *g == group,
    }
}

/// Channels by priority (highest first), then in clip order: the order in which they
/// claim bodies.
pub fn evaluation_order(clip: &Clip) -> Vec<usize> {
    let mut order: Vec<usize> = (0..clip.channels.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(clip.channels[i].priority), i));
    order
}

/// The secondary body a track aims at: among the secondary query's bodies, prefer those
/// this variant plays on (a clap's left hand aims at the variant's right hand, not at a
/// same-side hand of a four-armed creature), then the nearest at rest.
fn secondary_body(
    creature: &Creature,
    body: BodyId,
    candidates: &[BodyId],
    variant: &crate::bind::Variant,
) -> Option<BodyId> {
    let in_play: Vec<BodyId> = candidates
        .iter()
        .copied()
        .filter(|&c| c != body && variant.bodies.iter().any(|bs| bs.contains(&c)))
        .collect();
    if in_play.is_empty() {
        nearest(creature, body, candidates)
    } else {
        nearest(creature, body, &in_play)
    }
}

fn nearest(creature: &Creature, body: BodyId, candidates: &[BodyId]) -> Option<BodyId> {
    let at = creature.body(body).position;
    candidates
        .iter()
        .copied()
        .filter(|&c| c != body)
        .min_by(|&a, &b| {
            at.distance_squared(creature.body(a).position)
                .total_cmp(&at.distance_squared(creature.body(b).position))
                .then(a.cmp(&b))
        })
}

/// The pose before IK exists: every body follows its parent rigidly from the rest pose, and
/// a body with a goal is pulled onto it by the goal's weight. IK replaces this stage; its
/// input (creature + goals) and output (character-space body poses) stay the same.
pub fn pose_by_forward_kinematics(creature: &Creature, goals: &Goals, out: &mut Vec<BodyPose>) {
    out.clear();
    out.resize(creature.len(), BodyPose::IDENTITY);
    for &b in creature.order() {
        let rest = creature.body(b);
        let mut pose = match creature.parent(b) {
            None => BodyPose::new(rest.position, rest.rotation),
            Some(p) => {
                let parent_rest = creature.body(p);
                let parent_now = out[p];
                let turn = parent_now.rotation * parent_rest.rotation.inverse();
                BodyPose::new(
                    parent_now.position + turn * (rest.position - parent_rest.position),
                    (turn * rest.rotation).normalize(),
                )
            }
        };
        if let Some((p, w)) = goals.position(b) {
            pose.position = pose.position.lerp(p, w);
        }
        if let Some((r, w)) = goals.rotation(b) {
            pose.rotation = pose.rotation.slerp(r, w).normalize();
        }
        out[b] = pose;
    }
}
