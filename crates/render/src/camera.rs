//! A perspective camera in world space: the matrices the shaders use, and the projections
//! between world points and viewport pixels that picking, labels and handles use.

use glam::{Mat4, Vec2, Vec3};

/// A ray in world space; `direction` has unit length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    pub origin: Vec3,
    pub direction: Vec3,
}

impl Ray {
    pub fn at(&self, t: f32) -> Vec3 {
        self.origin + self.direction * t
    }

    /// Where the ray meets the plane through `point` with `normal`, if ahead of the origin.
    pub fn hit_plane(&self, point: Vec3, normal: Vec3) -> Option<f32> {
        let denom = self.direction.dot(normal);
        if denom.abs() < 1e-8 {
            return None;
        }
        let t = (point - self.origin).dot(normal) / denom;
        (t.is_finite() && t >= 0.0).then_some(t)
    }
}

/// A right-handed perspective camera (+Y up) looking from `eye` at `target`.
///
/// Pixels are viewport pixels: origin at the top-left corner, +Y down, `size_px` wide and
/// high — the convention of both egui and the framebuffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub eye: Vec3,
    pub target: Vec3,
    pub up: Vec3,
    /// Vertical field of view, radians.
    pub fov_y_rad: f32,
    pub near: f32,
    pub far: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            eye: Vec3::new(0.0, 1.5, 6.0),
            target: Vec3::new(0.0, 0.8, 0.0),
            up: Vec3::Y,
            fov_y_rad: 40f32.to_radians(),
            near: 0.05,
            far: 500.0,
        }
    }
}

impl Camera {
    pub fn view_from_world(&self) -> Mat4 {
        glam::camera::rh::view::look_at_mat4(self.eye, self.target, self.up)
    }

    /// wgpu clip space (depth 0..1) from view space, for a viewport of this aspect ratio.
    pub fn clip_from_view(&self, aspect: f32) -> Mat4 {
        let aspect = if aspect.is_finite() && aspect > 0.0 {
            aspect
        } else {
            1.0
        };
        // wgpu's clip space: depth 0..1, +Y up (the Direct3D convention).
        glam::camera::rh::proj::directx::perspective(self.fov_y_rad, aspect, self.near, self.far)
    }

    pub fn clip_from_world(&self, size_px: Vec2) -> Mat4 {
        self.clip_from_view(size_px.x / size_px.y.max(1.0)) * self.view_from_world()
    }

    /// The viewport pixel a world point projects to, with its distance along the view
    /// direction; `None` when the point is behind the near plane.
    pub fn world_to_pixel(&self, point: Vec3, size_px: Vec2) -> Option<(Vec2, f32)> {
        let clip = self.clip_from_world(size_px) * point.extend(1.0);
        if clip.w < self.near {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        let px = Vec2::new(
            (ndc.x * 0.5 + 0.5) * size_px.x,
            (0.5 - ndc.y * 0.5) * size_px.y,
        );
        px.is_finite().then_some((px, clip.w))
    }

    /// The ray from the eye through a viewport pixel.
    pub fn ray_through_pixel(&self, pixel: Vec2, size_px: Vec2) -> Ray {
        let ndc = Vec2::new(
            pixel.x / size_px.x.max(1.0) * 2.0 - 1.0,
            1.0 - pixel.y / size_px.y.max(1.0) * 2.0,
        );
        let world_from_clip = self.clip_from_world(size_px).inverse();
        let near = world_from_clip.project_point3(ndc.extend(0.0));
        let far = world_from_clip.project_point3(ndc.extend(1.0));
        Ray {
            origin: self.eye,
            direction: (far - near).normalize_or(self.forward()),
        }
    }

    /// Unit vector from the eye toward the target.
    pub fn forward(&self) -> Vec3 {
        (self.target - self.eye).normalize_or(Vec3::NEG_Z)
    }

    /// World length of one pixel at `distance` in front of the eye, for handles and
    /// screen-space tolerances.
    pub fn world_per_pixel(&self, distance: f32, viewport_height_px: f32) -> f32 {
        2.0 * distance * (self.fov_y_rad * 0.5).tan() / viewport_height_px.max(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_projects_to_the_centre_and_its_ray_returns_to_it() {
        let cam = Camera::default();
        let size = Vec2::new(800.0, 600.0);
        let (px, depth) = cam.world_to_pixel(cam.target, size).unwrap();
        assert!((px - size * 0.5).length() < 1e-3, "{px}");
        assert!((depth - cam.eye.distance(cam.target)).abs() < 1e-3);
        let ray = cam.ray_through_pixel(px, size);
        let back = ray.at(cam.eye.distance(cam.target));
        assert!(back.distance(cam.target) < 1e-3, "{back}");
    }

    #[test]
    fn points_behind_the_eye_do_not_project() {
        let cam = Camera::default();
        let behind = cam.eye - cam.forward();
        assert!(
            cam.world_to_pixel(behind, Vec2::new(100.0, 100.0))
                .is_none()
        );
    }

    #[test]
    fn up_in_the_world_is_up_on_screen() {
        let cam = Camera::default();
        let size = Vec2::new(800.0, 600.0);
        let (low, _) = cam.world_to_pixel(cam.target, size).unwrap();
        let (high, _) = cam.world_to_pixel(cam.target + Vec3::Y, size).unwrap();
        assert!(high.y < low.y);
    }
}
