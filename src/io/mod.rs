//! File formats: creatures, clips, projects and packages as versioned JSON. No GUI, no GPU.

pub mod atomic;
pub mod creature_file;
mod error;
pub mod json;

pub use creature_file::{creature_from_str, creature_to_string, load_creature, save_creature};
pub use error::{LoadError, SaveError};
