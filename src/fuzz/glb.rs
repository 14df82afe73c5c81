//! GLB for fuzzing: split into the JSON and BIN chunks and put back together, the floats of
//! every accessor located (to poison them, and to check a baked file), and mutations that
//! know glTF: node transforms, accessor data and fields, skeletons, the JSON chunk.

use super::json_mutate::{Doc, mutate_doc, odd_number};
use super::rand_util::{Rng, below, chance, pick};
use base64::Engine;
use serde_json::{Value, json};

const MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

fn word(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The JSON chunk's bytes and the BIN chunk's bytes (empty without one) of a GLB.
pub fn split_raw(bytes: &[u8]) -> Result<(Vec<u8>, Vec<u8>), String> {
    if !bytes.starts_with(MAGIC) {
        return Err("no GLB magic".into());
    }
    let mut at = 12;
    let mut json = None;
    let mut bin = Vec::new();
    while at + 8 <= bytes.len() {
        let len = word(bytes, at).ok_or("truncated chunk header")? as usize;
        let kind = word(bytes, at + 4).ok_or("truncated chunk header")?;
        let data = bytes
            .get(at + 8..at + 8 + len)
            .ok_or_else(|| format!("chunk at {at} claims {len} bytes past the end"))?;
        match kind {
            CHUNK_JSON if json.is_none() => json = Some(data.to_vec()),
            CHUNK_BIN if bin.is_empty() => bin = data.to_vec(),
            _ => {}
        }
        at += 8 + len;
    }
    Ok((json.ok_or("no JSON chunk")?, bin))
}

/// The glTF document and buffer 0 of a GLB, or of a `.gltf` whose buffer 0 is a data URI.
pub fn split(bytes: &[u8]) -> Result<(Value, Vec<u8>), String> {
    if bytes.starts_with(MAGIC) {
        let (json, bin) = split_raw(bytes)?;
        let doc = serde_json::from_slice(&json).map_err(|e| format!("JSON chunk: {e}"))?;
        return Ok((doc, bin));
    }
    let doc: Value = serde_json::from_slice(bytes).map_err(|e| format!("glTF JSON: {e}"))?;
    let bin = match doc["buffers"][0]["uri"].as_str() {
        Some(uri) if uri.starts_with("data:") => {
            let data = uri.split_once(',').map_or("", |(_, d)| d);
            base64::engine::general_purpose::STANDARD
                .decode(data)
                .map_err(|e| format!("buffers[0].uri: {e}"))?
        }
        _ => Vec::new(),
    };
    Ok((doc, bin))
}

/// A GLB of these chunks, lengths and padding as the specification wants.
pub fn assemble(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let mut json = json.to_vec();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut bin = bin.to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + if bin.is_empty() { 0 } else { 8 + bin.len() };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&CHUNK_JSON.to_le_bytes());
    out.extend_from_slice(&json);
    if !bin.is_empty() {
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(&CHUNK_BIN.to_le_bytes());
        out.extend_from_slice(&bin);
    }
    out
}

/// Where an accessor's components lie in buffer 0.
#[derive(Clone, Debug)]
pub struct AccessorView {
    pub accessor: usize,
    pub component_type: u64,
    base: usize,
    count: usize,
    components: usize,
    component_bytes: usize,
    stride: usize,
}

impl AccessorView {
    /// The byte offset of every component, element by element.
    pub fn offsets(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.count).flat_map(move |e| {
            (0..self.components)
                .map(move |c| self.base + e * self.stride + c * self.component_bytes)
        })
    }
}

fn components(kind: &str) -> Option<usize> {
    Some(match kind {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" | "MAT2" => 4,
        "MAT3" => 9,
        "MAT4" => 16,
        _ => return None,
    })
}

/// Every accessor of the document that lies wholly in buffer 0 (`None` for the others).
pub fn accessor_views(doc: &Value, bin_len: usize) -> Vec<Option<AccessorView>> {
    let accessors = doc["accessors"].as_array().cloned().unwrap_or_default();
    accessors
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let view = &doc["bufferViews"][a["bufferView"].as_u64()? as usize];
            if view["buffer"].as_u64()? != 0 {
                return None;
            }
            let component_type = a["componentType"].as_u64()?;
            let component_bytes = match component_type {
                5120 | 5121 => 1,
                5122 | 5123 => 2,
                5125 | 5126 => 4,
                _ => return None,
            };
            let comps = components(a["type"].as_str()?)?;
            let count = a["count"].as_u64()? as usize;
            let base = view["byteOffset"].as_u64().unwrap_or(0) as usize
                + a["byteOffset"].as_u64().unwrap_or(0) as usize;
            let stride = view["byteStride"]
                .as_u64()
                .map_or(comps * component_bytes, |s| s as usize);
            let end = base + count.checked_sub(1)? * stride + comps * component_bytes;
            (end <= bin_len).then_some(AccessorView {
                accessor: i,
                component_type,
                base,
                count,
                components: comps,
                component_bytes,
                stride,
            })
        })
        .collect()
}

/// [`accessor_views`] of the `FLOAT` accessors only.
pub fn float_accessor_ranges(doc: &Value, bin_len: usize) -> Vec<Option<AccessorView>> {
    accessor_views(doc, bin_len)
        .into_iter()
        .map(|v| v.filter(|v| v.component_type == 5126))
        .collect()
}

const ODD_FLOATS: &[f32] = &[
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    f32::MIN,
    3.4e38,
    1e38,
    1e20,
    -1e20,
    1e7,
    1e6,
    1e-45,
    -1e-45,
    1e-38,
    0.0,
    -0.0,
    1.0,
    -1.0,
];

/// Mutates a GLB the ways a broken exporter or a hostile file would; the new bytes and what
/// was done. Bytes that are not a GLB get byte-level mutations.
pub fn mutate_glb(bytes: &[u8], rng: &mut Rng, donors: &[&[u8]]) -> (Vec<u8>, String) {
    let byte_level = |rng: &mut Rng| super::bytes_mutate::mutate_bytes(bytes, rng, donors);
    let Ok((json, mut bin)) = split_raw(bytes) else {
        return byte_level(rng);
    };
    let Some(mut doc) = Doc::parse(&json) else {
        return byte_level(rng);
    };
    let what = match below(rng, 100) {
        0..=24 => mutate_doc(&mut doc, rng, &[]).join("; "),
        25..=41 => node_transform(&mut doc, rng),
        42..=61 => accessor_data(&doc.root, &mut bin, rng),
        62..=71 => accessor_fields(&mut doc, rng),
        72..=81 => skeleton(&mut doc, rng),
        82..=94 => return byte_level(rng),
        _ => {
            let cut = below(rng, bytes.len().max(1));
            return (bytes[..cut].to_vec(), format!("cut at byte {cut}"));
        }
    };
    (assemble(&doc.to_bytes(false), &bin), what)
}

fn array_len(v: &Value, key: &str) -> usize {
    v[key].as_array().map_or(0, Vec::len)
}

fn node_transform(doc: &mut Doc, rng: &mut Rng) -> String {
    let n = array_len(&doc.root, "nodes");
    if n == 0 {
        return "no nodes".into();
    }
    let i = below(rng, n);
    let (key, len) = *pick(
        rng,
        &[
            ("translation", 3),
            ("rotation", 4),
            ("scale", 3),
            ("matrix", 16),
            ("extras", 0),
        ],
    );
    if key == "extras" {
        let caps: Vec<Value> = (0..below(rng, 4))
            .map(|_| Value::from(*pick(rng, super::json_mutate::ODD_STRINGS)))
            .collect();
        doc.root["nodes"][i]["extras"] = json!({ "anymorph": { "caps": caps } });
        return format!("nodes[{i}].extras.anymorph.caps = odd strings");
    }
    let mut values: Vec<Value> = match doc.root["nodes"][i][key].as_array() {
        Some(a) if a.len() == len => a.clone(),
        _ => match key {
            "rotation" => vec![json!(0.0), json!(0.0), json!(0.0), json!(1.0)],
            "scale" => vec![json!(1.0); 3],
            "matrix" => (0..16)
                .map(|k| json!(if k % 5 == 0 { 1.0 } else { 0.0 }))
                .collect(),
            _ => vec![json!(0.0); 3],
        },
    };
    let mut said = Vec::new();
    let all = chance(rng, 0.3);
    for (k, v) in values.iter_mut().enumerate() {
        if all || k == 0 || chance(rng, 0.3) {
            let (x, text) = odd_number(doc, rng, v.as_f64());
            *v = x;
            said.push(format!("[{k}]={text}"));
        }
    }
    if key == "matrix" && chance(rng, 0.5) {
        // A matrix beside TRS is invalid glTF; keep one of the two.
        if let Some(node) = doc.root["nodes"][i].as_object_mut() {
            node.remove("translation");
            node.remove("rotation");
            node.remove("scale");
        }
    }
    doc.root["nodes"][i][key] = Value::Array(values);
    format!("nodes[{i}].{key} {}", said.join(" "))
}

fn accessor_data(doc: &Value, bin: &mut [u8], rng: &mut Rng) -> String {
    let views: Vec<AccessorView> = accessor_views(doc, bin.len())
        .into_iter()
        .flatten()
        .collect();
    if views.is_empty() {
        return "no accessor data".into();
    }
    // POSITION and the inverse bind matrices most of the time: they become bodies.
    let wanted = semantic_accessors(doc);
    let pool: Vec<&AccessorView> = views
        .iter()
        .filter(|v| wanted.contains(&v.accessor))
        .collect();
    let view = if !pool.is_empty() && chance(rng, 0.7) {
        *pick(rng, &pool)
    } else {
        pick(rng, &views)
    };
    let offsets: Vec<usize> = view.offsets().collect();
    let times = if chance(rng, 0.2) {
        offsets.len()
    } else {
        1 + below(rng, 4)
    };
    let mut last = String::new();
    for _ in 0..times {
        let at = *pick(rng, &offsets);
        last = match view.component_type {
            5126 => {
                let x = *pick(rng, ODD_FLOATS);
                bin[at..at + 4].copy_from_slice(&x.to_le_bytes());
                format!("{x}")
            }
            5125 => {
                let x = *pick(rng, &[u32::MAX, 65_536, 1_000_000, 255]);
                bin[at..at + 4].copy_from_slice(&x.to_le_bytes());
                format!("{x}")
            }
            5122 | 5123 => {
                let x = *pick(rng, &[u16::MAX, 32_768, 1000, 255]);
                bin[at..at + 2].copy_from_slice(&x.to_le_bytes());
                format!("{x}")
            }
            _ => {
                let x = *pick(rng, &[255u8, 128, 200]);
                bin[at] = x;
                format!("{x}")
            }
        };
    }
    format!(
        "accessors[{}] data: {times} component(s) = {last}",
        view.accessor
    )
}

/// The accessors meshes read as POSITION/JOINTS_0/WEIGHTS_0 and skins read as inverse bind
/// matrices.
fn semantic_accessors(doc: &Value) -> Vec<usize> {
    let mut out = Vec::new();
    for mesh in doc["meshes"].as_array().into_iter().flatten() {
        for prim in mesh["primitives"].as_array().into_iter().flatten() {
            for key in ["POSITION", "JOINTS_0", "WEIGHTS_0"] {
                if let Some(a) = prim["attributes"][key].as_u64() {
                    out.push(a as usize);
                }
            }
        }
    }
    for skin in doc["skins"].as_array().into_iter().flatten() {
        if let Some(a) = skin["inverseBindMatrices"].as_u64() {
            out.push(a as usize);
        }
    }
    out
}

fn accessor_fields(doc: &mut Doc, rng: &mut Rng) -> String {
    let (list, keys): (&str, &[&str]) = if chance(rng, 0.6) {
        (
            "accessors",
            &[
                "count",
                "byteOffset",
                "componentType",
                "type",
                "min",
                "max",
                "bufferView",
            ],
        )
    } else {
        (
            "bufferViews",
            &["byteOffset", "byteLength", "byteStride", "buffer"],
        )
    };
    let n = array_len(&doc.root, list);
    if n == 0 {
        return format!("no {list}");
    }
    let i = below(rng, n);
    let key = *pick(rng, keys);
    let (value, text) = match key {
        "type" => {
            let t = *pick(rng, &["SCALAR", "VEC2", "VEC3", "VEC4", "MAT4", "MAT9", ""]);
            (Value::from(t), t.to_string())
        }
        "min" | "max" => {
            let (x, text) = odd_number(doc, rng, None);
            (Value::Array(vec![x.clone(), x.clone(), x]), text)
        }
        _ => odd_number(doc, rng, doc.root[list][i][key].as_f64()),
    };
    doc.root[list][i][key] = value;
    format!("{list}[{i}].{key} = {text}")
}

fn skeleton(doc: &mut Doc, rng: &mut Rng) -> String {
    let n = array_len(&doc.root, "nodes");
    if n == 0 {
        return "no nodes".into();
    }
    match below(rng, 5) {
        0 => {
            // A cycle: a node becomes a child of one of its children (or of itself).
            let i = below(rng, n);
            let child = doc.root["nodes"][i]["children"][0]
                .as_u64()
                .unwrap_or(i as u64) as usize;
            let node = &mut doc.root["nodes"][child.min(n - 1)];
            match node["children"].as_array_mut() {
                Some(c) => c.push(Value::from(i)),
                None => node["children"] = json!([i]),
            }
            format!("nodes[{child}] gets child {i} (a cycle)")
        }
        1 => {
            // Two parents.
            let (a, b) = (below(rng, n), below(rng, n));
            let c = below(rng, n);
            for p in [a, b] {
                match doc.root["nodes"][p]["children"].as_array_mut() {
                    Some(list) => list.push(Value::from(c)),
                    None => doc.root["nodes"][p]["children"] = json!([c]),
                }
            }
            format!("nodes[{c}] is a child of nodes[{a}] and nodes[{b}]")
        }
        2 => {
            let s = array_len(&doc.root, "skins");
            if s == 0 {
                return "no skins".into();
            }
            let k = below(rng, s);
            let joints = doc.root["skins"][k]["joints"].as_array_mut();
            let Some(joints) = joints else {
                return "no joints".into();
            };
            if joints.is_empty() {
                return "no joints".into();
            }
            let j = below(rng, joints.len());
            let what = match below(rng, 3) {
                0 => {
                    let copy = joints[j].clone();
                    joints.push(copy);
                    "a joint listed twice"
                }
                1 => {
                    joints.remove(j);
                    "a joint dropped (inverse bind matrices count differs)"
                }
                _ => {
                    joints[j] = Value::from(n + 5);
                    "a joint that is no node"
                }
            };
            format!("skins[{k}].joints: {what}")
        }
        3 => {
            // Many more nodes: a wide or a long skeleton.
            let extra = *pick(rng, &[50usize, 500, 2000]);
            let chain = chance(rng, 0.5);
            let parent = below(rng, n);
            let nodes = doc.root["nodes"].as_array_mut();
            let Some(nodes) = nodes else {
                return "no nodes".into();
            };
            for k in 0..extra {
                nodes.push(json!({ "name": format!("fz_{k}"), "translation": [0.0, 0.01, 0.0] }));
                let p = if chain && k > 0 { n + k - 1 } else { parent };
                match nodes[p]["children"].as_array_mut() {
                    Some(c) => c.push(Value::from(n + k)),
                    None => nodes[p]["children"] = json!([n + k]),
                }
            }
            format!(
                "{extra} nodes added {} nodes[{parent}]",
                if chain { "in a chain under" } else { "under" }
            )
        }
        _ => {
            let i = below(rng, n);
            let name = *pick(rng, super::json_mutate::ODD_STRINGS);
            doc.root["nodes"][i]["name"] = Value::from(name);
            format!("nodes[{i}].name = {name:?}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_and_assemble_round_trip() {
        let json = br#"{"asset":{"version":"2.0"}}"#;
        let glb = assemble(json, &[1, 2, 3]);
        let (j, b) = split_raw(&glb).unwrap_or_default();
        assert_eq!(
            String::from_utf8_lossy(&j).trim_end(),
            String::from_utf8_lossy(json)
        );
        assert_eq!(&b[..3], &[1, 2, 3]);
    }

    #[test]
    fn float_accessors_are_found_with_strides() {
        let doc = json!({
            "bufferViews": [{ "buffer": 0, "byteOffset": 4, "byteLength": 32, "byteStride": 16 }],
            "accessors": [{ "bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 2 }]
        });
        let views = float_accessor_ranges(&doc, 40);
        let offsets: Vec<usize> = views[0]
            .as_ref()
            .map(|v| v.offsets().collect())
            .unwrap_or_default();
        assert_eq!(offsets, vec![4, 8, 12, 20, 24, 28]);
    }
}
