//! The footfall window and edits of the project's gait styles.

use super::*;
use crate::panels::footfall::{FOOTFALLS, FootfallInputs};
use anymorph_runtime::gait::GaitStyle;
use std::sync::Arc;

impl AnymorphApp {
    /// Replaces gait style `index` with `style` as one undo step (or part of a drag's); a
    /// style the runtime would refuse (a number out of range, not a number) is refused here
    /// with the field named, so a file the editor saves always loads.
    pub(super) fn edit_gait(
        &mut self,
        index: usize,
        style: GaitStyle,
        label: &str,
        drag: Option<u64>,
    ) {
        let Some(before) = self.doc.gaits.get(index) else {
            return;
        };
        if let Err((field, why)) = style.validate() {
            self.message = Some((
                format!("Gait style {}: {field} {why}", style.name),
                Severity::Error,
            ));
            return;
        }
        if style.name != before.name {
            // The walk and the project find a style by its name.
            self.message = Some(("A gait style keeps its name".into(), Severity::Error));
            return;
        }
        if **before == style {
            return;
        }
        let style = Arc::new(style);
        self.edit_content(label, drag, |c| {
            if let Some(g) = c.gaits.get_mut(index) {
                *g = style;
            }
        });
    }

    /// Adds a copy of bundled style `template` as one undo step and walks with it, so the
    /// Footfalls window edits it next. Its name is one no style of the project has and no
    /// file beside the project holds as `gaits/<name>.gait.json`: the walk and the project
    /// find a style by its name, and the next save must not overwrite a file it never read.
    pub(super) fn new_gait_from_template(&mut self, template: &str) {
        let Some((_, json)) = anymorph_io::samples::GAITS
            .iter()
            .find(|(n, _)| *n == template)
        else {
            self.message = Some((format!("No gait template '{template}'"), Severity::Error));
            return;
        };
        let mut style =
            match anymorph_io::gait_from_str(json, &format!("assets/gaits/{template}.gait.json")) {
                Ok(style) => style,
                Err(e) => {
                    self.message = Some((e.to_string(), Severity::Error));
                    return;
                }
            };
        let dir = self
            .doc
            .path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf);
        let listed: Vec<PathBuf> = self
            .doc
            .project
            .as_ref()
            .map(|p| p.gaits.clone())
            .unwrap_or_default();
        let taken = |name: &str| {
            let file = crate::document::gait_file_name(name);
            let same = |f: &Path| {
                f.to_string_lossy().to_lowercase() == file.to_string_lossy().to_lowercase()
            };
            self.doc.gaits.iter().any(|g| g.name == name)
                || listed.iter().any(|f| same(f))
                || dir.as_ref().is_some_and(|d| d.join(&file).exists())
        };
        let base = style.name.clone();
        let mut n = 1;
        while taken(&style.name) {
            n += 1;
            style.name = format!("{base}-{n}");
        }
        let name = style.name.clone();
        let style = Arc::new(style);
        self.edit_content("New gait style from template", None, |c| {
            c.gaits.push(style);
        });
        self.prefs.locomotion.gait = name;
    }

    /// The footfall diagram of every creature (walking, or at the walk's speed when Walk is
    /// off) with the style's fields.
    pub(super) fn footfall_window(&mut self, ctx: &egui::Context) {
        let mut open = self.prefs.panels.footfalls;
        egui::Window::new(FOOTFALLS)
            .open(&mut open)
            .default_size([600.0, 600.0])
            .default_pos([240.0, 40.0])
            .show(ctx, |ui| {
                self.footfall.ui(
                    ui,
                    &FootfallInputs {
                        doc: &self.doc,
                        preview: &self.preview,
                        prefs: &self.prefs.locomotion,
                    },
                    &mut self.commands,
                );
            });
        self.prefs.panels.footfalls = open;
    }

    /// Where the footfall diagram drew a foot's bar last frame (tests drag its ends).
    pub fn footfall_bar_on_screen(
        &self,
        creature: usize,
        group: usize,
        foot: usize,
    ) -> Option<egui::Rect> {
        self.footfall.bar_on_screen(creature, group, foot)
    }
}
