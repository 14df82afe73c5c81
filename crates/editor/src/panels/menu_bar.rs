//! The menu bar, generated from [`Command::ALL`]: every command appears under its menu with
//! its shortcut, toggles show whether they are on.

use crate::command::{Command, CommandQueue, Menu};

/// Answers "is this toggle on?" for the commands that are toggles.
pub trait ToggleState {
    fn is_on(&self, command: &Command) -> Option<bool>;

    /// Projects for File → Open Recent, most recent first.
    fn recent_projects(&self) -> Vec<std::path::PathBuf> {
        Vec::new()
    }
}

/// The Playback submenu of bundled gait styles to start a project's own from.
pub const NEW_GAIT_STYLE: &str = "New Gait Style from Template";

/// One button per bundled gait style ("trot style"…: plain names are taken by the
/// Locomotion panel's list), with the style's intent as its tooltip.
fn gait_template_menu(commands: &mut CommandQueue) -> impl FnOnce(&mut egui::Ui) + '_ {
    move |ui| {
        for (name, json) in anymorph_io::samples::GAITS {
            let intent = anymorph_io::gait_from_str(json, name)
                .map(|g| g.intent)
                .unwrap_or_default();
            let button = ui.button(gait_template_label(name));
            let button = if intent.is_empty() {
                button
            } else {
                button.on_hover_text(intent)
            };
            if button.clicked() {
                commands.push(Command::NewGaitFromTemplate((*name).to_string()));
                ui.close();
            }
        }
    }
}

/// The label of bundled gait style `name` in the New Gait Style menu.
pub fn gait_template_label(name: &str) -> String {
    format!("{name} style")
}

pub fn menu_bar_ui(ui: &mut egui::Ui, state: &dyn ToggleState, commands: &mut CommandQueue) {
    egui::MenuBar::new().ui(ui, |ui| {
        for (menu, title) in [
            (Menu::File, "File"),
            (Menu::Edit, "Edit"),
            (Menu::Clip, "Clip"),
            (Menu::View, "View"),
            (Menu::Playback, "Playback"),
            (Menu::Help, "Help"),
        ] {
            ui.menu_button(title, |ui| {
                let mut last_was_toggle = None;
                for command in Command::ALL.iter().filter(|c| c.menu() == Some(menu)) {
                    let on = state.is_on(command);
                    // A separator between plain actions and a run of toggles.
                    if last_was_toggle.is_some_and(|t| t != on.is_some()) {
                        ui.separator();
                    }
                    last_was_toggle = Some(on.is_some());
                    let mut button = match on {
                        Some(on) => egui::Button::selectable(on, command.label()),
                        None => egui::Button::new(command.label()),
                    };
                    if let Some(s) = command.shortcut() {
                        button = button.shortcut_text(ui.ctx().format_shortcut(&s));
                    }
                    if ui.add(button).on_hover_text(command.tooltip()).clicked() {
                        commands.push(command.clone());
                        ui.close();
                    }
                    if *command == Command::NewClip {
                        ui.menu_button("New Clip from Template", |ui| {
                            crate::panels::channels::template_menu(ui, commands);
                        });
                    }
                    if *command == Command::ToggleWalk {
                        ui.menu_button(NEW_GAIT_STYLE, gait_template_menu(commands));
                    }
                    if *command == Command::OpenProject {
                        let recent = state.recent_projects();
                        ui.add_enabled_ui(!recent.is_empty(), |ui| {
                            ui.menu_button("Open Recent", |ui| {
                                for path in recent {
                                    if ui.button(path.display().to_string()).clicked() {
                                        commands.push(Command::OpenProjectPath(path));
                                        ui.close();
                                    }
                                }
                            });
                        });
                    }
                }
            });
        }
    });
}
