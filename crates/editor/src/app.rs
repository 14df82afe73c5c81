//! The editor application: one struct holding the persisted preferences, the open document
//! and the transient state beside them. Each frame: `logic` advances playback and runs the
//! preview; `ui` lays out the panels, which push commands; commands are applied last.

use crate::autosave::{AutosaveStep, AutosaveTimer};
use crate::bench::BenchRecorder;
use crate::command::{Command, CommandQueue, Selection};
use crate::document::{Content, Document};
use crate::file_browser::{BrowserOutcome, FileBrowser};
use crate::file_dialog::{
    FileDialogChoice, FileRequest, PathKind, PathPurpose, Route, SystemDialogs,
};
use crate::history::{DocEdit, History};
use crate::panels::channels::ChannelPanel;
use crate::panels::help;
use crate::panels::inspector::InspectorPanel;
use crate::panels::locomotion::{LocomotionInputs, locomotion_ui};
use crate::posing::{self, ActiveBody, Dofs};
use crate::prefs::GizmoTool;
use crate::recovery;
use crate::viewport::gizmo::GizmoTarget;
use anymorph_runtime::clip::{Channel, Clip};
use anymorph_runtime::movement::{MovementMode, RestBody, Surroundings};

use crate::mode_compare::ModeComparison;
use crate::panels::menu_bar::{ToggleState, menu_bar_ui};
use crate::panels::roster::{RosterPanel, sample_name};
use crate::panels::status_bar::{FrameStats, Severity, StatusInputs, status_bar_ui};
use crate::panels::timeline::TimelinePanel;
use crate::playback::Playback;
use crate::prefs::Preferences;
use crate::preview::Preview;
use crate::viewport::{self, FrameRequest, ViewportInputs, ViewportPanel};
use crate::walk::WalkView;
use anymorph_runtime::pipeline::clip_local_time;
use anymorph_runtime::pose::BodyPose;
use anymorph_runtime::query::ContextQuery;
use std::path::{Path, PathBuf};
use std::time::Instant;

mod commands;
mod footfalls;
mod windows;

/// The key panel's tabs, shared with tests.
pub const DOPE_SHEET: &str = "Dope Sheet";
pub const CURVES: &str = "Curves";

/// The recovery offer's button, shared with tests.
pub const RECOVER: &str = "Recover";

/// The longest an edit waits to be autosaved: the work a crash can lose.
pub const AUTOSAVE_SECS: f32 = 5.0;

/// Where the editor starts.
#[derive(Clone, Debug)]
pub struct AppOptions {
    /// The project to open.
    pub project: PathBuf,
    /// Creature files offered by the roster's "Add" menu.
    pub sample_creatures: PathBuf,
    /// Read preferences from eframe storage (off in tests, so they start the same).
    pub restore_preferences: bool,
    /// The folder of the recovery files (one per project) where unsaved work is autosaved;
    /// `None` turns autosave off.
    pub recovery_dir: Option<PathBuf>,
    /// The longest an edit waits to be autosaved, in seconds (and the shortest time
    /// between two autosaves): at most this much work is lost to a crash.
    pub autosave_secs: f32,
    /// The system's file dialogs, the built-in browser, or the first where it can open.
    pub file_dialog: FileDialogChoice,
    /// Start playing the active clip on every creature at once (off in tests, so they start
    /// from frame 0).
    pub play_on_open: bool,
    /// The host clears the window to the panels' colour before each frame, as eframe does
    /// through [`eframe::App::clear_color`], so the docked panels draw no fill of their own
    /// (see [`panel_frame`]). Off by default: egui_kittest clears to transparent.
    pub clears_to_panel_colour: bool,
}

impl AppOptions {
    /// The bundled sample project and creatures.
    pub fn sample() -> Self {
        let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        AppOptions {
            project: root.join("assets/sample.project.json"),
            sample_creatures: root.join("sample_creatures"),
            restore_preferences: true,
            recovery_dir: eframe::storage_dir("anymorph"),
            autosave_secs: AUTOSAVE_SECS,
            file_dialog: FileDialogChoice::from_env(),
            play_on_open: true,
            clears_to_panel_colour: false,
        }
    }
}

/// A recovery file found for the open project, offered to the animator.
#[derive(Clone, Debug)]
struct RecoveryOffer {
    file: PathBuf,
    /// Whose work it is, what it holds, how old it is.
    text: String,
}

/// The Anymorph editor.
pub struct AnymorphApp {
    /// Persisted between runs.
    prefs: Preferences,
    /// See [`AppOptions::clears_to_panel_colour`].
    clears_to_panel_colour: bool,
    doc: Document,
    preview: Preview,
    playback: Playback,
    selection: Option<Selection>,
    active_channel: Option<usize>,
    commands: CommandQueue,
    viewport: ViewportPanel,
    channels: ChannelPanel,
    roster: RosterPanel,
    timeline: TimelinePanel,
    show_shortcuts: bool,
    show_about: bool,
    message: Option<(String, Severity)>,
    stats: FrameStats,
    last_frame: Option<Instant>,
    bench: Option<BenchRecorder>,
    /// The graphics adapter, for the bench report.
    adapter: String,
    history: History,
    inspector: InspectorPanel,
    show_history: bool,
    /// Unsaved work found for the project just opened, waiting for the animator to recover
    /// or discard it.
    recovery_offer: Option<RecoveryOffer>,
    recovery_dir: Option<PathBuf>,
    /// When to write the document's recovery file next.
    autosave: AutosaveTimer<(usize, crate::document::Revisions)>,
    /// egui's clock at the last frame, seconds (the autosave timer's time).
    clock_secs: f64,
    /// A copied generalized pose (Ctrl+C / Ctrl+V).
    clipboard: Option<BodyPose>,
    title: String,
    validation: crate::panels::validation::ValidationPanel,
    show_validation: bool,
    dope_sheet: crate::panels::dope_sheet::DopeSheet,
    curve_editor: crate::panels::curve_editor::CurveEditor,
    /// Where the key panel was last drawn: its own Delete / copy / paste win there.
    keys_rect: Option<egui::Rect>,
    validation_config: anymorph_validation::ValidationConfig,
    /// Each roster creature's skinned mesh.
    meshes: crate::meshes::CreatureMeshes,
    caps: crate::panels::caps::CapsPanel,
    footfall: crate::panels::footfall::FootfallPanel,
    /// Whether the system's file dialog can open here.
    file_dialogs: SystemDialogs,
    /// The built-in file browser, while it answers a request.
    file_browser: Option<FileBrowser>,
    /// The animator was told the system file dialog cannot open (told once).
    told_no_system_dialog: bool,
    /// The window was asked to close with unsaved edits: ask first.
    confirm_close: bool,
    /// The animator chose: close now (discarding unsaved edits if `discard`).
    close_decided: Option<bool>,
}

impl AnymorphApp {
    pub fn new(cc: &eframe::CreationContext<'_>, options: AppOptions) -> Self {
        let prefs = if options.restore_preferences {
            cc.storage
                .and_then(|s| eframe::get_value::<Preferences>(s, eframe::APP_KEY))
                .unwrap_or_default()
        } else {
            Preferences::default()
        };
        let gpu_ready = viewport::install(cc.wgpu_render_state.as_ref());
        let mut app = AnymorphApp {
            prefs,
            clears_to_panel_colour: false,
            doc: Document::default(),
            preview: Preview::default(),
            playback: Playback::default(),
            selection: None,
            active_channel: None,
            commands: CommandQueue::default(),
            viewport: ViewportPanel::new(gpu_ready),
            channels: ChannelPanel::default(),
            roster: RosterPanel {
                samples: list_creature_files(&options.sample_creatures),
                ..Default::default()
            },
            timeline: TimelinePanel,
            show_shortcuts: false,
            show_about: false,
            message: None,
            stats: FrameStats::default(),
            last_frame: None,
            bench: None,
            adapter: cc.wgpu_render_state.as_ref().map_or_else(
                || "no wgpu".to_string(),
                |rs| {
                    let info = rs.adapter.get_info();
                    format!("{} ({:?})", info.name, info.backend)
                },
            ),
            history: History::default(),
            inspector: InspectorPanel::default(),
            show_history: false,
            recovery_offer: None,
            recovery_dir: options.recovery_dir.clone(),
            autosave: AutosaveTimer::new(options.autosave_secs),
            clock_secs: 0.0,
            clipboard: None,
            title: String::new(),
            meshes: Default::default(),
            caps: Default::default(),
            footfall: Default::default(),
            file_dialogs: SystemDialogs::new(options.file_dialog),
            file_browser: None,
            told_no_system_dialog: false,
            confirm_close: false,
            close_decided: None,
            validation: Default::default(),
            show_validation: false,
            dope_sheet: Default::default(),
            curve_editor: Default::default(),
            keys_rect: None,
            validation_config: anymorph_validation::ValidationConfig::load(
                &Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
                    .join("assets/validation.json"),
            )
            .unwrap_or_default(),
        };
        if let Some(dir) = &app.recovery_dir {
            recovery::adopt_legacy(dir);
        }
        app.clears_to_panel_colour = options.clears_to_panel_colour;
        app.open(&options.project);
        // An animator opening a project sees its clip move on every creature.
        app.playback.playing = options.play_on_open && !app.doc.clips.is_empty();
        if app.recovery_offer.is_none() {
            // Work on a project never saved belongs to no project: offer it at start.
            app.offer_recovery(None);
        }
        app
    }

    /// Queues a command as a menu or shortcut would (tests, tools).
    pub fn run_command(&mut self, command: Command) {
        self.commands.push(command);
    }

    /// The gizmo's centre on screen and the screen direction of each of its axes.
    pub fn gizmo_on_screen(&self) -> Option<(egui::Pos2, [egui::Vec2; 3])> {
        let target = self.gizmo_target()?;
        let centre = self.viewport.world_to_screen(target.pose.position)?;
        let r = if target.local {
            target.pose.rotation
        } else {
            glam::Quat::IDENTITY
        };
        let mut dirs = [egui::Vec2::ZERO; 3];
        for (i, axis) in [glam::Vec3::X, glam::Vec3::Y, glam::Vec3::Z]
            .iter()
            .enumerate()
        {
            let p = self
                .viewport
                .world_to_screen(target.pose.position + r * *axis * 0.01)?;
            dirs[i] = (p - centre).normalized();
        }
        Some((centre, dirs))
    }

    /// Where the curve editor drew a key last frame (tests drive it by clicking there).
    pub fn curve_key_on_screen(
        &self,
        point: &crate::panels::curve_edit::SelectedKey,
    ) -> Option<egui::Pos2> {
        use crate::panels::curve_editor::CurveEditorInputs;
        let clip = self.doc.clip()?;
        self.curve_editor.key_screen_pos(
            &CurveEditorInputs {
                clip,
                active_channel: self.active_channel,
                time_secs: clip_local_time(clip, self.playback.time_secs),
                specialize: self.active_body().map(|a| a.frame),
            },
            point,
        )
    }

    /// The undo record, for tests and the history list.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Whether a recovery offer is showing.
    pub fn recovery_offered(&self) -> bool {
        self.recovery_offer.is_some()
    }

    /// The recovery offer's text, if one is showing.
    pub fn recovery_offer_text(&self) -> Option<&str> {
        self.recovery_offer.as_ref().map(|o| o.text.as_str())
    }

    /// Where the open document's unsaved work is autosaved (`None`: autosave is off).
    pub fn recovery_file(&self) -> Option<PathBuf> {
        self.recovery_file_for(self.doc.path.as_deref())
    }

    fn recovery_file_for(&self, project: Option<&Path>) -> Option<PathBuf> {
        let dir = self.recovery_dir.as_deref()?;
        Some(recovery::file_for(dir, project))
    }

    /// Offers the recovery file of `project` (`None`: the untitled one) if there is one
    /// that belongs to it.
    fn offer_recovery(&mut self, project: Option<&Path>) {
        let Some(file) = self.recovery_file_for(project).filter(|f| f.exists()) else {
            return;
        };
        let text = match recovery::summary(&file) {
            Ok(s) => {
                let belongs = match (&s.project, project) {
                    (Some(a), Some(b)) => recovery::same_project(a, b),
                    (None, None) => true,
                    _ => false,
                };
                if !belongs {
                    log::warn!(
                        "{} holds work on {:?}, not {:?}: not offered",
                        file.display(),
                        s.project,
                        project
                    );
                    return;
                }
                s.describe(std::time::SystemTime::now())
            }
            Err(e) => format!("An autosave of this project cannot be read: {e}"),
        };
        log::info!("found unsaved work in {}", file.display());
        self.recovery_offer = Some(RecoveryOffer { file, text });
    }

    /// The window title: the project's name, with a dot while there are unsaved edits.
    pub fn title(&self) -> String {
        format!(
            "{}{} — Anymorph",
            if self.history.is_dirty() { "● " } else { "" },
            self.doc.name
        )
    }

    /// The body the gizmo poses, if any.
    pub fn active_body(&self) -> Option<ActiveBody> {
        ActiveBody::find(
            &self.doc,
            &self.preview,
            self.selection,
            self.active_channel,
        )
    }

    /// Clip-local time of the playhead, on the clip's frame grid: where keys go.
    pub fn key_time(&self) -> f32 {
        self.doc.clip().map_or(0.0, |clip| {
            posing::snap_to_frame(clip, clip_local_time(clip, self.playback.time_secs))
        })
    }

    /// Where the gizmo sits: the active body's goal now, world space.
    fn gizmo_target(&self) -> Option<GizmoTarget> {
        if self.playback.playing {
            return None;
        }
        // Walking the path, the body is shown where the walk took it, away from the slot
        // the gizmo's pose is keyed in; on the treadmill the slot is the creature's frame.
        if self.preview.is_walking() && self.prefs.locomotion.view == WalkView::Path {
            return None;
        }
        let active = self.active_body()?;
        let clip = self.doc.shown_clip()?;
        let channel = clip.channels.get(self.active_channel?)?;
        let t = clip_local_time(clip, self.playback.time_secs);
        let mut pose = active.specialized(channel, t);
        pose.position += active.offset;
        Some(GizmoTarget {
            pose,
            tool: self.prefs.posing.tool,
            local: self.prefs.posing.local,
        })
    }

    /// Applies an edited copy of the active clip as one undo step (or part of a drag's).
    fn edit_clip(&mut self, mut clip: Clip, label: &str, drag: Option<u64>) {
        let index = self.doc.active_clip;
        let Some(before) = self.doc.clips.get(index).cloned() else {
            return;
        };
        if let Err(e) = clip.validate() {
            self.message = Some((format!("{label}: {e}"), Severity::Error));
            return;
        }
        if clip == before {
            return;
        }
        self.history.apply(
            &mut self.doc,
            DocEdit::clip(label, index, before, clip).in_drag(drag),
        );
    }

    /// Applies a change to the roster or targets as one undo step.
    fn edit_content(&mut self, label: &str, drag: Option<u64>, change: impl FnOnce(&mut Content)) {
        let before = self.doc.content();
        let mut after = before.clone();
        change(&mut after);
        self.history.apply(
            &mut self.doc,
            DocEdit::content(label, before, after).in_drag(drag),
        );
    }

    /// The body and surroundings a mode change keeps the curve of (paper 3.3): the active
    /// body, or else the channel's first body on the first creature it plays on.
    fn remap_context(&self, channel: usize) -> Option<(RestBody, Surroundings, bool)> {
        let (ci, body) = self
            .active_body()
            .map(|a| (a.creature, a.body))
            .or_else(|| {
                self.preview
                    .creatures
                    .iter()
                    .enumerate()
                    .find_map(|(i, p)| {
                        let (_, b) = p
                            .pipeline
                            .as_ref()?
                            .plan()
                            .tracks()
                            .find(|&(c, _)| c == channel)?;
                        Some((i, b))
                    })
            })?;
        let ch = self.doc.clip()?.channels.get(channel)?;
        posing::frame_inputs(&self.doc, ci, ch, body)
    }

    fn set_channel_mode(&mut self, channel: usize, mode: MovementMode) {
        let Some(mut clip) = self.doc.clip().cloned() else {
            return;
        };
        let old_clip = clip.clone();
        let revision = self.doc.revisions.clip;
        let context = self.remap_context(channel);
        let Some(ch) = clip.channels.get_mut(channel) else {
            return;
        };
        match context {
            Some((rest, around, mirrored)) => {
                if let Err(e) = ch.remap_mode(mode, &rest, &around, mirrored) {
                    self.message = Some((format!("Cannot remap the keys: {e}"), Severity::Error));
                    return;
                }
            }
            // No creature plays the channel: nothing to keep in place.
            None => ch.mode = mode,
        }
        self.edit_clip(clip, "Set movement mode", None);
        if self.doc.revisions.clip != revision {
            self.preview.mode_comparison =
                Some(ModeComparison::new(&self.doc, old_clip, self.clock_secs));
        }
    }

    /// The gizmo moved the active body: generalize its pose through the body's `G` and key
    /// it (auto-key) or show it until S keys it.
    fn pose_active(&mut self, world: BodyPose, drag: u64) {
        let (Some(active), Some(channel)) = (self.active_body(), self.active_channel) else {
            return;
        };
        let qs = BodyPose {
            position: world.position - active.offset,
            rotation: world.rotation,
        };
        let qg = active.frame.generalize(qs);
        let t = self.key_time();
        let dofs = match self.prefs.posing.tool {
            GizmoTool::Translate => Dofs {
                position: true,
                rotation: false,
            },
            GizmoTool::Rotate => Dofs {
                position: false,
                rotation: true,
            },
        };
        let Some(base) = self.doc.pending().or(self.doc.clip()) else {
            return;
        };
        let Some(posed) = posing::key_pose(base, channel, t, qg, dofs) else {
            return;
        };
        if self.prefs.posing.auto_key {
            self.edit_clip(posed, "Pose", Some(drag));
        } else {
            self.doc.set_pending(Some(posed));
        }
    }

    fn set_key(&mut self) {
        let Some(channel) = self.active_channel else {
            self.message = Some(("Pick a channel to key".into(), Severity::Info));
            return;
        };
        if let Some(pending) = self.doc.pending().cloned() {
            self.edit_clip(pending, "Set key", None);
            return;
        }
        let active = self.active_body();
        let t = self.key_time();
        if let Some(clip) = self
            .doc
            .clip()
            .and_then(|c| posing::key_current(c, channel, t, active.as_ref()))
        {
            self.edit_clip(clip, "Set key", None);
        }
    }

    /// One GLB per roster creature the clip plays on, in its chosen variant, through the
    /// runtime's player (the same bake as `anymorph bake`).
    fn bake_to(&mut self, dir: &Path) {
        use anymorph_io::gltf::{BakeJob, bake_clip_for_creatures};
        let Some(clip) = self.doc.clip() else {
            return;
        };
        let clip = std::sync::Arc::new(clip.clone());
        let jobs: Vec<BakeJob> = self
            .doc
            .roster
            .iter()
            .zip(&self.preview.creatures)
            .filter(|(_, p)| p.binds())
            .map(|(e, _)| BakeJob {
                creature: &e.creature,
                mesh: None,
                variants: vec![e.variant],
                out: dir.join(format!("{}_{}.glb", clip.name, e.creature.name())),
            })
            .collect();
        let results = bake_clip_for_creatures(&clip, &jobs, clip.fps);
        let failed: Vec<String> = results
            .iter()
            .filter_map(|r| r.as_ref().err().map(|e| e.to_string()))
            .collect();
        self.message = Some(if failed.is_empty() {
            (
                format!("Baked {} file(s) into {}", jobs.len(), dir.display()),
                Severity::Info,
            )
        } else {
            (failed.join("; "), Severity::Error)
        });
    }

    fn save_to(&mut self, path: &Path) {
        // Saving an untitled project (or to a new place) leaves the old recovery file
        // behind unless it goes now.
        let before = self.recovery_file();
        match self.doc.save_as(path) {
            Ok(()) => {
                self.history.mark_saved();
                self.prefs.remember(path);
                if let Some(f) = before {
                    remove_file_if_any(&f);
                }
                self.remove_recovery();
                self.message = Some((format!("Saved {}", path.display()), Severity::Info));
            }
            Err(e) => {
                log::error!("{e}");
                self.message = Some((e.to_string(), Severity::Error));
            }
        }
    }

    fn remove_recovery(&mut self) {
        if let Some(f) = self.recovery_file() {
            remove_file_if_any(&f);
        }
        self.autosave.reset();
    }

    /// Writes the recovery file when the autosave timer says so (or, with `force`, whenever
    /// it lags behind the document); returns how long until it wants to be asked again.
    fn autosave(&mut self, force: bool) -> Option<std::time::Duration> {
        let file = self.recovery_file()?;
        if self.recovery_offer.is_some() {
            // The file may be the one on offer: never overwrite work not yet recovered.
            return None;
        }
        let state = (self.history.head(), self.doc.revisions);
        let unsaved = self.history.is_dirty().then_some(&state);
        let write = match self.autosave.step(self.clock_secs, unsaved) {
            AutosaveStep::Idle => false,
            AutosaveStep::WriteNow => true,
            AutosaveStep::WakeIn(wait) if !force => return Some(wait),
            AutosaveStep::WakeIn(_) => self.autosave.behind(unsaved),
        };
        if !write {
            return None;
        }
        let result = recovery::write(&file, &self.doc, self.history.unsaved_edits());
        if let Err(e) = &result {
            log::error!("autosave: {e}");
            self.message = Some((format!("Autosave failed: {e}"), Severity::Error));
        }
        self.autosave.wrote(self.clock_secs, state, result.is_ok());
        None
    }

    /// Starts a `--bench-frames` run: `creatures` fills (or trims) the roster from the
    /// sample creatures, and the clip plays in a loop.
    pub fn start_bench(&mut self, frames: usize, creatures: Option<usize>) {
        if let Some(count) = creatures {
            while self.doc.roster.len() > count {
                self.doc.remove_creature(self.doc.roster.len() - 1);
            }
            let samples = self.roster.samples.clone();
            for path in samples
                .iter()
                .cycle()
                .take(count.saturating_sub(self.doc.roster.len()))
            {
                if let Err(e) = self.doc.add_creature_file(path) {
                    log::error!("{e}");
                    break;
                }
            }
        }
        self.prefs.playback.looping = true;
        self.playback.playing = true;
        self.viewport.request_frame(FrameRequest::All);
        self.bench = Some(BenchRecorder::new(frames));
    }

    // Read access for tests and tools that drive the editor.

    pub fn document(&self) -> &Document {
        &self.doc
    }

    pub fn preview(&self) -> &Preview {
        &self.preview
    }

    pub fn playback(&self) -> Playback {
        self.playback
    }

    pub fn preferences(&self) -> &Preferences {
        &self.prefs
    }

    pub fn selection(&self) -> Option<Selection> {
        self.selection
    }

    pub fn active_channel(&self) -> Option<usize> {
        self.active_channel
    }

    pub fn viewport(&self) -> &ViewportPanel {
        &self.viewport
    }

    /// Roster creature `index`'s skinned mesh, if it has one (as of the last frame).
    pub fn creature_mesh(
        &self,
        index: usize,
    ) -> Option<&std::sync::Arc<anymorph_io::gltf::SkinnedMesh>> {
        self.meshes.get(index)
    }

    /// The last status message, if any.
    pub fn message(&self) -> Option<&str> {
        self.message.as_ref().map(|(m, _)| m.as_str())
    }

    /// Where a body's centre is on screen (points), as last drawn.
    pub fn body_on_screen(&self, creature: usize, body: usize) -> Option<egui::Pos2> {
        let p = self.preview.creatures.get(creature)?;
        let pose = p.pose.get(body)?;
        self.viewport.world_to_screen(pose.position + p.offset)
    }

    /// Where the external target handle is drawn at a creature, on screen (points).
    pub fn target_on_screen(&self, creature: usize) -> Option<egui::Pos2> {
        let entry = self.doc.roster.get(creature)?;
        let p = self.preview.creatures.get(creature)?;
        let at = viewport::scene_build::target_in_character(&self.doc, &entry.creature);
        self.viewport.world_to_screen(at + p.offset)
    }

    fn open(&mut self, path: &Path) {
        // The work being left is on disk before the document goes, in its own project's
        // recovery file, offered again when that project is opened.
        self.autosave(true);
        match Document::open(path) {
            Ok(doc) => {
                log::info!(
                    "opened {}: {} clips, {} creatures",
                    path.display(),
                    doc.clips.len(),
                    doc.roster.len()
                );
                self.doc = doc;
                self.history = History::default();
                self.autosave.reset();
                self.recovery_offer = None;
                self.offer_recovery(Some(path));
                self.prefs.remember(path);
                self.preview = Preview::default();
                self.playback = Playback::default();
                self.selection = None;
                self.active_channel = self.default_channel();
                self.viewport.request_frame(FrameRequest::All);
                self.message = None;
            }
            Err(e) => {
                log::error!("{e}");
                self.message = Some((e.to_string(), Severity::Error));
            }
        }
    }

    /// The first channel with a position curve: the one whose curve is worth drawing.
    fn default_channel(&self) -> Option<usize> {
        self.doc.clip().and_then(|clip| {
            clip.channels
                .iter()
                .position(|c| c.position.is_some() && !c.muted)
                .or((!clip.channels.is_empty()).then_some(0))
        })
    }

    fn duration(&self) -> f32 {
        self.doc.clip().map_or(0.0, |c| c.duration_secs)
    }

    /// Puts `clip` into the library at `index` as one undoable step and makes it the active
    /// clip.
    fn add_clip(&mut self, label: &str, index: usize, clip: Clip) {
        let dir = self
            .doc
            .path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf);
        let on_disk = |file: &Path| dir.as_ref().is_some_and(|d| d.join(file).exists());
        let mut at = index;
        self.edit_content(label, None, |c| at = c.insert_clip(index, clip, on_disk));
        self.set_clip(at);
    }

    fn set_clip(&mut self, index: usize) {
        self.doc.set_active_clip(index);
        self.active_channel = self.default_channel();
        self.playback
            .set_time(self.playback.time_secs, self.duration());
    }

    fn add_creature(&mut self, path: &Path) {
        // A rig is read once: the creature for the roster, its mesh for the viewport.
        let loaded = if anymorph_io::gltf::is_gltf_path(path) {
            anymorph_io::gltf::import_rig(path).map(|rig| (rig.creature, Some(rig.mesh)))
        } else {
            anymorph_io::load_creature(path).map(|c| (c, None))
        };
        match loaded {
            Ok((creature, mesh)) => {
                let entry = crate::document::RosterEntry {
                    creature,
                    path: Some(path.to_path_buf()),
                    variant: 0,
                    edited: false,
                };
                if let Some(mesh) = mesh {
                    self.meshes.insert(&entry, mesh);
                }
                self.edit_content("Add creature", None, |c| c.roster.push(entry));
                let name = sample_name(path);
                log::info!("added {}", path.display());
                self.message = Some((format!("Added {name}"), Severity::Info));
                self.viewport.request_frame(FrameRequest::All);
            }
            Err(e) => {
                log::error!("{e}");
                self.message = Some((e.to_string(), Severity::Error));
            }
        }
    }

    /// Replaces one body's caps as one undoable edit; the creature is derived again, so the
    /// preview rebinds the clip on the next frame.
    fn set_body_caps(
        &mut self,
        creature: usize,
        body: usize,
        caps: Vec<anymorph_runtime::creature::Cap>,
    ) {
        use crate::panels::caps::with_body_caps;
        let Some(entry) = self.doc.roster.get(creature) else {
            return;
        };
        if body >= entry.creature.len() {
            return;
        }
        match with_body_caps(&entry.creature, body, caps) {
            Ok(edited) => {
                let name = entry.creature.body(body).name.clone();
                self.edit_content(&format!("Caps of {name}"), None, |c| {
                    if let Some(e) = c.roster.get_mut(creature) {
                        e.creature = edited;
                        e.edited = true;
                    }
                });
            }
            Err(e) => self.message = Some((format!("Caps: {e}"), Severity::Error)),
        }
    }

    fn save_creature_dialog(&mut self) {
        let Some(index) = self
            .selection
            .map(|s| s.creature)
            .or(self.caps.creature)
            .filter(|&i| i < self.doc.roster.len())
        else {
            self.message = Some(("Select a creature to save".into(), Severity::Info));
            return;
        };
        let entry = &self.doc.roster[index];
        let request = FileRequest::new(
            PathPurpose::SaveCreature(index),
            PathKind::SaveFile,
            "Save Creature As",
            "Save Creature",
        )
        .filter("Anymorph creature", &["json"])
        .file_name(format!("{}.creature.json", entry.creature.name()))
        .directory(entry.path.as_deref().and_then(Path::parent));
        self.ask_path(request);
    }

    /// Asks the animator for a path: the system's dialog where one can open, else the
    /// built-in browser (saying so, the first time, in the status line).
    fn ask_path(&mut self, request: FileRequest) {
        match self.file_dialogs.route() {
            Route::System => {
                if let Some(path) = request.ask_system() {
                    for command in request.purpose.commands(path) {
                        self.commands.push(command);
                    }
                }
            }
            Route::BuiltIn { why } => {
                if let Some(why) = &why
                    && !self.told_no_system_dialog
                {
                    self.told_no_system_dialog = true;
                    let text = format!(
                        "System file dialog unavailable ({why}): using the built-in file browser"
                    );
                    log::warn!("{text}");
                    self.message = Some((text, Severity::Info));
                }
                let note = why.map(|why| {
                    format!("No system file dialog here ({why}): this is Anymorph's own.")
                });
                self.file_browser = Some(FileBrowser::new(request).with_note(note));
            }
        }
    }

    /// The built-in file browser, while it is open; its answer becomes commands.
    fn file_browser_window(&mut self, ctx: &egui::Context) {
        let Some(browser) = &mut self.file_browser else {
            return;
        };
        match browser.ui(ctx) {
            None => {}
            Some(BrowserOutcome::Cancelled) => self.file_browser = None,
            Some(BrowserOutcome::Chosen(path)) => {
                for command in browser.request().purpose.commands(path) {
                    self.commands.push(command);
                }
                self.file_browser = None;
            }
        }
    }

    /// Asks where to save the project (then closes the window if `then_close` and the save
    /// left nothing unsaved).
    fn save_project_as(&mut self, then_close: bool) {
        let name = self
            .doc
            .path
            .as_deref()
            .and_then(Path::file_name)
            .map_or_else(
                || "untitled.project.json".to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
        let request = FileRequest::new(
            PathPurpose::SaveProject { then_close },
            PathKind::SaveFile,
            "Save Project As",
            "Save Project",
        )
        .filter("Anymorph project", &["json"])
        .file_name(name)
        .directory(self.doc.path.as_deref().and_then(Path::parent));
        self.ask_path(request);
    }

    /// Where creature files are likely to be: beside the roster's, else the samples.
    fn creature_folder(&self) -> Option<PathBuf> {
        self.doc
            .roster
            .iter()
            .rev()
            .filter_map(|e| e.path.as_deref())
            .chain(self.roster.samples.iter().map(PathBuf::as_path))
            .find_map(|p| p.parent().map(Path::to_path_buf))
    }

    /// Replaces what the editor knows about the system's file dialogs (tests, tools).
    pub fn set_system_dialogs(&mut self, dialogs: SystemDialogs) {
        self.file_dialogs = dialogs;
    }

    /// The built-in file browser's request, while it is open (tests, tools).
    pub fn file_browser(&self) -> Option<&FileRequest> {
        self.file_browser.as_ref().map(FileBrowser::request)
    }

    /// Writes a roster creature as `*.creature.json` and makes the project refer to it (an
    /// undoable edit: undo points the project back at the old file; the new one stays).
    fn save_creature_to(&mut self, index: usize, path: &Path) {
        let Some(entry) = self.doc.roster.get(index) else {
            return;
        };
        match crate::document::save_creature_as(entry, path) {
            Ok(saved) => {
                let name = saved.creature.name().to_string();
                self.edit_content("Save creature as", None, |c| {
                    if let Some(e) = c.roster.get_mut(index) {
                        *e = saved;
                    }
                });
                log::info!("saved creature {name} to {}", path.display());
                self.message = Some((
                    format!("Saved {name} to {}", path.display()),
                    Severity::Info,
                ));
            }
            Err(e) => {
                log::error!("{e}");
                self.message = Some((e.to_string(), Severity::Error));
            }
        }
    }

    fn remove_creature(&mut self, index: usize) {
        if index < self.doc.roster.len() {
            self.edit_content("Remove creature", None, |c| {
                c.roster.remove(index);
            });
            // Selections point at roster indices, which just shifted.
            self.selection = None;
            self.viewport.request_frame(FrameRequest::All);
        }
    }

    fn selection_text(&self) -> Option<String> {
        let describe = |sel: Selection| -> Option<String> {
            let creature = &self.doc.roster.get(sel.creature)?.creature;
            Some(match sel.body {
                Some(b) if b < creature.len() => {
                    let body = creature.body(b);
                    let caps: Vec<&str> = body.caps.iter().map(|c| c.as_str()).collect();
                    format!("{} › {} [{}]", creature.name(), body.name, caps.join(", "))
                }
                _ => creature.name().to_string(),
            })
        };
        let hovered = self.viewport.hovered().and_then(|(creature, body)| {
            describe(Selection {
                creature,
                body: Some(body),
            })
        });
        match (self.selection.and_then(describe), hovered) {
            (Some(s), Some(h)) if Some(s.as_str()) != Some(h.as_str()) => {
                Some(format!("selected {s}   hover {h}"))
            }
            (Some(s), _) => Some(format!("selected {s}")),
            (None, Some(h)) => Some(format!("hover {h}")),
            (None, None) => None,
        }
    }
}

impl ToggleState for AnymorphApp {
    fn is_on(&self, command: &Command) -> Option<bool> {
        let o = &self.prefs.overlays;
        let p = &self.prefs.panels;
        Some(match command {
            Command::ToggleJoints => o.joints,
            Command::ToggleGoals => o.goals,
            Command::ToggleIk => o.ik,
            Command::ToggleCurve => o.curve,
            Command::ToggleTarget => o.target,
            Command::ToggleLabels => o.labels,
            Command::ToggleGround => o.ground,
            Command::ToggleMesh => o.mesh,
            Command::ToggleProxies => o.proxies,
            Command::ToggleGhosts => o.ghosts,
            Command::ToggleCapsPanel => p.caps,
            Command::ToggleFootfalls => p.footfalls,
            Command::ToggleChannelPanel => p.channels,
            Command::ToggleRosterPanel => p.roster,
            Command::ToggleTimelinePanel => p.timeline,
            Command::ToggleLoop => self.prefs.playback.looping,
            Command::ToggleWalk => self.prefs.locomotion.walking,
            Command::TogglePlay => self.playback.playing,
            Command::ToggleAutoKey => self.prefs.posing.auto_key,
            Command::TranslateTool => self.prefs.posing.tool == GizmoTool::Translate,
            Command::RotateTool => self.prefs.posing.tool == GizmoTool::Rotate,
            Command::ToggleGizmoSpace => self.prefs.posing.local,
            Command::ShowHistory => self.show_history,
            Command::ToggleValidation => self.show_validation,
            Command::ToggleKeysPanel => p.keys,
            _ => return None,
        })
    }

    fn recent_projects(&self) -> Vec<PathBuf> {
        self.prefs.recent.clone()
    }
}

fn remove_file_if_any(path: &Path) {
    match std::fs::remove_file(path) {
        Ok(()) => log::debug!("removed {}", path.display()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => log::warn!("{}: cannot remove: {e}", path.display()),
    }
}

/// Creature files in a folder (`*.creature.json`, and rigs: `*.glb`, `*.gltf`), sorted by
/// name.
fn list_creature_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    let name = p.to_string_lossy().to_ascii_lowercase();
                    [".creature.json", ".glb", ".gltf"]
                        .iter()
                        .any(|s| name.ends_with(s))
                })
                .collect()
        })
        .unwrap_or_else(|e| {
            log::warn!("{}: cannot list sample creatures: {e}", dir.display());
            Vec::new()
        });
    files.sort();
    files
}

impl eframe::App for AnymorphApp {
    /// The panels' own colour: they draw no fill of their own (see [`panel_frame`]).
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        let wall_dt = ctx.input(|i| i.stable_dt);
        let clip_dt = self
            .playback
            .advance(wall_dt, self.duration(), self.prefs.playback);
        self.preview.sync(&self.doc, self.active_channel);
        for problem in self.meshes.sync(&self.doc) {
            self.message = Some((problem, Severity::Error));
        }
        self.preview
            .set_layer(&self.doc, &self.prefs.locomotion.layer);
        if self.prefs.locomotion.walking {
            let settings = self.prefs.locomotion.settings(&self.doc.gaits);
            self.preview
                .walk(&self.doc, &settings, self.playback.time_secs, clip_dt);
        } else {
            self.preview
                .evaluate(&self.doc, self.playback.time_secs, clip_dt);
        }
        if self.prefs.overlays.curve {
            self.preview.trace_curves(&self.doc, self.active_channel);
        }
        let now_secs = ctx.input(|i| i.time);
        if let Some(comparison) = &mut self.preview.mode_comparison {
            if comparison.update(&self.doc, self.playback.time_secs, now_secs) {
                // The comparison fades out by itself: keep drawing while it does, at a
                // fade's pace rather than at once (an idle editor otherwise draws nothing).
                ctx.request_repaint_after(std::time::Duration::from_millis(33));
            } else {
                self.preview.mode_comparison = None;
            }
        }
        if self.playback.playing {
            ctx.request_repaint();
        }
        self.clock_secs = ctx.input(|i| i.time);
        if let Some(wait) = self.autosave(false) {
            // Nothing else may draw a frame before then (an idle editor draws none).
            ctx.request_repaint_after(wait);
        }
        let title = self.title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let start = Instant::now();
        let ctx = ui.ctx().clone();
        let over_keys = self
            .keys_rect
            .zip(ctx.pointer_hover_pos())
            .is_some_and(|(r, p)| r.contains(p));
        if self.file_browser.is_some() {
            // The browser is modal: its keys (Escape, Enter) are its own.
        } else if over_keys {
            self.commands.push_shortcuts_except(
                &ctx,
                &[Command::DeleteKey, Command::CopyPose, Command::PastePose],
            );
        } else {
            self.commands.push_shortcuts(&ctx);
        }
        let generation = self.prefs.layout_generation;
        let frame = panel_frame(&ctx, self.clears_to_panel_colour);

        egui::Panel::top("menu bar").frame(frame).show(ui, |ui| {
            let mut commands = std::mem::take(&mut self.commands);
            menu_bar_ui(ui, self, &mut commands);
            self.commands = commands;
        });
        let selection_text = self.selection_text();
        egui::Panel::bottom("status bar")
            .frame(frame)
            .show(ui, |ui| {
                let message = self.message.as_ref().map(|(m, s)| (m.as_str(), *s));
                status_bar_ui(
                    ui,
                    &StatusInputs {
                        stats: self.stats,
                        animating: self.playback.playing || self.viewport.is_dragging_target(),
                        creatures: self.doc.roster.len(),
                        bodies: self.viewport.body_count,
                        selection: selection_text,
                        message,
                    },
                );
            });
        if self.prefs.panels.timeline {
            egui::Panel::bottom(("timeline", generation))
                .frame(frame)
                .resizable(false)
                .show(ui, |ui| {
                    self.timeline.ui(
                        ui,
                        self.doc.clip(),
                        self.active_channel,
                        self.playback,
                        self.prefs.playback,
                        &mut self.commands,
                    );
                });
        }
        self.keys_rect = None;
        if self.prefs.panels.keys {
            egui::Panel::bottom(("keys", generation))
                .frame(frame)
                .resizable(true)
                .default_size(200.0)
                .size_range(120.0..=520.0)
                .show(ui, |ui| self.keys_panel(ui));
        }
        if self.prefs.panels.channels {
            egui::Panel::left(("channels", generation))
                .frame(frame)
                .resizable(true)
                .default_size(230.0)
                .size_range(160.0..=480.0)
                .show(ui, |ui| {
                    self.channels.ui(
                        ui,
                        &self.doc,
                        self.active_channel,
                        self.doc.solo(),
                        &mut self.commands,
                    );
                    ui.separator();
                    egui::ScrollArea::vertical()
                        .id_salt("inspector")
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            self.inspector.ui(
                                ui,
                                &self.doc,
                                &self.preview,
                                self.active_channel,
                                &mut self.commands,
                            );
                        });
                });
        }
        if self.prefs.panels.roster {
            egui::Panel::right(("roster", generation))
                .frame(frame)
                .resizable(true)
                .default_size(270.0)
                .size_range(180.0..=520.0)
                .show(ui, |ui| {
                    locomotion_ui(
                        ui,
                        &LocomotionInputs {
                            prefs: &self.prefs.locomotion,
                            gaits: &self.doc.gaits,
                            preview: &self.preview,
                            clips: &self.doc.clips,
                            actions: &self.doc.actions,
                        },
                        &mut self.commands,
                    );
                    ui.separator();
                    self.roster.ui(
                        ui,
                        &self.doc,
                        &self.preview,
                        self.selection,
                        &mut self.commands,
                    );
                });
        }
        egui::CentralPanel::no_frame().show(ui, |ui| {
            self.viewport.ui(
                ui,
                &ViewportInputs {
                    doc: &self.doc,
                    preview: &self.preview,
                    overlays: self.prefs.overlays,
                    selection: self.selection,
                    active_channel: self.active_channel,
                    time_secs: self.playback.time_secs,
                    playing: self.playback.playing,
                    gizmo: self.gizmo_target(),
                    meshes: self.meshes.all(),
                },
                &mut self.commands,
            );
        });
        help::shortcuts_window(&ctx, &mut self.show_shortcuts);
        help::about_window(&ctx, &mut self.show_about);
        self.history_window(&ctx);
        self.recovery_window(&ctx);
        self.close_guard(&ctx);
        self.file_browser_window(&ctx);
        self.validation_window(&ctx);
        self.caps_window(&ctx);
        self.footfall_window(&ctx);

        let commands = self.commands.take();
        if !commands.is_empty() {
            // The preview runs in `logic`: draw once more so changes show at once.
            ctx.request_repaint();
        }
        for command in commands {
            self.apply(&ctx, command);
        }

        let now = Instant::now();
        let frame_ms = self
            .last_frame
            .map_or(0.0, |t| (now - t).as_secs_f32() * 1000.0);
        self.last_frame = Some(now);
        self.stats.record(
            frame_ms,
            start.elapsed().as_secs_f32() * 1e6,
            self.viewport.scene_us,
            self.preview.times,
        );
        self.bench_frame(&ctx);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.prefs);
    }

    fn on_exit(&mut self) {
        // Unsaved work stays recoverable (unless the animator chose to discard it); a clean
        // exit leaves nothing behind.
        if self.history.is_dirty() && self.close_decided != Some(true) {
            self.autosave(true);
        } else if self.recovery_offer.is_none() {
            self.remove_recovery();
        }
    }
}

/// The frame of the editor's docked panels: egui's, without its fill where the host clears
/// the window to the panels' colour (`clear_color`), so each pixel under a panel is shaded
/// once less. On a software rasterizer the frame is fill-bound, and the panels' fills were a
/// fifth of it (16 creatures at 1280×800 on llvmpipe: 97 → 75 ms a frame).
fn panel_frame(ctx: &egui::Context, cleared: bool) -> egui::Frame {
    let frame = egui::Frame::side_top_panel(&ctx.global_style());
    if cleared {
        frame.fill(egui::Color32::TRANSPARENT)
    } else {
        frame
    }
}
