//! Creature validation: every rule a creature file must satisfy, each failure naming the field.

use super::{Body, BodyDef, Cap};
use std::collections::HashMap;
use thiserror::Error;

/// Why a list of bodies is not a valid creature. Each message starts with the JSON path of
/// the offending field so a user can find it in the file.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum CreatureError {
    /// The list of bodies is empty.
    #[error("bodies: the creature has no bodies")]
    NoBodies,
    /// More bodies than [`MAX_BODIES`].
    #[error("bodies: {count} bodies is more than the limit of {}", MAX_BODIES)]
    TooManyBodies {
        /// How many the file lists.
        count: usize,
    },
    /// A body's name is empty or blank.
    #[error("bodies[{index}].name: a body name must not be empty")]
    EmptyName {
        /// The body's index in the file.
        index: usize,
    },
    /// Two bodies share a name.
    #[error("bodies[{index}].name: '{name}' is used by more than one body")]
    DuplicateName {
        /// The second body's index in the file.
        index: usize,
        /// The shared name.
        name: String,
    },
    /// A parent names no body.
    #[error("bodies[{index}].parent: '{parent}' is not the name of any body")]
    UnknownParent {
        /// The child's index in the file.
        index: usize,
        /// The name given as parent.
        parent: String,
    },
    /// A parent is listed after its child (files list parents first).
    #[error(
        "bodies[{index}].parent: '{parent}' is listed after its child '{name}'; list parents first"
    )]
    ParentAfterChild {
        /// The child's index in the file.
        index: usize,
        /// The child's name.
        name: String,
        /// The parent's name.
        parent: String,
    },
    /// The parents form a cycle.
    #[error("bodies[{index}].parent: '{name}' is its own ancestor (the parents form a cycle)")]
    Cycle {
        /// The index of a body on the cycle.
        index: usize,
        /// Its name.
        name: String,
    },
    /// More than one body has no parent.
    #[error(
        "bodies[{index}].parent: '{name}' has no parent but '{first}' already is the root; a creature has exactly one root"
    )]
    TwoRoots {
        /// The second parentless body's index.
        index: usize,
        /// Its name.
        name: String,
        /// The first parentless body's name.
        first: String,
    },
    /// More than one body has the `root` cap.
    #[error(
        "bodies[{index}].caps: '{name}' has cap 'root' but '{first}' already has it; one body may be the root"
    )]
    TwoRootCaps {
        /// The second such body's index.
        index: usize,
        /// Its name.
        name: String,
        /// The first such body's name.
        first: String,
    },
    /// A number is NaN or infinite.
    #[error("bodies[{index}].{field}: {value} is not a finite number")]
    NonFinite {
        /// The body's index.
        index: usize,
        /// The field (`position`, `half_extents`…).
        field: &'static str,
        /// The value found.
        value: f32,
    },
    /// A number lies outside [`crate::math::WORKING_RANGE`].
    #[error("bodies[{index}].{field}: {value} is outside the working range of ±1e6")]
    OutOfRange {
        /// The body's index.
        index: usize,
        /// The field.
        field: &'static str,
        /// The value found.
        value: f32,
    },
    /// A half extent is negative.
    #[error("bodies[{index}].half_extents: half extents must not be negative (found {value})")]
    NegativeExtent {
        /// The body's index.
        index: usize,
        /// The value found.
        value: f32,
    },
    /// The rotation quaternion is all zeros.
    #[error("bodies[{index}].rotation: the quaternion has zero length")]
    ZeroRotation {
        /// The body's index.
        index: usize,
    },
}

/// The most bodies a creature may have. A game rig with face and finger bones has a few
/// hundred; the runtime's set-up compares limbs pairwise (where hanging limbs may touch),
/// so time and memory grow with the square of the count, and 4,096 bodies keep the worst
/// case (thousands of limbs from one body) to seconds and a few hundred MB rather than
/// letting a hostile file exhaust the machine.
pub const MAX_BODIES: usize = 4096;

/// Checks the bodies and resolves parent names to indices.
pub(super) fn validate(defs: &[BodyDef]) -> Result<Vec<Body>, CreatureError> {
    if defs.is_empty() {
        return Err(CreatureError::NoBodies);
    }
    if defs.len() > MAX_BODIES {
        return Err(CreatureError::TooManyBodies { count: defs.len() });
    }
    let mut index_of: HashMap<&str, usize> = HashMap::with_capacity(defs.len());
    for (index, d) in defs.iter().enumerate() {
        if d.name.trim().is_empty() {
            return Err(CreatureError::EmptyName { index });
        }
        if index_of.insert(d.name.as_str(), index).is_some() {
            return Err(CreatureError::DuplicateName {
                index,
                name: d.name.clone(),
            });
        }
    }
    for (index, d) in defs.iter().enumerate() {
        check_finite(index, d)?;
    }

    let mut parents = Vec::with_capacity(defs.len());
    for (index, d) in defs.iter().enumerate() {
        let parent = match &d.parent {
            None => None,
            Some(p) => {
                let Some(&pi) = index_of.get(p.as_str()) else {
                    return Err(CreatureError::UnknownParent {
                        index,
                        parent: p.clone(),
                    });
                };
                Some(pi)
            }
        };
        parents.push(parent);
    }
    // Report a cycle as a cycle even though it also lists a parent late: it is the more
    // useful message, and its body is the one to fix.
    if let Some(index) = (0..defs.len()).find(|&i| in_cycle(&parents, i)) {
        return Err(CreatureError::Cycle {
            index,
            name: defs[index].name.clone(),
        });
    }
    for (index, parent) in parents.iter().enumerate() {
        if let Some(pi) = *parent
            && pi > index
        {
            return Err(CreatureError::ParentAfterChild {
                index,
                name: defs[index].name.clone(),
                parent: defs[pi].name.clone(),
            });
        }
    }
    let mut first_root: Option<usize> = None;
    let mut first_root_cap: Option<usize> = None;
    for (index, d) in defs.iter().enumerate() {
        if parents[index].is_none() {
            if let Some(f) = first_root {
                return Err(CreatureError::TwoRoots {
                    index,
                    name: d.name.clone(),
                    first: defs[f].name.clone(),
                });
            }
            first_root = Some(index);
        }
        if d.caps.contains(&Cap::Root) {
            if let Some(f) = first_root_cap {
                return Err(CreatureError::TwoRootCaps {
                    index,
                    name: d.name.clone(),
                    first: defs[f].name.clone(),
                });
            }
            first_root_cap = Some(index);
        }
    }

    Ok(defs
        .iter()
        .zip(parents)
        .map(|(d, file_parent)| {
            let mut caps: Vec<Cap> = Vec::with_capacity(d.caps.len());
            for c in &d.caps {
                if !caps.contains(c) {
                    caps.push(c.clone());
                }
            }
            Body {
                name: d.name.clone(),
                file_parent,
                caps,
                joint: d.joint,
                position: d.position,
                rotation: d.rotation.normalize(),
                half_extents: d.half_extents,
                shape: d.shape,
                extra: d.extra.clone(),
            }
        })
        .collect())
}

fn in_cycle(parents: &[Option<usize>], start: usize) -> bool {
    let mut at = start;
    for _ in 0..=parents.len() {
        match parents[at] {
            None => return false,
            Some(p) if p == start => return true,
            Some(p) => at = p,
        }
    }
    // More steps than bodies without reaching a root: `start` leads into a cycle that it is
    // not part of; that cycle's own bodies report it.
    false
}

fn check_finite(index: usize, d: &BodyDef) -> Result<(), CreatureError> {
    let fields: [(&'static str, &[f32]); 4] = [
        ("joint", &d.joint.to_array()),
        ("position", &d.position.to_array()),
        ("rotation", &d.rotation.to_array()),
        ("half_extents", &d.half_extents.to_array()),
    ];
    for (field, values) in fields {
        if let Some(&value) = values.iter().find(|v| !v.is_finite()) {
            return Err(CreatureError::NonFinite {
                index,
                field,
                value,
            });
        }
        if let Some(&value) = values.iter().find(|v| v.abs() > crate::math::WORKING_RANGE) {
            return Err(CreatureError::OutOfRange {
                index,
                field,
                value,
            });
        }
    }
    if let Some(&value) = d.half_extents.to_array().iter().find(|v| **v < 0.0) {
        return Err(CreatureError::NegativeExtent { index, value });
    }
    if d.rotation.length_squared() < 1e-12 {
        return Err(CreatureError::ZeroRotation { index });
    }
    Ok(())
}
