//! Geometry helpers for writing sample creatures by hand: bones, blocks, feet that stand on
//! the ground, and a two-bone solver for knees. All points go through [`Kit::at`], which scales
//! them (one definition serves a biped and a giant) and snaps them to a 0.1 mm grid so the
//! committed files read cleanly and do not depend on the last bit of the platform's `sin`.

use anymorph::runtime::creature::{Cap, CreatureBuilder, Shape};
use glam::{Quat, Vec3};

pub const fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

const GRID: f32 = 1e4;

/// Rounds to the grid; `+ 0.0` turns a rounded `-0.0` into `0.0` so files never say `-0.0`.
pub fn snap(p: Vec3) -> Vec3 {
    (p * GRID).round() / GRID + Vec3::ZERO
}

fn snap1(x: f32) -> f32 {
    (x * GRID).round() / GRID + 0.0
}

/// A free-form cap, e.g. `other("toe")`.
pub fn other(name: &str) -> Cap {
    Cap::Other(name.into())
}

/// Rotation about +Y that turns local +Z (a head's or a foot's front) toward `dir`'s
/// horizontal direction.
pub fn yaw_toward(dir: Vec3) -> f32 {
    dir.x.atan2(dir.z)
}

/// The knee (or elbow) of a two-bone limb from `hip` to `ankle` with the given bone lengths,
/// bent toward `bend`. Panics if the bones cannot reach: that is a mistake in a definition.
pub fn knee(hip: Vec3, ankle: Vec3, upper: f32, lower: f32, bend: Vec3) -> Vec3 {
    let d = ankle - hip;
    let dist = d.length();
    assert!(
        dist < upper + lower && dist > (upper - lower).abs(),
        "a two-bone limb of {upper} + {lower} cannot span {dist}"
    );
    let dir = d / dist;
    let along = (upper * upper - lower * lower + dist * dist) / (2.0 * dist);
    let out = (upper * upper - along * along).max(0.0).sqrt();
    let normal = (bend - dir * bend.dot(dir)).normalize_or_zero();
    hip + dir * along + normal * out
}

/// A creature under construction; see the module docs.
pub struct Kit {
    builder: CreatureBuilder,
    scale: f32,
}

impl Kit {
    pub fn new(name: &str) -> Kit {
        Kit::scaled(name, 1.0)
    }

    /// Every point and length given to this kit is multiplied by `scale`.
    pub fn scaled(name: &str, scale: f32) -> Kit {
        Kit {
            builder: CreatureBuilder::new(name),
            scale,
        }
    }

    fn at(&self, p: Vec3) -> Vec3 {
        snap(p * self.scale)
    }

    fn len(&self, x: f32) -> f32 {
        snap1(x * self.scale)
    }

    /// The first body of the file: a capsule from `start` to `end`.
    pub fn top_bone(&mut self, name: &str, caps: &[Cap], start: Vec3, end: Vec3, r: f32) {
        let (a, b, r) = (self.at(start), self.at(end), self.len(r));
        self.builder.bone(name, None, caps, a, b, r);
    }

    /// A capsule from `joint` (its pivot on `parent`) to `end`.
    pub fn bone(&mut self, name: &str, parent: &str, caps: &[Cap], joint: Vec3, end: Vec3, r: f32) {
        let (a, b, r) = (self.at(joint), self.at(end), self.len(r));
        self.builder.bone(name, Some(parent), caps, a, b, r);
    }

    /// A serial chain of capsules through `points`, the first hanging from `parent`:
    /// `segments[i] = (name, radius)` spans `points[i] → points[i + 1]`.
    pub fn chain(&mut self, parent: &str, caps: &[Cap], segments: &[(&str, f32)], points: &[Vec3]) {
        assert_eq!(
            segments.len() + 1,
            points.len(),
            "one more point than segments"
        );
        let mut up = parent;
        for (i, &(name, r)) in segments.iter().enumerate() {
            self.bone(name, up, caps, points[i], points[i + 1], r);
            up = name;
        }
    }

    /// A body with an explicit centre, rotation, half extents and shape.
    #[allow(clippy::too_many_arguments)]
    pub fn block(
        &mut self,
        name: &str,
        parent: Option<&str>,
        caps: &[Cap],
        joint: Vec3,
        centre: Vec3,
        rotation: Quat,
        half: Vec3,
        shape: Shape,
    ) {
        let (j, c, h) = (self.at(joint), self.at(centre), self.at(half));
        self.builder
            .body(name, parent, caps, j, c, rotation, h, shape);
    }

    /// A sphere of radius `r` centred at `centre`.
    pub fn sphere(
        &mut self,
        name: &str,
        parent: &str,
        caps: &[Cap],
        joint: Vec3,
        centre: Vec3,
        r: f32,
    ) {
        let half = Vec3::splat(r);
        self.block(
            name,
            Some(parent),
            caps,
            joint,
            centre,
            Quat::IDENTITY,
            half,
            Shape::Sphere,
        );
    }

    /// A foot box standing on the ground below `ankle` (its joint), turned by `yaw` about +Y
    /// and pushed `forward` along its own +Z. Its lowest point is exactly y = 0.
    pub fn foot(
        &mut self,
        name: &str,
        parent: &str,
        ankle: Vec3,
        half: Vec3,
        forward: f32,
        yaw: f32,
    ) {
        let turn = Quat::from_rotation_y(yaw);
        let centre = v(ankle.x, half.y, ankle.z) + turn * v(0.0, 0.0, forward);
        let centre = v(centre.x, half.y, centre.z);
        self.block(
            name,
            Some(parent),
            &[Cap::Foot],
            ankle,
            centre,
            turn,
            half,
            Shape::Box,
        );
    }

    /// The creature with every `_l` body mirrored to `_r`.
    pub fn mirrored(mut self) -> CreatureBuilder {
        self.builder.mirror_left();
        self.builder
    }
}
