//! The random creature zoo: always valid, deterministic, diverse, standing on the ground.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use anymorph::io::creature_to_string;
use anymorph::runtime::creature::Cap;
use anymorph::runtime::math::Aabb;
use std::collections::BTreeSet;

#[test]
fn five_hundred_seeds_give_valid_varied_creatures_on_the_ground() {
    let mut legs = BTreeSet::new();
    let mut graspers = BTreeSet::new();
    let mut heads = BTreeSet::new();
    let mut spines = BTreeSet::new();
    let (mut tails, mut wings, mut forks, mut floaters) = (0, 0, 0, 0);
    for seed in 0..500u64 {
        let c = anymorph::zoo::generate(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(c.len() <= 120, "seed {seed}: {} bodies", c.len());
        // A forked leg is one leg with two feet: count legs by where they leave the body.
        let leg_roots: BTreeSet<_> = c.legs().iter().map(|l| l.chain[0]).collect();
        legs.insert(leg_roots.len());
        graspers.insert(c.count_cap(&Cap::Grasper));
        heads.insert(c.count_cap(&Cap::Head));
        spines.insert(
            c.bodies()
                .iter()
                .filter(|b| b.name.starts_with("spine_"))
                .count(),
        );
        tails += usize::from(c.count_cap(&Cap::Tail) > 0);
        wings += usize::from(c.count_cap(&Cap::Wing) > 0);
        forks += usize::from(leg_roots.len() < c.legs().len());
        floaters +=
            usize::from(c.legs().is_empty() && c.bounds().min.y > 0.1 * c.bounds().size().y);
        for b in 0..c.len() {
            let body = c.body(b);
            let lowest = Aabb::of_oriented_box(body.position, body.rotation, body.half_extents)
                .min
                .y;
            assert!(
                lowest >= -0.002 * c.size().max(1.0),
                "seed {seed}: {} is under the ground ({lowest})",
                body.name
            );
            if body.has_cap(&Cap::Foot) {
                assert!(
                    lowest.abs() < 0.002,
                    "seed {seed}: foot {} floats at {lowest}",
                    body.name
                );
            }
            if body.has_cap(&Cap::Grasper) {
                assert!(
                    lowest > 0.01 * c.size(),
                    "seed {seed}: grasper {} drags on the ground",
                    body.name
                );
            }
        }
        if seed < 20 {
            let again = anymorph::zoo::generate(seed).unwrap();
            assert_eq!(
                creature_to_string(&again),
                creature_to_string(&c),
                "seed {seed} is not deterministic"
            );
        }
    }
    assert_eq!(legs.iter().min(), Some(&0));
    assert_eq!(legs.iter().max(), Some(&8));
    assert!(
        graspers.contains(&0) && graspers.contains(&6),
        "{graspers:?}"
    );
    assert_eq!(heads, (0..=3).collect(), "{heads:?}");
    assert!(spines.contains(&3) && spines.contains(&12), "{spines:?}");
    assert!(
        tails > 100 && wings > 30 && forks > 10 && floaters > 5,
        "tails {tails} wings {wings} forks {forks} floaters {floaters}"
    );
}

/// Several heads stand clear of each other at rest, so a head turning to look aside does
/// not put its eye into its neighbour.
#[test]
fn the_heads_of_a_many_headed_creature_stand_apart() {
    let mut checked = 0;
    for seed in 0..500u64 {
        let c = anymorph::zoo::generate(seed).unwrap();
        let heads: Vec<_> = c
            .bodies()
            .iter()
            .filter(|b| b.has_cap(&Cap::Head))
            .collect();
        for (i, a) in heads.iter().enumerate() {
            for b in &heads[i + 1..] {
                let gap = a.position.distance(b.position);
                let radii = a.half_extents.max_element() + b.half_extents.max_element();
                assert!(
                    gap >= 1.2 * radii,
                    "seed {seed}: {} and {} are {gap} apart, radii {radii}",
                    a.name,
                    b.name
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} pairs of heads in 500 seeds");
}

#[test]
fn arm_pairs_and_front_legs_leave_the_shoulders_room() {
    let mut checked = 0;
    for seed in 0..500u64 {
        let c = anymorph::zoo::generate(seed).unwrap();
        // Room to swing: four times the thicker limb's radius between where they leave
        // the body (the zoo's gap is six arm radii).
        let radius = |b: usize| c.body(b).half_extents.min_element();
        // Where each limb leaves the spine, and on which side.
        let root_of = |mut b: usize| {
            while let Some(p) = c.parent(b) {
                if c.is_spine(p) {
                    break;
                }
                b = p;
            }
            b
        };
        let arms: BTreeSet<usize> = (0..c.len())
            .filter(|&b| c.body(b).has_cap(&Cap::Grasper))
            .map(root_of)
            .collect();
        let legs: BTreeSet<usize> = c.legs().iter().map(|l| l.chain[0]).collect();
        let side = |b: usize| c.pivot(b).x.signum() as i32 * i32::from(c.pivot(b).x.abs() > 1e-4);
        for &a in &arms {
            for &other in arms.iter().chain(&legs) {
                if other == a || side(other) != side(a) {
                    continue;
                }
                let apart = c.pivot(a).distance(c.pivot(other));
                let gap = 4.0 * radius(a).max(radius(other));
                assert!(
                    apart >= gap,
                    "seed {seed}: {} and {} are {apart} apart, need {gap}",
                    c.body(a).name,
                    c.body(other).name
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} pairs of limbs in 500 seeds");
}

/// An arm leaves the body from its surface, the odd one in the middle too (from under the
/// chest or belly): one starting on the spine's centre line swung through the spine with
/// every move, and a right arm mirrored from a left one on a spine that wiggled sideways
/// sank up to its whole radius into the body. Only an odd arm under a body too low for it
/// to hang from the belly stays on the centre line.
#[test]
fn arms_leave_the_body_from_its_surface() {
    let (mut paired, mut odd) = (0, 0);
    for seed in 0..500u64 {
        let c = anymorph::zoo::generate(seed).unwrap();
        for hand in (0..c.len()).filter(|&b| c.body(b).has_cap(&Cap::Grasper)) {
            let mut first = hand;
            while let Some(p) = c.parent(first).filter(|&p| !c.is_spine(p)) {
                first = p;
            }
            let Some(spine) = c.parent(first) else {
                continue;
            };
            let body = c.body(spine);
            let (axis, radius) = body.rounded();
            let arm_radius = c.body(first).half_extents.min_element();
            let centre = c.pivot(first).x.abs() < 1e-4;
            let low = body.position.y - radius < 3.0 * arm_radius + 0.05 * c.size();
            if centre && low {
                continue;
            }
            let (a, b) = (
                body.position + body.rotation * axis,
                body.position - body.rotation * axis,
            );
            let p = c.pivot(first);
            let t = ((p - a).dot(b - a) / (b - a).length_squared().max(1e-12)).clamp(0.0, 1.0);
            let depth = radius - p.distance(a + (b - a) * t);
            assert!(
                depth <= 0.1 * radius,
                "seed {seed}: {} leaves {} {depth} inside its surface (radius {radius})",
                c.body(first).name,
                body.name
            );
            if centre {
                odd += 1;
            } else {
                paired += 1;
            }
        }
    }
    assert!(
        odd > 20 && paired > 500,
        "{odd} odd and {paired} paired arms checked"
    );
}
