//! The curve editor's pure part: how keys appear in the generalized or specialized view
//! (paper 3.3: values and tangents shown through `S`, edits stored back through `G`), the
//! plot's coordinate transform, tangent-handle geometry, and the edits a drag makes.

use super::key_edit::{self, Dof, KeyRef, RawKey, curve, curve_mut};
use anymorph_runtime::clip::Clip;
use anymorph_runtime::movement::MotionFrame;
use anymorph_runtime::pose::BodyPose;
use egui::{Color32, Pos2, Rect, Vec2};
use glam::{Quat, Vec3};

/// Screen length of a drawn tangent handle.
pub const HANDLE_PX: f32 = 40.0;

/// One drawn curve: a component of one of the active channel's DOFs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Component {
    pub dof: Dof,
    pub index: usize,
}

impl Component {
    pub fn label(&self) -> String {
        let names = self.dof.component_names();
        match names.get(self.index) {
            Some(n) if names.len() > 1 => format!("{}.{n}", self.dof.label()),
            _ => self.dof.label(),
        }
    }
}

/// The components of every DOF the channel has.
pub fn components(channel: &anymorph_runtime::clip::Channel) -> Vec<Component> {
    key_edit::dofs(channel)
        .into_iter()
        .flat_map(|dof| {
            (0..dof.component_names().len()).map(move |index| Component {
                dof: dof.clone(),
                index,
            })
        })
        .collect()
}

/// A selected key point: a key of one component (the key's time names it).
#[derive(Clone, Debug, PartialEq)]
pub struct SelectedKey {
    pub component: Component,
    pub time: f32,
}

impl SelectedKey {
    /// The key this point belongs to, on `channel`.
    pub fn key_ref(&self, channel: usize) -> KeyRef {
        KeyRef {
            channel,
            dof: self.component.dof.clone(),
            time: self.time,
        }
    }
}

/// Which tangent of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    In,
    Out,
}

/// Maps a DOF's stored (generalized) values to what the view shows and back. Only position
/// and rotation are specialized; weights and deforms are the same in both views.
#[derive(Clone, Copy, Debug)]
pub struct ViewMap<'a> {
    /// `Some` in the specialized view.
    pub frame: Option<&'a MotionFrame>,
}

impl ViewMap<'_> {
    pub fn show_value(&self, dof: &Dof, raw: [f32; 4]) -> [f32; 4] {
        match (self.frame, dof) {
            (Some(f), Dof::Position) => {
                let p = f.specialize(BodyPose::new(vec3(raw), Quat::IDENTITY));
                p.position.extend(0.0).to_array()
            }
            (Some(f), Dof::Rotation) => f
                .specialize(BodyPose::new(Vec3::ZERO, Quat::from_array(raw)))
                .rotation
                .to_array(),
            _ => raw,
        }
    }

    pub fn store_value(&self, dof: &Dof, shown: [f32; 4]) -> [f32; 4] {
        match (self.frame, dof) {
            (Some(f), Dof::Position) => {
                let p = f.generalize(BodyPose::new(vec3(shown), Quat::IDENTITY));
                p.position.extend(0.0).to_array()
            }
            (Some(f), Dof::Rotation) => f
                .generalize(BodyPose::new(Vec3::ZERO, Quat::from_array(shown)))
                .rotation
                .to_array(),
            _ => shown,
        }
    }

    pub fn show_tangent(&self, dof: &Dof, raw: [f32; 4]) -> [f32; 4] {
        match (self.frame, dof) {
            (Some(f), Dof::Position) => f.specialize_vector(vec3(raw)).extend(0.0).to_array(),
            (Some(f), Dof::Rotation) => f
                .specialize_rotation_tangent(Quat::from_array(raw))
                .to_array(),
            _ => raw,
        }
    }

    pub fn store_tangent(&self, dof: &Dof, shown: [f32; 4]) -> [f32; 4] {
        match (self.frame, dof) {
            (Some(f), Dof::Position) => f.generalize_vector(vec3(shown)).extend(0.0).to_array(),
            (Some(f), Dof::Rotation) => f
                .generalize_rotation_tangent(Quat::from_array(shown))
                .to_array(),
            _ => shown,
        }
    }
}

fn vec3(c: [f32; 4]) -> Vec3 {
    Vec3::new(c[0], c[1], c[2])
}

/// Sets component `index` of a shown rotation to `value` and rescales the others so the
/// quaternion stays unit: the curve would normalize it anyway, and doing it here keeps the
/// dragged component where the user put it.
fn set_unit_component(q: [f32; 4], index: usize, value: f32) -> [f32; 4] {
    let value = value.clamp(-1.0, 1.0);
    let rest: f32 = (0..4).filter(|&i| i != index).map(|i| q[i] * q[i]).sum();
    let want = 1.0 - value * value;
    let mut out = q;
    if rest > 1e-12 {
        let s = (want / rest).sqrt();
        for (i, c) in out.iter_mut().enumerate() {
            if i != index {
                *c *= s;
            }
        }
    } else {
        // The others are all zero: put what is left on the next component.
        out = [0.0; 4];
        out[(index + 1) % 4] = want.sqrt();
    }
    out[index] = value;
    out
}

/// The visible part of the plot in time and value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurveView {
    pub time_min: f32,
    pub time_max: f32,
    pub value_min: f32,
    pub value_max: f32,
}

impl CurveView {
    /// A usable view: finite, ordered, never zero-sized.
    pub fn sanitized(self) -> Self {
        let fix = |lo: f32, hi: f32, default: (f32, f32)| {
            if !(lo.is_finite() && hi.is_finite()) {
                return default;
            }
            let (lo, hi) = (lo.min(hi), lo.max(hi));
            if hi - lo < 1e-5 {
                let mid = 0.5 * (lo + hi);
                (mid - 0.5, mid + 0.5)
            } else {
                (lo, hi)
            }
        };
        let (time_min, time_max) = fix(self.time_min, self.time_max, (0.0, 1.0));
        let (value_min, value_max) = fix(self.value_min, self.value_max, (-1.0, 1.0));
        CurveView {
            time_min,
            time_max,
            value_min,
            value_max,
        }
    }

    pub fn px_per_sec(&self, plot: Rect) -> f32 {
        plot.width() / (self.time_max - self.time_min)
    }

    pub fn px_per_value(&self, plot: Rect) -> f32 {
        plot.height() / (self.value_max - self.value_min)
    }

    pub fn to_screen(&self, plot: Rect, time: f32, value: f32) -> Pos2 {
        Pos2::new(
            plot.left() + (time - self.time_min) * self.px_per_sec(plot),
            plot.bottom() - (value - self.value_min) * self.px_per_value(plot),
        )
    }

    pub fn time_at(&self, plot: Rect, x: f32) -> f32 {
        self.time_min + (x - plot.left()) / self.px_per_sec(plot)
    }

    pub fn value_at(&self, plot: Rect, y: f32) -> f32 {
        self.value_min + (plot.bottom() - y) / self.px_per_value(plot)
    }

    /// Zooms time by `factor` (> 1 zooms in) keeping `time` where it is on screen.
    pub fn zoom_time(self, time: f32, factor: f32) -> Self {
        if !(factor.is_finite() && factor > 0.0 && time.is_finite()) {
            return self;
        }
        CurveView {
            time_min: time - (time - self.time_min) / factor,
            time_max: time + (self.time_max - time) / factor,
            ..self
        }
        .sanitized()
    }

    pub fn zoom_value(self, value: f32, factor: f32) -> Self {
        if !(factor.is_finite() && factor > 0.0 && value.is_finite()) {
            return self;
        }
        CurveView {
            value_min: value - (value - self.value_min) / factor,
            value_max: value + (self.value_max - value) / factor,
            ..self
        }
        .sanitized()
    }

    /// Moves the view by a screen delta, as if dragging the curves.
    pub fn pan(self, plot: Rect, delta: Vec2) -> Self {
        let dt = -delta.x / self.px_per_sec(plot);
        let dv = delta.y / self.px_per_value(plot);
        if !(dt.is_finite() && dv.is_finite()) {
            return self;
        }
        CurveView {
            time_min: self.time_min + dt,
            time_max: self.time_max + dt,
            value_min: self.value_min + dv,
            value_max: self.value_max + dv,
        }
    }
}

/// A view that shows every key and the curve between them of the given components, padded.
pub fn frame_all(clip: &Clip, channel: usize, shown: &[Component], map: ViewMap<'_>) -> CurveView {
    let mut time = (f32::INFINITY, f32::NEG_INFINITY);
    let mut value = (f32::INFINITY, f32::NEG_INFINITY);
    let grow = |r: &mut (f32, f32), v: f32| {
        if v.is_finite() {
            r.0 = r.0.min(v);
            r.1 = r.1.max(v);
        }
    };
    if let Some(ch) = clip.channels.get(channel) {
        for comp in shown {
            let Some(c) = curve(ch, &comp.dof) else {
                continue;
            };
            let keys = c.raw_keys();
            let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
                continue;
            };
            grow(&mut time, first.time);
            grow(&mut time, last.time);
            const SAMPLES: usize = 64;
            for s in 0..=SAMPLES {
                let t = first.time + (last.time - first.time) * s as f32 / SAMPLES as f32;
                if let Some(v) = c.raw_sample(t) {
                    grow(&mut value, map.show_value(&comp.dof, v)[comp.index]);
                }
            }
            for k in &keys {
                grow(&mut value, map.show_value(&comp.dof, k.value)[comp.index]);
            }
        }
    }
    if time.1 - time.0 < 1e-3 {
        let d = if clip.duration_secs.is_finite() && clip.duration_secs > 0.0 {
            clip.duration_secs
        } else {
            1.0
        };
        time = if time.0.is_finite() {
            (time.0 - 0.5 * d, time.0 + 0.5 * d)
        } else {
            (0.0, d)
        };
    }
    if !value.0.is_finite() {
        value = (-1.0, 1.0);
    }
    let pad_t = 0.05 * (time.1 - time.0);
    let pad_v = (0.1 * (value.1 - value.0)).max(0.05);
    CurveView {
        time_min: time.0 - pad_t,
        time_max: time.1 + pad_t,
        value_min: value.0 - pad_v,
        value_max: value.1 + pad_v,
    }
    .sanitized()
}

/// A key's shown value and tangents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShownKey {
    pub time: f32,
    pub value: [f32; 4],
    pub in_tangent: [f32; 4],
    pub out_tangent: [f32; 4],
    pub raw: RawKey,
}

pub fn shown_keys(clip: &Clip, channel: usize, dof: &Dof, map: ViewMap<'_>) -> Vec<ShownKey> {
    let Some(c) = clip.channels.get(channel).and_then(|ch| curve(ch, dof)) else {
        return Vec::new();
    };
    c.raw_keys()
        .into_iter()
        .map(|raw| ShownKey {
            time: raw.time,
            value: map.show_value(dof, raw.value),
            in_tangent: map.show_tangent(dof, raw.in_tangent),
            out_tangent: map.show_tangent(dof, raw.out_tangent),
            raw,
        })
        .collect()
}

/// Where a key's tangent handle is drawn: [`HANDLE_PX`] from the key along the slope.
pub fn handle_pos(view: &CurveView, plot: Rect, key: Pos2, slope: f32, side: Side) -> Pos2 {
    let dir = Vec2::new(view.px_per_sec(plot), -slope * view.px_per_value(plot));
    let dir = if dir.x.is_finite() && dir.y.is_finite() {
        dir.normalized()
    } else {
        Vec2::new(0.0, -slope.signum())
    };
    let dir = if dir.is_finite() { dir } else { Vec2::X };
    match side {
        Side::Out => key + dir * HANDLE_PX,
        Side::In => key - dir * HANDLE_PX,
    }
}

/// The slope a handle dragged to `pointer` asks for. The handle cannot cross to the other
/// side of its key (that would reverse time), so it stops a pixel short.
pub fn slope_from_handle(
    view: &CurveView,
    plot: Rect,
    key: Pos2,
    pointer: Pos2,
    side: Side,
) -> Option<f32> {
    let d = pointer - key;
    let dx = match side {
        Side::Out => d.x.max(1.0),
        Side::In => d.x.min(-1.0),
    };
    let dt = dx / view.px_per_sec(plot);
    let dv = -d.y / view.px_per_value(plot);
    let slope = dv / dt;
    slope.is_finite().then_some(slope)
}

/// Sets the shown value of one component of the key at `time` (a numeric field); the
/// stored value is what maps to it through `G`, the other shown components held.
pub fn set_key_value(
    clip: &Clip,
    channel: usize,
    point: &SelectedKey,
    value: f32,
    map: ViewMap<'_>,
) -> Option<Clip> {
    if !value.is_finite() {
        return None;
    }
    let current = shown_keys(clip, channel, &point.component.dof, map)
        .into_iter()
        .find(|k| (k.time - point.time).abs() <= key_edit::KEY_MATCH_SECS)?
        .value
        .get(point.component.index)
        .copied()?;
    drag_keys(
        clip,
        channel,
        std::slice::from_ref(point),
        0.0,
        value - current,
        map,
    )
    .map(|r| r.0)
}

/// The edit of a key drag: each selected point's shown value moves by `value_delta` (in the
/// view's space) and its key by `time_delta`. Returns the clip and the points' new names.
pub fn drag_keys(
    clip: &Clip,
    channel: usize,
    points: &[SelectedKey],
    time_delta: f32,
    value_delta: f32,
    map: ViewMap<'_>,
) -> Option<(Clip, Vec<SelectedKey>)> {
    if !(time_delta.is_finite() && value_delta.is_finite()) {
        return None;
    }
    let mut out = clip.clone();
    if value_delta != 0.0 {
        // Group the points by key so a key with several selected components is stored once.
        let mut keys: Vec<(Dof, f32, Vec<usize>)> = Vec::new();
        for p in points {
            match keys.iter_mut().find(|(d, t, _)| {
                *d == p.component.dof && (t - p.time).abs() <= key_edit::KEY_MATCH_SECS
            }) {
                Some((_, _, comps)) => comps.push(p.component.index),
                None => keys.push((p.component.dof.clone(), p.time, vec![p.component.index])),
            }
        }
        for (dof, time, comps) in keys {
            let c = curve_mut(out.channels.get_mut(channel)?, &dof)?;
            let Some(i) = c.index_at(time) else { continue };
            let raw = c.raw_keys()[i];
            let mut shown = map.show_value(&dof, raw.value);
            for &ci in &comps {
                let v = shown.get(ci).copied()? + value_delta;
                shown = if dof == Dof::Rotation {
                    set_unit_component(shown, ci, v)
                } else {
                    let mut s = shown;
                    s[ci] = v;
                    s
                };
            }
            let value = map.store_value(&dof, shown);
            if value.iter().any(|v| !v.is_finite()) {
                return None;
            }
            c.insert_raw(RawKey { value, ..raw }).ok()?;
        }
    }
    let mut moved = points.to_vec();
    if time_delta != 0.0 {
        let refs: Vec<KeyRef> = points.iter().map(|p| p.key_ref(channel)).collect();
        out = key_edit::move_keys(&out, &refs, time_delta)?.0;
        for p in &mut moved {
            p.time += time_delta;
        }
    }
    Some((out, moved))
}

/// Sets one tangent's shown slope on one component, making the key Free. An unbroken key
/// gets the slope on both sides (its tangent is one line); a broken key only on `side`.
pub fn set_tangent_slope(
    clip: &Clip,
    channel: usize,
    point: &SelectedKey,
    side: Side,
    slope: f32,
    map: ViewMap<'_>,
) -> Option<Clip> {
    if !slope.is_finite() {
        return None;
    }
    let dof = &point.component.dof;
    let mut out = clip.clone();
    let c = curve_mut(out.channels.get_mut(channel)?, dof)?;
    let i = c.index_at(point.time)?;
    let raw = c.raw_keys()[i];
    let broken = raw.broken && raw.mode == anymorph_runtime::curve::TangentMode::Free;
    let mut shown_in = map.show_tangent(dof, raw.in_tangent);
    let mut shown_out = map.show_tangent(dof, raw.out_tangent);
    let index = point.component.index;
    if index >= 4 {
        return None;
    }
    if broken {
        match side {
            Side::In => shown_in[index] = slope,
            Side::Out => shown_out[index] = slope,
        }
    } else {
        let mut both = match side {
            Side::In => shown_in,
            Side::Out => shown_out,
        };
        both[index] = slope;
        shown_in = both;
        shown_out = both;
    }
    c.set_raw_tangents(
        i,
        map.store_tangent(dof, shown_in),
        map.store_tangent(dof, shown_out),
        broken,
    );
    Some(out)
}

/// What the pointer is over in the plot.
#[derive(Clone, Debug, PartialEq)]
pub enum CurveHit {
    Handle(SelectedKey, Side),
    Key(SelectedKey),
}

/// The nearest handle or key point within `radius` of `pos`; handles win ties because they
/// sit on top of the curve and are only shown for selected keys.
pub fn hit_test(
    points: &[(SelectedKey, Pos2)],
    handles: &[(SelectedKey, Side, Pos2)],
    pos: Pos2,
    radius: f32,
) -> Option<CurveHit> {
    let nearest = |d: f32, best: &mut Option<(f32, CurveHit)>, hit: CurveHit| {
        if d <= radius && best.as_ref().is_none_or(|(b, _)| d < *b) {
            *best = Some((d, hit));
        }
    };
    let mut best = None;
    for (k, side, p) in handles {
        nearest(
            p.distance(pos),
            &mut best,
            CurveHit::Handle(k.clone(), *side),
        );
    }
    if best.is_some() {
        return best.map(|(_, h)| h);
    }
    for (k, p) in points {
        nearest(p.distance(pos), &mut best, CurveHit::Key(k.clone()));
    }
    best.map(|(_, h)| h)
}

/// The colour of a component's curve: x/y/z/w red, green, blue, yellow (rotation lighter),
/// scalars from a palette.
pub fn component_color(c: &Component) -> Color32 {
    const POSITION: [Color32; 3] = [
        Color32::from_rgb(230, 80, 80),
        Color32::from_rgb(90, 200, 90),
        Color32::from_rgb(90, 130, 240),
    ];
    const ROTATION: [Color32; 4] = [
        Color32::from_rgb(250, 150, 150),
        Color32::from_rgb(160, 235, 160),
        Color32::from_rgb(150, 185, 255),
        Color32::from_rgb(225, 215, 110),
    ];
    const SCALARS: [Color32; 5] = [
        Color32::from_rgb(200, 160, 240),
        Color32::from_rgb(240, 180, 100),
        Color32::from_rgb(100, 220, 220),
        Color32::from_rgb(240, 120, 200),
        Color32::from_rgb(180, 180, 180),
    ];
    match &c.dof {
        Dof::Position => POSITION[c.index.min(2)],
        Dof::Rotation => ROTATION[c.index.min(3)],
        Dof::PositionWeight => SCALARS[0],
        Dof::RotationWeight => SCALARS[1],
        Dof::Deform(name) => {
            let h = name
                .bytes()
                .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b.into()));
            SCALARS[2 + h % 3]
        }
    }
}

/// A round step (1, 2 or 5 times a power of ten) at least `raw`.
pub fn nice_step(raw: f32) -> f32 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let p = 10f32.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * p)
}
