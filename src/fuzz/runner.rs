//! Runs the cases: target after target, each target's cases spread over `jobs` threads;
//! counts what every case did, keeps one finding per distinct violation and saves failing
//! inputs with the command that reproduces them.

use super::Target;
use super::corpus::Corpus;
use super::oracle::{Kind, Violation, clip_text};
use super::rand_util::Rng;
use rand::SeedableRng;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

/// A command-line argument of a case.
#[derive(Clone, Debug)]
pub(crate) enum Arg {
    Text(String),
    /// A file or folder in the case's folder.
    File(String),
    /// A file of the corpus, where it lies.
    Seed(PathBuf),
}

/// A file a command writes that the oracles read.
#[derive(Clone, Debug)]
pub(crate) enum Output {
    /// A baked `.glb` or `.gltf`: every accessor float finite.
    Baked(String),
    /// A written package: finite, and it loads.
    Package(String),
    /// A written creature: finite, and it loads.
    Creature(String),
    /// A report folder: every JSON file in it finite.
    ReportDir(String),
}

/// One fuzz input: files to write, a command line (commands) and what its error must name.
#[derive(Clone, Debug)]
pub(crate) struct Case {
    pub target: Target,
    pub index: u64,
    /// What was mutated, for the finding.
    pub what: String,
    /// Written into the case's folder (`dir/name` creates `dir`).
    pub files: Vec<(String, Vec<u8>)>,
    /// Symbolic links in the case's folder to corpus files (members of a folder argument).
    pub links: Vec<(String, PathBuf)>,
    pub args: Vec<Arg>,
    /// An error must contain one string of every group: the files and flags it is about.
    pub must_name: Vec<Vec<String>>,
    pub outputs: Vec<Output>,
}

impl Case {
    pub fn new(target: Target, index: u64) -> Case {
        Case {
            target,
            index,
            what: String::new(),
            files: Vec::new(),
            links: Vec::new(),
            args: Vec::new(),
            must_name: Vec::new(),
            outputs: Vec::new(),
        }
    }

    /// Writes the case's files and links into `dir`.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        for (name, bytes) in &self.files {
            let path = dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, bytes)?;
        }
        for (name, target) in &self.links {
            let path = dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            link(target, &path)?;
        }
        Ok(())
    }

    /// The command line with files in `dir`.
    pub fn command_line(&self, dir: &Path) -> Vec<String> {
        self.args
            .iter()
            .map(|a| match a {
                Arg::Text(t) => t.clone(),
                Arg::File(name) => dir.join(name).to_string_lossy().into_owned(),
                Arg::Seed(path) => path.to_string_lossy().into_owned(),
            })
            .collect()
    }
}

#[cfg(unix)]
fn link(target: &Path, path: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, path)
}

#[cfg(not(unix))]
fn link(target: &Path, path: &Path) -> std::io::Result<()> {
    std::fs::copy(target, path).map(|_| ())
}

/// How a case ended, when no rule was broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Loaded, or exit status 0.
    Ok,
    /// A proper error.
    Error,
    /// Broke a rule (see the violations).
    Bad,
}

/// What `anymorph fuzz` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// Cases in all, shared among the targets by [`Target::weight`].
    pub cases: u64,
    pub seed: u64,
    pub targets: Vec<Target>,
    /// Failing inputs are saved here (`TARGET/KIND-CASE/`), with the command that shows them.
    pub out: Option<PathBuf>,
    pub jobs: usize,
    /// Per case; a case that takes longer is a hang.
    pub timeout: Duration,
    /// The `anymorph` binary the command targets run.
    pub exe: PathBuf,
    /// A checkout of the repository (the seed corpus).
    pub corpus_root: PathBuf,
    /// Print each target's row as it finishes.
    pub progress: bool,
}

/// The figures of one target.
#[derive(Clone, Debug, Default)]
pub struct TargetRow {
    pub target: Option<Target>,
    pub cases: u64,
    /// Loaded or exit status 0.
    pub ok: u64,
    /// Refused with a proper error.
    pub errors: u64,
    /// Violations by kind (a case can break more than one rule).
    pub violations: BTreeMap<Kind, u64>,
    pub secs: f64,
}

impl TargetRow {
    pub fn count(&self, kind: Kind) -> u64 {
        self.violations.get(&kind).copied().unwrap_or(0)
    }
}

/// One distinct violation: the first case that showed it, and how many cases did.
#[derive(Clone, Debug)]
pub struct Finding {
    pub target: Target,
    pub kind: Kind,
    pub detail: String,
    pub case: u64,
    /// What the case mutated.
    pub what: String,
    /// The case's command line (files in the saved folder), or the loader's input.
    pub command: String,
    pub saved: Option<PathBuf>,
    pub count: u64,
}

/// Everything a run found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub seed: u64,
    pub rows: Vec<TargetRow>,
    pub findings: Vec<Finding>,
    pub secs: f64,
}

impl Report {
    pub fn total(&self) -> TargetRow {
        let mut t = TargetRow::default();
        for r in &self.rows {
            t.cases += r.cases;
            t.ok += r.ok;
            t.errors += r.errors;
            t.secs += r.secs;
            for (k, n) in &r.violations {
                *t.violations.entry(*k).or_default() += n;
            }
        }
        t
    }

    pub fn violations(&self) -> u64 {
        self.total().violations.values().sum()
    }

    /// The figures as a table, one row per target and a total.
    pub fn table(&self) -> String {
        let mut s = format!(
            "{:<16} {:>7} {:>7} {:>7} {:>6} {:>10} {:>7} {:>10} {:>5} {:>5} {:>8} {:>8}\n",
            "target",
            "cases",
            "ok",
            "errors",
            "panics",
            "non-finite",
            "no-file",
            "multi-line",
            "hangs",
            "other",
            "secs",
            "cases/s"
        );
        let total = self.total();
        for r in self.rows.iter().chain(std::iter::once(&total)) {
            let name = r.target.map_or("total", Target::name);
            s.push_str(&format!(
                "{:<16} {:>7} {:>7} {:>7} {:>6} {:>10} {:>7} {:>10} {:>5} {:>5} {:>8.1} {:>8.1}\n",
                name,
                r.cases,
                r.ok,
                r.errors,
                r.count(Kind::Panic),
                r.count(Kind::NonFinite),
                r.count(Kind::NoFile),
                r.count(Kind::MultiLine),
                r.count(Kind::Hang),
                r.count(Kind::Other),
                r.secs,
                if r.secs > 0.0 {
                    r.cases as f64 / r.secs
                } else {
                    0.0
                },
            ));
        }
        s
    }

    /// Each distinct finding on a few lines.
    pub fn findings_text(&self) -> String {
        let mut s = String::new();
        for f in &self.findings {
            s.push_str(&format!(
                "[{}] {} ×{} (first: case {}): {}\n    input: {}\n    run: {}\n",
                f.target,
                f.kind,
                f.count,
                f.case,
                f.detail,
                clip_text(&f.what, 300),
                f.command
            ));
            if let Some(dir) = &f.saved {
                s.push_str(&format!("    saved: {}\n", dir.display()));
            }
        }
        s
    }
}

/// The cases of each target for `total` cases among `targets`, by weight (at least one
/// each).
pub fn shares(total: u64, targets: &[Target]) -> Vec<u64> {
    let weights: u64 = targets.iter().map(|t| t.weight()).sum::<u64>().max(1);
    let mut out: Vec<u64> = targets
        .iter()
        .map(|t| (total * t.weight() / weights).max(1))
        .collect();
    // Rounding down leaves a few: the first targets get them.
    let mut left = total.saturating_sub(out.iter().sum());
    for n in out.iter_mut() {
        if left == 0 {
            break;
        }
        *n += 1;
        left -= 1;
    }
    out
}

/// The random stream of one case: the same for the same seed, target and index.
pub(crate) fn case_rng(seed: u64, target: Target, index: u64) -> Rng {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in target.name().bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let mut x = seed ^ h ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    // splitmix64
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    Rng::seed_from_u64(x ^ (x >> 31))
}

thread_local! {
    /// Panic messages of this thread while it runs cases (the hook records instead of
    /// printing).
    static CAPTURED: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// A panic hook that records panics of threads running cases and prints the others as
/// before.
pub(crate) fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let message = info.to_string().replace('\n', " ");
            let kept = CAPTURED.with(|c| match c.borrow_mut().as_mut() {
                Some(list) => {
                    list.push(message.clone());
                    true
                }
                None => false,
            });
            if !kept {
                previous(info);
            }
        }));
    });
}

/// Runs `f`, catching a panic: its messages (also those of panics caught inside `f`, which a
/// user would see printed) and its result.
pub(crate) fn catching<T>(f: impl FnOnce() -> T) -> (Option<T>, Vec<String>) {
    CAPTURED.with(|c| *c.borrow_mut() = Some(Vec::new()));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok();
    let panics = CAPTURED.with(|c| c.borrow_mut().take()).unwrap_or_default();
    (result, panics)
}

type Job = Box<dyn FnOnce() -> (Outcome, Vec<Violation>) + Send>;

/// A thread that runs in-process cases one at a time; one that does not answer in time is
/// abandoned (it cannot be killed) and a new one takes over.
struct Executor {
    jobs: mpsc::Sender<Job>,
    results: mpsc::Receiver<(Outcome, Vec<Violation>)>,
}

impl Executor {
    fn new() -> Executor {
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let (res_tx, res_rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("fuzz-case".into())
            // Deep JSON recurses; give it room.
            .stack_size(64 << 20)
            .spawn(move || {
                while let Ok(job) = job_rx.recv() {
                    let (result, panics) = catching(job);
                    let (outcome, mut violations) = result.unwrap_or((Outcome::Bad, Vec::new()));
                    if let Some(first) = panics.first() {
                        violations.push(Violation::new(Kind::Panic, first.clone()));
                    }
                    if res_tx.send((outcome, violations)).is_err() {
                        break;
                    }
                }
            });
        if let Err(e) = spawned {
            log::error!("cannot start a fuzz thread: {e}");
        }
        Executor {
            jobs: job_tx,
            results: res_rx,
        }
    }

    fn run(&mut self, job: Job, timeout: Duration) -> (Outcome, Vec<Violation>) {
        if self.jobs.send(job).is_err() {
            *self = Executor::new();
            return (
                Outcome::Bad,
                vec![Violation::new(Kind::Other, "the case thread is gone")],
            );
        }
        match self.results.recv_timeout(timeout) {
            Ok(r) => r,
            Err(_) => {
                *self = Executor::new();
                (
                    Outcome::Bad,
                    vec![Violation::new(
                        Kind::Hang,
                        format!("no answer within {:.0?}", timeout),
                    )],
                )
            }
        }
    }
}

/// Runs `f` the way an in-process case runs: on its own thread, a panic caught and counted
/// (also one caught inside `f`), no answer within `timeout` a hang. Lets a test show that
/// the harness catches a planted bug.
pub fn run_in_process<F>(f: F, timeout: Duration) -> Vec<Violation>
where
    F: FnOnce() -> Vec<Violation> + Send + 'static,
{
    install_panic_hook();
    Executor::new()
        .run(Box::new(move || (Outcome::Ok, f())), timeout)
        .1
}

/// Runs `exe args` the way a command case runs (in a scratch folder, a time limit) and
/// judges it: a panic, a non-finite number on stdout, an error that is not one line or
/// names none of each group of `must_name`, a hang.
pub fn run_command(
    exe: &Path,
    args: &[String],
    must_name: &[Vec<String>],
    timeout: Duration,
) -> Result<Vec<Violation>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let done = super::commands::run_process(exe, args, dir.path(), timeout)
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let mut case = Case::new(Target::Info, 0);
    case.must_name = must_name.to_vec();
    Ok(super::commands::judge(&case, &done, dir.path(), timeout).1)
}

/// Runs the fuzz campaign.
pub fn run(options: &Options) -> Result<Report, String> {
    install_panic_hook();
    let corpus = Arc::new(Corpus::load(&options.corpus_root)?);
    let scratch = tempfile::Builder::new()
        .prefix("anymorph-fuzz-")
        .tempdir()
        .map_err(|e| format!("cannot make a scratch folder: {e}"))?;
    let shares = shares(options.cases, &options.targets);
    let started = Instant::now();
    let mut report = Report {
        seed: options.seed,
        ..Default::default()
    };
    for (&target, &n) in options.targets.iter().zip(&shares) {
        let (row, findings) = run_target(target, n, options, &corpus, scratch.path());
        if options.progress {
            eprintln!(
                "{:<16} {n:>7} cases, {} violations, {:.1} s",
                target.name(),
                row.violations.values().sum::<u64>(),
                row.secs
            );
        }
        report.rows.push(row);
        report.findings.extend(findings);
    }
    report.secs = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Findings of one target by signature.
type Findings = BTreeMap<(Kind, String), Finding>;

fn run_target(
    target: Target,
    n: u64,
    options: &Options,
    corpus: &Arc<Corpus>,
    scratch: &Path,
) -> (TargetRow, Vec<Finding>) {
    let next = AtomicU64::new(0);
    let row = Mutex::new(TargetRow {
        target: Some(target),
        ..Default::default()
    });
    let findings: Mutex<Findings> = Mutex::new(BTreeMap::new());
    let started = Instant::now();
    std::thread::scope(|s| {
        for job in 0..options.jobs.max(1) {
            let (next, row, findings) = (&next, &row, &findings);
            s.spawn(move || {
                let dir = scratch.join(format!("{}-{job}", target.name()));
                let mut executor = target.in_process().then(Executor::new);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let mut rng = case_rng(options.seed, target, i);
                    let case = if target.in_process() {
                        super::loaders::make_case(target, i, corpus, &mut rng)
                    } else {
                        super::commands::make_case(target, i, corpus, &mut rng)
                    };
                    let _ = std::fs::remove_dir_all(&dir);
                    let (outcome, violations) =
                        match std::fs::create_dir_all(&dir).and_then(|()| case.write(&dir)) {
                            Err(e) => (
                                Outcome::Bad,
                                vec![Violation::new(
                                    Kind::Other,
                                    format!("cannot write the case: {e}"),
                                )],
                            ),
                            Ok(()) => match executor.as_mut() {
                                Some(ex) => {
                                    let (case, corpus, dir) =
                                        (case.clone(), Arc::clone(corpus), dir.clone());
                                    ex.run(
                                        Box::new(move || {
                                            super::loaders::run_case(&case, &corpus, &dir)
                                        }),
                                        options.timeout,
                                    )
                                }
                                None => super::commands::run_case(&case, options, &dir),
                            },
                        };
                    tally(&case, outcome, &violations, row, findings, options, &dir);
                }
            });
        }
    });
    let mut row = row.into_inner().unwrap_or_default();
    row.secs = started.elapsed().as_secs_f64();
    let findings = findings
        .into_inner()
        .unwrap_or_default()
        .into_values()
        .collect();
    (row, findings)
}

/// A violation's signature: its kind and its detail without numbers and paths, so that one
/// bug seen in a thousand cases is one finding.
fn signature(v: &Violation) -> String {
    let general = |text: &str| -> String {
        text.split_whitespace()
            .map(|w| {
                if w.contains('/') {
                    "PATH"
                } else if w.contains('[') || w.contains('\'') || w.contains('"') || w.contains('`')
                {
                    "X"
                } else {
                    w
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .map(|c| if c.is_ascii_digit() { '#' } else { c })
            .collect()
    };
    if v.kind == Kind::NoFile {
        // "names none of [a.clip.json, --x]: error: …": how the error begins.
        let error = v
            .detail
            .split_once("]: ")
            .map_or(v.detail.as_str(), |(_, e)| e);
        let begins: Vec<&str> = error.split_whitespace().take(6).collect();
        return clip_text(&general(&begins.join(" ")), 90);
    }
    clip_text(&general(&v.detail), 90)
}

/// How many failing inputs of one finding are saved.
const SAVED_PER_FINDING: u64 = 3;

fn tally(
    case: &Case,
    outcome: Outcome,
    violations: &[Violation],
    row: &Mutex<TargetRow>,
    findings: &Mutex<Findings>,
    options: &Options,
    dir: &Path,
) {
    if let Ok(mut r) = row.lock() {
        r.cases += 1;
        match outcome {
            Outcome::Ok if violations.is_empty() => r.ok += 1,
            Outcome::Error if violations.is_empty() => r.errors += 1,
            _ => {}
        }
        // A case counts once per kind.
        let mut kinds: Vec<Kind> = violations.iter().map(|v| v.kind).collect();
        kinds.sort();
        kinds.dedup();
        for k in kinds {
            *r.violations.entry(k).or_default() += 1;
        }
    }
    for v in violations {
        let key = (v.kind, signature(v));
        let Ok(mut all) = findings.lock() else {
            continue;
        };
        let entry = all.entry(key).or_insert_with(|| Finding {
            target: case.target,
            kind: v.kind,
            detail: v.detail.clone(),
            case: case.index,
            what: case.what.clone(),
            command: describe_command(case),
            saved: None,
            count: 0,
        });
        entry.count += 1;
        if entry.count <= SAVED_PER_FINDING
            && let Some(out) = &options.out
        {
            let saved = save(out, case, v, dir);
            if entry.saved.is_none() {
                entry.saved = saved;
            }
        }
    }
}

/// `anymorph ARGS` as a shell line, files as `./NAME` (the saved folder).
fn describe_command(case: &Case) -> String {
    if case.target.in_process() {
        return super::loaders::reproduce(case);
    }
    let args: Vec<String> = case
        .args
        .iter()
        .map(|a| match a {
            Arg::Text(t) => shell_quote(t),
            Arg::File(name) => shell_quote(&format!("./{name}")),
            Arg::Seed(p) => shell_quote(&p.to_string_lossy()),
        })
        .collect();
    format!("anymorph {}", args.join(" "))
}

fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:,=+@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

fn save(out: &Path, case: &Case, v: &Violation, dir: &Path) -> Option<PathBuf> {
    let to = out
        .join(case.target.name())
        .join(format!("{}-{}", v.kind.name(), case.index));
    std::fs::create_dir_all(&to).ok()?;
    // The case's own files (not the links to the corpus: the command names those).
    for (name, bytes) in &case.files {
        let path = to.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).ok()?;
        }
        std::fs::write(path, bytes).ok()?;
    }
    for (name, target) in &case.links {
        let path = to.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).ok()?;
        }
        let _ = link(target, &path);
    }
    let command = describe_command(case);
    let readme = format!(
        "target: {}\ncase: {}\nviolation: {}: {}\ninput: {}\n\nreproduce (in this folder):\n  {}\n\nthe case ran in {}\n",
        case.target,
        case.index,
        v.kind,
        v.detail,
        case.what,
        command,
        dir.display()
    );
    std::fs::write(to.join("FINDING.txt"), readme).ok()?;
    let script = format!("#!/bin/sh\ncd \"$(dirname \"$0\")\" && {command}\n");
    std::fs::write(to.join("run.sh"), script).ok()?;
    Some(to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_add_up_and_give_every_target_a_case() {
        let targets = Target::ALL;
        let s = shares(100_000, &targets);
        assert_eq!(s.iter().sum::<u64>(), 100_000);
        assert!(s.iter().all(|&n| n > 0));
        let few = shares(3, &targets);
        assert!(few.iter().all(|&n| n >= 1));
    }

    #[test]
    fn the_same_seed_gives_the_same_stream() {
        use rand::RngExt;
        let a: u64 = case_rng(1, Target::Eval, 7).random();
        let b: u64 = case_rng(1, Target::Eval, 7).random();
        let c: u64 = case_rng(1, Target::Eval, 8).random();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn signatures_ignore_numbers_and_paths() {
        let a = Violation::new(Kind::NoFile, "names none of [x]: error: /tmp/a/b: line 3");
        let b = Violation::new(Kind::NoFile, "names none of [x]: error: /tmp/c/d: line 9");
        assert_eq!(signature(&a), signature(&b));
        let a = Violation::new(
            Kind::Panic,
            "panicked at src/a.rs:3:4: index 7 out of range",
        );
        let b = Violation::new(
            Kind::Panic,
            "panicked at src/a.rs:3:4: index 9 out of range",
        );
        assert_eq!(signature(&a), signature(&b));
    }
}
