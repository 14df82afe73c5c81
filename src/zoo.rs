//! A zoo of random plausible creatures, for testing clips against shapes nobody authored for
//! (paper section 5: "an ever-changing database of characters"). Deterministic by seed;
//! every creature is valid and stands on the ground in a rest pose a player would make.

use crate::runtime::creature::{Cap, Creature, CreatureBuilder, CreatureError, Shape};
use crate::runtime::math::frame_along;
use glam::{Quat, Vec3};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Neighbouring heads' centres are at least this many head radii apart sideways.
const HEAD_SPACING: f32 = 2.6;

/// Shoulders of neighbouring arm pairs, and the rearmost shoulder and the frontmost hip,
/// are at least this fraction of the creature's size apart along the spine: a player puts
/// a second pair of arms below the first and the front legs behind the arms, not on the
/// same spot, where every swing of an arm would pass through its neighbour.
const LIMB_GAP: f32 = 0.15;

/// The creature for `seed`: the same seed always gives the same creature.
pub fn generate(seed: u64) -> Result<Creature, CreatureError> {
    Zoo::new(seed).build()
}

struct Zoo {
    rng: ChaCha8Rng,
    b: CreatureBuilder,
    /// Overall size in metres (roughly the creature's length or height).
    size: f32,
}

/// Where the spine is, as joint points from the back (or bottom) to the front (or top).
struct Spine {
    joints: Vec<Vec3>,
    names: Vec<String>,
    radius: Vec<f32>,
}

impl Zoo {
    fn new(seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Mostly creature-sized, sometimes tiny or huge.
        let size = 0.25 * 2f32.powf(rng.random_range(0.0..4.5));
        Zoo {
            rng,
            b: CreatureBuilder::new(format!("zoo_{seed}")),
            size,
        }
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        self.rng.random_range(lo..hi)
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn build(mut self) -> Result<Creature, CreatureError> {
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
        self.heads(&spine, heads, upright);
        if self.chance(0.5) {
            self.tail(&spine, upright);
        }
        if self.chance(0.15) {
            self.wings(&spine, upright);
        }
        self.b.mirror_left().build()
    }

    fn spine(&mut self, segments: usize, upright: bool, hip_height: f32) -> Spine {
        let s = self.size;
        let length = if upright {
            s * self.range(0.35, 0.6)
        } else {
            s * self.range(0.5, 1.1)
        };
        let step = length / segments as f32;
        // The spine bends up and down (front to back when upright) but not sideways: the
        // limbs are made on the left and mirrored, so a spine wiggling sideways sank the
        // right-hand limbs up to their whole radius into the body where it bent left. The
        // sideways draw is kept so every other feature of a seed stays as it was.
        let (bend_y, _bend_x, waves) = (
            self.range(0.0, 0.08) * s,
            self.range(0.0, 0.06) * s,
            self.range(0.5, 2.0),
        );
        let base_radius = s * self.range(0.05, 0.1);
        let lying = hip_height == 0.0;
        let mut joints = Vec::with_capacity(segments + 1);
        for i in 0..=segments {
            let t = i as f32 / segments as f32;
            let wave = (std::f32::consts::TAU * waves * t).sin();
            let p = if upright {
                Vec3::new(0.0, hip_height + t * length, bend_y * wave * 0.5)
            } else {
                let y = if lying {
                    base_radius * 0.8
                } else {
                    hip_height + bend_y * wave
                };
                Vec3::new(0.0, y.max(base_radius), t * length - 0.5 * length)
            };
            joints.push(p);
        }
        let mut names = Vec::with_capacity(segments);
        let mut radius = Vec::with_capacity(segments);
        for i in 0..segments {
            let name = format!("spine_{i}");
            let parent = (i > 0).then(|| format!("spine_{}", i - 1));
            // Thickest in the middle, tapering toward both ends.
            let t = (i as f32 + 0.5) / segments as f32;
            let r = base_radius * (0.6 + 0.4 * (std::f32::consts::PI * t).sin());
            self.b.bone(
                &name,
                parent.as_deref(),
                &[Cap::Spine],
                joints[i],
                joints[i + 1],
                r.min(0.45 * step.max(r)),
            );
            names.push(name);
            radius.push(r);
        }
        Spine {
            joints,
            names,
            radius,
        }
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

    /// Heads on necks at the front (or top) of the spine, each with a mouth and eyes; extra
    /// heads branch off turned outward, their necks leaning apart so neighbouring heads sit
    /// clear of each other (a head looking aside must not turn its eye into the next one).
    fn heads(&mut self, spine: &Spine, count: usize, upright: bool) {
        let s = self.size;
        let front = *spine.joints.last().unwrap_or(&Vec3::ZERO);
        let last = spine.names.len() - 1;
        let up = if upright {
            Vec3::Y
        } else {
            (Vec3::Z + Vec3::Y * 0.6).normalize()
        };
        for h in 0..count {
            let yaw = if count == 1 {
                0.0
            } else {
                (h as f32 - (count - 1) as f32 * 0.5) * 0.6
            };
            let turn = Quat::from_rotation_y(yaw);
            let neck_len = s * self.range(0.08, 0.2);
            let r = 0.07 * s;
            let apart = Vec3::X * (h as f32 - (count - 1) as f32 * 0.5) * HEAD_SPACING * r;
            let neck_end = front + turn * up * neck_len + apart;
            let tag = if count == 1 {
                String::new()
            } else {
                format!("_{h}")
            };
            let neck = format!("neck{tag}");
            // A neck on a low body is thin enough not to reach under the ground.
            let neck_radius = (0.04 * s).min(0.5 * front.y.min(neck_end.y));
            self.b.bone(
                &neck,
                Some(&spine.names[last]),
                &[Cap::Spine],
                front,
                neck_end,
                neck_radius,
            );
            let facing = turn * Vec3::Z;
            let mut head_centre = neck_end + facing * r * 0.8 + Vec3::Y * r * 0.3;
            head_centre.y = head_centre.y.max(1.05 * r);
            let head = format!("head{tag}");
            self.b.body(
                &head,
                Some(&neck),
                &[Cap::Spine, Cap::Head],
                neck_end,
                head_centre,
                turn,
                Vec3::splat(r),
                Shape::Sphere,
            );
            let mouth_at = head_centre + facing * r * 0.9 - Vec3::Y * r * 0.35;
            self.b.body(
                &format!("mouth{tag}"),
                Some(&head),
                &[Cap::Mouth],
                head_centre + facing * r * 0.7,
                mouth_at,
                turn,
                Vec3::new(0.4, 0.15, 0.3) * r,
                Shape::Box,
            );
            for (side, x) in [("a", 0.4f32), ("b", -0.4)] {
                let eye = head_centre + turn * Vec3::new(x * r, 0.45 * r, 0.75 * r);
                self.b.body(
                    &format!("eye{tag}_{side}"),
                    Some(&head),
                    &[Cap::Eye],
                    eye,
                    eye + facing * 0.05 * r,
                    turn,
                    Vec3::splat(0.18 * r),
                    Shape::Sphere,
                );
            }
        }
    }

    fn tail(&mut self, spine: &Spine, upright: bool) {
        let s = self.size;
        let back = spine.joints[0];
        let segments = self.rng.random_range(3..=6usize);
        let length = s * self.range(0.2, 0.6);
        let droop = if upright { 0.0 } else { self.range(0.0, 0.4) };
        let mut parent = spine.names[0].clone();
        let mut from = back;
        let r0 = spine.radius[0] * 0.6;
        for i in 0..segments {
            let t = (i + 1) as f32 / segments as f32;
            let mut to = back + Vec3::new(0.0, -droop * length * t * t, -length * t);
            to.y = to.y.max(r0 * (1.0 - 0.7 * t) + 0.01 * s);
            let name = format!("tail_{i}");
            self.b.bone(
                &name,
                Some(&parent),
                &[Cap::Tail],
                from,
                to,
                r0 * (1.0 - 0.7 * t).max(0.2),
            );
            parent = name;
            from = to;
        }
    }

    fn wings(&mut self, spine: &Spine, upright: bool) {
        let s = self.size;
        let n = spine.names.len();
        let at = if upright {
            n - 1
        } else {
            (2 * n / 3).min(n - 1)
        };
        let root =
            spine.joints[at].lerp(spine.joints[at + 1], 0.5) + Vec3::Y * spine.radius[at] * 0.8;
        let span = s * self.range(0.3, 0.7);
        let segments = self.rng.random_range(2..=3usize);
        let mut parent = spine.names[at].clone();
        let mut from = root;
        for i in 0..segments {
            let t = (i + 1) as f32 / segments as f32;
            let to = root
                + Vec3::new(
                    span * t,
                    0.25 * span * (std::f32::consts::PI * t).sin(),
                    -0.1 * span * t,
                );
            let name = format!("wing_{i}_l");
            let rotation = frame_along(to - from, Vec3::Z);
            let half = Vec3::new(
                0.02 * s,
                0.5 * from.distance(to),
                0.08 * s * (1.0 - 0.3 * t),
            );
            self.b.body(
                &name,
                Some(&parent),
                &[Cap::Wing],
                from,
                from.lerp(to, 0.5),
                rotation,
                half,
                Shape::Box,
            );
            parent = name;
            from = to;
        }
    }
}

impl Spine {
    fn segment_middle(&self, i: usize) -> Vec3 {
        self.joints[i].lerp(self.joints[i + 1], 0.5)
    }

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

fn pick<'a, T>(rng: &mut ChaCha8Rng, options: &'a [T]) -> &'a T {
    &options[rng.random_range(0..options.len())]
}
