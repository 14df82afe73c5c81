//! The creature's mesh: every triangle primitive of the file gathered into one mesh skinned to
//! the bodies, posed at rest in character space. Skinned primitives keep their weights (four
//! strongest influences); a mesh on a plain node follows that node's body rigidly.

use super::accessor::{read_floats, read_uints};
use super::skeleton::Skeleton;
use super::source::Source;
use crate::LoadError;
use anymorph_runtime::creature::{BodyId, Creature};
use anymorph_runtime::pose::BodyPose;
use glam::{Affine3A, Mat3, Mat4, Vec3};

/// More vertices than this in one rig is refused (a film-resolution mesh is not a rig).
const MAX_VERTICES: usize = 1 << 22;

/// A mesh skinned to a creature's bodies, in character space at rest.
///
/// Skinning on the GPU or CPU: a vertex at rest `v` moves to
/// `Σ weights[k] · skin[joints[k]] · v` with `skin[b] = character_from_body(pose[b]) ·
/// inverse_bind[b]` (see [`SkinnedMesh::skin_matrices`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkinnedMesh {
    pub positions: Vec<Vec3>,
    /// Unit normals, one per position.
    pub normals: Vec<Vec3>,
    /// Triangle list into `positions`.
    pub indices: Vec<u32>,
    /// Up to four bodies (ids of the creature) per vertex.
    pub joints: Vec<[u16; 4]>,
    /// Their weights, summing to 1.
    pub weights: Vec<[f32; 4]>,
    /// Per body: `body_from_character` at rest (the inverse of the body's rest frame).
    pub inverse_bind: Vec<Mat4>,
}

impl SkinnedMesh {
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// Sets [`SkinnedMesh::inverse_bind`] from the creature's rest frames.
    pub fn bind_to(&mut self, creature: &Creature) {
        self.inverse_bind = creature
            .bodies()
            .iter()
            .map(|b| {
                Mat4::from(Affine3A::from_rotation_translation(b.rotation, b.position).inverse())
            })
            .collect();
    }

    /// The skinning matrix of every body for a pose (character space), into `out`.
    pub fn skin_matrices(&self, pose: &[BodyPose], out: &mut Vec<Mat4>) {
        out.clear();
        out.extend(self.inverse_bind.iter().enumerate().map(|(b, inv)| {
            pose.get(b).map_or(Mat4::IDENTITY, |p| {
                Mat4::from_rotation_translation(p.rotation, p.position) * *inv
            })
        }));
    }

    /// Positions skinned on the CPU with the given matrices (for tests and thumbnails).
    pub fn skin_positions(&self, skin: &[Mat4]) -> Vec<Vec3> {
        self.positions
            .iter()
            .zip(self.joints.iter().zip(&self.weights))
            .map(|(&v, (j, w))| {
                (0..4)
                    .map(|k| {
                        let m = skin
                            .get(usize::from(j[k]))
                            .copied()
                            .unwrap_or(Mat4::IDENTITY);
                        m.transform_point3(v) * w[k]
                    })
                    .sum()
            })
            .collect()
    }

    /// The body each vertex follows most.
    pub fn dominant_body(&self, vertex: usize) -> Option<BodyId> {
        let (j, w) = (self.joints.get(vertex)?, self.weights.get(vertex)?);
        let k = (0..4).max_by(|&a, &b| w[a].total_cmp(&w[b]))?;
        Some(usize::from(j[k]))
    }

    /// Moves the whole mesh by a rigid transform (used when the rig is turned to face +Z).
    pub(super) fn transform(&mut self, m: Affine3A) {
        let r = Mat3::from(m.matrix3);
        for p in &mut self.positions {
            *p = m.transform_point3(*p);
        }
        for n in &mut self.normals {
            *n = (r * *n).normalize_or_zero();
        }
    }
}

/// Gathers the file's triangles posed at rest in scene space; joints are body indices of
/// `skeleton`. `None` when the file has no triangle mesh. Other primitive modes are skipped
/// and reported in `warnings`.
pub(super) fn extract(
    src: &Source,
    skeleton: &Skeleton,
    warnings: &mut Vec<String>,
) -> Result<Option<SkinnedMesh>, LoadError> {
    let mut mesh = SkinnedMesh::default();
    for node in src.doc.nodes() {
        let Some(m) = node.mesh() else { continue };
        for prim in m.primitives() {
            let field = format!("meshes[{}].primitives[{}]", m.index(), prim.index());
            if prim.mode() != gltf::mesh::Mode::Triangles {
                warnings.push(format!(
                    "{field}: {:?} primitives are not drawn; only triangles are imported",
                    prim.mode()
                ));
                continue;
            }
            add_primitive(src, skeleton, &node, &prim, &field, &mut mesh)?;
        }
    }
    if mesh.positions.is_empty() {
        return Ok(None);
    }
    Ok(Some(mesh))
}

fn add_primitive(
    src: &Source,
    skeleton: &Skeleton,
    node: &gltf::Node,
    prim: &gltf::Primitive,
    field: &str,
    mesh: &mut SkinnedMesh,
) -> Result<(), LoadError> {
    let Some(pos_acc) = prim.get(&gltf::Semantic::Positions) else {
        return Err(src.field_error(
            format!("{field}.attributes"),
            "a triangle primitive needs POSITION",
        ));
    };
    let positions = read_floats::<3>(src, &pos_acc)?;
    let count = positions.len();
    if mesh.positions.len() + count > MAX_VERTICES {
        return Err(src.field_error(
            field,
            format!("the meshes hold over {MAX_VERTICES} vertices; a rig that size is refused"),
        ));
    }
    let same_len = |what: &str, len: usize| {
        if len == count {
            Ok(())
        } else {
            Err(src.field_error(
                format!("{field}.attributes.{what}"),
                format!("{len} elements for {count} positions"),
            ))
        }
    };
    let normals = match prim.get(&gltf::Semantic::Normals) {
        Some(a) => {
            let n = read_floats::<3>(src, &a)?;
            same_len("NORMAL", n.len())?;
            Some(n)
        }
        None => None,
    };
    let indices: Vec<u32> = match prim.indices() {
        Some(a) => read_uints::<1>(src, &a)?.into_iter().map(|[i]| i).collect(),
        None => (0..count as u32).collect(),
    };
    if let Some(bad) = indices.iter().find(|&&i| i as usize >= count) {
        return Err(src.field_error(
            format!("{field}.indices"),
            format!("index {bad} is past the {count} vertices"),
        ));
    }

    let binding = binding(src, skeleton, node, prim, field, count)?;
    let base = mesh.positions.len() as u32;
    for (v, p) in positions.iter().enumerate() {
        // (body, weight, matrix posing the vertex at rest) of each influence.
        let mut influences: Vec<(u16, f32, Mat4)> = match &binding {
            Binding::Rigid { rest, body } => vec![(*body, 1.0, *rest)],
            Binding::Skinned {
                rest,
                bodies,
                joints,
                weights,
            } => (0..4)
                .filter(|&k| weights[v][k] > 0.0)
                .map(|k| {
                    let slot = joints[v][k] as usize;
                    (bodies[slot], weights[v][k], rest[slot])
                })
                .collect(),
        };
        let total: f32 = influences.iter().map(|x| x.1).sum();
        if total <= 0.0 || !total.is_finite() {
            // An unweighted vertex stays where its node puts it, on the first body.
            influences = vec![(0, 1.0, skeleton.node_world[node.index()])];
        }
        let total: f32 = influences.iter().map(|x| x.1).sum();
        let mut bodies = [0u16; 4];
        let mut weights = [0.0f32; 4];
        let mut world = Mat4::ZERO;
        for (k, (b, w, m)) in influences.iter().enumerate().take(4) {
            bodies[k] = *b;
            weights[k] = w / total;
            world += *m * (w / total);
        }
        mesh.positions
            .push(world.transform_point3(Vec3::from_array(*p)));
        let n = normals
            .as_ref()
            .map_or(Vec3::ZERO, |ns| Vec3::from_array(ns[v]));
        mesh.normals
            .push(Mat3::from_mat4(world).mul_vec3(n).normalize_or_zero());
        mesh.joints.push(bodies);
        mesh.weights.push(weights);
    }
    mesh.indices.extend(indices.iter().map(|i| base + i));
    if normals.is_none() {
        smooth_normals(mesh, base as usize);
    }
    Ok(())
}

/// How a primitive's vertices follow the bodies.
enum Binding {
    /// A mesh on a plain node: every vertex follows that node's body.
    Rigid { rest: Mat4, body: u16 },
    /// Per skin joint slot: the matrix posing a vertex at rest and the joint's body.
    Skinned {
        rest: Vec<Mat4>,
        bodies: Vec<u16>,
        joints: Vec<[u32; 4]>,
        weights: Vec<[f32; 4]>,
    },
}

fn binding(
    src: &Source,
    skeleton: &Skeleton,
    node: &gltf::Node,
    prim: &gltf::Primitive,
    field: &str,
    count: usize,
) -> Result<Binding, LoadError> {
    let (Some(skin), Some(ja), Some(wa)) = (
        node.skin(),
        prim.get(&gltf::Semantic::Joints(0)),
        prim.get(&gltf::Semantic::Weights(0)),
    ) else {
        // The node's own body, or the nearest ancestor that is one.
        let mut at = Some(node.index());
        let mut body = None;
        while let Some(n) = at {
            body = skeleton.body_of_node.get(n).copied().flatten();
            if body.is_some() {
                break;
            }
            at = src
                .doc
                .nodes()
                .find(|p| p.children().any(|c| c.index() == n))
                .map(|p| p.index());
        }
        return Ok(Binding::Rigid {
            rest: skeleton.node_world[node.index()],
            body: body.and_then(|b| u16::try_from(b).ok()).unwrap_or(0),
        });
    };
    let joints = read_uints::<4>(src, &ja)?;
    let weights = read_floats::<4>(src, &wa)?;
    for (what, len) in [("JOINTS_0", joints.len()), ("WEIGHTS_0", weights.len())] {
        if len != count {
            return Err(src.field_error(
                format!("{field}.attributes.{what}"),
                format!("{len} elements for {count} positions"),
            ));
        }
    }
    let skin_nodes: Vec<usize> = skin.joints().map(|j| j.index()).collect();
    let ibm: Vec<Mat4> = match skin.inverse_bind_matrices() {
        Some(a) => {
            let m = read_floats::<16>(src, &a)?;
            if m.len() < skin_nodes.len() {
                return Err(src.field_error(
                    format!("skins[{}].inverseBindMatrices", skin.index()),
                    format!("{} matrices for {} joints", m.len(), skin_nodes.len()),
                ));
            }
            m.iter().map(Mat4::from_cols_array).collect()
        }
        None => vec![Mat4::IDENTITY; skin_nodes.len()],
    };
    for (v, (j, w)) in joints.iter().zip(&weights).enumerate() {
        if let Some(k) = (0..4).find(|&k| w[k] > 0.0 && j[k] as usize >= skin_nodes.len()) {
            return Err(src.field_error(
                format!("{field}.attributes.JOINTS_0"),
                format!(
                    "vertex {v} uses joint {}, but skins[{}] has {}",
                    j[k],
                    skin.index(),
                    skin_nodes.len()
                ),
            ));
        }
    }
    Ok(Binding::Skinned {
        rest: skin_nodes
            .iter()
            .zip(&ibm)
            .map(|(&n, ibm)| skeleton.node_world[n] * *ibm)
            .collect(),
        bodies: skin_nodes
            .iter()
            .map(|&n| {
                skeleton.body_of_node[n]
                    .and_then(|b| u16::try_from(b).ok())
                    .unwrap_or(0)
            })
            .collect(),
        joints,
        weights,
    })
}

/// Area-weighted vertex normals for the vertices from `first` on, for files without NORMAL.
fn smooth_normals(mesh: &mut SkinnedMesh, first: usize) {
    let mut acc = vec![Vec3::ZERO; mesh.positions.len() - first];
    for t in mesh.indices.chunks_exact(3) {
        let [a, b, c] = [t[0] as usize, t[1] as usize, t[2] as usize];
        if a < first || b < first || c < first {
            continue;
        }
        let n =
            (mesh.positions[b] - mesh.positions[a]).cross(mesh.positions[c] - mesh.positions[a]);
        for i in [a, b, c] {
            acc[i - first] += n;
        }
    }
    for (slot, n) in mesh.normals[first..].iter_mut().zip(acc) {
        *slot = n.normalize_or_zero();
    }
}
