//! The byte layouts the shaders read: per-frame uniforms and per-instance records, and their
//! conversion from [`crate::scene`] data.

use crate::scene::{BodyInstance, ContactShadow, Ground, LineSegment, Scene};
use bytemuck::{Pod, Zeroable};
use glam::Vec2;

/// `Frame` in shaders/common.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct FrameUniforms {
    pub clip_from_world: [[f32; 4]; 4],
    pub eye: [f32; 4],
    pub light_dir: [f32; 4],
    pub viewport: [f32; 4],
    pub ground: [f32; 4],
    pub ground_center: [f32; 4],
}

impl FrameUniforms {
    pub fn of(scene: &Scene, size_px: [u32; 2]) -> Self {
        let size = Vec2::new(size_px[0].max(1) as f32, size_px[1].max(1) as f32);
        let ground = scene.ground.unwrap_or(Ground {
            height: 0.0,
            center: glam::Vec3::ZERO,
            radius: 1.0,
            cell: 1.0,
            cells_per_major: 5.0,
        });
        FrameUniforms {
            clip_from_world: scene.camera.clip_from_world(size).to_cols_array_2d(),
            eye: scene.camera.eye.extend(1.0).to_array(),
            light_dir: scene
                .light_dir
                .normalize_or(glam::Vec3::Y)
                .extend(0.0)
                .to_array(),
            viewport: [size.x, size.y, 1.0 / size.x, 1.0 / size.y],
            ground: [
                ground.height,
                ground.cell.max(1e-4),
                ground.radius.max(1e-3),
                ground.cells_per_major.max(1.0),
            ],
            ground_center: [ground.center.x, ground.center.y, ground.center.z, 0.0],
        }
    }
}

/// `InstanceIn` in shaders/bodies.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct BodyGpu {
    pub position: [f32; 4],
    pub rotation: [f32; 4],
    pub scale_segment: [f32; 4],
    pub color_highlight: [f32; 4],
}

impl BodyGpu {
    pub fn of(body: &BodyInstance) -> Self {
        let extent = body.extent();
        let highlight = u32::from(body.hovered) | (u32::from(body.selected) << 1);
        let [r, g, b] = body.color;
        BodyGpu {
            position: body.position.extend(1.0).to_array(),
            rotation: unit_or_identity(body.rotation).to_array(),
            scale_segment: extent.scale.extend(extent.segment_half).to_array(),
            color_highlight: [r, g, b, highlight as f32],
        }
    }
}

/// A zero or broken quaternion draws unrotated rather than poisoning the shader with NaN.
fn unit_or_identity(q: glam::Quat) -> glam::Quat {
    let len = q.length();
    if len.is_finite() && len > 1e-6 {
        q / len
    } else {
        glam::Quat::IDENTITY
    }
}

/// `ShadowIn` in shaders/ground.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct ShadowGpu {
    pub center_axis: [f32; 4],
    pub axis_opacity: [f32; 4],
}

impl ShadowGpu {
    pub fn of(s: &ContactShadow) -> Self {
        ShadowGpu {
            center_axis: [s.center[0], s.center[1], s.axis_u[0], s.axis_u[1]],
            axis_opacity: [s.axis_v[0], s.axis_v[1], s.opacity, 0.0],
        }
    }
}

/// `LineIn` in shaders/lines.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct LineGpu {
    pub a_width: [f32; 4],
    pub b: [f32; 4],
    pub color: [f32; 4],
}

impl LineGpu {
    pub fn of(l: &LineSegment) -> Self {
        LineGpu {
            a_width: l.a.extend(l.width_px).to_array(),
            b: l.b.extend(0.0).to_array(),
            color: l.color,
        }
    }
}

/// Drops anything with a NaN or infinity, which would poison a whole draw on some drivers.
pub fn finite_lines(lines: &[LineSegment]) -> Vec<LineGpu> {
    lines
        .iter()
        .filter(|l| l.a.is_finite() && l.b.is_finite() && l.width_px.is_finite())
        .map(LineGpu::of)
        .collect()
}

/// `SkinnedIn` in shaders/skinned.wgsl: one vertex of a skinned mesh at rest.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SkinnedVertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub joints: [u16; 4],
    pub weights: [f32; 4],
}

impl SkinnedVertex {
    /// The mesh's vertices, or `None` when its arrays disagree in length or a triangle
    /// points past them (drawing that would read garbage).
    pub fn of_mesh(mesh: &anymorph_io::gltf::SkinnedMesh) -> Option<Vec<SkinnedVertex>> {
        let n = mesh.positions.len();
        let consistent = mesh.normals.len() == n
            && mesh.joints.len() == n
            && mesh.weights.len() == n
            && mesh.indices.iter().all(|&i| (i as usize) < n);
        if !consistent {
            return None;
        }
        Some(
            (0..n)
                .map(|v| SkinnedVertex {
                    position: mesh.positions[v].to_array(),
                    normal: mesh.normals[v].to_array(),
                    joints: mesh.joints[v],
                    weights: mesh.weights[v],
                })
                .collect(),
        )
    }
}

/// Joints a skinned mesh may have: `MAX_JOINTS` in shaders/skinned.wgsl.
pub const MAX_JOINTS: usize = 255;

/// Bytes of `Skin` in shaders/skinned.wgsl: a colour and [`MAX_JOINTS`] matrices.
pub const SKIN_UNIFORM_BYTES: usize = 16 + MAX_JOINTS * 64;
// WebGL2-class limits (the GL backend, the offscreen renderer) allow 16 KiB per binding.
const _: () = assert!(SKIN_UNIFORM_BYTES <= 16 << 10);

/// Appends one instance's `Skin` block (colour, then its joint matrices, zero-padded to
/// [`SKIN_UNIFORM_BYTES`]) to `out` as floats. Returns false and appends nothing when the
/// instance has more joints than the shader holds or a matrix is not finite (a NaN would
/// poison the whole draw).
pub fn push_skin_uniforms(instance: &crate::scene::SkinnedInstance, out: &mut Vec<f32>) -> bool {
    let m = &instance.joint_matrices;
    if m.len() > MAX_JOINTS
        || m.iter().any(|j| !j.is_finite())
        || instance.color.iter().any(|c| !c.is_finite())
    {
        return false;
    }
    let start = out.len();
    out.extend_from_slice(&instance.color);
    for j in m {
        out.extend_from_slice(&j.to_cols_array());
    }
    out.resize(start + SKIN_UNIFORM_BYTES / 4, 0.0);
    true
}
