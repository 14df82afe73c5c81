//! Shared by the editor's GUI tests: the harness that drives the real app on the CPU
//! renderer, and the one place snapshot thresholds are decided.
#![allow(dead_code)] // each test file uses part of it

use anymorph::editor::file_dialog::FileDialogChoice;
use anymorph::editor::{AnymorphApp, AppOptions};
use eframe::egui_wgpu::{self, wgpu};
use egui_kittest::{Harness, SnapshotOptions};
use std::sync::Arc;

/// The window size the editor is tested at (a laptop screen).
pub const WINDOW: egui::Vec2 = egui::Vec2::new(1280.0, 800.0);

/// A CPU adapter through OpenGL (Mesa's llvmpipe). GL rather than Vulkan because a fresh
/// machine has Mesa's GL driver but not its Vulkan one (lavapipe); pinning one backend also
/// keeps snapshots identical whichever is installed.
pub fn cpu_wgpu_setup() -> egui_wgpu::WgpuSetup {
    let mut setup = egui_wgpu::WgpuSetupCreateNew::without_display_handle();
    setup.instance_descriptor.backends = wgpu::Backends::GL;
    setup.native_adapter_selector = Some(Arc::new(|adapters, _surface| {
        let mut adapters: Vec<_> = adapters.iter().collect();
        adapters.sort_by_key(|a| a.get_info().device_type != wgpu::DeviceType::Cpu);
        adapters
            .first()
            .map(|a| (*a).clone())
            .ok_or_else(|| "no OpenGL adapter (Mesa's llvmpipe is enough)".to_owned())
    }));
    egui_wgpu::WgpuSetup::CreateNew(setup)
}

/// The editor on the sample project, as a user starts it, with preferences at defaults.
/// No autosave: tests must not touch the user's recovery file.
pub fn editor() -> Harness<'static, AnymorphApp> {
    editor_with(test_options())
}

/// Options every test starts from: the sample project, default preferences, no autosave,
/// and the built-in file browser (a test must never wait on a system dialog).
pub fn test_options() -> AppOptions {
    AppOptions {
        restore_preferences: false,
        recovery_dir: None,
        file_dialog: FileDialogChoice::BuiltIn,
        play_on_open: false,
        ..AppOptions::sample()
    }
}

/// The editor started with `options`.
pub fn editor_with(options: AppOptions) -> Harness<'static, AnymorphApp> {
    let harness = Harness::builder()
        .with_size(WINDOW)
        .wgpu_setup(cpu_wgpu_setup())
        .build_eframe(move |cc| AnymorphApp::new(cc, options.clone()));
    let mut harness = harness;
    // Panels settle their sizes over the first frames; the viewport frames the creatures.
    harness.run_steps(4);
    harness
}

/// Snapshots the editor with the status bar masked: it shows measured times, which differ
/// from run to run.
pub fn snapshot_editor(harness: &mut Harness<'static, AnymorphApp>, name: &str) {
    let status_bar = egui::Rect::from_min_max(
        egui::pos2(0.0, WINDOW.y - 26.0),
        egui::pos2(WINDOW.x, WINDOW.y),
    );
    harness.mask(status_bar);
    harness.snapshot_options(name, &snapshot_options());
}

/// The thresholds for every snapshot of the editor. Rendering is deterministic on one
/// machine; the slack covers anti-aliasing differences between Mesa builds, not a missing
/// creature or a blank viewport (thousands of pixels).
pub fn snapshot_options() -> SnapshotOptions {
    SnapshotOptions::new().threshold(0.6).max_failed_pixels(400)
}

/// A left-button drag from `from` to `to` spread over several frames, as a hand moves.
pub fn drag_over_frames(h: &mut Harness<'_, AnymorphApp>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for k in 1..=6 {
        h.hover_at(from + (to - from) * (k as f32 / 6.0));
        h.step();
    }
    h.drop_at(to);
    h.run();
}

/// A roster creature's index by name.
pub fn creature_index(h: &Harness<'_, AnymorphApp>, name: &str) -> usize {
    h.state()
        .document()
        .roster
        .iter()
        .position(|e| e.creature.name() == name)
        .unwrap_or_else(|| panic!("{name} is not in the roster"))
}

/// How far apart two poses are: the largest, over bodies, of the distance between centres
/// plus the angle between rotations.
pub fn max_distance(
    a: &[anymorph::runtime::pose::BodyPose],
    b: &[anymorph::runtime::pose::BodyPose],
) -> f32 {
    a.iter()
        .zip(b)
        .map(|(p, q)| p.position.distance(q.position) + p.rotation.angle_between(q.rotation))
        .fold(0.0, f32::max)
}
