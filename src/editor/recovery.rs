//! Autosave and recovery: while the document has unsaved edits the editor writes it, whole,
//! to one recovery file (atomically); a clean save or a clean exit removes it. When the
//! editor starts and finds one, it offers to bring the work back.
//!
//! The file holds the clips themselves (they are what the animator edits) and the creatures
//! by path, or inline when they never had a file.

use crate::editor::document::{Content, Document, RosterEntry};
use crate::io::clip_file::clip_from_value;
use crate::io::{LoadError, SaveError, atomic, creature_from_str, load_creature};
use crate::io::{clip_to_string, creature_to_string};
use glam::Vec3;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

const FORMAT: &str = "anymorph-recovery";
const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct RecoveryFile {
    format: String,
    version: u32,
    /// The project the work belongs to, if it was ever saved.
    project: Option<PathBuf>,
    name: String,
    active_clip: usize,
    clips: Vec<Value>,
    clip_files: Vec<PathBuf>,
    /// Absent in files written before actions were edited in the editor.
    #[serde(default)]
    actions: Option<Vec<crate::runtime::action::ActionDef>>,
    creatures: Vec<CreatureRef>,
    external_targets: Vec<Vec3>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum CreatureRef {
    Path {
        path: PathBuf,
        variant: usize,
    },
    Inline {
        creature: Value,
        variant: usize,
        /// The file an edited creature came from (its mesh reference is relative to it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<PathBuf>,
    },
}

/// Writes the document to the recovery file.
pub fn write(path: &Path, doc: &Document) -> Result<(), SaveError> {
    let to_value = |text: String| serde_json::from_str::<Value>(&text).unwrap_or(Value::Null);
    let file = RecoveryFile {
        format: FORMAT.into(),
        version: VERSION,
        project: doc.path.clone(),
        name: doc.name.clone(),
        active_clip: doc.active_clip,
        clips: doc
            .clips
            .iter()
            .map(|c| to_value(clip_to_string(c)))
            .collect(),
        clip_files: doc.clip_files.clone(),
        actions: Some(doc.actions.clone()),
        creatures: doc
            .roster
            .iter()
            .map(|e| match &e.path {
                Some(p) if !e.edited => CreatureRef::Path {
                    path: p.clone(),
                    variant: e.variant,
                },
                // Unsaved edits live only here.
                path => CreatureRef::Inline {
                    creature: to_value(creature_to_string(&e.creature)),
                    variant: e.variant,
                    path: path.clone(),
                },
            })
            .collect(),
        external_targets: doc.external_targets.clone(),
    };
    let text = serde_json::to_string_pretty(&file).unwrap_or_default();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|source| SaveError {
            path: dir.display().to_string(),
            source,
        })?;
    }
    atomic::write_atomic(path, text.as_bytes())
}

/// Reads a recovery file back into a document. Every clip and creature is validated as if
/// opened from its own file; the first problem is the error.
pub fn read(path: &Path) -> Result<Document, LoadError> {
    let label = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
        path: label.clone(),
        source,
    })?;
    let value = serde_json::from_str::<Value>(&text).map_err(|e| LoadError::Syntax {
        path: label.clone(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let file: RecoveryFile = crate::io::json::from_value(value, &label)?;
    if file.format != FORMAT || file.version != VERSION {
        return Err(LoadError::Field {
            path: label,
            field: "format".into(),
            message: format!(
                "expected {FORMAT} version {VERSION}, found {} version {}",
                file.format, file.version
            ),
        });
    }
    let clips = file
        .clips
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let mut v = v;
            // The envelope fields are what the clip loader checks; they are not part of
            // the clip itself.
            if let Value::Object(m) = &mut v {
                m.remove("format");
                m.remove("version");
            }
            clip_from_value(v, &format!("{label}: clips[{i}]"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let roster = file
        .creatures
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            Ok(match c {
                CreatureRef::Path { path, variant } => RosterEntry {
                    creature: load_creature(&path)?,
                    path: Some(path),
                    variant,
                    edited: false,
                },
                CreatureRef::Inline {
                    creature,
                    variant,
                    path,
                } => RosterEntry {
                    creature: creature_from_str(
                        &creature.to_string(),
                        &format!("{label}: creatures[{i}]"),
                    )?,
                    edited: path.is_some(),
                    path,
                    variant,
                },
            })
        })
        .collect::<Result<Vec<_>, LoadError>>()?;
    let mut doc = match &file.project {
        // Keep what the project file holds beyond the editor's content (gaits, marks).
        Some(p) => Document::open(p).unwrap_or_else(|_| Document::new_project(Vec::new())),
        None => Document::new_project(Vec::new()),
    };
    doc.path = file.project;
    doc.name = file.name;
    let marks = doc.validation_marks.clone();
    let actions = file.actions.unwrap_or_else(|| doc.actions.clone());
    doc.set_content(Content {
        validation_marks: marks,
        actions,
        clip_files: file.clip_files,
        clips,
        roster,
        external_targets: file.external_targets,
    });
    doc.active_clip = file.active_clip.min(doc.clips.len().saturating_sub(1));
    Ok(doc)
}

/// When the recovery file was written, for the offer ("from 14:02").
pub fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_survives_a_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let mut doc = Document::open(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sample.project.json"),
        )
        .unwrap();
        doc.clips[0].duration_secs = 3.25;
        doc.clips[0].validate().unwrap();
        doc.set_target(Vec3::new(0.1, 0.2, 0.3));
        let path = dir.path().join("r.json");
        write(&path, &doc).unwrap();
        let back = read(&path).unwrap();
        assert!(back.clips == doc.clips, "the clips changed on the way");
        assert_eq!(back.roster.len(), doc.roster.len());
        assert_eq!(back.external_targets, doc.external_targets);
        assert_eq!(back.path, doc.path);
    }

    #[test]
    fn a_truncated_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        std::fs::write(&path, "{\"format\": \"anymorph-recovery\", \"vers").unwrap();
        let err = read(&path).unwrap_err().to_string();
        assert!(err.contains("r.json"), "{err}");
    }
}
