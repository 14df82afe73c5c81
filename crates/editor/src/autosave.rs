//! When to write the recovery file: soon after every edit, but never more often than once
//! per interval, and without waiting for the animator to move the mouse. The editor asks
//! every frame and, when the answer is "later", schedules a frame for then
//! (`request_repaint_after`), so an edit followed by idling is on disk within one interval.
//!
//! Plain data and an injected clock (seconds, as egui's `input.time`), so the schedule is
//! tested without a window or real time passing.

use std::time::Duration;

/// What the editor should do about the recovery file this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AutosaveStep {
    /// Nothing unsaved, or the file already holds it.
    Idle,
    /// Write the recovery file now.
    WriteNow,
    /// Unsaved work waits for the interval to pass: draw a frame after this long.
    WakeIn(Duration),
}

/// The autosave schedule for one document. `S` identifies what the document holds (the
/// undo position and revisions), so an unchanged document is never written twice.
#[derive(Clone, Debug)]
pub struct AutosaveTimer<S> {
    interval_secs: f64,
    /// When the last write was tried, and what it saved (`None`: the write failed).
    last: Option<(f64, Option<S>)>,
}

impl<S: PartialEq + Clone> AutosaveTimer<S> {
    /// At most one write per `interval_secs`; work is on disk at most that long after an
    /// edit (plus a frame).
    pub fn new(interval_secs: f32) -> Self {
        AutosaveTimer {
            interval_secs: f64::from(interval_secs.max(0.0)),
            last: None,
        }
    }

    /// `state` is what the document holds now, `None` when it has no unsaved edits.
    pub fn step(&self, now_secs: f64, state: Option<&S>) -> AutosaveStep {
        let Some(state) = state else {
            return AutosaveStep::Idle;
        };
        match &self.last {
            Some((_, Some(saved))) if saved == state => AutosaveStep::Idle,
            Some((at, _)) if now_secs - at < self.interval_secs => {
                let wait = (self.interval_secs - (now_secs - at)).max(0.0);
                // A little past the deadline, so the woken frame is not a hair too early.
                AutosaveStep::WakeIn(Duration::from_secs_f64(wait + 0.01))
            }
            _ => AutosaveStep::WriteNow,
        }
    }

    /// Whether there is unsaved work the file does not hold (a forced write at exit).
    pub fn behind(&self, state: Option<&S>) -> bool {
        match (state, &self.last) {
            (None, _) => false,
            (Some(s), Some((_, Some(saved)))) => s != saved,
            (Some(_), _) => true,
        }
    }

    /// A write of `state` was tried at `now_secs` (`ok`: it reached the disk). A failed
    /// write is tried again after an interval.
    pub fn wrote(&mut self, now_secs: f64, state: S, ok: bool) {
        self.last = Some((now_secs, ok.then_some(state)));
    }

    /// Another document: its first edit is written at once.
    pub fn reset(&mut self) {
        self.last = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drives the timer as the editor does: one frame at each of `frames` (seconds), the
    /// document changing to `edits[t]` at the given times, frames also drawn whenever the
    /// timer asked to be woken. Returns when each state reached the disk.
    fn run(interval: f32, edits: &[(f64, u32)], until: f64) -> Vec<(u32, f64)> {
        let mut timer = AutosaveTimer::new(interval);
        let mut frames: Vec<f64> = edits.iter().map(|e| e.0).collect();
        let mut written = Vec::new();
        let mut i = 0;
        while i < frames.len() {
            frames.sort_by(f64::total_cmp);
            let now = frames[i];
            i += 1;
            if now > until {
                break;
            }
            let state = edits.iter().rev().find(|e| e.0 <= now).map(|e| e.1);
            match timer.step(now, state.as_ref()) {
                AutosaveStep::Idle => {}
                AutosaveStep::WriteNow => {
                    let s = state.unwrap();
                    timer.wrote(now, s, true);
                    written.push((s, now));
                }
                AutosaveStep::WakeIn(d) => frames.push(now + d.as_secs_f64()),
            }
        }
        written
    }

    #[test]
    fn an_edit_then_idling_is_written_within_one_interval() {
        // A first edit at 0 s is written at once; a second at 1 s, then nothing: no mouse,
        // no key, no frame but the ones the timer asks for.
        let written = run(5.0, &[(0.0, 1), (1.0, 2)], 60.0);
        assert_eq!(written[0], (1, 0.0));
        let (state, at) = written[1];
        assert_eq!(state, 2);
        assert!((5.0..=5.1).contains(&at), "written at {at} s");
    }

    #[test]
    fn a_long_drag_is_written_every_interval() {
        // An edit every 0.1 s for 30 s.
        let edits: Vec<(f64, u32)> = (0..300).map(|k| (f64::from(k) * 0.1, k)).collect();
        let written = run(5.0, &edits, 40.0);
        let times: Vec<f64> = written.iter().map(|w| w.1).collect();
        assert!(
            times.windows(2).all(|w| w[1] - w[0] >= 5.0 - 1e-9),
            "{times:?}"
        );
        // However the work went on, what is on disk is never more than an interval old.
        for k in 0..300 {
            let edit_at = f64::from(k) * 0.1;
            let on_disk = written.iter().find(|w| w.0 >= k).map(|w| w.1);
            let on_disk = on_disk.unwrap_or(f64::INFINITY);
            assert!(
                on_disk - edit_at <= 5.1,
                "edit {k} at {edit_at} s on disk at {on_disk}"
            );
        }
    }

    #[test]
    fn nothing_unsaved_or_already_written_is_idle() {
        let mut timer = AutosaveTimer::new(5.0);
        assert_eq!(timer.step(0.0, None::<&u32>), AutosaveStep::Idle);
        assert_eq!(timer.step(0.0, Some(&1)), AutosaveStep::WriteNow);
        timer.wrote(0.0, 1, true);
        assert_eq!(timer.step(100.0, Some(&1)), AutosaveStep::Idle);
        assert!(!timer.behind(Some(&1)));
        assert!(timer.behind(Some(&2)));
        timer.reset();
        assert_eq!(timer.step(100.5, Some(&1)), AutosaveStep::WriteNow);
    }

    #[test]
    fn a_failed_write_is_tried_again_after_an_interval() {
        let mut timer = AutosaveTimer::new(5.0);
        timer.wrote(0.0, 1, false);
        assert!(matches!(timer.step(1.0, Some(&1)), AutosaveStep::WakeIn(_)));
        assert_eq!(timer.step(5.0, Some(&1)), AutosaveStep::WriteNow);
        assert!(timer.behind(Some(&1)));
    }
}
