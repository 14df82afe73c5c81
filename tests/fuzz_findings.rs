//! Findings of `anymorph fuzz` (issue 48) fixed in the command files themselves: errors that
//! named no file or no flag.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_anymorph"))
}

fn anymorph(args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(exe())
        .args(args)
        .current_dir(common::root())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// "clip 'wave' does not play on 'snake'" named neither file; it leads with the clip file
/// and names the creature file.
#[test]
fn a_clip_that_does_not_play_is_an_error_naming_both_files() {
    let out = tempfile::tempdir().unwrap();
    let glb = out.path().join("wave.glb");
    let glb = glb.to_str().unwrap();
    for args in [
        vec![
            "eval",
            "sample_creatures/snake.creature.json",
            "assets/clips/wave.clip.json",
            "--time",
            "0",
        ],
        vec![
            "bake",
            "sample_creatures/snake.creature.json",
            "assets/clips/wave.clip.json",
            "--out",
            glb,
        ],
    ] {
        let (ok, stderr) = anymorph(&args);
        assert!(!ok);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(
                "error: assets/clips/wave.clip.json: clip 'wave' does not play on 'snake'"
            ),
            "{stderr}"
        );
        assert!(stderr.contains("snake.creature.json"), "{stderr}");
    }
}

/// `bake --fps 1e6` said "fps: must be …", naming no flag.
#[test]
fn an_odd_bake_fps_is_an_error_naming_the_flag() {
    let out = tempfile::tempdir().unwrap();
    let glb = out.path().join("wave.glb");
    for fps in ["1e6", "0", "-1", "NaN"] {
        let (ok, stderr) = anymorph(&[
            "bake",
            "sample_creatures/biped.creature.json",
            "assets/clips/wave.clip.json",
            "--out",
            glb.to_str().unwrap(),
            &format!("--fps={fps}"),
        ]);
        assert!(!ok, "--fps {fps}");
        assert!(
            stderr.starts_with("error: --fps: must be a number in (0, 1000]"),
            "{stderr}"
        );
    }
}

/// `export --reduce-channel hand=-1` said "--reduce: tolerances must be …"; it is refused
/// as a value of --reduce-channel.
#[test]
fn an_odd_channel_tolerance_is_an_error_naming_its_flag() {
    let out = tempfile::tempdir().unwrap();
    let package = out.path().join("p.package.json");
    for tolerance in ["hand=-1", "hand=inf", "hand=NaN"] {
        let (ok, stderr) = anymorph(&[
            "export",
            "assets/sample.project.json",
            "--out",
            package.to_str().unwrap(),
            "--reduce-channel",
            tolerance,
        ]);
        assert!(!ok, "{tolerance}");
        assert!(stderr.contains("--reduce-channel"), "{stderr}");
        assert!(!package.exists());
    }
}
