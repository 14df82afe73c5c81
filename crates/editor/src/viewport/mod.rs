//! The 3D viewport panel: navigation, picking, the target handle, labels, and the wgpu
//! callback that draws the scene.

mod callback;
pub mod gizmo;
pub mod labels;
mod orbit;
pub mod scene_build;

pub use callback::install;
pub use orbit::{Navigation, OrbitCamera};

use crate::command::{Command, CommandQueue, Selection};
use crate::document::Document;
use crate::prefs::Overlays;
use crate::preview::Preview;
use anymorph_render::{Camera, pick_body};
use anymorph_runtime::creature::BodyId;
use anymorph_runtime::math::Aabb;
use callback::ViewportCallback;
use egui::{Color32, PointerButton, Pos2, Rect, Sense, Vec2};
use gizmo::{Gizmo, GizmoEvent, GizmoTarget};
use glam::Vec3;
use scene_build::{BuiltScene, SceneInputs};

/// How close (pixels) the pointer must be to grab the target handle.
const HANDLE_GRAB_PX: f32 = 14.0;

/// A drag of the external target: it moves in the plane facing the camera through where the
/// drag started, so it follows the mouse exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TargetDrag {
    creature_offset: Vec3,
    plane_point: Vec3,
    plane_normal: Vec3,
    /// Handle position minus the point under the mouse when the drag started.
    grab_offset: Vec3,
}

/// Requests that need the viewport's size, applied on its next layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameRequest {
    All,
    Selected,
}

/// What the viewport shows from the rest of the app this frame.
pub struct ViewportInputs<'a> {
    pub doc: &'a Document,
    pub preview: &'a Preview,
    pub overlays: Overlays,
    pub selection: Option<Selection>,
    pub active_channel: Option<usize>,
    pub time_secs: f32,
    /// The clip plays, so the view changes every frame.
    pub playing: bool,
    /// The gizmo on the active body, when there is one to pose.
    pub gizmo: Option<GizmoTarget>,
    /// Per roster creature, its skinned mesh if it has one.
    pub meshes: &'a [Option<std::sync::Arc<anymorph_io::gltf::SkinnedMesh>>],
}

/// The viewport's transient state.
pub struct ViewportPanel {
    pub orbit: OrbitCamera,
    gpu_ready: bool,
    hovered: Option<(usize, BodyId)>,
    target_hovered: bool,
    target_drag: Option<TargetDrag>,
    /// Target drags so far: each drag's id, so its moves merge into one undo step.
    target_drags: u64,
    gizmo: Gizmo,
    pending_frame: Option<FrameRequest>,
    /// Keep everything framed as the viewport resizes, until the user moves the camera.
    auto_frame: bool,
    /// The last layout's rect (points) and camera, for tests and for projecting.
    rect: Rect,
    camera: Camera,
    /// How long building the last scene took.
    pub scene_us: f32,
    /// Bodies drawn last frame, for the status bar.
    pub body_count: usize,
    /// Skinned meshes handed to the renderer last frame.
    pub mesh_count: usize,
}

impl ViewportPanel {
    pub fn new(gpu_ready: bool) -> Self {
        ViewportPanel {
            orbit: OrbitCamera::default(),
            gpu_ready,
            hovered: None,
            target_hovered: false,
            target_drag: None,
            target_drags: 0,
            gizmo: Gizmo::default(),
            pending_frame: Some(FrameRequest::All),
            auto_frame: true,
            rect: Rect::NOTHING,
            camera: OrbitCamera::default().camera(),
            scene_us: 0.0,
            body_count: 0,
            mesh_count: 0,
        }
    }

    pub fn request_frame(&mut self, request: FrameRequest) {
        self.pending_frame = Some(request);
        self.auto_frame = request == FrameRequest::All;
    }

    pub fn hovered(&self) -> Option<(usize, BodyId)> {
        self.hovered
    }

    pub fn is_dragging_target(&self) -> bool {
        self.target_drag.is_some()
    }

    /// The viewport's rect in points, as last laid out.
    pub fn rect(&self) -> Rect {
        self.rect
    }

    /// Where a world point appears on screen (points), as last drawn.
    pub fn world_to_screen(&self, world: Vec3) -> Option<Pos2> {
        let size = glam::Vec2::new(self.rect.width(), self.rect.height());
        let (px, _) = self.camera.world_to_pixel(world, size)?;
        Some(self.rect.min + Vec2::new(px.x, px.y))
    }

    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        inputs: &ViewportInputs<'_>,
        commands: &mut CommandQueue,
    ) {
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        if self.auto_frame && rect.size() != self.rect.size() && self.pending_frame.is_none() {
            self.pending_frame = Some(FrameRequest::All);
        }
        self.rect = rect;
        let size = glam::Vec2::new(rect.width().max(1.0), rect.height().max(1.0));

        if let Some(request) = self.pending_frame.take() {
            self.apply_frame(request, inputs, size.x / size.y);
        }
        self.navigate(ui, &response, size.y);
        self.camera = self.orbit.camera();

        let start = std::time::Instant::now();
        let mut built = scene_build::build(
            &SceneInputs {
                doc: inputs.doc,
                preview: inputs.preview,
                overlays: inputs.overlays,
                selection: inputs.selection,
                hovered: self.hovered,
                target_hovered: self.target_hovered || self.target_drag.is_some(),
                active_channel: inputs.active_channel,
                time_secs: inputs.time_secs,
                meshes: inputs.meshes,
            },
            self.camera,
        );
        self.scene_us = start.elapsed().as_secs_f32() * 1e6;
        self.body_count = built.scene.bodies.len();
        self.mesh_count = built.scene.meshes.len();

        self.interact(ui, &response, &built, size, inputs.gizmo, commands);
        // Show this frame's hover at once rather than a frame late.
        for (body, owner) in built.scene.bodies.iter_mut().zip(&built.owners) {
            body.hovered = self.hovered == Some(*owner) && self.target_drag.is_none();
        }

        if self.gpu_ready {
            let ppp = ui.ctx().pixels_per_point();
            let size_px = [
                (rect.width() * ppp).round().max(1.0) as u32,
                (rect.height() * ppp).round().max(1.0) as u32,
            ];
            ui.painter()
                .add(eframe::egui_wgpu::Callback::new_paint_callback(
                    rect,
                    ViewportCallback {
                        scene: built.scene.clone(),
                        size_px,
                        moving: inputs.playing || response.dragged(),
                    },
                ));
        } else {
            ui.painter().rect_filled(rect, 0.0, Color32::from_gray(30));
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "The 3D viewport needs the wgpu renderer",
                egui::FontId::proportional(16.0),
                Color32::GRAY,
            );
        }
        let selected = inputs.selection.map(|s| s.creature);
        self.paint_labels(ui, &built, rect, selected);
        if let Some(target) = &inputs.gizmo {
            let painter = ui.painter_at(rect);
            self.gizmo
                .paint(&painter, rect.min, target, &self.camera, size);
        }
        self.paint_hud(ui, inputs, rect);
    }

    fn apply_frame(&mut self, request: FrameRequest, inputs: &ViewportInputs<'_>, aspect: f32) {
        let all = || {
            inputs
                .doc
                .roster
                .iter()
                .zip(&inputs.preview.creatures)
                .fold(Aabb::EMPTY, |acc, (e, p)| {
                    acc.union(scene_build::posed_bounds(&e.creature, p, None))
                })
        };
        let bounds = match (request, inputs.selection) {
            (FrameRequest::Selected, Some(sel)) => {
                match (
                    inputs.doc.roster.get(sel.creature),
                    inputs.preview.creatures.get(sel.creature),
                ) {
                    (Some(e), Some(p)) => scene_build::posed_bounds(&e.creature, p, sel.body),
                    _ => all(),
                }
            }
            _ => all(),
        };
        if !bounds.is_empty() {
            self.orbit.frame(bounds, aspect);
        }
    }

    fn navigate(&mut self, ui: &egui::Ui, response: &egui::Response, height_px: f32) {
        let modifiers = ui.input(|i| i.modifiers);
        let delta = response.drag_delta();
        let delta = glam::Vec2::new(delta.x, delta.y);
        let gesture = if modifiers.alt {
            // Maya: Alt + left orbits, Alt + middle pans, Alt + right dollies.
            if response.dragged_by(PointerButton::Primary) {
                Some(Navigation::Orbit)
            } else if response.dragged_by(PointerButton::Middle) {
                Some(Navigation::Pan)
            } else if response.dragged_by(PointerButton::Secondary) {
                Some(Navigation::Dolly)
            } else {
                None
            }
        } else if response.dragged_by(PointerButton::Middle) {
            // Blender: middle orbits, Shift + middle pans, Ctrl + middle zooms.
            Some(if modifiers.shift {
                Navigation::Pan
            } else if modifiers.command || modifiers.ctrl {
                Navigation::Dolly
            } else {
                Navigation::Orbit
            })
        } else if response.dragged_by(PointerButton::Secondary) {
            Some(Navigation::Orbit)
        } else {
            None
        };
        if let Some(how) = gesture {
            self.orbit.navigate(how, delta, height_px);
            self.auto_frame = false;
        }
        if response.hovered() {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            if scroll != 0.0 {
                self.orbit.zoom(scroll * 0.004);
                self.auto_frame = false;
            }
            if zoom != 1.0 {
                self.orbit.zoom(zoom.ln());
                self.auto_frame = false;
            }
        }
    }

    fn interact(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        built: &BuiltScene,
        size: glam::Vec2,
        gizmo: Option<GizmoTarget>,
        commands: &mut CommandQueue,
    ) {
        let (modifiers, pointer, press_origin) = ui.input(|i| {
            (
                i.modifiers,
                i.pointer.interact_pos(),
                i.pointer.press_origin(),
            )
        });
        let local = pointer
            .filter(|p| self.rect.contains(*p))
            .map(|p| glam::Vec2::new(p.x - self.rect.min.x, p.y - self.rect.min.y));
        let navigating = modifiers.alt
            || response.dragged_by(PointerButton::Middle)
            || response.dragged_by(PointerButton::Secondary);

        // The gizmo comes first: it sits on top of the body it poses.
        if let Some(target) = gizmo.filter(|_| !navigating || self.gizmo.is_dragging()) {
            let press =
                press_origin.map(|o| glam::Vec2::new(o.x - self.rect.min.x, o.y - self.rect.min.y));
            let event = self.gizmo.interact(
                &target,
                &self.camera,
                size,
                local,
                press,
                response.drag_started_by(PointerButton::Primary),
                response.dragged_by(PointerButton::Primary),
            );
            match event {
                Some(GizmoEvent::Moved { pose, drag }) => {
                    commands.push(Command::PoseActive { pose, drag });
                }
                Some(GizmoEvent::Released) => commands.push(Command::EndPose),
                None => {}
            }
            if self.gizmo.is_dragging() || self.gizmo.is_hovered() {
                self.hovered = None;
                self.target_hovered = false;
                return;
            }
        } else if self.gizmo.is_dragging() {
            // The active body went away mid-drag (its channel or creature changed).
            self.gizmo = Gizmo::default();
            commands.push(Command::EndPose);
        }

        // Continue or end a target drag.
        if let Some(drag) = self.target_drag {
            if response.dragged_by(PointerButton::Primary) {
                if let Some(p) = local {
                    let ray = self.camera.ray_through_pixel(p, size);
                    if let Some(t) = ray.hit_plane(drag.plane_point, drag.plane_normal) {
                        let world = ray.at(t) + drag.grab_offset;
                        commands.push(Command::SetTarget {
                            at: world - drag.creature_offset,
                            drag: self.target_drags,
                        });
                    }
                }
                return;
            }
            self.target_drag = None;
        }

        // What is under the pointer: the target handle wins over bodies.
        self.target_hovered = false;
        self.hovered = None;
        let Some(p) = local.filter(|_| !navigating) else {
            return;
        };
        let handle = built
            .target_handles
            .iter()
            .filter_map(|h| {
                let (px, _) = self.camera.world_to_pixel(h.world, size)?;
                let d = px.distance(p);
                (d <= HANDLE_GRAB_PX).then_some((h, d))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let ray = self.camera.ray_through_pixel(p, size);
        if let Some((h, _)) = handle {
            self.target_hovered = true;
            if response.drag_started_by(PointerButton::Primary) {
                // Grab where the button went down: egui starts a drag a few pixels later.
                let grab_ray = press_origin.map_or(ray, |o| {
                    let local = glam::Vec2::new(o.x - self.rect.min.x, o.y - self.rect.min.y);
                    self.camera.ray_through_pixel(local, size)
                });
                let normal = -self.camera.forward();
                let under = grab_ray
                    .hit_plane(h.world, normal)
                    .map_or(h.world, |t| grab_ray.at(t));
                self.target_drags += 1;
                self.target_drag = Some(TargetDrag {
                    creature_offset: h.offset,
                    plane_point: h.world,
                    plane_normal: normal,
                    grab_offset: h.world - under,
                });
            }
            return;
        }
        self.hovered = pick_body(&ray, &built.scene.bodies).map(|(i, _)| built.owners[i]);
        if response.clicked_by(PointerButton::Primary) {
            commands.push(Command::Select(self.hovered.map(|(creature, body)| {
                Selection {
                    creature,
                    body: Some(body),
                }
            })));
        }
    }

    /// Name tags above the creatures, placed by [`labels::place`]: nudged up where they
    /// would cover each other, shortened or left out in a crowd.
    fn paint_labels(&self, ui: &egui::Ui, built: &BuiltScene, rect: Rect, selected: Option<usize>) {
        let painter = ui.painter_at(rect);
        let font = egui::FontId::proportional(13.0);
        let tags: Vec<_> = built
            .labels
            .iter()
            .filter_map(|label| {
                let at = self.world_to_screen(label.anchor)?;
                let color = if label.binds {
                    Color32::from_gray(235)
                } else {
                    Color32::from_rgb(240, 160, 150)
                };
                let short = painter.layout(label.text.clone(), font.clone(), color, f32::INFINITY);
                let full = if label.binds {
                    short.clone()
                } else {
                    painter.layout(
                        format!("{}\ndoes not bind", label.text),
                        font.clone(),
                        color,
                        f32::INFINITY,
                    )
                };
                Some((at, full, short, color, selected == Some(label.creature)))
            })
            .collect();
        let pad = Vec2::new(10.0, 4.0);
        let requests: Vec<labels::TagRequest> = tags
            .iter()
            .map(|(at, full, short, _, keep)| labels::TagRequest {
                anchor: *at,
                full: full.size() + pad,
                short: short.size() + pad,
                keep: *keep,
            })
            .collect();
        for placed in labels::place(&requests) {
            let (_, full, short, color, _) = &tags[placed.index];
            let galley = if placed.short { short } else { full };
            painter.rect_filled(placed.rect, 4.0, Color32::from_black_alpha(170));
            painter.galley(placed.rect.min + pad * 0.5, galley.clone(), *color);
        }
    }

    fn paint_hud(&self, ui: &egui::Ui, inputs: &ViewportInputs<'_>, rect: Rect) {
        let painter = ui.painter_at(rect);
        if let Some(clip) = inputs.doc.clip() {
            let text = format!(
                "{}   {:.2} s / {:.2} s   frame {}",
                clip.name,
                inputs.time_secs,
                clip.duration_secs,
                (inputs.time_secs * clip.fps).round() as i32
            );
            painter.text(
                rect.left_top() + Vec2::new(10.0, 8.0),
                egui::Align2::LEFT_TOP,
                text,
                egui::FontId::proportional(14.0),
                Color32::from_gray(220),
            );
        }
        painter.text(
            rect.left_bottom() + Vec2::new(10.0, -8.0),
            egui::Align2::LEFT_BOTTOM,
            "Orbit: Alt+LMB or MMB   Pan: Alt+MMB or Shift+MMB   Zoom: wheel or Alt+RMB   \
             F frame selected   A frame all   Click: select   W/E move/rotate   S key",
            egui::FontId::proportional(11.0),
            Color32::from_gray(150),
        );
    }
}
