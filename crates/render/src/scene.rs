//! What a frame shows, as plain data: bodies, lines, ground and camera, all in world space.
//! The editor and the validation grid build a [`Scene`]; [`crate::SceneRenderer`]
//! draws it. Nothing here knows wgpu.

use crate::camera::Camera;
use anymorph_io::gltf::SkinnedMesh;
use anymorph_runtime::creature::{Body, Shape};
use anymorph_runtime::math::Aabb;
use anymorph_runtime::pose::BodyPose;
use glam::{Mat4, Quat, Vec3};
use std::sync::Arc;

/// A linear RGBA colour with straight alpha.
pub type Rgba = [f32; 4];

/// Converts an 8-bit sRGB colour (what designers pick) to linear RGBA.
pub fn rgba_from_srgb8(r: u8, g: u8, b: u8, a: u8) -> Rgba {
    fn decode(c: u8) -> f32 {
        let c = f32::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    }
    [decode(r), decode(g), decode(b), f32::from(a) / 255.0]
}

/// One rigid body to draw, posed in world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyInstance {
    /// Centre of the body's box, world space.
    pub position: Vec3,
    /// World from body.
    pub rotation: Quat,
    pub half_extents: Vec3,
    pub shape: Shape,
    /// Linear RGB.
    pub color: [f32; 3],
    pub hovered: bool,
    pub selected: bool,
}

/// The drawn extent of a body in its own space: how much the unit mesh scales by and, for a
/// capsule, how far each hemisphere is pushed from the centre along local +Y.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeExtent {
    pub scale: Vec3,
    pub segment_half: f32,
}

impl ShapeExtent {
    /// Follows `Shape`'s contract: the shape fits in the body's box; a capsule runs along
    /// local +Y with radius `min(hx, hz)`, a sphere has radius `min` of the half extents.
    pub fn of(shape: Shape, half_extents: Vec3) -> ShapeExtent {
        let h = half_extents.abs();
        match shape {
            Shape::Box => ShapeExtent {
                scale: h,
                segment_half: 0.0,
            },
            Shape::Sphere => ShapeExtent {
                scale: Vec3::splat(h.min_element()),
                segment_half: 0.0,
            },
            Shape::Capsule => {
                let radius = h.x.min(h.z);
                ShapeExtent {
                    scale: Vec3::splat(radius),
                    segment_half: (h.y - radius).max(0.0),
                }
            }
        }
    }
}

impl BodyInstance {
    /// A creature's body drawn where `pose` puts it, in one colour, neither hovered nor
    /// selected.
    pub fn posed(body: &Body, pose: &BodyPose, color: [f32; 3]) -> BodyInstance {
        BodyInstance {
            position: pose.position,
            rotation: pose.rotation,
            half_extents: body.half_extents,
            shape: body.shape,
            color,
            hovered: false,
            selected: false,
        }
    }

    pub fn extent(&self) -> ShapeExtent {
        ShapeExtent::of(self.shape, self.half_extents)
    }

    /// The world-space box around the body's box.
    pub fn bounds(&self) -> Aabb {
        Aabb::of_oriented_box(self.position, self.rotation, self.half_extents.abs())
    }
}

/// A segment of constant pixel width with round ends; a point when `a == b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineSegment {
    pub a: Vec3,
    pub b: Vec3,
    pub color: Rgba,
    pub width_px: f32,
}

impl LineSegment {
    pub fn new(a: Vec3, b: Vec3, color: Rgba, width_px: f32) -> Self {
        LineSegment {
            a,
            b,
            color,
            width_px,
        }
    }

    /// A round dot of the given diameter.
    pub fn point(at: Vec3, color: Rgba, diameter_px: f32) -> Self {
        LineSegment::new(at, at, color, diameter_px)
    }
}

/// The ground plane: a disc of grid around `center` at `height`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    pub height: f32,
    pub center: Vec3,
    pub radius: f32,
    /// Metres between fine grid lines.
    pub cell: f32,
    /// Fine cells between major lines.
    pub cells_per_major: f32,
}

impl Ground {
    /// A ground around a box of content, with a grid cell that suits its size (a power of
    /// ten metres, so the grid stays readable for a 0.2 m critter and a 6 m giant).
    pub fn around(content: Aabb, height: f32) -> Ground {
        let (center, size) = if content.is_empty() {
            (Vec3::ZERO, 2.0)
        } else {
            (content.center(), content.size().max_element().max(0.1))
        };
        let cell = 10f32.powf((size / 8.0).log10().round()).clamp(0.01, 100.0);
        Ground {
            height,
            center,
            radius: size * 1.5 + 4.0 * cell,
            cell,
            cells_per_major: 5.0,
        }
    }
}

impl Ground {
    /// The grid on the ground as lines: fine lines every cell, brighter ones every major
    /// cell, each split into pieces that fade toward the disc's edge.
    pub fn grid_lines(&self) -> Vec<LineSegment> {
        const PIECES: i32 = 12;
        let cell = if self.cell.is_finite() && self.cell > 1e-4 {
            self.cell
        } else {
            1.0
        };
        let radius = if self.radius.is_finite() {
            self.radius.clamp(cell, 2000.0 * cell)
        } else {
            cell
        };
        let major = self.cells_per_major.max(1.0).round() as i64;
        // Lines fall on multiples of the cell in world space, so they stay put as the
        // content (and the disc's centre) moves.
        let first = |c: f32| ((c - radius) / cell).ceil() as i64;
        let last = |c: f32| ((c + radius) / cell).floor() as i64;
        let (cx, cz) = (self.center.x, self.center.z);
        let fade = |p: Vec3| {
            let r = Vec3::new(p.x - cx, 0.0, p.z - cz).length() / radius;
            1.0 - ((r - 0.5) / 0.45).clamp(0.0, 1.0)
        };
        let y = self.height;
        let mut lines = Vec::new();
        let mut add = |a: Vec3, b: Vec3, is_major: bool| {
            for k in 0..PIECES {
                let pa = a.lerp(b, k as f32 / PIECES as f32);
                let pb = a.lerp(b, (k + 1) as f32 / PIECES as f32);
                let alpha = fade((pa + pb) * 0.5);
                if alpha <= 0.01 {
                    continue;
                }
                let (color, width) = if is_major {
                    (rgba_from_srgb8(118, 121, 128, 255), 1.5)
                } else {
                    (rgba_from_srgb8(84, 86, 90, 255), 1.0)
                };
                lines.push(LineSegment::new(
                    pa,
                    pb,
                    [color[0], color[1], color[2], alpha],
                    width,
                ));
            }
        };
        for i in first(cx)..=last(cx) {
            let x = i as f32 * cell;
            let half = (radius * radius - (x - cx) * (x - cx)).max(0.0).sqrt();
            add(
                Vec3::new(x, y, cz - half),
                Vec3::new(x, y, cz + half),
                i % major == 0,
            );
        }
        for i in first(cz)..=last(cz) {
            let z = i as f32 * cell;
            let half = (radius * radius - (z - cz) * (z - cz)).max(0.0).sqrt();
            add(
                Vec3::new(cx - half, y, z),
                Vec3::new(cx + half, y, z),
                i % major == 0,
            );
        }
        lines
    }
}

/// A creature's skinned mesh posed for this frame. The renderer uploads each mesh's vertices
/// once (it recognises the same `Arc` frame after frame) and only the joint matrices after.
#[derive(Clone, Debug)]
pub struct SkinnedInstance {
    pub mesh: Arc<SkinnedMesh>,
    /// Per body of the creature: world from the mesh at rest (the creature's
    /// [`SkinnedMesh::skin_matrices`] with its placement in the world folded in).
    pub joint_matrices: Vec<Mat4>,
    /// Linear RGB and opacity: below 1 the bodies behind the skin show through.
    pub color: Rgba,
}

impl PartialEq for SkinnedInstance {
    /// The same mesh (not merely an equal one) in the same pose and colour.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.mesh, &other.mesh)
            && self.joint_matrices == other.joint_matrices
            && self.color == other.color
    }
}

/// Everything one frame draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub camera: Camera,
    pub bodies: Vec<BodyInstance>,
    /// `hidden_bodies[i]` keeps `bodies[i]` from being drawn (a proxy under its creature's
    /// opaque mesh); bodies past its end are drawn. Hidden bodies still cast contact
    /// shadows and count for bounds and picking.
    pub hidden_bodies: Vec<bool>,
    pub meshes: Vec<SkinnedInstance>,
    /// Lines hidden by bodies in front of them.
    pub lines: Vec<LineSegment>,
    /// Lines and points drawn over everything (skeletons, curves, handles).
    pub overlay: Vec<LineSegment>,
    pub ground: Option<Ground>,
    pub contact_shadows: bool,
    /// Unit vector toward the key light, world space.
    pub light_dir: Vec3,
}

impl Default for Scene {
    fn default() -> Self {
        Scene {
            camera: Camera::default(),
            bodies: Vec::new(),
            hidden_bodies: Vec::new(),
            meshes: Vec::new(),
            lines: Vec::new(),
            overlay: Vec::new(),
            ground: None,
            contact_shadows: true,
            light_dir: Vec3::new(0.45, 0.8, 0.4).normalize_or(Vec3::Y),
        }
    }
}

impl Scene {
    /// The world box around every body.
    pub fn bounds(&self) -> Aabb {
        self.bodies
            .iter()
            .fold(Aabb::EMPTY, |acc, b| acc.union(b.bounds()))
    }
}

/// A soft dark ellipse on the ground under a body: darker and tighter the closer the body
/// is to the ground, gone once it is higher than about its own size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactShadow {
    /// World x, z.
    pub center: [f32; 2],
    /// Half axes of the ellipse on the ground (x, z each).
    pub axis_u: [f32; 2],
    pub axis_v: [f32; 2],
    pub opacity: f32,
}

impl ContactShadow {
    pub fn under(body: &BodyInstance, ground_height: f32) -> Option<ContactShadow> {
        let bounds = body.bounds();
        let gap = bounds.min.y - ground_height;
        let size = body.half_extents.abs().max_element().max(1e-3);
        let reach = 1.5 * size + 0.05;
        if !(gap.is_finite() && gap < reach) || bounds.max.y < ground_height {
            return None;
        }
        let closeness = 1.0 - (gap.max(0.0) / reach);
        // The body's own x and z axes flattened onto the ground give the ellipse's shape.
        let extent = body.extent();
        let reach_x = body.rotation * Vec3::X * (extent.scale.x);
        let reach_z = body.rotation * Vec3::Z * (extent.scale.z);
        let reach_y = body.rotation * Vec3::Y * (extent.scale.y + extent.segment_half);
        let flat = |v: Vec3| Vec3::new(v.x, 0.0, v.z);
        let (u, v) = {
            // Of the three axes, keep the two that lie flattest on the ground.
            let mut axes = [flat(reach_x), flat(reach_y), flat(reach_z)];
            axes.sort_by(|a, b| b.length_squared().total_cmp(&a.length_squared()));
            (axes[0], axes[1])
        };
        let grow = 1.25 + 0.5 * (1.0 - closeness);
        let min_half = 0.3 * size;
        let widen = |a: Vec3, other: Vec3| {
            if a.length() < min_half {
                let dir = a
                    .try_normalize()
                    .unwrap_or_else(|| Vec3::new(-other.z, 0.0, other.x).normalize_or(Vec3::X));
                dir * min_half
            } else {
                a
            }
        };
        let u = widen(u, v) * grow;
        let v = widen(v, u) * grow;
        Some(ContactShadow {
            center: [body.position.x, body.position.z],
            axis_u: [u.x, u.z],
            axis_v: [v.x, v.z],
            opacity: 0.75 * closeness * closeness,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(shape: Shape, y: f32) -> BodyInstance {
        BodyInstance {
            position: Vec3::new(0.0, y, 0.0),
            rotation: Quat::IDENTITY,
            half_extents: Vec3::new(0.1, 0.3, 0.2),
            shape,
            color: [1.0; 3],
            hovered: false,
            selected: false,
        }
    }

    #[test]
    fn capsules_run_along_y_with_the_smaller_horizontal_radius() {
        let e = ShapeExtent::of(Shape::Capsule, Vec3::new(0.1, 0.3, 0.2));
        assert_eq!(e.scale, Vec3::splat(0.1));
        assert!((e.segment_half - 0.2).abs() < 1e-6);
        let s = ShapeExtent::of(Shape::Sphere, Vec3::new(0.1, 0.3, 0.2));
        assert_eq!(s.scale, Vec3::splat(0.1));
    }

    #[test]
    fn shadows_fade_with_height() {
        let low = ContactShadow::under(&body(Shape::Box, 0.3), 0.0).unwrap();
        let mid = ContactShadow::under(&body(Shape::Box, 0.6), 0.0).unwrap();
        assert!(low.opacity > mid.opacity);
        assert!(ContactShadow::under(&body(Shape::Box, 5.0), 0.0).is_none());
    }

    #[test]
    fn grid_cells_follow_content_size() {
        let small = Ground::around(Aabb::from_points([Vec3::ZERO, Vec3::splat(0.2)]), 0.0);
        let big = Ground::around(Aabb::from_points([Vec3::ZERO, Vec3::splat(40.0)]), 0.0);
        assert!(small.cell < big.cell);
        assert!(big.radius > 40.0);
    }

    #[test]
    fn grid_lines_sit_on_cell_multiples_inside_the_disc() {
        let g = Ground {
            height: 0.0,
            center: Vec3::new(0.3, 0.0, -0.2),
            radius: 3.0,
            cell: 0.5,
            cells_per_major: 5.0,
        };
        let lines = g.grid_lines();
        assert!(lines.len() > 20);
        for l in &lines {
            let on_x = (l.a.x / 0.5).fract().abs() < 1e-4 && l.a.x == l.b.x;
            let on_z = (l.a.z / 0.5).fract().abs() < 1e-4 && l.a.z == l.b.z;
            assert!(on_x || on_z, "{l:?}");
            assert!(Vec3::new(l.a.x - 0.3, 0.0, l.a.z + 0.2).length() <= 3.0 + 1e-3);
        }
    }

    #[test]
    fn srgb_decoding_keeps_black_and_white() {
        assert_eq!(rgba_from_srgb8(0, 0, 0, 255), [0.0, 0.0, 0.0, 1.0]);
        let w = rgba_from_srgb8(255, 255, 255, 255);
        assert!((w[0] - 1.0).abs() < 1e-6);
    }
}
