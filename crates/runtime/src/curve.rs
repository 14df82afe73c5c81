//! Keyframed animation curves, like Maya's or Blender's F-curves.
//!
//! A [`KeyedCurve`] is a time-sorted list of [`Key`]s joined by cubic Hermite segments, one
//! per component. The same code animates scalars (`f32`), positions ([`Vec3`]) and rotations
//! ([`Quat`]). Rotations are interpolated on their four components and normalized afterwards,
//! as Blender's quaternion F-curves are: keys are kept in one hemisphere, so a linear segment
//! is exactly the great-circle arc and a rotation never takes the long way round.
//!
//! Tangents are resolved whenever the keys change and stored in the keys, so sampling is a
//! search plus one polynomial, with no allocation.

use glam::{Quat, Vec3, Vec4};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

/// Consecutive keys closer than this (seconds) are the same instant, which would make the
/// segment between them divide by ~0.
const MIN_KEY_GAP: f32 = 1e-6;

/// Edits treat a time within this distance (seconds) of an existing key as that key, so
/// that re-keying at a frame time that went through float arithmetic replaces the key
/// instead of squeezing a near-duplicate next to it.
const SNAP: f32 = 1e-4;

/// How a key's tangents are obtained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TangentMode {
    /// The slope across both neighbouring keys (smooth, may overshoot).
    Auto,
    /// Like [`TangentMode::Auto`], but flat at extrema and open ends and limited so that the
    /// curve never overshoots between monotone keys. The default, as in Blender: a held
    /// pose (two equal keys) stays held instead of bulging past the value.
    #[default]
    AutoClamped,
    /// Zero slope.
    Flat,
    /// The slopes of the straight lines to the neighbouring keys.
    Linear,
    /// Holds this key's value until the next key.
    Step,
    /// Authored tangents, see [`Key::broken`].
    Free,
}

/// A value a curve can animate, seen as up to 4 float components.
pub trait Keyable: Copy + PartialEq + std::fmt::Debug + Send + Sync + 'static {
    /// How many of the 4 components are used: 1 for `f32`, 3 for `Vec3`, 4 for `Quat`.
    const DIM: usize;
    /// The components; unused trailing components are 0.
    fn to_components(self) -> [f32; 4];
    /// Builds a value from raw components, without normalization (tangents use this too).
    fn from_components(c: [f32; 4]) -> Self;
    /// Called on an interpolated value: `Quat` normalizes (returning `None` if the norm is
    /// ~0), others return `Some(self)`.
    fn finish(self) -> Option<Self>;
    /// Whether this value should be negated to lie in the same hemisphere as `prev`
    /// (`Quat`: dot < 0; others: false).
    fn flips_against(self, prev: Self) -> bool;
}

impl Keyable for f32 {
    const DIM: usize = 1;

    fn to_components(self) -> [f32; 4] {
        [self, 0.0, 0.0, 0.0]
    }

    fn from_components(c: [f32; 4]) -> Self {
        c[0]
    }

    fn finish(self) -> Option<Self> {
        Some(self)
    }

    fn flips_against(self, _prev: Self) -> bool {
        false
    }
}

impl Keyable for Vec3 {
    const DIM: usize = 3;

    fn to_components(self) -> [f32; 4] {
        [self.x, self.y, self.z, 0.0]
    }

    fn from_components(c: [f32; 4]) -> Self {
        Vec3::new(c[0], c[1], c[2])
    }

    fn finish(self) -> Option<Self> {
        Some(self)
    }

    fn flips_against(self, _prev: Self) -> bool {
        false
    }
}

impl Keyable for Quat {
    const DIM: usize = 4;

    fn to_components(self) -> [f32; 4] {
        self.to_array()
    }

    fn from_components(c: [f32; 4]) -> Self {
        Quat::from_array(c)
    }

    fn finish(self) -> Option<Self> {
        let v = Vec4::from(self);
        let len2 = v.length_squared();
        // Leaving already-unit values alone makes `finish` idempotent, so validated keys
        // survive a save/load round trip bit for bit.
        if (len2 - 1.0).abs() <= 1e-6 {
            return Some(self);
        }
        if len2.is_finite() && len2 > 1e-12 {
            return Some(Quat::from_vec4(v / len2.sqrt()));
        }
        // Huge (but finite) components overflow `length_squared`; scaling by the largest one
        // first still gives the direction.
        let largest = v.abs().max_element();
        if largest.is_finite() && largest > 1e-6 {
            (v / largest).try_normalize().map(Quat::from_vec4)
        } else {
            None
        }
    }

    fn flips_against(self, prev: Self) -> bool {
        self.dot(prev) < 0.0
    }
}

fn zero<T: Keyable>() -> T {
    T::from_components([0.0; 4])
}

fn negated<T: Keyable>(v: T) -> T {
    T::from_components(v.to_components().map(|c| -c))
}

/// One key of a [`KeyedCurve`].
///
/// In JSON, `in`/`out` are written only for [`TangentMode::Free`] keys and `broken` only when
/// set; `mode` defaults to `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(bound(deserialize = "T: Deserialize<'de>"), deny_unknown_fields)]
pub struct Key<T: Keyable> {
    /// Time in seconds.
    pub time: f32,
    /// Value at `time`.
    pub value: T,
    /// How the tangents are obtained.
    #[serde(default)]
    pub mode: TangentMode,
    /// Slope arriving at the key (value units per second, per component). Authored for Free
    /// keys; for all other modes it is computed by the curve.
    #[serde(default = "zero", rename = "in")]
    pub in_tangent: T,
    /// Slope leaving the key (value units per second, per component). Authored for Free
    /// keys; for all other modes it is computed by the curve.
    #[serde(default = "zero", rename = "out")]
    pub out_tangent: T,
    /// Free keys only: in and out tangents move independently. When not broken, the curve
    /// uses `in_tangent` for both sides.
    #[serde(default)]
    pub broken: bool,
}

impl<T: Keyable> Key<T> {
    /// An [`TangentMode::AutoClamped`] key (the default mode).
    pub fn new(time: f32, value: T) -> Self {
        Self {
            time,
            value,
            mode: TangentMode::AutoClamped,
            in_tangent: zero(),
            out_tangent: zero(),
            broken: false,
        }
    }

    /// The same key with another tangent mode.
    pub fn with_mode(self, mode: TangentMode) -> Self {
        Self { mode, ..self }
    }

    /// The same key made [`TangentMode::Free`] with the given tangents.
    pub fn with_tangents(self, in_tangent: T, out_tangent: T, broken: bool) -> Self {
        Self {
            mode: TangentMode::Free,
            in_tangent,
            out_tangent,
            broken,
            ..self
        }
    }
}

// Written by hand because whether `in`/`out` are written depends on another field (`mode`),
// which `skip_serializing_if` cannot see.
impl<T: Keyable + Serialize> Serialize for Key<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let free = self.mode == TangentMode::Free;
        // Leaving out the default mode keeps clip files short.
        let auto = self.mode == TangentMode::default();
        let len = 2 + usize::from(!auto) + if free { 2 } else { 0 } + usize::from(self.broken);
        let mut s = serializer.serialize_struct("Key", len)?;
        s.serialize_field("time", &self.time)?;
        s.serialize_field("value", &self.value)?;
        if !auto {
            s.serialize_field("mode", &self.mode)?;
        }
        if free {
            s.serialize_field("in", &self.in_tangent)?;
            s.serialize_field("out", &self.out_tangent)?;
        }
        if self.broken {
            s.serialize_field("broken", &self.broken)?;
        }
        s.end()
    }
}

/// Why a set of keys or an edit was rejected. Each message starts with the JSON path of the
/// offending field, e.g. `keys[3].time`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CurveError {
    /// A time, value or Free tangent component is NaN or infinite.
    #[error("{path}: {value} is not a finite number")]
    NotFinite {
        /// JSON path, e.g. `keys[2].value[1]` (the component index only for vectors).
        path: String,
        /// The offending number.
        value: f32,
    },
    /// A time, value or Free tangent component beyond the working range
    /// ([`WORKING_RANGE`](crate::math::WORKING_RANGE)).
    #[error("{path}: {value} is outside the working range of ±1e6")]
    OutOfRange {
        /// JSON path, as for `NotFinite`.
        path: String,
        /// The offending number.
        value: f32,
    },
    /// A key comes before the previous one.
    #[error("keys[{index}].time: keys must be in increasing time order ({time} after {previous})")]
    OutOfOrder {
        /// Index of the key.
        index: usize,
        /// Its time.
        time: f32,
        /// The previous key's time.
        previous: f32,
    },
    /// A key is at the same time as the previous one (within 1e-6 s).
    #[error(
        "keys[{index}].time: two keys at the same time ({time} and {previous} are within 1e-6 s)"
    )]
    DuplicateTime {
        /// Index of the key.
        index: usize,
        /// Its time.
        time: f32,
        /// The previous key's time.
        previous: f32,
    },
    /// A quaternion key whose norm is ~0, which is no rotation.
    #[error("keys[{index}].value: a zero-length quaternion is not a rotation")]
    Degenerate {
        /// Index of the key.
        index: usize,
    },
    /// An edit would put a key within 1e-4 s of another.
    #[error("keys[{index}].time: {time} is within 1e-4 s of the key at {other}")]
    Collision {
        /// Index of the key being moved.
        index: usize,
        /// Where it was to go.
        time: f32,
        /// The time of the key in the way.
        other: f32,
    },
    /// An edit named a key that does not exist.
    #[error("keys[{index}]: no such key (the curve has {len})")]
    NoSuchKey {
        /// The index asked for.
        index: usize,
        /// How many keys there are.
        len: usize,
    },
}

/// bevy_math-style curve trait.
pub trait Curve<T> {
    /// First and last key times, or `None` for an empty curve.
    fn domain(&self) -> Option<(f32, f32)>;
    /// The value at `t`, clamped to the domain; `None` only for an empty curve.
    fn sample_clamped(&self, t: f32) -> Option<T>;
}

/// An animation curve: sorted keys joined by cubic Hermite segments.
///
/// Serializes as a JSON array of keys; deserializing validates (see [`KeyedCurve::new`]) and
/// resolves tangents. The loop period ([`KeyedCurve::set_cyclic`]) is not serialized: it
/// belongs to the clip.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(try_from = "Vec<Key<T>>", bound(deserialize = "T: Deserialize<'de>"))]
pub struct KeyedCurve<T: Keyable> {
    keys: Vec<Key<T>>,
    cyclic: Option<f32>,
}

impl<T: Keyable + Serialize> Serialize for KeyedCurve<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.keys.serialize(serializer)
    }
}

impl<T: Keyable> TryFrom<Vec<Key<T>>> for KeyedCurve<T> {
    type Error = CurveError;

    fn try_from(keys: Vec<Key<T>>) -> Result<Self, CurveError> {
        Self::new(keys)
    }
}

impl<T: Keyable> From<KeyedCurve<T>> for Vec<Key<T>> {
    fn from(curve: KeyedCurve<T>) -> Self {
        curve.keys
    }
}

impl<T: Keyable> Default for KeyedCurve<T> {
    fn default() -> Self {
        Self::empty()
    }
}

impl<T: Keyable> Curve<T> for KeyedCurve<T> {
    fn domain(&self) -> Option<(f32, f32)> {
        KeyedCurve::domain(self)
    }

    fn sample_clamped(&self, t: f32) -> Option<T> {
        self.sample(t)
    }
}

/// A neighbour of a key as seen by tangent resolution: its time (shifted by the period when
/// it is across the loop) and components, in f64 so that slopes of huge values over tiny
/// gaps do not overflow before they are clamped.
type Neighbour = (f64, [f64; 4]);

/// How the ends of a cyclic curve see each other.
#[derive(Clone, Copy)]
struct Wrap {
    period: f64,
    /// Keys before the optional last key that duplicates the first one period later.
    unique: usize,
}

impl<T: Keyable> KeyedCurve<T> {
    /// Validates the keys (every float finite, times strictly increasing and more than
    /// 1e-6 s apart, quaternions non-zero, which are normalized), aligns quaternion
    /// hemispheres (negating the value and Free tangents of a key that flips against the
    /// previous one) and resolves tangents.
    pub fn new(keys: Vec<Key<T>>) -> Result<Self, CurveError> {
        Self::build(keys, None)
    }

    /// A curve with no keys; it samples to `None`.
    pub fn empty() -> Self {
        Self {
            keys: Vec::new(),
            cyclic: None,
        }
    }

    /// A single key at t = 0, so the curve is `value` everywhere.
    ///
    /// A non-finite or (for quaternions) zero value gives an empty curve, since this
    /// constructor cannot report an error.
    pub fn constant(value: T) -> Self {
        Self::new(vec![Key::new(0.0, value)]).unwrap_or_default()
    }

    /// The keys, sorted by time, with resolved tangents.
    pub fn keys(&self) -> &[Key<T>] {
        &self.keys
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// First and last key times, or `None` when empty.
    pub fn domain(&self) -> Option<(f32, f32)> {
        Some((self.keys.first()?.time, self.keys.last()?.time))
    }

    /// The loop period set by [`KeyedCurve::set_cyclic`].
    pub fn cyclic(&self) -> Option<f32> {
        self.cyclic
    }

    /// The value at `t`: `None` only when empty; the first/last key's value outside the
    /// domain; a NaN `t` gives the first key's value.
    pub fn sample(&self, t: f32) -> Option<T> {
        let (first, last) = (self.keys.first()?, self.keys.last()?);
        if t.is_nan() || t <= first.time {
            return Some(first.value);
        }
        if t >= last.time {
            return Some(last.value);
        }
        // Here first.time < t < last.time, so at least one key is at or before t and one after.
        let segment = self.keys.partition_point(|k| k.time <= t).saturating_sub(1);
        self.eval(segment, t)
    }

    /// Same result as [`KeyedCurve::sample`], but starts the key search at `*cursor` (the
    /// segment index used last time) and updates it: O(1) for playback that moves forward a
    /// little each frame; falls back to binary search. Any `cursor` value is accepted.
    pub fn sample_with_cursor(&self, t: f32, cursor: &mut usize) -> Option<T> {
        let (first, last) = (self.keys.first()?, self.keys.last()?);
        if t.is_nan() || t <= first.time {
            *cursor = 0;
            return Some(first.value);
        }
        if t >= last.time {
            *cursor = self.keys.len().saturating_sub(2);
            return Some(last.value);
        }
        let contains = |i: usize| match (self.keys.get(i), self.keys.get(i.wrapping_add(1))) {
            (Some(a), Some(b)) => a.time <= t && t < b.time,
            _ => false,
        };
        let segment = if contains(*cursor) {
            *cursor
        } else if contains(cursor.wrapping_add(1)) {
            cursor.wrapping_add(1)
        } else {
            self.keys.partition_point(|k| k.time <= t).saturating_sub(1)
        };
        *cursor = segment;
        self.eval(segment, t)
    }

    /// Sets the value of the key within 1e-4 s of `time` (the nearest one, keeping its time,
    /// mode and tangents) or inserts a new key in the default mode; returns its index.
    pub fn set_key(&mut self, time: f32, value: T) -> Result<usize, CurveError> {
        let snapped = self.nearest_within_snap(time)?;
        let mut keys = self.keys.clone();
        let index = match snapped.and_then(|i| Some((i, keys.get_mut(i)?))) {
            Some((i, key)) => {
                // The key's Free tangents belong to its current hemisphere; putting the new
                // value there keeps alignment from flipping the tangents against it.
                key.value = if value.flips_against(key.value) {
                    negated(value)
                } else {
                    value
                };
                i
            }
            None => {
                let i = keys.partition_point(|k| k.time < time);
                keys.insert(i, Key::new(time, value));
                i
            }
        };
        *self = Self::build(keys, self.cyclic)?;
        Ok(index)
    }

    /// Like [`KeyedCurve::set_key`] with a full key: a key within 1e-4 s of `key.time` is
    /// replaced by `key` (keeping the existing key's time, so repeated edits do not drift);
    /// otherwise `key` is inserted. Returns its index.
    pub fn insert(&mut self, key: Key<T>) -> Result<usize, CurveError> {
        let snapped = self.nearest_within_snap(key.time)?;
        let mut keys = self.keys.clone();
        let index = match snapped.and_then(|i| Some((i, keys.get_mut(i)?))) {
            Some((i, slot)) => {
                *slot = Key {
                    time: slot.time,
                    ..key
                };
                i
            }
            None => {
                let i = keys.partition_point(|k| k.time < key.time);
                keys.insert(i, key);
                i
            }
        };
        *self = Self::build(keys, self.cyclic)?;
        Ok(index)
    }

    /// Removes and returns the key at `index` (`None` if there is none).
    pub fn remove(&mut self, index: usize) -> Option<Key<T>> {
        if index >= self.keys.len() {
            return None;
        }
        let key = self.keys.remove(index);
        self.align_and_resolve();
        Some(key)
    }

    /// Moves the key at `index` to `time`, keeping its value, mode and tangents; returns its
    /// new index. Errors if there is no such key, `time` is not finite, or it would land
    /// within 1e-4 s of another key.
    pub fn move_key(&mut self, index: usize, time: f32) -> Result<usize, CurveError> {
        let len = self.keys.len();
        if index >= len {
            return Err(CurveError::NoSuchKey { index, len });
        }
        if !time.is_finite() {
            return Err(CurveError::NotFinite {
                path: format!("keys[{index}].time"),
                value: time,
            });
        }
        if let Some(other) = self
            .keys
            .iter()
            .enumerate()
            .find(|&(i, k)| i != index && (k.time - time).abs() <= SNAP)
        {
            return Err(CurveError::Collision {
                index,
                time,
                other: other.1.time,
            });
        }
        let mut keys = self.keys.clone();
        let mut key = keys.remove(index);
        key.time = time;
        let new_index = keys.partition_point(|k| k.time < time);
        keys.insert(new_index, key);
        *self = Self::build(keys, self.cyclic)?;
        Ok(new_index)
    }

    /// Changes the tangent mode of the key at `index` (nothing if there is none). Switching
    /// to Free keeps the tangents the key had, so the curve does not change shape.
    pub fn set_mode(&mut self, index: usize, mode: TangentMode) {
        if let Some(key) = self.keys.get_mut(index) {
            key.mode = mode;
            self.resolve();
        }
    }

    /// Makes the key at `index` Free with these tangents. Nothing happens if there is no
    /// such key or a tangent component is not finite. When `broken` is false, `in_tangent`
    /// is used for both sides.
    pub fn set_tangents(&mut self, index: usize, in_tangent: T, out_tangent: T, broken: bool) {
        if !all_finite(in_tangent) || !all_finite(out_tangent) {
            return;
        }
        if let Some(key) = self.keys.get_mut(index) {
            key.mode = TangentMode::Free;
            key.in_tangent = in_tangent;
            key.out_tangent = out_tangent;
            key.broken = broken;
            self.resolve();
        }
    }

    /// Loop period for auto tangents: the first and last keys see the keys across the loop as
    /// neighbours (a key exactly at start+period duplicates the first and is skipped as a
    /// neighbour), so a looping clip has no kink at the seam. `None` = open curve.
    ///
    /// A period that is not finite and positive is stored as `None`. One shorter than the
    /// keys' span is kept (keys may yet be moved to fit) but leaves the ends open while it is
    /// too short. Sampling is unaffected: it still clamps, wrapping time is the caller's job.
    pub fn set_cyclic(&mut self, period: Option<f32>) {
        // A NaN period would also make the curve unequal to itself.
        self.cyclic = period.filter(|p| p.is_finite() && *p > 0.0);
        self.resolve();
    }

    /// Applies `value` to every key's value and `tangent` to every key's in/out tangents
    /// (used when re-expressing keys in another coordinate frame), then re-validates and
    /// re-resolves. On error the curve is left unchanged.
    pub fn map(
        &mut self,
        mut value: impl FnMut(T) -> T,
        mut tangent: impl FnMut(T) -> T,
    ) -> Result<(), CurveError> {
        let keys = self
            .keys
            .iter()
            .map(|k| Key {
                value: value(k.value),
                in_tangent: tangent(k.in_tangent),
                out_tangent: tangent(k.out_tangent),
                ..*k
            })
            .collect();
        *self = Self::build(keys, self.cyclic)?;
        Ok(())
    }

    fn build(mut keys: Vec<Key<T>>, cyclic: Option<f32>) -> Result<Self, CurveError> {
        validate(&mut keys)?;
        let mut curve = Self { keys, cyclic };
        curve.align_and_resolve();
        Ok(curve)
    }

    /// The nearest key within [`SNAP`] of `time`, which must be finite.
    fn nearest_within_snap(&self, time: f32) -> Result<Option<usize>, CurveError> {
        if !time.is_finite() {
            return Err(CurveError::NotFinite {
                path: format!("keys[{}].time", self.keys.len()),
                value: time,
            });
        }
        let after = self.keys.partition_point(|k| k.time < time);
        let candidates = [after.checked_sub(1), Some(after)];
        Ok(candidates
            .into_iter()
            .flatten()
            .filter_map(|i| Some((i, (self.keys.get(i)?.time - time).abs())))
            .filter(|&(_, d)| d <= SNAP)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i))
    }

    fn align_and_resolve(&mut self) {
        for i in 1..self.keys.len() {
            let prev = self.keys[i - 1].value;
            let key = &mut self.keys[i];
            if key.value.flips_against(prev) {
                key.value = negated(key.value);
                if key.mode == TangentMode::Free {
                    key.in_tangent = negated(key.in_tangent);
                    key.out_tangent = negated(key.out_tangent);
                }
            }
        }
        self.resolve();
    }

    fn wrap(&self) -> Option<Wrap> {
        let period = self.cyclic?;
        let (first, last) = (self.keys.first()?.time, self.keys.last()?.time);
        if last - first > period + SNAP {
            return None;
        }
        let n = self.keys.len();
        let duplicate = n >= 2 && (last - (first + period)).abs() <= SNAP;
        let unique = if duplicate { n - 1 } else { n };
        let wrap = Wrap {
            period: f64::from(period),
            unique,
        };
        // Both seam gaps must be real segments, or the slopes across them blow up.
        let before_first = self.neighbour(0, wrap, true)?;
        let after_last = self.neighbour(n - 1, wrap, false)?;
        let gap_min = f64::from(MIN_KEY_GAP);
        (f64::from(first) - before_first.0 > gap_min && after_last.0 - f64::from(last) > gap_min)
            .then_some(wrap)
    }

    /// The key across the loop from key `i`: before the first key, or after the last.
    fn neighbour(&self, i: usize, wrap: Wrap, before: bool) -> Option<Neighbour> {
        let this = self.keys.get(i)?.value;
        let (other, shift) = if before {
            (self.keys.get(wrap.unique.checked_sub(1)?)?, -wrap.period)
        } else {
            // A duplicate last key sits where the first does, one period on, so its neighbour
            // is the one after the first key.
            let next = if wrap.unique < self.keys.len() { 1 } else { 0 };
            (self.keys.get(next)?, wrap.period)
        };
        let value = if other.value.flips_against(this) {
            negated(other.value)
        } else {
            other.value
        };
        Some((f64::from(other.time) + shift, widen(value)))
    }

    fn resolve(&mut self) {
        let wrap = self.wrap();
        let n = self.keys.len();
        for i in 0..n {
            let key = self.keys[i];
            let prev = match i.checked_sub(1) {
                Some(p) => Some((f64::from(self.keys[p].time), widen(self.keys[p].value))),
                None => wrap.and_then(|w| self.neighbour(i, w, true)),
            };
            let next = match self.keys.get(i + 1) {
                Some(k) => Some((f64::from(k.time), widen(k.value))),
                None => wrap.and_then(|w| self.neighbour(i, w, false)),
            };
            let here = (f64::from(key.time), widen(key.value));
            let s_l = prev.map(|p| slope(p, here));
            let s_r = next.map(|q| slope(here, q));
            let gaps = (
                prev.map_or(0.0, |p| here.0 - p.0),
                next.map_or(0.0, |q| q.0 - here.0),
            );
            let (in_tangent, out_tangent) = tangents(key, s_l, s_r, gaps);
            let key = &mut self.keys[i];
            key.in_tangent = in_tangent;
            key.out_tangent = out_tangent;
            key.broken = key.broken && key.mode == TangentMode::Free;
        }
    }

    fn eval(&self, segment: usize, t: f32) -> Option<T> {
        let (k0, k1) = (self.keys.get(segment)?, self.keys.get(segment + 1)?);
        if k0.mode == TangentMode::Step {
            return Some(k0.value);
        }
        let dt = k1.time - k0.time;
        let u = (t - k0.time) / dt;
        // Returning the keys themselves at the ends makes sampling at a key exact, which
        // renormalizing a quaternion would not be.
        if u.is_nan() || u <= 0.0 {
            return Some(k0.value);
        }
        if u >= 1.0 {
            return Some(k1.value);
        }
        let (u2, u3) = (u * u, u * u * u);
        let h00 = 2.0 * u3 - 3.0 * u2 + 1.0;
        let h10 = (u3 - 2.0 * u2 + u) * dt;
        let h01 = -2.0 * u3 + 3.0 * u2;
        let h11 = (u3 - u2) * dt;
        let (a, m0) = (k0.value.to_components(), k0.out_tangent.to_components());
        let (b, m1) = (k1.value.to_components(), k1.in_tangent.to_components());
        let mut p = [0.0; 4];
        for c in 0..T::DIM.min(4) {
            p[c] = h00 * a[c] + h10 * m0[c] + h01 * b[c] + h11 * m1[c];
        }
        let nearer = if u < 0.5 { k0.value } else { k1.value };
        // Extreme (finite) keys can overflow the polynomial; a key value is a sane answer.
        if p.iter().any(|c| !c.is_finite()) {
            return Some(nearer);
        }
        Some(T::from_components(p).finish().unwrap_or(nearer))
    }
}

fn all_finite<T: Keyable>(v: T) -> bool {
    v.to_components().iter().all(|c| c.is_finite())
}

fn widen<T: Keyable>(v: T) -> [f64; 4] {
    v.to_components().map(f64::from)
}

fn narrow<T: Keyable>(c: [f64; 4]) -> T {
    T::from_components(c.map(|x| {
        if x.is_nan() {
            0.0
        } else {
            // `as` saturates to infinity; tangents must stay finite like everything stored.
            (x as f32).clamp(-f32::MAX, f32::MAX)
        }
    }))
}

fn slope(a: Neighbour, b: Neighbour) -> [f64; 4] {
    let dt = b.0 - a.0;
    std::array::from_fn(|c| (b.1[c] - a.1[c]) / dt)
}

fn per_component(l: [f64; 4], r: [f64; 4], f: impl Fn(f64, f64) -> f64) -> [f64; 4] {
    std::array::from_fn(|c| f(l[c], r[c]))
}

fn tangents<T: Keyable>(
    key: Key<T>,
    s_l: Option<[f64; 4]>,
    s_r: Option<[f64; 4]>,
    (gap_l, gap_r): (f64, f64),
) -> (T, T) {
    const ZERO: [f64; 4] = [0.0; 4];
    // The slope across both neighbours, (v₊ − v₋)/(t₊ − t₋): the plain average of the two
    // slopes overshoots badly when a key sits much closer to one neighbour than the other.
    let span = gap_l + gap_r;
    let auto = match (s_l, s_r) {
        (Some(l), Some(r)) if span > 0.0 => {
            per_component(l, r, |l, r| (l * gap_l + r * gap_r) / span)
        }
        (Some(l), Some(r)) => per_component(l, r, |l, r| (l + r) / 2.0),
        (Some(s), None) | (None, Some(s)) => s,
        (None, None) => ZERO,
    };
    match key.mode {
        TangentMode::Auto => (narrow(auto), narrow(auto)),
        TangentMode::AutoClamped => {
            let m = match (s_l, s_r) {
                (Some(l), Some(r)) => per_component(l, r, |l, r| {
                    // Opposite signs or a zero slope: the key is an extremum (or on a plateau)
                    // and any slope would overshoot it.
                    if l * r <= 0.0 {
                        0.0
                    } else {
                        // Fritsch–Carlson: |m| <= 3·min(|s|) keeps both adjacent Hermite
                        // segments monotone.
                        let limit = 3.0 * l.abs().min(r.abs());
                        let m = if span > 0.0 {
                            (l * gap_l + r * gap_r) / span
                        } else {
                            (l + r) / 2.0
                        };
                        m.clamp(-limit, limit)
                    }
                }),
                _ => ZERO,
            };
            (narrow(m), narrow(m))
        }
        TangentMode::Flat => (zero(), zero()),
        TangentMode::Linear => {
            let in_slope = s_l.or(s_r).unwrap_or(ZERO);
            let out_slope = s_r.or(s_l).unwrap_or(ZERO);
            (narrow(in_slope), narrow(out_slope))
        }
        // The held segment never reads the out tangent; zero matches its actual slope.
        TangentMode::Step => (narrow(auto), zero()),
        TangentMode::Free if key.broken => (key.in_tangent, key.out_tangent),
        TangentMode::Free => (key.in_tangent, key.in_tangent),
    }
}

fn check_finite<T: Keyable>(index: usize, field: &str, v: T) -> Result<(), CurveError> {
    let components = v.to_components();
    for (c, &x) in components.iter().enumerate().take(T::DIM.min(4)) {
        if !x.is_finite() {
            let path = if T::DIM == 1 {
                format!("keys[{index}].{field}")
            } else {
                format!("keys[{index}].{field}[{c}]")
            };
            return Err(CurveError::NotFinite { path, value: x });
        }
        if x.abs() > crate::math::WORKING_RANGE {
            let path = if T::DIM == 1 {
                format!("keys[{index}].{field}")
            } else {
                format!("keys[{index}].{field}[{c}]")
            };
            return Err(CurveError::OutOfRange { path, value: x });
        }
    }
    Ok(())
}

fn validate<T: Keyable>(keys: &mut [Key<T>]) -> Result<(), CurveError> {
    let mut previous: Option<f32> = None;
    for (index, key) in keys.iter_mut().enumerate() {
        check_finite(index, "time", key.time)?;
        check_finite(index, "value", key.value)?;
        // Other modes' tangents are outputs and get overwritten, so whatever they hold is moot.
        if key.mode == TangentMode::Free {
            check_finite(index, "in", key.in_tangent)?;
            check_finite(index, "out", key.out_tangent)?;
        }
        key.value = key.value.finish().ok_or(CurveError::Degenerate { index })?;
        if let Some(previous) = previous {
            if key.time < previous {
                return Err(CurveError::OutOfOrder {
                    index,
                    time: key.time,
                    previous,
                });
            }
            if key.time - previous <= MIN_KEY_GAP {
                return Err(CurveError::DuplicateTime {
                    index,
                    time: key.time,
                    previous,
                });
            }
        }
        previous = Some(key.time);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::WORKING_RANGE;
    use proptest::prelude::*;

    fn curve<T: Keyable>(keys: Vec<Key<T>>) -> KeyedCurve<T> {
        KeyedCurve::new(keys).expect("valid keys")
    }

    fn f(curve: &KeyedCurve<f32>, t: f32) -> f32 {
        curve.sample(t).unwrap()
    }

    /// Second-order one-sided derivative estimates: the curvature of a C1 spline jumps at
    /// keys, which would swamp a first-order difference.
    fn right_derivative(c: &KeyedCurve<f32>, t: f32, h: f32) -> f32 {
        (-3.0 * f(c, t) + 4.0 * f(c, t + h) - f(c, t + 2.0 * h)) / (2.0 * h)
    }

    fn left_derivative(c: &KeyedCurve<f32>, t: f32, h: f32) -> f32 {
        (3.0 * f(c, t) - 4.0 * f(c, t - h) + f(c, t - 2.0 * h)) / (2.0 * h)
    }

    /// Rotation angle between two unit quaternions, accurate near 0 (unlike acos).
    fn rot_angle(a: Quat, b: Quat) -> f32 {
        let d = a.conjugate() * b;
        2.0 * d.xyz().length().atan2(d.w.abs())
    }

    fn times_from_gaps(start: f32, gaps: &[f32]) -> Vec<f32> {
        let mut t = start;
        let mut times = vec![t];
        for g in gaps {
            t += g;
            times.push(t);
        }
        times
    }

    fn unit_quat() -> impl Strategy<Value = Quat> {
        prop::array::uniform4(-1.0f32..1.0)
            .prop_filter_map("zero quaternion", |c| {
                Vec4::from_array(c)
                    .try_normalize()
                    .filter(|v| v.length_squared() > 0.5)
            })
            .prop_map(Quat::from_vec4)
    }

    fn assert_close(a: f32, b: f32, tol: f32) {
        assert!((a - b).abs() <= tol, "{a} != {b} (tolerance {tol})");
    }

    #[test]
    fn samples_exact_key_values() {
        let modes = [
            TangentMode::Auto,
            TangentMode::AutoClamped,
            TangentMode::Flat,
            TangentMode::Linear,
            TangentMode::Step,
            TangentMode::Free,
        ];
        let scalar = curve(
            modes
                .iter()
                .enumerate()
                .map(|(i, &m)| Key::new(i as f32 * 0.7, (i as f32 * 1.3).sin()).with_mode(m))
                .collect(),
        );
        let mut cursor = 0;
        for k in scalar.keys() {
            assert_eq!(scalar.sample(k.time), Some(k.value));
            assert_eq!(
                scalar.sample_with_cursor(k.time, &mut cursor),
                Some(k.value)
            );
        }

        let positions = curve(vec![
            Key::new(0.0, Vec3::new(1.0, 2.0, 3.0)),
            Key::new(0.3, Vec3::new(-1.0, 0.5, 9.0)),
            Key::new(1.1, Vec3::new(4.0, -2.0, 0.1)),
        ]);
        for k in positions.keys() {
            assert_eq!(positions.sample(k.time), Some(k.value));
        }

        let rotations = curve(vec![
            Key::new(0.0, Quat::from_rotation_x(0.3)),
            Key::new(0.5, Quat::from_rotation_y(2.0)),
            Key::new(0.9, Quat::from_rotation_z(-1.0)),
            Key::new(2.0, Quat::from_rotation_x(3.0)),
        ]);
        for k in rotations.keys() {
            assert_eq!(rotations.sample(k.time), Some(k.value));
        }
    }

    #[test]
    fn clamps_outside_domain_and_nan_time_gives_first_key() {
        let c = curve(vec![Key::new(1.0, 3.0), Key::new(2.0, 5.0)]);
        assert_eq!(c.sample(-100.0), Some(3.0));
        assert_eq!(c.sample(f32::NEG_INFINITY), Some(3.0));
        assert_eq!(c.sample(f32::NAN), Some(3.0));
        assert_eq!(c.sample(2.5), Some(5.0));
        assert_eq!(c.sample(f32::INFINITY), Some(5.0));
        let mut cursor = usize::MAX;
        assert_eq!(c.sample_with_cursor(f32::NAN, &mut cursor), Some(3.0));
        assert_eq!(c.domain(), Some((1.0, 2.0)));
    }

    #[test]
    fn empty_curve_samples_none() {
        let c = KeyedCurve::<Vec3>::empty();
        assert!(c.is_empty());
        assert_eq!(c.len(), 0);
        assert_eq!(c.sample(0.0), None);
        assert_eq!(c.sample(f32::NAN), None);
        assert_eq!(c.sample_with_cursor(1.0, &mut 3), None);
        assert_eq!(c.domain(), None);
        assert_eq!(Curve::sample_clamped(&c, 0.0), None);
        assert_eq!(KeyedCurve::<f32>::new(vec![]), Ok(KeyedCurve::default()));
    }

    #[test]
    fn constant_curve_is_constant() {
        let c = KeyedCurve::constant(Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(c.domain(), Some((0.0, 0.0)));
        for t in [-1.0, 0.0, 5.0] {
            assert_eq!(c.sample(t), Some(Vec3::new(1.0, 2.0, 3.0)));
        }
        assert_eq!(c.keys()[0].in_tangent, Vec3::ZERO);
        assert!(KeyedCurve::constant(f32::NAN).is_empty());
        assert!(KeyedCurve::constant(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)).is_empty());
    }

    #[test]
    fn curve_trait_matches_inherent_methods() {
        fn through_trait(c: &impl Curve<f32>, t: f32) -> (Option<(f32, f32)>, Option<f32>) {
            (c.domain(), c.sample_clamped(t))
        }
        let c = curve(vec![
            Key::new(0.0, 1.0),
            Key::new(1.0, 2.0),
            Key::new(2.0, 0.0),
        ]);
        assert_eq!(through_trait(&c, 0.7), (c.domain(), c.sample(0.7)));
    }

    #[test]
    fn segment_between_linear_keys_is_straight() {
        let c = curve(vec![
            Key::new(0.0, 1.0).with_mode(TangentMode::Linear),
            Key::new(2.0, 5.0).with_mode(TangentMode::Linear),
            Key::new(3.0, -4.0),
        ]);
        for i in 0..=40 {
            let t = i as f32 * 0.05;
            assert_close(f(&c, t), 1.0 + 2.0 * t, 1e-5);
        }
        let positions = curve(vec![
            Key::new(1.0, Vec3::ZERO).with_mode(TangentMode::Linear),
            Key::new(3.0, Vec3::new(2.0, -4.0, 6.0)).with_mode(TangentMode::Linear),
        ]);
        let p = positions.sample(1.5).unwrap();
        assert!(p.abs_diff_eq(Vec3::new(0.5, -1.0, 1.5), 1e-5), "{p}");
    }

    #[test]
    fn linear_tangents_use_neighbour_slopes() {
        let c = curve(
            [(0.0, 0.0), (1.0, 2.0), (3.0, 3.0)]
                .map(|(t, v)| Key::new(t, v).with_mode(TangentMode::Linear))
                .to_vec(),
        );
        let tangents: Vec<_> = c
            .keys()
            .iter()
            .map(|k| (k.in_tangent, k.out_tangent))
            .collect();
        assert_eq!(tangents, vec![(2.0, 2.0), (2.0, 0.5), (0.5, 0.5)]);
        let single = curve(vec![Key::new(0.0, 3.0).with_mode(TangentMode::Linear)]);
        assert_eq!(single.keys()[0].in_tangent, 0.0);
    }

    #[test]
    fn step_holds_then_jumps() {
        let c = curve(vec![
            Key::new(0.0, 1.0).with_mode(TangentMode::Step),
            Key::new(1.0, 5.0),
            Key::new(2.0, 0.0),
        ]);
        for t in [0.0, 0.25, 0.5, 0.999_99] {
            assert_eq!(c.sample(t), Some(1.0));
        }
        assert_eq!(c.sample(1.0), Some(5.0));
        assert_ne!(c.sample(1.5), Some(5.0));
        let step = c.keys()[0];
        assert_eq!((step.in_tangent, step.out_tangent), (4.0, 0.0));
    }

    #[test]
    fn flat_keys_have_zero_derivative() {
        let c = curve(
            [(0.0, 0.0), (1.0, 3.0), (1.5, -2.0), (4.0, 7.0)]
                .map(|(t, v)| Key::new(t, v).with_mode(TangentMode::Flat))
                .to_vec(),
        );
        let h = 1e-3;
        for (i, k) in c.keys().iter().enumerate() {
            if i + 1 < c.len() {
                assert_close(right_derivative(&c, k.time, h), 0.0, 1e-2);
            }
            if i > 0 {
                assert_close(left_derivative(&c, k.time, h), 0.0, 1e-2);
            }
        }
    }

    #[test]
    fn auto_tangents_are_the_slope_across_both_neighbours() {
        let c = curve(vec![
            Key::new(0.0, 0.0).with_mode(TangentMode::Auto),
            Key::new(1.0, 2.0).with_mode(TangentMode::Auto),
            Key::new(3.0, 3.0).with_mode(TangentMode::Auto),
        ]);
        let outs: Vec<_> = c.keys().iter().map(|k| k.out_tangent).collect();
        // Interior: (3 − 0) / (3 − 0) = 1, not the plain average 1.25 of the two slopes,
        // which would overshoot when the gaps differ; ends take their one slope.
        assert_eq!(outs, vec![2.0, 1.0, 0.5]);
        assert!(c.keys().iter().all(|k| k.in_tangent == k.out_tangent));
        assert_eq!(KeyedCurve::constant(4.0).keys()[0].out_tangent, 0.0);
    }

    #[test]
    fn auto_is_c1_at_interior_keys() {
        let keys = [(0.0, 0.0), (0.4, 2.0), (1.5, -1.0), (1.9, 0.5), (3.0, 4.0)];
        let smooth = curve(keys.map(|(t, v)| Key::new(t, v)).to_vec());
        let kinked = curve(
            keys.map(|(t, v)| Key::new(t, v).with_mode(TangentMode::Linear))
                .to_vec(),
        );
        let h = 1e-3;
        for key in &smooth.keys()[1..keys.len() - 1] {
            let t = key.time;
            let (l, r) = (
                left_derivative(&smooth, t, h),
                right_derivative(&smooth, t, h),
            );
            assert_close(l, r, 1e-2);
            assert_close(l, key.out_tangent, 1e-2);
            // The estimator does see kinks, so the check above is not vacuous.
            let (l, r) = (
                left_derivative(&kinked, t, h),
                right_derivative(&kinked, t, h),
            );
            assert!((l - r).abs() > 0.5, "{l} vs {r}");
        }
    }

    #[test]
    fn auto_clamped_is_flat_at_extrema_and_open_ends_and_limited() {
        let c = curve(
            [
                (0.0, 0.0),
                (1.0, 1.0),
                (2.0, 0.0),
                (3.0, 0.0),
                (4.0, 10.0),
                (5.0, 10.1),
            ]
            .map(|(t, v)| Key::new(t, v).with_mode(TangentMode::AutoClamped))
            .to_vec(),
        );
        let outs: Vec<_> = c.keys().iter().map(|k| k.out_tangent).collect();
        // ends, maximum, minimum, plateau edge, Fritsch–Carlson limit 3·0.1, end
        assert_eq!(outs[..4], [0.0, 0.0, 0.0, 0.0]);
        assert_close(outs[4], 0.3, 1e-5);
        assert_eq!(outs[5], 0.0);
        let plain = curve(vec![
            Key::new(0.0, 0.0),
            Key::new(1.0, 2.0),
            Key::new(2.0, 4.0),
        ]);
        let clamped = curve(
            [(0.0, 0.0), (1.0, 2.0), (2.0, 4.0)]
                .map(|(t, v)| Key::new(t, v).with_mode(TangentMode::AutoClamped))
                .to_vec(),
        );
        assert_eq!(plain.keys()[1].out_tangent, clamped.keys()[1].out_tangent);
    }

    #[test]
    fn free_tangents_are_kept_and_unbroken_ones_unified() {
        let mut c = curve(vec![
            Key::new(0.0, 0.0).with_tangents(1.0, 5.0, true),
            Key::new(1.0, 1.0).with_tangents(-2.0, 7.0, false),
            Key::new(2.0, 0.0),
        ]);
        let k = c.keys();
        assert_eq!(
            (k[0].in_tangent, k[0].out_tangent, k[0].broken),
            (1.0, 5.0, true)
        );
        assert_eq!(
            (k[1].in_tangent, k[1].out_tangent, k[1].broken),
            (-2.0, -2.0, false)
        );

        c.set_tangents(2, 3.0, 4.0, true);
        assert_eq!(c.keys()[2].mode, TangentMode::Free);
        assert_eq!(
            (c.keys()[2].in_tangent, c.keys()[2].out_tangent),
            (3.0, 4.0)
        );
        let before = c.clone();
        c.set_tangents(2, f32::NAN, 4.0, true);
        c.set_tangents(9, 1.0, 1.0, true);
        assert_eq!(c, before);

        // Leaving Free drops `broken`; going back to Free keeps the computed tangents.
        c.set_mode(0, TangentMode::Flat);
        assert_eq!((c.keys()[0].out_tangent, c.keys()[0].broken), (0.0, false));
        c.set_mode(1, TangentMode::Auto);
        let auto = c.keys()[1].out_tangent;
        c.set_mode(1, TangentMode::Free);
        assert_eq!(c.keys()[1].out_tangent, auto);
        c.set_mode(42, TangentMode::Step);
        assert_eq!(c.len(), 3);
    }

    /// Keys at 0, 0.7, 1.6 and a last key at 2.5 that repeats the first one period later.
    fn looping_keys(mode: TangentMode) -> Vec<Key<f32>> {
        [(0.0, 1.0), (0.7, 3.0), (1.6, -5.0), (2.5, 1.0)]
            .map(|(t, v)| Key::new(t, v).with_mode(mode))
            .to_vec()
    }

    #[test]
    fn cyclic_curve_has_matching_derivatives_at_seam() {
        let h = 1e-3;
        for mode in [TangentMode::Auto, TangentMode::AutoClamped] {
            let open = curve(looping_keys(mode));
            let (start, end) = open.domain().unwrap();
            let mut c = open.clone();
            c.set_cyclic(Some(end - start));
            assert_eq!(c.cyclic(), Some(2.5));
            let (out_of_start, into_end) =
                (right_derivative(&c, start, h), left_derivative(&c, end, h));
            assert_close(out_of_start, into_end, 1e-2);
            assert_eq!(c.keys()[0].out_tangent, c.keys()[3].in_tangent);
            // The seam slope really comes from across the loop: open ends differ from it.
            assert!((right_derivative(&open, start, h) - out_of_start).abs() > 0.5);
            assert!((left_derivative(&open, end, h) - into_end).abs() > 0.5);
        }
        // Across the seam key 0 sees key 2 (2.5 s earlier, the duplicate key 3 skipped).
        let mut c = curve(looping_keys(TangentMode::Auto));
        c.set_cyclic(Some(2.5));
        // The slope across both neighbours: (3 − (−5)) / (0.7 + 0.9).
        let expected = (3.0 - -5.0) / (0.9 + 0.7);
        assert_close(c.keys()[0].out_tangent, expected, 1e-5);
    }

    #[test]
    fn cyclic_without_duplicate_key_wraps_to_first_key() {
        let mut c = curve(vec![
            Key::new(0.0, 0.0).with_mode(TangentMode::Auto),
            Key::new(1.0, 2.0).with_mode(TangentMode::Auto),
            Key::new(2.0, 1.0).with_mode(TangentMode::Auto),
        ]);
        c.set_cyclic(Some(3.0));
        // key 0 sees key 2 at -1, key 2 sees key 0 at 3
        assert_close(c.keys()[0].out_tangent, (-1.0 + 2.0) / 2.0, 1e-6);
        assert_close(c.keys()[2].out_tangent, (-1.0 + -1.0) / 2.0, 1e-6);
    }

    #[test]
    fn unusable_cyclic_periods_leave_ends_open() {
        let open = curve(vec![
            Key::new(0.0, 0.0),
            Key::new(1.0, 2.0),
            Key::new(2.0, 1.0),
        ]);
        for period in [1.0, 0.0, -3.0, f32::NAN, f32::INFINITY] {
            let mut c = open.clone();
            c.set_cyclic(Some(period));
            assert_eq!(c.keys(), open.keys(), "period {period}");
            assert_eq!(c.cyclic(), Some(period).filter(|&p| p == 1.0));
        }
        let mut c = open.clone();
        c.set_cyclic(Some(3.0));
        assert_ne!(c.keys(), open.keys());
        c.set_cyclic(None);
        assert_eq!(c, open);
    }

    #[test]
    fn set_key_replaces_nearby_key_or_inserts_sorted() {
        let mut c = curve(vec![
            Key::new(0.0, 0.0),
            Key::new(1.0, 1.0).with_mode(TangentMode::Step),
            Key::new(2.0, 0.0),
        ]);
        assert_eq!(c.set_key(1.000_05, 7.0), Ok(1));
        assert_eq!(c.len(), 3);
        assert_eq!((c.keys()[1].time, c.keys()[1].value), (1.0, 7.0));
        assert_eq!(c.keys()[1].mode, TangentMode::Step);

        assert_eq!(c.set_key(1.5, 4.0), Ok(2));
        assert_eq!(c.set_key(-1.0, 4.0), Ok(0));
        assert_eq!(c.set_key(10.0, 4.0), Ok(5));
        assert_eq!(c.keys()[2].mode, TangentMode::Step);
        let times: Vec<_> = c.keys().iter().map(|k| k.time).collect();
        assert_eq!(times, vec![-1.0, 0.0, 1.0, 1.5, 2.0, 10.0]);

        let before = c.clone();
        let err = c.set_key(f32::NAN, 1.0).unwrap_err();
        assert!(err.to_string().starts_with("keys[6].time: NaN"), "{err}");
        let err = c.set_key(3.0, f32::INFINITY).unwrap_err();
        assert_eq!(err.to_string(), "keys[5].value: inf is not a finite number");
        assert_eq!(c, before);
    }

    #[test]
    fn insert_replaces_whole_key_keeping_its_time() {
        let mut c = curve(vec![Key::new(0.0, 0.0), Key::new(1.0, 1.0)]);
        let key = Key::new(0.999_95, 3.0).with_tangents(1.0, 2.0, true);
        assert_eq!(c.insert(key), Ok(1));
        assert_eq!(c.keys()[1], Key { time: 1.0, ..key });
        assert_eq!(
            c.insert(Key::new(0.5, 9.0).with_mode(TangentMode::Flat)),
            Ok(1)
        );
        assert_eq!(c.keys()[1].mode, TangentMode::Flat);
        let before = c.clone();
        assert!(
            c.insert(Key::new(0.25, 1.0).with_tangents(f32::NAN, 0.0, false))
                .is_err()
        );
        assert_eq!(c, before);
    }

    #[test]
    fn move_key_reorders_and_rejects_collisions() {
        let mut c = curve(vec![
            Key::new(0.0, 0.0),
            Key::new(1.0, 1.0).with_tangents(2.0, 3.0, true),
            Key::new(2.0, 2.0),
        ]);
        assert_eq!(c.move_key(1, 5.0), Ok(2));
        assert_eq!(c.keys()[2].time, 5.0);
        assert_eq!(c.keys()[2].out_tangent, 3.0);
        assert_eq!(c.move_key(2, -1.0), Ok(0));
        let times: Vec<_> = c.keys().iter().map(|k| k.time).collect();
        assert_eq!(times, vec![-1.0, 0.0, 2.0]);
        // Moving a key onto itself (or within its own snap window) is fine.
        assert_eq!(c.move_key(0, -1.000_05), Ok(0));

        let before = c.clone();
        assert_eq!(
            c.move_key(0, 2.000_05),
            Err(CurveError::Collision {
                index: 0,
                time: 2.000_05,
                other: 2.0
            })
        );
        assert!(
            c.move_key(0, 1.999_95)
                .unwrap_err()
                .to_string()
                .starts_with("keys[0].time:")
        );
        assert_eq!(
            c.move_key(3, 1.0),
            Err(CurveError::NoSuchKey { index: 3, len: 3 })
        );
        assert!(c.move_key(1, f32::NAN).is_err());
        assert_eq!(c, before);
    }

    #[test]
    fn remove_returns_key_and_re_resolves() {
        let mut c = curve(vec![
            Key::new(0.0, 0.0),
            Key::new(1.0, 5.0),
            Key::new(2.0, 0.0),
        ]);
        assert_eq!(c.remove(3), None);
        let removed = c.remove(1).unwrap();
        assert_eq!(removed.value, 5.0);
        assert_eq!(c.len(), 2);
        assert_eq!(c.keys()[0].out_tangent, 0.0);
        c.remove(0);
        c.remove(0);
        assert!(c.is_empty());
        assert_eq!(c.remove(0), None);
    }

    #[test]
    fn map_transforms_values_and_free_tangents() {
        let mut c = curve(vec![
            Key::new(0.0, Vec3::X).with_tangents(Vec3::Y, Vec3::Z, true),
            Key::new(1.0, Vec3::Y).with_mode(TangentMode::Auto),
        ]);
        c.map(|v| v * 2.0, |t| t * 3.0).unwrap();
        assert_eq!(c.keys()[0].value, Vec3::X * 2.0);
        assert_eq!(c.keys()[0].out_tangent, Vec3::Z * 3.0);
        assert_eq!(c.keys()[1].in_tangent, Vec3::new(-2.0, 2.0, 0.0));
        let before = c.clone();
        let err = c.map(|v| v * f32::INFINITY, |t| t).unwrap_err();
        assert!(
            err.to_string().starts_with("keys[0].value[0]: inf"),
            "{err}"
        );
        assert_eq!(c, before);
    }

    #[test]
    fn json_round_trip_keeps_free_tangents_and_omits_computed_ones() {
        let c = curve(vec![
            Key::new(0.0, 1.0),
            Key::new(0.5, 2.0).with_tangents(-1.0, 4.0, true),
            Key::new(1.0, 0.5).with_mode(TangentMode::Auto),
            Key::new(2.0, 0.0).with_tangents(0.25, 0.25, false),
        ]);
        let json = serde_json::to_string(&c).unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let keys = value.as_array().unwrap();
        assert!(
            keys[0].get("in").is_none() && keys[0].get("out").is_none(),
            "{json}"
        );
        assert!(
            keys[2].get("in").is_none() && keys[2].get("broken").is_none(),
            "{json}"
        );
        assert_eq!(keys[1]["in"], -1.0);
        assert_eq!(keys[1]["out"], 4.0);
        assert_eq!(keys[1]["broken"], true);
        assert_eq!(keys[2]["mode"], "auto");
        assert!(
            keys[0].get("mode").is_none(),
            "the default mode is left out: {json}"
        );
        assert!(keys[3].get("broken").is_none());
        let back: KeyedCurve<f32> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);

        let q = curve(vec![
            Key::new(0.0, Quat::from_rotation_y(0.7)),
            Key::new(1.0, Quat::from_rotation_x(-2.9)).with_mode(TangentMode::Step),
            Key::new(3.0, Quat::from_axis_angle(Vec3::ONE.normalize(), 1.0)),
        ]);
        let back: KeyedCurve<Quat> =
            serde_json::from_str(&serde_json::to_string(&q).unwrap()).unwrap();
        assert_eq!(back, q);
    }

    #[test]
    fn json_defaults_and_tangent_resolution() {
        let c: KeyedCurve<Vec3> = serde_json::from_str(
            r#"[{"time": 0, "value": [0, 0, 0]}, {"time": 2, "value": [2, 4, 6], "mode": "linear"}]"#,
        )
        .unwrap();
        assert_eq!(c.keys()[0].mode, TangentMode::AutoClamped);
        // Auto-clamped is flat at an open end.
        assert_eq!(c.keys()[0].out_tangent, Vec3::ZERO);
        assert_eq!(c.keys()[1].in_tangent, Vec3::new(1.0, 2.0, 3.0));
    }

    fn json_error<T: Keyable + for<'de> Deserialize<'de>>(json: &str) -> String {
        serde_json::from_str::<KeyedCurve<T>>(json)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn invalid_json_errors_name_the_field() {
        let unsorted =
            r#"[{"time": 0, "value": 0}, {"time": 2, "value": 1}, {"time": 1.5, "value": 2}]"#;
        let err = json_error::<f32>(unsorted);
        assert!(
            err.starts_with("keys[2].time: keys must be in increasing time order (1.5 after 2)"),
            "{err}"
        );
        let err = json_error::<f32>(r#"[{"time": 1, "value": 0}, {"time": 1, "value": 1}]"#);
        assert!(
            err.starts_with("keys[1].time: two keys at the same time"),
            "{err}"
        );
        let err = json_error::<f32>(r#"[{"time": 1e39, "value": 0}]"#);
        assert!(
            err.starts_with("keys[0].time: inf is not a finite number"),
            "{err}"
        );
        let err = json_error::<f32>(r#"[{"time": 0, "value": -1e39}]"#);
        assert!(
            err.starts_with("keys[0].value: -inf is not a finite number"),
            "{err}"
        );
        let err = json_error::<Vec3>(
            r#"[{"time": 0, "value": [0, 0, 0]}, {"time": 1, "value": [0, 0, 1e39]}]"#,
        );
        assert!(err.starts_with("keys[1].value[2]: inf"), "{err}");
        let err =
            json_error::<f32>(r#"[{"time": 0, "value": 0, "mode": "free", "in": 0, "out": 1e40}]"#);
        assert!(err.starts_with("keys[0].out: inf"), "{err}");
        let err = json_error::<Quat>(r#"[{"time": 0, "value": [0, 0, 0, 0]}]"#);
        assert!(
            err.starts_with("keys[0].value: a zero-length quaternion"),
            "{err}"
        );
        let err = json_error::<f32>(r#"[{"time": 0, "value": 0, "in_tangent": 1}]"#);
        assert!(err.contains("unknown field `in_tangent`"), "{err}");

        let nan = KeyedCurve::new(vec![Key::new(0.0, f32::NAN)]).unwrap_err();
        assert_eq!(nan.to_string(), "keys[0].value: NaN is not a finite number");
    }

    #[test]
    fn quaternion_keys_are_aligned_to_one_hemisphere() {
        let a = Quat::from_rotation_z(0.2);
        let b = Quat::from_rotation_z(1.0);
        let c = curve(vec![
            Key::new(0.0, a),
            Key::new(1.0, -b).with_tangents(-b, -b, false),
            Key::new(2.0, a).with_mode(TangentMode::Linear),
        ]);
        assert_eq!(c.keys()[1].value, b);
        assert_eq!(c.keys()[1].in_tangent, b);
        assert!(
            c.keys()
                .windows(2)
                .all(|w| w[0].value.dot(w[1].value) >= 0.0)
        );
        // The short way round: halfway between 0.2 and 1.0 rad about z.
        let linear = curve(vec![
            Key::new(0.0, a).with_mode(TangentMode::Linear),
            Key::new(1.0, -b).with_mode(TangentMode::Linear),
        ]);
        let mid = linear.sample(0.5).unwrap();
        assert!(rot_angle(mid, Quat::from_rotation_z(0.6)) < 1e-5);
        // Re-keying with the opposite sign keeps the key (and its tangents) where it was.
        let mut c = c;
        c.set_key(1.0, -b).unwrap();
        assert_eq!((c.keys()[1].value, c.keys()[1].in_tangent), (b, b));
    }

    #[test]
    fn keys_beyond_the_working_range_are_refused_with_their_path() {
        let err =
            KeyedCurve::new(vec![Key::new(0.0, 0.0f32), Key::new(1e-5, f32::MAX)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "keys[1].value: {} is outside the working range of ±1e6",
                f32::MAX
            )
        );
        let err = KeyedCurve::new(vec![
            Key::new(0.0, Quat::from_xyzw(f32::MAX, f32::MAX, 0.0, 0.0)),
            Key::new(1.0, Quat::IDENTITY),
        ])
        .unwrap_err();
        assert!(err.to_string().starts_with("keys[0].value[0]: "), "{err}");
        // At the edge of the range keys still sample finite values.
        let c = curve(vec![
            Key::new(0.0, -WORKING_RANGE),
            Key::new(1e-5, WORKING_RANGE),
            Key::new(1.0, -WORKING_RANGE),
        ]);
        assert!(c.keys().iter().all(|k| k.out_tangent.is_finite()));
        for i in 0..100 {
            assert!(f(&c, i as f32 * 0.01).is_finite());
        }
    }

    fn garbage_f32() -> impl Strategy<Value = f32> {
        prop_oneof![
            any::<f32>(),
            -1e38f32..1e38,
            -2.0f32..2.0,
            Just(0.0),
            Just(f32::MAX),
            Just(f32::MIN_POSITIVE),
        ]
    }

    fn any_mode() -> impl Strategy<Value = TangentMode> {
        prop::sample::select(vec![
            TangentMode::Auto,
            TangentMode::AutoClamped,
            TangentMode::Flat,
            TangentMode::Linear,
            TangentMode::Step,
            TangentMode::Free,
        ])
    }

    fn garbage_key<T: Keyable, S: Strategy<Value = T>>(
        value: impl Fn() -> S,
    ) -> impl Strategy<Value = Key<T>> {
        (
            garbage_f32(),
            value(),
            any_mode(),
            value(),
            value(),
            any::<bool>(),
        )
            .prop_map(|(time, value, mode, in_tangent, out_tangent, broken)| Key {
                time,
                value,
                mode,
                in_tangent,
                out_tangent,
                broken,
            })
    }

    fn garbage_vec3() -> impl Strategy<Value = Vec3> {
        prop::array::uniform3(garbage_f32()).prop_map(Vec3::from_array)
    }

    fn garbage_quat() -> impl Strategy<Value = Quat> {
        prop::array::uniform4(garbage_f32()).prop_map(Quat::from_array)
    }

    /// Exercises every entry point on `keys`; nothing may panic, and a curve that was
    /// accepted must only ever produce finite values.
    fn hammer<T: Keyable>(keys: Vec<Key<T>>, times: &[f32], sorted: bool) {
        let mut keys = keys;
        if sorted {
            keys.sort_by(|a, b| a.time.total_cmp(&b.time));
        }
        let Ok(mut c) = KeyedCurve::new(keys.clone()) else {
            return;
        };
        let mut cursor = times.len();
        for &t in times {
            for v in [c.sample(t), c.sample_with_cursor(t, &mut cursor)] {
                assert_eq!(v.is_none(), c.is_empty());
                let Some(v) = v else { continue };
                assert!(
                    v.to_components().iter().all(|x| x.is_finite()),
                    "{v:?} at {t}"
                );
            }
        }
        c.set_cyclic(times.first().copied());
        for (i, &t) in times.iter().enumerate() {
            let _ = c.move_key(i, t);
            let v = keys
                .get(i)
                .map_or(T::from_components([1.0; 4]), |k| k.value);
            let _ = c.set_key(t, v);
            c.set_mode(i, TangentMode::AutoClamped);
            c.set_tangents(i, v, v, true);
            assert_eq!(c.sample(t).is_none(), c.is_empty());
            c.remove(i / 2);
        }
        let _ = c.map(|v| v, |t| t);
        let _ = KeyedCurve::new(keys);
    }

    proptest! {
        #[test]
        fn garbage_keys_never_panic(
            scalars in prop::collection::vec(garbage_key(garbage_f32), 0..8),
            vectors in prop::collection::vec(garbage_key(garbage_vec3), 0..6),
            rotations in prop::collection::vec(garbage_key(garbage_quat), 0..6),
            times in prop::collection::vec(garbage_f32(), 0..8),
            sorted in any::<bool>(),
        ) {
            hammer(scalars, &times, sorted);
            hammer(vectors, &times, sorted);
            hammer(rotations, &times, sorted);
        }

        #[test]
        fn garbage_json_never_panics(
            numbers in prop::collection::vec(
                prop_oneof![any::<f64>(), -1e40f64..1e40, -3.0f64..3.0], 0..30),
            modes in prop::collection::vec(any_mode(), 0..6),
        ) {
            let mut json = String::from("[");
            for (i, mode) in modes.iter().enumerate() {
                let n = |j: usize| numbers.get(i * 5 + j).copied().unwrap_or(0.0);
                let mode = serde_json::to_string(mode).unwrap();
                json.push_str(&format!(
                    r#"{{"time":{:e},"value":{:e},"mode":{mode},"in":{:e},"out":{:e}}},"#,
                    n(0), n(1), n(2), n(3)
                ));
            }
            let json = json.trim_end_matches(',').to_string() + "]";
            if let Ok(c) = serde_json::from_str::<KeyedCurve<f32>>(&json) {
                for &t in &numbers {
                    let v = c.sample(t as f32);
                    prop_assert_eq!(v.is_none(), c.is_empty());
                    prop_assert!(v.is_none_or(f32::is_finite));
                }
            }
        }

        #[test]
        fn rotation_curves_round_trip_through_json(
            rotations in prop::collection::vec(unit_quat(), 1..8),
            modes in prop::collection::vec(any_mode(), 8),
        ) {
            let keys = rotations
                .iter()
                .zip(&modes)
                .enumerate()
                .map(|(i, (&q, &m))| Key::new(i as f32 * 0.37, q).with_mode(m))
                .collect();
            let c = curve(keys);
            let back: KeyedCurve<Quat> =
                serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
            prop_assert_eq!(back, c);
        }

        #[test]
        fn sample_with_cursor_equals_sample(
            gaps in prop::collection::vec(0.001f32..3.0, 0..12),
            values in prop::collection::vec(-10.0f32..10.0, 13),
            modes in prop::collection::vec(any_mode(), 13),
            times in prop::collection::vec(-5.0f32..40.0, 1..60),
            start_cursor in any::<usize>(),
            forward in any::<bool>(),
        ) {
            let keys = times_from_gaps(-1.0, &gaps)
                .into_iter()
                .zip(values.iter().zip(&modes))
                .map(|(t, (&v, &m))| Key::new(t, Vec3::new(v, -v, v * v)).with_mode(m))
                .collect();
            let c = curve(keys);
            let mut times = times;
            // Playback order hits the fast path; random order hits the fallback.
            if forward {
                times.sort_by(f32::total_cmp);
            }
            let mut cursor = start_cursor;
            for t in times {
                prop_assert_eq!(c.sample_with_cursor(t, &mut cursor), c.sample(t));
            }
        }

        #[test]
        fn auto_clamped_never_overshoots_monotone_keys(
            gaps in prop::collection::vec(0.01f32..3.0, 1..10),
            steps in prop::collection::vec(prop_oneof![Just(0.0f32), 0.0f32..5.0, 0.0f32..0.01], 10),
            decreasing in any::<bool>(),
        ) {
            let sign = if decreasing { -1.0 } else { 1.0 };
            let mut value = 1.0;
            let keys = times_from_gaps(0.0, &gaps)
                .into_iter()
                .zip(&steps)
                .map(|(t, step)| {
                    value += sign * step;
                    Key::new(t, value).with_mode(TangentMode::AutoClamped)
                })
                .collect();
            let c = curve(keys);
            for w in c.keys().windows(2) {
                let (lo, hi) = (w[0].value.min(w[1].value), w[0].value.max(w[1].value));
                let tol = 1e-5 * (1.0 + hi.abs().max(lo.abs()));
                for s in 0..=32 {
                    let t = w[0].time + (w[1].time - w[0].time) * s as f32 / 32.0;
                    let v = f(&c, t);
                    prop_assert!(v >= lo - tol && v <= hi + tol, "{} outside [{}, {}] at {}", v, lo, hi, t);
                }
            }
        }

        #[test]
        fn linear_rotation_segment_follows_the_geodesic(
            a in unit_quat(),
            b in unit_quat(),
            duration in 0.01f32..10.0,
            us in prop::collection::vec(0.0f32..1.0, 1..20),
        ) {
            let ab = rot_angle(a, b);
            prop_assume!(ab < 179f32.to_radians());
            let c = curve(vec![
                Key::new(0.0, a).with_mode(TangentMode::Linear),
                Key::new(duration, b).with_mode(TangentMode::Linear),
            ]);
            for u in us {
                let q = c.sample(u * duration).unwrap();
                let excess = rot_angle(q, a) + rot_angle(q, b) - ab;
                prop_assert!(excess.abs() < 1e-3, "off the geodesic by {}", excess);
            }
        }

        #[test]
        fn auto_rotation_curve_stays_unit_and_near_its_keys(
            rotations in prop::collection::vec(unit_quat(), 1..8),
            // Uneven spacing on purpose: the slope across both neighbours keeps the
            // overshoot bounded even when one gap is a thousand times the other.
            gaps in prop::collection::vec(0.005f32..5.0, 7),
            scale in 0.01f32..10.0,
            samples in 8usize..40,
        ) {
            let keys = rotations
                .iter()
                .zip(times_from_gaps(0.0, &gaps))
                .map(|(&q, t)| Key::new(t * scale, q))
                .collect();
            let c = curve(keys);
            for w in c.keys().windows(2) {
                let ab = rot_angle(w[0].value, w[1].value);
                for s in 0..=samples {
                    let t = w[0].time + (w[1].time - w[0].time) * s as f32 / samples as f32;
                    let q = c.sample(t).unwrap();
                    prop_assert!(q.is_finite() && (q.length() - 1.0).abs() < 1e-4, "{:?}", q);
                    let away = rot_angle(q, w[0].value).min(rot_angle(q, w[1].value));
                    prop_assert!(away <= ab + 0.35, "{} rad away, keys {} apart", away, ab);
                }
            }
        }

        #[test]
        fn edits_keep_keys_sorted_and_reject_collisions(
            initial in prop::collection::vec((-5.0f32..5.0, -1.0f32..1.0), 0..8),
            edits in prop::collection::vec((0u8..3, 0usize..10, -6.0f32..6.0, -1.0f32..1.0), 1..20),
        ) {
            let mut c = KeyedCurve::empty();
            for (t, v) in initial {
                c.set_key(t, v).unwrap();
            }
            for (op, index, time, value) in edits {
                let before = c.clone();
                match op {
                    0 => {
                        let i = c.set_key(time, value).unwrap();
                        prop_assert!((c.keys()[i].time - time).abs() <= SNAP);
                        prop_assert_eq!(c.keys()[i].value, value);
                        prop_assert!(c.len() == before.len() || c.len() == before.len() + 1);
                    }
                    1 => {
                        let collides = before
                            .keys()
                            .iter()
                            .enumerate()
                            .any(|(i, k)| i != index && (k.time - time).abs() <= SNAP);
                        match c.move_key(index, time) {
                            Ok(i) => {
                                prop_assert!(!collides);
                                prop_assert_eq!(c.keys()[i].time, time);
                                prop_assert_eq!(c.keys()[i].value, before.keys()[index].value);
                            }
                            Err(e) => {
                                prop_assert!(collides || index >= before.len(), "{}", e);
                                prop_assert_eq!(&c, &before);
                            }
                        }
                    }
                    _ => {
                        let removed = c.remove(index);
                        prop_assert_eq!(removed.is_some(), index < before.len());
                    }
                }
                prop_assert!(c.keys().windows(2).all(|w| w[1].time - w[0].time > MIN_KEY_GAP));
            }
        }
    }
}
