//! `*.gait.json`: one gait style (see docs/FORMAT.md).

use super::json::{self, FormatTag};
use super::{LoadError, SaveError, atomic};
use anymorph_runtime::gait::GaitStyle;
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

pub const GAIT_FORMAT: FormatTag = FormatTag {
    format: "anymorph-gait",
    version: 1,
};

pub fn load_gait(path: &Path) -> Result<GaitStyle, LoadError> {
    let (label, text) = json::read_text(path)?;
    gait_from_str(&text, &label)
}

/// Parses and validates a gait style; `path` only labels errors.
pub fn gait_from_str(text: &str, path: &str) -> Result<GaitStyle, LoadError> {
    let doc = json::parse_document(text, path, GAIT_FORMAT)?;
    gait_from_value(Value::Object(doc), path)
}

/// A gait style from an already parsed JSON object (also used inside packages).
pub fn gait_from_value(value: Value, path: &str) -> Result<GaitStyle, LoadError> {
    json::numbers_in_range(&value, path)?;
    let style: GaitStyle = json::from_value(value, path)?;
    style
        .validate()
        .map_err(|(field, message)| LoadError::Field {
            path: path.into(),
            field,
            message,
        })?;
    Ok(style)
}

#[derive(Serialize)]
struct GaitOut<'a> {
    format: &'static str,
    version: u32,
    #[serde(flatten)]
    style: &'a GaitStyle,
}

pub fn gait_to_string(style: &GaitStyle) -> String {
    json::to_pretty_json(&GaitOut {
        format: GAIT_FORMAT.format,
        version: GAIT_FORMAT.version,
        style,
    })
}

pub fn save_gait(path: &Path, style: &GaitStyle) -> Result<(), SaveError> {
    atomic::write_atomic(path, gait_to_string(style).as_bytes())
}
