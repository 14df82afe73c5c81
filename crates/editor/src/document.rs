//! The open project as the editor holds it: clips, the creatures previewed side by side
//! (the roster) with their chosen variants, and the external targets. Every change bumps a
//! revision so the preview rebuilds exactly what went stale on the next frame.

use anymorph_io::atomic::write_if_changed;
use anymorph_io::gait_to_string;
use anymorph_io::project_file::project_to_string;
use anymorph_io::{
    LoadedProject, Project, SaveError, clip_to_string, creature_to_string, load_creature,
    load_project,
};
use anymorph_runtime::action::ActionDef;
use anymorph_runtime::clip::Clip;
use anymorph_runtime::creature::Creature;
use anymorph_runtime::gait::GaitStyle;
use glam::Vec3;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One creature in the preview.
#[derive(Clone, Debug)]
pub struct RosterEntry {
    pub creature: Creature,
    /// The file it came from, if any.
    pub path: Option<PathBuf>,
    /// The variant the animator chose (index into the binding's variants).
    pub variant: usize,
    /// Changed in the editor (caps) since it was read from or written to `path`: a project
    /// save writes it out rather than trusting the file.
    pub edited: bool,
}

/// Counters that say what changed since the preview last looked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Revisions {
    /// Clip contents or which clip is active.
    pub clip: u64,
    /// Creatures added or removed.
    pub roster: u64,
    /// Any variant choice.
    pub variants: u64,
    /// External targets.
    pub targets: u64,
    /// Actions and their branches.
    pub actions: u64,
    /// The project's gait styles.
    pub gaits: u64,
}

/// The part of the document that undo restores: everything a save writes except where.
#[derive(Clone, Debug, Default)]
pub struct Content {
    pub validation_marks: Vec<anymorph_io::ValidationMark>,
    pub clips: Vec<Clip>,
    pub clip_files: Vec<PathBuf>,
    /// What a game asks for by name, each played by the first of its branch clips that binds.
    pub actions: Vec<ActionDef>,
    pub roster: Vec<RosterEntry>,
    pub external_targets: Vec<Vec3>,
    /// The project's gait styles, parallel to the project's `gaits` files.
    pub gaits: Vec<Arc<GaitStyle>>,
}

/// The project being edited.
#[derive(Clone, Debug, Default)]
pub struct Document {
    pub path: Option<PathBuf>,
    pub name: String,
    /// The project file as loaded; a save rewrites the parts the editor owns and keeps the
    /// rest (gaits, fields added by newer tools).
    pub project: Option<Project>,
    pub clips: Vec<Clip>,
    /// Testers' pass/fail marks on validation cells, saved in the project.
    pub validation_marks: Vec<anymorph_io::ValidationMark>,
    /// Where each clip is saved, relative to the project file's folder.
    pub clip_files: Vec<PathBuf>,
    /// The project's actions; branches name clips of `clips`.
    pub actions: Vec<ActionDef>,
    pub active_clip: usize,
    pub roster: Vec<RosterEntry>,
    /// External targets in character space, by index (what the game would set).
    pub external_targets: Vec<Vec3>,
    /// The project's own targets, for "Reset Target".
    pub project_targets: Vec<Vec3>,
    /// The project's gait styles, parallel to the project's `gaits` files: the preview's
    /// walk and the style editor's. A save writes the ones that changed to their files.
    pub gaits: Vec<Arc<GaitStyle>>,
    /// Each gait style as its file holds it (as loaded or last saved), so a save rewrites
    /// only the styles that were edited: a hand-written file keeps its own layout.
    saved_gaits: Vec<Arc<GaitStyle>>,
    pub revisions: Revisions,
    /// A pose the animator moved the active body to but has not keyed (auto-key off): the
    /// active clip with that key, shown until keyed or dropped. Not saved, not undone.
    pending: Option<Clip>,
    /// The channel played alone in the preview.
    solo: Option<usize>,
    /// What the preview plays when it is not simply the active clip.
    shown: Option<Clip>,
    /// External targets shown in place of `external_targets` while a validation cell is
    /// viewed: where the grid had them, so the pose is the one it checked. A view, not an
    /// edit: not saved, not undone, gone at the next target edit or Reset Target.
    viewed_targets: Option<Vec<Vec3>>,
}

impl Document {
    pub fn from_project(loaded: LoadedProject) -> Self {
        let project_dir = loaded.path.parent().map(Path::to_path_buf);
        let active_clip = loaded
            .project
            .active_clip
            .as_deref()
            .and_then(|name| loaded.clips.iter().position(|c| c.name == name))
            .unwrap_or(0);
        let roster = loaded
            .creatures
            .into_iter()
            .zip(&loaded.project.creatures)
            .map(|(creature, rel)| RosterEntry {
                creature,
                path: project_dir.as_ref().map(|d| d.join(rel)),
                variant: 0,
                edited: false,
            })
            .collect();
        Document {
            path: Some(loaded.path),
            name: loaded.project.name.clone(),
            clip_files: loaded.project.clips.clone(),
            project: Some(loaded.project.clone()),
            validation_marks: loaded.project.validation_marks.clone(),
            actions: loaded.project.actions.clone(),
            clips: loaded.clips,
            active_clip,
            roster,
            external_targets: loaded.project.external_targets.clone(),
            project_targets: loaded.project.external_targets,
            saved_gaits: loaded.gaits.iter().cloned().map(Arc::new).collect(),
            gaits: loaded.gaits.into_iter().map(Arc::new).collect(),
            revisions: Revisions::default(),
            pending: None,
            solo: None,
            shown: None,
            viewed_targets: None,
        }
    }

    /// A new, unsaved project with one empty clip, previewed on `roster`.
    pub fn new_project(roster: Vec<RosterEntry>) -> Self {
        let clip = Clip::new("untitled", 2.0);
        Document {
            path: None,
            name: "Untitled".into(),
            project: None,
            validation_marks: Vec::new(),
            clip_files: vec![clip_file_name(&clip)],
            actions: Vec::new(),
            clips: vec![clip],
            active_clip: 0,
            roster,
            external_targets: Vec::new(),
            project_targets: Vec::new(),
            gaits: Vec::new(),
            saved_gaits: Vec::new(),
            revisions: Revisions::default(),
            pending: None,
            solo: None,
            shown: None,
            viewed_targets: None,
        }
    }

    /// What the preview plays: the active clip, with an unkeyed pose and solo applied.
    pub fn shown_clip(&self) -> Option<&Clip> {
        self.shown.as_ref().or_else(|| self.clip())
    }

    pub fn pending(&self) -> Option<&Clip> {
        self.pending.as_ref()
    }

    /// Shows `clip` (the active clip with an unkeyed pose) until keyed or dropped.
    pub fn set_pending(&mut self, clip: Option<Clip>) {
        if clip.is_none() && self.pending.is_none() {
            return;
        }
        self.pending = clip;
        self.refresh_shown();
    }

    pub fn solo(&self) -> Option<usize> {
        self.solo
    }

    pub fn set_solo(&mut self, channel: Option<usize>) {
        self.solo = channel;
        self.refresh_shown();
    }

    fn refresh_shown(&mut self) {
        self.shown = match (&self.pending, self.solo) {
            (None, None) => None,
            (pending, solo) => pending
                .clone()
                .or_else(|| self.clip().cloned())
                .map(|mut c| {
                    if let Some(s) = solo.filter(|&s| s < c.channels.len()) {
                        for (i, ch) in c.channels.iter_mut().enumerate() {
                            ch.muted |= i != s;
                        }
                    }
                    c
                }),
        };
        self.revisions.clip += 1;
    }

    /// A snapshot of what undo restores.
    pub fn content(&self) -> Content {
        Content {
            validation_marks: self.validation_marks.clone(),
            clips: self.clips.clone(),
            clip_files: self.clip_files.clone(),
            actions: self.actions.clone(),
            roster: self.roster.clone(),
            external_targets: self.external_targets.clone(),
            gaits: self.gaits.clone(),
        }
    }

    /// Puts a snapshot back (undo, redo, recovery).
    pub fn set_content(&mut self, content: Content) {
        // Bump only what changed: a target drag must not rebind every creature.
        let clips_changed = self.clips != content.clips;
        let same_creatures = self.roster.len() == content.roster.len()
            && self.roster.iter().zip(&content.roster).all(|(a, b)| {
                // A caps edit keeps the file and the name but changes the creature.
                a.path == b.path
                    && a.creature.name() == b.creature.name()
                    && a.creature.bodies() == b.creature.bodies()
                    && a.creature.extra() == b.creature.extra()
            });
        let variants_changed = self
            .roster
            .iter()
            .zip(&content.roster)
            .any(|(a, b)| a.variant != b.variant);
        if self.external_targets != content.external_targets {
            self.revisions.targets += 1;
            self.viewed_targets = None;
        }
        if !same_creatures {
            self.revisions.roster += 1;
        } else if variants_changed {
            self.revisions.variants += 1;
        }
        if self.actions != content.actions {
            self.revisions.actions += 1;
        }
        if self.gaits != content.gaits {
            self.revisions.gaits += 1;
        }
        self.gaits = content.gaits;
        self.validation_marks = content.validation_marks;
        self.actions = content.actions;
        self.clips = content.clips;
        self.clip_files = content.clip_files;
        self.roster = content.roster;
        self.external_targets = content.external_targets;
        self.active_clip = self.active_clip.min(self.clips.len().saturating_sub(1));
        if clips_changed {
            self.pending = None;
            self.refresh_shown();
        }
    }

    /// Replaces one clip (an edit, its undo or its redo).
    pub fn replace_clip(&mut self, index: usize, clip: Clip) {
        if let Some(c) = self.clips.get_mut(index) {
            if c.name != clip.name {
                // A renamed clip stays the branch it was: actions refer to clips by name.
                // Undo renames back through here too.
                rename_branches(&mut self.actions, &c.name, &clip.name);
                self.revisions.actions += 1;
            }
            *c = clip;
            self.pending = None;
            self.refresh_shown();
        }
    }

    /// Writes the project to `path` with every clip next to it (`clip_files` relative to its
    /// folder) and creatures that have no file yet; each file is replaced atomically, the
    /// project file last, so a crash midway leaves the old project readable. A file that
    /// already holds exactly what it would be written with is left alone, so a save touches
    /// only what changed (version control, backups and file watchers see only that).
    pub fn save_as(&mut self, path: &Path) -> Result<(), SaveError> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let old_dir = self
            .path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf);
        while self.clip_files.len() < self.clips.len() {
            let clip = &self.clips[self.clip_files.len()];
            self.clip_files.push(clip_file_name(clip));
        }
        for (clip, file) in self.clips.iter().zip(&self.clip_files) {
            let file = dir.join(file);
            make_parent(&file)?;
            write_if_changed(&file, clip_to_string(clip).as_bytes())?;
        }
        let mut creatures = Vec::with_capacity(self.roster.len());
        for entry in &mut self.roster {
            let file = match &entry.path {
                // An edited creature file is rewritten in place; a rig cannot be, so its
                // edits go to a creature file that refers to the rig for its mesh.
                Some(p) if !entry.edited => p.clone(),
                Some(p) if !anymorph_io::gltf::is_gltf_path(p) => {
                    save_creature(p, &entry.creature)?;
                    entry.edited = false;
                    p.clone()
                }
                _ => {
                    let p = dir.join("creatures").join(format!(
                        "{}.creature.json",
                        file_stem(entry.creature.name())
                    ));
                    make_parent(&p)?;
                    let creature = relocated(&entry.creature, entry.path.as_deref(), &p);
                    save_creature(&p, &creature)?;
                    entry.creature = creature;
                    entry.path = Some(p.clone());
                    entry.edited = false;
                    p
                }
            };
            creatures.push(relative_to(&file, dir));
        }
        let mut project = self.project.clone().unwrap_or_default();
        // A style at a place whose file holds another style (saved, then undone, then a
        // different style added) is not an edit of that file: it gets one of its own.
        let known = self
            .gaits
            .iter()
            .zip(&self.saved_gaits)
            .take_while(|(a, b)| a.name == b.name)
            .count();
        project.gaits.truncate(known.min(self.gaits.len()));
        // An edited style goes back to its own file, wherever the project is saved.
        let gait_dir = old_dir.clone().unwrap_or_else(|| dir.to_path_buf());
        for (i, (style, file)) in self.gaits.iter().zip(&project.gaits).enumerate() {
            if self.saved_gaits.get(i) != Some(style) {
                write_if_changed(&gait_dir.join(file), gait_to_string(style).as_bytes())?;
            }
        }
        // Gait files stay where they are; only the way to reach them changes.
        if let Some(old) = &old_dir {
            project.gaits = project
                .gaits
                .iter()
                .map(|g| relative_to(&old.join(g), dir))
                .collect();
        }
        // Styles added in the editor have no file yet: each gets one beside the project,
        // never over a file that holds something else (a Save As into a folder that has a
        // style of that name).
        for style in &self.gaits[project.gaits.len()..] {
            let text = gait_to_string(style);
            let file = (1..)
                .map(|k| match k {
                    1 => gait_file_name(&style.name),
                    k => gait_file_name(&format!("{}_{k}", style.name)),
                })
                .find(|f| {
                    !project.gaits.contains(f)
                        && std::fs::read(dir.join(f))
                            .ok()
                            .is_none_or(|held| held == text.as_bytes())
                })
                .unwrap_or_else(|| gait_file_name(&style.name));
            let path = dir.join(&file);
            make_parent(&path)?;
            write_if_changed(&path, text.as_bytes())?;
            project.gaits.push(file);
        }
        self.saved_gaits = self.gaits.clone();
        project.name = self.name.clone();
        project.clips = self.clip_files[..self.clips.len()].to_vec();
        project.creatures = creatures;
        project.active_clip = self.clip().map(|c| c.name.clone());
        project.external_targets = self.external_targets.clone();
        project.validation_marks = self.validation_marks.clone();
        project.actions = self.saved_actions();
        write_if_changed(path, project_to_string(&project).as_bytes())?;
        self.project = Some(project);
        self.path = Some(path.to_path_buf());
        self.project_targets = self.external_targets.clone();
        Ok(())
    }

    /// The actions as the project file must hold them: only branches naming clips the
    /// project has (a load rejects any other), and no action left without a branch.
    pub fn saved_actions(&self) -> Vec<ActionDef> {
        self.actions
            .iter()
            .map(|a| ActionDef {
                branches: a
                    .branches
                    .iter()
                    .filter(|b| self.clips.iter().any(|c| &c.name == *b))
                    .cloned()
                    .collect(),
                ..a.clone()
            })
            .filter(|a| !a.branches.is_empty())
            .collect()
    }

    /// The actions `clip` is a branch of, by index.
    pub fn actions_of(&self, clip: &str) -> Vec<usize> {
        (0..self.actions.len())
            .filter(|&i| self.actions[i].branches.iter().any(|b| b == clip))
            .collect()
    }

    /// Loads a project file with everything it references.
    pub fn open(path: &Path) -> Result<Self, anymorph_io::LoadError> {
        Ok(Document::from_project(load_project(path)?))
    }

    pub fn clip(&self) -> Option<&Clip> {
        self.clips.get(self.active_clip)
    }

    pub fn set_active_clip(&mut self, index: usize) {
        if index < self.clips.len() && index != self.active_clip {
            self.active_clip = index;
            // Variant indices mean nothing across clips.
            for e in &mut self.roster {
                e.variant = 0;
            }
            self.pending = None;
            self.solo = None;
            self.refresh_shown();
        }
    }

    pub fn add_creature(&mut self, creature: Creature, path: Option<PathBuf>) {
        self.roster.push(RosterEntry {
            creature,
            path,
            variant: 0,
            edited: false,
        });
        self.revisions.roster += 1;
    }

    /// Loads a creature file and adds it to the roster.
    pub fn add_creature_file(&mut self, path: &Path) -> Result<(), anymorph_io::LoadError> {
        let creature = load_creature(path)?;
        self.add_creature(creature, Some(path.to_path_buf()));
        Ok(())
    }

    pub fn remove_creature(&mut self, index: usize) -> Option<RosterEntry> {
        (index < self.roster.len()).then(|| {
            self.revisions.roster += 1;
            self.roster.remove(index)
        })
    }

    pub fn set_variant(&mut self, creature: usize, variant: usize) {
        if let Some(e) = self.roster.get_mut(creature)
            && e.variant != variant
        {
            e.variant = variant;
            self.revisions.variants += 1;
        }
    }

    /// External target 0, where previews aim reach and look-at channels.
    pub fn target(&self) -> Option<Vec3> {
        self.shown_targets().first().copied()
    }

    /// The external targets the preview aims at: the project's, or a viewed cell's.
    pub fn shown_targets(&self) -> &[Vec3] {
        self.viewed_targets
            .as_deref()
            .unwrap_or(&self.external_targets)
    }

    /// Shows `targets` in place of the project's without editing them (a validation cell
    /// as the grid checked it); `None` goes back to the project's.
    pub fn view_targets(&mut self, targets: Option<Vec<Vec3>>) {
        if self.viewed_targets != targets {
            self.viewed_targets = targets;
            self.revisions.targets += 1;
        }
    }

    pub fn set_target(&mut self, at: Vec3) {
        if !at.is_finite() {
            return;
        }
        self.viewed_targets = None;
        match self.external_targets.first_mut() {
            Some(t) => *t = at,
            None => self.external_targets.push(at),
        }
        self.revisions.targets += 1;
    }

    pub fn reset_targets(&mut self) {
        self.viewed_targets = None;
        self.external_targets = self.project_targets.clone();
        self.revisions.targets += 1;
    }
}

/// The creature as it should be written to `to`: its `"mesh"` reference, relative to the
/// file it was read from (`from`), made relative to `to`'s folder so it still finds the rig.
pub fn relocated(creature: &Creature, from: Option<&Path>, to: &Path) -> Creature {
    let rig = from.and_then(|f| crate::meshes::rig_path(creature, f));
    let Some(rig) = rig else {
        return creature.clone();
    };
    let dir = to.parent().unwrap_or(Path::new("."));
    let mut extra = creature.extra().clone();
    let rel = relative_to(&rig, dir);
    // glTF and JSON paths use forward slashes whatever the platform.
    let rel = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    extra.insert("mesh".into(), serde_json::Value::String(rel));
    Creature::with_extras(creature.name(), creature.to_defs(), extra)
        .unwrap_or_else(|_| creature.clone())
}

/// Writes roster creature `entry` to `path` as `*.creature.json` (atomically), with its mesh
/// reference following it; returns the entry as the project should now hold it.
/// Every branch named `from` now names `to`.
impl Content {
    /// Puts `clip` into the library at `index` (clamped) with a name no other clip has and a
    /// file of its own: its name, or the name with `_2`, `_3`… A file is taken when another
    /// clip is saved there or `file_taken` says so (a file on disk the project does not
    /// list, which a save would otherwise overwrite). Returns where it went.
    pub fn insert_clip(
        &mut self,
        index: usize,
        mut clip: Clip,
        file_taken: impl Fn(&Path) -> bool,
    ) -> usize {
        let base = clip.name.clone();
        let same_file = |a: &Path, b: &Path| {
            a.to_string_lossy().to_lowercase() == b.to_string_lossy().to_lowercase()
        };
        for k in 1.. {
            let name = if k == 1 {
                base.clone()
            } else {
                format!("{base}_{k}")
            };
            clip.name = name;
            let file = clip_file_name(&clip);
            let free = !self.clips.iter().any(|c| c.name == clip.name)
                && !self.clip_files.iter().any(|f| same_file(f, &file))
                && !file_taken(&file);
            if free {
                let index = index.min(self.clips.len());
                // Clips a save has not named yet get their files first, so the new one's
                // file lines up with it.
                while self.clip_files.len() < self.clips.len() {
                    let c = &self.clips[self.clip_files.len()];
                    self.clip_files.push(clip_file_name(c));
                }
                self.clips.insert(index, clip);
                self.clip_files.insert(index, file);
                return index;
            }
        }
        unreachable!("some suffix is free")
    }

    /// Takes clip `index` out of the library and out of every action; an action left with
    /// no branch goes too, as when its last branch is removed by hand. Variant choices are
    /// reset: they meant the removed clip's variants. The clip's file stays on disk.
    pub fn remove_clip(&mut self, index: usize) -> Option<Clip> {
        if index >= self.clips.len() {
            return None;
        }
        let clip = self.clips.remove(index);
        if index < self.clip_files.len() {
            self.clip_files.remove(index);
        }
        for a in &mut self.actions {
            a.branches.retain(|b| *b != clip.name);
        }
        self.actions.retain(|a| !a.branches.is_empty());
        for e in &mut self.roster {
            e.variant = 0;
        }
        Some(clip)
    }
}

pub fn rename_branches(actions: &mut [ActionDef], from: &str, to: &str) {
    for a in actions {
        for b in &mut a.branches {
            if b == from {
                *b = to.to_string();
            }
        }
    }
}

pub fn save_creature_as(entry: &RosterEntry, path: &Path) -> Result<RosterEntry, SaveError> {
    make_parent(path)?;
    let creature = relocated(&entry.creature, entry.path.as_deref(), path);
    save_creature(path, &creature)?;
    Ok(RosterEntry {
        creature,
        path: Some(path.to_path_buf()),
        variant: entry.variant,
        edited: false,
    })
}

/// Writes a creature file unless it already holds exactly this creature.
fn save_creature(path: &Path, creature: &Creature) -> Result<(), SaveError> {
    write_if_changed(path, creature_to_string(creature).as_bytes()).map(|_| ())
}

fn make_parent(file: &Path) -> Result<(), SaveError> {
    match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => {
            std::fs::create_dir_all(dir).map_err(|source| SaveError {
                path: dir.display().to_string(),
                source,
            })
        }
        _ => Ok(()),
    }
}

/// `gaits/<name>.gait.json`, with the name made safe for a file system: where a style made
/// in the editor is saved, relative to the project's folder.
pub fn gait_file_name(name: &str) -> PathBuf {
    PathBuf::from("gaits").join(format!("{}.gait.json", file_stem(name)))
}

/// `clips/<name>.clip.json`, with the name made safe for a file system.
pub fn clip_file_name(clip: &Clip) -> PathBuf {
    PathBuf::from("clips").join(format!("{}.clip.json", file_stem(&clip.name)))
}

fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if stem.is_empty() {
        "untitled".into()
    } else {
        stem
    }
}

/// `path` as seen from `dir` (relative when both are, or both are absolute; else as is).
fn relative_to(path: &Path, dir: &Path) -> PathBuf {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    pathdiff::diff_paths(abs(path), abs(dir)).unwrap_or_else(|| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file under `dir` with its inode (a rename replaces it) and modification time.
    #[cfg(unix)]
    fn stamps(dir: &Path) -> std::collections::BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
        use std::os::unix::fs::MetadataExt;
        let mut out = std::collections::BTreeMap::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let e = e.unwrap();
                let m = e.metadata().unwrap();
                if m.is_dir() {
                    stack.push(e.path());
                } else {
                    out.insert(e.path(), (m.ino(), m.modified().unwrap()));
                }
            }
        }
        out
    }

    #[cfg(unix)]
    #[test]
    fn a_save_rewrites_only_the_files_that_changed() {
        let dir = tempfile::tempdir().unwrap();
        let mut doc = Document::open(
            &Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
                .join("assets/sample.project.json"),
        )
        .unwrap();
        assert!(
            doc.clips.len() >= 2,
            "the sample needs two clips for this test"
        );
        // A creature without a file is written beside the project too.
        let mut copy = doc.roster[0].clone();
        copy.path = None;
        doc.roster.push(copy);
        let path = dir.path().join("p.project.json");
        doc.save_as(&path).unwrap();
        let before = stamps(dir.path());
        assert!(before.len() >= doc.clips.len() + 2, "{before:?}");

        doc.save_as(&path).unwrap();
        assert_eq!(
            stamps(dir.path()),
            before,
            "an unchanged save rewrote files"
        );

        let mut clip = doc.clips[1].clone();
        clip.duration_secs += 0.5;
        doc.replace_clip(1, clip);
        doc.save_as(&path).unwrap();
        let after = stamps(dir.path());
        let changed: Vec<&PathBuf> = after
            .iter()
            .filter(|(p, s)| before.get(*p) != Some(*s))
            .map(|(p, _)| p)
            .collect();
        assert_eq!(changed, [&dir.path().join(&doc.clip_files[1])]);
    }
}
