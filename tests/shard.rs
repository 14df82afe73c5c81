//! The grid in shards (`validate --shard I/N`, `report merge`): a grid run as 4 shards and
//! merged gives the single run's report, cell by cell; a merge of shards that are not
//! exactly one grid is an error naming the file and the field, and writes no report.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{anymorph, succeed};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A failing command's one-line error.
fn fail(args: &[&str]) -> String {
    let out = anymorph(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Two clips and a JSON-lines store of creatures: nine samples, one line that is not a
/// creature (named in the report by every shard), and two zoo creatures after them.
struct Grid {
    dir: tempfile::TempDir,
}

impl Grid {
    fn new() -> Grid {
        let dir = tempfile::tempdir().unwrap();
        let clips = dir.path().join("clips");
        std::fs::create_dir_all(&clips).unwrap();
        for c in ["wave", "nod_lookat"] {
            std::fs::copy(
                common::root().join(format!("assets/clips/{c}.clip.json")),
                clips.join(format!("{c}.clip.json")),
            )
            .unwrap();
        }
        let mut lines = String::new();
        for (i, name) in [
            "biped",
            "tiny",
            "snake",
            "quadruped",
            "bird",
            "tripod",
            "floater",
            "giant",
            "hexapod",
        ]
        .iter()
        .enumerate()
        {
            let text = anymorph::io::creature_to_string(common::creature(name));
            let value: Value = serde_json::from_str(&text).unwrap();
            lines.push_str(&serde_json::to_string(&value).unwrap());
            lines.push('\n');
            if i == 3 {
                lines.push_str("{\"format\": \"anymorph-creature\", \"version\": 1}\n");
            }
        }
        std::fs::write(dir.path().join("creatures.jsonl"), lines).unwrap();
        Grid { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn s(&self, name: &str) -> String {
        self.path(name).to_str().unwrap().to_string()
    }

    /// `validate` over the grid into `report`, with `extra` arguments.
    fn validate(&self, report: &str, extra: &[&str]) -> Output {
        let (clips, creatures, report) =
            (self.s("clips"), self.s("creatures.jsonl"), self.s(report));
        let mut args = vec![
            "validate",
            "--clips",
            &clips,
            "--creatures",
            &creatures,
            "--random",
            "2",
            "--seed",
            "7",
            "--report",
            &report,
            "--thumbnails",
            "none",
        ];
        args.extend_from_slice(extra);
        succeed(&args)
    }

    fn merge(&self, shards: &[&str], out: &str) -> Output {
        let mut args = vec!["report".to_string(), "merge".to_string()];
        args.extend(shards.iter().map(|s| self.s(s)));
        args.extend(["--report".to_string(), self.s(out)]);
        anymorph(&args.iter().map(String::as_str).collect::<Vec<_>>())
    }
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The cell lines of a cells file, keyed by (row, creature).
fn cells(path: &Path) -> Vec<((u64, u64), Value)> {
    let text = std::fs::read_to_string(path.join("cells.jsonl")).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v.get("row").is_some())
        .map(|v| {
            (
                (v["row"].as_u64().unwrap(), v["creature"].as_u64().unwrap()),
                v["report"].clone(),
            )
        })
        .collect()
}

#[test]
fn four_merged_shards_are_the_single_run_cell_by_cell_and_a_bad_merge_is_refused() {
    let grid = Grid::new();
    grid.validate("single", &[]);
    for i in 0..4 {
        let out = grid.validate(&format!("shard{i}"), &["--shard", &format!("{i}/4")]);
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains(&format!("shard {i}/4")), "{said}");
        assert!(
            !grid.path(&format!("shard{i}/summary.json")).exists(),
            "a shard writes cells, not a report"
        );
    }
    let shards = ["shard0", "shard1", "shard2", "shard3"];
    let out = grid.merge(&shards, "merged");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // The summary, every cell and the page are the single run's.
    let single = json(&grid.path("single/summary.json"));
    let merged = json(&grid.path("merged/summary.json"));
    assert_eq!(
        single["cells"].as_u64().unwrap() + single["not_bound"].as_u64().unwrap(),
        2 * 11
    );
    assert_eq!(
        single["unreadable"].as_array().unwrap().len(),
        1,
        "{single}"
    );
    assert_eq!(single, merged);
    let mut from_shards: Vec<((u64, u64), Value)> =
        shards.iter().flat_map(|s| cells(&grid.path(s))).collect();
    from_shards.sort_by_key(|c| c.0);
    let mut whole = cells(&grid.path("single"));
    whole.sort_by_key(|c| c.0);
    assert_eq!(whole.len(), 22);
    assert_eq!(from_shards.len(), whole.len());
    for (a, b) in whole.iter().zip(&from_shards) {
        assert_eq!(a, b, "cell {:?}", a.0);
    }
    // Balanced: every shard checks some creatures.
    for s in shards {
        assert!(!cells(&grid.path(s)).is_empty(), "{s} is empty");
    }
    assert_eq!(
        std::fs::read_to_string(grid.path("single/index.html")).unwrap(),
        std::fs::read_to_string(grid.path("merged/index.html")).unwrap()
    );
    // The table's pages, linked from the first page, are the single run's too.
    let pages = |dir: &str| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = std::fs::read_dir(grid.path(dir).join("pages"))
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().to_string(),
                    std::fs::read_to_string(e.path()).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let single_pages = pages("single");
    assert_eq!(single_pages.len(), 1, "11 creatures × 2 clips fit a page");
    assert_eq!(single_pages, pages("merged"));
    let index = std::fs::read_to_string(grid.path("single/index.html")).unwrap();
    assert!(index.contains(r#"href="pages/000001.html""#), "{index}");
    // The head line and one line per creature.
    assert_eq!(single_pages[0].1.matches("<tr><th>").count(), 1 + 11);

    // A shard left out, a shard given twice: refused, and no report.
    let err = String::from_utf8_lossy(&grid.merge(&shards[..3], "bad").stderr).to_string();
    assert!(
        err.contains("shard.index") && err.contains("3/4 is missing"),
        "{err}"
    );
    assert!(!grid.path("bad/summary.json").exists());
    let err = String::from_utf8_lossy(
        &grid
            .merge(&["shard0", "shard1", "shard1", "shard2", "shard3"], "bad")
            .stderr,
    )
    .to_string();
    assert!(
        err.contains("shard.index") && err.contains("shard1"),
        "{err}"
    );

    // A shard cut short (its last line half written, or no `end` line).
    let cut = grid.path("cut");
    std::fs::create_dir_all(&cut).unwrap();
    let text = std::fs::read_to_string(grid.path("shard2/cells.jsonl")).unwrap();
    std::fs::write(cut.join("cells.jsonl"), &text[..text.len() - 20]).unwrap();
    let err = fail_merge(&grid, &["shard0", "shard1", "cut", "shard3"]);
    assert!(
        err.contains("cut/cells.jsonl") && err.contains("cut short"),
        "{err}"
    );
    let without_end: String = text
        .lines()
        .take(text.lines().count() - 1)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(cut.join("cells.jsonl"), without_end).unwrap();
    let err = fail_merge(&grid, &["shard0", "shard1", "cut", "shard3"]);
    assert!(
        err.contains("cut/cells.jsonl") && err.contains("end_cells"),
        "{err}"
    );

    // A cell given twice (copied into another shard's file).
    let dup = grid.path("dup");
    std::fs::create_dir_all(&dup).unwrap();
    let mut lines: Vec<String> = std::fs::read_to_string(grid.path("shard3/cells.jsonl"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let stolen = text.lines().nth(1).unwrap().to_string();
    let mut end: Value = serde_json::from_str(&lines.pop().unwrap()).unwrap();
    end["end_cells"] = (end["end_cells"].as_u64().unwrap() + 1).into();
    // Appended at the end, the cell is out of the file's order…
    let mut appended = lines.clone();
    appended.push(stolen.clone());
    appended.push(end.to_string());
    std::fs::write(dup.join("cells.jsonl"), appended.join("\n") + "\n").unwrap();
    let err = fail_merge(&grid, &["shard0", "shard1", "shard2", "dup"]);
    assert!(
        err.contains("dup/cells.jsonl") && err.contains("out of order") && err.contains("creature"),
        "{err}"
    );
    // …and in its place, a duplicate of shard2's.
    let key = |l: &str| {
        let v: Value = serde_json::from_str(l).unwrap();
        (v["creature"].as_u64().unwrap(), v["row"].as_u64().unwrap())
    };
    let at = 1 + lines[1..]
        .iter()
        .position(|l| key(l) > key(&stolen))
        .unwrap_or(lines.len() - 1);
    lines.insert(at, stolen);
    lines.push(end.to_string());
    std::fs::write(dup.join("cells.jsonl"), lines.join("\n") + "\n").unwrap();
    let err = fail_merge(&grid, &["shard0", "shard1", "shard2", "dup"]);
    assert!(
        err.contains("duplicate cell") && err.contains("creature") && err.contains("shard2"),
        "{err}"
    );

    // A shard of another grid (other thresholds).
    std::fs::write(
        grid.path("strict.validation.json"),
        r#"{ "format": "anymorph-validation", "version": 1, "fps": 30, "variants_per_cell": 4,
             "walk_speed_legs": 0.8, "goal_error": 0.1, "bone_stretch": 0.1, "foot_slip": 0.02,
             "ground_penetration": 0.02, "interpenetration": 0.75, "jitter": 0.01 }"#,
    )
    .unwrap();
    let strict = grid.s("strict.validation.json");
    grid.validate("other1", &["--shard", "1/4", "--config", &strict]);
    let err = fail_merge(&grid, &["shard0", "other1", "shard2", "shard3"]);
    assert!(
        err.contains("other1/cells.jsonl") && err.contains("grid"),
        "{err}"
    );
    assert!(!grid.path("bad/summary.json").exists() && !grid.path("bad/index.html").exists());
}

fn fail_merge(grid: &Grid, shards: &[&str]) -> String {
    let out = grid.merge(shards, "bad");
    assert!(!out.status.success(), "{shards:?} merged");
    let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!grid.path("bad/summary.json").exists());
    err
}

#[test]
fn a_bad_shard_option_is_a_one_line_error_naming_it() {
    for bad in ["0/0", "5/4", "4/4", "x/y", "3", "-1/4"] {
        let err = fail(&[
            "validate",
            "--clips",
            "assets/clips",
            "--creatures",
            "sample_creatures",
            "--report",
            "/nonexistent/never-written",
            "--shard",
            bad,
        ]);
        assert!(err.contains("--shard"), "{bad}: {err}");
        assert!(err.contains(bad), "{bad}: {err}");
    }
}

/// A cells file whose header claims an impossible shard is refused, not indexed.
#[test]
fn a_header_with_an_impossible_shard_is_refused() {
    let grid = Grid::new();
    grid.validate("s", &["--shard", "0/2"]);
    let text = std::fs::read_to_string(grid.path("s/cells.jsonl")).unwrap();
    for bad in [
        r#""shard":{"index":5,"count":2}"#,
        r#""shard":{"index":0,"count":0}"#,
    ] {
        std::fs::write(
            grid.path("s/cells.jsonl"),
            text.replacen(r#""shard":{"index":0,"count":2}"#, bad, 1),
        )
        .unwrap();
        let err = fail_merge(&grid, &["s"]);
        assert!(
            err.contains("s/cells.jsonl:1") && err.contains("shard"),
            "{err}"
        );
    }
}
