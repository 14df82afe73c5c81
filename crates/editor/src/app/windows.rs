//! The editor's floating windows and the key panel: undo history, validation grid, caps,
//! the close guard, the recovery offer, and the bench's frame recorder.

use super::*;

impl AnymorphApp {
    /// Every edit so far; clicking one goes back (or forward) to just after it.
    pub(super) fn history_window(&mut self, ctx: &egui::Context) {
        let mut open = self.show_history;
        let mut go = None;
        egui::Window::new("Undo History")
            .open(&mut open)
            .default_width(240.0)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    let head = self.history.head();
                    if ui.selectable_label(head == 0, "(as opened)").clicked() {
                        go = Some(0);
                    }
                    for (i, label) in self.history.labels().enumerate() {
                        let text = if i < head {
                            egui::RichText::new(label)
                        } else {
                            egui::RichText::new(label).weak().italics()
                        };
                        if ui.selectable_label(head == i + 1, text).clicked() {
                            go = Some(i + 1);
                        }
                    }
                });
            });
        self.show_history = open;
        if let Some(i) = go {
            self.commands.push(Command::GoToHistory(i));
        }
    }

    /// The dope sheet or the curve editor of the active clip; their edits go through the
    /// undo record like every other.
    pub(super) fn keys_panel(&mut self, ui: &mut egui::Ui) {
        use crate::panels::PanelOutput;
        use crate::panels::curve_editor::CurveEditorInputs;
        use crate::panels::dope_sheet::DopeSheetInputs;
        self.keys_rect = Some(ui.max_rect());
        ui.horizontal(|ui| {
            let p = &mut self.prefs.panels;
            ui.selectable_value(&mut p.curves, false, DOPE_SHEET);
            ui.selectable_value(&mut p.curves, true, CURVES);
        });
        let Some(clip) = self.doc.clip() else {
            return;
        };
        let time_secs = clip_local_time(clip, self.playback.time_secs);
        let outputs = if self.prefs.panels.curves {
            let specialize = self.active_body().map(|a| a.frame);
            self.curve_editor.ui(
                ui,
                &CurveEditorInputs {
                    clip,
                    active_channel: self.active_channel,
                    time_secs,
                    specialize,
                },
            )
        } else {
            self.dope_sheet.ui(
                ui,
                &DopeSheetInputs {
                    clip,
                    active_channel: self.active_channel,
                    time_secs,
                },
            )
        };
        for output in outputs {
            self.commands.push(match output {
                PanelOutput::Edit { clip, label, drag } => Command::EditClip {
                    clip: Box::new(clip),
                    label,
                    drag: drag.map(|id| id.value()),
                },
                PanelOutput::SetTime(t) => Command::SetTime(t),
                PanelOutput::SetActiveChannel(c) => Command::SetActiveChannel(Some(c)),
            });
        }
    }

    /// The validation grid over the project's clips × the roster (issue: testers' grid).
    pub(super) fn validation_window(&mut self, ctx: &egui::Context) {
        use crate::panels::validation::{ValidationInputs, ValidationRequest, apply_mark_request};
        let mut open = self.show_validation;
        let mut request = None;
        egui::Window::new("Validation Grid")
            .open(&mut open)
            .default_size([640.0, 360.0])
            .show(ctx, |ui| {
                let names: Vec<(&str, &anymorph_runtime::creature::Creature)> = self
                    .doc
                    .roster
                    .iter()
                    .map(|e| (e.creature.name(), &e.creature))
                    .collect();
                request = self.validation.ui(
                    ui,
                    &ValidationInputs {
                        clips: &self.doc.clips,
                        creatures: &names,
                        marks: &self.doc.validation_marks,
                        config: &self.validation_config,
                    },
                );
            });
        self.show_validation = open;
        match request {
            Some(ValidationRequest::LoadCell {
                clip,
                creature,
                variant,
                time_secs,
            }) => self.show_validation_cell(&clip, &creature, variant, time_secs),
            Some(r) => {
                let mut marks = self.doc.validation_marks.clone();
                if apply_mark_request(&mut marks, &r) {
                    self.edit_content("Mark validation cell", None, |c| {
                        c.validation_marks = marks;
                    });
                }
            }
            None => {}
        }
    }

    /// Shows a grid cell as the grid checked it: `creature` playing `clip` in `variant`,
    /// paused at `time_secs`, selected and framed, with external target 0 where the grid had
    /// it at that moment when the clip aims at it. Viewing edits nothing: the variant is a
    /// preview choice and the target a view (`Document::view_targets`), so the project
    /// stays saved and Undo has nothing new to undo.
    pub fn show_validation_cell(
        &mut self,
        clip: &str,
        creature: &str,
        variant: usize,
        time_secs: f32,
    ) {
        let clip_index = self.doc.clips.iter().position(|c| c.name == clip);
        if let Some(i) = clip_index {
            // Now, not queued: choosing a clip resets the variants, and the cell's is next.
            self.set_clip(i);
        }
        let creature_index = self
            .doc
            .roster
            .iter()
            .position(|e| e.creature.name() == creature);
        if let Some(ci) = creature_index {
            self.doc.set_variant(ci, variant);
            self.commands.push(Command::Select(Some(Selection {
                creature: ci,
                body: None,
            })));
            self.commands.push(Command::FrameSelected);
        }
        self.commands.push(Command::SetTime(time_secs));
        if let (Some(i), Some(ci)) = (clip_index, creature_index) {
            let clip = std::sync::Arc::new(self.doc.clips[i].clone());
            let creature = std::sync::Arc::new(self.doc.roster[ci].creature.clone());
            if let Some(at) = anymorph_validation::target_at(&clip, &creature, variant, time_secs) {
                let mut targets = self.doc.external_targets.clone();
                match targets.first_mut() {
                    Some(t) => *t = at,
                    None => targets.push(at),
                }
                self.doc.view_targets(Some(targets));
            }
        }
    }

    /// View → Caps: the selected creature's bodies and caps.
    pub(super) fn caps_window(&mut self, ctx: &egui::Context) {
        use crate::panels::caps::CapsInputs;
        let mut open = self.prefs.panels.caps;
        egui::Window::new("Caps")
            .open(&mut open)
            .default_size([360.0, 480.0])
            .show(ctx, |ui| {
                self.caps.ui(
                    ui,
                    &CapsInputs {
                        doc: &self.doc,
                        preview: &self.preview,
                        selection: self.selection,
                        meshes: self.meshes.all(),
                    },
                    &mut self.commands,
                );
            });
        self.prefs.panels.caps = open;
    }

    /// Closing with unsaved edits asks to save, as every desktop editor does.
    pub(super) fn close_guard(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested())
            && self.history.is_dirty()
            && self.close_decided.is_none()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.confirm_close = true;
        }
        if !self.confirm_close {
            return;
        }
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("confirm close")).show(ctx, |ui| {
            ui.heading("Save changes before closing?");
            ui.label(format!("{} has unsaved edits.", self.doc.name));
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    choice = Some(0);
                }
                if ui.button("Don't Save").clicked() {
                    choice = Some(1);
                }
                if ui.button("Cancel").clicked() {
                    choice = Some(2);
                }
            });
        });
        match choice {
            Some(0) => {
                self.confirm_close = false;
                match self.doc.path.clone() {
                    Some(path) => self.save_to(&path),
                    // Closes once saved where the animator says.
                    None => self.save_project_as(true),
                }
                if !self.history.is_dirty() {
                    self.close_decided = Some(false);
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
            }
            Some(1) => {
                self.confirm_close = false;
                self.close_decided = Some(true);
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            Some(_) => self.confirm_close = false,
            None => {}
        }
    }

    pub(super) fn recovery_window(&mut self, ctx: &egui::Context) {
        let Some(offer) = &self.recovery_offer else {
            return;
        };
        let text = offer.text.clone();
        egui::Modal::new(egui::Id::unique("recovery offer")).show(ctx, |ui| {
            ui.set_max_width(520.0);
            ui.heading("Recover unsaved work?");
            ui.label(text);
            ui.label("Recover puts it back as unsaved edits; Discard deletes it.");
            ui.horizontal(|ui| {
                if ui.button(RECOVER).clicked() {
                    self.commands.push(Command::RecoverAutosave);
                }
                if ui.button("Discard").clicked() {
                    self.commands.push(Command::DiscardAutosave);
                }
            });
        });
    }

    pub(super) fn bench_frame(&mut self, ctx: &egui::Context) {
        let Some(bench) = &mut self.bench else {
            return;
        };
        ctx.request_repaint();
        let Some(report) = bench.frame() else {
            return;
        };
        let rect = self.viewport.rect();
        let ppp = ctx.pixels_per_point();
        let screen = ctx.content_rect();
        println!(
            "bench: {} creatures, window {:.0}×{:.0} px, viewport {:.0}×{:.0} px, {} frames on {}",
            self.doc.roster.len(),
            screen.width() * ppp,
            screen.height() * ppp,
            rect.width() * ppp,
            rect.height() * ppp,
            report.frames,
            self.adapter
        );
        println!(
            "bench: frame median {:.2} ms ({:.1} fps), p90 {:.2} ms, mean {:.2} ms; \
             pipeline {:.0} µs, scene {:.0} µs, ui {:.2} ms per frame",
            report.median_ms,
            1000.0 / report.median_ms.max(1e-3),
            report.p90_ms,
            report.mean_ms,
            self.stats.preview.evaluate_us,
            self.stats.scene_us,
            self.stats.ui_us / 1000.0
        );
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
}
