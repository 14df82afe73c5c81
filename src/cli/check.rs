//! `anymorph check ik|gait`: the IK's and the gait's contracts over generated creatures (and
//! creature files), a report per family; exit status 1 when a target is missed.

use crate::check::{self, Subject, gait, ik};
use crate::io::{load_creature, save_creature};
use crate::zoo::Family;
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Which contracts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckWhat {
    Ik,
    Gait,
}

/// The targets a run must meet (issue "Any limb, any leg").
pub const MIN_REACHED_SHARE: f32 = 0.995;
pub const MAX_WORST_REACH_ERROR: f32 = 0.02;
pub const MAX_KEPT_OUT_SHARE: f32 = 0.01;

pub(super) struct CheckArgs {
    pub what: CheckWhat,
    pub random: usize,
    pub seed: u64,
    pub family: Option<Family>,
    pub creatures: Option<PathBuf>,
    pub json: bool,
    pub failures: Option<PathBuf>,
    pub threads: usize,
    pub sets: Option<usize>,
}

pub(super) fn check_cmd(args: CheckArgs) -> Result<()> {
    let mut subjects =
        check::zoo_subjects(args.random, args.seed, args.family).map_err(anyhow::Error::msg)?;
    if let Some(dir) = &args.creatures {
        for path in creature_files(dir)? {
            subjects.push(Subject {
                creature: Arc::new(load_creature(&path)?),
                origin: None,
            });
        }
    }
    if subjects.is_empty() {
        bail!("nothing to check: give --random N or --creatures DIR");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.max(1))
        .build()
        .context("cannot start the thread pool")?;
    let bar = ProgressBar::new(subjects.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} creatures  {elapsed_precise}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let ok = match args.what {
        CheckWhat::Ik => {
            let mut options = ik::IkCheckOptions::default();
            if let Some(n) = args.sets {
                options.bent_sets = n;
            }
            let reports: Vec<ik::IkCreatureReport> = pool.install(|| {
                subjects
                    .par_iter()
                    .map(|s| {
                        let r = ik::check_creature(s, &options);
                        bar.inc(1);
                        r
                    })
                    .collect()
            });
            bar.finish_and_clear();
            if let Some(dir) = &args.failures {
                write_ik_failures(dir, &subjects, &reports)?;
            }
            ik_report(&reports, &subjects, args.json)?
        }
        CheckWhat::Gait => {
            let options = gait::GaitCheckOptions::default();
            let reports: Vec<gait::GaitCreatureReport> = pool.install(|| {
                subjects
                    .par_iter()
                    .map(|s| {
                        let r = gait::check_creature(s, &options);
                        bar.inc(1);
                        r
                    })
                    .collect()
            });
            bar.finish_and_clear();
            gait_report(&reports, &subjects, args.json)?
        }
    };
    if !ok {
        // The report above says what; the exit status lets a script know.
        std::process::exit(1);
    }
    Ok(())
}

fn creature_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("{}: cannot read the folder", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let s = p.to_string_lossy();
            s.ends_with(".creature.json") || s.ends_with(".glb") || s.ends_with(".gltf")
        })
        .collect();
    v.sort();
    Ok(v)
}

fn ik_report(reports: &[ik::IkCreatureReport], subjects: &[Subject], json: bool) -> Result<bool> {
    let rows = ik::summarize(reports);
    let all = rows.last().cloned().unwrap_or_default();
    let ok = all.reached_share() >= MIN_REACHED_SHARE
        && all.worst_error <= MAX_WORST_REACH_ERROR
        && (all.kept_out_goals as f32) < MAX_KEPT_OUT_SHARE * all.reach_goals.max(1) as f32
        && all.unreachable_passed == all.unreachable_sets
        && all.rest_failures == 0
        && all.path_failures == 0
        && all.nan_sets == 0;
    // Continuity is reported beside the contracts, not yet gated: the solver jumps
    // on about 5 % of the goal paths (docs/IK.md, 5c).
    let continuous = all.jumps == 0;
    if json {
        let failing: Vec<&ik::IkCreatureReport> = reports.iter().filter(|r| !r.passed()).collect();
        let out = serde_json::json!({
            "families": rows,
            "passed": ok,
            "continuous": continuous,
            "failing_creatures": failing,
        });
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ok);
    }
    say!(
        "{:<16} {:>9} {:>11} {:>9} {:>8} {:>10} {:>12} {:>5} {:>5} {:>4}",
        "family",
        "creatures",
        "reach sets",
        "reached",
        "kept out",
        "worst",
        "unreachable",
        "rest",
        "path",
        "NaN"
    );
    for r in &rows {
        say!(
            "{:<16} {:>9} {:>11} {:>8.2}% {:>8} {:>9.2}% {:>5}/{:<6} {:>5} {:>5} {:>4}",
            r.family,
            r.creatures,
            r.reach_sets,
            100.0 * r.reached_share(),
            r.kept_out,
            100.0 * r.worst_error,
            r.unreachable_passed,
            r.unreachable_sets,
            r.rest_failures,
            r.path_failures,
            r.nan_sets
        );
    }
    say!(
        "\nreached {} of {} goal sets ({:.2} %, target {:.1} %), ends kept out of the trunk aside; worst miss {:.2} % of limb length (target {:.0} %)",
        all.reached,
        all.reach_sets,
        100.0 * all.reached_share(),
        100.0 * MIN_REACHED_SHARE,
        100.0 * all.worst_error,
        100.0 * MAX_WORST_REACH_ERROR,
    );
    say!(
        "kept out of the trunk: {} sets, {} of {} goals ({:.2} %, target under {:.0} %)",
        all.kept_out,
        all.kept_out_goals,
        all.reach_goals,
        100.0 * all.kept_out_goals as f32 / all.reach_goals.max(1) as f32,
        100.0 * MAX_KEPT_OUT_SHARE,
    );
    for (kind, sets, reached) in &all.by_kind {
        say!("  {kind:?}: {reached} of {sets}");
    }
    let mut worst: Vec<(&ik::IkCreatureReport, &ik::ReachResult)> = reports
        .iter()
        .flat_map(|r| r.missed().map(move |m| (r, m)))
        .collect();
    worst.sort_by(|a, b| b.1.error.total_cmp(&a.1.error));
    if !worst.is_empty() {
        say!("\nworst misses:");
        for (r, m) in worst.iter().take(12) {
            let how = subjects
                .iter()
                .find(|s| s.creature.name() == r.creature)
                .map(Subject::how_to_make)
                .unwrap_or_default();
            say!(
                "  {:.2} %  {} {:?} set {} ({})   {}",
                100.0 * m.error,
                r.creature,
                m.kind,
                m.index,
                m.end,
                how
            );
        }
    }
    let kept: Vec<String> = reports
        .iter()
        .flat_map(|r| {
            r.reach.iter().filter_map(move |m| {
                m.kept_out.as_ref().map(|k| {
                    format!(
                        "  {} {:?} set {}: {} kept out of {} ({:.2} radii deep reaching)",
                        r.creature, m.kind, m.index, k.body, k.trunk, k.depth
                    )
                })
            })
        })
        .collect();
    if !kept.is_empty() {
        say!("\nkept out of the trunk (unreachable by construction):");
        for k in kept.iter().take(20) {
            say!("{k}");
        }
        if kept.len() > 20 {
            say!("  … and {} more", kept.len() - 20);
        }
    }
    say!(
        "goal paths: {} walked; the solver without its keep-out jumps on {} (target 0{}), with it on {}; worst jump {:.2} % of the creature's size ({})",
        all.paths,
        all.jumps,
        if continuous { "" } else { ", not yet met" },
        all.kept_out_jumps,
        100.0 * all.worst_jump,
        all.worst_jump_case,
    );
    let mut jumps: Vec<(&ik::IkCreatureReport, &ik::JumpResult, bool)> = reports
        .iter()
        .flat_map(|r| {
            let core = r.jumps.iter().map(move |j| (r, j, false));
            core.chain(r.kept_out_jumps.iter().map(move |j| (r, j, true)))
        })
        .collect();
    jumps.sort_by(|a, b| b.1.jump.total_cmp(&a.1.jump));
    for (r, j, kept) in jumps.iter().take(16) {
        say!(
            "  {:.2} %  {} path {} ({}) at {:.4}: {}{}",
            100.0 * j.jump,
            r.creature,
            j.path,
            if j.anywhere { "anywhere" } else { "bent" },
            j.at,
            j.body,
            if *kept { ", with the keep-out" } else { "" }
        );
    }
    for r in reports.iter().filter(|r| !r.passed()) {
        for u in r.unreachable.iter().filter(|u| !u.passed) {
            say!(
                "unreachable: {} {}: cosine {:.3}, stretch {:.3}",
                r.creature,
                u.end,
                u.cosine,
                u.stretch
            );
        }
        for f in r.rest_failures.iter().chain(&r.path_failures) {
            say!("{}: {f}", r.creature);
        }
        if r.nan_sets > 0 {
            say!("{}: {} goal sets gave NaN", r.creature, r.nan_sets);
        }
    }
    say!("\n{}", if ok { "passed" } else { "FAILED" });
    Ok(ok)
}

/// Each missed set as a creature file and an `anymorph solve` goal file beside it.
fn write_ik_failures(
    dir: &Path,
    subjects: &[Subject],
    reports: &[ik::IkCreatureReport],
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
    let write_goals = |name: String, goals: &[ik::GoalOut]| -> Result<()> {
        let goals: Vec<serde_json::Value> = goals
            .iter()
            .map(|g| {
                serde_json::json!({ "body": g.body, "position": g.position,
                                    "rotation": g.rotation, "weight": 1.0 })
            })
            .collect();
        let path = dir.join(name);
        let text = serde_json::to_string_pretty(&serde_json::json!({ "goals": goals }))?;
        std::fs::write(&path, text).with_context(|| format!("{}", path.display()))
    };
    for (s, r) in subjects.iter().zip(reports) {
        let missed: Vec<&ik::ReachResult> =
            r.reach.iter().filter(|m| !m.goals.is_empty()).collect();
        if missed.is_empty() && r.jumps.is_empty() && r.kept_out_jumps.is_empty() {
            continue;
        }
        save_creature(
            &dir.join(format!("{}.creature.json", r.creature)),
            &s.creature,
        )?;
        for m in missed {
            write_goals(
                format!("{}.{:?}{}.goals.json", r.creature, m.kind, m.index),
                &m.goals,
            )?;
        }
        // A jump as the two goal sets either side of it: `anymorph solve` on each shows
        // the pose on both sides (without the keep-out for `jumps`).
        let jumps = r.jumps.iter().map(|j| ("jump", j));
        for (kind, j) in jumps.chain(r.kept_out_jumps.iter().map(|j| ("kept_out_jump", j))) {
            for (side, goals) in [("before", &j.before), ("after", &j.after)] {
                write_goals(
                    format!("{}.{kind}{}.{side}.goals.json", r.creature, j.path),
                    goals,
                )?;
            }
        }
    }
    Ok(())
}

fn gait_report(
    reports: &[gait::GaitCreatureReport],
    subjects: &[Subject],
    json: bool,
) -> Result<bool> {
    let rows = gait::summarize(reports);
    let all = rows.last().cloned().unwrap_or_default();
    let ok = all.passed == all.walks;
    if json {
        let failing: Vec<&gait::GaitCreatureReport> = reports
            .iter()
            .filter(|r| r.walks.iter().any(|w| !w.passed()))
            .collect();
        let out = serde_json::json!({
            "families": rows,
            "passed": ok,
            "failing_creatures": failing,
        });
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ok);
    }
    say!(
        "{:<16} {:>9} {:>6} {:>7} {:>9} {:>7} {:>9} {:>5} {:>4} {:>11} {:>10}",
        "family",
        "creatures",
        "walks",
        "passed",
        "slipping",
        "dipping",
        "distance",
        "duty",
        "NaN",
        "worst slip",
        "worst dip"
    );
    for r in &rows {
        say!(
            "{:<16} {:>9} {:>6} {:>7} {:>9} {:>7} {:>9} {:>5} {:>4} {:>8.1} mm {:>7.1} mm",
            r.family,
            r.creatures,
            r.walks,
            r.passed,
            r.slipping,
            r.dipping,
            r.off_distance,
            r.off_duty,
            r.nan,
            1e3 * r.worst_slip,
            1e3 * r.worst_dip
        );
    }
    if all.walks > 0 {
        say!("\nworst slip: {}", all.worst_slip_case);
        say!("worst dip: {}", all.worst_dip_case);
    }
    let mut failing = 0;
    for r in reports {
        for w in r.walks.iter().filter(|w| !w.passed()) {
            failing += 1;
            if failing <= 20 {
                let how = subjects
                    .iter()
                    .find(|s| s.creature.name() == r.creature)
                    .map(Subject::how_to_make)
                    .unwrap_or_default();
                say!(
                    "  {} at {} m/s, turn {}, {}: {}   {}",
                    r.creature,
                    w.speed,
                    w.turn,
                    w.terrain,
                    w.problems().join("; "),
                    how
                );
            }
        }
    }
    if failing > 20 {
        say!("  … and {} more failing walks", failing - 20);
    }
    say!("\n{}", if ok { "passed" } else { "FAILED" });
    Ok(ok)
}
