//! The command line (DESIGN.md "Command line"): a stable contract that tests and scripts use.

use crate::io::{load_clip, load_creature, load_project};
use crate::runtime::bind::bind;
use crate::runtime::creature::{Cap, Creature};
use crate::runtime::eval::EvalInput;
use crate::runtime::pipeline::{Pipeline, clip_local_time};
use crate::runtime::query::ContextQuery;
use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use glam::Vec3;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Parser, Debug)]
#[command(
    name = "anymorph",
    version,
    about = "Author a keyframe clip once, play it on creatures of any shape"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Bodies, caps, root, legs and bounds of a creature.
    Info {
        creature: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// The bodies a context query selects, one name per line.
    Query {
        creature: PathBuf,
        /// The query as JSON (inline, or a path to a file holding it).
        #[arg(long)]
        query: String,
        #[arg(long)]
        json: bool,
    },
    /// Goals and final body transforms (world space) of a clip on a creature, as JSON.
    Eval {
        creature: PathBuf,
        clip: PathBuf,
        /// One time in seconds.
        #[arg(long, conflicts_with = "frames", required_unless_present = "frames")]
        time: Option<f32>,
        /// Frames START:END:FPS, e.g. 0:2:30.
        #[arg(long)]
        frames: Option<String>,
        #[arg(long, default_value_t = 0)]
        variant: usize,
        /// External target X,Y,Z in character space; repeat for targets 1, 2, ….
        #[arg(long, value_parser = parse_vec3, allow_hyphen_values = true)]
        target: Vec<Vec3>,
    },
}

/// Runs the command line; returns the process exit code.
pub fn main_with_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    match run(cli) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e:#}");
            1
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        None => demo(),
        Some(Command::Info { creature, json }) => info(&creature, json),
        Some(Command::Query {
            creature,
            query,
            json,
        }) => query_cmd(&creature, &query, json),
        Some(Command::Eval {
            creature,
            clip,
            time,
            frames,
            variant,
            target,
        }) => eval_cmd(&creature, &clip, time, frames.as_deref(), variant, &target),
    }
}

fn parse_vec3(s: &str) -> Result<Vec3, String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != 3 {
        return Err(format!("expected X,Y,Z, found '{s}'"));
    }
    let mut v = [0.0f32; 3];
    for (slot, p) in v.iter_mut().zip(parts) {
        *slot = p
            .trim()
            .parse::<f32>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("'{p}' is not a finite number"))?;
    }
    Ok(Vec3::from_array(v))
}

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

fn info(path: &Path, as_json: bool) -> Result<()> {
    let c = load_creature(path)?;
    let summary = creature_summary(&c);
    if as_json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
        return Ok(());
    }
    println!(
        "{} — {} bodies, root {}, {} legs",
        c.name(),
        c.len(),
        c.body(c.root()).name,
        c.legs().len()
    );
    let b = c.bounds();
    println!(
        "bounds {:.3?} .. {:.3?}; spine {} ({})",
        b.min.to_array(),
        b.max.to_array(),
        if c.upright().upright {
            "upright"
        } else {
            "prone"
        },
        c.spine_chain()
            .iter()
            .map(|&s| c.body(s).name.as_str())
            .collect::<Vec<_>>()
            .join(" → ")
    );
    println!("{:<24} {:<20} {:>8}  caps", "body", "parent", "limb m");
    for &id in c.order() {
        let body = c.body(id);
        let parent = c.parent(id).map_or("-", |p| c.body(p).name.as_str());
        let caps: Vec<&str> = body.caps.iter().map(Cap::as_str).collect();
        println!(
            "{:<24} {:<20} {:>8.3}  {}",
            body.name,
            parent,
            c.limb_length(id),
            caps.join(" ")
        );
    }
    for leg in c.legs() {
        println!(
            "leg: {} → {} ({:.3} m)",
            c.body(leg.hip).name,
            c.body(leg.foot).name,
            leg.length
        );
    }
    Ok(())
}

/// The `info --json` object.
pub fn creature_summary(c: &Creature) -> Value {
    let mut caps: BTreeMap<String, usize> = BTreeMap::new();
    for b in c.bodies() {
        for cap in &b.caps {
            *caps.entry(cap.to_string()).or_default() += 1;
        }
    }
    let name = |id: usize| c.body(id).name.clone();
    json!({
        "name": c.name(),
        "bodies": c.len(),
        "root": name(c.root()),
        "legs": c.legs().len(),
        "caps": caps,
        "bounds": { "min": c.bounds().min.to_array(), "max": c.bounds().max.to_array() },
        "upright_spine": c.upright().upright,
        "upright_score": c.upright().score,
        "spine_chain": c.spine_chain().iter().map(|&b| name(b)).collect::<Vec<_>>(),
        "leg_list": c.legs().iter().map(|l| json!({
            "hip": name(l.hip), "foot": name(l.foot), "length": l.length,
            "chain": l.chain.iter().map(|&b| name(b)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

fn query_cmd(path: &Path, query: &str, as_json: bool) -> Result<()> {
    let c = load_creature(path)?;
    let text = if query.trim_start().starts_with('{') {
        query.to_string()
    } else {
        std::fs::read_to_string(query).with_context(|| format!("--query: cannot read '{query}'"))?
    };
    let q: ContextQuery =
        serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(&text))
            .map_err(|e| anyhow::anyhow!("--query: {}: {}", e.path(), e.inner()))?;
    let names: Vec<&str> = q
        .select(&c)
        .into_iter()
        .map(|b| c.body(b).name.as_str())
        .collect();
    if as_json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({ "query": q, "bodies": names }))?
        );
    } else {
        for n in names {
            println!("{n}");
        }
    }
    Ok(())
}

fn eval_cmd(
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
    let mut out_frames = Vec::with_capacity(times.len());
    for t in &times {
        let input = EvalInput {
            time_secs: clip_local_time(&clip, *t),
            external_targets: targets,
            ground_height: 0.0,
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

fn frame_json(clip: &crate::runtime::clip::Clip, c: &Creature, p: &Pipeline, time: f32) -> Value {
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

/// `anymorph` with no arguments, until the editor exists: a short tour of the sample project.
fn demo() -> Result<()> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sample.project.json");
    let project = load_project(&path)?;
    println!("Anymorph sample project: {}", path.display());
    println!(
        "{} creatures, {} clips\n",
        project.creatures.len(),
        project.clips.len()
    );
    for clip in &project.clips {
        println!("{} — {}", clip.name, clip.intent);
        for c in &project.creatures {
            let b = bind(clip, c);
            match &b.reason {
                None => println!(
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
                Some(r) => println!("  {:<14} does not bind: {r}", c.name()),
            }
        }
    }
    println!("\nTry: anymorph info sample_creatures/biped.creature.json");
    println!(
        "     anymorph eval sample_creatures/quadruped.creature.json assets/clips/wave.clip.json --time 0.5"
    );
    Ok(())
}
