//! What persists between runs (eframe storage): overlays, panels and playback settings.
//! Panel sizes persist through egui's own memory.

use crate::editor::playback::PlaybackPrefs;
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
}

impl Default for Panels {
    fn default() -> Self {
        Panels {
            channels: true,
            roster: true,
            timeline: true,
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
}
