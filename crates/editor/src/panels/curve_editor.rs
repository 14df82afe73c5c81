//! The curve editor: the active channel's curves, one per component, in the generalized
//! view (the stored `qg`) or the specialized view (the active body on the active creature,
//! paper 3.3). Drag keys and tangent handles, set tangent modes, frame, zoom and pan, type
//! a key's time and value.
//!
//! The widget holds only view state; the edits are the pure functions of
//! [`super::curve_edit`], returned as [`PanelOutput`]s.

use super::curve_edit::{
    Component, CurveHit, CurveView, SelectedKey, Side, ViewMap, component_color, components,
    drag_keys, frame_all, handle_pos, hit_test, nice_step, set_key_value, set_tangent_slope,
    shown_keys, slope_from_handle,
};
use super::dope_sheet::diamond;
use super::key_edit::{self, KeyRef, clamp_shift, curve, snap_to_frame};
use super::output::PanelOutput;
use anymorph_runtime::clip::Clip;
use anymorph_runtime::curve::TangentMode;
use anymorph_runtime::movement::MotionFrame;
use egui::{Color32, Key, Modifiers, PointerButton, Pos2, Rect, Sense, Stroke, Vec2};
use std::collections::BTreeSet;

const RULER_HEIGHT: f32 = 18.0;
const HIT_RADIUS: f32 = 7.0;
const TOGGLE_WIDTH: f32 = 150.0;

/// The curve editor's keys and mouse, listed by Help → Keyboard Shortcuts (F1). Keys act
/// while the pointer is over the plot.
pub const KEYS: &[(&str, &str)] = &[
    (
        "Click  /  Shift or Ctrl + click",
        "Select a key  /  add it to the selection",
    ),
    (
        "Left drag on a key or handle",
        "Move the keys (snapped to frames; Alt: unsnapped)  /  shape the tangent",
    ),
    ("Left drag from empty space", "Select the keys in a box"),
    ("Left drag on the ruler", "Scrub the playhead"),
    ("Delete  or  Backspace", "Delete the selected keys"),
    ("F", "Frame every curve"),
    (
        "Wheel  /  Ctrl + wheel",
        "Zoom time  /  zoom values, about the pointer",
    ),
    ("Middle drag", "Pan"),
];

/// Labels of the controls, shared with tests.
pub const GENERALIZED: &str = "Generalized";
pub const SPECIALIZED: &str = "Specialized";
pub const FRAME_ALL: &str = "Frame all";
pub const BROKEN: &str = "Broken";
/// The tangent-mode buttons and the mode each sets.
pub const TANGENT_MODES: [(&str, TangentMode); 6] = [
    ("Auto", TangentMode::Auto),
    ("Auto-clamped", TangentMode::AutoClamped),
    ("Flat", TangentMode::Flat),
    ("Linear", TangentMode::Linear),
    ("Step", TangentMode::Step),
    ("Free", TangentMode::Free),
];

/// What the curve editor reads each frame. The app owns all of it.
#[derive(Clone, Copy, Debug)]
pub struct CurveEditorInputs<'a> {
    pub clip: &'a Clip,
    pub active_channel: Option<usize>,
    pub time_secs: f32,
    /// `S`/`G` of the active body on the active creature for the active channel's mode;
    /// `None` when there is none (the specialized view is then unavailable).
    pub specialize: Option<MotionFrame>,
}

/// Which values the plot shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CurveSpace {
    /// The stored keys `qg`.
    #[default]
    Generalized,
    /// `S(qg)` for the active body; edits go back through `G`.
    Specialized,
}

#[derive(Clone, Debug)]
enum CurveDrag {
    Keys {
        origin: Box<Clip>,
        points: Vec<SelectedKey>,
        anchor_secs: f32,
        press: Pos2,
        id: egui::Id,
        last: (f32, f32),
    },
    Handle {
        origin: Box<Clip>,
        point: SelectedKey,
        side: Side,
        key_pos: Pos2,
        id: egui::Id,
    },
    Box {
        from: Pos2,
        additive: bool,
    },
    Scrub,
}

/// The key points and handles drawn this frame, for hit testing and painting.
#[derive(Debug, Default)]
struct Drawn {
    points: Vec<(SelectedKey, Pos2)>,
    handles: Vec<(SelectedKey, Side, Pos2)>,
}

/// The curve editor's view state.
#[derive(Debug, Default)]
pub struct CurveEditor {
    space: CurveSpace,
    hidden: BTreeSet<Component>,
    /// `None` frames everything on the next frame.
    view: Option<CurveView>,
    selected: Vec<SelectedKey>,
    drag: Option<CurveDrag>,
    drags_started: u64,
    channel_shown: Option<usize>,
    plot: Option<Rect>,
}

fn same_point(a: &SelectedKey, b: &SelectedKey) -> bool {
    a.component == b.component && (a.time - b.time).abs() <= key_edit::KEY_MATCH_SECS
}

impl CurveEditor {
    pub fn space(&self) -> CurveSpace {
        self.space
    }

    pub fn set_space(&mut self, space: CurveSpace) {
        if space != self.space {
            self.space = space;
            self.view = None;
        }
    }

    pub fn selected(&self) -> &[SelectedKey] {
        &self.selected
    }

    pub fn set_selected(&mut self, points: Vec<SelectedKey>) {
        self.selected = points;
    }

    pub fn view(&self) -> Option<CurveView> {
        self.view
    }

    /// The plot rectangle of the last frame.
    pub fn plot_rect(&self) -> Option<Rect> {
        self.plot
    }

    fn map<'a>(&self, inputs: &'a CurveEditorInputs<'_>) -> ViewMap<'a> {
        ViewMap {
            frame: match self.space {
                CurveSpace::Specialized => inputs.specialize.as_ref(),
                CurveSpace::Generalized => None,
            },
        }
    }

    /// Where a key point was drawn last frame (in the current view space).
    pub fn key_screen_pos(
        &self,
        inputs: &CurveEditorInputs<'_>,
        point: &SelectedKey,
    ) -> Option<Pos2> {
        let (plot, view, channel) = (self.plot?, self.view?, inputs.active_channel?);
        let key = shown_keys(inputs.clip, channel, &point.component.dof, self.map(inputs))
            .into_iter()
            .find(|k| (k.time - point.time).abs() <= key_edit::KEY_MATCH_SECS)?;
        Some(view.to_screen(plot, key.time, *key.value.get(point.component.index)?))
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, inputs: &CurveEditorInputs<'_>) -> Vec<PanelOutput> {
        let mut out = Vec::new();
        let clip = inputs.clip;
        let Some(channel) = inputs.active_channel.filter(|&c| c < clip.channels.len()) else {
            ui.label("Select a channel to edit its curves.");
            return out;
        };
        if self.channel_shown != Some(channel) {
            self.channel_shown = Some(channel);
            self.selected.clear();
            self.view = None;
        }
        if inputs.specialize.is_none() && self.space == CurveSpace::Specialized {
            self.set_space(CurveSpace::Generalized);
        }
        let all = components(&clip.channels[channel]);
        self.selected.retain(|p| {
            clip.channels
                .get(channel)
                .and_then(|c| curve(c, &p.component.dof))
                .is_some_and(|c| c.index_at(p.time).is_some())
        });

        self.toolbar_ui(ui, inputs, channel, &mut out);
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(TOGGLE_WIDTH);
                egui::ScrollArea::vertical()
                    .id_salt("curve toggles")
                    .show(ui, |ui| {
                        for c in &all {
                            let mut visible = !self.hidden.contains(c);
                            let text = egui::RichText::new(c.label()).color(component_color(c));
                            if ui.checkbox(&mut visible, text).changed() {
                                if visible {
                                    self.hidden.remove(c);
                                } else {
                                    self.hidden.insert(c.clone());
                                }
                            }
                        }
                    });
            });
            let visible: Vec<Component> = all
                .iter()
                .filter(|c| !self.hidden.contains(c))
                .cloned()
                .collect();
            self.plot_ui(ui, inputs, channel, &visible, &mut out);
        });
        out
    }

    fn toolbar_ui(
        &mut self,
        ui: &mut egui::Ui,
        inputs: &CurveEditorInputs<'_>,
        channel: usize,
        out: &mut Vec<PanelOutput>,
    ) {
        let clip = inputs.clip;
        ui.horizontal(|ui| {
            if ui
                .selectable_label(self.space == CurveSpace::Generalized, GENERALIZED)
                .on_hover_text("The stored keys, as every creature plays them")
                .clicked()
            {
                self.set_space(CurveSpace::Generalized);
            }
            let special = ui
                .add_enabled(
                    inputs.specialize.is_some(),
                    egui::Button::selectable(self.space == CurveSpace::Specialized, SPECIALIZED),
                )
                .on_hover_text("The active body's motion on the active creature")
                .on_disabled_hover_text("Needs an active body on an active creature");
            if special.clicked() {
                self.set_space(CurveSpace::Specialized);
            }
            ui.separator();
            let refs = self.selected_refs(channel);
            let keys: Vec<_> = refs
                .iter()
                .filter_map(|r| {
                    let c = curve(clip.channels.get(channel)?, &r.dof)?;
                    c.raw_keys().get(c.index_at(r.time)?).copied()
                })
                .collect();
            ui.add_enabled_ui(!keys.is_empty(), |ui| {
                for (label, mode) in TANGENT_MODES {
                    let on = !keys.is_empty() && keys.iter().all(|k| k.mode == mode);
                    if ui.selectable_label(on, label).clicked()
                        && let Some(edited) = key_edit::set_tangent_mode(clip, &refs, mode)
                    {
                        out.push(PanelOutput::Edit {
                            clip: edited,
                            label: format!("Tangents {label}"),
                            drag: None,
                        });
                    }
                }
                let broken = !keys.is_empty() && keys.iter().all(|k| k.broken);
                if ui
                    .selectable_label(broken, BROKEN)
                    .on_hover_text("Move the in and out tangents independently")
                    .clicked()
                    && let Some(edited) = key_edit::set_broken(clip, &refs, !broken)
                {
                    out.push(PanelOutput::Edit {
                        clip: edited,
                        label: if broken {
                            "Join tangents"
                        } else {
                            "Break tangents"
                        }
                        .into(),
                        drag: None,
                    });
                }
            });
            ui.separator();
            if ui
                .button(FRAME_ALL)
                .on_hover_text("Frame all (F)")
                .clicked()
            {
                self.view = None;
            }
        });
        // A row of its own, always as tall, so selecting a key never moves the plot.
        ui.horizontal(|ui| {
            ui.set_min_height(ui.spacing().interact_size.y);
            self.numeric_ui(ui, inputs, channel, out);
        });
    }

    /// The keys behind the selected points, one per key.
    fn selected_refs(&self, channel: usize) -> Vec<KeyRef> {
        let mut refs: Vec<KeyRef> = Vec::new();
        for p in &self.selected {
            let r = KeyRef {
                channel,
                dof: p.component.dof.clone(),
                time: p.time,
            };
            if !refs.contains(&r) {
                refs.push(r);
            }
        }
        refs
    }

    /// Time and value of the first selected point, typed or dragged.
    fn numeric_ui(
        &mut self,
        ui: &mut egui::Ui,
        inputs: &CurveEditorInputs<'_>,
        channel: usize,
        out: &mut Vec<PanelOutput>,
    ) {
        let clip = inputs.clip;
        let map = self.map(inputs);
        let Some(point) = self.selected.first().cloned() else {
            ui.weak("No key selected");
            return;
        };
        let Some(shown) = shown_keys(clip, channel, &point.component.dof, map)
            .into_iter()
            .find(|k| (k.time - point.time).abs() <= key_edit::KEY_MATCH_SECS)
        else {
            return;
        };
        let frame = key_edit::frame_secs(clip.fps).unwrap_or(1.0 / 30.0);
        let mut time = shown.time;
        let label = ui.label("Time");
        let r = ui
            .add(
                egui::DragValue::new(&mut time)
                    .speed(frame)
                    .suffix(" s")
                    .max_decimals(4),
            )
            .labelled_by(label.id);
        if r.drag_started() {
            self.drags_started += 1;
        }
        let drag = r.dragged().then(|| r.id.with(self.drags_started));
        if r.changed() && time.is_finite() && time != shown.time {
            let key = KeyRef {
                channel,
                dof: point.component.dof.clone(),
                time: point.time,
            };
            let shift = time - point.time;
            if let Some((edited, _)) = key_edit::move_keys(clip, &[key], shift) {
                for p in &mut self.selected {
                    if p.component.dof == point.component.dof
                        && (p.time - point.time).abs() <= key_edit::KEY_MATCH_SECS
                    {
                        p.time = time;
                    }
                }
                out.push(PanelOutput::Edit {
                    clip: edited,
                    label: "Key time".into(),
                    drag,
                });
            }
        }
        let Some(mut value) = shown.value.get(point.component.index).copied() else {
            return;
        };
        let before = value;
        let label = ui.label(point.component.label());
        let r = ui
            .add(egui::DragValue::new(&mut value).speed(0.01).max_decimals(4))
            .labelled_by(label.id);
        if r.drag_started() {
            self.drags_started += 1;
        }
        let drag = r.dragged().then(|| r.id.with(self.drags_started));
        if r.changed()
            && value != before
            && let Some(edited) = set_key_value(clip, channel, &point, value, map)
        {
            out.push(PanelOutput::Edit {
                clip: edited,
                label: "Key value".into(),
                drag,
            });
        }
    }

    fn plot_ui(
        &mut self,
        ui: &mut egui::Ui,
        inputs: &CurveEditorInputs<'_>,
        channel: usize,
        visible: &[Component],
        out: &mut Vec<PanelOutput>,
    ) {
        let clip = inputs.clip;
        let map = self.map(inputs);
        let size = Vec2::new(
            ui.available_width().max(50.0),
            ui.available_height().max(80.0),
        );
        let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Group, true, "Curves"));
        let ruler =
            Rect::from_min_max(rect.min, Pos2::new(rect.right(), rect.top() + RULER_HEIGHT));
        let plot = Rect::from_min_max(Pos2::new(rect.left(), ruler.bottom()), rect.max);
        self.plot = Some(plot);
        let hovered = response.contains_pointer();
        if hovered && ui.input(|i| i.key_pressed(Key::F) && i.modifiers.is_none()) {
            self.view = None;
        }
        let mut view = self
            .view
            .unwrap_or_else(|| frame_all(clip, channel, visible, map))
            .sanitized();

        if hovered {
            let (scroll, zoom, pointer) =
                ui.input(|i| (i.smooth_scroll_delta, i.zoom_delta(), i.pointer.hover_pos()));
            let at = pointer.unwrap_or(plot.center());
            if scroll.y != 0.0 {
                view = view.zoom_time(view.time_at(plot, at.x), (scroll.y * 0.005).exp());
                ui.ctx().input_mut(|i| i.smooth_scroll_delta = Vec2::ZERO);
            }
            if zoom != 1.0 {
                view = view.zoom_value(view.value_at(plot, at.y), zoom);
            }
        }
        if response.dragged_by(PointerButton::Middle) {
            view = view.pan(plot, response.drag_delta());
        }
        self.view = Some(view);

        // Every drawn key point and, for selected points, their handles.
        let mut drawn = Drawn::default();
        for comp in visible {
            for k in shown_keys(clip, channel, &comp.dof, map) {
                let point = SelectedKey {
                    component: comp.clone(),
                    time: k.time,
                };
                let pos = view.to_screen(plot, k.time, k.value[comp.index]);
                if !pos.is_finite() {
                    continue;
                }
                if self.selected.iter().any(|s| same_point(s, &point)) {
                    for (side, slope) in [(Side::In, k.in_tangent), (Side::Out, k.out_tangent)] {
                        let h = handle_pos(&view, plot, pos, slope[comp.index], side);
                        drawn.handles.push((point.clone(), side, h));
                    }
                }
                drawn.points.push((point, pos));
            }
        }

        self.pointer(
            ui,
            &response,
            inputs,
            channel,
            (plot, ruler, view),
            &drawn,
            out,
        );
        if hovered
            && ui.input_mut(|i| {
                i.consume_key(Modifiers::NONE, Key::Delete)
                    || i.consume_key(Modifiers::NONE, Key::Backspace)
            })
            && let Some(edited) = key_edit::delete_keys(clip, &self.selected_refs(channel))
        {
            self.selected.clear();
            out.push(PanelOutput::Edit {
                clip: edited,
                label: "Delete keys".into(),
                drag: None,
            });
        }

        self.paint(ui, inputs, channel, visible, (plot, ruler, view), &drawn);
    }

    #[allow(clippy::too_many_arguments)]
    fn pointer(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        inputs: &CurveEditorInputs<'_>,
        channel: usize,
        (plot, ruler, view): (Rect, Rect, CurveView),
        Drawn { points, handles }: &Drawn,
        out: &mut Vec<PanelOutput>,
    ) {
        let clip = inputs.clip;
        let map = self.map(inputs);
        let modifiers = ui.input(|i| i.modifiers);
        let adding = modifiers.shift || modifiers.command || modifiers.ctrl;
        let scrub = |x: f32| {
            let t = snap_to_frame(view.time_at(plot, x), clip.fps);
            PanelOutput::SetTime(t.clamp(0.0, clip.duration_secs.max(0.0)))
        };
        if response.drag_started_by(PointerButton::Primary)
            && let Some(origin) = ui.input(|i| i.pointer.press_origin())
        {
            self.drag = if ruler.contains(origin) {
                Some(CurveDrag::Scrub)
            } else {
                match hit_test(points, handles, origin, HIT_RADIUS) {
                    Some(CurveHit::Handle(point, side)) => {
                        self.drags_started += 1;
                        let key_pos = points
                            .iter()
                            .find(|(p, _)| same_point(p, &point))
                            .map_or(origin, |(_, pos)| *pos);
                        Some(CurveDrag::Handle {
                            origin: Box::new(clip.clone()),
                            point,
                            side,
                            key_pos,
                            id: response.id.with(("tangent drag", self.drags_started)),
                        })
                    }
                    Some(CurveHit::Key(point)) => {
                        if !self.selected.iter().any(|s| same_point(s, &point)) {
                            if !adding {
                                self.selected.clear();
                            }
                            self.selected.push(point.clone());
                        }
                        self.drags_started += 1;
                        Some(CurveDrag::Keys {
                            origin: Box::new(clip.clone()),
                            points: self.selected.clone(),
                            anchor_secs: point.time,
                            press: origin,
                            id: response.id.with(("key drag", self.drags_started)),
                            last: (0.0, 0.0),
                        })
                    }
                    None if plot.contains(origin) => Some(CurveDrag::Box {
                        from: origin,
                        additive: adding,
                    }),
                    None => None,
                }
            };
        }
        if response.dragged_by(PointerButton::Primary)
            && let Some(pos) = response.interact_pointer_pos()
        {
            match &mut self.drag {
                Some(CurveDrag::Scrub) => out.push(scrub(pos.x)),
                Some(CurveDrag::Keys {
                    origin,
                    points,
                    anchor_secs,
                    press,
                    id,
                    last,
                }) => {
                    let mut target = *anchor_secs + (pos.x - press.x) / view.px_per_sec(plot);
                    if !modifiers.alt {
                        target = snap_to_frame(target, origin.fps);
                    }
                    let refs: Vec<KeyRef> = points.iter().map(|p| p.key_ref(channel)).collect();
                    let dt = clamp_shift(&refs, target - *anchor_secs, origin.duration_secs);
                    let dv = -(pos.y - press.y) / view.px_per_value(plot);
                    if (dt, dv) != *last
                        && let Some((edited, moved)) =
                            drag_keys(origin, channel, points, dt, dv, map)
                    {
                        *last = (dt, dv);
                        self.selected = moved;
                        out.push(PanelOutput::Edit {
                            clip: edited,
                            label: "Move keys".into(),
                            drag: Some(*id),
                        });
                    }
                }
                Some(CurveDrag::Handle {
                    origin,
                    point,
                    side,
                    key_pos,
                    id,
                }) => {
                    if let Some(slope) = slope_from_handle(&view, plot, *key_pos, pos, *side)
                        && let Some(edited) =
                            set_tangent_slope(origin, channel, point, *side, slope, map)
                    {
                        out.push(PanelOutput::Edit {
                            clip: edited,
                            label: "Edit tangent".into(),
                            drag: Some(*id),
                        });
                    }
                }
                Some(CurveDrag::Box { .. }) | None => {}
            }
        }
        if response.drag_stopped() {
            if let Some(CurveDrag::Box { from, additive }) = self.drag.take()
                && let Some(to) = ui.input(|i| i.pointer.latest_pos())
            {
                let r = Rect::from_two_pos(from, to);
                if !additive {
                    self.selected.clear();
                }
                for (p, pos) in points {
                    if r.contains(*pos) && !self.selected.iter().any(|s| same_point(s, p)) {
                        self.selected.push(p.clone());
                    }
                }
            }
            self.drag = None;
        }
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            if ruler.contains(pos) {
                out.push(scrub(pos.x));
            } else {
                match hit_test(points, &[], pos, HIT_RADIUS) {
                    Some(CurveHit::Key(p)) if adding => {
                        if let Some(i) = self.selected.iter().position(|s| same_point(s, &p)) {
                            self.selected.remove(i);
                        } else {
                            self.selected.push(p);
                        }
                    }
                    Some(CurveHit::Key(p)) => self.selected = vec![p],
                    _ if !adding => self.selected.clear(),
                    _ => {}
                }
            }
        }
    }

    fn paint(
        &self,
        ui: &egui::Ui,
        inputs: &CurveEditorInputs<'_>,
        channel: usize,
        visible: &[Component],
        (plot, ruler, view): (Rect, Rect, CurveView),
        Drawn { points, handles }: &Drawn,
    ) {
        let clip = inputs.clip;
        let map = self.map(inputs);
        let visuals = ui.visuals();
        let painter = ui.painter_at(plot);
        painter.rect_filled(plot, 0.0, visuals.extreme_bg_color);
        ui.painter_at(ruler)
            .rect_filled(ruler, 0.0, visuals.faint_bg_color);
        let grid = visuals.faint_bg_color;
        let text = visuals.weak_text_color();
        // Value grid lines at a round step, about every 40 px.
        let step = nice_step(40.0 / view.px_per_value(plot));
        let first = (view.value_min / step).ceil() as i64;
        let last = (view.value_max / step).floor() as i64;
        for n in first..=last.min(first + 200) {
            let v = n as f32 * step;
            let y = view.to_screen(plot, 0.0, v).y;
            let stroke = if n == 0 {
                Stroke::new(1.0, text)
            } else {
                Stroke::new(1.0, grid)
            };
            painter.hline(plot.x_range(), y, stroke);
            painter.text(
                Pos2::new(plot.left() + 2.0, y - 1.0),
                egui::Align2::LEFT_BOTTOM,
                format!("{v:.3}"),
                egui::FontId::monospace(9.0),
                text,
            );
        }
        let fps = key_edit::frame_secs(clip.fps).map_or(30.0, |f| 1.0 / f);
        let frame_step = nice_step(60.0 / view.px_per_sec(plot) * fps).max(1.0);
        let first = (view.time_min * fps / frame_step).ceil() as i64;
        let last = (view.time_max * fps / frame_step).floor() as i64;
        let ruler_painter = ui.painter_at(ruler);
        for n in first..=last.min(first + 200) {
            let frame = n as f32 * frame_step;
            let x = view.to_screen(plot, frame / fps, 0.0).x;
            painter.vline(x, plot.y_range(), Stroke::new(1.0, grid));
            ruler_painter.text(
                Pos2::new(x + 2.0, ruler.top() + 2.0),
                egui::Align2::LEFT_TOP,
                format!("{frame:.0}"),
                egui::FontId::monospace(10.0),
                text,
            );
        }
        for (x0, x1) in [
            (plot.left(), view.to_screen(plot, 0.0, 0.0).x),
            (
                view.to_screen(plot, clip.duration_secs.max(0.0), 0.0).x,
                plot.right(),
            ),
        ] {
            if x1 > x0 {
                let r = Rect::from_x_y_ranges(
                    x0.max(plot.left())..=x1.min(plot.right()),
                    plot.y_range(),
                );
                painter.rect_filled(r, 0.0, Color32::from_black_alpha(50));
            }
        }

        for comp in visible {
            let Some(c) = clip
                .channels
                .get(channel)
                .and_then(|ch| curve(ch, &comp.dof))
            else {
                continue;
            };
            let color = component_color(comp);
            let mut line = Vec::new();
            let mut x = plot.left();
            while x <= plot.right() + 2.0 {
                let t = view.time_at(plot, x);
                if let Some(v) = c.raw_sample(t) {
                    let p = view.to_screen(plot, t, map.show_value(&comp.dof, v)[comp.index]);
                    if p.is_finite() {
                        line.push(p);
                    }
                }
                x += 2.0;
            }
            painter.add(egui::Shape::line(line, Stroke::new(1.5, color)));
        }
        let handle_color = Color32::from_gray(220);
        for (point, side, h) in handles {
            if let Some((_, k)) = points.iter().find(|(p, _)| same_point(p, point)) {
                painter.line_segment([*k, *h], Stroke::new(1.0, handle_color));
                let fill = if *side == Side::In {
                    handle_color
                } else {
                    Color32::from_gray(160)
                };
                painter.circle(*h, 3.5, fill, Stroke::new(1.0, Color32::BLACK));
            }
        }
        for (point, pos) in points {
            let selected = self.selected.iter().any(|s| same_point(s, point));
            let fill = if selected {
                Color32::from_rgb(255, 130, 40)
            } else {
                component_color(&point.component)
            };
            diamond(&painter, *pos, if selected { 5.0 } else { 4.0 }, fill);
        }
        let x = view.to_screen(plot, inputs.time_secs, 0.0).x;
        if x.is_finite() {
            ui.painter_at(ruler.union(plot)).vline(
                x,
                ruler.top()..=plot.bottom(),
                Stroke::new(1.5, Color32::from_rgb(240, 70, 60)),
            );
        }
        if let (Some(CurveDrag::Box { from, .. }), Some(to)) =
            (&self.drag, ui.input(|i| i.pointer.latest_pos()))
        {
            let r = Rect::from_two_pos(*from, to);
            painter.rect_filled(r, 0.0, visuals.selection.bg_fill.gamma_multiply(0.2));
            painter.rect_stroke(r, 0.0, visuals.selection.stroke, egui::StrokeKind::Inside);
        }
        if self.space == CurveSpace::Specialized {
            painter.text(
                plot.right_top() + Vec2::new(-6.0, 4.0),
                egui::Align2::RIGHT_TOP,
                "specialized: active body",
                egui::FontId::proportional(11.0),
                text,
            );
        }
    }
}
