//! Work is never lost (egui_kittest on the real app): an edit followed by idling reaches the
//! recovery file within the autosave interval with no further input, and each project's
//! unsaved work is offered back only when that project is opened — named, with what it
//! holds and how old it is.
#![cfg(feature = "editor")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod editor_common;

use anymorph::editor::app::AUTOSAVE_SECS;
use anymorph::editor::command::Command;
use anymorph::editor::document::Document;
use anymorph::editor::panels::channels::ADD_CHANNEL;
use anymorph::editor::{AppOptions, RECOVER, recovery};
use editor_common::editor_with;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use std::time::Duration;

type App = anymorph::editor::AnymorphApp;

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sample.project.json")
}

/// A copy of the sample project at `path` (its clips beside it, creatures where they are).
fn project_copy(path: &Path) -> PathBuf {
    let mut doc = Document::open(&sample()).unwrap();
    doc.save_as(path).unwrap();
    path.to_path_buf()
}

fn options(project: &Path, recovery: &Path) -> AppOptions {
    AppOptions {
        project: project.to_path_buf(),
        recovery_dir: Some(recovery.to_path_buf()),
        ..editor_common::test_options()
    }
}

fn channels(h: &Harness<'_, App>) -> usize {
    h.state().document().clip().unwrap().channels.len()
}

/// The egui clock the editor sees, set by the test (seconds).
fn set_clock(h: &mut Harness<'_, App>, secs: f64) {
    h.input_mut().time = Some(secs);
}

/// When the editor asked to be drawn again, if at all (`None`: only on input).
fn next_frame_in(h: &Harness<'_, App>) -> Option<Duration> {
    let delay = h.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
    (delay < Duration::from_secs(24 * 3600)).then_some(delay)
}

/// Channels of the active clip as the recovery file holds them.
fn channels_on_disk(file: &Path) -> usize {
    let doc = recovery::read(file).unwrap();
    doc.clip().unwrap().channels.len()
}

#[test]
fn an_edit_followed_by_idling_is_autosaved_within_ten_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor_with(options(&sample(), dir.path()));
    set_clock(&mut h, 100.0);
    h.run();
    let file = h.state().recovery_file().unwrap();
    h.get_by_label(ADD_CHANNEL).click();
    h.run();
    // The first edit after a quiet spell goes to disk at once.
    assert_eq!(channels_on_disk(&file), channels(&h));

    // A second edit a second later; then the animator stops touching anything.
    set_clock(&mut h, 101.0);
    h.get_by_label(ADD_CHANNEL).click();
    h.run();
    let edited = channels(&h);
    assert_eq!(
        channels_on_disk(&file),
        edited - 1,
        "written within the interval"
    );
    // Idle: frames come only when the editor asked for one, as eframe draws them.
    let mut now = 101.0;
    for _ in 0..100 {
        if channels_on_disk(&file) == edited {
            break;
        }
        let wait = next_frame_in(&h).expect("the editor went idle with unsaved work not on disk");
        now += wait.as_secs_f64();
        set_clock(&mut h, now);
        h.step();
    }
    assert_eq!(channels_on_disk(&file), edited);
    let lost_secs = now - 101.0;
    assert!(
        lost_secs <= 10.0,
        "the edit was on disk only {lost_secs} s later"
    );
    assert!(
        lost_secs <= f64::from(AUTOSAVE_SECS) + 0.1,
        "{lost_secs} s, not the {AUTOSAVE_SECS} s promised"
    );
    h.run();
    assert_eq!(
        next_frame_in(&h),
        None,
        "nothing left to write, nothing to wake for"
    );
}

#[test]
fn work_on_one_project_is_offered_only_with_that_project() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = dir.path().join("recovery");
    let a = project_copy(&dir.path().join("a/walk.project.json"));
    // The same file name in another folder: another project.
    let b = project_copy(&dir.path().join("b/walk.project.json"));
    let edited = {
        let mut h = editor_with(options(&a, &recovery));
        h.get_by_label(ADD_CHANNEL).click();
        h.run();
        channels(&h)
        // Dropped without saving: a crash, as far as the files know.
    };

    let mut h = editor_with(options(&b, &recovery));
    assert!(!h.state().recovery_offered(), "B was offered A's work");
    assert_eq!(h.state().document().path.as_deref(), Some(b.as_path()));

    h.state_mut()
        .run_command(Command::OpenProjectPath(a.clone()));
    h.run();
    let text = h
        .state()
        .recovery_offer_text()
        .expect("opening A offers A's work")
        .to_string();
    assert!(text.contains(&a.display().to_string()), "{text}");
    let clips = h.state().document().clips.len();
    assert!(text.contains(&format!("{clips} clips")), "{text}");
    assert!(text.contains("1 unsaved edit"), "{text}");
    assert!(
        text.contains(" s ago") || text.contains("min ago"),
        "{text}"
    );
    h.get_by_label(RECOVER).click();
    h.run();
    assert!(!h.state().recovery_offered());
    assert_eq!(h.state().document().path.as_deref(), Some(a.as_path()));
    assert_eq!(channels(&h), edited);

    // Saving A clears its recovery file; B never had one.
    h.state_mut().run_command(Command::SaveProject);
    h.run();
    assert!(!h.state().recovery_file().unwrap().exists());
    let leftovers: Vec<_> = std::fs::read_dir(&recovery).unwrap().collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn leaving_a_project_with_unsaved_work_autosaves_it_first() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = dir.path().join("recovery");
    let a = project_copy(&dir.path().join("a/a.project.json"));
    let b = project_copy(&dir.path().join("b/b.project.json"));
    let mut h = editor_with(AppOptions {
        // No timer write after the first: only leaving the project can save the rest.
        autosave_secs: 3600.0,
        ..options(&a, &recovery)
    });
    let file = h.state().recovery_file().unwrap();
    h.get_by_label(ADD_CHANNEL).click();
    h.run();
    h.get_by_label(ADD_CHANNEL).click();
    h.run();
    let edited = channels(&h);
    assert_eq!(channels_on_disk(&file), edited - 1);
    h.state_mut().run_command(Command::OpenProjectPath(b));
    h.run();
    assert!(!h.state().recovery_offered());
    assert_eq!(
        channels_on_disk(&file),
        edited,
        "the last edit on A was lost"
    );
}

#[test]
fn untitled_work_is_offered_at_start_and_saving_it_clears_it() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = dir.path().join("recovery");
    {
        let mut h = editor_with(options(&sample(), &recovery));
        h.state_mut().run_command(Command::NewProject);
        h.run();
        h.get_by_label(ADD_CHANNEL).click();
        h.run();
        assert!(recovery::file_for(&recovery, None).exists());
    }
    let mut h = editor_with(options(&sample(), &recovery));
    let text = h.state().recovery_offer_text().unwrap().to_string();
    assert!(text.contains("untitled project"), "{text}");
    h.get_by_label(RECOVER).click();
    h.run();
    assert_eq!(h.state().document().path, None);
    assert_eq!(channels(&h), 1);
    let saved = dir.path().join("new/new.project.json");
    h.state_mut()
        .run_command(Command::SaveProjectTo(saved.clone()));
    h.run();
    assert!(saved.exists());
    assert!(
        !recovery::file_for(&recovery, None).exists(),
        "the untitled recovery file outlived the save"
    );
}
