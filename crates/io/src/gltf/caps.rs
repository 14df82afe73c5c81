//! Caps for imported bodies: from node extras when the file has them, else from bone names,
//! checked and completed by geometry.
//!
//! Geometry works on chains. The spine is the named spine bones, or else the central chain
//! from the top of the rig. Every chain hanging from the spine ends at a bone with no
//! non-ignored bone below it. A chain whose end comes near the rig's lowest point is a leg
//! (its end, or the bone named as a foot, is the foot); a chain ending well above the ground
//! that hangs from the spine at or ahead of the frontmost hip is a free upper limb, and its end
//! a grasper. Bones the rule table ignores (fingers, toes, face, feathers, twist helpers) never
//! end a chain, so they can never become extra legs or graspers.

use super::rules::NameMatch;
use anymorph_runtime::creature::Cap;
use glam::Vec3;
use std::fmt;

/// Where a body's caps came from.
#[derive(Clone, Debug, PartialEq)]
pub enum CapsSource {
    /// The node's `extras.anymorph.caps`.
    Extras,
    /// A bone-name rule; the word that matched.
    Name(String),
    /// The rig's shape: why.
    Geometry(String),
    /// Nothing said anything about this body.
    None,
}

impl fmt::Display for CapsSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CapsSource::Extras => f.write_str("extras"),
            CapsSource::Name(w) => write!(f, "name ('{w}')"),
            CapsSource::Geometry(why) => write!(f, "geometry ({why})"),
            CapsSource::None => f.write_str("none"),
        }
    }
}

/// The rig as cap inference sees it, character space.
pub(super) struct CapsInput<'a> {
    pub parent: &'a [Option<usize>],
    pub joint: &'a [Vec3],
    /// Where each bone ends (its main child's joint, or extrapolated for a leaf).
    pub end: &'a [Vec3],
    /// The lowest height each body reaches (its joint, bone end and vertices).
    pub low: &'a [f32],
    pub names: &'a [Option<NameMatch>],
    /// Whether each body's name marks it as on one side (a sided "hip" is a limb, not spine).
    pub sided: &'a [bool],
    pub extras: &'a [Option<Vec<Cap>>],
    /// The largest side of the rig's bounds, and its height above the ground (`y = 0`).
    pub size: f32,
    pub height: f32,
}

pub(super) struct CapsOutput {
    pub caps: Vec<Vec<Cap>>,
    pub sources: Vec<CapsSource>,
}

pub(super) fn infer(input: &CapsInput) -> CapsOutput {
    let n = input.parent.len();
    let mut caps: Vec<Vec<Cap>> = Vec::with_capacity(n);
    let mut sources = Vec::with_capacity(n);
    for b in 0..n {
        if let Some(c) = &input.extras[b] {
            caps.push(c.clone());
            sources.push(CapsSource::Extras);
        } else if let Some(m) = &input.names[b] {
            let mut c = m.caps.clone();
            if input.sided[b]
                && c.iter()
                    .any(|x| matches!(x, Cap::Spine | Cap::Head | Cap::Root))
            {
                // "LeftHip", "pelvis.L": a bone off to one side is part of a limb.
                c = vec![Cap::Limb];
            }
            caps.push(c);
            sources.push(CapsSource::Name(m.word.clone()));
        } else {
            caps.push(Vec::new());
            sources.push(CapsSource::None);
        }
    }
    let fixed: Vec<bool> = input.extras.iter().map(Option::is_some).collect();
    let ignored: Vec<bool> = (0..n)
        .map(|b| !fixed[b] && input.names[b].as_ref().is_some_and(|m| m.ignored))
        .collect();
    let mut adj = vec![Vec::new(); n];
    for (b, p) in input.parent.iter().enumerate() {
        if let Some(p) = *p {
            adj[p].push(b);
            adj[b].push(p);
        }
    }
    let mut g = Geometry {
        input,
        adj,
        ignored,
        fixed,
        caps,
        sources,
    };
    g.complete();
    CapsOutput {
        caps: g.caps,
        sources: g.sources,
    }
}

struct Geometry<'a> {
    input: &'a CapsInput<'a>,
    adj: Vec<Vec<usize>>,
    ignored: Vec<bool>,
    fixed: Vec<bool>,
    caps: Vec<Vec<Cap>>,
    sources: Vec<CapsSource>,
}

/// A chain from the spine to one end.
struct Chain {
    attach: usize,
    /// Bodies from the one next to the spine down to the end.
    path: Vec<usize>,
}

impl Geometry<'_> {
    fn complete(&mut self) {
        let n = self.caps.len();
        let spine = self.spine();
        if spine.is_empty() {
            return;
        }
        let mut in_spine = vec![false; n];
        spine.iter().for_each(|&s| in_spine[s] = true);
        let order = self.spine_order(&spine, &in_spine);
        let (chains, digits) = self.chains(&spine, &in_spine);
        let tolerance = (0.08 * self.input.height).max(0.01 * self.input.size);
        let on_ground = |g: &Self, c: &Chain| {
            let end = c.end();
            let from = c.path.len().checked_sub(2).map_or(c.attach, |i| c.path[i]);
            g.low_below(end, from, &in_spine) <= tolerance
        };

        // Legs first: the hips they hang from decide which limbs are "upper".
        let mut hip_rank: Option<usize> = None;
        let mut kind: Vec<Option<Cap>> = vec![None; chains.len()];
        for (i, c) in chains.iter().enumerate() {
            let named_foot = c
                .path
                .iter()
                .rev()
                .copied()
                .find(|&b| self.caps[b].contains(&Cap::Foot));
            let foot = match named_foot {
                Some(f) => Some((f, "on a leg")),
                None if on_ground(self, c) && self.limb_like(c.end()) => {
                    // The ankle, not the toe tip: the first body down the chain whose joint
                    // is on the ground.
                    let f = c
                        .path
                        .iter()
                        .copied()
                        .find(|&b| self.input.joint[b].y <= tolerance && self.limb_like(b))
                        .unwrap_or(c.end());
                    Some((f, "its chain reaches the ground"))
                }
                None => None,
            };
            if let Some((foot, why)) = foot {
                kind[i] = Some(Cap::Foot);
                hip_rank = hip_rank.max(Some(order[c.attach]));
                self.mark_chain(c, foot, Cap::Foot, why);
            }
        }
        for (i, c) in chains.iter().enumerate() {
            if kind[i].is_some() {
                continue;
            }
            let end = c.end();
            if !self.limb_like(end) || on_ground(self, c) {
                self.fill_chain(c, end);
                continue;
            }
            if self.caps[end].contains(&Cap::Grasper) {
                kind[i] = Some(Cap::Grasper);
                self.mark_chain(c, end, Cap::Grasper, "on an arm");
                continue;
            }
            let upper = match hip_rank {
                None => true,
                Some(h) => {
                    let a = self.input.joint[c.attach];
                    let e = self.input.joint[end];
                    order[c.attach] > h
                        || (order[c.attach] == h
                            && (e.z > a.z + 0.05 * self.input.size || e.y > a.y))
                }
            };
            if upper && self.chain_length(c) >= 0.1 * self.input.size {
                kind[i] = Some(Cap::Grasper);
                self.mark_chain(c, end, Cap::Grasper, "a free upper limb");
            } else {
                self.fill_chain(c, end);
            }
        }
        // Digits found by shape take the name of what they hang from.
        for (b, of) in digits.iter().enumerate() {
            let Some(of) = *of else { continue };
            if self.fixed[b] || !self.caps[b].is_empty() {
                continue;
            }
            let cap = if self.caps[of].contains(&Cap::Foot) {
                "toe"
            } else if self.caps[of].contains(&Cap::Grasper) {
                "finger"
            } else {
                "digit"
            };
            self.caps[b].push(Cap::Other(cap.into()));
            self.sources[b] =
                CapsSource::Geometry(format!("a short branch ending the chain at {of}"));
        }
        self.one_grasper_per_hand(&in_spine);
        if !self.caps.iter().any(|c| c.contains(&Cap::Head))
            && let Some(&front) = spine.iter().max_by_key(|&&s| order[s])
            && !self.fixed[front]
        {
            self.caps[front].push(Cap::Head);
            self.add_reason(front, "the front end of the spine");
        }
    }

    /// A hand is the body whose children fan out into fingers, so a grasper below another
    /// grasper or a foot is a finger or a toe (a metacarpal `palm.01.L` under `hand.L`, a
    /// cat's front palm bones under its paw), and graspers that are siblings (the palm bones
    /// of one hand, each ending a chain of its own) are the fingers of their parent, the hand.
    fn one_grasper_per_hand(&mut self, in_spine: &[bool]) {
        let n = self.caps.len();
        let parent = self.input.parent;
        // What a body's limb holds above it, up to the spine: a grasper or a foot.
        let above = |caps: &[Vec<Cap>], b: usize| -> Option<Cap> {
            let mut at = parent[b];
            while let Some(p) = at {
                if in_spine[p] {
                    return None;
                }
                if let Some(c) = caps[p]
                    .iter()
                    .find(|c| matches!(c, Cap::Grasper | Cap::Foot))
                {
                    return Some(c.clone());
                }
                at = parent[p];
            }
            None
        };
        let demote = |g: &mut Self, b: usize, to: &str, why: &str| {
            g.caps[b].retain(|c| *c != Cap::Grasper);
            g.caps[b].push(Cap::Other(to.into()));
            g.add_reason(b, why);
        };
        for b in 0..n {
            if self.fixed[b] || !self.caps[b].contains(&Cap::Grasper) {
                continue;
            }
            match above(&self.caps, b) {
                Some(Cap::Foot) => demote(self, b, "toe", "below the chain's foot"),
                Some(_) => demote(self, b, "finger", "below the chain's grasper"),
                None => {}
            }
        }
        let mut by_parent: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (b, &p) in parent.iter().enumerate() {
            if !self.fixed[b]
                && self.caps[b].contains(&Cap::Grasper)
                && let Some(p) = p
            {
                by_parent[p].push(b);
            }
        }
        for (p, fingers) in by_parent.iter().enumerate() {
            if fingers.len() < 2 || in_spine[p] || self.fixed[p] {
                continue;
            }
            for &b in fingers {
                demote(
                    self,
                    b,
                    "finger",
                    "one of the fingers its hand fans out into",
                );
            }
            self.caps[p].retain(|c| !matches!(c, Cap::Limb | Cap::Foot));
            self.caps[p].push(Cap::Grasper);
            self.add_reason(p, "the hand: its children fan out into fingers");
        }
    }

    /// Whether geometry may make `b` a foot or a grasper: nothing named it otherwise
    /// (a tail, a wing, an eye…).
    fn limb_like(&self, b: usize) -> bool {
        !self.fixed[b]
            && !self.ignored[b]
            && self.caps[b]
                .iter()
                .all(|c| matches!(c, Cap::Limb | Cap::Grasper | Cap::Foot))
    }

    fn chain_length(&self, c: &Chain) -> f32 {
        let j = &self.input.joint;
        std::iter::once(c.attach)
            .chain(c.path.iter().copied())
            .collect::<Vec<_>>()
            .windows(2)
            .map(|w| j[w[0]].distance(j[w[1]]))
            .sum()
    }

    /// The spine: the largest connected group of spine-capped bodies, or else the central
    /// chain from the top of the rig, following at each body its central child with the
    /// most bodies below it (the neck, not the jaw).
    fn spine(&mut self) -> Vec<usize> {
        let n = self.caps.len();
        let capped: Vec<bool> = (0..n)
            .map(|b| {
                self.caps[b]
                    .iter()
                    .any(|c| matches!(c, Cap::Spine | Cap::Root))
            })
            .collect();
        let groups = self.groups(&capped);
        if let Some(best) = groups
            .into_iter()
            .max_by_key(|g| (g.len(), usize::MAX - g[0]))
        {
            return best;
        }
        let tol = (0.01 * self.input.size).max(1e-3);
        let central: Vec<bool> = (0..n)
            .map(|b| {
                self.input.joint[b].x.abs() <= tol
                    && self.input.end[b].x.abs() <= tol
                    && !self.ignored[b]
                    && !self.fixed[b]
                    && self.caps[b].is_empty()
            })
            .collect();
        let mut below: Vec<usize> = central.iter().map(|&c| usize::from(c)).collect();
        for b in (0..n).rev() {
            if let Some(p) = self.input.parent[b] {
                below[p] += below[b];
            }
        }
        let Some(mut at) = (0..n).find(|&b| central[b]) else {
            return Vec::new();
        };
        let mut chain = vec![at];
        let mut kids = vec![Vec::new(); n];
        for (b, p) in self.input.parent.iter().enumerate() {
            if let Some(p) = *p {
                kids[p].push(b);
            }
        }
        // The spine goes on into a central child with children of its own, or an only
        // child: a jaw beside a head's eyes is not more spine.
        while let Some(next) = kids[at]
            .iter()
            .copied()
            .filter(|&c| central[c] && (!kids[c].is_empty() || kids[at].len() == 1))
            .max_by_key(|&c| (below[c], usize::MAX - c))
        {
            chain.push(next);
            at = next;
        }
        for &b in &chain {
            self.caps[b].push(Cap::Spine);
            self.sources[b] = CapsSource::Geometry("the central chain from the root".into());
        }
        chain.sort_unstable();
        chain
    }

    fn groups(&self, member: &[bool]) -> Vec<Vec<usize>> {
        let n = member.len();
        let mut seen = vec![false; n];
        let mut out = Vec::new();
        for s in 0..n {
            if !member[s] || seen[s] {
                continue;
            }
            seen[s] = true;
            let mut g = vec![s];
            let mut k = 0;
            while k < g.len() {
                for &nb in &self.adj[g[k]] {
                    if member[nb] && !seen[nb] {
                        seen[nb] = true;
                        g.push(nb);
                    }
                }
                k += 1;
            }
            g.sort_unstable();
            out.push(g);
        }
        out
    }

    /// Each spine body's rank from the back/bottom end of the spine toward the head: its
    /// distance along the spine from the rear end of the spine's longest path.
    fn spine_order(&self, spine: &[usize], in_spine: &[bool]) -> Vec<usize> {
        let n = self.caps.len();
        let far = |from: usize| {
            let mut dist = vec![usize::MAX; n];
            dist[from] = 0;
            let mut queue = std::collections::VecDeque::from([from]);
            while let Some(x) = queue.pop_front() {
                for &nb in &self.adj[x] {
                    if in_spine[nb] && dist[nb] == usize::MAX {
                        dist[nb] = dist[x] + 1;
                        queue.push_back(nb);
                    }
                }
            }
            dist
        };
        let d0 = far(spine[0]);
        let a = *spine
            .iter()
            .max_by_key(|&&s| (d0[s], s))
            .unwrap_or(&spine[0]);
        let da = far(a);
        let b = *spine.iter().max_by_key(|&&s| (da[s], s)).unwrap_or(&a);
        let db = far(b);
        // The rear end is the one farther from the head, or without a head the lower and
        // further back one.
        let heads: Vec<usize> = spine
            .iter()
            .copied()
            .filter(|&h| self.caps[h].contains(&Cap::Head))
            .collect();
        let rear = if heads.is_empty() {
            let key = |s: usize| self.input.joint[s].y + self.input.joint[s].z;
            if key(a) <= key(b) { a } else { b }
        } else {
            let to_head = |d: &[usize]| heads.iter().map(|&h| d[h]).min().unwrap_or(0);
            if to_head(&da) >= to_head(&db) { a } else { b }
        };
        let d = if rear == a { da } else { db };
        (0..n)
            .map(|s| if d[s] == usize::MAX { 0 } else { d[s] })
            .collect()
    }

    /// Every chain from a spine body to an end: a non-ignored body with no non-ignored body
    /// further from the spine, or a body where the chain splits into short branches (digits,
    /// returned per body as the body they end at).
    fn chains(&self, spine: &[usize], in_spine: &[bool]) -> (Vec<Chain>, Vec<Option<usize>>) {
        let n = self.caps.len();
        let mut out = Vec::new();
        let mut digits = vec![None; n];
        for &s in spine {
            for &first in &self.adj[s] {
                if in_spine[first] {
                    continue;
                }
                // Depth first away from the spine, keeping the path and its length.
                let reach = self.input.joint[s].distance(self.input.joint[first]);
                let mut stack = vec![(first, s, vec![first], reach)];
                while let Some((x, from, path, length)) = stack.pop() {
                    let branches: Vec<usize> = self.adj[x]
                        .iter()
                        .copied()
                        .filter(|&y| y != from && !in_spine[y] && self.active_below(y, x, in_spine))
                        .collect();
                    let ends_here = !self.ignored[x]
                        && (branches.is_empty()
                            || (branches.len() >= 2
                                && branches
                                    .iter()
                                    .all(|&y| self.branch_reach(y, x, in_spine) <= 0.5 * length)));
                    if ends_here {
                        for &y in &branches {
                            self.for_branch(y, x, in_spine, &mut |z| digits[z] = Some(x));
                        }
                        out.push(Chain {
                            attach: s,
                            path: path.clone(),
                        });
                        continue;
                    }
                    for y in branches.into_iter().rev() {
                        let mut p = path.clone();
                        p.push(y);
                        let l = length + self.input.joint[x].distance(self.input.joint[y]);
                        stack.push((y, x, p, l));
                    }
                }
            }
        }
        (out, digits)
    }

    /// Calls `f` on `x` (reached from `from`) and everything beyond it, away from the spine.
    fn for_branch(&self, x: usize, from: usize, in_spine: &[bool], f: &mut dyn FnMut(usize)) {
        let mut stack = vec![(x, from)];
        while let Some((y, p)) = stack.pop() {
            f(y);
            stack.extend(
                self.adj[y]
                    .iter()
                    .filter(|&&z| z != p && !in_spine[z])
                    .map(|&z| (z, y)),
            );
        }
    }

    /// How far a branch reaches from the joint of the body it hangs from.
    fn branch_reach(&self, x: usize, from: usize, in_spine: &[bool]) -> f32 {
        let origin = self.input.joint[from];
        let mut reach = 0.0f32;
        self.for_branch(x, from, in_spine, &mut |z| {
            reach = reach
                .max(self.input.joint[z].distance(origin))
                .max(self.input.end[z].distance(origin));
        });
        reach
    }

    /// Whether `x` (reached from `from`) or anything beyond it is a non-ignored body.
    fn active_below(&self, x: usize, from: usize, in_spine: &[bool]) -> bool {
        let mut any = false;
        self.for_branch(x, from, in_spine, &mut |z| any |= !self.ignored[z]);
        any
    }

    /// The lowest point of `end` and what hangs below it (toes, digits).
    fn low_below(&self, end: usize, from: usize, in_spine: &[bool]) -> f32 {
        let mut low = self.input.low[end];
        for &y in &self.adj[end] {
            if y != from && !in_spine[y] {
                self.for_branch(y, end, in_spine, &mut |z| low = low.min(self.input.low[z]));
            }
        }
        low
    }

    /// Makes `tip` a `cap` (a foot or a grasper), every body above it on the chain a limb
    /// (a foot or hand named higher up is not the end), and uncapped bodies below it toes or
    /// fingers.
    fn mark_chain(&mut self, c: &Chain, tip: usize, cap: Cap, why: &str) {
        if !self.fixed[tip] && !self.caps[tip].contains(&cap) {
            self.caps[tip].retain(|x| !matches!(x, Cap::Foot | Cap::Grasper | Cap::Limb));
            self.caps[tip].push(cap.clone());
            self.add_reason(tip, why);
        }
        let Some(at) = c.path.iter().position(|&b| b == tip) else {
            return;
        };
        let tip_name = format!("{cap}");
        for &b in &c.path[..at] {
            if self.fixed[b] || self.ignored[b] {
                continue;
            }
            if self.caps[b]
                .iter()
                .any(|x| matches!(x, Cap::Foot | Cap::Grasper))
            {
                self.caps[b].retain(|x| !matches!(x, Cap::Foot | Cap::Grasper));
                if !self.caps[b].contains(&Cap::Limb) {
                    self.caps[b].push(Cap::Limb);
                }
                self.add_reason(b, &format!("above the chain's {tip_name}"));
            } else if self.caps[b].is_empty() {
                self.caps[b].push(Cap::Limb);
                self.add_reason(b, &format!("on the chain to a {tip_name}"));
            }
        }
        let below = if cap == Cap::Foot { "toe" } else { "finger" };
        for &b in &c.path[at + 1..] {
            if !self.fixed[b] && !self.ignored[b] && self.caps[b].is_empty() {
                self.caps[b].push(Cap::Other(below.into()));
                self.add_reason(b, &format!("below the chain's {tip_name}"));
            }
        }
    }

    /// A chain that is neither leg nor arm: its uncapped bodies take the end's cap when that
    /// is a body-part cap (a wing, a tail), or become limbs.
    fn fill_chain(&mut self, c: &Chain, end: usize) {
        let inherited = self.caps[end]
            .iter()
            .find(|x| matches!(x, Cap::Wing | Cap::Tail | Cap::Fin))
            .cloned()
            .unwrap_or(Cap::Limb);
        for &b in &c.path {
            if !self.fixed[b] && !self.ignored[b] && self.caps[b].is_empty() {
                self.caps[b].push(inherited.clone());
                self.add_reason(b, &format!("on a chain ending in {inherited}"));
            }
        }
    }

    fn add_reason(&mut self, b: usize, why: &str) {
        self.sources[b] = match &self.sources[b] {
            CapsSource::Name(w) => CapsSource::Geometry(format!("{why}; named '{w}'")),
            _ => CapsSource::Geometry(why.to_string()),
        };
    }
}

impl Chain {
    fn end(&self) -> usize {
        *self.path.last().unwrap_or(&self.attach)
    }
}
