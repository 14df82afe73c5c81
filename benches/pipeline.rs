//! The whole per-frame pipeline (curves → S → blend → goals → IK → jiggles) through the
//! player, per sample creature, and the 25-body biped on the clips that bind on it.
//!
//! `cargo bench --bench pipeline`

use anymorph::runtime::clip::Clip;
use anymorph::runtime::player::{Character, PlayParams};
use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use std::hint::black_box;
use std::sync::Arc;

fn setup(
    creature: &Arc<anymorph::runtime::creature::Creature>,
    clip: &Arc<Clip>,
) -> Option<Character> {
    let mut ch = Character::new(Arc::clone(creature));
    ch.set_target(0, Vec3::new(0.3, 1.0, 0.8));
    ch.play(
        clip,
        PlayParams {
            looping: Some(true),
            ..Default::default()
        },
    )
    .ok()?;
    for _ in 0..30 {
        ch.update(1.0 / 60.0);
    }
    Some(ch)
}

fn pipeline(c: &mut Criterion) {
    let creatures: Vec<_> = anymorph::samples::creatures()
        .expect("samples load")
        .into_iter()
        .map(Arc::new)
        .collect();
    let clips: Vec<Arc<Clip>> = anymorph::samples::clips()
        .expect("samples load")
        .into_iter()
        .filter(|c| anymorph::samples::BENCH_CLIPS.contains(&c.name.as_str()))
        .map(Arc::new)
        .collect();
    let dance = clips
        .iter()
        .find(|c| c.name == "dance")
        .expect("dance clip");

    let mut per_creature = c.benchmark_group("frame/dance");
    for creature in &creatures {
        let Some(mut ch) = setup(creature, dance) else {
            continue;
        };
        per_creature.bench_function(creature.name(), |b| {
            b.iter(|| black_box(ch.update(black_box(1.0 / 60.0)).len()))
        });
    }
    per_creature.finish();

    let biped = creatures
        .iter()
        .find(|c| c.name() == "biped")
        .expect("biped");
    let mut per_clip = c.benchmark_group("frame/biped");
    for clip in &clips {
        let Some(mut ch) = setup(biped, clip) else {
            continue;
        };
        per_clip.bench_function(clip.name.as_str(), |b| {
            b.iter(|| black_box(ch.update(black_box(1.0 / 60.0)).len()))
        });
    }
    per_clip.finish();
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
