//! Errors of loading and saving files. Every message starts with the file, then the field.

use anymorph_runtime::creature::CreatureError;
use thiserror::Error;

/// Why a file could not be loaded. Nothing is ever partly loaded: a load returns either a
/// complete, validated value or one of these.
#[derive(Debug, Error)]
pub enum LoadError {
    #[error("{path}: cannot read the file: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: line {line}, column {column}: not valid JSON: {message}")]
    Syntax {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{path}: format: expected \"{expected}\", found {found}")]
    Format {
        path: String,
        expected: &'static str,
        found: String,
    },
    #[error(
        "{path}: version: this build reads {format} version {supported}, the file has version {found}"
    )]
    Version {
        path: String,
        format: &'static str,
        found: String,
        supported: u32,
    },
    /// A field has the wrong type or an invalid value.
    #[error("{path}: {field}: {message}")]
    Field {
        path: String,
        field: String,
        message: String,
    },
    #[error("{path}: {source}")]
    Creature {
        path: String,
        #[source]
        source: CreatureError,
    },
    #[error("{path}: {message}")]
    Unsupported { path: String, message: String },
    /// A file that another file lists (a project's clip, creature or gait style) failed:
    /// `sample.project.json: clips[3] (clips/wave.clip.json): channels[0].mode: …`. The
    /// inner error is part of this message, not a separate cause, so it is said once.
    #[error("{path}: {field} ({}): {}", .inner.path(), .inner.without_path())]
    Listed {
        path: String,
        field: String,
        inner: Box<LoadError>,
    },
}

impl LoadError {
    /// The file the error is about.
    pub fn path(&self) -> &str {
        match self {
            LoadError::Read { path, .. }
            | LoadError::Syntax { path, .. }
            | LoadError::Format { path, .. }
            | LoadError::Version { path, .. }
            | LoadError::Field { path, .. }
            | LoadError::Creature { path, .. }
            | LoadError::Unsupported { path, .. }
            | LoadError::Listed { path, .. } => path,
        }
    }

    /// `self` as the error of the file `field` of `path` lists.
    pub fn listed_by(self, path: &str, field: String) -> LoadError {
        LoadError::Listed {
            path: path.into(),
            field,
            inner: Box::new(self),
        }
    }

    /// The message after the leading `{path}: `.
    fn without_path(&self) -> String {
        let text = self.to_string();
        match text.strip_prefix(self.path()) {
            Some(rest) => rest.trim_start_matches(": ").to_string(),
            None => text,
        }
    }
}

/// Why a file could not be saved. The previous file, if any, is left untouched.
#[derive(Debug, Error)]
#[error("{path}: cannot save: {source}")]
pub struct SaveError {
    pub path: String,
    #[source]
    pub source: std::io::Error,
}
