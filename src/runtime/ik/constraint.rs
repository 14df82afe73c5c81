//! Length constraints between particles and the nonlinear (Jakobsen) correction step with
//! its C1 soft-correction function (paper 4.3.1, "Particles and Constraints").

use glam::{Quat, Vec3A};

/// A 1-DOF length constraint between particles `a` and `b`.
///
/// Each end carries its own share of the correction (from the masses the constraint gives
/// its ends, or 0 for an end that must not move: the spine attachment, a pinned goal), so
/// one particle can look heavy through one constraint and light through another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Constraint {
    pub a: u16,
    pub b: u16,
    pub share_a: f32,
    pub share_b: f32,
    /// Lengths inside `[min_len, max_len]` need no correction.
    pub min_len: f32,
    pub max_len: f32,
    /// Width of the soft-correction zone in metres (see [`soft_correction`]).
    pub soft: f32,
}

/// How far to correct a length error: C1 continuous and piecewise. Inside `±zone` only the
/// fraction `|e| / 2 zone` of the error is corrected (a soft constraint: small violations
/// fade out over the passes instead of snapping), outside it the full error less a
/// constant `zone / 2`. Value and slope match at `|e| = zone`, and the slope is 0 at 0.
#[inline]
pub(super) fn soft_correction(error: f32, zone: f32) -> f32 {
    let m = error.abs();
    if zone <= 0.0 {
        error
    } else if m >= zone {
        (m - 0.5 * zone).copysign(error)
    } else {
        error * m / (2.0 * zone)
    }
}

/// One pass over `constraints` in order. Returns the largest length error met beyond what
/// the soft zone lets a constraint keep (half the zone), so a caller can stop early.
#[inline]
pub(super) fn relax(p: &mut [Vec3A], constraints: &[Constraint]) -> f32 {
    let mut worst = 0.0f32;
    for c in constraints {
        let (a, b) = (c.a as usize, c.b as usize);
        let d = p[b] - p[a];
        let len = d.length();
        let error = if len > c.max_len {
            len - c.max_len
        } else if len < c.min_len {
            len - c.min_len
        } else {
            continue;
        };
        // Coincident particles give no direction to push along; other constraints or the
        // reconstruction's projection separate them.
        if !(len > 1e-12) {
            continue;
        }
        worst = worst.max(error.abs() - 0.5 * c.soft);
        let corr = d * (soft_correction(error, c.soft) / len);
        p[a] += corr * c.share_a;
        p[b] -= corr * c.share_b;
    }
    worst
}

/// The minimal-twist rotation taking direction `from` to direction `to` (neither needs to
/// be unit length). A zero or non-finite input gives the identity; opposite directions
/// turn half way round a stable perpendicular axis.
#[inline]
pub(super) fn arc(from: Vec3A, to: Vec3A) -> Quat {
    let mut ll = (from.length_squared() * to.length_squared()).sqrt();
    let (mut from, mut to) = (from, to);
    if !ll.is_finite() {
        // Very long vectors (a goal at 1e6 m) overflow the product: normalize first.
        from = from.normalize_or_zero();
        to = to.normalize_or_zero();
        ll = 1.0;
    }
    if !(ll > 1e-30) {
        return Quat::IDENTITY;
    }
    let w = ll + from.dot(to);
    if w < 1e-6 * ll {
        let axis = from.normalize_or_zero().any_orthonormal_vector();
        return Quat::from_xyzw(axis.x, axis.y, axis.z, 0.0);
    }
    let c = from.cross(to);
    let q = Quat::from_xyzw(c.x, c.y, c.z, w);
    let len = q.length();
    if len.is_finite() && len > 0.0 {
        q / len
    } else {
        Quat::IDENTITY
    }
}

/// The rotation taking the frame spanned by rest directions to the frame spanned by posed
/// ones: the first direction maps exactly, the second into its plane. `None` when either
/// pair is (nearly) parallel and so fixes no frame.
pub(super) fn frame_of(first: Vec3A, second: Vec3A) -> Option<Quat> {
    let x = first.try_normalize()?;
    let z = x.cross(second).try_normalize()?;
    let y = z.cross(x);
    let m = glam::Mat3::from_cols(x.into(), y.into(), z.into());
    let q = Quat::from_mat3(&m);
    q.is_finite().then(|| q.normalize())
}

/// The twist part of `q` about unit `axis` (swing-twist decomposition).
pub(super) fn twist_about(q: Quat, axis: Vec3A) -> Quat {
    let v = Vec3A::new(q.x, q.y, q.z);
    let p = axis * v.dot(axis);
    let t = Quat::from_xyzw(p.x, p.y, p.z, q.w);
    let len = t.length();
    if len > 1e-12 && len.is_finite() {
        t / len
    } else {
        Quat::IDENTITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_correction_is_c1() {
        let z = 0.1;
        let h = 1e-4;
        for e in [-0.3, -0.1, -0.05, 0.0, 0.02, 0.1, 0.25] {
            let (lo, hi) = (soft_correction(e - h, z), soft_correction(e + h, z));
            let slope = (hi - lo) / (2.0 * h);
            let expected = (e.abs() / z).min(1.0);
            assert!((slope - expected).abs() < 2e-2, "slope at {e}: {slope}");
            assert!((hi - lo).abs() < 2.1 * h, "continuous at {e}");
        }
        assert_eq!(soft_correction(0.3, 0.0), 0.3);
    }

    #[test]
    fn relax_restores_a_length_and_respects_shares() {
        let mut p = vec![Vec3A::ZERO, Vec3A::new(2.0, 0.0, 0.0)];
        let c = Constraint {
            a: 0,
            b: 1,
            share_a: 0.0,
            share_b: 1.0,
            min_len: 1.0,
            max_len: 1.0,
            soft: 0.0,
        };
        relax(&mut p, &[c]);
        assert_eq!(p[0], Vec3A::ZERO);
        assert!((p[1].x - 1.0).abs() < 1e-6);
    }

    #[test]
    fn arc_handles_degenerate_directions() {
        assert_eq!(arc(Vec3A::ZERO, Vec3A::X), Quat::IDENTITY);
        let q = arc(Vec3A::X, -Vec3A::X);
        assert!((q * Vec3A::X).abs_diff_eq(-Vec3A::X, 1e-5));
        let q = arc(Vec3A::X * 1e20, Vec3A::Y * 1e20);
        assert!((q * Vec3A::X).abs_diff_eq(Vec3A::Y, 1e-5));
        let q = arc(Vec3A::new(1.0, 2.0, 3.0), Vec3A::new(-2.0, 0.5, 1.0));
        let to = (q * Vec3A::new(1.0, 2.0, 3.0)).normalize();
        assert!(to.abs_diff_eq(Vec3A::new(-2.0, 0.5, 1.0).normalize(), 1e-5));
    }
}
