//! A headless game loop, as a game links Anymorph: `anymorph-runtime` and `anymorph-io`
//! only. Load a package, put a hundred characters of different shapes in the world, play
//! different clips on two layers with targets that move every frame, print the events they
//! fire and how long each frame takes.
//!
//! `cargo run --release -p anymorph-runtime --example game_loop [PACKAGE] [FRAMES]`

use anymorph_io::load_package;
use anymorph_runtime::gait::GaitLayer;
use anymorph_runtime::player::{Character, PlayParams, VariantChoice};
use anymorph_runtime::pose::BodyPose;
use glam::{Quat, Vec3};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

const CHARACTERS: usize = 100;
const DT: f32 = 1.0 / 60.0;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn main() -> Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut args = std::env::args().skip(1);
    let package_path = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("assets/sample.package.json"));
    let frames: usize = args.next().map(|f| f.parse()).transpose()?.unwrap_or(600);
    let package = load_package(&package_path)?;
    let creatures: Vec<_> = anymorph_io::samples::creatures()?
        .into_iter()
        .map(Arc::new)
        .collect();
    let idle = package
        .clip("idle_breathe")
        .ok_or("the package has no idle_breathe clip")?;
    println!(
        "{}: {} clips; {} sample creatures",
        package_path.display(),
        package.clips.len(),
        creatures.len()
    );

    // A crowd on a grid, each on an idle base layer with a clip of its own on top.
    let mut crowd = Vec::with_capacity(CHARACTERS);
    let mut spots = Vec::with_capacity(CHARACTERS);
    for i in 0..CHARACTERS {
        let creature = &creatures[i % creatures.len()];
        let mut ch = Character::new(Arc::clone(creature));
        let spot = Vec3::new((i % 10) as f32 * 4.0, 0.0, (i / 10) as f32 * 4.0);
        ch.set_world_from_character(BodyPose::new(spot, Quat::from_rotation_y(i as f32)));
        ch.set_target(0, spot + Vec3::new(0.5, 1.0, 1.0));
        ch.play(idle, PlayParams::default())?;
        let clip = (0..package.clips.len())
            .map(|k| &package.clips[(i + k) % package.clips.len()])
            .filter(|c| c.name != "idle_breathe")
            .find(|clip| {
                let params = PlayParams {
                    layer: 1,
                    looping: Some(true),
                    fade_in_secs: 0.3,
                    variant: VariantChoice::ClosestTo(spot + Vec3::new(0.5, 1.0, 1.0)),
                    ..Default::default()
                };
                ch.play(clip, params).is_ok()
            });
        if i < 12 {
            println!(
                "character {i:>3}: {:<14} plays {}",
                creature.name(),
                clip.map_or("idle only", |c| c.name.as_str())
            );
        }
        // Every fifth one strolls in a circle, walking or trotting with the package's styles;
        // the gait plants its feet.
        if i % 5 == 0 {
            let style = if i % 10 == 0 { "walk" } else { "trot" };
            if let Some(s) = package.gait_style(style) {
                ch.set_gait_layers(vec![GaitLayer::new(Arc::clone(s))]);
            }
            let leg = ch.gait().gear().groups.first().map_or(0.5, |g| g.length);
            ch.set_locomotion(Vec3::Z * leg, 0.4);
        }
        crowd.push(ch);
        spots.push(spot);
    }

    let mut frame_us = Vec::with_capacity(frames);
    let mut events_seen = 0usize;
    for frame in 0..frames {
        let t = frame as f32 * DT;
        let start = Instant::now();
        // All at once rather than one `update` each: the runtime then fetches the next
        // characters' memory while it works on one.
        Character::update_many(&mut crowd, DT, |i, ch| {
            let target =
                spots[i] + Vec3::new(t.cos(), 1.0 + 0.3 * (2.0 * t).sin(), 1.0 + 0.5 * t.sin());
            ch.set_target(0, target);
        });
        frame_us.push(start.elapsed().as_secs_f64() * 1e6);
        for (i, ch) in crowd.iter().enumerate() {
            for e in ch.events() {
                events_seen += 1;
                if events_seen <= 20 {
                    println!(
                        "frame {frame:>4}: character {i:>3} ({}) fired '{}' from {} at {:.2} s",
                        ch.creature().name(),
                        e.name(),
                        e.clip.name,
                        e.time_secs()
                    );
                }
            }
        }
        if (frame + 1) % 120 == 0 {
            let window = &frame_us[frame + 1 - 120..];
            println!(
                "frames {:>4}-{:>4}: median {:.0} µs per frame ({:.2} µs per character), worst {:.0} µs",
                frame + 1 - 120,
                frame,
                median(window),
                median(window) / CHARACTERS as f64,
                window.iter().copied().fold(0.0, f64::max)
            );
        }
    }
    let finite = crowd
        .iter()
        .all(|ch| ch.pose().iter().all(BodyPose::is_finite));
    println!(
        "{frames} frames, {events_seen} events; median frame {:.0} µs for {CHARACTERS} characters; every pose finite: {finite}",
        median(&frame_us)
    );
    Ok(())
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}
