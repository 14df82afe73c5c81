//! Every file dialog of the editor works with no system dialog at all (no desktop portal,
//! no zenity): the built-in browser takes the request, the animator picks or types a path,
//! and the action happens — a project opened or saved, a creature added, imported or saved,
//! a clip baked. Driven with egui_kittest on the real app, the built-in browser forced.
#![cfg(feature = "editor")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod editor_common;

use anymorph::editor::AppOptions;
use anymorph::editor::command::{Command, Selection};
use anymorph::editor::document::Document;
use anymorph::editor::file_browser::{CANCEL, FILE_NAME, FOLDER, PARENT, REPLACE};
use anymorph::editor::file_dialog::{PathPurpose, SystemDialogs};
use anymorph::editor::panels::channels::ADD_CHANNEL;
use editor_common::{editor_with, test_options};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};

type App = anymorph::editor::AnymorphApp;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn editor() -> Harness<'static, App> {
    editor_with(test_options())
}

/// Runs a command as its menu item or shortcut would, and lets the browser open.
fn ask(h: &mut Harness<'_, App>, command: Command) {
    h.state_mut().run_command(command);
    h.run();
}

/// Replaces what a browser field holds with `text`, as a person would: click, select all,
/// type.
fn type_into(h: &mut Harness<'_, App>, field: &str, text: &str) {
    h.get_by_label(field).click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label(field).type_text(text);
    h.run();
}

/// Shows `dir` in the browser by typing it into the folder field.
fn go_to_folder(h: &mut Harness<'_, App>, dir: &Path) {
    type_into(h, FOLDER, &dir.display().to_string());
    h.key_press(Key::Enter);
    h.run();
}

fn click(h: &mut Harness<'_, App>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

fn browser_purpose(h: &Harness<'_, App>) -> Option<PathPurpose> {
    h.state().file_browser().map(|r| r.purpose.clone())
}

/// A copy of the sample project (its clips beside it, creatures where they are).
fn project_copy(path: &Path) -> PathBuf {
    let mut doc = Document::open(&root().join("assets/sample.project.json")).unwrap();
    doc.save_as(path).unwrap();
    path.to_path_buf()
}

#[test]
fn open_project_from_the_file_menu() {
    let dir = tempfile::tempdir().unwrap();
    let project = project_copy(&dir.path().join("walk.project.json"));
    let mut h = editor();
    click(&mut h, "File");
    h.get_by_label_contains("Open Project…").click();
    h.run();
    assert_eq!(browser_purpose(&h), Some(PathPurpose::OpenProject));
    go_to_folder(&mut h, dir.path());
    // The clips folder is listed first; a file is picked with a click.
    assert!(h.query_by_label("🗀 clips").is_some());
    click(&mut h, "🗋 walk.project.json");
    click(&mut h, "Open Project");
    assert_eq!(browser_purpose(&h), None, "the browser stayed open");
    assert_eq!(
        h.state().document().path.as_deref(),
        Some(project.as_path())
    );
}

#[test]
fn save_as_writes_where_the_animator_says() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor();
    click(&mut h, ADD_CHANNEL);
    ask(&mut h, Command::SaveProjectAs);
    go_to_folder(&mut h, dir.path());
    type_into(&mut h, FILE_NAME, "saved.project.json");
    click(&mut h, "Save Project");
    let saved = dir.path().join("saved.project.json");
    assert!(saved.exists());
    assert_eq!(h.state().document().path.as_deref(), Some(saved.as_path()));
    assert!(!h.state().title().starts_with('●'), "still unsaved");

    // Saving over it asks first.
    ask(&mut h, Command::SaveProjectAs);
    type_into(&mut h, FILE_NAME, &saved.display().to_string());
    click(&mut h, "Save Project");
    assert!(browser_purpose(&h).is_some(), "replaced without asking");
    click(&mut h, REPLACE);
    assert_eq!(browser_purpose(&h), None);
}

#[test]
fn a_new_project_can_be_saved() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor();
    ask(&mut h, Command::NewProject);
    click(&mut h, ADD_CHANNEL);
    // Ctrl+S on a project that was never saved asks where.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(
        browser_purpose(&h),
        Some(PathPurpose::SaveProject { then_close: false })
    );
    let path = dir.path().join("fresh/fresh.project.json");
    std::fs::create_dir(path.parent().unwrap()).unwrap();
    type_into(&mut h, FILE_NAME, &path.display().to_string());
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(browser_purpose(&h), None);
    let saved = Document::open(&path).unwrap();
    assert_eq!(saved.clips.len(), 1);
    assert_eq!(saved.clips[0].channels.len(), 1);
}

#[test]
fn add_creature_from_a_file() {
    let mut h = editor();
    let before = h.state().document().roster.len();
    ask(&mut h, Command::AddCreatureFromFile);
    assert_eq!(browser_purpose(&h), Some(PathPurpose::AddCreature));
    go_to_folder(&mut h, &root().join("sample_creatures"));
    click(&mut h, "🗋 octopod.creature.json");
    click(&mut h, "Add Creature");
    let roster = &h.state().document().roster;
    assert_eq!(roster.len(), before + 1);
    assert_eq!(roster[before].creature.name(), "octopod");
}

#[test]
fn import_a_gltf_rig() {
    let mut h = editor();
    let before = h.state().document().roster.len();
    ask(&mut h, Command::ImportCreature);
    let rig = root().join("tests/fixtures/gltf/spider.glb");
    type_into(&mut h, FILE_NAME, &rig.display().to_string());
    click(&mut h, "Import Rig");
    let roster = &h.state().document().roster;
    assert_eq!(roster.len(), before + 1);
    assert_eq!(roster[before].path.as_deref(), Some(rig.as_path()));
}

#[test]
fn bake_into_a_chosen_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    let mut h = editor();
    ask(&mut h, Command::BakeGltf);
    assert_eq!(browser_purpose(&h), Some(PathPurpose::Bake));
    go_to_folder(&mut h, &dir.path().join("out"));
    // Up and back down by clicks, as a person walks folders.
    click(&mut h, PARENT);
    click(&mut h, "🗀 out");
    click(&mut h, "Bake Here");
    assert_eq!(browser_purpose(&h), None);
    let baked: Vec<_> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !baked.is_empty() && baked.iter().all(|n| n.ends_with(".glb")),
        "{baked:?}; status: {:?}",
        h.state().message()
    );
}

#[test]
fn save_a_creature_as_a_new_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor();
    let name = h.state().document().roster[0].creature.name().to_string();
    ask(
        &mut h,
        Command::Select(Some(Selection {
            creature: 0,
            body: None,
        })),
    );
    ask(&mut h, Command::SaveCreatureAs);
    assert_eq!(browser_purpose(&h), Some(PathPurpose::SaveCreature(0)));
    go_to_folder(&mut h, dir.path());
    // The name offered is the creature's.
    click(&mut h, "Save Creature");
    let path = dir.path().join(format!("{name}.creature.json"));
    assert!(path.exists(), "status: {:?}", h.state().message());
    assert_eq!(
        h.state().document().roster[0].path.as_deref(),
        Some(path.as_path())
    );
}

#[test]
fn cancel_and_escape_do_nothing() {
    let mut h = editor();
    let path = h.state().document().path.clone();
    ask(&mut h, Command::OpenProject);
    click(&mut h, CANCEL);
    assert_eq!(browser_purpose(&h), None);
    ask(&mut h, Command::OpenProject);
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(browser_purpose(&h), None);
    assert_eq!(h.state().document().path, path);
}

#[test]
fn without_a_system_dialog_the_animator_is_told_once() {
    let dir = tempfile::tempdir().unwrap();
    let project = project_copy(&dir.path().join("p.project.json"));
    // The editor's own choice (not forced), on a machine with no system dialog.
    let mut h = editor_with(AppOptions {
        file_dialog: Default::default(),
        ..test_options()
    });
    h.state_mut()
        .set_system_dialogs(SystemDialogs::unavailable("no D-Bus session bus"));
    ask(&mut h, Command::OpenProject);
    let message = h.state().message().unwrap_or_default().to_string();
    assert!(
        message.contains("System file dialog unavailable")
            && message.contains("no D-Bus session bus")
            && message.contains("built-in file browser"),
        "{message}"
    );
    type_into(&mut h, FILE_NAME, &project.display().to_string());
    click(&mut h, "Open Project");
    assert_eq!(
        h.state().document().path.as_deref(),
        Some(project.as_path())
    );
    // Once is enough.
    ask(&mut h, Command::OpenProject);
    assert!(browser_purpose(&h).is_some());
    assert_eq!(h.state().message(), None);
}

#[test]
fn closing_an_unsaved_new_project_saves_it_where_asked_then_closes() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor();
    ask(&mut h, Command::NewProject);
    click(&mut h, ADD_CHANNEL);
    // The window manager's close button.
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    h.run();
    click(&mut h, "Save");
    assert_eq!(
        browser_purpose(&h),
        Some(PathPurpose::SaveProject { then_close: true })
    );
    let path = dir.path().join("closing.project.json");
    type_into(&mut h, FILE_NAME, &path.display().to_string());
    h.get_by_label("Save Project").click();
    h.step();
    assert!(path.exists());
    assert!(!h.state().title().starts_with('●'));
    let asked_to_close = h.output().viewport_output[&egui::ViewportId::ROOT]
        .commands
        .contains(&egui::ViewportCommand::Close);
    assert!(asked_to_close, "saved but the window stays open");
}
