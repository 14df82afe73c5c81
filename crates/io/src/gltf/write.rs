//! Writing a creature, its mesh and baked animations as glTF 2.0: one node per body (parent →
//! child, rest transforms, caps and box in `extras.anymorph`), a skin over all of them, the
//! mesh (or a box per body), and one animation per take. Every accessor gets the bounds and
//! alignment the Khronos validator asks for.

use super::bake::{local, node_from_body, node_offsets};
use super::mesh::SkinnedMesh;
use anymorph_runtime::creature::{Creature, Shape};
use base64::Engine;
use glam::{Mat4, Quat, Vec3};
use serde_json::{Value, json};

/// A baked take: per frame time, every body node's local translation and rotation.
pub(super) struct Animation {
    pub name: String,
    pub extras: Value,
    pub times: Vec<f32>,
    /// `[body][frame]`
    pub translations: Vec<Vec<Vec3>>,
    pub rotations: Vec<Vec<Quat>>,
}

/// A glTF document: its JSON and binary buffer.
pub(super) struct Document {
    json: Value,
    bin: Vec<u8>,
}

const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_SHORT: u32 = 5123;
const UNSIGNED_INT: u32 = 5125;

/// Accumulates the binary buffer, its views and accessors.
#[derive(Default)]
struct Bin {
    bytes: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Bin {
    fn view(&mut self, data: &[u8], target: Option<u32>) -> usize {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        let mut v =
            json!({ "buffer": 0, "byteOffset": self.bytes.len(), "byteLength": data.len() });
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        self.bytes.extend_from_slice(data);
        self.views.push(v);
        self.views.len() - 1
    }

    /// Floats, `width` per element; `bounds` adds per-component min/max.
    fn floats(
        &mut self,
        data: &[f32],
        kind: &str,
        width: usize,
        target: Option<u32>,
        bounds: bool,
    ) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes, target);
        let count = data.len() / width.max(1);
        let mut a =
            json!({ "bufferView": view, "componentType": FLOAT, "count": count, "type": kind });
        if bounds && count > 0 {
            let mut min = vec![f32::INFINITY; width];
            let mut max = vec![f32::NEG_INFINITY; width];
            for e in data.chunks_exact(width) {
                for (k, x) in e.iter().enumerate() {
                    min[k] = min[k].min(*x);
                    max[k] = max[k].max(*x);
                }
            }
            a["min"] = json!(min);
            a["max"] = json!(max);
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    fn u16s(&mut self, data: &[u16], kind: &str, width: usize, target: Option<u32>) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes, target);
        self.accessors
            .push(json!({ "bufferView": view, "componentType": UNSIGNED_SHORT,
                                     "count": data.len() / width.max(1), "type": kind }));
        self.accessors.len() - 1
    }

    fn u32s(&mut self, data: &[u32], target: Option<u32>) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes, target);
        self.accessors
            .push(json!({ "bufferView": view, "componentType": UNSIGNED_INT,
                                     "count": data.len(), "type": "SCALAR" }));
        self.accessors.len() - 1
    }
}

/// The document for a creature, its mesh (or boxes) and animations.
pub(super) fn document(
    creature: &Creature,
    mesh: Option<&SkinnedMesh>,
    animations: &[Animation],
) -> Document {
    let n = creature.len();
    let offsets = node_offsets(creature);
    let rest: Vec<(Vec3, Quat)> = creature
        .bodies()
        .iter()
        .zip(&offsets)
        .map(|(b, o)| node_from_body((b.position, b.rotation), *o))
        .collect();
    let mut bin = Bin::default();
    let mut nodes: Vec<Value> = Vec::with_capacity(n + 1);
    for (b, body) in creature.bodies().iter().enumerate() {
        let (t, r) = local(&rest, body.file_parent, b);
        let children: Vec<usize> = (0..n)
            .filter(|&c| creature.body(c).file_parent == Some(b))
            .collect();
        let mut node = json!({
            "name": body.name,
            "translation": t.to_array(),
            "rotation": r.to_array(),
            "extras": { "anymorph": {
                "caps": body.caps,
                "body": body_extras(body.position, body.rotation, body.half_extents, body.shape, rest[b]),
            }},
        });
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        nodes.push(node);
    }

    // The skin: every body, bound where it rests.
    let inverse_bind: Vec<f32> = rest
        .iter()
        // An affine inverse keeps the last row exactly (0, 0, 0, 1), as glTF requires.
        .flat_map(|&(t, r)| {
            Mat4::from(glam::Affine3A::from_rotation_translation(r, t).inverse()).to_cols_array()
        })
        .collect();
    let ibm = bin.floats(&inverse_bind, "MAT4", 16, None, false);
    let root = creature
        .bodies()
        .iter()
        .position(|b| b.file_parent.is_none())
        .unwrap_or(0);
    let skins = json!([{ "name": format!("{} skin", creature.name()),
                         "joints": (0..n).collect::<Vec<_>>(),
                         "inverseBindMatrices": ibm, "skeleton": root }]);

    let boxes;
    let mesh = match mesh {
        Some(m) => m,
        None => {
            boxes = box_mesh(creature);
            &boxes
        }
    };
    let primitive = primitive(&mut bin, mesh, n);
    nodes.push(json!({ "name": format!("{} mesh", creature.name()), "mesh": 0, "skin": 0 }));
    let mesh_node = nodes.len() - 1;

    let anims: Vec<Value> = animations.iter().map(|a| animation(&mut bin, a)).collect();

    let mut json = json!({
        "asset": { "version": "2.0", "generator": concat!("Anymorph ", env!("CARGO_PKG_VERSION")) },
        "extras": { "anymorph": { "creature": creature.name() } },
        "scene": 0,
        "scenes": [{ "name": creature.name(), "nodes": [root, mesh_node] }],
        "nodes": nodes,
        "skins": skins,
        "meshes": [{ "name": format!("{} mesh", creature.name()), "primitives": [primitive] }],
    });
    if !anims.is_empty() {
        json["animations"] = json!(anims);
    }
    json["accessors"] = json!(bin.accessors);
    json["bufferViews"] = json!(bin.views);
    json["buffers"] = json!([{ "byteLength": bin.bytes.len() }]);
    Document {
        json,
        bin: bin.bytes,
    }
}

/// The body's box relative to its node, so an import restores the body exactly.
fn body_extras(
    position: Vec3,
    rotation: Quat,
    half_extents: Vec3,
    shape: Shape,
    node: (Vec3, Quat),
) -> Value {
    let inv = node.1.inverse();
    json!({
        "center": (inv * (position - node.0)).to_array(),
        "rotation": (inv * rotation).normalize().to_array(),
        "half_extents": half_extents.to_array(),
        "shape": shape,
    })
}

fn primitive(bin: &mut Bin, mesh: &SkinnedMesh, bodies: usize) -> Value {
    let positions: Vec<f32> = mesh.positions.iter().flat_map(|p| p.to_array()).collect();
    // The validator wants unit normals: a degenerate one points up.
    let normals: Vec<f32> = mesh
        .normals
        .iter()
        .chain(std::iter::repeat(&Vec3::ZERO))
        .take(mesh.positions.len())
        .flat_map(|n| n.try_normalize().unwrap_or(Vec3::Y).to_array())
        .collect();
    let mut joints: Vec<u16> = Vec::with_capacity(mesh.positions.len() * 4);
    let mut weights: Vec<f32> = Vec::with_capacity(mesh.positions.len() * 4);
    for v in 0..mesh.positions.len() {
        let (j, w) = clean_influences(
            mesh.joints.get(v).copied().unwrap_or_default(),
            mesh.weights.get(v).copied().unwrap_or([1.0, 0.0, 0.0, 0.0]),
            bodies,
        );
        joints.extend(j);
        weights.extend(w);
    }
    let pos = bin.floats(&positions, "VEC3", 3, Some(ARRAY_BUFFER), true);
    let nor = bin.floats(&normals, "VEC3", 3, Some(ARRAY_BUFFER), false);
    let jnt = bin.u16s(&joints, "VEC4", 4, Some(ARRAY_BUFFER));
    let wgt = bin.floats(&weights, "VEC4", 4, Some(ARRAY_BUFFER), false);
    let idx = bin.u32s(&mesh.indices, Some(ELEMENT_ARRAY_BUFFER));
    json!({
        "attributes": { "POSITION": pos, "NORMAL": nor, "JOINTS_0": jnt, "WEIGHTS_0": wgt },
        "indices": idx,
        "mode": 4,
    })
}

/// Merges repeated joints, zeroes unused slots and makes the weights sum to exactly 1 in f32,
/// as glTF requires.
fn clean_influences(joints: [u16; 4], weights: [f32; 4], bodies: usize) -> ([u16; 4], [f32; 4]) {
    let mut merged: Vec<(u16, f32)> = Vec::with_capacity(4);
    for k in 0..4 {
        let w = weights[k];
        if !(w.is_finite() && w > 0.0) || usize::from(joints[k]) >= bodies {
            continue;
        }
        match merged.iter_mut().find(|(j, _)| *j == joints[k]) {
            Some(m) => m.1 += w,
            None => merged.push((joints[k], w)),
        }
    }
    if merged.is_empty() {
        return ([0; 4], [1.0, 0.0, 0.0, 0.0]);
    }
    merged.sort_by(|a, b| b.1.total_cmp(&a.1));
    let total: f32 = merged.iter().map(|m| m.1).sum();
    let mut j = [0u16; 4];
    let mut w = [0f32; 4];
    for (k, m) in merged.iter().enumerate() {
        j[k] = m.0;
        w[k] = m.1 / total;
    }
    // The largest weight absorbs the rounding so the f32 sum is 1.
    let rest: f32 = w[1..].iter().sum();
    w[0] = 1.0 - rest;
    (j, w)
}

fn animation(bin: &mut Bin, a: &Animation) -> Value {
    let input = bin.floats(&a.times, "SCALAR", 1, None, true);
    let mut samplers = Vec::with_capacity(a.translations.len() * 2);
    let mut channels = Vec::with_capacity(a.translations.len() * 2);
    for (b, (ts, rs)) in a.translations.iter().zip(&a.rotations).enumerate() {
        let t: Vec<f32> = ts.iter().flat_map(|v| v.to_array()).collect();
        let r: Vec<f32> = rs.iter().flat_map(|q| q.normalize().to_array()).collect();
        let t_out = bin.floats(&t, "VEC3", 3, None, false);
        let r_out = bin.floats(&r, "VEC4", 4, None, false);
        for (out, path) in [(t_out, "translation"), (r_out, "rotation")] {
            samplers.push(json!({ "input": input, "output": out, "interpolation": "LINEAR" }));
            channels.push(
                json!({ "sampler": samplers.len() - 1, "target": { "node": b, "path": path } }),
            );
        }
    }
    json!({ "name": a.name, "samplers": samplers, "channels": channels, "extras": a.extras })
}

/// A box per body, rigidly skinned to it: what a creature without a mesh of its own shows.
fn box_mesh(creature: &Creature) -> SkinnedMesh {
    let mut m = SkinnedMesh::default();
    // Each face: its normal and two in-plane axes, wound counter-clockwise from outside.
    let faces = [
        (Vec3::X, Vec3::Y, Vec3::Z),
        (-Vec3::X, Vec3::Z, Vec3::Y),
        (Vec3::Y, Vec3::Z, Vec3::X),
        (-Vec3::Y, Vec3::X, Vec3::Z),
        (Vec3::Z, Vec3::X, Vec3::Y),
        (-Vec3::Z, Vec3::Y, Vec3::X),
    ];
    for (b, body) in creature.bodies().iter().enumerate() {
        let he = body.half_extents.max(Vec3::splat(1e-4));
        let id = u16::try_from(b).unwrap_or(0);
        for (normal, u, v) in faces {
            let base = m.positions.len() as u32;
            for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                let local = (normal + u * su + v * sv) * he;
                m.positions.push(body.position + body.rotation * local);
                m.normals.push(body.rotation * normal);
                m.joints.push([id, 0, 0, 0]);
                m.weights.push([1.0, 0.0, 0.0, 0.0]);
            }
            m.indices
                .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
        }
    }
    m.bind_to(creature);
    m
}

impl Document {
    /// Binary glTF: header, JSON chunk (space padded), BIN chunk (zero padded).
    pub fn to_glb(&self) -> Vec<u8> {
        let mut json = serde_json::to_vec(&self.json).unwrap_or_default();
        while !json.len().is_multiple_of(4) {
            json.push(b' ');
        }
        let mut bin = self.bin.clone();
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let total = 12 + 8 + json.len() + if bin.is_empty() { 0 } else { 8 + bin.len() };
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(json.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&json);
        if !bin.is_empty() {
            out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
            out.extend_from_slice(b"BIN\0");
            out.extend_from_slice(&bin);
        }
        out
    }

    /// `.gltf` text with the buffer embedded as a base64 data URI.
    pub fn to_gltf_json(&self) -> String {
        let mut json = self.json.clone();
        let data = base64::engine::general_purpose::STANDARD.encode(&self.bin);
        json["buffers"] = json!([{
            "byteLength": self.bin.len(),
            "uri": format!("data:application/octet-stream;base64,{data}"),
        }]);
        serde_json::to_string_pretty(&json).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn influences_sum_to_one_without_repeats() {
        let (j, w) = clean_influences([3, 3, 1, 0], [0.2, 0.3, 0.5, 0.0], 4);
        assert_eq!(j, [3, 1, 0, 0]);
        assert_eq!(w.iter().sum::<f32>(), 1.0);
        assert_eq!(w[2], 0.0);
        let (j, w) = clean_influences([9, 0, 0, 0], [1.0, 0.0, 0.0, 0.0], 4);
        assert_eq!((j, w), ([0; 4], [1.0, 0.0, 0.0, 0.0]));
    }
}
