//! The caps window (View → Caps): every body of one creature with its caps as chips, where
//! each cap came from (an imported rig's extras, a bone-name rule, its geometry), and what
//! the runtime derives from them (root, spine, legs, graspers) and whether the clip plays.
//! A chip's ✖ removes a cap, "➕ Cap" adds one; each change is one undoable edit that
//! derives the creature again, so the viewport and the roster follow at once.

use crate::command::{Command, CommandQueue, Selection};
use crate::document::Document;
use crate::preview::Preview;
use anymorph_io::gltf::SkinnedMesh;
use anymorph_runtime::creature::{BodyId, Cap, Creature};
use egui::{Color32, RichText};
use std::sync::Arc;

/// The button that opens a body's add-cap menu, shared with tests.
pub const ADD_CAP: &str = "➕ Cap";
/// The filter field's label, shared with tests.
pub const FILTER: &str = "Filter bodies";
/// Where a body's caps came from when the animator set them here.
pub const EDITED_SOURCE: &str = "edited in the editor";

/// A chip's text: the cap and the ✖ that removes it.
pub fn chip_label(cap: &Cap) -> String {
    format!("{cap} ✖")
}

/// The caps window's own state.
#[derive(Debug, Default)]
pub struct CapsPanel {
    /// The creature shown (roster index); follows the selection.
    pub creature: Option<usize>,
    last_selection: Option<usize>,
    filter: String,
    /// A free cap name being typed in an add menu.
    other: String,
}

/// What the caps window shows.
pub struct CapsInputs<'a> {
    pub doc: &'a Document,
    pub preview: &'a Preview,
    pub selection: Option<Selection>,
    pub meshes: &'a [Option<Arc<SkinnedMesh>>],
}

const OK: Color32 = Color32::from_rgb(120, 200, 120);
const BAD: Color32 = Color32::from_rgb(235, 120, 110);

impl CapsPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, inputs: &CapsInputs<'_>, commands: &mut CommandQueue) {
        let roster = &inputs.doc.roster;
        let selected = inputs.selection.map(|s| s.creature);
        if selected.is_some() && selected != self.last_selection {
            self.creature = selected;
        }
        self.last_selection = selected;
        if roster.is_empty() {
            ui.label("No creatures: add or import one.");
            return;
        }
        let ci = self.creature.filter(|&c| c < roster.len()).unwrap_or(0);
        self.creature = Some(ci);

        ui.horizontal(|ui| {
            let label = ui.label("Creature");
            egui::ComboBox::from_id_salt("caps creature")
                .selected_text(roster[ci].creature.name())
                .show_ui(ui, |ui| {
                    for (i, e) in roster.iter().enumerate() {
                        if ui.selectable_label(i == ci, e.creature.name()).clicked() {
                            self.creature = Some(i);
                        }
                    }
                })
                .response
                .labelled_by(label.id);
            if ui
                .button(Command::SaveCreatureAs.label())
                .on_hover_text(Command::SaveCreatureAs.tooltip())
                .clicked()
            {
                // Saving acts on the selected creature: make it this one.
                commands.push(Command::Select(Some(Selection {
                    creature: ci,
                    body: None,
                })));
                commands.push(Command::SaveCreatureAs);
            }
        });
        let entry = &roster[ci];
        let creature = &entry.creature;
        summary_ui(ui, creature);
        if let Some(p) = inputs.preview.creatures.get(ci) {
            let clip = inputs.doc.clip().map_or("the clip", |c| c.name.as_str());
            match &p.binding.reason {
                None => ui.colored_label(
                    OK,
                    format!("'{clip}' plays ({} variants)", p.binding.variants.len()),
                ),
                Some(why) => ui.colored_label(BAD, format!("'{clip}' does not play: {why}")),
            };
        }
        let file = entry
            .path
            .as_deref()
            .map_or("not saved".into(), |p| p.display().to_string());
        ui.label(RichText::new(format!("file: {file}")).small().weak());
        let mesh = match (
            creature.extra().get("mesh").and_then(|m| m.as_str()),
            inputs.meshes.get(ci).and_then(Option::as_ref),
        ) {
            (Some(rig), Some(m)) => format!(
                "mesh: {rig} ({} vertices, {} triangles)",
                m.vertex_count(),
                m.triangle_count()
            ),
            (Some(rig), None) => format!("mesh: {rig} (not loaded)"),
            (None, _) => "mesh: none (the bodies are drawn)".into(),
        };
        ui.label(RichText::new(mesh).small().weak());
        ui.separator();
        ui.horizontal(|ui| {
            let label = ui.label(FILTER);
            ui.add(egui::TextEdit::singleline(&mut self.filter).desired_width(140.0))
                .labelled_by(label.id);
        });
        let filter = self.filter.trim().to_lowercase();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for b in 0..creature.len() {
                    let body = creature.body(b);
                    if !filter.is_empty() && !body.name.to_lowercase().contains(&filter) {
                        continue;
                    }
                    ui.push_id(b, |ui| {
                        self.body_ui(ui, ci, creature, b, inputs.selection, commands);
                    });
                }
            });
    }

    fn body_ui(
        &mut self,
        ui: &mut egui::Ui,
        ci: usize,
        creature: &Creature,
        b: BodyId,
        selection: Option<Selection>,
        commands: &mut CommandQueue,
    ) {
        let body = creature.body(b);
        let depth =
            std::iter::successors(body.file_parent, |&p| creature.body(p).file_parent).count();
        let set = |caps: Vec<Cap>| Command::SetBodyCaps {
            creature: ci,
            body: b,
            caps,
        };
        ui.horizontal_wrapped(|ui| {
            ui.add_space(10.0 * depth.min(12) as f32);
            let selected = selection
                == Some(Selection {
                    creature: ci,
                    body: Some(b),
                });
            if ui.selectable_label(selected, &body.name).clicked() {
                commands.push(Command::Select(Some(Selection {
                    creature: ci,
                    body: Some(b),
                })));
            }
            for cap in &body.caps {
                if ui
                    .small_button(chip_label(cap))
                    .on_hover_text(format!("Remove '{cap}' from {}", body.name))
                    .clicked()
                {
                    let caps = body.caps.iter().filter(|c| *c != cap).cloned().collect();
                    commands.push(set(caps));
                }
            }
            ui.menu_button(ADD_CAP, |ui| {
                for cap in Cap::KNOWN.iter().filter(|c| !body.has_cap(c)) {
                    if ui.button(cap.as_str()).clicked() {
                        let mut caps = body.caps.clone();
                        caps.push(cap.clone());
                        commands.push(set(caps));
                        ui.close();
                    }
                }
                ui.separator();
                ui.horizontal(|ui| {
                    let label = ui.label("Other");
                    let field = ui
                        .add(egui::TextEdit::singleline(&mut self.other).desired_width(90.0))
                        .labelled_by(label.id);
                    let entered =
                        field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    let cap = Cap::parse(&self.other);
                    let valid = !self.other.trim().is_empty() && !body.has_cap(&cap);
                    let add = ui.add_enabled(valid, egui::Button::new("Add")).clicked();
                    if valid && (add || entered) {
                        let mut caps = body.caps.clone();
                        caps.push(cap);
                        commands.push(set(caps));
                        self.other.clear();
                        ui.close();
                    }
                });
            });
        });
        if let Some(source) = body.extra.get("caps_source").and_then(|s| s.as_str()) {
            ui.horizontal(|ui| {
                ui.add_space(10.0 * depth.min(12) as f32 + 12.0);
                ui.label(RichText::new(format!("caps from {source}")).small().weak());
            });
        }
    }
}

/// What the runtime derives from the caps: the root, the spine, legs and graspers.
fn summary_ui(ui: &mut egui::Ui, creature: &Creature) {
    let spine = (0..creature.len())
        .filter(|&b| creature.is_spine(b))
        .count();
    ui.label(format!(
        "root {} · {} bodies · spine {} · legs {} · graspers {} · feet {}",
        creature.body(creature.root()).name,
        creature.len(),
        spine,
        creature.legs().len(),
        creature.count_cap(&Cap::Grasper),
        creature.count_cap(&Cap::Foot),
    ));
}

/// `creature` with body `body`'s caps replaced and everything derived again (root, spine,
/// legs); the body remembers that its caps were set by hand.
pub fn with_body_caps(
    creature: &Creature,
    body: BodyId,
    caps: Vec<Cap>,
) -> Result<Creature, anymorph_runtime::creature::CreatureError> {
    let mut defs = creature.to_defs();
    if let Some(def) = defs.get_mut(body) {
        let mut unique: Vec<Cap> = Vec::with_capacity(caps.len());
        for cap in caps {
            if !unique.contains(&cap) {
                unique.push(cap);
            }
        }
        def.caps = unique;
        def.extra.insert(
            "caps_source".into(),
            serde_json::Value::String(EDITED_SOURCE.into()),
        );
    }
    Creature::with_extras(creature.name(), defs, creature.extra().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editing_caps_derives_the_creature_again() {
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("tests/fixtures/gltf/humanoid.glb");
        let creature = anymorph_io::load_creature(&path).expect("fixture");
        let foot = creature.find("foot.L").expect("foot.L");
        assert_eq!(creature.legs().len(), 2);
        let one_leg = with_body_caps(&creature, foot, vec![Cap::Limb]).expect("valid");
        assert_eq!(one_leg.legs().len(), 1, "a foot without the cap is no leg");
        assert!(!one_leg.body(foot).has_cap(&Cap::Foot));
        assert_eq!(
            one_leg
                .body(foot)
                .extra
                .get("caps_source")
                .and_then(|s| s.as_str()),
            Some(EDITED_SOURCE)
        );
        // Free strings are kept; duplicates collapse.
        let horn = Cap::Other("horn".into());
        let head = creature.find("head").expect("head");
        let horned = with_body_caps(&creature, head, vec![horn.clone(), horn.clone(), Cap::Head])
            .expect("valid");
        assert_eq!(horned.body(head).caps, vec![horn, Cap::Head]);
        // The mesh reference and body order survive, so the mesh still fits.
        assert_eq!(horned.extra().get("mesh"), creature.extra().get("mesh"));
        assert_eq!(horned.len(), creature.len());
    }
}
