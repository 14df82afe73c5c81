//! The runtime: everything a game links. No GUI, no GPU.

pub mod action;
pub mod bind;
pub mod clip;
pub mod creature;
pub mod curve;
pub mod eval;
pub mod gait;
pub mod ik;
pub mod jiggle;
pub mod math;
pub mod movement;
pub mod pipeline;
pub mod player;
pub mod pose;
pub mod query;
mod shared;
pub mod terrain;
#[cfg(test)]
mod test_samples;
