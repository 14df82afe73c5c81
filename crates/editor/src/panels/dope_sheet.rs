//! The dope sheet: every key of the clip on a time grid, a summary row per channel and a row
//! per keyed DOF. Select (click, Shift/Ctrl-click, box), drag in time snapped to frames,
//! delete, copy/paste at the playhead, and key a DOF at the playhead from its context menu.
//!
//! The widget holds only view state; edits come out as [`PanelOutput`]s built by the pure
//! functions of [`super::key_edit`].

use super::key_edit::{
    self, CopiedKey, Dof, KeyRef, channel_key_times, channel_keys_at, clamp_shift, curve, dofs,
    snap_to_frame,
};
use super::output::PanelOutput;
use anymorph_runtime::clip::Clip;
use egui::{Color32, Event, Key, Modifiers, PointerButton, Pos2, Rect, Sense, Stroke, Vec2};

const NAME_WIDTH: f32 = 150.0;
const RULER_HEIGHT: f32 = 22.0;
const ROW_HEIGHT: f32 = 18.0;
/// Pixels either side of a key's centre that still hit it.
const KEY_HIT_RADIUS: f32 = 6.0;
/// Room left of time 0 so the first keys are not cut in half.
const TIME_MARGIN: f32 = 10.0;

/// The dope sheet's keys and mouse, listed by Help → Keyboard Shortcuts (F1). Keys act while
/// the pointer is over the sheet.
pub const KEYS: &[(&str, &str)] = &[
    (
        "Click  /  Shift or Ctrl + click",
        "Select a key  /  add it to the selection",
    ),
    ("Left drag from empty space", "Select the keys in a box"),
    (
        "Left drag on a key",
        "Move the selected keys in time, snapped to frames (Alt: unsnapped)",
    ),
    ("Delete  or  Backspace", "Delete the selected keys"),
    (
        "Ctrl + C  /  Ctrl + V",
        "Copy the selected keys  /  paste them at the playhead",
    ),
    (
        "Right click on a row",
        "Key that channel or value at the playhead",
    ),
    (
        "Wheel  /  Ctrl + wheel",
        "Scroll the rows  /  zoom time about the pointer",
    ),
    ("Middle drag", "Pan time"),
];

/// What the dope sheet reads each frame. The app owns all of it.
#[derive(Clone, Copy, Debug)]
pub struct DopeSheetInputs<'a> {
    pub clip: &'a Clip,
    pub active_channel: Option<usize>,
    pub time_secs: f32,
}

/// One row: a channel's summary (`dof: None`) or one of its DOFs.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub channel: usize,
    pub dof: Option<Dof>,
}

/// The rows of a clip, in display order.
pub fn rows(clip: &Clip) -> Vec<Row> {
    let mut out = Vec::new();
    for (channel, c) in clip.channels.iter().enumerate() {
        out.push(Row { channel, dof: None });
        out.extend(dofs(c).into_iter().map(|dof| Row {
            channel,
            dof: Some(dof),
        }));
    }
    out
}

/// The keys a row shows: one diamond per time, standing for one key on a DOF row or for
/// every key of the channel at that time on a summary row.
pub fn row_keys(clip: &Clip, row: &Row) -> Vec<(f32, Vec<KeyRef>)> {
    let Some(channel) = clip.channels.get(row.channel) else {
        return Vec::new();
    };
    match &row.dof {
        None => channel_key_times(channel)
            .into_iter()
            .map(|t| (t, channel_keys_at(clip, row.channel, t)))
            .collect(),
        Some(dof) => curve(channel, dof)
            .map(|c| c.key_times())
            .unwrap_or_default()
            .into_iter()
            .map(|time| {
                let k = KeyRef {
                    channel: row.channel,
                    dof: dof.clone(),
                    time,
                };
                (time, vec![k])
            })
            .collect(),
    }
}

/// Where things are on screen in one frame: the pure part of hit testing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SheetLayout {
    /// The key area (right of the names, below the ruler).
    pub tracks: Rect,
    pub ruler: Rect,
    pub names: Rect,
    /// Time at `tracks.left()`.
    pub start_secs: f32,
    pub px_per_sec: f32,
    /// Pixels the rows are scrolled up by.
    pub scroll_px: f32,
}

impl SheetLayout {
    pub fn x_of(&self, time: f32) -> f32 {
        self.tracks.left() + (time - self.start_secs) * self.px_per_sec
    }

    pub fn time_at(&self, x: f32) -> f32 {
        self.start_secs + (x - self.tracks.left()) / self.px_per_sec.max(1e-6)
    }

    /// Centre line of row `i`.
    pub fn row_y(&self, i: usize) -> f32 {
        self.tracks.top() + (i as f32 + 0.5) * ROW_HEIGHT - self.scroll_px
    }

    pub fn row_at(&self, y: f32) -> Option<usize> {
        let f = (y - self.tracks.top() + self.scroll_px) / ROW_HEIGHT;
        (f.is_finite() && f >= 0.0 && y >= self.tracks.top()).then_some(f as usize)
    }

    /// The keys under `pos`, nearest diamond first.
    pub fn key_at(&self, clip: &Clip, pos: Pos2) -> Option<Vec<KeyRef>> {
        if !self.tracks.contains(pos) {
            return None;
        }
        let rows = rows(clip);
        let row = rows.get(self.row_at(pos.y)?)?;
        row_keys(clip, row)
            .into_iter()
            .map(|(t, keys)| ((self.x_of(t) - pos.x).abs(), keys))
            .filter(|(d, _)| *d <= KEY_HIT_RADIUS)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, keys)| keys)
    }

    /// Every key whose diamond centre is inside `rect`.
    pub fn keys_in(&self, clip: &Clip, rect: Rect) -> Vec<KeyRef> {
        let mut out: Vec<KeyRef> = Vec::new();
        for (i, row) in rows(clip).iter().enumerate() {
            let y = self.row_y(i);
            for (t, keys) in row_keys(clip, row) {
                if rect.contains(Pos2::new(self.x_of(t), y)) {
                    for k in keys {
                        if !out.contains(&k) {
                            out.push(k);
                        }
                    }
                }
            }
        }
        out
    }
}

#[derive(Clone, Debug)]
enum SheetDrag {
    Keys {
        origin: Box<Clip>,
        keys: Vec<KeyRef>,
        anchor_secs: f32,
        press_x: f32,
        id: egui::Id,
        shift_secs: f32,
    },
    Box {
        from: Pos2,
        additive: bool,
    },
    Scrub,
}

/// The dope sheet's view state.
#[derive(Debug, Default)]
pub struct DopeSheet {
    /// `(start_secs, px_per_sec)` once the user zoomed or panned; `None` fits the clip.
    view: Option<(f32, f32)>,
    scroll_px: f32,
    selected: Vec<KeyRef>,
    clipboard: Vec<CopiedKey>,
    drag: Option<SheetDrag>,
    drags_started: u64,
    context_row: Option<Row>,
    layout: Option<SheetLayout>,
}

fn is_selected(selected: &[KeyRef], key: &KeyRef) -> bool {
    selected.iter().any(|s| {
        s.channel == key.channel
            && s.dof == key.dof
            && (s.time - key.time).abs() <= key_edit::KEY_MATCH_SECS
    })
}

impl DopeSheet {
    /// The selected keys.
    pub fn selected(&self) -> &[KeyRef] {
        &self.selected
    }

    pub fn set_selected(&mut self, keys: Vec<KeyRef>) {
        self.selected = keys;
    }

    /// The layout of the last frame drawn, for tests and for the app to point at keys.
    pub fn layout(&self) -> Option<SheetLayout> {
        self.layout
    }

    /// Where the diamond of `key`'s DOF row was drawn last frame.
    pub fn key_screen_pos(&self, clip: &Clip, key: &KeyRef) -> Option<Pos2> {
        let layout = self.layout?;
        let i = rows(clip)
            .iter()
            .position(|r| r.channel == key.channel && r.dof.as_ref() == Some(&key.dof))?;
        Some(Pos2::new(layout.x_of(key.time), layout.row_y(i)))
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, inputs: &DopeSheetInputs<'_>) -> Vec<PanelOutput> {
        let clip = inputs.clip;
        let mut out = Vec::new();
        let size = Vec2::new(ui.available_width(), ui.available_height().max(80.0));
        let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Group, true, "Dope sheet"));
        let names =
            Rect::from_min_max(rect.min, Pos2::new(rect.left() + NAME_WIDTH, rect.bottom()));
        let ruler = Rect::from_min_max(
            Pos2::new(names.right(), rect.top()),
            Pos2::new(rect.right(), rect.top() + RULER_HEIGHT),
        );
        let tracks = Rect::from_min_max(Pos2::new(names.right(), ruler.bottom()), rect.max);
        let all_rows = rows(clip);
        let content_height = all_rows.len() as f32 * ROW_HEIGHT;
        let max_scroll = (content_height - tracks.height()).max(0.0);
        self.scroll_px = self.scroll_px.clamp(0.0, max_scroll);
        let (start_secs, px_per_sec) = self.view.unwrap_or_else(|| fit_view(clip, tracks.width()));
        let mut layout = SheetLayout {
            tracks,
            ruler,
            names,
            start_secs,
            px_per_sec,
            scroll_px: self.scroll_px,
        };
        self.selected.retain(|k| key_edit::key_exists(clip, k));

        if response.contains_pointer() {
            self.navigate(ui, &mut layout, max_scroll);
        }
        self.pointer(ui, &response, &layout, inputs, &mut out);
        if response.contains_pointer() {
            self.keyboard(ui, inputs, &mut out);
        }
        if response.secondary_clicked() {
            self.context_row = response
                .interact_pointer_pos()
                .and_then(|p| layout.row_at(p.y))
                .and_then(|i| all_rows.get(i).cloned());
        }
        response.context_menu(|ui| self.context_menu_ui(ui, inputs, &mut out));

        self.paint(ui, &layout, inputs);
        self.layout = Some(layout);
        out
    }

    /// Wheel scrolls rows, Ctrl+wheel zooms time about the pointer, middle drag pans time.
    fn navigate(&mut self, ui: &egui::Ui, layout: &mut SheetLayout, max_scroll: f32) {
        let (scroll, zoom, hover, middle) = ui.input(|i| {
            (
                i.smooth_scroll_delta,
                i.zoom_delta(),
                i.pointer.hover_pos(),
                i.pointer
                    .button_down(PointerButton::Middle)
                    .then_some(i.pointer.delta()),
            )
        });
        if scroll.y != 0.0 && scroll.y.is_finite() {
            self.scroll_px = (self.scroll_px - scroll.y).clamp(0.0, max_scroll);
            layout.scroll_px = self.scroll_px;
            ui.ctx().input_mut(|i| i.smooth_scroll_delta = Vec2::ZERO);
        }
        let mut view = (layout.start_secs, layout.px_per_sec);
        let mut changed = false;
        if zoom != 1.0 && zoom.is_finite() && zoom > 0.0 {
            let x = hover.map_or(layout.tracks.center().x, |p| p.x);
            let anchor = layout.time_at(x);
            view.1 = (view.1 * zoom).clamp(1.0, 100_000.0);
            view.0 = anchor - (x - layout.tracks.left()) / view.1;
            changed = true;
        }
        if let Some(d) = middle.filter(|d| d.x != 0.0 && d.x.is_finite()) {
            view.0 -= d.x / view.1;
            changed = true;
        }
        if changed {
            self.view = Some(view);
            layout.start_secs = view.0;
            layout.px_per_sec = view.1;
        }
    }

    fn pointer(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        layout: &SheetLayout,
        inputs: &DopeSheetInputs<'_>,
        out: &mut Vec<PanelOutput>,
    ) {
        let clip = inputs.clip;
        let modifiers = ui.input(|i| i.modifiers);
        let adding = modifiers.shift || modifiers.command || modifiers.ctrl;
        if response.drag_started_by(PointerButton::Primary) {
            let origin = ui.input(|i| i.pointer.press_origin());
            self.drag = origin.and_then(|origin| {
                if layout.ruler.contains(origin) {
                    return Some(SheetDrag::Scrub);
                }
                if !layout.tracks.contains(origin) {
                    return None;
                }
                match layout.key_at(clip, origin) {
                    Some(hit) => {
                        if !hit.iter().all(|k| is_selected(&self.selected, k)) {
                            if !adding {
                                self.selected.clear();
                            }
                            for k in &hit {
                                if !is_selected(&self.selected, k) {
                                    self.selected.push(k.clone());
                                }
                            }
                        }
                        self.drags_started += 1;
                        Some(SheetDrag::Keys {
                            origin: Box::new(clip.clone()),
                            keys: self.selected.clone(),
                            anchor_secs: hit.first().map_or(0.0, |k| k.time),
                            press_x: origin.x,
                            id: response.id.with(("key drag", self.drags_started)),
                            shift_secs: 0.0,
                        })
                    }
                    None => Some(SheetDrag::Box {
                        from: origin,
                        additive: adding,
                    }),
                }
            });
        }
        if response.dragged_by(PointerButton::Primary)
            && let Some(pos) = response.interact_pointer_pos()
        {
            match &mut self.drag {
                Some(SheetDrag::Scrub) => {
                    let t = snap_to_frame(layout.time_at(pos.x), clip.fps);
                    out.push(PanelOutput::SetTime(
                        t.clamp(0.0, clip.duration_secs.max(0.0)),
                    ));
                }
                Some(SheetDrag::Keys {
                    origin,
                    keys,
                    anchor_secs,
                    press_x,
                    id,
                    shift_secs,
                }) => {
                    let mut target = *anchor_secs + (pos.x - *press_x) / layout.px_per_sec;
                    if !modifiers.alt {
                        target = snap_to_frame(target, origin.fps);
                    }
                    let shift = clamp_shift(keys, target - *anchor_secs, origin.duration_secs);
                    if shift != *shift_secs
                        && let Some((edited, moved)) = key_edit::move_keys(origin, keys, shift)
                    {
                        *shift_secs = shift;
                        self.selected = moved;
                        out.push(PanelOutput::Edit {
                            clip: edited,
                            label: "Move keys".into(),
                            drag: Some(*id),
                        });
                    }
                }
                Some(SheetDrag::Box { .. }) | None => {}
            }
        }
        if response.drag_stopped() {
            if let Some(SheetDrag::Box { from, additive }) = self.drag.take()
                && let Some(to) = response
                    .interact_pointer_pos()
                    .or(ui.input(|i| i.pointer.latest_pos()))
            {
                let found = layout.keys_in(clip, Rect::from_two_pos(from, to));
                if !additive {
                    self.selected.clear();
                }
                for k in found {
                    if !is_selected(&self.selected, &k) {
                        self.selected.push(k);
                    }
                }
            }
            self.drag = None;
        }
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            if layout.names.contains(pos) {
                let row = layout
                    .row_at(pos.y)
                    .and_then(|i| rows(clip).get(i).cloned());
                if let Some(row) = row {
                    out.push(PanelOutput::SetActiveChannel(row.channel));
                }
            } else if layout.ruler.contains(pos) {
                let t = snap_to_frame(layout.time_at(pos.x), clip.fps);
                out.push(PanelOutput::SetTime(
                    t.clamp(0.0, clip.duration_secs.max(0.0)),
                ));
            } else {
                match layout.key_at(clip, pos) {
                    Some(hit) if adding => {
                        if hit.iter().all(|k| is_selected(&self.selected, k)) {
                            self.selected.retain(|s| !is_selected(&hit, s));
                        } else {
                            self.selected.extend(hit);
                        }
                    }
                    Some(hit) => self.selected = hit,
                    None if !adding => self.selected.clear(),
                    None => {}
                }
            }
        }
    }

    /// Delete, copy and paste, only while the pointer is over the sheet so other panels keep
    /// these keys.
    fn keyboard(
        &mut self,
        ui: &egui::Ui,
        inputs: &DopeSheetInputs<'_>,
        out: &mut Vec<PanelOutput>,
    ) {
        let clip = inputs.clip;
        let (delete, copy, paste) = ui.ctx().input_mut(|i| {
            let delete = i.consume_key(Modifiers::NONE, Key::Delete)
                || i.consume_key(Modifiers::NONE, Key::Backspace);
            // Desktop backends turn Ctrl+C/V into Copy/Paste events; tests send the keys.
            let copy = i.consume_key(Modifiers::COMMAND, Key::C)
                || i.events.iter().any(|e| matches!(e, Event::Copy));
            let paste = i.consume_key(Modifiers::COMMAND, Key::V)
                || i.events.iter().any(|e| matches!(e, Event::Paste(_)));
            (delete, copy, paste)
        });
        if delete && let Some(edited) = key_edit::delete_keys(clip, &self.selected) {
            self.selected.clear();
            out.push(PanelOutput::Edit {
                clip: edited,
                label: "Delete keys".into(),
                drag: None,
            });
        }
        if copy && !self.selected.is_empty() {
            self.clipboard = key_edit::copy_keys(clip, &self.selected);
        }
        if paste {
            let at = snap_to_frame(inputs.time_secs, clip.fps);
            if let Some((edited, pasted)) =
                key_edit::paste_keys(clip, &self.clipboard, at, inputs.active_channel)
            {
                self.selected = pasted;
                out.push(PanelOutput::Edit {
                    clip: edited,
                    label: "Paste keys".into(),
                    drag: None,
                });
            }
        }
    }

    fn context_menu_ui(
        &mut self,
        ui: &mut egui::Ui,
        inputs: &DopeSheetInputs<'_>,
        out: &mut Vec<PanelOutput>,
    ) {
        let clip = inputs.clip;
        let Some(row) = self.context_row.clone() else {
            ui.close();
            return;
        };
        let time = snap_to_frame(inputs.time_secs, clip.fps);
        let targets: Vec<Dof> = match &row.dof {
            Some(d) => vec![d.clone()],
            None => clip.channels.get(row.channel).map(dofs).unwrap_or_default(),
        };
        let text = if row.dof.is_some() {
            "Key this DOF here"
        } else {
            "Key every DOF here"
        };
        let keyable = targets.iter().any(|d| {
            clip.channels
                .get(row.channel)
                .and_then(|c| curve(c, d))
                .is_some_and(|c| c.raw_sample(time).is_some())
        });
        if ui
            .add_enabled(keyable, egui::Button::new(text))
            .on_hover_text("Insert a key at the playhead with the value the curve has there")
            .clicked()
        {
            let edited = targets.iter().fold(None, |acc: Option<Clip>, d| {
                let base = acc.as_ref().unwrap_or(clip);
                key_edit::key_dof_at(base, row.channel, d, time).or(acc)
            });
            if let Some(edited) = edited {
                out.push(PanelOutput::Edit {
                    clip: edited,
                    label: "Key DOF".into(),
                    drag: None,
                });
            }
            ui.close();
        }
        if ui
            .add_enabled(
                !self.selected.is_empty(),
                egui::Button::new("Delete selected keys"),
            )
            .clicked()
        {
            if let Some(edited) = key_edit::delete_keys(clip, &self.selected) {
                self.selected.clear();
                out.push(PanelOutput::Edit {
                    clip: edited,
                    label: "Delete keys".into(),
                    drag: None,
                });
            }
            ui.close();
        }
    }

    fn paint(&self, ui: &egui::Ui, layout: &SheetLayout, inputs: &DopeSheetInputs<'_>) {
        let clip = inputs.clip;
        let visuals = ui.visuals();
        let whole = layout.names.union(layout.ruler).union(layout.tracks);
        let painter = ui.painter_at(whole);
        painter.rect_filled(layout.tracks, 0.0, visuals.extreme_bg_color);
        painter.rect_filled(layout.ruler, 0.0, visuals.faint_bg_color);
        // Past the clip's end keys do nothing: shade it.
        let end_x = layout.x_of(clip.duration_secs.max(0.0));
        if end_x < layout.tracks.right() {
            let past = Rect::from_min_max(
                Pos2::new(end_x.max(layout.tracks.left()), layout.ruler.top()),
                layout.tracks.max,
            );
            painter.rect_filled(past, 0.0, Color32::from_black_alpha(60));
        }
        self.paint_ruler(ui, layout, clip);

        let tracks = ui.painter_at(layout.tracks);
        let names = ui.painter_at(layout.names);
        let text = visuals.text_color();
        for (i, row) in rows(clip).iter().enumerate() {
            let y = layout.row_y(i);
            if y + ROW_HEIGHT < layout.tracks.top() || y - ROW_HEIGHT > layout.tracks.bottom() {
                continue;
            }
            let band = Rect::from_min_max(
                Pos2::new(layout.names.left(), y - ROW_HEIGHT / 2.0),
                Pos2::new(layout.tracks.right(), y + ROW_HEIGHT / 2.0),
            );
            let Some(channel) = clip.channels.get(row.channel) else {
                continue;
            };
            let active = inputs.active_channel == Some(row.channel);
            if active {
                let fill = visuals.selection.bg_fill.gamma_multiply(0.35);
                tracks.rect_filled(band, 0.0, fill);
                names.rect_filled(band, 0.0, fill);
            } else if row.dof.is_none() {
                tracks.rect_filled(band, 0.0, visuals.faint_bg_color);
                names.rect_filled(band, 0.0, visuals.faint_bg_color);
            }
            let dim = |c: Color32| {
                if channel.muted {
                    c.gamma_multiply(0.35)
                } else {
                    c
                }
            };
            let (label, indent, font) = match &row.dof {
                None => (
                    if channel.muted {
                        format!("{} (muted)", channel.name)
                    } else {
                        channel.name.clone()
                    },
                    4.0,
                    egui::FontId::proportional(13.0),
                ),
                Some(d) => (d.label(), 18.0, egui::FontId::proportional(11.5)),
            };
            names.text(
                Pos2::new(layout.names.left() + indent, y),
                egui::Align2::LEFT_CENTER,
                label,
                font,
                dim(text),
            );
            let (base, radius) = match &row.dof {
                None => (Color32::from_rgb(200, 200, 200), 5.5),
                Some(Dof::Position) => (Color32::from_rgb(235, 200, 80), 4.5),
                Some(Dof::Rotation) => (Color32::from_rgb(120, 200, 255), 4.5),
                Some(_) => (Color32::from_rgb(170, 220, 140), 4.5),
            };
            for (t, keys) in row_keys(clip, row) {
                let selected = keys.iter().all(|k| is_selected(&self.selected, k));
                let fill = if selected {
                    Color32::from_rgb(255, 130, 40)
                } else {
                    dim(base)
                };
                diamond(&tracks, Pos2::new(layout.x_of(t), y), radius, fill);
            }
        }

        let x = layout.x_of(inputs.time_secs);
        if x.is_finite() && x >= layout.tracks.left() {
            painter.line_segment(
                [
                    Pos2::new(x, layout.ruler.top()),
                    Pos2::new(x, layout.tracks.bottom()),
                ],
                Stroke::new(1.5, Color32::from_rgb(240, 70, 60)),
            );
        }
        if let (Some(SheetDrag::Box { from, .. }), Some(to)) =
            (&self.drag, ui.input(|i| i.pointer.latest_pos()))
        {
            let r = Rect::from_two_pos(*from, to);
            tracks.rect_filled(r, 0.0, visuals.selection.bg_fill.gamma_multiply(0.2));
            tracks.rect_stroke(r, 0.0, visuals.selection.stroke, egui::StrokeKind::Inside);
        }
    }

    fn paint_ruler(&self, ui: &egui::Ui, layout: &SheetLayout, clip: &Clip) {
        let painter = ui.painter_at(layout.ruler);
        let color = ui.visuals().weak_text_color();
        let fps = if clip.fps.is_finite() && clip.fps > 0.0 {
            clip.fps
        } else {
            30.0
        };
        let px_per_frame = layout.px_per_sec / fps;
        // Label every n-th frame so labels never crowd.
        let every = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1200]
            .into_iter()
            .find(|&n| px_per_frame * n as f32 >= 40.0)
            .unwrap_or(3000);
        let first = (layout.time_at(layout.ruler.left()) * fps / every as f32).floor() as i64;
        let last = (layout.time_at(layout.ruler.right()) * fps / every as f32).ceil() as i64;
        for n in first.max(0)..=last.min(first.max(0) + 500) {
            let frame = n * every;
            let x = layout.x_of(frame as f32 / fps);
            painter.line_segment(
                [
                    Pos2::new(x, layout.ruler.bottom() - 6.0),
                    Pos2::new(x, layout.ruler.bottom()),
                ],
                Stroke::new(1.0, color),
            );
            painter.text(
                Pos2::new(x + 2.0, layout.ruler.top() + 2.0),
                egui::Align2::LEFT_TOP,
                frame.to_string(),
                egui::FontId::monospace(10.0),
                color,
            );
        }
    }
}

/// Fits `[0, duration]` into `width` pixels.
fn fit_view(clip: &Clip, width: f32) -> (f32, f32) {
    let duration = if clip.duration_secs.is_finite() && clip.duration_secs > 0.0 {
        clip.duration_secs
    } else {
        1.0
    };
    let usable = (width - 2.0 * TIME_MARGIN).max(10.0);
    let px_per_sec = usable / duration;
    (-TIME_MARGIN / px_per_sec, px_per_sec)
}

pub(crate) fn diamond(painter: &egui::Painter, c: Pos2, r: f32, fill: Color32) {
    painter.add(egui::Shape::convex_polygon(
        vec![
            c + Vec2::new(0.0, -r),
            c + Vec2::new(r, 0.0),
            c + Vec2::new(0.0, r),
            c + Vec2::new(-r, 0.0),
        ],
        fill,
        Stroke::new(1.0, Color32::BLACK),
    ));
}
