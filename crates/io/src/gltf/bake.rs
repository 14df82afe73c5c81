//! Baking clips to glTF: each (clip, variant) take is played through the runtime's player —
//! the one pipeline a game runs — sampled at a fixed rate, and written as one glTF animation
//! with a translation and a rotation channel per body.

use super::mesh::SkinnedMesh;
use super::write::{self, Animation};
use crate::{SaveError, atomic};
use anymorph_runtime::clip::Clip;
use anymorph_runtime::creature::Creature;
use anymorph_runtime::player::{Character, PlayError, PlayParams, VariantChoice};
use glam::{Quat, Vec3};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use thiserror::Error;

/// The most frames one take may have (an hour at 30 fps would be far past it).
pub const MAX_FRAMES: usize = 100_000;

/// One clip in one variant.
#[derive(Clone, Debug)]
pub struct BakeTake {
    pub clip: Arc<Clip>,
    pub variant: usize,
}

/// What to bake: one creature (with its mesh, if it came from glTF) and its takes.
#[derive(Clone, Debug)]
pub struct BakeRequest<'a> {
    pub creature: &'a Creature,
    /// Written skinned to the bodies; without one, each body gets a box.
    pub mesh: Option<&'a SkinnedMesh>,
    pub takes: Vec<BakeTake>,
    /// Frames per second of the baked keys.
    pub fps: f32,
}

/// What was written.
#[derive(Clone, Debug, PartialEq)]
pub struct BakeSummary {
    pub nodes: usize,
    /// Animation names and their frame counts.
    pub animations: Vec<(String, usize)>,
    /// What mesh the file holds.
    pub mesh: String,
    pub bytes: usize,
}

#[derive(Debug, Error)]
pub enum BakeError {
    #[error("fps: must be a number in (0, 1000], found {0}")]
    Fps(f32),
    #[error("clip '{clip}' variant {variant}: {source}")]
    Play {
        clip: String,
        variant: usize,
        #[source]
        source: PlayError,
    },
    #[error("clip '{clip}': {frames} frames is over the limit of {MAX_FRAMES}")]
    TooLong { clip: String, frames: usize },
    #[error(transparent)]
    Save(#[from] SaveError),
}

/// Bakes to GLB bytes.
pub fn bake_glb(request: &BakeRequest) -> Result<(Vec<u8>, BakeSummary), BakeError> {
    let (doc, mut summary) = assemble(request)?;
    let bytes = doc.to_glb();
    summary.bytes = bytes.len();
    Ok((bytes, summary))
}

/// Bakes to `.gltf` JSON text with the binary data embedded as a data URI.
pub fn bake_gltf_json(request: &BakeRequest) -> Result<(String, BakeSummary), BakeError> {
    let (doc, mut summary) = assemble(request)?;
    let text = doc.to_gltf_json();
    summary.bytes = text.len();
    Ok((text, summary))
}

/// Bakes and saves atomically: `.gltf` as JSON, anything else as GLB.
pub fn bake_to_file(request: &BakeRequest, path: &Path) -> Result<BakeSummary, BakeError> {
    let json = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("gltf"));
    let (bytes, summary) = if json {
        let (t, s) = bake_gltf_json(request)?;
        (t.into_bytes(), s)
    } else {
        bake_glb(request)?
    };
    atomic::write_atomic(path, &bytes)?;
    Ok(summary)
}

/// One creature's file in a bake of one clip for several creatures (the editor's
/// File → Bake glTF: the current clip, the chosen creatures and their variants).
#[derive(Clone, Debug)]
pub struct BakeJob<'a> {
    pub creature: &'a Creature,
    pub mesh: Option<&'a SkinnedMesh>,
    /// Variants to bake, one animation each; empty bakes every variant the clip has on
    /// this creature.
    pub variants: Vec<usize>,
    pub out: std::path::PathBuf,
}

/// Bakes `clip` for each job into its own file; one result per job, in order, so one
/// creature the clip does not play on does not stop the others.
pub fn bake_clip_for_creatures(
    clip: &Arc<Clip>,
    jobs: &[BakeJob],
    fps: f32,
) -> Vec<Result<BakeSummary, BakeError>> {
    jobs.iter()
        .map(|job| {
            let variants = if job.variants.is_empty() {
                let mut ch = Character::new(Arc::new(job.creature.clone()));
                (0..ch.variants(clip).len().max(1)).collect()
            } else {
                job.variants.clone()
            };
            let request = BakeRequest {
                creature: job.creature,
                mesh: job.mesh,
                takes: variants
                    .into_iter()
                    .map(|variant| BakeTake {
                        clip: Arc::clone(clip),
                        variant,
                    })
                    .collect(),
                fps,
            };
            bake_to_file(&request, &job.out)
        })
        .collect()
}

fn assemble(request: &BakeRequest) -> Result<(write::Document, BakeSummary), BakeError> {
    if !(request.fps.is_finite() && request.fps > 0.0 && request.fps <= 1000.0) {
        return Err(BakeError::Fps(request.fps));
    }
    let creature = Arc::new(request.creature.clone());
    let mut animations = Vec::with_capacity(request.takes.len());
    let mut names: Vec<String> = Vec::new();
    for take in &request.takes {
        let mut a = sample(&creature, take, request.fps)?;
        // Unique names: a take listed twice gets a suffix.
        let mut name = a.name.clone();
        let mut k = 2;
        while names.contains(&name) {
            name = format!("{} ({k})", a.name);
            k += 1;
        }
        names.push(name.clone());
        a.name = name;
        animations.push(a);
    }
    let doc = write::document(request.creature, request.mesh, &animations);
    let summary = BakeSummary {
        nodes: request.creature.len(),
        animations: animations
            .iter()
            .map(|a| (a.name.clone(), a.times.len()))
            .collect(),
        mesh: match request.mesh {
            Some(m) => format!(
                "the creature's skinned mesh ({} vertices, {} triangles)",
                m.vertex_count(),
                m.triangle_count()
            ),
            None => "one box per body (the creature has no mesh of its own)".into(),
        },
        bytes: 0,
    };
    Ok((doc, summary))
}

/// Frame times from 0 to the clip's end, `fps` apart, the end always included.
pub(super) fn frame_times(duration_secs: f32, fps: f32) -> Vec<f32> {
    let count = (duration_secs * fps + 1e-3).floor().max(0.0) as usize + 1;
    let mut times: Vec<f32> = (0..count).map(|i| i as f32 / fps).collect();
    if let Some(&last) = times.last()
        && duration_secs - last > 1e-4
    {
        times.push(duration_secs);
    }
    times
}

/// Plays the take through [`Character`] and records every body's node transform per frame.
fn sample(creature: &Arc<Creature>, take: &BakeTake, fps: f32) -> Result<Animation, BakeError> {
    let clip = &take.clip;
    let times = frame_times(clip.duration_secs, fps);
    if times.len() > MAX_FRAMES {
        return Err(BakeError::TooLong {
            clip: clip.name.clone(),
            frames: times.len(),
        });
    }
    let mut ch = Character::new(Arc::clone(creature));
    let play_error = |source| BakeError::Play {
        clip: clip.name.clone(),
        variant: take.variant,
        source,
    };
    let variants = ch.variants(clip).to_vec();
    let params = PlayParams {
        variant: VariantChoice::Index(take.variant),
        // The last frame of a one-shot is its end pose, as `eval` shows it.
        hold: true,
        ..Default::default()
    };
    ch.play(clip, params).map_err(play_error)?;
    let n = creature.len();
    let offsets = node_offsets(creature);
    let mut translations = vec![Vec::with_capacity(times.len()); n];
    let mut rotations: Vec<Vec<Quat>> = vec![Vec::with_capacity(times.len()); n];
    let mut world = vec![(Vec3::ZERO, Quat::IDENTITY); n];
    let mut previous = 0.0;
    for &t in &times {
        ch.update(t - previous);
        previous = t;
        for (b, slot) in world.iter_mut().enumerate() {
            let pose = ch.world_pose(b).map_or(
                (creature.body(b).position, creature.body(b).rotation),
                |p| (p.position, p.rotation),
            );
            *slot = node_from_body(pose, offsets[b]);
        }
        for b in 0..n {
            let (t, r) = local(&world, creature.body(b).file_parent, b);
            translations[b].push(t);
            // Keep consecutive keys in one hemisphere so linear interpolation takes the
            // short way.
            let r = match rotations[b].last() {
                Some(prev) if prev.dot(r) < 0.0 => -r,
                _ => r,
            };
            rotations[b].push(r);
        }
    }
    let variant = variants.get(take.variant);
    let name = if variants.len() > 1 {
        format!("{} v{}", clip.name, take.variant)
    } else {
        clip.name.clone()
    };
    Ok(Animation {
        name,
        extras: json!({ "anymorph": {
            "clip": clip.name,
            "variant": take.variant,
            "label": variant.map(|v| v.label.clone()),
            "mirrored": variant.map(|v| v.mirrored),
            "fps": fps,
        }}),
        times,
        translations,
        rotations,
    })
}

/// Where each body's node sits relative to the body: at the body's joint (where it pivots,
/// as bones do in other tools), turned by `body_from_node`. A body imported from glTF keeps
/// its bone's original axes (`"node_rotation"` in its extras), so baked rotations apply to
/// the source rig too; other bodies' nodes take the body's own rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct NodeOffset {
    pub joint_in_body: Vec3,
    pub body_from_node: Quat,
}

pub(super) fn node_offsets(creature: &Creature) -> Vec<NodeOffset> {
    creature
        .bodies()
        .iter()
        .map(|b| {
            let inv = b.rotation.inverse();
            let node_rotation = b
                .extra
                .get("node_rotation")
                .and_then(|v| serde_json::from_value::<[f32; 4]>(v.clone()).ok())
                .map(Quat::from_array)
                .filter(|q| q.is_finite() && q.length_squared() > 1e-6)
                .map_or(b.rotation, Quat::normalize);
            NodeOffset {
                joint_in_body: inv * (b.joint - b.position),
                body_from_node: (inv * node_rotation).normalize(),
            }
        })
        .collect()
}

/// The node's transform (world) for a body pose (centre, rotation).
pub(super) fn node_from_body(pose: (Vec3, Quat), offset: NodeOffset) -> (Vec3, Quat) {
    (
        pose.0 + pose.1 * offset.joint_in_body,
        (pose.1 * offset.body_from_node).normalize(),
    )
}

/// A node's transform relative to its parent's.
pub(super) fn local(world: &[(Vec3, Quat)], parent: Option<usize>, b: usize) -> (Vec3, Quat) {
    let (t, r) = world[b];
    match parent.and_then(|p| world.get(p)) {
        Some(&(pt, pr)) => {
            let inv = pr.inverse();
            (inv * (t - pt), (inv * r).normalize())
        }
        None => (t, r.normalize()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_times_cover_the_clip_and_end_on_it() {
        assert_eq!(frame_times(1.0, 4.0), [0.0, 0.25, 0.5, 0.75, 1.0]);
        let t = frame_times(1.1, 4.0);
        assert_eq!(t.len(), 6);
        assert!((t[5] - 1.1).abs() < 1e-6);
    }
}
