//! `anymorph fuzz`: the long fuzz run (see `crate::fuzz`), figures per target and the
//! distinct findings; exit status 1 when anything broke a rule.

use crate::fuzz::{self, Target};
use anyhow::{Result, bail};
use std::path::PathBuf;
use std::time::Duration;

pub(super) struct FuzzArgs {
    pub cases: u64,
    pub seed: u64,
    pub targets: Vec<String>,
    pub out: Option<PathBuf>,
    pub jobs: usize,
    pub timeout_secs: f32,
    pub corpus: Option<PathBuf>,
    pub list: bool,
}

pub(super) fn fuzz_cmd(args: FuzzArgs) -> Result<()> {
    if args.list {
        for t in Target::ALL {
            say!(
                "{:<16} {:<11} {}",
                t.name(),
                if t.in_process() {
                    "in-process"
                } else {
                    "subprocess"
                },
                t.about()
            );
        }
        return Ok(());
    }
    let mut targets = Vec::new();
    for name in &args.targets {
        match Target::from_name(name) {
            Some(t) => targets.push(t),
            None => bail!("--target {name}: no such target (anymorph fuzz --list names them)"),
        }
    }
    if targets.is_empty() {
        targets = Target::ALL.to_vec();
    }
    if !(args.timeout_secs.is_finite() && args.timeout_secs > 0.0 && args.timeout_secs <= 3600.0) {
        bail!(
            "--timeout: {} is not a number of seconds in (0, 3600]",
            args.timeout_secs
        );
    }
    let corpus_root = match args.corpus {
        Some(dir) => dir,
        None => {
            let here = std::env::current_dir()?;
            if here.join("sample_creatures").is_dir() && here.join("assets").is_dir() {
                here
            } else {
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            }
        }
    };
    let options = fuzz::Options {
        cases: args.cases,
        seed: args.seed,
        targets,
        out: args.out,
        jobs: args.jobs.max(1),
        timeout: Duration::from_secs_f32(args.timeout_secs),
        exe: std::env::current_exe()?,
        corpus_root,
        progress: true,
    };
    let report = fuzz::run(&options).map_err(anyhow::Error::msg)?;
    say!(
        "anymorph fuzz --cases {} --seed {}: {:.0} s with {} job(s)",
        args.cases,
        args.seed,
        report.secs,
        options.jobs
    );
    say_raw!("{}", report.table());
    if report.findings.is_empty() {
        say!("no findings");
    } else {
        say!("\n{} distinct finding(s):", report.findings.len());
        say_raw!("{}", report.findings_text());
    }
    if report.violations() > 0 {
        // The figures are the output; the status says something broke.
        std::process::exit(1);
    }
    Ok(())
}
