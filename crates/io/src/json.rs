//! The steps every Anymorph JSON file goes through: syntax, then the `format`/`version`
//! envelope, then typed fields — each failure naming the file and the field.

use super::LoadError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A file's format name and the one version this build reads.
#[derive(Clone, Copy, Debug)]
pub struct FormatTag {
    pub format: &'static str,
    pub version: u32,
}

/// The largest JSON file a loader reads. A library of a thousand clips is a few MB; parsing
/// holds the whole document in memory several times over, so a larger file is refused
/// before it is read rather than left to exhaust the machine.
pub const MAX_JSON_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a file as text, returning its display name (for error messages) and contents.
pub fn read_text(path: &std::path::Path) -> Result<(String, String), LoadError> {
    use std::io::Read as _;
    let label = path.display().to_string();
    let read_err = |source| LoadError::Read {
        path: label.clone(),
        source,
    };
    let file = std::fs::File::open(path).map_err(read_err)?;
    // Read one byte past the limit rather than trust the file's stated length: a pipe or
    // a file still growing has none.
    let mut bytes = Vec::new();
    file.take(MAX_JSON_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(read_err)?;
    if bytes.len() as u64 > MAX_JSON_BYTES {
        return Err(LoadError::Unsupported {
            path: label,
            message: format!("the file is larger than the limit of {MAX_JSON_BYTES} bytes"),
        });
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok((label, text)),
        Err(_) => Err(read_err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))),
    }
}

/// Parses `text` and checks its envelope, returning the document as a JSON object.
pub fn parse_document(
    text: &str,
    path: &str,
    tag: FormatTag,
) -> Result<serde_json::Map<String, Value>, LoadError> {
    parse_document_since(text, path, tag, tag.version)
}

/// As [`parse_document`], for a format that still loads its versions from `oldest` on.
pub fn parse_document_since(
    text: &str,
    path: &str,
    tag: FormatTag,
    oldest: u32,
) -> Result<serde_json::Map<String, Value>, LoadError> {
    let value: Value = serde_json::from_str(text).map_err(|e| LoadError::Syntax {
        path: path.into(),
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    })?;
    let Value::Object(doc) = value else {
        return Err(LoadError::Field {
            path: path.into(),
            field: "(document)".into(),
            message: format!("expected a JSON object, found {}", kind(&value)),
        });
    };
    match doc.get("format") {
        Some(Value::String(f)) if f == tag.format => {}
        other => {
            return Err(LoadError::Format {
                path: path.into(),
                expected: tag.format,
                found: describe(other),
            });
        }
    }
    match doc.get("version") {
        Some(Value::Number(n))
            if n.as_u64()
                .is_some_and(|v| (u64::from(oldest)..=u64::from(tag.version)).contains(&v)) => {}
        other => {
            return Err(LoadError::Version {
                path: path.into(),
                format: tag.format,
                found: describe(other),
                supported: tag.version,
            });
        }
    }
    Ok(doc)
}

/// Deserializes a typed value, reporting the JSON path of a bad field.
pub fn from_value<T: DeserializeOwned>(value: Value, path: &str) -> Result<T, LoadError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let message = e.inner().to_string();
        LoadError::Field {
            path: path.into(),
            field: field_path(&e.path().to_string(), &message),
            message,
        }
    })
}

/// The path of the field an error is about. serde reports a missing field at the object
/// that lacks it (`.` for the document itself), so the missing name is appended: the reader
/// is told `channels[0].mode`, not `channels[0]` or `.`.
pub fn field_path(at: &str, message: &str) -> String {
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next());
    match (at, missing) {
        (".", Some(name)) => name.to_string(),
        (".", None) => "(document)".into(),
        (at, Some(name)) => format!("{at}.{name}"),
        (at, None) => at.to_string(),
    }
}

/// The first number in `value` outside the working range (`runtime::math::WORKING_RANGE`),
/// as an error naming its field: for a format all of whose numbers are well inside it (a
/// gait style's speeds, times and fractions), one walk replaces a check per field, and a
/// number past `f32` no longer loads as infinity.
pub fn numbers_in_range(value: &Value, path: &str) -> Result<(), LoadError> {
    fn walk(v: &Value, at: &mut String) -> Option<(String, f64)> {
        match v {
            Value::Number(n) => n
                .as_f64()
                .filter(|x| x.abs() > f64::from(anymorph_runtime::math::WORKING_RANGE))
                .map(|x| (at.clone(), x)),
            Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
                let len = at.len();
                at.push_str(&format!("[{i}]"));
                let found = walk(item, at);
                at.truncate(len);
                found
            }),
            Value::Object(fields) => fields.iter().find_map(|(k, item)| {
                let len = at.len();
                if !at.is_empty() {
                    at.push('.');
                }
                at.push_str(k);
                let found = walk(item, at);
                at.truncate(len);
                found
            }),
            _ => None,
        }
    }
    match walk(value, &mut String::new()) {
        Some((field, x)) => Err(LoadError::Field {
            path: path.into(),
            field,
            message: format!("{x} is outside the working range of ±1e6"),
        }),
        None => Ok(()),
    }
}

/// Parses and deserializes a JSON value that has no envelope (a query given on the command
/// line or in a file), naming `path` and the field on failure.
pub fn parse_plain<T: DeserializeOwned>(text: &str, path: &str) -> Result<T, LoadError> {
    let value: Value = serde_json::from_str(text).map_err(|e| LoadError::Syntax {
        path: path.into(),
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    })?;
    from_value(value, path)
}

/// Keys of `object` that are not in `known`, kept verbatim for a lossless round trip.
pub fn extras(
    object: &serde_json::Map<String, Value>,
    known: &[&str],
) -> serde_json::Map<String, Value> {
    object
        .iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Pretty JSON with arrays of plain numbers kept on one line, so a vector reads as `[0, 1, 0]`
/// and files stay short and diff well.
pub fn to_pretty_json<T: Serialize + ?Sized>(value: &T) -> String {
    let pretty = serde_json::to_string_pretty(value).unwrap_or_else(|e| {
        // Serializing our own types cannot fail (no non-string map keys); keep a trace if it does.
        log::error!("serializing to JSON failed: {e}");
        String::from("null")
    });
    let mut out = String::with_capacity(pretty.len());
    let bytes = pretty.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'"' {
            let end = string_end(bytes, i);
            out.push_str(&pretty[i..end]);
            i = end;
        } else if c == b'[' {
            match numeric_array_end(bytes, i) {
                Some(end) => {
                    let inner: Vec<&str> = pretty[i + 1..end]
                        .split(',')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .collect();
                    out.push('[');
                    out.push_str(&inner.join(", "));
                    out.push(']');
                    i = end + 1;
                }
                None => {
                    out.push('[');
                    i += 1;
                }
            }
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out.push('\n');
    out
}

fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

fn numeric_array_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b']' => return Some(i),
            b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E' | b',' | b' ' | b'\n' => i += 1,
            _ => return None,
        }
    }
    None
}

fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn describe(v: Option<&Value>) -> String {
    match v {
        None => "nothing (the field is missing)".into(),
        Some(Value::String(s)) => format!("\"{s}\""),
        Some(Value::Number(n)) => n.to_string(),
        Some(other) => kind(other).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAG: FormatTag = FormatTag {
        format: "anymorph-test",
        version: 1,
    };

    #[test]
    fn envelope_errors_name_the_field() {
        let e = parse_document("{", "f.json", TAG).unwrap_err();
        assert!(matches!(e, LoadError::Syntax { line: 1, .. }), "{e}");
        let e = parse_document("[]", "f.json", TAG).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("f.json: (document): expected a JSON object")
        );
        let e = parse_document(r#"{"version": 1}"#, "f.json", TAG).unwrap_err();
        assert!(
            e.to_string()
                .contains("format: expected \"anymorph-test\", found nothing")
        );
        let e = parse_document(
            r#"{"format": "anymorph-test", "version": 7}"#,
            "f.json",
            TAG,
        )
        .unwrap_err();
        assert!(matches!(e, LoadError::Version { .. }), "{e}");
        assert!(e.to_string().contains("version 7"), "{e}");
        assert!(parse_document(r#"{"format": "anymorph-test", "version": 1}"#, "f", TAG).is_ok());
    }

    #[test]
    fn typed_errors_carry_the_json_path() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Doc {
            items: Vec<Item>,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Item {
            x: f32,
        }
        let v: Value = serde_json::from_str(r#"{"items": [{"x": 1}, {"x": "a"}]}"#).unwrap();
        let e = from_value::<Doc>(v, "f.json").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("f.json: items[1].x: invalid type"),
            "{e}"
        );
    }

    #[test]
    fn number_arrays_are_inline_and_strings_untouched() {
        let v = serde_json::json!({"p": [0.0, 1.5, -2.0], "s": "[1,\n 2]", "a": [{"q": [1]}]});
        let s = to_pretty_json(&v);
        assert!(s.contains("\"p\": [0.0, 1.5, -2.0]"), "{s}");
        assert!(s.contains("\"q\": [1]"), "{s}");
        assert!(s.contains(r#""s": "[1,\n 2]""#), "{s}");
        let back: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }
}
