//! Damaged glTF never panics: truncated and garbled GLB, documents without nodes, node
//! cycles, non-finite transforms and absurd size claims are errors naming the file (and the
//! node or field).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::io::gltf::{RigRules, import_rig_from_bytes};
use anymorph::io::load_creature;
use base64::Engine;
use std::panic::{AssertUnwindSafe, catch_unwind};

fn import(bytes: &[u8]) -> Result<(), String> {
    let rules = RigRules::builtin();
    match catch_unwind(AssertUnwindSafe(|| {
        import_rig_from_bytes(bytes, "bad.glb", None, &rules)
    })) {
        Err(_) => panic!("the importer panicked"),
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => {
            let text = e.to_string();
            assert!(text.starts_with("bad.glb: "), "{text}");
            Err(text)
        }
    }
}

fn err(json: &str) -> String {
    import(json.as_bytes()).expect_err("expected an error")
}

fn fixture_bytes(name: &str) -> Vec<u8> {
    std::fs::read(common::root().join("tests/fixtures/gltf").join(name)).unwrap()
}

#[test]
fn truncated_glb_files_are_errors() {
    for name in ["humanoid.glb", "spider.glb"] {
        let bytes = fixture_bytes(name);
        assert!(import(&bytes).is_ok());
        let mut cuts: Vec<usize> = (0..64).collect();
        cuts.extend((64..bytes.len()).step_by(211));
        for cut in cuts {
            assert!(import(&bytes[..cut]).is_err(), "{name} cut at {cut}");
        }
    }
}

#[test]
fn garbled_glb_files_never_panic() {
    let bytes = fixture_bytes("robot_nodes.glb");
    let mut errors = 0;
    for (k, at) in (12..bytes.len()).step_by(37).enumerate() {
        let mut bad = bytes.clone();
        bad[at] ^= [0xFF, 0x20, 0x01, 0x80][k % 4];
        if import(&bad).is_err() {
            errors += 1;
        }
    }
    assert!(errors > 0);
    // Random noise with a GLB header, and plain noise.
    let mut noise: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    assert!(import(&noise).is_err());
    noise[..4].copy_from_slice(b"glTF");
    assert!(import(&noise).is_err());
}

#[test]
fn a_document_without_nodes_is_an_error() {
    let e = err(r#"{"asset": {"version": "2.0"}}"#);
    assert!(e.contains("nodes") && e.contains("no nodes"), "{e}");
    let e = err(
        r#"{"asset": {"version": "2.0"}, "nodes": [{"camera": 0}], "cameras": [{"type": "perspective", "perspective": {"yfov": 1, "znear": 0.1}}]}"#,
    );
    assert!(e.contains("camera"), "{e}");
    let e = err("not json at all");
    assert!(e.contains("line 1"), "{e}");
    let e = err(r#"{"asset": {"version": "2.0"}, "nodes": [{"children": [5]}]}"#);
    assert!(e.contains("nodes[0].children[0]"), "{e}");
}

#[test]
fn node_cycles_and_shared_children_are_errors_naming_the_node() {
    let e = err(r#"{"asset": {"version": "2.0"}, "nodes": [
        {"name": "a", "children": [1]}, {"name": "b", "children": [0]}]}"#);
    assert!(e.contains("cycle") && e.contains("nodes[0] ('a')"), "{e}");
    let e = err(r#"{"asset": {"version": "2.0"}, "nodes": [{"name": "a", "children": [0]}]}"#);
    assert!(e.contains("own child"), "{e}");
    let e = err(r#"{"asset": {"version": "2.0"}, "nodes": [
        {"name": "a", "children": [2]}, {"name": "b", "children": [2]}, {"name": "c"}]}"#);
    assert!(e.contains("one parent"), "{e}");
    // A skin whose joints form a cycle.
    let e = err(
        r#"{"asset": {"version": "2.0"}, "skins": [{"joints": [0, 1, 2]}], "nodes": [
        {"name": "hips", "children": [1]}, {"name": "spine", "children": [2]}, {"name": "head", "children": [1]}]}"#,
    );
    assert!(e.contains("cycle") || e.contains("one parent"), "{e}");
}

#[test]
fn non_finite_transforms_are_errors_naming_the_node_and_field() {
    let e = err(
        r#"{"asset": {"version": "2.0"}, "nodes": [{"name": "hips", "translation": [1e39, 0, 0]}]}"#,
    );
    assert!(e.contains("nodes[0] ('hips').translation"), "{e}");
    // Finite, but beyond the working range: refused, not played as NaN.
    let e = err(
        r#"{"asset": {"version": "2.0"}, "nodes": [{"name": "hips", "translation": [1e20, 0, 0]}]}"#,
    );
    assert!(e.contains("working range"), "{e}");
    let e = err(
        r#"{"asset": {"version": "2.0"}, "nodes": [{"name": "hips", "rotation": [0, 0, 0, 0]}]}"#,
    );
    assert!(e.contains("rotation"), "{e}");
    let e =
        err(r#"{"asset": {"version": "2.0"}, "nodes": [{"name": "hips", "scale": [0, 0, 0]}]}"#);
    assert!(e.contains("nodes[0] ('hips')"), "{e}");
    let e = err(
        r#"{"asset": {"version": "2.0"}, "nodes": [{"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,-1e39,0,1]}]}"#,
    );
    assert!(e.contains("matrix"), "{e}");
    // NaN in binary data: a skin's inverse bind matrix.
    let mut floats = [0f32; 16];
    floats[5] = f32::NAN;
    let bytes: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    );
    let json = format!(
        r#"{{"asset": {{"version": "2.0"}}, "buffers": [{{"byteLength": 64, "uri": "{uri}"}}],
        "bufferViews": [{{"buffer": 0, "byteLength": 64}}],
        "accessors": [{{"bufferView": 0, "componentType": 5126, "count": 1, "type": "MAT4"}}],
        "skins": [{{"joints": [0], "inverseBindMatrices": 0}}],
        "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 1, "JOINTS_0": 2, "WEIGHTS_0": 3}}}}]}}],
        "nodes": [{{"name": "hips"}}, {{"name": "body", "mesh": 0, "skin": 0}}]}}"#
    );
    // The mesh's accessors do not exist: the document is rejected before any data is read.
    let e = import(json.as_bytes()).unwrap_err();
    assert!(e.contains("meshes[0].primitives[0]"), "{e}");
}

#[test]
fn a_nan_in_vertex_data_is_an_error_naming_the_accessor() {
    let mut floats = [0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    floats[4] = f32::NAN;
    let bytes: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    );
    let json = format!(
        r#"{{"asset": {{"version": "2.0"}}, "buffers": [{{"byteLength": 36, "uri": "{uri}"}}],
        "bufferViews": [{{"buffer": 0, "byteLength": 36}}],
        "accessors": [{{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                        "min": [0, 0, 0], "max": [1, 1, 0]}}],
        "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
        "nodes": [{{"name": "body", "mesh": 0}}]}}"#
    );
    let e = import(json.as_bytes()).unwrap_err();
    assert!(e.contains("accessors[0]") && e.contains("NaN"), "{e}");
}

#[test]
fn absurd_size_claims_are_errors() {
    let bytes = fixture_bytes("spider.glb");
    // The header claims 4 GB.
    let mut big = bytes.clone();
    big[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = import(&big).unwrap_err();
    assert!(e.contains("(GLB header).length"), "{e}");
    // The JSON chunk claims more than the file.
    let mut chunk = bytes.clone();
    chunk[12..16].copy_from_slice(&(u32::MAX - 8).to_le_bytes());
    assert!(import(&chunk).is_err());
    // A buffer claims more than it holds; an accessor claims a billion elements.
    let uri = "data:application/octet-stream;base64,AAAAAAAAAAAAAAAA";
    let e = err(&format!(
        r#"{{"asset": {{"version": "2.0"}}, "buffers": [{{"byteLength": 4000000000, "uri": "{uri}"}}],
        "nodes": [{{"name": "a"}}]}}"#
    ));
    assert!(e.contains("buffers[0].byteLength"), "{e}");
    let e = err(&format!(
        r#"{{"asset": {{"version": "2.0"}}, "buffers": [{{"byteLength": 12, "uri": "{uri}"}}],
        "bufferViews": [{{"buffer": 0, "byteLength": 12}}],
        "accessors": [{{"bufferView": 0, "componentType": 5126, "count": 1000000000, "type": "VEC3",
                        "min": [0, 0, 0], "max": [0, 0, 0]}}],
        "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
        "nodes": [{{"name": "body", "mesh": 0}}]}}"#
    ));
    assert!(e.contains("accessors[0]"), "{e}");
    let e = err(r#"{"asset": {"version": "2.0"},
        "accessors": [{"componentType": 5126, "count": 1000000000, "type": "VEC3",
                       "min": [0, 0, 0], "max": [0, 0, 0]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"name": "body", "mesh": 0}]}"#);
    // Without a bufferView nothing backs the count; either check names the accessor.
    assert!(e.contains("accessors[0]"), "{e}");
}

#[test]
fn load_creature_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.glb");
    std::fs::write(&path, &fixture_bytes("horse.glb")[..1000]).unwrap();
    let e = load_creature(&path).unwrap_err().to_string();
    assert!(e.starts_with(&path.display().to_string()), "{e}");
    let missing = dir.path().join("missing.gltf");
    let e = load_creature(&missing).unwrap_err().to_string();
    assert!(e.contains("missing.gltf"), "{e}");
    let ext = dir.path().join("ext.gltf");
    std::fs::write(
        &ext,
        r#"{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 8, "uri": "nowhere.bin"}], "nodes": [{}]}"#,
    )
    .unwrap();
    let e = load_creature(&ext).unwrap_err().to_string();
    assert!(
        e.contains("buffers[0].uri") && e.contains("nowhere.bin"),
        "{e}"
    );
}

#[test]
fn missing_and_repeated_names_are_made_unique_in_file_order() {
    let json = r#"{"asset": {"version": "2.0"}, "nodes": [
        {"name": "bone", "children": [1, 2, 3]}, {"name": "bone"}, {}, {"name": "bone", "children": [4]},
        {"name": "bone_2"}]}"#;
    let rig =
        import_rig_from_bytes(json.as_bytes(), "dup.gltf", None, &RigRules::builtin()).unwrap();
    let names: Vec<&str> = rig
        .creature
        .bodies()
        .iter()
        .map(|b| b.name.as_str())
        .collect();
    assert_eq!(names, ["bone", "bone_2", "node_2", "bone_3", "bone_2_2"]);
}

#[test]
fn the_editor_bake_reports_each_creature_on_its_own() {
    use anymorph::io::gltf::{BakeJob, bake_clip_for_creatures};
    let dir = tempfile::tempdir().unwrap();
    let clip = std::sync::Arc::new(common::clip("wave").clone());
    let jobs = [
        BakeJob {
            creature: common::creature("biped"),
            mesh: None,
            variants: vec![],
            out: dir.path().join("biped.glb"),
        },
        BakeJob {
            creature: common::creature("snake"),
            mesh: None,
            variants: vec![],
            out: dir.path().join("snake.glb"),
        },
    ];
    let results = bake_clip_for_creatures(&clip, &jobs, 30.0);
    assert_eq!(results[0].as_ref().unwrap().animations.len(), 2);
    assert!(results[1].is_err(), "wave does not play on the snake");
    assert!(dir.path().join("biped.glb").is_file());
    assert!(!dir.path().join("snake.glb").exists());
}
