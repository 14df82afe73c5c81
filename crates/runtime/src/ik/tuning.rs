//! Every number that shapes the particle IK solver and the jiggles, with the defaults the
//! sample creatures were tuned on. `docs/IK.md` explains what each one does to a pose.

use crate::jiggle::JiggleTuning;

/// The solver's tuning: iteration counts, constraint masses, the soft-correction zone,
/// stretch limits and the anti-buckling thresholds, per phase, plus the jiggles'.
///
/// Lengths are relative to each constraint's rest length, so one tuning fits a 20 cm mouse
/// and a 6 m giant.
#[derive(Clone, Debug, PartialEq)]
pub struct IkTuning {
    /// The spine phase: the trunk, necks and tails, each limb as one constraint.
    pub spine: SpineTuning,
    /// The limb phase: arms, legs and the rest hung off the spine.
    pub limb: LimbTuning,
    /// The passive secondary motion run after the solve.
    pub jiggle: JiggleTuning,
    /// A non-spine leaf attached to a (non-root) spine body delegates its goal to that body
    /// when its largest half extent is at most this fraction of the spine body's; mouths,
    /// eyes and ears always do (paper 4.3.1, "Delegated Goals").
    pub delegate_size_ratio: f32,
    /// Either phase stops iterating early once a pass finds no constraint off by more than
    /// this fraction of the creature's size (beyond what its soft zone lets it keep). It
    /// only ever shortens a solve; nothing carries over to the next frame.
    pub tolerance: f32,
    /// Fill [`crate::ik::IkDebug`] on every solve. Off by default: a game does
    /// not look at it and saves the copying; the editor and `anymorph solve` switch it on.
    pub record_debug: bool,
}

/// The spine phase (paper 4.3.2).
#[derive(Clone, Debug, PartialEq)]
pub struct SpineTuning {
    /// Outer iterations (the paper uses 5). The buckling metric is judged once the passes
    /// alone have run, and a buckled spine is solved again with the pull toward rest.
    pub outer_iterations: u32,
    /// Passes over the constraints, leaves inward, per outer iteration.
    pub inner_iterations: u32,
    /// Width of the soft-correction zone, as a fraction of a constraint's rest length:
    /// errors smaller than this are corrected only partly, so the spine gives a little.
    pub soft_zone: f32,
    /// Reconstruction projects each spine constraint into `[min_stretch, max_stretch]` of
    /// its rest length (the paper's 10 % shrink / 120 % stretch).
    pub min_stretch: f32,
    /// Upper bound of that projection, as a fraction of rest length (below 1 counts as 1).
    pub max_stretch: f32,
    /// A limb simplified to one constraint may compress to this fraction of its rest chord
    /// before it pushes the spine (the paper's 10 %): the limb phase bends it instead.
    pub limb_min_compress: f32,
    /// Over how much of a limb's reach (from its spine body's pivot) the spine eases in
    /// once a goal passes it: the pull starts at nothing and takes up the goal's whole
    /// motion only this far beyond. A far goal is then reached short by half of it, less
    /// what the limb's own stretch makes up. Narrow, a goal moving past the reach jerks the
    /// spine into motion, and whatever the spine carries ahead of the arm (a long neck, a
    /// head) whips with it; 0.6 keeps that below the validation grid's jitter limit.
    pub limb_give_zone: f32,
    /// A limb pulls its spine particle about the particle before it, and the spine beyond
    /// the particle (when no goal holds it) rides along rigidly, its far end sweeping
    /// `(segment + beyond) / segment` times as far: an arm near the root of a long prone
    /// spine tugging at a target would swing the whole front half and its heads. The pull
    /// is scaled so the far end sweeps at most this many times as far as the pull. 1 passes
    /// 40 more cells of the validation grid than no limit (jitter, goal error and
    /// interpenetration on zoo creatures, none newly failing); 2 only 13. A biped's chest
    /// leans into a far reach about half as much.
    pub limb_give_lever: f32,
    /// The most the spine moves toward a limb's goal, as a fraction of the limb's reach:
    /// past the ease-in of `limb_give_zone` the pull eases out again and stops there. Else
    /// only the spine's own lengths stop it, and a long spine folds long before they do:
    /// followed fully, a hind arm sent a body length ahead of a walking creature folded the
    /// back half of its spine forward under the belly and dragged the planted hind feet half
    /// a leg along the ground, and the other limbs riding on the moved spine ran into each
    /// other. The paper's spine follows fully; its anti-buckling only blends back toward
    /// rest once the spine folds, by half. On 300 zoo creatures (seed 7) the grid passes
    /// 2,618 cells following fully, 2,636 at 0.3, 2,644 at 0.2, 2,652 at 0.1 and 2,661 with
    /// no give at all, but a lean is also what takes an arm held straight toward a goal past
    /// the neck out of the neck, and 0.3 is the least bound tried that keeps that (IK.md §4).
    /// A biped's chest comes about 17 cm toward a far target.
    pub limb_give_most: f32,
    /// Masses of the two ends of a spine constraint between free particles: a heavier
    /// rootward end makes the spine bend more toward its tips.
    pub rootward_mass: f32,
    /// Mass of the leafward end (see `rootward_mass`).
    pub leafward_mass: f32,
    /// Masses of a simplified limb constraint's spine end and goal end. The goal never
    /// moves; its mass only sets how much of the error the spine takes per pass.
    pub limb_attach_mass: f32,
    /// Mass of the goal end (see `limb_attach_mass`).
    pub limb_goal_mass: f32,
    /// Buckling metric: the largest growth, over neighbouring spine constraints, of
    /// `1 - cos(angle between them)` beyond its rest value (0 straight, 2 folded back).
    /// Anti-buckling starts at `buckling_start` and is full at `buckling_full`.
    pub buckling_start: f32,
    /// Buckling metric at which anti-buckling is fully on (see `buckling_start`).
    pub buckling_full: f32,
    /// Fraction of the way to its root-relative rest position the passes of a buckled
    /// spine's second solve pull a free spine particle in all, when anti-buckling is fully
    /// on (each pass pulls its even share): the pose is then a blend of the buckled one and
    /// the rest pose, by weight times this.
    pub anti_buckling_strength: f32,
}

/// The limb phase (paper 4.3.3).
#[derive(Clone, Debug, PartialEq)]
pub struct LimbTuning {
    /// Passes over the limb constraints, leaves inward, after the aim preconditioner, at
    /// most: a pass that finds every constraint within `tolerance` ends the phase early, so
    /// easy limbs stop after a few, and limbs solved exactly by hinge and tripod steps
    /// after one. A limb still at the cap when its pass ends leaves a pinned body short of
    /// its goal.
    pub iterations: u32,
    /// Soft-correction zone as a fraction of each bone's rest length.
    pub soft_zone: f32,
    /// Reconstruction projects every bone into `[min_stretch, max_stretch]` of its rest
    /// length: the "organic" give of the paper, and the bound on stretch for far goals. A
    /// limb with one goal also starts easing straight as far short of its reach as
    /// `max_stretch` lets it stretch beyond, so it does not snap straight as a moving goal
    /// passes its reach; and the spine phase lets it stretch that far before it pulls.
    pub min_stretch: f32,
    /// Upper bound of that projection, as a fraction of rest length (below 1 counts as 1).
    pub max_stretch: f32,
    /// Masses of a bone's two ends when both are free: the rootward end's.
    pub rootward_mass: f32,
    /// The leafward end's mass (see `rootward_mass`).
    pub leafward_mass: f32,
    /// Every correction is scaled by this (successive over-relaxation), by at most a
    /// quarter of the bone's length. 1 is the plain Jakobsen step; up to about 1.8 the
    /// passes converge faster on long chains.
    pub over_relaxation: f32,
    /// Before iterating, the aim preconditioner squashes a limb along the goal direction
    /// when the goal is nearer than at rest. With this on it also widens the limb across
    /// that direction, by up to this factor, so the joints start bent rather than in a line
    /// (a straight limb squashed in line could never bend). 1 is the paper's aim.
    pub aim_max_widen: f32,
    /// Rounds of keeping an arm's bones out of the trunk after the passes: each pushes every
    /// bone sunk into a spine, neck or head body deeper than at rest back to its surface, then
    /// runs `keep_out_relax` passes to restore the bones' lengths. 0 turns it off (the paper
    /// has no such step: its animators kept arms clear by hand, clip by clip).
    pub keep_out_rounds: u32,
    /// Passes over the limb's constraints after each keep-out round, restoring the bones'
    /// lengths the push changed.
    pub keep_out_relax: u32,
}

impl Default for IkTuning {
    fn default() -> Self {
        IkTuning {
            spine: SpineTuning::default(),
            limb: LimbTuning::default(),
            jiggle: JiggleTuning::default(),
            delegate_size_ratio: 0.5,
            tolerance: 1e-4,
            record_debug: false,
        }
    }
}

impl Default for SpineTuning {
    fn default() -> Self {
        SpineTuning {
            outer_iterations: 5,
            inner_iterations: 2,
            soft_zone: 0.05,
            min_stretch: 0.9,
            max_stretch: 1.2,
            limb_min_compress: 0.1,
            limb_give_zone: 0.6,
            limb_give_lever: 1.0,
            limb_give_most: 0.3,
            rootward_mass: 2.0,
            leafward_mass: 1.0,
            limb_attach_mass: 1.0,
            limb_goal_mass: 1.0,
            buckling_start: 1.0,
            buckling_full: 1.7,
            anti_buckling_strength: 0.5,
        }
    }
}

impl Default for LimbTuning {
    fn default() -> Self {
        LimbTuning {
            iterations: 64,
            soft_zone: 0.02,
            min_stretch: 0.95,
            max_stretch: 1.05,
            rootward_mass: 3.0,
            leafward_mass: 1.0,
            over_relaxation: 1.5,
            aim_max_widen: 4.0,
            keep_out_rounds: 3,
            keep_out_relax: 1,
        }
    }
}

/// The share of a correction each end of a constraint takes, from the ends' masses (a
/// heavier end moves less). Non-positive or non-finite masses count as 1.
pub(super) fn shares(mass_a: f32, mass_b: f32) -> (f32, f32) {
    let inv = |m: f32| {
        if m.is_finite() && m > 0.0 {
            1.0 / m
        } else {
            1.0
        }
    };
    let (wa, wb) = (inv(mass_a), inv(mass_b));
    (wa / (wa + wb), wb / (wa + wb))
}
