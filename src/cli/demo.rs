//! `anymorph` with no arguments in a build without the editor: a tour of the samples.

use crate::io::load_project;
use crate::runtime::bind::bind;
use anyhow::Result;
use std::path::Path;

/// `anymorph` with no arguments and no editor: a short tour of the sample project.
pub(super) fn demo() -> Result<()> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sample.project.json");
    let project = load_project(&path)?;
    say!("Anymorph sample project: {}", path.display());
    say!(
        "{} creatures, {} clips\n",
        project.creatures.len(),
        project.clips.len()
    );
    for clip in &project.clips {
        say!("{} — {}", clip.name, clip.intent);
        for c in &project.creatures {
            let b = bind(clip, c);
            match &b.reason {
                None => say!(
                    "  {:<14} {} variant(s): {}",
                    c.name(),
                    b.variants.len(),
                    b.variants
                        .iter()
                        .take(4)
                        .map(|v| v.label.as_str())
                        .collect::<Vec<_>>()
                        .join(" | ")
                ),
                Some(r) => say!("  {:<14} does not bind: {r}", c.name()),
            }
        }
    }
    say!("\nTry: anymorph info sample_creatures/biped.creature.json");
    say!(
        "     anymorph eval sample_creatures/quadruped.creature.json assets/clips/wave.clip.json --time 0.5"
    );
    Ok(())
}
