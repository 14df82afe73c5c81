//! The command line as scripts use it: DESIGN.md's output shapes, exit codes and errors.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{anymorph, succeed};

use serde_json::Value;
use std::process::Command;

fn json_of(args: &[&str]) -> Value {
    let out = anymorph(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

#[test]
fn info_json_has_the_design_shape() {
    let v = json_of(&["info", "sample_creatures/biped.creature.json", "--json"]);
    assert_eq!(v["name"], "biped");
    assert_eq!(v["bodies"], 25);
    assert_eq!(v["root"], "pelvis");
    assert_eq!(v["legs"], 2);
    assert_eq!(v["caps"]["grasper"], 2);
    assert_eq!(v["caps"]["foot"], 2);
    assert!(v["caps"]["spine"].as_u64().unwrap() >= 5);
    let body_caps = v["body_caps"].as_object().unwrap();
    assert_eq!(body_caps.len(), 25);
    let graspers = body_caps
        .values()
        .filter(|c| c.as_array().unwrap().iter().any(|x| x == "grasper"))
        .count();
    assert_eq!(graspers, 2);
    assert_eq!(v["bounds"]["min"].as_array().unwrap().len(), 3);
    assert!((v["bounds"]["max"][1].as_f64().unwrap() - 1.7).abs() < 0.01);
    let text = anymorph(&["info", "sample_creatures/octopod.creature.json"]);
    assert!(text.status.success());
    assert!(String::from_utf8_lossy(&text.stdout).contains("8 legs"));
}

#[test]
fn query_prints_one_name_per_line_or_json() {
    let out = anymorph(&[
        "query",
        "sample_creatures/four_armed.creature.json",
        "--query",
        r#"{"cap": "grasper", "left_right": "left"}"#,
    ]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .collect::<Vec<_>>(),
        ["hand_l", "low_hand_l"]
    );
    let v = json_of(&[
        "query",
        "sample_creatures/biped.creature.json",
        "--query",
        r#"{"cap": "foot", "extent": "right_most"}"#,
        "--json",
    ]);
    assert_eq!(v["bodies"], serde_json::json!(["foot_r"]));
    let bad = anymorph(&[
        "query",
        "sample_creatures/biped.creature.json",
        "--query",
        r#"{"cap": "foot", "extent": "up_most"}"#,
    ]);
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("--query: extent"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

#[test]
fn eval_at_one_time_gives_goals_and_world_space_bodies() {
    let v = json_of(&[
        "eval",
        "sample_creatures/biped.creature.json",
        "assets/clips/reach_target.clip.json",
        "--time",
        "0.8",
        "--target",
        "0.3,1.3,0.6",
        "--variant",
        "1",
    ]);
    assert_eq!(v["clip"], "reach_target");
    assert_eq!(v["variant"]["index"], 1);
    assert_eq!(v["variant"]["label"], "hand_r");
    assert_eq!(v["variant"]["mirrored"], true);
    assert!((v["time"].as_f64().unwrap() - 0.8).abs() < 1e-6);
    assert_eq!(
        v["world_from_character"]["rotation"],
        serde_json::json!([0.0, 0.0, 0.0, 1.0])
    );
    let goal = v["goals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["body"] == "hand_r")
        .unwrap();
    let p: Vec<f64> = goal["position"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!(
        (p[0] - 0.3).abs() < 1e-3 && (p[1] - 1.3).abs() < 1e-3 && (p[2] - 0.6).abs() < 1e-3,
        "{p:?}"
    );
    let bodies = v["bodies"].as_array().unwrap();
    assert_eq!(bodies.len(), 25);
    assert!(bodies.iter().all(|b| b["name"].is_string()
        && b["position"].as_array().unwrap().len() == 3
        && b["rotation"].as_array().unwrap().len() == 4));
}

#[test]
fn eval_frames_gives_a_frame_per_step() {
    let v = json_of(&[
        "eval",
        "sample_creatures/quadruped.creature.json",
        "assets/clips/idle_breathe.clip.json",
        "--frames",
        "0:1:10",
    ]);
    let frames = v["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 11);
    assert!((frames[10]["time"].as_f64().unwrap() - 1.0).abs() < 1e-5);
    assert!(
        frames
            .iter()
            .all(|f| f["bodies"].as_array().unwrap().len() == 34)
    );
}

#[test]
fn errors_go_to_stderr_with_a_nonzero_exit() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["info", "nope.creature.json"],
            "nope.creature.json: cannot read the file",
        ),
        (
            &["info", "assets/clips/wave.clip.json"],
            "format: expected \"anymorph-creature\"",
        ),
        (
            &[
                "eval",
                "sample_creatures/snake.creature.json",
                "assets/clips/wave.clip.json",
                "--time",
                "0",
            ],
            "the clip needs graspers",
        ),
        (
            &[
                "eval",
                "sample_creatures/biped.creature.json",
                "assets/clips/wave.clip.json",
                "--time",
                "0",
                "--variant",
                "7",
            ],
            "--variant 7: clip 'wave' has 2 variants",
        ),
        (
            &[
                "eval",
                "sample_creatures/biped.creature.json",
                "assets/clips/wave.clip.json",
                "--frames",
                "0:1",
            ],
            "--frames: expected START:END:FPS",
        ),
        (
            &[
                "eval",
                "sample_creatures/biped.creature.json",
                "assets/clips/wave.clip.json",
                "--time",
                "0",
                "--target",
                "1,nan,2",
            ],
            "not a finite number",
        ),
        // A huge span once wrapped the frame count to zero and panicked.
        (
            &[
                "eval",
                "sample_creatures/biped.creature.json",
                "assets/clips/wave.clip.json",
                "--frames",
                "0:1e30:30",
            ],
            "more than the limit of 100000",
        ),
        (
            &[
                "eval",
                "sample_creatures/biped.creature.json",
                "assets/clips/wave.clip.json",
                "--frames",
                "3e38:3.4e38:1",
            ],
            "--frames:",
        ),
    ];
    for (args, message) in cases {
        let out = anymorph(args);
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

/// An error whose message already quotes its cause (a file's reason, an empty creature's
/// field) says it once, not once per link of the chain.
#[test]
fn an_error_says_its_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.creature.json");
    std::fs::write(
        &empty,
        r#"{ "format": "anymorph-creature", "version": 1, "name": "e", "bodies": [] }"#,
    )
    .unwrap();
    let missing = dir.path().join("missing.creature.json");
    for (path, cause) in [
        (&empty, "the creature has no bodies"),
        (&missing, "No such file or directory"),
    ] {
        let out = anymorph(&["info", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(cause), "{err}");
        assert_eq!(err.matches(cause).count(), 1, "{err}");
    }
}

#[test]
fn variants_json_has_the_design_shape() {
    let v = json_of(&[
        "variants",
        "sample_creatures/biped.creature.json",
        "assets/clips/pass_fruit.clip.json",
        "--json",
    ]);
    assert_eq!(v["binds"], true);
    assert_eq!(v["reason"], Value::Null);
    let list = v["variants"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["index"], 0);
    assert_eq!(list[0]["label"], "hand_l → hand_r");
    assert_eq!(list[0]["mirrored"], false);
    assert_eq!(list[1]["mirrored"], true);
    let no = json_of(&[
        "variants",
        "sample_creatures/snake.creature.json",
        "assets/clips/pass_fruit.clip.json",
        "--json",
    ]);
    assert_eq!(no["binds"], false);
    assert!(
        no["reason"]
            .as_str()
            .unwrap()
            .contains("at least 2 bodies with cap 'grasper'")
    );
    assert_eq!(no["variants"], serde_json::json!([]));
}

#[test]
fn export_writes_the_committed_sample_package() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.package.json");
    let o = anymorph(&[
        "export",
        "assets/sample.project.json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let written = std::fs::read_to_string(&out).unwrap();
    let committed =
        std::fs::read_to_string(common::root().join("assets/sample.package.json")).unwrap();
    assert_eq!(
        written, committed,
        "re-export assets/sample.package.json after changing the sample clips"
    );
    let p = anymorph::io::package_from_str(&written, "p").unwrap();
    assert_eq!(p.clips.len(), common::clips().len());
}

#[test]
fn bench_json_reports_the_pipeline_and_its_stages() {
    let v = json_of(&[
        "bench",
        "--creatures",
        "40",
        "--frames",
        "5",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(v["creatures"], 40);
    assert_eq!(v["threads"], 2);
    assert!(v["us_per_creature_frame"].as_f64().unwrap() > 0.0);
    for stage in ["curves", "specialize", "blend", "gait", "ik", "jiggle"] {
        assert!(v["stages_us"][stage].as_f64().is_some(), "{stage}");
    }
    assert!(v["stages_us"]["ik"].as_f64().unwrap() > 0.0);
    let bad = anymorph(&["bench", "--creature", "unicorn"]);
    assert!(!bad.status.success());
}

#[test]
fn eval_walks_over_terrain_in_world_space() {
    let v = json_of(&[
        "eval",
        "sample_creatures/quadruped.creature.json",
        "assets/clips/idle_breathe.clip.json",
        "--frames",
        "0:2:30",
        "--speed",
        "0.5",
        "--terrain",
        "slope:10",
    ]);
    assert_eq!(v["terrain"], "slope:10");
    let frames = v["frames"].as_array().unwrap();
    let last = &frames[frames.len() - 1];
    let w: Vec<f64> = last["world_from_character"]["position"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!((w[2] - 1.0).abs() < 0.02, "2 s at 0.5 m/s: {w:?}");
    assert!(
        (w[1] - 1.0 * 10f64.to_radians().tan()).abs() < 0.01,
        "the frame rides on the slope: {w:?}"
    );
    let paw = last["bodies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "front_paw_l")
        .unwrap();
    let p: Vec<f64> = paw["position"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!(
        p[1] > p[2] * 10f64.to_radians().tan() - 0.01,
        "the paw is on or above the slope: {p:?}"
    );
    let bad = anymorph(&[
        "eval",
        "sample_creatures/quadruped.creature.json",
        "assets/clips/idle_breathe.clip.json",
        "--time",
        "0",
        "--terrain",
        "hills",
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--terrain: terrain 'hills'"));
}

/// A reader that stops early (`anymorph eval … | head`) closes the pipe while the command is
/// still writing: it ends quietly with success, not with a panic about printing to stdout.
#[test]
fn a_reader_closing_the_pipe_early_ends_the_command_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_anymorph"))
        .args([
            "eval",
            "sample_creatures/biped.creature.json",
            "assets/clips/wave.clip.json",
            "--frames",
            "0:120:30",
        ])
        .current_dir(common::root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe is closed here, megabytes before the output ends.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `generate --family` draws from one morphology family, the same creature for the same seed;
/// an unknown family is an error that lists the families.
#[test]
fn generate_draws_from_a_named_family() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crab.creature.json");
    let out = out.to_str().unwrap();
    let run = anymorph(&[
        "generate", "--seed", "3", "--family", "splayed", "--out", out,
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let v = json_of(&["info", out, "--json"]);
    assert_eq!(v["name"], "zoo_splayed_3");
    assert!(v["legs"].as_u64().unwrap() >= 4, "{v}");
    let bad = anymorph(&[
        "generate", "--seed", "3", "--family", "octopus", "--out", out,
    ]);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("limbs-on-limbs") && err.contains("octopus"),
        "{err}"
    );
}

/// `check ik` over a few generated creatures: a row per family in the default mix, the
/// figures as JSON with `--json`, exit status 0 when the targets are met.
#[test]
fn check_ik_reports_a_row_per_family() {
    let v = json_of(&[
        "check", "ik", "--random", "9", "--seed", "1", "--json", "--sets", "4",
    ]);
    let rows = v["families"].as_array().unwrap();
    assert_eq!(rows.len(), 10, "nine families and all: {v}");
    assert_eq!(rows[9]["family"], "all");
    assert_eq!(rows[9]["creatures"], 9);
    assert!(rows[9]["reach_sets"].as_u64().unwrap() > 30, "{v}");
    assert_eq!(v["passed"], true, "{v}");
    // Six goal paths a creature, each walked with and without the keep-out.
    assert_eq!(rows[9]["paths"], 54, "{v}");
    assert!(v["continuous"].is_boolean(), "{v}");
}

/// A jump `check ik` finds on a goal path is written with `--failures` as the goal sets
/// either side of it, beside the creature, and `anymorph solve` (the full solver, keep-out
/// and all) replays both sides: for goals a hair apart, the body named lands far apart.
#[test]
fn check_ik_writes_each_jump_to_replay() {
    let dir = tempfile::tempdir().unwrap();
    let v = json_of(&[
        "check",
        "ik",
        "--random",
        "12",
        "--seed",
        "1",
        "--json",
        "--sets",
        "2",
        "--failures",
        dir.path().to_str().unwrap(),
    ]);
    let mut replayed = 0;
    for c in v["failing_creatures"].as_array().unwrap() {
        let name = c["creature"].as_str().unwrap();
        let creature = dir.path().join(format!("{name}.creature.json"));
        assert!(creature.exists(), "{name}");
        for j in c["kept_out_jumps"].as_array().unwrap() {
            let path = j["path"].as_u64().unwrap();
            let body = j["body"].as_str().unwrap();
            let posed = |side: &str| {
                let goals = dir
                    .path()
                    .join(format!("{name}.kept_out_jump{path}.{side}.goals.json"));
                let out = json_of(&[
                    "solve",
                    creature.to_str().unwrap(),
                    "--goals",
                    goals.to_str().unwrap(),
                ]);
                let b = out["bodies"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|b| b["name"] == body)
                    .unwrap()
                    .clone();
                let p: Vec<f64> = b["position"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect();
                p
            };
            let (a, b) = (posed("before"), posed("after"));
            let apart =
                ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
            assert!(apart > 1e-3, "{name} path {path}: {body} moved {apart} m");
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no jump among 12 creatures to replay: {v}");
}

/// Rigs go where creature files go: `validate --creatures DIR` reads `*.glb` and `*.gltf`
/// beside `*.creature.json`, and a file it cannot read is named in the report while the run
/// goes on without it.
#[test]
fn validate_reads_rigs_and_names_the_files_it_cannot_read() {
    let root = common::root();
    let creatures = tempfile::tempdir().unwrap();
    let clips = tempfile::tempdir().unwrap();
    let report = tempfile::tempdir().unwrap();
    std::fs::copy(
        root.join("sample_creatures/biped.creature.json"),
        creatures.path().join("biped.creature.json"),
    )
    .unwrap();
    std::fs::copy(
        root.join("tests/fixtures/gltf/mixamo_humanoid.glb"),
        creatures.path().join("mixamo_humanoid.glb"),
    )
    .unwrap();
    std::fs::write(creatures.path().join("broken.glb"), b"glTF but not really").unwrap();
    std::fs::write(creatures.path().join("cut.creature.json"), b"{\"format\": ").unwrap();
    std::fs::copy(
        root.join("assets/clips/wave.clip.json"),
        clips.path().join("wave.clip.json"),
    )
    .unwrap();
    let out = anymorph(&[
        "validate",
        "--clips",
        clips.path().to_str().unwrap(),
        "--creatures",
        creatures.path().to_str().unwrap(),
        "--report",
        report.path().to_str().unwrap(),
        "--thumbnails",
        "none",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value =
        serde_json::from_slice(&std::fs::read(report.path().join("summary.json")).unwrap())
            .unwrap();
    // The biped and the rig each make a cell of the one clip.
    assert_eq!(
        summary["cells"].as_u64().unwrap() + summary["not_bound"].as_u64().unwrap(),
        2,
        "{summary}"
    );
    let unreadable = summary["unreadable"].as_array().unwrap();
    let names: Vec<&str> = unreadable
        .iter()
        .map(|u| u["file"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.iter().any(|n| n.ends_with("broken.glb")), "{names:?}");
    assert!(
        names.iter().any(|n| n.ends_with("cut.creature.json")),
        "{names:?}"
    );
    for u in unreadable {
        let error = u["error"].as_str().unwrap();
        assert!(!error.is_empty() && !error.contains('\n'), "{error:?}");
    }
    let html = std::fs::read_to_string(report.path().join("index.html")).unwrap();
    assert!(html.contains("broken.glb"), "the report names the file");
}

/// `actions PROJECT_OR_PACKAGE CREATURE --json`: each action's playing branch and variant
/// count, or every branch's reason; projects hold actions and export them to packages.
#[test]
fn actions_say_which_branch_plays() {
    let root = common::root();
    let dir = tempfile::tempdir().unwrap();
    let clip = |n: &str| root.join(format!("assets/clips/{n}.clip.json"));
    let project = serde_json::json!({
        "format": "anymorph-project", "version": 1, "name": "acts",
        "clips": [clip("wave"), clip("wave_prone"), clip("roar")],
        "actions": [
            { "name": "wave", "intent": "with a grasper", "branches": ["wave", "wave_prone"] },
            { "name": "roar", "branches": ["roar"] }
        ]
    });
    let project_path = dir.path().join("acts.project.json");
    std::fs::write(&project_path, project.to_string()).unwrap();
    let v = json_of(&[
        "actions",
        project_path.to_str().unwrap(),
        "sample_creatures/biped.creature.json",
        "--json",
    ]);
    assert_eq!(v["creature"], "biped");
    assert_eq!(v["actions"][0]["name"], "wave");
    assert_eq!(v["actions"][0]["clip"], "wave");
    assert!(v["actions"][0]["variants"].as_u64().unwrap() >= 1);
    assert!(v["actions"][0]["reason"].is_null());
    // Exported, the package holds the same actions.
    let package_path = dir.path().join("acts.package.json");
    let out = anymorph(&[
        "export",
        project_path.to_str().unwrap(),
        "--out",
        package_path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&[
        "actions",
        package_path.to_str().unwrap(),
        "sample_creatures/snake.creature.json",
        "--json",
    ]);
    let wave = &v["actions"][0];
    assert!(wave["clip"].is_null(), "{v}");
    let reason = wave["reason"].as_str().unwrap();
    assert!(
        reason.contains("wave:") && reason.contains("wave_prone:"),
        "{reason}"
    );
    // A branch naming a clip the project does not hold is an error naming the field.
    let mut bad = project.clone();
    bad["actions"][1]["branches"] = serde_json::json!(["growl"]);
    std::fs::write(&project_path, bad.to_string()).unwrap();
    let out = anymorph(&[
        "actions",
        project_path.to_str().unwrap(),
        "sample_creatures/biped.creature.json",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("actions[1].branches"), "{err}");
}

/// `eval` and `bake` play an action of a project or package by name: the branch a game's
/// `play_action` would pick.
#[test]
fn eval_and_bake_play_an_action_by_name() {
    let project = "assets/sample.project.json";
    let v = json_of(&[
        "eval",
        "sample_creatures/biped.creature.json",
        project,
        "--action",
        "wave",
        "--time",
        "0.5",
    ]);
    assert_eq!(v["clip"], "wave");
    assert_eq!(v["action"], "wave");
    // The snake has no grasper and no feet: it waves its head.
    let v = json_of(&[
        "eval",
        "sample_creatures/snake.creature.json",
        "assets/sample.package.json",
        "--action",
        "wave",
        "--time",
        "0.5",
    ]);
    assert_eq!(v["clip"], "wave_head");
    let out = anymorph(&[
        "eval",
        "sample_creatures/snake.creature.json",
        project,
        "--action",
        "juggle",
        "--time",
        "0.5",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--action juggle") && err.contains("wave"),
        "{err}"
    );
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("quadruped_wave.glb");
    succeed(&[
        "bake",
        "sample_creatures/quadruped.creature.json",
        project,
        "--action",
        "wave",
        "--out",
        glb.to_str().unwrap(),
    ]);
    assert!(std::fs::metadata(&glb).unwrap().len() > 1000);
}

/// `validate --project`: rows are the project's actions over its creatures.
#[test]
fn validate_by_action_names_the_branch_of_each_cell() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("grid");
    succeed(&[
        "validate",
        "--project",
        "assets/sample.project.json",
        "--report",
        report.to_str().unwrap(),
        "--thumbnails",
        "none",
    ]);
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(s["rows"], "actions");
    assert_eq!(s["bound_rate"], 1.0, "{}", s["no_branch"]);
    let rows = s["by_row"].as_array().unwrap();
    let wave = rows.iter().find(|r| r["name"] == "wave").unwrap();
    // The project's eight creatures: upright, prone, footed and footless all wave.
    assert_eq!(wave["plays"], 8);
    assert!(wave["branches"].as_object().unwrap().len() >= 2, "{wave}");
    let html = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(
        html.contains("wave_head"),
        "the snake's cell names its branch"
    );
}

/// Command-line numbers have a working range too: a walk at 3e38 m/s or a target at 1e30 m
/// is an error, not a pose of infinities.
#[test]
fn huge_command_line_numbers_are_errors() {
    for (flag, value, message) in [
        ("--speed", "3e38", "--speed: "),
        ("--turn", "-1e9", "--turn: "),
        ("--target", "0,1e30,0", "outside the working range"),
    ] {
        let out = anymorph(&[
            "eval",
            "sample_creatures/biped.creature.json",
            "assets/clips/wave.clip.json",
            "--time",
            "0.5",
            flag,
            value,
        ]);
        assert!(!out.status.success(), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{flag} {value}: {err}");
    }
}

/// A project copied to a temporary folder with its clips, so a test can break one file.
fn project_copy(dir: &std::path::Path) -> std::path::PathBuf {
    let root = common::root();
    let clips = dir.join("clips");
    std::fs::create_dir(&clips).unwrap();
    for entry in std::fs::read_dir(root.join("assets/clips")).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, clips.join(p.file_name().unwrap())).unwrap();
    }
    let creatures = root.join("sample_creatures");
    let text = std::fs::read_to_string(root.join("assets/sample.project.json"))
        .unwrap()
        .replace(
            "\"../sample_creatures/",
            &format!("\"{}/", creatures.display()),
        )
        .replace("\"gaits/", &format!("\"{}/assets/gaits/", root.display()));
    let project = dir.join("p.project.json");
    std::fs::write(&project, text).unwrap();
    project
}

/// The index of `file` in the project's `clips` list.
fn clip_index(project: &std::path::Path, file: &str) -> usize {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(project).unwrap()).unwrap();
    v["clips"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c.as_str().unwrap().ends_with(file))
        .unwrap()
}

/// A file a project lists is named with the project and its place in it, then the field.
#[test]
fn a_listed_file_error_names_the_project_the_index_the_file_and_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let project = project_copy(dir.path());
    let wave = dir.path().join("clips/wave.clip.json");
    let mut clip: Value = serde_json::from_str(&std::fs::read_to_string(&wave).unwrap()).unwrap();
    clip["channels"][0]
        .as_object_mut()
        .unwrap()
        .remove("context");
    std::fs::write(&wave, clip.to_string()).unwrap();
    let i = clip_index(&project, "wave.clip.json");
    let out = anymorph(&["export", project.to_str().unwrap(), "--out", "/dev/null"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let expected = format!(
        "{}: clips[{i}] ({}): channels[0].context: missing field `context`",
        project.display(),
        wave.display()
    );
    assert!(err.contains(&expected), "{err}\nexpected: {expected}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A query file's error names the file and the missing field, not `.`.
#[test]
fn a_query_file_error_names_the_file_and_the_missing_field() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("q.json");
    std::fs::write(&q, r#"{ "side": "left" }"#).unwrap();
    let out = anymorph(&[
        "query",
        "sample_creatures/biped.creature.json",
        "--query",
        q.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains(&format!("{}: cap: missing field `cap`", q.display())),
        "{err}"
    );
}

/// A name holding a newline, quoted in an error, keeps the error on one line.
#[test]
fn an_error_quoting_a_newline_stays_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("n.project.json");
    std::fs::write(
        &p,
        r#"{"format":"anymorph-project","version":1,"name":"n","actions":[{"name":"two\nlines","branches":[]}]}"#,
    )
    .unwrap();
    let out = anymorph(&["export", p.to_str().unwrap(), "--out", "/dev/null"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("two\\nlines"), "{err}");
}

/// The grid by action goes on past a project's unreadable clip: the file is listed in the
/// summary, the actions lose only that branch, every creature is still checked.
#[test]
fn the_grid_goes_on_past_a_projects_unreadable_clip() {
    let dir = tempfile::tempdir().unwrap();
    let project = project_copy(dir.path());
    std::fs::write(dir.path().join("clips/wave.clip.json"), "{ \"format\": ").unwrap();
    let report = dir.path().join("report");
    succeed(&[
        "validate",
        "--project",
        project.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
        "--thumbnails",
        "none",
    ]);
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap())
            .unwrap();
    let unreadable = summary["unreadable"].as_array().unwrap();
    assert_eq!(unreadable.len(), 1, "{unreadable:?}");
    assert!(
        unreadable[0]["file"]
            .as_str()
            .unwrap()
            .ends_with("wave.clip.json")
    );
    let rows = summary["by_row"].as_array().unwrap();
    let wave = rows.iter().find(|r| r["name"] == "wave").unwrap();
    assert!(wave["branches"].get("wave").is_none(), "{wave}");
    assert!(wave["plays"].as_u64().unwrap() > 0, "{wave}");
    assert_eq!(rows.len(), 10, "every action is still a row");
}

/// A project listing one clip twice is an error at load naming both places: its package,
/// which a game plays by name, would not load.
#[test]
fn a_project_listing_a_clip_twice_is_an_error_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let project = project_copy(dir.path());
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&project).unwrap()).unwrap();
    let first = v["clips"][0].clone();
    v["clips"].as_array_mut().unwrap().push(first);
    std::fs::write(&project, v.to_string()).unwrap();
    let n = v["clips"].as_array().unwrap().len() - 1;
    let out = anymorph(&["export", project.to_str().unwrap(), "--out", "/dev/null"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains(&format!("clips[{n}]:"))
            && err.contains("as clips[0]")
            && err.contains("names must be unique"),
        "{err}"
    );
}

/// A negative number given as its own word is the flag's value: a time plays, an unsigned
/// count is an error naming its flag (clap once read `-1` as an unknown flag).
#[test]
fn a_negative_value_is_read_as_the_flags_value() {
    succeed(&[
        "eval",
        "sample_creatures/biped.creature.json",
        "assets/clips/wave.clip.json",
        "--time",
        "-1",
    ]);
    let out = anymorph(&["generate", "--seed", "-1", "--out", "/dev/null"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--seed"), "{err}");
}
