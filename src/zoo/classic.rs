//! The first zoo: a spine with legs in mirrored pairs (some forked below the knee), arms
//! in pairs from the front (or top) down, heads on necks, sometimes a tail and wings.

use super::{Spine, Zoo, pick};
use crate::runtime::creature::{Cap, Creature, CreatureBuilder, CreatureError, Shape};
use glam::{Quat, Vec3};
use rand::RngExt;

/// Shoulders of neighbouring arm pairs, and the rearmost shoulder and the frontmost hip,
/// are at least this fraction of the creature's size apart along the spine: a player puts
/// a second pair of arms below the first and the front legs behind the arms, not on the
/// same spot, where every swing of an arm would pass through its neighbour.
const LIMB_GAP: f32 = 0.15;

impl Zoo {
    /// A creature of the first zoo. `seed` gives the same creature it always gave.
    pub(super) fn classic(mut self) -> Result<Creature, CreatureError> {
        let legs = *pick(&mut self.rng, &[0, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6, 8]);
        let upright = legs == 2 && self.chance(0.55);
        let graspers: usize = *pick(&mut self.rng, &[0, 0, 2, 2, 2, 1, 3, 4, 6]);
        let heads = *pick(&mut self.rng, &[0, 1, 1, 1, 1, 1, 2, 3]);
        let floats = legs == 0 && self.chance(0.4);
        let s = self.size;
        // Hip height: legs reach the ground from it; a legless creature lies on the ground or
        // floats above it.
        let hip_height = match (legs, floats) {
            (0, true) => s * self.range(0.5, 1.0),
            (0, false) => 0.0,
            _ => s * self.range(0.25, 0.55),
        };
        let segments = self.rng.random_range(3..=12usize);
        let spine = self.spine(segments, upright, hip_height);
        let (arm_at, leg_front) = spine.limb_layout(
            graspers.div_ceil(2),
            legs > 0,
            heads > 0,
            upright,
            LIMB_GAP * s,
        );
        // Arm pairs that found no room are left off.
        let graspers = graspers.min(2 * arm_at.len());
        self.legs(&spine, legs, upright, hip_height, leg_front);
        self.arms(&spine, graspers, &arm_at, hip_height);
        let _ = self.heads(&spine, heads, upright);
        if self.chance(0.5) {
            let _ = self.tail(&spine, upright);
        }
        if self.chance(0.15) {
            self.wings(&spine, upright);
        }
        self.b.mirror_left().build()
    }

    /// Legs in left/right pairs along the spine (an odd one in the middle), every foot on the
    /// ground. Some fork below the knee into two feet.
    fn legs(&mut self, spine: &Spine, count: usize, upright: bool, hip_height: f32, front: usize) {
        if count == 0 {
            return;
        }
        let pairs = count / 2;
        for k in 0..pairs {
            let at = if upright {
                0
            } else {
                leg_attach(k, pairs, front + 1)
            };
            let spread = self.range(0.15, 0.6) * hip_height;
            let segments = self.rng.random_range(2..=4usize);
            let fork = self.chance(0.12);
            self.leg(
                spine,
                at,
                &format!("leg{k}"),
                "_l",
                1.0,
                spread,
                segments,
                fork,
                hip_height,
            );
        }
        if count % 2 == 1 {
            let at = if upright { 0 } else { front / 2 };
            let segments = self.rng.random_range(2..=4usize);
            self.leg(
                spine, at, "leg_mid", "", 0.0, 0.0, segments, false, hip_height,
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn leg(
        &mut self,
        spine: &Spine,
        at: usize,
        stem: &str,
        side_suffix: &str,
        side: f32,
        spread: f32,
        segments: usize,
        fork: bool,
        hip_height: f32,
    ) {
        let s = self.size;
        let body_joint = spine.joints[at].lerp(spine.joints[at + 1], 0.5);
        let hip = body_joint + Vec3::X * side * spine.radius[at] * 0.8;
        let foot_half = Vec3::new(0.25, 0.12, 0.45) * (0.12 * s).min(0.4 * hip_height.max(0.05));
        let forward = self.range(-0.15, 0.15) * hip_height;
        let radius = (0.035 * s).min(0.2 * hip_height.max(0.05));
        // A capsule reaches one radius past its joints: the ankle sits that high above the
        // foot's sole so the shin stays out of the ground.
        let ankle_height = foot_half.y * 2.0 + radius;
        let ankle = Vec3::new(hip.x + side * spread, ankle_height, hip.z + forward);
        // A knee that bends forward (and outward with the spread) keeps the leg from being
        // ramrod straight.
        let bend = Vec3::new(side * 0.1, 0.0, 0.25) * (hip - ankle).length();
        let points: Vec<Vec3> = (0..=segments)
            .map(|i| {
                let t = i as f32 / segments as f32;
                hip.lerp(ankle, t) + bend * (std::f32::consts::PI * t).sin()
            })
            .collect();
        let mut parent = spine.names[at].clone();
        let last = if fork { segments - 1 } else { segments };
        for i in 0..last {
            let name = format!("{stem}_{i}{side_suffix}");
            self.b.bone(
                &name,
                Some(&parent),
                &[Cap::Limb],
                points[i],
                points[i + 1],
                radius * (1.0 - 0.15 * i as f32),
            );
            parent = name;
        }
        let foot_at =
            |b: &mut CreatureBuilder, name: &str, parent: &str, joint: Vec3, ground: Vec3| {
                b.body(
                    name,
                    Some(parent),
                    &[Cap::Foot],
                    joint,
                    Vec3::new(ground.x, foot_half.y, ground.z + foot_half.z * 0.5),
                    Quat::IDENTITY,
                    foot_half,
                    Shape::Box,
                );
            };
        if fork {
            let knee = points[last];
            for (tag, dz) in [("a", 0.6f32), ("b", -0.6)] {
                let ground = Vec3::new(
                    ankle.x,
                    ankle_height,
                    ankle.z + dz * spread.max(0.1 * hip_height),
                );
                let shin = format!("{stem}_shin{tag}{side_suffix}");
                self.b.bone(
                    &shin,
                    Some(&parent),
                    &[Cap::Limb],
                    knee,
                    ground,
                    radius * 0.8,
                );
                foot_at(
                    &mut self.b,
                    &format!("{stem}_foot{tag}{side_suffix}"),
                    &shin,
                    ground,
                    ground,
                );
            }
        } else {
            foot_at(
                &mut self.b,
                &format!("{stem}_foot{side_suffix}"),
                &parent,
                ankle,
                ankle,
            );
        }
    }

    /// Arms hang from the front (or top) of the spine, reaching down and forward, their
    /// graspers well clear of the ground.
    fn arms(&mut self, spine: &Spine, count: usize, at: &[usize], hip_height: f32) {
        let s = self.size;
        for k in 0..count.div_ceil(2) {
            let at = at[k];
            let reach = s * self.range(0.15, 0.35);
            let segments = self.rng.random_range(2..=3usize);
            let radius = 0.025 * s;
            // The arm sits against the side of the body, not half inside it: a shoulder on
            // the spine's surface put the upper arm against the neck at rest.
            let mid = spine.joints[at].lerp(spine.joints[at + 1], 0.5);
            let shoulder = mid + Vec3::X * (spine.radius[at] + radius);
            let hand_len = 0.08 * s;
            // The whole hand, capsule and all, stays well clear of the ground; on a low
            // creature the arm reaches forward and up instead of down.
            let lowest = (0.25 * hip_height.max(0.2 * s)).max(0.05 * s) + hand_len + 1.2 * radius;
            let wrist_y = (shoulder.y - 0.6 * reach)
                .max(lowest)
                .max(shoulder.y.min(lowest));
            let hand = Vec3::new(shoulder.x + 0.3 * reach, wrist_y, shoulder.z + 0.5 * reach);
            let odd_one = count % 2 == 1 && k == count.div_ceil(2) - 1;
            let suffix = if odd_one { "" } else { "_l" };
            let side = if odd_one { 0.0 } else { 1.0 };
            // The odd arm hangs from the middle of the chest or belly, on the body's
            // surface like its paired ones: on the spine's centre line it started inside
            // the body, and every move swung it through the spine. A creature lying on its
            // belly keeps it on the centre line (under the belly it would be in the ground).
            let along = (spine.joints[at + 1] - spine.joints[at]).normalize_or_zero();
            let out = if along.y.abs() < along.z.abs() {
                Vec3::NEG_Y
            } else {
                Vec3::Z
            };
            let out = (out - along * out.dot(along)).normalize_or(out);
            let chest = mid + out * (spine.radius[at] + radius);
            let shoulder = if !odd_one {
                shoulder
            } else if chest.y >= 2.0 * radius + 0.05 * s {
                chest
            } else {
                Vec3::new(0.0, shoulder.y, shoulder.z)
            };
            let hand = Vec3::new(
                hand.x * side,
                hand.y,
                hand.z + if odd_one { 0.2 * reach } else { 0.0 },
            );
            let mut parent = spine.names[at].clone();
            let mut from = shoulder;
            for i in 0..segments {
                let t = (i + 1) as f32 / segments as f32;
                let to = shoulder.lerp(hand, t)
                    + Vec3::new(0.0, 0.0, -0.1 * reach) * (std::f32::consts::PI * t).sin();
                let name = format!("arm{k}_{i}{suffix}");
                self.b
                    .bone(&name, Some(&parent), &[Cap::Limb], from, to, radius);
                parent = name;
                from = to;
            }
            let dir = (hand - shoulder).normalize_or_zero();
            let mut end = from + dir * hand_len;
            end.y = end.y.max(from.y - 0.5 * hand_len);
            self.b.bone(
                &format!("hand{k}{suffix}"),
                Some(&parent),
                &[Cap::Grasper],
                from,
                end,
                radius * 1.2,
            );
        }
    }
}

impl Spine {
    /// The nearest segment rootward of `from` whose middle is at least `gap` from its.
    fn rootward_apart(&self, from: usize, gap: f32) -> Option<usize> {
        self.rootward_of(from, self.segment_middle(from), gap)
    }

    /// The nearest segment before `end` whose middle is at least `gap` from `point`.
    fn rootward_of(&self, end: usize, point: Vec3, gap: f32) -> Option<usize> {
        (0..end)
            .rev()
            .find(|&i| self.segment_middle(i).distance(point) >= gap)
    }

    /// The segments for `pairs` arm pairs (from the front or top down, each [`LIMB_GAP`]
    /// from the last, the first a gap from the front end where a neck leaves) and the
    /// frontmost segment legs may use. A horizontal body keeps its front legs a gap behind
    /// the rearmost arms; an upright one stands on its first segment, which the arms stay a
    /// gap above. Pairs that leave no room are dropped.
    fn limb_layout(
        &self,
        pairs: usize,
        legs: bool,
        neck: bool,
        upright: bool,
        gap: f32,
    ) -> (Vec<usize>, usize) {
        let n = self.names.len();
        let first = if neck {
            self.rootward_of(n, self.joints[n], gap)
        } else {
            Some(n - 1)
        };
        let mut arms: Vec<usize> = Vec::with_capacity(pairs);
        for _ in 0..pairs {
            let next = match arms.last() {
                None => first,
                Some(&last) => self.rootward_apart(last, gap),
            };
            match next {
                Some(at) => arms.push(at),
                None => break,
            }
        }
        if !legs {
            return (arms, n - 1);
        }
        if upright {
            let hip = self.segment_middle(0);
            let clear = |a: usize| self.segment_middle(a).distance(hip) >= gap;
            while arms.last().is_some_and(|&a| !clear(a)) {
                arms.pop();
            }
            // Too short to keep a neck's gap: one pair at the top, beside the neck.
            if arms.is_empty() && pairs > 0 && clear(n - 1) {
                arms.push(n - 1);
            }
            return (arms, 0);
        }
        loop {
            match arms.last() {
                None => return (arms, n - 1),
                Some(&last) => match self.rootward_apart(last, gap) {
                    Some(front) => return (arms, front),
                    None => {
                        arms.pop();
                    }
                },
            }
        }
    }
}

/// Spine body for leg pair `k` of `pairs` on the first `n` segments: spread from the back
/// to the front.
fn leg_attach(k: usize, pairs: usize, n: usize) -> usize {
    if pairs <= 1 {
        return n / 3;
    }
    let t = k as f32 / (pairs - 1) as f32;
    ((t * (n - 1) as f32).round() as usize).min(n - 1)
}
