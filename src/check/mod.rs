//! The runtime's contracts as properties over creatures nobody tuned it for: `anymorph
//! check ik` and `anymorph check gait` run them over the zoo's families (thousands of
//! creatures, a report per family), and the tests run the same code over a bounded number.
//!
//! Every goal set and walk is drawn from a generator seeded by the creature's own seed, so a
//! figure in a report is reproduced by the same command, and one creature's cases do not
//! depend on which others ran beside it.

pub mod gait;
pub mod ik;

use crate::runtime::creature::{BodyId, Creature};
use crate::runtime::pose::BodyPose;
use crate::zoo::Family;
use glam::{Quat, Vec3};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One creature to check: generated (with its family and seed) or loaded from a file.
#[derive(Clone, Debug)]
pub struct Subject {
    pub creature: std::sync::Arc<Creature>,
    /// The family and seed it was generated from; `None` for a creature from a file.
    pub origin: Option<(Family, u64)>,
}

impl Subject {
    /// The family's name, or "file" for a creature from a file.
    pub fn family_name(&self) -> &'static str {
        self.origin.map_or("file", |(f, _)| f.name())
    }

    /// The seed its cases are drawn from: its zoo seed, or a hash of its name.
    pub fn case_seed(&self) -> u64 {
        match self.origin {
            Some((f, s)) => s ^ (0x517c_c1b7_2722_0a95_u64.wrapping_mul(f as u64 + 1)),
            None => self
                .creature
                .name()
                .bytes()
                .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
                }),
        }
    }

    /// How to make the creature again: a `generate` command line, or its name.
    pub fn how_to_make(&self) -> String {
        match self.origin {
            Some((f, s)) => format!(
                "anymorph generate --seed {s} --family {f} --out {}.creature.json",
                self.creature.name()
            ),
            None => self.creature.name().to_string(),
        }
    }
}

/// The subjects `--random N --seed S [--family F]` names: seeds `S..S+N` of the family, or
/// of the default mix (each seed's own family).
pub fn zoo_subjects(
    count: usize,
    first_seed: u64,
    family: Option<Family>,
) -> Result<Vec<Subject>, String> {
    (0..count as u64)
        .map(|i| {
            let seed = first_seed.wrapping_add(i);
            let f = family.unwrap_or_else(|| Family::of_seed(seed));
            crate::zoo::generate_family(seed, f)
                .map(|c| Subject {
                    creature: std::sync::Arc::new(c),
                    origin: Some((f, seed)),
                })
                .map_err(|e| format!("zoo seed {seed} ({f}): {e}"))
        })
        .collect()
}

/// The seeded draws the checks make.
pub(crate) struct Draws(ChaCha8Rng);

impl Draws {
    pub(crate) fn seeded(seed: u64) -> Draws {
        Draws(ChaCha8Rng::seed_from_u64(seed))
    }

    /// Uniform in `[lo, hi)`.
    pub(crate) fn range(&mut self, lo: f32, hi: f32) -> f32 {
        if hi > lo {
            self.0.random_range(lo..hi)
        } else {
            lo
        }
    }

    /// Uniform in `0..n` (`n` > 0).
    pub(crate) fn index(&mut self, n: usize) -> usize {
        self.0.random_range(0..n.max(1))
    }

    /// A unit direction, uniform on the sphere.
    pub(crate) fn direction(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            if (0.01..=1.0).contains(&v.length_squared()) {
                return v.normalize();
            }
        }
    }

    /// A turn about a random axis by up to `max_angle` radians either way.
    pub(crate) fn turn(&mut self, max_angle: f32) -> Quat {
        Quat::from_axis_angle(self.direction(), self.range(-max_angle, max_angle))
    }
}

/// The limbs of a creature: every sub-tree that hangs from a spine body, by its top body.
pub(crate) fn limb_tops(c: &Creature) -> Vec<BodyId> {
    (0..c.len())
        .filter(|&b| !c.is_spine(b) && c.parent(b).is_some_and(|p| c.is_spine(p)))
        .collect()
}

/// The bodies of the sub-tree under `top`, `top` first.
pub(crate) fn subtree(c: &Creature, top: BodyId) -> Vec<BodyId> {
    let mut v = vec![top];
    let mut i = 0;
    while i < v.len() {
        v.extend_from_slice(c.children(v[i]));
        i += 1;
    }
    v
}

/// The path from `top` down to `end`, both included.
pub(crate) fn path(c: &Creature, top: BodyId, end: BodyId) -> Vec<BodyId> {
    let mut v = vec![end];
    let mut at = end;
    while at != top {
        match c.parent(at) {
            Some(p) => {
                v.push(p);
                at = p;
            }
            None => break,
        }
    }
    v.reverse();
    v
}

/// Where a posed body's rest pivot went.
pub(crate) fn posed_joint(c: &Creature, pose: &[BodyPose], b: BodyId) -> Vec3 {
    let body = c.body(b);
    let local = body.rotation.inverse() * (c.pivot(b) - body.position);
    pose[b].position + pose[b].rotation * local
}
