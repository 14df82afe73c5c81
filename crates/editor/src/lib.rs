//! The desktop editor (eframe + egui, feature `editor`): the shell around a live,
//! multi-creature 3D preview of one clip. See [`AnymorphApp`].
//!
//! Layout follows STYLE.md: one app struct ([`app`]), panels that push
//! [`command::Command`]s applied after layout, and the viewport drawn by [`anymorph_render`]
//! through an egui_wgpu callback.

pub mod app;
pub mod autosave;
mod bench;
pub mod command;
pub mod document;
pub mod file_browser;
pub mod file_dialog;
pub mod history;
pub mod layer;
pub mod layout;
pub mod meshes;
pub mod mode_compare;
pub mod panels;
pub mod playback;
pub mod posing;
pub mod prefs;
pub mod preview;
pub mod recovery;
pub mod viewport;
pub mod walk;

pub use app::{AnymorphApp, AppOptions, RECOVER};
pub use bench::{BenchRecorder, BenchReport};

use anyhow::{Context as _, Result, anyhow};

/// How to run the editor window.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub app: AppOptions,
    /// Measure this many frames of playback, print the timings and close.
    pub bench_frames: Option<usize>,
    /// For a bench: fill the roster to this many creatures from the sample creatures.
    pub bench_creatures: Option<usize>,
    pub window_size: [f32; 2],
}

/// Opens the editor window and runs it until it closes.
pub fn run(options: RunOptions) -> Result<()> {
    // A logger for the editor's messages; `RUST_LOG` overrides the level.
    let _ = env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("warn,anymorph=info"),
    )
    .try_init();
    let bench = options.bench_frames.is_some();
    let mut native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Anymorph")
            .with_app_id("anymorph")
            .with_inner_size(options.window_size)
            .with_min_inner_size([720.0, 480.0]),
        // A bench must be reproducible: no restored window size or panel widths.
        persist_window: !bench,
        ..Default::default()
    };
    if bench {
        // Frames as fast as they render, not as fast as the display refreshes.
        native.wgpu_options.surface.present_mode =
            eframe::egui_wgpu::wgpu::PresentMode::AutoNoVsync;
    }
    eframe::run_native(
        "Anymorph",
        native,
        Box::new(move |cc| {
            let mut app_options = options.app.clone();
            // eframe clears the window to `clear_color`, the panels' own.
            app_options.clears_to_panel_colour = true;
            if bench {
                app_options.restore_preferences = false;
            }
            let mut app = AnymorphApp::new(cc, app_options);
            if let Some(frames) = options.bench_frames {
                app.start_bench(frames, options.bench_creatures);
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow!("{e}"))
    .context("the editor window failed")
}
