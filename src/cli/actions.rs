//! `anymorph actions`: for each action of a project or package, the branch that plays on a
//! creature and its variant count, or why none does.

use crate::io::{Package, load_creature, load_package, load_project};
use crate::runtime::player::{Character, PlayError};
use anyhow::{Result, bail};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;

/// A package, or a project's export (what a game would load).
fn package_of(path: &Path) -> Result<Package> {
    let name = path.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".package.json") {
        Ok(load_package(path)?)
    } else if name.ends_with(".project.json") {
        Ok(Package::from_project(&load_project(path)?))
    } else {
        bail!(
            "{}: expected a *.project.json or a *.package.json",
            path.display()
        )
    }
}

pub(super) fn actions(source: &Path, creature_path: &Path, as_json: bool) -> Result<()> {
    let package = package_of(source)?;
    let creature = Arc::new(load_creature(creature_path)?);
    let mut rows = Vec::with_capacity(package.actions.len());
    for action in &package.actions {
        let mut ch = Character::new(Arc::clone(&creature));
        let row = match ch.action_branch(action) {
            Ok(k) => {
                let clip = &action.branches[k];
                json!({ "name": action.name, "clip": clip.name,
                        "variants": ch.variants(clip).len(), "reason": null })
            }
            Err(PlayError::NoBranch { reasons, .. }) => {
                json!({ "name": action.name, "clip": null, "variants": 0, "reason": reasons })
            }
            Err(e) => return Err(e.into()),
        };
        rows.push(row);
    }
    if as_json {
        let doc = json!({ "creature": creature.name(), "actions": rows });
        say!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    if rows.is_empty() {
        say!("{} holds no actions", source.display());
    }
    for r in &rows {
        match r["clip"].as_str() {
            Some(clip) => say!(
                "{}: plays '{clip}' ({} variant(s))",
                r["name"].as_str().unwrap_or(""),
                r["variants"]
            ),
            None => say!(
                "{}: does not play on '{}': {}",
                r["name"].as_str().unwrap_or(""),
                creature.name(),
                r["reason"].as_str().unwrap_or("")
            ),
        }
    }
    Ok(())
}
