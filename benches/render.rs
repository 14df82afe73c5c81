//! The editor's frame on the CPU renderer: the sample project's clip on 6 and 16 creatures,
//! scene building and drawing at 1280×800 offscreen (no window), with and without MSAA.
//! Medians over many frames; `cargo bench --bench render`.
//!
//! The whole window (egui included) is measured by `anymorph open PROJECT --bench-frames N
//! --bench-creatures K` instead.

use anymorph::editor::document::Document;
use anymorph::editor::prefs::Overlays;
use anymorph::editor::preview::Preview;
use anymorph::editor::viewport::OrbitCamera;
use anymorph::editor::viewport::scene_build::{self, SceneInputs};
use anymorph::render::{OffscreenRenderer, Scene};
use std::path::Path;
use std::time::Instant;

const WIDTH: u32 = 1280;
const HEIGHT: u32 = 800;
const FRAMES: usize = 30;

fn document(creatures: usize) -> Document {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut doc = Document::open(&root.join("assets/sample.project.json")).expect("sample project");
    let mut samples: Vec<_> = std::fs::read_dir(root.join("sample_creatures"))
        .expect("sample creatures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".creature.json"))
        .collect();
    samples.sort();
    doc.roster.truncate(creatures);
    for path in samples
        .iter()
        .cycle()
        .take(creatures.saturating_sub(doc.roster.len()))
    {
        doc.add_creature_file(path).expect("sample creature");
    }
    doc
}

fn median(mut v: Vec<f32>) -> f32 {
    v.sort_by(f32::total_cmp);
    v[v.len() / 2]
}

fn scene_at(doc: &Document, preview: &mut Preview, t: f32) -> (Scene, f32) {
    let start = Instant::now();
    preview.sync(doc, Some(0));
    preview.evaluate(doc, t, 1.0 / 60.0);
    preview.trace_curves(doc, Some(0));
    let mut orbit = OrbitCamera::default();
    let built = scene_build::build(
        &SceneInputs {
            doc,
            preview,
            overlays: Overlays::default(),
            selection: None,
            hovered: None,
            target_hovered: false,
            active_channel: Some(0),
            time_secs: t,
            // The sample creatures are built in code and have no skinned mesh.
            meshes: &[],
        },
        orbit.camera(),
    );
    orbit.frame(built.rest_bounds, WIDTH as f32 / HEIGHT as f32);
    let mut scene = built.scene;
    scene.camera = orbit.camera();
    (scene, start.elapsed().as_secs_f32() * 1000.0)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` would pass nothing.
    for msaa in [4, 1] {
        let mut renderer = match OffscreenRenderer::new(msaa) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("render bench skipped: {e}");
                return;
            }
        };
        for creatures in [6, 16] {
            let doc = document(creatures);
            let mut preview = Preview::default();
            let mut cpu_ms = Vec::new();
            let mut gpu_ms = Vec::new();
            let mut bodies = 0;
            for f in 0..FRAMES + 3 {
                let (scene, cpu) = scene_at(&doc, &mut preview, f as f32 / 60.0);
                bodies = scene.bodies.len();
                let start = Instant::now();
                if let Err(e) = renderer.draw(&scene, WIDTH, HEIGHT) {
                    eprintln!("render bench failed: {e}");
                    return;
                }
                if f >= 3 {
                    cpu_ms.push(cpu);
                    gpu_ms.push(start.elapsed().as_secs_f32() * 1000.0);
                }
            }
            println!(
                "render {WIDTH}×{HEIGHT} msaa {msaa} {creatures:2} creatures ({bodies} bodies) on {}: \
                 preview+scene {:.2} ms, draw {:.2} ms (median of {FRAMES})",
                renderer.adapter_name(),
                median(cpu_ms),
                median(gpu_ms),
            );
        }
    }
}
