//! The validation grid (paper section 5, Figure 9): every clip on every creature in every
//! variant, checked automatically for what testers used to look for by eye.
//!
//! Each variant plays once in place, with external target 0 where a game would hand it to
//! that variant ([`TargetScene`]: ahead of the creature and sweeping out to the variant's
//! side, or beside its lead body when the game would give the target ahead to another
//! grasper), and once while walking.

pub mod cells;
mod checks;
mod config;
pub mod report;
#[cfg(feature = "thumbnails")]
pub mod thumbnail;

pub use config::{VALIDATION_FORMAT, ValidationConfig};

use anymorph_runtime::action::Action;
use anymorph_runtime::bind::bind;
use anymorph_runtime::clip::Clip;
use anymorph_runtime::creature::BodyId;
use anymorph_runtime::creature::Creature;
use anymorph_runtime::gait::FootPhase;
use anymorph_runtime::ik::IkTuning;
use anymorph_runtime::player::{Character, PlayParams, VariantChoice};
use anymorph_runtime::pose::BodyPose;
use anymorph_runtime::query::SecondaryContext;
use checks::{
    Overlaps, StretchLimits, intended_contacts, within_pins, worst_penetration, worst_stretch,
};
use glam::Vec3;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::Arc;

/// What a failure is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    Nan,
    GoalError,
    BoneStretch,
    FootSlip,
    GroundPenetration,
    Interpenetration,
    Jitter,
}

impl Check {
    pub const ALL: [Check; 7] = [
        Check::Nan,
        Check::GoalError,
        Check::BoneStretch,
        Check::FootSlip,
        Check::GroundPenetration,
        Check::Interpenetration,
        Check::Jitter,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Check::Nan => "nan",
            Check::GoalError => "goal_error",
            Check::BoneStretch => "bone_stretch",
            Check::FootSlip => "foot_slip",
            Check::GroundPenetration => "ground_penetration",
            Check::Interpenetration => "interpenetration",
            Check::Jitter => "jitter",
        }
    }
}

/// The worst breach of one check in one variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    pub check: Check,
    /// Clip-local time of the worst moment.
    pub time_secs: f32,
    /// The frame of the run (in place, or walking when `walking`) where it happened, to
    /// replay it with [`pose_at`]. For NaN it is the last frame before the NaN.
    #[serde(default)]
    pub frame: usize,
    pub body: String,
    /// The measured value and the limit it broke, in the check's units (see the config).
    pub value: f32,
    pub limit: f32,
    /// Whether the creature was walking when it happened.
    pub walking: bool,
    /// The second body, for checks between two (interpenetration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other: Option<String>,
}

impl Failure {
    /// One line for a tester: the check, the bodies, when, and the value against its limit.
    /// The report, its cell tooltips and the editor's grid all say it this way.
    pub fn describe(&self) -> String {
        let bodies = match &self.other {
            Some(o) => format!("{} and {o}", self.body),
            None => self.body.clone(),
        };
        format!(
            "{} on {bodies} at {:.2} s{} ({:.3} > {:.3})",
            self.check.name(),
            self.time_secs,
            if self.walking { " while walking" } else { "" },
            self.value,
            self.limit
        )
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantReport {
    pub variant: usize,
    pub label: String,
    pub failures: Vec<Failure>,
}

/// One clip on one creature, or one action on one creature (then `clip` is the branch that
/// played, or empty when none did).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellReport {
    pub clip: String,
    pub creature: String,
    /// The grid's row when it is by action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The action deliberately leaves this creature's morphology out: grey, not failed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub excluded: bool,
    /// Why the clip (or no branch of the action) binds; `None` when it does.
    pub reason: Option<String>,
    /// How many variants the clip has on the creature (only the first few are checked).
    pub variant_count: usize,
    pub variants: Vec<VariantReport>,
}

impl CellReport {
    pub fn binds(&self) -> bool {
        self.reason.is_none()
    }

    pub fn passed(&self) -> bool {
        self.binds() && self.variants.iter().all(|v| v.failures.is_empty())
    }

    /// The grid's row: the action, or the clip.
    pub fn row(&self) -> &str {
        self.action.as_deref().unwrap_or(&self.clip)
    }

    /// Whether the cell counts in the pass rate. A clip that does not bind is the clip's own
    /// choice (its branch predicates say so); an action is meant to play on every creature
    /// its intent does not leave out, so there a cell that does not bind is a failure.
    pub fn counts(&self) -> bool {
        match self.action {
            None => self.binds(),
            Some(_) => !self.excluded,
        }
    }

    /// The failure furthest past its limit, and its variant: the moment to look at.
    pub fn worst(&self) -> Option<(&VariantReport, &Failure)> {
        self.variants
            .iter()
            .flat_map(|v| v.failures.iter().map(move |f| (v, f)))
            .max_by(|a, b| (a.1.value / a.1.limit).total_cmp(&(b.1.value / b.1.limit)))
    }
}

/// Plays `clip` on `creature` in every variant (up to the configured number) and checks it.
pub fn check_cell(
    clip: &Arc<Clip>,
    creature: &Arc<Creature>,
    config: &ValidationConfig,
) -> CellReport {
    let binding = bind(clip, creature);
    let mut cell = CellReport {
        clip: clip.name.clone(),
        creature: creature.name().to_string(),
        action: None,
        excluded: false,
        reason: binding.reason.clone(),
        variant_count: binding.variants.len(),
        variants: Vec::new(),
    };
    if !binding.binds() {
        return cell;
    }
    let overlaps = Overlaps::of(creature);
    for (v, variant) in binding
        .variants
        .iter()
        .enumerate()
        .take(config.variants_per_cell)
    {
        let mut failures = Vec::new();
        let overlaps = overlaps.excluding(&contacts_of(clip, creature, &variant.bodies));
        in_place(clip, creature, v, config, &overlaps, &mut failures, None);
        if !creature.legs().is_empty() {
            // Feet the clip animates are the clip's; only gait-placed feet can slip.
            let clip_feet: BTreeSet<usize> = variant
                .bodies
                .iter()
                .zip(&clip.channels)
                .filter(|(_, c)| c.position.is_some() && !c.muted)
                .flat_map(|(bodies, _)| bodies.iter().copied())
                .collect();
            walking(clip, creature, v, config, &clip_feet, &mut failures, None);
        }
        cell.variants.push(VariantReport {
            variant: v,
            label: variant.label.clone(),
            failures,
        });
    }
    cell
}

/// Plays `action` on `creature` as a game would (its first branch that binds) and checks
/// that branch as [`check_cell`] checks a clip.
pub fn check_action_cell(
    action: &Action,
    creature: &Arc<Creature>,
    config: &ValidationConfig,
) -> CellReport {
    let excluded = action.leaves_out(creature);
    match action.branch_for(creature) {
        Ok(k) => CellReport {
            action: Some(action.name.clone()),
            excluded,
            ..check_cell(&action.branches[k], creature, config)
        },
        Err(reasons) => CellReport {
            clip: String::new(),
            creature: creature.name().to_string(),
            action: Some(action.name.clone()),
            excluded,
            reason: Some(if reasons.is_empty() {
                "the action has no branches".into()
            } else {
                reasons
            }),
            variant_count: 0,
            variants: Vec::new(),
        },
    }
}

/// Replays a variant's run (in place, or walking when `walking`) and returns every body's
/// world pose at `frame`: the moment a failure happened ([`Failure::frame`]), which a
/// thumbnail shows. `None` if the clip does not play or the run ends before that frame.
pub fn pose_at(
    clip: &Arc<Clip>,
    creature: &Arc<Creature>,
    config: &ValidationConfig,
    variant: usize,
    frame: usize,
    walking_run: bool,
) -> Option<Vec<BodyPose>> {
    let mut capture = Capture { frame, pose: None };
    // The replay's own findings are the ones already reported.
    let mut ignored = Vec::new();
    if walking_run {
        let feet = BTreeSet::new();
        walking(
            clip,
            creature,
            variant,
            config,
            &feet,
            &mut ignored,
            Some(&mut capture),
        );
    } else {
        let overlaps = Overlaps::of(creature);
        in_place(
            clip,
            creature,
            variant,
            config,
            &overlaps,
            &mut ignored,
            Some(&mut capture),
        );
    }
    capture.pose.filter(|p| p.iter().all(BodyPose::is_finite))
}

/// The frame a replay stops at, and the world pose it found there.
struct Capture {
    frame: usize,
    pose: Option<Vec<BodyPose>>,
}

impl Capture {
    /// Keeps the pose if this is the frame; true when the replay can stop.
    fn take(&mut self, frame: usize, ch: &Character, bodies: usize) -> bool {
        if frame != self.frame {
            return false;
        }
        self.pose = Some((0..bodies).filter_map(|b| ch.world_pose(b)).collect());
        true
    }
}

/// Bodies a variant's channels bring to other bodies of the creature on purpose.
fn contacts_of(
    clip: &Clip,
    creature: &Creature,
    bodies: &[Vec<BodyId>],
) -> BTreeSet<(BodyId, BodyId)> {
    let ends = clip
        .channels
        .iter()
        .zip(bodies)
        .filter(|(c, _)| !c.muted)
        .filter_map(|(c, moved)| match &c.secondary {
            Some(SecondaryContext::Query(q)) => Some((moved, q.select(creature))),
            _ => None,
        })
        .flat_map(|(moved, targets)| {
            moved
                .iter()
                .flat_map(move |&m| targets.clone().into_iter().map(move |t| (m, t)))
                .collect::<Vec<_>>()
        });
    intended_contacts(creature, ends)
}

/// Keeps the worst value per check.
fn record(failures: &mut Vec<Failure>, f: Failure) {
    if f.value <= f.limit {
        return;
    }
    match failures.iter_mut().find(|x| x.check == f.check) {
        Some(x) if x.value >= f.value => {}
        Some(x) => *x = f,
        None => failures.push(f),
    }
}

/// Where the grid had external target 0 `t` seconds into `variant` of `clip` on `creature`
/// (character space), so a tester shown that moment sees the pose the grid checked; `None`
/// when the clip aims at no external target.
pub fn target_at(
    clip: &Arc<Clip>,
    creature: &Arc<Creature>,
    variant: usize,
    t: f32,
) -> Option<Vec3> {
    aims_at_target(clip).then(|| TargetScene::of(clip, creature, variant).at(creature, t))
}

/// Whether a channel of `clip` aims at external target 0 (reaches for it, looks at it).
fn aims_at_target(clip: &Clip) -> bool {
    clip.channels
        .iter()
        .any(|c| matches!(c.secondary, Some(SecondaryContext::ExternalTarget(0))))
}

/// Where the grid puts external target 0 for one variant: where a game would hand the
/// target to that variant. A clip aimed at a target (reach for it, look at it) leaves the
/// choice of grasper to the game, which picks the one nearest the target
/// ([`Character::choose_variant`]); checking a hind hand against a target ahead of the
/// front hands checks a reach no game plays, through the front arms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TargetScene {
    /// Ahead of the creature, bobbing and sweeping out to its left; in the mirror image
    /// (out to the right) for a mirrored variant, which plays the clip mirrored, so a right
    /// hand does not reach across its chest for a target its left twin takes on its side.
    Ahead { mirrored: bool },
    /// The variant's lead body would not be handed the target ahead: the target sweeps in
    /// and out beyond that body's rest position, along its limb (`direction`, from where
    /// the limb leaves the spine), bobbing the same way, `reach` being the sweep's scale.
    Beside {
        from: Vec3,
        direction: Vec3,
        reach: f32,
    },
}

impl TargetScene {
    /// The scene for `variant` of `clip` on `creature`: ahead when the player's own chooser
    /// picks the variant (or a twin of its lead body) for the target ahead at the middle of
    /// the clip, beside its lead body otherwise, as far out as the chooser still picks it
    /// throughout (half its limb length out, or a smaller fraction on a creature whose
    /// graspers crowd together).
    pub fn of(clip: &Arc<Clip>, creature: &Arc<Creature>, variant: usize) -> TargetScene {
        let mut ch = Character::new(Arc::clone(creature));
        let lead = |ch: &mut Character, v: usize| {
            ch.variants(clip)
                .get(v)
                .and_then(|x| x.choices.first().copied())
        };
        let mirrored = ch.variants(clip).get(variant).is_some_and(|v| v.mirrored);
        let ahead = TargetScene::Ahead { mirrored };
        let Some(own) = lead(&mut ch, variant) else {
            return ahead;
        };
        let at = |b: BodyId| creature.body(b).position;
        let picked_at = |ch: &mut Character, scene: &TargetScene, times: &[f32]| {
            times.iter().all(|&t| {
                ch.choose_variant(clip, scene.at(creature, t))
                    .and_then(|v| lead(ch, v))
                    .is_some_and(|b| at(b).distance(at(own)) <= 1e-4 * creature.size())
            })
        };
        if picked_at(&mut ch, &ahead, &[0.5 * clip.duration_secs]) {
            return ahead;
        }
        let first = checks::limb_root(creature, own);
        let side = if mirrored { -Vec3::X } else { Vec3::X };
        let direction = (at(own) - creature.pivot(first))
            .try_normalize()
            .unwrap_or(side);
        let length = creature.limb_length(own).max(0.05 * creature.size());
        let throughout: Vec<f32> = (0..=20)
            .map(|i| i as f32 / 20.0 * clip.duration_secs)
            .collect();
        [1.0, 0.6, 0.35]
            .into_iter()
            .map(|k| TargetScene::Beside {
                from: at(own),
                direction,
                reach: k * length,
            })
            .find(|scene| picked_at(&mut ch, scene, &throughout))
            .unwrap_or(ahead)
    }

    /// Where the target is `t` seconds into the clip, in character space.
    pub fn at(&self, creature: &Creature, t: f32) -> Vec3 {
        match *self {
            TargetScene::Ahead { mirrored } => {
                let side = if mirrored { -1.0 } else { 1.0 };
                let offset = Vec3::new(0.3 * side * t.sin(), 0.15 * (2.0 * t).cos(), 0.55);
                creature.bounds().center() * Vec3::new(side, 1.0, 1.0) + offset * creature.size()
            }
            TargetScene::Beside {
                from,
                direction,
                reach,
            } => {
                let out = direction * (0.5 + 0.3 * t.sin()) + Vec3::Y * 0.15 * (2.0 * t).cos();
                from + out * reach
            }
        }
    }
}

fn in_place(
    clip: &Arc<Clip>,
    creature: &Arc<Creature>,
    variant: usize,
    config: &ValidationConfig,
    overlaps: &Overlaps,
    failures: &mut Vec<Failure>,
    mut capture: Option<&mut Capture>,
) {
    let mut ch = Character::new(Arc::clone(creature));
    let params = PlayParams {
        variant: VariantChoice::Index(variant),
        hold: true,
        ..Default::default()
    };
    if ch.play(clip, params).is_err() {
        return;
    }
    // Only a clip that aims at the target needs its scene (working it out asks the player's
    // chooser up to 63 times).
    let scene = aims_at_target(clip).then(|| TargetScene::of(clip, creature, variant));
    let dt = 1.0 / config.fps;
    let frames = (clip.duration_secs * config.fps).ceil() as usize + 1;
    let size = creature.size();
    let name = |b: usize| creature.body(b).name.clone();
    let mut previous_positions: [Vec<Vec3>; 3] = Default::default();
    let mut previous_acc = vec![Vec3::ZERO; creature.len()];
    let tuning = IkTuning::default();
    let limb_stretch = (tuning.limb.min_stretch, tuning.limb.max_stretch);
    let stretch_limits = StretchLimits::of(&tuning);
    let mut pins: Vec<(BodyId, Vec3)> = Vec::new();
    for f in 0..frames {
        let t = f as f32 * dt;
        if let Some(scene) = &scene {
            ch.set_target(0, scene.at(creature, t));
        }
        let pose = ch.update(if f == 0 { 0.0 } else { dt }).to_vec();
        if let Some(c) = capture.as_deref_mut()
            && c.take(f, &ch, creature.len())
        {
            return;
        }
        let at = |check, value: f32, limit: f32, body: usize| Failure {
            check,
            time_secs: t.min(clip.duration_secs),
            frame: if check == Check::Nan {
                f.saturating_sub(1)
            } else {
                f
            },
            body: name(body),
            value,
            limit,
            walking: false,
            other: None,
        };
        if let Some(b) = pose.iter().position(|p| !p.is_finite()) {
            record(failures, at(Check::Nan, 1.0, 0.0, b));
            return;
        }
        let goals = ch.goals();
        // A goal beyond the limb's reach is clamped by the IK on purpose; what is left to
        // miss is the reachable point toward it. A rotation goal sets where the joint must
        // be; one fading in does so blended from the root-relative rest rotation, as the IK
        // turns 6-DOF goals into joint goals.
        pins.clear();
        pins.extend(goals.bodies().filter_map(|b| {
            let (goal, w) = goals.position(b)?;
            if w < 0.999 {
                return None;
            }
            let root = creature.root();
            let turn = goals.rotation(b).map(|(q, w)| {
                if w >= 0.999 {
                    q
                } else {
                    let delta = pose[root].rotation * creature.body(root).rotation.inverse();
                    (delta * creature.body(b).rotation).slerp(q, w).normalize()
                }
            });
            let reachable = overlaps
                .reachable_outside(creature, &pose, b, goal, turn, limb_stretch)
                .unwrap_or(goal);
            Some((b, reachable))
        }));
        for &(b, reachable) in &pins {
            let reach = if creature.limb_length(b) > 0.0 {
                creature.limb_length(b)
            } else {
                0.1 * size
            };
            // A limb's body is also held by the feet pinned beside it (a hand on a branch of
            // a planted leg).
            let goal = within_pins(creature, &pose, &pins, b, reachable, limb_stretch.1);
            let err = goal.distance(pose[b].position) / reach.max(0.01 * size);
            record(failures, at(Check::GoalError, err, config.goal_error, b));
        }
        if let Some((s, b)) = worst_stretch(creature, &pose, stretch_limits) {
            record(failures, at(Check::BoneStretch, s, config.bone_stretch, b));
        }
        if let Some((d, a, b)) = overlaps.worst(&pose) {
            record(
                failures,
                Failure {
                    other: Some(name(b)),
                    ..at(Check::Interpenetration, d, config.interpenetration, a)
                },
            );
        }
        if let Some((d, b)) = worst_penetration(creature, &pose, |_, _| 0.0) {
            record(
                failures,
                at(Check::GroundPenetration, d, config.ground_penetration, b),
            );
        }
        // Jitter: acceleration that flips direction from one frame to the next, strongly
        // both times. Smooth fast motion accelerates one way for a while.
        previous_positions.rotate_left(1);
        previous_positions[2].clear();
        previous_positions[2].extend(pose.iter().map(|p| p.position));
        if f >= 2 {
            let [a, b, c] = &previous_positions;
            for body in 0..creature.len() {
                let acc = c[body] - 2.0 * b[body] + a[body];
                let prev = previous_acc[body];
                if f >= 3 && acc.dot(prev) < -0.5 * acc.length() * prev.length() {
                    let value = acc.length().min(prev.length()) / size;
                    record(failures, at(Check::Jitter, value, config.jitter, body));
                }
                previous_acc[body] = acc;
            }
        }
    }
}

fn walking(
    clip: &Arc<Clip>,
    creature: &Arc<Creature>,
    variant: usize,
    config: &ValidationConfig,
    clip_feet: &BTreeSet<usize>,
    failures: &mut Vec<Failure>,
    mut capture: Option<&mut Capture>,
) {
    let mut ch = Character::new(Arc::clone(creature));
    let params = PlayParams {
        variant: VariantChoice::Index(variant),
        looping: Some(true),
        ..Default::default()
    };
    let Ok(id) = ch.play(clip, params) else {
        return;
    };
    let gear = ch.gait().gear().clone();
    let leg = gear.groups.get(gear.reference).map_or(1.0, |g| g.length);
    ch.set_locomotion(Vec3::Z * config.walk_speed_legs * leg, 0.0);
    let dt = 1.0 / config.fps;
    for _ in 0..config.fps as usize {
        ch.update(dt);
    }
    let frames = ((clip.duration_secs.max(3.0)) * config.fps) as usize;
    let mut stance_start: Vec<Option<Vec3>> = vec![None; gear.limbs.len()];
    for f in 0..frames {
        ch.update(dt);
        // The clip has played through the warm-up too: its own clock says which moment of
        // it this is, as the editor shows it.
        let t = ch.play_state(id).map_or(0.0, |(t, _)| t);
        if let Some(c) = capture.as_deref_mut()
            && c.take(f, &ch, creature.len())
        {
            return;
        }
        let world: Vec<_> = (0..creature.len())
            .filter_map(|b| ch.world_pose(b))
            .collect();
        if world.len() != creature.len() || world.iter().any(|p| !p.is_finite()) {
            record(
                failures,
                Failure {
                    check: Check::Nan,
                    time_secs: t,
                    frame: f.saturating_sub(1),
                    body: String::new(),
                    value: 1.0,
                    limit: 0.0,
                    walking: true,
                    other: None,
                },
            );
            return;
        }
        for (i, limb) in gear.limbs.iter().enumerate() {
            if clip_feet.contains(&limb.foot) {
                continue;
            }
            let now = world[limb.foot].position;
            match (ch.gait().feet()[i].phase, stance_start[i]) {
                (FootPhase::Stance, None) => stance_start[i] = Some(now),
                (FootPhase::Stance, Some(s)) => record(
                    failures,
                    Failure {
                        check: Check::FootSlip,
                        time_secs: t,
                        frame: f,
                        body: creature.body(limb.foot).name.clone(),
                        value: now.distance(s) / limb.length,
                        limit: config.foot_slip,
                        walking: true,
                        other: None,
                    },
                ),
                (FootPhase::Flight, _) => stance_start[i] = None,
            }
        }
        let terrain = *ch.terrain();
        if let Some((d, b)) = worst_penetration(creature, &world, |x, z| terrain.height(x, z)) {
            record(
                failures,
                Failure {
                    check: Check::GroundPenetration,
                    time_secs: t,
                    frame: f,
                    body: creature.body(b).name.clone(),
                    value: d,
                    limit: config.ground_penetration,
                    walking: true,
                    other: None,
                },
            );
        }
    }
}
