//! Every loader, fed truncated, garbled and type-confused versions of every sample file,
//! returns an error (or, where the damage happens to leave a valid file, a complete value) and
//! never panics.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Rng;

use anymorph::io::{
    LoadError, clip_from_str, creature_from_str, gait_from_str, package_from_str, project_from_str,
};
use serde_json::Value;
use std::panic::{AssertUnwindSafe, catch_unwind};

type Loader = fn(&str) -> Result<(), LoadError>;

fn loaders() -> [(&'static str, Loader); 5] {
    [
        ("creature", |t| creature_from_str(t, "bad.json").map(|_| ())),
        ("clip", |t| clip_from_str(t, "bad.json").map(|_| ())),
        ("project", |t| project_from_str(t, "bad.json").map(|_| ())),
        ("package", |t| package_from_str(t, "bad.json").map(|_| ())),
        ("gait", |t| gait_from_str(t, "bad.json").map(|_| ())),
    ]
}

fn sample_files() -> Vec<(String, String)> {
    let mut files: Vec<std::path::PathBuf> = common::creature_files();
    files.extend(common::clip_files());
    files.push(common::root().join("assets/sample.project.json"));
    files.push(common::root().join("assets/sample.package.json"));
    for g in ["walk", "trot", "run", "limp"] {
        files.push(common::root().join(format!("assets/gaits/{g}.gait.json")));
    }
    files
        .into_iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}

/// Runs every loader on `text`; panics (failing the test) if one panics, and checks every
/// error names the file.
fn load_all(text: &str, what: &str) -> usize {
    let mut errors = 0;
    for (name, load) in loaders() {
        let result = catch_unwind(AssertUnwindSafe(|| load(text)));
        match result {
            Err(_) => panic!("the {name} loader panicked on {what}"),
            Ok(Err(e)) => {
                assert!(e.to_string().starts_with("bad.json: "), "{what}: {e}");
                errors += 1;
            }
            Ok(Ok(())) => {}
        }
    }
    errors
}

#[test]
fn each_sample_loads_with_its_own_loader_only() {
    let files = sample_files();
    assert!(files.len() >= 25);
    for (path, text) in &files {
        // Exactly one loader accepts the file; the others reject its format.
        assert_eq!(load_all(text, path), loaders().len() - 1, "{path}");
    }
}

#[test]
fn truncated_files_are_errors() {
    for (path, text) in sample_files() {
        let whole = text.trim_end();
        let cuts = (0..100)
            .map(|i| i * whole.len() / 100)
            .chain([1, whole.len() - 1]);
        for cut in cuts {
            let mut cut = cut;
            while !whole.is_char_boundary(cut) {
                cut -= 1;
            }
            let part = &whole[..cut];
            assert_eq!(
                load_all(part, &format!("{path} cut at {cut}")),
                loaders().len(),
                "{path} cut at {cut} loaded"
            );
        }
    }
}

#[test]
fn garbled_files_never_panic() {
    let mut rng = Rng::seeded(0x5eed_1234_abcd_9876);
    let garbage = [
        b'{', b'}', b'[', b']', b'"', b',', b':', b'0', b'-', b'e', b'x', b'\\', b' ', 0xff,
    ];
    let mut rejected = 0;
    let mut tried = 0;
    for (path, text) in sample_files() {
        for round in 0..60 {
            let mut bytes = text.clone().into_bytes();
            for _ in 0..1 + rng.index(6) {
                let at = rng.index(bytes.len());
                bytes[at] = garbage[rng.index(garbage.len())];
            }
            let garbled = String::from_utf8_lossy(&bytes);
            rejected += usize::from(
                load_all(&garbled, &format!("{path} garble {round}")) == loaders().len(),
            );
            tried += 1;
        }
    }
    assert!(
        rejected * 10 > tried * 8,
        "only {rejected} of {tried} garbled files were rejected"
    );
}

fn paths(v: &Value, at: Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            let mut p = at.clone();
            p.push(PathStep::Key(k.clone()));
            paths(x, p, out);
        }),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| {
            let mut p = at.clone();
            p.push(PathStep::Index(i));
            paths(x, p, out);
        }),
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn at_mut<'a>(v: &'a mut Value, path: &[PathStep]) -> &'a mut Value {
    path.iter().fold(v, |v, step| match step {
        PathStep::Key(k) => &mut v[k.as_str()],
        PathStep::Index(i) => &mut v[*i],
    })
}

#[test]
fn type_confused_fields_are_errors_or_valid_never_panics() {
    let replacements = [
        Value::Null,
        Value::Bool(true),
        serde_json::json!(-1),
        serde_json::json!(1e39),
        serde_json::json!("text"),
        serde_json::json!([]),
        serde_json::json!({}),
        serde_json::json!([1, 2, 3, 4, 5]),
    ];
    let mut rng = Rng::seeded(0xc0ff_ee00_1234_5678);
    let mut loads = 0;
    let mut rejected = 0;
    for (path, text) in sample_files() {
        let doc: Value = serde_json::from_str(&text).unwrap();
        let mut all = Vec::new();
        paths(&doc, Vec::new(), &mut all);
        for _ in 0..120 {
            let p = &all[rng.index(all.len())];
            let r = &replacements[rng.index(replacements.len())];
            let mut confused = doc.clone();
            *at_mut(&mut confused, p) = r.clone();
            let text = confused.to_string();
            let errors = load_all(&text, &format!("{path} with {p:?} = {r}"));
            loads += 1;
            rejected += usize::from(errors == loaders().len());
        }
    }
    // Most replacements break the file; some (a null optional field) leave it valid.
    assert!(
        rejected * 2 > loads,
        "only {rejected} of {loads} confused files were rejected"
    );
}

#[test]
fn errors_name_the_field() {
    let biped =
        std::fs::read_to_string(common::root().join("sample_creatures/biped.creature.json"))
            .unwrap();
    let mut v: Value = serde_json::from_str(&biped).unwrap();
    v["bodies"][4]["half_extents"] = serde_json::json!("wide");
    let e = creature_from_str(&v.to_string(), "biped.creature.json").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("biped.creature.json: bodies[4].half_extents: invalid type"),
        "{e}"
    );

    let wave = std::fs::read_to_string(common::root().join("assets/clips/wave.clip.json")).unwrap();
    let mut v: Value = serde_json::from_str(&wave).unwrap();
    v["channels"][0]["position"][2]["time"] = serde_json::json!(99.0);
    let e = clip_from_str(&v.to_string(), "wave.clip.json").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("wave.clip.json: channels[0].position: keys[3].time"),
        "{e}"
    );

    let mut v: Value = serde_json::from_str(&wave).unwrap();
    v["channels"][0]["mode"]["position"] = serde_json::json!("secondary_relative");
    let e = clip_from_str(&v.to_string(), "wave.clip.json").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("wave.clip.json: channels[0].secondary:"),
        "{e}"
    );

    let nod =
        std::fs::read_to_string(common::root().join("assets/clips/nod_lookat.clip.json")).unwrap();
    let mut v: Value = serde_json::from_str(&nod).unwrap();
    v["channels"][0]["mode"]["look_at"] = serde_json::json!(
        { "full_effect_rad": 1.0, "no_effect_rad": 2.0, "max_turn_rad": 0.0 }
    );
    let e = clip_from_str(&v.to_string(), "nod.clip.json").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("nod.clip.json: channels[0].mode.look_at.max_turn_rad:"),
        "{e}"
    );

    let mut v: Value = serde_json::from_str(&wave).unwrap();
    v["duration_secs"] = serde_json::json!(-2.0);
    let e = clip_from_str(&v.to_string(), "wave.clip.json").unwrap_err();
    assert!(
        e.to_string().starts_with("wave.clip.json: duration_secs:"),
        "{e}"
    );

    let mut v: Value = serde_json::from_str(&wave).unwrap();
    v["events"][0]["channel"] = serde_json::json!("nope");
    let e = clip_from_str(&v.to_string(), "wave.clip.json").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("wave.clip.json: events[0].channel:"),
        "{e}"
    );

    let mut v: Value = serde_json::from_str(&wave).unwrap();
    v["version"] = serde_json::json!(99);
    let e = clip_from_str(&v.to_string(), "wave.clip.json").unwrap_err();
    assert!(matches!(e, LoadError::Version { .. }), "{e}");
}

#[test]
fn package_errors_name_the_clip_and_field() {
    let text = std::fs::read_to_string(common::root().join("assets/sample.package.json")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["clips"][2]["channels"][0]["context"]["cap"] = serde_json::json!(7);
    let e = package_from_str(&v.to_string(), "p.package.json").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("p.package.json: clips[2].channels[0].context.cap:"),
        "{e}"
    );
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["clips"][1]["duration_secs"] = serde_json::json!(0.0);
    let e = package_from_str(&v.to_string(), "p.package.json").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("p.package.json: clips[1].duration_secs:"),
        "{e}"
    );
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["clips"][1]["name"] = v["clips"][0]["name"].clone();
    let e = package_from_str(&v.to_string(), "p.package.json").unwrap_err();
    assert!(
        e.to_string().contains("clips[1].name: two clips are named"),
        "{e}"
    );
    // Versions 1 (before actions) and 2 load; a newer one is an error.
    let mut v: Value = serde_json::from_str(&text).unwrap();
    for ok in [1, 2] {
        v["version"] = serde_json::json!(ok);
        package_from_str(&v.to_string(), "p").unwrap();
    }
    v["version"] = serde_json::json!(3);
    assert!(matches!(
        package_from_str(&v.to_string(), "p").unwrap_err(),
        LoadError::Version { .. }
    ));
    // An action naming a clip the package does not hold names the action and the field.
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["actions"] = serde_json::json!([{"name": "wave", "branches": ["wave", "no_such_clip"]}]);
    let e = package_from_str(&v.to_string(), "p.package.json").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("p.package.json: actions[0].branches:")
            && e.to_string().contains("no_such_clip"),
        "{e}"
    );
}

/// Finite but huge numbers are outside the working range (±1e6): refused at the door with the
/// file and the field, where before they passed and came out as NaN or infinity.
#[test]
fn huge_finite_numbers_are_refused_with_the_field() {
    let biped =
        std::fs::read_to_string(common::root().join("sample_creatures/biped.creature.json"))
            .unwrap();
    for (field, value, expect) in [
        (
            "joint",
            serde_json::json!([0.0, 1e20, 0.0]),
            "joint: 100000000000000000000",
        ),
        (
            "half_extents",
            serde_json::json!([3e38, 0.1, 0.1]),
            "half_extents: ",
        ),
        (
            "rotation",
            serde_json::json!([0.0, 0.0, 0.0, 1e38]),
            "rotation: ",
        ),
    ] {
        let mut v: Value = serde_json::from_str(&biped).unwrap();
        v["bodies"][3][field] = value;
        let e = creature_from_str(&v.to_string(), "biped.creature.json")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!("biped.creature.json: bodies[3].{expect}"))
                && e.ends_with("outside the working range of ±1e6"),
            "{e}"
        );
    }
    let wave = std::fs::read_to_string(common::root().join("assets/clips/wave.clip.json")).unwrap();
    let mut v: Value = serde_json::from_str(&wave).unwrap();
    v["channels"][0]["position"][1]["value"] = serde_json::json!([0.0, 3.4e38, 0.0]);
    let e = clip_from_str(&v.to_string(), "wave.clip.json")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("wave.clip.json: channels[0].position: keys[1].value[1]:")
            && e.contains("working range"),
        "{e}"
    );
}

/// A creature over the body cap, and a JSON file over the size cap, are refused with the file
/// and the limit, before any work that grows with their size.
#[test]
fn oversized_creatures_and_files_are_refused_with_the_limit() {
    let limit = anymorph::runtime::creature::MAX_BODIES;
    let mut bodies = vec![serde_json::json!({
        "name": "root", "parent": null, "caps": ["spine"], "joint": [0, 1, 0],
        "position": [0, 1, 0], "rotation": [0, 0, 0, 1], "half_extents": [0.5, 0.2, 0.5],
        "shape": "box"
    })];
    for i in 0..limit {
        let x = i as f32 / limit as f32 - 0.5;
        bodies.push(serde_json::json!({
            "name": format!("arm{i}"), "parent": "root", "caps": ["grasper"],
            "joint": [x, 1, 0], "position": [x, 0.9, 0], "rotation": [0, 0, 0, 1],
            "half_extents": [0.01, 0.1, 0.01], "shape": "capsule"
        }));
    }
    let creature = serde_json::json!({
        "format": "anymorph-creature", "version": 1, "name": "many", "bodies": bodies
    });
    let e = creature_from_str(&creature.to_string(), "many.creature.json")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        format!(
            "many.creature.json: bodies: {} bodies is more than the limit of {limit}",
            limit + 1
        )
    );

    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.clip.json");
    // Sparse: the loader must refuse it by counting, not by parsing 64 MiB of zeros.
    std::fs::File::create(&big)
        .unwrap()
        .set_len(anymorph::io::json::MAX_JSON_BYTES + 1)
        .unwrap();
    let e = anymorph::io::load_clip(&big).unwrap_err().to_string();
    assert!(
        e.starts_with(&big.display().to_string()) && e.contains("larger than the limit"),
        "{e}"
    );
}

/// A gait style's number past `f32` (once loaded as infinity and saved as `null`) is an
/// error naming its field.
#[test]
fn a_gait_number_past_the_working_range_is_refused_with_its_field() {
    let text = std::fs::read_to_string(common::root().join("assets/gaits/walk.gait.json")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["flight"]["peak_at"] = serde_json::json!(3.5e38);
    let e = gait_from_str(&v.to_string(), "walk.gait.json")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("walk.gait.json: flight.peak_at: ") && e.contains("working range"),
        "{e}"
    );
}
