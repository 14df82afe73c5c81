//! `anymorph export`: a project's clips as one package for a game, with an optional size
//! report per clip and channel and optional key reduction.

use crate::io::key_reduction::{Tolerance, reduce_clip};
use crate::io::package_stats::{size_report, size_report_text};
use crate::io::{Package, load_project, package_to_string, save_package};
use anyhow::{Result, bail};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;

pub(super) struct ExportArgs<'a> {
    pub project: &'a Path,
    pub out: &'a Path,
    pub report: bool,
    pub json: bool,
    pub reduce: Option<f32>,
    pub reduce_channel: &'a [(String, f32)],
}

pub(super) fn export(args: ExportArgs) -> Result<()> {
    let project = load_project(args.project)?;
    let mut package = Package::from_project(&project);
    let mut reductions = Vec::new();
    if args.reduce.is_some() || !args.reduce_channel.is_empty() {
        let tolerance = Tolerance {
            default: args.reduce.unwrap_or(0.0),
            channels: args.reduce_channel.iter().cloned().collect(),
        };
        if !(tolerance.default.is_finite() && tolerance.default >= 0.0)
            || tolerance
                .channels
                .values()
                .any(|t| !(t.is_finite() && *t >= 0.0))
        {
            bail!("--reduce: tolerances must be finite numbers ≥ 0");
        }
        for clip in &mut package.clips {
            let mut reduced = clip.as_ref().clone();
            reductions.extend(reduce_clip(&mut reduced, &tolerance));
            // Loop periods are set on every curve again by validation.
            reduced
                .validate()
                .map_err(|e| anyhow::anyhow!("clip '{}' after reduction: {e}", reduced.name))?;
            *clip = Arc::new(reduced);
        }
    }
    save_package(args.out, &package)?;
    let bytes = package_to_string(&package).len();
    let report = (args.report || args.json).then(|| size_report(&package));
    if args.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "out": args.out.display().to_string(),
                "bytes": bytes,
                "clips": report,
                "reduction": reductions,
            }))?
        );
        return Ok(());
    }
    say!(
        "wrote {}: {} clips, {} gait styles, {bytes} bytes",
        args.out.display(),
        package.clips.len(),
        package.gait_styles.len()
    );
    if !reductions.is_empty() {
        let before: usize = reductions.iter().map(|r| r.keys_before).sum();
        let after: usize = reductions.iter().map(|r| r.keys_after).sum();
        let worst = reductions.iter().map(|r| r.max_error).fold(0.0, f32::max);
        say!("key reduction: {before} → {after} keys (largest change {worst:.6})");
    }
    if let Some(r) = report {
        say_raw!("{}", size_report_text(&r));
    }
    Ok(())
}

/// `NAME=TOLERANCE` for `--reduce-channel`.
pub(super) fn parse_channel_tolerance(s: &str) -> Result<(String, f32), String> {
    let (name, tol) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("expected CHANNEL=TOLERANCE, found '{s}'"))?;
    let tol: f32 = tol
        .trim()
        .parse()
        .map_err(|_| format!("'{tol}' is not a number"))?;
    if !(tol.is_finite() && tol >= 0.0) {
        return Err(format!("'{tol}' is not a finite number ≥ 0"));
    }
    Ok((name.to_string(), tol))
}
