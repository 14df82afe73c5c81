//! Every complete example in docs/FORMAT.md loads with its loader, so the documentation
//! cannot drift from the code.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::io::{clip_from_str, creature_from_str, project_from_str};
use anymorph::runtime::clip::{Branch, VariantSettings};
use anymorph::runtime::curve::KeyedCurve;
use anymorph::runtime::movement::MovementMode;
use anymorph::runtime::query::{ContextQuery, SecondaryContext};

fn json_blocks() -> Vec<String> {
    let doc = std::fs::read_to_string(common::root().join("docs/FORMAT.md")).unwrap();
    doc.split("```json")
        .skip(1)
        .map(|b| b.split("```").next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn every_example_document_loads() {
    let mut loaded = 0;
    for block in json_blocks() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&block) else {
            continue;
        };
        match v["format"].as_str() {
            Some("anymorph-creature") => drop(creature_from_str(&block, "FORMAT.md").unwrap()),
            Some("anymorph-clip") => drop(clip_from_str(&block, "FORMAT.md").unwrap()),
            Some("anymorph-project") => drop(project_from_str(&block, "FORMAT.md").unwrap()),
            Some("anymorph-gait") => {
                drop(anymorph::io::gait_from_str(&block, "FORMAT.md").unwrap())
            }
            Some("anymorph-package") => {
                drop(anymorph::io::package_from_str(&block, "FORMAT.md").unwrap())
            }
            _ => continue,
        }
        loaded += 1;
    }
    assert_eq!(
        loaded, 5,
        "a creature, a clip, a project, a package and a gait example"
    );
}

#[test]
fn query_and_curve_examples_parse() {
    let blocks = json_blocks();
    let query = blocks.iter().find(|b| b.starts_with("{ \"cap\"")).unwrap();
    let q: ContextQuery = serde_json::from_str(query).unwrap();
    assert!(
        q.select(common::creature("biped"))
            .iter()
            .all(|&b| common::creature("biped").body(b).name.ends_with("_l"))
    );
    let curve = blocks
        .iter()
        .find(|b| b.starts_with("[ { \"time\""))
        .unwrap();
    let c: KeyedCurve<glam::Vec3> = serde_json::from_str(curve).unwrap();
    assert_eq!(c.len(), 3);
    // Fragments of a channel: each must deserialize into the real type.
    let mut fragments = 0;
    for b in &blocks {
        let pieces: Vec<String> = if b.starts_with("\"secondary\"") {
            b.lines().map(|l| l.trim().to_string()).collect()
        } else {
            vec![b.clone()]
        };
        for piece in pieces {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(&format!("{{{piece}}}")) else {
                continue;
            };
            let (key, value) = v
                .as_object()
                .unwrap()
                .iter()
                .next()
                .map(|(k, v)| (k.clone(), v.clone()))
                .unwrap();
            match key.as_str() {
                "secondary" => drop(serde_json::from_value::<SecondaryContext>(value).unwrap()),
                "mode" => drop(serde_json::from_value::<MovementMode>(value).unwrap()),
                "variant" => drop(serde_json::from_value::<VariantSettings>(value).unwrap()),
                "branches" => drop(serde_json::from_value::<Vec<Branch>>(value).unwrap()),
                _ => continue,
            }
            fragments += 1;
        }
    }
    assert_eq!(
        fragments, 5,
        "two secondary contexts, a mode, variant settings and branches"
    );
}

#[test]
fn the_built_in_samples_are_the_sample_files() {
    let names = |dir: &str, suffix: &str| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(common::root().join(dir))
            .unwrap()
            .filter_map(|e| {
                e.unwrap()
                    .file_name()
                    .to_str()?
                    .strip_suffix(suffix)
                    .map(String::from)
            })
            .collect();
        v.sort();
        v
    };
    let built_in =
        |list: &[(&str, &str)]| list.iter().map(|(n, _)| n.to_string()).collect::<Vec<_>>();
    assert_eq!(
        built_in(anymorph::samples::CREATURES),
        names("sample_creatures", ".creature.json")
    );
    assert_eq!(
        built_in(anymorph::samples::CLIPS),
        names("assets/clips", ".clip.json")
    );
    assert_eq!(
        anymorph::samples::creatures().unwrap().len(),
        common::creatures().len()
    );
    assert_eq!(anymorph::samples::clips().unwrap(), common::clips());
}
