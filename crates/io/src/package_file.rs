//! `*.package.json`: what a game loads — every clip of a project (and, with the gait system,
//! its gait styles) in one versioned file (see docs/FORMAT.md).

use super::clip_file::clip_error;
use super::gait_file::gait_from_value;
use super::json::{self, FormatTag};
use super::{LoadError, LoadedProject, SaveError, atomic};
use anymorph_runtime::action::{Action, ActionDef};
use anymorph_runtime::clip::Clip;
use anymorph_runtime::gait::GaitStyle;
use serde::Serialize;
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

/// Version 2 added `actions`; version 1 files (no actions) still load.
pub const PACKAGE_FORMAT: FormatTag = FormatTag {
    format: "anymorph-package",
    version: 2,
};

/// The oldest package version that still loads.
pub const OLDEST_PACKAGE_VERSION: u32 = 1;

/// An exported animation package.
#[derive(Clone, Debug)]
pub struct Package {
    pub name: String,
    pub clips: Vec<Arc<Clip>>,
    pub gait_styles: Vec<Arc<GaitStyle>>,
    /// What a game asks a creature to do, each played by the first of its branch clips
    /// that binds.
    pub actions: Vec<Arc<Action>>,
}

impl Package {
    /// Everything a project holds that a game plays.
    pub fn from_project(project: &LoadedProject) -> Package {
        let clips: Vec<Arc<Clip>> = project.clips.iter().cloned().map(Arc::new).collect();
        // Loading the project checked every branch; an action whose clip was renamed or
        // removed since (in the editor) is left out rather than exported half.
        let actions = project
            .project
            .actions
            .iter()
            .filter_map(|def| Action::resolve(def, &clips).ok())
            .map(Arc::new)
            .collect();
        Package {
            name: project.project.name.clone(),
            clips,
            gait_styles: project.gaits.iter().cloned().map(Arc::new).collect(),
            actions,
        }
    }

    pub fn action(&self, name: &str) -> Option<&Arc<Action>> {
        self.actions.iter().find(|a| a.name == name)
    }

    pub fn clip(&self, name: &str) -> Option<&Arc<Clip>> {
        self.clips.iter().find(|c| c.name == name)
    }

    pub fn gait_style(&self, name: &str) -> Option<&Arc<GaitStyle>> {
        self.gait_styles.iter().find(|g| g.name == name)
    }
}

pub fn load_package(path: &Path) -> Result<Package, LoadError> {
    let (label, text) = json::read_text(path)?;
    package_from_str(&text, &label)
}

/// Parses and validates a package; `path` only labels errors.
pub fn package_from_str(text: &str, path: &str) -> Result<Package, LoadError> {
    let doc = json::parse_document_since(text, path, PACKAGE_FORMAT, OLDEST_PACKAGE_VERSION)?;
    let field = |field: &str, message: &str| LoadError::Field {
        path: path.into(),
        field: field.into(),
        message: message.into(),
    };
    let name = match doc.get("name") {
        Some(Value::String(s)) => s.clone(),
        _ => return Err(field("name", "expected a string")),
    };
    let Some(Value::Array(clips)) = doc.get("clips") else {
        return Err(field("clips", "expected an array of clips"));
    };
    let mut loaded = Vec::with_capacity(clips.len());
    for (i, c) in clips.iter().enumerate() {
        let clip = json::from_value::<Clip>(c.clone(), path)
            .map_err(|e| prefixed(e, &format!("clips[{i}]")))
            .and_then(|mut clip| {
                clip.validate()
                    .map_err(|e| prefixed(clip_error(e, path), &format!("clips[{i}]")))?;
                Ok(clip)
            })?;
        if loaded.iter().any(|o: &Arc<Clip>| o.name == clip.name) {
            return Err(field(
                &format!("clips[{i}].name"),
                &format!("two clips are named '{}'", clip.name),
            ));
        }
        loaded.push(Arc::new(clip));
    }
    let gait_styles = match doc.get("gait_styles") {
        None => Vec::new(),
        Some(Value::Array(styles)) => {
            let mut loaded: Vec<Arc<GaitStyle>> = Vec::with_capacity(styles.len());
            for (i, g) in styles.iter().enumerate() {
                let style = gait_from_value(g.clone(), path)
                    .map_err(|e| prefixed(e, &format!("gait_styles[{i}]")))?;
                if loaded.iter().any(|o| o.name == style.name) {
                    return Err(field(
                        &format!("gait_styles[{i}].name"),
                        &format!("two gait styles are named '{}'", style.name),
                    ));
                }
                loaded.push(Arc::new(style));
            }
            loaded
        }
        Some(_) => return Err(field("gait_styles", "expected an array")),
    };
    let actions = match doc.get("actions") {
        None => Vec::new(),
        Some(Value::Array(defs)) => {
            let mut actions: Vec<Arc<Action>> = Vec::with_capacity(defs.len());
            for (i, d) in defs.iter().enumerate() {
                let def = json::from_value::<ActionDef>(d.clone(), path)
                    .map_err(|e| prefixed(e, &format!("actions[{i}]")))?;
                if actions.iter().any(|a| a.name == def.name) {
                    return Err(field(
                        &format!("actions[{i}].name"),
                        &format!("two actions are named '{}'", def.name),
                    ));
                }
                let action = Action::resolve(&def, &loaded)
                    .map_err(|e| field(&format!("actions[{i}].branches"), &e.to_string()))?;
                actions.push(Arc::new(action));
            }
            actions
        }
        Some(_) => return Err(field("actions", "expected an array")),
    };
    Ok(Package {
        name,
        clips: loaded,
        gait_styles,
        actions,
    })
}

fn prefixed(e: LoadError, prefix: &str) -> LoadError {
    match e {
        LoadError::Field {
            path,
            field,
            message,
        } => LoadError::Field {
            path,
            field: if field == "(document)" {
                prefix.to_string()
            } else {
                format!("{prefix}.{field}")
            },
            message,
        },
        other => other,
    }
}

#[derive(Serialize)]
struct PackageOut<'a> {
    format: &'static str,
    version: u32,
    name: &'a str,
    clips: Vec<&'a Clip>,
    gait_styles: Vec<&'a GaitStyle>,
    actions: Vec<ActionDef>,
}

pub fn package_to_string(package: &Package) -> String {
    json::to_pretty_json(&PackageOut {
        format: PACKAGE_FORMAT.format,
        version: PACKAGE_FORMAT.version,
        name: &package.name,
        clips: package.clips.iter().map(|c| c.as_ref()).collect(),
        gait_styles: package.gait_styles.iter().map(|g| g.as_ref()).collect(),
        actions: package.actions.iter().map(|a| a.to_def()).collect(),
    })
}

pub fn save_package(path: &Path, package: &Package) -> Result<(), SaveError> {
    atomic::write_atomic(path, package_to_string(package).as_bytes())
}
