//! `--bench-frames N`: run the real editor window for N frames with the clip playing, then
//! print frame-time statistics and close. A measurement, not a test (DESIGN.md).

use std::time::Instant;

/// Frames skipped before measuring, while shaders compile and buffers grow.
const WARM_UP_FRAMES: usize = 20;

/// Collects wall-clock frame times.
#[derive(Debug)]
pub struct BenchRecorder {
    frames: usize,
    seen: usize,
    last: Option<Instant>,
    samples_ms: Vec<f32>,
    reported: bool,
}

/// What a bench run measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchReport {
    pub frames: usize,
    pub median_ms: f32,
    pub p90_ms: f32,
    pub mean_ms: f32,
}

impl BenchRecorder {
    pub fn new(frames: usize) -> Self {
        BenchRecorder {
            frames: frames.max(1),
            seen: 0,
            last: None,
            samples_ms: Vec::with_capacity(frames),
            reported: false,
        }
    }

    /// Marks the end of a frame; returns the report once enough frames were seen.
    pub fn frame(&mut self) -> Option<BenchReport> {
        let now = Instant::now();
        if let Some(last) = self.last
            && self.seen > WARM_UP_FRAMES
        {
            self.samples_ms.push((now - last).as_secs_f32() * 1000.0);
        }
        self.last = Some(now);
        self.seen += 1;
        if self.reported || self.samples_ms.len() < self.frames {
            return None;
        }
        self.reported = true;
        let mut sorted = self.samples_ms.clone();
        sorted.sort_by(f32::total_cmp);
        let at = |q: f32| sorted[((sorted.len() - 1) as f32 * q).round() as usize];
        Some(BenchReport {
            frames: sorted.len(),
            median_ms: at(0.5),
            p90_ms: at(0.9),
            mean_ms: sorted.iter().sum::<f32>() / sorted.len() as f32,
        })
    }
}
