//! The creatures of a grid, one at a time: a folder tree of creature files, a JSON-lines
//! file of creatures, a project's own creatures, then zoo creatures. Nothing holds more than
//! the creature at hand (and a folder's sorted listing), so a store of 10⁵ creatures takes
//! no more memory than 10³.

use crate::io::{LoadError, creature_from_str, load_creature};
use crate::runtime::creature::Creature;
use crate::validation::report::Unreadable;
use anyhow::{Context, Result, bail};
use std::io::{BufRead, BufReader, Read as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Creature files `validate` reads: the project's own and rigs as DCC tools export them.
pub(super) const CREATURE_SUFFIXES: [&str; 3] = [".creature.json", ".glb", ".gltf"];

/// Files of one creature per line.
const LINES_SUFFIXES: [&str; 2] = [".jsonl", ".ndjson"];

fn has_suffix(path: &Path, suffixes: &[&str]) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    suffixes.iter().any(|s| name.ends_with(s))
}

/// A folder tree, depth first, each folder's entries in name order: the same order on every
/// machine that sees the same files, which every shard relies on. Symbolic links to folders
/// are not followed (no cycles).
struct Walk {
    pending: Vec<std::vec::IntoIter<PathBuf>>,
}

impl Walk {
    fn new(dir: &Path) -> Result<Walk> {
        Ok(Walk {
            pending: vec![Walk::listing(dir)?.into_iter()],
        })
    }

    fn listing(dir: &Path) -> Result<Vec<PathBuf>> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .with_context(|| format!("{}: cannot read the folder", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        v.sort();
        Ok(v)
    }

    /// The next creature file, or a folder that could not be listed.
    fn next_file(&mut self) -> Option<Result<PathBuf, Unreadable>> {
        while let Some(top) = self.pending.last_mut() {
            let Some(path) = top.next() else {
                self.pending.pop();
                continue;
            };
            let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
            if is_dir {
                match Walk::listing(&path) {
                    Ok(v) => self.pending.push(v.into_iter()),
                    Err(e) => {
                        return Some(Err(Unreadable {
                            file: path.display().to_string(),
                            error: format!("{e:#}"),
                        }));
                    }
                }
            } else if has_suffix(&path, &CREATURE_SUFFIXES) {
                return Some(Ok(path));
            }
        }
        None
    }
}

/// A JSON-lines file: one creature document per line.
struct Lines {
    label: String,
    input: BufReader<std::fs::File>,
    line: usize,
    buffer: Vec<u8>,
}

impl Lines {
    /// The next creature, a line that is not one, or the end.
    fn next_line(&mut self) -> Option<Result<Creature, Unreadable>> {
        loop {
            self.buffer.clear();
            let limit = crate::io::json::MAX_JSON_BYTES;
            match (&mut self.input)
                .take(limit)
                .read_until(b'\n', &mut self.buffer)
            {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => {
                    return Some(Err(Unreadable {
                        file: self.label.clone(),
                        error: format!("{}: cannot read the file: {e}", self.label),
                    }));
                }
            }
            self.line += 1;
            let at = format!("{}:{}", self.label, self.line);
            if self.buffer.len() as u64 >= limit && self.buffer.last() != Some(&b'\n') {
                // Skip the rest of the line without holding it.
                let mut rest = Vec::new();
                loop {
                    rest.clear();
                    match (&mut self.input).take(1 << 20).read_until(b'\n', &mut rest) {
                        Ok(n) if n > 0 && rest.last() != Some(&b'\n') => continue,
                        _ => break,
                    }
                }
                return Some(Err(Unreadable {
                    file: at.clone(),
                    error: format!("{at}: the line is longer than the limit of {limit} bytes"),
                }));
            }
            let Ok(text) = std::str::from_utf8(&self.buffer) else {
                return Some(Err(Unreadable {
                    file: at.clone(),
                    error: format!("{at}: not UTF-8 text"),
                }));
            };
            if text.trim().is_empty() {
                continue;
            }
            return Some(creature_from_str(text, &at).map_err(|e| unreadable_entry(&e)));
        }
    }
}

/// A file the grid could not read, for the report: the file the error is about (a project's
/// listed file, not the project) and the error on one line, whatever it quotes.
pub(super) fn unreadable_entry(e: &LoadError) -> Unreadable {
    let file = match e {
        LoadError::Listed { inner, .. } => inner.path(),
        e => e.path(),
    };
    Unreadable {
        file: file.to_string(),
        error: e.to_string().replace(['\n', '\r'], " "),
    }
}

/// Where the stream is.
enum Source {
    Folder(Walk),
    Lines(Lines),
    Given(std::vec::IntoIter<Arc<Creature>>),
}

/// The grid's creatures in order: `--creatures` (or the project's), then `--random` ones.
pub(super) struct CreatureStream {
    source: Source,
    random: std::ops::Range<u64>,
    seed: u64,
    family: Option<crate::zoo::Family>,
}

impl CreatureStream {
    /// `creatures`: a folder tree, a `.jsonl` file or one creature file; without it, the
    /// project's creatures.
    pub(super) fn new(
        creatures: Option<&Path>,
        given: Vec<Arc<Creature>>,
        random: usize,
        seed: u64,
        family: Option<crate::zoo::Family>,
    ) -> Result<CreatureStream> {
        let source = match creatures {
            None => Source::Given(given.into_iter()),
            Some(p) if p.is_dir() => Source::Folder(Walk::new(p)?),
            Some(p) if has_suffix(p, &LINES_SUFFIXES) => Source::Lines(Lines {
                label: p.display().to_string(),
                input: BufReader::new(
                    std::fs::File::open(p)
                        .with_context(|| format!("{}: cannot read the file", p.display()))?,
                ),
                line: 0,
                buffer: Vec::new(),
            }),
            Some(p) if p.is_file() && has_suffix(p, &CREATURE_SUFFIXES) => {
                let one = load_creature(p)?;
                Source::Given(vec![Arc::new(one)].into_iter())
            }
            Some(p) => bail!(
                "--creatures: {}: neither a folder, a JSON-lines file (.jsonl, .ndjson) nor a creature file",
                p.display()
            ),
        };
        Ok(CreatureStream {
            source,
            random: 0..random as u64,
            seed,
            family,
        })
    }

    /// The next creature or a file that could not be read; `Ok(None)` at the end. A zoo
    /// seed that makes no valid creature ends the run (a bug of the zoo, not of the input).
    pub(super) fn next_creature(&mut self) -> Result<Option<Result<Arc<Creature>, Unreadable>>> {
        let next = match &mut self.source {
            Source::Folder(walk) => walk.next_file().map(|f| {
                f.and_then(|p| {
                    load_creature(&p)
                        .map(Arc::new)
                        .map_err(|e| unreadable_entry(&e))
                })
            }),
            Source::Lines(lines) => lines.next_line().map(|r| r.map(Arc::new)),
            Source::Given(v) => v.next().map(Ok),
        };
        if next.is_some() {
            return Ok(next);
        }
        let Some(i) = self.random.next() else {
            return Ok(None);
        };
        let seed = self.seed.wrapping_add(i);
        let creature = match self.family {
            Some(f) => crate::zoo::generate_family(seed, f),
            None => crate::zoo::generate(seed),
        }
        .with_context(|| format!("zoo seed {seed}"))?;
        Ok(Some(Ok(Arc::new(creature))))
    }
}
