//! The creature's walking gear: legs clustered into groups of roughly equal length whose
//! cadences are locked by small rational ratios (paper 4.2, "Leg Groups"), or, without feet,
//! pseudo-feet along the spine for a crawl.

use super::style::{FootPlace, Rows};
use crate::creature::{BodyId, Creature};
use glam::{Quat, Vec3};

/// Legs whose lengths are within this ratio of the group's shortest leg walk together.
pub const GROUP_LENGTH_RATIO: f32 = 1.4;

/// One foot the gait places.
#[derive(Clone, Debug, PartialEq)]
pub struct Limb {
    /// The foot body (for a crawler, the spine body that serves as a pseudo-foot).
    pub foot: BodyId,
    /// The body the leg hangs from (a spine body; for pseudo-feet, the foot itself).
    pub hip: BodyId,
    /// Leg length used for scaling (never below 5% of the creature's size).
    pub length: f32,
    /// The foot's rest centre, character space.
    pub home: Vec3,
    /// The foot's rest rotation, character space: how it stands on flat ground, turned
    /// with the body.
    pub rest_rotation: Quat,
    /// Height of the foot's centre above its lowest point.
    pub contact: f32,
    /// Where the leg leaves the body at rest, character space.
    pub attach: Vec3,
    /// The point that must stay within reach of the hip, in the foot's own frame: the ankle,
    /// or for a forked leg the knee its feet share (they pin it between them).
    pub reach_local: Vec3,
    /// The body where the leg leaves the spine: the feet of a forked leg share it.
    pub leg_root: BodyId,
    /// How far from `attach` the ankle may be before the hips must drop.
    pub reach: f32,
    /// How near `attach` the ankle may come before the hips must rise: a leg folds only as
    /// far as its bones allow, and a leg of one bone not at all (`reach_min == reach`).
    pub reach_min: f32,
    /// How near `attach` the ankle can come at all: the bones folded and each squeezed by
    /// the IK's whole give (its `limb.min_stretch`). A flying foot asked nearer is swung
    /// wide (see `Gait::swing_wide`); 0 for a forked leg, as `reach_min`.
    pub fold_min: f32,
    /// The drop the rest pose itself would call for: only drops beyond it are applied, so a
    /// creature standing as it rests keeps its height.
    pub rest_drop: f32,
    /// The rise the rest pose itself would call for (see `rest_drop`).
    pub rest_rise: f32,
}

/// Feet that step together.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Indices into the limb list, in the group's foot order (front to back, left first).
    pub limbs: Vec<usize>,
    /// Per foot (in foot order), its side and rank, from which wave triggers are generated.
    pub places: Vec<FootPlace>,
    /// Mean leg length.
    pub length: f32,
    /// The farthest of its feet's homes from the body's vertical axis, on the ground plane:
    /// how fast turning moves its feet (see `Gait`'s group speed).
    pub turn_reach: f32,
    /// Cadence relative to the reference group: a small rational, so the groups' cycles
    /// line up every few steps.
    pub ratio: f32,
    /// Which of a style's row tables the group reads.
    pub rows: Rows,
    /// Per foot (in foot order), the earlier foot of the same forked leg whose timing it
    /// shares: two feet on one thigh cannot step at different times.
    pub steps_with: Vec<Option<usize>>,
}

/// How a creature gets about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Locomotion {
    /// The creature has feet and walks on them.
    Legs,
    /// No feet, lying on the ground: spine bodies become pseudo-feet (an inch-worm).
    Crawl,
    /// No feet, off the ground: the body floats and bobs.
    Float,
}

/// The walking gear of a creature, worked out once.
#[derive(Clone, Debug, PartialEq)]
pub struct Gear {
    /// How the creature gets about.
    pub locomotion: Locomotion,
    /// Every foot the gait places (a crawler's pseudo-feet included); empty when floating.
    pub limbs: Vec<Limb>,
    /// The feet that step together, each foot in exactly one group.
    pub groups: Vec<Group>,
    /// The group whose cadence the others follow.
    pub reference: usize,
    /// The spine bodies besides the root that ride on the body motion: the goals a clip
    /// gives them move with it. The gait's own feet (a crawler's spine) are not among them.
    pub riders: Vec<BodyId>,
    /// How far the lowest spine body is off the ground at rest: the hips never drop so
    /// far that the trunk would touch it.
    pub trunk_clearance: f32,
}

impl Gear {
    /// Works out a creature's gear from its rest pose: its feet, their reach, their groups
    /// and cadence ratios.
    pub fn of(creature: &Creature) -> Gear {
        let mut gear = Gear::feet_of(creature);
        gear.riders = (0..creature.len())
            .filter(|&b| b != creature.root() && creature.is_spine(b))
            .filter(|&b| gear.limbs.iter().all(|l| l.foot != b))
            .collect();
        gear.trunk_clearance = (0..creature.len())
            .filter(|&b| creature.is_spine(b) && gear.limbs.iter().all(|l| l.foot != b))
            .map(|b| creature.body(b).position.y - creature.contact_height(b))
            .fold(f32::INFINITY, f32::min)
            .max(0.0);
        gear
    }

    fn feet_of(creature: &Creature) -> Gear {
        let floor = 0.05 * creature.size();
        let limb = |foot: BodyId, hip: BodyId, length: f32, top: BodyId| {
            let b = creature.body(foot);
            Limb {
                foot,
                hip,
                length: length.max(floor),
                home: b.position,
                rest_rotation: b.rotation,
                contact: creature.contact_height(foot),
                attach: creature.pivot(top),
                leg_root: top,
                reach: 0.0,
                reach_min: 0.0,
                fold_min: 0.0,
                rest_drop: 0.0,
                rest_rise: 0.0,
                reach_local: b.rotation.inverse() * (creature.pivot(foot) - b.position),
            }
        };
        if !creature.legs().is_empty() {
            let limbs: Vec<Limb> = creature
                .legs()
                .iter()
                .map(|l| {
                    limb(
                        l.foot,
                        l.hip,
                        l.length,
                        l.chain.first().copied().unwrap_or(l.foot),
                    )
                })
                .collect();
            let mut limbs = limbs;
            set_reach(creature, &mut limbs);
            let groups = group_by_length(&limbs);
            let reference = reference_group(&groups);
            let mut gear = Gear {
                locomotion: Locomotion::Legs,
                limbs,
                groups,
                reference,
                riders: Vec::new(),
                trunk_clearance: 0.0,
            };
            gear.harmonize();
            return gear;
        }
        let lowest = creature.bounds().min.y;
        let height = creature.bounds().size().y.max(1e-6);
        let on_ground: Vec<BodyId> = creature
            .spine_chain()
            .iter()
            .copied()
            .filter(|&b| {
                creature.body(b).position.y - creature.contact_height(b)
                    < lowest + 0.05 * creature.size()
            })
            .collect();
        if lowest > 0.1 * height || on_ground.len() < 2 {
            return Gear {
                locomotion: Locomotion::Float,
                limbs: Vec::new(),
                groups: Vec::new(),
                reference: 0,
                riders: Vec::new(),
                trunk_clearance: 0.0,
            };
        }
        // Up to six pseudo-feet spread evenly along the part of the spine on the ground.
        let count = on_ground.len().min(6);
        let picked: Vec<BodyId> = (0..count)
            .map(|i| on_ground[i * (on_ground.len() - 1) / (count - 1).max(1)])
            .collect();
        let span = creature
            .body(picked[0])
            .position
            .distance(creature.body(picked[count - 1]).position);
        let spacing = span / (count - 1).max(1) as f32;
        let limbs: Vec<Limb> = picked.iter().map(|&b| limb(b, b, spacing, b)).collect();
        let order = foot_order(&limbs, &(0..limbs.len()).collect::<Vec<_>>());
        let places = places(&limbs, &order);
        Gear {
            locomotion: Locomotion::Crawl,
            groups: vec![Group {
                turn_reach: turn_reach(&limbs, &order),
                steps_with: vec![None; order.len()],
                length: spacing.max(floor),
                limbs: order,
                places,
                ratio: 1.0,
                rows: Rows::Crawl(count),
            }],
            limbs,
            reference: 0,
            riders: Vec::new(),
            trunk_clearance: 0.0,
        }
    }

    /// Locks each group's cadence to the reference group's by the nearest ratio p/q with
    /// p, q ≤ 4 to their leg-length ratio: short legs step more often.
    fn harmonize(&mut self) {
        let reference = self.groups[self.reference].length;
        for g in &mut self.groups {
            g.ratio = nearest_small_ratio(reference / g.length);
        }
    }
}

fn group_by_length(limbs: &[Limb]) -> Vec<Group> {
    let mut by_length: Vec<usize> = (0..limbs.len()).collect();
    by_length.sort_by(|&a, &b| limbs[a].length.total_cmp(&limbs[b].length).then(a.cmp(&b)));
    let mut clusters: Vec<Vec<usize>> = Vec::new();
    for i in by_length {
        // A forked leg's feet step together (see `partners`), so they walk in one group
        // whatever their lengths: the first foot found, the shortest, places the leg.
        if let Some(c) = clusters
            .iter_mut()
            .find(|c| c.iter().any(|&j| limbs[j].leg_root == limbs[i].leg_root))
        {
            c.push(i);
            continue;
        }
        match clusters.last_mut() {
            Some(c) if limbs[i].length <= limbs[c[0]].length * GROUP_LENGTH_RATIO => c.push(i),
            _ => clusters.push(vec![i]),
        }
    }

    clusters
        .into_iter()
        .map(|members| {
            let order = foot_order(limbs, &members);
            let places = places(limbs, &order);
            let length =
                members.iter().map(|&i| limbs[i].length).sum::<f32>() / members.len() as f32;
            Group {
                turn_reach: turn_reach(limbs, &order),
                rows: Rows::Legs(order.len()),
                steps_with: partners(limbs, &order),
                limbs: order,
                places,
                length,
                ratio: 1.0,
            }
        })
        .collect()
}

/// The farthest home among `feet` from the body's vertical axis, on the ground plane.
fn turn_reach(limbs: &[Limb], feet: &[usize]) -> f32 {
    feet.iter()
        .map(|&i| Vec3::new(limbs[i].home.x, 0.0, limbs[i].home.z).length())
        .fold(0.0, f32::max)
}

/// The share of a leg's bending range (from folded as far as its bones allow to straight)
/// kept free at either end: a planted foot may be no farther from its hip than 97 % of the
/// way to straight before the hips drop (a straight knee is the IK's singular pose), and no
/// nearer than 3 % of the way from folded before they rise.
const REACH: f32 = 0.97;
/// The share of its length a bone may be squeezed: the IK solver lets a bone give 5 % (its
/// `min_stretch`), and a leg of one bone, which cannot fold, counts on half of that to lift
/// its foot a little straight up.
const BONE_GIVE: f32 = 0.025;
/// Sets how far each foot's reach point may be from its hip. A forked leg's feet move as one
/// rigid piece (see `Gait`), which carries the knee they share along: that knee is what the
/// upper leg must reach.
fn set_reach(creature: &Creature, limbs: &mut [Limb]) {
    let chains: Vec<Vec<BodyId>> = creature.legs().iter().map(|l| l.chain.clone()).collect();
    for (i, l) in limbs.iter_mut().enumerate() {
        let shared = chains
            .iter()
            .enumerate()
            .filter(|(j, c)| *j != i && c.first() == chains[i].first())
            .map(|(_, c)| c.iter().zip(&chains[i]).take_while(|(a, b)| a == b).count())
            .max()
            .unwrap_or(0);
        // The bones from the hip to the reach point, as lengths between joints.
        let forked = shared > 0 && shared < chains[i].len();
        let upper = if forked {
            // The first body below the fork hangs from the knee.
            &chains[i][..=shared]
        } else {
            &chains[i][..]
        };
        let point = creature.pivot(upper.last().copied().unwrap_or(l.foot));
        let bones: Vec<f32> = upper
            .windows(2)
            .map(|w| creature.pivot(w[0]).distance(creature.pivot(w[1])))
            .collect();
        let straight: f32 = bones.iter().sum();
        let straight = if straight > 1e-6 { straight } else { l.length };
        // Folded: the longest bone less all the others, which fold back along it.
        let longest = bones.iter().copied().fold(0.0, f32::max);
        let folded = (2.0 * longest - straight).clamp(0.0, straight);
        let range = straight - folded;
        l.reach_local = l.rest_rotation.inverse() * (point - l.home);
        l.reach = (straight - (1.0 - REACH) * range).max(1e-4);
        // A forked leg's knee is not fixed to its feet: the solver turns it about the line
        // through them (its tripod step), so the hip may come as near as it likes.
        l.reach_min = if forked {
            0.0
        } else {
            folded * (1.0 - BONE_GIVE) + (1.0 - REACH) * range
        };
        l.fold_min = if forked {
            0.0
        } else {
            folded * (1.0 - 2.0 * BONE_GIVE)
        };
        let (lowest, highest) = hip_offsets_for(l.attach, point, l.reach_min, l.reach);
        l.rest_drop = lowest.max(0.0);
        l.rest_rise = (-highest).max(0.0);
    }
}

/// How far the hip at `attach` may drop (positive) or rise (negative) for a reach point at
/// `point` to be within `[reach_min, reach]` of it: (the least drop, the most drop). Out of
/// reach across, the least drop puts the hip level with the point (as near as it gets); a
/// point that may come as near as it likes leaves the most drop unbounded.
pub fn hip_offsets_for(attach: Vec3, point: Vec3, reach_min: f32, reach: f32) -> (f32, f32) {
    let to = point - attach;
    let across_squared = to.x * to.x + to.z * to.z;
    // How far the hip is above the point, at no drop.
    let above = -to.y;
    let fits = (reach * reach - across_squared).max(0.0).sqrt();
    let least = above - fits;
    let most = if reach_min * reach_min > across_squared {
        above - (reach_min * reach_min - across_squared).sqrt()
    } else {
        f32::INFINITY
    };
    (least, most)
}

fn partners(limbs: &[Limb], order: &[usize]) -> Vec<Option<usize>> {
    order
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            order[..k]
                .iter()
                .position(|&j| limbs[j].leg_root == limbs[i].leg_root)
        })
        .collect()
}

/// The group with the most feet (the longest on a tie) sets the cadence.
fn reference_group(groups: &[Group]) -> usize {
    (0..groups.len())
        .max_by(|&a, &b| {
            groups[a]
                .limbs
                .len()
                .cmp(&groups[b].limbs.len())
                .then(groups[a].length.total_cmp(&groups[b].length))
        })
        .unwrap_or(0)
}

/// Feet ordered front to back by hip, then left before right, then front to back per hip
/// (two feet of a forked leg share a hip): the order the style tables' triggers use.
fn foot_order(limbs: &[Limb], members: &[usize]) -> Vec<usize> {
    let mut order = members.to_vec();
    order.sort_by(|&a, &b| {
        let (la, lb) = (&limbs[a], &limbs[b]);
        let hip_z = |l: &Limb| (l.home.z * 100.0).round();
        hip_z(lb)
            .total_cmp(&hip_z(la))
            .then(lb.home.x.total_cmp(&la.home.x))
            .then(lb.home.z.total_cmp(&la.home.z))
            .then(a.cmp(&b))
    });
    order
}

fn places(limbs: &[Limb], order: &[usize]) -> Vec<FootPlace> {
    let side = |l: &Limb| {
        if l.home.x > 1e-3 {
            1.0
        } else if l.home.x < -1e-3 {
            -1.0
        } else {
            0.0
        }
    };
    order
        .iter()
        .map(|&i| {
            let s = side(&limbs[i]);
            let same_side: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&j| side(&limbs[j]) == s)
                .collect();
            let rank = same_side
                .iter()
                .filter(|&&j| {
                    limbs[j].home.z < limbs[i].home.z
                        || (limbs[j].home.z == limbs[i].home.z && j < i)
                })
                .count();
            FootPlace {
                side: s,
                rank,
                of: same_side.len(),
            }
        })
        .collect()
}

/// The nearest p/q to `x` with 1 ≤ p, q ≤ 4.
pub fn nearest_small_ratio(x: f32) -> f32 {
    let mut best = 1.0;
    let mut best_err = f32::INFINITY;
    for p in 1..=4 {
        for q in 1..=4 {
            let r = p as f32 / q as f32;
            let err = (r / x).ln().abs();
            if err < best_err - 1e-6 {
                best = r;
                best_err = err;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_small_rationals() {
        assert_eq!(nearest_small_ratio(1.0), 1.0);
        assert_eq!(nearest_small_ratio(1.9), 2.0);
        assert_eq!(nearest_small_ratio(1.45), 1.5);
        assert!((nearest_small_ratio(1.3) - 4.0 / 3.0).abs() < 1e-6);
        assert_eq!(nearest_small_ratio(9.0), 4.0);
    }
}
