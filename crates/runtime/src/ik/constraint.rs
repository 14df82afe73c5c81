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

/// A free particle held by three fixed-length bones whose far ends never move in the phase:
/// the knee of a forked leg between its hip and its two planted feet. The two feet's bones
/// keep the knee on a circle about the line through the feet, and the hip's bone picks the
/// point: one exact step where plain passes crept along the circle for 64 passes and more
/// (the knee is pinned from three sides, nearly in one plane), stopping short and letting a
/// planted foot slip by their cap.
///
/// Of the circle's two points at the hip bone's length, mirror images across the plane of
/// the hip and the feet, `side` picks one for good, so a knee never flips from one frame to
/// the next. Near full extension the two points close in on the plane as the square root
/// of the hip's dip: the hip's bone first gives up to a third of `soft` (see [`ease_in`]), so
/// the knee leaves the plane in proportion to the dip instead. A knee a hair off the plane
/// at rest (a sample forked leg's, by 0.4 mm) would sit where that easing puts it, not at
/// rest: `bias` turns the knee about the feet's line by the difference, found from the rest
/// pose, so rest goals still give the rest pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Tripod {
    pub q: u16,
    /// The joint on the hip's side, then the two feet.
    pub a: u16,
    pub b: u16,
    pub c: u16,
    pub len_a: f32,
    pub len_b: f32,
    pub len_c: f32,
    /// The soft zone of the bone to `a`.
    pub soft: f32,
    /// +1 or -1: the knee leaves the plane along `side * (c - b) x (a - circle centre)`.
    pub side: f32,
    /// Cosine and sine of the turn added to the knee's angle about the feet's line.
    pub bias: (f32, f32),
}

/// One step of a pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Op {
    Length(Constraint),
    Hinge(Hinge),
    Settle(Settle),
    Tripod(Tripod),
}

/// Which free particles [`compile`] turns into hinges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Hinges<'a> {
    /// Only those whose two neighbours never move in the phase (the spine: a hinge there
    /// would make a soft spine exact).
    Anchored,
    /// Also chains of particles with exactly two fixed-length constraints each (limbs,
    /// whose bones are exact anyway) — those the slice marks as bent at rest — and
    /// [`Tripod`]s (sides and biases left for the caller to choose from the rest pose). A joint
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
    // A free particle whose three bones all end on still particles, one rootward (the
    // particle is its `b`) and two leafward: limbs only, as for chained hinges.
    let tripod_of: Vec<Option<Tripod>> = (0..still.len() as u16)
        .map(|q| {
            if still[q as usize] || matches!(hinges_of, Hinges::Anchored) {
                return None;
            }
            let touching = touching(q);
            let &[x, y, z] = touching.as_slice() else {
                return None;
            };
            let all_bones = touching
                .iter()
                .all(|c| fixed_length(c) && still[other(c, q) as usize]);
            let mut up = touching.iter().filter(|c| c.b == q);
            let (Some(up), None) = (up.next(), up.next()) else {
                return None;
            };
            let mut down = [x, y, z].into_iter().filter(|c| c.a == q);
            let (Some(b), Some(c)) = (down.next(), down.next()) else {
                return None;
            };
            all_bones.then_some(Tripod {
                q,
                a: up.a,
                b: b.b,
                c: c.b,
                len_a: up.max_len,
                len_b: b.max_len,
                len_c: c.max_len,
                soft: up.soft,
                side: 1.0,
                bias: (1.0, 0.0),
            })
        })
        .collect();
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
    let mut tripod_emitted = vec![false; still.len()];
    let mut ops = Vec::with_capacity(constraints.len());
    for c in constraints {
        if let Some(t) = [c.b, c.a].into_iter().find_map(|q| tripod_of[q as usize]) {
            if !std::mem::replace(&mut tripod_emitted[t.q as usize], true) {
                ops.push(Op::Tripod(t));
            }
            continue;
        }
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
            .all(|op| matches!(op, Op::Hinge(_) | Op::Settle(_) | Op::Tripod(_)));
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
    // The largest move, squared: one square root a pass rather than one a point (the
    // root of the largest square is the largest root, to the bit).
    let mut moved_sq = 0.0f32;
    let mut hinges_met = true;
    for op in ops {
        match op {
            Op::Length(c) => worst = worst.max(correct(p, c)),
            Op::Hinge(h) => {
                let q = h.q as usize;
                let (at, met) =
                    hinge_point(p[h.a as usize], p[h.b as usize], h.len_a, h.len_b, p[q]);
                moved_sq = moved_sq.max(at.distance_squared(p[q]));
                hinges_met &= met;
                p[q] = at;
            }
            Op::Tripod(t) => {
                let q = t.q as usize;
                let (at, met) =
                    tripod_point([p[t.a as usize], p[t.b as usize], p[t.c as usize]], t, p[q]);
                moved_sq = moved_sq.max(at.distance_squared(p[q]));
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
                moved_sq = moved_sq.max(at.distance_squared(p[q]));
                p[q] = at;
            }
        }
    }
    Pass {
        worst: worst.max(moved_sq.sqrt()),
        hinges_met,
    }
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
///
/// A point already at both lengths, to a part in a million (rounding), stays where it is:
/// near a straight joint the circle shrinks to a point whose radius is the square root of
/// how far short of straight the ends are, so a rounding of where they are (a goal a unit
/// in the last place off its rest) moved the point by the square root of that rounding. A
/// biped's chest, nearly in line between its pinned waist and head, moved 0.15 mm at rest
/// goals and swung a free hand 0.5 mm: rest goals must give the rest pose.
#[inline]
pub(super) fn hinge_point(a: Vec3A, b: Vec3A, len_a: f32, len_b: f32, q: Vec3A) -> (Vec3A, bool) {
    let (sq_a, sq_b) = (len_a * len_a, len_b * len_b);
    if ((q - a).length_squared() - sq_a).abs() <= 2e-6 * sq_a
        && ((q - b).length_squared() - sq_b).abs() <= 2e-6 * sq_b
    {
        return (q, true);
    }
    let Some(Circle {
        centre,
        radius_sq,
        axis: d,
        inv_axis_sq: inv_dd,
    }) = circle(a, b, len_a, len_b)
    else {
        return hinge_point_off_circle(a, b, len_a, len_b, q);
    };
    let off = q - centre;
    let across = off - d * (off.dot(d) * inv_dd);
    let across_sq = across.length_squared();
    let side = if across_sq > 1e-30 && across_sq.is_finite() {
        across * (radius_sq / across_sq).sqrt()
    } else {
        (d * inv_dd.sqrt()).any_orthonormal_vector() * radius_sq.sqrt()
    };
    (centre + side, true)
}

/// [`hinge_point`] where no circle meets both lengths (see [`circle`]).
#[cold]
fn hinge_point_off_circle(a: Vec3A, b: Vec3A, len_a: f32, len_b: f32, q: Vec3A) -> (Vec3A, bool) {
    let d = b - a;
    let dist = d.length();
    if !dist.is_finite() || dist <= 1e-12 {
        return (a + (q - a).normalize_or_zero() * len_a, len_a == len_b);
    }
    let total = len_a + len_b;
    if dist >= total {
        let at = if total > 0.0 {
            a + d * (len_a / total)
        } else {
            a
        };
        return (at, dist == total);
    }
    let u = d / dist;
    let at = if len_a >= len_b {
        a + u * len_a
    } else {
        a - u * len_a
    };
    (at, dist == (len_a - len_b).abs())
}

/// The circle of points at `len_a` from `a` and `len_b` from `b`.
struct Circle {
    centre: Vec3A,
    radius_sq: f32,
    /// `b - a`, and one over its squared length.
    axis: Vec3A,
    inv_axis_sq: f32,
}

/// The circle [`Circle`] describes, when the two ends are apart and within reach of each
/// other. Squared distances only: the centre and radius need no square root of the
/// distance between the ends, and a hinge's step is on every later hinge's chain of waits.
#[inline]
fn circle(a: Vec3A, b: Vec3A, len_a: f32, len_b: f32) -> Option<Circle> {
    let d = b - a;
    let dd = d.length_squared();
    let (total, apart) = (len_a + len_b, (len_a - len_b).abs());
    if !dd.is_finite() || dd <= 1e-24 || dd >= total * total || dd <= apart * apart {
        return None;
    }
    let inv_dd = 1.0 / dd;
    let k = 0.5 * (dd + len_a * len_a - len_b * len_b) * inv_dd;
    Some(Circle {
        centre: a + d * k,
        radius_sq: (len_a * len_a - k * k * dd).max(0.0),
        axis: d,
        inv_axis_sq: inv_dd,
    })
}

/// The [`Tripod`] step: the point at `len_b` from `b` and `len_c` from `c` (the feet: a
/// circle about their line), and as near `len_a` from `a` (the hip) as [`ease_in`] lets it,
/// on `side` of their plane and turned on by `bias`; and whether every length could be met.
/// Feet that no point meets give the point on their line that fits best, and a hip on
/// their line leaves the knee's angle about it to `q`, as a hinge does.
#[inline]
pub(super) fn tripod_point(at: [Vec3A; 3], t: &Tripod, q: Vec3A) -> (Vec3A, bool) {
    let [hip, b, c] = at;
    let Some(feet) = circle(b, c, t.len_b, t.len_c) else {
        let dd = (c - b).length_squared();
        return if !dd.is_finite() || dd <= 1e-24 {
            hinge_point(hip, b, t.len_a, t.len_b, q)
        } else {
            (hinge_point(b, c, t.len_b, t.len_c, q).0, false)
        };
    };
    let (centre, radius) = (feet.centre, feet.radius_sq.sqrt());
    let u = feet.axis * feet.inv_axis_sq.sqrt();
    let w = hip - centre;
    let axial = w.dot(u);
    let radial = w - u * axial;
    let rho = radial.length();
    // (A NaN hip fails the comparison too.)
    if rho.partial_cmp(&(1e-6 * radius)) != Some(std::cmp::Ordering::Greater) {
        return hinge_point(b, c, t.len_b, t.len_c, q);
    }
    let toward = radial / rho;
    // From the hip to the circle's point at angle `a` from `toward`, squared: `top² + span
    // (1 - cos a)`. Worked out from `1 - cos a` (no cancellation near the plane, where an
    // angle from its cosine would move the knee in steps of a tenth of a millimetre).
    let span = 2.0 * rho * radius;
    let top = (axial * axial + (rho - radius) * (rho - radius)).sqrt();
    let dip = t.len_a - top;
    // The hip beyond the knee's reach on the circle (`dip < 0`) stretches its bone, met to
    // rounding at full extension.
    let (cos, sin, met) = if dip <= 0.0 {
        (1.0, 0.0, dip >= -1e-6 * t.len_a)
    } else {
        let eased = ease_in(dip, t.soft);
        let versine = eased * (eased + 2.0 * top) / span;
        let h = versine.min(2.0);
        (1.0 - h, (h * (2.0 - h)).sqrt(), versine <= 2.0)
    };
    let (bc, bs) = t.bias;
    let (cos, sin) = (cos * bc - sin * bs, sin * bc + cos * bs);
    let across = u.cross(toward) * t.side;
    (centre + (toward * cos + across * sin) * radius, met)
}

/// How much of a shortening `dip` a bone with soft zone `zone` takes up: C1, none of it at
/// first (slope 0), all of it from `2 zone` on, never less than `dip - 0.3 zone`: the
/// cubic `dip² / zone - dip³ / 4 zone²` below `2 zone`.
#[inline]
pub(super) fn ease_in(dip: f32, zone: f32) -> f32 {
    if zone <= 0.0 || dip >= 2.0 * zone {
        dip
    } else {
        let x = dip / zone;
        dip * x * (1.0 - 0.25 * x)
    }
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

/// [`arc`]'s usual case left at the length it comes out at, for a turn that goes into a
/// product normalized anyway (its length would only divide out again); `None` where `arc`
/// takes another case, or where the length squared could overflow.
#[inline]
pub(super) fn arc_unscaled(from: Vec3A, to: Vec3A) -> Option<Quat> {
    let ll = (from.length_squared() * to.length_squared()).sqrt();
    let w = ll + from.dot(to);
    (ll > 1e-30 && ll < 1e18 && w >= ll * 1e-6).then(|| {
        let c = from.cross(to);
        Quat::from_xyzw(c.x, c.y, c.z, w)
    })
}

/// The turn [`arc`] makes, kept as what it does to a vector: `v + k1 b × v + k2 b × (b × v)`
/// (Rodrigues' formula for the least turn, `b` the cross product of the directions). A
/// turn applied to points and never needed as a quaternion skips the square root and
/// division that bring the quaternion to unit length: the limb aim turns every particle
/// of a limb by it, after a chain of square roots the whole limb waits on.
#[derive(Clone, Copy, Debug)]
pub(super) struct ArcTurn {
    b: Vec3A,
    k1: f32,
    k2: f32,
}

impl ArcTurn {
    /// The turn from `from` to `to`, whose lengths the caller knows already.
    #[inline]
    pub fn between(from: Vec3A, to: Vec3A, from_len: f32, to_len: f32) -> ArcTurn {
        let ll = from_len * to_len;
        let w = ll + from.dot(to);
        // Past about 170 degrees `w` is a difference of nearly equal terms, too rough to
        // scale by, and `ll w` must neither overflow nor underflow; the unit quaternion of
        // `arc` (whose `v + 2w b × v + 2 b × (b × v)` is the same formula) handles those
        // and every degenerate case.
        if ll > 1e-15 && ll < 1e18 && w >= 1e-2 * ll {
            // Two divisions side by side rather than one after the other.
            ArcTurn {
                b: from.cross(to),
                k1: 1.0 / ll,
                k2: 1.0 / (ll * w),
            }
        } else {
            let q = arc(from, to);
            ArcTurn {
                b: Vec3A::new(q.x, q.y, q.z),
                k1: 2.0 * q.w,
                k2: 2.0,
            }
        }
    }

    #[inline(always)]
    pub fn apply(&self, v: Vec3A) -> Vec3A {
        let t = self.b.cross(v);
        v + t * self.k1 + self.b.cross(t) * self.k2
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
    use crate::math::rotate;

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

    /// A forked leg: feet 0.4 apart on the z axis, shins of 0.5 meeting above them at
    /// rest, a thigh of 0.5 up to the hip.
    fn forked_leg(dip: f32) -> ([Vec3A; 3], [f32; 3]) {
        let knee_height = (0.25f32 - 0.04).sqrt();
        let hip = Vec3A::new(0.0, knee_height + 0.5 - dip, 0.0);
        let (b, c) = (Vec3A::new(0.0, 0.0, 0.2), Vec3A::new(0.0, 0.0, -0.2));
        ([hip, b, c], [0.5, 0.5, 0.5])
    }

    fn tripod_point(
        at: [Vec3A; 3],
        len: [f32; 3],
        soft: f32,
        side: f32,
        q: Vec3A,
    ) -> (Vec3A, bool) {
        let t = Tripod {
            q: 1,
            a: 0,
            b: 2,
            c: 3,
            len_a: len[0],
            len_b: len[1],
            len_c: len[2],
            soft,
            side,
            bias: (1.0, 0.0),
        };
        super::tripod_point(at, &t, q)
    }

    #[test]
    fn a_tripod_meets_all_three_bones_on_its_side() {
        let zone = 0.01;
        for dip in [0.0, 0.02, 0.05, 0.2, 0.6] {
            for side in [1.0, -1.0] {
                let (at, len) = forked_leg(dip);
                let (k, met) = tripod_point(at, len, zone, side, Vec3A::new(0.0, 0.3, 0.05));
                assert!(met, "dip {dip}");
                for i in 1..3 {
                    assert!(
                        (k.distance(at[i]) - len[i]).abs() < 1e-5,
                        "dip {dip}, foot {i}"
                    );
                }
                assert!(
                    (k.distance(at[0]) - len[0]).abs() < 1e-5,
                    "dip {dip}: the hip's bone"
                );
                // (c - b) x (hip - centre) is -z x y = +x: `side` picks the sign of x.
                if dip > 0.0 {
                    assert!(k.x * side > 0.0, "dip {dip}, side {side}: {k}");
                } else {
                    assert!(k.x.abs() < 1e-6, "at rest the knee stays in the plane: {k}");
                }
            }
        }
        // Whatever the particle's own place, the same still particles give the same knee.
        let (at, len) = forked_leg(0.1);
        let k = tripod_point(at, len, zone, 1.0, Vec3A::new(-5.0, 2.0, 1.0)).0;
        assert_eq!(k, tripod_point(at, len, zone, 1.0, Vec3A::ZERO).0);
    }

    #[test]
    fn a_tripod_out_of_reach_meets_the_feet_and_says_so() {
        let (mut at, len) = forked_leg(0.0);
        // The hip lifted: the knee stays at the top of its circle, the thigh stretched.
        at[0].y += 0.1;
        let (k, met) = tripod_point(at, len, 0.01, 1.0, Vec3A::ZERO);
        assert!(!met);
        assert!((k.distance(at[1]) - 0.5).abs() < 1e-5 && k.x.abs() < 1e-6);
        // Feet too far apart for the shins, the hip on the feet's line, every point the same:
        // finite, and no claim to have met the lengths that cannot be.
        let (_, met) = tripod_point(
            [at[0], Vec3A::new(0.0, 0.0, 1.0), Vec3A::new(0.0, 0.0, -1.0)],
            len,
            0.01,
            1.0,
            Vec3A::ZERO,
        );
        assert!(!met);
        for at in [[Vec3A::ZERO; 3], [Vec3A::new(0.0, 0.0, 0.1), at[1], at[2]]] {
            assert!(tripod_point(at, len, 0.01, 1.0, Vec3A::ZERO).0.is_finite());
        }
        let nan = [Vec3A::NAN, at[1], at[2]];
        let _ = tripod_point(nan, len, 0.01, 1.0, Vec3A::ZERO);
    }

    /// Lowering the hip from full extension swings the knee off the feet's plane. Exact,
    /// it would leave as the square root of the dip (the first tenth of a millimetre of
    /// dip swinging it a centimetre); eased in, it leaves in proportion.
    #[test]
    fn a_tripod_knee_leaves_its_plane_smoothly_as_the_hip_dips() {
        let largest_ratio = |zone: f32| {
            let step = 1e-5f32;
            let mut prev = tripod_point(forked_leg(0.0).0, [0.5; 3], zone, 1.0, Vec3A::ZERO).0;
            let mut largest = 0.0f32;
            for i in 1..=6000 {
                let (at, len) = forked_leg(i as f32 * step);
                let k = tripod_point(at, len, zone, 1.0, prev).0;
                largest = largest.max(k.distance(prev) / step);
                prev = k;
            }
            largest
        };
        let eased = largest_ratio(0.01);
        let exact = largest_ratio(0.0);
        assert!(
            eased < 8.0,
            "the knee moves {eased} times as far as the hip"
        );
        assert!(exact > 30.0, "without easing: {exact}");
    }

    #[test]
    fn ease_in_is_c1_and_takes_up_all_but_a_third_of_the_zone() {
        let z = 0.1;
        let h = 1e-4;
        let mut prev = 0.0;
        for i in 0..=300 {
            let d = i as f32 * 1e-3;
            let e = ease_in(d, z);
            assert!(
                e <= d + 1e-7 && e >= d - 0.3 * z && e >= prev,
                "at {d}: {e}"
            );
            prev = e;
        }
        for (d, slope) in [(h, 0.0), (2.0 * z, 1.0), (0.3, 1.0)] {
            let s = (ease_in(d + h, z) - ease_in(d - h, z)) / (2.0 * h);
            assert!((s - slope).abs() < 1e-2, "slope at {d}: {s}");
        }
        assert_eq!(ease_in(0.05, 0.0), 0.05);
    }

    /// A knee between a hip and two planted feet, all still, becomes one tripod step
    /// (none on the spine), and the pass that runs it meets every bone.
    #[test]
    fn a_knee_held_from_three_still_joints_compiles_to_a_tripod() {
        let constraints = [bone(1, 2, 0.5), bone(1, 3, 0.5), bone(0, 1, 0.5)];
        let still = [true, false, true, true];
        let bent = [false; 4];
        let compiled = compile(&constraints, &still, Hinges::Chained(&bent));
        assert!(compiled.all_hinges);
        let [Op::Tripod(t)] = compiled.ops[..] else {
            panic!("{:?}", compiled.ops);
        };
        assert_eq!((t.q, t.a, [t.b, t.c]), (1, 0, [2, 3]));
        let spine = compile(&constraints, &still, Hinges::Anchored);
        assert!(spine.ops.iter().all(|op| matches!(op, Op::Length(_))));
        // A free foot leaves the knee to the plain passes.
        let free_foot = compile(
            &constraints,
            &[true, false, true, false],
            Hinges::Chained(&bent),
        );
        assert!(!free_foot.ops.iter().any(|op| matches!(op, Op::Tripod(_))));
        let (at, _) = forked_leg(0.1);
        let mut p = vec![at[0], Vec3A::new(0.0, 0.4, 0.0), at[1], at[2]];
        let pass = relax(&mut p, &compiled.ops);
        assert!(pass.hinges_met);
        for (a, b) in [(0, 1), (1, 2), (1, 3)] {
            assert!((p[a].distance(p[b]) - 0.5).abs() < 1e-5, "bone {a}-{b}");
        }
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

    /// Directions the arc tests turn between: general ones, an axis, one nearly along
    /// another, and one opposite the first.
    const PLAIN_DIRECTIONS: [Vec3A; 5] = [
        Vec3A::new(1.0, 2.0, 3.0),
        Vec3A::new(-2.0, 0.5, 1.0),
        Vec3A::new(0.0, -1.0, 0.0),
        Vec3A::new(1e-3, 1.0, 0.0),
        Vec3A::new(-1.0, -2.0, -3.0),
    ];

    /// The unit-direction arc turns as the general one does, and gives the identity for a
    /// zero or non-finite direction and a half turn for opposite ones.
    #[test]
    fn arc_unit_matches_arc() {
        for a in PLAIN_DIRECTIONS {
            for b in PLAIN_DIRECTIONS {
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

    /// The turn kept as Rodrigues' formula, and the arc left at its length, turn as `arc`
    /// does: nearly opposite, tiny and huge directions too, and the zero one (no turn).
    #[test]
    fn arc_turn_and_unscaled_arc_turn_as_arc_does() {
        let dirs: Vec<Vec3A> = PLAIN_DIRECTIONS
            .into_iter()
            .chain([
                Vec3A::new(0.02, 1.0, 0.0) * -1e-4,
                Vec3A::new(3.0, -1.0, 0.5) * 1e7,
                Vec3A::new(1.0, 1.0, 1.0) * 1e20,
                Vec3A::new(0.5, -1.0, 2.0) * 1e-12,
                Vec3A::new(2.0, 1.0, -1.0) * 1e12,
                Vec3A::ZERO,
            ])
            .collect();
        let v = Vec3A::new(0.3, -0.7, 1.1);
        for &a in &dirs {
            for &b in &dirs {
                let q = arc(a, b);
                let turned = ArcTurn::between(a, b, a.length(), b.length()).apply(v);
                let expected = rotate(q, v);
                assert!(
                    turned.abs_diff_eq(expected, 1e-5),
                    "{a} {b}: {turned} vs {expected}"
                );
                match arc_unscaled(a, b) {
                    Some(r) => {
                        let r = r.normalize();
                        assert!(r.abs_diff_eq(q, 1e-6), "{a} {b}: {r} vs {q}");
                    }
                    // Only the cases `arc` treats apart (its product of squared lengths
                    // under- or overflowing too), and lengths that could overflow.
                    None => {
                        let ll = (a.length_squared() * b.length_squared()).sqrt();
                        assert!(
                            !(ll > 1e-30 && ll < 1e18) || a.normalize().dot(b.normalize()) < -0.99,
                            "{a} {b}"
                        );
                    }
                }
            }
        }
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
