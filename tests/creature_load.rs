//! Loading, validating and deriving creatures from `*.creature.json`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use anymorph::io::{LoadError, creature_from_str, creature_to_string};
use anymorph::runtime::creature::{Cap, CreatureBuilder, CreatureError};
use glam::Vec3;
use serde_json::{Value, json};

fn body(name: &str, parent: Option<&str>, caps: &[&str], joint: [f32; 3], pos: [f32; 3]) -> Value {
    json!({ "name": name, "parent": parent, "caps": caps, "joint": joint, "position": pos,
            "half_extents": [0.05, 0.05, 0.05] })
}

/// A small upright biped: pelvis, chest, head; two arms with hands; two legs with feet.
fn biped_json() -> Value {
    let mut bodies = vec![
        body("pelvis", None, &["spine"], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]),
        body(
            "chest",
            Some("pelvis"),
            &["spine"],
            [0.0, 1.2, 0.0],
            [0.0, 1.35, 0.0],
        ),
        body(
            "head",
            Some("chest"),
            &["spine", "head", "mouth"],
            [0.0, 1.55, 0.0],
            [0.0, 1.65, 0.02],
        ),
    ];
    for (s, x) in [("l", 1.0), ("r", -1.0)] {
        bodies.push(body(
            &format!("upper_arm_{s}"),
            Some("chest"),
            &["limb"],
            [0.2 * x, 1.45, 0.0],
            [0.2 * x, 1.3, 0.0],
        ));
        bodies.push(body(
            &format!("forearm_{s}"),
            Some(&format!("upper_arm_{s}")),
            &["limb"],
            [0.2 * x, 1.15, 0.0],
            [0.2 * x, 1.0, 0.0],
        ));
        bodies.push(body(
            &format!("hand_{s}"),
            Some(&format!("forearm_{s}")),
            &["grasper"],
            [0.2 * x, 0.85, 0.0],
            [0.2 * x, 0.8, 0.0],
        ));
        bodies.push(body(
            &format!("thigh_{s}"),
            Some("pelvis"),
            &["limb"],
            [0.1 * x, 0.95, 0.0],
            [0.1 * x, 0.7, 0.0],
        ));
        bodies.push(body(
            &format!("shin_{s}"),
            Some(&format!("thigh_{s}")),
            &["limb"],
            [0.1 * x, 0.5, 0.0],
            [0.1 * x, 0.3, 0.0],
        ));
        bodies.push(body(
            &format!("foot_{s}"),
            Some(&format!("shin_{s}")),
            &["foot"],
            [0.1 * x, 0.08, 0.0],
            [0.1 * x, 0.04, 0.06],
        ));
    }
    json!({ "format": "anymorph-creature", "version": 1, "name": "mini_biped", "bodies": bodies })
}

fn load(v: &Value) -> Result<anymorph::runtime::creature::Creature, LoadError> {
    creature_from_str(&v.to_string(), "mini.creature.json")
}

#[test]
fn derives_root_spine_legs_and_limb_lengths() {
    let c = load(&biped_json()).unwrap();
    let id = |n: &str| c.find(n).unwrap();
    assert_eq!(
        c.root(),
        id("pelvis"),
        "the spine body with both legs is the root"
    );
    assert_eq!(c.spine_chain(), &[id("pelvis"), id("chest"), id("head")]);
    assert!(c.upright().upright);
    assert_eq!(c.legs().len(), 2);
    let leg = c.legs().iter().find(|l| l.foot == id("foot_l")).unwrap();
    assert_eq!(leg.hip, id("pelvis"));
    assert_eq!(leg.chain, vec![id("thigh_l"), id("shin_l"), id("foot_l")]);
    assert!((c.limb_length(id("hand_l")) - 0.6).abs() < 1e-5);
    assert!((leg.length - 0.87).abs() < 1e-5);
    assert_eq!(c.limb_length(id("chest")), 0.0);
    assert_eq!(c.count_cap(&Cap::Grasper), 2);
    let b = c.bounds();
    assert!((b.max.y - 1.7).abs() < 1e-5 && (b.min.y - (-0.01)).abs() < 1e-5);
}

#[test]
fn a_root_cap_away_from_the_top_rehangs_the_tree() {
    let mut v = biped_json();
    v["bodies"][1]["caps"] = json!(["spine", "root"]);
    let c = load(&v).unwrap();
    let id = |n: &str| c.find(n).unwrap();
    assert_eq!(c.root(), id("chest"));
    assert_eq!(c.parent(id("pelvis")), Some(id("chest")));
    assert_eq!(c.parent(id("chest")), None);
    // The pelvis now hangs from the chest through the chest's old joint.
    assert_eq!(c.pivot(id("pelvis")), Vec3::new(0.0, 1.2, 0.0));
    // The upright heuristic is about the spine's shape, not where the tree hangs from.
    let top_rooted = load(&biped_json()).unwrap();
    assert_eq!(c.upright(), top_rooted.upright());
    let mut v = biped_json();
    v["bodies"][2]["caps"] = json!(["spine", "root", "head", "mouth"]);
    let head_rooted = load(&v).unwrap();
    assert_eq!(head_rooted.root(), head_rooted.find("head").unwrap());
    assert_eq!(head_rooted.upright(), top_rooted.upright());
    let order = c.order();
    for &b in order {
        if let Some(p) = c.parent(b) {
            assert!(order.iter().position(|&x| x == p) < order.iter().position(|&x| x == b));
        }
    }
}

#[test]
fn round_trip_keeps_shape_and_extra_fields() {
    let mut v = biped_json();
    v["studio"] = json!({"author": "me"});
    v["bodies"][0]["mesh"] = json!("pelvis.glb");
    let c = load(&v).unwrap();
    let text = creature_to_string(&c);
    let back: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(back["studio"], json!({"author": "me"}));
    assert_eq!(back["bodies"][0]["mesh"], json!("pelvis.glb"));
    assert_eq!(back["bodies"][0]["parent"], Value::Null);
    assert_eq!(back["bodies"][3]["parent"], json!("chest"));
    let again = creature_from_str(&text, "again").unwrap();
    assert_eq!(again.to_defs(), c.to_defs());
    assert_eq!(creature_to_string(&again), text);
}

fn creature_error(v: &Value) -> CreatureError {
    match load(v) {
        Err(LoadError::Creature { source, path }) => {
            assert_eq!(path, "mini.creature.json");
            source
        }
        other => panic!("expected a creature error, got {other:?}"),
    }
}

#[test]
fn each_structural_error_is_typed_and_names_the_field() {
    let mut v = biped_json();
    v["bodies"][4]["parent"] = json!("nobody");
    let e = creature_error(&v);
    assert!(matches!(e, CreatureError::UnknownParent { index: 4, .. }));
    assert!(e.to_string().starts_with("bodies[4].parent:"));

    let mut v = biped_json();
    v["bodies"][1]["parent"] = json!("head");
    assert!(matches!(creature_error(&v), CreatureError::Cycle { .. }));

    let mut v = biped_json();
    v["bodies"][0]["parent"] = json!("pelvis");
    assert!(matches!(
        creature_error(&v),
        CreatureError::Cycle { index: 0, .. }
    ));

    let mut v = biped_json();
    let moved = v["bodies"].as_array_mut().unwrap().remove(3);
    v["bodies"].as_array_mut().unwrap().push(moved);
    assert!(matches!(
        creature_error(&v),
        CreatureError::ParentAfterChild { .. }
    ));

    let mut v = biped_json();
    v["bodies"][5]["name"] = json!("chest");
    assert!(matches!(
        creature_error(&v),
        CreatureError::DuplicateName { index: 5, .. }
    ));

    let mut v = biped_json();
    v["bodies"][6]["parent"] = Value::Null;
    assert!(matches!(
        creature_error(&v),
        CreatureError::TwoRoots { index: 6, .. }
    ));

    let mut v = biped_json();
    v["bodies"][0]["caps"] = json!(["root"]);
    v["bodies"][1]["caps"] = json!(["root"]);
    assert!(matches!(
        creature_error(&v),
        CreatureError::TwoRootCaps { index: 1, .. }
    ));

    let mut v = biped_json();
    v["bodies"][2]["position"] = json!([0.0, 1e39, 0.0]);
    let e = creature_error(&v);
    assert!(
        matches!(
            e,
            CreatureError::NonFinite {
                index: 2,
                field: "position",
                ..
            }
        ),
        "{e}"
    );

    let mut v = biped_json();
    v["bodies"] = json!([]);
    assert_eq!(creature_error(&v), CreatureError::NoBodies);

    let mut v = biped_json();
    v["bodies"][1]["rotation"] = json!([0, 0, 0, 0]);
    assert!(matches!(
        creature_error(&v),
        CreatureError::ZeroRotation { index: 1 }
    ));
}

#[test]
fn envelope_and_type_errors_name_file_and_field() {
    let mut v = biped_json();
    v["version"] = json!(2);
    let e = load(&v).unwrap_err();
    assert!(matches!(e, LoadError::Version { .. }));
    assert!(
        e.to_string().starts_with("mini.creature.json: version:"),
        "{e}"
    );

    let mut v = biped_json();
    v["format"] = json!("anymorph-clip");
    assert!(matches!(load(&v).unwrap_err(), LoadError::Format { .. }));

    let mut v = biped_json();
    v["bodies"][3]["joint"] = json!([1, 2]);
    let e = load(&v).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("mini.creature.json: bodies[3].joint:"),
        "{e}"
    );

    let mut v = biped_json();
    v["bodies"][3]["shape"] = json!("cone");
    let e = load(&v).unwrap_err();
    assert!(e.to_string().contains("bodies[3].shape"), "{e}");
}

#[test]
fn builder_mirrors_one_side() {
    let mut b = CreatureBuilder::new("t");
    b.bone(
        "spine",
        None,
        &[Cap::Spine],
        Vec3::new(0.0, 1.0, -0.3),
        Vec3::new(0.0, 1.0, 0.3),
        0.1,
    )
    .bone(
        "leg_l",
        Some("spine"),
        &[Cap::Limb],
        Vec3::new(0.1, 1.0, 0.0),
        Vec3::new(0.2, 0.1, 0.0),
        0.04,
    )
    .bone(
        "foot_l",
        Some("leg_l"),
        &[Cap::Foot],
        Vec3::new(0.2, 0.1, 0.0),
        Vec3::new(0.2, 0.05, 0.1),
        0.04,
    )
    .mirror_left();
    let c = b.build().unwrap();
    assert_eq!(c.len(), 5);
    let r = c.find("foot_r").unwrap();
    assert_eq!(c.body(r).position.x, -0.2);
    assert_eq!(
        c.body(c.find("leg_r").unwrap()).file_parent,
        c.find("spine")
    );
    assert_eq!(c.legs().len(), 2);
}
