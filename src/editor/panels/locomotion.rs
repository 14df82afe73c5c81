//! The Locomotion section at the top of the creatures panel: makes every previewed creature
//! walk at once, with a speed, a turn rate, a gait style of the project and a ground, shown
//! on a treadmill or along its path. Its settings are the editor's preferences, not the
//! project's: changing them pushes [`Command::SetLocomotion`], never an edit.

use crate::editor::command::{Command, CommandQueue};
use crate::editor::preview::Preview;
use crate::editor::walk::{
    GroundShape, LocomotionPrefs, SLOPE_RANGE, SPEED_RANGE, TURN_RANGE, WAVE_AMPLITUDE_RANGE,
    WAVE_LENGTH_RANGE, WalkView, gait_names,
};
use crate::runtime::gait::GaitStyle;
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

/// What the section shows besides the settings.
pub struct LocomotionInputs<'a> {
    pub prefs: &'a LocomotionPrefs,
    pub gaits: &'a [Arc<GaitStyle>],
    pub preview: &'a Preview,
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
