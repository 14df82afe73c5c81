//! An embedded 3D viewport: the scene is drawn offscreen (own depth, own anti-aliasing) and
//! then composited into a host's render pass — egui's, in the editor. The host calls
//! [`ViewportRenderer::prepare`] before its pass and [`ViewportRenderer::paint`] inside it,
//! with the pass's viewport set to where the image goes.

use crate::renderer::{RenderTarget, SceneRenderer};
use crate::scene::Scene;

const COMPOSITE_WGSL: &str = include_str!("../shaders/composite.wgsl");

/// Copies a [`RenderTarget`]'s image into a pass of another format.
struct Compositor {
    /// For an image as large as the viewport: one texel a pixel.
    exact: wgpu::RenderPipeline,
    /// For a smaller image (see [`ViewportRenderer::prepare`]): filtered up.
    filtered: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
}

impl Compositor {
    fn new(device: &wgpu::Device, output_format: wgpu::TextureFormat) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("anymorph composite"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("anymorph composite"),
            source: wgpu::ShaderSource::Wgsl(COMPOSITE_WGSL.into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("anymorph composite"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        // The offscreen image is sRGB-encoded texels, decoded to linear when sampled; an sRGB
        // output re-encodes by itself, a plain one needs the shader to do it.
        let (exact, filtered) = if output_format.is_srgb() {
            ("fs_linear", "fs_linear")
        } else {
            ("fs_encode", "fs_encode_filtered")
        };
        let pipeline = |fragment: &str| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("anymorph composite"),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs_composite"),
                    buffers: &[],
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some(fragment),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: output_format,
                        blend: None,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                }),
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: None,
                multisample: wgpu::MultisampleState::default(),
                multiview_mask: None,
                cache: None,
            })
        };
        let exact = pipeline(exact);
        let filtered = pipeline(filtered);
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("anymorph composite"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        Compositor {
            exact,
            filtered,
            layout,
            sampler,
        }
    }

    fn bind(&self, device: &wgpu::Device, target: &RenderTarget) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("anymorph composite"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(target.color_view()),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
            ],
        })
    }
}

/// The GPU side of one embedded viewport. Create once per device and output format.
pub struct ViewportRenderer {
    scene: SceneRenderer,
    compositor: Compositor,
    target: Option<(RenderTarget, wgpu::BindGroup)>,
    /// The image is smaller than the viewport it is painted over.
    filtered: bool,
}

impl ViewportRenderer {
    /// `output_format` is the format of the pass [`Self::paint`] draws into (single-sampled);
    /// `sample_count` the offscreen anti-aliasing (see
    /// [`crate::supported_sample_count`]).
    pub fn new(
        device: &wgpu::Device,
        output_format: wgpu::TextureFormat,
        sample_count: u32,
    ) -> Self {
        ViewportRenderer {
            scene: SceneRenderer::new(device, sample_count),
            compositor: Compositor::new(device, output_format),
            target: None,
            filtered: false,
        }
    }

    /// Uploads the scene and records its offscreen pass into `encoder`, resizing the target
    /// when it changed. `size_px` is the viewport's size in physical pixels; `scale` (at most
    /// 1) renders the image that much smaller, to be filtered up when painted.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        scene: &Scene,
        size_px: [u32; 2],
        scale: f32,
    ) {
        let scale = if scale.is_finite() {
            scale.clamp(0.1, 1.0)
        } else {
            1.0
        };
        let size_px = size_px.map(|n| ((n as f32 * scale).round() as u32).clamp(1, 8192));
        self.filtered = scale < 1.0;
        let stale = self
            .target
            .as_ref()
            .is_none_or(|(t, _)| t.size_px() != size_px);
        if stale {
            log::debug!("viewport target {}×{}", size_px[0], size_px[1]);
            let target = RenderTarget::new(device, size_px, self.scene.sample_count());
            let bind = self.compositor.bind(device, &target);
            self.target = Some((target, bind));
        }
        // Line widths are in the image's pixels: keep them as wide on screen.
        let narrowed;
        let scene = if self.filtered {
            narrowed = narrow_lines(scene, scale);
            &narrowed
        } else {
            scene
        };
        self.scene.prepare(device, queue, scene, size_px);
        if let Some((target, _)) = &self.target {
            self.scene.draw(encoder, target);
        }
    }

    /// Draws the last prepared image over the pass's current viewport.
    pub fn paint(&self, pass: &mut wgpu::RenderPass<'_>) {
        let Some((_, bind)) = &self.target else {
            return;
        };
        pass.set_pipeline(if self.filtered {
            &self.compositor.filtered
        } else {
            &self.compositor.exact
        });
        pass.set_bind_group(0, bind, &[]);
        pass.draw(0..3, 0..1);
    }
}

/// `scene` with its lines `scale` times as wide.
fn narrow_lines(scene: &Scene, scale: f32) -> Scene {
    let mut scene = scene.clone();
    for line in scene.lines.iter_mut().chain(scene.overlay.iter_mut()) {
        line.width_px *= scale;
    }
    scene
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::LineSegment;
    use glam::Vec3;

    /// A half-size image drawn with half-width lines shows them as wide once filtered up;
    /// nothing else of the scene changes.
    #[test]
    fn a_smaller_image_narrows_every_line_and_nothing_else() {
        let mut scene = Scene::default();
        scene
            .lines
            .push(LineSegment::new(Vec3::ZERO, Vec3::X, [1.0; 4], 3.0));
        scene
            .overlay
            .push(LineSegment::point(Vec3::Y, [0.5; 4], 8.0));
        let narrowed = narrow_lines(&scene, 0.5);
        assert_eq!(narrowed.lines[0].width_px, 1.5);
        assert_eq!(narrowed.overlay[0].width_px, 4.0);
        let mut back = narrowed.clone();
        back.lines[0].width_px = 3.0;
        back.overlay[0].width_px = 8.0;
        assert_eq!(back, scene);
    }
}
