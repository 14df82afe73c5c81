//! `anymorph export`: a project's clips as one package for a game.

use crate::io::{Package, load_project, package_to_string, save_package};
use anyhow::Result;
use std::path::Path;

pub(super) fn export(project_path: &Path, out: &Path) -> Result<()> {
    let project = load_project(project_path)?;
    let package = Package::from_project(&project);
    save_package(out, &package)?;
    let bytes = package_to_string(&package).len();
    println!(
        "wrote {}: {} clips, {} gait styles, {bytes} bytes",
        out.display(),
        package.clips.len(),
        package.gait_styles.len()
    );
    Ok(())
}
