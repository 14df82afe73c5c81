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

fn one_channel_clip(name: &str, cap: Cap, at: Vec3) -> Arc<Clip> {
    let mut c = Channel::new(name, ContextQuery::cap(cap));
    c.mode = MovementMode {
        position: PositionMode::Absolute,
        ..Default::default()
    };
    c.position = Some(KeyedCurve::constant(at));
    let mut clip = Clip::new(name, 1.0);
    clip.channels = vec![c];
    clip.validate().unwrap();
    Arc::new(clip)
}

fn checks_of(cell: &anymorph::validation::CellReport) -> Vec<Check> {
    cell.variants
        .iter()
        .flat_map(|v| v.failures.iter().map(|f| f.check))
        .collect()
}

#[test]
fn goals_out_of_reach_are_measured_from_the_point_of_reach() {
    // Hands asked to dig half a metre under the ground: the arms cannot get there, and the
    // IK clamps them at full reach toward the goal by design (limb max_stretch). Goal error
    // is what is left to miss from that point, so the clamp itself is not a goal error.
    let clip = one_channel_clip("dig", Cap::Grasper, Vec3::new(0.3, -0.5, 0.3));
    let cell = check_cell(&clip, &arc_creature("biped"), &ValidationConfig::default());
    assert!(cell.binds());
    assert!(
        !checks_of(&cell).contains(&Check::GoalError),
        "{:?}",
        checks_of(&cell)
    );
}

#[test]
fn a_body_sunk_into_the_ground_is_caught() {
    // The spine (and with it the root, which IK never moves) pushed into the ground.
    let clip = one_channel_clip("sink", Cap::Spine, Vec3::new(0.0, -0.2, 0.0));
    let cell = check_cell(
        &clip,
        &arc_creature("quadruped"),
        &ValidationConfig::default(),
    );
    assert!(
        checks_of(&cell).contains(&Check::GroundPenetration),
        "{:?}",
        checks_of(&cell)
    );
    // The sample clips keep every body out of the ground.
    let idle = Arc::new(common::clip("idle_breathe").clone());
    let cell = check_cell(
        &idle,
        &arc_creature("quadruped"),
        &ValidationConfig::default(),
    );
    assert!(
        !checks_of(&cell).contains(&Check::GroundPenetration),
        "{:?}",
        checks_of(&cell)
    );
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
    let s = report::write(
        dir.path(),
        &cells,
        &config,
        &report::Thumbnails::none("not in this test"),
        &[],
    )
    .unwrap();
    assert_eq!(s["cells"], 3, "wave does not bind on the snake");
    assert_eq!(s["not_bound"], 1);
    let rate = s["pass_rate"].as_f64().unwrap();
    assert!((rate - s["passed"].as_f64().unwrap() / 3.0).abs() < 1e-9);
    // The lists are in the file (the returned summary has their lengths only).
    let back: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(back["cells"], 3);
    for f in back["failures"].as_array().unwrap() {
        for key in ["clip", "creature", "variant", "check", "time"] {
            assert!(!f[key].is_null(), "{key} in {f}");
        }
    }
    // The first page has the figures by row; the cells are on the pages it links to.
    let html = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    assert!(html.contains("<th>wave</th>") && html.contains("<th>dance</th>"));
    assert!(html.contains(&report::page_name(0)));
    let page = std::fs::read_to_string(dir.path().join(report::page_name(0))).unwrap();
    assert!(page.contains(">wave</th>") && page.contains(">biped</th>"));
    assert!(
        page.contains("the clip needs graspers; this creature has none"),
        "the grey cell explains itself"
    );
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

/// A clip folder holding one clip that fails on the biped (its spine sent half a metre
/// under the ground) and a creature folder holding the biped.
fn failing_inputs() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let (clips, creatures) = (dir.path().join("clips"), dir.path().join("creatures"));
    std::fs::create_dir_all(&clips).unwrap();
    std::fs::create_dir_all(&creatures).unwrap();
    let clip = one_channel_clip("sink", Cap::Spine, Vec3::new(0.0, -0.5, 0.0));
    anymorph::io::save_clip(&clips.join("sink.clip.json"), &clip).unwrap();
    anymorph::io::save_creature(
        &creatures.join("biped.creature.json"),
        common::creature("biped"),
    )
    .unwrap();
    (dir, clips, creatures)
}

fn validate_command(
    clips: &std::path::Path,
    creatures: &std::path::Path,
    report: &std::path::Path,
) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_anymorph"));
    cmd.arg("validate")
        .arg("--clips")
        .arg(clips)
        .arg("--creatures")
        .arg(creatures)
        .arg("--report")
        .arg(report);
    cmd
}

#[cfg(feature = "editor")]
#[test]
fn a_failing_cell_gets_a_thumbnail_that_decodes() {
    let (dir, clips, creatures) = failing_inputs();
    let report = dir.path().join("report");
    let out = validate_command(&clips, &creatures, &report)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The cells' table is on the report's pages; a picture's path is relative to its page.
    let pages = report.join("pages");
    let html = std::fs::read_to_string(pages.join("000001.html")).unwrap();
    let src = html
        .split("<img src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no <img> in the report's first page: {html}"));
    let png = image::open(pages.join(src)).unwrap().to_rgba8();
    assert_eq!(png.dimensions(), (160, 120));
    // A picture of something: the creature and the ground, not one flat colour.
    let first = png.get_pixel(0, 0);
    let differing = png.pixels().filter(|p| *p != first).count();
    assert!(differing > 160 * 120 / 20, "{differing} pixels differ");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["thumbnails"]["rendered"], 1);
}

#[test]
fn a_renderer_that_cannot_start_does_not_fail_the_run() {
    let (dir, clips, creatures) = failing_inputs();
    let report = dir.path().join("report");
    // A backend this platform does not have: no adapter at all.
    let out = validate_command(&clips, &creatures, &report)
        .env("WGPU_BACKEND", "metal")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(!html.contains("<img"), "{html}");
    assert!(
        html.contains("thumbnails were not rendered"),
        "the report says why there are no pictures"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["cells"], 1);
    assert_eq!(summary["passed"], 0);
    assert_eq!(summary["thumbnails"]["rendered"], 0);
}

#[test]
fn a_rotation_goal_fading_in_is_measured_from_the_reach_its_blend_allows() {
    // Hands sent far overhead, turned half way (weight 0.5) toward pointing up: the IK puts
    // the wrist where that blended rotation, from the rest rotation, holds it below the
    // hand, at full reach toward the goal. That clamp is by design, not a goal error.
    let mut c = Channel::new("raise", ContextQuery::cap(Cap::Grasper));
    c.mode = MovementMode {
        position: PositionMode::Absolute,
        ..Default::default()
    };
    c.position = Some(KeyedCurve::constant(Vec3::new(0.3, 3.0, 0.3)));
    c.rotation = Some(KeyedCurve::constant(glam::Quat::IDENTITY));
    c.rotation_weight = Some(KeyedCurve::constant(0.5));
    let mut clip = Clip::new("raise", 1.0);
    clip.channels = vec![c];
    clip.validate().unwrap();
    let cell = check_cell(
        &Arc::new(clip),
        &arc_creature("biped"),
        &ValidationConfig::default(),
    );
    assert!(cell.binds());
    assert!(
        !checks_of(&cell).contains(&Check::GoalError),
        "{:?}",
        checks_of(&cell)
    );
}

/// A mirrored variant plays the clip mirrored, so the grid checks it in the mirror image of
/// its twin's scene: on the symmetric biped, the right hand reaching for the moving target
/// moves as the mirror image of the left hand reaching for it (it does not reach across the
/// chest for a target its twin takes on its own side).
#[test]
fn a_mirrored_variant_is_checked_in_the_mirror_image_of_its_twins_scene() {
    let biped = arc_creature("biped");
    let clip = Arc::new(
        anymorph::io::load_clip(&common::root().join("assets/clips/reach_target.clip.json"))
            .unwrap(),
    );
    let binding = anymorph::runtime::bind::bind(&clip, &biped);
    let (left, right) = (biped.find("hand_l").unwrap(), biped.find("hand_r").unwrap());
    let lead = |v: usize| binding.variants[v].choices[0];
    assert!(lead(0) == left && lead(1) == right && binding.variants[1].mirrored);
    let config = ValidationConfig::default();
    let mut furthest = 0.0f32;
    for frame in [6, 12, 18, 27, 40] {
        let at = |variant: usize| {
            anymorph::validation::pose_at(&clip, &biped, &config, variant, frame, false).unwrap()
        };
        let (l, r) = (at(0)[left].position, at(1)[right].position);
        let mirrored = r * Vec3::new(-1.0, 1.0, 1.0);
        assert!(
            l.distance(mirrored) < 1e-3,
            "frame {frame}: left hand at {l}, right hand mirrored at {mirrored}"
        );
        furthest = furthest.max(l.distance(biped.body(left).position));
    }
    assert!(
        furthest > 0.2,
        "the hands hardly moved: the test shows nothing"
    );
}

/// The grid hands the moving target to a variant as a game does: each variant is checked
/// with the target where the player's own chooser picks that variant's grasper. A hind hand
/// of a creature with arms along its body is not sent through its front arms for a target
/// ahead of them; it reaches out beside itself.
#[test]
fn each_variant_is_checked_with_the_target_where_a_game_gives_it_that_variant() {
    use anymorph::validation::TargetScene;
    let clip = Arc::new(
        anymorph::io::load_clip(&common::root().join("assets/clips/reach_target.clip.json"))
            .unwrap(),
    );
    let config = ValidationConfig::default();
    let mut creatures: Vec<_> = ["biped", "four_armed", "floater"]
        .iter()
        .map(|n| arc_creature(n))
        .collect();
    // The first zoo's creatures: their graspers come in mirrored pairs. On the broad
    // families' (lopsided, staggered rows) the target sweeping ahead can pass from one hand
    // to another after the middle of the clip, where the scene is chosen: not yet handled.
    creatures.extend((1..=40).map(|seed| {
        Arc::new(anymorph::zoo::generate_family(seed, anymorph::zoo::Family::Classic).unwrap())
    }));
    let (mut ahead, mut beside) = (0, 0);
    for creature in &creatures {
        let binding = anymorph::runtime::bind::bind(&clip, creature);
        let lead = |v: usize| binding.variants[v].choices[0];
        for v in 0..binding.variants.len().min(config.variants_per_cell) {
            let scene = TargetScene::of(&clip, creature, v);
            match scene {
                TargetScene::Ahead { .. } => ahead += 1,
                TargetScene::Beside { .. } => beside += 1,
            }
            let mut ch = anymorph::runtime::player::Character::new(Arc::clone(creature));
            for t in [0.3, 0.9, 1.5] {
                let target = scene.at(creature, t);
                let picked = lead(ch.choose_variant(&clip, target).unwrap());
                let (p, own) = (
                    creature.body(picked).position,
                    creature.body(lead(v)).position,
                );
                assert!(
                    p.distance(own) <= 1e-4 * creature.size(),
                    "{} variant {} ({:?}) at {t} s: the target at {target} goes to {}",
                    creature.name(),
                    binding.variants[v].label,
                    scene,
                    creature.body(picked).name
                );
            }
        }
    }
    assert!(
        ahead > 10 && beside > 10,
        "{ahead} variants ahead, {beside} beside: the test shows nothing"
    );
}

#[test]
fn a_biped_brings_its_hand_to_its_mouth_in_front_of_its_chest() {
    // The sample clip as the bundled project plays it: on the two-armed upright sample
    // creatures every check passes, for either hand. Held at its face, or coming back on
    // the straight line from the mouth, the forearm went through the upper chest.
    let clip = Arc::new(common::clip("hand_to_mouth").clone());
    let config = ValidationConfig::default();
    for name in ["biped", "branching_leg", "giant"] {
        let cell = check_cell(&clip, &arc_creature(name), &config);
        assert_eq!(cell.variants.len(), 2, "{name}: one variant per hand");
        for v in &cell.variants {
            let failures: Vec<String> = v.failures.iter().map(|f| f.describe()).collect();
            assert!(failures.is_empty(), "{name}, {}: {failures:?}", v.label);
        }
    }
}

/// A failure found while walking is reported at the clip's own time, as the editor shows the
/// clip: the walking run plays a second of warm-up before it measures, so frame `f` of the
/// run is update `fps + f + 1` of the clip (the branching-legged biped bowing deeply to
/// pick up as it walks drags a planted front foot).
#[test]
fn a_walking_failure_is_timed_by_the_clip_clock() {
    let clip = Arc::new(common::clip("pick_up").clone());
    let config = ValidationConfig::default();
    let cell = check_cell(&clip, &arc_creature("branching_leg"), &config);
    let walking: Vec<_> = cell
        .variants
        .iter()
        .flat_map(|v| &v.failures)
        .filter(|f| f.walking)
        .collect();
    assert!(
        !walking.is_empty(),
        "the branching leg no longer slips: pick another cell"
    );
    let dt = 1.0 / config.fps;
    for f in walking {
        let updates = config.fps as usize + f.frame + 1;
        let clock = (updates as f32 * dt) % clip.duration_secs;
        assert!(
            (f.time_secs - clock).abs() < 1e-3,
            "{:?} at {} s, frame {}: the clip was at {clock} s",
            f.check,
            f.time_secs,
            f.frame
        );
    }
}

/// A grid of actions: a cell names the branch that played; a creature no branch plays on is
/// a failure, unless the action's intent leaves its morphology out (then it is grey).
#[test]
fn a_grid_by_action_fails_a_creature_no_branch_plays_on() {
    use anymorph::runtime::action::{Action, ActionDef};
    use anymorph::runtime::clip::{Branch, Predicate};
    use anymorph::validation::check_action_cell;
    let clips: Vec<Arc<Clip>> = common::clips().iter().cloned().map(Arc::new).collect();
    let mut def = ActionDef {
        name: "wave".into(),
        intent: String::new(),
        branches: vec!["wave".into(), "wave_prone".into()],
        leaves_out: Vec::new(),
    };
    let config = ValidationConfig::default();
    let grid = |def: &ActionDef| {
        let action = Action::resolve(def, &clips).unwrap();
        let cells: Vec<_> = ["biped", "snake"]
            .iter()
            .map(|n| check_action_cell(&action, &arc_creature(n), &config))
            .collect();
        (cells.clone(), report::summary(&cells, &config))
    };
    let (cells, s) = grid(&def);
    assert_eq!(cells[0].action.as_deref(), Some("wave"));
    assert_eq!(cells[0].clip, "wave", "the biped plays the upright branch");
    assert!(cells[1].clip.is_empty() && !cells[1].binds());
    assert_eq!(s["rows"], "actions");
    assert_eq!(s["cells"], 2, "the snake counts");
    assert!(s["pass_rate"].as_f64().unwrap() <= 0.5);
    assert_eq!(s["bound_rate"], 0.5);
    assert_eq!(s["no_branch"][0]["creature"], "snake");
    assert_eq!(s["by_row"][0]["branches"]["wave"], 1);
    // Said out loud in the action: creatures without graspers do not wave.
    def.leaves_out = vec![Branch {
        predicate: Predicate::HasGraspers,
        expect: false,
    }];
    let (cells, s) = grid(&def);
    assert!(cells[1].excluded);
    assert_eq!(s["cells"], 1);
    assert_eq!(s["left_out"], 1);
    assert_eq!(s["bound_rate"], 1.0);
    assert!(s["no_branch"].as_array().unwrap().is_empty());
    let dir = tempfile::tempdir().unwrap();
    let written = report::write(
        dir.path(),
        &cells,
        &config,
        &report::Thumbnails::none("test"),
        &[],
    )
    .unwrap();
    assert_eq!(written["cells"], s["cells"]);
    let page = std::fs::read_to_string(dir.path().join(report::page_name(0))).unwrap();
    assert!(page.contains("creature \\ action"), "rows are actions");
}
