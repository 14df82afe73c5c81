//! What the runtime derives from a creature's rest pose, once, at load.

use super::{Body, BodyId, Cap};
use crate::math::Aabb;
use glam::Vec3;
use serde::Serialize;
use std::collections::VecDeque;

/// A leg: the path from a foot leaf up to the spine body it hangs from (its hip).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Leg {
    /// The foot: a leaf body with the `foot` cap.
    pub foot: BodyId,
    /// The spine body the leg hangs from.
    pub hip: BodyId,
    /// The leg's bodies from the one attached to the hip down to the foot.
    pub chain: Vec<BodyId>,
    /// Path length of joints from the hip attachment to the foot's joint.
    pub length: f32,
}

/// The upright-spine heuristic: does the spine run more up than along?
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Upright {
    /// The spine runs more up than along: the creature stands upright.
    pub upright: bool,
    /// `(vertical - horizontal) / (vertical + horizontal)` of the spine chain, in -1 ..= 1.
    pub score: f32,
}

#[derive(Clone, Debug)]
pub(super) struct Derived {
    pub root: BodyId,
    pub parent: Vec<Option<BodyId>>,
    pub children: Vec<Vec<BodyId>>,
    pub pivot: Vec<Vec3>,
    pub order: Vec<BodyId>,
    pub spine: Vec<bool>,
    pub spine_chain: Vec<BodyId>,
    pub limb_length: Vec<f32>,
    pub bounds: Aabb,
    pub size: f32,
    pub legs: Vec<Leg>,
    pub upright: Upright,
}

impl Derived {
    pub fn compute(bodies: &[Body]) -> Derived {
        let n = bodies.len();
        let adjacency = adjacency(bodies);
        let bounds = bodies.iter().fold(Aabb::EMPTY, |b, body| {
            b.union(Aabb::of_oriented_box(
                body.position,
                body.rotation,
                body.half_extents,
            ))
        });
        let size = bounds.size().max_element().max(1e-6);

        let spine = spine_set(bodies, &adjacency);
        let feet = foot_leaves(bodies, &spine, &adjacency);
        let hips: Vec<(BodyId, Vec<BodyId>)> = feet
            .iter()
            .filter_map(|&f| path_to_spine(f, &spine, &adjacency).map(|p| (f, p)))
            .collect();
        let root = choose_root(bodies, &spine, &hips);

        let (parent, order) = hang_from(root, &adjacency, n);
        let mut children = vec![Vec::new(); n];
        for &b in &order {
            if let Some(p) = parent[b] {
                children[p].push(b);
            }
        }
        let pivot = (0..n)
            .map(|b| match parent[b] {
                // A reversed edge: the old parent hangs from its old child through the
                // child's joint.
                Some(p) if bodies[p].file_parent == Some(b) => bodies[p].joint,
                _ => bodies[b].joint,
            })
            .collect::<Vec<_>>();

        let limb_length = (0..n)
            .map(|b| {
                let mut len = 0.0;
                let mut x = b;
                while !spine[x] {
                    let Some(p) = parent[x] else { break };
                    if spine[p] {
                        break;
                    }
                    len += pivot[x].distance(pivot[p]);
                    x = p;
                }
                len
            })
            .collect::<Vec<_>>();

        let legs = hips
            .iter()
            .map(|(foot, path)| {
                // `path` runs foot → … → hip; the leg chain is everything but the hip, hip first.
                let hip = *path.last().unwrap_or(foot);
                let mut chain: Vec<BodyId> = path[..path.len().saturating_sub(1)].to_vec();
                chain.reverse();
                Leg {
                    foot: *foot,
                    hip,
                    chain,
                    length: limb_length[*foot],
                }
            })
            .collect();

        let spine_chain = spine_chain(bodies, &spine, &adjacency, root);
        let upright = upright(bodies, &spine_chain);

        Derived {
            root,
            parent,
            children,
            pivot,
            order,
            spine,
            spine_chain,
            limb_length,
            bounds,
            size,
            legs,
            upright,
        }
    }
}

fn adjacency(bodies: &[Body]) -> Vec<Vec<BodyId>> {
    let mut adj = vec![Vec::new(); bodies.len()];
    for (i, b) in bodies.iter().enumerate() {
        if let Some(p) = b.file_parent {
            adj[p].push(i);
            adj[i].push(p);
        }
    }
    for a in &mut adj {
        a.sort_unstable();
    }
    adj
}

/// The spine: the connected run of spine-capped bodies that holds the root cap, or else the
/// largest such run. A creature without spine caps gets its top body as a one-body spine so
/// that every algorithm has a torso to hang limbs from.
fn spine_set(bodies: &[Body], adj: &[Vec<BodyId>]) -> Vec<bool> {
    let n = bodies.len();
    let capped: Vec<bool> = bodies
        .iter()
        .map(|b| b.has_cap(&Cap::Spine) || b.has_cap(&Cap::Root))
        .collect();
    let mut component = vec![usize::MAX; n];
    let mut components: Vec<Vec<BodyId>> = Vec::new();
    for start in 0..n {
        if !capped[start] || component[start] != usize::MAX {
            continue;
        }
        let id = components.len();
        let mut members = vec![start];
        component[start] = id;
        let mut i = 0;
        while i < members.len() {
            for &nb in &adj[members[i]] {
                if capped[nb] && component[nb] == usize::MAX {
                    component[nb] = id;
                    members.push(nb);
                }
            }
            i += 1;
        }
        members.sort_unstable();
        components.push(members);
    }
    let root_cap = bodies.iter().position(|b| b.has_cap(&Cap::Root));
    let chosen = match root_cap {
        Some(r) => Some(component[r]),
        None => (0..components.len()).max_by_key(|&c| (components[c].len(), usize::MAX - c)),
    };
    let mut spine = vec![false; n];
    match chosen {
        Some(c) => components[c].iter().for_each(|&b| spine[b] = true),
        None => {
            if let Some(top) = bodies.iter().position(|b| b.file_parent.is_none()) {
                spine[top] = true;
            }
        }
    }
    spine
}

/// Foot bodies with no foot below them: a leg ends at each.
fn foot_leaves(bodies: &[Body], spine: &[bool], adj: &[Vec<BodyId>]) -> Vec<BodyId> {
    (0..bodies.len())
        .filter(|&b| bodies[b].has_cap(&Cap::Foot) && !spine[b])
        .filter(|&b| {
            // Bodies "below" b are those not on its path to the spine.
            let toward_spine = path_to_spine(b, spine, adj).and_then(|p| p.get(1).copied());
            let mut stack: Vec<(BodyId, BodyId)> = adj[b]
                .iter()
                .filter(|&&nb| Some(nb) != toward_spine && !spine[nb])
                .map(|&nb| (nb, b))
                .collect();
            while let Some((x, from)) = stack.pop() {
                if bodies[x].has_cap(&Cap::Foot) {
                    return false;
                }
                stack.extend(
                    adj[x]
                        .iter()
                        .filter(|&&nb| nb != from && !spine[nb])
                        .map(|&nb| (nb, x)),
                );
            }
            true
        })
        .collect()
}

/// The unique tree path from `from` to the first spine body, both included.
fn path_to_spine(from: BodyId, spine: &[bool], adj: &[Vec<BodyId>]) -> Option<Vec<BodyId>> {
    let n = adj.len();
    let mut prev = vec![usize::MAX; n];
    let mut queue = VecDeque::from([from]);
    prev[from] = from;
    while let Some(x) = queue.pop_front() {
        if spine[x] {
            let mut path = vec![x];
            let mut at = x;
            while at != from {
                at = prev[at];
                path.push(at);
            }
            path.reverse();
            return Some(path);
        }
        for &nb in &adj[x] {
            if prev[nb] == usize::MAX {
                prev[nb] = x;
                queue.push_back(nb);
            }
        }
    }
    None
}

fn choose_root(bodies: &[Body], spine: &[bool], hips: &[(BodyId, Vec<BodyId>)]) -> BodyId {
    if let Some(r) = bodies.iter().position(|b| b.has_cap(&Cap::Root)) {
        return r;
    }
    let candidates: Vec<BodyId> = (0..bodies.len()).filter(|&b| spine[b]).collect();
    let legs_at = |b: BodyId| hips.iter().filter(|(_, p)| p.last() == Some(&b)).count();
    // Closeness to where the creature stands: the feet's centre, or the spine's when footless.
    let anchor_points: Vec<Vec3> = if hips.is_empty() {
        candidates.iter().map(|&b| bodies[b].position).collect()
    } else {
        hips.iter().map(|(f, _)| bodies[*f].position).collect()
    };
    let anchor = anchor_points.iter().copied().sum::<Vec3>() / anchor_points.len().max(1) as f32;
    let horizontal = |p: Vec3| Vec3::new(p.x - anchor.x, 0.0, p.z - anchor.z).length();
    candidates
        .iter()
        .copied()
        .min_by(|&a, &b| {
            legs_at(b)
                .cmp(&legs_at(a))
                .then(horizontal(bodies[a].position).total_cmp(&horizontal(bodies[b].position)))
                .then(a.cmp(&b))
        })
        .unwrap_or(0)
}

/// Parents and a parents-first order of the tree hung from `root`.
fn hang_from(root: BodyId, adj: &[Vec<BodyId>], n: usize) -> (Vec<Option<BodyId>>, Vec<BodyId>) {
    let mut parent = vec![None; n];
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    // Depth-first so each limb's bodies are contiguous in `order`.
    let mut stack = vec![root];
    seen[root] = true;
    while let Some(x) = stack.pop() {
        order.push(x);
        for &nb in adj[x].iter().rev() {
            if !seen[nb] {
                seen[nb] = true;
                parent[nb] = Some(x);
                stack.push(nb);
            }
        }
    }
    (parent, order)
}

/// The longest path through the spine bodies, oriented from back/bottom to front/top.
fn spine_chain(bodies: &[Body], spine: &[bool], adj: &[Vec<BodyId>], root: BodyId) -> Vec<BodyId> {
    let farthest = |from: BodyId| -> (BodyId, Vec<BodyId>) {
        let n = adj.len();
        let mut prev = vec![usize::MAX; n];
        let mut dist = vec![f32::INFINITY; n];
        prev[from] = from;
        dist[from] = 0.0;
        let mut stack = vec![from];
        while let Some(x) = stack.pop() {
            for &nb in &adj[x] {
                if spine[nb] && prev[nb] == usize::MAX {
                    prev[nb] = x;
                    dist[nb] = dist[x] + bodies[x].position.distance(bodies[nb].position);
                    stack.push(nb);
                }
            }
        }
        let end = (0..n)
            .filter(|&b| dist[b].is_finite())
            .max_by(|&a, &b| dist[a].total_cmp(&dist[b]).then(b.cmp(&a)))
            .unwrap_or(from);
        let mut path = vec![end];
        let mut at = end;
        while at != from {
            at = prev[at];
            path.push(at);
        }
        (end, path)
    };
    let (a, _) = farthest(root);
    let (_, mut chain) = farthest(a);
    let front = |b: BodyId| bodies[b].position.z + bodies[b].position.y;
    if let (Some(&first), Some(&last)) = (chain.first(), chain.last())
        && front(first) > front(last)
    {
        chain.reverse();
    }
    chain
}

fn upright(bodies: &[Body], chain: &[BodyId]) -> Upright {
    let (vertical, horizontal) = if chain.len() >= 2 {
        let mut points: Vec<Vec3> = chain.iter().map(|&b| bodies[b].position).collect();
        // Include the joints between spine bodies: they carry the bend of the spine.
        points = points
            .windows(2)
            .zip(chain.windows(2))
            .flat_map(|(p, c)| {
                // The file's joint of whichever of the two is the other's child: the tree may
                // hang the other way round from the root, so the re-rooted pivot is not it.
                let joint = if bodies[c[1]].file_parent == Some(c[0]) {
                    bodies[c[1]].joint
                } else {
                    bodies[c[0]].joint
                };
                [p[0], joint]
            })
            .chain(points.last().copied())
            .collect();
        points.windows(2).fold((0.0, 0.0), |(v, h), w| {
            let d = w[1] - w[0];
            (v + d.y.abs(), h + Vec3::new(d.x, 0.0, d.z).length())
        })
    } else {
        let b = &bodies[chain.first().copied().unwrap_or(0)];
        let size = Aabb::of_oriented_box(b.position, b.rotation, b.half_extents).size();
        (size.y, size.x.max(size.z))
    };
    let score = if vertical + horizontal > 0.0 {
        (vertical - horizontal) / (vertical + horizontal)
    } else {
        0.0
    };
    Upright {
        upright: score > 0.0,
        score,
    }
}
