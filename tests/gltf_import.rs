//! Importing rigs made the way artists make them (tests/fixtures/gltf, built by
//! tools/blender/make_rigs.py in Blender): the right legs, graspers and spine, digits and
//! feathers never becoming limbs, placement into character space, and the mesh kept.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::io::gltf::{
    CapsSource, ImportedRig, RigRules, import_rig, import_rig_with, mesh_for_creature,
};
use anymorph::io::{load_creature, save_creature};
use anymorph::runtime::creature::{Cap, Creature, Side};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    common::root().join("tests/fixtures/gltf").join(name)
}

fn rig(name: &str) -> ImportedRig {
    import_rig(&fixture(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn names_with(c: &Creature, cap: &Cap) -> Vec<String> {
    let mut v: Vec<String> = c
        .bodies()
        .iter()
        .filter(|b| b.has_cap(cap))
        .map(|b| b.name.clone())
        .collect();
    v.sort();
    v
}

fn feet(c: &Creature) -> Vec<String> {
    let mut v: Vec<String> = c
        .legs()
        .iter()
        .map(|l| c.body(l.foot).name.clone())
        .collect();
    v.sort();
    v
}

/// No body named as a finger, toe, feather or face part is a foot, a grasper or on a leg.
fn digits_stay_digits(c: &Creature) {
    for b in c.bodies() {
        let digit = ["finger", "toe", "feather", "face"]
            .iter()
            .any(|d| b.has_cap(&Cap::Other((*d).into())));
        if digit {
            assert!(
                !b.has_cap(&Cap::Foot) && !b.has_cap(&Cap::Grasper),
                "{}: {} is a digit but has {:?}",
                c.name(),
                b.name,
                b.caps
            );
        }
    }
    for leg in c.legs() {
        for &b in &leg.chain {
            let body = c.body(b);
            assert!(
                !body.has_cap(&Cap::Other("finger".into()))
                    && !body.has_cap(&Cap::Other("feather".into())),
                "{}: leg through {}",
                c.name(),
                body.name
            );
        }
    }
}

#[test]
fn humanoid_has_two_legs_two_hands_and_fingers_that_stay_fingers() {
    let r = rig("humanoid.glb");
    let c = &r.creature;
    assert_eq!(feet(c), ["foot.L", "foot.R"]);
    assert_eq!(names_with(c, &Cap::Grasper), ["hand.L", "hand.R"]);
    assert_eq!(names_with(c, &Cap::Head), ["head"]);
    assert_eq!(c.count_cap(&Cap::Other("finger".into())), 30);
    assert_eq!(c.body(c.root()).name, "spine");
    assert!(c.upright().upright);
    digits_stay_digits(c);
    // Left is +X and the front is +Z.
    let hand_l = c.find("hand.L").unwrap();
    assert_eq!(c.side(hand_l), Side::Left);
    let toe = c.body(c.find("toe.L").unwrap()).joint;
    let ankle = c.body(c.find("foot.L").unwrap()).joint;
    assert!(toe.z > ankle.z, "toes point to +Z");
    // Standing on the ground, about 1.8 m tall.
    let b = c.bounds();
    assert!(b.min.y.abs() < 0.01, "{:?}", b.min);
    assert!((b.max.y - 1.84).abs() < 0.05, "{:?}", b.max);
    let mesh = r.mesh.as_ref().expect("the humanoid is skinned");
    assert!(mesh.vertex_count() > 100);
    assert_eq!(mesh.inverse_bind.len(), c.len());
    assert_eq!(c.extra()["mesh"], "humanoid.glb");
}

#[test]
fn mixamo_rig_in_centimetres_facing_backwards_is_placed_in_metres_facing_front() {
    let r = rig("mixamo_humanoid.glb");
    let c = &r.creature;
    assert_eq!(r.report.turned_degrees, 180, "{}", r.report.facing);
    assert_eq!(feet(c), ["mixamorig:LeftFoot", "mixamorig:RightFoot"]);
    assert_eq!(
        names_with(c, &Cap::Grasper),
        ["mixamorig:LeftHand", "mixamorig:RightHand"]
    );
    let left = c.find("mixamorig:LeftHand").unwrap();
    assert_eq!(c.side(left), Side::Left);
    let height = c.bounds().max.y;
    assert!((1.7..2.0).contains(&height), "{height}");
    digits_stay_digits(c);
}

#[test]
fn horse_has_four_hooves_as_feet_and_its_named_feet_above_are_limbs() {
    let r = rig("horse.glb");
    let c = &r.creature;
    assert_eq!(feet(c), ["f_hoof.L", "f_hoof.R", "h_hoof.L", "h_hoof.R"]);
    assert_eq!(c.count_cap(&Cap::Foot), 4);
    assert!(c.body(c.find("forefoot.L").unwrap()).has_cap(&Cap::Limb));
    assert_eq!(c.count_cap(&Cap::Grasper), 0);
    assert_eq!(names_with(c, &Cap::Tail), ["tail", "tail.001"]);
    assert!(!c.upright().upright);
    // The head is at the front.
    let head = c.body(c.find("head").unwrap()).joint;
    let tail = c.body(c.find("tail").unwrap()).joint;
    assert!(head.z > tail.z);
}

#[test]
fn bird_walks_on_two_feet_and_its_wings_and_feathers_are_not_arms() {
    let r = rig("bird.glb");
    let c = &r.creature;
    assert_eq!(feet(c), ["foot.L", "foot.R"]);
    assert_eq!(c.count_cap(&Cap::Grasper), 0);
    assert_eq!(c.count_cap(&Cap::Wing), 6);
    assert_eq!(c.count_cap(&Cap::Other("feather".into())), 17);
    digits_stay_digits(c);
}

#[test]
fn spider_has_eight_legs_from_its_thorax_and_palps_as_graspers() {
    let r = rig("spider.glb");
    let c = &r.creature;
    assert_eq!(c.legs().len(), 8);
    assert!(c.legs().iter().all(|l| c.body(l.hip).name == "thorax"));
    assert_eq!(names_with(c, &Cap::Grasper), ["palp.L.001", "palp.R.001"]);
    assert!(r.mesh.is_none(), "the spider is bones only");
    assert!(c.bounds().min.y > -0.05, "{:?}", c.bounds().min);
}

#[test]
fn snake_is_all_spine_and_crawls() {
    let r = rig("snake.glb");
    let c = &r.creature;
    assert_eq!(c.legs().len(), 0);
    assert_eq!(c.count_cap(&Cap::Grasper), 0);
    assert_eq!(c.spine_chain().len(), 17);
    assert_eq!(c.body(*c.spine_chain().last().unwrap()).name, "head");
}

#[test]
fn a_plain_node_tree_with_unknown_names_is_read_by_its_shape() {
    let r = rig("robot_nodes.glb");
    let c = &r.creature;
    assert!(
        r.report.skeleton.contains("node tree"),
        "{}",
        r.report.skeleton
    );
    assert_eq!(feet(c), ["pad0.L", "pad0.R", "pad1.L", "pad1.R"]);
    assert_eq!(names_with(c, &Cap::Grasper), ["gripper.L", "gripper.R"]);
    assert_eq!(names_with(c, &Cap::Head), ["sensor"]);
    for b in c.bodies() {
        let source = b.extra["caps_source"].as_str().unwrap();
        assert!(source.starts_with("geometry"), "{}: {source}", b.name);
    }
    // Every part's mesh follows it rigidly.
    assert!(r.mesh.as_ref().unwrap().vertex_count() >= 19 * 8);
}

#[test]
fn an_unnamed_humanoid_is_read_by_its_shape_with_fingers_as_digits() {
    let r = rig("humanoid_unnamed.glb");
    let c = &r.creature;
    assert_eq!(c.legs().len(), 2);
    assert_eq!(c.count_cap(&Cap::Grasper), 2);
    assert_eq!(c.count_cap(&Cap::Other("finger".into())), 30);
    assert_eq!(c.count_cap(&Cap::Head), 1);
    digits_stay_digits(c);
    assert!(
        r.report
            .caps
            .iter()
            .all(|s| matches!(s, CapsSource::Geometry(_))),
        "{:?}",
        r.report.caps
    );
}

#[test]
fn every_fixture_plays_the_sample_clips_it_binds_to() {
    use anymorph::runtime::player::{Character, PlayParams};
    use std::sync::Arc;
    for name in [
        "humanoid.glb",
        "mixamo_humanoid.glb",
        "horse.glb",
        "bird.glb",
        "spider.glb",
        "snake.glb",
        "robot_nodes.glb",
        "humanoid_unnamed.glb",
    ] {
        let creature = Arc::new(load_creature(&fixture(name)).unwrap());
        let mut played = 0;
        for clip in common::clips() {
            let clip = Arc::new(clip.clone());
            let mut ch = Character::new(Arc::clone(&creature));
            if ch.play(&clip, PlayParams::default()).is_err() {
                continue;
            }
            played += 1;
            for _ in 0..20 {
                let pose = ch.update(1.0 / 30.0);
                assert!(pose.iter().all(|p| p.is_finite()), "{name} {}", clip.name);
            }
        }
        assert!(played >= 3, "{name}: only {played} sample clips play");
    }
}

#[test]
fn a_saved_creature_refers_to_its_mesh_and_gets_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("humanoid.glb");
    std::fs::copy(fixture("humanoid.glb"), &glb).unwrap();
    let r = import_rig(&glb).unwrap();
    let json = dir.path().join("humanoid.creature.json");
    save_creature(&json, &r.creature).unwrap();
    let back = load_creature(&json).unwrap();
    assert_eq!(back.extra()["mesh"], "humanoid.glb");
    assert_eq!(back.len(), r.creature.len());
    let mesh = mesh_for_creature(&back, &json).unwrap().expect("a mesh");
    assert_eq!(mesh.vertex_count(), r.mesh.as_ref().unwrap().vertex_count());
    // At rest every skinning matrix is the identity.
    let rest: Vec<_> = back
        .bodies()
        .iter()
        .map(|b| anymorph::runtime::pose::BodyPose::new(b.position, b.rotation))
        .collect();
    let mut skin = Vec::new();
    mesh.skin_matrices(&rest, &mut skin);
    let moved = mesh.skin_positions(&skin);
    for (a, b) in moved.iter().zip(&mesh.positions) {
        assert!(a.distance(*b) < 1e-4);
    }
}

#[test]
fn a_users_rule_table_beside_the_rig_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("robot.glb");
    std::fs::copy(fixture("robot_nodes.glb"), &glb).unwrap();
    std::fs::write(
        dir.path().join("rig_rules.json"),
        r#"{"format": "anymorph-rig-rules", "version": 1,
            "caps": [{"words": ["boom"], "caps": ["weapon"]}, {"words": ["sensor"], "caps": ["spine", "head", "eye"]}]}"#,
    )
    .unwrap();
    let c = import_rig(&glb).unwrap().creature;
    assert!(c.body(c.find("boom.L").unwrap()).has_cap(&Cap::Weapon));
    assert!(c.body(c.find("sensor").unwrap()).has_cap(&Cap::Eye));
    // Names win where they speak; geometry still finds the gripper at the boom's end.
    assert_eq!(names_with(&c, &Cap::Grasper), ["gripper.L", "gripper.R"]);
    // With an empty table, everything comes from geometry.
    let plain = import_rig_with(&fixture("humanoid.glb"), &RigRules::empty()).unwrap();
    assert_eq!(plain.creature.legs().len(), 2);
}

#[test]
fn the_rule_table_example_in_format_md_parses() {
    let doc = std::fs::read_to_string(common::root().join("docs/FORMAT.md")).unwrap();
    let block = doc
        .split("```json")
        .skip(1)
        .map(|b| b.split("```").next().unwrap().trim())
        .find(|b| b.contains("anymorph-rig-rules"))
        .expect("FORMAT.md shows a rule table");
    let rules = RigRules::from_str(block, "FORMAT.md").unwrap();
    let w = rules.words("eye_stalk.L");
    assert_eq!(
        rules.classify(&w, &[]).map(|m| m.caps),
        Some(vec![Cap::Eye])
    );
}
