//! The scene renderer: pipelines and meshes created once, per-frame instance uploads, and
//! one render pass into an offscreen [`RenderTarget`] with its own depth buffer.

use crate::gpu_types::{BodyGpu, FrameUniforms, LineGpu, ShadowGpu, finite_lines};
use crate::mesh::{self, MeshData, MeshVertex};
use crate::scene::{ContactShadow, Scene};
use crate::skinned::{SkinnedMeshes, SkinnedPipelines};
use anymorph_runtime::creature::Shape;
use wgpu::util::DeviceExt as _;

/// The colour format of offscreen targets: shading is linear and the hardware encodes.
pub const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The largest multisample count the adapter supports for our formats, up to `wanted`.
pub fn supported_sample_count(adapter: &wgpu::Adapter, wanted: u32) -> u32 {
    let color = adapter.get_texture_format_features(COLOR_FORMAT).flags;
    let depth = adapter.get_texture_format_features(DEPTH_FORMAT).flags;
    [16, 8, 4, 2]
        .into_iter()
        .find(|&n| {
            n <= wanted && color.sample_count_supported(n) && depth.sample_count_supported(n)
        })
        .unwrap_or(1)
}

/// Behind everything (linear): the dark grey of 3D packages' viewports.
const BACKGROUND: wgpu::Color = wgpu::Color {
    r: 0.03,
    g: 0.033,
    b: 0.04,
    a: 1.0,
};

/// Where a scene is drawn: a colour texture that can be sampled or copied, a depth buffer,
/// and a multisampled colour buffer when anti-aliasing is on.
pub struct RenderTarget {
    size_px: [u32; 2],
    sample_count: u32,
    color: wgpu::Texture,
    color_view: wgpu::TextureView,
    msaa_view: Option<wgpu::TextureView>,
    depth_view: wgpu::TextureView,
}

impl RenderTarget {
    pub fn new(device: &wgpu::Device, size_px: [u32; 2], sample_count: u32) -> Self {
        let size = wgpu::Extent3d {
            width: size_px[0].max(1),
            height: size_px[1].max(1),
            depth_or_array_layers: 1,
        };
        let texture = |label, format, samples, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let color = texture(
            "anymorph viewport colour",
            COLOR_FORMAT,
            1,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC,
        );
        let msaa_view = (sample_count > 1).then(|| {
            texture(
                "anymorph viewport multisampled colour",
                COLOR_FORMAT,
                sample_count,
                wgpu::TextureUsages::RENDER_ATTACHMENT,
            )
            .create_view(&wgpu::TextureViewDescriptor::default())
        });
        let depth_view = texture(
            "anymorph viewport depth",
            DEPTH_FORMAT,
            sample_count,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
        )
        .create_view(&wgpu::TextureViewDescriptor::default());
        RenderTarget {
            size_px: [size.width, size.height],
            sample_count,
            color_view: color.create_view(&wgpu::TextureViewDescriptor::default()),
            color,
            msaa_view,
            depth_view,
        }
    }

    pub fn size_px(&self) -> [u32; 2] {
        self.size_px
    }

    pub fn sample_count(&self) -> u32 {
        self.sample_count
    }

    /// The final (resolved) image.
    pub fn color_texture(&self) -> &wgpu::Texture {
        &self.color
    }

    pub fn color_view(&self) -> &wgpu::TextureView {
        &self.color_view
    }
}

/// A vertex/instance buffer that grows (doubling) when a frame needs more room.
struct GrowBuffer {
    label: &'static str,
    usage: wgpu::BufferUsages,
    buffer: wgpu::Buffer,
}

impl GrowBuffer {
    fn new(device: &wgpu::Device, label: &'static str, usage: wgpu::BufferUsages) -> Self {
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        GrowBuffer {
            label,
            usage,
            buffer: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: 4096,
                usage,
                mapped_at_creation: false,
            }),
        }
    }

    fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let needed = bytes.len() as u64;
        if needed > self.buffer.size() {
            let size = needed.next_power_of_two().max(4096);
            log::trace!("growing {} to {size} bytes", self.label);
            self.buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(self.label),
                size,
                usage: self.usage,
                mapped_at_creation: false,
            });
        }
        queue.write_buffer(&self.buffer, 0, bytes);
    }
}

struct Mesh {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    index_count: u32,
}

impl Mesh {
    fn upload(device: &wgpu::Device, label: &str, data: &MeshData) -> Self {
        Mesh {
            vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(&data.vertices),
                usage: wgpu::BufferUsages::VERTEX,
            }),
            indices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(&data.indices),
                usage: wgpu::BufferUsages::INDEX,
            }),
            index_count: data.indices.len() as u32,
        }
    }
}

/// How many instances of each kind the last [`SceneRenderer::prepare`] uploaded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    boxes: u32,
    round: u32,
    shadows: u32,
    grid: u32,
    lines: u32,
    overlay: u32,
    ground: bool,
}

/// What the last [`SceneRenderer::prepare`] set up, for tests, benchmarks and the status bar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RenderStats {
    /// Body proxies drawn (hidden ones not counted).
    pub bodies: u32,
    /// Skinned meshes drawn.
    pub skinned_draws: u32,
    /// Skinned meshes whose vertex and index buffers are on the GPU.
    pub skinned_meshes_resident: u32,
    /// Skinned-mesh uploads since the renderer was made: a mesh drawn frame after frame
    /// counts once.
    pub skinned_uploads: u64,
}

/// Draws [`Scene`]s. Create once per device; `prepare` then `draw` each frame.
pub struct SceneRenderer {
    sample_count: u32,
    frame_buffer: wgpu::Buffer,
    frame_bind_group: wgpu::BindGroup,
    ground: wgpu::RenderPipeline,
    shadows: wgpu::RenderPipeline,
    bodies: wgpu::RenderPipeline,
    lines_depth_tested: wgpu::RenderPipeline,
    lines_on_top: wgpu::RenderPipeline,
    cube: Mesh,
    sphere: Mesh,
    body_instances: GrowBuffer,
    shadow_instances: GrowBuffer,
    grid_instances: GrowBuffer,
    line_instances: GrowBuffer,
    overlay_instances: GrowBuffer,
    skinned: SkinnedMeshes,
    counts: Counts,
}

const BODIES_WGSL: &str = concat!(
    include_str!("../shaders/common.wgsl"),
    include_str!("../shaders/lighting.wgsl"),
    include_str!("../shaders/bodies.wgsl")
);
const GROUND_WGSL: &str = concat!(
    include_str!("../shaders/common.wgsl"),
    include_str!("../shaders/ground.wgsl")
);
const LINES_WGSL: &str = concat!(
    include_str!("../shaders/common.wgsl"),
    include_str!("../shaders/lines.wgsl")
);
const SKINNED_WGSL: &str = concat!(
    include_str!("../shaders/common.wgsl"),
    include_str!("../shaders/lighting.wgsl"),
    include_str!("../shaders/skinned.wgsl")
);

/// Every scene shader as the renderer compiles it, for the test that validates them.
#[cfg(test)]
pub(crate) const SCENE_SHADERS: [(&str, &str); 4] = [
    ("bodies", BODIES_WGSL),
    ("ground", GROUND_WGSL),
    ("lines", LINES_WGSL),
    ("skinned", SKINNED_WGSL),
];

/// What a pipeline does with colour.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ColorUse {
    /// Replaces what is there.
    Opaque,
    /// Alpha-blends over what is there.
    Blend,
    /// Writes no colour (a depth pre-pass).
    None,
}

/// How a pipeline treats depth.
#[derive(Clone, Copy)]
enum DepthUse {
    /// Tested and written (opaque geometry).
    Write,
    /// Tested, not written (decals and lines among bodies).
    Test,
    /// Drawn over everything.
    Ignore,
}

impl SceneRenderer {
    /// `sample_count` must be one the adapter supports (see [`supported_sample_count`]).
    pub fn new(device: &wgpu::Device, sample_count: u32) -> Self {
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("anymorph frame"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(
                        std::mem::size_of::<FrameUniforms>() as u64
                    ),
                },
                count: None,
            }],
        });
        let frame_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("anymorph frame"),
            size: std::mem::size_of::<FrameUniforms>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let frame_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("anymorph frame"),
            layout: &frame_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: frame_buffer.as_entire_binding(),
            }],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("anymorph scene"),
            bind_group_layouts: &[Some(&frame_layout)],
            immediate_size: 0,
        });
        let shader = |label, source: &'static str| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            })
        };
        let bodies_shader = shader("anymorph bodies", BODIES_WGSL);
        let ground_shader = shader("anymorph ground", GROUND_WGSL);
        let lines_shader = shader("anymorph lines", LINES_WGSL);
        let skinned_shader = shader("anymorph skinned", SKINNED_WGSL);

        let builder = PipelineBuilder {
            device,
            layout: &layout,
            sample_count,
        };
        let skin_layout = SkinnedMeshes::skin_layout(device);
        let skinned_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("anymorph skinned"),
            bind_group_layouts: &[Some(&frame_layout), Some(&skin_layout)],
            immediate_size: 0,
        });
        let skinned_builder = PipelineBuilder {
            device,
            layout: &skinned_layout,
            sample_count,
        };
        // Rigs are not always closed or consistently wound: no culling, and the shader
        // lights whichever side faces the eye.
        let skinned_pipeline = |label, depth, color| {
            skinned_builder.build(
                label,
                (&skinned_shader, "vs_skinned", "fs_skinned"),
                &[Some(SkinnedMeshes::vertex_layout())],
                depth,
                color,
                false,
            )
        };
        let skinned = SkinnedMeshes::new(
            device,
            skin_layout,
            SkinnedPipelines {
                opaque: skinned_pipeline("anymorph skinned", DepthUse::Write, ColorUse::Opaque),
                depth_only: skinned_pipeline(
                    "anymorph skinned depth",
                    DepthUse::Write,
                    ColorUse::None,
                ),
                translucent: skinned_pipeline(
                    "anymorph skinned translucent",
                    DepthUse::Test,
                    ColorUse::Blend,
                ),
            },
        );
        let mesh_vertex = wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<MeshVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32],
        };
        let body_instance = wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<BodyGpu>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &wgpu::vertex_attr_array![
                3 => Float32x4, 4 => Float32x4, 5 => Float32x4, 6 => Float32x4
            ],
        };
        let shadow_instance = wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<ShadowGpu>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4],
        };
        let line_instance = wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<LineGpu>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4, 2 => Float32x4],
        };

        SceneRenderer {
            sample_count,
            ground: builder.build(
                "anymorph ground",
                (&ground_shader, "vs_ground", "fs_ground"),
                &[],
                DepthUse::Write,
                ColorUse::Blend,
                false,
            ),
            shadows: builder.build(
                "anymorph contact shadows",
                (&ground_shader, "vs_shadow", "fs_shadow"),
                &[Some(shadow_instance)],
                DepthUse::Test,
                ColorUse::Blend,
                false,
            ),
            bodies: builder.build(
                "anymorph bodies",
                (&bodies_shader, "vs_body", "fs_body"),
                &[Some(mesh_vertex), Some(body_instance)],
                DepthUse::Write,
                ColorUse::Opaque,
                true,
            ),
            lines_depth_tested: builder.build(
                "anymorph lines",
                (&lines_shader, "vs_line", "fs_line"),
                &[Some(line_instance.clone())],
                DepthUse::Test,
                ColorUse::Blend,
                false,
            ),
            lines_on_top: builder.build(
                "anymorph overlay",
                (&lines_shader, "vs_line", "fs_line"),
                &[Some(line_instance)],
                DepthUse::Ignore,
                ColorUse::Blend,
                false,
            ),
            cube: Mesh::upload(device, "anymorph cube", &mesh::unit_cube()),
            sphere: Mesh::upload(device, "anymorph sphere", &mesh::split_sphere(16, 6)),
            body_instances: GrowBuffer::new(
                device,
                "anymorph body instances",
                wgpu::BufferUsages::VERTEX,
            ),
            shadow_instances: GrowBuffer::new(
                device,
                "anymorph shadow instances",
                wgpu::BufferUsages::VERTEX,
            ),
            grid_instances: GrowBuffer::new(
                device,
                "anymorph grid instances",
                wgpu::BufferUsages::VERTEX,
            ),
            line_instances: GrowBuffer::new(
                device,
                "anymorph line instances",
                wgpu::BufferUsages::VERTEX,
            ),
            overlay_instances: GrowBuffer::new(
                device,
                "anymorph overlay instances",
                wgpu::BufferUsages::VERTEX,
            ),
            skinned,
            frame_buffer,
            frame_bind_group,
            counts: Counts::default(),
        }
    }

    pub fn sample_count(&self) -> u32 {
        self.sample_count
    }

    /// Uploads the scene's uniforms and instances for a target of `size_px`.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        scene: &Scene,
        size_px: [u32; 2],
    ) {
        let uniforms = FrameUniforms::of(scene, size_px);
        queue.write_buffer(&self.frame_buffer, 0, bytemuck::bytes_of(&uniforms));

        let drawable = scene
            .bodies
            .iter()
            .filter(|b| b.position.is_finite() && b.rotation.is_finite());
        let shown = scene
            .bodies
            .iter()
            .enumerate()
            .filter(|(i, _)| !scene.hidden_bodies.get(*i).copied().unwrap_or(false))
            .map(|(_, b)| b)
            .filter(|b| b.position.is_finite() && b.rotation.is_finite());
        let mut bodies: Vec<BodyGpu> = shown
            .clone()
            .filter(|b| b.shape == Shape::Box)
            .map(BodyGpu::of)
            .collect();
        let boxes = bodies.len() as u32;
        bodies.extend(shown.filter(|b| b.shape != Shape::Box).map(BodyGpu::of));
        self.body_instances
            .write(device, queue, bytemuck::cast_slice(&bodies));

        let shadows: Vec<ShadowGpu> = match scene.ground {
            Some(g) if scene.contact_shadows => drawable
                .filter_map(|b| ContactShadow::under(b, g.height))
                .map(|s| ShadowGpu::of(&s))
                .collect(),
            _ => Vec::new(),
        };
        self.shadow_instances
            .write(device, queue, bytemuck::cast_slice(&shadows));

        let grid = scene
            .ground
            .map(|g| finite_lines(&g.grid_lines()))
            .unwrap_or_default();
        self.grid_instances
            .write(device, queue, bytemuck::cast_slice(&grid));
        let lines = finite_lines(&scene.lines);
        self.line_instances
            .write(device, queue, bytemuck::cast_slice(&lines));
        let overlay = finite_lines(&scene.overlay);
        self.overlay_instances
            .write(device, queue, bytemuck::cast_slice(&overlay));
        self.skinned.prepare(device, queue, &scene.meshes);

        self.counts = Counts {
            boxes,
            round: bodies.len() as u32 - boxes,
            shadows: shadows.len() as u32,
            grid: grid.len() as u32,
            lines: lines.len() as u32,
            overlay: overlay.len() as u32,
            ground: scene.ground.is_some(),
        };
    }

    /// What the last prepare set up.
    pub fn stats(&self) -> RenderStats {
        let c = self.counts;
        let skinned = self.skinned.stats();
        RenderStats {
            bodies: c.boxes + c.round,
            skinned_draws: skinned.draws,
            skinned_meshes_resident: skinned.meshes_resident,
            skinned_uploads: skinned.uploads,
        }
    }

    /// Records the render pass that draws the last prepared scene into `target`.
    pub fn draw(&self, encoder: &mut wgpu::CommandEncoder, target: &RenderTarget) {
        let (view, resolve_target) = match &target.msaa_view {
            Some(msaa) => (msaa, Some(&target.color_view)),
            None => (&target.color_view, None),
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("anymorph scene"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(BACKGROUND),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &target.depth_view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            ..Default::default()
        });
        let c = self.counts;
        pass.set_bind_group(0, &self.frame_bind_group, &[]);
        if c.ground {
            pass.set_pipeline(&self.ground);
            pass.draw(0..6, 0..1);
            // Under everything that follows: bodies and shadows cover it.
            if c.grid > 0 {
                pass.set_pipeline(&self.lines_on_top);
                pass.set_vertex_buffer(0, self.grid_instances.buffer.slice(..));
                pass.draw(0..6, 0..c.grid);
            }
            if c.shadows > 0 {
                pass.set_pipeline(&self.shadows);
                pass.set_vertex_buffer(0, self.shadow_instances.buffer.slice(..));
                pass.draw(0..6, 0..c.shadows);
            }
        }
        if c.boxes + c.round > 0 {
            pass.set_pipeline(&self.bodies);
            pass.set_vertex_buffer(1, self.body_instances.buffer.slice(..));
            for (mesh, instances) in [
                (&self.cube, 0..c.boxes),
                (&self.sphere, c.boxes..c.boxes + c.round),
            ] {
                if instances.is_empty() {
                    continue;
                }
                pass.set_vertex_buffer(0, mesh.vertices.slice(..));
                pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(0..mesh.index_count, 0, instances);
            }
        }
        // After the bodies: a translucent skin blends over them.
        self.skinned.draw(&mut pass);
        for (pipeline, buffer, count) in [
            (&self.lines_depth_tested, &self.line_instances, c.lines),
            (&self.lines_on_top, &self.overlay_instances, c.overlay),
        ] {
            if count > 0 {
                pass.set_pipeline(pipeline);
                pass.set_vertex_buffer(0, buffer.buffer.slice(..));
                pass.draw(0..6, 0..count);
            }
        }
    }
}

struct PipelineBuilder<'a> {
    device: &'a wgpu::Device,
    layout: &'a wgpu::PipelineLayout,
    sample_count: u32,
}

impl PipelineBuilder<'_> {
    fn build(
        &self,
        label: &str,
        (module, vertex, fragment): (&wgpu::ShaderModule, &str, &str),
        buffers: &[Option<wgpu::VertexBufferLayout<'_>>],
        depth: DepthUse,
        color: ColorUse,
        cull: bool,
    ) -> wgpu::RenderPipeline {
        let (write, compare) = match depth {
            DepthUse::Write => (true, wgpu::CompareFunction::Less),
            DepthUse::Test => (false, wgpu::CompareFunction::LessEqual),
            DepthUse::Ignore => (false, wgpu::CompareFunction::Always),
        };
        self.device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(self.layout),
                vertex: wgpu::VertexState {
                    module,
                    entry_point: Some(vertex),
                    buffers,
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                },
                fragment: Some(wgpu::FragmentState {
                    module,
                    entry_point: Some(fragment),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: COLOR_FORMAT,
                        blend: (color == ColorUse::Blend)
                            .then_some(wgpu::BlendState::ALPHA_BLENDING),
                        write_mask: if color == ColorUse::None {
                            wgpu::ColorWrites::empty()
                        } else {
                            wgpu::ColorWrites::ALL
                        },
                    })],
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                }),
                primitive: wgpu::PrimitiveState {
                    cull_mode: cull.then_some(wgpu::Face::Back),
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(write),
                    depth_compare: Some(compare),
                    stencil: wgpu::StencilState::default(),
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: self.sample_count,
                    ..Default::default()
                },
                multiview_mask: None,
                cache: None,
            })
    }
}
