//! Key reduction for export: drop every key whose removal changes its channel's generalized
//! curve by less than a tolerance, checked by sampling the reduced curve against the original.
//!
//! Tolerances are in each curve's own units: a position curve's generalized units (metres for
//! absolute modes; the mode's scale — creature size or limb length — for relative ones), a
//! rotation's radians, and plain numbers for weights and deforms. The error is always measured
//! against the original curve, so removals never add up past the tolerance.

use anymorph_runtime::clip::Clip;
use anymorph_runtime::curve::{Keyable, KeyedCurve};
use anymorph_runtime::math::rotation_angle_between;
use glam::{Quat, Vec3};
use serde::Serialize;
use std::collections::BTreeMap;

/// How far a reduced curve may stray: one number for every channel, or a channel's own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tolerance {
    pub default: f32,
    /// Per channel name, overriding `default`.
    pub channels: BTreeMap<String, f32>,
}

impl Tolerance {
    pub fn for_channel(&self, name: &str) -> f32 {
        self.channels.get(name).copied().unwrap_or(self.default)
    }
}

/// Keys before and after, per clip and channel.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Reduction {
    pub clip: String,
    pub channel: String,
    pub keys_before: usize,
    pub keys_after: usize,
    /// The largest difference left, in the curve's units.
    pub max_error: f32,
}

/// Reduces every curve of every channel of `clip` in place.
pub fn reduce_clip(clip: &mut Clip, tolerance: &Tolerance) -> Vec<Reduction> {
    let step = 1.0 / (4.0 * clip.fps.max(1.0));
    let clip_name = clip.name.clone();
    let mut out = Vec::with_capacity(clip.channels.len());
    for ch in &mut clip.channels {
        let tol = tolerance.for_channel(&ch.name);
        let mut r = Reduction {
            clip: clip_name.clone(),
            channel: ch.name.clone(),
            ..Default::default()
        };
        let mut apply = |before: usize, after: usize, err: f32| {
            r.keys_before += before;
            r.keys_after += after;
            r.max_error = r.max_error.max(err);
        };
        if let Some(c) = &mut ch.position {
            let (b, a, e) = reduce_curve(c, tol, step, |x: Vec3, y: Vec3| x.distance(y));
            apply(b, a, e);
        }
        if let Some(c) = &mut ch.rotation {
            let (b, a, e) = reduce_curve(c, tol, step, |x: Quat, y: Quat| {
                rotation_angle_between(x, y)
            });
            apply(b, a, e);
        }
        for c in [&mut ch.position_weight, &mut ch.rotation_weight]
            .into_iter()
            .flatten()
            .chain(ch.deforms.values_mut())
        {
            let (b, a, e) = reduce_curve(c, tol, step, |x: f32, y: f32| (x - y).abs());
            apply(b, a, e);
        }
        out.push(r);
    }
    out
}

/// Greedy removal of interior keys; returns (keys before, keys after, largest error).
pub fn reduce_curve<T: Keyable>(
    curve: &mut KeyedCurve<T>,
    tolerance: f32,
    step_secs: f32,
    distance: impl Fn(T, T) -> f32,
) -> (usize, usize, f32) {
    let before = curve.len();
    if before <= 2 || !(tolerance.is_finite() && tolerance > 0.0) {
        return (before, before, 0.0);
    }
    let original = curve.clone();
    let times = sample_times(&original, step_secs);
    let error = |c: &KeyedCurve<T>| -> f32 {
        times
            .iter()
            .map(|&t| match (original.sample(t), c.sample(t)) {
                (Some(a), Some(b)) => distance(a, b),
                _ => f32::INFINITY,
            })
            .fold(0.0, f32::max)
    };
    let mut worst = 0.0f32;
    let mut i = 1;
    while i + 1 < curve.len() {
        let mut candidate = curve.clone();
        candidate.remove(i);
        let e = error(&candidate);
        if e.is_finite() && e < tolerance {
            *curve = candidate;
            worst = worst.max(e);
        } else {
            i += 1;
        }
    }
    (before, curve.len(), worst)
}

/// Every key time and the midpoints between, plus a grid `step_secs` apart.
fn sample_times<T: Keyable>(curve: &KeyedCurve<T>, step_secs: f32) -> Vec<f32> {
    let Some((start, end)) = curve.domain() else {
        return Vec::new();
    };
    let mut times: Vec<f32> = curve.keys().iter().map(|k| k.time).collect();
    times.extend(
        curve
            .keys()
            .windows(2)
            .map(|w| 0.5 * (w[0].time + w[1].time)),
    );
    let count = (((end - start) / step_secs.max(1e-4)).ceil() as usize).min(100_000);
    times.extend((0..=count).map(|i| start + (end - start) * i as f32 / count.max(1) as f32));
    times
}

#[cfg(test)]
mod tests {
    use super::*;
    use anymorph_runtime::curve::Key;

    #[test]
    fn keys_on_a_straight_line_go_and_a_bump_stays() {
        let keys = (0..=10)
            .map(|i| {
                let t = i as f32 * 0.1;
                let bump = if i == 5 { 0.5 } else { 0.0 };
                Key::new(t, Vec3::new(t, bump, 0.0))
                    .with_mode(anymorph_runtime::curve::TangentMode::Linear)
            })
            .collect();
        let mut c = KeyedCurve::new(keys).unwrap();
        let (before, after, err) =
            reduce_curve(&mut c, 1e-3, 0.01, |a: Vec3, b: Vec3| a.distance(b));
        assert_eq!(before, 11);
        // Start, the bump and its two neighbours (which hold the bump's base), end.
        assert!(after <= 5, "{after}");
        assert!(c.keys().iter().any(|k| (k.value.y - 0.5).abs() < 1e-6));
        assert!(err < 1e-3);
    }

    #[test]
    fn a_zero_tolerance_keeps_everything() {
        let keys = (0..5).map(|i| Key::new(i as f32, i as f32)).collect();
        let mut c = KeyedCurve::new(keys).unwrap();
        assert_eq!(
            reduce_curve(&mut c, 0.0, 0.1, |a: f32, b: f32| (a - b).abs()),
            (5, 5, 0.0)
        );
    }
}
