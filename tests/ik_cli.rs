//! `anymorph solve`: goals from a file through the particle IK, body transforms as JSON;
//! bad goal files are errors naming the file and the field, never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn biped() -> PathBuf {
    common::root().join("sample_creatures/biped.creature.json")
}

fn run(creature: &Path, goals_json: &str) -> (bool, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let goals = dir.path().join("goals.json");
    std::fs::write(&goals, goals_json).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_anymorph"))
        .arg("solve")
        .arg(creature)
        .arg("--goals")
        .arg(&goals)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn body<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["bodies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .unwrap()
}

fn vec(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn solve_prints_every_body_and_reaches_a_reachable_goal() {
    let (ok, stdout, stderr) = run(
        &biped(),
        r#"{ "root": { "position": [0, 0.97, 0.05], "rotation": [0, 0, 0, 1] },
             "goals": [ { "body": "hand_l", "position": [0.35, 1.1, 0.3], "rotation": null, "weight": 1.0 },
                        { "body": "head", "position": null, "rotation": [0.1, 0, 0, 0.995], "weight": 0.5 } ] }"#,
    );
    assert!(ok, "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let creature = common::creature("biped");
    assert_eq!(doc["bodies"].as_array().unwrap().len(), creature.len());
    for b in doc["bodies"].as_array().unwrap() {
        assert_eq!(vec(&b["position"]).len(), 3);
        assert_eq!(vec(&b["rotation"]).len(), 4);
    }
    let hand = vec(&body(&doc, "hand_l")["position"]);
    let miss =
        ((hand[0] - 0.35).powi(2) + (hand[1] - 1.1).powi(2) + (hand[2] - 0.3).powi(2)).sqrt();
    assert!(miss < 1e-3, "hand missed by {miss}");
    let pelvis = vec(&body(&doc, "pelvis")["position"]);
    assert!(
        (pelvis[1] - 0.97).abs() < 1e-6 && (pelvis[2] - 0.05).abs() < 1e-6,
        "{pelvis:?}"
    );
}

#[test]
fn a_missing_root_means_the_rest_pose() {
    let (ok, stdout, stderr) = run(&biped(), r#"{ "goals": [] }"#);
    assert!(ok, "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let creature = common::creature("biped");
    for (i, b) in creature.bodies().iter().enumerate() {
        let p = vec(&doc["bodies"][i]["position"]);
        let d = (p[0] - f64::from(b.position.x)).abs()
            + (p[1] - f64::from(b.position.y)).abs()
            + (p[2] - f64::from(b.position.z)).abs();
        assert!(d < 1e-5, "{}", b.name);
    }
}

#[test]
fn bad_goal_files_name_the_file_and_the_field() {
    for (json, expect) in [
        (
            r#"{ "goals": [ { "body": "hand_x", "position": [0, 1, 0] } ] }"#,
            "goals[0].body: no body named \"hand_x\"",
        ),
        (
            r#"{ "goals": [ { "body": "hand_l", "position": [0, 1, 0], "weight": 1.5 } ] }"#,
            "goals[0].weight: must be in (0, 1]",
        ),
        (
            r#"{ "goals": [ { "body": "hand_l", "position": [0, 1, 0], "weight": 0 } ] }"#,
            "goals[0].weight",
        ),
        (
            r#"{ "goals": [ { "body": "hand_l", "position": [0, NaN, 0] } ] }"#,
            "line 1, column",
        ),
        (
            r#"{ "goals": [ { "body": "hand_l", "position": [0, 1e999, 0] } ] }"#,
            "line 1, column",
        ),
        (
            r#"{ "goals": [ { "body": "hand_l", "position": [0, "x", 0] } ] }"#,
            "goals[0].position",
        ),
        (
            r#"{ "goals": [ { "body": "hand_l", "rotation": [0, 0, 0, 0] } ] }"#,
            "goals[0].rotation",
        ),
        (
            r#"{ "goals": [ { "body": "hand_l" } ] }"#,
            "goals[0]: a goal needs",
        ),
        (
            r#"{ "goals": [ { "body": "hand_l", "position": [0, 1, 0] },
                            { "body": "hand_l", "rotation": [0, 0, 0, 1] } ] }"#,
            "goals[1].body: \"hand_l\" already has a goal (goals[0])",
        ),
        (
            r#"{ "root": { "position": [0, 1, 0] },
                 "goals": [ { "body": "pelvis", "position": [0, 1, 0] } ] }"#,
            "goals[0].body: \"pelvis\" already has a goal (root)",
        ),
        (r#"{ "root": 3 }"#, "root: expected an object"),
        (r#"[1, 2]"#, "(document)"),
    ] {
        let (ok, stdout, stderr) = run(&biped(), json);
        assert!(!ok, "{json} should fail, printed {stdout}");
        assert!(
            stderr.contains("goals.json") && stderr.contains(expect),
            "{json}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn the_format_doc_example_loads() {
    let doc = std::fs::read_to_string(common::root().join("docs/FORMAT.md")).unwrap();
    let section = doc.split("## Solve goals").nth(1).unwrap();
    let block = section
        .split("```json")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let goals =
        anymorph::cli::goals_from_str(block, "FORMAT.md", common::creature("biped")).unwrap();
    assert_eq!(goals.bodies().count(), 3);
}
