//! The viewport camera as animators drive it: orbit around a target, pan, dolly, frame.
//! Mouse conventions of both Maya (Alt + left/middle/right) and Blender (middle, Shift +
//! middle, Ctrl + middle, wheel) work at once; they do not collide.

use anymorph_render::Camera;
use anymorph_runtime::math::Aabb;
use glam::{Vec2, Vec3};

const MIN_PITCH: f32 = -1.52;
const MAX_PITCH: f32 = 1.52;

/// A camera orbiting `target` at `distance`, turned by `yaw` about +Y (0 looks from the
/// front, +Z, toward -Z) and raised by `pitch`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    pub target: Vec3,
    pub yaw_rad: f32,
    pub pitch_rad: f32,
    pub distance: f32,
    pub fov_y_rad: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        OrbitCamera {
            target: Vec3::new(0.0, 0.8, 0.0),
            // A three-quarter view from the front and a little above, as a turntable shot.
            yaw_rad: 0.35,
            pitch_rad: 0.32,
            distance: 6.0,
            fov_y_rad: 35f32.to_radians(),
        }
    }
}

/// What a mouse gesture does to the camera.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Navigation {
    Orbit,
    Pan,
    Dolly,
}

impl OrbitCamera {
    pub fn eye(&self) -> Vec3 {
        let (sy, cy) = self.yaw_rad.sin_cos();
        let (sp, cp) = self.pitch_rad.sin_cos();
        self.target + Vec3::new(cp * sy, sp, cp * cy) * self.distance
    }

    /// The render camera, with clip planes that suit the distance.
    pub fn camera(&self) -> Camera {
        Camera {
            eye: self.eye(),
            target: self.target,
            up: Vec3::Y,
            fov_y_rad: self.fov_y_rad,
            near: (self.distance * 0.005).max(0.005),
            far: self.distance * 50.0 + 100.0,
        }
    }

    /// Applies a mouse drag of `delta_px` on a viewport `height_px` tall.
    pub fn navigate(&mut self, how: Navigation, delta_px: Vec2, height_px: f32) {
        if !delta_px.is_finite() {
            return;
        }
        match how {
            Navigation::Orbit => {
                self.yaw_rad -= delta_px.x * 0.008;
                self.pitch_rad = (self.pitch_rad + delta_px.y * 0.008).clamp(MIN_PITCH, MAX_PITCH);
            }
            Navigation::Pan => {
                let camera = self.camera();
                let per_px = camera.world_per_pixel(self.distance, height_px);
                let right = camera.forward().cross(Vec3::Y).normalize_or(Vec3::X);
                let up = right.cross(camera.forward()).normalize_or(Vec3::Y);
                self.target += (-right * delta_px.x + up * delta_px.y) * per_px;
            }
            Navigation::Dolly => self.zoom((delta_px.x - delta_px.y) * 0.01),
        }
    }

    /// Moves toward the target (positive `amount`) or away, multiplicatively.
    pub fn zoom(&mut self, amount: f32) {
        if amount.is_finite() {
            self.distance = (self.distance * (-amount).exp()).clamp(0.02, 5000.0);
        }
    }

    /// Aims at the centre of `bounds` from the current direction, as close as the whole box
    /// fits a viewport of `aspect` (width / height), with a small margin.
    pub fn frame(&mut self, bounds: Aabb, aspect: f32) {
        if bounds.is_empty() || !bounds.min.is_finite() || !bounds.max.is_finite() {
            return;
        }
        let aspect = if aspect.is_finite() && aspect > 0.0 {
            aspect
        } else {
            1.0
        };
        let tan_y = (self.fov_y_rad * 0.5).tan() * 0.92;
        let tan_x = tan_y * aspect;
        self.target = bounds.center();
        let camera = self.camera();
        let forward = camera.forward();
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(forward).normalize_or(Vec3::Y);
        // Each corner needs the eye far enough that it falls inside both half-angles:
        // |o·right| <= (d + o·forward) tan_x, and the same vertically.
        let (lo, hi) = (bounds.min, bounds.max);
        let distance = (0..8)
            .map(|i| {
                let corner = Vec3::new(
                    if i & 1 == 0 { lo.x } else { hi.x },
                    if i & 2 == 0 { lo.y } else { hi.y },
                    if i & 4 == 0 { lo.z } else { hi.z },
                );
                let o = corner - self.target;
                let along = o.dot(forward);
                (o.dot(right).abs() / tan_x - along).max(o.dot(up).abs() / tan_y - along)
            })
            .fold(0.05f32, f32::max);
        self.distance = distance.clamp(0.05, 5000.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_puts_the_whole_box_on_screen() {
        let mut orbit = OrbitCamera::default();
        let bounds = Aabb::from_points([Vec3::new(-6.0, 0.0, -1.0), Vec3::new(6.0, 2.0, 1.0)]);
        let size = Vec2::new(900.0, 500.0);
        orbit.frame(bounds, size.x / size.y);
        let camera = orbit.camera();
        for corner in [bounds.min, bounds.max, Vec3::new(-6.0, 2.0, 1.0)] {
            let (px, _) = camera.world_to_pixel(corner, size).unwrap();
            assert!(
                px.x >= 0.0 && px.x <= size.x && px.y >= 0.0 && px.y <= size.y,
                "{px}"
            );
        }
    }

    #[test]
    fn orbit_keeps_the_target_and_distance_and_pan_keeps_the_view() {
        let mut orbit = OrbitCamera::default();
        let before = orbit;
        orbit.navigate(Navigation::Orbit, Vec2::new(120.0, -40.0), 600.0);
        assert_eq!(orbit.target, before.target);
        assert!((orbit.eye().distance(orbit.target) - before.distance).abs() < 1e-4);
        let mut panned = before;
        panned.navigate(Navigation::Pan, Vec2::new(50.0, 20.0), 600.0);
        assert_eq!(panned.yaw_rad, before.yaw_rad);
        assert!(panned.target != before.target);
        let mut dollied = before;
        dollied.navigate(Navigation::Dolly, Vec2::new(0.0, -50.0), 600.0);
        assert!(dollied.distance < before.distance);
    }
}
