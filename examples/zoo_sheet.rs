//! Pictures of zoo creatures at rest, one PNG per creature, to look at what a family draws:
//! `cargo run --release --example zoo_sheet -- FAMILY FIRST_SEED COUNT OUT_DIR`.

use anyhow::{Context, Result};
use anymorph::render::OffscreenRenderer;
use anymorph::runtime::pose::BodyPose;
use anymorph::validation::thumbnail::scene;
use anymorph::zoo::{Family, generate_family};
use std::path::PathBuf;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [family, first, count, out] = args.as_slice() else {
        anyhow::bail!("usage: zoo_sheet FAMILY FIRST_SEED COUNT OUT_DIR");
    };
    let family: Family = family.parse().map_err(anyhow::Error::msg)?;
    let (first, count): (u64, u64) = (first.parse()?, count.parse()?);
    let out = PathBuf::from(out);
    std::fs::create_dir_all(&out).with_context(|| format!("{}", out.display()))?;
    let mut renderer = OffscreenRenderer::new(1)?;
    for seed in first..first + count {
        let c = generate_family(seed, family)?;
        let pose: Vec<BodyPose> = c
            .bodies()
            .iter()
            .map(|b| BodyPose::new(b.position, b.rotation))
            .collect();
        let path = out.join(format!("{}.png", c.name()));
        renderer.render_png(&scene(&c, &pose, ("", ""), 320, 240), 320, 240, &path)?;
        println!(
            "{}: {} bodies, {} legs",
            path.display(),
            c.len(),
            c.legs().len()
        );
    }
    Ok(())
}
