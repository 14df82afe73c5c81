//! The playback clock: time on the timeline, play/pause, loop and speed.

use serde::{Deserialize, Serialize};

/// Speeds the timeline offers.
pub const SPEEDS: [f32; 7] = [0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 4.0];

/// Playback settings that persist between runs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlaybackPrefs {
    pub looping: bool,
    pub speed: f32,
}

impl Default for PlaybackPrefs {
    fn default() -> Self {
        PlaybackPrefs {
            looping: true,
            speed: 1.0,
        }
    }
}

/// Where the playhead is and whether it moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Playback {
    /// Seconds since the start of the clip, within `0..=duration`.
    pub time_secs: f32,
    pub playing: bool,
}

impl Playback {
    /// Advances the playhead by a frame's wall time. Returns the clip time that passed
    /// (0 when paused), which secondary motion integrates.
    pub fn advance(&mut self, wall_dt_secs: f32, duration_secs: f32, prefs: PlaybackPrefs) -> f32 {
        if !self.playing || duration_secs.is_nan() || duration_secs <= 0.0 {
            return 0.0;
        }
        // A stalled frame (a dialog, a debugger) must not jump the clip.
        let dt = wall_dt_secs.clamp(0.0, 0.25) * prefs.speed.clamp(0.01, 10.0);
        let mut t = self.time_secs + dt;
        if t > duration_secs {
            if prefs.looping {
                t = t.rem_euclid(duration_secs);
            } else {
                t = duration_secs;
                self.playing = false;
            }
        }
        self.time_secs = t;
        dt
    }

    pub fn toggle(&mut self, duration_secs: f32) {
        // Playing from the end of a clip that does not loop starts it over.
        if !self.playing && self.time_secs >= duration_secs - 1e-4 {
            self.time_secs = 0.0;
        }
        self.playing = !self.playing;
    }

    pub fn set_time(&mut self, time_secs: f32, duration_secs: f32) {
        if time_secs.is_finite() {
            self.time_secs = time_secs.clamp(0.0, duration_secs.max(0.0));
        }
    }

    /// Moves by whole frames at `fps`, snapping to the frame grid.
    pub fn step_frames(&mut self, frames: i32, fps: f32, duration_secs: f32) {
        let fps = if fps > 0.0 { fps } else { 30.0 };
        let frame = (self.time_secs * fps).round() as i32 + frames;
        let last = (duration_secs * fps).floor() as i32;
        self.playing = false;
        self.time_secs = (frame.clamp(0, last.max(0)) as f32 / fps).min(duration_secs);
    }

    pub fn frame(&self, fps: f32) -> i32 {
        (self.time_secs * fps).round() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playing_loops_or_stops_at_the_end() {
        let mut p = Playback {
            time_secs: 1.9,
            playing: true,
        };
        p.advance(0.05, 2.0, PlaybackPrefs::default());
        p.advance(0.06, 2.0, PlaybackPrefs::default());
        assert!(p.playing && p.time_secs < 0.1, "{p:?}");
        let once = PlaybackPrefs {
            looping: false,
            speed: 1.0,
        };
        p.time_secs = 1.95;
        p.advance(0.1, 2.0, once);
        assert!(!p.playing);
        assert_eq!(p.time_secs, 2.0);
    }

    #[test]
    fn paused_time_does_not_move_and_steps_snap_to_frames() {
        let mut p = Playback::default();
        assert_eq!(p.advance(0.5, 2.0, PlaybackPrefs::default()), 0.0);
        p.time_secs = 0.51;
        p.step_frames(1, 30.0, 2.0);
        assert_eq!(p.frame(30.0), 16);
        p.step_frames(-100, 30.0, 2.0);
        assert_eq!(p.time_secs, 0.0);
        p.step_frames(1000, 30.0, 2.0);
        assert_eq!(p.time_secs, 2.0);
    }
}
