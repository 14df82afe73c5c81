//! `anymorph validate`: the validation grid over clips × creatures, with a report.

use crate::io::{load_clip, load_creature};
use crate::runtime::clip::Clip;
use crate::runtime::creature::Creature;
use crate::validation::{CellReport, ValidationConfig, check_cell, report};
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(super) struct ValidateArgs {
    pub clips: PathBuf,
    pub creatures: PathBuf,
    pub random: usize,
    pub seed: u64,
    /// Only this family of the zoo (the default mix otherwise).
    pub family: Option<crate::zoo::Family>,
    pub report: PathBuf,
    pub config: Option<PathBuf>,
    pub threads: usize,
    pub thumbnails: ThumbnailChoice,
}

/// Which cells get a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ThumbnailChoice {
    None,
    Failing,
    All,
}

/// Thumbnail size: small enough that a CPU rasterizer draws hundreds in seconds.
#[cfg(feature = "editor")]
const THUMB_SIZE: (u32, u32) = (160, 120);

/// Creature files `validate` reads: the project's own and rigs as DCC tools export them.
const CREATURE_SUFFIXES: [&str; 3] = [".creature.json", ".glb", ".gltf"];

fn files(dir: &Path, suffixes: &[&str]) -> Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("{}: cannot read the folder", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.to_string_lossy().to_ascii_lowercase();
            suffixes.iter().any(|s| name.ends_with(s))
        })
        .collect();
    v.sort();
    Ok(v)
}

/// Loads every file it can; a file that cannot be read goes to `unreadable` with its
/// one-line error, and the run goes on without it.
fn load_all<T>(
    paths: &[PathBuf],
    load: impl Fn(&Path) -> Result<T, crate::io::LoadError>,
    unreadable: &mut Vec<report::Unreadable>,
) -> Vec<Arc<T>> {
    let mut loaded = Vec::with_capacity(paths.len());
    for p in paths {
        match load(p) {
            Ok(t) => loaded.push(Arc::new(t)),
            Err(e) => unreadable.push(report::Unreadable {
                file: p.display().to_string(),
                // One line in the report and the log, whatever the error quotes.
                error: e.to_string().replace(['\n', '\r'], " "),
            }),
        }
    }
    loaded
}

pub(super) fn validate(args: ValidateArgs) -> Result<()> {
    let config = match &args.config {
        Some(p) => ValidationConfig::load(p)?,
        None => ValidationConfig::default(),
    };
    let mut unreadable = Vec::new();
    let clips: Vec<Arc<Clip>> = load_all(
        &files(&args.clips, &[".clip.json"])?,
        load_clip,
        &mut unreadable,
    );
    let mut creatures: Vec<Arc<Creature>> = load_all(
        &files(&args.creatures, &CREATURE_SUFFIXES)?,
        load_creature,
        &mut unreadable,
    );
    for u in &unreadable {
        say!("skipped {}: {}", u.file, u.error);
    }
    for i in 0..args.random as u64 {
        let seed = args.seed.wrapping_add(i);
        creatures.push(Arc::new(
            match args.family {
                Some(f) => crate::zoo::generate_family(seed, f),
                None => crate::zoo::generate(seed),
            }
            .with_context(|| format!("zoo seed {seed}"))?,
        ));
    }
    if clips.is_empty() || creatures.is_empty() {
        bail!(
            "nothing to validate: {} clips, {} creatures ({} files could not be read)",
            clips.len(),
            creatures.len(),
            unreadable.len()
        );
    }
    let jobs: Vec<(usize, usize)> = (0..clips.len())
        .flat_map(|c| (0..creatures.len()).map(move |k| (c, k)))
        .collect();
    let bar = ProgressBar::new(jobs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} cells  {elapsed_precise}  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("cannot start the thread pool")?;
    let cells: Vec<CellReport> = pool.install(|| {
        jobs.par_iter()
            .map(|&(c, k)| {
                let cell = check_cell(&clips[c], &creatures[k], &config);
                bar.inc(1);
                cell
            })
            .collect()
    });
    bar.finish_and_clear();
    let wanted: Vec<bool> = cells
        .iter()
        .map(|c| match args.thumbnails {
            ThumbnailChoice::None => false,
            ThumbnailChoice::Failing => c.binds() && !c.passed(),
            ThumbnailChoice::All => c.binds(),
        })
        .collect();
    let (rendered, note) = if args.thumbnails == ThumbnailChoice::None {
        (
            vec![false; cells.len()],
            Some("thumbnails were not asked for (--thumbnails none)".to_string()),
        )
    } else {
        thumbnails(
            &args.report,
            &jobs,
            &clips,
            &creatures,
            &cells,
            &wanted,
            &config,
        )
    };
    let has = |cell: &CellReport| {
        cells
            .iter()
            .position(|c| std::ptr::eq(c, cell))
            .is_some_and(|i| rendered[i])
    };
    let pictures = report::Thumbnails { has: &has, note };
    let summary = report::write(&args.report, &cells, &config, &pictures, &unreadable)?;
    say!(
        "{} of {} cells pass ({:.1}%); {} do not bind; NaN in {}. Report: {}",
        summary["passed"],
        summary["cells"],
        summary["pass_rate"].as_f64().unwrap_or(0.0) * 100.0,
        summary["not_bound"],
        summary["nan"],
        args.report.join("index.html").display()
    );
    if !unreadable.is_empty() {
        say!(
            "  {} file(s) could not be read and were left out (listed in the report)",
            unreadable.len()
        );
    }
    if let Some(by) = summary["failures_by_check"].as_object() {
        let mut by: Vec<(&String, u64)> = by
            .iter()
            .map(|(k, v)| (k, v.as_u64().unwrap_or(0)))
            .collect();
        by.sort_by_key(|x| std::cmp::Reverse(x.1));
        for (check, n) in by {
            say!("  {check}: {n} variant(s)");
        }
    }
    Ok(())
}

/// Renders the wanted cells' pictures into `report/thumbs/`; which were drawn, and a note
/// for the report when some or all could not be.
#[cfg(feature = "editor")]
fn thumbnails(
    report: &Path,
    jobs: &[(usize, usize)],
    clips: &[Arc<Clip>],
    creatures: &[Arc<Creature>],
    cells: &[CellReport],
    wanted: &[bool],
    config: &ValidationConfig,
) -> (Vec<bool>, Option<String>) {
    use crate::validation::thumbnail::ThumbnailRenderer;
    let mut rendered = vec![false; cells.len()];
    let count = wanted.iter().filter(|w| **w).count();
    if count == 0 {
        return (rendered, None);
    }
    let mut renderer = match ThumbnailRenderer::new(THUMB_SIZE.0, THUMB_SIZE.1) {
        Ok(r) => r,
        Err(e) => {
            // The checks are the point of the run; pictures only help reading them.
            eprintln!("warning: thumbnails not rendered: {e}");
            return (rendered, Some(format!("thumbnails were not rendered: {e}")));
        }
    };
    log::info!(
        "rendering {count} thumbnails on {}",
        renderer.adapter_name()
    );
    let bar = ProgressBar::new(count as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} thumbnails  {elapsed_precise}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut failed = 0;
    let mut last_error = None;
    for (i, cell) in cells.iter().enumerate() {
        if !wanted[i] {
            continue;
        }
        let (c, k) = jobs[i];
        let path = report.join(report::thumbnail_name(cell));
        match renderer.render_cell(&clips[c], &creatures[k], cell, config, &path) {
            Ok(drawn) => rendered[i] = drawn,
            Err(e) => {
                failed += 1;
                last_error = Some(e.to_string());
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let note = last_error.map(|e| {
        eprintln!("warning: {failed} thumbnail(s) failed, the last with: {e}");
        format!("{failed} thumbnail(s) could not be rendered: {e}")
    });
    (rendered, note)
}

#[cfg(not(feature = "editor"))]
fn thumbnails(
    _report: &Path,
    _jobs: &[(usize, usize)],
    _clips: &[Arc<Clip>],
    _creatures: &[Arc<Creature>],
    cells: &[CellReport],
    _wanted: &[bool],
    _config: &ValidationConfig,
) -> (Vec<bool>, Option<String>) {
    (
        vec![false; cells.len()],
        Some("thumbnails were not rendered: built without the `editor` feature".into()),
    )
}
