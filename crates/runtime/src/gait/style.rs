//! Gait styles: authored tables from speed to stepping parameters (paper 4.2, "Gait Styles").
//!
//! Speeds and lengths are in leg lengths (a speed of 1 is one leg length per second), so one
//! table fits a mouse and a giant. Groups of 1–6 feet have authored rows; 7 or more feet use
//! the `wave` rows with step triggers generated as a metachronal wave.

use crate::curve::KeyedCurve;
use serde::{Deserialize, Serialize};

/// Stepping parameters at one speed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedKey {
    /// Body speed in leg lengths per second.
    pub speed: f32,
    /// Distance the body travels in one full cycle, in leg lengths.
    pub stride: f32,
    /// Fraction of the cycle each foot is on the ground.
    pub duty: f32,
    /// Peak foot height in flight, in leg lengths.
    pub lift: f32,
    /// Per foot (in the group's foot order): where in the cycle the foot lifts off (0..1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<f32>,
    /// Per-foot duty factors that override `duty` (a limp keeps the good foot down longer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub duty_per_foot: Vec<f32>,
    /// Per-foot lift that overrides `lift`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lift_per_foot: Vec<f32>,
    /// Vertical body bob in leg lengths (the body rises while feet swing).
    #[serde(default)]
    pub bob: f32,
}

/// The rows for groups of one size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupTable {
    /// The group size these rows are for: 1 to 6, each size at most once per style.
    pub feet: usize,
    /// In increasing speed.
    pub speeds: Vec<SpeedKey>,
}

/// The foot's path through its flight, in normalized space: `u` runs 0..1 over the flight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlightPath {
    /// Where in the flight the foot is highest (0..1), for the built-in arc.
    #[serde(default = "default_peak")]
    pub peak_at: f32,
    /// 0 moves the foot forward evenly; 1 holds it back and sets it down late and quickly.
    #[serde(default)]
    pub plant_ease: f32,
    /// An authored height curve over `u` (fraction of `lift`), replacing the built-in arc.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<KeyedCurve<f32>>,
    /// An authored forward-progress curve over `u` (0 at lift-off, 1 at landing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forward: Option<KeyedCurve<f32>>,
}

fn default_peak() -> f32 {
    0.45
}

impl Default for FlightPath {
    fn default() -> Self {
        FlightPath {
            peak_at: default_peak(),
            plant_ease: 0.0,
            height: None,
            forward: None,
        }
    }
}

impl FlightPath {
    /// (height as a fraction of lift, forward progress 0..1) at flight progress `u`.
    ///
    /// The built-in path lifts the foot straight up, carries it forward only while it is
    /// clear of the ground, and sets it straight down: a foot that moved while still
    /// touching the ground would skim it, and the foot on the ground must not slip (the
    /// old path moved forward from lift-off with a smoothstep while the arc, flat at both
    /// ends, kept it within a few millimetres of the ground: 10 to 60 mm of skid per step).
    pub fn at(&self, u: f32) -> (f32, f32) {
        let u = u.clamp(0.0, 1.0);
        let height = match &self.height {
            Some(c) => c.sample(u).unwrap_or(0.0),
            None => self.arc(u),
        };
        let forward = match &self.forward {
            Some(c) => c.sample(u).unwrap_or(u),
            None => {
                let (lifted, lowering) = self.clear_window();
                let t = ((u - lifted) / (lowering - lifted)).clamp(0.0, 1.0);
                let smooth = t * t * (3.0 - 2.0 * t);
                let late = smooth * smooth * (3.0 - 2.0 * smooth);
                let e = self.plant_ease.clamp(0.0, 1.0);
                smooth * (1.0 - e) + late * e
            }
        };
        (height.max(0.0), forward)
    }

    /// The built-in arc: one hump peaking at `peak_at`, leaving and meeting the ground at an
    /// angle rather than flat, so the foot is off the ground from its first frame of flight
    /// to its last rather than hovering a hair above it (a foot within a hair of the ground
    /// is on it, for the eye and for the duty factor).
    fn arc(&self, u: f32) -> f32 {
        let peak = self.peak_at.clamp(0.05, 0.95);
        let s = if u < peak {
            0.5 * u / peak
        } else {
            0.5 + 0.5 * (u - peak) / (1.0 - peak)
        };
        (std::f32::consts::PI * s).sin()
    }

    /// Where in the flight the built-in arc rises past [`CLEAR_OF_GROUND`] of its lift, and
    /// where it comes back down to it: the built-in forward progress runs between the two.
    pub fn clear_window(&self) -> (f32, f32) {
        let peak = self.peak_at.clamp(0.05, 0.95);
        let s = CLEAR_OF_GROUND.asin() / std::f32::consts::PI;
        (2.0 * s * peak, 1.0 - 2.0 * s * (1.0 - peak))
    }

    /// Whether the foot is over its landing point at `u`, coming straight down: from here
    /// on the landing point must not move, or the foot would slide as it touches down.
    pub fn is_setting_down(&self, u: f32) -> bool {
        self.at(u).1 >= 1.0
    }
}

/// The fraction of its lift a foot rises before the built-in path carries it forward, and
/// falls from before it touches down. A quarter keeps a foot of the flattest authored lift
/// (0.03 leg lengths, the limp's) 0.0075 leg lengths up while it moves: clear of a ground
/// contact judged to 0.005 leg lengths, with room for the IK's rounding.
pub const CLEAR_OF_GROUND: f32 = 0.25;

/// How the body rides on the feet.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BodyMotion {
    /// How much the body pitches and rolls with the ground under it (0..1).
    #[serde(default = "default_follow")]
    pub follow_slope: f32,
    /// Roll into turns, radians per (leg length / s × rad / s).
    #[serde(default = "default_lean")]
    pub turn_lean: f32,
}

fn default_follow() -> f32 {
    0.6
}

fn default_lean() -> f32 {
    0.08
}

impl Default for BodyMotion {
    fn default() -> Self {
        BodyMotion {
            follow_slope: default_follow(),
            turn_lean: default_lean(),
        }
    }
}

/// A gait style: walk, trot, run, limp…
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaitStyle {
    /// The style's name, as shown to the author.
    pub name: String,
    /// What the style is for, in a sentence for the author; playback ignores it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub intent: String,
    /// Authored rows for groups of 1–6 feet.
    pub groups: Vec<GroupTable>,
    /// Rows for groups of 7 or more feet; triggers are generated.
    pub wave: Vec<SpeedKey>,
    /// Rows for footless crawlers' pseudo-feet (an inch-worm wave); the wave rows if absent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crawl: Vec<SpeedKey>,
    /// The feet's path through a flight. Only the first gait layer's is used.
    #[serde(default)]
    pub flight: FlightPath,
    /// How the body rides on the feet. Only the first gait layer's is used.
    #[serde(default)]
    pub body: BodyMotion,
}

/// One foot's parameters this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FootParams {
    /// Where in the group's cycle the foot lifts off (0..1).
    pub trigger: f32,
    /// Fraction of the cycle the foot is on the ground.
    pub duty: f32,
    /// Peak foot height in flight, in leg lengths.
    pub lift: f32,
}

/// A group's parameters this frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GroupParams {
    /// Distance the body travels in one full cycle, in the group's leg lengths.
    pub stride: f32,
    /// Vertical body bob, in the group's leg lengths.
    pub bob: f32,
    /// One per foot, in the group's foot order.
    pub feet: Vec<FootParams>,
}

/// Which rows a group uses: authored by size, the wave gait, or the crawl.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rows {
    /// A group of this many feet: the style's authored table for that size if it has one,
    /// otherwise the wave rows.
    Legs(usize),
    /// A crawler's this many pseudo-feet: the crawl rows, or the wave rows if the style
    /// has none.
    Crawl(usize),
}

impl GaitStyle {
    /// Checks what the types cannot. Errors name the field, e.g. `groups[1].speeds[0].duty`.
    pub fn validate(&self) -> Result<(), (String, String)> {
        let err = |f: String, m: &str| Err((f, m.to_string()));
        let check_rows = |prefix: &str,
                          rows: &[SpeedKey],
                          feet: Option<usize>|
         -> Result<(), (String, String)> {
            if rows.is_empty() {
                return err(prefix.to_string(), "needs at least one speed row");
            }
            for (i, k) in rows.iter().enumerate() {
                let f = |name: &str| format!("{prefix}[{i}].{name}");
                let finite = [k.speed, k.stride, k.duty, k.lift, k.bob]
                    .iter()
                    .chain(&k.triggers)
                    .chain(&k.duty_per_foot)
                    .chain(&k.lift_per_foot)
                    .all(|v| v.is_finite());
                if !finite {
                    return err(f("speed"), "every number must be finite");
                }
                if k.speed < 0.0 || (i > 0 && k.speed <= rows[i - 1].speed) {
                    return err(f("speed"), "speeds must be ≥ 0 and increasing");
                }
                if k.stride <= 0.0 {
                    return err(f("stride"), "must be > 0");
                }
                if !(0.05..=0.95).contains(&k.duty)
                    || k.duty_per_foot.iter().any(|d| !(0.05..=0.95).contains(d))
                {
                    return err(f("duty"), "must be between 0.05 and 0.95");
                }
                if k.lift < 0.0
                    || k.lift > 1.0
                    || k.lift_per_foot.iter().any(|l| !(0.0..=1.0).contains(l))
                {
                    return err(f("lift"), "must be between 0 and 1 leg length");
                }
                if let Some(n) = feet {
                    if k.triggers.len() != n {
                        return err(f("triggers"), "needs one trigger per foot");
                    }
                    for (name, v) in [
                        ("duty_per_foot", &k.duty_per_foot),
                        ("lift_per_foot", &k.lift_per_foot),
                    ] {
                        if !v.is_empty() && v.len() != n {
                            return err(f(name), "needs one value per foot, or none");
                        }
                    }
                }
            }
            Ok(())
        };
        for (g, t) in self.groups.iter().enumerate() {
            if !(1..=6).contains(&t.feet) || self.groups[..g].iter().any(|o| o.feet == t.feet) {
                return err(
                    format!("groups[{g}].feet"),
                    "must be 1 to 6 and appear once",
                );
            }
            check_rows(&format!("groups[{g}].speeds"), &t.speeds, Some(t.feet))?;
        }
        check_rows("wave", &self.wave, None)?;
        if !self.crawl.is_empty() {
            check_rows("crawl", &self.crawl, None)?;
        }
        Ok(())
    }

    /// This style's parameters for a group at `speed` (leg lengths per second), written into
    /// `out` (whose foot list is reused).
    pub fn params(&self, rows: Rows, speed: f32, order: &[FootPlace], out: &mut GroupParams) {
        let table: &[SpeedKey] = match rows {
            Rows::Legs(feet) if feet <= 6 => self
                .groups
                .iter()
                .find(|g| g.feet == feet)
                .map_or(&self.wave[..], |g| &g.speeds[..]),
            Rows::Legs(_) => &self.wave,
            Rows::Crawl(_) => {
                if self.crawl.is_empty() {
                    &self.wave
                } else {
                    &self.crawl
                }
            }
        };
        let authored =
            matches!(rows, Rows::Legs(f) if f <= 6 && self.groups.iter().any(|g| g.feet == f));
        let (a, b, t) = bracket(table, speed);
        out.stride = lerp(a.stride, b.stride, t);
        out.bob = lerp(a.bob, b.bob, t);
        out.feet.clear();
        for (i, place) in order.iter().enumerate() {
            let duty_of = |k: &SpeedKey| k.duty_per_foot.get(i).copied().unwrap_or(k.duty);
            let lift_of = |k: &SpeedKey| k.lift_per_foot.get(i).copied().unwrap_or(k.lift);
            let duty = lerp(duty_of(a), duty_of(b), t);
            let trigger = if authored {
                lerp_phase(
                    a.triggers.get(i).copied().unwrap_or(0.0),
                    b.triggers.get(i).copied().unwrap_or(0.0),
                    t,
                )
            } else {
                wave_trigger(place)
            };
            out.feet.push(FootParams {
                trigger,
                duty,
                lift: lerp(lift_of(a), lift_of(b), t),
            });
        }
    }
}

/// One of a style's row tables: what a group of some size reads (see [`GaitStyle::table_for`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableId {
    /// `groups[i]`.
    Group(usize),
    /// `wave`.
    Wave,
    /// `crawl` (possibly empty).
    Crawl,
}

impl GaitStyle {
    /// The table [`GaitStyle::params`] reads for `rows`.
    pub fn table_for(&self, rows: Rows) -> TableId {
        match rows {
            Rows::Legs(feet) if feet <= 6 => self
                .groups
                .iter()
                .position(|g| g.feet == feet)
                .map_or(TableId::Wave, TableId::Group),
            Rows::Legs(_) => TableId::Wave,
            Rows::Crawl(_) if self.crawl.is_empty() => TableId::Wave,
            Rows::Crawl(_) => TableId::Crawl,
        }
    }

    /// The rows of a table; `None` for a group index past `groups`.
    pub fn table(&self, id: TableId) -> Option<&[SpeedKey]> {
        match id {
            TableId::Group(i) => self.groups.get(i).map(|g| &g.speeds[..]),
            TableId::Wave => Some(&self.wave),
            TableId::Crawl => Some(&self.crawl),
        }
    }

    /// The two rows of a table [`GaitStyle::params`] interpolates between at `speed`, by
    /// index, and how far from the first to the second (both the same row outside the
    /// table's speeds).
    pub fn rows_at(&self, id: TableId, speed: f32) -> Option<(usize, usize, f32)> {
        let rows = self.table(id).filter(|r| !r.is_empty())?;
        let last = rows.len() - 1;
        if speed.is_nan() || speed <= rows[0].speed {
            return Some((0, 0, 0.0));
        }
        if speed >= rows[last].speed {
            return Some((last, last, 0.0));
        }
        let i = rows.partition_point(|k| k.speed <= speed);
        let (a, b) = (&rows[i - 1], &rows[i]);
        Some((i - 1, i, (speed - a.speed) / (b.speed - a.speed)))
    }
}

/// Where a foot sits in its group, for generated triggers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FootPlace {
    /// -1 right, 0 centre, 1 left.
    pub side: f32,
    /// 0 for the hindmost foot of its side, counting forward.
    pub rank: usize,
    /// Feet on its side.
    pub of: usize,
}

/// A metachronal wave: on each side the hindmost foot lifts first and the lift ripples forward
/// within the foot's flight share of the cycle; the sides are half a cycle apart.
/// The lifts are spread over the whole cycle, so no two neighbours on a side fly at once as
/// long as each foot's flight share (1 − duty) is below 1/m of the cycle.
fn wave_trigger(place: &FootPlace) -> f32 {
    let ripple = place.rank as f32 / place.of.max(1) as f32;
    let side = if place.side < 0.0 { 0.5 } else { 0.0 };
    fraction(ripple + side)
}

fn bracket(rows: &[SpeedKey], speed: f32) -> (&SpeedKey, &SpeedKey, f32) {
    let first = &rows[0];
    let last = &rows[rows.len() - 1];
    // A NaN speed takes the first row too.
    if speed.is_nan() || speed <= first.speed {
        return (first, first, 0.0);
    }
    if speed >= last.speed {
        return (last, last, 0.0);
    }
    let i = rows.partition_point(|k| k.speed <= speed);
    let (a, b) = (&rows[i - 1], &rows[i]);
    (a, b, (speed - a.speed) / (b.speed - a.speed))
}

fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

/// `x.rem_euclid(1.0)`, the same to the bit (a zero keeps the sign of `x`), without the
/// bit-by-bit division of `fmodf`: the gait wraps each foot's and group's place in its
/// cycle every frame. Below 2^23 the fraction is exact, and a negative `x` gets the same
/// one rounding (`x + n`) either way.
#[inline]
pub(crate) fn fraction(x: f32) -> f32 {
    if x.abs() < 8_388_608.0 {
        let t = x as i32 as f32;
        let floor = if t > x { t - 1.0 } else { t };
        let r = x - floor;
        if r == 0.0 { x * 0.0 } else { r }
    } else {
        x.rem_euclid(1.0)
    }
}

/// Interpolates two cycle phases the short way round.
pub fn lerp_phase(a: f32, b: f32, t: f32) -> f32 {
    let mut d = fraction(b - a);
    if d > 0.5 {
        d -= 1.0;
    }
    fraction(a + d * t)
}

/// Blends `layer` into `base` by `weight`, foot by foot (a limp laid over a walk).
pub fn blend_params(base: &mut GroupParams, layer: &GroupParams, weight: f32) {
    let w = weight.clamp(0.0, 1.0);
    base.stride = lerp(base.stride, layer.stride, w);
    base.bob = lerp(base.bob, layer.bob, w);
    for (b, l) in base.feet.iter_mut().zip(&layer.feet) {
        b.trigger = lerp_phase(b.trigger, l.trigger, w);
        b.duty = lerp(b.duty, l.duty, w);
        b.lift = lerp(b.lift, l.lift, w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fraction is `rem_euclid(1.0)` to the bit: signed zeros, integers, values just
    /// off them, tiny and huge ones, the last exact one and past it, infinities and NaN.
    #[test]
    fn fraction_is_rem_euclid_to_the_bit() {
        let mut xs = vec![
            0.0,
            -0.0,
            1e-45,
            -1e-45,
            0.3,
            -0.3,
            8_388_607.5,
            -8_388_607.5,
            8_388_608.0,
            -8_388_609.0,
            3e9,
            -3e9,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for n in -40..=40 {
            let n = n as f32;
            xs.extend([n, n * 0.25, n.next_up(), n.next_down(), n * 1.37 + 0.001]);
        }
        let mut seed = 0x2545_f491_u32;
        for _ in 0..100_000 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            xs.push((seed as f32 / u32::MAX as f32 - 0.5) * 50.0);
        }
        for x in xs {
            let (ours, std) = (fraction(x), x.rem_euclid(1.0));
            assert!(
                ours.to_bits() == std.to_bits() || (ours.is_nan() && std.is_nan()),
                "{x:e}: {ours:e} vs {std:e}"
            );
        }
    }

    fn key(speed: f32, duty: f32, triggers: &[f32]) -> SpeedKey {
        SpeedKey {
            speed,
            stride: 1.0,
            duty,
            lift: 0.1,
            triggers: triggers.to_vec(),
            duty_per_foot: vec![],
            lift_per_foot: vec![],
            bob: 0.0,
        }
    }

    fn style() -> GaitStyle {
        GaitStyle {
            name: "t".into(),
            intent: String::new(),
            groups: vec![GroupTable {
                feet: 2,
                speeds: vec![key(0.5, 0.7, &[0.0, 0.5]), key(1.5, 0.5, &[0.0, 0.4])],
            }],
            wave: vec![key(0.5, 0.8, &[]), key(2.0, 0.6, &[])],
            crawl: vec![],
            flight: FlightPath::default(),
            body: BodyMotion::default(),
        }
    }

    fn places(n: usize) -> Vec<FootPlace> {
        (0..n)
            .map(|i| FootPlace {
                side: if i % 2 == 0 { 1.0 } else { -1.0 },
                rank: i / 2,
                of: n.div_ceil(2),
            })
            .collect()
    }

    #[test]
    fn rows_interpolate_by_speed_and_clamp_outside() {
        let s = style();
        s.validate().unwrap();
        let mut out = GroupParams::default();
        s.params(Rows::Legs(2), 1.0, &places(2), &mut out);
        assert!((out.feet[0].duty - 0.6).abs() < 1e-6);
        assert!((out.feet[1].trigger - 0.45).abs() < 1e-6);
        s.params(Rows::Legs(2), 9.0, &places(2), &mut out);
        assert_eq!(out.feet[1].duty, 0.5);
        s.params(Rows::Legs(2), -1.0, &places(2), &mut out);
        assert_eq!(out.feet[1].duty, 0.7);
    }

    #[test]
    fn the_rows_a_group_reads_are_the_ones_its_params_interpolate() {
        let s = style();
        let mut out = GroupParams::default();
        for speed in [-1.0, 0.5, 0.8, 1.0, 1.5, 9.0, f32::NAN] {
            s.params(Rows::Legs(2), speed, &places(2), &mut out);
            let id = s.table_for(Rows::Legs(2));
            assert_eq!(id, TableId::Group(0));
            let (a, b, t) = s.rows_at(id, speed).unwrap();
            let rows = s.table(id).unwrap();
            let duty = lerp(rows[a].duty, rows[b].duty, t);
            assert!((out.feet[0].duty - duty).abs() < 1e-6, "{speed}");
        }
        assert_eq!(s.table_for(Rows::Legs(8)), TableId::Wave);
        assert_eq!(s.table_for(Rows::Legs(3)), TableId::Wave);
        assert_eq!(s.table_for(Rows::Crawl(4)), TableId::Wave);
    }

    #[test]
    fn many_feet_get_a_wave_with_sides_half_a_cycle_apart() {
        let s = style();
        let mut out = GroupParams::default();
        s.params(Rows::Legs(8), 1.0, &places(8), &mut out);
        assert_eq!(out.feet.len(), 8);
        let t: Vec<f32> = out.feet.iter().map(|f| f.trigger).collect();
        assert_eq!(t[0], 0.0);
        assert!(
            (t[1] - 0.5).abs() < 1e-6,
            "left and right hind feet alternate"
        );
        assert!((t[2] - 0.25).abs() < 1e-6, "the wave moves forward");
        // Unknown sizes up to 6 fall back to the wave rows too.
        s.params(Rows::Legs(3), 1.0, &places(3), &mut out);
        assert_eq!(out.feet.len(), 3);
    }

    #[test]
    fn phases_interpolate_the_short_way() {
        assert!((lerp_phase(0.9, 0.1, 0.5) - 0.0).abs() < 1e-6);
        assert!((lerp_phase(0.2, 0.4, 0.5) - 0.3).abs() < 1e-6);
    }

    #[test]
    fn the_built_in_flight_arc_starts_and_ends_on_the_ground() {
        let p = FlightPath::default();
        assert_eq!(p.at(0.0), (0.0, 0.0));
        let (h, f) = p.at(1.0);
        assert!(h < 1e-6 && (f - 1.0).abs() < 1e-6);
        let (peak, _) = p.at(p.peak_at);
        assert!((peak - 1.0).abs() < 1e-5);
    }

    /// The foot goes straight up and straight down: it moves forward only while it is at
    /// least [`CLEAR_OF_GROUND`] of its lift up, for every peak and ease.
    #[test]
    fn the_built_in_path_moves_forward_only_clear_of_the_ground() {
        for peak_at in [0.05, 0.3, 0.45, 0.7, 0.95] {
            for plant_ease in [0.0, 0.5, 1.0] {
                let p = FlightPath {
                    peak_at,
                    plant_ease,
                    ..FlightPath::default()
                };
                let mut last = 0.0;
                for i in 0..=1000 {
                    let (h, f) = p.at(i as f32 / 1000.0);
                    assert!(f >= last, "forward progress never goes back");
                    last = f;
                    if h < CLEAR_OF_GROUND - 1e-4 {
                        assert!(
                            f <= 1e-6 || f >= 1.0 - 1e-6,
                            "peak {peak_at} ease {plant_ease}: moving at height {h}"
                        );
                    }
                }
                let (lifted, lowering) = p.clear_window();
                assert!(0.0 < lifted && lifted < lowering && lowering < 1.0);
                assert!(p.is_setting_down(lowering) && !p.is_setting_down(lowering - 0.01));
            }
        }
    }

    #[test]
    fn validation_names_the_field() {
        let mut s = style();
        s.groups[0].speeds[1].duty = 1.5;
        assert_eq!(s.validate().unwrap_err().0, "groups[0].speeds[1].duty");
        let mut s = style();
        s.groups[0].speeds[0].triggers.pop();
        assert_eq!(s.validate().unwrap_err().0, "groups[0].speeds[0].triggers");
        let mut s = style();
        s.wave[1].speed = 0.1;
        assert_eq!(s.validate().unwrap_err().0, "wave[1].speed");
    }
}
