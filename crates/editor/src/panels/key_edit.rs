//! Key edits shared by the dope sheet and the curve editor, as pure functions on a [`Clip`]:
//! they return an edited copy (or nothing when the edit cannot be made) and never panic, so
//! the widgets stay thin and every edit is testable without a UI.

use anymorph_runtime::clip::{Channel, Clip};
use anymorph_runtime::curve::{CurveError, Key, Keyable, KeyedCurve, TangentMode};
use glam::{Quat, Vec3};

/// Two key times closer than this are the same key (the curve's own snap distance, so a
/// time that went through float arithmetic still finds its key).
pub const KEY_MATCH_SECS: f32 = 1e-4;

/// One keyed degree of freedom of a channel.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dof {
    Position,
    Rotation,
    PositionWeight,
    RotationWeight,
    Deform(String),
}

impl Dof {
    pub fn label(&self) -> String {
        match self {
            Dof::Position => "position".into(),
            Dof::Rotation => "rotation".into(),
            Dof::PositionWeight => "position weight".into(),
            Dof::RotationWeight => "rotation weight".into(),
            Dof::Deform(name) => format!("deform {name}"),
        }
    }

    /// Names of the value's components, as many as it has.
    pub fn component_names(&self) -> &'static [&'static str] {
        match self {
            Dof::Position => &["x", "y", "z"],
            Dof::Rotation => &["x", "y", "z", "w"],
            _ => &["value"],
        }
    }
}

/// The DOFs a channel has a curve for, in display order.
pub fn dofs(channel: &Channel) -> Vec<Dof> {
    let mut out = Vec::new();
    if channel.position.is_some() {
        out.push(Dof::Position);
    }
    if channel.rotation.is_some() {
        out.push(Dof::Rotation);
    }
    if channel.position_weight.is_some() {
        out.push(Dof::PositionWeight);
    }
    if channel.rotation_weight.is_some() {
        out.push(Dof::RotationWeight);
    }
    out.extend(channel.deforms.keys().cloned().map(Dof::Deform));
    out
}

/// A key named by its channel, DOF and time rather than its index, so that a selection
/// survives keys being reordered by a move or the clip being replaced by undo.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyRef {
    pub channel: usize,
    pub dof: Dof,
    pub time: f32,
}

/// A key with its value and tangents as raw components, whatever the value type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RawKey {
    pub time: f32,
    pub value: [f32; 4],
    pub mode: TangentMode,
    pub in_tangent: [f32; 4],
    pub out_tangent: [f32; 4],
    pub broken: bool,
}

impl<T: Keyable> From<&Key<T>> for RawKey {
    fn from(k: &Key<T>) -> Self {
        RawKey {
            time: k.time,
            value: k.value.to_components(),
            mode: k.mode,
            in_tangent: k.in_tangent.to_components(),
            out_tangent: k.out_tangent.to_components(),
            broken: k.broken,
        }
    }
}

impl RawKey {
    fn to_key<T: Keyable>(self) -> Key<T> {
        Key {
            time: self.time,
            value: T::from_components(self.value),
            mode: self.mode,
            in_tangent: T::from_components(self.in_tangent),
            out_tangent: T::from_components(self.out_tangent),
            broken: self.broken,
        }
    }
}

/// A [`KeyedCurve`] of any value type, seen through raw components.
pub trait AnyCurve {
    fn dim(&self) -> usize;
    fn raw_keys(&self) -> Vec<RawKey>;
    fn raw_sample(&self, time: f32) -> Option<[f32; 4]>;
    fn move_key(&mut self, index: usize, time: f32) -> Result<usize, CurveError>;
    fn remove_key(&mut self, index: usize);
    fn insert_raw(&mut self, key: RawKey) -> Result<usize, CurveError>;
    fn set_mode(&mut self, index: usize, mode: TangentMode);
    fn set_raw_tangents(&mut self, index: usize, in_t: [f32; 4], out_t: [f32; 4], broken: bool);
    fn key_times(&self) -> Vec<f32> {
        self.raw_keys().iter().map(|k| k.time).collect()
    }
    /// The key nearest `time` within [`KEY_MATCH_SECS`].
    fn index_at(&self, time: f32) -> Option<usize> {
        index_near(&self.key_times(), time)
    }
}

impl<T: Keyable> AnyCurve for KeyedCurve<T> {
    fn dim(&self) -> usize {
        T::DIM
    }

    fn raw_keys(&self) -> Vec<RawKey> {
        self.keys().iter().map(RawKey::from).collect()
    }

    fn raw_sample(&self, time: f32) -> Option<[f32; 4]> {
        self.sample(time).map(Keyable::to_components)
    }

    fn move_key(&mut self, index: usize, time: f32) -> Result<usize, CurveError> {
        KeyedCurve::move_key(self, index, time)
    }

    fn remove_key(&mut self, index: usize) {
        self.remove(index);
    }

    fn insert_raw(&mut self, key: RawKey) -> Result<usize, CurveError> {
        self.insert(key.to_key())
    }

    fn set_mode(&mut self, index: usize, mode: TangentMode) {
        KeyedCurve::set_mode(self, index, mode);
    }

    fn set_raw_tangents(&mut self, index: usize, in_t: [f32; 4], out_t: [f32; 4], broken: bool) {
        self.set_tangents(
            index,
            T::from_components(in_t),
            T::from_components(out_t),
            broken,
        );
    }
}

/// The index of the time nearest `time` within [`KEY_MATCH_SECS`].
pub fn index_near(times: &[f32], time: f32) -> Option<usize> {
    times
        .iter()
        .enumerate()
        .map(|(i, t)| (i, (t - time).abs()))
        .filter(|&(_, d)| d <= KEY_MATCH_SECS)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

pub fn curve<'a>(channel: &'a Channel, dof: &Dof) -> Option<&'a dyn AnyCurve> {
    match dof {
        Dof::Position => channel.position.as_ref().map(|c| c as &dyn AnyCurve),
        Dof::Rotation => channel.rotation.as_ref().map(|c| c as &dyn AnyCurve),
        Dof::PositionWeight => channel.position_weight.as_ref().map(|c| c as &dyn AnyCurve),
        Dof::RotationWeight => channel.rotation_weight.as_ref().map(|c| c as &dyn AnyCurve),
        Dof::Deform(n) => channel.deforms.get(n).map(|c| c as &dyn AnyCurve),
    }
}

pub fn curve_mut<'a>(channel: &'a mut Channel, dof: &Dof) -> Option<&'a mut dyn AnyCurve> {
    match dof {
        Dof::Position => channel.position.as_mut().map(|c| c as &mut dyn AnyCurve),
        Dof::Rotation => channel.rotation.as_mut().map(|c| c as &mut dyn AnyCurve),
        Dof::PositionWeight => channel
            .position_weight
            .as_mut()
            .map(|c| c as &mut dyn AnyCurve),
        Dof::RotationWeight => channel
            .rotation_weight
            .as_mut()
            .map(|c| c as &mut dyn AnyCurve),
        Dof::Deform(n) => channel.deforms.get_mut(n).map(|c| c as &mut dyn AnyCurve),
    }
}

/// Like [`curve_mut`], creating an empty curve when the channel has none (pasting keys of a
/// DOF the channel does not animate yet).
fn curve_or_new<'a>(channel: &'a mut Channel, dof: &Dof) -> &'a mut dyn AnyCurve {
    match dof {
        Dof::Position => channel
            .position
            .get_or_insert_with(KeyedCurve::<Vec3>::empty),
        Dof::Rotation => channel
            .rotation
            .get_or_insert_with(KeyedCurve::<Quat>::empty),
        Dof::PositionWeight => channel
            .position_weight
            .get_or_insert_with(KeyedCurve::empty),
        Dof::RotationWeight => channel
            .rotation_weight
            .get_or_insert_with(KeyedCurve::empty),
        Dof::Deform(n) => channel.deforms.entry(n.clone()).or_default(),
    }
}

/// The length of a frame, or `None` when `fps` cannot be used.
pub fn frame_secs(fps: f32) -> Option<f32> {
    (fps.is_finite() && fps > 0.0).then(|| 1.0 / fps)
}

/// `time` on the nearest frame (unchanged when `fps` is unusable).
pub fn snap_to_frame(time: f32, fps: f32) -> f32 {
    match frame_secs(fps) {
        Some(_) if time.is_finite() => (time * fps).round() / fps,
        _ => time,
    }
}

/// The times of the keys of every DOF of a channel, merged where they coincide: the
/// channel's summary row.
pub fn channel_key_times(channel: &Channel) -> Vec<f32> {
    let mut times: Vec<f32> = dofs(channel)
        .iter()
        .filter_map(|d| curve(channel, d))
        .flat_map(|c| c.key_times())
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup_by(|a, b| (*a - *b).abs() <= KEY_MATCH_SECS);
    times
}

/// Every key of a channel at `time`, over all its DOFs.
pub fn channel_keys_at(clip: &Clip, channel: usize, time: f32) -> Vec<KeyRef> {
    let Some(c) = clip.channels.get(channel) else {
        return Vec::new();
    };
    dofs(c)
        .into_iter()
        .filter_map(|dof| {
            let i = curve(c, &dof)?.index_at(time)?;
            let time = curve(c, &dof)?.key_times()[i];
            Some(KeyRef { channel, dof, time })
        })
        .collect()
}

/// Whether `key` names a key that exists in `clip`.
pub fn key_exists(clip: &Clip, key: &KeyRef) -> bool {
    clip.channels
        .get(key.channel)
        .and_then(|c| curve(c, &key.dof))
        .and_then(|c| c.index_at(key.time))
        .is_some()
}

/// Limits a time shift so the keys stay within `[0, duration]` (or within their current
/// span when they already lie outside it), so a drag stops at the clip's ends.
pub fn clamp_shift(keys: &[KeyRef], delta: f32, duration: f32) -> f32 {
    let lo = keys.iter().map(|k| k.time).fold(f32::INFINITY, f32::min);
    let hi = keys
        .iter()
        .map(|k| k.time)
        .fold(f32::NEG_INFINITY, f32::max);
    if !(lo.is_finite() && hi.is_finite() && delta.is_finite()) {
        return 0.0;
    }
    let end = if duration.is_finite() {
        duration.max(hi)
    } else {
        hi
    };
    delta.clamp(-lo.max(0.0), (end - hi).max(0.0))
}

/// Shifts the keys by `delta` seconds. `None` when a key would land on a key that is not
/// moving (or `delta` is not finite), so a drag holds at the last valid place. Returns the
/// edited clip and the moved keys' new names.
pub fn move_keys(clip: &Clip, keys: &[KeyRef], delta: f32) -> Option<(Clip, Vec<KeyRef>)> {
    if !delta.is_finite() {
        return None;
    }
    let mut out = clip.clone();
    let mut moved = Vec::new();
    for (channel, dof, mut times) in group(keys) {
        let c = curve_mut(out.channels.get_mut(channel)?, &dof)?;
        // Moving the leading key first means no key ever lands where a selected key has not
        // left yet; only unselected keys can collide.
        times.sort_by(f32::total_cmp);
        if delta > 0.0 {
            times.reverse();
        }
        for t in times {
            let Some(i) = c.index_at(t) else { continue };
            let new_index = c.move_key(i, t + delta).ok()?;
            let time = c.key_times().get(new_index).copied()?;
            moved.push(KeyRef {
                channel,
                dof: dof.clone(),
                time,
            });
        }
    }
    Some((out, moved))
}

/// Groups key names by curve, deduplicated.
fn group(keys: &[KeyRef]) -> Vec<(usize, Dof, Vec<f32>)> {
    let mut groups: Vec<(usize, Dof, Vec<f32>)> = Vec::new();
    for k in keys {
        let slot = match groups
            .iter_mut()
            .position(|(c, d, _)| *c == k.channel && *d == k.dof)
        {
            Some(i) => &mut groups[i].2,
            None => {
                groups.push((k.channel, k.dof.clone(), Vec::new()));
                let last = groups.len() - 1;
                &mut groups[last].2
            }
        };
        if index_near(slot, k.time).is_none() {
            slot.push(k.time);
        }
    }
    groups
}

/// Removes the keys; `None` when none of them exists.
pub fn delete_keys(clip: &Clip, keys: &[KeyRef]) -> Option<Clip> {
    let mut out = clip.clone();
    let mut any = false;
    for (channel, dof, times) in group(keys) {
        let Some(c) = out
            .channels
            .get_mut(channel)
            .and_then(|c| curve_mut(c, &dof))
        else {
            continue;
        };
        for t in times {
            if let Some(i) = c.index_at(t) {
                c.remove_key(i);
                any = true;
            }
        }
    }
    any.then_some(out)
}

/// A copied key, its time relative to the earliest copied key.
#[derive(Clone, Debug, PartialEq)]
pub struct CopiedKey {
    pub channel: usize,
    pub dof: Dof,
    pub offset_secs: f32,
    pub key: RawKey,
}

pub fn copy_keys(clip: &Clip, keys: &[KeyRef]) -> Vec<CopiedKey> {
    let found: Vec<(usize, Dof, RawKey)> = keys
        .iter()
        .filter_map(|k| {
            let c = curve(clip.channels.get(k.channel)?, &k.dof)?;
            let key = *c.raw_keys().get(c.index_at(k.time)?)?;
            Some((k.channel, k.dof.clone(), key))
        })
        .collect();
    let start = found
        .iter()
        .map(|(_, _, k)| k.time)
        .fold(f32::INFINITY, f32::min);
    found
        .into_iter()
        .map(|(channel, dof, key)| CopiedKey {
            channel,
            dof,
            offset_secs: key.time - start,
            key,
        })
        .collect()
}

/// Pastes copied keys with the earliest at `time`, replacing keys already there. Keys copied
/// from one channel go to `target` when given (paste onto the active channel, as Maya pastes
/// onto the selected object); keys from several channels go back to their own. Curves a
/// channel lacks are created. Returns the clip and the pasted keys.
pub fn paste_keys(
    clip: &Clip,
    copied: &[CopiedKey],
    time: f32,
    target: Option<usize>,
) -> Option<(Clip, Vec<KeyRef>)> {
    if !time.is_finite() || copied.is_empty() {
        return None;
    }
    let single_source = copied.iter().all(|k| k.channel == copied[0].channel);
    let mut out = clip.clone();
    let mut pasted = Vec::new();
    for k in copied {
        let channel = match target {
            Some(t) if single_source => t,
            _ => k.channel,
        };
        let Some(ch) = out.channels.get_mut(channel) else {
            continue;
        };
        let c = curve_or_new(ch, &k.dof);
        let key = RawKey {
            time: time + k.offset_secs,
            ..k.key
        };
        let i = c.insert_raw(key).ok()?;
        let time = c.key_times().get(i).copied()?;
        pasted.push(KeyRef {
            channel,
            dof: k.dof.clone(),
            time,
        });
    }
    Some((out, pasted))
}

/// Keys one DOF at `time` with the value its curve has there now, so the motion does not
/// change but a key is there to edit. `None` when the curve has no value (no keys).
pub fn key_dof_at(clip: &Clip, channel: usize, dof: &Dof, time: f32) -> Option<Clip> {
    let mut out = clip.clone();
    let c = curve_mut(out.channels.get_mut(channel)?, dof)?;
    let value = c.raw_sample(time)?;
    let key = match c.index_at(time) {
        Some(i) => RawKey {
            value,
            ..c.raw_keys()[i]
        },
        None => RawKey {
            time,
            value,
            mode: TangentMode::default(),
            in_tangent: [0.0; 4],
            out_tangent: [0.0; 4],
            broken: false,
        },
    };
    c.insert_raw(key).ok()?;
    Some(out)
}

/// Sets the tangent mode of the keys. `None` when no key exists.
pub fn set_tangent_mode(clip: &Clip, keys: &[KeyRef], mode: TangentMode) -> Option<Clip> {
    edit_each_key(clip, keys, |c, i| c.set_mode(i, mode))
}

/// Breaks (or joins) the tangents of the keys, making them Free with the tangents they have
/// now; joining uses the in tangent for both sides, as the curve does.
pub fn set_broken(clip: &Clip, keys: &[KeyRef], broken: bool) -> Option<Clip> {
    edit_each_key(clip, keys, |c, i| {
        if let Some(k) = c.raw_keys().get(i) {
            c.set_raw_tangents(i, k.in_tangent, k.out_tangent, broken);
        }
    })
}

fn edit_each_key(
    clip: &Clip,
    keys: &[KeyRef],
    mut edit: impl FnMut(&mut dyn AnyCurve, usize),
) -> Option<Clip> {
    let mut out = clip.clone();
    let mut any = false;
    for k in keys {
        let Some(c) = out
            .channels
            .get_mut(k.channel)
            .and_then(|c| curve_mut(c, &k.dof))
        else {
            continue;
        };
        if let Some(i) = c.index_at(k.time) {
            edit(c, i);
            any = true;
        }
    }
    any.then_some(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use anymorph_runtime::query::ContextQuery;

    /// A clip with one channel keyed at frames 0, 10 and 20 (30 fps) on position and on a
    /// deform, and a second channel with rotation keys.
    pub(crate) fn sample_clip() -> Clip {
        let mut clip = Clip::new("test", 1.0);
        let mut a = Channel::new("arm", ContextQuery::default());
        let f = |n: f32| n / 30.0;
        a.position = Some(
            KeyedCurve::new(vec![
                Key::new(f(0.0), Vec3::ZERO),
                Key::new(f(10.0), Vec3::new(0.1, 0.2, 0.3)),
                Key::new(f(20.0), Vec3::new(-0.2, 0.0, 0.1)),
            ])
            .expect("valid keys"),
        );
        a.deforms.insert(
            "grip".into(),
            KeyedCurve::new(vec![Key::new(f(0.0), 0.0), Key::new(f(10.0), 1.0)])
                .expect("valid keys"),
        );
        let mut b = Channel::new("head", ContextQuery::default());
        b.rotation = Some(
            KeyedCurve::new(vec![
                Key::new(f(0.0), Quat::IDENTITY),
                Key::new(f(15.0), Quat::from_rotation_y(0.5)),
            ])
            .expect("valid keys"),
        );
        clip.channels = vec![a, b];
        clip
    }

    fn times(clip: &Clip, channel: usize, dof: &Dof) -> Vec<f32> {
        curve(&clip.channels[channel], dof)
            .map(|c| c.key_times())
            .unwrap_or_default()
    }

    fn key(channel: usize, dof: Dof, frame: f32) -> KeyRef {
        KeyRef {
            channel,
            dof,
            time: frame / 30.0,
        }
    }

    #[test]
    fn moving_keys_onto_each_others_old_places_keeps_them_all() {
        let clip = sample_clip();
        let keys = [
            key(0, Dof::Position, 0.0),
            key(0, Dof::Position, 10.0),
            key(0, Dof::Position, 20.0),
        ];
        // Ten frames right: each key lands where the next one was.
        let (out, moved) = move_keys(&clip, &keys, 10.0 / 30.0).expect("move is valid");
        let t: Vec<f32> = times(&out, 0, &Dof::Position)
            .iter()
            .map(|t| (t * 30.0).round())
            .collect();
        assert_eq!(t, [10.0, 20.0, 30.0]);
        assert_eq!(moved.len(), 3);
        let before = clip.channels[0]
            .position
            .as_ref()
            .map(|c| c.keys()[0].value);
        let after = out.channels[0].position.as_ref().map(|c| c.keys()[0].value);
        assert_eq!(before, after);
        // Left, the same, in the other order.
        let (back, _) = move_keys(&out, &moved, -10.0 / 30.0).expect("valid");
        let frames = |c: &Clip| -> Vec<f32> {
            times(c, 0, &Dof::Position)
                .iter()
                .map(|t| (t * 30.0).round())
                .collect()
        };
        assert_eq!(frames(&back), frames(&clip));
    }

    #[test]
    fn moving_onto_an_unselected_key_is_refused_and_nan_too() {
        let clip = sample_clip();
        let keys = [key(0, Dof::Position, 0.0)];
        assert!(move_keys(&clip, &keys, 10.0 / 30.0).is_none());
        assert!(move_keys(&clip, &keys, f32::NAN).is_none());
        // Past it is fine: order is kept valid by the curve.
        let (out, _) = move_keys(&clip, &keys, 12.0 / 30.0).expect("valid");
        let t = times(&out, 0, &Dof::Position);
        assert!(t.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn clamp_shift_keeps_keys_in_the_clip() {
        let keys = [key(0, Dof::Position, 3.0), key(0, Dof::Position, 20.0)];
        assert!((clamp_shift(&keys, -1.0, 1.0) + 0.1).abs() < 1e-6);
        assert!((clamp_shift(&keys, 1.0, 1.0) - (1.0 - 20.0 / 30.0)).abs() < 1e-6);
        assert_eq!(clamp_shift(&keys, f32::NAN, 1.0), 0.0);
        assert_eq!(clamp_shift(&[], 0.5, 1.0), 0.0);
    }

    #[test]
    fn delete_copy_paste_and_key_here() {
        let clip = sample_clip();
        let sel = [
            key(0, Dof::Position, 10.0),
            key(0, Dof::Deform("grip".into()), 10.0),
        ];
        let out = delete_keys(&clip, &sel).expect("keys exist");
        assert_eq!(times(&out, 0, &Dof::Position).len(), 2);
        assert_eq!(times(&out, 0, &Dof::Deform("grip".into())).len(), 1);
        assert!(delete_keys(&clip, &[key(5, Dof::Position, 0.0)]).is_none());

        let copied = copy_keys(&clip, &sel);
        let (pasted, refs) = paste_keys(&clip, &copied, 25.0 / 30.0, Some(1)).expect("paste");
        // One source channel: the keys go to the target channel, which gains the curves.
        assert_eq!(refs.len(), 2);
        let p = pasted.channels[1].position.as_ref().expect("created");
        assert_eq!(p.keys()[0].value, Vec3::new(0.1, 0.2, 0.3));
        assert!((p.keys()[0].time - 25.0 / 30.0).abs() < 1e-6);

        let before = clip.channels[0]
            .position
            .as_ref()
            .and_then(|c| c.sample(5.0 / 30.0));
        let here = key_dof_at(&clip, 0, &Dof::Position, 5.0 / 30.0).expect("keyed");
        let keys = here.channels[0]
            .position
            .as_ref()
            .map(|c| c.keys().to_vec());
        let keys = keys.unwrap_or_default();
        assert_eq!(keys.len(), 4);
        // The new key holds the value the curve had there (its neighbours' auto tangents
        // may then change the curve between keys, as in every DCC).
        assert_eq!(Some(keys[1].value), before);
        assert!((keys[1].time - 5.0 / 30.0).abs() < 1e-6);
        let empty = Clip::new("empty", 0.0);
        assert!(key_dof_at(&empty, 0, &Dof::Position, 0.0).is_none());
    }

    #[test]
    fn tangent_mode_and_broken_apply_to_the_named_keys() {
        let clip = sample_clip();
        let sel = [key(0, Dof::Position, 10.0)];
        let out = set_tangent_mode(&clip, &sel, TangentMode::Linear).expect("exists");
        let modes: Vec<_> = out.channels[0]
            .position
            .as_ref()
            .map(|c| c.keys().iter().map(|k| k.mode).collect())
            .unwrap_or_default();
        assert_eq!(
            modes,
            [
                TangentMode::AutoClamped,
                TangentMode::Linear,
                TangentMode::AutoClamped
            ]
        );
        let broken = set_broken(&out, &sel, true).expect("exists");
        let k = broken.channels[0].position.as_ref().map(|c| c.keys()[1]);
        let k = k.expect("key");
        assert!(k.broken && k.mode == TangentMode::Free);
        // A linear key's sides differ; breaking keeps both.
        assert_ne!(k.in_tangent, k.out_tangent);
    }
}
