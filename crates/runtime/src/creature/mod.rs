//! Creatures: a tree of rigid bodies with a rest pose, plus everything the runtime derives from
//! it once at load (root, spine, limb lengths, legs, bounds).

mod builder;
mod cap;
mod derived;
mod error;

pub use builder::CreatureBuilder;
pub use cap::Cap;
pub use derived::{Leg, Upright};
pub use error::{CreatureError, MAX_BODIES};

use crate::math::Aabb;
use derived::Derived;
use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

/// Index of a body in [`Creature::bodies`].
pub type BodyId = usize;

/// How a body is drawn. The shape always fits inside the body's box: a capsule runs along
/// local +Y with radius `min(hx, hz)`, a sphere has radius `min` of the half extents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// The box itself.
    #[default]
    Box,
    /// A capsule along local +Y.
    Capsule,
    /// A sphere at the centre.
    Sphere,
}

/// Extra fields of a JSON object that Anymorph does not interpret, kept so a load/save round
/// trip preserves what other tools wrote (e.g. a mesh reference).
pub type Extras = serde_json::Map<String, serde_json::Value>;

/// A body as written in a creature file: its parent is named, not indexed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BodyDef {
    /// Unique in the creature.
    pub name: String,
    /// The parent body's name; `None` for the one root of the hierarchy.
    #[serde(default)]
    pub parent: Option<String>,
    /// What the body is (spine, foot, grasper…): what context queries select on.
    #[serde(default)]
    pub caps: Vec<Cap>,
    /// Pivot where the body attaches to its parent, character space at rest.
    pub joint: Vec3,
    /// Centre of the body, character space at rest.
    pub position: Vec3,
    /// Orientation at rest, character space.
    #[serde(default = "identity")]
    pub rotation: Quat,
    /// Half the body's box along its local axes, in metres.
    pub half_extents: Vec3,
    /// How the body is drawn and kept out of others.
    #[serde(default)]
    pub shape: Shape,
    /// The file's fields Anymorph does not interpret.
    #[serde(skip)]
    pub extra: Extras,
}

fn identity() -> Quat {
    Quat::IDENTITY
}

/// One rigid part of a creature at rest.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    /// Unique in the creature.
    pub name: String,
    /// The parent as the file declares it (always listed before the child).
    pub file_parent: Option<BodyId>,
    /// See [`BodyDef::caps`].
    pub caps: Vec<Cap>,
    /// Pivot where the body attaches to its parent, character space at rest.
    pub joint: Vec3,
    /// Centre of the body, character space at rest.
    pub position: Vec3,
    /// Orientation at rest, character space.
    pub rotation: Quat,
    /// Half the body's box along its local axes, in metres.
    pub half_extents: Vec3,
    /// How the body is drawn and kept out of others.
    pub shape: Shape,
    /// The file's fields Anymorph does not interpret.
    pub extra: Extras,
}

impl Body {
    /// The body has this cap.
    pub fn has_cap(&self, cap: &Cap) -> bool {
        self.caps.contains(cap)
    }

    /// The body's shape as a segment and a radius: half the segment in the body's frame
    /// (zero for a sphere) and the radius, following [`Shape`]'s contract — a capsule runs
    /// along local +Y with radius `min(hx, hz)`, a sphere has the least half extent. A box
    /// is rounded to the capsule along its longest axis.
    pub fn rounded(&self) -> (Vec3, f32) {
        let h = self.half_extents.abs();
        match self.shape {
            Shape::Sphere => (Vec3::ZERO, h.min_element()),
            Shape::Capsule => {
                let radius = h.x.min(h.z);
                (Vec3::Y * (h.y - radius).max(0.0), radius)
            }
            Shape::Box => {
                let radius = h.min_element();
                let axis = if h.y >= h.x && h.y >= h.z {
                    Vec3::Y * h.y
                } else if h.x >= h.z {
                    Vec3::X * h.x
                } else {
                    Vec3::Z * h.z
                };
                (axis - axis.normalize_or_zero() * radius, radius)
            }
        }
    }

    /// How far the body's shape reaches below its centre when turned by `rotation`.
    pub fn reach_below(&self, rotation: Quat) -> f32 {
        match self.shape {
            Shape::Box => {
                let h = self.half_extents.abs();
                (rotation * Vec3::X).y.abs() * h.x
                    + (rotation * Vec3::Y).y.abs() * h.y
                    + (rotation * Vec3::Z).y.abs() * h.z
            }
            Shape::Capsule | Shape::Sphere => {
                let (half_axis, radius) = self.rounded();
                (rotation * half_axis).y.abs() + radius
            }
        }
    }
}

/// Which side of the sagittal plane `x = 0` a body rests on (+X is the creature's left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// +X.
    Left,
    /// On the plane (within 0.1 % of the creature's size).
    Center,
    /// -X.
    Right,
}

/// A validated creature with its derived data. Immutable: an edit builds a new creature
/// from [`Creature::to_defs`], so derived data can never go stale.
#[derive(Clone, Debug)]
pub struct Creature {
    name: String,
    bodies: Vec<Body>,
    extra: Extras,
    derived: Derived,
}

impl Creature {
    /// Validates bodies as a file lists them and derives the runtime's view of the creature.
    pub fn new(name: impl Into<String>, defs: Vec<BodyDef>) -> Result<Creature, CreatureError> {
        Self::with_extras(name, defs, Extras::new())
    }

    /// As [`Creature::new`], keeping the file's fields Anymorph does not interpret.
    pub fn with_extras(
        name: impl Into<String>,
        defs: Vec<BodyDef>,
        extra: Extras,
    ) -> Result<Creature, CreatureError> {
        let bodies = error::validate(&defs)?;
        let derived = Derived::compute(&bodies);
        Ok(Creature {
            name: name.into(),
            bodies,
            extra,
            derived,
        })
    }

    /// The bodies in file order, parents named again: the inverse of [`Creature::new`].
    pub fn to_defs(&self) -> Vec<BodyDef> {
        self.bodies
            .iter()
            .map(|b| BodyDef {
                name: b.name.clone(),
                parent: b.file_parent.map(|p| self.bodies[p].name.clone()),
                caps: b.caps.clone(),
                joint: b.joint,
                position: b.position,
                rotation: b.rotation,
                half_extents: b.half_extents,
                shape: b.shape,
                extra: b.extra.clone(),
            })
            .collect()
    }

    /// The creature's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The creature file's fields Anymorph does not interpret.
    pub fn extra(&self) -> &Extras {
        &self.extra
    }

    /// Every body, parents before children; a [`BodyId`] indexes this.
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// The body `id` (panics on an id out of range, as indexing does).
    pub fn body(&self, id: BodyId) -> &Body {
        &self.bodies[id]
    }

    /// How many bodies the creature has (at least one).
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Always false: a creature has at least one body. Present for API symmetry.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// The body named `name`.
    pub fn find(&self, name: &str) -> Option<BodyId> {
        self.bodies.iter().position(|b| b.name == name)
    }

    /// The animation root: the body with cap `root`, or the spine body with the most legs
    /// (ties broken by closeness to the feet's centre), as in paper section 1.2.
    pub fn root(&self) -> BodyId {
        self.derived.root
    }

    /// Parent in the animation tree, which hangs from [`Creature::root`]. Where the root is
    /// not the file's top body, the edges between them are reversed.
    pub fn parent(&self, id: BodyId) -> Option<BodyId> {
        self.derived.parent[id]
    }

    /// Whether two bodies are joined closely enough to touch by construction: parent and
    /// child, siblings, or two joints apart. Such pairs are never counted as sinking into
    /// each other (the validation grid's interpenetration, the jiggles' keep-out).
    pub fn joined(&self, a: BodyId, b: BodyId) -> bool {
        let grandparent = |x: BodyId| self.parent(x).and_then(|p| self.parent(p));
        self.parent(a) == Some(b)
            || self.parent(b) == Some(a)
            || (self.parent(a).is_some() && self.parent(a) == self.parent(b))
            || grandparent(a) == Some(b)
            || grandparent(b) == Some(a)
    }

    /// The first body of the limb `id` belongs to: the one whose parent is on the spine.
    /// `None` for the spine's own bodies.
    pub fn limb_top(&self, id: BodyId) -> Option<BodyId> {
        std::iter::successors(Some(id), |&x| self.parent(x))
            .take_while(|&x| !self.is_spine(x))
            .last()
    }

    /// The bodies jointed to `id`.
    pub fn children(&self, id: BodyId) -> &[BodyId] {
        &self.derived.children[id]
    }

    /// The rest-pose pivot joining `id` to [`Creature::parent`] in character space.
    pub fn pivot(&self, id: BodyId) -> Vec3 {
        self.derived.pivot[id]
    }

    /// Bodies ordered so every parent comes before its children (root first).
    pub fn order(&self) -> &[BodyId] {
        &self.derived.order
    }

    /// Whether the body belongs to the creature's spine (the spine bodies connected to the
    /// root, plus the root itself).
    pub fn is_spine(&self, id: BodyId) -> bool {
        self.derived.spine[id]
    }

    /// The longest serial run of spine bodies, from its back/bottom end to its front/top end.
    pub fn spine_chain(&self) -> &[BodyId] {
        &self.derived.spine_chain
    }

    /// Path length of joints from the body to the nearest spine body (0 on the spine).
    pub fn limb_length(&self, id: BodyId) -> f32 {
        self.derived.limb_length[id]
    }

    /// The rest-pose box of every body's box.
    pub fn bounds(&self) -> Aabb {
        self.derived.bounds
    }

    /// A single length for tolerances and floors: the largest side of the bounds.
    pub fn size(&self) -> f32 {
        self.derived.size
    }

    /// Every leg: a limb from a spine body down to a foot.
    pub fn legs(&self) -> &[Leg] {
        &self.derived.legs
    }

    /// Whether the spine stands up (a biped) or runs along (a quadruped).
    pub fn upright(&self) -> Upright {
        self.derived.upright
    }

    /// The side of the sagittal plane the body rests on; within 0.1% of the creature's size
    /// of the plane counts as the centre.
    pub fn side(&self, id: BodyId) -> Side {
        let eps = 1e-3 * self.size();
        let x = self.bodies[id].position.x;
        if x > eps {
            Side::Left
        } else if x < -eps {
            Side::Right
        } else {
            Side::Center
        }
    }

    /// Number of bodies carrying a cap.
    pub fn count_cap(&self, cap: &Cap) -> usize {
        self.bodies.iter().filter(|b| b.has_cap(cap)).count()
    }

    /// Height of the body's lowest rest point above its centre: putting the centre this
    /// high above the ground makes the body touch it.
    pub fn contact_height(&self, id: BodyId) -> f32 {
        let b = &self.bodies[id];
        b.position.y
            - Aabb::of_oriented_box(b.position, b.rotation, b.half_extents)
                .min
                .y
    }
}
