//! `anymorph validate`: the validation grid over clips × creatures, with a report.
//!
//! Creatures are streamed in batches: each batch's cells are checked in parallel and
//! written as lines of `cells.jsonl` (see [`crate::validation::cells`]), then the batch is
//! dropped. With `--shard I/N` only that shard's creatures are checked and the lines are
//! the run's output; without it the run is shard 0/1 and builds its report from its lines.

use super::creature_stream::{CreatureStream, unreadable_entry};
use crate::io::load_clip;
use crate::runtime::action::Action;
use crate::runtime::clip::Clip;
use crate::runtime::creature::Creature;
use crate::validation::cells::{self, CellLine, CellsWriter, End, Fnv64, Header, ShardId};
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
    /// Creatures: a folder tree, a JSON-lines file or one file; a project's own when absent.
    pub creatures: Option<PathBuf>,
    pub random: usize,
    pub seed: u64,
    /// Only this family of the zoo (the default mix otherwise).
    pub family: Option<crate::zoo::Family>,
    pub report: PathBuf,
    pub config: Option<PathBuf>,
    pub threads: usize,
    pub thumbnails: ThumbnailChoice,
    /// `--shard I/N` as given: check only that part and write its cells, not a report.
    pub shard: Option<String>,
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

/// Cells checked together between two writes of their lines: enough that both cores stay
/// busy to the end of a batch, few enough that a batch's creatures and results are small.
const BATCH_CELLS: usize = 512;

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

/// A row of the grid: a clip, or an action played by whichever branch binds.
enum Row {
    Clip(Arc<Clip>),
    Action(Arc<Action>),
}

impl Row {
    fn name(&self) -> &str {
        match self {
            Row::Clip(clip) => &clip.name,
            Row::Action(action) => &action.name,
        }
    }

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

/// Which shard checks each creature: the creature goes to the shard with the least work so
/// far (greedy, ties to the lowest index), work being [`creature_cost`]. Every shard reads
/// the whole stream in the same order and so makes the same choices without talking to the
/// others; shards end within one creature's cost of each other, whatever the mix of small
/// and large creatures, which a hash of the name only promises on average.
struct ShardAssigner {
    loads: std::collections::BinaryHeap<std::cmp::Reverse<(u64, u32)>>,
}

impl ShardAssigner {
    fn new(count: u32) -> ShardAssigner {
        ShardAssigner {
            loads: (0..count).map(|i| std::cmp::Reverse((0, i))).collect(),
        }
    }

    fn assign(&mut self, cost: u64) -> u32 {
        let Some(std::cmp::Reverse((load, shard))) = self.loads.pop() else {
            return 0;
        };
        self.loads.push(std::cmp::Reverse((load + cost, shard)));
        shard
    }
}

/// An estimate of a creature's share of a grid's time, the same for every row: the IK and
/// the checks go over every body each frame, and a creature with legs plays every variant
/// a second time, walking.
fn creature_cost(creature: &Creature) -> u64 {
    let walking = if creature.legs().is_empty() { 1 } else { 2 };
    creature.len() as u64 * walking
}

/// The grid's rows, what the project brought as creatures, and what could not be read.
type Rows = (Vec<Row>, Vec<Arc<Creature>>, Vec<report::Unreadable>);

fn load_rows(args: &ValidateArgs) -> Result<Rows> {
    let mut unreadable = Vec::new();
    let (rows, creatures) = match (&args.clips, &args.actions_from) {
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
    Ok((rows, creatures, unreadable))
}

pub(super) fn validate(args: ValidateArgs) -> Result<()> {
    let shard = match &args.shard {
        Some(text) => Some(ShardId::parse(text).map_err(|e| anyhow::anyhow!("--shard: {e}"))?),
        None => None,
    };
    let config = match &args.config {
        Some(p) => ValidationConfig::load(p)?,
        None => ValidationConfig::default(),
    };
    let (rows, project_creatures, mut unreadable) = load_rows(&args)?;
    for u in &unreadable {
        say!("skipped {}: {}", u.file, u.error);
    }
    let mut stream = CreatureStream::new(
        args.creatures.as_deref(),
        project_creatures,
        args.random,
        args.seed,
        args.family,
    )?;
    let rows_kind = if args.actions_from.is_some() {
        "actions"
    } else {
        "clips"
    };
    let header = Header::new(
        shard.unwrap_or(ShardId::WHOLE),
        rows_kind,
        rows.iter().map(|r| r.name().to_string()).collect(),
        config.clone(),
    );
    // No rows: the stream is still read, for the error's count of creatures.
    let mut writer = if rows.is_empty() {
        None
    } else {
        Some(CellsWriter::create(&args.report, &header)?)
    };
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{pos} cells  {elapsed_precise}  {per_sec}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("cannot start the thread pool")?;
    let mut batch = Batch {
        rows: &rows,
        config: &config,
        report: &args.report,
        pool: &pool,
        bar: &bar,
        pictures: Pictures::new(args.thumbnails),
        creatures: Vec::new(),
    };
    let batch_creatures = BATCH_CELLS.div_ceil(rows.len().max(1));
    let mut assigner = ShardAssigner::new(header.shard.count);
    let mut digest = Fnv64::default();
    let mut streamed = 0u64;
    let (mut own_cost, mut total_cost) = (0u64, 0u64);
    while let Some(next) = stream.next_creature()? {
        let creature = match next {
            Ok(c) => c,
            Err(u) => {
                say!("skipped {}: {}", u.file, u.error);
                unreadable.push(u);
                continue;
            }
        };
        let index = streamed;
        streamed += 1;
        digest.write(creature.name().as_bytes());
        digest.write(&(creature.len() as u64).to_le_bytes());
        let cost = creature_cost(&creature);
        total_cost += cost;
        if assigner.assign(cost) == header.shard.index {
            own_cost += cost;
            batch.creatures.push((index, creature));
            if batch.creatures.len() >= batch_creatures {
                batch.run(writer.as_mut())?;
            }
        }
    }
    batch.run(writer.as_mut())?;
    bar.finish_and_clear();
    let Some(writer) = writer.filter(|_| streamed > 0) else {
        bail!(
            "nothing to validate: {} clips or actions, {} creatures ({} files could not be read){}",
            rows.len(),
            streamed,
            unreadable.len(),
            first_unreadable(&unreadable)
        );
    };
    let cells = writer.cells();
    let path = writer.finish(End {
        end_cells: cells,
        creatures: streamed,
        creatures_digest: digest.hex(),
        unreadable,
        thumbnails_note: batch.pictures.note(),
    })?;
    if let Some(shard) = shard {
        say!(
            "shard {shard}: {cells} cells ({} rows × {} of {streamed} creatures, {:.1}% of the estimated work) written to {}",
            rows.len(),
            cells / rows.len() as u64,
            100.0 * own_cost as f64 / total_cost.max(1) as f64,
            path.display()
        );
        return Ok(());
    }
    // The whole grid is the merge of its one shard: the report of a single run and that of
    // merged shards come out of the same code.
    let summary = report::write_merged(&args.report, &cells::merge(&[path])?)?;
    print_summary(&summary, &args.report)
}

/// Creatures waiting to be checked, and what checking them needs.
struct Batch<'a> {
    rows: &'a [Row],
    config: &'a ValidationConfig,
    report: &'a Path,
    pool: &'a rayon::ThreadPool,
    bar: &'a ProgressBar,
    pictures: Pictures,
    /// Each with its index in the stream.
    creatures: Vec<(u64, Arc<Creature>)>,
}

impl Batch<'_> {
    /// Checks every row on every waiting creature, in parallel, and writes the cells.
    fn run(&mut self, writer: Option<&mut CellsWriter>) -> Result<()> {
        let creatures = std::mem::take(&mut self.creatures);
        let Some(writer) = writer else {
            return Ok(());
        };
        let (rows, config, bar) = (self.rows, self.config, self.bar);
        let jobs: Vec<(usize, usize)> = (0..creatures.len())
            .flat_map(|k| (0..rows.len()).map(move |r| (r, k)))
            .collect();
        let cells: Vec<CellReport> = self.pool.install(|| {
            jobs.par_iter()
                .map(|&(r, k)| {
                    let cell = rows[r].check(&creatures[k].1, config);
                    bar.inc(1);
                    cell
                })
                .collect()
        });
        for (&(r, k), report) in jobs.iter().zip(cells) {
            let thumbnail = match rows[r].played(&report) {
                Some(clip) => {
                    self.pictures
                        .draw(self.report, clip, &creatures[k].1, &report, config)
                }
                None => false,
            };
            writer.cell(&CellLine {
                row: r as u32,
                creature: creatures[k].0,
                thumbnail,
                report,
            })?;
        }
        Ok(())
    }
}

/// The run's figures on stdout, after its report is written.
pub(super) fn print_summary(summary: &serde_json::Value, report: &Path) -> Result<()> {
    if summary["rows"] == "actions" {
        say!(
            "{} of {} cells pass ({:.1}%); a branch plays in {:.1}%; {} play no branch, {} left out by intent; NaN in {}. Report: {}",
            summary["passed"],
            summary["cells"],
            summary["pass_rate"].as_f64().unwrap_or(0.0) * 100.0,
            summary["bound_rate"].as_f64().unwrap_or(0.0) * 100.0,
            report::no_branch_cells(summary),
            summary["left_out"],
            summary["nan"],
            report.join("index.html").display()
        );
    } else {
        say!(
            "{} of {} cells pass ({:.1}%); {} do not bind; NaN in {}. Report: {}",
            summary["passed"],
            summary["cells"],
            summary["pass_rate"].as_f64().unwrap_or(0.0) * 100.0,
            summary["not_bound"],
            summary["nan"],
            report.join("index.html").display()
        );
    }
    let unreadable = summary["unreadable"].as_array().map_or(0, |a| a.len());
    if unreadable > 0 {
        say!("  {unreadable} file(s) could not be read and were left out (listed in the report)");
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

/// The cells' pictures, drawn as their batches are checked (the creature is at hand only
/// then) into `report/thumbs/`, and why some or all could not be.
struct Pictures {
    choice: ThumbnailChoice,
    #[cfg(feature = "editor")]
    renderer: Option<Result<crate::validation::thumbnail::ThumbnailRenderer, String>>,
    #[cfg(feature = "editor")]
    failed: usize,
    #[cfg(feature = "editor")]
    last_error: Option<String>,
}

impl Pictures {
    fn new(choice: ThumbnailChoice) -> Pictures {
        Pictures {
            choice,
            #[cfg(feature = "editor")]
            renderer: None,
            #[cfg(feature = "editor")]
            failed: 0,
            #[cfg(feature = "editor")]
            last_error: None,
        }
    }

    /// Draws `cell`'s picture if it gets one; whether it was drawn.
    #[cfg(feature = "editor")]
    fn draw(
        &mut self,
        report: &Path,
        clip: &Arc<Clip>,
        creature: &Arc<Creature>,
        cell: &CellReport,
        config: &ValidationConfig,
    ) -> bool {
        use crate::validation::thumbnail::ThumbnailRenderer;
        let wanted = match self.choice {
            ThumbnailChoice::None => false,
            ThumbnailChoice::Failing => cell.binds() && !cell.passed(),
            ThumbnailChoice::All => cell.binds(),
        };
        if !wanted {
            return false;
        }
        let renderer = self.renderer.get_or_insert_with(|| {
            let r = ThumbnailRenderer::new(THUMB_SIZE.0, THUMB_SIZE.1).map_err(|e| e.to_string());
            match &r {
                Ok(r) => log::info!("rendering thumbnails on {}", r.adapter_name()),
                // The checks are the point of the run; pictures only help reading them.
                Err(e) => eprintln!("warning: thumbnails not rendered: {e}"),
            }
            r
        });
        let Ok(renderer) = renderer else {
            return false;
        };
        let path = report.join(report::thumbnail_name(cell));
        match renderer.render_cell(clip, creature, cell, config, &path) {
            Ok(drawn) => drawn,
            Err(e) => {
                self.failed += 1;
                self.last_error = Some(e.to_string());
                false
            }
        }
    }

    #[cfg(not(feature = "editor"))]
    fn draw(
        &mut self,
        _report: &Path,
        _clip: &Arc<Clip>,
        _creature: &Arc<Creature>,
        _cell: &CellReport,
        _config: &ValidationConfig,
    ) -> bool {
        false
    }

    /// The report's note on the pictures, if it needs one.
    fn note(&self) -> Option<String> {
        if self.choice == ThumbnailChoice::None {
            return Some("thumbnails were not asked for (--thumbnails none)".to_string());
        }
        #[cfg(not(feature = "editor"))]
        {
            Some("thumbnails were not rendered: built without the `editor` feature".into())
        }
        #[cfg(feature = "editor")]
        {
            if let Some(Err(e)) = &self.renderer {
                return Some(format!("thumbnails were not rendered: {e}"));
            }
            self.last_error.as_ref().map(|e| {
                eprintln!(
                    "warning: {} thumbnail(s) failed, the last with: {e}",
                    self.failed
                );
                format!("{} thumbnail(s) could not be rendered: {e}", self.failed)
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ShardAssigner;

    /// Greedy by cost: the shards' work ends within the largest creature's cost of each
    /// other, whatever the order of large and small creatures; the same costs in the same
    /// order give the same choices.
    #[test]
    fn shards_get_balanced_work_and_the_same_choices_every_time() {
        let costs: Vec<u64> = (0..500u64).map(|i| 5 + (i * 7919) % 97).collect();
        let choices = |n: u32| {
            let mut a = ShardAssigner::new(n);
            costs.iter().map(|&c| a.assign(c)).collect::<Vec<u32>>()
        };
        for n in [1, 2, 4, 7] {
            let picked = choices(n);
            assert_eq!(picked, choices(n));
            let mut loads = vec![0u64; n as usize];
            for (s, c) in picked.iter().zip(&costs) {
                loads[*s as usize] += c;
            }
            let (lo, hi) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
            assert!(
                hi - lo <= *costs.iter().max().unwrap(),
                "{n} shards: {loads:?}"
            );
        }
    }
}
