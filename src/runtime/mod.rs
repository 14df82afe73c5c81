//! The runtime: everything a game links. No GUI, no GPU.

pub mod creature;
pub mod math;
