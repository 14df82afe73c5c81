//! Package export beside the glTF work (issue 8): the size report per clip and channel, key
//! reduction within a tolerance, and a plain export that still equals the committed package.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::anymorph;

use anymorph::io::key_reduction::{Tolerance, reduce_clip};
use anymorph::io::package_stats::{KeyCounts, size_report};
use anymorph::io::{Package, load_package, load_project, save_clip};
use anymorph::runtime::curve::{Key, KeyedCurve};
use glam::Vec3;
use serde_json::Value;

#[test]
fn a_plain_export_still_equals_the_committed_package() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.package.json");
    let run = anymorph(&[
        "export",
        "assets/sample.project.json",
        "--out",
        out.to_str().unwrap(),
        "--report",
    ]);
    assert!(run.status.success());
    let written = std::fs::read_to_string(&out).unwrap();
    let committed =
        std::fs::read_to_string(common::root().join("assets/sample.package.json")).unwrap();
    assert_eq!(
        written, committed,
        "--report must not change what is written"
    );
    let text = String::from_utf8_lossy(&run.stdout);
    let total = format!("total: {} clips", common::clips().len());
    assert!(
        text.contains("(whole clip)") && text.contains(&total),
        "{text}"
    );
}

#[test]
fn the_report_counts_every_key_and_byte_per_clip_and_channel() {
    let project = load_project(&common::root().join("assets/sample.project.json")).unwrap();
    let package = Package::from_project(&project);
    let report = size_report(&package);
    assert_eq!(report.len(), package.clips.len());
    for clip in &report {
        let source = package.clip(&clip.clip).unwrap();
        assert_eq!(clip.channels.len(), source.channels.len());
        let keys: usize = source
            .channels
            .iter()
            .map(|c| KeyCounts::of(c).total())
            .sum();
        assert_eq!(clip.keys, keys);
        let channel_bytes: usize = clip.channels.iter().map(|c| c.bytes).sum();
        assert!(channel_bytes < clip.bytes, "{}", clip.clip);
        assert!(clip.channels.windows(2).all(|w| w[0].bytes >= w[1].bytes));
    }
    let run = anymorph(&[
        "export",
        "assets/sample.project.json",
        "--out",
        tempfile::tempdir()
            .unwrap()
            .path()
            .join("p.json")
            .to_str()
            .unwrap(),
        "--json",
    ]);
    let v: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(v["clips"].as_array().unwrap().len(), package.clips.len());
    assert!(v["clips"][0]["channels"][0]["keys"]["position"].is_number());
}

/// A clip whose channel is keyed every frame along a smooth path: what a mocap import or a
/// baked simulation looks like.
fn dense_clip() -> anymorph::runtime::clip::Clip {
    let mut clip = common::clip("wave").clone();
    let keys = (0..=60)
        .map(|i| {
            let t = i as f32 / 60.0 * clip.duration_secs;
            Key::new(t, Vec3::new((t * 2.0).sin() * 0.2, t * 0.1, 0.0))
        })
        .collect();
    clip.channels[0].position = Some(KeyedCurve::new(keys).unwrap());
    clip.validate().unwrap();
    clip
}

#[test]
fn reduction_keeps_every_curve_within_its_tolerance() {
    let original = dense_clip();
    let mut reduced = original.clone();
    let tol = 1e-3;
    let result = reduce_clip(
        &mut reduced,
        &Tolerance {
            default: tol,
            ..Default::default()
        },
    );
    reduced.validate().unwrap();
    let before: usize = result.iter().map(|r| r.keys_before).sum();
    let after: usize = result.iter().map(|r| r.keys_after).sum();
    assert!(after * 2 < before, "{before} → {after}");
    for (a, b) in original.channels.iter().zip(&reduced.channels) {
        let (pa, pb) = (a.position.as_ref().unwrap(), b.position.as_ref().unwrap());
        for i in 0..=1000 {
            let t = i as f32 / 1000.0 * original.duration_secs;
            let d = pa.sample(t).unwrap().distance(pb.sample(t).unwrap());
            assert!(d < tol * 1.01, "{}: {d} at {t}", a.name);
        }
    }
    // A channel's own tolerance of 0 keeps it untouched.
    let mut kept = original.clone();
    let name = kept.channels[0].name.clone();
    reduce_clip(
        &mut kept,
        &Tolerance {
            default: 0.1,
            channels: [(name, 0.0)].into_iter().collect(),
        },
    );
    assert_eq!(kept.channels[0].position, original.channels[0].position);
}

#[test]
fn export_reduce_writes_a_smaller_package_that_loads() {
    let dir = tempfile::tempdir().unwrap();
    save_clip(&dir.path().join("dense.clip.json"), &dense_clip()).unwrap();
    std::fs::write(
        dir.path().join("p.project.json"),
        r#"{"format": "anymorph-project", "version": 1, "name": "dense", "clips": ["dense.clip.json"]}"#,
    )
    .unwrap();
    let plain = dir.path().join("plain.package.json");
    let small = dir.path().join("small.package.json");
    let project = dir.path().join("p.project.json");
    let p = project.to_str().unwrap();
    assert!(
        anymorph(&["export", p, "--out", plain.to_str().unwrap()])
            .status
            .success()
    );
    let run = anymorph(&[
        "export",
        p,
        "--out",
        small.to_str().unwrap(),
        "--reduce",
        "0.001",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("key reduction"));
    let (a, b) = (
        std::fs::metadata(&plain).unwrap().len(),
        std::fs::metadata(&small).unwrap().len(),
    );
    assert!(b < a, "{b} ≥ {a}");
    assert_eq!(load_package(&small).unwrap().clips.len(), 1);
    let bad = anymorph(&[
        "export",
        p,
        "--out",
        small.to_str().unwrap(),
        "--reduce",
        "-1",
    ]);
    assert!(!bad.status.success());
}
