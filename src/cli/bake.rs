//! `anymorph bake`: a clip played on a creature, written as a standard glTF animation.

use crate::io::gltf::{
    BakeRequest, BakeTake, SkinnedMesh, bake_to_file, import_rig, is_gltf_path, mesh_for_creature,
};
use crate::io::load_creature;
use crate::runtime::creature::Creature;
use crate::runtime::player::Character;
use anyhow::{Result, bail};
use std::path::Path;
use std::sync::Arc;

pub(super) struct BakeArgs<'a> {
    pub creature: &'a Path,
    pub clip: &'a Path,
    pub action: Option<&'a str>,
    pub out: &'a Path,
    pub fps: Option<f32>,
    pub variant: usize,
    pub all_variants: bool,
}

pub(super) fn bake(args: BakeArgs) -> Result<()> {
    let (creature, mesh) = creature_with_mesh(args.creature)?;
    let clip = super::clip_or_branch(args.clip, args.action, &creature)
        .map_err(|e| super::eval::naming_files(e, args.clip, args.creature))?;
    // The bake's own bound, said with the flag's name.
    if let Some(fps) = args.fps
        && !(fps > 0.0 && fps <= 1000.0)
    {
        bail!("--fps: must be a number in (0, 1000], found {fps}");
    }
    let fps = args.fps.unwrap_or(clip.fps);
    let count = {
        let mut ch = Character::new(Arc::new(creature.clone()));
        let binding = ch.binding(&clip);
        if let Some(reason) = &binding.reason {
            let e = anyhow::anyhow!(
                "clip '{}' does not play on '{}': {reason}",
                clip.name,
                creature.name()
            );
            return Err(super::eval::naming_files(e, args.clip, args.creature));
        }
        binding.variants.len()
    };
    let variants: Vec<usize> = if args.all_variants {
        (0..count).collect()
    } else if args.variant < count {
        vec![args.variant]
    } else {
        bail!(
            "--variant {}: clip '{}' has {count} variants on '{}' (0 to {})",
            args.variant,
            clip.name,
            creature.name(),
            count.saturating_sub(1)
        );
    };
    let request = BakeRequest {
        creature: &creature,
        mesh: mesh.as_ref(),
        takes: variants
            .into_iter()
            .map(|variant| BakeTake {
                clip: Arc::clone(&clip),
                variant,
            })
            .collect(),
        fps,
    };
    let summary = bake_to_file(&request, args.out)
        .map_err(|e| super::eval::naming_files(e.into(), args.clip, args.creature))?;
    say!(
        "wrote {}: {} bytes, {} body nodes, mesh: {}",
        args.out.display(),
        summary.bytes,
        summary.nodes,
        summary.mesh
    );
    for (name, frames) in &summary.animations {
        say!("  animation '{name}': {frames} frames at {fps} fps");
    }
    Ok(())
}

/// The creature and the mesh it brings: a glTF rig's own, or the one a creature file refers
/// to with `"mesh"`.
fn creature_with_mesh(path: &Path) -> Result<(Creature, Option<SkinnedMesh>)> {
    if is_gltf_path(path) {
        let rig = import_rig(path)?;
        return Ok((rig.creature, rig.mesh));
    }
    let creature = load_creature(path)?;
    let mesh = match mesh_for_creature(&creature, path) {
        Ok(m) => m,
        Err(e) => {
            log::warn!("{e}; baking boxes instead");
            eprintln!("warning: {e}; baking a box per body instead");
            None
        }
    };
    Ok((creature, mesh))
}
