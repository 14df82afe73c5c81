//! `anymorph generate`: a random plausible creature, deterministic by seed; or a store of
//! many, one per line.

use crate::io::{creature_to_string, save_creature};
use crate::runtime::creature::Creature;
use crate::zoo::{Family, generate as make, generate_family};
use anyhow::{Context, Result, bail};
use std::io::Write as _;
use std::path::Path;

fn creature(seed: u64, family: Option<Family>) -> Result<Creature> {
    match family {
        Some(f) => generate_family(seed, f),
        None => make(seed),
    }
    .with_context(|| format!("seed {seed} made an invalid creature"))
}

pub(super) fn generate(seed: u64, family: Option<Family>, out: &Path, count: u64) -> Result<()> {
    let lines = out
        .to_string_lossy()
        .to_ascii_lowercase()
        .ends_with(".jsonl");
    if lines {
        return generate_lines(seed, family, out, count);
    }
    if count != 1 {
        bail!("--count: more than one creature needs an --out ending in .jsonl");
    }
    let creature = creature(seed, family)?;
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

/// `count` creatures as JSON lines, written one at a time (a store of 10⁵ is never held).
fn generate_lines(seed: u64, family: Option<Family>, out: &Path, count: u64) -> Result<()> {
    let err = || format!("{}: cannot write the file", out.display());
    let mut file = std::io::BufWriter::new(std::fs::File::create(out).with_context(err)?);
    for i in 0..count {
        let c = creature(seed.wrapping_add(i), family)?;
        let value: serde_json::Value = serde_json::from_str(&creature_to_string(&c))
            .with_context(|| format!("seed {}: cannot write the creature", seed + i))?;
        serde_json::to_writer(&mut file, &value).with_context(err)?;
        file.write_all(b"\n").with_context(err)?;
    }
    file.flush().with_context(err)?;
    say!("wrote {}: {count} creatures, one per line", out.display());
    Ok(())
}
