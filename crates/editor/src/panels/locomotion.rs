//! The Locomotion section at the top of the creatures panel: makes every previewed creature
//! walk at once, with a speed, a turn rate, a gait style of the project and a ground, shown
//! on a treadmill or along its path. Its settings are the editor's preferences, not the
//! project's: changing them pushes [`Command::SetLocomotion`], never an edit.

use crate::command::{Command, CommandQueue};
use crate::layer::LayerPrefs;
use crate::preview::Preview;
use crate::walk::{
    GroundShape, LocomotionPrefs, SLOPE_RANGE, SPEED_RANGE, TURN_RANGE, WAVE_AMPLITUDE_RANGE,
    WAVE_LENGTH_RANGE, WalkView, gait_names,
};
use anymorph_runtime::action::ActionDef;
use anymorph_runtime::clip::Clip;
use anymorph_runtime::gait::GaitStyle;
use egui::RichText;
use std::sync::Arc;

/// The section's header, shared with tests.
pub const LOCOMOTION: &str = "Locomotion";
pub const SPEED: &str = "Walking speed";
pub const TURN: &str = "Turn rate";
pub const GAIT: &str = "Gait style";
pub const GROUND: &str = "Ground";
pub const SLOPE: &str = "Slope";
pub const WAVE_HEIGHT: &str = "Wave height";
pub const WAVE_LENGTH: &str = "Wavelength";
/// The Layer section's header and fields.
pub const LAYER: &str = "Layer";
pub const LAYER_PLAYS: &str = "Layered clip";
pub const LAYER_NONE: &str = "No layer";
pub const PRIORITY: &str = "Priority";
pub const ADDITIVE: &str = "Additive";
pub const LAYER_WEIGHT: &str = "Layer weight";

/// What the section shows besides the settings.
pub struct LocomotionInputs<'a> {
    pub prefs: &'a LocomotionPrefs,
    pub gaits: &'a [Arc<GaitStyle>],
    pub preview: &'a Preview,
    /// What the Layer section offers.
    pub clips: &'a [Clip],
    pub actions: &'a [ActionDef],
}

/// Draws the section; any change becomes one [`Command::SetLocomotion`].
pub fn locomotion_ui(
    ui: &mut egui::Ui,
    inputs: &LocomotionInputs<'_>,
    commands: &mut CommandQueue,
) {
    let mut prefs = inputs.prefs.clone();
    let walking = if prefs.walking { " (walking)" } else { "" };
    egui::CollapsingHeader::new(RichText::new(LOCOMOTION).strong())
        .id_salt("locomotion")
        .show(ui, |ui| {
            settings_ui(ui, &mut prefs, inputs);
        })
        .header_response
        .on_hover_text(format!(
            "Make every creature walk while the clip plays over the walk{walking}"
        ));
    egui::CollapsingHeader::new(RichText::new(LAYER).strong())
        .id_salt("layer")
        .show(ui, |ui| layer_ui(ui, &mut prefs.layer, inputs))
        .header_response
        .on_hover_text(
            "Play a second clip or action over the active clip on every creature, walking or \
             not (a preview setting: the project does not change)",
        );
    if prefs != *inputs.prefs {
        commands.push(Command::SetLocomotion(Box::new(prefs)));
    }
}

fn settings_ui(ui: &mut egui::Ui, prefs: &mut LocomotionPrefs, inputs: &LocomotionInputs<'_>) {
    ui.horizontal(|ui| {
        ui.checkbox(&mut prefs.walking, Command::ToggleWalk.label())
            .on_hover_text(format!("{} (Alt + W)", Command::ToggleWalk.tooltip()));
        ui.separator();
        for view in [WalkView::Treadmill, WalkView::Path] {
            ui.selectable_value(&mut prefs.view, view, view.label())
                .on_hover_text(match view {
                    WalkView::Treadmill => "Each creature walks in place in its slot",
                    WalkView::Path => {
                        "Each creature travels and turns from its slot; the path starts over with the clip"
                    }
                });
        }
    });
    egui::Grid::new("locomotion settings")
        .num_columns(2)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            number_row(ui, SPEED, &mut prefs.speed, SPEED_RANGE, 0.01, " m/s")
                .on_hover_text("Forward speed of every creature");
            number_row(ui, TURN, &mut prefs.turn_rate, TURN_RANGE, 0.01, " rad/s")
                .on_hover_text("Positive turns left (seen from above, counter-clockwise)");
            gait_row(ui, prefs, inputs.gaits);
            ground_rows(ui, prefs);
        });
    if prefs.walking {
        let (feet, walkers) = inputs
            .preview
            .creatures
            .iter()
            .filter(|p| p.walker.is_some())
            .fold((0, 0), |(f, w), p| (f + p.planted_feet.len(), w + 1));
        ui.label(
            RichText::new(format!(
                "{feet} feet on the ground, {walkers} creatures walking"
            ))
            .weak(),
        );
    }
}

/// The layer: which clip or action, priority or additive, and its weight.
fn layer_ui(ui: &mut egui::Ui, layer: &mut LayerPrefs, inputs: &LocomotionInputs<'_>) {
    let clip_text = |name: &str| format!("clip {name}");
    let action_text = |name: &str| format!("action {name}");
    egui::Grid::new("layer settings")
        .num_columns(2)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            let label = ui.label(LAYER_PLAYS);
            let selected = match (layer.name.as_str(), layer.action) {
                ("", _) => LAYER_NONE.to_string(),
                (name, true) => action_text(name),
                (name, false) => clip_text(name),
            };
            egui::ComboBox::from_id_salt("layer source")
                .selected_text(selected)
                .show_ui(ui, |ui| {
                    if ui
                        .selectable_label(layer.name.is_empty(), LAYER_NONE)
                        .clicked()
                    {
                        layer.name.clear();
                        layer.action = false;
                    }
                    let chosen = |l: &LayerPrefs, name: &str, action: bool| {
                        l.action == action && l.name == name
                    };
                    for clip in inputs.clips {
                        let on = chosen(layer, &clip.name, false);
                        if ui.selectable_label(on, clip_text(&clip.name)).clicked() {
                            layer.name.clone_from(&clip.name);
                            layer.action = false;
                        }
                    }
                    for action in inputs.actions {
                        let on = chosen(layer, &action.name, true);
                        if ui.selectable_label(on, action_text(&action.name)).clicked() {
                            layer.name.clone_from(&action.name);
                            layer.action = true;
                        }
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text("Played over the active clip, from the playhead");
            ui.end_row();
            ui.label("Blend");
            ui.horizontal(|ui| {
                ui.selectable_value(&mut layer.additive, false, PRIORITY)
                    .on_hover_text("Takes its weight of the pose on the bodies it moves");
                ui.selectable_value(&mut layer.additive, true, ADDITIVE)
                    .on_hover_text("Adds its offsets from rest, times its weight");
            });
            ui.end_row();
            number_row(ui, LAYER_WEIGHT, &mut layer.weight, 0.0..=1.0, 0.01, "");
        });
    let known = if layer.action {
        inputs.actions.iter().any(|a| a.name == layer.name)
    } else {
        inputs.clips.iter().any(|c| c.name == layer.name)
    };
    if !layer.name.is_empty() && !known {
        ui.label(
            RichText::new(format!("'{}' is not in this project: no layer", layer.name)).weak(),
        );
    }
}

fn number_row(
    ui: &mut egui::Ui,
    name: &str,
    value: &mut f32,
    range: std::ops::RangeInclusive<f32>,
    speed: f64,
    suffix: &str,
) -> egui::Response {
    let label = ui.label(name);
    let response = ui
        .add(
            egui::DragValue::new(value)
                .range(range)
                .speed(speed)
                .max_decimals(2)
                .suffix(suffix),
        )
        .labelled_by(label.id);
    ui.end_row();
    response
}

fn gait_row(ui: &mut egui::Ui, prefs: &mut LocomotionPrefs, gaits: &[Arc<GaitStyle>]) {
    let label = ui.label(GAIT);
    let intent = |name: &str| {
        gaits
            .iter()
            .find(|g| g.name == name)
            .map_or("The runtime's built-in walk", |g| g.intent.as_str())
            .to_string()
    };
    let names = gait_names(gaits);
    egui::ComboBox::from_id_salt("gait style")
        .selected_text(&prefs.gait)
        .show_ui(ui, |ui| {
            for name in &names {
                ui.selectable_value(&mut prefs.gait, name.clone(), name)
                    .on_hover_text(intent(name));
            }
        })
        .response
        .labelled_by(label.id)
        .on_hover_text(intent(&prefs.gait));
    ui.end_row();
}

fn ground_rows(ui: &mut egui::Ui, prefs: &mut LocomotionPrefs) {
    let label = ui.label(GROUND);
    egui::ComboBox::from_id_salt("ground")
        .selected_text(prefs.ground.label())
        .show_ui(ui, |ui| {
            for shape in GroundShape::ALL {
                ui.selectable_value(&mut prefs.ground, shape, shape.label());
            }
        })
        .response
        .labelled_by(label.id);
    ui.end_row();
    match prefs.ground {
        GroundShape::Flat => {}
        GroundShape::Slope => {
            number_row(ui, SLOPE, &mut prefs.slope_degrees, SLOPE_RANGE, 0.2, "°");
        }
        GroundShape::Waves => {
            number_row(
                ui,
                WAVE_HEIGHT,
                &mut prefs.wave_amplitude,
                WAVE_AMPLITUDE_RANGE,
                0.005,
                " m",
            );
            number_row(
                ui,
                WAVE_LENGTH,
                &mut prefs.wave_length,
                WAVE_LENGTH_RANGE,
                0.05,
                " m",
            );
        }
    }
}
