//! The particle IK's contracts as properties over generated creatures of every morphology
//! family (`anymorph::check::ik`, which `anymorph check ik --random N` runs over thousands):
//! reachable goal sets reached within 1 % of limb length, limbs pointing at goals beyond
//! reach without overstretching, rest goals giving the rest pose, the same goals giving the
//! same pose, no NaN. A bounded number of creatures here, from a fixed seed; a failure is
//! kept in `ik_zoo.proptest-regressions` and names the creature to make again.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use anymorph::check::Subject;
use anymorph::check::ik::{IkCheckOptions, check_creature};
use anymorph::zoo::{Family, generate_family};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use std::sync::Arc;

fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(45),
        // A zoo creature is one seed: shrinking it gives another creature, not a smaller
        // one, so a failure is reported as drawn.
        max_shrink_iters: 0,
        ..Config::default()
    }
}

fn subject(family: Family, seed: u64) -> Subject {
    Subject {
        creature: Arc::new(generate_family(seed, family).unwrap()),
        origin: Some((family, seed)),
    }
}

proptest! {
    #![proptest_config(config(180))]

    #[test]
    fn any_creature_keeps_the_ik_contracts(
        family in proptest::sample::select(Family::ALL.to_vec()),
        seed in 0u64..1_000_000,
    ) {
        let s = subject(family, seed);
        let options = IkCheckOptions { bent_sets: 8, straight_sets: 6, unreachable_sets: 4, random_sets: 4, paths: 0 };
        let r = check_creature(&s, &options);
        let how = s.how_to_make();
        for m in r.missed() {
            prop_assert!(
                false,
                "{how}: {:?} set {} missed {} by {:.2} % of its limb",
                m.kind, m.index, m.end, 100.0 * m.error
            );
        }
        for u in r.unreachable.iter().filter(|u| !u.passed) {
            prop_assert!(
                false,
                "{how}: {} reached toward a far goal at cosine {:.3}, stretched {:.3}",
                u.end, u.cosine, u.stretch
            );
        }
        prop_assert!(r.rest_failures.is_empty(), "{how}: {:?}", r.rest_failures);
        prop_assert!(r.path_failures.is_empty(), "{how}: {:?}", r.path_failures);
        prop_assert_eq!(r.nan_sets, 0, "{}: NaN", how);
    }
}

/// The keep-out may miss a goal only to keep a limb out of the trunk (or out of a limb no
/// goal moves), and rarely: under 1 % of the goals over a few hundred creatures.
#[test]
fn goals_kept_out_of_the_trunk_are_rare() {
    let (mut goals, mut kept) = (0, 0);
    for seed in 0..270u64 {
        let s = subject(Family::of_seed(seed), seed + 10_000);
        let r = check_creature(&s, &IkCheckOptions::default());
        for m in &r.reach {
            goals += m.goals_count;
            if m.kept_out.is_some() {
                kept += m.missed_ends;
            }
        }
    }
    assert!(goals > 5_000, "{goals} goals");
    assert!(
        (kept as f32) < 0.01 * goals as f32,
        "{kept} of {goals} goals kept out"
    );
}
