//! `anymorph report merge DIR… --report OUT`: the report of a grid run in shards
//! (`validate --shard I/N`), built from the shards' `cells.jsonl` by the same code that
//! builds a single run's report.

use crate::validation::cells::{self, cells_path};
use crate::validation::report;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

pub(super) fn merge(dirs: &[PathBuf], out: &Path) -> Result<()> {
    let files: Vec<PathBuf> = dirs.iter().map(|d| cells_path(d)).collect();
    let merged = cells::merge(&files)?;
    // Every picture is copied before the report is written: a report whose pictures are
    // missing is not written at all.
    let same_folder = |dir: &Path| {
        let a = std::fs::canonicalize(dir).ok();
        a.is_some() && a == std::fs::canonicalize(out).ok()
    };
    let mut made_thumbs = false;
    // Only a grid with pictures is read for them (a pass over every cell).
    let mut stream = if merged.thumbnails {
        Some(merged.stream()?)
    } else {
        None
    };
    while let Some(c) = match stream.as_mut() {
        Some(s) => s.next()?,
        None => None,
    } {
        if !c.thumbnail {
            continue;
        }
        let from_dir = files[c.file as usize].parent().unwrap_or(Path::new("."));
        if same_folder(from_dir) {
            continue;
        }
        let name = report::thumbnail_name(&c.report);
        let (from, to) = (from_dir.join(&name), out.join(&name));
        if !made_thumbs {
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("{}: cannot create the folder", parent.display()))?;
            }
            made_thumbs = true;
        }
        std::fs::copy(&from, &to).with_context(|| {
            format!(
                "{}: thumbnail: {} cannot be copied to {}",
                merged.place(c.file, c.line),
                from.display(),
                to.display()
            )
        })?;
    }
    let shards = merged.header.shard.count;
    let summary = report::write_merged(out, &merged)?;
    say!("merged {shards} shard(s)");
    super::validate::print_summary(&summary, out)
}
