//! `anymorph eval`: a clip on a creature, frame by frame, as JSON.

use crate::io::load_creature;
use crate::runtime::clip::Clip;
use crate::runtime::creature::Creature;
use crate::runtime::player::{Character, PlayError, PlayParams, VariantChoice};
use crate::runtime::terrain::Terrain;
use anyhow::{Context, Result, bail};
use glam::Vec3;
use serde_json::{Value, json};
use std::path::Path;
use std::sync::Arc;

/// The most frames one `--frames` may ask for.
const MAX_FRAMES: u64 = 100_000;

/// Frame times of `START:END:FPS`, inclusive of END when it falls on a frame.
pub fn parse_frames(spec: &str) -> Result<Vec<f32>> {
    let parts: Vec<&str> = spec.split(':').collect();
    let [start, end, fps] = parts.as_slice() else {
        bail!("--frames: expected START:END:FPS, found '{spec}'");
    };
    let num = |s: &str, what: &str| -> Result<f32> {
        s.trim()
            .parse::<f32>()
            .ok()
            .filter(|x| x.is_finite())
            .with_context(|| format!("--frames: {what} '{s}' is not a finite number"))
    };
    let (start, end, fps) = (num(start, "START")?, num(end, "END")?, num(fps, "FPS")?);
    if fps <= 0.0 || fps > 1000.0 {
        bail!("--frames: FPS must be in (0, 1000], found {fps}");
    }
    if end < start {
        bail!("--frames: END {end} is before START {start}");
    }
    // In f64 and checked before the cast: a span of 1e30 s would saturate the count and wrap
    // to zero frames.
    let count = ((f64::from(end) - f64::from(start)) * f64::from(fps) + 1e-3).floor() + 1.0;
    if count > MAX_FRAMES as f64 {
        bail!("--frames: {count:.0} frames is more than the limit of {MAX_FRAMES}");
    }
    let times: Vec<f32> = (0..count as u64).map(|i| start + i as f32 / fps).collect();
    // Far from zero an f32 second cannot tell frames apart (3e38 + 1/30 is 3e38).
    if times.windows(2).any(|w| w[1] <= w[0]) {
        bail!("--frames: START {start} is too far from 0 for frames 1/{fps} s apart");
    }
    Ok(times)
}

pub(super) struct EvalArgs<'a> {
    pub creature: &'a Path,
    pub clip: &'a Path,
    pub action: Option<&'a str>,
    pub time: Option<f32>,
    pub frames: Option<&'a str>,
    pub variant: usize,
    pub targets: &'a [Vec3],
    pub speed: f32,
    pub turn: f32,
    pub terrain: &'a str,
}

/// Plays the clip through the player — the same code a game runs — so locomotion, terrain
/// and world-space output come for free.
pub(super) fn eval_cmd(args: EvalArgs) -> Result<()> {
    let creature = Arc::new(load_creature(args.creature)?);
    let clip = super::clip_or_branch(args.clip, args.action, &creature)
        .map_err(|e| naming_files(e, args.clip, args.creature))?;
    let terrain: Terrain = args
        .terrain
        .parse()
        .map_err(|e| anyhow::anyhow!("--terrain: {e}"))?;
    if !(args.speed.is_finite() && args.turn.is_finite()) {
        bail!("--speed and --turn must be finite numbers");
    }
    // A walk at 3e38 m/s leaves f32 behind within a frame (positions become infinite).
    for (flag, v, max) in [("--speed", args.speed, 100.0), ("--turn", args.turn, 100.0)] {
        if v.abs() > max {
            bail!("{flag}: {v} is outside the working range of ±{max}");
        }
    }
    let times = match (args.time, args.frames) {
        (Some(t), _) if t.is_finite() => vec![t],
        (Some(t), _) => bail!("--time: {t} is not a finite number"),
        (None, Some(spec)) => parse_frames(spec)?,
        (None, None) => bail!("give --time T or --frames START:END:FPS"),
    };
    let mut ch = Character::new(Arc::clone(&creature));
    ch.set_terrain(terrain);
    ch.set_locomotion(Vec3::Z * args.speed, args.turn);
    for (i, t) in args.targets.iter().enumerate() {
        ch.set_target(i, *t);
    }
    let chosen = ch.variants(&clip).get(args.variant).cloned();
    let params = PlayParams {
        variant: VariantChoice::Index(args.variant),
        start_secs: times[0],
        // `--frames` past the end of a one-shot shows its last frame.
        hold: true,
        ..Default::default()
    };
    ch.play(&clip, params).map_err(|e| match e {
        PlayError::NoSuchVariant { count, .. } => anyhow::anyhow!(
            "--variant {}: clip '{}' has {count} variants on '{}' (0 to {})",
            args.variant,
            clip.name,
            creature.name(),
            count.saturating_sub(1)
        ),
        other => naming_files(other.into(), args.clip, args.creature),
    })?;
    let Some(chosen) = chosen else {
        bail!("--variant {}: no such variant", args.variant);
    };
    let mut out_frames = Vec::with_capacity(times.len());
    let mut previous = times[0];
    for t in &times {
        // Secondary motion and walking step with the frames; the first frame steps nothing.
        ch.update(t - previous);
        previous = *t;
        out_frames.push(frame_json(&clip, &creature, &ch, *t));
    }
    let mut header = json!({
        "creature": creature.name(),
        "clip": clip.name,
        "variant": { "index": args.variant, "label": chosen.label, "mirrored": chosen.mirrored },
        "terrain": terrain.to_string(),
    });
    if let Some(action) = args.action {
        header["action"] = json!(action);
    }
    let mut doc = header.as_object().cloned().unwrap_or_default();
    if args.frames.is_some() {
        doc.insert("frames".into(), Value::Array(out_frames));
    } else if let Some(Value::Object(f)) = out_frames.pop() {
        doc.extend(f);
    }
    say!("{}", serde_json::to_string_pretty(&Value::Object(doc))?);
    Ok(())
}

/// `e`, led by the clip (or project, package) file and followed by the creature file when it
/// names neither: "clip 'wave' does not play on 'snake'" is about these two files.
pub(super) fn naming_files(e: anyhow::Error, clip: &Path, creature: &Path) -> anyhow::Error {
    let text = super::message(&e);
    let (clip, creature) = (clip.display().to_string(), creature.display().to_string());
    if text.contains(&clip) || text.contains(&creature) {
        e
    } else {
        anyhow::anyhow!("{clip}: {text} (creature file {creature})")
    }
}

fn frame_json(clip: &Clip, c: &Creature, ch: &Character, time: f32) -> Value {
    let goals = ch.goals();
    let goal_list: Vec<Value> = goals
        .bodies()
        .map(|b| {
            let (pos, pw) = goals
                .position(b)
                .map_or((Value::Null, 0.0), |(v, w)| (json!(v.to_array()), w));
            let (rot, rw) = goals
                .rotation(b)
                .map_or((Value::Null, 0.0), |(q, w)| (json!(q.to_array()), w));
            json!({ "body": c.body(b).name, "position": pos, "position_weight": pw,
                    "rotation": rot, "rotation_weight": rw })
        })
        .collect();
    let deforms: Vec<Value> = goals
        .deforms
        .iter()
        .map(|d| {
            let name = clip.channels[d.channel]
                .deforms
                .keys()
                .nth(d.deform)
                .cloned()
                .unwrap_or_default();
            json!({ "body": c.body(d.body).name, "name": name, "value": d.value })
        })
        .collect();
    let bodies: Vec<Value> = (0..c.len())
        .filter_map(|i| {
            let pose = ch.world_pose(i)?;
            Some(
                json!({ "name": c.body(i).name, "position": pose.position.to_array(),
                         "rotation": pose.rotation.to_array() }),
            )
        })
        .collect();
    let w = ch.world_from_character();
    json!({
        "time": time,
        "world_from_character": { "position": w.position.to_array(), "rotation": w.rotation.to_array() },
        "goals": goal_list,
        "deforms": deforms,
        "events": ch.events().iter().map(|e| e.name()).collect::<Vec<_>>(),
        "bodies": bodies,
    })
}
