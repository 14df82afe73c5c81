//! `anymorph eval`: a clip on a creature, frame by frame, as JSON.

use crate::io::{load_clip, load_creature};
use crate::runtime::bind::bind;
use crate::runtime::clip::Clip;
use crate::runtime::creature::Creature;
use crate::runtime::eval::EvalInput;
use crate::runtime::pipeline::{Pipeline, clip_local_time};
use anyhow::{Context, Result, bail};
use glam::Vec3;
use serde_json::{Value, json};
use std::path::Path;

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
    let count = ((end - start) * fps + 1e-3).floor() as u64 + 1;
    if count > 100_000 {
        bail!("--frames: {count} frames is more than the limit of 100000");
    }
    Ok((0..count).map(|i| start + i as f32 / fps).collect())
}

pub(super) fn eval_cmd(
    creature_path: &Path,
    clip_path: &Path,
    time: Option<f32>,
    frames: Option<&str>,
    variant: usize,
    targets: &[Vec3],
) -> Result<()> {
    let creature = load_creature(creature_path)?;
    let clip = load_clip(clip_path)?;
    let binding = bind(&clip, &creature);
    if let Some(reason) = &binding.reason {
        bail!(
            "clip '{}' does not play on '{}': {reason}",
            clip.name,
            creature.name()
        );
    }
    let Some(chosen) = binding.variants.get(variant) else {
        bail!(
            "--variant {variant}: clip '{}' has {} variants on '{}' (0 to {})",
            clip.name,
            binding.variants.len(),
            creature.name(),
            binding.variants.len().saturating_sub(1)
        );
    };
    let mut pipeline = Pipeline::new(&clip, &creature, &binding, variant)
        .context("the clip bound but its variant could not be planned")?;
    let times = match (time, frames) {
        (Some(t), _) if t.is_finite() => vec![t],
        (Some(t), _) => bail!("--time: {t} is not a finite number"),
        (None, Some(spec)) => parse_frames(spec)?,
        (None, None) => bail!("give --time T or --frames START:END:FPS"),
    };
    // Secondary motion steps with the frames; a single time has no previous frame to move from.
    let step = match times.as_slice() {
        [a, b, ..] => b - a,
        _ => 0.0,
    };
    let mut out_frames = Vec::with_capacity(times.len());
    for (i, t) in times.iter().enumerate() {
        let input = EvalInput {
            time_secs: clip_local_time(&clip, *t),
            external_targets: targets,
            ground_height: 0.0,
            dt_secs: if i == 0 { 0.0 } else { step },
        };
        pipeline.run(&clip, &creature, &input);
        out_frames.push(frame_json(&clip, &creature, &pipeline, *t));
    }
    let header = json!({
        "creature": creature.name(),
        "clip": clip.name,
        "variant": { "index": variant, "label": chosen.label, "mirrored": chosen.mirrored },
    });
    let mut doc = header.as_object().cloned().unwrap_or_default();
    if frames.is_some() {
        doc.insert("frames".into(), Value::Array(out_frames));
    } else if let Some(Value::Object(f)) = out_frames.pop() {
        doc.extend(f);
    }
    println!("{}", serde_json::to_string_pretty(&Value::Object(doc))?);
    Ok(())
}

fn frame_json(clip: &Clip, c: &Creature, p: &Pipeline, time: f32) -> Value {
    let goals = p.goals();
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
    // No locomotion yet: character space is world space.
    let bodies: Vec<Value> = p
        .pose()
        .iter()
        .enumerate()
        .map(|(i, pose)| {
            json!({ "name": c.body(i).name, "position": pose.position.to_array(),
                    "rotation": pose.rotation.to_array() })
        })
        .collect();
    json!({
        "time": time,
        "world_from_character": { "position": [0.0, 0.0, 0.0], "rotation": [0.0, 0.0, 0.0, 1.0] },
        "goals": goal_list,
        "deforms": deforms,
        "bodies": bodies,
    })
}
