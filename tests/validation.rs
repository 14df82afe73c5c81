//! The validation grid finds what it is meant to find, and reports it in the documented shape.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::runtime::clip::{Channel, Clip};
use anymorph::runtime::creature::Cap;
use anymorph::runtime::curve::{Key, KeyedCurve, TangentMode};
use anymorph::runtime::movement::{MovementMode, PositionMode};
use anymorph::runtime::query::ContextQuery;
use anymorph::validation::{Check, ValidationConfig, check_cell, report};
use glam::Vec3;
use std::sync::Arc;

fn arc_creature(name: &str) -> Arc<anymorph::runtime::creature::Creature> {
    Arc::new(common::creature(name).clone())
}

#[test]
fn hands_pushed_under_the_ground_are_caught() {
    let mut c = Channel::new("dig", ContextQuery::cap(Cap::Grasper));
    c.mode = MovementMode {
        position: PositionMode::Absolute,
        ..Default::default()
    };
    c.position = Some(KeyedCurve::constant(Vec3::new(0.3, -0.5, 0.3)));
    let mut clip = Clip::new("dig", 1.0);
    clip.channels = vec![c];
    clip.validate().unwrap();
    let cell = check_cell(
        &Arc::new(clip),
        &arc_creature("biped"),
        &ValidationConfig::default(),
    );
    assert!(!cell.passed());
    let (_, worst) = cell.worst().unwrap();
    let checks: Vec<Check> = cell.variants[0].failures.iter().map(|f| f.check).collect();
    assert!(checks.contains(&Check::GroundPenetration), "{checks:?}");
    assert!(worst.value > worst.limit);
}

#[test]
fn frame_to_frame_jitter_is_caught_and_smooth_motion_is_not() {
    let make = |jittery: bool| {
        let keys: Vec<Key<Vec3>> = (0..=30)
            .map(|i| {
                let t = i as f32 / 30.0;
                let y = if jittery {
                    if i % 2 == 0 { 0.0 } else { 0.06 }
                } else {
                    0.06 * (t * 3.0).sin()
                };
                Key::new(t, Vec3::new(0.0, y, 0.0)).with_mode(TangentMode::Linear)
            })
            .collect();
        let mut c = Channel::new("shake", ContextQuery::cap(Cap::Head));
        c.position = Some(KeyedCurve::new(keys).unwrap());
        let mut clip = Clip::new("shake", 1.0);
        clip.channels = vec![c];
        clip.validate().unwrap();
        Arc::new(clip)
    };
    let config = ValidationConfig::default();
    let creature = arc_creature("quadruped");
    let jittery = check_cell(&make(true), &creature, &config);
    let smooth = check_cell(&make(false), &creature, &config);
    let has = |cell: &anymorph::validation::CellReport| {
        cell.variants
            .iter()
            .any(|v| v.failures.iter().any(|f| f.check == Check::Jitter))
    };
    assert!(has(&jittery));
    assert!(!has(&smooth), "{:?}", smooth.variants[0].failures);
}

#[test]
fn the_report_has_the_documented_shape() {
    let clips: Vec<Arc<Clip>> = ["wave", "dance"]
        .iter()
        .map(|n| Arc::new(common::clip(n).clone()))
        .collect();
    let creatures = [arc_creature("biped"), arc_creature("snake")];
    let config = ValidationConfig::default();
    let cells: Vec<_> = clips
        .iter()
        .flat_map(|cl| creatures.iter().map(|cr| check_cell(cl, cr, &config)))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let s = report::write(dir.path(), &cells, &config, &|_| false).unwrap();
    assert_eq!(s["cells"], 3, "wave does not bind on the snake");
    assert_eq!(s["not_bound"], 1);
    let rate = s["pass_rate"].as_f64().unwrap();
    assert!((rate - s["passed"].as_f64().unwrap() / 3.0).abs() < 1e-9);
    for f in s["failures"].as_array().unwrap() {
        for key in ["clip", "creature", "variant", "check", "time"] {
            assert!(!f[key].is_null(), "{key} in {f}");
        }
    }
    let html = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    assert!(html.contains("<th>wave</th>") && html.contains("<th>dance</th>"));
    assert!(
        html.contains("the clip needs graspers; this creature has none"),
        "the grey cell explains itself"
    );
    let back: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(back["cells"], 3);
}

#[test]
fn the_thresholds_file_loads_and_bad_values_name_the_field() {
    let path = common::root().join("assets/validation.json");
    let c = ValidationConfig::load(&path).unwrap();
    assert_eq!(c, ValidationConfig::default());
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"jitter\": 0.01", "\"jitter\": -1");
    let e = ValidationConfig::from_str(&text, "v.json").unwrap_err();
    assert!(e.to_string().starts_with("v.json: jitter:"), "{e}");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"fps\"", "\"frames_per_second\"");
    assert!(ValidationConfig::from_str(&text, "v.json").is_err());
}
