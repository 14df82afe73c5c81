//! In steady state a character's frame allocates nothing: every buffer is reused.
//! (Its own test binary: the counting allocator sees the whole process.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::runtime::player::{Character, PlayParams};
use glam::Vec3;
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;
use std::sync::Arc;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[test]
fn steady_state_frames_do_not_allocate() {
    let mut characters: Vec<(Character, &str)> = Vec::new();
    for (creature, clips) in [
        ("biped", &["dance", "wave"][..]),
        ("quadruped", &["idle_breathe", "roar"][..]),
        ("hexapod", &["clap", "nod_lookat"][..]),
        ("four_armed", &["pass_fruit", "reach_target"][..]),
        ("snake", &["dance", "roar"][..]),
    ] {
        let mut ch = Character::new(Arc::new(common::creature(creature).clone()));
        ch.set_target(0, Vec3::new(0.3, 1.0, 0.8));
        ch.set_locomotion(Vec3::Z * 0.5, 0.2);
        for (layer, name) in clips.iter().enumerate() {
            let clip = Arc::new(common::clip(name).clone());
            ch.play(
                &clip,
                PlayParams {
                    layer: layer as i32,
                    looping: Some(true),
                    fade_in_secs: 0.3,
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{e}"));
        }
        characters.push((ch, creature));
    }
    // Warm up: the first frames size every buffer (layers, events, deforms).
    for frame in 0..200 {
        for (ch, _) in &mut characters {
            ch.set_target(0, Vec3::new(0.3 + frame as f32 * 0.001, 1.0, 0.8));
            ch.update(1.0 / 60.0);
        }
    }
    let region = Region::new(GLOBAL);
    let mut events = 0;
    for frame in 0..300 {
        for (ch, _) in &mut characters {
            ch.set_target(0, Vec3::new(0.5 - frame as f32 * 0.001, 1.0, 0.8));
            ch.update(1.0 / 60.0);
            events += ch.events().len();
        }
    }
    let stats = region.change();
    assert_eq!(stats.allocations, 0, "{stats:?}");
    assert_eq!(stats.reallocations, 0, "{stats:?}");
    assert!(events > 0, "the clips loop and fire events while we count");
}
