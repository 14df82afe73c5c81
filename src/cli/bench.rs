//! `anymorph bench`: microseconds per creature-frame for the whole pipeline and per stage,
//! over a mix of the sample creatures each playing a sample clip.

use crate::runtime::clip::Clip;
use crate::runtime::eval::StageTimes;
use crate::runtime::player::{Character, PlayParams};
use crate::samples;
use anyhow::{Context, Result, bail};
use glam::Vec3;
use rayon::prelude::*;
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;

pub(super) struct BenchArgs {
    pub creatures: usize,
    pub threads: usize,
    pub frames: usize,
    pub only: Option<String>,
    pub json: bool,
}

const DT: f32 = 1.0 / 60.0;

/// Characters a thread takes at a time: enough that the prefetch of `update_many` runs
/// ahead most of the time, few enough that the threads share the crowd evenly.
const CHUNK: usize = 64;

pub(super) fn bench(args: BenchArgs) -> Result<()> {
    if args.creatures == 0 || args.frames == 0 || args.threads == 0 {
        bail!("--creatures, --frames and --threads must be at least 1");
    }
    let mut creatures = samples::creatures()?;
    if let Some(only) = &args.only {
        creatures.retain(|c| c.name() == only);
        if creatures.is_empty() {
            bail!("--creature {only}: no sample creature has that name");
        }
    }
    let creatures: Vec<_> = creatures.into_iter().map(Arc::new).collect();
    let clips: Vec<Arc<Clip>> = samples::clips()?
        .into_iter()
        .filter(|c| samples::BENCH_CLIPS.contains(&c.name.as_str()))
        .map(Arc::new)
        .collect();
    let mut characters = Vec::with_capacity(args.creatures);
    let mut mix = Vec::new();
    for i in 0..args.creatures {
        let creature = &creatures[i % creatures.len()];
        let mut ch = Character::new(Arc::clone(creature));
        // Walk the clip list from a different place for each lap over the creatures, so the
        // mix covers every clip that binds.
        let start = i / creatures.len();
        let played = (0..clips.len())
            .map(|k| &clips[(start + k) % clips.len()])
            .find(|clip| {
                ch.play(
                    clip,
                    PlayParams {
                        looping: Some(true),
                        ..Default::default()
                    },
                )
                .is_ok()
            })
            .context("no sample clip binds on a sample creature")?;
        if i < creatures.len() * clips.len() {
            mix.push(format!("{} × {}", creature.name(), played.name));
        }
        characters.push(ch);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("cannot start the thread pool")?;
    let mut frame = 0usize;
    let step = |characters: &mut Vec<Character>, frame: usize| {
        let target = Vec3::new((frame as f32 * 0.05).sin(), 1.0, 1.0);
        let run = |chunk: &mut [Character]| {
            Character::update_many(chunk, DT, |_, ch| ch.set_target(0, target));
        };
        if args.threads == 1 {
            run(characters);
        } else {
            pool.install(|| characters.par_chunks_mut(CHUNK).for_each(run));
        }
    };
    for _ in 0..30 {
        step(&mut characters, frame);
        frame += 1;
    }
    let start = Instant::now();
    for _ in 0..args.frames {
        step(&mut characters, frame);
        frame += 1;
    }
    let creature_frames = (args.creatures * args.frames) as f64;
    let us_per = start.elapsed().as_secs_f64() * 1e6 / creature_frames;

    // Stages are timed in a separate single-threaded pass: timing costs a little itself.
    let mut times = StageTimes::default();
    for _ in 0..args.frames {
        let target = Vec3::new((frame as f32 * 0.05).sin(), 1.0, 1.0);
        for ch in &mut characters {
            ch.set_target(0, target);
            ch.update_timed(DT, &mut times);
        }
        frame += 1;
    }
    let us = |ns: u64| ns as f64 / 1e3 / creature_frames;
    let stages = json!({
        "curves": us(times.curves), "specialize": us(times.specialize), "blend": us(times.blend),
        "gait": us(times.gait), "ik": us(times.ik), "jiggle": us(times.jiggle),
    });
    let at_60hz = (1e6 / 60.0 / us_per).floor();
    if args.json {
        let doc = json!({
            "creatures": args.creatures, "threads": args.threads, "frames": args.frames,
            "us_per_creature_frame": us_per, "stages_us": stages,
            "creatures_at_60hz": at_60hz, "mix": mix,
        });
        say!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        say!(
            "{} creatures × {} frames on {} thread(s): {us_per:.3} µs per creature-frame ({at_60hz} creatures fit in a 60 Hz frame)",
            args.creatures,
            args.frames,
            args.threads
        );
        say!(
            "per stage (one thread, µs): curves {:.3}  specialize {:.3}  blend {:.3}  gait {:.3}  ik {:.3}  jiggle {:.3}",
            us(times.curves),
            us(times.specialize),
            us(times.blend),
            us(times.gait),
            us(times.ik),
            us(times.jiggle)
        );
    }
    Ok(())
}
