//! What persists between runs (eframe storage): overlays, panels, playback and locomotion
//! settings.
//! Panel sizes persist through egui's own memory.

use crate::playback::PlaybackPrefs;
use serde::{Deserialize, Serialize};

/// The viewport overlays that can be toggled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Overlays {
    pub joints: bool,
    pub goals: bool,
    pub ik: bool,
    pub curve: bool,
    pub target: bool,
    pub labels: bool,
    pub ground: bool,
    /// Skinned meshes of creatures that have one.
    pub mesh: bool,
    /// The body proxies (boxes, capsules, spheres); a mesh is see-through while they show.
    pub proxies: bool,
    /// Onion skin: the selected creature a few frames before and after the playhead.
    pub ghosts: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            joints: false,
            goals: false,
            ik: false,
            curve: true,
            target: true,
            labels: true,
            ground: true,
            mesh: true,
            proxies: true,
            ghosts: false,
        }
    }
}

/// Which panels are open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Panels {
    pub channels: bool,
    pub roster: bool,
    pub timeline: bool,
    /// The dope sheet / curve editor above the timeline.
    pub keys: bool,
    /// Which of the two it shows.
    pub curves: bool,
    /// The caps window (review and edit each body's caps).
    pub caps: bool,
    /// The footfall diagram and gait style editor.
    pub footfalls: bool,
}

impl Default for Panels {
    fn default() -> Self {
        Panels {
            channels: true,
            roster: true,
            timeline: true,
            keys: true,
            curves: false,
            caps: false,
            footfalls: false,
        }
    }
}

/// The persisted part of the app state.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Preferences {
    pub overlays: Overlays,
    pub panels: Panels,
    pub playback: PlaybackPrefs,
    /// Bumped by "Reset Layout": panels take new ids, so egui forgets their sizes.
    pub layout_generation: u32,
    pub posing: PosingPrefs,
    /// Projects opened or saved, most recent first.
    pub recent: Vec<std::path::PathBuf>,
    /// The Locomotion panel: whether and how the previewed creatures walk.
    pub locomotion: crate::walk::LocomotionPrefs,
}

/// How many recent projects File → Open Recent lists.
pub const MAX_RECENT: usize = 10;

impl Preferences {
    /// Puts `path` first in the recent list.
    pub fn remember(&mut self, path: &std::path::Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(MAX_RECENT);
    }
}

/// What the gizmo does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GizmoTool {
    #[default]
    Translate,
    Rotate,
}

/// Posing and keying settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PosingPrefs {
    pub tool: GizmoTool,
    /// Gizmo axes along the active body instead of the world's.
    pub local: bool,
    /// Every gizmo move writes a key at once.
    pub auto_key: bool,
}
