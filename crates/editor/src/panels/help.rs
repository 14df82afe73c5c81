//! Help windows: every command with its shortcut (from [`Command::ALL`]), mouse navigation,
//! and what Anymorph is.

use crate::command::Command;

pub fn shortcuts_window(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Keyboard Shortcuts")
        .open(open)
        .resizable(true)
        .default_width(460.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(420.0)
                .show(ui, |ui| {
                    egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                        for command in Command::ALL {
                            let keys: Vec<String> =
                                [command.shortcut(), command.alternate_shortcut()]
                                    .into_iter()
                                    .flatten()
                                    .map(|s| ctx.format_shortcut(&s))
                                    .collect();
                            ui.monospace(keys.join("  or  "));
                            ui.label(command.label()).on_hover_text(command.tooltip());
                            ui.end_row();
                        }
                    });
                    ui.separator();
                    ui.strong("Viewport mouse");
                    egui::Grid::new("mouse").striped(true).show(ui, |ui| {
                        for (keys, what) in [
                            ("Alt + left drag  or  middle drag", "Orbit"),
                            ("Alt + middle drag  or  Shift + middle drag", "Pan"),
                            ("Alt + right drag, Ctrl + middle drag  or  wheel", "Zoom"),
                            ("Left click", "Select a body (empty space: deselect)"),
                            ("Left drag on the yellow handle", "Move the external target"),
                        ] {
                            ui.monospace(keys);
                            ui.label(what);
                            ui.end_row();
                        }
                    });
                    for (title, id, keys) in [
                        ("Dope sheet", "dope sheet keys", super::dope_sheet::KEYS),
                        (
                            "Curve editor",
                            "curve editor keys",
                            super::curve_editor::KEYS,
                        ),
                        ("Footfall diagram", "footfall keys", super::footfall::KEYS),
                    ] {
                        ui.separator();
                        ui.strong(title);
                        egui::Grid::new(id).striped(true).show(ui, |ui| {
                            for (keys, what) in keys {
                                ui.monospace(*keys);
                                ui.label(*what);
                                ui.end_row();
                            }
                        });
                    }
                });
        });
}

pub fn about_window(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("About Anymorph")
        .open(open)
        .resizable(false)
        .show(ctx, |ui| {
            ui.heading(format!("Anymorph {}", env!("CARGO_PKG_VERSION")));
            ui.label(env!("CARGO_PKG_DESCRIPTION"));
            ui.label(
                "Author a clip once — which parts move and how the motion generalizes — and it \
                 plays on every creature in the viewport, whatever its shape.",
            );
        });
}
