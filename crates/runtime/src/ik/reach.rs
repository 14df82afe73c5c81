//! Reaching sweeps: what the limb phase falls back on when its passes run out without
//! meeting the bones' lengths.
//!
//! The passes correct one constraint at a time along its own axis (the paper's Jakobsen
//! step). A limb asked to reach nearly as far as its bones go has to straighten, and a
//! correction along each bone hardly unbends a chain that is nearly taut: a nine-bone limb
//! of the zoo straightened to 99 % of its length was still 9 % of it short of its goal after
//! the 64 passes, and 1.4 % short after 4,096. The rebuild then projected the overstretched
//! bones back to their limits, pulling the pinned end off its goal.
//!
//! Forward-and-backward reaching (FABRIK; Aristidou and Lasenby, 2011) moves whole joints
//! instead: leaves inward, each pin on its goal and every other particle at its bone's length
//! from where its pinned children put it (averaged where the limb branches); then from the
//! attachment outward, each particle at its bone's length from its parent. A reachable goal
//! is met in a few sweeps, and no bone ends beyond the slack the passes allow it. The sweeps start from where the passes
//! left the limb, so the pose stays the one the passes were heading for; a pose the passes
//! meet (every sample clip's, nearly every frame) never gets here. Cross-constraints between
//! siblings (a branching body's rigid shape), which the sweeps do not know, are then met
//! again by a few passes from there.
//!
//! A body sent somewhere with no rotation of its own has its joint goal from a turn the
//! goals guess (`FrameGoals::turn_toward_position`). Where a limb has two such ends (a
//! forked leg's feet), the guesses can put their joints where no knee joins them, and no
//! pass can meet that. In the sweeps such a body is one more bone, from its joint to its
//! centre goal: its joint moves on the sphere about the centre goal as the limb needs, and
//! the body turns about its centre goal to match. Only here: in the passes a pinned joint is
//! what keeps a hand's turn known before the limb is posed (the keep-out needs it).

use super::constraint::{arc, relax};
use super::goals::FrameGoals;
use super::limb::{LimbPlan, NO_PARTICLE};
use super::tuning::LimbTuning;
use glam::Vec3A;

/// Sweeps tried at most. A reachable goal is met to the tolerance in a handful; goals that
/// cannot all be met at once (two pins farther apart than their bones allow) stop here.
const SWEEPS: u32 = 48;

/// Passes after the sweeps, at most, to meet the cross-constraints again.
const SETTLE_PASSES: u32 = 16;

/// Runs the sweeps and the settling passes; returns how many of both ran.
pub(super) fn finish(
    plan: &LimbPlan,
    tuning: &LimbTuning,
    goals: &mut FrameGoals,
    pins: &mut [Vec3A],
    p: &mut [Vec3A],
    proposed: &mut Vec<(Vec3A, f32)>,
) -> u32 {
    let n = plan.particles.len();
    proposed.clear();
    proposed.resize(n, (Vec3A::ZERO, 0.0));
    // A bone keeps whatever length the passes left it within the slack they count as met
    // (half their soft zone), and only what lies beyond is taken up: a limb the passes met
    // nearly everywhere comes out as they would have left it, not a little straighter, so a
    // goal moving across the point where they run out moves the limb smoothly. Near
    // straight, the 1 % the passes allow a bone moves a joint sideways by a tenth of the limb.
    let slack = 0.5 * tuning.soft_zone.max(0.0);

    let mut done = 0;
    for _ in 0..SWEEPS {
        done += 1;
        // Leaves inward: particles come parents first, so every child is placed before the
        // parent it proposes a place for.
        for q in (0..n).rev() {
            let particle = &plan.particles[q];
            if particle.parent == NO_PARTICLE || !particle.toward_pin {
                continue;
            }
            if particle.pin != NO_PARTICLE {
                let k = particle.pin as usize;
                p[q] = match turning(plan, goals, pins, k) {
                    // On the sphere about the centre goal, toward where the joint is.
                    Some((centre, radius)) => {
                        let from_centre = (p[q] - centre).normalize_or(pins[k] - centre);
                        centre + from_centre.normalize_or_zero() * radius
                    }
                    None => pins[k],
                };
            } else {
                let (sum, count) = proposed[q];
                if count > 0.0 {
                    p[q] = sum / count;
                }
            }
            proposed[q] = (Vec3A::ZERO, 0.0);
            let parent = particle.parent as usize;
            if plan.particles[parent].parent == NO_PARTICLE {
                continue;
            }
            let d = p[parent] - p[q];
            let dir = d.normalize_or(-particle.rest_axis.normalize_or_zero());
            let len = held_length(d.length(), particle.rest_len, slack);
            let (sum, count) = proposed[parent];
            proposed[parent] = (sum + p[q] + dir * len, count + 1.0);
        }
        // From the attachments outward.
        let mut worst = 0.0f32;
        for q in 0..n {
            let particle = &plan.particles[q];
            if particle.parent == NO_PARTICLE {
                continue;
            }
            let from = p[particle.parent as usize];
            let d = p[q] - from;
            let dir = d.normalize_or(particle.rest_axis.normalize_or_zero());
            p[q] = from + dir * held_length(d.length(), particle.rest_len, slack);
            if particle.pin != NO_PARTICLE {
                let k = particle.pin as usize;
                let miss = match turning(plan, goals, pins, k) {
                    Some((centre, radius)) => (p[q].distance(centre) - radius).abs(),
                    None => p[q].distance(pins[k]),
                };
                worst = worst.max(miss);
            }
        }
        // `max` passes NaN by, so `worst` is a number.
        if worst <= plan.tolerance {
            break;
        }
    }
    for (k, &q) in plan.pinned.iter().enumerate() {
        let q = q as usize;
        if let Some((centre, radius)) = turning(plan, goals, pins, k) {
            // The joint where the sweeps left it, at its distance from the centre goal; the
            // body turns about the centre goal by as much as its joint moved.
            let joint = centre
                + (p[q] - centre)
                    .normalize_or(pins[k] - centre)
                    .normalize_or_zero()
                    * radius;
            let t = plan.particles[q].goal_body as usize;
            let turn = arc(goals.joint[t] - centre, joint - centre);
            goals.rotation_used[t] = (turn * goals.rotation_used[t]).normalize();
            goals.joint[t] = joint;
            pins[k] = joint;
        }
        p[q] = pins[k];
    }
    for _ in 0..SETTLE_PASSES.min(tuning.iterations) {
        done += 1;
        if relax(p, &plan.ops).worst <= plan.tolerance {
            break;
        }
    }
    done
}

/// `len` brought within `slack` (a fraction) of `rest`.
#[inline(always)]
fn held_length(len: f32, rest: f32, slack: f32) -> f32 {
    if len.is_finite() {
        len.clamp(rest * (1.0 - slack), rest * (1.0 + slack))
    } else {
        rest
    }
}

/// Pin `k`'s centre goal and its distance from the joint goal, for a body that turns freely
/// about its centre goal (a position goal and no rotation goal) and is pinned at its goal;
/// `None` for a pin that stays where it is (a pin held short of a goal beyond reach is
/// already on the line toward it).
#[inline(always)]
fn turning(plan: &LimbPlan, goals: &FrameGoals, pins: &[Vec3A], k: usize) -> Option<(Vec3A, f32)> {
    let t = plan.particles[plan.pinned[k] as usize].goal_body as usize;
    let free = goals.rotation_weight[t] <= 0.0 && goals.position_weight[t] > 0.0;
    (free && pins[k] == goals.joint[t]).then(|| {
        let centre = goals.centre[t];
        (centre, centre.distance(goals.joint[t]))
    })
}
