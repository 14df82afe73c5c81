//! The gait's contracts on one creature (`anymorph check gait`), measured on the final
//! world-space poses of a character walking (so the IK's misses count as the gait's):
//!
//! * **a foot lands with zero horizontal speed where it plants**: while a foot is on the
//!   ground — its centre within [`CONTACT_BAND`] of a leg length of its rest height above the
//!   terrain, whatever the gait says (the landing and lift-off frames included) — it moves
//!   at most [`MAX_SLIP`] from where it stands planted;
//! * **no swinging foot dips**: in flight its centre stays above its rest height over the
//!   terrain, or below it by at most [`MAX_DIP`];
//! * **the body covers the commanded distance** within 10 %, and **each foot's duty factor**
//!   (the share of frames on the ground) is the style's within 0.05.
//!
//! Runs: 0.4 and 1.2 m/s straight ahead and 0.8 m/s turning at 0.5 rad/s, each on flat
//! ground and on a 10° slope rising ahead, at 60 frames a second after two seconds to get
//! going.
//!
//! A duty factor is a share of a cycle (lift-off to lift-off), so it is measured over whole
//! cycles of each foot: from its first lift-off in the measured time to its last. Over a
//! window that cuts a cycle the share is not the duty factor: a long leg stepping every
//! 2.25 s has one flight or two in 4 s, and measured 0.87 or 0.74 on the ground for a duty
//! of 0.77. A walk whose slowest foot has not stepped twice in the measured time is walked
//! on (up to [`MAX_MEASURED_SECS_FACTOR`] times as long) until it has; every contract is
//! judged on all of it, so the longer walk only adds frames to be judged.

use super::Subject;
use crate::runtime::creature::Creature;
use crate::runtime::gait::{FootPhase, Locomotion};
use crate::runtime::player::Character;
use crate::runtime::terrain::Terrain;
use glam::Vec3;
use serde::Serialize;
use std::sync::Arc;

/// Frame time of every run.
pub const DT: f32 = 1.0 / 60.0;
/// A foot is on the ground while its centre is within this fraction of its leg's length of
/// its rest height above the terrain.
pub const CONTACT_BAND: f32 = 0.005;
/// How far a foot on the ground may move from where it plants, metres.
pub const MAX_SLIP: f32 = 0.002;
/// How far below its rest height above the terrain a swinging foot may go, metres.
pub const MAX_DIP: f32 = 0.01;
pub const MAX_DISTANCE_ERROR: f32 = 0.1;
pub const MAX_DUTY_ERROR: f32 = 0.05;
/// A walk is measured for at most this many times its measured time, waiting for its
/// slowest foot to complete a whole cycle.
pub const MAX_MEASURED_SECS_FACTOR: f32 = 4.0;

/// One walk: speed (m/s, ahead), turn rate (rad/s) and ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    pub speed: f32,
    pub turn: f32,
    pub terrain: Terrain,
}

/// The six runs every creature with legs walks.
pub fn runs() -> Vec<Run> {
    let mut v = Vec::new();
    for terrain in [Terrain::Flat, Terrain::Slope { degrees: 10.0 }] {
        for (speed, turn) in [(0.4, 0.0), (1.2, 0.0), (0.8, 0.5)] {
            v.push(Run {
                speed,
                turn,
                terrain,
            });
        }
    }
    v
}

/// How long a run is measured, after [`WARM_UP_SECS`].
#[derive(Clone, Copy, Debug)]
pub struct GaitCheckOptions {
    pub secs: f32,
}

impl Default for GaitCheckOptions {
    fn default() -> Self {
        GaitCheckOptions { secs: 4.0 }
    }
}

/// Seconds walked before measuring: the first steps start from a standstill.
pub const WARM_UP_SECS: f32 = 2.0;

/// What one walk measured.
#[derive(Clone, Debug, Serialize)]
pub struct WalkResult {
    pub speed: f32,
    pub turn: f32,
    pub terrain: String,
    /// The most a foot on the ground moved from where it planted (m), and which foot.
    pub slip: f32,
    pub slip_foot: String,
    /// The most a swinging foot went below its rest height above the terrain (m).
    pub dip: f32,
    pub dip_foot: String,
    pub distance_error: f32,
    pub duty_error: f32,
    pub finite: bool,
}

impl WalkResult {
    pub fn passed(&self) -> bool {
        self.finite
            && self.slip <= MAX_SLIP
            && self.dip <= MAX_DIP
            && self.distance_error <= MAX_DISTANCE_ERROR
            && self.duty_error <= MAX_DUTY_ERROR
    }

    /// What failed, in words.
    pub fn problems(&self) -> Vec<String> {
        let mut v = Vec::new();
        if !self.finite {
            v.push("NaN pose".to_string());
        }
        if self.slip > MAX_SLIP {
            v.push(format!(
                "{} slipped {:.1} mm",
                self.slip_foot,
                1e3 * self.slip
            ));
        }
        if self.dip > MAX_DIP {
            v.push(format!("{} dipped {:.1} mm", self.dip_foot, 1e3 * self.dip));
        }
        if self.distance_error > MAX_DISTANCE_ERROR {
            v.push(format!(
                "covered {:.1} % off the commanded distance",
                100.0 * self.distance_error
            ));
        }
        if self.duty_error > MAX_DUTY_ERROR {
            v.push(format!("duty factor off by {:.3}", self.duty_error));
        }
        v
    }
}

/// Every walk of one creature; empty when it has no legs.
#[derive(Clone, Debug, Serialize)]
pub struct GaitCreatureReport {
    pub creature: String,
    pub family: &'static str,
    pub walks: Vec<WalkResult>,
}

/// Walks every run on one creature (none without legs).
pub fn check_creature(subject: &Subject, options: &GaitCheckOptions) -> GaitCreatureReport {
    let mut report = GaitCreatureReport {
        creature: subject.creature.name().to_string(),
        family: subject.family_name(),
        walks: Vec::new(),
    };
    let probe = Character::new(Arc::clone(&subject.creature));
    if probe.gait().locomotion() != Locomotion::Legs {
        return report;
    }
    for run in runs() {
        report
            .walks
            .push(walk(&subject.creature, run, options.secs));
    }
    report
}

/// Walks one run and measures it.
pub fn walk(creature: &Arc<Creature>, run: Run, secs: f32) -> WalkResult {
    let c = &**creature;
    let mut ch = Character::new(Arc::clone(creature));
    ch.set_terrain(run.terrain);
    ch.set_locomotion(Vec3::Z * run.speed, run.turn);
    for _ in 0..(WARM_UP_SECS / DT) as usize {
        ch.update(DT);
    }
    let gear = ch.gait().gear().clone();
    let min_frames = ((secs / DT) as usize).max(3);
    let max_frames = (MAX_MEASURED_SECS_FACTOR * min_frames as f32) as usize;
    let feet: Vec<usize> = gear.limbs.iter().map(|l| l.foot).collect();
    let mut track: Vec<Vec<Vec3>> = vec![Vec::with_capacity(min_frames); feet.len()];
    let mut phases: Vec<Vec<FootPhase>> = vec![Vec::with_capacity(min_frames); feet.len()];
    // Per foot, the frames it lifted off on, and the style's duty factor summed per frame.
    let mut lift_offs: Vec<Vec<usize>> = vec![Vec::new(); feet.len()];
    let mut duty_sums: Vec<Vec<f32>> = vec![Vec::with_capacity(min_frames); feet.len()];
    let root = c.root();
    let mut root_path = Vec::with_capacity(min_frames);
    let mut finite = true;
    let mut frames = 0;
    while frames < min_frames || (frames < max_frames && lift_offs.iter().any(|l| l.len() < 2)) {
        ch.update(DT);
        finite &= ch.pose().iter().all(|p| p.is_finite());
        root_path.push(ch.world_pose(root).map_or(Vec3::ZERO, |p| p.position));
        for (i, &foot) in feet.iter().enumerate() {
            track[i].push(ch.world_pose(foot).map_or(Vec3::ZERO, |p| p.position));
            let phase = ch.gait().feet()[i].phase;
            if phase == FootPhase::Flight && phases[i].last() == Some(&FootPhase::Stance) {
                lift_offs[i].push(frames);
            }
            phases[i].push(phase);
        }
        for (g, group) in gear.groups.iter().enumerate() {
            if let Some(params) = ch.gait().group_params(g) {
                for (k, &limb) in group.limbs.iter().enumerate() {
                    let duty = params.feet.get(k).map_or(0.0, |f| f.duty);
                    let sum = duty_sums[limb].last().copied().unwrap_or(0.0);
                    duty_sums[limb].push(sum + duty);
                }
            }
        }
        frames += 1;
    }
    let mut result = WalkResult {
        speed: run.speed,
        turn: run.turn,
        terrain: run.terrain.to_string(),
        slip: 0.0,
        slip_foot: String::new(),
        dip: 0.0,
        dip_foot: String::new(),
        distance_error: 0.0,
        duty_error: 0.0,
        finite,
    };
    for (i, limb) in gear.limbs.iter().enumerate() {
        let name = &c.body(limb.foot).name;
        let rest_height = limb.home.y;
        let band = CONTACT_BAND * limb.length;
        let height = |p: Vec3| p.y - run.terrain.height(p.x, p.z);
        let on_ground: Vec<bool> = track[i]
            .iter()
            .map(|&p| height(p) <= rest_height + band)
            .collect();
        // Slip: each run of frames on the ground, against where the gait plants the foot
        // in it (its first stance frame; the run's last frame if it never plants).
        let mut f = 0;
        while f < frames {
            if !on_ground[f] {
                if phases[i][f] == FootPhase::Flight {
                    let dip = rest_height - height(track[i][f]);
                    if dip > result.dip {
                        result.dip = dip;
                        result.dip_foot = name.clone();
                    }
                }
                f += 1;
                continue;
            }
            let start = f;
            while f < frames && on_ground[f] {
                f += 1;
            }
            // A run cut by the start or end of the measurement is judged on what it holds.
            let planted = (start..f)
                .find(|&g| phases[i][g] == FootPhase::Stance)
                .unwrap_or(f - 1);
            let at = track[i][planted];
            for g in start..f {
                let p = track[i][g];
                if phases[i][g] == FootPhase::Flight {
                    let dip = rest_height - height(p);
                    if dip > result.dip {
                        result.dip = dip;
                        result.dip_foot = name.clone();
                    }
                }
                let moved = Vec3::new(p.x - at.x, 0.0, p.z - at.z).length();
                if moved > result.slip {
                    result.slip = moved;
                    result.slip_foot = name.clone();
                }
            }
        }
        // Whole cycles, lift-off to lift-off; the whole walk for a foot that did not step
        // twice in it (it stands, or steps slower than the longest walk allows).
        let (from, to) = match lift_offs[i].as_slice() {
            [first, .., last] => (*first, *last),
            _ => (0, frames),
        };
        let span = (to - from).max(1) as f32;
        let measured = on_ground[from..to].iter().filter(|&&g| g).count() as f32 / span;
        let sum_at = |f: usize| {
            f.checked_sub(1)
                .and_then(|f| duty_sums[i].get(f))
                .copied()
                .unwrap_or(0.0)
        };
        let expected = (sum_at(to) - sum_at(from)) / span;
        result.duty_error = result.duty_error.max((measured - expected).abs());
    }
    let travelled: f32 = root_path
        .windows(2)
        .map(|w| Vec3::new(w[1].x - w[0].x, 0.0, w[1].z - w[0].z).length())
        .sum();
    // The commanded velocity moves the character's origin; a root off the turning centre
    // travels its own wider (or narrower) circle: |v + ω × r|.
    let r = c.body(root).position;
    let root_velocity = Vec3::Z * run.speed + Vec3::Y.cross(Vec3::new(r.x, 0.0, r.z)) * run.turn;
    let commanded = root_velocity.length() * frames as f32 * DT;
    result.distance_error = if commanded > 0.0 {
        (travelled - commanded).abs() / commanded
    } else {
        0.0
    };
    result
}

/// One family's figures (or all families', as the last row).
#[derive(Clone, Debug, Default, Serialize)]
pub struct GaitFamilySummary {
    pub family: String,
    pub creatures: usize,
    pub walks: usize,
    pub passed: usize,
    /// Walks failing each contract.
    pub slipping: usize,
    pub dipping: usize,
    pub off_distance: usize,
    pub off_duty: usize,
    pub nan: usize,
    pub worst_slip: f32,
    pub worst_slip_case: String,
    pub worst_dip: f32,
    pub worst_dip_case: String,
}

impl GaitFamilySummary {
    fn add(&mut self, r: &GaitCreatureReport) {
        if r.walks.is_empty() {
            return;
        }
        self.creatures += 1;
        for w in &r.walks {
            self.walks += 1;
            self.passed += usize::from(w.passed());
            self.slipping += usize::from(w.slip > MAX_SLIP);
            self.dipping += usize::from(w.dip > MAX_DIP);
            self.off_distance += usize::from(w.distance_error > MAX_DISTANCE_ERROR);
            self.off_duty += usize::from(w.duty_error > MAX_DUTY_ERROR);
            self.nan += usize::from(!w.finite);
            let case = || {
                format!(
                    "{} at {} m/s, turn {}, {}",
                    r.creature, w.speed, w.turn, w.terrain
                )
            };
            if w.slip > self.worst_slip {
                self.worst_slip = w.slip;
                self.worst_slip_case = format!("{} ({})", case(), w.slip_foot);
            }
            if w.dip > self.worst_dip {
                self.worst_dip = w.dip;
                self.worst_dip_case = format!("{} ({})", case(), w.dip_foot);
            }
        }
    }
}

/// Per family, in the zoo's order, then `all`.
pub fn summarize(reports: &[GaitCreatureReport]) -> Vec<GaitFamilySummary> {
    let mut rows: Vec<GaitFamilySummary> = Vec::new();
    let mut all = GaitFamilySummary {
        family: "all".into(),
        ..Default::default()
    };
    for r in reports {
        let row = match rows.iter_mut().position(|x| x.family == r.family) {
            Some(i) => &mut rows[i],
            None => {
                rows.push(GaitFamilySummary {
                    family: r.family.to_string(),
                    ..Default::default()
                });
                rows.last_mut().expect("just pushed")
            }
        };
        row.add(r);
        all.add(r);
    }
    let order = |name: &str| {
        crate::zoo::Family::ALL
            .iter()
            .position(|f| f.name() == name)
            .unwrap_or(usize::MAX)
    };
    rows.sort_by_key(|r| order(&r.family));
    rows.push(all);
    rows
}
