//! The corpus of real-style rigs (`assets/rigs/`, written by `tools/rigs/make_rigs.py`):
//! bones named as Mixamo, Unreal, Unity, VRM and Rigify name them, quadrupeds with paw
//! chains, a bird, a shark, an insect, an octopus, manes, ears, horns, tails and hair. Each
//! must import with exactly the legs, graspers and feet of its row in
//! `assets/rigs/expected.json`, at the bodies the row names.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::runtime::creature::{Cap, Creature};
use serde_json::Value;

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

fn expected_names(row: &Value, key: &str) -> Vec<String> {
    let mut v: Vec<String> = row[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn every_corpus_rig_has_the_legs_graspers_and_feet_of_its_table() {
    let dir = common::root().join("assets/rigs");
    let table: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let rows = table.as_array().unwrap();
    assert!(rows.len() >= 12, "{} rigs", rows.len());
    let mut wrong = Vec::new();
    for row in rows {
        let file = row["file"].as_str().unwrap();
        let c = anymorph::io::load_creature(&dir.join(file)).unwrap();
        let got = (
            c.legs().len(),
            c.count_cap(&Cap::Grasper),
            c.count_cap(&Cap::Foot),
        );
        let want = (
            row["legs"].as_u64().unwrap() as usize,
            row["graspers"].as_u64().unwrap() as usize,
            row["feet"].as_u64().unwrap() as usize,
        );
        if got != want {
            wrong.push(format!(
                "{file}: legs, graspers, feet {got:?}, expected {want:?}"
            ));
        }
        for (key, cap) in [("grasper_bodies", Cap::Grasper), ("foot_bodies", Cap::Foot)] {
            let (got, want) = (names_with(&c, &cap), expected_names(row, key));
            if got != want {
                wrong.push(format!("{file}: {key} {got:?}, expected {want:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A bone of a skinned rig that moves no vertex and that nothing names (an IK target, a
/// socket) is a control, which the grid's body checks skip; a bone with flesh is not.
#[test]
fn a_skinned_rigs_unweighted_helpers_are_controls() {
    let c = anymorph::io::load_creature(&common::root().join("assets/rigs/unreal_mannequin.glb"))
        .unwrap();
    let control = Cap::Other(anymorph::io::gltf::CONTROL_CAP.into());
    let is_control = |name: &str| c.body(c.find(name).unwrap()).has_cap(&control);
    for helper in ["ik_hand_gun", "ik_hand_r", "ik_foot_l"] {
        assert!(is_control(helper), "{helper}");
    }
    for flesh in ["hand_r", "upperarm_l", "foot_l", "pelvis", "head"] {
        assert!(!is_control(flesh), "{flesh}");
    }
}
