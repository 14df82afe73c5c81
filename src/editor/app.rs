//! The editor application: one struct holding the persisted preferences, the open document
//! and the transient state beside them. Each frame: `logic` advances playback and runs the
//! preview; `ui` lays out the panels, which push commands; commands are applied last.

use crate::editor::bench::BenchRecorder;
use crate::editor::command::{Command, CommandQueue, Selection};
use crate::editor::document::Document;
use crate::editor::panels::channels::ChannelPanel;
use crate::editor::panels::help;
use crate::editor::panels::menu_bar::{ToggleState, menu_bar_ui};
use crate::editor::panels::roster::{RosterPanel, sample_name};
use crate::editor::panels::status_bar::{FrameStats, Severity, StatusInputs, status_bar_ui};
use crate::editor::panels::timeline::TimelinePanel;
use crate::editor::playback::Playback;
use crate::editor::prefs::Preferences;
use crate::editor::preview::Preview;
use crate::editor::viewport::{self, FrameRequest, ViewportInputs, ViewportPanel};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where the editor starts.
#[derive(Clone, Debug)]
pub struct AppOptions {
    /// The project to open.
    pub project: PathBuf,
    /// Creature files offered by the roster's "Add" menu.
    pub sample_creatures: PathBuf,
    /// Read preferences from eframe storage (off in tests, so they start the same).
    pub restore_preferences: bool,
}

impl AppOptions {
    /// The bundled sample project and creatures.
    pub fn sample() -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        AppOptions {
            project: root.join("assets/sample.project.json"),
            sample_creatures: root.join("sample_creatures"),
            restore_preferences: true,
        }
    }
}

/// The Anymorph editor.
pub struct AnymorphApp {
    /// Persisted between runs.
    prefs: Preferences,
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
            doc: Document::default(),
            preview: Preview::default(),
            playback: Playback::default(),
            selection: None,
            active_channel: None,
            commands: CommandQueue::default(),
            viewport: ViewportPanel::new(gpu_ready),
            channels: ChannelPanel,
            roster: RosterPanel {
                samples: list_creature_files(&options.sample_creatures),
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
        };
        app.open(&options.project);
        app
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
        match Document::open(path) {
            Ok(doc) => {
                log::info!(
                    "opened {}: {} clips, {} creatures",
                    path.display(),
                    doc.clips.len(),
                    doc.roster.len()
                );
                self.doc = doc;
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

    fn apply(&mut self, ctx: &egui::Context, command: Command) {
        log::debug!("{command:?}");
        let duration = self.duration();
        let fps = self.doc.clip().map_or(30.0, |c| c.fps);
        let overlays = &mut self.prefs.overlays;
        let panels = &mut self.prefs.panels;
        match command {
            Command::OpenProject => {
                let dir = self.doc.path.as_deref().and_then(Path::parent);
                let mut dialog = rfd::FileDialog::new().add_filter("Anymorph project", &["json"]);
                if let Some(dir) = dir {
                    dialog = dialog.set_directory(dir);
                }
                if let Some(path) = dialog.pick_file() {
                    self.open(&path);
                }
            }
            Command::OpenProjectPath(path) => self.open(&path),
            Command::ReloadProject => {
                if let Some(path) = self.doc.path.clone() {
                    self.open(&path);
                }
            }
            Command::AddCreatureFromFile => {
                let dialog = rfd::FileDialog::new().add_filter("Anymorph creature", &["json"]);
                if let Some(path) = dialog.pick_file() {
                    self.add_creature(&path);
                }
            }
            Command::AddCreature(path) => self.add_creature(&path),
            Command::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            Command::Deselect => self.selection = None,
            Command::RemoveSelectedCreature => {
                if let Some(sel) = self.selection.take() {
                    self.remove_creature(sel.creature);
                }
            }
            Command::RemoveCreature(i) => self.remove_creature(i),
            Command::ResetTarget => self.doc.reset_targets(),
            Command::FrameAll => self.viewport.request_frame(FrameRequest::All),
            Command::FrameSelected => self.viewport.request_frame(FrameRequest::Selected),
            Command::ToggleJoints => overlays.joints ^= true,
            Command::ToggleGoals => overlays.goals ^= true,
            Command::ToggleIk => overlays.ik ^= true,
            Command::ToggleCurve => overlays.curve ^= true,
            Command::ToggleTarget => overlays.target ^= true,
            Command::ToggleLabels => overlays.labels ^= true,
            Command::ToggleGround => overlays.ground ^= true,
            Command::ToggleChannelPanel => panels.channels ^= true,
            Command::ToggleRosterPanel => panels.roster ^= true,
            Command::ToggleTimelinePanel => panels.timeline ^= true,
            Command::ResetLayout => {
                *panels = Default::default();
                self.prefs.layout_generation = self.prefs.layout_generation.wrapping_add(1);
            }
            Command::TogglePlay => self.playback.toggle(duration),
            Command::StepForward => self.playback.step_frames(1, fps, duration),
            Command::StepBack => self.playback.step_frames(-1, fps, duration),
            Command::GoToStart => self.playback.set_time(0.0, duration),
            Command::GoToEnd => self.playback.set_time(duration, duration),
            Command::ToggleLoop => self.prefs.playback.looping ^= true,
            Command::SetSpeed(s) => {
                if s.is_finite() && s > 0.0 {
                    self.prefs.playback.speed = s;
                }
            }
            Command::SetTime(t) => {
                self.playback.playing = false;
                self.playback.set_time(t, duration);
            }
            Command::NextClip | Command::PreviousClip => {
                let n = self.doc.clips.len();
                if n > 0 {
                    let step = if command == Command::NextClip {
                        1
                    } else {
                        n - 1
                    };
                    self.set_clip((self.doc.active_clip + step) % n);
                }
            }
            Command::SetActiveClip(i) => self.set_clip(i),
            Command::SetVariant { creature, variant } => self.doc.set_variant(creature, variant),
            Command::ToggleChannelMute(i) => {
                if let Some(channel) = self.doc.clip_mut().and_then(|c| c.channels.get_mut(i)) {
                    channel.muted ^= true;
                }
            }
            Command::SetActiveChannel(c) => self.active_channel = c,
            Command::Select(sel) => self.selection = sel,
            Command::SetTarget(at) => self.doc.set_target(at),
            Command::ShowShortcuts => self.show_shortcuts ^= true,
            Command::ShowAbout => self.show_about ^= true,
        }
    }

    fn set_clip(&mut self, index: usize) {
        self.doc.set_active_clip(index);
        self.active_channel = self.default_channel();
        self.playback
            .set_time(self.playback.time_secs, self.duration());
    }

    fn add_creature(&mut self, path: &Path) {
        match self.doc.add_creature_file(path) {
            Ok(()) => {
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

    fn remove_creature(&mut self, index: usize) {
        if let Some(entry) = self.doc.remove_creature(index) {
            log::info!("removed {}", entry.creature.name());
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

impl AnymorphApp {
    fn bench_frame(&mut self, ctx: &egui::Context) {
        let Some(bench) = &mut self.bench else {
            return;
        };
        ctx.request_repaint();
        let Some(report) = bench.frame() else {
            return;
        };
        let rect = self.viewport.rect();
        let ppp = ctx.pixels_per_point();
        let screen = ctx.content_rect();
        println!(
            "bench: {} creatures, window {:.0}×{:.0} px, viewport {:.0}×{:.0} px, {} frames on {}",
            self.doc.roster.len(),
            screen.width() * ppp,
            screen.height() * ppp,
            rect.width() * ppp,
            rect.height() * ppp,
            report.frames,
            self.adapter
        );
        println!(
            "bench: frame median {:.2} ms ({:.1} fps), p90 {:.2} ms, mean {:.2} ms; \
             pipeline {:.0} µs, scene {:.0} µs, ui {:.2} ms per frame",
            report.median_ms,
            1000.0 / report.median_ms.max(1e-3),
            report.p90_ms,
            report.mean_ms,
            self.stats.preview.evaluate_us,
            self.stats.scene_us,
            self.stats.ui_us / 1000.0
        );
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
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
            Command::ToggleChannelPanel => p.channels,
            Command::ToggleRosterPanel => p.roster,
            Command::ToggleTimelinePanel => p.timeline,
            Command::ToggleLoop => self.prefs.playback.looping,
            Command::TogglePlay => self.playback.playing,
            _ => return None,
        })
    }
}

/// `*.creature.json` files in a folder, sorted by name.
fn list_creature_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.to_string_lossy().ends_with(".creature.json"))
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
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        let wall_dt = ctx.input(|i| i.stable_dt);
        let clip_dt = self
            .playback
            .advance(wall_dt, self.duration(), self.prefs.playback);
        self.preview.sync(&self.doc, self.active_channel);
        self.preview
            .evaluate(&self.doc, self.playback.time_secs, clip_dt);
        if self.prefs.overlays.curve {
            self.preview.trace_curves(&self.doc, self.active_channel);
        }
        if self.playback.playing {
            ctx.request_repaint();
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let start = Instant::now();
        let ctx = ui.ctx().clone();
        self.commands.push_shortcuts(&ctx);
        let generation = self.prefs.layout_generation;

        egui::Panel::top("menu bar").show(ui, |ui| {
            let mut commands = std::mem::take(&mut self.commands);
            menu_bar_ui(ui, self, &mut commands);
            self.commands = commands;
        });
        let selection_text = self.selection_text();
        egui::Panel::bottom("status bar").show(ui, |ui| {
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
        if self.prefs.panels.channels {
            egui::Panel::left(("channels", generation))
                .resizable(true)
                .default_size(230.0)
                .size_range(160.0..=480.0)
                .show(ui, |ui| {
                    self.channels
                        .ui(ui, &self.doc, self.active_channel, &mut self.commands);
                });
        }
        if self.prefs.panels.roster {
            egui::Panel::right(("roster", generation))
                .resizable(true)
                .default_size(270.0)
                .size_range(180.0..=520.0)
                .show(ui, |ui| {
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
                },
                &mut self.commands,
            );
        });
        help::shortcuts_window(&ctx, &mut self.show_shortcuts);
        help::about_window(&ctx, &mut self.show_about);

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
}
