//! Autosave and recovery: while the document has unsaved edits the editor writes it, whole,
//! to a recovery file (atomically); a clean save or a clean exit removes it. Each project
//! has its own recovery file (named after the project and a hash of its full path; one
//! more for an untitled project), so work on one project is only ever offered back when
//! that project is opened. The offer says whose work it is, what it holds and how old it is.
//!
//! The file holds the clips themselves (they are what the animator edits) and the creatures
//! by path, or inline when they never had a file.

use crate::document::{Content, Document, RosterEntry};
use anymorph_io::clip_file::clip_from_value;
use anymorph_io::{LoadError, SaveError, atomic, creature_from_str, load_creature};
use anymorph_io::{clip_to_string, creature_to_string};
use glam::Vec3;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

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
    actions: Option<Vec<anymorph_runtime::action::ActionDef>>,
    creatures: Vec<CreatureRef>,
    external_targets: Vec<Vec3>,
    /// The project's gait styles, parallel to its gait files (absent in files written
    /// before styles were edited in the editor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gaits: Option<Vec<Value>>,
    /// How many undo steps the work is past the project file (for the offer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    edits: Option<usize>,
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

/// Writes the document to the recovery file; `edits` is how many undo steps it is past the
/// project file, if known.
pub fn write(path: &Path, doc: &Document, edits: Option<usize>) -> Result<(), SaveError> {
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
        gaits: Some(
            doc.gaits
                .iter()
                .map(|g| serde_json::to_value(&**g).unwrap_or(Value::Null))
                .collect(),
        ),
        edits,
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

/// Reads and parses a recovery file through the loaders' reader, so it has their size cap
/// and their error forms.
fn read_file(path: &Path) -> Result<(String, RecoveryFile), LoadError> {
    let (label, text) = anymorph_io::json::read_text(path)?;
    let file = anymorph_io::json::parse_plain(&text, &label)?;
    Ok((label, file))
}

/// Reads a recovery file back into a document. Every clip and creature is validated as if
/// opened from its own file; the first problem is the error.
pub fn read(path: &Path) -> Result<Document, LoadError> {
    let (label, file) = read_file(path)?;
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
    // Edited styles come back when they still line up with the project's gait files; the
    // ones past its files were made in the editor and have no file yet.
    let gaits = match file.gaits {
        Some(values) if values.len() >= doc.gaits.len() => values
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                anymorph_io::gait_file::gait_from_value(v, &format!("{label}: gaits[{i}]"))
                    .map(std::sync::Arc::new)
            })
            .collect::<Result<Vec<_>, LoadError>>()?,
        _ => doc.gaits.clone(),
    };
    let actions = file.actions.unwrap_or_else(|| doc.actions.clone());
    doc.set_content(Content {
        validation_marks: marks,
        actions,
        clip_files: file.clip_files,
        clips,
        roster,
        external_targets: file.external_targets,
        gaits,
    });
    doc.active_clip = file.active_clip.min(doc.clips.len().saturating_sub(1));
    Ok(doc)
}

/// When the recovery file was written.
pub fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The recovery file of `project` (`None`: an untitled project) in `dir`: the project
/// file's name, for a person looking in the folder, and a hash of its canonical path, so two
/// projects of the same name in different folders never share one.
pub fn file_for(dir: &Path, project: Option<&Path>) -> PathBuf {
    let Some(project) = project else {
        return dir.join(UNTITLED);
    };
    let name = project
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".json").unwrap_or(&name);
    let stem: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    dir.join(format!(
        "{stem}-{:016x}{SUFFIX}",
        fnv1a(canonical(project).as_os_str().as_encoded_bytes())
    ))
}

const SUFFIX: &str = ".recovery.json";
const UNTITLED: &str = "untitled.recovery.json";
/// Where editors before per-project recovery kept their one recovery file.
pub const LEGACY_FILE: &str = "recovery.anymorph.json";

/// The path as the file system resolves it, so `./a.json` and `/x/a.json` are one project.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// Whether two paths name the same project file.
pub fn same_project(a: &Path, b: &Path) -> bool {
    canonical(a) == canonical(b)
}

/// FNV-1a, 64 bits: stable across Rust releases and platforms (std's hasher is neither).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Moves the one recovery file of older editors to the name per-project recovery gives its
/// project, so work autosaved before an update is still offered (and only for its project).
pub fn adopt_legacy(dir: &Path) {
    let legacy = dir.join(LEGACY_FILE);
    if !legacy.exists() {
        return;
    }
    let target = match summary(&legacy) {
        Ok(s) => file_for(dir, s.project.as_deref()),
        Err(e) => {
            log::warn!("{e}");
            return;
        }
    };
    if target.exists() {
        return;
    }
    match std::fs::rename(&legacy, &target) {
        Ok(()) => log::info!("moved {} to {}", legacy.display(), target.display()),
        Err(e) => log::warn!("{}: cannot move: {e}", legacy.display()),
    }
}

/// What a recovery file holds, for the offer: read without loading creatures or clips.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The project the work belongs to (`None`: it was never saved).
    pub project: Option<PathBuf>,
    pub name: String,
    pub clips: usize,
    pub actions: usize,
    pub creatures: usize,
    /// Creatures whose edits (caps) or whose very existence live only in the recovery file.
    pub unsaved_creatures: usize,
    /// Undo steps past the project file, if the file says.
    pub edits: Option<usize>,
    /// When the file was written.
    pub written: Option<SystemTime>,
}

/// Reads what [`Summary`] says about a recovery file.
pub fn summary(path: &Path) -> Result<Summary, LoadError> {
    let (_, file) = read_file(path)?;
    Ok(Summary {
        project: file.project,
        name: file.name,
        clips: file.clips.len(),
        actions: file.actions.map_or(0, |a| a.len()),
        creatures: file.creatures.len(),
        unsaved_creatures: file
            .creatures
            .iter()
            .filter(|c| matches!(c, CreatureRef::Inline { .. }))
            .count(),
        edits: file.edits,
        written: modified(path),
    })
}

impl Summary {
    /// One paragraph for the offer: whose work, what it holds, how old it is.
    pub fn describe(&self, now: SystemTime) -> String {
        let whose = match &self.project {
            Some(p) => format!("'{}' ({})", self.name, p.display()),
            None => format!("the untitled project '{}'", self.name),
        };
        let when = self
            .written
            .and_then(|w| now.duration_since(w).ok())
            .map_or_else(String::new, |age| format!(", autosaved {}", ago(age)));
        let mut holds = vec![
            plural(self.clips, "clip"),
            plural(self.actions, "action"),
            plural(self.creatures, "creature"),
        ];
        if self.unsaved_creatures > 0 {
            holds.push(format!(
                "{} with unsaved changes",
                plural(self.unsaved_creatures, "creature")
            ));
        }
        if let Some(edits) = self.edits {
            holds.push(plural(edits, "unsaved edit"));
        }
        format!("Unsaved work on {whose}{when}: {}.", holds.join(", "))
    }
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// "12 s ago", "3 min ago", "5 h ago", "2 days ago".
fn ago(age: Duration) -> String {
    let s = age.as_secs();
    match s {
        0..60 => format!("{s} s ago"),
        60..3600 => format!("{} min ago", s / 60),
        3600..86400 => format!("{} h ago", s / 3600),
        _ => plural(usize::try_from(s / 86400).unwrap_or(usize::MAX), "day") + " ago",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_survives_a_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let mut doc = Document::open(
            &Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
                .join("assets/sample.project.json"),
        )
        .unwrap();
        doc.clips[0].duration_secs = 3.25;
        doc.clips[0].validate().unwrap();
        doc.set_target(Vec3::new(0.1, 0.2, 0.3));
        let mut trot = (*doc.gaits[1]).clone();
        trot.groups[1].speeds[0].duty_per_foot = vec![0.7, 0.5];
        doc.gaits[1] = std::sync::Arc::new(trot);
        let path = dir.path().join("r.json");
        write(&path, &doc, Some(3)).unwrap();
        let back = read(&path).unwrap();
        assert!(back.clips == doc.clips, "the clips changed on the way");
        assert_eq!(back.roster.len(), doc.roster.len());
        assert_eq!(back.external_targets, doc.external_targets);
        assert_eq!(back.gaits, doc.gaits, "an edited gait style was lost");
        assert_eq!(back.path, doc.path);
    }

    #[test]
    fn each_project_has_its_own_file() {
        let dir = tempfile::tempdir().unwrap();
        let r = Path::new("/r");
        let a = dir.path().join("a/walk.project.json");
        let b = dir.path().join("b/walk.project.json");
        std::fs::create_dir_all(a.parent().unwrap()).unwrap();
        std::fs::write(&a, "{}").unwrap();
        let fa = file_for(r, Some(&a));
        assert_ne!(fa, file_for(r, Some(&b)), "same name, other folder");
        assert_ne!(fa, file_for(r, None));
        // The same file however it is reached.
        let dotted = a.parent().unwrap().join("../a/./walk.project.json");
        assert_eq!(fa, file_for(r, Some(&dotted)));
        let name = fa.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("walk.project-"), "{name}");
        assert!(name.ends_with(".recovery.json"), "{name}");
        assert_eq!(file_for(r, None), r.join("untitled.recovery.json"));
        // Stable across runs and releases: a file written today is found tomorrow.
        assert_eq!(fnv1a(b"anymorph"), 0x6293_7fb7_049b_3e4d);
    }

    #[test]
    fn the_summary_says_whose_work_what_it_holds_and_how_old() {
        let dir = tempfile::tempdir().unwrap();
        let project = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("assets/sample.project.json");
        let mut doc = Document::open(&project).unwrap();
        let mut edited = doc.roster[0].clone();
        edited.edited = true;
        doc.roster.push(edited);
        let path = dir.path().join("r.json");
        write(&path, &doc, Some(7)).unwrap();
        let s = summary(&path).unwrap();
        assert_eq!(s.project.as_deref(), Some(project.as_path()));
        assert_eq!((s.clips, s.creatures), (doc.clips.len(), doc.roster.len()));
        assert_eq!((s.unsaved_creatures, s.edits), (1, Some(7)));
        let later = s.written.unwrap() + Duration::from_secs(180);
        let text = s.describe(later);
        assert!(text.contains(&doc.name), "{text}");
        assert!(text.contains("sample.project.json"), "{text}");
        assert!(text.contains("autosaved 3 min ago"), "{text}");
        assert!(
            text.contains(&format!("{} clips", doc.clips.len())),
            "{text}"
        );
        assert!(text.contains("1 creature with unsaved changes"), "{text}");
        assert!(text.contains("7 unsaved edits"), "{text}");
    }

    #[test]
    fn a_legacy_file_moves_to_its_projects_name() {
        let dir = tempfile::tempdir().unwrap();
        let project = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("assets/sample.project.json");
        let doc = Document::open(&project).unwrap();
        write(&dir.path().join(LEGACY_FILE), &doc, Some(1)).unwrap();
        adopt_legacy(dir.path());
        assert!(!dir.path().join(LEGACY_FILE).exists());
        assert!(file_for(dir.path(), Some(&project)).exists());
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
