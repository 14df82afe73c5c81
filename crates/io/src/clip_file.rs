//! `*.clip.json`: one clip (see docs/FORMAT.md).

use super::json::{self, FormatTag};
use super::{LoadError, SaveError, atomic};
use anymorph_runtime::clip::{Clip, ClipError};
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

pub const CLIP_FORMAT: FormatTag = FormatTag {
    format: "anymorph-clip",
    version: 1,
};

pub fn load_clip(path: &Path) -> Result<Clip, LoadError> {
    let (label, text) = json::read_text(path)?;
    clip_from_str(&text, &label)
}

/// Parses and validates clip JSON; `path` only labels errors.
pub fn clip_from_str(text: &str, path: &str) -> Result<Clip, LoadError> {
    let doc = json::parse_document(text, path, CLIP_FORMAT)?;
    clip_from_value(Value::Object(doc), path)
}

/// A clip from an already parsed JSON object (also used for clips inside packages).
pub fn clip_from_value(value: Value, path: &str) -> Result<Clip, LoadError> {
    let mut clip: Clip = json::from_value(value, path)?;
    clip.validate().map_err(|e| clip_error(e, path))?;
    Ok(clip)
}

pub(crate) fn clip_error(e: ClipError, path: &str) -> LoadError {
    match e {
        ClipError::Invalid { field, message } => LoadError::Field {
            path: path.into(),
            field,
            message,
        },
        ClipError::Curve {
            channel,
            curve,
            source,
        } => LoadError::Field {
            path: path.into(),
            field: format!("channels[{channel}].{curve}"),
            message: source.to_string(),
        },
    }
}

#[derive(Serialize)]
struct ClipOut<'a> {
    format: &'static str,
    version: u32,
    #[serde(flatten)]
    clip: &'a Clip,
}

pub fn clip_to_string(clip: &Clip) -> String {
    json::to_pretty_json(&ClipOut {
        format: CLIP_FORMAT.format,
        version: CLIP_FORMAT.version,
        clip,
    })
}

pub fn save_clip(path: &Path, clip: &Clip) -> Result<(), SaveError> {
    atomic::write_atomic(path, clip_to_string(clip).as_bytes())
}
