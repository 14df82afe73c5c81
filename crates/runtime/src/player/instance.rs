//! One clip playing on a character: its clock, its fades and the events it passes.

use crate::clip::Clip;
use crate::eval::Plan;
use std::sync::Arc;

/// Identifies a clip started with [`super::Character::play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayId(pub u64);

/// An event fired because playback passed its time this frame.
#[derive(Clone, Debug)]
pub struct FiredEvent {
    /// The play that passed the event.
    pub play: PlayId,
    /// The clip the event belongs to.
    pub clip: Arc<Clip>,
    /// Index into `clip.events`.
    pub index: usize,
}

impl FiredEvent {
    /// The event's name, as authored in the clip.
    pub fn name(&self) -> &str {
        &self.clip.events[self.index].name
    }

    /// The event's time in clip-local seconds (not the time it fired).
    pub fn time_secs(&self) -> f32 {
        self.clip.events[self.index].time_secs
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Phase {
    /// Waiting for the clip before it on its layer to near its end.
    Queued,
    Playing,
    /// Fading out; removed once its envelope reaches 0.
    Stopping,
}

#[derive(Clone, Debug)]
pub(super) struct Instance {
    pub id: PlayId,
    pub clip: Arc<Clip>,
    pub plan: Plan,
    pub layer: i32,
    pub additive: bool,
    pub weight: f32,
    pub speed: f32,
    pub looping: bool,
    pub fade_in_secs: f32,
    pub fade_out_secs: f32,
    /// A non-looping clip holds its last frame at the end instead of stopping.
    pub hold: bool,
    pub phase: Phase,
    /// Clip-local time.
    pub time_secs: f32,
    /// 0..1: the fade envelope.
    pub envelope: f32,
    fade_rate: f32,
    started: bool,
}

pub(super) struct InstanceSettings {
    pub layer: i32,
    pub additive: bool,
    pub weight: f32,
    pub speed: f32,
    pub looping: bool,
    pub fade_in_secs: f32,
    pub fade_out_secs: f32,
    pub hold: bool,
    pub start_secs: f32,
    pub queued: bool,
}

impl Instance {
    pub fn new(id: PlayId, clip: Arc<Clip>, plan: Plan, s: InstanceSettings) -> Self {
        let mut i = Instance {
            id,
            clip,
            plan,
            layer: s.layer,
            additive: s.additive,
            weight: s.weight,
            speed: s.speed,
            looping: s.looping,
            fade_in_secs: s.fade_in_secs,
            fade_out_secs: s.fade_out_secs,
            hold: s.hold,
            phase: if s.queued {
                Phase::Queued
            } else {
                Phase::Playing
            },
            time_secs: s.start_secs,
            envelope: 0.0,
            fade_rate: 0.0,
            started: false,
        };
        if !s.queued {
            i.begin_fade_in();
        }
        i
    }

    /// Asks for every field, its plan's too (see `Character::update_many`). An instance
    /// spans two or three cache lines, and asking for the slice's elements brings only the
    /// line each starts on: the plan's buffers and the clock were read from the others.
    pub fn prefetch_struct(&self) {
        use crate::shared::prefetch;
        prefetch(&self.id);
        prefetch(&self.clip);
        self.plan.prefetch_struct();
        prefetch(&self.layer);
        prefetch(&self.additive);
        prefetch(&self.weight);
        prefetch(&self.speed);
        prefetch(&self.looping);
        prefetch(&self.fade_in_secs);
        prefetch(&self.fade_out_secs);
        prefetch(&self.hold);
        prefetch(&self.phase);
        prefetch(&self.time_secs);
        prefetch(&self.envelope);
        prefetch(&self.fade_rate);
        prefetch(&self.started);
    }

    pub fn begin_fade_in(&mut self) {
        self.phase = Phase::Playing;
        if self.fade_in_secs > 0.0 {
            self.fade_rate = 1.0 / self.fade_in_secs;
        } else {
            self.envelope = 1.0;
            self.fade_rate = 0.0;
        }
    }

    pub fn stop(&mut self, fade_out_secs: f32) {
        if self.phase == Phase::Queued {
            self.envelope = 0.0;
        }
        self.phase = Phase::Stopping;
        self.fade_rate = if fade_out_secs > 0.0 {
            -self.envelope.max(1e-6) / fade_out_secs
        } else {
            -f32::INFINITY
        };
    }

    /// Time left before a non-looping clip ends, or before the current cycle of a looping one does.
    pub fn time_to_end(&self) -> f32 {
        if self.speed <= 0.0 {
            return f32::INFINITY;
        }
        (self.clip.duration_secs - self.time_secs).max(0.0) / self.speed
    }

    pub fn is_finished(&self) -> bool {
        self.phase == Phase::Stopping && self.envelope <= 0.0
    }

    /// Advances the clock by `dt` of character time, firing the events passed into `events`.
    pub fn advance(&mut self, dt: f32, events: &mut Vec<FiredEvent>) {
        if self.phase == Phase::Queued {
            return;
        }
        let duration = self.clip.duration_secs;
        let from = self.time_secs;
        let step = dt * self.speed;
        if !self.started {
            self.started = true;
            // Events at the very start fire on the first frame.
            self.fire(events, |t| t == from);
        }
        if step > 0.0 {
            let mut to = from + step;
            if self.looping {
                // Events of every loop passed, in order (a long frame may pass several).
                let mut lo = from;
                let mut guard = 0;
                while to > duration && guard < 1000 {
                    self.fire(events, |t| t > lo && t <= duration);
                    to -= duration;
                    lo = 0.0;
                    // The start of the next loop is passed too (an event at t = 0).
                    self.fire(events, |t| t == 0.0);
                    guard += 1;
                }
                if guard >= 1000 {
                    to = to.rem_euclid(duration);
                }
                self.fire(events, |t| t > lo && t <= to);
            } else {
                to = to.min(duration);
                self.fire(events, |t| t > from && t <= to);
                let fade_out_start = duration - self.fade_out_secs * self.speed;
                if !self.hold && to >= fade_out_start && self.phase == Phase::Playing {
                    self.stop((duration - to) / self.speed);
                }
            }
            self.time_secs = to;
        }
        self.envelope = (self.envelope + self.fade_rate * dt).clamp(0.0, 1.0);
        if self.fade_rate > 0.0 && self.envelope >= 1.0 {
            self.fade_rate = 0.0;
        }
        if !self.looping && !self.hold && self.time_secs >= duration && self.phase == Phase::Playing
        {
            self.stop(0.0);
            self.envelope = 0.0;
        }
    }

    fn fire(&self, events: &mut Vec<FiredEvent>, passed: impl Fn(f32) -> bool) {
        for (index, e) in self.clip.events.iter().enumerate() {
            if passed(e.time_secs) {
                events.push(FiredEvent {
                    play: self.id,
                    clip: Arc::clone(&self.clip),
                    index,
                });
            }
        }
    }

    /// This frame's contribution: the play weight shaped by the fade envelope.
    pub fn effective_weight(&self) -> f32 {
        if self.phase == Phase::Queued {
            0.0
        } else {
            self.weight * smooth(self.envelope)
        }
    }
}

/// Ease in and out of fades so a crossfade has no kink at either end.
fn smooth(x: f32) -> f32 {
    x * x * (3.0 - 2.0 * x)
}
