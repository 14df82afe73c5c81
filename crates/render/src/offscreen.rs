//! Rendering a scene to an image with no window and no GUI: thumbnails for the validation
//! grid, and pictures for tests and bug reports.

use crate::renderer::{RenderTarget, SceneRenderer, supported_sample_count};
use crate::scene::Scene;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;
use thiserror::Error;

/// A software rasterizer can take a while on a big image; a lost device must not hang us.
const WAIT_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, Error)]
pub enum RenderError {
    #[error("no graphics adapter: {0} (a CPU renderer such as Mesa's llvmpipe is enough)")]
    NoAdapter(String),
    #[error("the graphics adapter refused a device: {0}")]
    Device(String),
    #[error("reading the rendered image back failed: {0}")]
    Readback(String),
    #[error("{path}: cannot write the PNG: {message}")]
    Save { path: String, message: String },
}

/// A device of its own and a renderer on it, reused across images.
pub struct OffscreenRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    renderer: SceneRenderer,
    /// Reused while images keep the same size.
    target: Option<RenderTarget>,
    adapter_name: String,
}

impl OffscreenRenderer {
    /// Finds an adapter (a CPU one is fine) and builds the renderer with up to `msaa` samples.
    /// `WGPU_BACKEND` (e.g. `gl`, `vulkan`) narrows the choice.
    pub fn new(msaa: u32) -> Result<Self, RenderError> {
        let descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        pollster::block_on(Self::new_async(msaa, descriptor))
    }

    /// [`OffscreenRenderer::new`] on the given backends only: tests pin one so their images
    /// do not depend on which drivers a machine has.
    pub fn with_backends(msaa: u32, backends: wgpu::Backends) -> Result<Self, RenderError> {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
        descriptor.backends = backends;
        pollster::block_on(Self::new_async(msaa, descriptor))
    }

    async fn new_async(
        msaa: u32,
        descriptor: wgpu::InstanceDescriptor,
    ) -> Result<Self, RenderError> {
        let instance = wgpu::Instance::new(descriptor);
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::LowPower,
                compatible_surface: None,
                force_fallback_adapter: false,
                apply_limit_buckets: false,
            })
            .await
            .map_err(|e| RenderError::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        let adapter_name = format!("{} ({:?})", info.name, info.backend);
        log::info!("offscreen renderer on {adapter_name}");
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("anymorph offscreen"),
                required_limits: wgpu::Limits::downlevel_webgl2_defaults()
                    .using_resolution(adapter.limits()),
                ..Default::default()
            })
            .await
            .map_err(|e| RenderError::Device(e.to_string()))?;
        let sample_count = supported_sample_count(&adapter, msaa);
        Ok(OffscreenRenderer {
            renderer: SceneRenderer::new(&device, sample_count),
            target: None,
            device,
            queue,
            adapter_name,
        })
    }

    /// The adapter's name and backend, for logs and reports.
    pub fn adapter_name(&self) -> &str {
        &self.adapter_name
    }

    /// What the last render drew (skinned meshes uploaded and drawn, bodies).
    pub fn stats(&self) -> crate::RenderStats {
        self.renderer.stats()
    }

    /// Renders `scene` at `width`×`height` pixels.
    pub fn render(
        &mut self,
        scene: &Scene,
        width: u32,
        height: u32,
    ) -> Result<image::RgbaImage, RenderError> {
        self.draw(scene, width, height)?;
        let Some(target) = &self.target else {
            return Err(RenderError::Readback("nothing was drawn".into()));
        };
        read_texture(&self.device, &self.queue, target.color_texture())
    }

    /// Draws `scene` and waits for the GPU, without reading the image back (benchmarks).
    pub fn draw(&mut self, scene: &Scene, width: u32, height: u32) -> Result<(), RenderError> {
        let size = [width.clamp(1, 8192), height.clamp(1, 8192)];
        if self.target.as_ref().is_none_or(|t| t.size_px() != size) {
            self.target = Some(RenderTarget::new(
                &self.device,
                size,
                self.renderer.sample_count(),
            ));
        }
        let Some(target) = &self.target else {
            return Err(RenderError::Readback("no render target".into()));
        };
        self.renderer
            .prepare(&self.device, &self.queue, scene, size);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("anymorph offscreen"),
            });
        self.renderer.draw(&mut encoder, target);
        let submission = self.queue.submit([encoder.finish()]);
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(submission),
                timeout: Some(WAIT_TIMEOUT),
            })
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        Ok(())
    }

    /// Renders `scene` and writes it to `path` as PNG.
    pub fn render_png(
        &mut self,
        scene: &Scene,
        width: u32,
        height: u32,
        path: &Path,
    ) -> Result<(), RenderError> {
        let image = self.render(scene, width, height)?;
        image.save(path).map_err(|e| RenderError::Save {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }
}

/// Copies an RGBA8 texture into memory (rows unpadded).
fn read_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
) -> Result<image::RgbaImage, RenderError> {
    let (width, height) = (texture.width(), texture.height());
    let unpadded = width as usize * 4;
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT as usize;
    let padded = unpadded.div_ceil(align) * align;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("anymorph readback"),
        size: (padded * height as usize) as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("anymorph readback"),
    });
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded as u32),
                rows_per_image: None,
            },
        },
        wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
    );
    let submission = queue.submit([encoder.finish()]);
    let (sender, receiver) = mpsc::channel();
    buffer
        .slice(..)
        .map_async(wgpu::MapMode::Read, move |r| drop(sender.send(r)));
    device
        .poll(wgpu::PollType::Wait {
            submission_index: Some(submission),
            timeout: Some(WAIT_TIMEOUT),
        })
        .map_err(|e| RenderError::Readback(e.to_string()))?;
    receiver
        .recv_timeout(WAIT_TIMEOUT)
        .map_err(|e| RenderError::Readback(e.to_string()))?
        .map_err(|e| RenderError::Readback(e.to_string()))?;
    let mapped = buffer
        .slice(..)
        .get_mapped_range()
        .map_err(|e| RenderError::Readback(e.to_string()))?;
    let pixels: Vec<u8> = mapped
        .chunks_exact(padded)
        .flat_map(|row| &row[..unpadded])
        .copied()
        .collect();
    image::RgbaImage::from_raw(width, height, pixels)
        .ok_or_else(|| RenderError::Readback("the image has the wrong size".into()))
}
