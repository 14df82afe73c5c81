//! The validation report: `summary.json` for scripts and `index.html` for testers — the grid
//! of Figure 9, cells coloured by the failing check, each with a picture of the worst moment.

use super::{CellReport, Check, ValidationConfig};
use crate::io::{SaveError, atomic};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The numbers of a run: what `summary.json` holds.
pub fn summary(cells: &[CellReport], config: &ValidationConfig) -> Value {
    let bound: Vec<&CellReport> = cells.iter().filter(|c| c.binds()).collect();
    let passed = bound.iter().filter(|c| c.passed()).count();
    let mut by_check: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for c in &bound {
        for v in &c.variants {
            for f in &v.failures {
                *by_check.entry(f.check.name()).or_default() += 1;
                failures.push(json!({
                    "clip": c.clip, "creature": c.creature, "variant": v.variant,
                    "variant_label": v.label, "check": f.check, "time": f.time_secs,
                    "body": f.body, "other": f.other, "value": f.value, "limit": f.limit,
                    "walking": f.walking,
                }));
            }
        }
    }
    let nan = failures.iter().filter(|f| f["check"] == "nan").count();
    json!({
        "cells": bound.len(),
        "passed": passed,
        "pass_rate": if bound.is_empty() { 1.0 } else { passed as f64 / bound.len() as f64 },
        "not_bound": cells.len() - bound.len(),
        "nan": nan,
        "failures_by_check": by_check,
        "failures": failures,
        "config": config,
    })
}

/// The file a cell's thumbnail is written to, relative to the report folder.
pub fn thumbnail_name(cell: &CellReport) -> String {
    let clean = |s: &str| {
        s.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect::<String>()
    };
    format!(
        "thumbs/{}__{}.png",
        clean(&cell.clip),
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
    let mut clips: Vec<&str> = Vec::new();
    let mut creatures: Vec<&str> = Vec::new();
    for c in cells {
        if !clips.contains(&c.clip.as_str()) {
            clips.push(&c.clip);
        }
        if !creatures.contains(&c.creature.as_str()) {
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
td img {{ width: 72px; height: 72px; display: block; margin: auto; }}
.legend span {{ display: inline-block; padding: 2px 6px; margin: 2px; }}
</style></head><body>
<h1>Validation grid</h1>
<p>{cells} cells (clip × creature where the clip binds), {passed} passed: <b>{rate:.1}%</b>. {na} cells do not bind (grey). NaN in {nan} variants.</p>
"#,
        cells = summary["cells"],
        passed = summary["passed"],
        rate = summary["pass_rate"].as_f64().unwrap_or(0.0) * 100.0,
        na = summary["not_bound"],
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
    out.push_str("<table><tr><th>clip \\ creature</th>");
    for cr in &creatures {
        let _ = write!(out, r#"<th class="creature">{}</th>"#, escape(cr));
    }
    out.push_str("</tr>");
    for clip in &clips {
        let _ = write!(out, "<tr><th>{}</th>", escape(clip));
        for cr in &creatures {
            let Some(cell) = cells.iter().find(|c| c.clip == *clip && c.creature == *cr) else {
                out.push_str("<td></td>");
                continue;
            };
            if let Some(reason) = &cell.reason {
                let _ = write!(out, r#"<td class="na" title="{}">–</td>"#, escape(reason));
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
            out.push_str("</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</table></body></html>\n");
    out
}

/// Writes `summary.json` and `index.html` into `dir` (created if missing). The pictures, if
/// any, are already in `dir/thumbs/`.
/// A file the grid could not read: left out of the run, named in the report.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Unreadable {
    pub file: String,
    /// The loader's one-line error.
    pub error: String,
}

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
        crate::io::json::to_pretty_json(&s).as_bytes(),
    )?;
    atomic::write_atomic(
        &dir.join("index.html"),
        html(cells, &s, thumbnails).as_bytes(),
    )?;
    Ok(s)
}
