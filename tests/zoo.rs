//! The random creature zoo: always valid, deterministic, diverse, standing on the ground;
//! every morphology family draws what its name promises.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use anymorph::io::creature_to_string;
use anymorph::runtime::creature::{Cap, Creature};
use anymorph::runtime::math::Aabb;
use anymorph::zoo::{Family, generate_family};
use std::collections::BTreeSet;

fn classic(seed: u64) -> Creature {
    generate_family(seed, Family::Classic).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

#[test]
fn five_hundred_classic_seeds_give_valid_varied_creatures_on_the_ground() {
    let mut legs = BTreeSet::new();
    let mut graspers = BTreeSet::new();
    let mut heads = BTreeSet::new();
    let mut spines = BTreeSet::new();
    let (mut tails, mut wings, mut forks, mut floaters) = (0, 0, 0, 0);
    for seed in 0..500u64 {
        let c = classic(seed);
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
            let again = classic(seed);
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
        let c = classic(seed);
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
        let c = classic(seed);
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
        let c = classic(seed);
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

/// Seeds per family for the family tests.
const SEEDS: u64 = 150;

fn family(f: Family) -> Vec<Creature> {
    (0..SEEDS)
        .map(|seed| generate_family(seed, f).unwrap_or_else(|e| panic!("{f} seed {seed}: {e}")))
        .collect()
}

/// The bodies that hang from the spine and are not spine themselves: where limbs start.
fn limb_tops(c: &Creature) -> Vec<usize> {
    (0..c.len())
        .filter(|&b| !c.is_spine(b) && c.parent(b).is_some_and(|p| c.is_spine(p)))
        .filter(|&b| c.body(b).has_cap(&Cap::Limb))
        .collect()
}

fn side(c: &Creature, b: usize) -> i32 {
    let x = c.pivot(b).x;
    if x.abs() < 1e-4 { 0 } else { x.signum() as i32 }
}

/// Leg joints from the hip to the knee nearest the ankle (the ankle left out).
fn leg_joints(c: &Creature, leg: &anymorph::runtime::creature::Leg) -> Vec<glam::Vec3> {
    leg.chain[..leg.chain.len() - 1]
        .iter()
        .map(|&b| c.pivot(b))
        .collect()
}

/// Every family's creatures are valid, the same for the same seed, stand on the ground with
/// their feet and hold their graspers clear of it, and keep every limb bone but the first out
/// of the trunk.
#[test]
fn every_family_gives_valid_creatures_standing_on_the_ground() {
    for f in Family::ALL {
        let mut bodies = 0;
        for (seed, c) in family(f).iter().enumerate() {
            let seed = seed as u64;
            assert!(c.name().contains(f.name()), "{}", c.name());
            assert!(c.len() <= 160, "{f} seed {seed}: {} bodies", c.len());
            bodies += c.len();
            for b in 0..c.len() {
                let body = c.body(b);
                // The shape's own lowest point (a tilted capsule's, not its box's corner).
                let lowest = body.position.y - body.reach_below(body.rotation);
                assert!(
                    lowest >= -0.002 * c.size().max(1.0),
                    "{f} seed {seed}: {} is under the ground ({lowest})",
                    body.name
                );
                if body.has_cap(&Cap::Foot) {
                    assert!(
                        lowest.abs() < 0.002,
                        "{f} seed {seed}: foot {} floats",
                        body.name
                    );
                }
                if body.has_cap(&Cap::Grasper) {
                    assert!(
                        lowest > 0.01 * c.size(),
                        "{f} seed {seed}: grasper {} drags on the ground",
                        body.name
                    );
                }
            }
            if seed < 10 {
                assert_eq!(
                    creature_to_string(&generate_family(seed, f).unwrap()),
                    creature_to_string(c),
                    "{f} seed {seed} is not deterministic"
                );
            }
            if f == Family::Classic {
                continue;
            }
            // A limb bone past the first keeps its axis outside the trunk's capsules.
            let spine: Vec<usize> = (0..c.len()).filter(|&s| c.is_spine(s)).collect();
            for b in 0..c.len() {
                let Some(p) = c.parent(b) else { continue };
                if c.is_spine(b) || c.is_spine(p) || !c.body(b).has_cap(&Cap::Limb) {
                    continue;
                }
                let (a, z) = (
                    c.pivot(b),
                    c.pivot(b) + 2.0 * (c.body(b).position - c.pivot(b)),
                );
                for &s in &spine {
                    let (half, radius) = c.body(s).rounded();
                    let axis = c.body(s).rotation * half;
                    let (s0, s1) = (c.body(s).position - axis, c.body(s).position + axis);
                    let gap = anymorph::runtime::math::segment_distance(a, z, s0, s1);
                    assert!(
                        gap >= 0.99 * radius,
                        "{f} seed {seed}: {} runs {gap} from the axis of {} (radius {radius})",
                        c.body(b).name,
                        c.body(s).name
                    );
                }
            }
        }
        assert!(
            bodies > 15 * SEEDS as usize,
            "{f}: too small ({bodies} bodies)"
        );
    }
}

/// The default mix draws every family in turn.
#[test]
fn the_default_mix_holds_every_family() {
    for seed in 0..(2 * Family::ALL.len() as u64) {
        let f = Family::of_seed(seed);
        assert_eq!(
            creature_to_string(&anymorph::zoo::generate(seed).unwrap()),
            creature_to_string(&generate_family(seed, f).unwrap())
        );
    }
    let seen: BTreeSet<Family> = (0..9).map(Family::of_seed).collect();
    assert_eq!(seen.len(), Family::ALL.len());
}

#[test]
fn lopsided_creatures_differ_from_side_to_side() {
    let (mut counts, mut lengths, mut both) = (0, 0, 0);
    for c in family(Family::Lopsided) {
        let tops = limb_tops(&c);
        let on = |s: i32| tops.iter().filter(|&&t| side(&c, t) == s).count();
        counts += usize::from(on(1) != on(-1));
        let mean = |s: i32| {
            let l: Vec<f32> = c
                .legs()
                .iter()
                .filter(|l| side(&c, l.chain[0]) == s)
                .map(|l| l.length)
                .collect();
            (!l.is_empty()).then(|| l.iter().sum::<f32>() / l.len() as f32)
        };
        if let (Some(a), Some(b)) = (mean(1), mean(-1)) {
            both += 1;
            lengths += usize::from(a.max(b) > 1.25 * a.min(b));
        }
    }
    assert!(
        counts >= 90,
        "{counts} of {SEEDS} have as many limbs on each side"
    );
    assert!(
        lengths * 4 >= both,
        "legs differ in length by side on {lengths} of {both}"
    );
}

#[test]
fn splayed_legs_reach_out_sideways_with_their_knees_up() {
    let (mut legs, mut wide, mut up, mut many) = (0, 0, 0, 0);
    for c in family(Family::Splayed) {
        many += usize::from(c.legs().len() >= 4);
        for leg in c.legs() {
            let j = leg_joints(&c, leg);
            let (hip, ankle) = (j[0], c.pivot(leg.foot));
            legs += 1;
            wide += usize::from((ankle.x - hip.x).abs() > 0.8 * (hip.y - ankle.y).max(0.0));
            // Some joint stands above the straight line from the hip to the ankle.
            up += usize::from(j[1..].iter().any(|p| {
                let t = ((p.x - hip.x) / (ankle.x - hip.x)).clamp(0.0, 1.0);
                p.y > hip.y + (ankle.y - hip.y) * t + 0.01 * leg.length
            }));
        }
    }
    assert!(many >= 140, "{many} of {SEEDS} have four legs or more");
    assert!(
        wide * 10 >= legs * 8,
        "{wide} of {legs} legs reach out wide"
    );
    assert!(up * 10 >= legs * 7, "{up} of {legs} legs have a knee up");
}

#[test]
fn staggered_arms_leave_the_body_at_different_places_and_heights() {
    let (mut staggered, mut two_sided) = (0, 0);
    let mut elevations: Vec<f32> = Vec::new();
    for c in family(Family::Staggered) {
        let arms: Vec<usize> = limb_tops(&c)
            .into_iter()
            .filter(|&t| c.legs().iter().all(|l| l.chain[0] != t))
            .collect();
        let (left, right): (Vec<usize>, Vec<usize>) = arms.iter().partition(|&&t| side(&c, t) > 0);
        if left.is_empty() || right.is_empty() {
            continue;
        }
        two_sided += 1;
        let radius = |b: usize| c.body(b).half_extents.x;
        staggered += usize::from(left.iter().all(|&a| {
            right
                .iter()
                .all(|&b| (c.pivot(a).z - c.pivot(b).z).abs() > radius(a) + radius(b))
        }));
        for &a in &arms {
            let spine = c.body(c.parent(a).unwrap());
            elevations.push((c.pivot(a).y - spine.position.y).atan2(c.pivot(a).x.abs()));
        }
    }
    assert!(
        two_sided >= 120,
        "{two_sided} of {SEEDS} have arms on both sides"
    );
    assert!(
        staggered * 10 >= two_sided * 6,
        "{staggered} of {two_sided} stagger their arms"
    );
    let (lo, hi) = elevations
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &e| (lo.min(e), hi.max(e)));
    assert!(
        hi - lo > 1.8,
        "arms leave between {lo} and {hi} rad around the spine"
    );
}

#[test]
fn anywhere_limbs_leave_every_part_of_the_spine_the_tail_end_included() {
    let (mut tail_end, mut front_end) = (0, 0);
    for c in family(Family::Anywhere) {
        let chain = c.spine_chain();
        let (first, last) = (chain[0], chain[chain.len() - 1]);
        let at: BTreeSet<usize> = limb_tops(&c)
            .iter()
            .map(|&t| c.parent(t).unwrap())
            .collect();
        tail_end += usize::from(at.contains(&first) || at.contains(&c.find("spine_0").unwrap()));
        front_end += usize::from(at.iter().any(|&s| {
            s == last
                || c.children(s)
                    .iter()
                    .any(|&k| c.is_spine(k) && c.body(k).name.starts_with("neck"))
        }));
    }
    assert!(
        tail_end >= 15,
        "{tail_end} of {SEEDS} have a limb at the tail end"
    );
    assert!(
        front_end >= 15,
        "{front_end} of {SEEDS} have a limb at the front end"
    );
}

#[test]
fn jointed_limbs_have_one_to_five_segments_bent_any_way() {
    let mut segments = BTreeSet::new();
    let (mut legs, mut backward, mut straight, mut zigzag) = (0, 0, 0, 0);
    for c in family(Family::Jointed) {
        for leg in c.legs() {
            segments.insert(leg.chain.len() - 1);
            let j = leg_joints(&c, leg);
            if j.len() < 2 {
                continue;
            }
            legs += 1;
            let (hip, ankle) = (j[0], c.pivot(leg.foot));
            let line = (ankle - hip).normalize();
            let off: Vec<glam::Vec3> = j[1..]
                .iter()
                .map(|&p| {
                    let d = p - hip;
                    d - line * d.dot(line)
                })
                .collect();
            let chord = hip.distance(ankle);
            straight += usize::from(off.iter().all(|o| o.length() < 0.03 * chord));
            backward += usize::from(off.iter().all(|o| o.z < -0.05 * chord));
            zigzag +=
                usize::from(off.windows(2).any(|w| {
                    w[0].dot(w[1]) < 0.0 && w[0].length().min(w[1].length()) > 0.02 * chord
                }));
        }
    }
    for n in 1..=5 {
        assert!(
            segments.contains(&n),
            "no leg of {n} segments: {segments:?}"
        );
    }
    assert!(
        straight * 10 >= legs,
        "{straight} of {legs} legs nearly straight"
    );
    assert!(
        backward * 20 >= legs,
        "{backward} of {legs} legs bent backward"
    );
    assert!(zigzag * 20 >= legs, "{zigzag} of {legs} legs zig-zag");
}

#[test]
fn proportions_run_from_long_and_thin_to_short_and_thick() {
    let (mut thin, mut thick) = (0, 0);
    for c in family(Family::Proportions) {
        for leg in c.legs() {
            let radius = c.body(leg.chain[0]).half_extents.x;
            thin += usize::from(radius < 0.03 * leg.length && leg.length > 0.4 * c.size());
            thick += usize::from(radius > 0.15 * leg.length);
        }
    }
    assert!(
        thin >= 50 && thick >= 50,
        "{thin} thin legs, {thick} thick legs"
    );
}

#[test]
fn many_legged_creatures_have_two_to_ten_legs_of_unequal_length() {
    let mut counts = BTreeSet::new();
    let (mut several, mut unequal) = (0, 0);
    for c in family(Family::ManyLegs) {
        counts.insert(c.legs().len());
        if c.legs().len() >= 3 {
            several += 1;
            let l: Vec<f32> = c.legs().iter().map(|l| l.length).collect();
            let (lo, hi) = l
                .iter()
                .fold((f32::MAX, 0.0f32), |(a, b), &x| (a.min(x), b.max(x)));
            unequal += usize::from(hi > 1.3 * lo);
        }
    }
    assert!(
        counts.contains(&2) && counts.iter().any(|&n| n >= 9),
        "{counts:?}"
    );
    assert!(
        unequal * 2 >= several,
        "{unequal} of {several} have unequal legs"
    );
}

#[test]
fn limbs_grow_from_limbs() {
    let mut branched = 0;
    for c in family(Family::LimbsOnLimbs) {
        let branch = (0..c.len()).any(|b| {
            !c.is_spine(b)
                && c.parent(b).is_some_and(|p| !c.is_spine(p))
                && c.children(b).len() >= 2
        });
        branched += usize::from(branch);
    }
    assert!(
        branched * 10 >= SEEDS as usize * 7,
        "{branched} of {SEEDS} grow a limb from a limb"
    );
}
