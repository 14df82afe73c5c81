//! `*.project.json`: what the editor opens — clips and preview creatures by relative path,
//! plus preview settings (see docs/FORMAT.md).

use super::json::{self, FormatTag};
use super::{LoadError, SaveError, atomic, load_clip, load_creature, load_gait};
use anymorph_runtime::action::{Action, ActionDef};
use anymorph_runtime::clip::Clip;
use anymorph_runtime::creature::Creature;
use anymorph_runtime::gait::GaitStyle;
use glam::Vec3;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    /// A tester's verdicts on cells of the validation grid, kept with the project so they
    /// survive a re-run that would otherwise repaint the cell.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub validation_marks: Vec<ValidationMark>,
    /// Actions: names with ordered branch clips of this project (see `runtime::action`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<ActionDef>,
}

/// A tester's verdict on one clip × creature × variant of the validation grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidationMark {
    pub clip: String,
    pub creature: String,
    pub variant: usize,
    pub verdict: Verdict,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

impl ValidationMark {
    /// Whether this mark is about that cell and variant.
    pub fn is_for(&self, clip: &str, creature: &str, variant: usize) -> bool {
        self.clip == clip && self.creature == creature && self.variant == variant
    }
}

/// What a tester decided, whatever the automatic checks said.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Pass,
    Fail,
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
    for (i, m) in project.validation_marks.iter().enumerate() {
        // Two verdicts on one cell would make which one the editor shows depend on order.
        if let Some(j) = project.validation_marks[..i]
            .iter()
            .position(|o| o.is_for(&m.clip, &m.creature, m.variant))
        {
            return Err(LoadError::Field {
                path: path.into(),
                field: format!("validation_marks[{i}]"),
                message: format!(
                    "a second mark for clip '{}', creature '{}', variant {} (the first is validation_marks[{j}])",
                    m.clip, m.creature, m.variant
                ),
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
    let clips = load_listed(&project.clips, "clips", dir, &label, load_clip)?;
    let creatures = load_listed(&project.creatures, "creatures", dir, &label, load_creature)?;
    let gaits = load_listed(&project.gaits, "gaits", dir, &label, load_gait)?;
    unique_names(&project, &clips, &gaits, &label)?;
    let _ = resolve_actions(&project.actions, &clips, &label)?;
    Ok(LoadedProject {
        path: path.to_path_buf(),
        project,
        clips,
        creatures,
        gaits,
    })
}

/// Loads a project as the validation grid does: a listed file that cannot be read is left
/// out and returned beside the rest (the run goes on and reports it), and an action loses
/// the branches whose clips were not loaded. The project file itself must load.
pub fn load_project_skipping(path: &Path) -> Result<(LoadedProject, Vec<LoadError>), LoadError> {
    let (label, text) = json::read_text(path)?;
    let mut project = project_from_str(&text, &label)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut skipped = Vec::new();
    let clips = keep_loaded(
        &project.clips,
        "clips",
        dir,
        &label,
        load_clip,
        &mut skipped,
    );
    let clips_lost = skipped.len();
    let creatures = keep_loaded(
        &project.creatures,
        "creatures",
        dir,
        &label,
        load_creature,
        &mut skipped,
    );
    let gaits = keep_loaded(
        &project.gaits,
        "gaits",
        dir,
        &label,
        load_gait,
        &mut skipped,
    );
    if clips_lost > 0 {
        for def in &mut project.actions {
            def.branches.retain(|b| clips.iter().any(|c| &c.name == b));
        }
        project.actions.retain(|def| !def.branches.is_empty());
    }
    if skipped.is_empty() {
        unique_names(&project, &clips, &gaits, &label)?;
    }
    let _ = resolve_actions(&project.actions, &clips, &label)?;
    Ok((
        LoadedProject {
            path: path.to_path_buf(),
            project,
            clips,
            creatures,
            gaits,
        },
        skipped,
    ))
}

/// Clip names and gait style names are unique in a project: a game plays them by name, and
/// its package would not load. The second of two is the error.
fn unique_names(
    project: &Project,
    clips: &[Clip],
    gaits: &[GaitStyle],
    label: &str,
) -> Result<(), LoadError> {
    let second = |names: Vec<&str>| {
        (1..names.len()).find_map(|i| {
            names[..i]
                .iter()
                .position(|n| *n == names[i])
                .map(|j| (i, j))
        })
    };
    let named =
        |list: &str, files: &[PathBuf], names: Vec<&str>, what: &str| match second(names.clone()) {
            Some((i, j)) => Err(LoadError::Field {
                path: label.into(),
                field: format!("{list}[{i}]"),
                message: format!(
                    "{} holds the {what} '{}', as {list}[{j}] ({}) does; names must be unique",
                    files[i].display(),
                    names[i],
                    files[j].display()
                ),
            }),
            None => Ok(()),
        };
    named(
        "clips",
        &project.clips,
        clips.iter().map(|c| c.name.as_str()).collect(),
        "clip",
    )?;
    named(
        "gaits",
        &project.gaits,
        gaits.iter().map(|g| g.name.as_str()).collect(),
        "gait style",
    )
}

/// The files of a project's list that load; the errors of the others go to `skipped`.
fn keep_loaded<T>(
    files: &[PathBuf],
    list: &str,
    dir: &Path,
    project: &str,
    load: fn(&Path) -> Result<T, LoadError>,
    skipped: &mut Vec<LoadError>,
) -> Vec<T> {
    let mut kept = Vec::with_capacity(files.len());
    for (i, p) in files.iter().enumerate() {
        match load(&dir.join(p)) {
            Ok(t) => kept.push(t),
            Err(e) => skipped.push(e.listed_by(project, format!("{list}[{i}]"))),
        }
    }
    kept
}

/// Loads each file of a project's list, an error naming the project, the list's index and
/// the file (`p.project.json: clips[3] (clips/wave.clip.json): …`).
fn load_listed<T>(
    files: &[PathBuf],
    list: &str,
    dir: &Path,
    project: &str,
    load: fn(&Path) -> Result<T, LoadError>,
) -> Result<Vec<T>, LoadError> {
    files
        .iter()
        .enumerate()
        .map(|(i, p)| load(&dir.join(p)).map_err(|e| e.listed_by(project, format!("{list}[{i}]"))))
        .collect()
}

/// The project's actions with their branches among `clips`; `path` labels errors
/// (`actions[i]…`).
pub fn resolve_actions(
    defs: &[ActionDef],
    clips: &[Clip],
    path: &str,
) -> Result<Vec<Action>, LoadError> {
    let shared: Vec<Arc<Clip>> = clips.iter().cloned().map(Arc::new).collect();
    let mut actions: Vec<Action> = Vec::with_capacity(defs.len());
    for (i, def) in defs.iter().enumerate() {
        let field = |field: String, message: String| LoadError::Field {
            path: path.into(),
            field,
            message,
        };
        if actions.iter().any(|a| a.name == def.name) {
            return Err(field(
                format!("actions[{i}].name"),
                format!("two actions are named '{}'", def.name),
            ));
        }
        let action = Action::resolve(def, &shared)
            .map_err(|e| field(format!("actions[{i}].branches"), e.to_string()))?;
        actions.push(action);
    }
    Ok(actions)
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const WITH_MARKS: &str = r#"{ "format": "anymorph-project", "version": 1, "name": "p",
        "validation_marks": [
          { "clip": "wave", "creature": "biped", "variant": 0, "verdict": "fail", "note": "pops" },
          { "clip": "wave", "creature": "biped", "variant": 1, "verdict": "pass" } ] }"#;

    #[test]
    fn validation_marks_round_trip_and_are_left_out_when_empty() {
        let p = project_from_str(WITH_MARKS, "p.json").unwrap();
        assert_eq!(p.validation_marks.len(), 2);
        assert_eq!(p.validation_marks[0].verdict, Verdict::Fail);
        assert_eq!(p.validation_marks[1].note, "");
        let back = project_from_str(&project_to_string(&p), "again.json").unwrap();
        assert_eq!(back, p);
        let mut none = p.clone();
        none.validation_marks.clear();
        assert!(!project_to_string(&none).contains("validation_marks"));
    }

    #[test]
    fn bad_validation_marks_name_the_field() {
        let twice = WITH_MARKS.replace("\"variant\": 1", "\"variant\": 0");
        let e = project_from_str(&twice, "p.json").unwrap_err().to_string();
        assert!(
            e.contains("p.json") && e.contains("validation_marks[1]"),
            "{e}"
        );
        let bad = WITH_MARKS.replace("\"fail\"", "\"maybe\"");
        let e = project_from_str(&bad, "p.json").unwrap_err().to_string();
        assert!(
            e.contains("p.json") && e.contains("validation_marks"),
            "{e}"
        );
    }
}
