//! The bone-name rule table (`assets/rig_rules.json`, see docs/FORMAT.md): which words in a
//! bone's name give which caps, and which bones (fingers, toes, face, feathers, twist helpers)
//! must never end a leg or a grasper.
//!
//! Real rigs name bones freely (`hand.L`, `DEF-thigh.L`, `mixamorig:LeftHandIndex1`,
//! `spine.003`), so names are cut into lowercase words first — at separators, camelCase humps
//! and digits — and rules match words, not raw strings.

use crate::LoadError;
use crate::json::{self, FormatTag};
use anymorph_runtime::creature::Cap;
use serde::Deserialize;
use serde_json::Value;
use std::path::Path;

/// The rule table's file envelope.
pub const RIG_RULES_FORMAT: FormatTag = FormatTag {
    format: "anymorph-rig-rules",
    version: 1,
};

/// The file a user puts beside a rig to extend the built-in rules for every rig in that folder.
pub const SIDECAR_RULES_FILE: &str = "rig_rules.json";

const BUILTIN: &str = include_str!("../../../../assets/rig_rules.json");

/// One rule: a name with any of `words` (and, when `under` is given, a word of `under` in
/// the name itself or an ancestor's) gets `caps`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameRule {
    /// Word patterns: `hand` matches the word `hand` (or `hands`); `finger*` any word
    /// starting with `finger`.
    pub words: Vec<String>,
    #[serde(default)]
    pub under: Vec<String>,
    #[serde(default)]
    pub caps: Vec<Cap>,
}

/// The whole table. `ignore` rules are tried first: a bone they match gets their caps but is
/// never the end of a leg or grasper chain. Then `caps` rules, first match wins.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RigRules {
    /// Rig-tool prefixes removed before cutting a name into words (`DEF-`, `Bip01`); a
    /// namespace ending in `:` or `|` (`mixamorig:`) is always removed.
    #[serde(default)]
    pub strip_prefixes: Vec<String>,
    /// Words that mark a bone on the creature's left (`l`, `left`).
    #[serde(default)]
    pub left: Vec<String>,
    #[serde(default)]
    pub right: Vec<String>,
    #[serde(default)]
    pub ignore: Vec<NameRule>,
    #[serde(default)]
    pub caps: Vec<NameRule>,
}

/// Which side a name says a bone is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedSide {
    Left,
    Right,
}

/// A bone name cut into lowercase words, side words removed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NameWords {
    pub words: Vec<String>,
    pub side: Option<NamedSide>,
}

/// What the rules say about one bone.
#[derive(Clone, Debug, PartialEq)]
pub struct NameMatch {
    /// Matched an `ignore` rule: never the end of a leg or grasper chain.
    pub ignored: bool,
    pub caps: Vec<Cap>,
    /// The word that matched, for reports.
    pub word: String,
}

impl RigRules {
    /// The table shipped in `assets/rig_rules.json`.
    pub fn builtin() -> RigRules {
        // The file is compiled in and checked by a unit test, so it always parses; an empty
        // table (geometry only) is the safe fallback should that ever break.
        Self::from_str(BUILTIN, "assets/rig_rules.json").unwrap_or_else(|e| {
            log::error!("the built-in rig rules do not parse: {e}");
            RigRules::empty()
        })
    }

    /// A table with no rules: caps come from extras and geometry alone.
    pub fn empty() -> RigRules {
        RigRules {
            strip_prefixes: Vec::new(),
            left: Vec::new(),
            right: Vec::new(),
            ignore: Vec::new(),
            caps: Vec::new(),
        }
    }

    /// Parses a rule table; `path` only labels errors.
    pub fn from_str(text: &str, path: &str) -> Result<RigRules, LoadError> {
        let doc = json::parse_document(text, path, RIG_RULES_FORMAT)?;
        let mut doc = doc;
        doc.remove("format");
        doc.remove("version");
        json::from_value(Value::Object(doc), path)
    }

    pub fn load(path: &Path) -> Result<RigRules, LoadError> {
        let (label, text) = json::read_text(path)?;
        Self::from_str(&text, &label)
    }

    /// The built-in rules extended by a `rig_rules.json` in the rig's folder, if there is one.
    pub fn for_rig(rig_path: &Path) -> Result<RigRules, LoadError> {
        let sidecar = rig_path
            .parent()
            .unwrap_or(Path::new("."))
            .join(SIDECAR_RULES_FILE);
        let builtin = Self::builtin();
        if sidecar.is_file() {
            Ok(Self::load(&sidecar)?.then(builtin))
        } else {
            Ok(builtin)
        }
    }

    /// These rules first, then `fallback`'s: how a user's table extends the built-in one.
    pub fn then(mut self, fallback: RigRules) -> RigRules {
        self.strip_prefixes.extend(fallback.strip_prefixes);
        self.left.extend(fallback.left);
        self.right.extend(fallback.right);
        self.ignore.extend(fallback.ignore);
        self.caps.extend(fallback.caps);
        self
    }

    /// Cuts a bone name into lowercase words and finds its side.
    pub fn words(&self, name: &str) -> NameWords {
        let mut rest = name.rsplit([':', '|']).next().unwrap_or(name).trim();
        // Prefixes may be stacked (`DEF-ORG-…`); strip until none applies.
        loop {
            let before = rest;
            for p in &self.strip_prefixes {
                if rest.len() >= p.len()
                    && rest.is_char_boundary(p.len())
                    && rest[..p.len()].eq_ignore_ascii_case(p)
                {
                    rest = rest[p.len()..].trim_start();
                }
            }
            if rest == before {
                break;
            }
        }
        let mut out = NameWords::default();
        for w in split_words(rest) {
            if self.left.iter().any(|s| s.eq_ignore_ascii_case(&w)) {
                out.side = Some(NamedSide::Left);
            } else if self.right.iter().any(|s| s.eq_ignore_ascii_case(&w)) {
                out.side = Some(NamedSide::Right);
            } else if !w.chars().all(|c| c.is_ascii_digit()) {
                out.words.push(w);
            }
        }
        out
    }

    /// The first rule matching `name`; `ancestors` are the words of the bone's ancestors,
    /// nearest first, for rules with `under`.
    pub fn classify(&self, name: &NameWords, ancestors: &[&NameWords]) -> Option<NameMatch> {
        let find = |rules: &[NameRule], ignored: bool| {
            rules.iter().find_map(|r| {
                let word = r
                    .words
                    .iter()
                    .find(|p| name.words.iter().any(|w| word_matches(p, w)))?;
                let under_ok = r.under.is_empty()
                    || std::iter::once(name)
                        .chain(ancestors.iter().copied())
                        .any(|n| {
                            r.under
                                .iter()
                                .any(|p| n.words.iter().any(|w| word_matches(p, w)))
                        });
                under_ok.then(|| NameMatch {
                    ignored,
                    caps: r.caps.clone(),
                    word: word.trim_end_matches('*').to_string(),
                })
            })
        };
        find(&self.ignore, true).or_else(|| find(&self.caps, false))
    }
}

/// `pattern` against one lowercase word: a trailing `*` matches any ending, otherwise the word
/// itself or its plural.
fn word_matches(pattern: &str, word: &str) -> bool {
    let pattern = pattern.to_ascii_lowercase();
    match pattern.strip_suffix('*') {
        Some(stem) => word.starts_with(stem),
        None => word == pattern || word.strip_suffix('s') == Some(pattern.as_str()),
    }
}

/// Splits at anything that is not a letter or digit, at lower→upper humps (`LeftHand`) and
/// between letters and digits (`spine003`, `leg1`).
fn split_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut prev: Option<char> = None;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let hump = p.is_lowercase() && c.is_uppercase();
            let digit_edge = p.is_ascii_digit() != c.is_ascii_digit();
            if (hump || digit_edge) && !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
        }
        current.extend(c.to_lowercase());
        prev = Some(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(rules: &RigRules, name: &str, parent: &str) -> Option<(bool, Vec<String>)> {
        let p = rules.words(parent);
        rules
            .classify(&rules.words(name), &[&p])
            .map(|m| (m.ignored, m.caps.iter().map(|c| c.to_string()).collect()))
    }

    #[test]
    fn the_builtin_table_parses() {
        let r = RigRules::from_str(BUILTIN, "rig_rules.json").unwrap();
        assert!(r.caps.len() > 5 && r.ignore.len() > 3);
    }

    #[test]
    fn names_are_cut_into_words_with_sides() {
        let r = RigRules::builtin();
        let w = r.words("mixamorig:LeftHandIndex1");
        assert_eq!(w.words, ["hand", "index"]);
        assert_eq!(w.side, Some(NamedSide::Left));
        assert_eq!(r.words("DEF-thigh.L").words, ["thigh"]);
        assert_eq!(r.words("spine.003").words, ["spine"]);
        assert_eq!(r.words("f_hoof.R").side, Some(NamedSide::Right));
        assert_eq!(r.words("Bip01 L Thigh").words, ["thigh"]);
        assert_eq!(r.words("upper_arm.L").words, ["upper", "arm"]);
        assert_eq!(r.words("").words, Vec::<String>::new());
    }

    #[test]
    fn common_rig_names_get_the_right_caps() {
        let r = RigRules::builtin();
        let caps = |n: &str, p: &str| classify(&r, n, p);
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(caps("hand.L", "forearm.L"), Some((false, s(&["grasper"]))));
        assert_eq!(
            caps("mixamorig:LeftHand", "x"),
            Some((false, s(&["grasper"])))
        );
        assert_eq!(
            caps("mixamorig:LeftHandIndex1", "mixamorig:LeftHand"),
            Some((true, s(&["finger"])))
        );
        assert_eq!(
            caps("f_index.01.L", "palm.01.L"),
            Some((true, s(&["finger"])))
        );
        // "middle" is a finger only under a hand: a spider's leg_middle is a limb.
        assert_eq!(
            caps("leg_1_middle_l", "leg_1_upper_l"),
            Some((false, s(&["limb"])))
        );
        assert_eq!(caps("toe.R", "foot.R"), Some((true, s(&["toe"]))));
        assert_eq!(
            caps("mixamorig:LeftToeBase", "x"),
            Some((true, s(&["toe"])))
        );
        assert_eq!(caps("f_hoof.L", "forearm.L"), Some((false, s(&["foot"]))));
        assert_eq!(caps("forefoot.L", "x"), Some((false, s(&["foot"]))));
        assert_eq!(caps("spine.003", "spine.002"), Some((false, s(&["spine"]))));
        assert_eq!(caps("DEF-thigh.L", "x"), Some((false, s(&["limb"]))));
        assert_eq!(caps("head", "neck"), Some((false, s(&["spine", "head"]))));
        assert_eq!(
            caps("feather_primary.L.003", "wing.L"),
            Some((true, s(&["feather"])))
        );
        assert_eq!(caps("lid.T.L", "head"), Some((true, s(&["face"]))));
        assert_eq!(
            caps("upperarm_twist_01_l", "upperarm_l"),
            Some((true, vec![]))
        );
        assert_eq!(caps("Bone.004", "Bone.003"), None);
    }

    #[test]
    fn a_user_table_extends_the_builtin_one() {
        let user = RigRules::from_str(
            r#"{"format": "anymorph-rig-rules", "version": 1,
                "caps": [{"words": ["stalk*"], "caps": ["eye"]}]}"#,
            "mine.json",
        )
        .unwrap()
        .then(RigRules::builtin());
        assert_eq!(
            classify(&user, "stalk.L", "head"),
            Some((false, vec!["eye".to_string()]))
        );
        let e = RigRules::from_str(
            r#"{"format": "anymorph-rig-rules", "version": 1, "caps": [{"word": ["x"]}]}"#,
            "mine.json",
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("mine.json: caps[0]"), "{e}");
    }
}
