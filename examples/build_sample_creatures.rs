//! Builds every sample creature in code and writes it to
//! `sample_creatures/<name>.creature.json`, then prints a summary of what the runtime derives
//! from each (bodies, legs, feet, graspers, heads, upright, root, bounds height).
//!
//! `cargo run --example build_sample_creatures`

#[path = "sample_creatures/mod.rs"]
mod sample_creatures;

use anyhow::Context;
use anymorph::io::save_creature;
use anymorph::runtime::creature::Cap;
use std::path::Path;

fn main() -> anyhow::Result<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample_creatures");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    println!(
        "{:<14} {:>6} {:>4} {:>5} {:>8} {:>5} {:>7} {:>8}  root",
        "creature", "bodies", "legs", "feet", "graspers", "heads", "upright", "height"
    );
    for builder in sample_creatures::all() {
        let creature = builder.build().context("a sample creature is invalid")?;
        let path = dir.join(format!("{}.creature.json", creature.name()));
        save_creature(&path, &creature).with_context(|| format!("writing {}", path.display()))?;
        println!(
            "{:<14} {:>6} {:>4} {:>5} {:>8} {:>5} {:>7} {:>8.3}  {}",
            creature.name(),
            creature.len(),
            creature.legs().len(),
            creature.count_cap(&Cap::Foot),
            creature.count_cap(&Cap::Grasper),
            creature.count_cap(&Cap::Head),
            if creature.upright().upright {
                "yes"
            } else {
                "no"
            },
            creature.bounds().size().y,
            creature.body(creature.root()).name,
        );
    }
    Ok(())
}
