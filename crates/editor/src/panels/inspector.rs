//! The channel inspector and clip settings: every field of the active channel (context query
//! with a live count per creature, secondary context, movement mode, blending, variants) and
//! of the clip (duration, fps, loop, branch predicates, events).
//!
//! The panel edits a copy of the clip and, when the copy differs, pushes one
//! [`Command::EditClip`]; a drag on a number carries an id so the whole drag is one undo
//! step. A movement-mode change goes through [`Command::SetChannelMode`] instead, because
//! the keys must be remapped (paper 3.3) with the active body, which the app knows.

use crate::command::{Command, CommandQueue};
use crate::document::Document;
use crate::panels::channels::predicate_text;
use crate::preview::Preview;
use anymorph_runtime::clip::{Branch, Channel, Clip, ClipEvent, Predicate, SideConstraint};
use anymorph_runtime::creature::Cap;
use anymorph_runtime::movement::{MovementMode, PositionMode, RotationMode, ScaleMode};
use anymorph_runtime::query::{
    CapFilter, ContextQuery, Extent, FrontBack, LeftRight, LimbModifier, QuerySpace,
    SecondaryContext, TopBottom,
};
use egui::{Color32, RichText};
use std::hash::{Hash, Hasher};

/// Labels shared with tests.
pub const QUERY_CAP: &str = "Cap";
pub const MODE_POSITION: &str = "Position mode";

/// How many bodies a channel's query selects on one roster creature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryCount {
    pub creature: String,
    pub count: usize,
    /// Why the clip does not play on this creature, if it does not.
    pub unbound: Option<String>,
}

/// The live count of selected bodies on every creature of the roster.
pub fn query_counts(doc: &Document, preview: &Preview, query: &ContextQuery) -> Vec<QueryCount> {
    doc.roster
        .iter()
        .enumerate()
        .map(|(i, e)| QueryCount {
            creature: e.creature.name().to_string(),
            count: query.select(&e.creature).len(),
            unbound: preview
                .creatures
                .get(i)
                .and_then(|p| p.binding.reason.clone()),
        })
        .collect()
}

/// The inspector's own state: ids for drags, so each drag is one undo step.
#[derive(Debug, Default)]
pub struct InspectorPanel {
    drags: u64,
}

impl InspectorPanel {
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        doc: &Document,
        preview: &Preview,
        active_channel: Option<usize>,
        commands: &mut CommandQueue,
    ) {
        let Some(original) = doc.clip() else {
            return;
        };
        let mut clip = original.clone();
        let mut tracker = DragTracker::default();
        if let Some(i) = active_channel.filter(|&i| i < clip.channels.len()) {
            egui::CollapsingHeader::new(format!("Channel: {}", clip.channels[i].name))
                .id_salt("channel inspector")
                .default_open(true)
                .show(ui, |ui| {
                    let counts = query_counts(doc, preview, &clip.channels[i].context);
                    channel_ui(
                        ui,
                        &mut clip.channels[i],
                        i,
                        &counts,
                        &mut tracker,
                        commands,
                    );
                });
        }
        egui::CollapsingHeader::new("Clip settings")
            .id_salt("clip settings")
            .show(ui, |ui| clip_ui(ui, &mut clip, &mut tracker));

        if tracker.started {
            self.drags += 1;
        }
        if clip != *original {
            let drag = tracker.dragging.map(|id| {
                let mut h = std::hash::DefaultHasher::new();
                (id, self.drags).hash(&mut h);
                h.finish()
            });
            commands.push(Command::EditClip {
                clip: Box::new(clip),
                label: tracker.label.unwrap_or_else(|| "Edit channel".into()),
                drag,
            });
        }
    }
}

/// Which widget changed the copy, and whether it is mid-drag.
#[derive(Default)]
struct DragTracker {
    dragging: Option<egui::Id>,
    started: bool,
    label: Option<String>,
}

impl DragTracker {
    fn track(&mut self, response: &egui::Response, label: &str) {
        if response.drag_started() {
            self.started = true;
        }
        // A drag, or typing into one field, is one undo step.
        if response.dragged() || (response.changed() && response.has_focus()) {
            self.dragging = Some(response.id);
        }
        if response.changed() {
            self.label = Some(label.to_string());
        }
    }
}

fn combo<T: PartialEq + Copy>(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut T,
    options: &[(T, &str)],
    tracker: &mut DragTracker,
) {
    ui.horizontal(|ui| {
        let name = ui.label(label);
        let current = options
            .iter()
            .find(|(v, _)| v == value)
            .map_or("?", |(_, n)| *n);
        egui::ComboBox::from_id_salt(label)
            .selected_text(current)
            .show_ui(ui, |ui| {
                for (v, name) in options {
                    if ui.selectable_label(*v == *value, *name).clicked() && *v != *value {
                        *value = *v;
                        tracker.label = Some(format!("Set {}", label.to_lowercase()));
                    }
                }
            })
            .response
            .labelled_by(name.id);
    });
}

fn channel_ui(
    ui: &mut egui::Ui,
    ch: &mut Channel,
    index: usize,
    counts: &[QueryCount],
    tracker: &mut DragTracker,
    commands: &mut CommandQueue,
) {
    ui.horizontal(|ui| {
        let l = ui.label("Name");
        let r = ui.text_edit_singleline(&mut ch.name).labelled_by(l.id);
        tracker.track(&r, "Rename channel");
    });

    ui.separator();
    ui.label(RichText::new("Context query").strong());
    query_ui(ui, &mut ch.context, "query", tracker);
    for c in counts {
        let (text, color) = match (&c.unbound, c.count) {
            (Some(reason), _) => (
                format!("{}: {} (clip does not play: {reason})", c.creature, c.count),
                Color32::from_rgb(230, 160, 90),
            ),
            (None, 0) if ch.require => (
                format!(
                    "{}: selects nothing, and `require` drops the clip here",
                    c.creature
                ),
                Color32::from_rgb(240, 110, 100),
            ),
            (None, 0) => (
                format!("{}: selects nothing", c.creature),
                Color32::from_rgb(230, 190, 90),
            ),
            (None, n) => (
                format!(
                    "{}: {n} bod{}",
                    c.creature,
                    if n == 1 { "y" } else { "ies" }
                ),
                ui.visuals().text_color(),
            ),
        };
        ui.label(RichText::new(text).color(color).small());
    }
    let r = ui.checkbox(
        &mut ch.require,
        "Require (the clip plays only where this selects)",
    );
    tracker.track(&r, "Require");

    ui.separator();
    ui.label(RichText::new("Secondary context").strong());
    let mut kind = match &ch.secondary {
        None => 0,
        Some(SecondaryContext::Query(_)) => 1,
        Some(SecondaryContext::ExternalTarget(_)) => 2,
    };
    let before = kind;
    combo(
        ui,
        "Secondary",
        &mut kind,
        &[(0, "none"), (1, "bodies (query)"), (2, "external target")],
        tracker,
    );
    if kind != before {
        ch.secondary = match kind {
            1 => Some(SecondaryContext::Query(ContextQuery::cap(Cap::Mouth))),
            2 => Some(SecondaryContext::ExternalTarget(0)),
            _ => None,
        };
    }
    match &mut ch.secondary {
        Some(SecondaryContext::Query(q)) => query_ui(ui, q, "secondary", tracker),
        Some(SecondaryContext::ExternalTarget(i)) => {
            ui.horizontal(|ui| {
                let l = ui.label("Target index");
                let r = ui
                    .add(egui::DragValue::new(i).range(0..=15))
                    .labelled_by(l.id);
                tracker.track(&r, "Target index");
            });
        }
        None => {}
    }

    ui.separator();
    ui.label(RichText::new("Movement mode").strong());
    let mut mode = ch.mode;
    let mut mode_tracker = DragTracker::default();
    mode_ui(ui, &mut mode, &mut mode_tracker);
    if mode != ch.mode {
        // Remapped by the app with the active body, so its curve keeps its shape.
        commands.push(Command::SetChannelMode {
            channel: index,
            mode,
        });
    }

    ui.separator();
    ui.label(RichText::new("Blending").strong());
    ui.horizontal(|ui| {
        let l = ui.label("Blend group");
        let r = ui
            .text_edit_singleline(&mut ch.blend_group)
            .labelled_by(l.id);
        tracker.track(&r, "Blend group");
    });
    ui.horizontal(|ui| {
        let l = ui.label("Priority");
        let r = ui
            .add(egui::DragValue::new(&mut ch.priority).range(-100..=100))
            .labelled_by(l.id);
        tracker.track(&r, "Priority");
    });
    weight_ui(ui, "Position weight", &mut ch.position_weight, tracker);
    weight_ui(ui, "Rotation weight", &mut ch.rotation_weight, tracker);

    ui.separator();
    ui.label(RichText::new("Variants").strong());
    let r = ui.checkbox(&mut ch.variant.single, "One body per variant");
    tracker.track(&r, "Single variant");
    ui.horizontal(|ui| {
        let l = ui.label("Group");
        let mut group = ch.variant.group.clone().unwrap_or_default();
        let r = ui.text_edit_singleline(&mut group).labelled_by(l.id);
        tracker.track(&r, "Variant group");
        ch.variant.group = (!group.is_empty()).then_some(group);
    });
    combo(
        ui,
        "Side",
        &mut ch.variant.side,
        &[
            (SideConstraint::None, "any side"),
            (SideConstraint::Same, "same side as the lead"),
            (SideConstraint::Opposite, "opposite side to the lead"),
        ],
        tracker,
    );
    let r = ui.checkbox(&mut ch.variant.mirror, "Mirror on the right side");
    tracker.track(&r, "Mirror");
}

/// A constant weight, or the curve it has (edited in the curve editor).
fn weight_ui(
    ui: &mut egui::Ui,
    label: &str,
    curve: &mut Option<anymorph_runtime::curve::KeyedCurve<f32>>,
    tracker: &mut DragTracker,
) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        match curve {
            Some(c) if c.len() > 1 => {
                ui.label(RichText::new(format!("{} keys", c.len())).weak());
            }
            _ => {
                let mut w = curve.as_ref().and_then(|c| c.sample(0.0)).unwrap_or(1.0);
                let r = ui
                    .add(egui::DragValue::new(&mut w).range(0.0..=1.0).speed(0.01))
                    .labelled_by(l.id);
                tracker.track(&r, label);
                if r.changed() && w.is_finite() {
                    *curve = (w != 1.0).then(|| anymorph_runtime::curve::KeyedCurve::constant(w));
                }
            }
        }
    });
}

fn query_ui(ui: &mut egui::Ui, q: &mut ContextQuery, salt: &str, tracker: &mut DragTracker) {
    ui.push_id(salt, |ui| {
        let mut caps: Vec<(CapFilter, &str)> = vec![(CapFilter::Any, "any")];
        caps.extend(
            Cap::KNOWN
                .iter()
                .map(|c| (CapFilter::Cap(c.clone()), c.as_str())),
        );
        ui.horizontal(|ui| {
            let name = ui.label(QUERY_CAP);
            let current = match &q.cap {
                CapFilter::Any => "any".to_string(),
                CapFilter::Cap(c) => c.to_string(),
            };
            egui::ComboBox::from_id_salt("cap")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for (v, name) in &caps {
                        if ui.selectable_label(*v == q.cap, *name).clicked() && *v != q.cap {
                            q.cap = v.clone();
                            tracker.label = Some("Set query cap".into());
                        }
                    }
                })
                .response
                .labelled_by(name.id);
        });
        combo(
            ui,
            "Left/right",
            &mut q.left_right,
            &[
                (LeftRight::Any, "any"),
                (LeftRight::Left, "left"),
                (LeftRight::Center, "centre"),
                (LeftRight::Right, "right"),
            ],
            tracker,
        );
        combo(
            ui,
            "Front/back",
            &mut q.front_back,
            &[
                (FrontBack::Any, "any"),
                (FrontBack::Front, "front"),
                (FrontBack::Center, "centre"),
                (FrontBack::Back, "back"),
            ],
            tracker,
        );
        combo(
            ui,
            "Top/bottom",
            &mut q.top_bottom,
            &[
                (TopBottom::Any, "any"),
                (TopBottom::Top, "top"),
                (TopBottom::Center, "centre"),
                (TopBottom::Bottom, "bottom"),
            ],
            tracker,
        );
        combo(
            ui,
            "Relative to",
            &mut q.space,
            &[
                (QuerySpace::Creature, "the creature"),
                (QuerySpace::Setspace, "bodies with the cap"),
            ],
            tracker,
        );
        combo(
            ui,
            "Extent",
            &mut q.extent,
            &[
                (Extent::None, "all that match"),
                (Extent::LeftMost, "left-most"),
                (Extent::RightMost, "right-most"),
                (Extent::FrontMost, "front-most"),
                (Extent::BackMost, "back-most"),
                (Extent::TopMost, "top-most"),
                (Extent::BottomMost, "bottom-most"),
            ],
            tracker,
        );
        combo(
            ui,
            "Limb",
            &mut q.limb,
            &[
                (LimbModifier::None, "the body"),
                (LimbModifier::SpineSegment, "its spine segment"),
            ],
            tracker,
        );
    });
}

fn mode_ui(ui: &mut egui::Ui, mode: &mut MovementMode, tracker: &mut DragTracker) {
    combo(
        ui,
        MODE_POSITION,
        &mut mode.position,
        &[
            (PositionMode::Absolute, "absolute"),
            (PositionMode::RestRelative, "relative to rest"),
            (PositionMode::GroundRelative, "relative to the ground"),
            (PositionMode::SecondaryRelative, "toward the target"),
            (PositionMode::SecondaryDirectional, "aimed at the target"),
        ],
        tracker,
    );
    combo(
        ui,
        "Rotation mode",
        &mut mode.rotation,
        &[
            (RotationMode::Absolute, "absolute"),
            (RotationMode::RestRelative, "relative to rest"),
            (RotationMode::LookAt, "look at the target"),
        ],
        tracker,
    );
    combo(
        ui,
        "Scale",
        &mut mode.scale,
        &[
            (ScaleMode::None, "metres"),
            (ScaleMode::CreatureSize, "× creature size"),
            (ScaleMode::LimbLength, "× limb length"),
        ],
        tracker,
    );
    if mode.rotation == RotationMode::LookAt {
        let mut full = mode.look_at.full_effect_rad.to_degrees();
        let mut none = mode.look_at.no_effect_rad.to_degrees();
        let mut max_turn = mode.look_at.max_turn_rad.to_degrees();
        angle_row(ui, "Look-at full effect within", &mut full, 0.0, tracker);
        angle_row(ui, "no effect beyond", &mut none, 0.0, tracker);
        angle_row(ui, "turning at most", &mut max_turn, 1.0, tracker);
        if full.is_finite() && none.is_finite() && full <= none {
            mode.look_at.full_effect_rad = full.to_radians();
            mode.look_at.no_effect_rad = none.to_radians();
        }
        if max_turn.is_finite() && max_turn > 0.0 {
            mode.look_at.max_turn_rad = max_turn.to_radians();
        }
    }
}

/// One labelled look-at angle in degrees, from `least` to 180.
fn angle_row(
    ui: &mut egui::Ui,
    label: &str,
    degrees: &mut f32,
    least: f32,
    tracker: &mut DragTracker,
) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        let r = ui
            .add(
                egui::DragValue::new(degrees)
                    .range(least..=180.0)
                    .suffix("°"),
            )
            .labelled_by(l.id);
        tracker.track(&r, "Look-at limits");
    });
}

fn clip_ui(ui: &mut egui::Ui, clip: &mut Clip, tracker: &mut DragTracker) {
    ui.horizontal(|ui| {
        let l = ui.label("Name");
        let r = ui.text_edit_singleline(&mut clip.name).labelled_by(l.id);
        tracker.track(&r, "Rename clip");
    });
    ui.horizontal(|ui| {
        let l = ui.label("Duration");
        let mut d = clip.duration_secs;
        let r = ui
            .add(
                egui::DragValue::new(&mut d)
                    .range(0.05..=600.0)
                    .speed(0.01)
                    .suffix(" s"),
            )
            .labelled_by(l.id);
        tracker.track(&r, "Clip duration");
        if d.is_finite() && d > 0.0 {
            clip.duration_secs = d;
        }
    });
    ui.horizontal(|ui| {
        let l = ui.label("Frame rate");
        let mut fps = clip.fps;
        let r = ui
            .add(
                egui::DragValue::new(&mut fps)
                    .range(1.0..=240.0)
                    .suffix(" fps"),
            )
            .labelled_by(l.id);
        tracker.track(&r, "Frame rate");
        if fps.is_finite() && fps > 0.0 {
            clip.fps = fps;
        }
    });
    let r = ui.checkbox(&mut clip.looping, "Loop");
    tracker.track(&r, "Loop");

    ui.label(RichText::new("Plays only if").strong());
    let mut remove = None;
    for (i, b) in clip.branches.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            let r = ui.checkbox(&mut b.expect, predicate_text(&b.predicate));
            tracker.track(&r, "Branch");
            if ui.small_button("✖").on_hover_text("Remove").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        clip.branches.remove(i);
        tracker.label = Some("Remove branch".into());
    }
    ui.menu_button("Add predicate", |ui| {
        for p in [
            Predicate::UprightSpine,
            Predicate::HasGraspers,
            Predicate::HasFeet,
            Predicate::HasCap(Cap::Mouth),
            Predicate::MinCount {
                cap: Cap::Grasper,
                count: 2,
            },
        ] {
            if ui.button(predicate_text(&p)).clicked() {
                clip.branches.push(Branch {
                    predicate: p,
                    expect: true,
                });
                tracker.label = Some("Add branch".into());
            }
        }
    });

    ui.label(RichText::new("Events").strong());
    let mut remove = None;
    for (i, e) in clip.events.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            let l = ui.label("at");
            let r = ui
                .add(
                    egui::DragValue::new(&mut e.time_secs)
                        .range(0.0..=clip.duration_secs)
                        .speed(0.01)
                        .suffix(" s"),
                )
                .labelled_by(l.id);
            tracker.track(&r, "Event time");
            let l = ui.label("named");
            let r = ui
                .add(egui::TextEdit::singleline(&mut e.name).desired_width(90.0))
                .labelled_by(l.id);
            tracker.track(&r, "Event name");
            if ui.small_button("✖").on_hover_text("Remove").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        clip.events.remove(i);
        tracker.label = Some("Remove event".into());
    }
    if ui.button("Add event at 0 s").clicked() {
        clip.events.push(ClipEvent {
            time_secs: 0.0,
            name: format!("event{}", clip.events.len() + 1),
            channel: None,
            data: serde_json::Value::Null,
        });
        tracker.label = Some("Add event".into());
    }
}
