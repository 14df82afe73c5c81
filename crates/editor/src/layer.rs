//! A second clip or action layered over the active clip in the preview, on every creature:
//! a preview setting like the walk, kept in the preferences and never in the project.
//! The layering is the runtime player's ([`PlayParams::layer`], `additive`, `weight`): with
//! a layer on, each creature is posed by a [`Character`] playing both, so the preview shows
//! the pose a game playing the same two gets.

use crate::document::Document;
use anymorph_runtime::action::Action;
use anymorph_runtime::clip::Clip;
use anymorph_runtime::pipeline::clip_local_time;
use anymorph_runtime::player::{Character, PlayError, PlayParams, VariantChoice};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The player layer the second clip plays on: above the active clip's (layer 0), so a
/// priority layer at full weight hides the active clip on the bodies it animates.
pub const LAYER: i32 = 1;

/// The Layer section's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LayerPrefs {
    /// A clip of the project (or an action, with `action`) by name; empty for none.
    pub name: String,
    pub action: bool,
    /// Added to the active clip's offsets from rest rather than taking weight from it.
    pub additive: bool,
    /// Its blend weight (0..=1).
    pub weight: f32,
}

impl Default for LayerPrefs {
    fn default() -> Self {
        LayerPrefs {
            name: String::new(),
            action: false,
            additive: false,
            weight: 1.0,
        }
    }
}

impl LayerPrefs {
    /// The weight as the player takes it: within 0..=1, full when not a number (preferences
    /// come from disk).
    pub fn weight(&self) -> f32 {
        if self.weight.is_finite() {
            self.weight.clamp(0.0, 1.0)
        } else {
            1.0
        }
    }

    /// The clip or action the setting names in `doc`, `None` when off or when the project
    /// has none of that name (another project's setting).
    pub fn source(&self, doc: &Document) -> Option<LayerSource> {
        if self.name.is_empty() {
            return None;
        }
        if self.action {
            let def = doc.actions.iter().find(|a| a.name == self.name)?;
            let clips: Vec<Arc<Clip>> = doc.clips.iter().cloned().map(Arc::new).collect();
            Action::resolve(def, &clips)
                .ok()
                .map(|a| LayerSource::Action(Arc::new(a)))
        } else {
            let clip = doc.clips.iter().find(|c| c.name == self.name)?;
            Some(LayerSource::Clip(Arc::new(clip.clone())))
        }
    }
}

/// What the layer plays.
#[derive(Clone, Debug)]
pub enum LayerSource {
    Clip(Arc<Clip>),
    /// The first branch that binds on each creature.
    Action(Arc<Action>),
}

/// The layer as the players take it, with `Arc`s that last while nothing it depends on
/// changes (the runtime caches bindings per `Arc`).
#[derive(Clone, Debug)]
pub struct PreviewLayer {
    pub source: LayerSource,
    pub additive: bool,
    pub weight: f32,
    /// Different for every layer made: walkers start over when it changes.
    pub id: u64,
}

impl PreviewLayer {
    /// Starts the layer on `character` where the playback clock `clock_secs` has it, as
    /// the active clip is started (a one-shot holds its last frame).
    pub fn play(&self, character: &mut Character, clock_secs: f32) -> Result<(), PlayError> {
        let clip = match &self.source {
            LayerSource::Clip(clip) => Arc::clone(clip),
            LayerSource::Action(action) => {
                let k = character.action_branch(action)?;
                Arc::clone(&action.branches[k])
            }
        };
        character.play(&clip, self.params(&clip, clock_secs))?;
        Ok(())
    }

    /// How the layer's clip `clip` is played at `clock_secs` of the playback clock.
    pub fn params(&self, clip: &Clip, clock_secs: f32) -> PlayParams {
        PlayParams {
            variant: VariantChoice::Index(0),
            weight: self.weight,
            layer: LAYER,
            additive: self.additive,
            hold: true,
            start_secs: clip_local_time(clip, clock_secs),
            ..PlayParams::default()
        }
    }
}

/// How the active clip is played under a layer (and while walking): from the playhead,
/// with the animator's variant, a one-shot holding its last frame as the pipeline's
/// preview does.
pub fn base_params(clip: &Clip, variant: usize, clock_secs: f32) -> PlayParams {
    PlayParams {
        variant: VariantChoice::Index(variant),
        start_secs: clip_local_time(clip, clock_secs),
        hold: true,
        ..PlayParams::default()
    }
}
