//! The sample creature library: every committed `sample_creatures/*.creature.json` loads,
//! stands on the ground, follows the modelling conventions of `DESIGN.md`, has the features
//! its name promises, and is exactly what `examples/build_sample_creatures.rs` writes.

#[path = "../examples/sample_creatures/mod.rs"]
mod sample_creatures;

use anymorph::io::{creature_to_string, load_creature};
use anymorph::runtime::creature::{Body, BodyId, Cap, Creature, Shape, Side};
use anymorph::runtime::math::{Aabb, segment_distance};
use glam::Vec3;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// How far a foot's lowest point may be from the ground, and how far below it anything may go.
const GROUND_TOLERANCE: f32 = 0.002;

fn library_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample_creatures")
}

fn library_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(library_dir())
        .expect("sample_creatures/ is readable")
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".creature.json"))
        .collect();
    files.sort();
    files
}

fn library() -> Vec<Creature> {
    library_files()
        .iter()
        .map(|p| load_creature(p).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn creature(name: &str) -> Creature {
    load_creature(&library_dir().join(format!("{name}.creature.json")))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn id(c: &Creature, name: &str) -> BodyId {
    c.find(name)
        .unwrap_or_else(|| panic!("{} has no body '{name}'", c.name()))
}

fn box_of(b: &Body) -> Aabb {
    Aabb::of_oriented_box(b.position, b.rotation, b.half_extents)
}

fn with_cap<'a>(c: &'a Creature, cap: &'a Cap) -> impl Iterator<Item = BodyId> + 'a {
    (0..c.len()).filter(move |&b| c.body(b).has_cap(cap))
}

/// Whether `p` lies inside the body's oriented box grown by `margin` on every side.
fn in_box(b: &Body, p: Vec3, margin: f32) -> bool {
    let local = b.rotation.inverse() * (p - b.position);
    local
        .abs()
        .cmple(b.half_extents + Vec3::splat(margin))
        .all()
}

/// The spine body a limb hangs from (following file parents) and the path up to it, limb first.
fn path_to_spine(c: &Creature, from: BodyId) -> (Vec<BodyId>, Option<BodyId>) {
    let mut path = Vec::new();
    let mut at = Some(from);
    while let Some(b) = at {
        if c.is_spine(b) {
            return (path, Some(b));
        }
        path.push(b);
        at = c.body(b).file_parent;
    }
    (path, None)
}

/// A capsule's axis segment and radius (the shape drawn inside its box).
fn capsule(b: &Body) -> (Vec3, Vec3, f32) {
    let r = b.half_extents.x.min(b.half_extents.z);
    let axis = b.rotation * Vec3::Y * (b.half_extents.y - r).max(0.0);
    (b.position - axis, b.position + axis, r)
}

fn forward(b: &Body) -> Vec3 {
    b.rotation * Vec3::Z
}

// ---------------------------------------------------------------------------------------------
// The library as a whole

#[test]
fn library_has_at_least_fifteen_creatures_of_15_to_80_bodies() {
    let files = library_files();
    assert!(files.len() >= 15, "only {} sample creatures", files.len());
    for (path, c) in files.iter().zip(library()) {
        let stem = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".creature.json"))
            .expect("a .creature.json file name");
        assert_eq!(
            c.name(),
            stem,
            "{}: the name must match the file",
            path.display()
        );
        assert!(
            (15..=80).contains(&c.len()),
            "{} has {} bodies",
            c.name(),
            c.len()
        );
    }
}

#[test]
fn committed_files_are_exactly_what_the_example_builds() {
    let mut built = BTreeSet::new();
    for builder in sample_creatures::all() {
        let c = builder.build().expect("every sample creature is valid");
        let path = library_dir().join(format!("{}.creature.json", c.name()));
        let committed =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let fresh = creature_to_string(&c);
        if committed != fresh {
            let line = committed
                .lines()
                .zip(fresh.lines())
                .position(|(a, b)| a != b)
                .map_or(committed.lines().count().min(fresh.lines().count()), |i| i);
            panic!(
                "{} differs from its definition at line {}: run `cargo run --example build_sample_creatures`",
                path.display(),
                line + 1
            );
        }
        assert!(
            built.insert(c.name().to_string()),
            "two creatures named {}",
            c.name()
        );
    }
    let on_disk: BTreeSet<String> = library().iter().map(|c| c.name().to_string()).collect();
    assert_eq!(
        on_disk, built,
        "a committed file has no definition, or the reverse"
    );
}

#[test]
fn feet_stand_on_the_ground_and_nothing_goes_below_it() {
    for c in library() {
        for b in c.bodies() {
            let low = box_of(b).min.y;
            assert!(
                low >= -GROUND_TOLERANCE,
                "{}: {} reaches y = {low}",
                c.name(),
                b.name
            );
            if b.has_cap(&Cap::Foot) {
                assert!(
                    low.abs() <= GROUND_TOLERANCE,
                    "{}: foot {} has its lowest point at y = {low}",
                    c.name(),
                    b.name
                );
            }
        }
        if c.count_cap(&Cap::Foot) > 0 {
            assert!(c.bounds().min.y.abs() <= GROUND_TOLERANCE, "{}", c.name());
        }
    }
}

#[test]
fn every_foot_ends_a_leg_of_limb_segments_hanging_from_the_spine() {
    for c in library() {
        assert_eq!(
            c.legs().len(),
            c.count_cap(&Cap::Foot),
            "{}: every foot must be the end of a leg",
            c.name()
        );
        for leg in c.legs() {
            let foot = &c.body(leg.foot).name;
            assert!(
                c.is_spine(leg.hip),
                "{}: {foot}'s hip is not spine",
                c.name()
            );
            assert_eq!(leg.chain.last(), Some(&leg.foot), "{}: {foot}", c.name());
            for &b in &leg.chain[..leg.chain.len() - 1] {
                assert!(
                    c.body(b).has_cap(&Cap::Limb),
                    "{}: {} on the leg of {foot} is not a limb",
                    c.name(),
                    c.body(b).name
                );
            }
        }
        for g in with_cap(&c, &Cap::Grasper) {
            let (path, hip) = path_to_spine(&c, g);
            assert!(
                hip.is_some(),
                "{}: {} hangs from no spine",
                c.name(),
                c.body(g).name
            );
            for &b in &path[1..] {
                assert!(
                    c.body(b).has_cap(&Cap::Limb),
                    "{}: {} on the arm of {} is not a limb",
                    c.name(),
                    c.body(b).name,
                    c.body(g).name
                );
            }
        }
    }
}

#[test]
fn caps_follow_the_modelling_conventions() {
    for c in library() {
        assert_eq!(
            c.count_cap(&Cap::Root),
            0,
            "{}: the samples rely on the automatic root",
            c.name()
        );
        for (i, b) in c.bodies().iter().enumerate() {
            let name = format!("{}: {}", c.name(), b.name);
            if b.has_cap(&Cap::Head) {
                assert!(
                    b.has_cap(&Cap::Spine),
                    "{name}: a head is part of the spine"
                );
                assert!(c.is_spine(i), "{name}: the head is off the derived spine");
            }
            if b.has_cap(&Cap::Tail) || b.has_cap(&Cap::Limb) {
                assert!(
                    !b.has_cap(&Cap::Spine),
                    "{name}: tails and limbs are not spine"
                );
            }
            for part in ["toe", "finger"] {
                if b.has_cap(&Cap::Other(part.into())) {
                    assert!(
                        !b.has_cap(&Cap::Foot) && !b.has_cap(&Cap::Grasper),
                        "{name}"
                    );
                }
            }
            if b.has_cap(&Cap::Eye) || b.has_cap(&Cap::Mouth) {
                let parent = b.file_parent.map(|p| c.body(p));
                assert!(
                    parent.is_some_and(|p| p.has_cap(&Cap::Head)),
                    "{name}: eyes and mouths sit on a head"
                );
            }
        }
    }
}

#[test]
fn heads_look_forward_and_mouths_sit_in_front_of_them() {
    for c in library() {
        for h in with_cap(&c, &Cap::Head) {
            let f = forward(c.body(h));
            assert!(
                f.z > 0.5 && f.y.abs() < 0.5,
                "{}: {} looks along {f}",
                c.name(),
                c.body(h).name
            );
        }
        for m in with_cap(&c, &Cap::Mouth) {
            let mouth = c.body(m);
            let head = c.body(mouth.file_parent.expect("a mouth has a parent"));
            let ahead = (mouth.position - head.position).dot(forward(head));
            assert!(
                ahead > 0.0,
                "{}: {} is not in front of {}",
                c.name(),
                mouth.name,
                head.name
            );
        }
    }
}

#[test]
fn joints_lie_on_both_the_parent_and_the_child() {
    for c in library() {
        let margin = 0.02 * c.size();
        for b in c.bodies() {
            let Some(p) = b.file_parent else { continue };
            let parent = c.body(p);
            assert!(
                in_box(parent, b.joint, margin),
                "{}: {}'s joint {} is off its parent {}",
                c.name(),
                b.name,
                b.joint,
                parent.name
            );
            assert!(
                in_box(b, b.joint, margin),
                "{}: {}'s joint {} is off the body itself",
                c.name(),
                b.name,
                b.joint
            );
        }
    }
}

#[test]
fn limbs_stay_out_of_the_torso_and_out_of_each_other() {
    let appendage = |b: &Body| {
        [Cap::Limb, Cap::Grasper, Cap::Foot, Cap::Wing, Cap::Tail]
            .iter()
            .any(|cap| b.has_cap(cap))
    };
    for c in library() {
        let spine: Vec<BodyId> = (0..c.len()).filter(|&b| c.is_spine(b)).collect();
        for (i, b) in c.bodies().iter().enumerate() {
            let attached = b.file_parent.is_some_and(|p| c.is_spine(p));
            if !appendage(b) || attached {
                continue;
            }
            for &s in &spine {
                assert!(
                    !in_box(c.body(s), b.position, 0.0),
                    "{}: {} is inside the torso body {}",
                    c.name(),
                    b.name,
                    c.body(s).name
                );
            }
            // Capsules of different limbs keep apart; a body may touch its parent, its
            // children and its siblings (they meet at a joint).
            if b.shape != Shape::Capsule {
                continue;
            }
            for (j, o) in c.bodies().iter().enumerate().skip(i + 1) {
                let related = b.file_parent == Some(j)
                    || o.file_parent == Some(i)
                    || b.file_parent == o.file_parent;
                if related || !appendage(o) || o.shape != Shape::Capsule {
                    continue;
                }
                let ((p1, q1, r1), (p2, q2, r2)) = (capsule(b), capsule(o));
                let gap = segment_distance(p1, q1, p2, q2) - r1 - r2;
                assert!(
                    gap > 0.0,
                    "{}: {} and {} intersect ({gap})",
                    c.name(),
                    b.name,
                    o.name
                );
            }
        }
    }
}

#[test]
fn left_and_right_bodies_sit_on_their_side_and_mirror_each_other() {
    for c in library() {
        for (i, b) in c.bodies().iter().enumerate() {
            if let Some(stem) = b.name.strip_suffix("_l") {
                assert_eq!(c.side(i), Side::Left, "{}: {}", c.name(), b.name);
                if let Some(r) = c.find(&format!("{stem}_r")) {
                    let mirrored = b.position * Vec3::new(-1.0, 1.0, 1.0);
                    assert!(
                        c.body(r).position.abs_diff_eq(mirrored, 1e-5),
                        "{}: {}",
                        c.name(),
                        b.name
                    );
                }
            }
            if b.name.ends_with("_r") {
                assert_eq!(c.side(i), Side::Right, "{}: {}", c.name(), b.name);
            }
        }
    }
}

#[test]
fn the_automatic_root_is_a_sensible_body() {
    let expected: BTreeMap<&str, &[&str]> = BTreeMap::from([
        ("biped", &["pelvis"][..]),
        ("quadruped", &["pelvis", "chest"][..]),
        ("hexapod", &["thorax_2"][..]),
        ("centaur", &["pelvis", "withers"][..]),
        ("snake", &["seg_11", "seg_12", "seg_13"][..]),
        ("octopod", &["body"][..]),
        ("tripod", &["body"][..]),
        ("twoheaded", &["pelvis", "chest"][..]),
        ("tiny", &["pelvis"][..]),
        ("giant", &["pelvis"][..]),
        ("bird", &["pelvis"][..]),
        ("four_armed", &["pelvis"][..]),
        ("branching_leg", &["pelvis"][..]),
        ("wavy_spine", &["spine_03", "spine_11"][..]),
        ("floater", &["bell"][..]),
        ("raptor", &["pelvis"][..]),
        ("scorpion", &["prosoma"][..]),
    ]);
    for c in library() {
        let root = &c.body(c.root()).name;
        let Some(ok) = expected.get(c.name()) else {
            panic!(
                "{}: add the new creature's sensible roots to this test",
                c.name()
            )
        };
        assert!(
            ok.contains(&root.as_str()),
            "{}: root {root}, expected one of {ok:?}",
            c.name()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Each creature has what its name promises

#[test]
fn biped_is_the_upright_benchmark() {
    let c = creature("biped");
    assert!((23..=27).contains(&c.len()), "{} bodies", c.len());
    assert_eq!(c.legs().len(), 2);
    assert_eq!(c.count_cap(&Cap::Grasper), 2);
    assert_eq!(c.count_cap(&Cap::Head), 1);
    assert_eq!(c.count_cap(&Cap::Mouth), 1);
    assert_eq!(c.count_cap(&Cap::Eye), 2);
    assert_eq!(c.count_cap(&Cap::Spine), 6, "pelvis, 3 spine, neck, head");
    assert!(c.upright().upright);
    let height = c.bounds().size().y;
    assert!((1.6..=1.8).contains(&height), "{height}");
}

#[test]
fn quadruped_is_a_dog_with_a_tail() {
    let c = creature("quadruped");
    assert_eq!(c.legs().len(), 4);
    for leg in c.legs() {
        assert!(
            (4..=5).contains(&leg.chain.len()),
            "3–4 segments and a foot"
        );
    }
    assert!(!c.upright().upright);
    assert!(
        c.spine_chain().len() >= 7,
        "~5 torso bodies, a neck and a head"
    );
    assert!(c.count_cap(&Cap::Tail) >= 4);
    assert_eq!(c.count_cap(&Cap::Mouth), 1);
    assert_eq!(c.count_cap(&Cap::Eye), 2);
    assert_eq!(c.count_cap(&Cap::Ear), 2);
    assert_eq!(c.count_cap(&Cap::Grasper), 0);
    let withers = box_of(c.body(id(&c, "chest"))).max.y;
    assert!((0.5..=0.7).contains(&withers), "shoulder height {withers}");
}

#[test]
fn hexapod_walks_on_six_legs_and_grasps_with_two() {
    let c = creature("hexapod");
    assert_eq!(c.legs().len(), 6);
    let left = c
        .legs()
        .iter()
        .filter(|l| c.side(l.foot) == Side::Left)
        .count();
    assert_eq!(left, 3, "three legs a side");
    assert_eq!(c.count_cap(&Cap::Grasper), 2);
    assert_eq!(c.count_cap(&Cap::Head), 1);
    assert_eq!(c.count_cap(&Cap::Mouth), 1);
    assert_eq!(c.count_cap(&Cap::Eye), 2);
    assert!(c.count_cap(&Cap::Other("antenna".into())) >= 2);
    assert!(!c.upright().upright);
}

#[test]
fn centaur_has_a_human_torso_rising_from_a_horse() {
    let c = creature("centaur");
    assert_eq!(c.legs().len(), 4);
    assert_eq!(c.count_cap(&Cap::Grasper), 2);
    assert_eq!(c.count_cap(&Cap::Head), 1);
    let chain = c.spine_chain();
    let (first, last) = (chain[0], chain[chain.len() - 1]);
    assert_eq!(
        c.body(first).name,
        "pelvis",
        "the spine starts at the horse's hips"
    );
    assert_eq!(
        c.body(last).name,
        "head",
        "and continues up to the human head"
    );
    let waist = c.body(id(&c, "waist")).position;
    let head = c.body(last).position;
    assert!(
        head.y - waist.y > 0.4 && (head.z - waist.z).abs() < 0.1,
        "the torso is upright"
    );
    let horse = c.body(first).position - c.body(id(&c, "withers")).position;
    assert!(
        horse.z.abs() > 0.8 && horse.y.abs() < 0.05,
        "the horse body is level"
    );
}

#[test]
fn snake_lies_on_the_ground_in_an_s() {
    let c = creature("snake");
    assert!((20..=30).contains(&c.count_cap(&Cap::Spine)));
    assert_eq!(c.legs().len(), 0);
    assert_eq!(c.count_cap(&Cap::Grasper), 0);
    assert_eq!(c.count_cap(&Cap::Foot), 0);
    assert_eq!(c.count_cap(&Cap::Head), 1);
    assert_eq!(c.count_cap(&Cap::Mouth), 1);
    assert_eq!(c.count_cap(&Cap::Eye), 2);
    assert!(!c.upright().upright);
    for b in c.bodies().iter().filter(|b| b.has_cap(&Cap::Spine)) {
        let low = box_of(b).min.y;
        assert!(low.abs() <= GROUND_TOLERANCE, "{} rests at {low}", b.name);
    }
    let xs: Vec<f32> = c
        .spine_chain()
        .iter()
        .map(|&b| c.body(b).position.x)
        .collect();
    assert!(
        xs.iter().any(|&x| x > 0.03) && xs.iter().any(|&x| x < -0.03),
        "an S curve"
    );
}

#[test]
fn octopod_has_eight_legs_all_around() {
    let c = creature("octopod");
    assert_eq!(c.legs().len(), 8);
    assert_eq!(c.count_cap(&Cap::Foot), 8);
    for leg in c.legs() {
        assert_eq!(leg.chain.len(), 4, "three segments and a foot");
    }
    let centre = c.body(c.root()).position;
    let mut angles: Vec<f32> = c
        .legs()
        .iter()
        .map(|l| {
            let d = c.body(l.foot).position - centre;
            d.x.atan2(d.z).to_degrees()
        })
        .collect();
    angles.sort_by(f32::total_cmp);
    let quadrants: BTreeSet<i32> = angles
        .iter()
        .map(|a| (a.rem_euclid(360.0) / 90.0) as i32)
        .collect();
    assert_eq!(quadrants.len(), 4, "feet at {angles:?}");
    let widest_gap = angles
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(360.0 + angles[0] - angles[angles.len() - 1], f32::max);
    assert!(widest_gap < 60.0, "feet evenly spread: {angles:?}");
    for e in with_cap(&c, &Cap::Eye) {
        assert!(c.body(e).position.y > centre.y, "eyes on top");
    }
}

#[test]
fn tripod_has_three_different_legs_and_one_arm() {
    let c = creature("tripod");
    assert_eq!(c.legs().len(), 3);
    let lengths: Vec<f32> = c.legs().iter().map(|l| l.length).collect();
    for (i, a) in lengths.iter().enumerate() {
        for b in &lengths[i + 1..] {
            assert!((a - b).abs() >= 0.15 * a.max(*b), "leg lengths {lengths:?}");
        }
    }
    let graspers: Vec<BodyId> = with_cap(&c, &Cap::Grasper).collect();
    assert_eq!(graspers.len(), 1);
    assert!(
        c.body(graspers[0]).position.x.abs() > 0.05,
        "the arm is on one side"
    );
    assert_eq!(c.count_cap(&Cap::Head), 1);
    let body = c.body(c.root());
    assert!(
        (body.rotation * Vec3::Y).y.abs() < 0.05,
        "the body is level"
    );
}

#[test]
fn twoheaded_heads_look_different_ways() {
    let c = creature("twoheaded");
    assert_eq!(c.legs().len(), 4);
    let heads: Vec<BodyId> = with_cap(&c, &Cap::Head).collect();
    assert_eq!(heads.len(), 2);
    let (a, b) = (forward(c.body(heads[0])), forward(c.body(heads[1])));
    let angle = a.angle_between(b).to_degrees();
    assert!(angle >= 30.0, "heads {angle}° apart");
    assert_ne!(c.side(heads[0]), c.side(heads[1]));
    for &h in &heads {
        let parts = |cap: Cap| {
            (0..c.len())
                .filter(|&b| c.body(b).file_parent == Some(h) && c.body(b).has_cap(&cap))
                .count()
        };
        assert_eq!(parts(Cap::Mouth), 1, "{}", c.body(h).name);
        assert!(parts(Cap::Eye) >= 1, "{}", c.body(h).name);
    }
}

#[test]
fn tiny_is_twenty_centimetres_tall() {
    let c = creature("tiny");
    let height = c.bounds().size().y;
    assert!((0.17..=0.23).contains(&height), "{height}");
    assert!(c.legs().len() >= 2);
    assert!(c.count_cap(&Cap::Grasper) >= 2);
}

#[test]
fn giant_is_six_metres_tall() {
    let c = creature("giant");
    let height = c.bounds().size().y;
    assert!((5.5..=6.5).contains(&height), "{height}");
    assert_eq!(c.count_cap(&Cap::Grasper), 2);
    assert_eq!(c.legs().len(), 2);
    assert!(c.upright().upright);
}

#[test]
fn bird_has_wings_a_beak_toes_and_a_tail() {
    let c = creature("bird");
    assert_eq!(c.legs().len(), 2);
    assert_eq!(c.count_cap(&Cap::Foot), 2);
    assert!(
        c.count_cap(&Cap::Other("toe".into())) >= 2,
        "toes, which are not feet"
    );
    for side in [Side::Left, Side::Right] {
        let wing = with_cap(&c, &Cap::Wing)
            .filter(|&b| c.side(b) == side)
            .count();
        assert!(
            (2..=3).contains(&wing),
            "{wing} wing segments on the {side:?}"
        );
    }
    assert_eq!(c.count_cap(&Cap::Mouth), 1);
    assert!(c.count_cap(&Cap::Tail) >= 1);
    assert_eq!(c.count_cap(&Cap::Grasper), 0);
    assert!(
        !c.upright().upright,
        "a level body with the neck reaching forward"
    );
}

#[test]
fn four_armed_has_two_pairs_of_shoulders() {
    let c = creature("four_armed");
    assert_eq!(c.count_cap(&Cap::Grasper), 4);
    assert_eq!(c.legs().len(), 2);
    assert!(c.upright().upright);
    let shoulders: BTreeSet<BodyId> = with_cap(&c, &Cap::Grasper)
        .filter_map(|g| path_to_spine(&c, g).1)
        .collect();
    assert_eq!(shoulders.len(), 2, "the pairs hang from two spine bodies");
    let heights: Vec<f32> = with_cap(&c, &Cap::Grasper)
        .map(|g| {
            let (path, _) = path_to_spine(&c, g);
            c.body(*path.last().expect("an arm")).joint.y
        })
        .collect();
    let spread = heights.iter().copied().fold(f32::MIN, f32::max)
        - heights.iter().copied().fold(f32::MAX, f32::min);
    assert!(spread >= 0.1, "shoulders at {heights:?}");
}

#[test]
fn branching_leg_forks_below_the_knee() {
    let c = creature("branching_leg");
    assert_eq!(c.count_cap(&Cap::Foot), 4);
    assert_eq!(c.legs().len(), 4, "both feet of a fork end a leg");
    let mut by_thigh: BTreeMap<BodyId, BTreeSet<BodyId>> = BTreeMap::new();
    for leg in c.legs() {
        by_thigh.entry(leg.chain[0]).or_default().insert(leg.foot);
    }
    assert_eq!(by_thigh.len(), 2, "two hip legs");
    for (thigh, feet) in &by_thigh {
        assert_eq!(feet.len(), 2, "{} carries two feet", c.body(*thigh).name);
    }
    assert_eq!(c.count_cap(&Cap::Grasper), 2);
}

#[test]
fn wavy_spine_bends_several_times() {
    let c = creature("wavy_spine");
    let chain = c.spine_chain();
    assert!(
        chain.len() >= 10,
        "{} spine bodies in the chain",
        chain.len()
    );
    let points: Vec<Vec3> = chain.iter().map(|&b| c.body(b).position).collect();
    let sign_changes = |bend: &dyn Fn(Vec3, Vec3) -> f32| {
        let signs: Vec<f32> = points
            .windows(3)
            .map(|w| bend(w[1] - w[0], w[2] - w[1]))
            .filter(|b| b.abs() > 1e-4)
            .map(f32::signum)
            .collect();
        signs.windows(2).filter(|s| s[0] != s[1]).count()
    };
    let sideways = sign_changes(&|a, b| a.cross(b).y);
    let vertical = sign_changes(&|a, b| b.y - a.y);
    assert!(
        sideways >= 1 && vertical >= 2,
        "inflections: {sideways} sideways, {vertical} vertical"
    );
    assert_eq!(c.legs().len(), 4);
    assert_eq!(c.count_cap(&Cap::Head), 1);
    assert!(!c.upright().upright);
}

#[test]
fn floater_hovers_without_feet() {
    let c = creature("floater");
    assert_eq!(c.count_cap(&Cap::Foot), 0);
    assert_eq!(c.legs().len(), 0);
    let low = c.bounds().min.y;
    assert!(low >= 0.4, "lowest point {low}");
    assert!(c.count_cap(&Cap::Eye) >= 1);
    assert!(c.count_cap(&Cap::Mouth) >= 1);
    assert!(c.count_cap(&Cap::Grasper) >= 1);
}

#[test]
fn raptor_is_a_prone_biped_with_claws() {
    let c = creature("raptor");
    assert_eq!(c.legs().len(), 2);
    assert_eq!(c.count_cap(&Cap::Grasper), 2);
    assert!(!c.upright().upright, "the spine runs along, not up");
    assert!(c.count_cap(&Cap::Tail) >= 5);
    assert_eq!(c.count_cap(&Cap::Weapon), 2);
}

#[test]
fn scorpion_has_eight_legs_pincers_and_a_stinger() {
    let c = creature("scorpion");
    assert_eq!(c.legs().len(), 8);
    assert!(
        c.legs().iter().all(|l| l.hip == c.root()),
        "all legs on the prosoma"
    );
    assert_eq!(c.count_cap(&Cap::Grasper), 2);
    assert_eq!(c.count_cap(&Cap::Weapon), 3);
    assert!(c.count_cap(&Cap::Tail) >= 5);
    assert!(!c.upright().upright);
}
