//! Fuzzing as a habit (issue 48): a bounded run of `anymorph fuzz` over every target from a
//! fixed seed, and proof that its oracles catch what they are for — a planted panic, hang,
//! NaN and error without a file.
//!
//! Findings not yet fixed are in [`KNOWN`]: the run prints them and passes; anything else
//! fails it. Empty [`KNOWN`] as the fixes land (the run says which entries it no longer
//! sees).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::fuzz::{self, Kind, Target, Violation, run_command, run_in_process};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Findings known and not fixed yet: (target, kind, a piece of the violation's text).
/// Each is reported to the owners of the code with a minimal repro (see the fuzz note).
const KNOWN: &[(Target, Kind, &str)] = &[];

fn known(target: Target, kind: Kind, detail: &str) -> Option<usize> {
    KNOWN
        .iter()
        .position(|&(t, k, text)| t == target && k == kind && detail.contains(text))
}

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_anymorph"))
}

/// Every target, a fixed seed, ten thousand cases (about 25 s in the debug profile).
#[test]
fn a_bounded_fuzz_run_finds_nothing_new() {
    let out = tempfile::tempdir().unwrap();
    let options = fuzz::Options {
        cases: 10_000,
        seed: 48,
        targets: Target::ALL.to_vec(),
        out: Some(out.path().to_path_buf()),
        jobs: 2,
        timeout: Duration::from_secs(60),
        exe: exe(),
        corpus_root: common::root().to_path_buf(),
        progress: false,
    };
    let started = Instant::now();
    let report = fuzz::run(&options).unwrap();
    println!(
        "anymorph fuzz --cases {} --seed {} ({:.1} s)\n{}",
        options.cases,
        options.seed,
        started.elapsed().as_secs_f64(),
        report.table()
    );
    for row in &report.rows {
        assert!(row.cases > 0, "{:?} ran no case", row.target);
        // Every target loads or runs something: a corpus that only errors tests nothing.
        assert!(row.ok > 0, "{:?}: not one case succeeded", row.target);
    }
    let mut seen = vec![false; KNOWN.len()];
    let mut new = Vec::new();
    for f in &report.findings {
        match known(f.target, f.kind, &f.detail) {
            Some(i) => {
                seen[i] = true;
                println!(
                    "known: [{}] {} ×{}: {}",
                    f.target, f.kind, f.count, f.detail
                );
            }
            None => new.push(f.clone()),
        }
    }
    for (i, entry) in KNOWN.iter().enumerate() {
        if !seen[i] {
            println!(
                "not seen with this seed (if anymorph fuzz no longer finds it, remove it from KNOWN): {entry:?}"
            );
        }
    }
    if !new.is_empty() {
        let text = fuzz::Report {
            findings: new,
            ..Default::default()
        }
        .findings_text();
        panic!("new fuzz findings:\n{text}");
    }
}

/// The same seed gives the same cases and so the same figures.
#[test]
fn a_run_is_reproducible_from_its_seed() {
    let options = fuzz::Options {
        cases: 120,
        seed: 7,
        targets: vec![Target::LoadCreature, Target::LoadGltf, Target::Info],
        out: None,
        jobs: 2,
        timeout: Duration::from_secs(60),
        exe: exe(),
        corpus_root: common::root().to_path_buf(),
        progress: false,
    };
    let figures = |r: &fuzz::Report| -> Vec<(u64, u64, u64)> {
        r.rows.iter().map(|x| (x.cases, x.ok, x.errors)).collect()
    };
    let a = fuzz::run(&options).unwrap();
    let b = fuzz::run(&options).unwrap();
    assert_eq!(figures(&a), figures(&b));
}

fn kinds(v: &[Violation]) -> Vec<Kind> {
    let mut k: Vec<Kind> = v.iter().map(|x| x.kind).collect();
    k.sort();
    k.dedup();
    k
}

/// Planted bugs in-process: a loader that panics, one that panics but catches it (a user
/// would still see the message), one that never returns.
#[test]
fn the_harness_catches_a_planted_panic_and_hang() {
    let panicked = run_in_process(
        || {
            let v: Vec<u32> = Vec::new();
            let _ = v[usize::from(v.is_empty())];
            Vec::new()
        },
        Duration::from_secs(10),
    );
    assert_eq!(kinds(&panicked), vec![Kind::Panic], "{panicked:?}");
    assert!(
        panicked[0].detail.contains("index out of bounds"),
        "{panicked:?}"
    );

    let caught = run_in_process(
        || {
            let _ = std::panic::catch_unwind(|| panic!("planted and caught"));
            Vec::new()
        },
        Duration::from_secs(10),
    );
    assert_eq!(kinds(&caught), vec![Kind::Panic], "{caught:?}");

    let hung = run_in_process(
        || {
            std::thread::sleep(Duration::from_secs(30));
            Vec::new()
        },
        Duration::from_millis(300),
    );
    assert_eq!(kinds(&hung), vec![Kind::Hang], "{hung:?}");
}

/// Planted bugs in a subprocess: a panic, a NaN in JSON (serde_json's `null`) and in text,
/// an error naming no file, an error of two lines, a hang.
#[cfg(unix)]
#[test]
fn the_harness_catches_planted_bugs_in_a_command() {
    let sh = PathBuf::from("/bin/sh");
    let run = |script: &str, must_name: &[&str], timeout_ms: u64| {
        let groups = vec![must_name.iter().map(|s| s.to_string()).collect()];
        run_command(
            &sh,
            &["-c".to_string(), script.to_string()],
            &groups,
            Duration::from_millis(timeout_ms),
        )
        .unwrap()
    };
    let panic = run(
        "echo \"thread 'main' panicked at src/cli/eval.rs:1:1:\" >&2; echo 'index out of bounds' >&2; exit 101",
        &["c.json"],
        5000,
    );
    assert_eq!(kinds(&panic), vec![Kind::Panic], "{panic:?}");
    let nan_json = run(
        r#"echo '{"time": 0.5, "position": [0.0, null, 1.0]}'"#,
        &["c.json"],
        5000,
    );
    assert_eq!(kinds(&nan_json), vec![Kind::NonFinite], "{nan_json:?}");
    let nan_text = run("echo 'leg: hip → foot (inf m)'", &["c.json"], 5000);
    assert_eq!(kinds(&nan_text), vec![Kind::NonFinite], "{nan_text:?}");
    let no_file = run(
        "echo 'error: bodies[3].joint: bad' >&2; exit 1",
        &["c.json"],
        5000,
    );
    assert_eq!(kinds(&no_file), vec![Kind::NoFile], "{no_file:?}");
    let two_lines = run(
        "printf 'error: c.json: bodies[3].name: a\\nb\\n' >&2; exit 1",
        &["c.json"],
        5000,
    );
    assert_eq!(kinds(&two_lines), vec![Kind::MultiLine], "{two_lines:?}");
    let hang = run("sleep 30", &["c.json"], 300);
    assert_eq!(kinds(&hang), vec![Kind::Hang], "{hang:?}");
    let fine = run(
        "echo 'error: /t/c.json: bodies[3].name: bad' >&2; exit 1",
        &["c.json"],
        5000,
    );
    assert!(fine.is_empty(), "{fine:?}");
}
