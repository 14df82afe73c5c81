//! The egui_wgpu adapter for [`ViewportRenderer`]: GPU resources live once in egui's
//! `callback_resources`; each frame's callback carries only that frame's scene.

use anymorph_render::{Scene, ViewportRenderer, supported_sample_count};
use eframe::egui_wgpu::{self, wgpu};
use std::sync::Once;

/// Multisampling of the 3D viewport on a GPU. A CPU rasterizer (llvmpipe, lavapipe) pays
/// about 3× the frame time for 4× MSAA, so it renders without; lines stay anti-aliased.
const VIEWPORT_MSAA: u32 = 4;

/// The scale of the 3D image, per axis, while the view moves on a CPU rasterizer: a quarter
/// of the pixels to shade, filtered up. A still view is drawn at full resolution.
/// (16 creatures, 1280×800, llvmpipe: about 59 → 50 ms a frame while playing.)
const SOFTWARE_MOVING_SCALE: f32 = 0.5;

/// What egui_wgpu keeps for us between frames.
pub struct ViewportResources {
    renderer: ViewportRenderer,
    /// The adapter is a CPU rasterizer (llvmpipe, lavapipe, WARP).
    software: bool,
}

/// Creates the viewport's pipelines on egui's device. Returns false (the viewport then shows
/// a message instead) when eframe runs without wgpu.
pub fn install(render_state: Option<&egui_wgpu::RenderState>) -> bool {
    let Some(rs) = render_state else {
        log::warn!("no wgpu render state: the 3D viewport is off");
        return false;
    };
    let info = rs.adapter.get_info();
    let software = info.device_type == wgpu::DeviceType::Cpu;
    let wanted = if software { 1 } else { VIEWPORT_MSAA };
    let samples = supported_sample_count(&rs.adapter, wanted);
    log::info!(
        "viewport on {} ({:?}, {:?}), {samples}× MSAA, output {:?}",
        info.name,
        info.backend,
        info.device_type,
        rs.target_format
    );
    let renderer = ViewportRenderer::new(&rs.device, rs.target_format, samples);
    rs.renderer
        .write()
        .callback_resources
        .insert(ViewportResources { renderer, software });
    true
}

/// One frame of the viewport.
pub struct ViewportCallback {
    pub scene: Scene,
    pub size_px: [u32; 2],
    /// The view changes every frame (playback, a drag): detail matters less than pace.
    pub moving: bool,
}

static MISSING: Once = Once::new();

fn report_missing() {
    MISSING.call_once(|| log::error!("viewport resources are missing; the 3D view stays empty"));
}

impl egui_wgpu::CallbackTrait for ViewportCallback {
    fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        encoder: &mut wgpu::CommandEncoder,
        resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let Some(r) = resources.get_mut::<ViewportResources>() else {
            report_missing();
            return Vec::new();
        };
        let scale = if r.software && self.moving {
            SOFTWARE_MOVING_SCALE
        } else {
            1.0
        };
        r.renderer
            .prepare(device, queue, encoder, &self.scene, self.size_px, scale);
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &egui_wgpu::CallbackResources,
    ) {
        let Some(r) = resources.get::<ViewportResources>() else {
            report_missing();
            return;
        };
        r.renderer.paint(pass);
    }
}
