//! The sample creatures and clips, built into the binary so `anymorph bench` and examples
//! work from any folder. The files stay the source of truth; a test checks this list
//! matches them.

use crate::{LoadError, clip_from_str, creature_from_str};
use anymorph_runtime::clip::Clip;
use anymorph_runtime::creature::Creature;

/// `(name, JSON)` of every sample creature.
pub const CREATURES: &[(&str, &str)] = &[
    (
        "biped",
        include_str!("../../../sample_creatures/biped.creature.json"),
    ),
    (
        "bird",
        include_str!("../../../sample_creatures/bird.creature.json"),
    ),
    (
        "branching_leg",
        include_str!("../../../sample_creatures/branching_leg.creature.json"),
    ),
    (
        "centaur",
        include_str!("../../../sample_creatures/centaur.creature.json"),
    ),
    (
        "floater",
        include_str!("../../../sample_creatures/floater.creature.json"),
    ),
    (
        "four_armed",
        include_str!("../../../sample_creatures/four_armed.creature.json"),
    ),
    (
        "giant",
        include_str!("../../../sample_creatures/giant.creature.json"),
    ),
    (
        "hexapod",
        include_str!("../../../sample_creatures/hexapod.creature.json"),
    ),
    (
        "octopod",
        include_str!("../../../sample_creatures/octopod.creature.json"),
    ),
    (
        "quadruped",
        include_str!("../../../sample_creatures/quadruped.creature.json"),
    ),
    (
        "raptor",
        include_str!("../../../sample_creatures/raptor.creature.json"),
    ),
    (
        "scorpion",
        include_str!("../../../sample_creatures/scorpion.creature.json"),
    ),
    (
        "snake",
        include_str!("../../../sample_creatures/snake.creature.json"),
    ),
    (
        "tiny",
        include_str!("../../../sample_creatures/tiny.creature.json"),
    ),
    (
        "tripod",
        include_str!("../../../sample_creatures/tripod.creature.json"),
    ),
    (
        "twoheaded",
        include_str!("../../../sample_creatures/twoheaded.creature.json"),
    ),
    (
        "wavy_spine",
        include_str!("../../../sample_creatures/wavy_spine.creature.json"),
    ),
];

/// `(name, JSON)` of every bundled gait style, the starting points for a project's own.
pub const GAITS: &[(&str, &str)] = &[
    ("walk", include_str!("../../../assets/gaits/walk.gait.json")),
    ("trot", include_str!("../../../assets/gaits/trot.gait.json")),
    ("run", include_str!("../../../assets/gaits/run.gait.json")),
    ("limp", include_str!("../../../assets/gaits/limp.gait.json")),
];

/// `(name, JSON)` of every sample clip.
pub const CLIPS: &[(&str, &str)] = &[
    ("clap", include_str!("../../../assets/clips/clap.clip.json")),
    (
        "clap_body",
        include_str!("../../../assets/clips/clap_body.clip.json"),
    ),
    (
        "clap_feet",
        include_str!("../../../assets/clips/clap_feet.clip.json"),
    ),
    (
        "clap_jaws",
        include_str!("../../../assets/clips/clap_jaws.clip.json"),
    ),
    (
        "dance",
        include_str!("../../../assets/clips/dance.clip.json"),
    ),
    (
        "eat_body",
        include_str!("../../../assets/clips/eat_body.clip.json"),
    ),
    (
        "eat_ground",
        include_str!("../../../assets/clips/eat_ground.clip.json"),
    ),
    (
        "eat_snap",
        include_str!("../../../assets/clips/eat_snap.clip.json"),
    ),
    (
        "greet",
        include_str!("../../../assets/clips/greet.clip.json"),
    ),
    (
        "greet_body",
        include_str!("../../../assets/clips/greet_body.clip.json"),
    ),
    (
        "greet_bow",
        include_str!("../../../assets/clips/greet_bow.clip.json"),
    ),
    (
        "hand_to_mouth",
        include_str!("../../../assets/clips/hand_to_mouth.clip.json"),
    ),
    (
        "idle_breathe",
        include_str!("../../../assets/clips/idle_breathe.clip.json"),
    ),
    (
        "look_at_body",
        include_str!("../../../assets/clips/look_at_body.clip.json"),
    ),
    (
        "nod_lookat",
        include_str!("../../../assets/clips/nod_lookat.clip.json"),
    ),
    (
        "pass_fruit",
        include_str!("../../../assets/clips/pass_fruit.clip.json"),
    ),
    (
        "pick_up",
        include_str!("../../../assets/clips/pick_up.clip.json"),
    ),
    (
        "pick_up_foot",
        include_str!("../../../assets/clips/pick_up_foot.clip.json"),
    ),
    (
        "pick_up_mouth",
        include_str!("../../../assets/clips/pick_up_mouth.clip.json"),
    ),
    (
        "pick_up_prone",
        include_str!("../../../assets/clips/pick_up_prone.clip.json"),
    ),
    (
        "pick_up_snap",
        include_str!("../../../assets/clips/pick_up_snap.clip.json"),
    ),
    (
        "reach_foot",
        include_str!("../../../assets/clips/reach_foot.clip.json"),
    ),
    (
        "reach_head",
        include_str!("../../../assets/clips/reach_head.clip.json"),
    ),
    (
        "reach_target",
        include_str!("../../../assets/clips/reach_target.clip.json"),
    ),
    ("roar", include_str!("../../../assets/clips/roar.clip.json")),
    (
        "roar_body",
        include_str!("../../../assets/clips/roar_body.clip.json"),
    ),
    (
        "roar_head",
        include_str!("../../../assets/clips/roar_head.clip.json"),
    ),
    ("wave", include_str!("../../../assets/clips/wave.clip.json")),
    (
        "wave_body",
        include_str!("../../../assets/clips/wave_body.clip.json"),
    ),
    (
        "wave_foot",
        include_str!("../../../assets/clips/wave_foot.clip.json"),
    ),
    (
        "wave_head",
        include_str!("../../../assets/clips/wave_head.clip.json"),
    ),
    (
        "wave_prone",
        include_str!("../../../assets/clips/wave_prone.clip.json"),
    ),
];

/// The clips `anymorph bench` and `benches/pipeline.rs` play: the library as it was when the
/// runtime's speed was first reported, fixed so that figures stay comparable across versions
/// as the library grows.
pub const BENCH_CLIPS: &[&str] = &[
    "clap",
    "dance",
    "hand_to_mouth",
    "idle_breathe",
    "nod_lookat",
    "pass_fruit",
    "pick_up",
    "pick_up_prone",
    "reach_target",
    "roar",
    "wave",
    "wave_prone",
];

/// Every sample creature, parsed.
pub fn creatures() -> Result<Vec<Creature>, LoadError> {
    CREATURES
        .iter()
        .map(|(name, text)| {
            creature_from_str(text, &format!("sample_creatures/{name}.creature.json"))
        })
        .collect()
}

/// Every sample clip, parsed.
pub fn clips() -> Result<Vec<Clip>, LoadError> {
    CLIPS
        .iter()
        .map(|(name, text)| clip_from_str(text, &format!("assets/clips/{name}.clip.json")))
        .collect()
}
