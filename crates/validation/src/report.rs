//! The validation report: `summary.json` for scripts and `index.html` for testers — the grid
//! of Figure 9, cells coloured by the failing check, each with a picture of the worst moment.

use super::{CellReport, Check, ValidationConfig};
use anymorph_io::{SaveError, atomic};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

/// The numbers of a run: what `summary.json` holds. `pass_rate` is over the cells that count
/// ([`CellReport::counts`]): in a grid of clips the cells where the clip binds, in a grid of
/// actions every cell the action's intent does not leave out. `bound_rate` is the share of
/// cells (less the left-out ones) where something plays.
pub fn summary(cells: &[CellReport], config: &ValidationConfig) -> Value {
    let counted: Vec<&CellReport> = cells.iter().filter(|c| c.counts()).collect();
    let passed = counted.iter().filter(|c| c.passed()).count();
    let expected = cells.iter().filter(|c| !c.excluded).count();
    let bound = cells.iter().filter(|c| !c.excluded && c.binds()).count();
    let mut by_check: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for c in cells.iter().filter(|c| c.binds()) {
        for v in &c.variants {
            for f in &v.failures {
                *by_check.entry(f.check.name()).or_default() += 1;
                let mut row = json!({
                    "clip": c.clip, "creature": c.creature, "variant": v.variant,
                    "variant_label": v.label, "check": f.check, "time": f.time_secs,
                    "body": f.body, "other": f.other, "value": f.value, "limit": f.limit,
                    "walking": f.walking,
                });
                if let Some(a) = &c.action {
                    row["action"] = json!(a);
                }
                failures.push(row);
            }
        }
    }
    let by_action = cells.iter().any(|c| c.action.is_some());
    let no_branch: Vec<Value> = cells
        .iter()
        .filter(|c| c.action.is_some() && c.counts() && !c.binds())
        .map(|c| json!({ "action": c.action, "creature": c.creature, "reason": c.reason }))
        .collect();
    // Per row: how many creatures it plays on, which branch played how often, how many the
    // intent leaves out — the figures an animator reads first about an action.
    let mut by_row: Vec<(&str, Value)> = Vec::new();
    for c in cells {
        let i = match by_row.iter().position(|(r, _)| *r == c.row()) {
            Some(i) => i,
            None => {
                by_row.push((
                    c.row(),
                    json!({ "name": c.row(), "cells": 0, "plays": 0, "passed": 0,
                            "left_out": 0, "branches": {} }),
                ));
                by_row.len() - 1
            }
        };
        let row = &mut by_row[i].1;
        let bump = |row: &mut Value, key: &str| {
            row[key] = json!(row[key].as_u64().unwrap_or(0) + 1);
        };
        bump(row, "cells");
        if c.excluded {
            bump(row, "left_out");
        }
        if c.binds() {
            bump(row, "plays");
            if c.action.is_some() {
                let n = row["branches"][&c.clip].as_u64().unwrap_or(0);
                row["branches"][&c.clip] = json!(n + 1);
            }
        }
        if c.counts() && c.passed() {
            bump(row, "passed");
        }
    }
    let nan = failures.iter().filter(|f| f["check"] == "nan").count();
    let rate = |n: usize, of: usize| if of == 0 { 1.0 } else { n as f64 / of as f64 };
    json!({
        "rows": if by_action { "actions" } else { "clips" },
        "cells": counted.len(),
        "passed": passed,
        "pass_rate": rate(passed, counted.len()),
        "bound_rate": rate(bound, expected),
        "not_bound": cells.len() - cells.iter().filter(|c| c.binds()).count(),
        "left_out": cells.len() - expected,
        "no_branch": no_branch,
        "by_row": by_row.into_iter().map(|(_, v)| v).collect::<Vec<Value>>(),
        "nan": nan,
        "failures_by_check": by_check,
        "failures": failures,
        "config": config,
    })
}

/// A cell where no branch of an action plays: a failure of its own kind, not a check's.
const NO_BRANCH_COLOUR: &str = "#b07cc6";

/// The file a cell's thumbnail is written to, relative to the report folder.
pub fn thumbnail_name(cell: &CellReport) -> String {
    let clean = |s: &str| {
        s.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect::<String>()
    };
    format!(
        "thumbs/{}__{}.png",
        clean(cell.row()),
        clean(&cell.creature)
    )
}

/// The colour of a cell failing `check` (`None`: passing), 8-bit sRGB. The HTML report and
/// the editor's grid share it so a tester reads both the same way.
pub fn check_rgb(check: Option<Check>) -> [u8; 3] {
    match check {
        None => [0xcd, 0xec, 0xcd],
        Some(Check::Nan) => [0xff, 0x4d, 0x4d],
        Some(Check::GoalError) => [0xff, 0xb3, 0x66],
        Some(Check::BoneStretch) => [0xff, 0x80, 0x80],
        Some(Check::FootSlip) => [0xff, 0xd9, 0x66],
        Some(Check::GroundPenetration) => [0xc9, 0xa0, 0xff],
        Some(Check::Interpenetration) => [0x80, 0xc4, 0xff],
        Some(Check::Jitter) => [0xff, 0x99, 0xdd],
    }
}

fn colour(check: Option<Check>) -> String {
    let [r, g, b] = check_rgb(check);
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Which cells have a picture, and why some or all have none.
pub struct Thumbnails<'a> {
    pub has: &'a dyn Fn(&CellReport) -> bool,
    /// Shown above the grid, e.g. that no pictures were rendered and why.
    pub note: Option<String>,
}

impl Thumbnails<'_> {
    /// No pictures, for the given reason.
    pub fn none(note: impl Into<String>) -> Thumbnails<'static> {
        Thumbnails {
            has: &|_| false,
            note: Some(note.into()),
        }
    }
}

/// The grid as a standalone HTML page.
pub fn html(cells: &[CellReport], summary: &Value, thumbnails: &Thumbnails) -> String {
    let has_thumbnail = thumbnails.has;
    let by_action = cells.iter().any(|c| c.action.is_some());
    let mut rows: Vec<&str> = Vec::new();
    let mut creatures: Vec<&str> = Vec::new();
    let (mut seen_rows, mut seen_creatures) = (HashSet::new(), HashSet::new());
    for c in cells {
        if seen_rows.insert(c.row()) {
            rows.push(c.row());
        }
        if seen_creatures.insert(c.creature.as_str()) {
            creatures.push(&c.creature);
        }
    }
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<!doctype html><html><head><meta charset="utf-8"><title>Anymorph validation grid</title>
<style>
body {{ font-family: sans-serif; margin: 1em; }}
table {{ border-collapse: collapse; font-size: 11px; }}
th, td {{ border: 1px solid #999; padding: 2px; text-align: center; vertical-align: top; }}
th.creature {{ writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; }}
td.na {{ background: #e4e4e4; color: #777; }}
td.nobranch {{ background: {nobranch}; }}
td img {{ width: 72px; height: 72px; display: block; margin: auto; }}
.legend span {{ display: inline-block; padding: 2px 6px; margin: 2px; }}
</style></head><body>
<h1>Validation grid</h1>
<p>{what}, {passed} passed: <b>{rate:.1}%</b>. {na}. Something plays in {bound:.1}% of the cells. NaN in {nan} variants.</p>
"#,
        nobranch = NO_BRANCH_COLOUR,
        what = if by_action {
            format!(
                "{} cells (action × creature, less those the action leaves out)",
                summary["cells"]
            )
        } else {
            format!(
                "{} cells (clip × creature where the clip binds)",
                summary["cells"]
            )
        },
        na = if by_action {
            format!(
                "{} cells play no branch (a failure, marked “no branch”); {} are left out by the action's intent (grey)",
                summary["no_branch"].as_array().map_or(0, |a| a.len()),
                summary["left_out"]
            )
        } else {
            format!("{} cells do not bind (grey)", summary["not_bound"])
        },
        bound = summary["bound_rate"].as_f64().unwrap_or(0.0) * 100.0,
        passed = summary["passed"],
        rate = summary["pass_rate"].as_f64().unwrap_or(0.0) * 100.0,
        nan = summary["nan"],
    );
    if let Some(note) = &thumbnails.note {
        let _ = write!(out, r#"<p class="note"><i>{}</i></p>"#, escape(note));
    }
    if let Some(files) = summary["unreadable"].as_array().filter(|f| !f.is_empty()) {
        let _ = write!(
            out,
            r#"<h2>Left out: {} file(s) could not be read</h2><ul class="unreadable">"#,
            files.len()
        );
        for f in files {
            let _ = write!(
                out,
                "<li><code>{}</code>: {}</li>",
                escape(f["file"].as_str().unwrap_or("")),
                escape(f["error"].as_str().unwrap_or(""))
            );
        }
        out.push_str("</ul>");
    }
    out.push_str(r#"<p class="legend">"#);
    let _ = write!(
        out,
        r#"<span style="background:{}">pass</span>"#,
        colour(None)
    );
    for c in Check::ALL {
        let _ = write!(
            out,
            r#"<span style="background:{}">{}</span>"#,
            colour(Some(c)),
            c.name()
        );
    }
    out.push_str(
        r#"</p><p class="note">In a picture the body that failed is red, and the body it sank into (interpenetration) orange.</p>"#,
    );
    out.push_str(if by_action {
        "<table><tr><th>action \\ creature</th>"
    } else {
        "<table><tr><th>clip \\ creature</th>"
    });
    for cr in &creatures {
        let _ = write!(out, r#"<th class="creature">{}</th>"#, escape(cr));
    }
    out.push_str("</tr>");
    // The first cell of each row and creature, found by name once rather than by a search of
    // every cell per table entry (a grid of 10⁵ cells would take minutes).
    let mut first: HashMap<(&str, &str), &CellReport> = HashMap::with_capacity(cells.len());
    for c in cells {
        first.entry((c.row(), c.creature.as_str())).or_insert(c);
    }
    for row in &rows {
        let _ = write!(out, "<tr><th>{}</th>", escape(row));
        for cr in &creatures {
            let Some(&cell) = first.get(&(*row, *cr)) else {
                out.push_str("<td></td>");
                continue;
            };
            if let Some(reason) = &cell.reason {
                let class = if cell.counts() { "nobranch" } else { "na" };
                let mark = if cell.counts() { "no branch" } else { "–" };
                let _ = write!(
                    out,
                    r#"<td class="{class}" title="{}">{mark}</td>"#,
                    escape(reason)
                );
                continue;
            }
            let worst = cell.worst();
            let title = match worst {
                None => format!(
                    "passes in {} of {} variants checked",
                    cell.variants.len(),
                    cell.variant_count
                ),
                // Escaped once, with the rest of the title below.
                Some((v, f)) => format!("{}, variant {} ({})", f.describe(), v.variant, v.label),
            };
            let _ = write!(
                out,
                r#"<td style="background:{}" title="{}">"#,
                colour(worst.map(|(_, f)| f.check)),
                escape(&title)
            );
            if has_thumbnail(cell) {
                let _ = write!(out, r#"<img src="{}" alt="">"#, thumbnail_name(cell));
            }
            match worst {
                None => out.push('✓'),
                Some((_, f)) => {
                    let _ = write!(out, "{}", f.check.name());
                }
            }
            if cell.action.is_some() {
                // The branch that played, for the tester who wonders why a snake "waves".
                let _ = write!(out, "<br><small>{}</small>", escape(&cell.clip));
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</table></body></html>\n");
    out
}

/// A file the grid could not read: left out of the run, named in the report.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Unreadable {
    pub file: String,
    /// The loader's one-line error.
    pub error: String,
}

/// Writes `summary.json` and `index.html` into `dir` (created if missing). The pictures, if
/// any, are already in `dir/thumbs/`.
pub fn write(
    dir: &Path,
    cells: &[CellReport],
    config: &ValidationConfig,
    thumbnails: &Thumbnails,
    unreadable: &[Unreadable],
) -> Result<Value, SaveError> {
    let err = |source| SaveError {
        path: dir.display().to_string(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(err)?;
    let mut s = summary(cells, config);
    s["unreadable"] = json!(unreadable);
    s["thumbnails"] = json!({
        "rendered": cells.iter().filter(|c| (thumbnails.has)(c)).count(),
        "note": thumbnails.note,
    });
    atomic::write_atomic(
        &dir.join("summary.json"),
        anymorph_io::json::to_pretty_json(&s).as_bytes(),
    )?;
    atomic::write_atomic(
        &dir.join("index.html"),
        html(cells, &s, thumbnails).as_bytes(),
    )?;
    Ok(s)
}

/// Writes the report of a merged grid ([`crate::cells::merge`]; a single run is a merge of
/// its one shard) into `dir`: what [`write`] writes for the same cells in the same order.
/// The pictures, if any, are already in `dir/thumbs/`.
pub fn write_merged(dir: &Path, merged: crate::cells::Merged) -> Result<Value, SaveError> {
    let mut pictures: HashSet<String> = HashSet::new();
    let mut cells = Vec::with_capacity(merged.cells.len());
    for c in merged.cells {
        if c.thumbnail {
            pictures.insert(thumbnail_name(&c.report));
        }
        cells.push(c.report);
    }
    let has = |c: &CellReport| !pictures.is_empty() && pictures.contains(&thumbnail_name(c));
    let thumbnails = Thumbnails {
        has: &has,
        note: merged.thumbnails_note,
    };
    write(
        dir,
        &cells,
        &merged.header.config,
        &thumbnails,
        &merged.unreadable,
    )
}
