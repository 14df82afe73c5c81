//! The built-in file browser: what answers a [`FileRequest`] where no system file dialog
//! can open (see [`crate::file_dialog`]), or when `ANYMORPH_FILE_DIALOG=builtin`.
//!
//! A modal window over the editor: the folder (typed, or walked with a click on a folder and
//! "Parent"), its folders and the files the chosen filter lets through, and a file name
//! that may also be a path. A double click opens a folder or accepts a file; Enter in a
//! field does what its button does; Escape cancels. Saving over a file asks first.
//!
//! Why not a crate: egui-file-dialog 0.15 still needs egui 0.36, and egui_file 0.29 (on
//! egui 0.37) leaves its path and file-name fields without an accessible name, so neither
//! a screen reader nor our egui_kittest tests (which check every input has one) can
//! reach them.

use crate::file_dialog::{FileRequest, PathKind};
use std::path::{Path, PathBuf};

/// Labels of the browser's widgets, shared with tests.
pub const FOLDER: &str = "Folder";
pub const FILE_NAME: &str = "File name";
pub const PARENT: &str = "⏶ Parent";
pub const FILE_TYPE: &str = "Files of type";
pub const CANCEL: &str = "Cancel";
/// The accept button when a save would replace a file (asked once).
pub const REPLACE: &str = "Replace";
/// The filter that lets every file through.
pub const ALL_FILES: &str = "All files";

/// How the browser closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrowserOutcome {
    Chosen(PathBuf),
    Cancelled,
}

#[derive(Clone, Debug)]
struct Entry {
    name: String,
    is_dir: bool,
}

/// One open browser, answering one request.
pub struct FileBrowser {
    request: FileRequest,
    dir: PathBuf,
    folder_text: String,
    name: String,
    /// Index into the request's filters; one past them is "All files".
    filter: usize,
    /// The folder's entries, or why it cannot be read.
    entries: Result<Vec<Entry>, String>,
    /// The folder entry clicked once (a file click fills the name instead).
    selected_dir: Option<String>,
    /// What went wrong with the last attempt, shown until the next.
    problem: Option<String>,
    /// A save would replace this file: accepting again replaces it.
    replace: Option<PathBuf>,
    /// Why the built-in browser and not the system's, shown under the title.
    note: Option<String>,
}

impl FileBrowser {
    pub fn new(request: FileRequest) -> Self {
        let dir = request
            .directory
            .clone()
            .filter(|d| d.is_dir())
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("/"));
        let mut browser = FileBrowser {
            name: request.file_name.clone().unwrap_or_default(),
            request,
            dir: PathBuf::new(),
            folder_text: String::new(),
            filter: 0,
            entries: Ok(Vec::new()),
            selected_dir: None,
            problem: None,
            replace: None,
            note: None,
        };
        browser.go_to(dir);
        browser
    }

    /// Shows `note` under the title (why the system's dialog did not open).
    pub fn with_note(mut self, note: Option<String>) -> Self {
        self.note = note;
        self
    }

    /// What the browser was opened for.
    pub fn request(&self) -> &FileRequest {
        &self.request
    }

    /// The folder shown.
    pub fn directory(&self) -> &Path {
        &self.dir
    }

    fn go_to(&mut self, dir: PathBuf) {
        let dir = std::path::absolute(&dir).unwrap_or(dir);
        self.entries = list_folder(&dir);
        self.folder_text = dir.display().to_string();
        self.dir = dir;
        self.selected_dir = None;
        self.problem = None;
        self.replace = None;
    }

    /// Where typed text points: `~/…` is the home folder, a relative path is in the
    /// folder shown.
    fn resolve(&self, text: &str) -> PathBuf {
        let text = text.trim();
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let path = match (text.strip_prefix('~'), home) {
            (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
                home.join(rest.trim_start_matches('/'))
            }
            _ => PathBuf::from(text),
        };
        if path.is_absolute() {
            path
        } else {
            self.dir.join(path)
        }
    }

    /// Whether the list shows a file of this name under the chosen filter.
    fn shows_file(&self, name: &str) -> bool {
        self.request.kind != PathKind::Folder
            && self
                .request
                .filters
                .get(self.filter)
                .is_none_or(|f| f.matches(name))
    }

    /// The accept button (or Enter): the path chosen, or `None` with the browser still
    /// open (it walked into a folder, or says what is wrong).
    fn accept(&mut self) -> Option<PathBuf> {
        self.problem = None;
        if let Some(d) = self.selected_dir.take() {
            let dir = self.dir.join(d);
            if self.request.kind == PathKind::Folder {
                return Some(dir);
            }
            self.go_to(dir);
            return None;
        }
        if self.request.kind == PathKind::Folder {
            return Some(self.dir.clone());
        }
        if self.name.trim().is_empty() {
            self.problem = Some("Pick a file or type its name".into());
            return None;
        }
        let path = self.resolve(&self.name);
        if path.is_dir() {
            self.name.clear();
            self.go_to(path);
            return None;
        }
        match self.request.kind {
            PathKind::OpenFile if path.is_file() => Some(path),
            PathKind::OpenFile => {
                self.problem = Some(format!("There is no file {}", path.display()));
                None
            }
            _ => {
                let parent = path.parent().unwrap_or(Path::new("/"));
                if !parent.is_dir() {
                    self.problem = Some(format!("There is no folder {}", parent.display()));
                    None
                } else if path.exists() && self.replace.as_deref() != Some(path.as_path()) {
                    self.replace = Some(path);
                    None
                } else {
                    Some(path)
                }
            }
        }
    }

    /// Draws the browser; `Some` when it closes.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<BrowserOutcome> {
        let mut outcome = None;
        let mut go_to = None;
        let mut accept = false;
        egui::Modal::new(egui::Id::unique("file browser")).show(ctx, |ui| {
            ui.set_width(560.0);
            ui.heading(self.request.title.as_str());
            if let Some(note) = &self.note {
                ui.weak(note.as_str());
            }
            ui.horizontal(|ui| {
                let parent = self.dir.parent().map(Path::to_path_buf);
                if ui
                    .add_enabled(parent.is_some(), egui::Button::new(PARENT))
                    .on_hover_text("The folder this one is in")
                    .clicked()
                {
                    go_to = parent;
                }
                let label = ui.label(FOLDER);
                let field = ui
                    .add(
                        egui::TextEdit::singleline(&mut self.folder_text)
                            .desired_width(f32::INFINITY),
                    )
                    .labelled_by(label.id);
                if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    let dir = self.resolve(&self.folder_text);
                    if dir.is_dir() {
                        go_to = Some(dir);
                    } else {
                        self.problem = Some(format!("There is no folder {}", dir.display()));
                    }
                }
            });
            ui.separator();
            self.entries_ui(ui, &mut go_to, &mut accept);
            ui.separator();
            if self.request.kind != PathKind::Folder {
                if !self.request.filters.is_empty() {
                    self.filter_ui(ui);
                }
                ui.horizontal(|ui| {
                    let label = ui.label(FILE_NAME);
                    let field = ui
                        .add(
                            egui::TextEdit::singleline(&mut self.name).desired_width(f32::INFINITY),
                        )
                        .labelled_by(label.id);
                    if field.changed() {
                        self.selected_dir = None;
                        self.replace = None;
                    }
                    if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                        accept = true;
                    }
                });
            } else {
                ui.label(format!(
                    "{} chooses {}",
                    self.request.accept,
                    self.selected_dir.as_ref().map_or_else(
                        || self.dir.display().to_string(),
                        |d| { self.dir.join(d).display().to_string() }
                    )
                ));
            }
            if let Some(problem) = &self.problem {
                ui.colored_label(ui.visuals().error_fg_color, problem);
            }
            if let Some(path) = &self.replace {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!("{} exists. Replace it?", path.display()),
                );
            }
            ui.horizontal(|ui| {
                let accept_text = if self.replace.is_some() {
                    REPLACE
                } else {
                    self.request.accept.as_str()
                };
                if ui.button(accept_text).clicked() {
                    accept = true;
                }
                if ui.button(CANCEL).clicked() {
                    outcome = Some(BrowserOutcome::Cancelled);
                }
            });
        });
        if ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            outcome = Some(BrowserOutcome::Cancelled);
        }
        if let Some(dir) = go_to {
            self.go_to(dir);
        }
        if accept
            && outcome.is_none()
            && let Some(path) = self.accept()
        {
            outcome = Some(BrowserOutcome::Chosen(path));
        }
        outcome
    }

    fn entries_ui(&mut self, ui: &mut egui::Ui, go_to: &mut Option<PathBuf>, accept: &mut bool) {
        let entries = match &self.entries {
            Ok(entries) => entries.clone(),
            Err(e) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
                return;
            }
        };
        egui::ScrollArea::vertical()
            .id_salt("file browser entries")
            .max_height(320.0)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                let shown: Vec<&Entry> = entries
                    .iter()
                    .filter(|e| e.is_dir || self.shows_file(&e.name))
                    .collect();
                if shown.is_empty() {
                    ui.weak("(empty)");
                }
                for entry in shown {
                    let (text, selected) = if entry.is_dir {
                        (
                            format!("🗀 {}", entry.name),
                            self.selected_dir.as_deref() == Some(entry.name.as_str()),
                        )
                    } else {
                        (format!("🗋 {}", entry.name), self.name == entry.name)
                    };
                    let r = ui.selectable_label(selected, text);
                    if r.double_clicked() {
                        if entry.is_dir {
                            *go_to = Some(self.dir.join(&entry.name));
                        } else {
                            self.name.clone_from(&entry.name);
                            *accept = true;
                        }
                    } else if r.clicked() {
                        self.replace = None;
                        self.problem = None;
                        if entry.is_dir {
                            self.selected_dir = Some(entry.name.clone());
                        } else {
                            self.selected_dir = None;
                            self.name.clone_from(&entry.name);
                        }
                    }
                }
            });
    }

    fn filter_ui(&mut self, ui: &mut egui::Ui) {
        let names: Vec<String> = self
            .request
            .filters
            .iter()
            .map(|f| format!("{} ({})", f.name, f.extensions.join(", ")))
            .chain([ALL_FILES.to_string()])
            .collect();
        ui.horizontal(|ui| {
            let label = ui.label(FILE_TYPE);
            let current = names.get(self.filter).cloned().unwrap_or_default();
            egui::ComboBox::from_id_salt("file browser filter")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for (i, name) in names.iter().enumerate() {
                        ui.selectable_value(&mut self.filter, i, name);
                    }
                })
                .response
                .labelled_by(label.id);
        });
    }
}

/// A folder's entries, folders first, each group by name; hidden ones (`.name`) left out.
fn list_folder(dir: &Path) -> Result<Vec<Entry>, String> {
    let read = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut entries: Vec<Entry> = read
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            // Follows links: a link to a folder is walked into like one.
            let is_dir = e.path().is_dir();
            (!name.starts_with('.')).then_some(Entry { name, is_dir })
        })
        .collect();
    entries.sort_by(|a, b| {
        b.is_dir
            .cmp(&a.is_dir)
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
    });
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file_dialog::PathPurpose;

    fn request(kind: PathKind, dir: &Path) -> FileRequest {
        FileRequest::new(PathPurpose::OpenProject, kind, "Test", "Accept")
            .filter("Anymorph project", &["json"])
            .directory(Some(dir))
    }

    fn folder() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("Sub")).unwrap();
        std::fs::write(dir.path().join("b.json"), "{}").unwrap();
        std::fs::write(dir.path().join("a.glb"), "").unwrap();
        std::fs::write(dir.path().join(".hidden.json"), "").unwrap();
        dir
    }

    #[test]
    fn folders_come_first_and_hidden_files_stay_hidden() {
        let dir = folder();
        let names: Vec<String> = list_folder(dir.path())
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["Sub", "a.glb", "b.json"]);
        let b = FileBrowser::new(request(PathKind::OpenFile, dir.path()));
        assert!(b.shows_file("b.json"));
        assert!(!b.shows_file("a.glb"), "the filter lets a rig through");
    }

    #[test]
    fn open_accepts_an_existing_file_and_walks_into_a_typed_folder() {
        let dir = folder();
        let mut b = FileBrowser::new(request(PathKind::OpenFile, dir.path()));
        b.name = "missing.json".into();
        assert_eq!(b.accept(), None);
        assert!(b.problem.as_deref().unwrap().contains("missing.json"));
        b.name = "Sub".into();
        assert_eq!(b.accept(), None);
        assert_eq!(b.directory(), dir.path().join("Sub"));
        b.name = "../b.json".into();
        assert_eq!(b.accept(), Some(dir.path().join("Sub/../b.json")));
    }

    #[test]
    fn save_asks_before_replacing_and_needs_the_folder() {
        let dir = folder();
        let mut b = FileBrowser::new(request(PathKind::SaveFile, dir.path()));
        b.name = "b.json".into();
        assert_eq!(b.accept(), None, "replaced without asking");
        assert!(b.replace.is_some());
        assert_eq!(b.accept(), Some(dir.path().join("b.json")));
        b.name = "nowhere/x.json".into();
        assert_eq!(b.accept(), None);
        assert!(b.problem.as_deref().unwrap().contains("nowhere"));
        b.name = "new.json".into();
        assert_eq!(b.accept(), Some(dir.path().join("new.json")));
    }

    #[test]
    fn a_folder_pick_takes_the_selected_folder_or_the_one_shown() {
        let dir = folder();
        let mut b = FileBrowser::new(request(PathKind::Folder, dir.path()));
        b.selected_dir = Some("Sub".into());
        assert_eq!(b.accept(), Some(dir.path().join("Sub")));
        assert_eq!(b.accept(), Some(dir.path().to_path_buf()));
    }
}
