//! `anymorph validate`: the validation grid over clips × creatures, with a report.

use crate::io::{load_clip, load_creature};
use crate::runtime::action::Action;
use crate::runtime::clip::Clip;
use crate::runtime::creature::Creature;
use crate::validation::{CellReport, ValidationConfig, check_action_cell, check_cell, report};
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(super) struct ValidateArgs {
    /// Rows of clips: every `*.clip.json` of this folder.
    pub clips: Option<PathBuf>,
    /// Rows of actions: a project's or a package's.
    pub actions_from: Option<PathBuf>,
    /// Creature files; a project's own creatures when absent.
    pub creatures: Option<PathBuf>,
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
            Err(e) => unreadable.push(unreadable_entry(&e)),
        }
    }
    loaded
}

/// The first file that could not be read and why, for an error that ends the run before
/// any report is written: the reason is said there, not only in the lines before it.
fn first_unreadable(unreadable: &[report::Unreadable]) -> String {
    unreadable
        .first()
        .map(|u| format!("; the first: {}", u.error))
        .unwrap_or_default()
}

/// A file the grid could not read, for the report: the file the error is about (a project's
/// listed file, not the project) and the error on one line, whatever it quotes.
fn unreadable_entry(e: &crate::io::LoadError) -> report::Unreadable {
    let file = match e {
        crate::io::LoadError::Listed { inner, .. } => inner.path(),
        e => e.path(),
    };
    report::Unreadable {
        file: file.to_string(),
        error: e.to_string().replace(['\n', '\r'], " "),
    }
}

/// A row of the grid: a clip, or an action played by whichever branch binds.
enum Row {
    Clip(Arc<Clip>),
    Action(Arc<Action>),
}

impl Row {
    fn check(&self, creature: &Arc<Creature>, config: &ValidationConfig) -> CellReport {
        match self {
            Row::Clip(clip) => check_cell(clip, creature, config),
            Row::Action(action) => check_action_cell(action, creature, config),
        }
    }

    /// The clip `cell` played, for its picture.
    fn played(&self, cell: &CellReport) -> Option<&Arc<Clip>> {
        match self {
            Row::Clip(clip) => Some(clip),
            Row::Action(action) => action.branches.iter().find(|c| c.name == cell.clip),
        }
    }
}

pub(super) fn validate(args: ValidateArgs) -> Result<()> {
    let config = match &args.config {
        Some(p) => ValidationConfig::load(p)?,
        None => ValidationConfig::default(),
    };
    let mut unreadable = Vec::new();
    let (rows, project_creatures): (Vec<Row>, Vec<Arc<Creature>>) =
        match (&args.clips, &args.actions_from) {
            (Some(dir), None) => (
                load_all(&files(dir, &[".clip.json"])?, load_clip, &mut unreadable)
                    .into_iter()
                    .map(Row::Clip)
                    .collect(),
                Vec::new(),
            ),
            (None, Some(source)) => {
                let (package, creatures, skipped) =
                    super::package_and_creatures_skipping(source, true)?;
                unreadable.extend(skipped.iter().map(unreadable_entry));
                if package.actions.is_empty() {
                    bail!(
                        "{}: holds no actions to validate{}",
                        source.display(),
                        first_unreadable(&unreadable)
                    );
                }
                (
                    package.actions.iter().cloned().map(Row::Action).collect(),
                    creatures,
                )
            }
            _ => bail!("give either --clips DIR or --project/--package FILE"),
        };
    let mut creatures: Vec<Arc<Creature>> = match &args.creatures {
        Some(dir) => load_all(
            &files(dir, &CREATURE_SUFFIXES)?,
            load_creature,
            &mut unreadable,
        ),
        None => project_creatures,
    };
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
    if rows.is_empty() || creatures.is_empty() {
        bail!(
            "nothing to validate: {} clips or actions, {} creatures ({} files could not be read){}",
            rows.len(),
            creatures.len(),
            unreadable.len(),
            first_unreadable(&unreadable)
        );
    }
    let jobs: Vec<(usize, usize)> = (0..rows.len())
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
                let cell = rows[c].check(&creatures[k], &config);
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
        let played: Vec<Option<&Arc<Clip>>> = jobs
            .iter()
            .zip(&cells)
            .map(|(&(c, _), cell)| rows[c].played(cell))
            .collect();
        thumbnails(
            &args.report,
            &jobs,
            &played,
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
    if summary["rows"] == "actions" {
        say!(
            "{} of {} cells pass ({:.1}%); a branch plays in {:.1}%; {} play no branch, {} left out by intent; NaN in {}. Report: {}",
            summary["passed"],
            summary["cells"],
            summary["pass_rate"].as_f64().unwrap_or(0.0) * 100.0,
            summary["bound_rate"].as_f64().unwrap_or(0.0) * 100.0,
            summary["no_branch"].as_array().map_or(0, |a| a.len()),
            summary["left_out"],
            summary["nan"],
            args.report.join("index.html").display()
        );
    } else {
        say!(
            "{} of {} cells pass ({:.1}%); {} do not bind; NaN in {}. Report: {}",
            summary["passed"],
            summary["cells"],
            summary["pass_rate"].as_f64().unwrap_or(0.0) * 100.0,
            summary["not_bound"],
            summary["nan"],
            args.report.join("index.html").display()
        );
    }
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
    played: &[Option<&Arc<Clip>>],
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
        let (_, k) = jobs[i];
        let Some(clip) = played[i] else { continue };
        let path = report.join(report::thumbnail_name(cell));
        match renderer.render_cell(clip, &creatures[k], cell, config, &path) {
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
    _played: &[Option<&Arc<Clip>>],
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
