//! The grid's cells as JSON lines (`cells.jsonl`, documented in `docs/FORMAT.md`): what a
//! run, or one shard of a run, writes as it checks, and what every report is built from.
//!
//! A single run is shard 0 of 1: it writes the same file and builds its report by merging
//! that one file, so a report merged from shards and a report of a single run come out of
//! the same code. The file is one header line, one line per cell, one closing `end` line; a
//! file without its `end` line was cut short and is refused, so a report is never built from
//! part of a shard.

use super::report::Unreadable;
use super::{CellReport, ValidationConfig};
use anymorph_io::{LoadError, SaveError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The `format` tag of a cells file.
pub const CELLS_FORMAT: &str = "anymorph-cells";
/// The one version of the cells file this build writes and reads.
pub const CELLS_VERSION: u32 = 1;
/// The file a run or a shard writes into its `--report` folder.
pub const CELLS_FILE: &str = "cells.jsonl";

/// The most shards a grid is split into (a merge holds one slot per shard).
pub const MAX_SHARDS: u32 = 1_000_000;

/// Which part of a grid a run checks: shard `index` of `count` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardId {
    pub index: u32,
    pub count: u32,
}

impl ShardId {
    /// The whole grid.
    pub const WHOLE: ShardId = ShardId { index: 0, count: 1 };

    /// Parses `I/N` with `0 ≤ I < N`; the error says what was wrong, for a message that
    /// names the option.
    pub fn parse(text: &str) -> Result<ShardId, String> {
        let bad =
            |why: &str| format!("expected I/N with 0 ≤ I < N (e.g. 0/4), found `{text}`: {why}");
        let (i, n) = text.split_once('/').ok_or_else(|| bad("no `/`"))?;
        let i: u32 = i
            .trim()
            .parse()
            .map_err(|_| bad("I is not a whole number"))?;
        let n: u32 = n
            .trim()
            .parse()
            .map_err(|_| bad("N is not a whole number"))?;
        if n == 0 {
            return Err(bad("N must be at least 1"));
        }
        if i >= n {
            return Err(bad("I must be less than N (shards count from 0)"));
        }
        if n > MAX_SHARDS {
            return Err(bad(&format!("N must be at most {MAX_SHARDS}")));
        }
        Ok(ShardId { index: i, count: n })
    }
}

impl std::fmt::Display for ShardId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The first line: what grid the cells belong to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub format: String,
    pub version: u32,
    /// [`grid_id`] of the rows and thresholds: shards of one grid share it.
    pub grid: String,
    pub shard: ShardId,
    /// `clips` or `actions`.
    pub rows_kind: String,
    /// The grid's rows in order; a cell's `row` indexes this list.
    pub rows: Vec<String>,
    pub config: ValidationConfig,
}

impl Header {
    pub fn new(
        shard: ShardId,
        rows_kind: &str,
        rows: Vec<String>,
        config: ValidationConfig,
    ) -> Header {
        Header {
            format: CELLS_FORMAT.into(),
            version: CELLS_VERSION,
            grid: grid_id(rows_kind, &rows, &config),
            shard,
            rows_kind: rows_kind.into(),
            rows,
            config,
        }
    }
}

/// One cell: row `row` of the header's rows on creature number `creature` of the stream
/// (0-based, counting the creatures that loaded, in the order every shard reads them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellLine {
    pub row: u32,
    pub creature: u64,
    /// Whether `thumbs/` of the same folder holds the cell's picture.
    #[serde(default)]
    pub thumbnail: bool,
    pub report: CellReport,
}

/// The last line: what the whole stream held, so shards can be checked against each other
/// and a file cut short is told from a finished one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct End {
    /// The number of cell lines above.
    pub end_cells: u64,
    /// Creatures the whole stream held (every shard reads all of it).
    pub creatures: u64,
    /// [`Fnv64`] of the stream's creature names and body counts, in order.
    pub creatures_digest: String,
    /// Files (or lines) that could not be read, in the stream's order.
    pub unreadable: Vec<Unreadable>,
    /// Why some or all pictures are missing, if they are.
    pub thumbnails_note: Option<String>,
}

/// FNV-1a, 64 bits: a digest that is the same on every machine and every build, unlike
/// `std`'s hasher, so shards run on different nodes agree.
#[derive(Clone, Copy, Debug)]
pub struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv64 {
    pub fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// The identity of a grid's rows and thresholds.
pub fn grid_id(rows_kind: &str, rows: &[String], config: &ValidationConfig) -> String {
    let mut h = Fnv64::default();
    h.write(rows_kind.as_bytes());
    for r in rows {
        h.write(&[0]);
        h.write(r.as_bytes());
    }
    h.write(&[0]);
    h.write(serde_json::to_string(config).unwrap_or_default().as_bytes());
    h.hex()
}

/// Writes a cells file: into a `.part` file beside it, renamed into place by
/// [`CellsWriter::finish`]; dropped unfinished, it removes the part file.
pub struct CellsWriter {
    out: Option<BufWriter<std::fs::File>>,
    part: PathBuf,
    path: PathBuf,
    cells: u64,
}

impl CellsWriter {
    /// Starts `dir/cells.jsonl` (creating `dir`) with its header.
    pub fn create(dir: &Path, header: &Header) -> Result<CellsWriter, SaveError> {
        let path = dir.join(CELLS_FILE);
        let part = dir.join(format!(".{CELLS_FILE}.part"));
        let err = |source| SaveError {
            path: path.display().to_string(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(err)?;
        let file = std::fs::File::create(&part).map_err(err)?;
        let mut w = CellsWriter {
            out: Some(BufWriter::new(file)),
            part,
            path,
            cells: 0,
        };
        w.line(header)?;
        Ok(w)
    }

    fn line<T: Serialize>(&mut self, value: &T) -> Result<(), SaveError> {
        let err = |source| SaveError {
            path: self.path.display().to_string(),
            source,
        };
        let text = serde_json::to_string(value).map_err(|e| err(std::io::Error::other(e)))?;
        let Some(out) = self.out.as_mut() else {
            return Err(err(std::io::Error::other("the file is already finished")));
        };
        out.write_all(text.as_bytes()).map_err(err)?;
        out.write_all(b"\n").map_err(err)
    }

    pub fn cell(&mut self, cell: &CellLine) -> Result<(), SaveError> {
        self.line(cell)?;
        self.cells += 1;
        Ok(())
    }

    /// The cell lines written so far.
    pub fn cells(&self) -> u64 {
        self.cells
    }

    /// Writes the `end` line, syncs and renames the file into place; its path.
    pub fn finish(mut self, end: End) -> Result<PathBuf, SaveError> {
        let end = End {
            end_cells: self.cells,
            ..end
        };
        self.line(&end)?;
        let err = |source| SaveError {
            path: self.path.display().to_string(),
            source,
        };
        if let Some(out) = self.out.take() {
            let file = out.into_inner().map_err(|e| err(e.into_error()))?;
            file.sync_all().map_err(err)?;
        }
        std::fs::rename(&self.part, &self.path).map_err(err)?;
        Ok(self.path.clone())
    }
}

impl Drop for CellsWriter {
    fn drop(&mut self) {
        if self.out.is_some() {
            let _ = std::fs::remove_file(&self.part);
        }
    }
}

/// The shards of one grid, checked against each other: what a report is built from. It holds
/// no cell: [`Merged::stream`] reads them back in the grid's order, a line per shard at a time,
/// so a merge of 10⁸ cells needs the memory of one cell per shard.
#[derive(Debug)]
pub struct Merged {
    pub files: Vec<PathBuf>,
    pub header: Header,
    /// Creatures in the stream: the grid is `header.rows` × this many.
    pub creatures: u64,
    /// Cell lines in all the files.
    pub cells: u64,
    /// Whether any cell has a picture.
    pub thumbnails: bool,
    pub unreadable: Vec<Unreadable>,
    pub thumbnails_note: Option<String>,
}

/// A cell read back by [`CellStream`].
#[derive(Clone, Debug)]
pub struct StreamCell {
    pub row: u32,
    pub creature: u64,
    pub thumbnail: bool,
    pub report: CellReport,
    /// Index into [`Merged::files`], and the line (1-based), for messages.
    pub file: u32,
    pub line: u32,
}

impl Merged {
    /// The cells in the grid's order (creature, then row): a k-way merge of the shards'
    /// files, each already in that order. It checks that the cells are exactly the grid,
    /// every cell once; the first missing or doubled cell is an error naming it.
    pub fn stream(&self) -> Result<CellStream<'_>, LoadError> {
        let mut s = CellStream {
            merged: self,
            inputs: Vec::with_capacity(self.files.len()),
            heads: std::collections::BinaryHeap::with_capacity(self.files.len()),
            next: (0, 0),
            last: None,
            done: false,
        };
        for (i, path) in self.files.iter().enumerate() {
            let input =
                BufReader::new(std::fs::File::open(path).map_err(|source| LoadError::Read {
                    path: path.display().to_string(),
                    source,
                })?);
            s.inputs.push(ShardInput {
                input,
                line: 0,
                header_seen: false,
                head: None,
            });
            s.advance(i)?;
        }
        Ok(s)
    }

    /// `file:line` of a cell, for messages.
    pub fn place(&self, file: u32, line: u32) -> String {
        format!("{}:{}", self.files[file as usize].display(), line)
    }
}

struct ShardInput {
    input: BufReader<std::fs::File>,
    line: u32,
    header_seen: bool,
    head: Option<StreamCell>,
}

/// The merged cells, read back in the grid's order; see [`Merged::stream`].
pub struct CellStream<'a> {
    merged: &'a Merged,
    inputs: Vec<ShardInput>,
    /// (creature, row, file) of each shard's next cell.
    heads: std::collections::BinaryHeap<std::cmp::Reverse<(u64, u32, u32)>>,
    /// The (creature, row) the grid holds next.
    next: (u64, u32),
    /// The last cell given: (creature, row, file, line).
    last: Option<(u64, u32, u32, u32)>,
    done: bool,
}

impl CellStream<'_> {
    /// Reads shard `f`'s next cell into its head.
    fn advance(&mut self, f: usize) -> Result<(), LoadError> {
        let path = &self.merged.files[f];
        let input = &mut self.inputs[f];
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            let n = input
                .input
                .read_until(b'\n', &mut bytes)
                .map_err(|source| LoadError::Read {
                    path: path.display().to_string(),
                    source,
                })?;
            input.line += 1;
            let at = format!("{}:{}", path.display(), input.line);
            let changed = |why: String| {
                field(
                    &at,
                    "(line)",
                    format!("changed since the merge read it{why}"),
                )
            };
            if n == 0 {
                return Err(changed(": it ends before its `end` line".into()));
            }
            if bytes.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if !input.header_seen {
                input.header_seen = true;
                continue;
            }
            match serde_json::from_slice::<CellLine>(&bytes) {
                Ok(cell) => {
                    input.head = Some(StreamCell {
                        row: cell.row,
                        creature: cell.creature,
                        thumbnail: cell.thumbnail,
                        report: cell.report,
                        file: f as u32,
                        line: input.line,
                    });
                    self.heads
                        .push(std::cmp::Reverse((cell.creature, cell.row, f as u32)));
                    return Ok(());
                }
                Err(e) => {
                    if serde_json::from_slice::<End>(&bytes).is_ok() {
                        input.head = None;
                        return Ok(());
                    }
                    return Err(changed(format!(": {e}")));
                }
            }
        }
    }

    /// The next cell of the grid, `None` after the last; an error if the shards hold a cell
    /// twice or miss one.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<StreamCell>, LoadError> {
        if self.done {
            return Ok(None);
        }
        let m = self.merged;
        let rows = m.header.rows.len() as u32;
        let row_name = |r: u32| m.header.rows.get(r as usize).map_or("?", String::as_str);
        let Some(std::cmp::Reverse((creature, row, f))) = self.heads.pop() else {
            if self.next.0 < m.creatures && rows > 0 {
                return Err(field(
                    "report merge",
                    "end_cells",
                    format!(
                        "no shard holds the cell of row {} `{}` on creature {} (the shards hold {} cells, the grid has {} rows × {} creatures)",
                        self.next.1,
                        row_name(self.next.1),
                        self.next.0,
                        m.cells,
                        rows,
                        m.creatures
                    ),
                ));
            }
            self.done = true;
            return Ok(None);
        };
        let cell = self.inputs[f as usize]
            .head
            .take()
            .ok_or_else(|| field("report merge", "(line)", "a shard's line was lost"))?;
        let at = m.place(cell.file, cell.line);
        if (creature, row) != self.next {
            if let Some((c, r, lf, ll)) = self.last
                && (c, r) == (creature, row)
            {
                return Err(field(
                    &at,
                    "creature",
                    format!(
                        "a duplicate cell (row {row} `{}`, creature {creature} `{}`): also at {}",
                        row_name(row),
                        cell.report.creature,
                        m.place(lf, ll)
                    ),
                ));
            }
            return Err(field(
                "report merge",
                "end_cells",
                format!(
                    "no shard holds the cell of row {} `{}` on creature {} (the next cell is at {at})",
                    self.next.1,
                    row_name(self.next.1),
                    self.next.0
                ),
            ));
        }
        self.next = if row + 1 >= rows {
            (creature + 1, 0)
        } else {
            (creature, row + 1)
        };
        self.last = Some((creature, row, cell.file, cell.line));
        self.advance(f as usize)?;
        Ok(Some(cell))
    }
}

/// The cells file of a folder (or the file itself).
pub fn cells_path(dir_or_file: &Path) -> PathBuf {
    let is_file = dir_or_file.extension().is_some_and(|e| e == "jsonl") && !dir_or_file.is_dir();
    if is_file {
        dir_or_file.to_path_buf()
    } else {
        dir_or_file.join(CELLS_FILE)
    }
}

fn field(path: &str, field: &str, message: impl Into<String>) -> LoadError {
    LoadError::Field {
        path: path.into(),
        field: field.into(),
        message: message.into(),
    }
}

struct Shard {
    header: Header,
    end: End,
    cells: u64,
    thumbnails: bool,
}

/// Reads one shard's file through, checking every line: its header, its cells (each in range
/// and in the stream's order, creature then row) and its end line. It keeps no cell.
fn read_shard(path: &Path) -> Result<Shard, LoadError> {
    let label = path.display().to_string();
    let read_err = |source| LoadError::Read {
        path: label.clone(),
        source,
    };
    let mut input = BufReader::new(std::fs::File::open(path).map_err(read_err)?);
    let mut bytes = Vec::new();
    let mut header: Option<Header> = None;
    let mut end: Option<End> = None;
    let mut count = 0u64;
    let mut thumbnails = false;
    let mut line_no = 0usize;
    // The last cell: (creature, row) and its line.
    let mut last: Option<((u64, u32), usize)> = None;
    loop {
        bytes.clear();
        let n = input.read_until(b'\n', &mut bytes).map_err(read_err)?;
        if n == 0 {
            break;
        }
        line_no += 1;
        let at = format!("{label}:{line_no}");
        if bytes.last() != Some(&b'\n') {
            return Err(field(
                &at,
                "(line)",
                "the line is cut short (no line end): the shard was not written to its end",
            ));
        }
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| field(&at, "(line)", "not UTF-8 text"))?
            .trim();
        if text.is_empty() {
            continue;
        }
        if end.is_some() {
            return Err(field(&at, "end", "a line after the closing `end` line"));
        }
        let value: Value = serde_json::from_str(text).map_err(|e| LoadError::Syntax {
            path: at.clone(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        let Some(h) = &header else {
            header = Some(read_header(value, &at)?);
            continue;
        };
        if value.get("end_cells").is_some() {
            let e: End = anymorph_io::json::from_value(value, &at)?;
            if e.end_cells != count {
                return Err(field(
                    &at,
                    "end_cells",
                    format!("says {} cells, the file has {count}", e.end_cells),
                ));
            }
            if let Some(((c, _), line)) = last
                && c >= e.creatures
            {
                return Err(field(
                    &format!("{label}:{line}"),
                    "creature",
                    format!("{c} is past the stream's {} creatures", e.creatures),
                ));
            }
            end = Some(e);
            continue;
        }
        let cell: CellLine = anymorph_io::json::from_value(value, &at)?;
        if cell.row as usize >= h.rows.len() {
            return Err(field(
                &at,
                "row",
                format!("{} is past the header's {} rows", cell.row, h.rows.len()),
            ));
        }
        if cell.report.row() != h.rows[cell.row as usize] {
            return Err(field(
                &at,
                "report",
                format!(
                    "the cell's row `{}` is not row {} (`{}`) of the header",
                    cell.report.row(),
                    cell.row,
                    h.rows[cell.row as usize]
                ),
            ));
        }
        let key = (cell.creature, cell.row);
        if let Some((before, line)) = last
            && key <= before
        {
            let what = if key == before {
                "a duplicate cell"
            } else {
                "a cell out of order (a shard's cells come in the stream's order, creature then row)"
            };
            return Err(field(
                &at,
                "creature",
                format!(
                    "{what}: creature {} row {} after creature {} row {} at line {line}",
                    key.0, key.1, before.0, before.1
                ),
            ));
        }
        last = Some((key, line_no));
        count += 1;
        thumbnails |= cell.thumbnail;
    }
    let header = header.ok_or_else(|| field(&label, "format", "the file is empty"))?;
    let end = end.ok_or_else(|| {
        field(
            &label,
            "end_cells",
            format!(
                "missing: the file stops after line {line_no} without its closing `end` line (a shard cut short or still running)"
            ),
        )
    })?;
    Ok(Shard {
        header,
        end,
        cells: count,
        thumbnails,
    })
}

fn read_header(value: Value, at: &str) -> Result<Header, LoadError> {
    let format = value.get("format").cloned().unwrap_or(Value::Null);
    if format != CELLS_FORMAT {
        return Err(LoadError::Format {
            path: at.into(),
            expected: CELLS_FORMAT,
            found: format.to_string(),
        });
    }
    let version = value.get("version").cloned().unwrap_or(Value::Null);
    if version != CELLS_VERSION {
        return Err(LoadError::Version {
            path: at.into(),
            format: CELLS_FORMAT,
            found: version.to_string(),
            supported: CELLS_VERSION,
        });
    }
    let header: Header = anymorph_io::json::from_value(value, at)?;
    let ShardId { index, count } = header.shard;
    if count == 0 || index >= count || count > MAX_SHARDS {
        return Err(field(
            at,
            "shard",
            format!("{index}/{count} is not a shard (0 ≤ index < count ≤ {MAX_SHARDS})"),
        ));
    }
    Ok(header)
}

/// Reads the shards' files and checks that together they are one grid: the same grid and
/// the same creatures in every shard, every shard `0..N` once, each file's cells in range and
/// in order. That every cell is there exactly once is checked as [`Merged::stream`] reads
/// them back. Any problem is an error naming the file and the field; nothing is returned in
/// part. Only a shard's header and end line are held, never its cells.
pub fn merge(files: &[PathBuf]) -> Result<Merged, LoadError> {
    let Some(first) = files.first() else {
        return Err(field("report merge", "(shards)", "no shard folders given"));
    };
    let mut shards = Vec::with_capacity(files.len());
    for f in files {
        shards.push(read_shard(f)?);
    }
    let label = |i: usize| files[i].display().to_string();
    let base = &shards[0];
    let mut owner: Vec<Option<usize>> = vec![None; base.header.shard.count as usize];
    for (i, s) in shards.iter().enumerate() {
        let (h, e) = (&s.header, &s.end);
        if h.grid != base.header.grid || h.rows_kind != base.header.rows_kind {
            return Err(field(
                &label(i),
                "grid",
                format!(
                    "{} differs from {}'s {}: a shard of another grid (other clips, actions or thresholds)",
                    h.grid,
                    first.display(),
                    base.header.grid
                ),
            ));
        }
        if h.shard.count != base.header.shard.count {
            return Err(field(
                &label(i),
                "shard.count",
                format!(
                    "shard {} of a run in {} shards, {} is of a run in {}",
                    h.shard,
                    h.shard.count,
                    first.display(),
                    base.header.shard.count
                ),
            ));
        }
        if e.creatures != base.end.creatures || e.creatures_digest != base.end.creatures_digest {
            return Err(field(
                &label(i),
                "creatures_digest",
                format!(
                    "{} creatures (digest {}), {} has {} (digest {}): a shard of another set of creatures",
                    e.creatures,
                    e.creatures_digest,
                    first.display(),
                    base.end.creatures,
                    base.end.creatures_digest
                ),
            ));
        }
        let slot = &mut owner[h.shard.index as usize];
        if let Some(other) = *slot {
            return Err(field(
                &label(i),
                "shard.index",
                format!("shard {} is also given as {}", h.shard, label(other)),
            ));
        }
        *slot = Some(i);
    }
    if let Some(missing) = owner.iter().position(Option::is_none) {
        let given: Vec<String> = shards
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} ({})", s.header.shard, label(i)))
            .collect();
        return Err(field(
            "report merge",
            "shard.index",
            format!(
                "shard {missing}/{} is missing; given: {}",
                base.header.shard.count,
                given.join(", ")
            ),
        ));
    }
    let creatures = base.end.creatures;
    let total: u64 = shards.iter().map(|s| s.cells).sum();
    let expected = base.header.rows.len() as u64 * creatures;
    if total < expected {
        return Err(field(
            "report merge",
            "end_cells",
            format!(
                "the shards hold {total} cells, the grid has {expected} ({} rows × {creatures} creatures)",
                base.header.rows.len()
            ),
        ));
    }
    let mut unreadable: Vec<Unreadable> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    for s in &shards {
        for u in &s.end.unreadable {
            if !unreadable.contains(u) {
                unreadable.push(u.clone());
            }
        }
        if let Some(n) = &s.end.thumbnails_note
            && !notes.contains(n)
        {
            notes.push(n.clone());
        }
    }
    let thumbnails = shards.iter().any(|s| s.thumbnails);
    let header = shards.swap_remove(0).header;
    Ok(Merged {
        files: files.to_vec(),
        header,
        creatures,
        cells: total,
        thumbnails,
        unreadable,
        thumbnails_note: (!notes.is_empty()).then(|| notes.join("; ")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_ids_parse_and_bad_ones_say_why() {
        assert_eq!(ShardId::parse("3/4"), Ok(ShardId { index: 3, count: 4 }));
        assert_eq!(ShardId::parse("0/1"), Ok(ShardId::WHOLE));
        for (bad, why) in [
            ("0/0", "at least 1"),
            ("4/4", "less than N"),
            ("x/4", "I is not"),
            ("1/y", "N is not"),
            ("14", "no `/`"),
            ("-1/4", "I is not"),
            ("0/2000000", "at most"),
        ] {
            let e = ShardId::parse(bad).unwrap_err();
            assert!(e.contains(why) && e.contains(bad), "{bad}: {e}");
        }
    }

    #[test]
    fn the_digest_is_fnv1a_64() {
        // The published test vectors of FNV-1a 64.
        let digest = |s: &str| {
            let mut h = Fnv64::default();
            h.write(s.as_bytes());
            h.hex()
        };
        assert_eq!(digest(""), "cbf29ce484222325");
        assert_eq!(digest("a"), "af63dc4c8601ec8c");
        assert_eq!(digest("foobar"), "85944171f73967e8");
    }
}
