//! Skinned meshes on the GPU: each mesh's vertices and indices are uploaded once and kept
//! while the scene keeps handing the renderer the same `Arc`; each frame uploads only the
//! instances' joint matrices into one uniform buffer, one block per instance, bound with a
//! dynamic offset.

use crate::gpu_types::{SKIN_UNIFORM_BYTES, SkinnedVertex, push_skin_uniforms};
use crate::scene::SkinnedInstance;
use anymorph_io::gltf::SkinnedMesh;
use std::collections::HashMap;
use std::sync::{Arc, Weak};
use wgpu::util::DeviceExt as _;

/// A mesh's buffers, and a weak handle to tell a live mesh from a new one that happens to
/// reuse a freed mesh's address.
struct GpuMesh {
    source: Weak<SkinnedMesh>,
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    index_count: u32,
}

/// One instance to draw: which mesh, where its `Skin` block starts, whether it blends.
#[derive(Clone, Copy, Debug)]
struct Draw {
    mesh: usize,
    offset: u32,
    translucent: bool,
}

/// What [`SkinnedMeshes`] did, for tests and the status bar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SkinnedStats {
    /// Instances drawn by the last prepare.
    pub draws: u32,
    /// Meshes whose buffers are on the GPU now.
    pub meshes_resident: u32,
    /// Vertex/index uploads since the renderer was made (a mesh reused across frames
    /// counts once).
    pub uploads: u64,
}

/// The skinned-mesh part of the scene renderer: pipelines, mesh cache, joint uniforms.
pub struct SkinnedMeshes {
    /// Drawn when the bodies are hidden: the mesh alone, opaque.
    opaque: wgpu::RenderPipeline,
    /// The nearest skin's depth, so a translucent mesh blends one layer over the bodies
    /// instead of its own overlapping folds.
    depth_only: wgpu::RenderPipeline,
    translucent: wgpu::RenderPipeline,
    skin_layout: wgpu::BindGroupLayout,
    skins: wgpu::Buffer,
    skin_bind_group: wgpu::BindGroup,
    /// Bytes between instance blocks: the block rounded up to the uniform offset alignment.
    stride: u64,
    meshes: HashMap<usize, GpuMesh>,
    draws: Vec<Draw>,
    /// Meshes found undrawable, so they are neither retried nor reported every frame.
    refused: HashMap<usize, Weak<SkinnedMesh>>,
    uploads: u64,
}

/// The pipeline choices [`SkinnedMeshes::new`] needs from the scene renderer.
pub struct SkinnedPipelines {
    pub opaque: wgpu::RenderPipeline,
    pub depth_only: wgpu::RenderPipeline,
    pub translucent: wgpu::RenderPipeline,
}

impl SkinnedMeshes {
    /// The bind group layout of the per-instance `Skin` block (group 1).
    pub fn skin_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
        device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("anymorph skin"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: wgpu::BufferSize::new(SKIN_UNIFORM_BYTES as u64),
                },
                count: None,
            }],
        })
    }

    /// The vertex layout of shaders/skinned.wgsl `SkinnedIn`.
    pub fn vertex_layout() -> wgpu::VertexBufferLayout<'static> {
        const ATTRIBUTES: [wgpu::VertexAttribute; 4] = wgpu::vertex_attr_array![
            0 => Float32x3, 1 => Float32x3, 2 => Uint16x4, 3 => Float32x4
        ];
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<SkinnedVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &ATTRIBUTES,
        }
    }

    pub fn new(
        device: &wgpu::Device,
        skin_layout: wgpu::BindGroupLayout,
        pipelines: SkinnedPipelines,
    ) -> Self {
        let align = u64::from(device.limits().min_uniform_buffer_offset_alignment).max(1);
        let stride = (SKIN_UNIFORM_BYTES as u64).div_ceil(align) * align;
        let skins = skin_buffer(device, stride);
        let skin_bind_group = skin_bind_group(device, &skin_layout, &skins);
        SkinnedMeshes {
            opaque: pipelines.opaque,
            depth_only: pipelines.depth_only,
            translucent: pipelines.translucent,
            skin_layout,
            skins,
            skin_bind_group,
            stride,
            meshes: HashMap::new(),
            draws: Vec::new(),
            refused: HashMap::new(),
            uploads: 0,
        }
    }

    pub fn stats(&self) -> SkinnedStats {
        SkinnedStats {
            draws: self.draws.len() as u32,
            meshes_resident: self.meshes.len() as u32,
            uploads: self.uploads,
        }
    }

    /// Uploads new meshes, drops the buffers of meshes no one holds any more, and writes
    /// every instance's joint matrices.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        instances: &[SkinnedInstance],
    ) {
        self.meshes.retain(|_, m| m.source.strong_count() > 0);
        self.refused.retain(|_, m| m.strong_count() > 0);
        self.draws.clear();
        let mut floats: Vec<f32> = Vec::new();
        let stride_floats = (self.stride / 4) as usize;
        for instance in instances {
            let Some(mesh) = self.resident(device, &instance.mesh) else {
                continue;
            };
            let offset = floats.len();
            if !push_skin_uniforms(instance, &mut floats) {
                let first = self
                    .refused
                    .insert(mesh, Arc::downgrade(&instance.mesh))
                    .is_none();
                if first {
                    log::warn!(
                        "a skinned mesh has {} joints (at most {}) or a non-finite pose; \
                         it is not drawn",
                        instance.joint_matrices.len(),
                        crate::gpu_types::MAX_JOINTS
                    );
                }
                continue;
            }
            floats.resize(offset + stride_floats, 0.0);
            self.draws.push(Draw {
                mesh,
                offset: (offset * 4) as u32,
                translucent: instance.color[3] < 1.0,
            });
        }
        if floats.is_empty() {
            return;
        }
        let bytes: &[u8] = bytemuck::cast_slice(&floats);
        if bytes.len() as u64 > self.skins.size() {
            let size = (bytes.len() as u64).next_power_of_two();
            log::trace!("growing the skin uniforms to {size} bytes");
            self.skins = skin_buffer(device, size);
            self.skin_bind_group = skin_bind_group(device, &self.skin_layout, &self.skins);
        }
        queue.write_buffer(&self.skins, 0, bytes);
    }

    /// The cache key of `mesh`, uploading it first if it is new. `None` when it cannot be
    /// drawn (no triangles, inconsistent arrays).
    fn resident(&mut self, device: &wgpu::Device, mesh: &Arc<SkinnedMesh>) -> Option<usize> {
        let key = Arc::as_ptr(mesh) as usize;
        let same = |w: &Weak<SkinnedMesh>| w.upgrade().is_some_and(|s| Arc::ptr_eq(&s, mesh));
        if self.meshes.get(&key).is_some_and(|m| same(&m.source)) {
            return Some(key);
        }
        // A joint-count refusal is per pose, so only a broken mesh is skipped here.
        if self.refused.get(&key).is_some_and(same) && !self.meshes.contains_key(&key) {
            return None;
        }
        let vertices = SkinnedVertex::of_mesh(mesh).filter(|_| !mesh.indices.is_empty());
        let Some(vertices) = vertices else {
            self.refused.insert(key, Arc::downgrade(mesh));
            log::warn!(
                "a skinned mesh ({} vertices, {} indices) is empty or inconsistent; it is not drawn",
                mesh.positions.len(),
                mesh.indices.len()
            );
            return None;
        };
        self.uploads += 1;
        log::debug!(
            "uploading a skinned mesh: {} vertices, {} triangles",
            vertices.len(),
            mesh.triangle_count()
        );
        self.meshes.insert(
            key,
            GpuMesh {
                source: Arc::downgrade(mesh),
                vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("anymorph skinned vertices"),
                    contents: bytemuck::cast_slice(&vertices),
                    usage: wgpu::BufferUsages::VERTEX,
                }),
                indices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("anymorph skinned indices"),
                    contents: bytemuck::cast_slice(&mesh.indices),
                    usage: wgpu::BufferUsages::INDEX,
                }),
                index_count: mesh.indices.len() as u32,
            },
        );
        Some(key)
    }

    /// Records the prepared instances: opaque ones first, then for translucent ones the
    /// nearest skin's depth and its colour over what is already drawn. The frame bind group
    /// (group 0) must be set.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        let passes: [(&wgpu::RenderPipeline, bool); 3] = [
            (&self.opaque, false),
            (&self.depth_only, true),
            (&self.translucent, true),
        ];
        for (pipeline, translucent) in passes {
            let mut set = false;
            for d in self.draws.iter().filter(|d| d.translucent == translucent) {
                let Some(mesh) = self.meshes.get(&d.mesh) else {
                    continue;
                };
                if !set {
                    pass.set_pipeline(pipeline);
                    set = true;
                }
                pass.set_bind_group(1, &self.skin_bind_group, &[d.offset]);
                pass.set_vertex_buffer(0, mesh.vertices.slice(..));
                pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(0..mesh.index_count, 0, 0..1);
            }
        }
    }
}

fn skin_buffer(device: &wgpu::Device, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("anymorph skin uniforms"),
        size: size.max(SKIN_UNIFORM_BYTES as u64),
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

fn skin_bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    buffer: &wgpu::Buffer,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("anymorph skin"),
        layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer,
                offset: 0,
                size: wgpu::BufferSize::new(SKIN_UNIFORM_BYTES as u64),
            }),
        }],
    })
}

#[cfg(test)]
mod tests {
    use crate::gpu_types::{SKIN_UNIFORM_BYTES, SkinnedVertex};
    use crate::renderer::SCENE_SHADERS;
    use wgpu::naga;

    /// Every scene shader parses and validates as the renderer compiles it (common.wgsl and
    /// lighting.wgsl prepended), so a WGSL mistake fails here with naga's message rather
    /// than as a device error when the editor starts.
    #[test]
    fn scene_shaders_parse_and_validate() {
        for (name, source) in SCENE_SHADERS {
            let module = naga::front::wgsl::parse_str(source)
                .unwrap_or_else(|e| panic!("{name}.wgsl: {}", e.emit_to_string(source)));
            naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                naga::valid::Capabilities::default(),
            )
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}.wgsl: {}", e.emit_to_string(source)));
        }
    }

    /// The `Skin` block and `SkinnedIn` in shaders/skinned.wgsl have the sizes the Rust
    /// side writes.
    #[test]
    fn skinned_layouts_match_the_shader() {
        let source = SCENE_SHADERS
            .iter()
            .find(|(n, _)| *n == "skinned")
            .map(|(_, s)| *s)
            .expect("skinned shader");
        let module = naga::front::wgsl::parse_str(source).expect("parses");
        let skin = module
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some("Skin"))
            .map(|(_, t)| t)
            .expect("struct Skin");
        let naga::TypeInner::Struct { span, .. } = skin.inner else {
            panic!("Skin is not a struct");
        };
        assert_eq!(span as usize, SKIN_UNIFORM_BYTES);
        assert_eq!(std::mem::size_of::<SkinnedVertex>(), 48);
    }
}
