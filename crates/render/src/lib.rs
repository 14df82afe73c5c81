//! Drawing creatures with wgpu, without egui (DESIGN.md: `runtime ← io ← render ← editor`).
//!
//! A [`Scene`] is plain data in world space. [`SceneRenderer`] draws it into an offscreen
//! [`RenderTarget`] with its own depth buffer; [`ViewportRenderer`] composites that image
//! into a host's render pass (the editor's egui pass), and [`OffscreenRenderer`] reads it
//! back as an image with no window at all (thumbnails, tests).
//!
//! wgpu is the same crate egui-wgpu uses (Cargo resolves one version), so the editor can hand
//! egui's device and passes straight to these types.

mod camera;
mod gpu_types;
mod mesh;
mod offscreen;
mod pick;
mod renderer;
mod scene;
mod skinned;
mod viewport;

pub use camera::{Camera, Ray};
pub use offscreen::{OffscreenRenderer, RenderError};
pub use pick::{hit_body, pick_body};
pub use renderer::{
    COLOR_FORMAT, DEPTH_FORMAT, RenderStats, RenderTarget, SceneRenderer, supported_sample_count,
};
pub use scene::{
    BodyInstance, ContactShadow, Ground, LineSegment, Rgba, Scene, ShapeExtent, SkinnedInstance,
    rgba_from_srgb8,
};
pub use viewport::ViewportRenderer;
