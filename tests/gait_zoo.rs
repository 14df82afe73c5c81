//! The gait's contracts (`anymorph::check::gait`, which `anymorph check gait --random N`
//! runs over thousands of creatures) on a bounded number of creatures: every run of
//! `check::gait::runs()` (0.4 and 1.2 m/s straight, 0.8 m/s turning, flat and a 10° slope),
//! judged on the final poses.
//!
//! The contracts hold on every sample creature. On the broad zoo they hold for about 97 %
//! of walks (`anymorph check gait --random 1000 --seed 1`); the rest are listed in
//! docs/GAIT.md. Here the zoo must keep every walk finite and on its distance, and keep the
//! share of walks that meet every contract from falling back below that level.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use anymorph::check::Subject;
use anymorph::check::gait::{GaitCheckOptions, WalkResult, check_creature, walk};
use std::sync::Arc;

fn zoo_walks(first_seed: u64, count: usize) -> Vec<(String, WalkResult)> {
    let subjects = anymorph::check::zoo_subjects(count, first_seed, None).unwrap();
    subjects
        .iter()
        .flat_map(|s| {
            let report = check_creature(s, &GaitCheckOptions::default());
            let name = s.how_to_make();
            report.walks.into_iter().map(move |w| (name.clone(), w))
        })
        .collect()
}

#[test]
fn every_sample_creature_keeps_every_gait_contract() {
    let mut walked = 0;
    for creature in anymorph::samples::creatures().unwrap() {
        let subject = Subject {
            creature: Arc::new(creature),
            origin: None,
        };
        let report = check_creature(&subject, &GaitCheckOptions::default());
        for w in &report.walks {
            walked += 1;
            assert!(
                w.passed(),
                "{} at {} m/s, turn {}, {}: {:?}",
                report.creature,
                w.speed,
                w.turn,
                w.terrain,
                w.problems()
            );
        }
    }
    // Every legged sample walks all six runs.
    assert!(walked >= 60, "only {walked} walks");
}

#[test]
fn zoo_walks_stay_finite_and_cover_their_distance() {
    let walks = zoo_walks(1, 36);
    assert!(walks.len() >= 150, "only {} walks", walks.len());
    for (name, w) in &walks {
        assert!(w.finite, "{name}: NaN pose");
        assert!(
            w.distance_error <= 0.1,
            "{name} at {} m/s, turn {}, {}: {:?}",
            w.speed,
            w.turn,
            w.terrain,
            w.problems()
        );
    }
}

#[test]
fn most_zoo_walks_keep_slip_dip_and_duty() {
    let walks = zoo_walks(101, 36);
    let failing: Vec<String> = walks
        .iter()
        .filter(|(_, w)| !w.passed())
        .map(|(name, w)| {
            format!(
                "{name} at {} m/s, turn {}, {}: {}",
                w.speed,
                w.turn,
                w.terrain,
                w.problems().join("; ")
            )
        })
        .collect();
    let share = 1.0 - failing.len() as f32 / walks.len() as f32;
    assert!(
        share >= 0.95,
        "{:.1} % of {} walks keep every contract:\n{}",
        100.0 * share,
        walks.len(),
        failing.join("\n")
    );
}

/// A single walk is deterministic: the same creature and run give the same figures.
#[test]
fn a_walk_measures_the_same_twice() {
    let s = &anymorph::check::zoo_subjects(1, 7, None).unwrap()[0];
    let run = anymorph::check::gait::runs()[5];
    let a = walk(&s.creature, run, 2.0);
    let b = walk(&s.creature, run, 2.0);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}
