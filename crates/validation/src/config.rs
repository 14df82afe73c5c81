//! Validation thresholds (`*.validation.json`). Lengths are relative to the creature (or its
//! legs), so one file fits a mouse and a giant.

use anymorph_io::LoadError;
use anymorph_io::json::{self, FormatTag};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;

pub const VALIDATION_FORMAT: FormatTag = FormatTag {
    format: "anymorph-validation",
    version: 1,
};

/// What counts as a failure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidationConfig {
    /// Frames per second at which clips are sampled.
    pub fps: f32,
    /// At most this many variants are checked per clip and creature.
    pub variants_per_cell: usize,
    /// Walking speed for the locomotion checks, in leg lengths per second.
    pub walk_speed_legs: f32,
    /// A goal more than this fraction of the body's reach (its limb length, or 10% of the
    /// creature's size on the spine) away from where IK put the body. A limb goal is first
    /// brought within the limb's reach and out of the trunk, as the IK does on purpose.
    pub goal_error: f32,
    /// A bone longer or shorter than the IK allows it (spine 90–120 %, limbs 95–105 % of
    /// rest) by more than this fraction of its rest length, or a joint pulled apart by more.
    pub bone_stretch: f32,
    /// A planted foot that moves more than this fraction of its leg's length in one stance.
    pub foot_slip: f32,
    /// A body more than this fraction of the creature's size under the ground.
    pub ground_penetration: f32,
    /// Two bodies sunk into each other deeper than at rest by more than this fraction of the
    /// thinner one's radius.
    pub interpenetration: f32,
    /// Back-and-forth acceleration (frame-to-frame jitter) above this fraction of the
    /// creature's size per frame squared.
    pub jitter: f32,
}

impl Default for ValidationConfig {
    fn default() -> Self {
        ValidationConfig {
            fps: 30.0,
            variants_per_cell: 4,
            walk_speed_legs: 0.8,
            goal_error: 0.15,
            bone_stretch: 0.1,
            foot_slip: 0.02,
            ground_penetration: 0.02,
            interpenetration: 0.75,
            jitter: 0.01,
        }
    }
}

impl ValidationConfig {
    pub fn from_str(text: &str, path: &str) -> Result<Self, LoadError> {
        let doc = json::parse_document(text, path, VALIDATION_FORMAT)?;
        let mut doc = doc;
        doc.remove("format");
        doc.remove("version");
        let config: ValidationConfig = json::from_value(Value::Object(doc), path)?;
        config.check(path)?;
        Ok(config)
    }

    pub fn load(path: &Path) -> Result<Self, LoadError> {
        let (label, text) = json::read_text(path)?;
        Self::from_str(&text, &label)
    }

    fn check(&self, path: &str) -> Result<(), LoadError> {
        let positive = [
            ("fps", self.fps),
            ("walk_speed_legs", self.walk_speed_legs),
            ("goal_error", self.goal_error),
            ("bone_stretch", self.bone_stretch),
            ("foot_slip", self.foot_slip),
            ("ground_penetration", self.ground_penetration),
            ("interpenetration", self.interpenetration),
            ("jitter", self.jitter),
        ];
        for (field, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(LoadError::Field {
                    path: path.into(),
                    field: field.into(),
                    message: format!("must be a positive number, found {v}"),
                });
            }
        }
        if self.fps > 240.0 || self.variants_per_cell == 0 {
            return Err(LoadError::Field {
                path: path.into(),
                field: if self.fps > 240.0 {
                    "fps"
                } else {
                    "variants_per_cell"
                }
                .into(),
                message: "out of range (fps ≤ 240, variants_per_cell ≥ 1)".into(),
            });
        }
        Ok(())
    }
}
