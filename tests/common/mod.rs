//! Shared fixtures for integration tests: the bundled sample creatures and clips.
#![allow(dead_code)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use anymorph::io::{load_clip, load_creature};
use anymorph::runtime::clip::Clip;
use anymorph::runtime::creature::Creature;
use anymorph::runtime::player::{Character, PlayParams, VariantChoice};
use anymorph::runtime::pose::BodyPose;
use anymorph::validation::TargetScene;
use glam::{Quat, Vec3};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the `anymorph` binary from the repository root.
pub fn anymorph(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_anymorph"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

/// Runs a command that must succeed; its stderr is the failure message.
pub fn succeed(args: &[&str]) -> std::process::Output {
    let out = anymorph(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn files(dir: &str, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    v.sort();
    v
}

pub fn creature_files() -> Vec<PathBuf> {
    files("sample_creatures", ".creature.json")
}

pub fn clip_files() -> Vec<PathBuf> {
    files("assets/clips", ".clip.json")
}

/// Every sample creature, loaded once per test binary.
pub fn creatures() -> &'static [Creature] {
    static C: OnceLock<Vec<Creature>> = OnceLock::new();
    C.get_or_init(|| {
        let v: Vec<Creature> = creature_files()
            .iter()
            .map(|p| load_creature(p).unwrap_or_else(|e| panic!("{e}")))
            .collect();
        assert!(
            v.len() >= 14,
            "expected at least 14 sample creatures, found {}",
            v.len()
        );
        v
    })
}

pub fn creature(name: &str) -> &'static Creature {
    creatures()
        .iter()
        .find(|c| c.name() == name)
        .unwrap_or_else(|| panic!("no sample creature named {name}"))
}

pub fn clips() -> &'static [Clip] {
    static C: OnceLock<Vec<Clip>> = OnceLock::new();
    C.get_or_init(|| {
        clip_files()
            .iter()
            .map(|p| load_clip(p).unwrap_or_else(|e| panic!("{e}")))
            .collect()
    })
}

pub fn clip(name: &str) -> &'static Clip {
    clips()
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no sample clip named {name}"))
}

/// How much deeper than at rest the capsules (`Body::rounded`) of bodies `a` and `b`
/// overlap in `pose`, as a fraction of the thinner one's radius: the check's own measure.
pub fn sunk(c: &Creature, pose: &[BodyPose], a: usize, b: usize) -> f32 {
    anymorph::check::ik::sunk(c, pose, a, b)
}

/// Plays `variant` of `clip` on `creature` as the validation grid does (held, at 30 fps,
/// and with `target` external target 0 where the grid puts it) and returns how deep the
/// worst of `pairs` sinks at its worst frame ([`sunk`]): depth, the two bodies, the frame.
pub fn deepest_overlap(
    creature: &Arc<Creature>,
    clip: &Arc<Clip>,
    variant: usize,
    target: bool,
    pairs: &[(usize, usize)],
) -> (f32, usize, usize, usize) {
    let mut ch = Character::new(Arc::clone(creature));
    let params = PlayParams {
        variant: VariantChoice::Index(variant),
        hold: true,
        ..Default::default()
    };
    ch.play(clip, params).unwrap();
    let scene = target.then(|| TargetScene::of(clip, creature, variant));
    let (dt, mut worst) = (1.0 / 30.0, (0.0, 0, 0, 0));
    for f in 0..=(clip.duration_secs * 30.0).ceil() as usize {
        if let Some(scene) = &scene {
            ch.set_target(0, scene.at(creature, f as f32 * dt));
        }
        let pose = ch.update(if f == 0 { 0.0 } else { dt }).to_vec();
        for &(a, b) in pairs {
            let d = sunk(creature, &pose, a, b);
            if d > worst.0 {
                worst = (d, a, b, f);
            }
        }
    }
    worst
}

/// The random draws the property and robustness tests make, from a seeded generator so a
/// failure repeats.
pub struct Rng(ChaCha8Rng);

impl Rng {
    pub fn seeded(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        self.0.random()
    }

    /// Uniform in `[lo, hi)`; `lo` when the range is empty.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in `0..n`.
    pub fn index(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    /// Uniform in the cube of half-width `scale`.
    pub fn vec(&mut self, scale: f32) -> Vec3 {
        Vec3::new(
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
        ) * scale
    }

    /// A unit direction, uniform on the sphere.
    pub fn direction(&mut self) -> Vec3 {
        loop {
            let v = self.vec(1.0);
            if (0.01..=1.0).contains(&v.length_squared()) {
                return v.normalize();
            }
        }
    }

    /// A turn about a random axis by up to `max_angle` radians either way.
    pub fn turn(&mut self, max_angle: f32) -> Quat {
        Quat::from_axis_angle(self.direction(), self.range(-max_angle, max_angle))
    }

    /// Any rotation at all.
    pub fn rotation(&mut self) -> Quat {
        loop {
            let q = Quat::from_xyzw(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            if (1e-2..=1.0).contains(&q.length_squared()) {
                return q.normalize();
            }
        }
    }
}
