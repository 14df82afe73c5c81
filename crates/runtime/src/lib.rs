//! Anymorph's runtime: plays a keyframe clip, authored once, on creatures of any shape.
//!
//! This is the crate a game links. It knows no files, no GUI and no GPU, and starts no
//! threads: the game hands it creatures and clips (read by `anymorph-io` from a package the
//! editor exported), steps characters with the frame time, and reads back a pose per body.
//!
//! # Concepts
//!
//! - A [`creature::Creature`] is a tree of rigid bodies with joints and capabilities
//!   ([`creature::Cap`]: grasper, foot, mouth…). Nothing in a clip names a creature's bodies.
//! - A [`clip::Clip`] says *which parts* move by semantic queries ("the graspers on the front
//!   left", [`query`]) and *how the motion generalizes* by movement modes ([`movement`]).
//!   Binding ([`bind`]) resolves the queries on one creature; a clip that does not bind says
//!   why.
//! - An [`action::Action`] is a name and an ordered list of branch clips (a wave with
//!   graspers, with the head, with a foot…): the first branch that binds plays.
//! - A [`player::Character`] is one creature in the game: clips playing on layers, targets,
//!   locomotion with a gait that plants the feet, terrain, and the resulting pose.
//!
//! # A game loop
//!
//! Load the package (with `anymorph-io`), make a character per creature, play actions by
//! name, then each frame set targets and locomotion, update and read the pose and events:
//!
//! ```
//! use anymorph_runtime::player::{Character, PlayParams};
//! use glam::Vec3;
//! use std::sync::Arc;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
//! #     .join("../../assets/sample.package.json");
//! let package = anymorph_io::load_package(&path)?;
//! let creature = Arc::new(anymorph_io::samples::creatures()?.remove(0));
//!
//! let mut character = Character::new(creature);
//! let wave = package.action("wave").ok_or("no wave")?;
//! let (_play, branch) = character.play_action(wave, PlayParams::default())?;
//! println!("{} waves with {}", character.creature().name(), wave.branches[branch].name);
//!
//! for _frame in 0..60 {
//!     // A clip's "toward a target" channels reach for target 0.
//!     character.set_target(0, Vec3::new(0.3, 1.2, 0.8));
//!     let pose = character.update(1.0 / 60.0);
//!     assert!(pose.iter().all(|body| body.is_finite()));
//!     for event in character.events() {
//!         println!("{} fired at {} s", event.name(), event.time_secs());
//!     }
//! }
//! # Ok(())
//! # }
//! ```
//!
//! Every body's pose ([`pose::BodyPose`]) is in character space; place the character in the
//! world with [`player::Character::set_world_from_character`] and read a body in world space
//! with [`player::Character::world_pose`].
//!
//! # Walking
//!
//! A character walks when it is given a velocity and a turn rate; its gait ([`gait`]) times
//! the steps from the package's gait styles and plants each foot on the terrain while the
//! clips on top keep playing:
//!
//! ```
//! # use anymorph_runtime::player::Character;
//! # use std::sync::Arc;
//! use anymorph_runtime::gait::GaitLayer;
//! use anymorph_runtime::terrain::Terrain;
//! use glam::Vec3;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
//! #     .join("../../assets/sample.package.json");
//! # let package = anymorph_io::load_package(&path)?;
//! # let creature = Arc::new(anymorph_io::samples::creatures()?.remove(0));
//! let mut character = Character::new(creature);
//! let trot = package.gait_style("trot").ok_or("no trot")?;
//! character.set_gait_layers(vec![GaitLayer::new(Arc::clone(trot))]);
//! character.set_terrain(Terrain::Slope { degrees: 10.0 });
//! character.set_locomotion(Vec3::new(0.0, 0.0, 0.8), 0.5); // 0.8 m/s ahead, turning 0.5 rad/s
//! for _ in 0..120 {
//!     character.update(1.0 / 60.0);
//! }
//! assert!(character.world_from_character().position.z > 0.5);
//! # Ok(())
//! # }
//! ```
//!
//! # Many characters per frame
//!
//! [`player::Character::update_many`] steps a crowd in one call (setting each one's targets
//! on the way) and fetches the next characters' memory while it works on one. It runs on the
//! calling thread; a game with threads splits its crowd into chunks and calls it per chunk
//! (as `anymorph bench` does with rayon).
//!
//! ```
//! # use anymorph_runtime::player::{Character, PlayParams};
//! # use std::sync::Arc;
//! # use glam::Vec3;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
//! #     .join("../../assets/sample.package.json");
//! # let package = anymorph_io::load_package(&path)?;
//! let idle = package.action("idle").ok_or("no idle")?;
//! let mut crowd: Vec<Character> = anymorph_io::samples::creatures()?
//!     .into_iter()
//!     .map(|creature| Character::new(Arc::new(creature)))
//!     .collect();
//! for character in &mut crowd {
//!     character.play_action(idle, PlayParams::default())?;
//! }
//! let target = Vec3::new(0.0, 1.0, 1.0);
//! Character::update_many(&mut crowd, 1.0 / 60.0, |_, character| {
//!     character.set_target(0, target);
//! });
//! # Ok(())
//! # }
//! ```
//!
//! A runnable loop with a hundred characters is `crates/runtime/examples/game_loop.rs`
//! (`cargo run --release -p anymorph-runtime --example game_loop`).
#![warn(missing_docs)]

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
