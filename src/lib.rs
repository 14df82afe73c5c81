//! Anymorph: author a keyframe clip once, play it on creatures of any shape.
//!
//! The workspace's crates are the layers, each knowing only those before it:
//! [`runtime`] (`anymorph-runtime`, what a game links) ← [`io`] (`anymorph-io`, the file
//! formats) ← [`render`] (`anymorph-render`, wgpu) ← [`validation`] (`anymorph-validation`,
//! the grid) ← [`editor`] (`anymorph-editor`, eframe/egui). This package is the `anymorph`
//! command line, the zoo and the checks; it re-exports the layers under their old paths so
//! that `anymorph::runtime::…` names the same item as `anymorph_runtime::…`.

pub mod check;
pub mod cli;
#[cfg(feature = "editor")]
pub use anymorph_editor as editor;
pub mod fuzz;
pub use anymorph_io as io;
pub use anymorph_io::samples;
#[cfg(feature = "editor")]
pub use anymorph_render as render;
pub use anymorph_runtime as runtime;
pub use anymorph_validation as validation;
pub mod zoo;
