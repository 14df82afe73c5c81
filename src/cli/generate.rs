//! `anymorph generate`: a random plausible creature, deterministic by seed.

use crate::io::save_creature;
use crate::zoo::{Family, generate as make, generate_family};
use anyhow::{Context, Result};
use std::path::Path;

pub(super) fn generate(seed: u64, family: Option<Family>, out: &Path) -> Result<()> {
    let creature = match family {
        Some(f) => generate_family(seed, f),
        None => make(seed),
    }
    .with_context(|| format!("seed {seed} made an invalid creature"))?;
    save_creature(out, &creature)?;
    say!(
        "wrote {}: {} bodies, {} legs, {} graspers",
        out.display(),
        creature.len(),
        creature.legs().len(),
        creature.count_cap(&crate::runtime::creature::Cap::Grasper)
    );
    Ok(())
}
