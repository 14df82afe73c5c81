//! The right panel: the creatures the clip previews on. Each shows whether the clip binds
//! (and why not), lets the animator pick a variant, and lists its bodies with their caps.

use crate::editor::command::{Command, CommandQueue, Selection};
use crate::editor::document::{Document, RosterEntry};
use crate::editor::preview::{CreaturePreview, Preview};
use crate::runtime::creature::{BodyId, Creature};
use egui::{Color32, RichText};
use std::path::PathBuf;

/// The creature roster. `samples` are the creature files offered by "Add".
#[derive(Debug, Default)]
pub struct RosterPanel {
    pub samples: Vec<PathBuf>,
}

const OK: Color32 = Color32::from_rgb(120, 200, 120);
const BAD: Color32 = Color32::from_rgb(235, 120, 110);

impl RosterPanel {
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        doc: &Document,
        preview: &Preview,
        selection: Option<Selection>,
        commands: &mut CommandQueue,
    ) {
        ui.horizontal(|ui| {
            ui.heading(format!("Creatures ({})", doc.roster.len()));
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.menu_button("➕ Add", |ui| {
                    for path in &self.samples {
                        let name = sample_name(path);
                        if ui
                            .button(&name)
                            .on_hover_text(path.display().to_string())
                            .clicked()
                        {
                            commands.push(Command::AddCreature(path.clone()));
                        }
                    }
                    ui.separator();
                    if ui.button(Command::AddCreatureFromFile.label()).clicked() {
                        commands.push(Command::AddCreatureFromFile);
                    }
                });
            });
        });
        let binding_count = preview.creatures.iter().filter(|p| p.binds()).count();
        if let Some(clip) = doc.clip() {
            ui.label(RichText::new(format!(
                "'{}' plays on {binding_count} of {}",
                clip.name,
                doc.roster.len()
            )));
        }
        ui.separator();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for (i, (entry, p)) in doc.roster.iter().zip(&preview.creatures).enumerate() {
                    creature_ui(ui, i, entry, p, selection, commands);
                    ui.separator();
                }
            });
    }
}

/// "biped" from ".../biped.creature.json", "fox" from ".../fox.glb".
pub fn sample_name(path: &std::path::Path) -> String {
    let file = path
        .file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    [".creature.json", ".glb", ".gltf"]
        .iter()
        .find_map(|s| file.strip_suffix(s))
        .unwrap_or(&file)
        .to_string()
}

fn creature_ui(
    ui: &mut egui::Ui,
    index: usize,
    entry: &RosterEntry,
    preview: &CreaturePreview,
    selection: Option<Selection>,
    commands: &mut CommandQueue,
) {
    let creature = &entry.creature;
    let selected = selection.is_some_and(|s| s.creature == index);
    ui.horizontal(|ui| {
        let (mark, color) = if preview.binds() {
            ("✔", OK)
        } else {
            ("✖", BAD)
        };
        ui.label(RichText::new(mark).color(color));
        if ui
            .selectable_label(selected, RichText::new(creature.name()).strong())
            .on_hover_text("Select; F frames it")
            .clicked()
        {
            commands.push(Command::Select(Some(Selection {
                creature: index,
                body: None,
            })));
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui
                .small_button("🗑")
                .on_hover_text(format!("Remove {} from the preview", creature.name()))
                .clicked()
            {
                commands.push(Command::RemoveCreature(index));
            }
        });
    });
    match &preview.binding.reason {
        Some(reason) => {
            ui.label(RichText::new(format!("Does not bind: {reason}")).color(BAD));
        }
        None => variant_ui(ui, index, entry, preview, commands),
    }
    let legs = creature.legs().len();
    ui.label(
        RichText::new(format!(
            "{} bodies, {} legs, {:.2} m",
            creature.len(),
            legs,
            creature.size()
        ))
        .weak(),
    );
    egui::CollapsingHeader::new(RichText::new("Bodies"))
        .id_salt(("bodies", index, creature.name()))
        .show(ui, |ui| {
            body_tree_ui(ui, index, creature, creature.root(), selection, commands);
        });
}

fn variant_ui(
    ui: &mut egui::Ui,
    index: usize,
    entry: &RosterEntry,
    preview: &CreaturePreview,
    commands: &mut CommandQueue,
) {
    let variants = &preview.binding.variants;
    let label = |i: usize| {
        variants.get(i).map_or_else(String::new, |v| {
            // The runtime joins a variant's bodies with '→', which egui's bundled fonts
            // lack (a rig with two grasper groups showed tofu, and panicked under test).
            let bodies = v.label.replace('→', "›");
            if v.mirrored {
                format!("{bodies} (mirrored)")
            } else {
                bodies
            }
        })
    };
    ui.horizontal(|ui| {
        let name = ui.label("Variant").on_hover_text(format!(
            "{} ways the clip can play on this creature",
            variants.len()
        ));
        egui::ComboBox::from_id_salt(("variant", index))
            .selected_text(label(entry.variant))
            .width(ui.available_width() - 4.0)
            .show_ui(ui, |ui| {
                for i in 0..variants.len() {
                    if ui.selectable_label(i == entry.variant, label(i)).clicked() {
                        commands.push(Command::SetVariant {
                            creature: index,
                            variant: i,
                        });
                    }
                }
            })
            .response
            .labelled_by(name.id);
    });
}

fn body_tree_ui(
    ui: &mut egui::Ui,
    creature_index: usize,
    creature: &Creature,
    body: BodyId,
    selection: Option<Selection>,
    commands: &mut CommandQueue,
) {
    let b = creature.body(body);
    let caps: Vec<&str> = b.caps.iter().map(|c| c.as_str()).collect();
    let text = if caps.is_empty() {
        RichText::new(&b.name)
    } else {
        RichText::new(format!("{}  [{}]", b.name, caps.join(", ")))
    };
    let selected = selection
        == Some(Selection {
            creature: creature_index,
            body: Some(body),
        });
    let children = creature.children(body);
    let row = |ui: &mut egui::Ui, commands: &mut CommandQueue| {
        if ui.selectable_label(selected, text.clone()).clicked() {
            commands.push(Command::Select(Some(Selection {
                creature: creature_index,
                body: Some(body),
            })));
        }
    };
    if children.is_empty() {
        row(ui, commands);
    } else {
        egui::collapsing_header::CollapsingState::load_with_default_open(
            ui.ctx(),
            ui.make_persistent_id(("body", creature_index, body)),
            true,
        )
        .show_header(ui, |ui| row(ui, commands))
        .body(|ui| {
            for &child in children {
                body_tree_ui(ui, creature_index, creature, child, selection, commands);
            }
        });
    }
}
