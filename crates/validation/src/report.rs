//! The validation report: `summary.json` for scripts and `index.html` for testers — the grid
//! of Figure 9, cells coloured by the failing check, each with a picture of the worst moment.

use super::{CellReport, Check, ValidationConfig};
use anymorph_io::SaveError;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::BufRead as _;
use std::path::{Path, PathBuf};

/// The numbers of a run: what `summary.json` holds. `pass_rate` is over the cells that count
/// ([`CellReport::counts`]): in a grid of clips the cells where the clip binds, in a grid of
/// actions every cell the action's intent does not leave out. `bound_rate` is the share of
/// cells (less the left-out ones) where something plays.
pub fn summary(cells: &[CellReport], config: &ValidationConfig) -> Value {
    let mut s = SummaryBuilder::default();
    for c in cells {
        s.add(c);
    }
    let mut out = Vec::new();
    match s.write(config, Map::new(), &mut out) {
        Ok(_) => serde_json::from_slice(&out).unwrap_or(Value::Null),
        Err(_) => Value::Null,
    }
}

/// Lines of compact JSON, one per entry of a list of `summary.json` that grows with the cells
/// (`failures`, `no_branch`): in memory for a small grid, in a file beside the report for a
/// streamed one, so the report's memory does not grow with the cells.
enum Spool {
    Memory(Vec<u8>),
    File {
        path: PathBuf,
        out: Option<std::io::BufWriter<std::fs::File>>,
    },
}

impl Spool {
    fn file(path: PathBuf) -> std::io::Result<Spool> {
        let out = std::io::BufWriter::new(std::fs::File::create(&path)?);
        Ok(Spool::File {
            path,
            out: Some(out),
        })
    }

    fn push(&mut self, v: &Value) -> std::io::Result<()> {
        let out: &mut dyn std::io::Write = match self {
            Spool::Memory(m) => m,
            Spool::File { out, .. } => match out {
                Some(o) => o,
                None => return Err(std::io::Error::other("the spool is closed")),
            },
        };
        serde_json::to_writer(&mut *out, v)?;
        out.write_all(b"\n")
    }

    /// Bytes held in memory.
    fn held(&self) -> usize {
        match self {
            Spool::Memory(m) => m.capacity(),
            Spool::File { out, .. } => out.as_ref().map_or(0, |o| o.capacity()),
        }
    }

    /// Each line back, in order.
    fn read_back(
        &mut self,
        each: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        match self {
            Spool::Memory(m) => {
                for line in m.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                    each(line)?;
                }
                Ok(())
            }
            Spool::File { path, out } => {
                if let Some(o) = out.take() {
                    o.into_inner().map_err(|e| e.into_error())?;
                }
                let mut input = std::io::BufReader::new(std::fs::File::open(&*path)?);
                let mut line = Vec::new();
                loop {
                    line.clear();
                    if input.read_until(b'\n', &mut line)? == 0 {
                        return Ok(());
                    }
                    if line.last() == Some(&b'\n') {
                        line.pop();
                    }
                    each(&line)?;
                }
            }
        }
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        if let Spool::File { path, out } = self {
            drop(out.take());
            let _ = std::fs::remove_file(&*path);
        }
    }
}

/// [`summary`] a cell at a time, so a grid's cells need not all be in memory: it keeps the
/// counts and the per-row figures (one entry per row of the grid), and spools the lists that
/// grow with the cells (`failures`, `no_branch`) to files when made by
/// [`SummaryBuilder::spooled`].
pub struct SummaryBuilder {
    cells: usize,
    counted: usize,
    passed: usize,
    expected: usize,
    bound: usize,
    binds: usize,
    nan: usize,
    by_action: bool,
    by_check: BTreeMap<&'static str, usize>,
    failures: Spool,
    no_branch: Spool,
    no_branch_cells: usize,
    by_row: Vec<Value>,
    row_of: HashMap<String, usize>,
    /// The first error writing a spool, returned by [`SummaryBuilder::write`].
    error: Option<std::io::Error>,
}

impl Default for SummaryBuilder {
    fn default() -> Self {
        SummaryBuilder::with(Spool::Memory(Vec::new()), Spool::Memory(Vec::new()))
    }
}

impl SummaryBuilder {
    fn with(failures: Spool, no_branch: Spool) -> SummaryBuilder {
        SummaryBuilder {
            cells: 0,
            counted: 0,
            passed: 0,
            expected: 0,
            bound: 0,
            binds: 0,
            nan: 0,
            by_action: false,
            by_check: BTreeMap::new(),
            failures,
            no_branch,
            no_branch_cells: 0,
            by_row: Vec::new(),
            row_of: HashMap::new(),
            error: None,
        }
    }

    /// A builder whose lists go to files in `dir` (removed when it is dropped).
    pub fn spooled(dir: &Path) -> std::io::Result<SummaryBuilder> {
        Ok(SummaryBuilder::with(
            Spool::file(dir.join(".failures.part"))?,
            Spool::file(dir.join(".no_branch.part"))?,
        ))
    }

    /// Bytes the builder holds in memory, roughly: the per-row figures and the spools'
    /// buffers (all of the lists when not spooled).
    pub fn held(&self) -> usize {
        let rows: usize = self
            .by_row
            .iter()
            .map(|r| 64 + r.to_string().len())
            .sum::<usize>()
            + self.row_of.keys().map(|k| k.len() + 32).sum::<usize>();
        rows + self.failures.held() + self.no_branch.held() + self.by_check.len() * 32
    }

    fn spool(&mut self, to_failures: bool, v: &Value) {
        let spool = if to_failures {
            &mut self.failures
        } else {
            &mut self.no_branch
        };
        if let Err(e) = spool.push(v)
            && self.error.is_none()
        {
            self.error = Some(e);
        }
    }

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
                    if f.check == Check::Nan {
                        self.nan += 1;
                    }
                    let mut row = json!({
                        "clip": c.clip, "creature": c.creature, "variant": v.variant,
                        "variant_label": v.label, "check": f.check, "time": f.time_secs,
                        "body": f.body, "other": f.other, "value": f.value, "limit": f.limit,
                        "walking": f.walking,
                    });
                    if let Some(a) = &c.action {
                        row["action"] = json!(a);
                    }
                    self.spool(true, &row);
                }
            }
        }
        self.by_action |= c.action.is_some();
        if c.action.is_some() && c.counts() && !c.binds() {
            self.no_branch_cells += 1;
            self.spool(
                false,
                &json!({ "action": c.action, "creature": c.creature, "reason": c.reason }),
            );
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

    /// Writes `summary.json` (its fields, then `extra`'s, e.g. `unreadable` and `thumbnails`)
    /// to `out`, the lists streamed from their spools: the text is what
    /// [`anymorph_io::json::to_pretty_json`] makes of the whole document. Returns the
    /// summary without its two lists (`failures`, `no_branch`), with their lengths as
    /// `failure_count` and `no_branch_cells` instead, for the page and the console.
    pub fn write(
        mut self,
        config: &ValidationConfig,
        extra: Map<String, Value>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<Value> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        const FAILURES: &str = "\u{1}anymorph-spool-failures\u{1}";
        const NO_BRANCH: &str = "\u{1}anymorph-spool-no-branch\u{1}";
        let rate = |n: usize, of: usize| if of == 0 { 1.0 } else { n as f64 / of as f64 };
        let mut head = json!({
            "rows": if self.by_action { "actions" } else { "clips" },
            "cells": self.counted,
            "passed": self.passed,
            "pass_rate": rate(self.passed, self.counted),
            "bound_rate": rate(self.bound, self.expected),
            "not_bound": self.cells - self.binds,
            "left_out": self.cells - self.expected,
            "no_branch": NO_BRANCH,
            "by_row": std::mem::take(&mut self.by_row),
            "nan": self.nan,
            "failures_by_check": self.by_check,
            "failures": FAILURES,
            "config": config,
        });
        if let Some(map) = head.as_object_mut() {
            map.extend(extra);
        }
        let text = anymorph_io::json::to_pretty_json(&head);
        // The two lists, written where their markers are (a key's value: a marker inside a
        // string of the data would be escaped differently, `\u0001`).
        let mut rest = text.as_str();
        let marks = [
            (
                format!("\"no_branch\": {}", serde_json::to_string(NO_BRANCH)?),
                0,
            ),
            (
                format!("\"failures\": {}", serde_json::to_string(FAILURES)?),
                1,
            ),
        ];
        for (mark, which) in &marks {
            let Some(at) = rest.find(mark.as_str()) else {
                return Err(std::io::Error::other("summary: a list's marker is missing"));
            };
            let key_len = mark.find(": ").map_or(0, |k| k + 2);
            out.write_all(&rest.as_bytes()[..at + key_len])?;
            rest = &rest[at + mark.len()..];
            let spool = if *which == 0 {
                &mut self.no_branch
            } else {
                &mut self.failures
            };
            let mut first = true;
            spool.read_back(&mut |line| {
                let v: Value = serde_json::from_slice(line).map_err(std::io::Error::other)?;
                out.write_all(if first { b"[\n" } else { b",\n" })?;
                first = false;
                for (i, l) in anymorph_io::json::to_pretty_json(&v).lines().enumerate() {
                    if i > 0 {
                        out.write_all(b"\n")?;
                    }
                    out.write_all(b"    ")?;
                    out.write_all(l.as_bytes())?;
                }
                Ok(())
            })?;
            out.write_all(if first { &b"[]"[..] } else { &b"\n  ]"[..] })?;
        }
        out.write_all(rest.as_bytes())?;
        if let Some(map) = head.as_object_mut() {
            map.remove("no_branch");
            map.remove("failures");
            map.insert("no_branch_cells".into(), json!(self.no_branch_cells));
        }
        Ok(head)
    }
}

/// Cells where no branch plays, from a summary as [`summary`] or [`write_merged`] returns it.
pub fn no_branch_cells(summary: &Value) -> u64 {
    summary["no_branch_cells"]
        .as_u64()
        .or_else(|| summary["no_branch"].as_array().map(|a| a.len() as u64))
        .unwrap_or(0)
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

/// Cells on a page of the grid's table at most (fewer when a creature's rows do not divide
/// it; at least one creature a page): a page stays a few MB however large the grid, and the
/// first page, `index.html`, holds the figures and links to the pages.
pub const PAGE_CELLS: usize = 5000;

/// The folder of the table's pages, beside `index.html`.
pub const PAGES_DIR: &str = "pages";

/// Creatures on a page of a grid of `rows` rows.
pub fn creatures_per_page(rows: usize) -> u64 {
    (PAGE_CELLS / rows.max(1)).max(1) as u64
}

/// The file of page `page` (0-based), relative to the report folder.
pub fn page_name(page: u64) -> String {
    format!("{PAGES_DIR}/{:06}.html", page + 1)
}

/// How much of a page is held before it is written out.
const FLUSH_BYTES: usize = 64 * 1024;

fn head(out: &mut String, title: &str) {
    let _ = write!(
        out,
        r#"<!doctype html><html><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 1em; }}
table {{ border-collapse: collapse; font-size: 11px; }}
th, td {{ border: 1px solid #999; padding: 2px; text-align: center; vertical-align: top; }}
th.row {{ writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; }}
td.na {{ background: #e4e4e4; color: #777; }}
td.nobranch {{ background: {nobranch}; }}
td img {{ width: 72px; height: 72px; display: block; margin: auto; }}
.legend span {{ display: inline-block; padding: 2px 6px; margin: 2px; }}
</style></head><body>
"#,
        title = escape(title),
        nobranch = NO_BRANCH_COLOUR,
    );
}

fn legend(out: &mut String) {
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
    let _ = write!(
        out,
        r#"<span style="background:{NO_BRANCH_COLOUR}">no branch</span></p>"#
    );
}

/// The table's pages, written as the cells come (creature by creature, each creature's
/// rows in order): a page is a table with a line per creature and a column per row of the
/// grid. Only the page being written is open.
struct Pages {
    /// Where the pages go until the report is whole.
    dir: PathBuf,
    rows: Vec<String>,
    by_action: bool,
    per_page: u64,
    pages: u64,
    creatures: u64,
    open: Option<(u64, std::io::BufWriter<std::fs::File>)>,
    buf: String,
    /// The creature whose line is open, and the next row's column.
    line: Option<(u64, usize)>,
}

impl Pages {
    fn new(dir: PathBuf, rows: Vec<String>, by_action: bool, creatures: u64) -> Pages {
        let per_page = creatures_per_page(rows.len());
        Pages {
            dir,
            rows,
            by_action,
            per_page,
            pages: creatures.div_ceil(per_page),
            creatures,
            open: None,
            buf: String::new(),
            line: None,
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if let Some((_, out)) = &mut self.open {
            use std::io::Write as _;
            out.write_all(self.buf.as_bytes())?;
        }
        self.buf.clear();
        Ok(())
    }

    /// Closes the open creature's line, its missing columns empty.
    fn end_line(&mut self) {
        if let Some((_, next)) = self.line.take() {
            for _ in next..self.rows.len() {
                self.buf.push_str("<td></td>");
            }
            self.buf.push_str("</tr>\n");
        }
    }

    fn close_page(&mut self) -> std::io::Result<()> {
        self.end_line();
        if self.open.is_none() {
            return Ok(());
        }
        self.buf.push_str("</table>");
        let page = self.open.as_ref().map_or(0, |o| o.0);
        self.nav(page);
        self.buf.push_str("</body></html>\n");
        self.flush()?;
        if let Some((_, out)) = self.open.take() {
            out.into_inner().map_err(|e| e.into_error())?;
        }
        Ok(())
    }

    fn nav(&mut self, page: u64) {
        let first = page * self.per_page;
        let last = (first + self.per_page).min(self.creatures);
        let name = |p: u64| page_name(p).trim_start_matches("pages/").to_string();
        let _ = write!(
            self.buf,
            r#"<p class="nav"><a href="../index.html">summary</a> · page {} of {} (creatures {}–{} of {})"#,
            page + 1,
            self.pages.max(1),
            first + 1,
            last,
            self.creatures
        );
        if page > 0 {
            let _ = write!(self.buf, r#" · <a href="{}">previous</a>"#, name(page - 1));
        }
        if page + 1 < self.pages {
            let _ = write!(self.buf, r#" · <a href="{}">next</a>"#, name(page + 1));
        }
        self.buf.push_str("</p>\n");
    }

    fn open_page(&mut self, page: u64) -> std::io::Result<()> {
        self.close_page()?;
        let path = self.dir.join(
            page_name(page)
                .trim_start_matches(PAGES_DIR)
                .trim_start_matches('/'),
        );
        self.open = Some((page, std::io::BufWriter::new(std::fs::File::create(path)?)));
        head(
            &mut self.buf,
            &format!("Anymorph validation grid, page {}", page + 1),
        );
        self.nav(page);
        legend(&mut self.buf);
        self.buf.push_str(if self.by_action {
            "<table><tr><th>creature \\ action</th>"
        } else {
            "<table><tr><th>creature \\ clip</th>"
        });
        for name in &self.rows {
            let _ = write!(self.buf, r#"<th class="row">{}</th>"#, escape(name));
        }
        self.buf.push_str("</tr>\n");
        Ok(())
    }

    /// The cell of row `row` on creature number `creature` (in the stream).
    fn cell(
        &mut self,
        creature: u64,
        row: usize,
        cell: &CellReport,
        thumbnail: bool,
    ) -> std::io::Result<()> {
        let page = creature / self.per_page;
        if self.open.as_ref().map(|o| o.0) != Some(page) {
            self.open_page(page)?;
        }
        if self.line.map(|l| l.0) != Some(creature) {
            self.end_line();
            let _ = write!(self.buf, "<tr><th>{}</th>", escape(&cell.creature));
            self.line = Some((creature, 0));
        }
        let next = self.line.map_or(0, |l| l.1);
        for _ in next..row {
            self.buf.push_str("<td></td>");
        }
        self.line = Some((creature, row + 1));
        let out = &mut self.buf;
        if let Some(reason) = &cell.reason {
            let class = if cell.counts() { "nobranch" } else { "na" };
            let mark = if cell.counts() { "no branch" } else { "–" };
            let _ = write!(
                out,
                r#"<td class="{class}" title="{}">{mark}</td>"#,
                escape(reason)
            );
        } else {
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
            if thumbnail {
                let _ = write!(out, r#"<img src="../{}" alt="">"#, thumbnail_name(cell));
            }
            match worst {
                None => out.push('✓'),
                Some((_, f)) => out.push_str(f.check.name()),
            }
            if cell.action.is_some() {
                // The branch that played, for the tester who wonders why a snake "waves".
                let _ = write!(out, "<br><small>{}</small>", escape(&cell.clip));
            }
            out.push_str("</td>");
        }
        if self.buf.len() > FLUSH_BYTES {
            self.flush()?;
        }
        Ok(())
    }
}

/// The first page: the figures, the per-row table and the links to the table's pages.
fn index_html(summary: &Value, note: Option<&str>, pages: &Pages) -> String {
    let by_action = pages.by_action;
    let mut out = String::new();
    head(&mut out, "Anymorph validation grid");
    let _ = write!(
        out,
        r#"<h1>Validation grid</h1>
<p>{what}, {passed} passed: <b>{rate:.1}%</b>. {na}. Something plays in {bound:.1}% of the cells. NaN in {nan} variants.</p>
"#,
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
                no_branch_cells(summary),
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
    if let Some(note) = note {
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
    if let Some(by) = summary["failures_by_check"]
        .as_object()
        .filter(|b| !b.is_empty())
    {
        out.push_str("<h2>Failures by check (variants)</h2><p>");
        for (check, n) in by {
            let _ = write!(out, "{}: {n}. ", escape(check));
        }
        out.push_str("</p>");
    }
    let _ = writeln!(
        out,
        "<h2>By {}</h2><table><tr><th>{}</th><th>cells</th><th>plays</th><th>passed</th><th>left out</th>{}</tr>",
        if by_action { "action" } else { "clip" },
        if by_action { "action" } else { "clip" },
        if by_action {
            "<th>branches played</th>"
        } else {
            ""
        }
    );
    for row in summary["by_row"].as_array().into_iter().flatten() {
        let _ = write!(
            out,
            "<tr><th>{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            escape(row["name"].as_str().unwrap_or("")),
            row["cells"],
            row["plays"],
            row["passed"],
            row["left_out"]
        );
        if by_action {
            out.push_str("<td>");
            if let Some(branches) = row["branches"].as_object() {
                let list: Vec<String> = branches
                    .iter()
                    .map(|(b, n)| format!("{} × {n}", escape(b)))
                    .collect();
                out.push_str(&list.join(", "));
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>");
    let _ = write!(
        out,
        "<h2>Cells</h2><p>{} creatures × {} {}, {} page(s) of up to {} creatures. In a picture the body that failed is red, and the body it sank into (interpenetration) orange.</p>",
        pages.creatures,
        pages.rows.len(),
        if by_action { "actions" } else { "clips" },
        pages.pages,
        pages.per_page
    );
    legend(&mut out);
    out.push_str(r#"<p class="pages">"#);
    for p in 0..pages.pages {
        let first = p * pages.per_page + 1;
        let last = ((p + 1) * pages.per_page).min(pages.creatures);
        let _ = write!(
            out,
            r#"<a href="{}" title="creatures {first}–{last}">{}</a> "#,
            page_name(p),
            p + 1
        );
    }
    out.push_str("</p></body></html>\n");
    out
}

/// A file the grid could not read: left out of the run, named in the report.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Unreadable {
    pub file: String,
    /// The loader's one-line error.
    pub error: String,
}

/// Writes `summary.json`, `index.html` and the table's pages (`pages/`) into `dir` (created if
/// missing), a cell at a time: [`ReportWriter::cell`] takes the cells in the grid's order
/// (creature by creature, each creature's rows in order) and nothing of a cell is kept but
/// counts, per-row figures and the lists of `summary.json`, spooled to a file. Everything is
/// written beside its place and renamed in at [`ReportWriter::finish`]; dropped unfinished,
/// it leaves the folder as it was.
pub struct ReportWriter {
    dir: PathBuf,
    part: PathBuf,
    summary: SummaryBuilder,
    pages: Pages,
    rendered: usize,
    note: Option<String>,
    finished: bool,
}

impl ReportWriter {
    pub fn create(
        dir: &Path,
        rows_kind: &str,
        rows: Vec<String>,
        creatures: u64,
        thumbnails_note: Option<String>,
    ) -> Result<ReportWriter, SaveError> {
        let err = |source| SaveError {
            path: dir.display().to_string(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(err)?;
        let part = dir.join(format!(".{PAGES_DIR}.part"));
        if part.exists() {
            std::fs::remove_dir_all(&part).map_err(err)?;
        }
        std::fs::create_dir_all(&part).map_err(err)?;
        let summary = SummaryBuilder::spooled(dir).map_err(err)?;
        Ok(ReportWriter {
            dir: dir.to_path_buf(),
            pages: Pages::new(part.clone(), rows, rows_kind == "actions", creatures),
            part,
            summary,
            rendered: 0,
            note: thumbnails_note,
            finished: false,
        })
    }

    /// Bytes held in memory, roughly (see [`SummaryBuilder::held`]).
    pub fn held(&self) -> usize {
        self.summary.held() + self.pages.buf.capacity()
    }

    /// Row `row` on creature number `creature`; `thumbnail`: its picture is in `thumbs/`.
    pub fn cell(
        &mut self,
        creature: u64,
        row: usize,
        cell: &CellReport,
        thumbnail: bool,
    ) -> Result<(), SaveError> {
        self.summary.add(cell);
        self.rendered += usize::from(thumbnail);
        self.pages
            .cell(creature, row, cell, thumbnail)
            .map_err(|source| SaveError {
                path: self.part.display().to_string(),
                source,
            })
    }

    /// Writes `summary.json` and `index.html` and puts the pages in place; the summary as
    /// [`SummaryBuilder::write`] returns it.
    pub fn finish(
        mut self,
        config: &ValidationConfig,
        unreadable: &[Unreadable],
    ) -> Result<Value, SaveError> {
        let dir = self.dir.clone();
        let at = |name: &str| {
            let path = dir.join(name);
            move |source| SaveError {
                path: path.display().to_string(),
                source,
            }
        };
        self.pages.close_page().map_err(at(PAGES_DIR))?;
        let mut extra = Map::new();
        extra.insert("unreadable".into(), json!(unreadable));
        extra.insert(
            "thumbnails".into(),
            json!({ "rendered": self.rendered, "note": self.note }),
        );
        let summary_part = dir.join(".summary.json.part");
        let summary = std::mem::take(&mut self.summary);
        let s = (|| -> std::io::Result<Value> {
            let mut out = std::io::BufWriter::new(std::fs::File::create(&summary_part)?);
            let s = summary.write(config, extra, &mut out)?;
            out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            Ok(s)
        })()
        .map_err(at("summary.json"))?;
        let index_part = dir.join(".index.html.part");
        std::fs::write(
            &index_part,
            index_html(&s, self.note.as_deref(), &self.pages),
        )
        .map_err(at("index.html"))?;
        // Everything is written: put it in place.
        let pages = dir.join(PAGES_DIR);
        if pages.exists() {
            std::fs::remove_dir_all(&pages).map_err(at(PAGES_DIR))?;
        }
        std::fs::rename(&self.part, &pages).map_err(at(PAGES_DIR))?;
        std::fs::rename(&summary_part, dir.join("summary.json")).map_err(at("summary.json"))?;
        std::fs::rename(&index_part, dir.join("index.html")).map_err(at("index.html"))?;
        self.finished = true;
        Ok(s)
    }
}

impl Drop for ReportWriter {
    fn drop(&mut self) {
        if !self.finished {
            self.pages.open = None;
            let _ = std::fs::remove_dir_all(&self.part);
            let _ = std::fs::remove_file(self.dir.join(".summary.json.part"));
            let _ = std::fs::remove_file(self.dir.join(".index.html.part"));
        }
    }
}

/// Writes the report of cells held in memory into `dir`: the table's lines are its creatures
/// by name and its columns its rows by name, each once (the first cell of a name holds its
/// place). The pictures, if any, are already in `dir/thumbs/`.
pub fn write(
    dir: &Path,
    cells: &[CellReport],
    config: &ValidationConfig,
    thumbnails: &Thumbnails,
    unreadable: &[Unreadable],
) -> Result<Value, SaveError> {
    let mut rows: Vec<&str> = Vec::new();
    let mut creatures: Vec<&str> = Vec::new();
    let (mut seen_rows, mut seen_creatures) = (HashMap::new(), HashMap::new());
    let mut first: HashMap<(usize, usize), &CellReport> = HashMap::with_capacity(cells.len());
    for c in cells {
        let r = *seen_rows.entry(c.row()).or_insert_with(|| {
            rows.push(c.row());
            rows.len() - 1
        });
        let k = *seen_creatures
            .entry(c.creature.as_str())
            .or_insert_with(|| {
                creatures.push(&c.creature);
                creatures.len() - 1
            });
        first.entry((k, r)).or_insert(c);
    }
    let rows_kind = if cells.iter().any(|c| c.action.is_some()) {
        "actions"
    } else {
        "clips"
    };
    let mut w = ReportWriter::create(
        dir,
        rows_kind,
        rows.iter().map(|r| r.to_string()).collect(),
        creatures.len() as u64,
        thumbnails.note.clone(),
    )?;
    for k in 0..creatures.len() {
        for r in 0..rows.len() {
            if let Some(&c) = first.get(&(k, r)) {
                w.cell(k as u64, r, c, (thumbnails.has)(c))?;
            }
        }
    }
    w.finish(config, unreadable)
}

/// Writes the report of a merged grid ([`crate::cells::merge`]; a single run is a merge of
/// its one shard) into `dir`, reading the cells back from the shards' files once, in the
/// grid's order; a missing or doubled cell is an error and no report is written. The
/// pictures, if any, are already in `dir/thumbs/`.
pub fn write_merged(dir: &Path, merged: &crate::cells::Merged) -> Result<Value, SaveError> {
    let read_err = |e: anymorph_io::LoadError| SaveError {
        path: dir.display().to_string(),
        source: std::io::Error::other(e.to_string()),
    };
    let mut w = ReportWriter::create(
        dir,
        &merged.header.rows_kind,
        merged.header.rows.clone(),
        merged.creatures,
        merged.thumbnails_note.clone(),
    )?;
    let mut stream = merged.stream().map_err(read_err)?;
    while let Some(c) = stream.next().map_err(read_err)? {
        w.cell(c.creature, c.row as usize, &c.report, c.thumbnail)?;
    }
    w.finish(&merged.header.config, &merged.unreadable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Failure, VariantReport};

    fn cell(row: &str, creature: u64, fails: bool) -> CellReport {
        CellReport {
            clip: row.into(),
            creature: format!("creature_{creature}"),
            action: None,
            excluded: false,
            reason: None,
            variant_count: 2,
            variants: vec![VariantReport {
                variant: 0,
                label: "base".into(),
                failures: if fails {
                    vec![Failure {
                        check: Check::FootSlip,
                        time_secs: 0.5,
                        frame: 15,
                        body: "foot_l".into(),
                        value: 0.1,
                        limit: 0.02,
                        walking: true,
                        other: None,
                    }]
                } else {
                    Vec::new()
                },
            }],
        }
    }

    /// The report's memory does not grow with the cells: a writer fed 30,000 cells (a failure
    /// in every other) holds no more after the last than after the 3,000th; the summary it
    /// writes is what the whole document would print as, with every failure in it; the table
    /// is on pages of at most PAGE_CELLS cells.
    #[test]
    fn the_report_writer_holds_no_cell_and_pages_the_table() {
        let rows: Vec<String> = ["wave", "nod", "walk"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let config = ValidationConfig::default();
        let creatures = 10_000u64;
        let dir = tempfile::tempdir().unwrap();
        let mut w =
            ReportWriter::create(dir.path(), "clips", rows.clone(), creatures, None).unwrap();
        let mut early = 0;
        for k in 0..creatures {
            for (r, name) in rows.iter().enumerate() {
                w.cell(
                    k,
                    r,
                    &cell(name, k, (k + r as u64).is_multiple_of(2)),
                    false,
                )
                .unwrap();
            }
            if k == 1000 {
                early = w.held();
            }
        }
        let late = w.held();
        assert!(
            late <= early + 1024,
            "{early} bytes held after 3,000 cells, {late} after 30,000"
        );
        let s = w.finish(&config, &[]).unwrap();
        assert_eq!(s["cells"], 30_000);
        let text = std::fs::read_to_string(dir.path().join("summary.json")).unwrap();
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(text, anymorph_io::json::to_pretty_json(&back));
        assert_eq!(back["failures"].as_array().unwrap().len(), 15_000);
        assert_eq!(back["failures_by_check"]["foot_slip"], 15_000);
        assert_eq!(back["passed"], 15_000);
        // Pages of at most PAGE_CELLS cells, linked from the first page and to each other.
        let per = creatures_per_page(3);
        let pages = creatures.div_ceil(per);
        assert!(pages > 1);
        let index = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
        for p in 0..pages {
            assert!(index.contains(&page_name(p)), "page {p}");
            let page = std::fs::read_to_string(dir.path().join(page_name(p))).unwrap();
            let lines = page.matches("<tr><th>creature_").count() as u64;
            assert!(lines * 3 <= PAGE_CELLS as u64);
            assert_eq!(lines, per.min(creatures - p * per), "page {p}");
            assert!(page.contains("../index.html"));
            assert_eq!(page.contains(">previous<"), p > 0);
            assert_eq!(page.contains(">next<"), p + 1 < pages);
        }
        assert!(!dir.path().join(page_name(pages)).exists());
        assert!(
            !std::fs::read_dir(dir.path()).unwrap().any(|e| e
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with('.')),
            "no part file is left"
        );
    }

    /// The in-memory summary is the streamed one.
    #[test]
    fn the_summary_of_cells_in_memory_is_the_written_one() {
        let cells: Vec<CellReport> = (0..10)
            .map(|k| cell("wave", k, k.is_multiple_of(3)))
            .collect();
        let s = summary(&cells, &ValidationConfig::default());
        assert_eq!(s["cells"], 10);
        assert_eq!(s["failures"].as_array().unwrap().len(), 4);
        assert_eq!(s["no_branch"], json!([]));
        assert_eq!(s["by_row"][0]["passed"], 6);
    }
}
