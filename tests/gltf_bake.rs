//! Bake export: the baked file re-imports to the same rest skeleton, its animation sampled at
//! the frame times matches the runtime's pose, and the Khronos validator finds no error.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::io::gltf::{
    BakeRequest, BakeTake, RigRules, bake_glb, bake_gltf_json, bake_to_file, import_rig,
    import_rig_from_bytes,
};
use anymorph::runtime::clip::Clip;
use anymorph::runtime::creature::Creature;
use anymorph::runtime::player::{Character, PlayParams, VariantChoice};
use glam::{Affine3A, Quat, Vec3};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

const FPS: f32 = 30.0;

fn take(clip: &str, variant: usize) -> BakeTake {
    BakeTake {
        clip: Arc::new(common::clip(clip).clone()),
        variant,
    }
}

/// The creatures and takes the tests bake: samples without a mesh and Blender rigs with one.
fn cases() -> Vec<(
    Creature,
    Option<anymorph::io::gltf::SkinnedMesh>,
    Vec<BakeTake>,
)> {
    let mut v = vec![
        (
            common::creature("biped").clone(),
            None,
            vec![take("wave", 0), take("wave", 1)],
        ),
        (
            common::creature("quadruped").clone(),
            None,
            vec![take("dance", 0)],
        ),
        (
            common::creature("octopod").clone(),
            None,
            vec![take("idle_breathe", 0)],
        ),
    ];
    for (rig, clip) in [
        ("humanoid.glb", "reach_target"),
        ("horse.glb", "dance"),
        ("spider.glb", "wave_prone"),
    ] {
        let r = import_rig(&common::root().join("tests/fixtures/gltf").join(rig)).unwrap();
        v.push((r.creature, r.mesh, vec![take(clip, 0)]));
    }
    // Every corpus rig (assets/rigs) with every sample clip that plays on it.
    let clips: Vec<Arc<Clip>> = common::clips().iter().cloned().map(Arc::new).collect();
    let mut rigs: Vec<PathBuf> = std::fs::read_dir(common::root().join("assets/rigs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "glb"))
        .collect();
    rigs.sort();
    for path in rigs {
        let r = import_rig(&path).unwrap();
        let creature = Arc::new(r.creature.clone());
        let takes: Vec<BakeTake> = clips
            .iter()
            .filter(|clip| {
                Character::new(Arc::clone(&creature))
                    .play(clip, PlayParams::default())
                    .is_ok()
            })
            .map(|clip| BakeTake {
                clip: Arc::clone(clip),
                variant: 0,
            })
            .collect();
        if !takes.is_empty() {
            v.push((r.creature, r.mesh, takes));
        }
    }
    v
}

/// Every body's pose per frame, played through the player as the bake does.
fn runtime_poses(creature: &Creature, t: &BakeTake, times: &[f32]) -> Vec<Vec<(Vec3, Quat)>> {
    let mut ch = Character::new(Arc::new(creature.clone()));
    ch.play(
        &t.clip,
        PlayParams {
            variant: VariantChoice::Index(t.variant),
            hold: true,
            ..Default::default()
        },
    )
    .unwrap();
    let mut previous = 0.0;
    times
        .iter()
        .map(|&time| {
            ch.update(time - previous);
            previous = time;
            (0..creature.len())
                .map(|b| {
                    let p = ch.world_pose(b).unwrap();
                    (p.position, p.rotation)
                })
                .collect()
        })
        .collect()
}

/// A baked file read back with the `gltf` crate: node parents, rest locals and animations.
struct Baked {
    doc: gltf::Document,
    blob: Vec<u8>,
}

impl Baked {
    fn parse(bytes: &[u8]) -> Baked {
        let g = gltf::Gltf::from_slice(bytes).unwrap();
        Baked {
            doc: g.document,
            blob: g.blob.unwrap(),
        }
    }

    fn parents(&self) -> Vec<Option<usize>> {
        let mut p = vec![None; self.doc.nodes().len()];
        for n in self.doc.nodes() {
            for c in n.children() {
                p[c.index()] = Some(n.index());
            }
        }
        p
    }

    fn world(&self, locals: &[Affine3A]) -> Vec<Affine3A> {
        let parents = self.parents();
        let mut world = locals.to_vec();
        // Parents come first in a baked file.
        for i in 0..world.len() {
            if let Some(p) = parents[i] {
                world[i] = world[p] * locals[i];
            }
        }
        world
    }

    fn rest_locals(&self) -> Vec<Affine3A> {
        self.doc
            .nodes()
            .map(|n| Affine3A::from_mat4(glam::Mat4::from_cols_array_2d(&n.transform().matrix())))
            .collect()
    }

    /// Node locals at every key of animation `a`, with the key times.
    fn frames(&self, a: usize) -> (Vec<f32>, Vec<Vec<Affine3A>>) {
        let anim = self.doc.animations().nth(a).unwrap();
        let rest = self.rest_locals();
        let mut times = Vec::new();
        let mut t_keys: Vec<Option<Vec<Vec3>>> = vec![None; rest.len()];
        let mut r_keys: Vec<Option<Vec<Quat>>> = vec![None; rest.len()];
        for ch in anim.channels() {
            let reader = ch.reader(|_| Some(&self.blob[..]));
            times = reader.read_inputs().unwrap().collect();
            let node = ch.target().node().index();
            match reader.read_outputs().unwrap() {
                gltf::animation::util::ReadOutputs::Translations(t) => {
                    t_keys[node] = Some(t.map(Vec3::from_array).collect());
                }
                gltf::animation::util::ReadOutputs::Rotations(r) => {
                    r_keys[node] = Some(r.into_f32().map(Quat::from_array).collect());
                }
                _ => panic!("only translation and rotation channels are baked"),
            }
        }
        let frames = (0..times.len())
            .map(|f| {
                (0..rest.len())
                    .map(|n| {
                        let (_, rr, rt) = rest[n].to_scale_rotation_translation();
                        let t = t_keys[n].as_ref().map_or(rt, |k| k[f]);
                        let r = r_keys[n].as_ref().map_or(rr, |k| k[f]);
                        Affine3A::from_rotation_translation(r, t)
                    })
                    .collect()
            })
            .collect();
        (times, frames)
    }
}

#[test]
fn bake_then_import_gives_the_same_rest_skeleton() {
    for (creature, mesh, takes) in cases() {
        let request = BakeRequest {
            creature: &creature,
            mesh: mesh.as_ref(),
            takes,
            fps: FPS,
        };
        let (bytes, summary) = bake_glb(&request).unwrap();
        assert_eq!(summary.bytes, bytes.len());
        let back = import_rig_from_bytes(&bytes, "baked.glb", None, &RigRules::builtin())
            .unwrap()
            .creature;
        assert_eq!(back.len(), creature.len(), "{}", creature.name());
        for (a, b) in creature.bodies().iter().zip(back.bodies()) {
            assert_eq!(a.name, b.name);
            let parent = |c: &Creature, p: Option<usize>| p.map(|p| c.body(p).name.clone());
            assert_eq!(
                parent(&creature, a.file_parent),
                parent(&back, b.file_parent)
            );
            assert!(
                a.joint.distance(b.joint) < 1e-4,
                "{} {}: joint {} vs {}",
                creature.name(),
                a.name,
                a.joint,
                b.joint
            );
            assert!(a.position.distance(b.position) < 1e-4, "{}", a.name);
            assert_eq!(a.caps, b.caps, "{}", a.name);
        }
        assert_eq!(back.legs().len(), creature.legs().len());
        // The .gltf flavour carries the same document.
        let (text, _) = bake_gltf_json(&request).unwrap();
        let again =
            import_rig_from_bytes(text.as_bytes(), "baked.gltf", None, &RigRules::builtin())
                .unwrap()
                .creature;
        assert_eq!(again.len(), creature.len());
    }
}

#[test]
fn the_baked_animation_matches_the_runtime_pose_at_every_frame() {
    for (creature, mesh, takes) in cases() {
        let request = BakeRequest {
            creature: &creature,
            mesh: mesh.as_ref(),
            takes: takes.clone(),
            fps: FPS,
        };
        let (bytes, summary) = bake_glb(&request).unwrap();
        let baked = Baked::parse(&bytes);
        assert_eq!(baked.doc.animations().len(), takes.len());
        // Each body's fixed offset from its node, from the rest pose.
        let rest_world = baked.world(&baked.rest_locals());
        let body_in_node: Vec<Affine3A> = creature
            .bodies()
            .iter()
            .enumerate()
            .map(|(b, body)| {
                rest_world[b].inverse()
                    * Affine3A::from_rotation_translation(body.rotation, body.position)
            })
            .collect();
        for (a, t) in takes.iter().enumerate() {
            let (times, frames) = baked.frames(a);
            assert_eq!(times.len(), summary.animations[a].1);
            let expected = runtime_poses(&creature, t, &times);
            for (f, locals) in frames.iter().enumerate() {
                let world = baked.world(locals);
                for b in 0..creature.len() {
                    let body = world[b] * body_in_node[b];
                    let (_, r, p) = body.to_scale_rotation_translation();
                    let (ep, er) = expected[f][b];
                    assert!(
                        p.distance(ep) < 1e-4,
                        "{} {} frame {f} body {}: {p} vs {ep}",
                        creature.name(),
                        t.clip.name,
                        creature.body(b).name
                    );
                    // atan2-based: glam's acos-based angle reads ~1e-3 rad for quaternions
                    // a few ulps apart.
                    let off = anymorph::runtime::math::rotation_angle_between(r, er);
                    assert!(
                        off < 1e-4,
                        "{} frame {f} {}: rotation off by {off} rad",
                        creature.name(),
                        creature.body(b).name
                    );
                }
            }
        }
    }
}

#[test]
fn bad_bake_requests_are_errors() {
    let creature = common::creature("biped");
    let request = BakeRequest {
        creature,
        mesh: None,
        takes: vec![take("wave", 7)],
        fps: FPS,
    };
    let e = bake_glb(&request).unwrap_err().to_string();
    assert!(e.contains("variant 7"), "{e}");
    let request = BakeRequest {
        creature,
        mesh: None,
        takes: vec![],
        fps: f32::NAN,
    };
    assert!(
        bake_glb(&request)
            .unwrap_err()
            .to_string()
            .starts_with("fps")
    );
    let request = BakeRequest {
        creature: common::creature("snake"),
        mesh: None,
        takes: vec![take("wave", 0)],
        fps: FPS,
    };
    assert!(bake_glb(&request).is_err(), "wave does not play on a snake");
    let long = Clip {
        duration_secs: 1e6,
        ..common::clip("idle_breathe").clone()
    };
    let request = BakeRequest {
        creature,
        mesh: None,
        takes: vec![BakeTake {
            clip: Arc::new(long),
            variant: 0,
        }],
        fps: FPS,
    };
    assert!(
        bake_glb(&request)
            .unwrap_err()
            .to_string()
            .contains("limit")
    );
}

/// Where `npm ci` puts the validator (tools/gltf-validator/package.json).
fn validator_dir() -> PathBuf {
    common::root().join("tools/gltf-validator")
}

/// Why the validator cannot run here, or `None` when it can (installing it with `npm ci`
/// from the committed lock file when node and npm are present).
fn validator_missing() -> Option<String> {
    let node = Command::new("node").arg("--version").output();
    if !node.is_ok_and(|o| o.status.success()) {
        return Some("`node` is not installed".into());
    }
    let dir = validator_dir();
    if dir.join("node_modules/gltf-validator").is_dir() {
        return None;
    }
    let npm = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(&dir)
        .output();
    match npm {
        Ok(o) if o.status.success() => None,
        Ok(o) => Some(format!(
            "`npm ci` in {} failed: {}",
            dir.display(),
            String::from_utf8_lossy(&o.stderr)
        )),
        Err(e) => Some(format!("`npm` could not run: {e}")),
    }
}

fn validate(files: &[PathBuf]) -> (bool, String) {
    let out = Command::new("node")
        .arg(validator_dir().join("validate.js"))
        .args(files)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn baked_files_pass_the_khronos_validator() {
    if let Some(why) = validator_missing() {
        eprintln!("SKIPPED: the Khronos glTF validator did not run: {why}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (i, (creature, mesh, takes)) in cases().into_iter().enumerate() {
        let request = BakeRequest {
            creature: &creature,
            mesh: mesh.as_ref(),
            takes,
            fps: FPS,
        };
        let ext = if i % 2 == 0 { "glb" } else { "gltf" };
        let path = dir.path().join(format!("{}.{ext}", creature.name()));
        bake_to_file(&request, &path).unwrap();
        files.push(path);
    }
    let (ok, report) = validate(&files);
    eprintln!("{report}");
    assert!(ok, "the validator found errors:\n{report}");
    assert!(report.lines().filter(|l| l.contains(": 0 errors")).count() == files.len());
}

#[test]
fn the_bake_command_writes_a_file_and_says_what_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("wave.glb");
    let run = Command::new(env!("CARGO_BIN_EXE_anymorph"))
        .args([
            "bake",
            "tests/fixtures/gltf/humanoid.glb",
            "assets/clips/wave.clip.json",
        ])
        .arg("--out")
        .arg(&out)
        .args(["--fps", "15", "--all-variants"])
        .current_dir(common::root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains("skinned mesh"), "{stdout}");
    assert!(stdout.contains("'wave v1'"), "{stdout}");
    let back = import_rig(Path::new(&out)).unwrap();
    assert_eq!(back.creature.len(), 58);
    let bad = Command::new(env!("CARGO_BIN_EXE_anymorph"))
        .args([
            "bake",
            "sample_creatures/snake.creature.json",
            "assets/clips/wave.clip.json",
        ])
        .arg("--out")
        .arg(dir.path().join("x.glb"))
        .current_dir(common::root())
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("does not play"));
}
