//! Reading a glTF file into a validated document and its buffers, with every failure an error
//! naming the file (and the field), never a panic and never an allocation the file did not pay
//! for: sizes a file *claims* are checked against the bytes it has before anything is used.

use crate::LoadError;
use base64::Engine;
use std::path::Path;

/// Larger files are refused before they are read: a creature rig is megabytes, not gigabytes.
pub const MAX_FILE_BYTES: u64 = 512 * 1024 * 1024;

const GLB_MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// A parsed, index-validated glTF document and the bytes of each of its buffers.
pub(super) struct Source {
    pub label: String,
    pub doc: gltf::Document,
    pub buffers: Vec<Vec<u8>>,
}

impl Source {
    /// An error about `field` of this file.
    pub fn field_error(&self, field: impl Into<String>, message: impl Into<String>) -> LoadError {
        field_error(&self.label, field, message)
    }
}

pub(super) fn field_error(
    label: &str,
    field: impl Into<String>,
    message: impl Into<String>,
) -> LoadError {
    LoadError::Field {
        path: label.to_string(),
        field: field.into(),
        message: message.into(),
    }
}

/// Reads a `.glb` or `.gltf` file; external buffers are looked up beside it.
pub(super) fn read_path(path: &Path) -> Result<Source, LoadError> {
    let bytes = read_limited(path)?;
    read_bytes(&bytes, &path.display().to_string(), path.parent())
}

/// Parses glTF or GLB bytes; `label` names the file in errors and `base_dir` is where
/// relative buffer URIs are resolved (`None`: external buffers are an error).
pub(super) fn read_bytes(
    bytes: &[u8],
    label: &str,
    base_dir: Option<&Path>,
) -> Result<Source, LoadError> {
    let (json_bytes, blob) = if bytes.starts_with(GLB_MAGIC) {
        split_glb(bytes, label)?
    } else {
        (bytes, None)
    };
    let root: gltf::json::Root =
        gltf::json::deserialize::from_slice(json_bytes).map_err(|e| LoadError::Syntax {
            path: label.to_string(),
            line: e.line(),
            column: e.column(),
            message: format!("not a glTF document: {e}"),
        })?;
    check_mesh_indices(&root, label)?;
    // gltf-json's validation indexes some arrays unchecked; the check above covers the case
    // known to panic, and any other turns into an error here rather than a crash.
    let validated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        gltf::Document::from_json(root)
    }))
    .map_err(|_| {
        field_error(
            label,
            "(document)",
            "the glTF validation failed on a malformed document",
        )
    })?;
    let doc = validated.map_err(|e| match e {
        gltf::Error::Validation(errors) => {
            let (path, error) = errors
                .first()
                .map(|(p, e)| (p.to_string(), e.to_string()))
                .unwrap_or_else(|| ("(document)".into(), "invalid".into()));
            let more = errors.len().saturating_sub(1);
            field_error(
                label,
                path,
                if more > 0 {
                    format!("{error} (and {more} more problems)")
                } else {
                    error
                },
            )
        }
        other => field_error(label, "(document)", other.to_string()),
    })?;
    let mut buffers = Vec::with_capacity(doc.buffers().len());
    for buffer in doc.buffers() {
        let i = buffer.index();
        let field = format!("buffers[{i}]");
        let data = match buffer.source() {
            gltf::buffer::Source::Bin => match (i, blob) {
                (0, Some(b)) => b.to_vec(),
                _ => {
                    return Err(field_error(
                        label,
                        field,
                        "refers to the GLB binary chunk, which the file does not have",
                    ));
                }
            },
            gltf::buffer::Source::Uri(uri) => read_uri(uri, label, &field, base_dir)?,
        };
        if data.len() < buffer.length() {
            return Err(field_error(
                label,
                format!("{field}.byteLength"),
                format!(
                    "the buffer claims {} bytes but holds {}",
                    buffer.length(),
                    data.len()
                ),
            ));
        }
        buffers.push(data);
    }
    Ok(Source {
        label: label.to_string(),
        doc,
        buffers,
    })
}

/// Every accessor a mesh primitive names exists (gltf-json's POSITION check assumes it).
fn check_mesh_indices(root: &gltf::json::Root, label: &str) -> Result<(), LoadError> {
    let count = root.accessors.len();
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let attributes = prim.attributes.values().map(|a| a.value());
            for index in attributes.chain(prim.indices.iter().map(|a| a.value())) {
                if index >= count {
                    return Err(field_error(
                        label,
                        format!("meshes[{m}].primitives[{p}]"),
                        format!("accessor {index} does not exist ({count} accessors)"),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn read_limited(path: &Path) -> Result<Vec<u8>, LoadError> {
    let label = path.display().to_string();
    let read_err = |source| LoadError::Read {
        path: label.clone(),
        source,
    };
    let len = std::fs::metadata(path).map_err(read_err)?.len();
    if len > MAX_FILE_BYTES {
        return Err(LoadError::Unsupported {
            path: label,
            message: format!(
                "the file is {len} bytes; glTF files over {MAX_FILE_BYTES} bytes are refused"
            ),
        });
    }
    std::fs::read(path).map_err(read_err)
}

/// The JSON chunk and optional BIN chunk of a GLB, every length checked against the bytes.
fn split_glb<'a>(bytes: &'a [u8], label: &str) -> Result<(&'a [u8], Option<&'a [u8]>), LoadError> {
    let err = |field: &str, message: String| field_error(label, field, message);
    let word = |at: usize| -> Option<u32> {
        let b = bytes.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let (Some(version), Some(length)) = (word(4), word(8)) else {
        return Err(err(
            "(GLB header)",
            format!(
                "the file is truncated: {} bytes, a GLB header needs 12",
                bytes.len()
            ),
        ));
    };
    if version != 2 {
        return Err(err(
            "(GLB header).version",
            format!("GLB version {version}; this build reads version 2"),
        ));
    }
    let length = length as usize;
    if length != bytes.len() {
        return Err(err(
            "(GLB header).length",
            format!(
                "the header says the file is {length} bytes but it has {} (truncated or padded)",
                bytes.len()
            ),
        ));
    }
    let mut at = 12usize;
    let mut chunks: Vec<(u32, &[u8])> = Vec::new();
    while at < length {
        let (Some(chunk_len), Some(kind)) = (word(at), word(at + 4)) else {
            return Err(err(
                &format!("(GLB chunk {})", chunks.len()),
                format!("the chunk header at byte {at} is cut off"),
            ));
        };
        let start = at + 8;
        let end = start
            .checked_add(chunk_len as usize)
            .filter(|&e| e <= length)
            .ok_or_else(|| {
                err(
                    &format!("(GLB chunk {}).length", chunks.len()),
                    format!(
                        "the chunk claims {chunk_len} bytes but only {} remain",
                        length.saturating_sub(start)
                    ),
                )
            })?;
        chunks.push((kind, &bytes[start..end]));
        at = end;
    }
    let json = match chunks.first() {
        Some((CHUNK_JSON, data)) => *data,
        _ => {
            return Err(err(
                "(GLB chunk 0)",
                "the first chunk must be the JSON chunk".into(),
            ));
        }
    };
    let bin = chunks
        .iter()
        .skip(1)
        .find(|(k, _)| *k == CHUNK_BIN)
        .map(|(_, d)| *d);
    Ok((json, bin))
}

fn read_uri(
    uri: &str,
    label: &str,
    field: &str,
    base_dir: Option<&Path>,
) -> Result<Vec<u8>, LoadError> {
    let uri_field = format!("{field}.uri");
    if let Some(rest) = uri.strip_prefix("data:") {
        let Some((_, payload)) = rest.split_once(";base64,") else {
            return Err(field_error(
                label,
                uri_field,
                "a data URI must be base64 (data:…;base64,…)",
            ));
        };
        return base64::engine::general_purpose::STANDARD
            .decode(payload)
            .map_err(|e| field_error(label, uri_field, format!("bad base64 data: {e}")));
    }
    if uri.contains("://") {
        return Err(field_error(
            label,
            uri_field,
            format!("'{uri}': only data URIs and files beside the glTF are read"),
        ));
    }
    let Some(dir) = base_dir else {
        return Err(field_error(
            label,
            uri_field,
            format!("'{uri}' is an external file, and these bytes came without a folder"),
        ));
    };
    let path = dir.join(percent_decode(uri));
    let len = std::fs::metadata(&path)
        .map_err(|e| field_error(label, &uri_field, format!("{}: {e}", path.display())))?
        .len();
    if len > MAX_FILE_BYTES {
        return Err(field_error(
            label,
            uri_field,
            format!("{}: {len} bytes is over the limit", path.display()),
        ));
    }
    std::fs::read(&path)
        .map_err(|e| field_error(label, uri_field, format!("{}: {e}", path.display())))
}

fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glb(json: &[u8], bin: Option<&[u8]>) -> Vec<u8> {
        let mut body = Vec::new();
        body.extend((json.len() as u32).to_le_bytes());
        body.extend(CHUNK_JSON.to_le_bytes());
        body.extend(json);
        if let Some(b) = bin {
            body.extend((b.len() as u32).to_le_bytes());
            body.extend(CHUNK_BIN.to_le_bytes());
            body.extend(b);
        }
        let mut out = b"glTF".to_vec();
        out.extend(2u32.to_le_bytes());
        out.extend(((body.len() + 12) as u32).to_le_bytes());
        out.extend(body);
        out
    }

    #[test]
    fn glb_lengths_are_checked_against_the_bytes() {
        let json = br#"{"asset": {"version": "2.0"}}  "#;
        let good = glb(json, Some(&[0; 8]));
        let (j, b) = split_glb(&good, "f.glb").unwrap();
        assert_eq!(j, json);
        assert_eq!(b.unwrap().len(), 8);
        for cut in [0, 3, 11, 12, 17, good.len() - 1] {
            let e = split_glb(&good[..cut], "f.glb").unwrap_err();
            assert!(e.to_string().starts_with("f.glb: (GLB"), "{cut}: {e}");
        }
        let mut huge = good.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(split_glb(&huge, "f.glb").is_err());
        let mut tiny = good.clone();
        tiny[8..12].copy_from_slice(&3u32.to_le_bytes());
        assert!(split_glb(&tiny, "f.glb").is_err());
        let mut chunk = good;
        chunk[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = split_glb(&chunk, "f.glb").unwrap_err();
        assert!(e.to_string().contains("claims"), "{e}");
    }

    #[test]
    fn buffers_must_hold_what_they_claim() {
        let json = br#"{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 64}]}"#;
        let e = read_bytes(&glb(json, Some(&[0; 8])), "f.glb", None)
            .err()
            .unwrap();
        assert!(
            e.to_string().starts_with("f.glb: buffers[0].byteLength"),
            "{e}"
        );
        let json = br#"{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 3, "uri": "data:application/octet-stream;base64,AAEC"}]}"#;
        let s = read_bytes(json, "f.gltf", None).ok().unwrap();
        assert_eq!(s.buffers[0], [0, 1, 2]);
        let json =
            br#"{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 3, "uri": "x.bin"}]}"#;
        assert!(read_bytes(json, "f.gltf", None).is_err());
        assert_eq!(percent_decode("a%20b%2"), "a b%2");
    }
}
