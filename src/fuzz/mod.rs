//! Fuzzing as a habit (issue 48, item 5): every file format and every command path fed
//! mutated inputs from a seed corpus of the sample files, with oracles for what must never
//! happen — a panic, a non-finite number in an output, an error of more than one line or
//! one that names neither the file it is about nor the flag, a hang.
//!
//! Runs on stable: a seeded mutator (ChaCha8), no cargo-fuzz. Loaders run in-process (a
//! worker thread per job, panics caught, a time limit per case); commands run the built
//! binary as a subprocess so that what is checked is what a user sees: exit status, stdout,
//! stderr and the files written. The same seed gives the same cases, so a figure in a note
//! can be reproduced and a failing input is saved with the command that shows it.
//!
//! `anymorph fuzz --cases N --seed S` is the long run; `tests/fuzz.rs` a bounded one.

pub mod bytes_mutate;
mod commands;
pub mod corpus;
pub mod glb;
pub mod json_mutate;
mod loaders;
pub mod oracle;
mod runner;

pub use corpus::Corpus;
pub use oracle::{Kind, Violation};
pub use runner::{Finding, Options, Report, TargetRow, run, run_command, run_in_process};

/// The random helpers every mutator uses (ChaCha8: the same stream on every platform).
pub(crate) mod rand_util {
    use rand::RngExt;

    pub type Rng = rand_chacha::ChaCha8Rng;

    /// An item of a non-empty slice.
    pub fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
        &items[rng.random_range(0..items.len().max(1))]
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(rng: &mut Rng, n: usize) -> usize {
        if n == 0 { 0 } else { rng.random_range(0..n) }
    }

    pub fn chance(rng: &mut Rng, p: f64) -> bool {
        rng.random_bool(p.clamp(0.0, 1.0))
    }
}

/// What is fuzzed: a loader, in-process, or a command, as a subprocess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    LoadCreature,
    LoadClip,
    LoadProject,
    LoadPackage,
    LoadGait,
    LoadQuery,
    LoadValidation,
    LoadRigRules,
    LoadGoals,
    LoadGltf,
    Info,
    Query,
    Variants,
    Actions,
    Eval,
    Bake,
    Solve,
    Export,
    Validate,
    Check,
    Generate,
    Bench,
}

impl Target {
    pub const ALL: [Target; 22] = [
        Target::LoadCreature,
        Target::LoadClip,
        Target::LoadProject,
        Target::LoadPackage,
        Target::LoadGait,
        Target::LoadQuery,
        Target::LoadValidation,
        Target::LoadRigRules,
        Target::LoadGoals,
        Target::LoadGltf,
        Target::Info,
        Target::Query,
        Target::Variants,
        Target::Actions,
        Target::Eval,
        Target::Bake,
        Target::Solve,
        Target::Export,
        Target::Validate,
        Target::Check,
        Target::Generate,
        Target::Bench,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Target::LoadCreature => "load-creature",
            Target::LoadClip => "load-clip",
            Target::LoadProject => "load-project",
            Target::LoadPackage => "load-package",
            Target::LoadGait => "load-gait",
            Target::LoadQuery => "load-query",
            Target::LoadValidation => "load-validation",
            Target::LoadRigRules => "load-rig-rules",
            Target::LoadGoals => "load-goals",
            Target::LoadGltf => "load-gltf",
            Target::Info => "info",
            Target::Query => "query",
            Target::Variants => "variants",
            Target::Actions => "actions",
            Target::Eval => "eval",
            Target::Bake => "bake",
            Target::Solve => "solve",
            Target::Export => "export",
            Target::Validate => "validate",
            Target::Check => "check",
            Target::Generate => "generate",
            Target::Bench => "bench",
        }
    }

    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// In-process (a loader) rather than a subprocess (a command).
    pub fn in_process(self) -> bool {
        self < Target::Info
    }

    /// What the target feeds and runs.
    pub fn about(self) -> &'static str {
        match self {
            Target::LoadCreature => {
                "*.creature.json: load, summarize, save and reload, play a clip"
            }
            Target::LoadClip => "*.clip.json: load, save and reload, play on a sample creature",
            Target::LoadProject => "*.project.json and the files it lists: load, export",
            Target::LoadPackage => "*.package.json: load, save and reload",
            Target::LoadGait => "*.gait.json: load, save and reload, walk a sample creature",
            Target::LoadQuery => "a context query's JSON: parse, select on a sample creature",
            Target::LoadValidation => "*.validation.json (the grid's thresholds)",
            Target::LoadRigRules => "rig_rules.json: load, import a rig with it",
            Target::LoadGoals => "solve's goal file: load, run the IK",
            Target::LoadGltf => "*.glb: import, summarize, save as creature JSON and reload",
            Target::Info => "anymorph info CREATURE [--json]",
            Target::Query => "anymorph query CREATURE --query JSON|FILE [--json]",
            Target::Variants => "anymorph variants CREATURE CLIP [--json]",
            Target::Actions => "anymorph actions PROJECT|PACKAGE CREATURE [--json]",
            Target::Eval => "anymorph eval CREATURE CLIP|--action … (--time|--frames) [odd flags]",
            Target::Bake => "anymorph bake CREATURE CLIP --out F.glb|.gltf [--fps] [--variant]",
            Target::Solve => "anymorph solve CREATURE --goals F",
            Target::Export => "anymorph export PROJECT --out F [--report|--json] [--reduce]",
            Target::Validate => "anymorph validate (--clips|--project|--package) … --report DIR",
            Target::Check => "anymorph check ik|gait --creatures DIR [--random N]",
            Target::Generate => "anymorph generate --seed S --out F [--family]",
            Target::Bench => "anymorph bench with small and odd counts",
        }
    }

    /// The target's share of `--cases`: cheap in-process loaders get more cases than
    /// commands that start a process and play a clip.
    pub fn weight(self) -> u64 {
        match self {
            Target::LoadCreature | Target::LoadClip | Target::LoadGltf | Target::LoadGoals => 6,
            Target::LoadProject | Target::LoadPackage => 3,
            Target::LoadGait | Target::LoadQuery | Target::LoadValidation => 3,
            Target::LoadRigRules => 2,
            Target::Info | Target::Query | Target::Variants | Target::Eval | Target::Solve => 2,
            Target::Actions | Target::Bake | Target::Export => 2,
            Target::Validate | Target::Check | Target::Generate | Target::Bench => 1,
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
