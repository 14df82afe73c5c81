//! File formats: creatures, clips, projects and packages as versioned JSON. No GUI, no GPU.

pub mod atomic;
pub mod clip_file;
pub mod creature_file;
mod error;
pub mod gait_file;
pub mod gltf;
pub mod json;
pub mod key_reduction;
pub mod package_file;
pub mod package_stats;
pub mod project_file;
pub mod samples;

pub use clip_file::{clip_from_str, clip_to_string, load_clip, save_clip};
pub use creature_file::{creature_from_str, creature_to_string, load_creature, save_creature};
pub use error::{LoadError, SaveError};
pub use gait_file::{gait_from_str, gait_to_string, load_gait, save_gait};
pub use package_file::{Package, load_package, package_from_str, package_to_string, save_package};
pub use project_file::{
    LoadedProject, Project, ValidationMark, Verdict, load_project, load_project_skipping,
    project_from_str, save_project,
};
