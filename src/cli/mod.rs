//! The command line (DESIGN.md "Command line"): a stable contract that tests and scripts use.

/// Prints a line of a command's output. A reader that stops early (`anymorph info F | head`)
/// closes the pipe: the write fails with `BrokenPipe`, which ends the command quietly (see
/// [`main_with_args`]) instead of panicking as `println!` does.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?;
    }};
}

/// [`say!`] without the line end.
macro_rules! say_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)?;
    }};
}

mod actions;
mod bake;
mod bench;
mod check;
mod creature_stream;
#[cfg(not(feature = "editor"))]
mod demo;
mod eval;
mod export;
mod fuzz;
mod generate;
mod info;
mod open;
mod query;
mod report;
mod solve;
mod validate;
mod variants;

pub use eval::parse_frames;
pub use info::creature_summary;
pub use solve::goals_from_str;

use anyhow::Result;
use clap::{Parser, Subcommand};
use glam::Vec3;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "anymorph",
    version,
    about = "Author a keyframe clip once, play it on creatures of any shape"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Numeric flags take a negative value as a separate word (`--time -1`): clap would read it
/// as an unknown flag `-1` and say so without naming the flag; the value's own check does.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open the editor on a project (no subcommand: the sample project).
    Open {
        project: PathBuf,
        /// Measure this many frames of playback in the real window, print frame times, close.
        #[arg(long, allow_hyphen_values = true)]
        bench_frames: Option<usize>,
        /// With --bench-frames: fill the preview to this many creatures from the samples.
        #[arg(long, allow_hyphen_values = true, requires = "bench_frames")]
        bench_creatures: Option<usize>,
    },
    /// Bodies, caps, root, legs and bounds of a creature.
    Info {
        creature: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// The bodies a context query selects, one name per line.
    Query {
        creature: PathBuf,
        /// The query as JSON (inline, or a path to a file holding it).
        #[arg(long)]
        query: String,
        #[arg(long)]
        json: bool,
    },
    /// Goals and final body transforms (world space) of a clip on a creature, as JSON.
    Eval {
        creature: PathBuf,
        /// A `*.clip.json`; with --action, a `*.project.json` or `*.package.json`.
        clip: PathBuf,
        /// Play this action of the project or package: the first of its branches that binds.
        #[arg(long)]
        action: Option<String>,
        /// One time in seconds.
        #[arg(
            long,
            allow_hyphen_values = true,
            conflicts_with = "frames",
            required_unless_present = "frames"
        )]
        time: Option<f32>,
        /// Frames START:END:FPS, e.g. 0:2:30.
        #[arg(long, allow_hyphen_values = true)]
        frames: Option<String>,
        #[arg(long, allow_hyphen_values = true, default_value_t = 0)]
        variant: usize,
        /// External target X,Y,Z in world space (the creature starts at the origin facing
        /// +Z); repeat for targets 1, 2, ….
        #[arg(long, value_parser = parse_vec3, allow_hyphen_values = true)]
        target: Vec<Vec3>,
        /// Walk forward at this speed (m/s) with the gait.
        #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
        speed: f32,
        /// Turn at this rate (rad/s, positive turns left).
        #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
        turn: f32,
        /// Ground: flat, slope:DEG or waves[:AMPLITUDE:WAVELENGTH].
        #[arg(long, default_value = "flat")]
        terrain: String,
    },
    /// Whether a clip binds on a creature, and its variants.
    Variants {
        creature: PathBuf,
        clip: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// For each action of a project or package, the branch that plays on a creature and its
    /// variant count, or each branch's reason when none does.
    Actions {
        /// A `*.project.json` or a `*.package.json`.
        source: PathBuf,
        creature: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// A random plausible creature, the same for the same seed.
    Generate {
        #[arg(long, allow_hyphen_values = true)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
        /// Only this morphology family (classic, lopsided, splayed, staggered, anywhere,
        /// jointed, proportions, many-legs, limbs-on-limbs); the default mix otherwise.
        #[arg(long)]
        family: Option<crate::zoo::Family>,
        /// With an `--out` ending in `.jsonl`: this many creatures, seeds SEED, SEED + 1, …,
        /// one per line (a store for `validate --creatures`).
        #[arg(long, allow_hyphen_values = true, default_value_t = 1)]
        count: u64,
    },
    /// The validation grid: every clip on every creature and variant, checked, with a report.
    Validate {
        /// Rows of clips: every `*.clip.json` in this folder.
        #[arg(long, required_unless_present_any = ["project", "package"])]
        clips: Option<PathBuf>,
        /// Rows of actions: the project's actions, each cell playing the first branch that
        /// binds; its creatures unless --creatures is given.
        #[arg(long, conflicts_with_all = ["clips", "package"])]
        project: Option<PathBuf>,
        /// Rows of actions from a package.
        #[arg(long, conflicts_with = "clips")]
        package: Option<PathBuf>,
        /// Creatures: a folder tree of `*.creature.json`, `*.glb`, `*.gltf` files, a
        /// JSON-lines file (`*.jsonl`, one creature per line) or one creature file; read one
        /// at a time, so a store of any size fits.
        #[arg(long, required_unless_present = "project")]
        creatures: Option<PathBuf>,
        /// Add this many random creatures from the zoo.
        #[arg(long, allow_hyphen_values = true, default_value_t = 0)]
        random: usize,
        #[arg(long, allow_hyphen_values = true, default_value_t = 1)]
        seed: u64,
        /// Only zoo creatures of this family (the default mix otherwise).
        #[arg(long)]
        family: Option<crate::zoo::Family>,
        #[arg(long)]
        report: PathBuf,
        /// Thresholds (`*.validation.json`); the defaults otherwise.
        #[arg(long)]
        config: Option<PathBuf>,
        #[arg(long, allow_hyphen_values = true, default_value_t = 2)]
        threads: usize,
        /// Which cells get a picture of their worst moment (needs the `editor` feature).
        #[arg(long, value_enum, default_value_t = validate::ThumbnailChoice::Failing)]
        thumbnails: validate::ThumbnailChoice,
        /// Check only shard I of N (0 ≤ I < N): a deterministic share of the creatures,
        /// balanced by cost, written as `cells.jsonl` in --report; `report merge` builds the
        /// report from every shard's folder.
        #[arg(long, value_name = "I/N", allow_hyphen_values = true)]
        shard: Option<String>,
    },
    /// Reports built from grid runs' cells.
    Report {
        #[command(subcommand)]
        action: ReportCommand,
    },
    /// Play a clip on a creature and write it as a glTF animation (GLB, or JSON for .gltf).
    Bake {
        creature: PathBuf,
        /// A `*.clip.json`; with --action, a `*.project.json` or `*.package.json`.
        clip: PathBuf,
        /// Bake this action of the project or package: the first of its branches that binds.
        #[arg(long)]
        action: Option<String>,
        #[arg(long)]
        out: PathBuf,
        /// Keys per second (default: the clip's fps).
        #[arg(long, allow_hyphen_values = true)]
        fps: Option<f32>,
        #[arg(
            long,
            allow_hyphen_values = true,
            default_value_t = 0,
            conflicts_with = "all_variants"
        )]
        variant: usize,
        /// One animation per variant of the clip on this creature.
        #[arg(long)]
        all_variants: bool,
    },
    /// Write a project's clips as one package for a game.
    Export {
        project: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Bytes and key counts per clip and channel.
        #[arg(long)]
        report: bool,
        /// The report (and any reduction) as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Drop keys whose removal changes a channel's curve by less than this (its own
        /// units: generalized position units, radians, weights).
        #[arg(long, allow_hyphen_values = true)]
        reduce: Option<f32>,
        /// A tolerance for one channel, CHANNEL=TOLERANCE (repeatable).
        #[arg(long, value_parser = export::parse_channel_tolerance)]
        reduce_channel: Vec<(String, f32)>,
    },
    /// Particle IK on the goals in a file; final body transforms (character space) as JSON.
    Solve {
        creature: PathBuf,
        /// Goals: `{ "root": {...} (optional), "goals": [ { "body", "position", "rotation", "weight" } ] }`.
        #[arg(long)]
        goals: PathBuf,
    },
    /// The IK's or the gait's contracts over generated creatures (and creature files), a
    /// report per morphology family; exit status 1 when a target is missed.
    Check {
        #[arg(value_enum)]
        what: check::CheckWhat,
        /// This many zoo creatures, seeds SEED, SEED + 1, …
        #[arg(long, allow_hyphen_values = true, default_value_t = 0)]
        random: usize,
        #[arg(long, allow_hyphen_values = true, default_value_t = 1)]
        seed: u64,
        /// Only this family (the default mix otherwise).
        #[arg(long)]
        family: Option<crate::zoo::Family>,
        /// Also every creature file in this folder (*.creature.json, *.glb, *.gltf).
        #[arg(long)]
        creatures: Option<PathBuf>,
        #[arg(long)]
        json: bool,
        /// Write each missed IK goal set here (the creature, and goals for `anymorph solve`), and
        /// each jump of a goal path as the goal sets either side of it.
        #[arg(long)]
        failures: Option<PathBuf>,
        #[arg(long, allow_hyphen_values = true, default_value_t = 2)]
        threads: usize,
        /// Bent goal sets per creature (IK).
        #[arg(long, allow_hyphen_values = true)]
        sets: Option<usize>,
    },
    /// Mutated files and odd flags for every loader and command: panics, non-finite
    /// outputs, errors without a file, hangs (see README "Fuzzing").
    Fuzz {
        /// Cases in all, shared among the targets by weight.
        #[arg(long, allow_hyphen_values = true, default_value_t = 10_000)]
        cases: u64,
        #[arg(long, allow_hyphen_values = true, default_value_t = 1)]
        seed: u64,
        /// Only these targets (repeatable; --list names them).
        #[arg(long)]
        target: Vec<String>,
        /// Save each failing input here, with the command that shows it.
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long, allow_hyphen_values = true, default_value_t = 2)]
        jobs: usize,
        /// Seconds a case may take before it counts as a hang.
        #[arg(long, allow_hyphen_values = true, default_value_t = 30.0)]
        timeout: f32,
        /// The repository checkout whose sample files seed the corpus.
        #[arg(long)]
        corpus: Option<PathBuf>,
        /// List the targets and exit.
        #[arg(long)]
        list: bool,
    },
    /// Microseconds per creature-frame, whole pipeline and per stage, over a mix of the
    /// sample creatures and clips.
    Bench {
        #[arg(long, allow_hyphen_values = true, default_value_t = 1000)]
        creatures: usize,
        #[arg(long, allow_hyphen_values = true, default_value_t = 1)]
        threads: usize,
        #[arg(long, allow_hyphen_values = true, default_value_t = 240)]
        frames: usize,
        /// Only this sample creature (e.g. biped, the 25-body benchmark creature).
        #[arg(long = "creature")]
        only: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

/// Runs the command line; returns the process exit code.
pub fn main_with_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    match run(cli) {
        Ok(()) => 0,
        // The reader of our output went away: nothing is wrong with the command.
        Err(e) if closed_pipe(&e) => 0,
        Err(e) => {
            eprintln!("error: {}", message(&e));
            1
        }
    }
}

/// The error and its causes in one line, each said once: the file formats' errors already
/// quote their cause (`{path}: {source}`), so printing the whole chain would repeat it.
fn message(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text = format!("{text}: {cause}");
        }
    }
    one_line(&text)
}

/// `text` with its control characters escaped: a name or a value quoted from a file may hold
/// a newline, and an error is one line that scripts can read.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `anymorph report …`
#[derive(Subcommand, Debug)]
pub enum ReportCommand {
    /// The report of a grid run in shards (`validate --shard I/N`): the same `index.html`
    /// and `summary.json` as a single run, from every shard's `cells.jsonl`.
    Merge {
        /// Each shard's --report folder (or its `cells.jsonl`).
        #[arg(required = true, value_name = "DIR")]
        shards: Vec<PathBuf>,
        #[arg(long)]
        report: PathBuf,
    },
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        None => open::open(open::OpenArgs {
            project: None,
            bench_frames: None,
            bench_creatures: None,
        }),
        Some(Command::Open {
            project,
            bench_frames,
            bench_creatures,
        }) => open::open(open::OpenArgs {
            project: Some(project),
            bench_frames,
            bench_creatures,
        }),
        Some(Command::Info { creature, json }) => info::info(&creature, json),
        Some(Command::Query {
            creature,
            query,
            json,
        }) => query::query_cmd(&creature, &query, json),
        Some(Command::Eval {
            creature,
            clip,
            action,
            time,
            frames,
            variant,
            target,
            speed,
            turn,
            terrain,
        }) => eval::eval_cmd(eval::EvalArgs {
            creature: &creature,
            clip: &clip,
            action: action.as_deref(),
            time,
            frames: frames.as_deref(),
            variant,
            targets: &target,
            speed,
            turn,
            terrain: &terrain,
        }),
        Some(Command::Variants {
            creature,
            clip,
            json,
        }) => variants::variants(&creature, &clip, json),
        Some(Command::Actions {
            source,
            creature,
            json,
        }) => actions::actions(&source, &creature, json),
        Some(Command::Solve { creature, goals }) => solve::solve_cmd(&creature, &goals),
        Some(Command::Generate {
            seed,
            out,
            family,
            count,
        }) => generate::generate(seed, family, &out, count),
        Some(Command::Validate {
            clips,
            project,
            package,
            creatures,
            random,
            seed,
            family,
            report,
            config,
            threads,
            thumbnails,
            shard,
        }) => validate::validate(validate::ValidateArgs {
            clips,
            actions_from: project.or(package),
            creatures,
            random,
            seed,
            family,
            report,
            config,
            threads: threads.max(1),
            thumbnails,
            shard,
        }),
        Some(Command::Report {
            action: ReportCommand::Merge { shards, report },
        }) => report::merge(&shards, &report),
        Some(Command::Bake {
            creature,
            clip,
            action,
            out,
            fps,
            variant,
            all_variants,
        }) => bake::bake(bake::BakeArgs {
            creature: &creature,
            clip: &clip,
            action: action.as_deref(),
            out: &out,
            fps,
            variant,
            all_variants,
        }),
        Some(Command::Export {
            project,
            out,
            report,
            json,
            reduce,
            reduce_channel,
        }) => export::export(export::ExportArgs {
            project: &project,
            out: &out,
            report,
            json,
            reduce,
            reduce_channel: &reduce_channel,
        }),
        Some(Command::Check {
            what,
            random,
            seed,
            family,
            creatures,
            json,
            failures,
            threads,
            sets,
        }) => check::check_cmd(check::CheckArgs {
            what,
            random,
            seed,
            family,
            creatures,
            json,
            failures,
            threads,
            sets,
        }),
        Some(Command::Fuzz {
            cases,
            seed,
            target,
            out,
            jobs,
            timeout,
            corpus,
            list,
        }) => fuzz::fuzz_cmd(fuzz::FuzzArgs {
            cases,
            seed,
            targets: target,
            out,
            jobs,
            timeout_secs: timeout,
            corpus,
            list,
        }),
        Some(Command::Bench {
            creatures,
            threads,
            frames,
            only,
            json,
        }) => bench::bench(bench::BenchArgs {
            creatures,
            threads,
            frames,
            only,
            json,
        }),
    }
}

/// The clip a command plays: the file itself, or with `action` the branch of that action of
/// the project or package at `path` that plays on `creature` (as a game's `play_action`).
fn clip_or_branch(
    path: &std::path::Path,
    action: Option<&str>,
    creature: &crate::runtime::creature::Creature,
) -> Result<std::sync::Arc<crate::runtime::clip::Clip>> {
    let Some(name) = action else {
        return Ok(std::sync::Arc::new(crate::io::load_clip(path)?));
    };
    let package = package_of(path)?;
    let Some(action) = package.action(name) else {
        let names: Vec<&str> = package.actions.iter().map(|a| a.name.as_str()).collect();
        anyhow::bail!(
            "--action {name}: {} has no such action (it has: {})",
            path.display(),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        );
    };
    match action.branch_for(creature) {
        Ok(k) => Ok(std::sync::Arc::clone(&action.branches[k])),
        Err(reasons) => anyhow::bail!(
            "action '{name}' has no branch that plays on '{}': {reasons}",
            creature.name()
        ),
    }
}

/// A package, or a project's export (what a game would load).
fn package_of(path: &std::path::Path) -> Result<crate::io::Package> {
    Ok(package_and_creatures(path)?.0)
}

/// A package or a project's export, and the project's creatures (none for a package).
fn package_and_creatures(
    path: &std::path::Path,
) -> Result<(
    crate::io::Package,
    Vec<std::sync::Arc<crate::runtime::creature::Creature>>,
)> {
    let (package, creatures, skipped) = package_and_creatures_skipping(path, false)?;
    debug_assert!(skipped.is_empty());
    Ok((package, creatures))
}

/// [`package_and_creatures`]; with `skip`, a project's listed file that cannot be read is
/// returned among the errors instead of failing the whole load (the grid goes on).
fn package_and_creatures_skipping(
    path: &std::path::Path,
    skip: bool,
) -> Result<(
    crate::io::Package,
    Vec<std::sync::Arc<crate::runtime::creature::Creature>>,
    Vec<crate::io::LoadError>,
)> {
    use crate::io::{Package, load_package, load_project, load_project_skipping};
    let name = path.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".package.json") {
        Ok((load_package(path)?, Vec::new(), Vec::new()))
    } else if name.ends_with(".project.json") {
        let (project, skipped) = if skip {
            load_project_skipping(path)?
        } else {
            (load_project(path)?, Vec::new())
        };
        let creatures = project
            .creatures
            .iter()
            .cloned()
            .map(std::sync::Arc::new)
            .collect();
        Ok((Package::from_project(&project), creatures, skipped))
    } else {
        anyhow::bail!(
            "{}: expected a *.project.json or a *.package.json",
            path.display()
        )
    }
}

fn parse_vec3(s: &str) -> Result<Vec3, String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != 3 {
        return Err(format!("expected X,Y,Z, found '{s}'"));
    }
    let mut v = [0.0f32; 3];
    for (slot, p) in v.iter_mut().zip(parts) {
        *slot = p
            .trim()
            .parse::<f32>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("'{p}' is not a finite number"))?;
        if slot.abs() > crate::runtime::math::WORKING_RANGE {
            return Err(format!("'{p}' is outside the working range of ±1e6"));
        }
    }
    Ok(Vec3::from_array(v))
}
