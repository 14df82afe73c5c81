//! In-process targets: every file format's loader, fed a mutated file from the case's folder
//! (read as a command would read it). What loads is then used the way the commands use it —
//! summarized, saved and loaded again, played, walked, solved — and every number that comes
//! out must be finite.

use super::Target;
use super::bytes_mutate::mutate_bytes;
use super::corpus::{Corpus, Seed};
use super::glb::mutate_glb;
use super::json_mutate::mutate_json;
use super::oracle::{Kind, Violation, check_error, non_finite_in_json};
use super::rand_util::{Rng, below, chance, pick};
use super::runner::{Arg, Case, Outcome};
use crate::io::gltf::{RigRules, import_rig, import_rig_from_bytes};
use crate::io::{
    Package, creature_from_str, creature_to_string, gait_from_str, gait_to_string, load_clip,
    load_creature, load_gait, load_package, load_project, package_from_str, package_to_string,
};
use crate::runtime::clip::Clip;
use crate::runtime::creature::Creature;
use crate::runtime::gait::{GaitLayer, GaitStyle};
use crate::runtime::player::{Character, PlayParams, VariantChoice};
use crate::runtime::query::ContextQuery;
use glam::{Quat, Vec3};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

/// A mutated copy of a JSON seed: structure-aware mostly, byte-level sometimes, and now
/// and then a file of another kind under this one's name.
pub(crate) fn mutate_json_seed(
    seed: &Seed,
    kin: &[Seed],
    others: &[&Seed],
    rng: &mut Rng,
) -> (Vec<u8>, String) {
    let roll = below(rng, 100);
    if roll < 4 && !others.is_empty() {
        let other = pick(rng, others);
        return (
            other.bytes.to_vec(),
            format!("the contents of {} instead", other.name),
        );
    }
    if roll < 20 {
        let donors: Vec<&[u8]> = kin.iter().take(4).map(|s| &*s.bytes).collect();
        return mutate_bytes(&seed.bytes, rng, &donors);
    }
    if roll < 40 {
        return super::json_mutate::mutate_numbers_in_range(&seed.bytes, rng);
    }
    let donor_docs: Vec<Value> = (0..2).filter_map(|_| pick(rng, kin).json()).collect();
    let donors: Vec<&Value> = donor_docs.iter().collect();
    mutate_json(&seed.bytes, rng, &donors)
}

fn seeds_of(list: &[super::corpus::CreatureSeed]) -> Vec<Seed> {
    list.iter().map(|c| c.seed.clone()).collect()
}

/// A case for an in-process target.
pub(crate) fn make_case(target: Target, index: u64, corpus: &Corpus, rng: &mut Rng) -> Case {
    let mut case = Case::new(target, index);
    let creature_seeds = seeds_of(&corpus.creatures);
    let others: Vec<&Seed> = corpus
        .clips
        .iter()
        .take(2)
        .chain(corpus.gaits.iter().take(1))
        .chain(corpus.creatures.iter().take(1).map(|c| &c.seed))
        .chain(corpus.validation.iter())
        .collect();
    let single = |case: &mut Case, seed: &Seed, kin: &[Seed], rng: &mut Rng| {
        let (bytes, what) = mutate_json_seed(seed, kin, &others, rng);
        case.what = format!("{}: {what}", seed.name);
        case.files.push((seed.name.clone(), bytes));
        case.must_name.push(vec![seed.name.clone()]);
    };
    match target {
        Target::LoadCreature => {
            let seed = &pick(rng, &corpus.creatures).seed;
            single(&mut case, seed, &creature_seeds, rng);
        }
        Target::LoadClip => single(&mut case, pick(rng, &corpus.clips), &corpus.clips, rng),
        Target::LoadGait => single(&mut case, pick(rng, &corpus.gaits), &corpus.gaits, rng),
        Target::LoadValidation => single(&mut case, &corpus.validation[0], &corpus.validation, rng),
        Target::LoadPackage => {
            // The small packages mostly: the full one is 96 KB of JSON.
            let seed = if chance(rng, 0.15) {
                &corpus.packages[0]
            } else {
                pick(rng, &corpus.packages)
            };
            single(&mut case, seed, &corpus.packages, rng);
        }
        Target::LoadQuery => {
            single(&mut case, pick(rng, &corpus.queries), &corpus.queries, rng);
            case.args
                .push(Arg::Text(below(rng, corpus.creatures.len()).to_string()));
        }
        Target::LoadRigRules => {
            single(&mut case, &corpus.rig_rules[0], &corpus.rig_rules, rng);
            // The smallest rigs: the importer runs on every case.
            let mut rigs: Vec<&super::corpus::CreatureSeed> = corpus.rigs.iter().collect();
            rigs.sort_by_key(|r| r.seed.bytes.len());
            let rig = pick(rng, &rigs[..rigs.len().min(4)]);
            if let Some(path) = &rig.seed.path {
                case.links.push(("rig.glb".into(), path.clone()));
            }
        }
        Target::LoadGoals => {
            let all: Vec<&super::corpus::CreatureSeed> = corpus.all_creatures().collect();
            let k = below(rng, all.len());
            let goals: Vec<Seed> = all.iter().map(|c| c.goals.clone()).collect();
            single(&mut case, &all[k].goals, &goals, rng);
            case.args.push(Arg::Text(k.to_string()));
        }
        Target::LoadGltf => {
            let seed = &pick(rng, &corpus.rigs).seed;
            let donors: Vec<&[u8]> = (0..2)
                .map(|_| &*pick(rng, &corpus.rigs).seed.bytes)
                .collect();
            let (bytes, what) = mutate_glb(&seed.bytes, rng, &donors);
            case.what = format!("{}: {what}", seed.name);
            case.files.push((seed.name.clone(), bytes));
            case.must_name.push(vec![seed.name.clone()]);
        }
        Target::LoadProject => project_case(&mut case, corpus, rng),
        _ => {}
    }
    case
}

/// A project mutated, or a file it lists mutated (the error must name the project).
pub(crate) fn project_case(case: &mut Case, corpus: &Corpus, rng: &mut Rng) {
    let project = if chance(rng, 0.1) {
        &corpus.projects[0]
    } else {
        pick(rng, &corpus.projects)
    };
    if chance(rng, 0.6) {
        let others: Vec<&Seed> = corpus.clips.iter().take(1).collect();
        let (bytes, what) = mutate_json_seed(project, &corpus.projects, &others, rng);
        case.what = format!("{}: {what}", project.name);
        case.files.push((project.name.clone(), bytes));
        case.must_name.push(vec![project.name.clone()]);
        return;
    }
    let Some(mut doc) = project.json() else {
        return;
    };
    let key = *pick(rng, &["clips", "clips", "creatures", "gaits"]);
    let count = doc[key].as_array().map_or(0, Vec::len);
    let path = doc[key][below(rng, count)].as_str().map(String::from);
    let seed = path.and_then(|p| {
        let p = Path::new(&p).to_path_buf();
        let pool: Vec<&Seed> = corpus
            .clips
            .iter()
            .chain(corpus.gaits.iter())
            .chain(corpus.creatures.iter().map(|c| &c.seed))
            .collect();
        pool.into_iter()
            .find(|s| s.path.as_deref() == Some(&p))
            .cloned()
    });
    let Some(seed) = seed else {
        case.what = format!("{}: unchanged", project.name);
        case.files
            .push((project.name.clone(), project.bytes.to_vec()));
        case.must_name.push(vec![project.name.clone()]);
        return;
    };
    let kin: Vec<Seed> = match key {
        "clips" => corpus.clips.clone(),
        "gaits" => corpus.gaits.clone(),
        _ => seeds_of(&corpus.creatures),
    };
    let (bytes, what) = mutate_json_seed(&seed, &kin, &[], rng);
    let member = format!("member_{}", seed.name);
    if let Some(list) = doc[key].as_array_mut() {
        for p in list.iter_mut() {
            if p.as_str() == seed.path.as_deref().and_then(Path::to_str) {
                *p = Value::from(member.clone());
            }
        }
    }
    case.what = format!("{} lists {member}: {what}", project.name);
    case.files.push((
        project.name.clone(),
        serde_json::to_vec_pretty(&doc).unwrap_or_default(),
    ));
    case.files.push((member, bytes));
    // The project, which the command was given (issue 48: "a file a project lists names
    // only itself"); the listed file's own name is welcome too but not asked for.
    case.must_name.push(vec![project.name.clone()]);
}

/// The command that shows a loader case's finding, run in its saved folder.
pub(crate) fn reproduce(case: &Case) -> String {
    let file = case.files.first().map_or("", |f| f.0.as_str());
    let creature = |k: Option<&Arg>| match k {
        Some(Arg::Text(k)) => format!("(sample creature {k})"),
        _ => "CREATURE".into(),
    };
    match case.target {
        Target::LoadCreature | Target::LoadGltf => format!("anymorph info ./{file} --json"),
        Target::LoadClip => format!(
            "anymorph variants BIPED ./{file}; anymorph eval BIPED ./{file} --frames 0:1:10"
        ),
        Target::LoadProject => format!("anymorph export ./{file} --out out.package.json"),
        Target::LoadPackage => format!("anymorph actions ./{file} BIPED"),
        Target::LoadGait => {
            format!("a project listing ./{file} (gaits), then anymorph eval … --speed 1")
        }
        Target::LoadQuery => format!(
            "anymorph query {} --query ./{file}",
            creature(case.args.first())
        ),
        Target::LoadValidation => format!("anymorph validate --config ./{file} …"),
        Target::LoadRigRules => "anymorph info ./rig.glb (rig_rules.json beside it)".to_string(),
        Target::LoadGoals => format!(
            "anymorph solve {} --goals ./{file}",
            creature(case.args.first())
        ),
        _ => String::new(),
    }
}

type Checked = (Outcome, Vec<Violation>);

/// A loader's error, judged as the command line prints it: control characters escaped (a
/// value quoted from the file may hold a newline; `anymorph` prints one line whatever).
fn refused(message: String, case: &Case) -> Checked {
    let line = super::oracle::escape_controls(&message);
    let violations = check_error(&format!("error: {line}\n"), &case.must_name);
    (
        if violations.is_empty() {
            Outcome::Error
        } else {
            Outcome::Bad
        },
        violations,
    )
}

fn loaded(violations: Vec<Violation>) -> Checked {
    (
        if violations.is_empty() {
            Outcome::Ok
        } else {
            Outcome::Bad
        },
        violations,
    )
}

/// Runs a loader case whose files are in `dir`.
pub(crate) fn run_case(case: &Case, corpus: &Corpus, dir: &Path) -> Checked {
    let Some((name, bytes)) = case.files.first() else {
        return (Outcome::Ok, Vec::new());
    };
    let path = dir.join(name);
    let index = |k: Option<&Arg>| match k {
        Some(Arg::Text(t)) => t.parse::<usize>().unwrap_or(0),
        _ => 0,
    };
    let pick_clip = |salt: u64| -> Option<Arc<Clip>> {
        let seed = corpus
            .clips
            .get((case.index.wrapping_add(salt) % corpus.clips.len().max(1) as u64) as usize)?;
        load_clip(seed.path.as_deref()?).ok().map(Arc::new)
    };
    let sample_creature = |salt: u64| -> Arc<Creature> {
        let k = (case.index.wrapping_add(salt) % corpus.creatures.len() as u64) as usize;
        Arc::clone(&corpus.creatures[k].creature)
    };
    match case.target {
        Target::LoadCreature => match load_creature(&path) {
            Err(e) => refused(e.to_string(), case),
            Ok(c) => loaded(creature_checks(c, pick_clip(0))),
        },
        Target::LoadGltf => match import_rig_from_bytes(bytes, name, None, &RigRules::builtin()) {
            Err(e) => refused(e.to_string(), case),
            Ok(rig) => {
                let mut v = Vec::new();
                if let Some(bad) = non_finite_in_json(&rig.report.to_json()) {
                    v.push(Violation::new(
                        Kind::NonFinite,
                        format!("import report {bad}"),
                    ));
                }
                if let Some(mesh) = &rig.mesh {
                    let finite = mesh.positions.iter().all(|p| p.is_finite())
                        && mesh.normals.iter().all(|p| p.is_finite())
                        && mesh.weights.iter().flatten().all(|w| w.is_finite())
                        && mesh.inverse_bind.iter().all(|m| m.is_finite());
                    if !finite {
                        v.push(Violation::new(Kind::NonFinite, "the imported mesh"));
                    }
                }
                v.extend(creature_checks(rig.creature, pick_clip(0)));
                loaded(v)
            }
        },
        Target::LoadClip => match load_clip(&path) {
            Err(e) => refused(e.to_string(), case),
            Ok(clip) => {
                let mut v = round_trip(
                    &crate::io::clip_to_string(&clip),
                    |t| crate::io::clip_from_str(t, "saved.clip.json").map(|_| ()),
                    "the clip",
                );
                v.extend(play_checks(
                    sample_creature(0),
                    &Arc::new(clip),
                    "a sample creature",
                ));
                loaded(v)
            }
        },
        Target::LoadGait => match load_gait(&path) {
            Err(e) => refused(e.to_string(), case),
            Ok(style) => {
                let mut v = round_trip(
                    &gait_to_string(&style),
                    |t| gait_from_str(t, "saved.gait.json").map(|_| ()),
                    "the gait style",
                );
                v.extend(walk_checks(sample_creature(0), style));
                loaded(v)
            }
        },
        Target::LoadPackage => match load_package(&path) {
            Err(e) => refused(e.to_string(), case),
            Ok(p) => loaded(package_checks(&p)),
        },
        Target::LoadProject => match load_project(&path) {
            Err(e) => refused(e.to_string(), case),
            Ok(p) => loaded(package_checks(&Package::from_project(&p))),
        },
        Target::LoadValidation => match crate::validation::ValidationConfig::load(&path) {
            Err(e) => refused(e.to_string(), case),
            Ok(config) => {
                let doc = serde_json::to_value(&config).unwrap_or(Value::Null);
                loaded(
                    non_finite_in_json(&doc)
                        .map(|b| Violation::new(Kind::NonFinite, format!("the config {b}")))
                        .into_iter()
                        .collect(),
                )
            }
        },
        Target::LoadRigRules => match import_rig(&dir.join("rig.glb")) {
            Err(e) => refused(e.to_string(), case),
            Ok(rig) => loaded(creature_checks(rig.creature, None)),
        },
        Target::LoadQuery => {
            // As `query --query FILE` reads it.
            let parsed = crate::io::json::read_text(&path).and_then(|(label, text)| {
                crate::io::json::parse_plain::<ContextQuery>(&text, &label)
            });
            match parsed {
                Err(e) => refused(e.to_string(), case),
                Ok(q) => {
                    let c = sample_creature(index(case.args.first()) as u64);
                    let selected = q.select(&c);
                    let v = if selected.iter().any(|&b| b >= c.len()) {
                        vec![Violation::new(
                            Kind::Other,
                            "select returned a body that is not there",
                        )]
                    } else {
                        Vec::new()
                    };
                    loaded(v)
                }
            }
        }
        Target::LoadGoals => {
            let k = index(case.args.first());
            let Some(seed) = corpus.all_creatures().nth(k) else {
                return (Outcome::Ok, Vec::new());
            };
            let creature = &seed.creature;
            let text = match std::fs::read_to_string(&path) {
                Ok(t) => t,
                Err(e) => return refused(format!("{}: {e}", path.display()), case),
            };
            match crate::cli::goals_from_str(&text, &path.display().to_string(), creature) {
                Err(e) => refused(e.to_string(), case),
                Ok(goals) => {
                    let mut stage = crate::runtime::pipeline::PoseStage::new(creature);
                    stage.record_ik_debug(true);
                    let pose = stage.run(creature, &goals, 0.0).to_vec();
                    let mut v = Vec::new();
                    if let Some(i) = pose
                        .iter()
                        .position(|p| !(p.position.is_finite() && p.rotation.is_finite()))
                    {
                        v.push(Violation::new(
                            Kind::NonFinite,
                            format!(
                                "solved pose of body '{}': {:?}",
                                creature.body(i).name,
                                pose[i]
                            ),
                        ));
                    }
                    let d = stage.ik_debug();
                    if !(d.phase_error.iter().all(|x| x.is_finite())
                        && d.buckling_weight.is_finite())
                    {
                        v.push(Violation::new(
                            Kind::NonFinite,
                            format!(
                                "ik debug: phase_error {:?}, buckling_weight {}",
                                d.phase_error, d.buckling_weight
                            ),
                        ));
                    }
                    loaded(v)
                }
            }
        }
        _ => (Outcome::Ok, Vec::new()),
    }
}

/// Saved text loads again and holds no non-finite number.
fn round_trip(
    text: &str,
    load: impl FnOnce(&str) -> Result<(), crate::io::LoadError>,
    what: &str,
) -> Vec<Violation> {
    let mut v = Vec::new();
    match serde_json::from_str::<Value>(text) {
        Ok(doc) => {
            if let Some(bad) = non_finite_in_json(&doc) {
                v.push(Violation::new(
                    Kind::NonFinite,
                    format!("{what} as saved: {bad}"),
                ));
            }
        }
        Err(e) => v.push(Violation::new(
            Kind::Other,
            format!("{what} saves as bad JSON: {e}"),
        )),
    }
    if v.is_empty()
        && let Err(e) = load(text)
    {
        v.push(Violation::new(
            Kind::Other,
            format!("{what} loads, but as saved it does not: {e}"),
        ));
    }
    v
}

fn package_checks(p: &Package) -> Vec<Violation> {
    round_trip(
        &package_to_string(p),
        |t| package_from_str(t, "saved.package.json").map(|_| ()),
        "the package",
    )
}

/// What `info` shows, the creature saved and reloaded, and a clip played on it.
fn creature_checks(c: Creature, clip: Option<Arc<Clip>>) -> Vec<Violation> {
    let mut v = Vec::new();
    for b in c.bodies() {
        let finite = b.joint.is_finite()
            && b.position.is_finite()
            && b.rotation.is_finite()
            && b.half_extents.is_finite();
        if !finite {
            v.push(Violation::new(
                Kind::NonFinite,
                format!(
                    "body '{}': joint {:?} position {:?} rotation {:?} half_extents {:?}",
                    b.name, b.joint, b.position, b.rotation, b.half_extents
                ),
            ));
            break;
        }
    }
    if let Some(bad) = non_finite_in_json(&crate::cli::creature_summary(&c)) {
        v.push(Violation::new(
            Kind::NonFinite,
            format!("info --json {bad}"),
        ));
    }
    if let Some(id) = (0..c.len()).find(|&i| !c.limb_length(i).is_finite()) {
        v.push(Violation::new(
            Kind::NonFinite,
            format!(
                "limb length of '{}': {}",
                c.body(id).name,
                c.limb_length(id)
            ),
        ));
    }
    v.extend(round_trip(
        &creature_to_string(&c),
        |t| creature_from_str(t, "saved.creature.json").map(|_| ()),
        "the creature",
    ));
    if let Some(clip) = clip {
        v.extend(play_checks(Arc::new(c), &clip, "a sample clip"));
    }
    v
}

fn pose_violation(ch: &Character, what: &str, t: f32) -> Option<Violation> {
    let c = ch.creature();
    for i in 0..c.len() {
        if let Some(p) = ch.world_pose(i)
            && !(p.position.is_finite() && p.rotation.is_finite())
        {
            return Some(Violation::new(
                Kind::NonFinite,
                format!(
                    "{what} at {t:.2} s: body '{}' at {:?} {:?}",
                    c.body(i).name,
                    p.position,
                    p.rotation
                ),
            ));
        }
    }
    let goals = ch.goals();
    for b in goals.bodies() {
        let bad_p = goals
            .position(b)
            .is_some_and(|(p, w)| !(p.is_finite() && w.is_finite()));
        let bad_r = goals
            .rotation(b)
            .is_some_and(|(q, w)| !(q.is_finite() && w.is_finite()));
        if bad_p || bad_r {
            return Some(Violation::new(
                Kind::NonFinite,
                format!("{what} at {t:.2} s: the goal of body '{}'", c.body(b).name),
            ));
        }
    }
    None
}

/// A clip played for a second on a creature (variant 0, if it binds): every pose finite.
fn play_checks(c: Arc<Creature>, clip: &Arc<Clip>, what: &str) -> Vec<Violation> {
    let mut ch = Character::new(c);
    if ch.variants(clip).is_empty() {
        return Vec::new();
    }
    let params = PlayParams {
        variant: VariantChoice::Index(0),
        hold: true,
        ..Default::default()
    };
    if ch.play(clip, params).is_err() {
        return Vec::new();
    }
    let what = format!("'{}' played on {what}", clip.name);
    let mut t = 0.0;
    for dt in [0.0, 1.0 / 30.0, 0.25, 0.5, 1.0 / 30.0] {
        ch.update(dt);
        t += dt;
        if let Some(v) = pose_violation(&ch, &what, t) {
            return vec![v];
        }
    }
    Vec::new()
}

/// A creature walking and turning with a gait style for a second.
fn walk_checks(c: Arc<Creature>, style: GaitStyle) -> Vec<Violation> {
    let name = c.name().to_string();
    let mut ch = Character::new(c);
    ch.set_gait_layers(vec![GaitLayer::new(Arc::new(style))]);
    ch.set_locomotion(Vec3::Z * 1.2, 0.4);
    let mut t = 0.0;
    for _ in 0..20 {
        ch.update(1.0 / 20.0);
        t += 1.0 / 20.0;
        if let Some(v) = pose_violation(&ch, &format!("{name} walking"), t) {
            return vec![v];
        }
    }
    let w = ch.world_from_character();
    if !(w.position.is_finite() && w.rotation.is_finite())
        || w.rotation == Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)
    {
        return vec![Violation::new(
            Kind::NonFinite,
            format!("{name} walking: world_from_character {w:?}"),
        )];
    }
    Vec::new()
}
