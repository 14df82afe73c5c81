//! What the solver derives from a creature once, whatever the goals: the rest pose in flat
//! arrays and the per-body delegation rule.

use super::tuning::IkTuning;
use crate::creature::{BodyId, Cap, Creature};
use glam::{Quat, Vec3A};

/// Marks "no parent" in [`Rig::parent`].
pub(super) const NONE: u32 = u32::MAX;

/// The creature's rest pose as the solver reads it every frame.
#[derive(Clone, Debug)]
pub(super) struct Rig {
    pub root: u32,
    pub parent: Vec<u32>,
    pub spine: Vec<bool>,
    /// Rest pivot joining each body to its animation-tree parent (`Creature::pivot`).
    pub pivot: Vec<Vec3A>,
    pub centre: Vec<Vec3A>,
    pub rotation: Vec<Quat>,
    pub inv_rotation: Vec<Quat>,
    /// The centre seen from the pivot in the body's rest frame: a posed body's centre is
    /// `joint + rotation * centre_from_pivot`.
    pub centre_from_pivot: Vec<Vec3A>,
    /// Whether a position goal on the body is handed to its spine parent.
    pub delegates: Vec<bool>,
    /// Per body off the spine, the first body of its limb (the one joined to the spine);
    /// `NONE` on the spine.
    pub limb_root: Vec<u32>,
    /// The creature's size, for tolerances.
    pub size: f32,
}

impl Rig {
    pub fn new(creature: &Creature, tuning: &IkTuning) -> Rig {
        let n = creature.len();
        let parent: Vec<u32> = (0..n)
            .map(|b| creature.parent(b).map_or(NONE, |p| p as u32))
            .collect();
        let spine: Vec<bool> = (0..n).map(|b| creature.is_spine(b)).collect();
        let pivot: Vec<Vec3A> = (0..n).map(|b| creature.pivot(b).into()).collect();
        let centre: Vec<Vec3A> = creature
            .bodies()
            .iter()
            .map(|b| b.position.into())
            .collect();
        let rotation: Vec<Quat> = creature
            .bodies()
            .iter()
            .map(|b| b.rotation.try_normalize_quat())
            .collect();
        let inv_rotation: Vec<Quat> = rotation.iter().map(|q| q.conjugate()).collect();
        let centre_from_pivot = (0..n)
            .map(|b| inv_rotation[b] * (centre[b] - pivot[b]))
            .collect();
        let delegates = (0..n)
            .map(|b| delegates(creature, b, tuning.delegate_size_ratio))
            .collect();
        let limb_root = (0..n)
            .map(|b| {
                if spine[b] {
                    return NONE;
                }
                let mut x = b;
                while let Some(p) = creature.parent(x) {
                    if spine[p] {
                        break;
                    }
                    x = p;
                }
                x as u32
            })
            .collect();
        Rig {
            root: creature.root() as u32,
            limb_root,
            parent,
            spine,
            pivot,
            centre,
            rotation,
            inv_rotation,
            centre_from_pivot,
            delegates,
            size: creature.size(),
        }
    }

    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Bodies `a` and `b` are jointed at one rest point (siblings forking from one joint):
    /// the solver gives them one joint.
    pub fn same_pivot(&self, a: usize, b: usize) -> bool {
        self.pivot[a].distance(self.pivot[b]) <= 1e-5 * self.size
    }

    pub fn parent_of(&self, b: usize) -> Option<usize> {
        let p = self.parent[b];
        (p != NONE).then_some(p as usize)
    }
}

/// The delegation rule: a body hands its position goal to its parent when the parent is a
/// spine body other than the root (the root is placed by the animator, it cannot bend to
/// place anything) and the body is a mouth, eye or ear, or a small leaf on the spine — a
/// fin or a horn. Moving it then bends the spine rather than pivoting it where it attaches.
fn delegates(creature: &Creature, b: BodyId, size_ratio: f32) -> bool {
    let Some(p) = creature.parent(b) else {
        return false;
    };
    if creature.is_spine(b) || !creature.is_spine(p) || p == creature.root() {
        return false;
    }
    let body = creature.body(b);
    if [Cap::Mouth, Cap::Eye, Cap::Ear]
        .iter()
        .any(|c| body.has_cap(c))
    {
        return true;
    }
    let extent = |id: BodyId| creature.body(id).half_extents.max_element();
    creature.children(b).is_empty() && extent(b) <= size_ratio * extent(p)
}

trait TryNormalizeQuat {
    fn try_normalize_quat(self) -> Quat;
}

impl TryNormalizeQuat for Quat {
    /// Creature files are validated, but a rotation a hair off unit length would otherwise
    /// leak scale into every posed offset.
    fn try_normalize_quat(self) -> Quat {
        let len = self.length();
        if len.is_finite() && len > 1e-6 {
            self / len
        } else {
            Quat::IDENTITY
        }
    }
}
