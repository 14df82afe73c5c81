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
    let mut s = SummaryBuilder::default();
    for c in cells {
        s.add(c);
    }
    s.finish(config)
}

/// [`summary`] a cell at a time, so a grid's cells need not all be in memory: it keeps the
/// counts, the failures and the per-row figures.
#[derive(Default)]
pub struct SummaryBuilder {
    cells: usize,
    counted: usize,
    passed: usize,
    expected: usize,
    bound: usize,
    binds: usize,
    by_action: bool,
    by_check: BTreeMap<&'static str, usize>,
    failures: Vec<Value>,
    no_branch: Vec<Value>,
    by_row: Vec<Value>,
    row_of: HashMap<String, usize>,
}

impl SummaryBuilder {
    pub fn add(&mut self, c: &CellReport) {
        self.cells += 1;
        if c.counts() {
            self.counted += 1;
            if c.passed() {
                self.passed += 1;
            }
        }
        if !c.excluded {
            self.expected += 1;
            if c.binds() {
                self.bound += 1;
            }
        }
        if c.binds() {
            self.binds += 1;
            for v in &c.variants {
                for f in &v.failures {
                    *self.by_check.entry(f.check.name()).or_default() += 1;
                    let mut row = json!({
                        "clip": c.clip, "creature": c.creature, "variant": v.variant,
                        "variant_label": v.label, "check": f.check, "time": f.time_secs,
                        "body": f.body, "other": f.other, "value": f.value, "limit": f.limit,
                        "walking": f.walking,
                    });
                    if let Some(a) = &c.action {
                        row["action"] = json!(a);
                    }
                    self.failures.push(row);
                }
            }
        }
        self.by_action |= c.action.is_some();
        if c.action.is_some() && c.counts() && !c.binds() {
            self.no_branch
                .push(json!({ "action": c.action, "creature": c.creature, "reason": c.reason }));
        }
        // Per row: how many creatures it plays on, which branch played how often, how many
        // the intent leaves out — the figures an animator reads first about an action.
        let i = match self.row_of.get(c.row()) {
            Some(&i) => i,
            None => {
                self.by_row
                    .push(json!({ "name": c.row(), "cells": 0, "plays": 0,
                    "passed": 0, "left_out": 0, "branches": {} }));
                self.row_of
                    .insert(c.row().to_string(), self.by_row.len() - 1);
                self.by_row.len() - 1
            }
        };
        let row = &mut self.by_row[i];
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

    pub fn finish(self, config: &ValidationConfig) -> Value {
        let nan = self.failures.iter().filter(|f| f["check"] == "nan").count();
        let rate = |n: usize, of: usize| if of == 0 { 1.0 } else { n as f64 / of as f64 };
        json!({
            "rows": if self.by_action { "actions" } else { "clips" },
            "cells": self.counted,
            "passed": self.passed,
            "pass_rate": rate(self.passed, self.counted),
            "bound_rate": rate(self.bound, self.expected),
            "not_bound": self.cells - self.binds,
            "left_out": self.cells - self.expected,
            "no_branch": self.no_branch,
            "by_row": self.by_row,
            "nan": nan,
            "failures_by_check": self.by_check,
            "failures": self.failures,
            "config": config,
        })
    }
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
    // The first cell of each row and creature, found by name once rather than by a search of
    // every cell per table entry (a grid of 10⁵ cells would take minutes).
    let mut first: HashMap<(&str, &str), &CellReport> = HashMap::with_capacity(cells.len());
    for c in cells {
        first.entry((c.row(), c.creature.as_str())).or_insert(c);
    }
    let table = Table {
        by_action,
        rows: &rows,
        creatures: &creatures,
    };
    let mut out = Vec::new();
    let _ = write_html(&mut out, summary, thumbnails, &table, &mut |r, k| {
        Ok(first.get(&(rows[r], creatures[k])).map(|c| (*c).clone()))
    });
    String::from_utf8(out).unwrap_or_default()
}

/// How much of the page [`write_html`] holds before writing it out.
const FLUSH_BYTES: usize = 64 * 1024;

/// The shape of the grid's table: its rows and creature columns, each name once.
pub struct Table<'a> {
    pub by_action: bool,
    pub rows: &'a [&'a str],
    pub creatures: &'a [&'a str],
}

/// [`html`] written as it goes: `cell_at(row, column)` gives each table entry's cell in
/// table order (row by row), so the cells need not all be in memory.
pub fn write_html(
    to: &mut dyn std::io::Write,
    summary: &Value,
    thumbnails: &Thumbnails,
    table: &Table,
    cell_at: &mut dyn FnMut(usize, usize) -> std::io::Result<Option<CellReport>>,
) -> std::io::Result<()> {
    let has_thumbnail = thumbnails.has;
    let by_action = table.by_action;
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
    for cr in table.creatures {
        let _ = write!(out, r#"<th class="creature">{}</th>"#, escape(cr));
        if out.len() > FLUSH_BYTES {
            to.write_all(out.as_bytes())?;
            out.clear();
        }
    }
    out.push_str("</tr>");
    to.write_all(out.as_bytes())?;
    for (r, row) in table.rows.iter().enumerate() {
        let mut out = String::new();
        let _ = write!(out, "<tr><th>{}</th>", escape(row));
        for k in 0..table.creatures.len() {
            let Some(cell) = cell_at(r, k)? else {
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
            if has_thumbnail(&cell) {
                let _ = write!(out, r#"<img src="{}" alt="">"#, thumbnail_name(&cell));
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
            // A row of 10⁵ creatures is megabytes: it goes out in pieces.
            if out.len() > FLUSH_BYTES {
                to.write_all(out.as_bytes())?;
                out.clear();
            }
        }
        out.push_str("</tr>");
        to.write_all(out.as_bytes())?;
    }
    to.write_all(b"</table></body></html>\n")
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
/// its one shard) into `dir`: what [`write`] writes for the same cells in the same order,
/// reading the cells back from their files twice (once for the summary, once for the page)
/// rather than holding them. The pictures, if any, are already in `dir/thumbs/`.
pub fn write_merged(dir: &Path, merged: &crate::cells::Merged) -> Result<Value, SaveError> {
    let err = |source| SaveError {
        path: dir.display().to_string(),
        source,
    };
    let read_err = |e: anymorph_io::LoadError| err(std::io::Error::other(e.to_string()));
    std::fs::create_dir_all(dir).map_err(err)?;
    let pictures: HashSet<String> = {
        let mut reader = merged.reader();
        let mut names = HashSet::new();
        for c in merged.cells.iter().filter(|c| c.thumbnail) {
            names.insert(thumbnail_name(&reader.read(c).map_err(read_err)?));
        }
        names
    };
    let has = |c: &CellReport| !pictures.is_empty() && pictures.contains(&thumbnail_name(c));
    let thumbnails = Thumbnails {
        has: &has,
        note: merged.thumbnails_note.clone(),
    };
    let mut summary = SummaryBuilder::default();
    let mut rendered = 0;
    let mut reader = merged.reader();
    for c in &merged.cells {
        let cell = reader.read(c).map_err(read_err)?;
        rendered += usize::from(has(&cell));
        summary.add(&cell);
    }
    let mut s = summary.finish(&merged.header.config);
    s["unreadable"] = json!(merged.unreadable);
    s["thumbnails"] = json!({ "rendered": rendered, "note": thumbnails.note });
    atomic::write_atomic(
        &dir.join("summary.json"),
        anymorph_io::json::to_pretty_json(&s).as_bytes(),
    )?;
    // The table: rows and creatures by name, each once (the first row or creature of a name
    // holds its place, as in `html`); the grid is whole, so a cell's place in the sorted
    // list is row × creatures + creature.
    let first_of = |names: &[&str]| -> Vec<usize> {
        let mut seen = HashSet::new();
        (0..names.len())
            .filter(|&i| seen.insert(names[i]))
            .collect()
    };
    let row_names: Vec<&str> = merged.header.rows.iter().map(String::as_str).collect();
    let creature_names: Vec<&str> = merged.creature_names.iter().map(String::as_str).collect();
    let (row_at, creature_at) = (first_of(&row_names), first_of(&creature_names));
    let rows: Vec<&str> = row_at.iter().map(|&i| row_names[i]).collect();
    let creatures: Vec<&str> = creature_at.iter().map(|&i| creature_names[i]).collect();
    let table = Table {
        by_action: merged.header.rows_kind == "actions",
        rows: &rows,
        creatures: &creatures,
    };
    let n = creature_names.len();
    let path = dir.join("index.html");
    let part = dir.join(".index.html.part");
    let written = (|| -> std::io::Result<()> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&part)?);
        write_html(&mut out, &s, &thumbnails, &table, &mut |r, k| {
            let c = &merged.cells[row_at[r] * n + creature_at[k]];
            reader
                .read(c)
                .map(Some)
                .map_err(|e| std::io::Error::other(e.to_string()))
        })?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&part, &path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&part);
        return Err(SaveError {
            path: path.display().to_string(),
            source: e,
        });
    }
    Ok(s)
}
