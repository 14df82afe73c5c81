//! The footfall diagram and the gait style editor. For every walking creature, one bar per
//! foot over one step cycle of its leg group, at the speed it walks now: dark while the foot
//! stands, light while it swings, with a cursor where the group is in its cycle. Every number
//! comes from the creature's player (the runtime's gait); the diagram only draws them. With
//! Walk off, each creature's runtime gait reads the style at the Locomotion panel's speed
//! without stepping, so the bars are the ones the walk will take (the cursor rests at 0).
//!
//! Editing changes the style the creatures walk with, the one picked in the Locomotion
//! panel: dragging a light bar's start moves the foot's lift-off (its trigger), dragging its
//! end moves its landing (its duty); the fields below edit the style's rows. Each change
//! becomes one [`Command::EditGait`] (a drag is one undo step), so every walking creature
//! takes it up at once.

use crate::command::{Command, CommandQueue};
use crate::document::Document;
use crate::preview::Preview;
use crate::walk::LocomotionPrefs;
use anymorph_runtime::gait::style::{SpeedKey, TableId};
use anymorph_runtime::gait::{Gait, GaitLayer, GaitStyle};
use egui::{Color32, Pos2, Rect, RichText, Sense, Stroke, Vec2};
use std::hash::{Hash, Hasher};

/// The window's title, shared with tests.
pub const FOOTFALLS: &str = "Footfalls";
pub const TABLE: &str = "Rows for";
pub const STRIDE: &str = "Stride";
pub const DUTY: &str = "Duty factor";
pub const LIFT: &str = "Lift";
pub const BOB: &str = "Bob";
/// Per-foot fields: "Trigger 1", "Duty 1"…
pub const FOOT_TRIGGER: &str = "Trigger";
pub const FOOT_DUTY: &str = "Duty";
/// Starts the line that says why the last drag changed nothing.
pub const REFUSED: &str = "Cannot drag:";
/// What a drag on the runtime's built-in walk says.
const BUILT_IN_REFUSED: &str = "the built-in walk is not one of the project's styles: \
     make one with Playback > New Gait Style from Template, or pick one in the Locomotion panel";

/// The diagram's mouse keys, for the Help list.
pub const KEYS: &[(&str, &str)] = &[
    (
        "Left drag near a light bar's start",
        "Move the foot's lift-off (its trigger)",
    ),
    (
        "Left drag near a light bar's end",
        "Move the foot's landing (its duty factor)",
    ),
];

/// Duty factors a style allows (see `GaitStyle::validate`).
const DUTY_RANGE: std::ops::RangeInclusive<f32> = 0.05..=0.95;
const LABEL_WIDTH: f32 = 110.0;
const BAR_HEIGHT: f32 = 14.0;
const STANCE: Color32 = Color32::from_rgb(52, 58, 70);
const SWING: Color32 = Color32::from_rgb(200, 214, 236);
const CURSOR: Color32 = Color32::from_rgb(230, 80, 60);

/// One foot's bar, as the runtime has it this frame.
#[derive(Clone, Debug, PartialEq)]
pub struct FootBar {
    /// The foot's body name.
    pub name: String,
    /// Where in the group's cycle it lifts off (0..1).
    pub trigger: f32,
    /// The share of the cycle it stands.
    pub duty: f32,
}

/// One leg group of a walking creature.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupFootfalls {
    pub group: usize,
    /// The style's table the group reads, and the two rows it is between at `speed_legs`.
    pub table: TableId,
    pub rows: (usize, usize, f32),
    /// Leg lengths per second.
    pub speed_legs: f32,
    /// Where the group is in its cycle now.
    pub cycle: f32,
    pub feet: Vec<FootBar>,
}

/// A walking creature's groups.
#[derive(Clone, Debug, PartialEq)]
pub struct CreatureFootfalls {
    pub creature: usize,
    pub name: String,
    pub groups: Vec<GroupFootfalls>,
}

/// What every walking creature's gait does this frame, read from its player. With Walk
/// off, what each creature's gait would do at the Locomotion panel's speed and turn, read
/// from a gait of its own that never steps (its cycle stays at 0), so a style can be tuned
/// without walking.
pub fn footfalls(
    doc: &Document,
    preview: &Preview,
    prefs: &LocomotionPrefs,
) -> Vec<CreatureFootfalls> {
    let style = prefs.style(&doc.gaits);
    let layers = [GaitLayer::new(std::sync::Arc::clone(&style))];
    preview
        .creatures
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let standing;
            let (gait, creature) = match &p.walker {
                Some(w) => (w.character().gait(), &**w.character().creature()),
                None if !prefs.walking => {
                    let creature = &doc.roster.get(i)?.creature;
                    let mut gait = Gait::new(creature);
                    gait.read_params(&layers, prefs.velocity(), prefs.turn_rate());
                    standing = gait;
                    (&standing, creature)
                }
                None => return None,
            };
            let groups = gait
                .gear()
                .groups
                .iter()
                .enumerate()
                .filter_map(|(g, group)| {
                    let params = gait.group_params(g)?;
                    let speed_legs =
                        gait.group_speed_legs(g, prefs.velocity(), prefs.turn_rate())?;
                    let table = style.table_for(group.rows);
                    Some(GroupFootfalls {
                        group: g,
                        table,
                        rows: style.rows_at(table, speed_legs)?,
                        speed_legs,
                        cycle: gait.group_cycle(g)?,
                        feet: group
                            .limbs
                            .iter()
                            .zip(&params.feet)
                            .map(|(&limb, f)| FootBar {
                                name: creature.body(gait.gear().limbs[limb].foot).name.clone(),
                                trigger: f.trigger,
                                duty: f.duty,
                            })
                            .collect(),
                    })
                })
                .collect();
            Some(CreatureFootfalls {
                creature: i,
                name: creature.name().to_string(),
                groups,
            })
        })
        .collect()
}

/// Which end of a swing a drag holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarEnd {
    /// The lift-off: the trigger moves (the whole swing with it).
    LiftOff,
    /// The landing: the duty factor changes.
    Landing,
}

/// `style` with foot `foot`'s lift-off or landing moved by `delta` of a cycle in the rows
/// `rows` of table `table` (both rows, so the speed between them moves by `delta` too).
/// Generated triggers (the wave's) cannot be moved: `Err` says why. Duty factors stay
/// within what a style allows.
pub fn moved_end(
    style: &GaitStyle,
    table: TableId,
    rows: (usize, usize),
    foot: usize,
    end: BarEnd,
    delta: f32,
) -> Result<GaitStyle, String> {
    let mut out = style.clone();
    let authored = matches!(table, TableId::Group(_));
    let Some(keys) = table_mut(&mut out, table) else {
        return Err("the style has no such rows".into());
    };
    let delta = if delta.is_finite() { delta } else { 0.0 };
    let mut indices = vec![rows.0];
    if rows.1 != rows.0 {
        indices.push(rows.1);
    }
    for i in indices {
        let Some(key) = keys.get_mut(i) else {
            return Err("the style has no such row".into());
        };
        match end {
            BarEnd::LiftOff if !authored => {
                return Err(
                    "the triggers of 7 or more feet are generated (a wave): drag a landing instead"
                        .into(),
                );
            }
            BarEnd::LiftOff => {
                let Some(t) = key.triggers.get_mut(foot) else {
                    return Err("the row has no trigger for this foot".into());
                };
                *t = round((*t + delta).rem_euclid(1.0));
            }
            BarEnd::Landing if authored => {
                let feet = key.triggers.len();
                if key.duty_per_foot.len() != feet {
                    key.duty_per_foot = vec![key.duty; feet];
                }
                let Some(d) = key.duty_per_foot.get_mut(foot) else {
                    return Err("the row has no duty for this foot".into());
                };
                *d = clamp_duty(*d - delta);
            }
            BarEnd::Landing => key.duty = clamp_duty(key.duty - delta),
        }
    }
    Ok(out)
}

fn clamp_duty(d: f32) -> f32 {
    round(d.clamp(*DUTY_RANGE.start(), *DUTY_RANGE.end()))
}

/// Thousandths: what a file needs, and what a drag can place.
fn round(x: f32) -> f32 {
    (x * 1000.0).round() / 1000.0
}

pub fn table_mut(style: &mut GaitStyle, id: TableId) -> Option<&mut Vec<SpeedKey>> {
    match id {
        TableId::Group(i) => style.groups.get_mut(i).map(|g| &mut g.speeds),
        TableId::Wave => Some(&mut style.wave),
        TableId::Crawl => Some(&mut style.crawl),
    }
}

fn table_name(style: &GaitStyle, id: TableId) -> String {
    match id {
        TableId::Group(i) => match style.groups.get(i).map(|g| g.feet) {
            Some(1) => "1 foot".into(),
            Some(n) => format!("{n} feet"),
            None => "?".into(),
        },
        TableId::Wave => "7+ feet (wave)".into(),
        TableId::Crawl => "crawl".into(),
    }
}

/// A drag of one bar's end, from its start.
#[derive(Clone, Debug)]
struct BarDrag {
    id: u64,
    index: usize,
    style: GaitStyle,
    table: TableId,
    rows: (usize, usize),
    foot: usize,
    end: BarEnd,
    from_x: f32,
    width: f32,
}

/// The window's own state: the drag in progress, which rows the fields show, and where the
/// bars were drawn (tests drag them there).
#[derive(Debug, Default)]
pub struct FootfallPanel {
    drag: Option<BarDrag>,
    drags: u64,
    table: Option<TableId>,
    row: usize,
    /// (creature, group, foot) and its bar, as last drawn.
    bars: Vec<((usize, usize, usize), Rect)>,
    /// Why the last drag changed nothing, shown until the next drag starts: a hover
    /// tooltip alone goes unseen while the mouse is busy dragging.
    refused: Option<String>,
}

/// What the window draws from.
pub struct FootfallInputs<'a> {
    pub doc: &'a Document,
    pub preview: &'a Preview,
    pub prefs: &'a LocomotionPrefs,
}

impl FootfallPanel {
    /// Where foot `foot` of group `group` of roster creature `creature` was drawn last frame.
    pub fn bar_on_screen(&self, creature: usize, group: usize, foot: usize) -> Option<Rect> {
        self.bars
            .iter()
            .find(|(k, _)| *k == (creature, group, foot))
            .map(|(_, r)| *r)
    }

    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        inputs: &FootfallInputs<'_>,
        commands: &mut CommandQueue,
    ) {
        self.bars.clear();
        let index = inputs
            .doc
            .gaits
            .iter()
            .position(|g| g.name == inputs.prefs.gait);
        let style = inputs.prefs.style(&inputs.doc.gaits);
        ui.horizontal(|ui| {
            ui.strong(format!("Gait style: {}", style.name));
            if !inputs.prefs.walking {
                ui.label(
                    RichText::new(format!(
                        "(Walk off: the cycle at the Locomotion panel's {:.2} m/s, {:.2} rad/s)",
                        inputs.prefs.velocity().length(),
                        inputs.prefs.turn_rate()
                    ))
                    .weak(),
                );
            }
        });
        if let Some(why) = &self.refused {
            ui.colored_label(ui.visuals().warn_fg_color, format!("{REFUSED} {why}"));
        }
        if index.is_none() {
            ui.label(
                RichText::new(
                    "The runtime's built-in walk is not one of the project's gait files: \
                     pick one of the project's styles in the Locomotion panel to edit it.",
                )
                .weak(),
            );
        }
        let all = footfalls(inputs.doc, inputs.preview, inputs.prefs);
        let mut edit: Option<(GaitStyle, String, Option<u64>)> = None;
        egui::ScrollArea::vertical()
            .id_salt("footfalls")
            .max_height((ui.available_height() - 170.0).max(120.0))
            .auto_shrink([false, true])
            .show(ui, |ui| {
                for creature in &all {
                    if let Some(e) = self.creature_ui(ui, creature, index, &style, inputs) {
                        edit = Some(e);
                    }
                }
            });
        if !ui.input(|i| i.pointer.any_down()) {
            self.drag = None;
        }
        ui.separator();
        if let Some(i) = index {
            let default_table = all
                .iter()
                .flat_map(|c| c.groups.first())
                .map(|g| (g.table, g.rows.0))
                .next();
            if let Some(e) = self.fields_ui(ui, &style, default_table) {
                edit = Some(e);
            }
            if let Some((style, label, drag)) = edit {
                commands.push(Command::EditGait {
                    index: i,
                    style: Box::new(style),
                    label,
                    drag,
                });
            }
        }
    }

    /// One creature's bars; returns a drag's edit of the style.
    fn creature_ui(
        &mut self,
        ui: &mut egui::Ui,
        creature: &CreatureFootfalls,
        index: Option<usize>,
        style: &GaitStyle,
        inputs: &FootfallInputs<'_>,
    ) -> Option<(GaitStyle, String, Option<u64>)> {
        let mut edit = None;
        ui.label(RichText::new(&creature.name).strong());
        for group in &creature.groups {
            let (a, b, t) = group.rows;
            let speeds = style.table(group.table).unwrap_or_default();
            let row_text = if a == b {
                format!("row {}", a + 1)
            } else {
                format!("rows {}–{} ({:.0} %)", a + 1, b + 1, t * 100.0)
            };
            ui.label(
                RichText::new(format!(
                    "group {}: {}, {row_text} of {}, {:.2} leg lengths/s",
                    group.group + 1,
                    table_name(style, group.table),
                    speeds.len(),
                    group.speed_legs,
                ))
                .weak()
                .small(),
            );
            let mut bars = Rect::NOTHING;
            for (k, foot) in group.feet.iter().enumerate() {
                let (row, _) = ui.allocate_exact_size(
                    Vec2::new(ui.available_width(), BAR_HEIGHT + 4.0),
                    Sense::hover(),
                );
                let label = Rect::from_min_size(row.min, Vec2::new(LABEL_WIDTH, row.height()));
                ui.painter().text(
                    label.left_center(),
                    egui::Align2::LEFT_CENTER,
                    format!("{} ({})", foot.name, k + 1),
                    egui::FontId::proportional(11.0),
                    ui.visuals().text_color(),
                );
                let bar = Rect::from_min_max(
                    Pos2::new(row.min.x + LABEL_WIDTH, row.min.y + 2.0),
                    Pos2::new(row.max.x - 4.0, row.max.y - 2.0),
                );
                if bar.width() < 20.0 {
                    continue;
                }
                bars = bars.union(bar);
                paint_bar(ui.painter(), bar, foot);
                let key = (creature.creature, group.group, k);
                self.bars.push((key, bar));
                let id = ui.make_persistent_id(("footfall bar", key));
                let response = ui
                    .interact(bar, id, Sense::drag())
                    .on_hover_cursor(egui::CursorIcon::ResizeHorizontal)
                    .on_hover_text(format!(
                        "{}: lifts off at {:.2} of the cycle, stands {:.0} % of it",
                        foot.name,
                        foot.trigger,
                        foot.duty * 100.0
                    ));
                if response.drag_started() {
                    self.refused = index.is_none().then(|| BUILT_IN_REFUSED.to_string());
                }
                let Some(index) = index else {
                    continue;
                };
                // Where the button went down, not where the drag was first noticed.
                let origin = ui
                    .input(|i| i.pointer.press_origin())
                    .or(response.interact_pointer_pos());
                if response.drag_started()
                    && let Some(p) = origin
                {
                    let at = (p.x - bar.min.x) / bar.width();
                    let lift_off = foot.trigger;
                    let landing = (foot.trigger + 1.0 - foot.duty).rem_euclid(1.0);
                    let end = if phase_distance(at, landing) < phase_distance(at, lift_off) {
                        BarEnd::Landing
                    } else {
                        BarEnd::LiftOff
                    };
                    self.drags += 1;
                    let mut h = std::hash::DefaultHasher::new();
                    ("footfall", self.drags).hash(&mut h);
                    self.drag = Some(BarDrag {
                        id: h.finish(),
                        index,
                        style: inputs.doc.gaits.get(index).map(|s| (**s).clone())?,
                        table: group.table,
                        rows: (a, b),
                        foot: k,
                        end,
                        from_x: p.x,
                        width: bar.width(),
                    });
                }
                if response.dragged()
                    && let (Some(d), Some(p)) = (&self.drag, response.interact_pointer_pos())
                    && d.index == index
                {
                    let delta = (p.x - d.from_x) / d.width.max(1.0);
                    let now = inputs.doc.gaits.get(index).map(|s| &**s);
                    match moved_end(&d.style, d.table, d.rows, d.foot, d.end, delta) {
                        // Held still, or where the last frame put it: nothing to edit.
                        Ok(_) if delta.abs() < 1e-4 => {}
                        Ok(s) if Some(&s) == now => {}
                        Ok(s) => {
                            let label = match d.end {
                                BarEnd::LiftOff => "Move a foot's lift-off",
                                BarEnd::Landing => "Move a foot's landing",
                            };
                            edit = Some((s, label.to_string(), Some(d.id)));
                        }
                        Err(why) => {
                            response.clone().on_hover_text(&why);
                            self.refused = Some(why);
                        }
                    }
                }
            }
            if bars.is_positive() {
                let x = bars.min.x + group.cycle.clamp(0.0, 1.0) * bars.width();
                ui.painter().line_segment(
                    [
                        Pos2::new(x, bars.min.y - 2.0),
                        Pos2::new(x, bars.max.y + 2.0),
                    ],
                    Stroke::new(2.0, CURSOR),
                );
            }
        }
        ui.add_space(4.0);
        edit
    }

    /// The fields of one table's row of the style; returns an edit of the style.
    fn fields_ui(
        &mut self,
        ui: &mut egui::Ui,
        style: &GaitStyle,
        default_table: Option<(TableId, usize)>,
    ) -> Option<(GaitStyle, String, Option<u64>)> {
        let tables: Vec<TableId> = (0..style.groups.len())
            .map(TableId::Group)
            .chain([TableId::Wave])
            .chain((!style.crawl.is_empty()).then_some(TableId::Crawl))
            .collect();
        if self.table.is_none_or(|t| !tables.contains(&t)) {
            let (table, row) = default_table.unwrap_or((tables[0], 0));
            self.table = Some(table);
            self.row = row;
        }
        let table = self.table.unwrap_or(TableId::Wave);
        let mut edited = style.clone();
        let rows = table_mut(&mut edited, table)?;
        if rows.is_empty() {
            return None;
        }
        self.row = self.row.min(rows.len() - 1);
        let mut tracker = Tracker::default();
        ui.horizontal(|ui| {
            let label = ui.label(TABLE);
            let mut chosen = table;
            egui::ComboBox::from_id_salt("gait table")
                .selected_text(table_name(style, table))
                .show_ui(ui, |ui| {
                    for t in &tables {
                        ui.selectable_value(&mut chosen, *t, table_name(style, *t));
                    }
                })
                .response
                .labelled_by(label.id);
            if chosen != table {
                self.table = Some(chosen);
                self.row = 0;
            }
            ui.separator();
            for (i, key) in rows.iter().enumerate() {
                ui.selectable_value(&mut self.row, i, format!("{:.2} l/s", key.speed))
                    .on_hover_text("The row for this speed, in leg lengths per second");
            }
        });
        let key = &mut rows[self.row];
        egui::Grid::new("gait row")
            .num_columns(4)
            .spacing([8.0, 4.0])
            .show(ui, |ui| {
                number(ui, STRIDE, &mut key.stride, 0.01..=10.0, &mut tracker)
                    .on_hover_text("Distance the body travels in one cycle, leg lengths");
                number(ui, DUTY, &mut key.duty, DUTY_RANGE, &mut tracker)
                    .on_hover_text("Share of the cycle each foot stands (unless set per foot)");
                ui.end_row();
                number(ui, LIFT, &mut key.lift, 0.0..=1.0, &mut tracker)
                    .on_hover_text("Peak foot height in flight, leg lengths");
                number(ui, BOB, &mut key.bob, 0.0..=0.5, &mut tracker)
                    .on_hover_text("Vertical body bob, leg lengths");
                ui.end_row();
                let feet = key.triggers.len();
                // Shown as the row's duty until a foot's own is set.
                let mut per_foot = if key.duty_per_foot.len() == feet {
                    key.duty_per_foot.clone()
                } else {
                    vec![key.duty; feet]
                };
                let before = per_foot.clone();
                for (k, (trigger, duty)) in
                    key.triggers.iter_mut().zip(per_foot.iter_mut()).enumerate()
                {
                    let foot = k + 1;
                    number(
                        ui,
                        &format!("{FOOT_TRIGGER} {foot}"),
                        trigger,
                        0.0..=1.0,
                        &mut tracker,
                    );
                    number(
                        ui,
                        &format!("{FOOT_DUTY} {foot}"),
                        duty,
                        DUTY_RANGE,
                        &mut tracker,
                    );
                    ui.end_row();
                }
                if per_foot != before {
                    key.duty_per_foot = per_foot;
                }
            });
        if tracker.started {
            self.drags += 1;
        }
        if edited == *style {
            return None;
        }
        let drag = tracker.dragging.map(|id| {
            let mut h = std::hash::DefaultHasher::new();
            (id, self.drags).hash(&mut h);
            h.finish()
        });
        let label = tracker.label.unwrap_or_else(|| "Edit gait style".into());
        Some((edited, label, drag))
    }
}

/// How far apart two cycle phases are, the short way round.
fn phase_distance(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(1.0);
    d.min(1.0 - d)
}

/// A foot's bar: stance dark over the whole cycle, the swing light from its lift-off for
/// `1 − duty` of the cycle (wrapping past the end).
fn paint_bar(painter: &egui::Painter, bar: Rect, foot: &FootBar) {
    painter.rect_filled(bar, 2.0, STANCE);
    let x = |phase: f32| bar.min.x + phase * bar.width();
    let start = foot.trigger.rem_euclid(1.0);
    let end = start + (1.0 - foot.duty).clamp(0.0, 1.0);
    let swing = |from: f32, to: f32| {
        painter.rect_filled(
            Rect::from_min_max(Pos2::new(x(from), bar.min.y), Pos2::new(x(to), bar.max.y)),
            2.0,
            SWING,
        );
    };
    if end <= 1.0 {
        swing(start, end);
    } else {
        swing(start, 1.0);
        swing(0.0, end - 1.0);
    }
    for quarter in [0.25, 0.5, 0.75] {
        painter.line_segment(
            [
                Pos2::new(x(quarter), bar.max.y - 3.0),
                Pos2::new(x(quarter), bar.max.y),
            ],
            Stroke::new(1.0, Color32::from_gray(128)),
        );
    }
}

/// Which field changed the copy, and whether it is mid-drag.
#[derive(Default)]
struct Tracker {
    dragging: Option<egui::Id>,
    started: bool,
    label: Option<String>,
}

fn number(
    ui: &mut egui::Ui,
    name: &str,
    value: &mut f32,
    range: std::ops::RangeInclusive<f32>,
    tracker: &mut Tracker,
) -> egui::Response {
    let label = ui.label(name);
    let before = *value;
    let response = ui
        .add(
            egui::DragValue::new(value)
                .range(range.clone())
                .speed(0.005)
                .max_decimals(3),
        )
        .labelled_by(label.id);
    if response.drag_started() {
        tracker.started = true;
    }
    if response.dragged() || (response.changed() && response.has_focus()) {
        tracker.dragging = Some(response.id);
    }
    if response.changed() && *value != before {
        tracker.label = Some(format!("Gait {name}"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trot() -> GaitStyle {
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("assets/gaits/trot.gait.json");
        anymorph_io::load_gait(&path).unwrap()
    }

    #[test]
    fn a_landing_drag_sets_the_foots_duty_in_both_rows_and_stays_in_range() {
        let s = trot();
        let t = TableId::Group(1);
        let out = moved_end(&s, t, (0, 1), 1, BarEnd::Landing, 0.1).unwrap();
        let rows = out.table(t).unwrap();
        assert_eq!(rows[0].duty_per_foot, vec![0.55, 0.45]);
        assert_eq!(rows[1].duty_per_foot, vec![0.45, 0.35]);
        out.validate().unwrap();
        let far = moved_end(&s, t, (0, 1), 0, BarEnd::Landing, -5.0).unwrap();
        assert_eq!(far.table(t).unwrap()[0].duty_per_foot[0], 0.95);
        let nan = moved_end(&s, t, (0, 1), 0, BarEnd::Landing, f32::NAN).unwrap();
        nan.validate().unwrap();
    }

    #[test]
    fn a_lift_off_drag_moves_the_trigger_round_the_cycle_and_a_wave_refuses() {
        let s = trot();
        let t = TableId::Group(1);
        let out = moved_end(&s, t, (1, 1), 1, BarEnd::LiftOff, 0.7).unwrap();
        let rows = out.table(t).unwrap();
        assert!((rows[1].triggers[1] - 0.2).abs() < 1e-6);
        assert_eq!(rows[0].triggers, s.table(t).unwrap()[0].triggers);
        assert!(moved_end(&s, TableId::Wave, (0, 0), 0, BarEnd::LiftOff, 0.1).is_err());
        assert!(moved_end(&s, TableId::Wave, (0, 0), 0, BarEnd::Landing, 0.1).is_ok());
    }
}
