//! The bottom panel: transport buttons, loop and speed, the time and frame, and a ruler to
//! scrub on with the clip's keys and events marked.

use crate::command::{Command, CommandQueue};
use crate::playback::{Playback, PlaybackPrefs, SPEEDS};
use anymorph_runtime::clip::Clip;
use egui::{Color32, Pos2, Sense, Stroke, Vec2};

/// Button labels, shared with tests.
pub const PLAY: &str = "▶ Play";
pub const PAUSE: &str = "⏸ Pause";
pub const TIMELINE: &str = "Timeline";

/// The timeline.
#[derive(Debug, Default)]
pub struct TimelinePanel;

impl TimelinePanel {
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        clip: Option<&Clip>,
        active_channel: Option<usize>,
        playback: Playback,
        prefs: PlaybackPrefs,
        commands: &mut CommandQueue,
    ) {
        let Some(clip) = clip else {
            ui.label("No clip to play.");
            return;
        };
        ui.horizontal(|ui| {
            let mut button = |ui: &mut egui::Ui, text: &str, command: Command| {
                let tip = match command.shortcut() {
                    Some(s) => format!("{} ({})", command.tooltip(), ui.ctx().format_shortcut(&s)),
                    None => command.tooltip().to_string(),
                };
                if ui.button(text).on_hover_text(tip).clicked() {
                    commands.push(command);
                }
            };
            button(ui, "⏮", Command::GoToStart);
            button(ui, "⏴", Command::StepBack);
            button(
                ui,
                if playback.playing { PAUSE } else { PLAY },
                Command::TogglePlay,
            );
            button(ui, "⏵", Command::StepForward);
            button(ui, "⏭", Command::GoToEnd);
            ui.separator();
            let mut looping = prefs.looping;
            if ui
                .toggle_value(&mut looping, "🔁 Loop")
                .on_hover_text(Command::ToggleLoop.tooltip())
                .changed()
            {
                commands.push(Command::ToggleLoop);
            }
            let speed = ui.label("Speed");
            egui::ComboBox::from_id_salt("playback speed")
                .selected_text(format!("{}×", prefs.speed))
                .width(60.0)
                .show_ui(ui, |ui| {
                    for s in SPEEDS {
                        if ui
                            .selectable_label((s - prefs.speed).abs() < 1e-4, format!("{s}×"))
                            .clicked()
                        {
                            commands.push(Command::SetSpeed(s));
                        }
                    }
                })
                .response
                .labelled_by(speed.id);
            ui.separator();
            let last_frame = (clip.duration_secs * clip.fps).round() as i32;
            ui.monospace(format!(
                "{:6.3} s / {:.3} s    frame {:>3} / {}",
                playback.time_secs,
                clip.duration_secs,
                playback.frame(clip.fps),
                last_frame
            ));
        });
        ruler_ui(ui, clip, active_channel, playback, commands);
    }
}

/// The scrub ruler: frame ticks, key diamonds of the active channel, event flags, playhead.
fn ruler_ui(
    ui: &mut egui::Ui,
    clip: &Clip,
    active_channel: Option<usize>,
    playback: Playback,
    commands: &mut CommandQueue,
) {
    let height = 40.0;
    let (rect, response) = ui.allocate_exact_size(
        Vec2::new(ui.available_width(), height),
        Sense::click_and_drag(),
    );
    response
        .widget_info(|| egui::WidgetInfo::slider(true, f64::from(playback.time_secs), TIMELINE));
    let inner = rect.shrink2(Vec2::new(10.0, 0.0));
    let duration = clip.duration_secs.max(1e-3);
    let x_of = |t: f32| inner.left() + inner.width() * (t / duration).clamp(0.0, 1.0);
    if let Some(p) = response.interact_pointer_pos()
        && (response.dragged() || response.clicked())
    {
        let t = (p.x - inner.left()) / inner.width().max(1.0) * duration;
        // Scrubbing lands on frames, as in every DCC's timeline.
        let frame = (t * clip.fps).round() / clip.fps;
        commands.push(Command::SetTime(frame.clamp(0.0, duration)));
    }

    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(rect, 3.0, visuals.extreme_bg_color);
    let frames = (clip.duration_secs * clip.fps).round().max(1.0) as i32;
    let px_per_frame = inner.width() / frames as f32;
    // Label every n-th frame so labels never crowd.
    let label_every = [1, 2, 5, 10, 15, 30, 60, 120, 300]
        .into_iter()
        .find(|&n| px_per_frame * n as f32 >= 36.0)
        .unwrap_or(600);
    let tick_every = if px_per_frame >= 4.0 {
        1
    } else {
        label_every.max(5) / 5
    };
    let text_color = visuals.weak_text_color();
    for f in (0..=frames).step_by(tick_every.max(1) as usize) {
        let x = x_of(f as f32 / clip.fps);
        let major = f % label_every == 0;
        let top = if major {
            rect.top() + 14.0
        } else {
            rect.top() + 24.0
        };
        painter.line_segment(
            [Pos2::new(x, top), Pos2::new(x, rect.bottom() - 2.0)],
            Stroke::new(
                1.0,
                if major {
                    text_color
                } else {
                    visuals.faint_bg_color
                },
            ),
        );
        if major {
            painter.text(
                Pos2::new(x + 2.0, rect.top() + 2.0),
                egui::Align2::LEFT_TOP,
                f.to_string(),
                egui::FontId::monospace(10.0),
                text_color,
            );
        }
    }
    if let Some(curve) = active_channel
        .and_then(|c| clip.channels.get(c))
        .and_then(|c| c.position.as_ref())
    {
        for key in curve.keys() {
            let c = Pos2::new(x_of(key.time), rect.bottom() - 9.0);
            let d = 4.5;
            painter.add(egui::Shape::convex_polygon(
                vec![
                    c + Vec2::new(0.0, -d),
                    c + Vec2::new(d, 0.0),
                    c + Vec2::new(0.0, d),
                    c + Vec2::new(-d, 0.0),
                ],
                Color32::from_rgb(235, 200, 80),
                Stroke::new(1.0, Color32::BLACK),
            ));
        }
    }
    for event in &clip.events {
        let x = x_of(event.time_secs);
        painter.line_segment(
            [Pos2::new(x, rect.top() + 14.0), Pos2::new(x, rect.bottom())],
            Stroke::new(1.0, Color32::from_rgb(120, 200, 255)),
        );
        painter.text(
            Pos2::new(x + 3.0, rect.top() + 14.0),
            egui::Align2::LEFT_TOP,
            &event.name,
            egui::FontId::proportional(10.0),
            Color32::from_rgb(120, 200, 255),
        );
    }
    let x = x_of(playback.time_secs);
    painter.line_segment(
        [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())],
        Stroke::new(2.0, Color32::from_rgb(240, 70, 60)),
    );
    painter.add(egui::Shape::convex_polygon(
        vec![
            Pos2::new(x - 5.0, rect.top()),
            Pos2::new(x + 5.0, rect.top()),
            Pos2::new(x, rect.top() + 7.0),
        ],
        Color32::from_rgb(240, 70, 60),
        Stroke::NONE,
    ));
}
