//! `anymorph open PROJECT` and `anymorph` with no arguments: the editor window.

use anyhow::Result;
use std::path::PathBuf;

/// What `open` was asked.
pub(super) struct OpenArgs {
    /// `None`: the bundled sample project.
    pub project: Option<PathBuf>,
    pub bench_frames: Option<usize>,
    pub bench_creatures: Option<usize>,
}

#[cfg(feature = "editor")]
pub(super) fn open(args: OpenArgs) -> Result<()> {
    use crate::editor::{AppOptions, RunOptions, run};
    let mut app = AppOptions::sample();
    if let Some(project) = args.project {
        app.project = project;
    }
    run(RunOptions {
        app,
        bench_frames: args.bench_frames,
        bench_creatures: args.bench_creatures,
        window_size: [1280.0, 800.0],
    })
}

/// Built without the editor (a game or a build server): say so, or tour the samples when
/// no project was named.
#[cfg(not(feature = "editor"))]
pub(super) fn open(args: OpenArgs) -> Result<()> {
    // Nothing to measure without a window.
    let _ = (args.bench_frames, args.bench_creatures);
    match args.project {
        None => super::demo::demo(),
        Some(_) => {
            anyhow::bail!("this build has no editor (it was built without the `editor` feature)")
        }
    }
}
