//! `*.project.json`: what the editor opens — clips and preview creatures by relative path,
//! plus preview settings (see docs/FORMAT.md).

use super::json::{self, FormatTag};
use super::{LoadError, SaveError, atomic, load_clip, load_creature, load_gait};
use crate::runtime::clip::Clip;
use crate::runtime::creature::Creature;
use crate::runtime::gait::GaitStyle;
use glam::Vec3;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub const PROJECT_FORMAT: FormatTag = FormatTag {
    format: "anymorph-project",
    version: 1,
};

/// A project file. Paths are relative to the project file's folder.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Project {
    pub name: String,
    #[serde(default)]
    pub clips: Vec<PathBuf>,
    #[serde(default)]
    pub creatures: Vec<PathBuf>,
    /// Gait style files, exported with the clips.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaits: Vec<PathBuf>,
    /// The clip the editor shows first, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_clip: Option<String>,
    /// Preview positions of the external targets, character space, by index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub external_targets: Vec<Vec3>,
}

/// A project with its clips and creatures loaded.
#[derive(Clone, Debug)]
pub struct LoadedProject {
    pub path: PathBuf,
    pub project: Project,
    pub clips: Vec<Clip>,
    pub creatures: Vec<Creature>,
    pub gaits: Vec<GaitStyle>,
}

pub fn project_from_str(text: &str, path: &str) -> Result<Project, LoadError> {
    let doc = json::parse_document(text, path, PROJECT_FORMAT)?;
    let project: Project = json::from_value(Value::Object(doc), path)?;
    for (i, v) in project.external_targets.iter().enumerate() {
        if !v.is_finite() {
            return Err(LoadError::Field {
                path: path.into(),
                field: format!("external_targets[{i}]"),
                message: "not a finite position".into(),
            });
        }
    }
    Ok(project)
}

/// Loads a project and everything it references; the first file that fails is the error.
pub fn load_project(path: &Path) -> Result<LoadedProject, LoadError> {
    let (label, text) = json::read_text(path)?;
    let project = project_from_str(&text, &label)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let clips = project
        .clips
        .iter()
        .map(|p| load_clip(&dir.join(p)))
        .collect::<Result<Vec<_>, _>>()?;
    let creatures = project
        .creatures
        .iter()
        .map(|p| load_creature(&dir.join(p)))
        .collect::<Result<Vec<_>, _>>()?;
    let gaits = project
        .gaits
        .iter()
        .map(|p| load_gait(&dir.join(p)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(LoadedProject {
        path: path.to_path_buf(),
        project,
        clips,
        creatures,
        gaits,
    })
}

#[derive(Serialize)]
struct ProjectOut<'a> {
    format: &'static str,
    version: u32,
    #[serde(flatten)]
    project: &'a Project,
}

pub fn project_to_string(project: &Project) -> String {
    json::to_pretty_json(&ProjectOut {
        format: PROJECT_FORMAT.format,
        version: PROJECT_FORMAT.version,
        project,
    })
}

pub fn save_project(path: &Path, project: &Project) -> Result<(), SaveError> {
    atomic::write_atomic(path, project_to_string(project).as_bytes())
}
