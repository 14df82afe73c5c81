//! `anymorph actions`: for each action of a project or package, the branch that plays on a
//! creature and its variant count, or why none does.

use crate::io::load_creature;
use crate::runtime::player::{Character, PlayError};
use anyhow::Result;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;

pub(super) fn actions(source: &Path, creature_path: &Path, as_json: bool) -> Result<()> {
    let package = super::package_of(source)?;
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
                json!({ "name": action.name, "clip": null, "variants": 0, "reason": reasons,
                        "left_out": action.leaves_out(&creature) })
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
                "{}: does not play on '{}'{}: {}",
                r["name"].as_str().unwrap_or(""),
                creature.name(),
                if r["left_out"] == true {
                    " (its intent leaves this morphology out)"
                } else {
                    ""
                },
                r["reason"].as_str().unwrap_or("")
            ),
        }
    }
    Ok(())
}
