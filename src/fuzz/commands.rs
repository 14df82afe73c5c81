//! Command targets: the built binary run on mutated files and odd flag values, as a
//! subprocess with a time limit; its exit status, stdout, stderr and the files it writes
//! are what the oracles read.

use super::Target;
use super::corpus::{Corpus, CreatureSeed, Seed};
use super::glb::mutate_glb;
use super::loaders::{mutate_json_seed, project_case};
use super::oracle::{
    Kind, Violation, check_error, non_finite_in_glb, non_finite_in_json, non_finite_in_output,
    panic_in_stderr,
};
use super::rand_util::{Rng, below, chance, pick};
use super::runner::{Arg, Case, Options, Outcome, Output};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Flag values: numbers at and past every edge, and things that are not numbers.
const ODD_VALUES: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "0.5",
    "2",
    "30",
    "99",
    "100",
    "100.1",
    "1000",
    "1e6",
    "1e7",
    "-1e7",
    "1e30",
    "3e38",
    "3.4e38",
    "-3.4e38",
    "1e39",
    "1e-45",
    "-1e-45",
    "1e-7",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "infinity",
    "",
    " ",
    "1,5",
    "0x10",
    "1e",
    "abc",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
];

/// Odd values of a count: none is a count of millions (which would be a long run, not a
/// bug).
const ODD_COUNTS: &[&str] = &[
    "-1",
    "-0",
    "0",
    "1",
    "2",
    "",
    " ",
    "x",
    "1e3",
    "1.5",
    "NaN",
    "18446744073709551616",
    "99999999999999999999999",
];

fn count_flag(b: &mut Builder, rng: &mut Rng, flag: &str, usual_values: &[&str], p_odd: f64) {
    let (v, is_odd) = if chance(rng, p_odd) {
        (pick(rng, ODD_COUNTS).to_string(), true)
    } else {
        (usual(rng, usual_values), false)
    };
    b.flag(rng, flag, v, is_odd);
}

/// Everyday values of a flag, so that odd values are tried in company that works.
fn usual(rng: &mut Rng, values: &[&str]) -> String {
    pick(rng, values).to_string()
}

fn odd(rng: &mut Rng) -> String {
    pick(rng, ODD_VALUES).to_string()
}

/// Builds a case's command line and remembers what it changed.
struct Builder<'a> {
    case: Case,
    corpus: &'a Corpus,
    /// File names the case changed: an error must name one (or a flag given a value).
    changed: Vec<String>,
    /// Flags (and their values) the case gave odd values.
    changed_flags: Vec<String>,
    /// Every input's name, for cases that changed nothing an error could be about.
    inputs: Vec<String>,
    /// Every flag given a value: an error about the flag names it.
    value_flags: Vec<String>,
    what: Vec<String>,
}

impl<'a> Builder<'a> {
    fn new(target: Target, index: u64, corpus: &'a Corpus) -> Self {
        Builder {
            case: Case::new(target, index),
            corpus,
            changed: Vec::new(),
            changed_flags: Vec::new(),
            inputs: Vec::new(),
            value_flags: Vec::new(),
            what: Vec::new(),
        }
    }

    fn text(&mut self, s: impl Into<String>) {
        self.case.args.push(Arg::Text(s.into()));
    }

    /// A flag with a value: usual or odd (then remembered), as `--flag=value` or
    /// `--flag value`.
    fn flag(&mut self, rng: &mut Rng, flag: &str, value: String, is_odd: bool) {
        self.value_flags.push(flag.to_string());
        if is_odd {
            self.changed_flags.push(flag.to_string());
            if !value.trim().is_empty() {
                self.changed_flags.push(value.clone());
            }
            self.what.push(format!("{flag} {value:?}"));
        }
        if chance(rng, 0.8) {
            self.text(format!("{flag}={value}"));
        } else {
            self.text(flag);
            self.text(value);
        }
    }

    /// A file argument: the seed where it lies, or a mutated copy under the seed's name.
    fn file(&mut self, seed: &Seed, bytes: Option<(Vec<u8>, String)>) {
        self.inputs.push(seed.name.clone());
        match (bytes, &seed.path) {
            (Some((bytes, what)), _) => {
                self.what.push(format!("{}: {what}", seed.name));
                self.changed.push(seed.name.clone());
                self.case.files.push((seed.name.clone(), bytes));
                self.case.args.push(Arg::File(seed.name.clone()));
            }
            (None, Some(path)) => self.case.args.push(Arg::Seed(path.clone())),
            (None, None) => {
                self.case
                    .files
                    .push((seed.name.clone(), seed.bytes.to_vec()));
                self.case.args.push(Arg::File(seed.name.clone()));
            }
        }
    }

    /// A creature argument (JSON or glTF), mutated with probability `p`; sometimes a path
    /// that is not a creature at all.
    fn creature(&mut self, rng: &mut Rng, p: f64) -> &'a CreatureSeed {
        let corpus = self.corpus;
        let c = if chance(rng, 0.75) {
            pick(rng, &corpus.creatures)
        } else {
            pick(rng, &corpus.rigs)
        };
        if chance(rng, p * 0.08) {
            self.wrong_path(rng, "creature.json");
            return c;
        }
        let mutated = chance(rng, p).then(|| mutate_creature(&c.seed, corpus, rng));
        self.file(&c.seed, mutated);
        c
    }

    /// A clip argument: one that binds on `on` most of the time.
    fn clip(&mut self, rng: &mut Rng, on: &CreatureSeed, p: f64) -> &'a Seed {
        let corpus = self.corpus;
        let seed = if !on.binding_clips.is_empty() && chance(rng, 0.85) {
            &corpus.clips[*pick(rng, &on.binding_clips)]
        } else {
            pick(rng, &corpus.clips)
        };
        if chance(rng, p * 0.08) {
            self.wrong_path(rng, "clip.json");
            return seed;
        }
        let mutated = chance(rng, p).then(|| {
            let others: Vec<&Seed> = corpus.gaits.iter().take(1).collect();
            mutate_json_seed(seed, &corpus.clips, &others, rng)
        });
        self.file(seed, mutated);
        seed
    }

    /// A path that is not what the command expects: missing, a folder, empty, another
    /// kind of file, a JSON file named `.glb`, an odd name.
    fn wrong_path(&mut self, rng: &mut Rng, suffix: &str) {
        let corpus = self.corpus;
        let (name, bytes): (String, Option<Vec<u8>>) = match below(rng, 7) {
            0 => (format!("missing.{suffix}"), None),
            1 => {
                self.case
                    .files
                    .push(("a_folder.d/inside.txt".into(), b"x".to_vec()));
                ("a_folder.d".into(), None)
            }
            2 => (format!("empty.{suffix}"), Some(Vec::new())),
            3 => (
                format!("wrong_kind.{suffix}"),
                Some(pick(rng, &corpus.gaits).bytes.to_vec()),
            ),
            4 => (
                "json_inside.glb".into(),
                Some(pick(rng, &corpus.creatures).seed.bytes.to_vec()),
            ),
            5 => (
                format!("glb_inside.{suffix}"),
                Some(pick(rng, &corpus.rigs).seed.bytes.to_vec()),
            ),
            _ => (
                format!("ünï cödé {}.{suffix}", below(rng, 10)),
                Some(pick(rng, &corpus.creatures).seed.bytes.to_vec()),
            ),
        };
        self.what.push(format!("path {name:?}"));
        self.changed.push(name.clone());
        self.inputs.push(name.clone());
        if let Some(bytes) = bytes {
            self.case.files.push((name.clone(), bytes));
        }
        self.case.args.push(Arg::File(name));
    }

    /// A project (`project_case`: the project or a file it lists mutated) or a package.
    fn project_or_package(&mut self, rng: &mut Rng, p: f64, package: bool) {
        let corpus = self.corpus;
        if package {
            let seed = if chance(rng, 0.1) {
                &corpus.packages[0]
            } else {
                pick(rng, &corpus.packages)
            };
            let mutated =
                chance(rng, p).then(|| mutate_json_seed(seed, &corpus.packages, &[], rng));
            self.file(seed, mutated);
            return;
        }
        let seed = pick(rng, &corpus.projects);
        if !chance(rng, p) {
            self.file(seed, None);
            return;
        }
        let mut sub = Case::new(self.case.target, self.case.index);
        project_case(&mut sub, corpus, rng);
        let Some((name, _)) = sub.files.first().cloned() else {
            self.file(seed, None);
            return;
        };
        self.inputs.push(name.clone());
        self.changed.push(name.clone());
        self.what.push(sub.what);
        self.case.files.extend(sub.files);
        self.case.args.push(Arg::File(name));
    }

    fn out(&mut self, name: &str, output: Output) {
        self.case.args.push(Arg::File(name.into()));
        self.case.outputs.push(output);
    }

    fn finish(mut self) -> Case {
        // A changed file must be named (or a flag given a value: the error may be the
        // flag's). Flags alone: the flags, or any input (a flag's value can make a seed
        // combination fail for a reason about the files).
        let mut group = if self.changed.is_empty() {
            let mut all = self.inputs.clone();
            all.extend(self.changed_flags.iter().cloned());
            all
        } else {
            let mut files = self.changed.clone();
            files.extend(self.changed_flags.iter().cloned());
            files
        };
        group.extend(self.value_flags.iter().cloned());
        if group.is_empty() {
            group.extend(self.case.args.iter().filter_map(|a| match a {
                Arg::Text(t) if t.starts_with("--") => {
                    Some(t.split('=').next().unwrap_or(t).to_string())
                }
                _ => None,
            }));
        }
        self.case.must_name.push(group);
        self.case.what = if self.what.is_empty() {
            "nothing mutated (a seed combination)".into()
        } else {
            self.what.join("; ")
        };
        self.case
    }
}

fn mutate_creature(seed: &Seed, corpus: &Corpus, rng: &mut Rng) -> (Vec<u8>, String) {
    if seed.name.ends_with(".glb") {
        let donors: Vec<&[u8]> = vec![&*pick(rng, &corpus.rigs).seed.bytes];
        return mutate_glb(&seed.bytes, rng, &donors);
    }
    let kin: Vec<Seed> = corpus.creatures.iter().map(|c| c.seed.clone()).collect();
    let others: Vec<&Seed> = corpus.clips.iter().take(1).collect();
    mutate_json_seed(seed, &kin, &others, rng)
}

/// Frames `START:END:FPS`, usual or odd, never so many that the output is gigabytes.
fn frames(rng: &mut Rng, p_odd: f64) -> (String, bool) {
    if !chance(rng, p_odd) {
        return (
            usual(
                rng,
                &["0:1:10", "0:2.4:30", "0.5:0.6:60", "0:0:30", "1:3:5"],
            ),
            false,
        );
    }
    let mut parts: Vec<String> = vec!["0".into(), "1".into(), "10".into()];
    for p in parts.iter_mut() {
        if chance(rng, 0.5) {
            *p = odd(rng);
        }
    }
    let mut spec = parts.join(":");
    if chance(rng, 0.1) {
        spec = pick(
            rng,
            &[
                "0:1",
                "0:1:2:3",
                "::",
                "0:1e30:30",
                "3e38:3.4e38:1",
                "-1e6:1e6:1000",
            ],
        )
        .to_string();
    }
    // A valid spec of thousands of frames writes megabytes: keep those few.
    let nums: Vec<f64> = spec
        .split(':')
        .filter_map(|s| s.trim().parse::<f64>().ok())
        .collect();
    if let [s, e, f] = nums[..]
        && s.is_finite()
        && e >= s
        && f > 0.0
        && (e - s) * f > 200.0
        && (e - s) * f <= 200_000.0
    {
        spec = format!("{s}:{}:{f}", s + 100.0 / f);
    }
    (spec, true)
}

fn vec3(rng: &mut Rng, p_odd: f64) -> (String, bool) {
    if !chance(rng, p_odd) {
        return (usual(rng, &["0,1,1", "1,0.5,2", "-0.5,1.2,0.3"]), false);
    }
    let parts: Vec<String> = (0..3)
        .map(|_| {
            if chance(rng, 0.5) {
                odd(rng)
            } else {
                "0.5".into()
            }
        })
        .collect();
    let sep = if chance(rng, 0.9) { "," } else { ";" };
    (parts.join(sep), true)
}

fn number_flag(b: &mut Builder, rng: &mut Rng, flag: &str, usual_values: &[&str], p_odd: f64) {
    if chance(rng, p_odd) {
        let v = odd(rng);
        b.flag(rng, flag, v, true);
    } else {
        let v = usual(rng, usual_values);
        b.flag(rng, flag, v, false);
    }
}

/// A case for a command target.
pub(crate) fn make_case(target: Target, index: u64, corpus: &Corpus, rng: &mut Rng) -> Case {
    let mut b = Builder::new(target, index, corpus);
    let json = chance(rng, 0.5);
    match target {
        Target::Info => {
            b.text("info");
            b.creature(rng, 0.95);
            if json {
                b.text("--json");
            }
        }
        Target::Query => {
            b.text("query");
            let in_file = chance(rng, 0.5);
            let mutate_query = chance(rng, 0.6);
            b.creature(rng, if mutate_query { 0.0 } else { 1.0 });
            let seed = pick(rng, &corpus.queries);
            let mutated = mutate_query.then(|| mutate_json_seed(seed, &corpus.queries, &[], rng));
            b.text("--query");
            // An argument of megabytes does not fit a command line: those go in a file.
            let in_file = in_file
                || mutated
                    .as_ref()
                    .is_some_and(|(bytes, _)| bytes.len() > 50_000);
            if in_file {
                b.file(seed, mutated);
            } else {
                let (bytes, what) = mutated.unwrap_or_else(|| (seed.bytes.to_vec(), String::new()));
                let text = String::from_utf8_lossy(&bytes).into_owned();
                // An argument cannot hold a NUL byte.
                let text = text.replace('\0', "\\u0000");
                if !what.is_empty() {
                    b.what.push(format!("inline query: {what}"));
                    b.changed.push("--query".into());
                }
                b.inputs.push("--query".into());
                // Text that is not an object is taken for a file name: the error names it.
                if !text.trim_start().starts_with('{') {
                    b.changed.push(text.clone());
                }
                b.text(text);
            }
            if json {
                b.text("--json");
            }
        }
        Target::Variants => {
            b.text("variants");
            let which = chance(rng, 0.5);
            let c = b.creature(rng, if which { 1.0 } else { 0.0 });
            b.clip(rng, c, if which { 0.0 } else { 1.0 });
            if json {
                b.text("--json");
            }
        }
        Target::Actions => {
            b.text("actions");
            let which = below(rng, 3);
            b.project_or_package(rng, if which < 2 { 1.0 } else { 0.0 }, which == 1);
            b.creature(rng, if which == 2 { 1.0 } else { 0.0 });
            if json {
                b.text("--json");
            }
        }
        Target::Eval => eval_case(&mut b, rng),
        Target::Bake => bake_case(&mut b, rng),
        Target::Solve => {
            b.text("solve");
            let mutate_goals = chance(rng, 0.7);
            let c = b.creature(rng, if mutate_goals { 0.0 } else { 1.0 });
            b.text("--goals");
            let goals: Vec<Seed> = corpus.all_creatures().map(|c| c.goals.clone()).collect();
            let mutated = mutate_goals.then(|| mutate_json_seed(&c.goals, &goals, &[], rng));
            if !mutate_goals {
                // The goals name bodies the changed creature may have lost: the error is
                // then the goal file's.
                b.changed.push(c.goals.name.clone());
            }
            b.file(&c.goals, mutated);
        }
        Target::Export => {
            b.text("export");
            b.project_or_package(rng, 0.9, false);
            b.text("--out");
            b.out(
                "out.package.json",
                Output::Package("out.package.json".into()),
            );
            match below(rng, 3) {
                0 => b.text("--report"),
                1 => b.text("--json"),
                _ => {}
            }
            if chance(rng, 0.3) {
                number_flag(&mut b, rng, "--reduce", &["0", "0.001", "0.01"], 0.5);
            }
            if chance(rng, 0.15) {
                let name = usual(rng, &["hand", "body", "head", "", "nope"]);
                let (tol, is_odd) = if chance(rng, 0.5) {
                    (odd(rng), true)
                } else {
                    ("0.01".into(), false)
                };
                b.flag(rng, "--reduce-channel", format!("{name}={tol}"), is_odd);
            }
        }
        Target::Validate => validate_case(&mut b, rng),
        Target::Check => {
            b.text("check");
            b.text(usual(rng, &["ik", "gait"]));
            let c = pick(rng, &corpus.creatures);
            let mutated = chance(rng, 0.85).then(|| mutate_creature(&c.seed, corpus, rng));
            let name = format!("creatures/{}", c.seed.name);
            match mutated {
                Some((bytes, what)) => {
                    b.what.push(format!("{name}: {what}"));
                    b.changed.push(c.seed.name.clone());
                    b.case.files.push((name, bytes));
                }
                None => {
                    if let Some(p) = &c.seed.path {
                        b.case.links.push((name, p.clone()));
                    }
                    b.inputs.push(c.seed.name.clone());
                }
            }
            b.text("--creatures");
            b.case.args.push(Arg::File("creatures".into()));
            b.text("--threads=1");
            b.text(format!("--sets={}", 1 + below(rng, 2)));
            if chance(rng, 0.2) {
                count_flag(&mut b, rng, "--random", &["0", "1"], 0.3);
                number_flag(&mut b, rng, "--seed", &["1", "7"], 0.5);
            }
            if json {
                b.text("--json");
            }
        }
        Target::Generate => {
            b.text("generate");
            number_flag(
                &mut b,
                rng,
                "--seed",
                &["0", "1", "42", "18446744073709551615"],
                0.4,
            );
            if chance(rng, 0.4) {
                let (v, is_odd) = family(rng);
                b.flag(rng, "--family", v, is_odd);
            }
            b.text("--out");
            b.out(
                "generated.creature.json",
                Output::Creature("generated.creature.json".into()),
            );
        }
        Target::Bench => {
            b.text("bench");
            let small = |rng: &mut Rng| usual(rng, &["0", "1", "2", "3"]);
            let v = small(rng);
            b.flag(rng, "--creatures", v, true);
            let v = small(rng);
            b.flag(rng, "--frames", v, true);
            let v = usual(rng, &["0", "1", "2"]);
            b.flag(rng, "--threads", v, true);
            if chance(rng, 0.4) {
                let names: Vec<&str> = corpus
                    .creatures
                    .iter()
                    .map(|c| c.creature.name())
                    .chain(["nope", "", "biped\n"])
                    .collect();
                let v = pick(rng, &names).to_string();
                b.flag(rng, "--creature", v, true);
            }
            if json {
                b.text("--json");
            }
        }
        _ => {}
    }
    b.finish()
}

fn family(rng: &mut Rng) -> (String, bool) {
    if chance(rng, 0.7) {
        let v = usual(
            rng,
            &[
                "classic",
                "lopsided",
                "splayed",
                "staggered",
                "anywhere",
                "jointed",
                "proportions",
                "many-legs",
                "limbs-on-limbs",
            ],
        );
        (v, false)
    } else {
        (usual(rng, &["", "nope", "CLASSIC", "many_legs"]), true)
    }
}

fn eval_case(b: &mut Builder, rng: &mut Rng) {
    b.text("eval");
    let corpus = b.corpus;
    let roll = below(rng, 10);
    // What is mutated: the creature, the clip (or project/package), or flags only.
    let (p_creature, p_clip) = match roll {
        0..=2 => (1.0, 0.0),
        3..=5 => (0.0, 1.0),
        _ => (0.0, 0.0),
    };
    let c = b.creature(rng, p_creature);
    if chance(rng, 0.2) {
        let package = chance(rng, 0.5);
        b.project_or_package(rng, p_clip, package);
        let own = own_action(b);
        let (name, is_odd) = if let Some(own) = own.filter(|_| chance(rng, 0.8)) {
            (own, false)
        } else if chance(rng, 0.75) && !corpus.actions.is_empty() {
            (pick(rng, &corpus.actions).clone(), false)
        } else {
            (usual(rng, &["nope", "", "wave\n"]), true)
        };
        b.flag(rng, "--action", name, is_odd);
    } else {
        b.clip(rng, c, p_clip);
    }
    let flags_odd = roll >= 6;
    let p = if flags_odd { 0.35 } else { 0.05 };
    if chance(rng, 0.5) {
        number_flag(b, rng, "--time", &["0", "0.5", "1.2", "3", "100"], p);
    } else {
        let (spec, is_odd) = frames(rng, p * 1.5);
        b.flag(rng, "--frames", spec, is_odd);
    }
    if chance(rng, 0.4) {
        number_flag(b, rng, "--variant", &["0", "1", "2"], p);
    }
    for _ in 0..below(rng, 3) {
        let (v, is_odd) = vec3(rng, p * 1.5);
        b.flag(rng, "--target", v, is_odd);
    }
    if chance(rng, 0.5) {
        number_flag(b, rng, "--speed", &["0", "0.5", "1.5", "4", "-1"], p);
    }
    if chance(rng, 0.4) {
        number_flag(b, rng, "--turn", &["0", "0.5", "-1", "3"], p);
    }
    if chance(rng, 0.4) {
        let (v, is_odd) = if chance(rng, p.max(0.2)) {
            let a = odd(rng);
            let w = odd(rng);
            (
                pick(
                    rng,
                    &[
                        format!("slope:{a}"),
                        format!("waves:{a}:{w}"),
                        format!("waves:{a}"),
                        "hills".to_string(),
                        String::new(),
                        "slope".to_string(),
                    ],
                )
                .clone(),
                true,
            )
        } else {
            (
                usual(
                    rng,
                    &["flat", "slope:10", "slope:-25", "waves", "waves:0.1:1.5"],
                ),
                false,
            )
        };
        b.flag(rng, "--terrain", v, is_odd);
    }
}

/// The action of the small project or package just added (`wave.project.json`: wave).
fn own_action(b: &Builder) -> Option<String> {
    let name = match b.case.args.last()? {
        Arg::File(n) => n.clone(),
        Arg::Seed(p) => p.file_name()?.to_string_lossy().into_owned(),
        Arg::Text(_) => return None,
    };
    let stem = name
        .strip_suffix(".project.json")
        .or_else(|| name.strip_suffix(".package.json"))?;
    b.corpus.actions.iter().find(|a| *a == stem).cloned()
}

fn bake_case(b: &mut Builder, rng: &mut Rng) {
    b.text("bake");
    let corpus = b.corpus;
    let which = below(rng, 3);
    let c = b.creature(rng, if which == 0 { 1.0 } else { 0.0 });
    if chance(rng, 0.15) {
        let package = chance(rng, 0.5);
        b.project_or_package(rng, if which == 1 { 1.0 } else { 0.0 }, package);
        let name = own_action(b).unwrap_or_else(|| pick(rng, &corpus.actions).clone());
        b.flag(rng, "--action", name, false);
    } else {
        b.clip(rng, c, if which == 1 { 1.0 } else { 0.0 });
    }
    let out = if chance(rng, 0.8) {
        "baked.glb"
    } else {
        "baked.gltf"
    };
    b.text("--out");
    b.out(out, Output::Baked(out.into()));
    let p = if which == 2 { 0.5 } else { 0.05 };
    if chance(rng, 0.4) {
        // Odd frame rates, but not thousands of frames of a creature of a thousand bodies.
        let v = if chance(rng, p) {
            usual(
                rng,
                &[
                    "0", "-1", "-0", "1e-45", "0.001", "1e6", "1e30", "3.4e38", "NaN", "inf", "",
                    "x", "1000",
                ],
            )
        } else {
            usual(rng, &["10", "24", "30"])
        };
        let is_odd = !matches!(v.as_str(), "10" | "24" | "30");
        b.flag(rng, "--fps", v, is_odd);
    }
    if chance(rng, 0.2) {
        b.text("--all-variants");
    } else if chance(rng, 0.4) {
        number_flag(b, rng, "--variant", &["0", "1"], p);
    }
}

fn validate_case(b: &mut Builder, rng: &mut Rng) {
    b.text("validate");
    let corpus = b.corpus;
    let mode = below(rng, 3);
    let mutate_creature_file = chance(rng, 0.35);
    // Rows: a folder of clips, a project or a package.
    match mode {
        0 => {
            let n = 1 + below(rng, 2);
            let mutated = (!mutate_creature_file).then(|| below(rng, n));
            let mut names = std::collections::BTreeSet::new();
            for k in 0..n {
                let seed = pick(rng, &corpus.clips);
                let name = format!("clips/{}", seed.name);
                if !names.insert(name.clone()) {
                    continue;
                }
                if Some(k) == mutated {
                    let (bytes, what) = mutate_json_seed(seed, &corpus.clips, &[], rng);
                    b.what.push(format!("{name}: {what}"));
                    b.changed.push(seed.name.clone());
                    b.case.files.push((name, bytes));
                } else if let Some(p) = &seed.path {
                    b.case.links.push((name, p.clone()));
                    b.inputs.push(seed.name.clone());
                }
            }
            b.text("--clips");
            b.case.args.push(Arg::File("clips".into()));
        }
        _ => {
            let package = mode == 2;
            let flag = if package { "--package" } else { "--project" };
            b.text(flag);
            // The small ones: one action each.
            let pool = if package {
                &corpus.packages[1..]
            } else {
                &corpus.projects[1..]
            };
            let seed = pick(rng, pool);
            let mutate_rows = !mutate_creature_file;
            if mutate_rows && !package {
                let mut sub = Case::new(b.case.target, b.case.index);
                project_case(&mut sub, corpus, rng);
                let Some((name, _)) = sub.files.first().cloned() else {
                    b.file(seed, None);
                    return;
                };
                b.changed.push(name.clone());
                b.what.push(sub.what);
                b.case.files.extend(sub.files);
                b.case.args.push(Arg::File(name));
            } else {
                let kin: Vec<Seed> = pool.to_vec();
                let mutated = mutate_rows.then(|| mutate_json_seed(seed, &kin, &[], rng));
                b.file(seed, mutated);
            }
        }
    }
    // Columns: a folder of one or two creatures (a project brings its own).
    if mode != 1 || chance(rng, 0.3) {
        let n = 1 + below(rng, 2);
        let mut names = std::collections::BTreeSet::new();
        for k in 0..n {
            let c = pick(rng, &corpus.creatures);
            let name = format!("creatures/{}", c.seed.name);
            if !names.insert(name.clone()) {
                continue;
            }
            if mutate_creature_file && k == 0 {
                let (bytes, what) = mutate_creature(&c.seed, corpus, rng);
                b.what.push(format!("{name}: {what}"));
                b.changed.push(c.seed.name.clone());
                b.case.files.push((name, bytes));
            } else if let Some(p) = &c.seed.path {
                b.case.links.push((name, p.clone()));
                b.inputs.push(c.seed.name.clone());
            }
        }
        b.text("--creatures");
        b.case.args.push(Arg::File("creatures".into()));
    }
    if chance(rng, 0.3) {
        let seed = &corpus.validation[0];
        let mutated =
            chance(rng, 0.7).then(|| mutate_json_seed(seed, &corpus.validation, &[], rng));
        b.text("--config");
        b.file(seed, mutated);
    }
    if chance(rng, 0.15) {
        count_flag(b, rng, "--random", &["0", "1"], 0.3);
        number_flag(b, rng, "--seed", &["1", "9"], 0.5);
        if chance(rng, 0.3) {
            let (v, is_odd) = family(rng);
            b.flag(rng, "--family", v, is_odd);
        }
    }
    b.text("--threads=1");
    b.text("--thumbnails=none");
    b.text("--report");
    b.out("report", Output::ReportDir("report".into()));
}

/// What a finished subprocess left.
pub(crate) struct Finished {
    /// `None`: killed by a signal (or by us, on time out).
    pub code: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `exe args` in `dir` with stdout and stderr in files (no pipe to fill), killing it
/// after `timeout`.
pub(crate) fn run_process(
    exe: &Path,
    args: &[String],
    dir: &Path,
    timeout: Duration,
) -> std::io::Result<Finished> {
    let out_path = dir.join(".stdout");
    let err_path = dir.join(".stderr");
    let mut child = Command::new(exe)
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "0")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::from(std::fs::File::create(&out_path)?))
        .stderr(Stdio::from(std::fs::File::create(&err_path)?))
        .spawn()?;
    let started = Instant::now();
    let mut pause = Duration::from_micros(200);
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > timeout {
            timed_out = true;
            let _ = child.kill();
            break child.wait()?;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    };
    let read =
        |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    Ok(Finished {
        code: status.code(),
        timed_out,
        stdout: read(&out_path),
        stderr: read(&err_path),
    })
}

/// Runs a command case whose files are in `dir`.
pub(crate) fn run_case(case: &Case, options: &Options, dir: &Path) -> (Outcome, Vec<Violation>) {
    let args = case.command_line(dir);
    let done = match run_process(&options.exe, &args, dir, options.timeout) {
        Ok(d) => d,
        Err(e) => {
            return (
                Outcome::Bad,
                vec![Violation::new(
                    Kind::Other,
                    format!("cannot run {}: {e}", options.exe.display()),
                )],
            );
        }
    };
    judge(case, &done, dir, options.timeout)
}

/// The oracles on a finished command.
pub(crate) fn judge(
    case: &Case,
    done: &Finished,
    dir: &Path,
    timeout: Duration,
) -> (Outcome, Vec<Violation>) {
    let mut v = Vec::new();
    if done.timed_out {
        v.push(Violation::new(
            Kind::Hang,
            format!("no exit within {timeout:.0?}"),
        ));
        return (Outcome::Bad, v);
    }
    if let Some(p) = panic_in_stderr(&done.stderr, done.code) {
        v.push(Violation::new(Kind::Panic, p));
    }
    if let Some(bad) = non_finite_in_output(&done.stdout) {
        v.push(Violation::new(Kind::NonFinite, format!("stdout {bad}")));
    }
    let ok = done.code == Some(0);
    if ok {
        for output in &case.outputs {
            v.extend(check_output(output, dir));
        }
    } else if v.iter().all(|x| x.kind != Kind::Panic) {
        v.extend(check_error(&done.stderr, &case.must_name));
    }
    let outcome = if !v.is_empty() {
        Outcome::Bad
    } else if ok {
        Outcome::Ok
    } else {
        Outcome::Error
    };
    (outcome, v)
}

fn check_output(output: &Output, dir: &Path) -> Vec<Violation> {
    let mut v = Vec::new();
    let read = |name: &str| std::fs::read(dir.join(name));
    match output {
        Output::Baked(name) => match read(name) {
            Err(e) => v.push(Violation::new(
                Kind::Other,
                format!("exit 0 but {name} is not there: {e}"),
            )),
            Ok(bytes) => {
                if let Some(bad) = non_finite_in_glb(&bytes) {
                    v.push(Violation::new(Kind::NonFinite, format!("{name}: {bad}")));
                }
            }
        },
        Output::Package(name) | Output::Creature(name) => match read(name) {
            Err(e) => v.push(Violation::new(
                Kind::Other,
                format!("exit 0 but {name} is not there: {e}"),
            )),
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                match serde_json::from_str(&text) {
                    Ok(doc) => {
                        if let Some(bad) = non_finite_in_json(&doc) {
                            v.push(Violation::new(Kind::NonFinite, format!("{name}: {bad}")));
                        }
                    }
                    Err(e) => v.push(Violation::new(
                        Kind::Other,
                        format!("{name} is not JSON: {e}"),
                    )),
                }
                let loads = if matches!(output, Output::Package(_)) {
                    crate::io::package_from_str(&text, name).map(|_| ())
                } else {
                    crate::io::creature_from_str(&text, name).map(|_| ())
                };
                if let Err(e) = loads {
                    v.push(Violation::new(
                        Kind::Other,
                        format!("the written file does not load: {e}"),
                    ));
                }
            }
        },
        Output::ReportDir(name) => {
            let entries = std::fs::read_dir(dir.join(name))
                .map(|d| d.filter_map(Result::ok).collect::<Vec<_>>());
            match entries {
                Err(e) => v.push(Violation::new(
                    Kind::Other,
                    format!("exit 0 but no report folder: {e}"),
                )),
                Ok(entries) => {
                    for e in entries {
                        let path = e.path();
                        if path.extension().is_some_and(|x| x == "json") {
                            let doc = std::fs::read(&path)
                                .ok()
                                .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok());
                            if let Some(bad) = doc.as_ref().and_then(non_finite_in_json) {
                                v.push(Violation::new(
                                    Kind::NonFinite,
                                    format!(
                                        "report {}: {bad}",
                                        path.file_name().unwrap_or_default().to_string_lossy()
                                    ),
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    v
}
