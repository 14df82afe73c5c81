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
    /// Over-relaxation: a correction `c` becomes `c + sign(c) * min(|c|, cap)`, with
    /// `cap = (ω - 1) * rest length`. Bounded so a huge error (a goal a kilometre away)
    /// is never overshot past the other end, which would fold the limb back on itself.
    pub overshoot: f32,
    pub overshoot_cap: f32,
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

/// A free particle held by exactly two fixed-length constraints: a knee between a hip and a
/// pinned ankle, a spine particle between the root and a pinned head, an elbow between a
/// free shoulder and a pinned wrist. Both constraints are met at once, exactly, by the point
/// of their circle nearest the particle (a block Gauss-Seidel step): one step instead of the
/// many slow passes two nearly opposite constraints take in turn. A chain of hinges visited
/// leaves inward meets every one of its lengths in a single pass: each step keeps the
/// lengths the steps before it met, since it moves only its own particle and meets both of
/// its lengths.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Hinge {
    pub q: u16,
    pub a: u16,
    pub b: u16,
    pub len_a: f32,
    pub len_b: f32,
}

/// A free particle whose one other bone goes to a still particle, put back at that bone's
/// length along its current direction (an exact Jakobsen step taking the whole correction).
/// It anchors a chain of hinges for a first pass: the biped's straight elbow settled on its
/// sphere about the pinned wrist, then the shoulder's hinge between it and the clavicle's
/// joint. When the chain's still far end is out of the chain's reach from there, the
/// particle turns on its sphere just far enough toward it, so the hinges can meet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Settle {
    pub q: u16,
    pub anchor: u16,
    pub len: f32,
    /// The still particle ending the hinge chain, and the chain's length to it
    /// (infinite when the chain ends on another settled particle, which moves).
    pub far: u16,
    pub reach: f32,
}

/// One step of a pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Op {
    Length(Constraint),
    Hinge(Hinge),
    Settle(Settle),
}

/// Which free particles [`compile`] turns into hinges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Hinges<'a> {
    /// Only those whose two neighbours never move in the phase (the spine: a hinge there
    /// would make a soft spine exact).
    Anchored,
    /// Also chains of particles with exactly two fixed-length constraints each (limbs,
    /// whose bones are exact anyway) — those the slice marks as bent at rest. A joint
    /// nearly straight at rest has a circle whose side is decided by a sliver of offset,
    /// which can flip from one frame to the next; plain constraints move it smoothly.
    Chained(&'a [bool]),
    /// As `Chained`, and a chain may also end on a free particle with one other bone to a
    /// still particle, which a [`Settle`] step puts at its length first. The settled
    /// particle moves only as far as the chain's reach needs, so this only serves a first
    /// pass; when its hinges cannot all meet their lengths, plain passes go on from there.
    Settled {
        bent: &'a [bool],
        /// Which particles may be settled.
        settle: &'a [bool],
    },
}

/// What [`compile`] produced: the steps of a pass, and whether they are all hinges, in
/// which case a pass whose every hinge could meet both lengths leaves every constraint met
/// (see [`Hinge`]) and no second pass is needed to find that out.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Compiled {
    pub ops: Vec<Op>,
    pub all_hinges: bool,
}

/// Compiles constraints (in pass order) to steps, replacing constraint pairs that form a
/// [`Hinge`] with it. `still[i]` tells that particle `i` never moves in this phase.
pub(super) fn compile(
    constraints: &[Constraint],
    still: &[bool],
    hinges_of: Hinges<'_>,
) -> Compiled {
    let fixed_length = |c: &Constraint| c.min_len == c.max_len;
    let other = |c: &Constraint, q: u16| if c.a == q { c.b } else { c.a };
    let touching = |q: u16| -> Vec<&Constraint> {
        constraints
            .iter()
            .filter(|c| c.a == q || c.b == q)
            .collect()
    };
    let mut candidate: Vec<bool> = (0..still.len() as u16)
        .map(|q| {
            let touching = touching(q);
            let bones = touching.iter().filter(|c| fixed_length(c)).count();
            let anchored = touching.iter().all(|c| still[other(c, q) as usize]);
            !still[q as usize]
                && bones == 2
                && match hinges_of {
                    Hinges::Anchored => anchored,
                    Hinges::Chained(bent) | Hinges::Settled { bent, .. } => {
                        anchored || (touching.len() == 2 && bent.get(q as usize) == Some(&true))
                    }
                }
        })
        .collect();
    // The bone by which a free particle that is no hinge can be settled: its only other
    // constraint, a fixed length to a still particle.
    let settling = |s: u16, candidate: &[bool]| -> Option<Settle> {
        let allowed = match hinges_of {
            Hinges::Settled { settle, .. } => settle.get(s as usize) == Some(&true),
            _ => false,
        };
        if !allowed || still[s as usize] || candidate[s as usize] {
            return None;
        }
        let touching = touching(s);
        let &[x, y] = touching.as_slice() else {
            return None;
        };
        let (bone, onward) = if still[other(x, s) as usize] {
            (x, y)
        } else {
            (y, x)
        };
        (still[other(bone, s) as usize]
            && !still[other(onward, s) as usize]
            && fixed_length(bone)
            && fixed_length(onward))
        .then(|| Settle {
            q: s,
            anchor: other(bone, s),
            len: bone.max_len,
            far: s,
            reach: f32::INFINITY,
        })
    };
    // A chain of hinges must end on still (or settled) particles at both ends: a hinge
    // moves only its own particle, so a free neighbour that is not a hinge would never
    // feel the pull of the goal beyond it.
    loop {
        let dropped: Vec<usize> = (0..still.len())
            .filter(|&q| {
                candidate[q]
                    && touching(q as u16).iter().any(|c| {
                        let o = other(c, q as u16);
                        !still[o as usize]
                            && !candidate[o as usize]
                            && settling(o, &candidate).is_none()
                    })
            })
            .collect();
        if dropped.is_empty() {
            break;
        }
        for q in dropped {
            candidate[q] = false;
        }
    }
    let mut hinge_of = vec![usize::MAX; still.len()];
    let mut hinges: Vec<Hinge> = Vec::new();
    for q in 0..still.len() as u16 {
        if candidate[q as usize] {
            let touching = touching(q);
            let bones: Vec<&&Constraint> = touching.iter().filter(|c| fixed_length(c)).collect();
            hinge_of[q as usize] = hinges.len();
            hinges.push(Hinge {
                q,
                a: other(bones[0], q),
                b: other(bones[1], q),
                len_a: bones[0].max_len,
                len_b: bones[1].max_len,
            });
        }
    }
    // The settled particles the hinges lean on; their bone to the still particle becomes
    // the settle step, run before the first hinge that needs it.
    let mut settle_of: Vec<Option<Settle>> = vec![None; still.len()];
    for (first, h) in hinges.iter().enumerate() {
        for s in [h.a, h.b] {
            if settle_of[s as usize].is_some() {
                continue;
            }
            settle_of[s as usize] = settling(s, &candidate).map(|mut t| {
                // Walk the chain from `s` to its far end, adding up its bones.
                let (mut prev, mut at, mut reach) = (s, first, 0.0);
                loop {
                    let h = hinges[at];
                    let (near, next, far) = if h.a == prev {
                        (h.len_a, h.b, h.len_b)
                    } else {
                        (h.len_b, h.a, h.len_a)
                    };
                    reach += near;
                    match hinge_of[next as usize] {
                        usize::MAX => {
                            if still[next as usize] {
                                (t.far, t.reach) = (next, reach + far);
                            }
                            break t;
                        }
                        n => (prev, at) = (h.q, n),
                    }
                }
            });
        }
    }
    let mut emitted = vec![false; hinges.len()];
    let mut settled = vec![false; still.len()];
    let mut ops = Vec::with_capacity(constraints.len());
    for c in constraints {
        let settles = |s: u16| settle_of[s as usize].is_some_and(|t| t.anchor == other(c, s));
        if settles(c.a) || settles(c.b) {
            continue;
        }
        // Leafward end first: constraints come leaves inward, so its hinge is the one the
        // pass reaches first.
        let ends = [hinge_of[c.b as usize], hinge_of[c.a as usize]];
        if !fixed_length(c) || ends.iter().all(|&h| h == usize::MAX) {
            ops.push(Op::Length(*c));
            continue;
        }
        for h in ends {
            if h != usize::MAX && !emitted[h] {
                emitted[h] = true;
                for s in [hinges[h].a, hinges[h].b] {
                    if let Some(t) = settle_of[s as usize].filter(|_| !settled[s as usize]) {
                        settled[s as usize] = true;
                        ops.push(Op::Settle(t));
                    }
                }
                ops.push(Op::Hinge(hinges[h]));
            }
        }
    }
    let all_hinges = !ops.is_empty()
        && ops
            .iter()
            .all(|op| matches!(op, Op::Hinge(_) | Op::Settle(_)));
    Compiled { ops, all_hinges }
}

/// What one pass found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Pass {
    /// The largest length error met beyond what the soft zone lets a constraint keep (half
    /// the zone), or the largest hinge step.
    pub worst: f32,
    /// Every hinge could meet both of its lengths.
    pub hinges_met: bool,
}

/// One pass over `ops` in order, so a caller can stop early. Always inlined: each phase's
/// iteration loop is this, and a call per pass costs the solve a tenth of its time.
#[inline(always)]
pub(super) fn relax(p: &mut [Vec3A], ops: &[Op]) -> Pass {
    let mut worst = 0.0f32;
    let mut hinges_met = true;
    for op in ops {
        match op {
            Op::Length(c) => worst = worst.max(correct(p, c)),
            Op::Hinge(h) => {
                let q = h.q as usize;
                let (at, met) =
                    hinge_point(p[h.a as usize], p[h.b as usize], h.len_a, h.len_b, p[q]);
                worst = worst.max(at.distance(p[q]));
                hinges_met &= met;
                p[q] = at;
            }
            Op::Settle(s) => {
                let (q, anchor, far) = (s.q as usize, p[s.anchor as usize], p[s.far as usize]);
                let mut at = match (p[q] - anchor).try_normalize() {
                    Some(dir) => anchor + dir * s.len,
                    None => p[q],
                };
                if at.distance_squared(far) > s.reach * s.reach {
                    at = hinge_point(anchor, far, s.len, s.reach, at).0;
                }
                worst = worst.max(at.distance(p[q]));
                p[q] = at;
            }
        }
    }
    Pass { worst, hinges_met }
}

#[inline]
fn correct(p: &mut [Vec3A], c: &Constraint) -> f32 {
    let (a, b) = (c.a as usize, c.b as usize);
    let d = p[b] - p[a];
    let len = d.length();
    let error = if len > c.max_len {
        len - c.max_len
    } else if len < c.min_len {
        len - c.min_len
    } else {
        return 0.0;
    };
    // Coincident particles give no direction to push along; other constraints or the
    // reconstruction's projection separate them.
    if len.is_nan() || len <= 1e-12 {
        return 0.0;
    }
    let fix = soft_correction(error, c.soft);
    let fix = fix + (fix.abs() * c.overshoot).min(c.overshoot_cap).copysign(fix);
    let corr = d * (fix / len);
    p[a] += corr * c.share_a;
    p[b] -= corr * c.share_b;
    error.abs() - 0.5 * c.soft
}

/// The point at `len_a` from `a` and `len_b` from `b` nearest `q`, and whether it meets
/// both lengths. Out of reach, the point on the segment that stretches both lengths by the
/// same factor; too near, the point on their line that fits best.
#[inline]
fn hinge_point(a: Vec3A, b: Vec3A, len_a: f32, len_b: f32, q: Vec3A) -> (Vec3A, bool) {
    let d = b - a;
    let dist = d.length();
    if !dist.is_finite() || dist <= 1e-12 {
        return (a + (q - a).normalize_or_zero() * len_a, len_a == len_b);
    }
    let u = d / dist;
    let total = len_a + len_b;
    if dist >= total {
        let at = if total > 0.0 {
            a + d * (len_a / total)
        } else {
            a
        };
        return (at, dist == total);
    }
    if dist <= (len_a - len_b).abs() {
        let at = if len_a >= len_b {
            a + u * len_a
        } else {
            a - u * len_a
        };
        return (at, dist == (len_a - len_b).abs());
    }
    let along = (dist * dist + len_a * len_a - len_b * len_b) / (2.0 * dist);
    let radius = (len_a * len_a - along * along).max(0.0).sqrt();
    let centre = a + u * along;
    let off = q - centre;
    let side = (off - u * off.dot(u))
        .try_normalize()
        .unwrap_or_else(|| u.any_orthonormal_vector());
    (centre + side * radius, true)
}

/// The minimal-twist rotation taking direction `from` to direction `to` (neither needs to
/// be unit length). A zero or non-finite input gives the identity; opposite directions
/// turn half way round a stable perpendicular axis.
#[inline]
pub(super) fn arc(from: Vec3A, to: Vec3A) -> Quat {
    let mut ll = (from.length_squared() * to.length_squared()).sqrt();
    let (mut from, mut to) = (from, to);
    if !ll.is_finite() {
        // Very long vectors overflow the product: bring them to unit length first.
        from = unit(from);
        to = unit(to);
        ll = 1.0;
    }
    if ll.is_nan() || ll <= 1e-30 {
        return Quat::IDENTITY;
    }
    let w = ll + from.dot(to);
    if w < 1e-6 * ll {
        let axis = unit(from).any_orthonormal_vector();
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

/// [`arc`] between unit directions (or zero ones, which give the identity): one square root
/// fewer. A limb is rebuilt down chains of bones, each turned from its parent's result, so
/// every square root in the turn is one the next bone waits on.
#[inline]
pub(super) fn arc_unit(from: Vec3A, to: Vec3A) -> Quat {
    let w = 1.0 + from.dot(to);
    if w.is_nan() {
        return Quat::IDENTITY;
    }
    if w < 1e-6 {
        let axis = from.any_orthonormal_vector();
        return Quat::from_xyzw(axis.x, axis.y, axis.z, 0.0);
    }
    let c = from.cross(to);
    Quat::from_xyzw(c.x, c.y, c.z, w).normalize()
}

/// `v` at unit length however long it is (dividing by its largest component first keeps
/// the squared length finite); zero for a zero or non-finite vector.
fn unit(v: Vec3A) -> Vec3A {
    let m = v.abs().max_element();
    if m > 0.0 && m.is_finite() {
        (v / m).normalize_or_zero()
    } else {
        Vec3A::ZERO
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
            overshoot: 0.0,
            overshoot_cap: 0.0,
        };
        relax(&mut p, &[Op::Length(c)]);
        assert_eq!(p[0], Vec3A::ZERO);
        assert!((p[1].x - 1.0).abs() < 1e-6);
    }

    #[test]
    fn a_hinge_meets_both_lengths_on_the_side_of_the_particle() {
        let (a, b) = (Vec3A::ZERO, Vec3A::new(0.0, -1.5, 0.0));
        let q = Vec3A::new(0.0, -0.7, 0.3);
        let (k, met) = hinge_point(a, b, 1.0, 1.0, q);
        assert!((k.distance(a) - 1.0).abs() < 1e-5 && (k.distance(b) - 1.0).abs() < 1e-5);
        assert!(k.z > 0.0 && met);
        let (far, met) = hinge_point(a, Vec3A::new(0.0, -4.0, 0.0), 1.0, 1.0, q);
        assert!(far.distance(Vec3A::new(0.0, -2.0, 0.0)) < 1e-5 && !met);
        assert!(hinge_point(a, a, 1.0, 1.0, a).0.is_finite());
    }

    fn bone(a: u16, b: u16, len: f32) -> Constraint {
        Constraint {
            a,
            b,
            share_a: 0.75,
            share_b: 0.25,
            min_len: len,
            max_len: len,
            soft: 0.02 * len,
            overshoot: 0.5,
            overshoot_cap: 0.25 * len,
        }
    }

    /// An arm as the limb phase sees it: the clavicle's joint 0 (still), a shoulder 1 in
    /// line with it (no hinge of its own), an elbow 2 bent at rest and a pinned wrist 3.
    #[test]
    fn a_settled_shoulder_anchors_the_elbow_hinge_for_one_exact_pass() {
        let constraints = [bone(2, 3, 1.0), bone(1, 2, 1.0), bone(0, 1, 0.5)];
        let still = [true, false, false, true];
        let bent = [false, false, true, false];
        let plain = compile(&constraints, &still, Hinges::Chained(&bent));
        assert!(plain.ops.iter().all(|op| matches!(op, Op::Length(_))));
        let settle = [true; 4];
        let first = compile(
            &constraints,
            &still,
            Hinges::Settled {
                bent: &bent,
                settle: &settle,
            },
        );
        let none = compile(
            &constraints,
            &still,
            Hinges::Settled {
                bent: &bent,
                settle: &[false; 4],
            },
        );
        assert_eq!(none, plain);
        assert!(first.all_hinges);
        assert!(matches!(first.ops[..], [Op::Settle(s), Op::Hinge(h)] if s.q == 1 && h.q == 2));
        // Within reach of the settled shoulder, and far enough that the shoulder must turn
        // toward the wrist (2.3 from the clavicle's joint, 2.5 at most).
        for wrist in [Vec3A::new(0.3, -1.2, 0.6), Vec3A::new(0.0, 0.2, 2.3)] {
            let mut p = vec![
                Vec3A::ZERO,
                Vec3A::new(0.55, 0.0, 0.0),
                Vec3A::new(0.6, -0.8, 0.3),
                wrist,
            ];
            let pass = relax(&mut p, &first.ops);
            assert!(pass.hinges_met, "wrist {wrist}");
            for (a, b, len) in [(0, 1, 0.5), (1, 2, 1.0), (2, 3, 1.0)] {
                let d = p[a].distance(p[b]);
                assert!(
                    (d - len).abs() < 1e-5,
                    "bone {a}-{b}: {d} for wrist {wrist}"
                );
            }
            assert_eq!(p[3], wrist);
        }
    }

    /// The unit-direction arc turns as the general one does, and gives the identity for a
    /// zero or non-finite direction and a half turn for opposite ones.
    #[test]
    fn arc_unit_matches_arc() {
        let dirs = [
            Vec3A::new(1.0, 2.0, 3.0),
            Vec3A::new(-2.0, 0.5, 1.0),
            Vec3A::new(0.0, -1.0, 0.0),
            Vec3A::new(1e-3, 1.0, 0.0),
            Vec3A::new(-1.0, -2.0, -3.0),
        ];
        for a in dirs {
            for b in dirs {
                let (u, v) = (a.normalize(), b.normalize());
                let (q, r) = (arc_unit(u, v), arc(a, b));
                assert!((q.length() - 1.0).abs() < 1e-5, "{a} {b}");
                // Nearly opposite directions turn half way round the same axis in both.
                assert!(q.abs_diff_eq(r, 1e-5), "{a} {b}: {q} vs {r}");
                if u.dot(v) > -0.99 {
                    assert!((q * u).abs_diff_eq(v, 1e-5), "{a} {b}: {}", q * u);
                }
            }
        }
        assert_eq!(arc_unit(Vec3A::ZERO, Vec3A::X), Quat::IDENTITY);
        assert_eq!(arc_unit(Vec3A::Y, Vec3A::ZERO), Quat::IDENTITY);
        assert_eq!(arc_unit(Vec3A::Y, Vec3A::NAN), Quat::IDENTITY);
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
