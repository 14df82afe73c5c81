//! `*.creature.json`: the public interchange format for creatures (see docs/FORMAT.md).

use super::json::{self, FormatTag};
use super::{LoadError, SaveError, atomic};
use anymorph_runtime::creature::{BodyDef, Creature, Extras, Shape};
use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;

pub const CREATURE_FORMAT: FormatTag = FormatTag {
    format: "anymorph-creature",
    version: 1,
};

const CREATURE_KEYS: [&str; 4] = ["format", "version", "name", "bodies"];
const BODY_KEYS: [&str; 8] = [
    "name",
    "parent",
    "caps",
    "joint",
    "position",
    "rotation",
    "half_extents",
    "shape",
];

#[derive(Deserialize)]
struct CreatureIn {
    name: String,
    bodies: Vec<BodyDef>,
}

/// Loads a creature from a file. JSON is read here; a `.glb`/`.gltf` rig is imported (see
/// [`super::gltf::import_rig`], which also gives its mesh and an import report).
pub fn load_creature(path: &Path) -> Result<Creature, LoadError> {
    if super::gltf::is_gltf_path(path) {
        return super::gltf::import_rig(path).map(|rig| rig.creature);
    }
    let (label, text) = json::read_text(path)?;
    creature_from_str(&text, &label)
}

/// Parses and validates creature JSON; `path` only labels errors.
pub fn creature_from_str(text: &str, path: &str) -> Result<Creature, LoadError> {
    let doc = json::parse_document(text, path, CREATURE_FORMAT)?;
    let extra = json::extras(&doc, &CREATURE_KEYS);
    let body_extras: Vec<Extras> = match doc.get("bodies") {
        Some(Value::Array(bodies)) => bodies
            .iter()
            .map(|b| match b {
                Value::Object(o) => json::extras(o, &BODY_KEYS),
                _ => Extras::new(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let parsed: CreatureIn = json::from_value(Value::Object(doc), path)?;
    let mut defs = parsed.bodies;
    for (def, extra) in defs.iter_mut().zip(body_extras) {
        def.extra = extra;
    }
    Creature::with_extras(parsed.name, defs, extra).map_err(|source| LoadError::Creature {
        path: path.into(),
        source,
    })
}

#[derive(Serialize)]
struct CreatureOut<'a> {
    format: &'static str,
    version: u32,
    name: &'a str,
    bodies: Vec<BodyOut>,
    #[serde(flatten)]
    extra: &'a Extras,
}

#[derive(Serialize)]
struct BodyOut {
    name: String,
    parent: Option<String>,
    caps: Vec<anymorph_runtime::creature::Cap>,
    joint: Vec3,
    position: Vec3,
    rotation: Quat,
    half_extents: Vec3,
    shape: Shape,
    #[serde(flatten)]
    extra: Extras,
}

/// The creature as `*.creature.json` text.
pub fn creature_to_string(creature: &Creature) -> String {
    let bodies = creature
        .to_defs()
        .into_iter()
        .map(|d| BodyOut {
            name: d.name,
            parent: d.parent,
            caps: d.caps,
            joint: d.joint,
            position: d.position,
            rotation: d.rotation,
            half_extents: d.half_extents,
            shape: d.shape,
            extra: d.extra,
        })
        .collect();
    json::to_pretty_json(&CreatureOut {
        format: CREATURE_FORMAT.format,
        version: CREATURE_FORMAT.version,
        name: creature.name(),
        bodies,
        extra: creature.extra(),
    })
}

/// Saves atomically: the old file survives any failure.
pub fn save_creature(path: &Path, creature: &Creature) -> Result<(), SaveError> {
    atomic::write_atomic(path, creature_to_string(creature).as_bytes())
}
