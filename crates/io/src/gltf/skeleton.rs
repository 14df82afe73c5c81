//! Which glTF nodes become bodies, their tree and rest transforms: the joints of the file's
//! skins, or — without a skin — every node of the scene. The node hierarchy is checked first
//! (a node with two parents, a cycle, a non-finite or collapsed transform is an error naming
//! the node), so everything after can walk it without guarding.

use super::source::Source;
use crate::LoadError;
use anymorph_runtime::creature::Cap;
use glam::{Mat4, Vec3};
use serde_json::Value;
use std::collections::HashSet;

/// What a node's `extras.anymorph` says (see docs/FORMAT.md, "glTF").
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct NodeExtras {
    pub caps: Option<Vec<Cap>>,
    /// The body's box in the node's frame, as Anymorph's bake writes it.
    pub body: Option<BodyExtras>,
}

/// A body's box relative to its node: centre offset, half extents and shape.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct BodyExtras {
    pub center: Vec3,
    /// The body's rotation relative to the node.
    pub rotation: glam::Quat,
    pub half_extents: Vec3,
    pub shape: anymorph_runtime::creature::Shape,
}

/// The bodies found in a file, parents before children.
pub(super) struct Skeleton {
    /// The node of each body; `None` for a root added to join several top nodes.
    pub node: Vec<Option<usize>>,
    pub parent: Vec<Option<usize>>,
    /// Unique, non-empty names.
    pub names: Vec<String>,
    /// Each body's world (scene space) rest matrix.
    pub world: Vec<Mat4>,
    pub extras: Vec<NodeExtras>,
    /// Every node's world matrix, for meshes attached to nodes.
    pub node_world: Vec<Mat4>,
    /// The body of each node, if it is one.
    pub body_of_node: Vec<Option<usize>>,
    /// How many skins supplied joints (0: a plain node tree).
    pub skins: usize,
    /// Nodes left out because they hold a camera or a light.
    pub skipped: Vec<String>,
}

impl Skeleton {
    pub fn len(&self) -> usize {
        self.node.len()
    }
}

pub(super) fn build(src: &Source) -> Result<Skeleton, LoadError> {
    let doc = &src.doc;
    let n = doc.nodes().len();
    if n == 0 {
        return Err(src.field_error(
            "nodes",
            "the file has no nodes; a creature needs at least one",
        ));
    }
    let nodes: Vec<gltf::Node> = doc.nodes().collect();
    let label = |i: usize| match nodes.get(i).and_then(|x| x.name()) {
        Some(name) => format!("nodes[{i}] ('{name}')"),
        None => format!("nodes[{i}]"),
    };
    let mut node_parent: Vec<Option<usize>> = vec![None; n];
    for node in doc.nodes() {
        for child in node.children() {
            let c = child.index();
            if c == node.index() {
                return Err(src.field_error(
                    format!("{}.children", label(c)),
                    "a node cannot be its own child",
                ));
            }
            if let Some(other) = node_parent[c] {
                return Err(src.field_error(
                    format!("{}.children", label(node.index())),
                    format!(
                        "{} is already a child of nodes[{other}]; a node has one parent",
                        label(c)
                    ),
                ));
            }
            node_parent[c] = Some(node.index());
        }
    }
    for start in 0..n {
        let mut at = start;
        for _ in 0..=n {
            match node_parent[at] {
                Some(p) if p == start => {
                    return Err(src.field_error(
                        format!("{}.children", label(start)),
                        "the node hierarchy has a cycle through this node",
                    ));
                }
                Some(p) => at = p,
                None => break,
            }
        }
    }

    let local = doc
        .nodes()
        .map(|node| local_matrix(src, &node, &label(node.index())))
        .collect::<Result<Vec<_>, _>>()?;
    let mut node_world = vec![Mat4::IDENTITY; n];
    for i in topological(&node_parent) {
        node_world[i] = match node_parent[i] {
            Some(p) => node_world[p] * local[i],
            None => local[i],
        };
        let m = node_world[i];
        if !m.is_finite()
            || [m.x_axis, m.y_axis, m.z_axis]
                .iter()
                .any(|c| c.truncate().length_squared() < 1e-20)
        {
            return Err(src.field_error(
                label(i),
                "its world transform is not finite or scales it to nothing",
            ));
        }
    }

    let mut skipped = Vec::new();
    let mut skins = 0;
    let mut chosen: Vec<usize> = Vec::new();
    let mut seen = HashSet::new();
    for skin in doc.skins() {
        if skin.joints().len() > 0 {
            skins += 1;
        }
        for j in skin.joints() {
            if seen.insert(j.index()) {
                chosen.push(j.index());
            }
        }
    }
    if chosen.is_empty() {
        for node in doc.nodes() {
            let light = node
                .extensions()
                .is_some_and(|e| e.contains_key("KHR_lights_punctual"));
            if (node.camera().is_some() || light) && node.children().len() == 0 {
                skipped.push(node.name().unwrap_or("(unnamed)").to_string());
            } else {
                chosen.push(node.index());
            }
        }
        if chosen.is_empty() {
            return Err(src.field_error(
                "nodes",
                "every node is a camera or a light; no node can be a body",
            ));
        }
    }
    let is_body: HashSet<usize> = chosen.iter().copied().collect();
    let body_parent_node = |i: usize| -> Option<usize> {
        let mut at = node_parent[i];
        while let Some(p) = at {
            if is_body.contains(&p) {
                return Some(p);
            }
            at = node_parent[p];
        }
        None
    };
    let mut tops: Vec<usize> = chosen
        .iter()
        .copied()
        .filter(|&i| body_parent_node(i).is_none())
        .collect();
    tops.sort_unstable();
    // Several top nodes: join them under their lowest common ancestor node, or under a new
    // root at the origin when they share none.
    let mut joiner: Option<Option<usize>> = None;
    if tops.len() > 1 {
        joiner = Some(common_ancestor(&tops, &node_parent));
    }

    // Parents-first order: depth first from the top, children by node index.
    let mut children_of: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut sorted = chosen.clone();
    sorted.sort_unstable();
    for &i in &sorted {
        if let Some(p) = body_parent_node(i) {
            children_of[p].push(i);
        }
    }
    let mut node = Vec::with_capacity(chosen.len() + 1);
    let mut parent = Vec::with_capacity(chosen.len() + 1);
    let mut body_of_node = vec![None; n];
    let mut stack: Vec<(usize, Option<usize>)> = Vec::new();
    match joiner {
        Some(j) => {
            node.push(j);
            parent.push(None);
            if let Some(j) = j {
                body_of_node[j] = Some(0);
            }
            stack.extend(tops.iter().rev().map(|&t| (t, Some(0))));
        }
        None => stack.extend(tops.iter().map(|&t| (t, None))),
    }
    // A file that lists parents first (Anymorph's bakes, most exporters) keeps its order, so
    // a round trip keeps the creature's; otherwise depth first from the top.
    let listed_parents_first = joiner.is_none()
        && sorted
            .iter()
            .all(|&i| body_parent_node(i).is_none_or(|p| p < i));
    if listed_parents_first {
        stack.clear();
        for &i in &sorted {
            body_of_node[i] = Some(node.len());
            node.push(Some(i));
            parent.push(body_parent_node(i).and_then(|p| body_of_node[p]));
        }
    }
    while let Some((i, p)) = stack.pop() {
        if body_of_node[i].is_some() {
            continue;
        }
        body_of_node[i] = Some(node.len());
        let me = node.len();
        node.push(Some(i));
        parent.push(p);
        stack.extend(children_of[i].iter().rev().map(|&c| (c, Some(me))));
    }

    let mut names = Vec::with_capacity(node.len());
    let mut taken = HashSet::new();
    for &b in &node {
        let base = match b {
            Some(i) => match nodes.get(i).and_then(|x| x.name()) {
                Some(s) if !s.trim().is_empty() => s.trim().to_string(),
                _ => format!("node_{i}"),
            },
            None => "root".to_string(),
        };
        let mut name = base.clone();
        let mut k = 2;
        while !taken.insert(name.clone()) {
            name = format!("{base}_{k}");
            k += 1;
        }
        names.push(name);
    }
    let world = node
        .iter()
        .map(|b| b.map_or(Mat4::IDENTITY, |i| node_world[i]))
        .collect();
    let extras = node
        .iter()
        .map(|b| match b {
            Some(i) => node_extras(src, *i, &label(*i)),
            None => Ok(NodeExtras::default()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Skeleton {
        node,
        parent,
        names,
        world,
        extras,
        node_world,
        body_of_node,
        skins,
        skipped,
    })
}

fn local_matrix(src: &Source, node: &gltf::Node, label: &str) -> Result<Mat4, LoadError> {
    let bad = |field: &str| {
        src.field_error(
            format!("{label}.{field}"),
            "not a finite number, or a zero rotation",
        )
    };
    let huge = |field: &str, values: &[f32]| match values
        .iter()
        .find(|v| v.abs() > anymorph_runtime::math::WORKING_RANGE)
    {
        Some(v) => Err(src.field_error(
            format!("{label}.{field}"),
            format!("{v} is outside the working range of ±1e6"),
        )),
        None => Ok(()),
    };
    match node.transform() {
        gltf::scene::Transform::Matrix { matrix } => {
            let m = Mat4::from_cols_array_2d(&matrix);
            if !m.is_finite() {
                return Err(bad("matrix"));
            }
            huge("matrix", &m.to_cols_array())?;
            Ok(m)
        }
        gltf::scene::Transform::Decomposed {
            translation,
            rotation,
            scale,
        } => {
            let t = Vec3::from_array(translation);
            let q = glam::Quat::from_array(rotation);
            let s = Vec3::from_array(scale);
            if !t.is_finite() {
                return Err(bad("translation"));
            }
            if !q.is_finite() || q.length_squared() < 1e-12 {
                return Err(bad("rotation"));
            }
            if !s.is_finite() {
                return Err(bad("scale"));
            }
            huge("translation", &translation)?;
            huge("rotation", &rotation)?;
            huge("scale", &scale)?;
            Ok(Mat4::from_scale_rotation_translation(s, q.normalize(), t))
        }
    }
}

/// Nodes ordered so that parents come first (the hierarchy is known to be acyclic).
fn topological(parent: &[Option<usize>]) -> Vec<usize> {
    let n = parent.len();
    let mut children = vec![Vec::new(); n];
    for (i, p) in parent.iter().enumerate() {
        if let Some(p) = p {
            children[*p].push(i);
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&i| parent[i].is_none()).collect();
    let mut k = 0;
    while k < order.len() {
        let i = order[k];
        order.extend(children[i].iter().copied());
        k += 1;
    }
    order
}

fn common_ancestor(tops: &[usize], parent: &[Option<usize>]) -> Option<usize> {
    let chain = |mut at: usize| {
        let mut v = Vec::new();
        while let Some(p) = parent[at] {
            v.push(p);
            at = p;
        }
        v
    };
    let first = chain(*tops.first()?);
    let others: Vec<HashSet<usize>> = tops[1..]
        .iter()
        .map(|&t| chain(t).into_iter().collect())
        .collect();
    first
        .into_iter()
        .find(|a| others.iter().all(|o| o.contains(a)))
}

fn node_extras(src: &Source, index: usize, label: &str) -> Result<NodeExtras, LoadError> {
    let Some(node) = src.doc.nodes().nth(index) else {
        return Ok(NodeExtras::default());
    };
    let Some(raw) = node.extras() else {
        return Ok(NodeExtras::default());
    };
    let field = format!("{label}.extras.anymorph");
    let value: Value = serde_json::from_str(raw.get())
        .map_err(|e| src.field_error(format!("{label}.extras"), e.to_string()))?;
    let Some(any) = value.get("anymorph") else {
        return Ok(NodeExtras::default());
    };
    let mut out = NodeExtras::default();
    if let Some(caps) = any.get("caps") {
        let list: Vec<Cap> = serde_json::from_value(caps.clone()).map_err(|e| {
            src.field_error(
                format!("{field}.caps"),
                format!("expected a list of cap names: {e}"),
            )
        })?;
        out.caps = Some(list);
    }
    if let Some(body) = any.get("body") {
        #[derive(serde::Deserialize)]
        struct BodyIn {
            center: Vec3,
            #[serde(default = "identity")]
            rotation: glam::Quat,
            half_extents: Vec3,
            #[serde(default)]
            shape: anymorph_runtime::creature::Shape,
        }
        let b: BodyIn = serde_json::from_value(body.clone())
            .map_err(|e| src.field_error(format!("{field}.body"), e.to_string()))?;
        if !(b.center.is_finite()
            && b.half_extents.is_finite()
            && b.half_extents.min_element() >= 0.0
            && b.rotation.is_finite()
            && b.rotation.length_squared() > 1e-6)
        {
            return Err(src.field_error(
                format!("{field}.body"),
                "center, rotation and half_extents must be finite, half extents ≥ 0",
            ));
        }
        out.body = Some(BodyExtras {
            center: b.center,
            rotation: b.rotation.normalize(),
            half_extents: b.half_extents,
            shape: b.shape,
        });
    }
    Ok(out)
}

fn identity() -> glam::Quat {
    glam::Quat::IDENTITY
}
