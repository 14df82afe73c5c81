//! Actions: what a game asks a creature to do ("wave"), played by whichever of its branch
//! clips binds to the creature. The paper (4.1.1) branches tool use "on whether the
//! character has graspers … or uses its mouth": an action is a name and an ordered list of
//! clips, each guarded by its own requirements, and the first that binds plays
//! ([`Character::play_action`](crate::player::Character::play_action)).

use crate::bind::bind;
use crate::clip::{Branch, Clip};
use crate::creature::Creature;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// An action as files hold it: branch clips by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionDef {
    /// The name a game plays the action by (`wave`).
    pub name: String,
    /// What the action means and which morphologies it deliberately leaves out.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub intent: String,
    /// Clip names, tried in order.
    pub branches: Vec<String>,
    /// The morphologies the action deliberately leaves out: a creature meeting every one of
    /// these predicates is not expected to play it (the grid shows it grey, not failed).
    /// Empty: every creature is expected to play it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leaves_out: Vec<Branch>,
}

/// An action with its branch clips resolved.
#[derive(Clone, Debug)]
pub struct Action {
    /// The name a game plays the action by.
    pub name: String,
    /// See [`ActionDef::intent`].
    pub intent: String,
    /// The branch clips, tried in order: the first that binds on a creature plays.
    pub branches: Vec<Arc<Clip>>,
    /// See [`ActionDef::leaves_out`].
    pub leaves_out: Vec<Branch>,
}

/// Why an action definition cannot be resolved.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ActionError {
    /// The action lists no branch clip (the action's name).
    #[error("action '{0}' has no branches")]
    NoBranches(String),
    /// A branch names a clip that is not among those given.
    #[error("action '{action}': branch {index} names clip '{clip}', which is not there")]
    MissingClip {
        /// The action's name.
        action: String,
        /// The branch's index in the action.
        index: usize,
        /// The clip name the branch gives.
        clip: String,
    },
    /// One clip is listed as two branches.
    #[error("action '{action}': clip '{clip}' is a branch twice")]
    RepeatedBranch {
        /// The action's name.
        action: String,
        /// The clip listed twice.
        clip: String,
    },
}

impl Action {
    /// Resolves `def`'s branches among `clips` by name.
    pub fn resolve(def: &ActionDef, clips: &[Arc<Clip>]) -> Result<Action, ActionError> {
        if def.branches.is_empty() {
            return Err(ActionError::NoBranches(def.name.clone()));
        }
        let mut branches: Vec<Arc<Clip>> = Vec::with_capacity(def.branches.len());
        for (index, name) in def.branches.iter().enumerate() {
            if branches.iter().any(|c| &c.name == name) {
                return Err(ActionError::RepeatedBranch {
                    action: def.name.clone(),
                    clip: name.clone(),
                });
            }
            let clip =
                clips
                    .iter()
                    .find(|c| &c.name == name)
                    .ok_or_else(|| ActionError::MissingClip {
                        action: def.name.clone(),
                        index,
                        clip: name.clone(),
                    })?;
            branches.push(Arc::clone(clip));
        }
        Ok(Action {
            name: def.name.clone(),
            intent: def.intent.clone(),
            branches,
            leaves_out: def.leaves_out.clone(),
        })
    }

    /// The definition a file holds.
    pub fn to_def(&self) -> ActionDef {
        ActionDef {
            name: self.name.clone(),
            intent: self.intent.clone(),
            branches: self.branches.iter().map(|c| c.name.clone()).collect(),
            leaves_out: self.leaves_out.clone(),
        }
    }

    /// Whether the action deliberately leaves `creature` out (see [`ActionDef::leaves_out`]).
    pub fn leaves_out(&self, creature: &Creature) -> bool {
        !self.leaves_out.is_empty()
            && self
                .leaves_out
                .iter()
                .all(|b| b.predicate.evaluate(creature) == b.expect)
    }

    /// The branch that plays on `creature`: its index, or each branch's reason for not
    /// binding, joined. A [`Character`](crate::player::Character) asks the same
    /// through its binding cache ([`Character::action_branch`](crate::player::Character::action_branch)).
    pub fn branch_for(&self, creature: &Creature) -> Result<usize, String> {
        self.first_branch(|clip| bind(clip, creature).reason)
    }

    /// The first branch whose `reason` is `None`, or every branch's reason, joined: the one
    /// rule of which branch plays, whoever binds the clips.
    pub(crate) fn first_branch(
        &self,
        mut reason: impl FnMut(&Arc<Clip>) -> Option<String>,
    ) -> Result<usize, String> {
        let mut reasons = Vec::with_capacity(self.branches.len());
        for (k, clip) in self.branches.iter().enumerate() {
            match reason(clip) {
                None => return Ok(k),
                Some(why) => reasons.push(format!("{}: {why}", clip.name)),
            }
        }
        Err(reasons.join("; "))
    }
}
