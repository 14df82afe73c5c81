//! The translate/rotate gizmo on the active body, drawn with egui over the 3D view.
//!
//! Translation moves along one axis: the new point is the one on the axis line closest to
//! the mouse ray, so the body stays under the cursor. Rotation turns about one axis by the
//! angle the cursor sweeps around the gizmo's centre on screen. Both report world poses;
//! the app generalizes them through the channel's `G`.

use crate::prefs::GizmoTool;
use anymorph_render::Camera;
use anymorph_runtime::pose::BodyPose;
use egui::{Color32, Pos2, Stroke};
use glam::{Quat, Vec2, Vec3};

/// Axis handle length on screen (points).
const HANDLE_PX: f32 = 80.0;
/// How close the pointer must be to grab a handle (points).
const GRAB_PX: f32 = 9.0;
const RING_SEGMENTS: usize = 48;

const AXIS_COLORS: [Color32; 3] = [
    Color32::from_rgb(230, 70, 70),
    Color32::from_rgb(90, 200, 80),
    Color32::from_rgb(70, 130, 240),
];

/// What the gizmo is placed on this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GizmoTarget {
    /// The active body's goal, world space.
    pub pose: BodyPose,
    pub tool: GizmoTool,
    /// Axes along the body instead of the world.
    pub local: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Drag {
    axis: usize,
    id: u64,
    start: BodyPose,
    axis_dir: Vec3,
    /// Translate: the axis parameter of the grab point. Rotate: the start angle on screen.
    grab: f32,
}

/// The gizmo's interaction state.
#[derive(Debug, Default)]
pub struct Gizmo {
    drag: Option<Drag>,
    hovered: Option<usize>,
    next_id: u64,
}

/// What a frame of interaction produced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GizmoEvent {
    /// The body should now be at this world pose; one `drag` id per gesture.
    Moved {
        pose: BodyPose,
        drag: u64,
    },
    Released,
}

/// The gizmo's axes in world space.
fn axes(target: &GizmoTarget) -> [Vec3; 3] {
    let r = if target.local {
        target.pose.rotation
    } else {
        Quat::IDENTITY
    };
    [r * Vec3::X, r * Vec3::Y, r * Vec3::Z]
}

/// Closest point parameter on the line `origin + s * dir` to a ray.
fn closest_on_axis(origin: Vec3, dir: Vec3, ray_o: Vec3, ray_d: Vec3) -> Option<f32> {
    let w = origin - ray_o;
    let b = dir.dot(ray_d);
    let denom = 1.0 - b * b;
    if denom.abs() < 1e-5 {
        // The axis points at the eye: moving along it cannot follow the mouse.
        return None;
    }
    let s = (b * ray_d.dot(w) - dir.dot(w)) / denom;
    s.is_finite().then_some(s)
}

impl Gizmo {
    pub fn is_dragging(&self) -> bool {
        self.drag.is_some()
    }

    pub fn is_hovered(&self) -> bool {
        self.hovered.is_some()
    }

    /// Screen positions (viewport pixels) of the handle ends, or ring points per axis.
    fn shapes(target: &GizmoTarget, camera: &Camera, size: Vec2) -> Option<(Vec2, [Vec<Vec2>; 3])> {
        let (centre, depth) = camera.world_to_pixel(target.pose.position, size)?;
        let len = camera.world_per_pixel(depth, size.y) * HANDLE_PX;
        let ax = axes(target);
        let mut out: [Vec<Vec2>; 3] = Default::default();
        for (i, a) in ax.iter().enumerate() {
            match target.tool {
                GizmoTool::Translate => {
                    let end = camera.world_to_pixel(target.pose.position + *a * len, size)?;
                    out[i] = vec![centre, end.0];
                }
                GizmoTool::Rotate => {
                    let (u, v) = (a.any_orthonormal_pair().0, a.any_orthonormal_pair().1);
                    for s in 0..=RING_SEGMENTS {
                        let t = s as f32 / RING_SEGMENTS as f32 * std::f32::consts::TAU;
                        let p = target.pose.position + (u * t.cos() + v * t.sin()) * len * 0.8;
                        out[i].push(camera.world_to_pixel(p, size)?.0);
                    }
                }
            }
        }
        Some((centre, out))
    }

    fn axis_under(target: &GizmoTarget, camera: &Camera, size: Vec2, p: Vec2) -> Option<usize> {
        let (_, shapes) = Self::shapes(target, camera, size)?;
        shapes
            .iter()
            .enumerate()
            .filter_map(|(i, pts)| {
                let d = pts
                    .windows(2)
                    .map(|w| distance_to_segment(p, w[0], w[1]))
                    .fold(f32::INFINITY, f32::min);
                (d <= GRAB_PX).then_some((i, d))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }

    /// Hover, start, continue or end a drag. `pointer` and `press` are viewport pixels.
    #[allow(clippy::too_many_arguments)]
    pub fn interact(
        &mut self,
        target: &GizmoTarget,
        camera: &Camera,
        size: Vec2,
        pointer: Option<Vec2>,
        press: Option<Vec2>,
        drag_started: bool,
        dragging: bool,
    ) -> Option<GizmoEvent> {
        if let Some(drag) = self.drag {
            if !dragging {
                self.drag = None;
                return Some(GizmoEvent::Released);
            }
            let p = pointer?;
            let pose = match target.tool {
                GizmoTool::Translate => {
                    let ray = camera.ray_through_pixel(p, size);
                    let s = closest_on_axis(
                        drag.start.position,
                        drag.axis_dir,
                        ray.origin,
                        ray.direction,
                    )?;
                    BodyPose {
                        position: drag.start.position + drag.axis_dir * (s - drag.grab),
                        rotation: drag.start.rotation,
                    }
                }
                GizmoTool::Rotate => {
                    let (c, _) = camera.world_to_pixel(drag.start.position, size)?;
                    let angle = screen_angle(c, p);
                    // Screen y points down; a ring seen from its axis's tip turns the other way.
                    let facing = drag.axis_dir.dot(-camera.forward()).signum();
                    let delta = -(angle - drag.grab) * facing;
                    let turn = Quat::from_axis_angle(drag.axis_dir, delta);
                    BodyPose {
                        position: drag.start.position,
                        rotation: (turn * drag.start.rotation).normalize(),
                    }
                }
            };
            return (pose.position.is_finite() && pose.rotation.is_finite()).then_some(
                GizmoEvent::Moved {
                    pose,
                    drag: drag.id,
                },
            );
        }
        self.hovered = pointer.and_then(|p| Self::axis_under(target, camera, size, p));
        if drag_started {
            let at = press.or(pointer)?;
            let axis = Self::axis_under(target, camera, size, at)?;
            let axis_dir = axes(target)[axis];
            let grab = match target.tool {
                GizmoTool::Translate => {
                    let ray = camera.ray_through_pixel(at, size);
                    closest_on_axis(target.pose.position, axis_dir, ray.origin, ray.direction)?
                }
                GizmoTool::Rotate => {
                    let (c, _) = camera.world_to_pixel(target.pose.position, size)?;
                    screen_angle(c, at)
                }
            };
            self.next_id += 1;
            self.drag = Some(Drag {
                axis,
                id: self.next_id,
                start: target.pose,
                axis_dir,
                grab,
            });
        }
        None
    }

    pub fn paint(
        &self,
        painter: &egui::Painter,
        origin: Pos2,
        target: &GizmoTarget,
        camera: &Camera,
        size: Vec2,
    ) {
        let Some((centre, shapes)) = Self::shapes(target, camera, size) else {
            return;
        };
        let to_pos = |v: Vec2| origin + egui::vec2(v.x, v.y);
        let active = self.drag.map(|d| d.axis).or(self.hovered);
        for (i, pts) in shapes.iter().enumerate() {
            let color = if active == Some(i) {
                Color32::from_rgb(255, 220, 60)
            } else {
                AXIS_COLORS[i]
            };
            let stroke = Stroke::new(if active == Some(i) { 3.5 } else { 2.5 }, color);
            let line: Vec<Pos2> = pts.iter().map(|p| to_pos(*p)).collect();
            painter.add(egui::Shape::line(line.clone(), stroke));
            if target.tool == GizmoTool::Translate
                && let Some(end) = line.last()
            {
                painter.circle_filled(*end, 5.0, color);
            }
        }
        painter.circle_filled(to_pos(centre), 3.5, Color32::WHITE);
    }
}

fn screen_angle(centre: Vec2, p: Vec2) -> f32 {
    let d = p - centre;
    d.y.atan2(d.x)
}

fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-9)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn camera() -> Camera {
        Camera {
            eye: Vec3::new(0.0, 1.0, 5.0),
            target: Vec3::new(0.0, 1.0, 0.0),
            ..Camera::default()
        }
    }

    #[test]
    fn dragging_the_x_handle_moves_along_x_under_the_mouse() {
        let cam = camera();
        let size = Vec2::new(800.0, 600.0);
        let target = GizmoTarget {
            pose: BodyPose::new(Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY),
            tool: GizmoTool::Translate,
            local: false,
        };
        let (c, _) = cam.world_to_pixel(target.pose.position, size).unwrap();
        let grab = c + Vec2::new(40.0, 0.0);
        let mut g = Gizmo::default();
        assert!(
            g.interact(&target, &cam, size, Some(grab), Some(grab), true, true)
                .is_none()
        );
        assert!(g.is_dragging());
        let to = grab + Vec2::new(100.0, 30.0);
        let Some(GizmoEvent::Moved { pose, .. }) =
            g.interact(&target, &cam, size, Some(to), None, false, true)
        else {
            panic!("no move");
        };
        assert!(pose.position.y == 1.0 && pose.position.z == 0.0);
        // The grabbed point, now at the pointer's x on screen.
        let grabbed_now = cam.world_to_pixel(pose.position, size).unwrap().0;
        assert!(
            (grabbed_now.x + 40.0 - to.x).abs() < 1.0,
            "{grabbed_now} vs {to}"
        );
        assert_eq!(
            g.interact(&target, &cam, size, Some(to), None, false, false),
            Some(GizmoEvent::Released)
        );
    }

    #[test]
    fn rotating_about_y_keeps_the_position() {
        let cam = camera();
        let size = Vec2::new(800.0, 600.0);
        let target = GizmoTarget {
            pose: BodyPose::new(Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY),
            tool: GizmoTool::Rotate,
            local: false,
        };
        let mut g = Gizmo::default();
        let (_, shapes) = Gizmo::shapes(&target, &cam, size).unwrap();
        // Half way between where the Y ring crosses the others.
        let on_ring = shapes[1][RING_SEGMENTS / 8];
        g.interact(
            &target,
            &cam,
            size,
            Some(on_ring),
            Some(on_ring),
            true,
            true,
        );
        assert!(g.is_dragging(), "grabbed the ring at {on_ring}");
        let moved = on_ring + Vec2::new(-30.0, 5.0);
        let Some(GizmoEvent::Moved { pose, .. }) =
            g.interact(&target, &cam, size, Some(moved), None, false, true)
        else {
            panic!("no move");
        };
        assert_eq!(pose.position, target.pose.position);
        let (axis, angle) = pose.rotation.to_axis_angle();
        assert!(angle > 1e-3 && axis.y.abs() > 0.99, "{axis} {angle}");
    }
}
