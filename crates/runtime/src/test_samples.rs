//! The sample creatures for the runtime's own unit tests. The file formats live in
//! `anymorph-io`, which depends on this crate, so the tests read the sample files' bodies
//! straight into [`BodyDef`]s (the same serde types the loader fills) and build each
//! creature with [`Creature::new`]; the loader's validation is tested in `anymorph-io`.

use crate::creature::{BodyDef, Creature};
use std::path::Path;

#[derive(serde::Deserialize)]
struct CreatureIn {
    name: String,
    bodies: Vec<BodyDef>,
}

fn load(path: &Path) -> Creature {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let parsed: CreatureIn =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Creature::new(parsed.name, parsed.bodies).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn folder() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample_creatures")
}

/// Every sample creature, in file-name order (as `anymorph_io::samples::creatures`).
pub(crate) fn creatures() -> Result<Vec<Creature>, std::convert::Infallible> {
    let mut paths: Vec<_> = std::fs::read_dir(folder())
        .expect("sample_creatures")
        .map(|e| e.expect("sample_creatures entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".creature.json"))
        .collect();
    paths.sort();
    Ok(paths.iter().map(|p| load(p)).collect())
}

/// The sample creature named `name`.
pub(crate) fn creature(name: &str) -> Creature {
    load(&folder().join(format!("{name}.creature.json")))
}
