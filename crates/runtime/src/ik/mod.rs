//! The particle IK solver (paper section 4.3): creature + goals in, body poses out.
//!
//! A frame runs: the forward-kinematic root and the goals carried to joints (`goals.rs`),
//! the spine phase (`spine.rs`), the spine's reconstruction, the limb phase (`limb.rs`),
//! the limbs' reconstruction and the bodies without IK (`reconstruct.rs`). Everything that
//! depends only on which bodies have goals is compiled once into a plan (`plan.rs`) and
//! cached by goal mask, so a frame allocates nothing and never looks at the last frame's
//! solution (path independence). `docs/IK.md` describes the solver and its tuning.

mod constraint;
mod debug;
mod goals;
mod lanes;
mod limb;
mod plan;
mod reach;
mod rebuild;
mod reconstruct;
mod setup;
mod spine;
mod spline;
#[cfg(test)]
mod test_support;
mod tuning;

pub use debug::{ConstraintKind, DebugConstraint, DebugParticle, IkDebug, IkPhase};
pub use limb::{HAND_SIDE_LEAN, PUSHED_PIN_DEPTH, pushed_pin_kept};
pub use tuning::{IkTuning, LimbTuning, SpineTuning};

use crate::creature::Creature;
use crate::eval::Goals;
use crate::pose::BodyPose;
use crate::shared::{PerCreature, with_workspace};
use glam::Vec3A;
use goals::{FrameGoals, RootPose};
use plan::Plan;
use setup::Rig;
use std::cell::RefCell;
use std::sync::{Arc, Mutex, PoisonError};

/// How many goal masks a solver keeps at hand. A clip switches between a handful; a
/// game's layers rarely reach this. The least recently used one is dropped when full.
const PLAN_CACHE: usize = 8;

/// What every solver of one creature with one tuning can share: the rig and the plans
/// compiled so far. A thousand characters of one species then read one copy of it each
/// frame instead of a thousand, which keeps a crowd's frame in the processor's caches.
#[derive(Debug)]
struct SharedPlans {
    rig: Arc<Rig>,
    plans: Mutex<Vec<Arc<Plan>>>,
}

static SHARED: PerCreature<IkTuning, SharedPlans> = PerCreature::new();

fn shared_plans(creature: &Arc<Creature>, tuning: &IkTuning) -> Arc<SharedPlans> {
    SHARED.get(creature, tuning, || SharedPlans {
        rig: Arc::new(Rig::new(creature, tuning)),
        plans: Mutex::new(Vec::new()),
    })
}

/// A solve's working memory. Nothing in it outlives a solve (the solver never looks at the
/// last frame's solution), so one per thread serves every solver on that thread: a crowd's
/// characters reuse buffers that stay in the processor's caches, instead of each dragging
/// its own through them every frame. Sized for the largest creature seen, never shrunk.
#[derive(Debug, Default)]
struct Workspace {
    key: Vec<u64>,
    frame: FrameGoals,
    spine_particles: Vec<Vec3A>,
    anti_buckling_rest: Vec<Vec3A>,
    spine_fk: spine::SpineFk,
    limb_particles: Vec<Vec3A>,
    limb_scratch: limb::LimbScratch,
    scratch: reconstruct::Scratch,
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::new(Workspace::default());
}

/// Solves a creature's goals into body poses. Built once per creature; a frame allocates
/// nothing once its goal mask has been seen (the working memory is the thread's).
#[derive(Clone, Debug)]
pub struct IkSolver {
    tuning: IkTuning,
    rig: Arc<Rig>,
    /// The plans this solver has used lately, and when (by `clock`).
    plans: Vec<Arc<Plan>>,
    last_used: Vec<u64>,
    /// Where plans come from when shared with the creature's other solvers.
    shared: Option<Arc<SharedPlans>>,
    current: usize,
    clock: u64,
    debug: IkDebug,
    /// The tuning changed since the rig and plans were built.
    stale: bool,
}

impl IkSolver {
    /// Asks for its fields, the tuning's too (see `Character::update_many`).
    pub(crate) fn prefetch_struct(&self) {
        use crate::shared::prefetch;
        prefetch(&self.tuning.spine);
        prefetch(&self.tuning.limb);
        prefetch(&self.tuning.jiggle);
        prefetch(&self.tuning.tolerance);
        prefetch(&self.tuning.record_debug);
        prefetch(&self.rig);
        prefetch(&self.shared);
        prefetch(&self.clock);
        prefetch(&self.stale);
        prefetch(&self.plans);
        prefetch(&self.last_used);
        prefetch(&self.current);
        prefetch(&self.debug);
    }

    /// Asks for its per-character buffers without waiting (see `Character::update_many`).
    pub(crate) fn prefetch(&self) {
        crate::shared::prefetch_lines(&self.last_used);
        crate::shared::prefetch_lines(&self.plans);
    }

    /// A solver for `creature` with the default tuning and plans of its own.
    pub fn new(creature: &Creature) -> Self {
        Self::with_tuning(creature, IkTuning::default())
    }

    /// A solver for `creature` with `tuning` and plans of its own (see
    /// [`IkSolver::shared`] for a crowd).
    pub fn with_tuning(creature: &Creature, tuning: IkTuning) -> Self {
        Self::build(Arc::new(Rig::new(creature, &tuning)), None, tuning)
    }

    /// A solver that shares its rig and compiled plans with every other solver made this
    /// way for the same creature (the same `Arc`) and tuning: the way to pose a crowd.
    /// It solves exactly as [`IkSolver::with_tuning`] does.
    pub fn shared(creature: &Arc<Creature>, tuning: IkTuning) -> Self {
        let shared = shared_plans(creature, &tuning);
        Self::build(Arc::clone(&shared.rig), Some(shared), tuning)
    }

    fn build(rig: Arc<Rig>, shared: Option<Arc<SharedPlans>>, tuning: IkTuning) -> Self {
        IkSolver {
            rig,
            tuning,
            shared,
            plans: Vec::new(),
            last_used: Vec::new(),
            current: 0,
            clock: 0,
            debug: IkDebug::default(),
            stale: false,
        }
    }

    /// The tuning the solver runs with.
    pub fn tuning(&self) -> &IkTuning {
        &self.tuning
    }

    /// Records (or stops recording) [`IkSolver::debug`] from the next solve. It shapes
    /// nothing the solver compiled, so unlike [`IkSolver::tuning_mut`] it keeps the plans.
    pub fn set_record_debug(&mut self, on: bool) {
        self.tuning.record_debug = on;
    }

    /// Changes the tuning. Compiled plans and the delegation rule are rebuilt on the next
    /// solve (some numbers shape them).
    pub fn tuning_mut(&mut self) -> &mut IkTuning {
        self.stale = true;
        self.shared = None;
        &mut self.tuning
    }

    /// Character-space poses of every body that best meet `goals`: the root where its goal
    /// (or rest pose) puts it, the spine and limbs bent toward the other goals, and bodies
    /// without IK following their parents rigidly (the jiggles move those next).
    pub fn solve(&mut self, creature: &Creature, goals: &Goals, out: &mut Vec<BodyPose>) {
        self.solve_posing(creature, goals, out, true);
    }

    /// [`IkSolver::solve`] for a caller that poses every body without IK itself (the
    /// jiggles, which start each from its parent's solved pose): those are left at the
    /// identity rather than posed twice. A body that delegated its goal to its parent (a
    /// mouth sent somewhere) has IK, and is posed as by `solve`.
    pub fn solve_ik_bodies(&mut self, creature: &Creature, goals: &Goals, out: &mut Vec<BodyPose>) {
        self.solve_posing(creature, goals, out, false);
    }

    fn solve_posing(
        &mut self,
        creature: &Creature,
        goals: &Goals,
        out: &mut Vec<BodyPose>,
        followers: bool,
    ) {
        let n = creature.len();
        out.clear();
        out.resize(n, BodyPose::IDENTITY);
        if self.stale || self.rig.len() != n || goals.len() != n {
            self.stale = false;
            // A solver for another creature, or goals for another creature: rebuild what
            // we can and pose the rest pose rather than read out of bounds. What it shared
            // no longer fits it.
            self.rig = Arc::new(Rig::new(creature, &self.tuning));
            self.shared = None;
            self.plans.clear();
            self.last_used.clear();
            if goals.len() != n {
                for (b, body) in creature.bodies().iter().enumerate() {
                    out[b] = BodyPose::new(body.position, body.rotation);
                }
                return;
            }
        }
        with_workspace(&WORKSPACE, |ws| {
            self.solve_in(creature, goals, out, ws, followers)
        });
    }

    fn solve_in(
        &mut self,
        creature: &Creature,
        goals: &Goals,
        out: &mut [BodyPose],
        ws: &mut Workspace,
        followers: bool,
    ) {
        plan::goal_key(&self.rig, goals, &mut ws.key);
        self.current = self.plan_for_key(creature, &ws.key);
        self.clock += 1;
        self.last_used[self.current] = self.clock;
        let plan = &self.plans[self.current];
        let rig = &self.rig;
        let root = RootPose::new(rig, goals);
        ws.frame.prepare(plan, rig, goals, &root);
        ws.spine_fk.pose(&plan.spine, rig, &ws.frame, &root);

        let (spine_passes, buckling) = spine::solve_spine(
            &plan.spine,
            &self.tuning.spine,
            &ws.frame,
            &root,
            &ws.spine_fk,
            &mut ws.spine_particles,
            &mut ws.anti_buckling_rest,
        );
        if plan.spine.unmoved(&ws.spine_particles, &ws.spine_fk) {
            reconstruct::spine_rest_poses(&plan.spine, rig, &root, &mut ws.scratch, out);
        } else {
            reconstruct::spine_poses(
                &plan.spine,
                rig,
                &ws.frame,
                &root,
                &mut ws.spine_particles,
                &mut ws.scratch,
                out,
            );
        }
        let limb_passes = limb::solve_limbs(
            &plan.limbs,
            &self.tuning.limb,
            &mut ws.frame,
            out,
            &ws.scratch.delta,
            &mut ws.limb_particles,
            &mut ws.limb_scratch,
        );
        reconstruct::limb_poses(
            &plan.limbs,
            rig,
            &ws.frame,
            &mut ws.limb_particles,
            &mut ws.scratch.delta,
            out,
        );
        let followers = if followers {
            &plan.followers
        } else {
            &plan.delegated
        };
        reconstruct::follower_poses(followers, rig, &mut ws.scratch.delta, out);

        if self.tuning.record_debug {
            debug::record(
                &mut self.debug,
                debug::Solved {
                    spine: &plan.spine,
                    limbs: &plan.limbs,
                    goals: &ws.frame,
                    spine_particles: &ws.spine_particles,
                    limb_particles: &ws.limb_particles,
                    anti_buckling_rest: &ws.anti_buckling_rest,
                    passes: [spine_passes, limb_passes],
                    buckling,
                },
            );
        }
    }

    /// Whether each body had IK in the last solve: it or a body below it had a goal. The
    /// root always has IK. Jiggles move only the bodies without.
    pub fn has_ik(&self) -> &[bool] {
        self.plans
            .get(self.current)
            .map_or(&[], |p| p.has_ik.as_slice())
    }

    /// Whether this solver and `other` draw their compiled plans from one shared cache
    /// (both made by [`IkSolver::shared`] for one creature and tuning, neither retuned).
    pub fn shares_plans_with(&self, other: &IkSolver) -> bool {
        match (&self.shared, &other.shared) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// What the last solve did, for the editor's overlays and for tests.
    pub fn debug(&self) -> &IkDebug {
        &self.debug
    }

    fn plan_for_key(&mut self, creature: &Creature, key: &[u64]) -> usize {
        // A word or two compared in line: `==` on slices calls `memcmp`, which costs
        // more than the comparison on every solve.
        let same = |a: &[u64]| a.len() == key.len() && a.iter().zip(key).all(|(x, y)| x == y);
        if self.plans.get(self.current).is_some_and(|p| same(&p.key)) {
            return self.current;
        }
        if let Some(i) = self.plans.iter().position(|p| p.key == key) {
            return i;
        }
        let plan = match &self.shared {
            Some(shared) => {
                let mut plans = shared.plans.lock().unwrap_or_else(PoisonError::into_inner);
                match plans.iter().find(|p| p.key == key) {
                    Some(plan) => Arc::clone(plan),
                    None => {
                        let plan = Arc::new(Plan::build(creature, &self.rig, &self.tuning, key));
                        plans.push(Arc::clone(&plan));
                        plan
                    }
                }
            }
            None => Arc::new(Plan::build(creature, &self.rig, &self.tuning, key)),
        };
        if self.plans.len() < PLAN_CACHE {
            self.plans.push(plan);
            self.last_used.push(0);
            self.plans.len() - 1
        } else {
            let oldest = (0..self.plans.len())
                .min_by_key(|&i| self.last_used[i])
                .unwrap_or(0);
            self.plans[oldest] = plan;
            oldest
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::creature::Cap;
    use glam::{Quat, Vec3};

    /// The shortcut for a spine no constraint moved gives what the full rebuild gives: on
    /// every sample creature, with the root moved and turned and every grasper and foot sent
    /// where the root carries its rest pose (in reach, so no limb pulls on the spine).
    #[test]
    fn an_unmoved_spine_is_posed_as_the_full_rebuild_poses_it() {
        let tuning = IkTuning::default();
        let mut unmoved = 0;
        for creature in crate::test_samples::creatures().unwrap() {
            let rig = Rig::new(&creature, &tuning);
            let mut goals = Goals::new(creature.len());
            let (r, turn, shift) = (
                creature.root(),
                Quat::from_rotation_y(0.4) * Quat::from_rotation_x(0.1),
                Vec3::new(0.3, 0.05, -0.2),
            );
            let carried = |p: Vec3| {
                creature.body(r).position + shift + turn * (p - creature.body(r).position)
            };
            goals.set_position(r, carried(creature.body(r).position), 1.0);
            goals.set_rotation(r, turn * creature.body(r).rotation, 1.0);
            for (b, body) in creature.bodies().iter().enumerate() {
                if body.has_cap(&Cap::Grasper) || body.has_cap(&Cap::Foot) {
                    goals.set_position(b, carried(body.position), 1.0);
                }
            }
            let mut key = Vec::new();
            plan::goal_key(&rig, &goals, &mut key);
            let plan = Plan::build(&creature, &rig, &tuning, &key);
            let root = RootPose::new(&rig, &goals);
            let mut frame = FrameGoals::default();
            frame.prepare(&plan, &rig, &goals, &root);
            let mut fk = spine::SpineFk::default();
            fk.pose(&plan.spine, &rig, &frame, &root);
            let (mut p, mut rest) = (Vec::new(), Vec::new());
            spine::solve_spine(
                &plan.spine,
                &tuning.spine,
                &frame,
                &root,
                &fk,
                &mut p,
                &mut rest,
            );
            if !plan.spine.unmoved(&p, &fk) {
                continue;
            }
            unmoved += 1;
            let n = creature.len();
            let (mut full, mut short) = (vec![BodyPose::IDENTITY; n], vec![BodyPose::IDENTITY; n]);
            let (mut s_full, mut s_short) = (
                reconstruct::Scratch::default(),
                reconstruct::Scratch::default(),
            );
            reconstruct::spine_poses(
                &plan.spine,
                &rig,
                &frame,
                &root,
                &mut p,
                &mut s_full,
                &mut full,
            );
            reconstruct::spine_rest_poses(&plan.spine, &rig, &root, &mut s_short, &mut short);
            for b in std::iter::once(r).chain(plan.spine.fk.iter().map(|f| f.body as usize)) {
                let name = &creature.body(b).name;
                assert!(
                    full[b].position.distance(short[b].position) < 1e-5 * creature.size(),
                    "{} {name}: {} vs {}",
                    creature.name(),
                    full[b].position,
                    short[b].position
                );
                assert!(
                    full[b].rotation.dot(short[b].rotation).abs() > 1.0 - 1e-6,
                    "{} {name}",
                    creature.name()
                );
                assert!(
                    s_full.delta[b].dot(s_short.delta[b]).abs() > 1.0 - 1e-6,
                    "{} {name}: what its children follow",
                    creature.name()
                );
            }
        }
        assert!(
            unmoved >= 5,
            "only {unmoved} sample creatures left their spine unmoved"
        );
    }
}
