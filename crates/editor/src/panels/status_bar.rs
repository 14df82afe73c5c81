//! The status bar: frame rate and where the frame's time goes, the selection, and the last
//! message (a file that did not load, a creature added).

use crate::preview::PreviewTimes;
use egui::{Color32, RichText};

/// Frame timing smoothed over about a second, so the numbers can be read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameStats {
    pub frame_ms: f32,
    pub ui_us: f32,
    pub scene_us: f32,
    pub preview: PreviewTimes,
}

impl FrameStats {
    /// Blends this frame's numbers in.
    pub fn record(&mut self, frame_ms: f32, ui_us: f32, scene_us: f32, preview: PreviewTimes) {
        let k = 0.1;
        let mix = |old: f32, new: f32| {
            if old == 0.0 || !old.is_finite() {
                new
            } else {
                old + (new - old) * k
            }
        };
        self.frame_ms = mix(self.frame_ms, frame_ms.clamp(0.0, 1000.0));
        self.ui_us = mix(self.ui_us, ui_us);
        self.scene_us = mix(self.scene_us, scene_us);
        self.preview.evaluate_us = mix(self.preview.evaluate_us, preview.evaluate_us);
        let ns = |old: u64, new: u64| mix(old as f32, new as f32) as u64;
        let (old, new) = (&mut self.preview.stages, preview.stages);
        old.curves = ns(old.curves, new.curves);
        old.specialize = ns(old.specialize, new.specialize);
        old.blend = ns(old.blend, new.blend);
        old.gait = ns(old.gait, new.gait);
        old.ik = ns(old.ik, new.ik);
        old.jiggle = ns(old.jiggle, new.jiggle);
        // Bind and trace only run when something changed: show the last run as is.
        self.preview.bind_us = preview.bind_us;
        self.preview.trace_us = preview.trace_us;
    }
}

/// How important a message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Info,
    Error,
}

pub struct StatusInputs<'a> {
    pub stats: FrameStats,
    /// Whether frames follow each other (playing, dragging), so a frame rate means something.
    pub animating: bool,
    pub creatures: usize,
    pub bodies: usize,
    pub selection: Option<String>,
    pub message: Option<(&'a str, Severity)>,
}

pub fn status_bar_ui(ui: &mut egui::Ui, s: &StatusInputs<'_>) {
    ui.horizontal(|ui| {
        // Between repaints of an idle editor the interval means nothing.
        if s.animating && s.stats.frame_ms > 0.0 {
            ui.monospace(format!(
                "{:5.1} fps {:5.1} ms",
                1000.0 / s.stats.frame_ms,
                s.stats.frame_ms
            ))
            .on_hover_text("Frames per second of the whole editor while it animates");
        } else {
            ui.monospace("  idle   ")
                .on_hover_text("The editor only redraws on input while playback is paused");
        }
        ui.separator();
        ui.separator();
        let p = &s.stats.preview;
        let per_creature = p.evaluate_us / s.creatures.max(1) as f32;
        let us = |ns: u64| ns as f32 / 1000.0;
        ui.monospace(format!(
            "pipeline {:5.0} µs ({per_creature:.0} × {})",
            p.evaluate_us, s.creatures
        ))
        .on_hover_text(format!(
            "Pipeline::run on every creature this frame, by stage (µs):\n\
             curves {:.1}\nspecialize (S) {:.1}\nblend {:.1}\ngait {:.1}\nIK {:.1}\njiggle {:.1}",
            us(p.stages.curves),
            us(p.stages.specialize),
            us(p.stages.blend),
            us(p.stages.gait),
            us(p.stages.ik),
            us(p.stages.jiggle),
        ));
        ui.monospace(format!(
            "curves {:.0} · S {:.0} · blend {:.0} · IK {:.0} µs",
            us(p.stages.curves),
            us(p.stages.specialize),
            us(p.stages.blend),
            us(p.stages.ik)
        ))
        .on_hover_text("The runtime's own stage timings, summed over creatures");
        ui.separator();
        ui.monospace(format!("bind {:4.0} µs", p.bind_us))
            .on_hover_text(
                "Last rebind: bind() and plans for every creature (clip, roster or variant change)",
            );
        ui.monospace(format!("trace {:4.0} µs", p.trace_us))
            .on_hover_text("Last trace of the active channel's curve in space");
        ui.monospace(format!("scene {:5.0} µs", s.stats.scene_us))
            .on_hover_text(format!("Building the 3D scene: {} bodies", s.bodies));
        ui.monospace(format!("ui {:5.1} ms", s.stats.ui_us / 1000.0))
            .on_hover_text("Laying out every panel, this frame's CPU time");
        if let Some(sel) = &s.selection {
            ui.separator();
            ui.label(sel);
        }
        if let Some((text, severity)) = s.message {
            ui.separator();
            let color = match severity {
                Severity::Info => ui.visuals().text_color(),
                Severity::Error => Color32::from_rgb(240, 120, 110),
            };
            ui.label(RichText::new(text).color(color));
        }
    });
}
