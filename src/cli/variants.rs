//! `anymorph variants`: does a clip bind on a creature, and in which variants.

use crate::io::{load_clip, load_creature};
use crate::runtime::bind::bind;
use anyhow::Result;
use serde_json::json;
use std::path::Path;

pub(super) fn variants(creature_path: &Path, clip_path: &Path, as_json: bool) -> Result<()> {
    let creature = load_creature(creature_path)?;
    let clip = load_clip(clip_path)?;
    let b = bind(&clip, &creature);
    let name = |id: usize| creature.body(id).name.clone();
    if as_json {
        let variants: Vec<_> = b
            .variants
            .iter()
            .enumerate()
            .map(|(index, v)| {
                json!({ "index": index, "label": v.label, "mirrored": v.mirrored,
                        "choices": v.choices.iter().map(|&c| name(c)).collect::<Vec<_>>() })
            })
            .collect();
        let doc = json!({ "creature": creature.name(), "clip": clip.name, "binds": b.binds(),
                          "reason": b.reason, "variants": variants });
        say!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    match &b.reason {
        Some(r) => say!(
            "'{}' does not bind on '{}': {r}",
            clip.name,
            creature.name()
        ),
        None => {
            say!(
                "'{}' binds on '{}' in {} variant(s):",
                clip.name,
                creature.name(),
                b.variants.len()
            );
            for (i, v) in b.variants.iter().enumerate() {
                say!(
                    "  {i:>3}  {}{}",
                    v.label,
                    if v.mirrored { "  (mirrored)" } else { "" }
                );
            }
        }
    }
    Ok(())
}
