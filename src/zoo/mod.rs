//! A zoo of random plausible creatures, for testing clips and the runtime against shapes
//! nobody authored for (paper section 5: "an ever-changing database of characters").
//! Deterministic by seed; every creature is valid and stands on the ground in a rest pose a
//! player would make.
//!
//! Creatures come in morphology families ([`Family`]): `classic` is the first zoo (legs in
//! mirrored pairs, arms at the front, heads, tails and wings); the others are the shapes the
//! runtime was not developed against — lopsided bodies, splayed crab and spider legs, arms
//! in staggered rows, limbs anywhere along the spine, limbs of one to five segments bent any
//! way, very long thin and very short thick limbs, many legs of unequal length, limbs on
//! limbs. [`generate`] draws from all of them by seed.

mod broad;
mod classic;

use crate::runtime::creature::{Cap, Creature, CreatureBuilder, CreatureError, Shape};
use crate::runtime::math::frame_along;
use glam::{Quat, Vec3};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Neighbouring heads' centres are at least this many head radii apart sideways.
const HEAD_SPACING: f32 = 2.6;

/// A morphology family of the zoo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// The first zoo: mirrored leg pairs, arm pairs at the front, heads, tails, wings.
    Classic,
    /// Different limb counts and lengths on each side.
    Lopsided,
    /// Legs splayed sideways with their knees up and out, crab- and spider-like.
    Splayed,
    /// Arms in staggered rows, at different heights around the spine.
    Staggered,
    /// Limbs attached anywhere along the spine, its tail end included.
    Anywhere,
    /// Limbs of one to five segments whose rest bend points any way: backward knees,
    /// nearly straight limbs, zig-zags.
    Jointed,
    /// Very long thin limbs and very short thick ones.
    Proportions,
    /// Two to ten legs of unequal length.
    ManyLegs,
    /// Limbs that grow from other limbs.
    LimbsOnLimbs,
}

impl Family {
    /// Every family, in the order the default mix cycles through them.
    pub const ALL: [Family; 9] = [
        Family::Classic,
        Family::Lopsided,
        Family::Splayed,
        Family::Staggered,
        Family::Anywhere,
        Family::Jointed,
        Family::Proportions,
        Family::ManyLegs,
        Family::LimbsOnLimbs,
    ];

    /// The family's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Family::Classic => "classic",
            Family::Lopsided => "lopsided",
            Family::Splayed => "splayed",
            Family::Staggered => "staggered",
            Family::Anywhere => "anywhere",
            Family::Jointed => "jointed",
            Family::Proportions => "proportions",
            Family::ManyLegs => "many-legs",
            Family::LimbsOnLimbs => "limbs-on-limbs",
        }
    }

    /// The family the default mix draws for `seed`: the families in turn, so any run of
    /// consecutive seeds holds them all in nearly equal numbers.
    pub fn of_seed(seed: u64) -> Family {
        Family::ALL[(seed % Family::ALL.len() as u64) as usize]
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Family {
    type Err = String;

    fn from_str(s: &str) -> Result<Family, String> {
        Family::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown family '{s}'; the families are {}",
                    names.join(", ")
                )
            })
    }
}

/// The creature for `seed` in the default mix (every family, [`Family::of_seed`]): the same
/// seed always gives the same creature.
pub fn generate(seed: u64) -> Result<Creature, CreatureError> {
    generate_family(seed, Family::of_seed(seed))
}

/// The creature for `seed` of one family. `Family::Classic` gives, body for body, what the
/// first zoo gave for the seed (only the name says the family now).
pub fn generate_family(seed: u64, family: Family) -> Result<Creature, CreatureError> {
    let name = format!("zoo_{family}_{seed}");
    match family {
        Family::Classic => Zoo::new(name, seed).classic(),
        _ => {
            // Each family draws from its own stream: the same seed in two families gives
            // unrelated creatures.
            let salt = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(family as u64 + 1);
            Zoo::new(name, seed ^ salt).broad(family)
        }
    }
}

struct Zoo {
    rng: ChaCha8Rng,
    b: CreatureBuilder,
    /// Overall size in metres (roughly the creature's length or height).
    size: f32,
    /// Short, thick limbs rather than long, thin ones (the proportions family).
    stubby: bool,
}

/// Where the spine is, as joint points from the back (or bottom) to the front (or top).
struct Spine {
    joints: Vec<Vec3>,
    names: Vec<String>,
    radius: Vec<f32>,
}

impl Zoo {
    fn new(name: String, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Mostly creature-sized, sometimes tiny or huge.
        let size = 0.25 * 2f32.powf(rng.random_range(0.0..4.5));
        Zoo {
            rng,
            b: CreatureBuilder::new(name),
            size,
            stubby: false,
        }
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        self.rng.random_range(lo..hi)
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
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

    /// Heads on necks at the front (or top) of the spine, each with a mouth and eyes; extra
    /// heads branch off turned outward, their necks leaning apart so neighbouring heads sit
    /// clear of each other (a head looking aside must not turn its eye into the next one).
    /// Returns the necks' and heads' capsules (joint, end, radius) for the limbs to keep
    /// clear of.
    fn heads(&mut self, spine: &Spine, count: usize, upright: bool) -> Vec<(Vec3, Vec3, f32)> {
        let mut solids = Vec::new();
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
            solids.push((front, neck_end, neck_radius));
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
            solids.push((head_centre, head_centre, r));
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
        solids
    }

    /// Returns the tail's capsules (joint, end, radius).
    fn tail(&mut self, spine: &Spine, upright: bool) -> Vec<(Vec3, Vec3, f32)> {
        let mut solids = Vec::new();
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
            let radius = r0 * (1.0 - 0.7 * t).max(0.2);
            self.b
                .bone(&name, Some(&parent), &[Cap::Tail], from, to, radius);
            solids.push((from, to, radius));
            parent = name;
            from = to;
        }
        solids
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
}

fn pick<'a, T>(rng: &mut ChaCha8Rng, options: &'a [T]) -> &'a T {
    &options[rng.random_range(0..options.len())]
}
