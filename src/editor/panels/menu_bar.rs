//! The menu bar, generated from [`Command::ALL`]: every command appears under its menu with
//! its shortcut, toggles show whether they are on.

use crate::editor::command::{Command, CommandQueue, Menu};

/// Answers "is this toggle on?" for the commands that are toggles.
pub trait ToggleState {
    fn is_on(&self, command: &Command) -> Option<bool>;

    /// Projects for File → Open Recent, most recent first.
    fn recent_projects(&self) -> Vec<std::path::PathBuf> {
        Vec::new()
    }
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
                            crate::editor::panels::channels::template_menu(ui, commands);
                        });
                    }
                    if *command == Command::ToggleWalk {
                        ui.menu_button("New Gait Style from Template", |ui| {
                            for (name, _) in crate::samples::GAITS {
                                if ui.button(*name).clicked() {
                                    commands
                                        .push(Command::NewGaitFromTemplate((*name).to_string()));
                                    ui.close();
                                }
                            }
                        });
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
