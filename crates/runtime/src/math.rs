//! Small geometric helpers shared by the runtime: boxes, the sagittal mirror and rotations
//! that never produce NaN.

use glam::{Mat3, Quat, Vec3, Vec3A, Vec4};
use serde::{Deserialize, Serialize};

/// The working range of every number a file or a command line gives: coordinates and extents
/// (metres), key values, tangents and times. A creature a million metres across is not a
/// creature, and far beyond it `f32` arithmetic loses the millimetres the IK and the
/// checks work in (1e6 + 0.001 is 1e6) and squares overflow to infinity, so loaders reject
/// what lies outside, naming the file and the field (`docs/FORMAT.md`).
pub const WORKING_RANGE: f32 = 1.0e6;

/// An axis-aligned box in character space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aabb {
    /// The low corner (greater than `max` on an axis when the box is empty).
    pub min: Vec3,
    /// The high corner.
    pub max: Vec3,
}

impl Aabb {
    /// The empty box: growing it by any point gives that point.
    pub const EMPTY: Aabb = Aabb {
        min: Vec3::splat(f32::INFINITY),
        max: Vec3::splat(f32::NEG_INFINITY),
    };

    /// The smallest box holding every point ([`Aabb::EMPTY`] for none).
    pub fn from_points(points: impl IntoIterator<Item = Vec3>) -> Aabb {
        points.into_iter().fold(Aabb::EMPTY, |b, p| b.grown(p))
    }

    /// The box grown to hold `p`.
    pub fn grown(self, p: Vec3) -> Aabb {
        Aabb {
            min: self.min.min(p),
            max: self.max.max(p),
        }
    }

    /// The smallest box holding both.
    pub fn union(self, o: Aabb) -> Aabb {
        Aabb {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    /// It holds no point.
    pub fn is_empty(&self) -> bool {
        self.min.cmpgt(self.max).any()
    }

    /// The middle of the box.
    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Its extent along each axis.
    pub fn size(&self) -> Vec3 {
        if self.is_empty() {
            Vec3::ZERO
        } else {
            self.max - self.min
        }
    }

    /// The box of an oriented box with the given centre, rotation and half extents.
    pub fn of_oriented_box(center: Vec3, rotation: Quat, half_extents: Vec3) -> Aabb {
        let m = Mat3::from_quat(rotation);
        let reach = m.x_axis.abs() * half_extents.x
            + m.y_axis.abs() * half_extents.y
            + m.z_axis.abs() * half_extents.z;
        Aabb {
            min: center - reach,
            max: center + reach,
        }
    }
}

/// Reflects a point across the sagittal plane `x = 0` (+X is the creature's left).
pub fn mirror_point(p: Vec3) -> Vec3 {
    Vec3::new(-p.x, p.y, p.z)
}

/// Reflects a rotation across the sagittal plane: `F R F` with `F = diag(-1, 1, 1)`.
/// Rotations about X keep their sense; rotations about Y and Z reverse it.
pub fn mirror_rotation(q: Quat) -> Quat {
    Quat::from_xyzw(q.x, -q.y, -q.z, q.w)
}

/// The smallest rotation taking unit vector `from` to unit vector `to`, scaled down to
/// `fraction` of its angle. Antiparallel vectors pick a stable perpendicular axis instead of
/// returning NaN.
pub fn partial_rotation_arc(from: Vec3, to: Vec3, fraction: f32) -> Quat {
    let full = Quat::from_rotation_arc(from, to);
    if fraction >= 1.0 {
        full
    } else {
        Quat::IDENTITY.slerp(full, fraction.max(0.0))
    }
}

/// Hermite smoothstep on `[edge0, edge1]`, C1 continuous; 0 below, 1 above.
pub fn smoothstep(edge0: f32, edge1: f32, x: f32) -> f32 {
    if edge1 <= edge0 {
        return if x < edge0 { 0.0 } else { 1.0 };
    }
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// A product of unit quaternions back at unit length. Such a product is off by rounding
/// only, so one Newton step on the length does it without the square root and division of
/// a full normalization, which would sit on the chain of parent-to-child products a pose is
/// built along.
#[inline]
pub fn renormalize(q: Quat) -> Quat {
    q * (1.5 - 0.5 * q.length_squared())
}

/// `q * v` for a unit quaternion `q`, as `v + w t + b × t` with `t = 2 b × v` (`b` the
/// vector part): two cross products where glam's form takes two dot products, a cross
/// product and more products besides. The solver turns a few dozen vectors a frame this
/// way, and in some of its loops the turn is most of the work.
#[inline(always)]
pub fn rotate(q: Quat, v: Vec3A) -> Vec3A {
    let b = Vec3A::from_vec4(Vec4::from(q));
    let t = b.cross(v);
    let t = t + t;
    v + t * q.w + b.cross(t)
}

/// The angle in radians between two rotations (0 ..= π), independent of quaternion sign.
pub fn rotation_angle_between(a: Quat, b: Quat) -> f32 {
    // atan2 of the relative rotation's vector and scalar parts stays precise for tiny
    // angles, where acos of a dot product near 1 loses everything to f32 rounding.
    let r = a.conjugate() * b;
    2.0 * r.xyz().length().atan2(r.w.abs())
}

/// A rotation whose local +Y runs along `dir` and whose local +Z is as close as possible to
/// `forward`. Bones built this way keep "front" meaning front even when they point down.
pub fn frame_along(dir: Vec3, forward: Vec3) -> Quat {
    let Some(y) = dir.try_normalize() else {
        return Quat::IDENTITY;
    };
    let mut z = forward - y * forward.dot(y);
    if z.length_squared() < 1e-8 {
        // The bone runs along `forward`: fall back to up, then to left.
        z = Vec3::Y - y * y.y;
        if z.length_squared() < 1e-8 {
            z = Vec3::X - y * y.x;
        }
    }
    let z = z.normalize_or_zero();
    let x = y.cross(z);
    Quat::from_mat3(&Mat3::from_cols(x, y, z)).normalize()
}

/// Closest distance between segments `p1 q1` and `p2 q2`: how close two capsules' axes
/// come.
pub fn segment_distance(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> f32 {
    let (s, t) = segment_closest(p1, q1, p2, q2);
    (p1 + (q1 - p1) * s).distance(p2 + (q2 - p2) * t)
}

/// Where segments `p1 q1` and `p2 q2` come closest, as the parameters (0 at `p`, 1 at `q`)
/// of those points on each (Ericson, Real-Time Collision Detection 5.1.9).
#[inline]
pub fn segment_closest(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> (f32, f32) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let (s, t) = if a <= 1e-12 && e <= 1e-12 {
        (0.0, 0.0)
    } else if a <= 1e-12 {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e <= 1e-12 {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s = if denom > 1e-12 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t = (b * s + f) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    (s, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_rotation_matches_the_reflection_matrix() {
        let f = Mat3::from_diagonal(Vec3::new(-1.0, 1.0, 1.0));
        for q in [
            Quat::from_rotation_x(0.7),
            Quat::from_rotation_y(-1.1),
            Quat::from_euler(glam::EulerRot::XYZ, 0.3, 0.9, -0.4),
        ] {
            let expected = f * Mat3::from_quat(q) * f;
            let got = Mat3::from_quat(mirror_rotation(q));
            assert!(expected.abs_diff_eq(got, 1e-5), "{q:?}");
        }
    }

    #[test]
    fn frame_along_keeps_front_for_a_bone_pointing_down() {
        let q = frame_along(-Vec3::Y, Vec3::Z);
        assert!((q * Vec3::Y).abs_diff_eq(-Vec3::Y, 1e-5));
        assert!((q * Vec3::Z).abs_diff_eq(Vec3::Z, 1e-5));
        let q = frame_along(Vec3::Z, Vec3::Z);
        assert!((q * Vec3::Y).abs_diff_eq(Vec3::Z, 1e-5));
        assert!(!q.is_nan());
    }

    #[test]
    fn oriented_box_bounds_contain_the_rotated_corners() {
        let q = Quat::from_rotation_z(0.5);
        let b = Aabb::of_oriented_box(Vec3::ONE, q, Vec3::new(1.0, 0.2, 0.3));
        for sx in [-1.0, 1.0] {
            for sy in [-1.0, 1.0] {
                let c = Vec3::ONE + q * Vec3::new(sx, sy * 0.2, 0.3);
                assert!(c.cmpge(b.min - 1e-5).all() && c.cmple(b.max + 1e-5).all());
            }
        }
        assert!(Aabb::EMPTY.is_empty());
        assert_eq!(Aabb::EMPTY.size(), Vec3::ZERO);
    }

    /// Off by rounding (or a little more), one Newton step brings a rotation back to unit
    /// length as a full normalization does, and a chain of products stays there.
    #[test]
    fn renormalize_keeps_products_of_rotations_at_unit_length() {
        let q = Quat::from_rotation_y(0.7) * Quat::from_rotation_x(-1.2);
        for off in [1.0 + 1e-3, 1.0 - 1e-3, 1.0 + 1e-6] {
            let r = renormalize(q * off);
            assert!((r.length() - 1.0).abs() < 2e-6, "{off}: {}", r.length());
            assert!(r.abs_diff_eq(q, 2e-6), "{off}");
        }
        let step = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.37);
        let mut chain = Quat::IDENTITY;
        for _ in 0..10_000 {
            chain = renormalize(step * chain);
        }
        assert!((chain.length() - 1.0).abs() < 1e-6, "{}", chain.length());
    }

    /// The two-cross-product turn is the same rotation as glam's, to rounding, for turns
    /// of every size about every axis and vectors of every length the solver carries.
    #[test]
    fn rotate_turns_as_the_quaternion_product_does() {
        for (i, axis) in [
            Vec3::X,
            Vec3::new(1.0, 2.0, -3.0),
            Vec3::new(-0.2, 0.1, 0.9),
        ]
        .into_iter()
        .enumerate()
        {
            for angle in [0.0, 1e-4, 0.5, 1.7, 3.1, -2.4, 6.0] {
                let q = Quat::from_axis_angle(axis.normalize(), angle + i as f32);
                for v in [
                    Vec3A::new(0.3, -1.2, 0.7),
                    Vec3A::new(1e3, 2.0, -5e2),
                    Vec3A::new(-1e-3, 4e-3, 2e-3),
                    Vec3A::ZERO,
                ] {
                    let (got, want) = (rotate(q, v), q * v);
                    let tolerance = 4.0 * f32::EPSILON * v.length().max(1e-30);
                    assert!(
                        got.distance(want) <= tolerance,
                        "{q:?} * {v:?}: {got:?} against {want:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn smoothstep_is_clamped() {
        assert_eq!(smoothstep(1.0, 2.0, 0.0), 0.0);
        assert_eq!(smoothstep(1.0, 2.0, 3.0), 1.0);
        assert!((smoothstep(1.0, 2.0, 1.5) - 0.5).abs() < 1e-6);
    }
}
