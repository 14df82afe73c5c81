//! The left panel: which clip plays, what it is for, and its channels. Clicking a channel
//! makes it active (its curve is drawn in space); its checkbox mutes it, live.

use crate::command::{Command, CommandQueue};
use crate::document::Document;
use anymorph_runtime::clip::{Channel, Predicate};
use anymorph_runtime::movement::{PositionMode, RotationMode, ScaleMode};
use egui::{Color32, RichText};

/// Button labels, shared with tests.
pub const ADD_CHANNEL: &str = "➕ Channel";
/// In the New menu: a clip with no channels.
pub const EMPTY_CLIP: &str = "Empty clip";
/// The clip library's buttons, on one row under the clip's name (New is a menu: empty, or
/// from a template).
pub const NEW_CLIP: &str = "➕ New";
pub const DUPLICATE_CLIP: &str = "⎘ Copy";
pub const DELETE_CLIP: &str = "🗑 Remove";

/// The channel list, and the actions the clips are branches of.
#[derive(Debug, Default)]
pub struct ChannelPanel {
    /// The action picked in the Actions list: where "Add Clip to Its Action" puts the clip.
    pub active_action: Option<usize>,
    /// The picked action's name and intent as typed, applied when the field loses focus.
    typed: Option<(usize, String, String)>,
    /// The active channel and the clip's channel count the list last scrolled for: a
    /// channel just added (or made active elsewhere) is scrolled into view once.
    scrolled_for: Option<(usize, usize)>,
}

impl ChannelPanel {
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        doc: &Document,
        active_channel: Option<usize>,
        solo: Option<usize>,
        commands: &mut CommandQueue,
    ) {
        let heading = ui.heading("Clip");
        let current = doc.clip().map_or("(none)", |c| c.name.as_str());
        egui::ComboBox::from_id_salt("active clip")
            .selected_text(current)
            .width(ui.available_width() - 8.0)
            .show_ui(ui, |ui| clip_menu(ui, doc, commands))
            .response
            .labelled_by(heading.id)
            .on_hover_text("The clip playing on every creature (PageUp / PageDown)");
        ui.horizontal(|ui| {
            ui.menu_button(NEW_CLIP, |ui| {
                if ui
                    .button(EMPTY_CLIP)
                    .on_hover_text(Command::NewClip.tooltip())
                    .clicked()
                {
                    commands.push(Command::NewClip);
                    ui.close();
                }
                ui.separator();
                template_menu(ui, commands);
            })
            .response
            .on_hover_text("A new clip: empty, or a copy of a bundled sample clip");
            for (text, command, enabled) in [
                (DUPLICATE_CLIP, Command::DuplicateClip, doc.clip().is_some()),
                (DELETE_CLIP, Command::DeleteClip, doc.clips.len() > 1),
            ] {
                if ui
                    .add_enabled(enabled, egui::Button::new(text).small())
                    .on_hover_text(command.tooltip())
                    .clicked()
                {
                    commands.push(command);
                }
            }
        });
        let Some(clip) = doc.clip() else {
            ui.label("The project has no clips.");
            return;
        };
        if !clip.intent.is_empty() {
            // One line, the rest on hover: at 1280×800 the full intent took five lines
            // from the channel list below.
            ui.add(egui::Label::new(RichText::new(&clip.intent).italics().weak()).truncate())
                .on_hover_text(&clip.intent);
        }
        ui.label(RichText::new(format!(
            "{:.2} s at {} fps{}",
            clip.duration_secs,
            clip.fps,
            if clip.looping { ", loops" } else { "" }
        )));
        if !clip.branches.is_empty() {
            ui.label(RichText::new(plays_if(clip)));
        }
        self.actions_ui(ui, doc, commands);
        ui.separator();
        ui.heading("Channels");
        ui.horizontal_wrapped(|ui| {
            let mut button = |ui: &mut egui::Ui, text: &str, command: Command, enabled: bool| {
                if ui
                    .add_enabled(enabled, egui::Button::new(text).small())
                    .on_hover_text(command.tooltip())
                    .clicked()
                {
                    commands.push(command);
                }
            };
            let n = clip.channels.len();
            let active = active_channel.filter(|&i| i < n);
            button(ui, ADD_CHANNEL, Command::AddChannel, true);
            button(
                ui,
                "⎘ Duplicate",
                Command::DuplicateChannel,
                active.is_some(),
            );
            button(ui, "🗑 Delete", Command::DeleteChannel, active.is_some());
            if let Some(i) = active {
                button(
                    ui,
                    "⏶",
                    Command::MoveChannel {
                        from: i,
                        to: i.saturating_sub(1),
                    },
                    i > 0,
                );
                button(
                    ui,
                    "⏷",
                    Command::MoveChannel { from: i, to: i + 1 },
                    i + 1 < n,
                );
            }
        });
        egui::ScrollArea::vertical()
            .id_salt("channel list")
            .max_height(ui.available_height() * 0.4)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                let n = clip.channels.len();
                let reveal = active_channel
                    .filter(|&a| a < n && self.scrolled_for != Some((a, n)))
                    .inspect(|&a| self.scrolled_for = Some((a, n)));
                for (i, channel) in clip.channels.iter().enumerate() {
                    let row =
                        channel_row(ui, i, channel, active_channel == Some(i), solo, commands);
                    if reveal == Some(i) {
                        row.scroll_to_me(Some(egui::Align::Center));
                    }
                }
            });
    }
}

impl ChannelPanel {
    /// The project's actions: each an ordered list of branch clips, the first that binds to a
    /// creature playing. Branches are added (the active clip), removed and reordered here.
    fn actions_ui(&mut self, ui: &mut egui::Ui, doc: &Document, commands: &mut CommandQueue) {
        if self.active_action.is_some_and(|a| a >= doc.actions.len()) {
            self.active_action = None;
        }
        let clip_name = doc.clip().map(|c| c.name.clone()).unwrap_or_default();
        egui::CollapsingHeader::new(format!("Actions ({})", doc.actions.len()))
            .id_salt("actions")
            .default_open(false)
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    let mut button = |ui: &mut egui::Ui, command: Command, enabled: bool| {
                        if ui
                            .add_enabled(enabled, egui::Button::new(command.label()).small())
                            .on_hover_text(command.tooltip())
                            .clicked()
                        {
                            commands.push(command);
                        }
                    };
                    button(ui, Command::NewAction, doc.clip().is_some());
                    let can_add = self.active_action.is_some_and(|a| {
                        doc.clip().is_some() && !doc.actions[a].branches.contains(&clip_name)
                    });
                    button(ui, Command::AddBranch, can_add);
                });
                if doc.actions.is_empty() {
                    ui.label(
                        RichText::new(
                            "No actions yet: an action is what a game asks for by name (wave); \
                             its branch clips are tried in order on each creature.",
                        )
                        .weak(),
                    );
                }
                for (a, action) in doc.actions.iter().enumerate() {
                    ui.horizontal(|ui| {
                        let picked = self.active_action == Some(a);
                        if ui
                            .selectable_label(picked, RichText::new(&action.name).strong())
                            .on_hover_text(if action.intent.is_empty() {
                                "Pick: the active clip is added to this action"
                            } else {
                                &action.intent
                            })
                            .clicked()
                        {
                            self.active_action = (!picked).then_some(a);
                        }
                        if ui
                            .small_button("⎘")
                            .on_hover_text("Duplicate this action: the same branches, to vary")
                            .clicked()
                        {
                            commands.push(Command::DuplicateAction(a));
                        }
                        if ui
                            .small_button("🗑")
                            .on_hover_text("Delete this action (its clips stay)")
                            .clicked()
                        {
                            commands.push(Command::DeleteAction(a));
                        }
                    });
                    ui.indent(("action branches", a), |ui| {
                        if self.active_action == Some(a) {
                            self.action_text_ui(ui, a, action, commands);
                        }
                        let n = action.branches.len();
                        for (b, name) in action.branches.iter().enumerate() {
                            ui.horizontal(|ui| {
                                let index = doc.clips.iter().position(|c| &c.name == name);
                                let text = format!("{}. {name}", b + 1);
                                let label = ui.add_enabled(
                                    index.is_some(),
                                    egui::Button::selectable(*name == clip_name, text).small(),
                                );
                                if let Some(i) = index
                                    && label.on_hover_text(plays_if(&doc.clips[i])).clicked()
                                {
                                    commands.push(Command::SetActiveClip(i));
                                }
                                let mut small = |t: &str, tip: &str, enabled: bool, c: Command| {
                                    if ui
                                        .add_enabled(enabled, egui::Button::new(t).small())
                                        .on_hover_text(tip)
                                        .clicked()
                                    {
                                        commands.push(c);
                                    }
                                };
                                small(
                                    "⏶",
                                    "Try this branch earlier",
                                    b > 0,
                                    Command::MoveBranch {
                                        action: a,
                                        from: b,
                                        to: b.saturating_sub(1),
                                    },
                                );
                                small(
                                    "⏷",
                                    "Try this branch later",
                                    b + 1 < n,
                                    Command::MoveBranch {
                                        action: a,
                                        from: b,
                                        to: b + 1,
                                    },
                                );
                                small(
                                    "✖",
                                    "Remove this branch from the action (the clip stays)",
                                    true,
                                    Command::RemoveBranch {
                                        action: a,
                                        branch: b,
                                    },
                                );
                            });
                        }
                    });
                }
            });
    }
}

impl ChannelPanel {
    /// Name and intent fields of the picked action; a change is one undo step, made when the
    /// field loses focus (Enter on the name).
    fn action_text_ui(
        &mut self,
        ui: &mut egui::Ui,
        a: usize,
        action: &anymorph_runtime::action::ActionDef,
        commands: &mut CommandQueue,
    ) {
        if self.typed.as_ref().is_none_or(|(i, _, _)| *i != a) {
            self.typed = Some((a, action.name.clone(), action.intent.clone()));
        }
        let Some((_, name, intent)) = &mut self.typed else {
            return;
        };
        let name_field = ui
            .horizontal(|ui| {
                let label = ui.label("Name");
                ui.text_edit_singleline(name).labelled_by(label.id)
            })
            .inner;
        let label = ui.label("Intent");
        let intent_field = ui
            .add(
                egui::TextEdit::multiline(intent)
                    .desired_rows(2)
                    .hint_text("What it means, and which morphologies it leaves out"),
            )
            .labelled_by(label.id);
        if name_field.lost_focus() || intent_field.lost_focus() {
            commands.push(Command::SetActionText {
                action: a,
                name: name.clone(),
                intent: intent.clone(),
            });
            // Read back from the document next frame (a refused name shows as it was).
            self.typed = None;
        }
    }
}

/// The clip menu: clips grouped under the actions they are branches of, in branch order,
/// each with what it needs to play; then the clips of no action.
fn clip_menu(ui: &mut egui::Ui, doc: &Document, commands: &mut CommandQueue) {
    let mut item = |ui: &mut egui::Ui, i: usize, indent: bool| {
        let clip = &doc.clips[i];
        let text = if indent {
            format!("    {}", clip.name)
        } else {
            clip.name.clone()
        };
        if ui
            .selectable_label(i == doc.active_clip, text)
            .on_hover_text(format!("{}\n{}", clip.intent, plays_if(clip)))
            .clicked()
        {
            commands.push(Command::SetActiveClip(i));
        }
    };
    let mut listed = vec![false; doc.clips.len()];
    for action in &doc.actions {
        ui.label(RichText::new(format!("{} (action)", action.name)).strong())
            .on_hover_text(&action.intent);
        for name in &action.branches {
            if let Some(i) = doc.clips.iter().position(|c| &c.name == name) {
                listed[i] = true;
                item(ui, i, true);
            }
        }
    }
    if listed.iter().any(|l| !l) && !doc.actions.is_empty() {
        ui.separator();
        ui.label(RichText::new("Clips of no action").strong());
    }
    for i in (0..doc.clips.len()).filter(|&i| !listed[i]) {
        item(ui, i, false);
    }
}

/// "plays if: has graspers, not upright spine" or "plays on any creature its channels find".
fn plays_if(clip: &anymorph_runtime::clip::Clip) -> String {
    if clip.branches.is_empty() {
        return "plays wherever its required channels find bodies".into();
    }
    let needs: Vec<String> = clip
        .branches
        .iter()
        .map(|b| {
            let name = predicate_text(&b.predicate);
            if b.expect {
                name
            } else {
                format!("not {name}")
            }
        })
        .collect();
    format!("plays if: {}", needs.join(", "))
}

fn channel_row(
    ui: &mut egui::Ui,
    index: usize,
    channel: &Channel,
    active: bool,
    solo: Option<usize>,
    commands: &mut CommandQueue,
) -> egui::Response {
    let row = ui.horizontal(|ui| {
        let soloed = solo == Some(index);
        if ui
            .selectable_label(soloed, "S")
            .on_hover_text("Solo: preview only this channel (the clip keeps the others)")
            .clicked()
        {
            commands.push(Command::SoloChannel((!soloed).then_some(index)));
        }
        let mut enabled = !channel.muted;
        if ui
            .checkbox(&mut enabled, "")
            .on_hover_text("Play this channel (unchecked: muted)")
            .changed()
        {
            commands.push(Command::ToggleChannelMute(index));
        }
        let name = if channel.muted {
            RichText::new(&channel.name).strikethrough().weak()
        } else {
            RichText::new(&channel.name).strong()
        };
        if ui
            .selectable_label(active, name)
            .on_hover_text("Make active: its curve is drawn on every creature")
            .clicked()
        {
            commands.push(Command::SetActiveChannel(if active {
                None
            } else {
                Some(index)
            }));
        }
        if channel.require {
            ui.label(RichText::new("required").color(Color32::from_rgb(230, 180, 90)));
        }
    });
    let details = ui.indent(("channel details", index), |ui| {
        ui.label(RichText::new(channel.context.to_string()).weak());
        ui.label(RichText::new(mode_summary(channel)).weak());
    });
    row.response.union(details.response)
}

/// "upright spine", "≥ 2 × grasper" and the like.
pub fn predicate_text(p: &Predicate) -> String {
    match p {
        Predicate::UprightSpine => "upright spine".into(),
        Predicate::HasGraspers => "has graspers".into(),
        Predicate::HasFeet => "has feet".into(),
        Predicate::HasCap(cap) => format!("has a {cap}"),
        Predicate::MinCount { cap, count } => format!("at least {count} × {cap}"),
    }
}

/// "position rest-relative × limb length, rotation absolute" and the like.
fn mode_summary(channel: &Channel) -> String {
    let mut parts = Vec::new();
    if channel.position.is_some() {
        let mode = match channel.mode.position {
            PositionMode::Absolute => "absolute",
            PositionMode::RestRelative => "rest-relative",
            PositionMode::GroundRelative => "ground-relative",
            PositionMode::SecondaryRelative => "toward target",
            PositionMode::SecondaryDirectional => "aimed at target",
        };
        let scale = match channel.mode.scale {
            ScaleMode::None => "",
            ScaleMode::CreatureSize => " × creature size",
            ScaleMode::LimbLength => " × limb length",
        };
        parts.push(format!("position {mode}{scale}"));
    }
    if channel.rotation.is_some() {
        let mode = match channel.mode.rotation {
            RotationMode::Absolute => "absolute",
            RotationMode::RestRelative => "rest-relative",
            RotationMode::LookAt => "look-at",
        };
        parts.push(format!("rotation {mode}"));
    }
    if !channel.deforms.is_empty() {
        parts.push(format!("{} deform(s)", channel.deforms.len()));
    }
    if channel.variant.single {
        parts.push("one body per variant".into());
    }
    if parts.is_empty() {
        "no curves".into()
    } else {
        parts.join(", ")
    }
}

/// The bundled sample clips, each a starting point for a new clip (with its intent as a
/// tooltip): a reach toward the target, a look-at, a wave with whatever a creature has.
pub fn template_menu(ui: &mut egui::Ui, commands: &mut CommandQueue) {
    ui.label(RichText::new("New clip from a template").strong());
    egui::ScrollArea::vertical()
        .max_height(360.0)
        .show(ui, |ui| {
            for (name, json) in anymorph_io::samples::CLIPS {
                let intent = anymorph_io::clip_from_str(json, name)
                    .map(|c| c.intent)
                    .unwrap_or_default();
                let button = ui.button(*name);
                let button = if intent.is_empty() {
                    button
                } else {
                    button.on_hover_text(intent)
                };
                if button.clicked() {
                    commands.push(Command::NewClipFromTemplate((*name).to_string()));
                    ui.close();
                }
            }
        });
}
