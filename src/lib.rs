//! Anymorph: author a keyframe clip once, play it on creatures of any shape.
//!
//! The crate is layered `runtime ← io ← render ← editor`: [`runtime`] and [`io`] know
//! nothing of GUI or GPU and are all a game needs (`default-features = false`). [`render`]
//! (wgpu) and [`editor`] (eframe/egui) exist with the default `editor` feature.

pub mod check;
pub mod cli;
#[cfg(feature = "editor")]
pub mod editor;
pub mod fuzz;
pub mod io;
#[cfg(feature = "editor")]
pub mod render;
pub mod runtime;
pub mod samples;
pub mod validation;
pub mod zoo;
