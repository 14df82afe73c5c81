//! Gaits on every sample creature with feet: planted feet do not slip, no foot sinks into the
//! ground, the measured duty factor is the style's, and the body covers the commanded
//! distance. Everything is measured on the final world-space poses.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::runtime::creature::Creature;
use anymorph::runtime::gait::{FootPhase, Locomotion};
use anymorph::runtime::player::Character;
use anymorph::runtime::terrain::Terrain;
use glam::Vec3;
use std::sync::Arc;

const DT: f32 = 1.0 / 60.0;

struct Walk {
    slip: f32,
    sunk: f32,
    duty_error: f32,
    distance_error: f32,
    finite: bool,
}

fn walk(c: &Creature, speed_legs: f32, turn: f32, terrain: Terrain, secs: f32) -> Walk {
    let mut ch = Character::new(Arc::new(c.clone()));
    ch.set_terrain(terrain);
    let gear = ch.gait().gear().clone();
    let leg = gear.groups[gear.reference].length;
    let speed = speed_legs * leg;
    ch.set_locomotion(Vec3::Z * speed, turn);
    // Get going first: the first steps start from a standstill.
    for _ in 0..(2.0 / DT) as usize {
        ch.update(DT);
    }
    let frames = (secs / DT) as usize;
    let feet: Vec<usize> = gear.limbs.iter().map(|l| l.foot).collect();
    let mut track: Vec<Vec<Vec3>> = vec![Vec::with_capacity(frames); feet.len()];
    let mut phases: Vec<Vec<FootPhase>> = vec![Vec::with_capacity(frames); feet.len()];
    // The style's duty factor of each foot, frame by frame.
    let mut duty_expected: Vec<Vec<f32>> = vec![Vec::with_capacity(frames); feet.len()];
    let root = c.root();
    let mut root_path = Vec::with_capacity(frames);
    let mut finite = true;
    let mut sunk = 0.0f32;
    for _ in 0..frames {
        ch.update(DT);
        finite &= ch.pose().iter().all(|p| p.is_finite());
        root_path.push(ch.world_pose(root).unwrap().position);
        for (i, &foot) in feet.iter().enumerate() {
            let p = ch.world_pose(foot).unwrap().position;
            track[i].push(p);
            phases[i].push(ch.gait().feet()[i].phase);
            let lowest = p.y - c.contact_height(foot);
            sunk = sunk.max(terrain.height(p.x, p.z) - lowest);
        }
        for (g, group) in gear.groups.iter().enumerate() {
            let params = ch.gait().group_params(g).unwrap();
            for (k, &limb) in group.limbs.iter().enumerate() {
                duty_expected[limb].push(params.feet[k].duty);
            }
        }
    }
    // Slip: how far a foot moves while the gait holds it planted.
    let mut slip = 0.0f32;
    for i in 0..feet.len() {
        let mut start: Option<Vec3> = None;
        for f in 0..frames {
            match (phases[i][f], start) {
                (FootPhase::Stance, None) => start = Some(track[i][f]),
                (FootPhase::Stance, Some(s)) => slip = slip.max(track[i][f].distance(s)),
                (FootPhase::Flight, _) => start = None,
            }
        }
    }
    // Duty measured from the motion itself: a foot is down when it does not move. A duty
    // factor is a share of whole cycles, so it is measured from a foot's first lift-off to
    // its last (a window cutting a slow cycle miscounts: the tripod's long leg, stepping
    // every 2.4 s at 0.4 legs/s, measured 0.06 off over 6 s).
    let mut duty_error = 0.0f32;
    for i in 0..feet.len() {
        // A frame is on the ground when the foot sits where it was the frame before or after
        // (the landing frame moved since the one before it, the lift-off frame before the next).
        let still_eps = 1e-4 * leg.max(0.1);
        let at = |f: usize, g: usize| track[i][f].distance(track[i][g]) < still_eps;
        let lift_offs: Vec<usize> = (1..frames)
            .filter(|&f| phases[i][f - 1] == FootPhase::Stance && phases[i][f] == FootPhase::Flight)
            .collect();
        let (from, to) = match lift_offs.as_slice() {
            [first, .., last] => (*first, *last),
            _ => (1, frames - 1),
        };
        let (from, to) = (from.max(1), to.min(frames - 1));
        let span = (to - from).max(1) as f32;
        let still = (from..to).filter(|&f| at(f, f - 1) || at(f, f + 1)).count();
        let measured = still as f32 / span;
        let expected = duty_expected[i][from..to].iter().sum::<f32>() / span;
        duty_error = duty_error.max((measured - expected).abs());
    }
    let travelled: f32 = root_path
        .windows(2)
        .map(|w| Vec3::new(w[1].x - w[0].x, 0.0, w[1].z - w[0].z).length())
        .sum();
    // The commanded velocity moves the character's origin; a root off the turning centre
    // travels its own wider (or narrower) circle: |v + ω × r|.
    let r = c.body(root).position;
    let root_velocity = Vec3::Z * speed + Vec3::Y.cross(Vec3::new(r.x, 0.0, r.z)) * turn;
    let commanded = root_velocity.length() * secs;
    Walk {
        slip,
        sunk,
        duty_error,
        distance_error: (travelled - commanded).abs() / commanded,
        finite,
    }
}

#[test]
fn every_legged_creature_walks_without_slipping_at_three_speeds() {
    let mut runs = 0;
    let mut problems = Vec::new();
    for c in common::creatures().iter().filter(|c| !c.legs().is_empty()) {
        for speed in [0.4, 1.0, 1.8] {
            for turn in [0.0, 0.5] {
                for terrain in [Terrain::Flat, Terrain::Slope { degrees: 10.0 }] {
                    let w = walk(c, speed, turn, terrain, 6.0);
                    let what = format!("{} at {speed} legs/s, turn {turn}, {terrain}", c.name());
                    if !w.finite {
                        problems.push(format!("{what}: NaN"));
                    }
                    if w.slip > 0.002 {
                        problems.push(format!("{what}: a planted foot slipped {:.4} m", w.slip));
                    }
                    if w.sunk > 0.01 {
                        problems.push(format!(
                            "{what}: a foot is {:.4} m under the ground",
                            w.sunk
                        ));
                    }
                    if w.duty_error > 0.05 {
                        problems.push(format!("{what}: duty factor off by {:.3}", w.duty_error));
                    }
                    if w.distance_error > 0.1 {
                        problems.push(format!(
                            "{what}: covered {:.1}% off the commanded distance",
                            100.0 * w.distance_error
                        ));
                    }
                    runs += 1;
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {runs} walks fail:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(runs >= 13 * 12, "{runs}");
}

#[test]
fn footless_creatures_crawl_or_float_at_the_commanded_speed() {
    for (name, mode) in [("snake", Locomotion::Crawl), ("floater", Locomotion::Float)] {
        let c = common::creature(name);
        let mut ch = Character::new(Arc::new(c.clone()));
        assert_eq!(ch.gait().locomotion(), mode, "{name}");
        let speed = 0.3;
        ch.set_locomotion(Vec3::Z * speed, 0.0);
        let start = ch.world_pose(c.root()).map(|p| p.position);
        for _ in 0..60 {
            ch.update(DT);
        }
        let from = start.unwrap_or(ch.world_pose(c.root()).unwrap().position);
        let _ = from;
        let a = ch.world_pose(c.root()).unwrap().position;
        for _ in 0..300 {
            ch.update(DT);
        }
        let b = ch.world_pose(c.root()).unwrap().position;
        let covered = Vec3::new(b.x - a.x, 0.0, b.z - a.z).length();
        assert!(
            (covered - speed * 5.0).abs() <= 0.1 * speed * 5.0,
            "{name} covered {covered} m in 5 s"
        );
        assert!(ch.pose().iter().all(|p| p.is_finite()));
    }
    // The crawler's pseudo-feet stay on the ground, and the floater stays off it.
    let snake = Character::new(Arc::new(common::creature("snake").clone()));
    assert!(snake.gait().gear().limbs.len() >= 3);
}

fn lift_offs(ch: &mut Character, foot: usize, frames: usize) -> usize {
    let mut count = 0;
    let mut was = ch.gait().feet()[foot].phase;
    for _ in 0..frames {
        ch.update(DT);
        let now = ch.gait().feet()[foot].phase;
        if was == FootPhase::Stance && now == FootPhase::Flight {
            count += 1;
        }
        was = now;
    }
    count
}

#[test]
fn leg_groups_of_different_lengths_step_at_harmonized_rates() {
    let c = common::creature("tripod");
    let mut ch = Character::new(Arc::new(c.clone()));
    let gear = ch.gait().gear().clone();
    assert_eq!(
        gear.groups.len(),
        2,
        "the long leg walks apart from the two shorter ones"
    );
    let long = gear.groups.iter().find(|g| g.limbs.len() == 1).unwrap();
    assert!(
        (long.ratio - 2.0 / 3.0).abs() < 1e-6,
        "leg ratio 0.7 : 1.0 ≈ 2 : 3"
    );
    ch.set_locomotion(Vec3::Z * 0.7, 0.0);
    for _ in 0..60 {
        ch.update(DT);
    }
    let short_foot = gear.groups[gear.reference].limbs[0];
    let mut a = ch.clone();
    let short_steps = lift_offs(&mut a, short_foot, 1800);
    let long_steps = lift_offs(&mut ch, long.limbs[0], 1800);
    let ratio = long_steps as f32 / short_steps as f32;
    assert!(
        (ratio - 2.0 / 3.0).abs() < 0.05,
        "{long_steps} long steps per {short_steps} short ones"
    );
}

fn measured_duty(ch: &mut Character, foot_body: usize, frames: usize) -> f32 {
    let mut track = Vec::with_capacity(frames);
    for _ in 0..frames {
        ch.update(DT);
        track.push(ch.world_pose(foot_body).unwrap().position);
    }
    let still = (1..frames - 1)
        .filter(|&f| {
            track[f].distance(track[f - 1]) < 1e-5 || track[f].distance(track[f + 1]) < 1e-5
        })
        .count();
    still as f32 / (frames - 2) as f32
}

#[test]
fn a_limp_laid_over_a_walk_shortens_one_foots_stance() {
    use anymorph::io::load_gait;
    use anymorph::runtime::gait::GaitLayer;
    let walk_style =
        Arc::new(load_gait(&common::root().join("assets/gaits/walk.gait.json")).unwrap());
    let limp_style =
        Arc::new(load_gait(&common::root().join("assets/gaits/limp.gait.json")).unwrap());
    let c = common::creature("biped");
    let leg = c.legs()[0].length;
    let duty_of = |layers: Vec<GaitLayer>| {
        let mut ch = Character::new(Arc::new(c.clone()));
        ch.set_gait_layers(layers);
        ch.set_locomotion(Vec3::Z * leg, 0.0);
        for _ in 0..120 {
            ch.update(DT);
        }
        let gear = ch.gait().gear().clone();
        let first = gear.limbs[gear.groups[0].limbs[0]].foot;
        let second = gear.limbs[gear.groups[0].limbs[1]].foot;
        (
            measured_duty(&mut ch.clone(), first, 1200),
            measured_duty(&mut ch, second, 1200),
        )
    };
    let (walk_a, walk_b) = duty_of(vec![GaitLayer::new(Arc::clone(&walk_style))]);
    assert!(
        (walk_a - walk_b).abs() < 0.03,
        "an even walk: {walk_a} vs {walk_b}"
    );
    let half = GaitLayer {
        weight: 0.5,
        ..GaitLayer::new(Arc::clone(&limp_style))
    };
    let (half_a, half_b) = duty_of(vec![GaitLayer::new(Arc::clone(&walk_style)), half]);
    let (limp_a, limp_b) = duty_of(vec![
        GaitLayer::new(Arc::clone(&walk_style)),
        GaitLayer::new(limp_style),
    ]);
    assert!(
        limp_b - limp_a > 0.15,
        "the limping foot is down much less: {limp_a} vs {limp_b}"
    );
    assert!(
        half_a < walk_a && half_a > limp_a,
        "half a limp is in between: {walk_a} {half_a} {limp_a}"
    );
    assert!(half_b >= walk_b - 0.03);
}

#[test]
fn different_leg_groups_can_walk_in_different_styles() {
    use anymorph::io::load_gait;
    use anymorph::runtime::gait::GaitLayer;
    let walk_style =
        Arc::new(load_gait(&common::root().join("assets/gaits/walk.gait.json")).unwrap());
    let run_style =
        Arc::new(load_gait(&common::root().join("assets/gaits/run.gait.json")).unwrap());
    let mut ch = Character::new(Arc::new(common::creature("tripod").clone()));
    let long_group = ch
        .gait()
        .gear()
        .groups
        .iter()
        .position(|g| g.limbs.len() == 1)
        .unwrap();
    ch.set_gait_layers(vec![
        GaitLayer::new(walk_style),
        GaitLayer {
            group: Some(long_group),
            ..GaitLayer::new(run_style)
        },
    ]);
    ch.set_locomotion(Vec3::Z * 0.5, 0.0);
    ch.update(DT);
    let g = ch.gait();
    let short = g.group_params(g.gear().reference).unwrap().feet[0].duty;
    let long = g.group_params(long_group).unwrap().feet[0].duty;
    assert!(
        short > 0.6 && long < 0.45,
        "walk duty {short}, run duty {long}"
    );
}

#[test]
fn clips_that_own_the_feet_override_the_gait() {
    let dance = Arc::new(common::clip("dance").clone());
    let c = common::creature("quadruped");
    let mut ch = Character::new(Arc::new(c.clone()));
    ch.play(&dance, Default::default()).unwrap();
    ch.set_locomotion(Vec3::Z * 0.3, 0.0);
    for _ in 0..120 {
        ch.update(DT);
    }
    // Dance pins the feet at rest in character space: they travel with the body.
    for leg in c.legs() {
        let (goal, _) = ch.goals().position(leg.foot).unwrap();
        assert!(
            goal.distance(c.body(leg.foot).position) < 1e-4,
            "{}",
            c.body(leg.foot).name
        );
    }
    // Idle breathing leaves the feet to the gait, which plants them in the world.
    let idle = Arc::new(common::clip("idle_breathe").clone());
    let mut ch = Character::new(Arc::new(c.clone()));
    ch.play(&idle, Default::default()).unwrap();
    ch.set_locomotion(Vec3::Z * 0.3, 0.0);
    let mut stepped = false;
    for _ in 0..120 {
        ch.update(DT);
        stepped |= ch
            .gait()
            .feet()
            .iter()
            .any(|f| f.phase == FootPhase::Flight);
    }
    assert!(stepped);
}

#[test]
fn many_feet_walk_in_a_wave_with_the_sides_out_of_step() {
    let mut ch = Character::new(Arc::new(common::creature("octopod").clone()));
    ch.set_locomotion(Vec3::Z * 0.3, 0.0);
    ch.update(DT);
    let g = ch.gait();
    let group = &g.gear().groups[0];
    let params = g.group_params(0).unwrap();
    let mut by_side: Vec<(f32, usize, f32)> = group
        .places
        .iter()
        .zip(&params.feet)
        .map(|(p, f)| (p.side, p.rank, f.trigger))
        .collect();
    by_side.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let left: Vec<f32> = by_side.iter().filter(|x| x.0 > 0.0).map(|x| x.2).collect();
    let right: Vec<f32> = by_side.iter().filter(|x| x.0 < 0.0).map(|x| x.2).collect();
    assert_eq!(left.len(), 4);
    assert!(
        left.windows(2).all(|w| w[1] > w[0]),
        "the wave runs back to front: {left:?}"
    );
    for (l, r) in left.iter().zip(&right) {
        assert!(
            ((r - l).rem_euclid(1.0) - 0.5).abs() < 1e-5,
            "sides half a cycle apart"
        );
    }
}

#[test]
fn the_gait_style_files_load_and_cover_one_to_six_feet() {
    for name in ["walk", "trot", "run", "limp"] {
        let path = common::root().join(format!("assets/gaits/{name}.gait.json"));
        let s = anymorph::io::load_gait(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.name, name);
        assert!(!s.intent.is_empty());
        let sizes: Vec<usize> = s.groups.iter().map(|g| g.feet).collect();
        if name != "limp" {
            assert_eq!(sizes, [1, 2, 3, 4, 5, 6], "{name}");
        }
        // Saving writes the file back unchanged.
        assert_eq!(
            anymorph::io::gait_to_string(&s),
            std::fs::read_to_string(&path).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn walkers_of_one_creature_share_their_legs_and_step_alike() {
    let c = Arc::new(common::creature("hexapod").clone());
    let mut a = Character::new(Arc::clone(&c));
    let mut b = Character::new(Arc::clone(&c));
    let mut own = Character::new(Arc::new((*c).clone()));
    assert!(std::ptr::eq(a.gait().gear(), b.gait().gear()));
    assert!(!std::ptr::eq(a.gait().gear(), own.gait().gear()));
    for ch in [&mut a, &mut own] {
        ch.set_locomotion(Vec3::Z * 0.6, 0.3);
    }
    for _ in 0..120 {
        for ch in [&mut a, &mut b, &mut own] {
            ch.update(DT);
        }
        assert_eq!(a.pose(), own.pose());
    }
    assert_ne!(a.pose(), b.pose(), "one walker's velocity moved another");
}

/// A forked leg whose shins differ in length (the first such zoo creature: zoo creature 22
/// was one, its back foot's shin nearly twice the front one's, until the zoo changed) has
/// feet that fall on either side of the grouping by length. They must still walk in one
/// group and step together: two feet on one thigh stepping at different times drag one of
/// them, planted, along the ground (0.4 leg lengths before).
#[test]
fn a_forked_legs_feet_walk_in_one_group_whatever_their_lengths() {
    let uneven_fork = |c: &Creature| {
        let gear = anymorph::runtime::gait::Gear::of(c);
        gear.limbs.iter().enumerate().any(|(i, a)| {
            gear.limbs.iter().skip(i + 1).any(|b| {
                a.leg_root == b.leg_root && a.length.max(b.length) > 1.1 * a.length.min(b.length)
            })
        })
    };
    let c = (0..500)
        .filter_map(|seed| anymorph::zoo::generate(seed).ok())
        .find(|c| uneven_fork(c))
        .expect("no zoo creature of the first 500 has a forked leg with uneven feet");
    let gear = anymorph::runtime::gait::Gear::of(&c);
    let group_of = |i: usize| gear.groups.iter().position(|g| g.limbs.contains(&i));
    let mut forks = 0;
    for (i, a) in gear.limbs.iter().enumerate() {
        for (j, b) in gear.limbs.iter().enumerate().skip(i + 1) {
            if a.leg_root == b.leg_root {
                forks += 1;
                assert_eq!(
                    group_of(i),
                    group_of(j),
                    "{} and {} share a leg",
                    c.body(a.foot).name,
                    c.body(b.foot).name
                );
            }
        }
    }
    assert!(forks >= 1);
    let w = walk(&c, 0.8, 0.0, Terrain::Flat, 4.0);
    assert!(
        w.slip < 0.002 * c.size(),
        "a planted foot slipped {} m",
        w.slip
    );
}

/// A forked leg with both feet planted hangs its knee from three still joints, which one
/// exact step places (the limb phase's tripod): its planted feet stay where they were set
/// down to rounding. Passes one bone at a time stopped at their cap short of that and
/// slipped a foot by 1.99 mm at 1.8 legs a second turning on a slope, a hair inside the
/// general test's 2 mm.
#[test]
fn a_forked_legs_planted_feet_hold_to_rounding() {
    let c = common::creature("branching_leg");
    for speed in [1.0, 1.8] {
        for terrain in [Terrain::Flat, Terrain::Slope { degrees: 10.0 }] {
            let w = walk(c, speed, 0.5, terrain, 6.0);
            assert!(
                w.slip < 1e-5 * c.size(),
                "at {speed} legs/s turning on {terrain}: a planted foot slipped {} m",
                w.slip
            );
        }
    }
}

/// The gait's body motion moves the whole body: the goals a clip gives the rest of the
/// spine ride on it. A floater bobs as it hovers; breathing keeps its crown where the clip
/// puts it on the bell, rather than where the bell was before the bob (3 cm off).
#[test]
fn a_clips_spine_goals_ride_on_the_gaits_body_motion() {
    let floater = Arc::new(common::creature("floater").clone());
    let clip = Arc::new(
        anymorph::io::load_clip(&common::root().join("assets/clips/idle_breathe.clip.json"))
            .unwrap(),
    );
    let (bell, crown) = (floater.root(), floater.find("crown").unwrap());
    let rest = floater.body(crown).position - floater.body(bell).position;
    let mut ch = Character::new(Arc::clone(&floater));
    ch.play(&clip, Default::default()).unwrap();
    let (mut bob, mut worst) = (0.0f32, 0.0f32);
    for _ in 0..60 {
        ch.update(DT);
        let goals = ch.goals();
        let (b, _) = goals.position(bell).unwrap();
        let (c, _) = goals.position(crown).unwrap();
        bob = bob.max((b.y - floater.body(bell).position.y).abs());
        worst = worst.max(((c - b) - rest).length());
        let pose = ch.pose();
        worst = worst.max((pose[crown].position - c).length());
    }
    assert!(
        bob > 0.02,
        "the floater bobbed {bob} m: the test shows nothing"
    );
    assert!(
        worst < 1e-3,
        "the crown strayed {worst} m from the bell's bob"
    );
}
