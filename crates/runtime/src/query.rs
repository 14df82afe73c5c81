//! Context queries (paper section 3.1): which bodies a channel moves, said by meaning
//! ("the graspers on the front left") rather than by name, so they select on any creature.

use crate::creature::{BodyId, Cap, Creature};
use crate::math::Aabb;
use glam::Vec3;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The cap a query selects, or every body.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CapFilter {
    /// Every body (`"any"` in files).
    #[default]
    Any,
    /// The bodies with this cap.
    Cap(Cap),
}

impl Serialize for CapFilter {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            CapFilter::Any => s.serialize_str("any"),
            CapFilter::Cap(c) => c.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for CapFilter {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cap = Cap::deserialize(d)?;
        Ok(match cap {
            Cap::Other(s) if s == "any" => CapFilter::Any,
            c => CapFilter::Cap(c),
        })
    }
}

impl From<Cap> for CapFilter {
    fn from(c: Cap) -> Self {
        CapFilter::Cap(c)
    }
}

/// The left/right halfspace a query keeps (the sagittal plane; +X is the creature's left).
/// A side also keeps the centre bodies, except in setspace where some bodies lie beyond the
/// centre zone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeftRight {
    /// Either side.
    #[default]
    Any,
    /// The creature's left (+X).
    Left,
    /// On the plane.
    Center,
    /// The creature's right (-X).
    Right,
}

/// The front/back halfspace a query keeps (+Z is the creature's front), as [`LeftRight`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FrontBack {
    /// Either half.
    #[default]
    Any,
    /// The front half (+Z).
    Front,
    /// The centre zone.
    Center,
    /// The back half (-Z).
    Back,
}

/// The top/bottom halfspace a query keeps (+Y is up), as [`LeftRight`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TopBottom {
    /// Either half.
    #[default]
    Any,
    /// The top half (+Y).
    Top,
    /// The centre zone.
    Center,
    /// The bottom half (-Y).
    Bottom,
}

/// What the spatial halfspaces are measured against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuerySpace {
    /// The whole creature: its bounds, and the sagittal plane for left/right.
    #[default]
    Creature,
    /// The box around the bodies that carry the query's cap, so a clump of graspers all in
    /// front of the creature can still be split into front and back ones.
    Setspace,
}

/// Narrows the selection to the single body farthest in one direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Extent {
    /// Keep every selected body.
    #[default]
    None,
    /// The one farthest left (+X).
    LeftMost,
    /// The one farthest right (-X).
    RightMost,
    /// The one farthest forward (+Z).
    FrontMost,
    /// The one farthest back (-Z).
    BackMost,
    /// The highest.
    TopMost,
    /// The lowest.
    BottomMost,
}

/// What the query finally selects of each body it found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimbModifier {
    /// The body itself.
    #[default]
    None,
    /// Walk up from each selected body to the first spine body (its shoulder or hip).
    SpineSegment,
}

/// A filter over bodies: cap ∩ spatial halfspaces ∩ extent, then the limb modifier.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ContextQuery {
    /// The cap the bodies must have.
    pub cap: CapFilter,
    /// The left/right halfspace.
    #[serde(default, skip_serializing_if = "is_default")]
    pub left_right: LeftRight,
    /// The front/back halfspace.
    #[serde(default, skip_serializing_if = "is_default")]
    pub front_back: FrontBack,
    /// The top/bottom halfspace.
    #[serde(default, skip_serializing_if = "is_default")]
    pub top_bottom: TopBottom,
    /// What the halfspaces are measured against.
    #[serde(default, skip_serializing_if = "is_default")]
    pub space: QuerySpace,
    /// Narrows the selection to the single body farthest one way.
    #[serde(default, skip_serializing_if = "is_default")]
    pub extent: Extent,
    /// The bodies themselves, or the spine bodies their limbs hang from.
    #[serde(default, skip_serializing_if = "is_default")]
    pub limb: LimbModifier,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// The centre zone of an axis is the middle 20% of the reference box: within this fraction
/// of the box's size either side of its middle.
pub const CENTER_ZONE_FRACTION: f32 = 0.1;

/// Where a side constraint keeps bodies along one axis.
#[derive(Clone, Copy, PartialEq)]
enum Zone {
    Any,
    Positive,
    Center,
    Negative,
}

impl ContextQuery {
    /// Every body with `cap`.
    pub fn cap(cap: Cap) -> Self {
        ContextQuery {
            cap: CapFilter::Cap(cap),
            ..Default::default()
        }
    }

    /// The selected bodies, in body order.
    pub fn select(&self, creature: &Creature) -> Vec<BodyId> {
        let matches_cap = |b: BodyId| match &self.cap {
            CapFilter::Any => true,
            CapFilter::Cap(c) => creature.body(b).has_cap(c),
        };
        let candidates: Vec<BodyId> = (0..creature.len()).filter(|&b| matches_cap(b)).collect();
        let position = |b: BodyId| creature.body(b).position;

        let (reference, lr_middle) = match self.space {
            QuerySpace::Creature => (creature.bounds(), 0.0),
            QuerySpace::Setspace => {
                let set = Aabb::from_points(candidates.iter().map(|&b| position(b)));
                (set, set.center().x)
            }
        };
        let middle = Vec3::new(lr_middle, reference.center().y, reference.center().z);
        let zone_half_width =
            (reference.size() * CENTER_ZONE_FRACTION).max(Vec3::splat(1e-4 * creature.size()));
        let constraints = [
            (0, self.left_right_zone()),
            (1, self.top_bottom_zone()),
            (2, self.front_back_zone()),
        ];
        let strict = self.space == QuerySpace::Setspace;
        let side_of = |b: BodyId, axis: usize| {
            let offset = position(b)[axis] - middle[axis];
            let c = zone_half_width[axis];
            (offset > c, offset < -c)
        };
        // In setspace, a side keeps only the bodies beyond the centre zone when there are any:
        // three pairs of arms split into front, middle and back, and the middle pair is not a
        // front one. A set with nothing beyond the zone (one pair of arms) is all on each side.
        let strict_axes = [0, 1, 2].map(|axis| {
            strict
                && candidates.iter().any(|&b| {
                    let (pos, neg) = side_of(b, axis);
                    pos || neg
                })
        });
        let mut selected: Vec<BodyId> = candidates
            .iter()
            .copied()
            .filter(|&b| {
                constraints.iter().all(|&(axis, zone)| {
                    let (pos, neg) = side_of(b, axis);
                    let centre = !pos && !neg;
                    let with_centre = !strict_axes[axis];
                    match zone {
                        Zone::Any => true,
                        Zone::Positive => pos || (centre && with_centre),
                        Zone::Center => centre,
                        Zone::Negative => neg || (centre && with_centre),
                    }
                })
            })
            .collect();

        if let Some((axis, sign)) = self.extent_direction() {
            selected = extreme(creature, &selected, axis, sign)
                .into_iter()
                .collect();
        }
        if self.limb == LimbModifier::SpineSegment {
            selected = selected
                .into_iter()
                .map(|b| first_spine_at_or_above(creature, b))
                .collect();
            selected.sort_unstable();
            selected.dedup();
        }
        selected
    }

    fn left_right_zone(&self) -> Zone {
        match self.left_right {
            LeftRight::Any => Zone::Any,
            LeftRight::Left => Zone::Positive,
            LeftRight::Center => Zone::Center,
            LeftRight::Right => Zone::Negative,
        }
    }

    fn top_bottom_zone(&self) -> Zone {
        match self.top_bottom {
            TopBottom::Any => Zone::Any,
            TopBottom::Top => Zone::Positive,
            TopBottom::Center => Zone::Center,
            TopBottom::Bottom => Zone::Negative,
        }
    }

    fn front_back_zone(&self) -> Zone {
        match self.front_back {
            FrontBack::Any => Zone::Any,
            FrontBack::Front => Zone::Positive,
            FrontBack::Center => Zone::Center,
            FrontBack::Back => Zone::Negative,
        }
    }

    fn extent_direction(&self) -> Option<(usize, f32)> {
        match self.extent {
            Extent::None => None,
            Extent::LeftMost => Some((0, 1.0)),
            Extent::RightMost => Some((0, -1.0)),
            Extent::TopMost => Some((1, 1.0)),
            Extent::BottomMost => Some((1, -1.0)),
            Extent::FrontMost => Some((2, 1.0)),
            Extent::BackMost => Some((2, -1.0)),
        }
    }
}

/// The body farthest along `sign * axis`. Bodies within 0.01% of the creature's size of the
/// farthest count as tied; ties go to the leftmost, then frontmost, then topmost, then the
/// first listed, so the answer never depends on floating-point noise or iteration order.
fn extreme(creature: &Creature, bodies: &[BodyId], axis: usize, sign: f32) -> Option<BodyId> {
    let value = |b: BodyId| sign * creature.body(b).position[axis];
    let best = bodies
        .iter()
        .map(|&b| value(b))
        .fold(f32::NEG_INFINITY, f32::max);
    let tolerance = 1e-4 * creature.size();
    bodies
        .iter()
        .copied()
        .filter(|&b| value(b) >= best - tolerance)
        .min_by(|&a, &b| {
            let (pa, pb) = (creature.body(a).position, creature.body(b).position);
            pb.x.total_cmp(&pa.x)
                .then(pb.z.total_cmp(&pa.z))
                .then(pb.y.total_cmp(&pa.y))
                .then(a.cmp(&b))
        })
}

fn first_spine_at_or_above(creature: &Creature, mut b: BodyId) -> BodyId {
    while !creature.is_spine(b) {
        match creature.parent(b) {
            Some(p) => b = p,
            None => break,
        }
    }
    b
}

/// Where a channel's secondary-relative and look-at modes aim.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecondaryContext {
    /// Bodies of the creature itself (the hand's target is the mouth).
    Query(ContextQuery),
    /// A point the game sets every frame, by index (the fruit to pick, the other character).
    ExternalTarget(usize),
}

impl std::fmt::Display for ContextQuery {
    /// A short description for messages: `grasper, left, front (setspace), left_most, spine_segment`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.cap {
            CapFilter::Any => f.write_str("any body")?,
            CapFilter::Cap(c) => write!(f, "cap '{c}'")?,
        }
        let sides = [
            match self.left_right {
                LeftRight::Any => None,
                LeftRight::Left => Some("left"),
                LeftRight::Center => Some("centre left-right"),
                LeftRight::Right => Some("right"),
            },
            match self.front_back {
                FrontBack::Any => None,
                FrontBack::Front => Some("front"),
                FrontBack::Center => Some("centre front-back"),
                FrontBack::Back => Some("back"),
            },
            match self.top_bottom {
                TopBottom::Any => None,
                TopBottom::Top => Some("top"),
                TopBottom::Center => Some("centre top-bottom"),
                TopBottom::Bottom => Some("bottom"),
            },
        ];
        for s in sides.into_iter().flatten() {
            write!(f, ", {s}")?;
        }
        if self.space == QuerySpace::Setspace {
            f.write_str(" (setspace)")?;
        }
        if self.extent != Extent::None {
            let e = serde_json::to_value(self.extent).unwrap_or_default();
            write!(f, ", {}", e.as_str().unwrap_or("extent"))?;
        }
        if self.limb == LimbModifier::SpineSegment {
            f.write_str(", spine segment")?;
        }
        Ok(())
    }
}
