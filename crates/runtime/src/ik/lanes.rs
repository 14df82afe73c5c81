//! Four bodies at a time: vectors and quaternions as structures of arrays, one lane per
//! body, in glam's `Vec4` (one SIMD register per coordinate where glam has SIMD).
//!
//! A quaternion product or a rotation in glam's own layout spends most of its instructions
//! shuffling coordinates into place; four bodies side by side need no shuffle at all, so
//! the limb rebuild takes its bodies four alike at once (see `reconstruct::limb_poses`).
//! Every operation repeats glam's arithmetic in glam's order, so a lane gives exactly the
//! number the single-body code gives (`tests` check it bit for bit; a build where glam
//! fuses multiplies and adds, `target-feature=+fma`, differs by rounding).

use glam::{Mat4, Quat, Vec3A, Vec4};
use std::ops::{Add, Mul, Sub};

/// Four 3D vectors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct V3 {
    pub x: Vec4,
    pub y: Vec4,
    pub z: Vec4,
}

/// Four quaternions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Q {
    pub x: Vec4,
    pub y: Vec4,
    pub z: Vec4,
    pub w: Vec4,
}

impl V3 {
    /// The four vectors' coordinates side by side: a 4×4 transpose (glam's, eight
    /// shuffles with SIMD) rather than twelve lanes picked one at a time.
    #[inline(always)]
    pub fn gather(v: [Vec3A; 4]) -> V3 {
        let m = Mat4::from_cols(
            v[0].extend(0.0),
            v[1].extend(0.0),
            v[2].extend(0.0),
            v[3].extend(0.0),
        )
        .transpose();
        V3 {
            x: m.x_axis,
            y: m.y_axis,
            z: m.z_axis,
        }
    }

    #[inline(always)]
    pub fn lanes(self) -> [Vec3A; 4] {
        let m = Mat4::from_cols(self.x, self.y, self.z, Vec4::ZERO).transpose();
        [m.x_axis, m.y_axis, m.z_axis, m.w_axis].map(Vec3A::from_vec4)
    }

    /// `Vec3A::dot`: `(x·x + y·y) + z·z`.
    #[inline(always)]
    pub fn dot(self, o: V3) -> Vec4 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// `Vec3A::cross`.
    #[inline(always)]
    pub fn cross(self, o: V3) -> V3 {
        V3 {
            x: self.y * o.z - o.y * self.z,
            y: self.z * o.x - o.z * self.x,
            z: self.x * o.y - o.x * self.y,
        }
    }

    #[inline(always)]
    pub fn scale(self, s: Vec4) -> V3 {
        V3 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
}

impl Add for V3 {
    type Output = V3;
    #[inline(always)]
    fn add(self, o: V3) -> V3 {
        V3 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

impl Sub for V3 {
    type Output = V3;
    #[inline(always)]
    fn sub(self, o: V3) -> V3 {
        V3 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

impl Q {
    /// As [`V3::gather`].
    #[inline(always)]
    pub fn gather(q: [Quat; 4]) -> Q {
        let m = Mat4::from_cols(q[0].into(), q[1].into(), q[2].into(), q[3].into()).transpose();
        Q {
            x: m.x_axis,
            y: m.y_axis,
            z: m.z_axis,
            w: m.w_axis,
        }
    }

    #[inline(always)]
    pub fn lanes(self) -> [Quat; 4] {
        let m = Mat4::from_cols(self.x, self.y, self.z, self.w).transpose();
        [m.x_axis, m.y_axis, m.z_axis, m.w_axis].map(Quat::from_vec4)
    }

    /// `Quat::length_squared`: `(x·x + z·z) + (y·y + w·w)`.
    #[inline(always)]
    pub fn length_squared(self) -> Vec4 {
        (self.x * self.x + self.z * self.z) + (self.y * self.y + self.w * self.w)
    }

    #[inline(always)]
    pub fn scale(self, s: Vec4) -> Q {
        Q {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
            w: self.w * s,
        }
    }

    /// `Quat::normalize`: each coordinate divided by the length.
    #[inline(always)]
    pub fn normalize(self) -> Q {
        let len = self.length_squared().sqrt();
        Q {
            x: self.x / len,
            y: self.y / len,
            z: self.z / len,
            w: self.w / len,
        }
    }

    /// `math::renormalize`: one Newton step back to unit length.
    #[inline(always)]
    pub fn renormalize(self) -> Q {
        self.scale(Vec4::splat(1.5) - Vec4::splat(0.5) * self.length_squared())
    }

    /// `math::rotate` for unit quaternions: `(v + t w) + b × t` with `t = 2 b × v`.
    #[inline(always)]
    pub fn rotate(self, v: V3) -> V3 {
        let b = V3 {
            x: self.x,
            y: self.y,
            z: self.z,
        };
        let t = b.cross(v);
        let t = t + t;
        (v + t.scale(self.w)) + b.cross(t)
    }
}

/// `Quat * Quat`, in the order of glam's SIMD product.
impl Mul for Q {
    type Output = Q;
    #[inline(always)]
    fn mul(self, r: Q) -> Q {
        let l = self;
        Q {
            x: (l.x * r.w + l.w * r.x) + (l.y * r.z - l.z * r.y),
            y: (l.w * r.y - l.x * r.z) + (l.z * r.x + l.y * r.w),
            z: (l.x * r.y + l.w * r.z) + (l.z * r.w - l.y * r.x),
            w: (l.w * r.w - l.x * r.x) - (l.z * r.z + l.y * r.y),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ik::test_support::same;
    use crate::math::{renormalize, rotate};
    use proptest::prelude::*;

    fn vec3() -> impl Strategy<Value = Vec3A> {
        (-10.0f32..10.0, -10.0f32..10.0, -10.0f32..10.0).prop_map(|(x, y, z)| Vec3A::new(x, y, z))
    }

    fn unit_quat() -> impl Strategy<Value = Quat> {
        (vec3(), -3.0f32..3.0).prop_map(|(axis, angle)| {
            Quat::from_axis_angle(axis.normalize_or(Vec3A::X).into(), angle)
        })
    }

    fn coords(q: Quat) -> [f32; 4] {
        q.to_array()
    }

    fn vcoords(v: Vec3A) -> [f32; 3] {
        v.to_array()
    }

    proptest! {
        /// Each lane gives exactly what glam gives for one body, so the rebuild's poses
        /// do not depend on whether a body was taken alone or with three others.
        #[test]
        fn lanes_repeat_glam_bit_for_bit(
            a in prop::array::uniform4(unit_quat()),
            b in prop::array::uniform4(unit_quat()),
            u in prop::array::uniform4(vec3()),
            v in prop::array::uniform4(vec3()),
        ) {
            let (qa, qb, vu, vv) = (Q::gather(a), Q::gather(b), V3::gather(u), V3::gather(v));
            let product = (qa * qb).lanes();
            let rotated = qa.rotate(vu).lanes();
            let normal = (qa.scale(Vec4::splat(1.7)) * qb).normalize().lanes();
            let renormal = (qa * qb).renormalize().lanes();
            let dot = vu.dot(vv).to_array();
            let cross = vu.cross(vv).lanes();
            let len = (vu - vv).dot(vu - vv).sqrt().to_array();
            let sum = (vu + vv).lanes();
            for i in 0..4 {
                prop_assert!(same(&coords(product[i]), &coords(a[i] * b[i])));
                prop_assert!(same(&vcoords(rotated[i]), &vcoords(rotate(a[i], u[i]))));
                prop_assert!(same(&coords(normal[i]), &coords((a[i] * 1.7 * b[i]).normalize())));
                prop_assert!(same(&coords(renormal[i]), &coords(renormalize(a[i] * b[i]))));
                prop_assert!(same(&[dot[i]], &[u[i].dot(v[i])]));
                prop_assert!(same(&vcoords(cross[i]), &vcoords(u[i].cross(v[i]))));
                prop_assert!(same(&[len[i]], &[(u[i] - v[i]).length()]));
                prop_assert!(same(&vcoords(sum[i]), &vcoords(u[i] + v[i])));
            }
        }
    }
}
