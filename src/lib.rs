//! Anymorph: author a keyframe clip once, play it on creatures of any shape.
//!
//! The crate is layered `runtime ← io ← render ← editor`: [`runtime`] and [`io`] know
//! nothing of GUI or GPU and are all a game needs (`default-features = false`).

pub mod cli;
pub mod io;
pub mod runtime;
pub mod samples;
pub mod validation;
pub mod zoo;
