//! Spine splines (paper 4.3.2): a quintic Hermite curve fitted by linear least squares to the
//! spine joints between two IK branch points, and the frame-transport record that rebuilds
//! the spine bodies inside it from the posed curve.

use super::constraint::arc;
use glam::{Quat, Vec3A};

/// Quintic Hermite basis at `t`, in the order `p0, v0, a0, a1, v1, p1`.
pub(super) fn basis(t: f32) -> [f32; 6] {
    let (t2, t3) = (t * t, t * t * t);
    let (t4, t5) = (t3 * t, t3 * t2);
    [
        1.0 - 10.0 * t3 + 15.0 * t4 - 6.0 * t5,
        t - 6.0 * t3 + 8.0 * t4 - 3.0 * t5,
        0.5 * t2 - 1.5 * t3 + 1.5 * t4 - 0.5 * t5,
        0.5 * t3 - t4 + 0.5 * t5,
        -4.0 * t3 + 7.0 * t4 - 3.0 * t5,
        10.0 * t3 - 15.0 * t4 + 6.0 * t5,
    ]
}

/// Derivative of [`basis`] with respect to `t`.
pub(super) fn basis_derivative(t: f32) -> [f32; 6] {
    let (t2, t3, t4) = (t * t, t * t * t, t * t * t * t);
    [
        -30.0 * t2 + 60.0 * t3 - 30.0 * t4,
        1.0 - 18.0 * t2 + 32.0 * t3 - 15.0 * t4,
        t - 4.5 * t2 + 6.0 * t3 - 2.5 * t4,
        1.5 * t2 - 4.0 * t3 + 2.5 * t4,
        -12.0 * t2 + 28.0 * t3 - 15.0 * t4,
        30.0 * t2 - 60.0 * t3 + 30.0 * t4,
    ]
}

/// A quintic Hermite segment's control values: end points, tangents and second derivatives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Hermite {
    pub p0: Vec3A,
    pub v0: Vec3A,
    pub a0: Vec3A,
    pub a1: Vec3A,
    pub v1: Vec3A,
    pub p1: Vec3A,
}

impl Hermite {
    pub fn eval(&self, w: &[f32; 6]) -> Vec3A {
        self.p0 * w[0]
            + self.v0 * w[1]
            + self.a0 * w[2]
            + self.a1 * w[3]
            + self.v1 * w[4]
            + self.p1 * w[5]
    }
}

/// Fits the tangents and second derivatives of a segment from `p0` to `p1` so that it runs
/// through `points` (at parameters `ts`) in the least-squares sense. A little Tikhonov
/// regularization toward the straight line makes the system well posed with fewer than
/// four interior points (it then picks the least-bent curve through them).
pub(super) fn fit(p0: Vec3A, p1: Vec3A, points: &[Vec3A], ts: &[f32]) -> Hermite {
    const TANGENT_REG: f64 = 1e-3;
    const CURVATURE_REG: f64 = 1e-5;
    let chord = p1 - p0;
    let mut ata = [[0.0f64; 4]; 4];
    let mut atb = [[0.0f64; 3]; 4];
    for (q, &t) in points.iter().zip(ts) {
        let w = basis(t);
        let row = [w[1], w[2], w[3], w[4]].map(f64::from);
        let r = *q - p0 * w[0] - p1 * w[5];
        for i in 0..4 {
            for j in 0..4 {
                ata[i][j] += row[i] * row[j];
            }
            for (k, rk) in r.to_array().iter().enumerate() {
                atb[i][k] += row[i] * f64::from(*rk);
            }
        }
    }
    let reg = [TANGENT_REG, CURVATURE_REG, CURVATURE_REG, TANGENT_REG];
    let prior = [chord, Vec3A::ZERO, Vec3A::ZERO, chord];
    for i in 0..4 {
        ata[i][i] += reg[i];
        for (k, pk) in prior[i].to_array().iter().enumerate() {
            atb[i][k] += reg[i] * f64::from(*pk);
        }
    }
    let x = solve4(ata, atb).unwrap_or([
        chord.to_array().map(f64::from),
        [0.0; 3],
        [0.0; 3],
        chord.to_array().map(f64::from),
    ]);
    let v = |r: [f64; 3]| Vec3A::new(r[0] as f32, r[1] as f32, r[2] as f32);
    Hermite {
        p0,
        v0: v(x[0]),
        a0: v(x[1]),
        a1: v(x[2]),
        v1: v(x[3]),
        p1,
    }
}

/// Gaussian elimination with partial pivoting on a 4×4 system with three right-hand sides.
// Row and column indices are the algorithm; iterators would hide it.
#[allow(clippy::needless_range_loop)]
fn solve4(mut a: [[f64; 4]; 4], mut b: [[f64; 3]; 4]) -> Option<[[f64; 3]; 4]> {
    for col in 0..4 {
        let pivot = (col..4).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-18 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..4 {
            let f = a[row][col] / a[col][col];
            for k in col..4 {
                a[row][k] -= f * a[col][k];
            }
            for k in 0..3 {
                b[row][k] -= f * b[col][k];
            }
        }
    }
    let mut x = [[0.0f64; 3]; 4];
    for row in (0..4).rev() {
        for k in 0..3 {
            let mut s = b[row][k];
            for j in row + 1..4 {
                s -= a[row][j] * x[j][k];
            }
            x[row][k] = s / a[row][row];
        }
    }
    x.iter().flatten().all(|v| v.is_finite()).then_some(x)
}

/// A spine body rebuilt from a posed spline: where along the curve it sits and how it sits
/// relative to the frame transported there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct InteriorBody {
    pub body: u32,
    pub t: f32,
    pub basis: [f32; 6],
    pub basis_derivative: [f32; 6],
    /// The body's pivot seen from the transported frame.
    pub pivot_in_frame: Vec3A,
    /// The body's rotation relative to the transported frame.
    pub rotation_in_frame: Quat,
}

/// The rest-pose record of one spine segment, in the local frames of its end bodies so the
/// posed curve turns with them.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SegmentRecord {
    pub v0_local: Vec3A,
    pub a0_local: Vec3A,
    pub a1_local: Vec3A,
    pub v1_local: Vec3A,
    pub rest_chord: f32,
    /// The curve's start tangent in its start body's frame, at unit length: the
    /// direction in the transported frame that stays along the curve's tangent.
    pub axis: Vec3A,
    pub interior: Vec<InteriorBody>,
    /// The end body's rest rotation relative to the frame transported to `t = 1`; the
    /// mismatch with the posed end body is the twist spread along the segment.
    pub end_in_frame: Quat,
}

/// Fits a segment to `pivots` (start, interior…, end) at rest and records the interior
/// bodies by frame transport. `start_rotation`/`end_rotation` are the rest rotations of
/// the bodies whose frames carry the curve's end derivatives.
pub(super) fn record_segment(
    pivots: &[Vec3A],
    bodies: &[u32],
    rotations: &[Quat],
    start_rotation: Quat,
    end_rotation: Quat,
) -> SegmentRecord {
    let (p0, p1) = (pivots[0], pivots[pivots.len() - 1]);
    let inner = &pivots[1..pivots.len() - 1];
    let mut cumulative = Vec::with_capacity(pivots.len());
    let mut total = 0.0;
    cumulative.push(0.0);
    for w in pivots.windows(2) {
        total += w[0].distance(w[1]);
        cumulative.push(total);
    }
    let ts: Vec<f32> = cumulative[1..cumulative.len() - 1]
        .iter()
        .map(|&c| if total > 0.0 { c / total } else { 0.5 })
        .collect();
    let h = fit(p0, p1, inner, &ts);
    let mut frame = start_rotation;
    let mut tangent = h.v0;
    let mut interior = Vec::with_capacity(inner.len());
    for ((&pivot, &t), (&body, &rotation)) in
        inner.iter().zip(&ts).zip(bodies.iter().zip(rotations))
    {
        let w = basis(t);
        let dw = basis_derivative(t);
        let next = h.eval(&dw);
        frame = (arc(tangent, next) * frame).normalize();
        tangent = next;
        let inv = frame.conjugate();
        interior.push(InteriorBody {
            body,
            t,
            basis: w,
            basis_derivative: dw,
            pivot_in_frame: inv * (pivot - h.eval(&w)),
            rotation_in_frame: (inv * rotation).normalize(),
        });
    }
    let end_frame = (arc(tangent, h.v1) * frame).normalize();
    let (inv0, inv1) = (start_rotation.conjugate(), end_rotation.conjugate());
    let v0_local = inv0 * h.v0;
    SegmentRecord {
        v0_local,
        a0_local: inv0 * h.a0,
        a1_local: inv1 * h.a1,
        v1_local: inv1 * h.v1,
        rest_chord: p0.distance(p1),
        axis: v0_local.normalize_or_zero(),
        interior,
        end_in_frame: (end_frame.conjugate() * end_rotation).normalize(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basis_interpolates_the_end_values() {
        let w0 = basis(0.0);
        let w1 = basis(1.0);
        assert_eq!(w0, [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        assert!((w1[5] - 1.0).abs() < 1e-6 && w1[..5].iter().all(|w| w.abs() < 1e-6));
        let d0 = basis_derivative(0.0);
        let d1 = basis_derivative(1.0);
        assert!((d0[1] - 1.0).abs() < 1e-6 && (d1[4] - 1.0).abs() < 1e-6);
        // Numerical derivative matches.
        let t = 0.37;
        let e = 1e-3;
        let (a, b, d) = (basis(t - e), basis(t + e), basis_derivative(t));
        for k in 0..6 {
            assert!(((b[k] - a[k]) / (2.0 * e) - d[k]).abs() < 1e-2, "{k}");
        }
    }

    #[test]
    fn fit_runs_through_an_s_curve() {
        let pts: Vec<Vec3A> = (0..=8)
            .map(|i| {
                let s = i as f32 / 8.0;
                Vec3A::new((s * 6.0).sin() * 0.2, 0.0, s * 2.0)
            })
            .collect();
        let ts: Vec<f32> = (1..8).map(|i| i as f32 / 8.0).collect();
        let h = fit(pts[0], pts[8], &pts[1..8], &ts);
        for (q, t) in pts[1..8].iter().zip(&ts) {
            assert!(h.eval(&basis(*t)).distance(*q) < 0.03, "{t}");
        }
    }
}
