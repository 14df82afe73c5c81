//! The sample creature library, defined in code. `examples/build_sample_creatures.rs` writes
//! each to `sample_creatures/<name>.creature.json`; `tests/sample_creatures.rs` includes this
//! module too and checks that the committed files are exactly what it builds.
//!
//! Conventions (see `DESIGN.md`): metres, +Y up, +Z front, +X the creature's left, ground at
//! y = 0. Symmetric creatures are built on their left (`_l`) and mirrored.

mod arthropods;
mod beasts;
mod humanoids;
mod kit;
mod serpents;

use anymorph::runtime::creature::CreatureBuilder;

/// Every sample creature, in the order the library lists them.
pub fn all() -> Vec<CreatureBuilder> {
    vec![
        humanoids::biped(),
        beasts::quadruped(),
        arthropods::hexapod(),
        beasts::centaur(),
        serpents::snake(),
        arthropods::octopod(),
        arthropods::tripod(),
        beasts::twoheaded(),
        beasts::tiny(),
        humanoids::giant(),
        beasts::bird(),
        humanoids::four_armed(),
        humanoids::branching_leg(),
        serpents::wavy_spine(),
        serpents::floater(),
        beasts::raptor(),
        arthropods::scorpion(),
    ]
}
