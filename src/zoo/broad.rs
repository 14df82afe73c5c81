//! The families the first zoo lacked, from one generator. A creature is a spine (the first
//! zoo's) and a list of limbs, each drawn as: where it leaves the body (how far along the
//! spine, on which side, how high around it, or from another limb's bone), what it ends in
//! (a foot on the ground or a grasper clear of it), how many segments (one to five) and how
//! they share its length, how long and how thick it is, and which way and how far it bends at
//! rest (an arc, a zig-zag or a single kink, toward any direction across the limb). A family
//! is only a different prior over those draws; every limb is built by the same code.
//!
//! A limb that cannot be placed plausibly — a joint under the ground, a bone through the
//! trunk, a shoulder on top of another limb's — is drawn again a few times and otherwise left
//! off: a creature is never invalid, only sometimes a limb poorer than its draw.

use super::{Family, Spine, Zoo, pick};
use crate::runtime::creature::{Cap, Creature, CreatureError, Shape};
use crate::runtime::math::segment_distance;
use glam::{Quat, Vec3};
use rand::RngExt;
use std::f32::consts::{FRAC_PI_2, PI};

/// Draws per limb before it is left off.
const TRIES: usize = 12;

/// What a limb ends in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Foot,
    Grasper,
}

/// How a limb's joints leave the straight line from its first joint to its last at rest.
#[derive(Clone, Copy, Debug, PartialEq)]
enum BendShape {
    /// Every joint to one side, most in the middle (a knee, an elbow).
    Arc,
    /// Neighbouring joints to opposite sides.
    ZigZag,
    /// One joint out, the rest in line with it (a single sharp knee).
    Kink(usize),
}

/// One limb's draw.
#[derive(Clone, Debug)]
struct LimbDraw {
    end: End,
    /// +1 left, -1 right, 0 on the centre line.
    side: f32,
    /// Where along the spine it leaves (0 the back or bottom end, 1 the front or top).
    along: f32,
    /// How high around the spine: 0 at the side, +π/2 on top (the back, when upright),
    /// -π/2 underneath (the front, when upright).
    elevation: f32,
    segments: usize,
    /// Relative lengths of the segments.
    shares: Vec<f32>,
    /// Feet: how far out sideways and forward the foot stands from the hip, in hip heights.
    /// Graspers: the wrist's offset from the shoulder (x outward), in the creature's size.
    reach: Vec3,
    /// Which way the joints bend at rest (any direction; only its part across the limb counts).
    bend_toward: Vec3,
    /// How far the joints leave the line, as a fraction of the limb's chord.
    bend: f32,
    shape: BendShape,
    /// Radius as a fraction of the limb's chord (before the caps that keep it plausible).
    thickness: f32,
}

/// Where a limb leaves its parent, in character space.
struct Attach {
    parent: String,
    point: Vec3,
    /// The parent's radius: no limb is thicker than most of what it hangs from.
    radius: f32,
}

/// The limbs built so far: where they leave the body and stand, so the next keeps clear.
#[derive(Default)]
struct Placed {
    /// (attach point, radius)
    shoulders: Vec<(Vec3, f32)>,
    /// (ground point, half length of the foot)
    feet: Vec<(Vec3, f32)>,
    /// Every limb bone, for limbs that grow from limbs: (name, joint, end, radius, is a leg).
    bones: Vec<(String, Vec3, Vec3, f32, bool)>,
    /// Necks, heads and tail (joint, end, radius): no limb passes through them.
    solids: Vec<(Vec3, Vec3, f32)>,
}

impl Zoo {
    /// A creature of one of the broad families ([`Family`], all but the classic one).
    pub(super) fn broad(mut self, family: Family) -> Result<Creature, CreatureError> {
        let s = self.size;
        self.stubby = family == Family::Proportions && self.chance(0.5);
        let (legs_left, legs_right, legs_centre) = self.leg_counts(family);
        let legs = legs_left + legs_right + legs_centre;
        let upright = legs == 2
            && legs_centre == 0
            && family != Family::Splayed
            && family != Family::ManyLegs
            && self.chance(0.35);
        let (arms_left, arms_right) = self.arm_counts(family, upright);
        let heads = *pick(&mut self.rng, &[0, 1, 1, 1, 1, 2]);
        let hip_height = if legs == 0 {
            if self.chance(0.5) {
                s * self.range(0.5, 0.9)
            } else {
                0.0
            }
        } else {
            s * match family {
                Family::Splayed => self.range(0.1, 0.3),
                Family::Proportions if self.stubby => self.range(0.08, 0.16),
                Family::Proportions => self.range(0.5, 0.85),
                _ => self.range(0.2, 0.55),
            }
        };
        let segments = self.rng.random_range(3..=10usize);
        let spine = self.spine(segments, upright, hip_height);
        // Heads and a tail first: the limbs keep clear of them too.
        let mut placed = Placed {
            solids: self.heads(&spine, heads, upright),
            ..Placed::default()
        };
        if self.chance(0.4) {
            placed.solids.extend(self.tail(&spine, upright));
        }
        let mut counter = 0usize;
        let mut leg_sides: Vec<f32> = Vec::new();
        leg_sides.extend(std::iter::repeat_n(1.0, legs_left));
        leg_sides.extend(std::iter::repeat_n(-1.0, legs_right));
        leg_sides.extend(std::iter::repeat_n(0.0, legs_centre));
        let per_side = legs_left.max(legs_right).max(1);
        for (i, &side) in leg_sides.iter().enumerate() {
            let k = if i < legs_left {
                i
            } else if i < legs_left + legs_right {
                i - legs_left
            } else {
                i - legs_left - legs_right
            };
            let name = format!("leg{counter}");
            counter += 1;
            for attempt in 0..TRIES {
                let mut draw = self.leg_draw(family, side, k, per_side, upright);
                self.nudge(&mut draw, attempt);
                if self.limb(&spine, &draw, &name, None, hip_height, &mut placed) {
                    break;
                }
            }
        }
        let arm_sides: Vec<f32> = std::iter::repeat_n(1.0, arms_left)
            .chain(std::iter::repeat_n(-1.0, arms_right))
            .collect();
        for (i, &side) in arm_sides.iter().enumerate() {
            let k = if side > 0.0 { i } else { i - arms_left };
            let name = format!("arm{counter}");
            counter += 1;
            for attempt in 0..TRIES {
                let mut draw = self.arm_draw(family, side, k, upright);
                self.nudge(&mut draw, attempt);
                if self.limb(&spine, &draw, &name, None, hip_height, &mut placed) {
                    break;
                }
            }
        }
        if family == Family::LimbsOnLimbs {
            let extra = self.rng.random_range(1..=3usize);
            for _ in 0..extra {
                let name = format!("branch{counter}");
                counter += 1;
                for _ in 0..TRIES {
                    if placed.bones.is_empty() {
                        break;
                    }
                    let host = self.rng.random_range(0..placed.bones.len());
                    let (host_name, a, b, radius, on_leg) = placed.bones[host].clone();
                    // A foot from a leg (the leg forks), a grasper from anything.
                    let end = if on_leg && self.chance(0.5) {
                        End::Foot
                    } else {
                        End::Grasper
                    };
                    let side = if a.x.abs() < 1e-4 { 0.0 } else { a.x.signum() };
                    let mut draw = match end {
                        End::Foot => self.leg_draw(family, side, 0, 1, upright),
                        End::Grasper => self.arm_draw(family, side, 0, upright),
                    };
                    draw.segments = draw.segments.min(3);
                    draw.shares.truncate(draw.segments);
                    if let BendShape::Kink(j) = draw.shape {
                        draw.shape = BendShape::Kink(j.min(draw.segments.saturating_sub(1)));
                    }
                    let at = self.range(0.3, 0.9);
                    // Out of the host bone's side away from the body.
                    let axis = (b - a).normalize_or(Vec3::NEG_Y);
                    let sideways = Vec3::X * side.signum_or_one();
                    let out = (sideways - axis * sideways.dot(axis))
                        .try_normalize()
                        .unwrap_or_else(|| axis.any_orthonormal_vector());
                    let attach = Attach {
                        parent: host_name,
                        point: a.lerp(b, at) + out * radius,
                        radius,
                    };
                    if self.limb(&spine, &draw, &name, Some(attach), hip_height, &mut placed) {
                        break;
                    }
                }
            }
        }
        if self.chance(0.1) {
            self.wings(&spine, upright);
        }
        self.b.mirror_left().build()
    }

    /// Legs on the left, on the right and on the centre line.
    fn leg_counts(&mut self, family: Family) -> (usize, usize, usize) {
        let mut r = |lo: usize, hi: usize| self.rng.random_range(lo..=hi);
        match family {
            Family::Lopsided => {
                let left = r(0, 3);
                let mut right = r(1, 3);
                if right == left {
                    right = if left == 3 { 1 } else { left + 1 };
                }
                if left + right == 1 {
                    return (left, right, 1);
                }
                (left, right, 0)
            }
            Family::Splayed => {
                let pairs = r(2, 5);
                (pairs, pairs, 0)
            }
            Family::ManyLegs => {
                let total = r(2, 10);
                let left = r(total.saturating_sub(1) / 2, total.div_ceil(2)).min(total);
                let right = r(left.saturating_sub(1), left + 1).min(total - left);
                (left, right, total - left - right)
            }
            Family::Anywhere => (r(1, 3), r(1, 3), r(0, 1)),
            Family::Staggered => {
                let pairs = *pick(&mut self.rng, &[0, 1, 1, 2, 2]);
                (pairs, pairs, 0)
            }
            _ => {
                let pairs = *pick(&mut self.rng, &[1, 1, 2, 2, 3]);
                (pairs, pairs, 0)
            }
        }
    }

    /// A draw tried again moves along the spine, more the more it was tried: a limb that
    /// found its place taken looks for room nearby before it is left off.
    fn nudge(&mut self, draw: &mut LimbDraw, attempt: usize) {
        if attempt > 0 {
            let reach = 0.04 * attempt as f32;
            draw.along = (draw.along + self.range(-reach, reach)).clamp(0.0, 1.0);
        }
    }

    /// Arms on the left and on the right.
    fn arm_counts(&mut self, family: Family, upright: bool) -> (usize, usize) {
        let mut r = |lo: usize, hi: usize| self.rng.random_range(lo..=hi);
        match family {
            Family::Lopsided => {
                let left = r(0, 2);
                let right = if left == 0 { r(1, 2) } else { r(0, 2) };
                (left, right)
            }
            Family::Staggered => {
                let left = r(1, 3);
                (left, r(1, 3))
            }
            Family::Splayed => {
                let claws = usize::from(r(0, 2) > 0);
                (claws, claws)
            }
            Family::Anywhere => (r(0, 2), r(0, 2)),
            _ if upright => {
                let pairs = r(1, 2);
                (pairs, pairs)
            }
            _ => {
                let pairs = r(0, 2);
                (pairs, pairs)
            }
        }
    }

    /// Segments and how they share the limb: 2–4 usually, 1–5 for the jointed family.
    fn segments(&mut self, family: Family) -> (usize, Vec<f32>, BendShape) {
        let segments = match family {
            Family::Jointed => self.rng.random_range(1..=5usize),
            _ => self.rng.random_range(2..=4usize),
        };
        let even = matches!(family, Family::Classic | Family::Splayed);
        let shares = (0..segments)
            .map(|_| if even { 1.0 } else { self.range(0.5, 1.5) })
            .collect();
        let shape = match (family, segments) {
            (_, 0..=2) => BendShape::Arc,
            (Family::Jointed, _) => match self.rng.random_range(0..3u8) {
                0 => BendShape::Arc,
                1 => BendShape::ZigZag,
                _ => BendShape::Kink(self.rng.random_range(0..segments - 1)),
            },
            _ => BendShape::Arc,
        };
        (segments, shares, shape)
    }

    /// A random direction, uniform on the sphere.
    fn direction(&mut self) -> Vec3 {
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

    /// Leg `k` of `per_side` on one side.
    fn leg_draw(
        &mut self,
        family: Family,
        side: f32,
        k: usize,
        per_side: usize,
        upright: bool,
    ) -> LimbDraw {
        let (segments, shares, shape) = self.segments(family);
        // Spread over the spine's back two thirds, in order, jittered; anywhere at all for
        // the family that says so.
        let slot = (k as f32 + 0.5) / per_side as f32;
        let along = match family {
            _ if upright => self.range(0.0, 0.12),
            Family::Anywhere => self.range(0.0, 1.0),
            Family::Splayed => 0.25 + 0.5 * slot + self.range(-0.04, 0.04),
            _ => 0.7 * slot + self.range(-0.05, 0.05),
        }
        .clamp(0.0, 1.0);
        let elevation = match family {
            Family::Splayed => self.range(0.0, 0.5),
            _ if side == 0.0 => -FRAC_PI_2,
            _ => self.range(-1.2, 0.2),
        };
        let (out, forward) = match family {
            Family::Splayed => {
                // Legs fan out from front to back like a spider's.
                let fan = (slot - 0.5) * self.range(1.0, 2.4);
                let spread = self.range(1.2, 2.6);
                (spread * fan.cos(), spread * fan.sin())
            }
            Family::Proportions | Family::ManyLegs | Family::Lopsided => {
                (self.range(0.05, 1.3), self.range(-0.4, 0.4))
            }
            _ => (self.range(0.1, 0.7), self.range(-0.25, 0.25)),
        };
        let out = if side == 0.0 {
            self.range(-0.1, 0.1)
        } else {
            out
        };
        // Knees forward (a walker's), backward (a bird's), up and out (a crab's), or any way.
        let bend_toward = match family {
            Family::Splayed => Vec3::new(side, self.range(0.8, 2.0), 0.0),
            Family::Jointed | Family::LimbsOnLimbs | Family::Anywhere => self.direction(),
            _ => {
                if self.chance(0.3) {
                    Vec3::new(side * 0.2, 0.0, -1.0)
                } else {
                    Vec3::new(side * 0.2, 0.0, 1.0)
                }
            }
        };
        let bend = match family {
            Family::Jointed if self.chance(0.3) => self.range(0.0, 0.02),
            Family::Jointed => self.range(0.05, 0.45),
            Family::Splayed => self.range(0.2, 0.5),
            Family::ManyLegs => self.range(0.02, 0.4),
            _ => self.range(0.05, 0.3),
        };
        let thickness = match family {
            Family::Proportions if self.stubby => self.range(0.18, 0.3),
            Family::Proportions => self.range(0.008, 0.02),
            // A spider's legs are thin for their length.
            Family::Splayed => self.range(0.02, 0.045),
            _ => self.range(0.04, 0.09),
        };
        LimbDraw {
            end: End::Foot,
            side,
            along,
            elevation,
            segments,
            shares,
            reach: Vec3::new(out, 0.0, forward),
            bend_toward,
            bend,
            shape,
            thickness,
        }
    }

    /// Arm `k` on one side.
    fn arm_draw(&mut self, family: Family, side: f32, k: usize, upright: bool) -> LimbDraw {
        let (segments, shares, shape) = self.segments(family);
        let along = match family {
            Family::Anywhere => self.range(0.0, 1.0),
            // Rows that do not line up across the body: the right side half a row off.
            Family::Staggered => {
                let row = k as f32 + if side < 0.0 { 0.5 } else { 0.0 };
                1.0 - 0.18 * row - self.range(0.06, 0.08)
            }
            _ if upright => self.range(0.8, 0.97),
            _ => 1.0 - 0.15 * k as f32 - self.range(0.03, 0.15),
        }
        .clamp(0.0, 1.0);
        let elevation = match family {
            Family::Staggered | Family::Anywhere => self.range(-1.3, 1.3),
            _ => self.range(-0.5, 0.6),
        };
        let reach = self.size
            * match family {
                Family::Proportions if self.stubby => self.range(0.06, 0.12),
                Family::Proportions => self.range(0.45, 0.8),
                _ => self.range(0.15, 0.4),
            };
        // The wrist: out to the side, forward, and down (or up, for an arm on the back).
        let dir = Vec3::new(
            self.range(0.2, 1.0),
            self.range(-1.0, 0.5),
            self.range(-0.3, 1.0),
        )
        .normalize_or(Vec3::X);
        let bend_toward = match family {
            Family::Jointed | Family::LimbsOnLimbs | Family::Anywhere | Family::Staggered => {
                self.direction()
            }
            _ => Vec3::new(0.0, 0.3, -1.0),
        };
        let bend = match family {
            Family::Jointed if self.chance(0.3) => self.range(0.0, 0.02),
            Family::Jointed => self.range(0.05, 0.45),
            _ => self.range(0.03, 0.3),
        };
        let thickness = match family {
            Family::Proportions if self.stubby => self.range(0.2, 0.32),
            Family::Proportions => self.range(0.008, 0.02),
            _ => self.range(0.05, 0.1),
        };
        LimbDraw {
            end: End::Grasper,
            side,
            along,
            elevation,
            segments,
            shares,
            reach: dir * reach,
            bend_toward,
            bend,
            shape,
            thickness,
        }
    }

    /// Builds one limb if it fits: its bones, and its foot or grasper. `host`: the bone of
    /// another limb it grows from (else it leaves the spine where the draw says).
    #[allow(clippy::too_many_arguments)]
    fn limb(
        &mut self,
        spine: &Spine,
        d: &LimbDraw,
        stem: &str,
        host: Option<Attach>,
        hip_height: f32,
        placed: &mut Placed,
    ) -> bool {
        let s = self.size;
        let attach = match host {
            Some(a) => a,
            None => spine.attach(d.along, d.side, d.elevation),
        };
        let mirror = if d.side < 0.0 { -1.0 } else { 1.0 };
        let suffix = match d.side {
            x if x > 0.0 => ".L",
            x if x < 0.0 => ".R",
            _ => "",
        };
        let first = attach.point;
        // The last joint (ankle or wrist), the end body's placement and the limb's radius.
        let (last, radius, foot_half) = match d.end {
            End::Foot => {
                let height = hip_height.max(first.y).max(0.05 * s);
                let ground = Vec3::new(
                    first.x + mirror * d.reach.x * height,
                    0.0,
                    first.z + d.reach.z * height,
                );
                let chord = first.distance(ground + Vec3::Y * 0.1 * height);
                let radius = (d.thickness * chord)
                    .min(0.3 * height)
                    .min(0.9 * attach.radius)
                    .max(0.003 * s);
                let foot_half = Vec3::new(0.25, 0.12, 0.45) * (0.12 * s).min(0.4 * height);
                let foot_half = foot_half.max(Vec3::splat(radius * 0.6));
                let ankle_height = foot_half.y * 2.0 + radius;
                (
                    ground + Vec3::Y * ankle_height,
                    radius,
                    Some((ground, foot_half)),
                )
            }
            End::Grasper => {
                let r = Vec3::new(mirror * d.reach.x, d.reach.y, d.reach.z);
                let mut wrist = first + r;
                let radius = (d.thickness * r.length())
                    .min(0.7 * attach.radius)
                    .max(0.003 * s);
                let hand_len = 0.08 * s;
                let lowest = 0.03 * s + 0.5 * hand_len + 2.4 * radius;
                wrist.y = wrist.y.max(lowest);
                (wrist, radius, None)
            }
        };
        let chord = last - first;
        if chord.length() < 0.02 * s {
            return false;
        }
        // A leg goes down to its foot, however far out: one rising to it is no leg.
        if d.end == End::Foot && first.y - last.y < 0.1 * chord.length() {
            return false;
        }
        // Keep clear of the other limbs where they leave the body, and where they stand.
        if placed
            .shoulders
            .iter()
            .any(|&(p, r)| p.distance(first) < 2.0 * (r + radius))
        {
            return false;
        }
        if let Some((ground, half)) = foot_half
            && placed
                .feet
                .iter()
                .any(|&(g, h)| g.distance(ground) < 1.5 * (h + half.z))
        {
            return false;
        }
        let points = joints(first, last, d);
        // Every joint above the ground (with the bone's radius), and no bone through the
        // trunk but where the limb leaves it.
        let floor = match d.end {
            End::Foot => last.y - 0.5 * radius,
            End::Grasper => 0.02 * s + radius,
        };
        if points[1..points.len() - 1].iter().any(|p| p.y < floor) {
            return false;
        }
        for (i, w) in points.windows(2).enumerate() {
            let (from, to) = (w[0], w[1]);
            // The first bone may start on the body's surface, but must leave it.
            let from = if i == 0 { from.lerp(to, 0.5) } else { from };
            let solid = placed
                .solids
                .iter()
                .map(|&(a, b, r)| segment_distance(from, to, a, b) - r)
                .fold(f32::INFINITY, f32::min);
            if spine.clearance(from, to).min(solid) < radius {
                return false;
            }
        }
        let cap = [Cap::Limb];
        let mut parent = attach.parent.clone();
        for (i, w) in points.windows(2).enumerate() {
            let name = format!("{stem}_{i}{suffix}");
            let r = radius * (1.0 - 0.1 * i as f32).max(0.6);
            self.b.bone(&name, Some(&parent), &cap, w[0], w[1], r);
            placed
                .bones
                .push((name.clone(), w[0], w[1], r, d.end == End::Foot));
            parent = name;
        }
        match (d.end, foot_half) {
            (End::Foot, Some((ground, half))) => {
                // The foot points the way the leg leans out, as a spider's or a crab's does.
                let lean = Vec3::new(last.x - first.x, 0.0, last.z - first.z);
                let yaw = if lean.length() > 0.3 * half.z {
                    let toward = if lean.z < 0.0 { -lean } else { lean };
                    Quat::from_rotation_y(toward.x.atan2(toward.z) * 0.5)
                } else {
                    Quat::IDENTITY
                };
                let centre = ground + Vec3::Y * half.y + yaw * Vec3::Z * (half.z * 0.5);
                self.b.body(
                    &format!("{stem}_foot{suffix}"),
                    Some(&parent),
                    &[Cap::Foot],
                    last,
                    centre,
                    yaw,
                    half,
                    Shape::Box,
                );
                placed.feet.push((ground, half.z));
            }
            _ => {
                let hand_len = 0.08 * s;
                let dir = (last - points[points.len() - 2]).normalize_or(Vec3::NEG_Y);
                let mut end = last + dir * hand_len;
                end.y = end.y.max(last.y - 0.5 * hand_len);
                self.b.bone(
                    &format!("{stem}_hand{suffix}"),
                    Some(&parent),
                    &[Cap::Grasper],
                    last,
                    end,
                    radius * 1.2,
                );
            }
        }
        placed.shoulders.push((first, radius));
        true
    }
}

/// The joints of a limb from `first` to `last`: spaced by the draw's shares along the chord
/// and moved across it by its bend.
fn joints(first: Vec3, last: Vec3, d: &LimbDraw) -> Vec<Vec3> {
    let chord = last - first;
    let along = chord.normalize_or(Vec3::NEG_Y);
    let toward = Vec3::new(
        d.bend_toward.x * d.side.signum_or_one(),
        d.bend_toward.y,
        d.bend_toward.z,
    );
    let across = (toward - along * toward.dot(along))
        .try_normalize()
        .unwrap_or_else(|| along.any_orthonormal_vector());
    let total: f32 = d.shares.iter().sum::<f32>().max(1e-6);
    let mut points = Vec::with_capacity(d.segments + 1);
    let mut t = 0.0f32;
    points.push(first);
    for (k, share) in d.shares.iter().enumerate().take(d.segments) {
        t += share / total;
        if k + 1 == d.segments {
            points.push(last);
            break;
        }
        let height = match d.shape {
            BendShape::Arc => (PI * t).sin(),
            BendShape::ZigZag => (PI * t).sin() * if k % 2 == 0 { 1.0 } else { -1.0 },
            BendShape::Kink(j) => {
                let peak: f32 = d.shares[..=j.min(d.segments - 2)].iter().sum::<f32>() / total;
                if t <= peak {
                    t / peak.max(1e-6)
                } else {
                    (1.0 - t) / (1.0 - peak).max(1e-6)
                }
            }
        };
        points.push(first + chord * t + across * (d.bend * chord.length() * height));
    }
    points
}

trait SignumOrOne {
    fn signum_or_one(self) -> f32;
}

impl SignumOrOne for f32 {
    /// The side's sign, +1 on the centre line: a centre limb bends as a left one would.
    fn signum_or_one(self) -> f32 {
        if self < 0.0 { -1.0 } else { 1.0 }
    }
}

impl Spine {
    /// Where a limb leaves the spine: `along` its length (0 to 1), on `side` (+1 left, -1
    /// right, 0 the centre line), `elevation` around it (0 the side, +π/2 the top or back).
    fn attach(&self, along: f32, side: f32, elevation: f32) -> Attach {
        let n = self.names.len();
        let x = (along.clamp(0.0, 1.0) * n as f32).min(n as f32 - 1e-3);
        let i = (x as usize).min(n - 1);
        let t = (x - i as f32).clamp(0.15, 0.85);
        let (a, b) = (self.joints[i], self.joints[i + 1]);
        let axis = (b - a).normalize_or(Vec3::Z);
        let left = (Vec3::X - axis * axis.x).normalize_or(Vec3::X);
        let up = axis.cross(left);
        let elevation = if side == 0.0 {
            FRAC_PI_2 * elevation.signum()
        } else {
            elevation
        };
        let sideways = if side < 0.0 { -left } else { left };
        let out = if side == 0.0 {
            up * elevation.signum()
        } else {
            sideways * elevation.cos() + up * elevation.sin()
        };
        Attach {
            parent: self.names[i].clone(),
            point: a.lerp(b, t) + out * self.body_radius(i),
            radius: self.body_radius(i),
        }
    }

    /// The radius of spine body `i` as built (the zoo's spine caps its radius by its length).
    fn body_radius(&self, i: usize) -> f32 {
        let step = self.joints[i].distance(self.joints[i + 1]);
        let r = self.radius[i];
        r.min(0.45 * step.max(r))
    }

    /// How far the segment `from`–`to` stays outside the spine's capsules.
    fn clearance(&self, from: Vec3, to: Vec3) -> f32 {
        (0..self.names.len())
            .map(|i| {
                segment_distance(from, to, self.joints[i], self.joints[i + 1]) - self.body_radius(i)
            })
            .fold(f32::INFINITY, f32::min)
    }
}
