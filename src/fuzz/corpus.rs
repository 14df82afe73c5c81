//! The seed corpus: the sample files of the repository, read where they lie (nothing is
//! copied into the tree), and a few seeds made from them — projects whose paths are absolute
//! (so that a mutated copy anywhere still finds its clips), one small project and package per
//! sample action, context queries taken from the clips' channels, and a goal file per
//! creature for `solve`.

use crate::io::gltf::{RigRules, import_rig_from_bytes};
use crate::io::{Package, creature_from_str, load_project, package_to_string};
use crate::runtime::creature::Creature;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One seed: its file name (mutated copies keep it, so errors can be checked for it), where
/// it lies (`None` when made here), and its bytes.
#[derive(Clone, Debug)]
pub struct Seed {
    pub name: String,
    pub path: Option<PathBuf>,
    pub bytes: Arc<[u8]>,
}

impl Seed {
    fn read(path: &Path) -> Result<Seed, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Seed {
            name: file_name(path),
            path: Some(path.to_path_buf()),
            bytes: bytes.into(),
        })
    }

    fn made(name: impl Into<String>, text: String) -> Seed {
        Seed {
            name: name.into(),
            path: None,
            bytes: text.into_bytes().into(),
        }
    }

    pub fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.bytes).ok()
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A creature seed and what the harness needs to know of it.
#[derive(Clone)]
pub struct CreatureSeed {
    pub seed: Seed,
    pub creature: Arc<Creature>,
    /// A `solve` goal file for this creature.
    pub goals: Seed,
    /// The clips (indices into [`Corpus::clips`]) that bind on it.
    pub binding_clips: Vec<usize>,
}

/// Every seed, by kind.
pub struct Corpus {
    pub root: PathBuf,
    /// `sample_creatures/*.creature.json`.
    pub creatures: Vec<CreatureSeed>,
    /// `assets/rigs/*.glb` and `tests/fixtures/gltf/*.glb`.
    pub rigs: Vec<CreatureSeed>,
    pub clips: Vec<Seed>,
    pub gaits: Vec<Seed>,
    /// The sample project with absolute paths, then one small project per action.
    pub projects: Vec<Seed>,
    /// The sample package, then one small package per action.
    pub packages: Vec<Seed>,
    pub validation: Vec<Seed>,
    pub rig_rules: Vec<Seed>,
    /// Context queries (one JSON object each).
    pub queries: Vec<Seed>,
    /// The names of the sample project's actions, for `--action`.
    pub actions: Vec<String>,
}

fn files(dir: &Path, suffix: &str) -> Result<Vec<PathBuf>, String> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    v.sort();
    Ok(v)
}

impl Corpus {
    /// Reads the corpus from a checkout of the repository at `root`.
    pub fn load(root: &Path) -> Result<Corpus, String> {
        let root = root
            .canonicalize()
            .map_err(|e| format!("{}: {e}", root.display()))?;
        let mut creatures = Vec::new();
        for path in files(&root.join("sample_creatures"), ".creature.json")? {
            let seed = Seed::read(&path)?;
            let text = String::from_utf8_lossy(&seed.bytes).into_owned();
            let creature = creature_from_str(&text, &seed.name).map_err(|e| e.to_string())?;
            creatures.push(creature_seed(seed, creature));
        }
        let mut rigs = Vec::new();
        let rules = RigRules::builtin();
        for dir in ["assets/rigs", "tests/fixtures/gltf"] {
            for path in files(&root.join(dir), ".glb")? {
                let seed = Seed::read(&path)?;
                let rig = import_rig_from_bytes(&seed.bytes, &seed.name, None, &rules)
                    .map_err(|e| e.to_string())?;
                rigs.push(creature_seed(seed, rig.creature));
            }
        }
        let clips = files(&root.join("assets/clips"), ".clip.json")?
            .iter()
            .map(|p| Seed::read(p))
            .collect::<Result<Vec<_>, _>>()?;
        let gaits = files(&root.join("assets/gaits"), ".gait.json")?
            .iter()
            .map(|p| Seed::read(p))
            .collect::<Result<Vec<_>, _>>()?;
        let project_path = root.join("assets/sample.project.json");
        let sample_project = Seed::read(&project_path)?;
        let mut project_doc = sample_project
            .json()
            .ok_or("assets/sample.project.json is not JSON")?;
        let assets = root.join("assets");
        for key in ["clips", "creatures", "gaits"] {
            if let Some(list) = project_doc[key].as_array_mut() {
                for p in list.iter_mut() {
                    let abs = assets.join(p.as_str().unwrap_or_default());
                    *p = Value::from(abs.to_string_lossy().into_owned());
                }
            }
        }
        let actions: Vec<Value> = project_doc["actions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let mut projects = vec![Seed::made("sample.project.json", pretty(&project_doc))];
        let mut packages = vec![Seed::read(&root.join("assets/sample.package.json"))?];
        let clip_path = |name: &str| {
            assets
                .join(format!("clips/{name}.clip.json"))
                .to_string_lossy()
                .into_owned()
        };
        let creature_paths: Vec<String> = creatures
            .iter()
            .filter_map(|c| c.seed.path.as_ref())
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let gait_paths: Vec<String> = gaits
            .iter()
            .filter_map(|g| g.path.as_ref())
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
        for (k, action) in actions.iter().enumerate() {
            let name = action["name"].as_str().unwrap_or("action");
            let branches: Vec<String> = action["branches"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|b| b.as_str().map(clip_path))
                .collect();
            let pair: Vec<&String> = [k, k + 3]
                .iter()
                .filter_map(|&i| creature_paths.get(i % creature_paths.len().max(1)))
                .collect();
            let doc = json!({
                "format": "anymorph-project", "version": 1, "name": format!("{name} only"),
                "clips": branches, "creatures": pair, "gaits": [gait_paths.first()],
                "actions": [action],
            });
            let file = format!("{name}.project.json");
            let text = pretty(&doc);
            // Its package, as `export` writes it.
            let path = scratch.path().join(&file);
            std::fs::write(&path, &text).map_err(|e| e.to_string())?;
            let loaded = load_project(&path).map_err(|e| e.to_string())?;
            packages.push(Seed::made(
                format!("{name}.package.json"),
                package_to_string(&Package::from_project(&loaded)),
            ));
            projects.push(Seed::made(file, text));
        }
        let mut queries: Vec<Seed> = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for clip in &clips {
            let Some(doc) = clip.json() else { continue };
            for channel in doc["channels"].as_array().into_iter().flatten() {
                let text = pretty(&channel["context"]);
                if channel["context"].is_object() && seen.insert(text.clone()) {
                    queries.push(Seed::made(format!("q{}.query.json", queries.len()), text));
                }
            }
        }
        let loaded_clips: Vec<Option<crate::runtime::clip::Clip>> = clips
            .iter()
            .map(|s| s.path.as_deref().and_then(|p| crate::io::load_clip(p).ok()))
            .collect();
        for c in creatures.iter_mut().chain(rigs.iter_mut()) {
            c.binding_clips = loaded_clips
                .iter()
                .enumerate()
                .filter(|(_, clip)| {
                    clip.as_ref()
                        .is_some_and(|clip| crate::runtime::bind::bind(clip, &c.creature).binds())
                })
                .map(|(i, _)| i)
                .collect();
        }
        queries.push(Seed::made(
            "design.query.json",
            pretty(
                &json!({ "cap": "grasper", "left_right": "left", "front_back": "any",
                "top_bottom": "any", "space": "creature", "extent": "none", "limb": "none" }),
            ),
        ));
        Ok(Corpus {
            creatures,
            rigs,
            clips,
            gaits,
            projects,
            packages,
            validation: vec![Seed::read(&root.join("assets/validation.json"))?],
            rig_rules: vec![Seed::read(&root.join("assets/rig_rules.json"))?],
            queries,
            actions: actions
                .iter()
                .filter_map(|a| a["name"].as_str().map(String::from))
                .collect(),
            root,
        })
    }

    /// Every creature seed, JSON first, then the rigs.
    pub fn all_creatures(&self) -> impl Iterator<Item = &CreatureSeed> {
        self.creatures.iter().chain(&self.rigs)
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn creature_seed(seed: Seed, creature: Creature) -> CreatureSeed {
    let goals = Seed::made(
        format!("{}.goals.json", seed.name.split('.').next().unwrap_or("c")),
        pretty(&goals_for(&creature)),
    );
    CreatureSeed {
        seed,
        creature: Arc::new(creature),
        goals,
        binding_clips: Vec::new(),
    }
}

/// A goal file that moves the root a little and reaches with the feet and the last body.
fn goals_for(c: &Creature) -> Value {
    let root = c.body(c.root());
    let mut goals = Vec::new();
    let mut bodies: Vec<usize> = c.legs().iter().map(|l| l.foot).take(2).collect();
    if c.len() > 1 {
        bodies.push(c.len() - 1);
    }
    bodies.sort_unstable();
    bodies.dedup();
    bodies.retain(|&b| b != c.root());
    for (k, b) in bodies.into_iter().enumerate() {
        let body = c.body(b);
        let p = body.position + glam::Vec3::new(0.05, 0.1, 0.05);
        goals.push(json!({
            "body": body.name,
            "position": p.to_array(),
            "rotation": if k == 0 { json!([0.0, 0.0, 0.0, 1.0]) } else { Value::Null },
            "weight": if k == 1 { 0.5 } else { 1.0 },
        }));
    }
    json!({
        "root": { "position": (root.position + glam::Vec3::Y * 0.02).to_array(),
                  "rotation": [0.0, 0.0, 0.0, 1.0] },
        "goals": goals,
    })
}
