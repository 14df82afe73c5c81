//! The solver's plan for one goal mask (which bodies have position and rotation goals):
//! the sub-tree that has IK, delegation, both phases' particles and constraints, the spine
//! splines and the reconstruction order. Built the first time a mask is seen and cached,
//! so a frame only does arithmetic.

use super::limb::LimbPlan;
use super::reconstruct::Follower;
use super::setup::{NONE, Rig};
use super::spine::SpinePlan;
use super::tuning::IkTuning;
use crate::creature::Creature;
use crate::eval::Goals;
use glam::{Quat, Vec3A, Vec4};

/// Two ends of one limb turn as one only when their directions from the limb's shoulder
/// are at least this far apart at rest (the sine of the angle between them, about 15°):
/// nearer in line, the turn about their common direction is the rounding of their goals.
const PARTNER_MIN_SINE: f32 = 0.25;

/// Bits per body in a goal mask: position goal, rotation goal.
const BITS: usize = 2;

/// Writes the goal mask of `goals` into `key` (reusing its storage). The root is left out:
/// its goals move it but never change the plan.
///
/// Every solve starts here, so four bodies' weights are compared at once and their bits
/// spread into the mask's two-per-body layout through [`SPREAD`].
pub(super) fn goal_key(rig: &Rig, goals: &Goals, key: &mut Vec<u64>) {
    let n = rig.len().min(goals.len());
    key.clear();
    key.resize((rig.len() * BITS).div_ceil(64).max(1), 0);
    let (position, rotation) = goals.weights();
    const PER_WORD: usize = 64 / BITS;
    let words = position[..n]
        .chunks(PER_WORD)
        .zip(rotation[..n].chunks(PER_WORD));
    for (word, (position, rotation)) in key.iter_mut().zip(words) {
        let quads = position.chunks_exact(4).zip(rotation.chunks_exact(4));
        for (k, (p, r)) in quads.enumerate() {
            let has = |w: &[f32]| Vec4::from_slice(w).cmpgt(Vec4::ZERO).bitmask() as usize;
            let bits = SPREAD[has(p)] | SPREAD[has(r)] << 1;
            *word |= u64::from(bits) << (k * 4 * BITS);
        }
        let done = position.len() / 4 * 4;
        for (i, (&p, &r)) in position.iter().zip(rotation).enumerate().skip(done) {
            *word |= (u64::from(p > 0.0) | u64::from(r > 0.0) << 1) << (i * BITS);
        }
    }
    let root = rig.root as usize * BITS;
    if let Some(word) = key.get_mut(root / 64) {
        *word &= !(0b11 << (root % 64));
    }
}

/// Four bodies' one-bit flags spread to every other bit: bit `i` to bit `2i`.
const SPREAD: [u8; 16] = {
    let mut table = [0u8; 16];
    let mut m = 0;
    while m < 16 {
        let mut i = 0;
        while i < 4 {
            table[m] |= (((m >> i) & 1) << (BITS * i)) as u8;
            i += 1;
        }
        m += 1;
    }
    table
};

fn key_bit(key: &[u64], b: usize, bit: usize) -> bool {
    let at = b * BITS + bit;
    key[at / 64] >> (at % 64) & 1 == 1
}

/// A goal as the solver applies it: the body that has it and the body whose joint it
/// becomes a goal for (itself, or its spine parent when delegated).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct GoalSource {
    pub body: u32,
    pub target: u32,
    /// The target's index in [`Plan::targets`].
    pub slot: u16,
    pub position: bool,
    pub rotation: bool,
    /// The source's rest centre seen from the target's rest pivot, in the target's rest
    /// frame: the target's joint goal is `centre goal - target rotation * this`.
    pub centre_in_target: Vec3A,
    /// Turns a rotation goal for the source into one for the target.
    pub source_to_target: Quat,
}

/// What one goal mask compiles to.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    pub key: Vec<u64>,
    pub has_ik: Vec<bool>,
    pub sources: Vec<GoalSource>,
    /// Distinct targets of `sources`.
    pub targets: Vec<u32>,
    /// Each target has one source, so source `k` is target `k`'s (no goal delegated to a
    /// body with a goal of its own).
    pub sole_sources: bool,
    /// Per target, the joint it turns about toward a position goal when it has no rotation
    /// goal (see [`super::goals::FrameGoals::prepare`]): its limb's first joint, its own on
    /// a spine end the root carries, or `NONE`.
    pub turn_about: Vec<u32>,
    /// Per target: another target of the same limb that also turns toward a position goal,
    /// the two turning as one (see `FrameGoals::turn_toward_position`), or `NONE`.
    pub turn_with: Vec<u32>,
    pub spine: SpinePlan,
    pub limbs: LimbPlan,
    /// Bodies posed rigidly with their parent, parents first: those without IK (jiggles
    /// move them next) and those that delegated their goal.
    pub followers: Vec<Follower>,
    /// Of those, the ones that delegated their goal: they have IK, so no jiggle places
    /// them, and a solve that leaves the bodies without IK to the jiggles still poses these.
    pub delegated: Vec<Follower>,
}

/// The goal-dependent facts every part of the plan needs.
pub(super) struct Topology<'a> {
    pub creature: &'a Creature,
    pub rig: &'a Rig,
    pub tuning: &'a IkTuning,
    pub has_ik: Vec<bool>,
    pub delegating: Vec<bool>,
    /// The body is the target of a position goal (its own or a delegated one).
    pub position_target: Vec<bool>,
    /// The body is the target of a rotation goal.
    pub rotation_target: Vec<bool>,
}

impl Plan {
    pub fn build(creature: &Creature, rig: &Rig, tuning: &IkTuning, key: &[u64]) -> Plan {
        let n = rig.len();
        let root = rig.root as usize;
        let has_position = |b: usize| b != root && key_bit(key, b, 0);
        let has_rotation = |b: usize| b != root && key_bit(key, b, 1);
        // Only a position goal moves a body's joint, so only it is worth bending the spine
        // for; a mouth or eye with a rotation goal alone turns by itself.
        let delegating: Vec<bool> = (0..n)
            .map(|b| rig.delegates[b] && has_position(b))
            .collect();
        let target = |b: usize| {
            if delegating[b] {
                rig.parent[b] as usize
            } else {
                b
            }
        };

        let mut has_ik = vec![false; n];
        for &b in creature.order().iter().rev() {
            if has_position(b) || has_rotation(b) {
                has_ik[b] = true;
            }
            if has_ik[b]
                && let Some(p) = rig.parent_of(b)
            {
                has_ik[p] = true;
            }
        }
        has_ik[root] = true;

        let mut sources = Vec::new();
        let mut targets = Vec::new();
        let mut position_target = vec![false; n];
        let mut rotation_target = vec![false; n];
        for &b in creature.order() {
            if !(has_position(b) || has_rotation(b)) {
                continue;
            }
            let t = target(b);
            let rest_in_target = rig.inv_rotation[t] * (rig.centre[b] - rig.pivot[t]);
            let slot = match targets.iter().position(|&x| x == t as u32) {
                Some(k) => k,
                None => {
                    targets.push(t as u32);
                    targets.len() - 1
                }
            };
            sources.push(GoalSource {
                body: b as u32,
                target: t as u32,
                slot: slot as u16,
                position: has_position(b),
                rotation: has_rotation(b),
                centre_in_target: rest_in_target,
                source_to_target: (rig.inv_rotation[b] * rig.rotation[t]).normalize(),
            });
            position_target[t] |= has_position(b);
            rotation_target[t] |= has_rotation(b);
        }

        let topo = Topology {
            creature,
            rig,
            tuning,
            has_ik,
            delegating,
            position_target,
            rotation_target,
        };
        let limbs = LimbPlan::build(&topo);
        let spine = SpinePlan::build(&topo, &limbs.simplified);
        let turn_about = targets
            .iter()
            .map(|&t| {
                let fixed_end = spine
                    .particles
                    .iter()
                    .any(|q| q.body == t && q.fixed && q.end_goal);
                match rig.limb_root[t as usize] {
                    NONE if fixed_end => t,
                    root => root,
                }
            })
            .collect();
        let turned = |t: u32| {
            topo.position_target[t as usize]
                && !topo.rotation_target[t as usize]
                && rig.limb_root[t as usize] != NONE
        };
        let turn_with = targets
            .iter()
            .map(|&t| {
                if !turned(t) {
                    return NONE;
                }
                let shoulder = rig.pivot[rig.limb_root[t as usize] as usize];
                let from = (rig.centre[t as usize] - shoulder).normalize_or_zero();
                // The partner whose direction from the shoulder is farthest from its own:
                // two directions nearly in line fix no turn about them.
                targets
                    .iter()
                    .copied()
                    .filter(|&p| {
                        p != t
                            && turned(p)
                            && rig.limb_root[p as usize] == rig.limb_root[t as usize]
                    })
                    .map(|p| {
                        let to = (rig.centre[p as usize] - shoulder).normalize_or_zero();
                        (p, from.cross(to).length())
                    })
                    .filter(|&(_, sine)| sine > PARTNER_MIN_SINE)
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .map_or(NONE, |(p, _)| p)
            })
            .collect();
        let followers: Vec<Follower> = creature
            .order()
            .iter()
            .filter(|&&b| b != root && (!topo.has_ik[b] || topo.delegating[b]))
            .filter(|&&b| rig.parent[b] != NONE)
            .map(|&b| {
                let parent = rig.parent[b];
                Follower {
                    body: b as u32,
                    parent,
                    offset: rig.centre[b] - rig.centre[parent as usize],
                }
            })
            .collect();
        let delegated = followers
            .iter()
            .copied()
            .filter(|f| topo.has_ik[f.body as usize])
            .collect();
        Plan {
            key: key.to_vec(),
            has_ik: topo.has_ik,
            sole_sources: sources.len() == targets.len(),
            sources,
            targets,
            turn_about,
            turn_with,
            spine,
            limbs,
            followers,
            delegated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ik::IkTuning;
    use glam::Vec3;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The four-at-a-time mask sets the bits one body at a time would: position goal at bit
    /// `2b`, rotation goal at `2b + 1`, the root's left clear, whatever the body count.
    #[test]
    fn the_goal_key_has_one_bit_per_goal() {
        let tuning = IkTuning::default();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut key = Vec::new();
        for creature in crate::test_samples::creatures().unwrap() {
            let rig = Rig::new(&creature, &tuning);
            for _ in 0..50 {
                let mut goals = Goals::new(creature.len());
                let share = rng.random_range(0.0..1.0);
                for b in 0..creature.len() {
                    if rng.random_bool(share) {
                        goals.set_position(b, Vec3::ONE, rng.random_range(0.01..1.0));
                    }
                    if rng.random_bool(share) {
                        goals.set_rotation(b, Quat::IDENTITY, rng.random_range(0.01..1.0));
                    }
                }
                goal_key(&rig, &goals, &mut key);
                for b in 0..creature.len() {
                    let root = b == rig.root as usize;
                    let expected = [
                        !root && goals.position(b).is_some(),
                        !root && goals.rotation(b).is_some(),
                    ];
                    assert_eq!(
                        [key_bit(&key, b, 0), key_bit(&key, b, 1)],
                        expected,
                        "{} body {b}",
                        creature.name()
                    );
                }
                assert_eq!(key.len(), (creature.len() * BITS).div_ceil(64));
                let used = creature.len() * BITS;
                if !used.is_multiple_of(64) {
                    assert_eq!(key[key.len() - 1] >> (used % 64), 0, "bits past the bodies");
                }
            }
        }
    }
}
