//! The open project as the editor holds it: clips, the creatures previewed side by side
//! (the roster) with their chosen variants, and the external targets. Every change bumps a
//! revision so the preview rebuilds exactly what went stale on the next frame.

use crate::io::{LoadedProject, load_creature, load_project};
use crate::runtime::clip::Clip;
use crate::runtime::creature::Creature;
use glam::Vec3;
use std::path::{Path, PathBuf};

/// One creature in the preview.
#[derive(Clone, Debug)]
pub struct RosterEntry {
    pub creature: Creature,
    /// The file it came from, if any.
    pub path: Option<PathBuf>,
    /// The variant the animator chose (index into the binding's variants).
    pub variant: usize,
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
}

/// The project being edited.
#[derive(Clone, Debug, Default)]
pub struct Document {
    pub path: Option<PathBuf>,
    pub name: String,
    pub clips: Vec<Clip>,
    pub active_clip: usize,
    pub roster: Vec<RosterEntry>,
    /// External targets in character space, by index (what the game would set).
    pub external_targets: Vec<Vec3>,
    /// The project's own targets, for "Reset Target".
    pub project_targets: Vec<Vec3>,
    pub revisions: Revisions,
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
            })
            .collect();
        Document {
            path: Some(loaded.path),
            name: loaded.project.name,
            clips: loaded.clips,
            active_clip,
            roster,
            external_targets: loaded.project.external_targets.clone(),
            project_targets: loaded.project.external_targets,
            revisions: Revisions::default(),
        }
    }

    /// Loads a project file with everything it references.
    pub fn open(path: &Path) -> Result<Self, crate::io::LoadError> {
        Ok(Document::from_project(load_project(path)?))
    }

    pub fn clip(&self) -> Option<&Clip> {
        self.clips.get(self.active_clip)
    }

    /// The active clip for an edit; bumps the clip revision, so only call it to change it.
    pub fn clip_mut(&mut self) -> Option<&mut Clip> {
        self.revisions.clip += 1;
        self.clips.get_mut(self.active_clip)
    }

    pub fn set_active_clip(&mut self, index: usize) {
        if index < self.clips.len() && index != self.active_clip {
            self.active_clip = index;
            // Variant indices mean nothing across clips.
            for e in &mut self.roster {
                e.variant = 0;
            }
            self.revisions.clip += 1;
        }
    }

    pub fn add_creature(&mut self, creature: Creature, path: Option<PathBuf>) {
        self.roster.push(RosterEntry {
            creature,
            path,
            variant: 0,
        });
        self.revisions.roster += 1;
    }

    /// Loads a creature file and adds it to the roster.
    pub fn add_creature_file(&mut self, path: &Path) -> Result<(), crate::io::LoadError> {
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
        self.external_targets.first().copied()
    }

    pub fn set_target(&mut self, at: Vec3) {
        if !at.is_finite() {
            return;
        }
        match self.external_targets.first_mut() {
            Some(t) => *t = at,
            None => self.external_targets.push(at),
        }
        self.revisions.targets += 1;
    }

    pub fn reset_targets(&mut self) {
        self.external_targets = self.project_targets.clone();
        self.revisions.targets += 1;
    }
}
