//! The right panel: the creatures the clip previews on. Each shows whether the clip binds
//! (and why not), lets the animator pick a variant, and lists its bodies with their caps.

use crate::command::{Command, CommandQueue, Selection};
use crate::document::{Document, RosterEntry};
use crate::preview::{CreaturePreview, Preview};
use anymorph_runtime::creature::{BodyId, Creature};
use egui::{Color32, RichText};
use std::path::PathBuf;

/// The creature roster. `samples` are the creature files offered by "Add".
#[derive(Debug, Default)]
pub struct RosterPanel {
    pub samples: Vec<PathBuf>,
    /// Which branch of each action of the active clip plays on each creature, worked out
    /// again only when clips, actions, the roster or the active clip change.
    pub actions: Option<(ActionsKey, Vec<ActionLine>)>,
}

pub type ActionsKey = (crate::document::Revisions, usize);

/// One action of the active clip on the roster.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionLine {
    pub action: String,
    /// "Action 'wave' plays on 8 of 8: 3 wave, 4 wave_prone, 1 wave_head".
    pub summary: String,
    /// Per roster creature: the branch that plays, or `None`.
    pub branch: Vec<Option<String>>,
}

/// For each action the active clip is a branch of: which branch plays on each creature.
pub fn action_lines(doc: &Document) -> Vec<ActionLine> {
    use anymorph_runtime::action::Action;
    let Some(clip) = doc.clip() else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for a in doc.actions_of(&clip.name) {
        let def = &doc.actions[a];
        // Branches naming no clip (renamed away in a file) are skipped, as a save drops them.
        let clips: Vec<std::sync::Arc<anymorph_runtime::clip::Clip>> = def
            .branches
            .iter()
            .filter_map(|b| doc.clips.iter().find(|c| &c.name == b))
            .cloned()
            .map(std::sync::Arc::new)
            .collect();
        let def = anymorph_runtime::action::ActionDef {
            branches: clips.iter().map(|c| c.name.clone()).collect(),
            ..def.clone()
        };
        let Ok(action) = Action::resolve(&def, &clips) else {
            continue;
        };
        let branch: Vec<Option<String>> = doc
            .roster
            .iter()
            .map(|e| {
                action
                    .branch_for(&e.creature)
                    .ok()
                    .map(|k| action.branches[k].name.clone())
            })
            .collect();
        let counts: Vec<String> = action
            .branches
            .iter()
            .filter_map(|c| {
                let n = branch.iter().flatten().filter(|b| **b == c.name).count();
                (n > 0).then(|| format!("{n} {}", c.name))
            })
            .collect();
        let plays = branch.iter().flatten().count();
        lines.push(ActionLine {
            action: action.name.clone(),
            summary: format!(
                "Action '{}' plays on {plays} of {}{}{}",
                action.name,
                branch.len(),
                if counts.is_empty() { "" } else { ": " },
                counts.join(", ")
            ),
            branch,
        });
    }
    lines
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
        let key = (doc.revisions, doc.active_clip);
        if self.actions.as_ref().is_none_or(|(k, _)| *k != key) {
            self.actions = Some((key, action_lines(doc)));
        }
        if let Some((_, lines)) = &self.actions {
            for line in lines {
                ui.label(RichText::new(&line.summary).strong());
            }
        }
        ui.separator();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for (i, (entry, p)) in doc.roster.iter().zip(&preview.creatures).enumerate() {
                    creature_ui(ui, i, entry, p, selection, commands);
                    if let Some((_, lines)) = &self.actions {
                        for line in lines {
                            let text = match line.branch.get(i) {
                                Some(Some(b)) => format!("action {} plays {b}", line.action),
                                _ => format!("action {}: no branch plays", line.action),
                            };
                            ui.label(RichText::new(text).weak());
                        }
                    }
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
