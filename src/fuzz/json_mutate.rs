//! Structure-aware mutation of JSON documents: parse, change a few nodes (odd numbers,
//! deleted fields, other types, arrays grown a thousandfold, deep nesting, odd strings,
//! strings and subtrees borrowed from elsewhere), write back — sometimes truncated.

use super::rand_util::{Rng, below, chance, pick};
use serde_json::{Map, Value};

/// Numbers as the text a file would hold: the working range's edges, past f32, past f64,
/// subnormals, negative zero, integers past u32/u64, and tokens JSON does not allow.
pub const ODD_NUMBERS: &[&str] = &[
    "0",
    "-0",
    "-0.0",
    "1",
    "-1",
    "2",
    "0.5",
    "-0.5",
    "3",
    "7",
    "100",
    "1000",
    "1e6",
    "-1e6",
    "1000000.1",
    "1000001",
    "-1000001",
    "1e7",
    "1e20",
    "-1e20",
    "1e30",
    "3e38",
    "3.4e38",
    "-3.4e38",
    "3.5e38",
    "1e39",
    "-1e39",
    "1e300",
    "1e308",
    "-1e308",
    "1e-6",
    "1e-7",
    "9.99e-7",
    "1e-30",
    "1.1754942e-38",
    "1e-40",
    "1e-45",
    "1.4e-45",
    "-1e-45",
    "5e-324",
    "1e-320",
    "1.0000001",
    "0.9999999",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "1e400",
    "-1e400",
    "1e-400",
    "NaN",
    "Infinity",
    "-Infinity",
    "nan",
    "inf",
    "1.",
    ".5",
    "+1",
    "0x10",
    "01",
    "1e",
    "-",
];

/// Odd numbers inside the working range of ±1e6: they pass the loaders' range checks and
/// reach the runtime.
pub const ODD_IN_RANGE: &[f64] = &[
    0.0, -0.0, 1e-45, -1e-45, 1e-38, 1e-30, 1e-12, 1e-7, 1e-6, 0.5, -0.5, 1.0, -1.0, 2.0, 3.0,
    -3.0, 1.0000001, 0.9999999, 10.0, 100.0, 1e3, -1e3, 12345.678, 1e5, -1e5, 999_999.9, 1e6, -1e6,
];

/// Strings a file might hold by accident or malice.
pub const ODD_STRINGS: &[&str] = &[
    "",
    " ",
    "\n",
    "a\nb",
    "line one\r\nline two",
    "\t",
    "\u{0}",
    "nul\u{0}inside",
    "\u{202e}reversed",
    "\u{feff}bom",
    "ünïcödé",
    "日本語",
    "🦀🦀",
    "\u{fffd}",
    "e\u{301}",
    "\\",
    "\"",
    "{",
    "../../../etc/passwd",
    "/",
    ".",
    "..",
    "C:\\x",
    "%s%n%x",
    "{0}",
    "null",
    "true",
    "0",
    "root",
    "spine",
    "limb",
    "foot",
    "grasper",
    "mouth",
    "eye",
    "wing",
    "tail",
    "weapon",
    "left",
    "right",
    "front",
    "back",
    "top",
    "bottom",
    "center",
    "any",
    "none",
    "setspace",
    "creature",
    "rest_relative",
    "absolute",
    "box",
    "capsule",
    "sphere",
];

/// A document being mutated. Tokens serde_json cannot hold (`NaN`, `1e400`, deep nesting
/// written as text) wait in `raws` behind placeholder strings until [`Doc::to_bytes`].
pub struct Doc {
    pub root: Value,
    raws: Vec<String>,
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

impl Doc {
    pub fn parse(bytes: &[u8]) -> Option<Doc> {
        let root = serde_json::from_slice(bytes).ok()?;
        Some(Doc {
            root,
            raws: Vec::new(),
        })
    }

    pub fn new(root: Value) -> Doc {
        Doc {
            root,
            raws: Vec::new(),
        }
    }

    /// A value that is written as `token` verbatim.
    pub fn raw(&mut self, token: impl Into<String>) -> Value {
        self.raws.push(token.into());
        Value::String(format!("\u{1}RAW{}\u{1}", self.raws.len() - 1))
    }

    pub fn to_bytes(&self, pretty: bool) -> Vec<u8> {
        let mut text = if pretty {
            serde_json::to_string_pretty(&self.root)
        } else {
            serde_json::to_string(&self.root)
        }
        .unwrap_or_default();
        // Last first, so that RAW1 is not replaced inside RAW10.
        for (i, token) in self.raws.iter().enumerate().rev() {
            text = text.replace(&format!("\"\\u0001RAW{i}\\u0001\""), token);
        }
        text.into_bytes()
    }
}

fn paths(root: &Value) -> Vec<Vec<Step>> {
    fn walk(v: &Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        out.push(here.clone());
        match v {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    here.push(Step::Index(i));
                    walk(item, here, out);
                    here.pop();
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    here.push(Step::Key(k.clone()));
                    walk(item, here, out);
                    here.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(root, &mut Vec::new(), &mut out);
    out
}

fn get_mut<'a>(root: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let mut v = root;
    for step in path {
        v = match step {
            Step::Key(k) => v.as_object_mut()?.get_mut(k)?,
            Step::Index(i) => v.as_array_mut()?.get_mut(*i)?,
        };
    }
    Some(v)
}

fn get<'a>(root: &'a Value, path: &[Step]) -> Option<&'a Value> {
    let mut v = root;
    for step in path {
        v = match step {
            Step::Key(k) => v.as_object()?.get(k)?,
            Step::Index(i) => v.as_array()?.get(*i)?,
        };
    }
    Some(v)
}

fn show(path: &[Step]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            Step::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            Step::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    if s.is_empty() { "(document)".into() } else { s }
}

/// An odd number, as a raw token or a near variation of `around`.
pub fn odd_number(doc: &mut Doc, rng: &mut Rng, around: Option<f64>) -> (Value, String) {
    if let Some(x) = around.filter(|_| chance(rng, 0.3)) {
        let factor = *pick(
            rng,
            &[0.0, -1.0, 2.0, 0.5, 1e3, -1e3, 1e6, 1e-6, 1e10, 1e-30, 1e37],
        );
        let y = x * factor;
        if let Some(n) = serde_json::Number::from_f64(y) {
            return (Value::Number(n), format!("{y}"));
        }
    }
    if chance(rng, 0.45) {
        let x = *pick(rng, ODD_IN_RANGE);
        // serde_json writes -0.0 as "-0.0"; the Number keeps the sign.
        if let Some(n) = serde_json::Number::from_f64(x) {
            return (Value::Number(n), format!("{x:e}"));
        }
    }
    let token = *pick(rng, ODD_NUMBERS);
    (doc.raw(token), token.to_string())
}

/// An odd string, or one from elsewhere in the document (a name of another body: parent
/// cycles, duplicate names).
fn odd_string(rng: &mut Rng, root: &Value) -> String {
    match below(rng, 10) {
        0..=4 => pick(rng, ODD_STRINGS).to_string(),
        5 => "x".repeat(*pick(rng, &[256, 4096, 100_000])),
        6 => format!(
            "{}{}",
            pick(rng, &["", "a", "hand_l"]),
            pick(rng, ODD_STRINGS)
        ),
        _ => {
            let mut strings = Vec::new();
            collect_strings(root, &mut strings);
            if strings.is_empty() {
                pick(rng, ODD_STRINGS).to_string()
            } else {
                pick(rng, &strings).clone()
            }
        }
    }
}

fn collect_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if !s.starts_with('\u{1}') => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| collect_strings(i, out)),
        Value::Object(map) => map.values().for_each(|i| collect_strings(i, out)),
        _ => {}
    }
}

/// Applies one to a few structure-aware mutations to `doc`; what it did, one item each.
/// `donors` are other documents of the same kind to borrow subtrees from.
pub fn mutate_doc(doc: &mut Doc, rng: &mut Rng, donors: &[&Value]) -> Vec<String> {
    let mut done = Vec::new();
    let rounds = 1 + usize::from(chance(rng, 0.4)) + usize::from(chance(rng, 0.2));
    // An operation that does not fit the node it drew (growing a number) does nothing:
    // draw again, a few times, so a case is rarely the seed itself.
    let mut attempts = 0;
    while done.len() < rounds && attempts < rounds * 8 {
        attempts += 1;
        if let Some(what) = mutate_once(doc, rng, donors) {
            done.push(what);
        }
    }
    done
}

fn mutate_once(doc: &mut Doc, rng: &mut Rng, donors: &[&Value]) -> Option<String> {
    let all = paths(&doc.root);
    let numbers: Vec<&Vec<Step>> = all
        .iter()
        .filter(|p| get(&doc.root, p).is_some_and(Value::is_number))
        .collect();
    let op = below(rng, 100);
    // Numbers are where most of the trouble is: favour them.
    if op < 35 && !numbers.is_empty() {
        let path = (*pick(rng, &numbers)).clone();
        let around = get(&doc.root, &path).and_then(Value::as_f64);
        let (value, text) = odd_number(doc, rng, around);
        // Sometimes every number of the array the number sits in.
        let whole = chance(rng, 0.25) && path.len() > 1;
        if whole {
            let parent = &path[..path.len() - 1];
            if let Some(Value::Array(items)) = get_mut(&mut doc.root, parent) {
                for item in items.iter_mut().filter(|i| i.is_number()) {
                    *item = value.clone();
                }
                return Some(format!("{}[*] = {text}", show(parent)));
            }
        }
        *get_mut(&mut doc.root, &path)? = value;
        return Some(format!("{} = {text}", show(&path)));
    }
    let path = pick(rng, &all).clone();
    let root_snapshot = if matches!(op, 60..=69) {
        Some(doc.root.clone())
    } else {
        None
    };
    let deep_text = if (80..=84).contains(&op) {
        let inner = serde_json::to_string(get(&doc.root, &path)?).ok()?;
        let depth = *pick(rng, &[16, 100, 127, 128, 129, 300, 3000, 100_000]);
        let (open, close) = if chance(rng, 0.5) {
            ("[", "]")
        } else {
            ("{\"a\":", "}")
        };
        Some((
            format!("{}{inner}{}", open.repeat(depth), close.repeat(depth)),
            depth,
        ))
    } else {
        None
    };
    let raw_deep = deep_text.map(|(t, d)| (doc.raw(t), d));
    let target = get_mut(&mut doc.root, &path)?;
    let at = show(&path);
    match op {
        35..=44 => {
            // Delete a field (or an array element).
            let (parent, last) = path.split_last().map(|(l, p)| (p, l))?;
            match (get_mut(&mut doc.root, parent)?, last) {
                (Value::Object(map), Step::Key(k)) => {
                    map.shift_remove(k);
                }
                (Value::Array(items), Step::Index(i)) => {
                    items.remove(*i);
                }
                _ => return None,
            }
            Some(format!("delete {at}"))
        }
        45..=54 => {
            // Another type.
            let old = target.take();
            let new = match below(rng, 9) {
                0 => Value::Null,
                1 => Value::Bool(chance(rng, 0.5)),
                2 => Value::from(0),
                3 => Value::String(String::new()),
                4 => Value::String(old.to_string()),
                5 => Value::Array(Vec::new()),
                6 => Value::Object(Map::new()),
                7 => Value::Array(vec![old]),
                _ => {
                    let mut m = Map::new();
                    m.insert("value".into(), old);
                    Value::Object(m)
                }
            };
            *target = new;
            Some(format!("{at}: another type"))
        }
        55..=59 => {
            // Grow an array: one element many times.
            let Value::Array(items) = target else {
                return None;
            };
            if items.is_empty() {
                return None;
            }
            let i = below(rng, items.len());
            let times = *pick(rng, &[1, 2, 10, 100, 1000, 3000]);
            let copy = items[i].clone();
            for _ in 0..times {
                items.insert(i, copy.clone());
            }
            Some(format!("{at}[{i}] repeated {times} more times"))
        }
        60..=69 => {
            // A string: odd, or borrowed from elsewhere in the document.
            let s = odd_string(rng, root_snapshot.as_ref()?);
            let shown = super::oracle::clip_text(&format!("{s:?}"), 40);
            *target = Value::String(s);
            Some(format!("{at} = {shown}"))
        }
        70..=74 => {
            // Emptied.
            *target = match target {
                Value::Array(_) => Value::Array(Vec::new()),
                Value::Object(_) => Value::Object(Map::new()),
                Value::String(_) => Value::String(String::new()),
                _ => return None,
            };
            Some(format!("{at} emptied"))
        }
        75..=79 => {
            // Reordered, cut short or swapped elements.
            let Value::Array(items) = target else {
                return None;
            };
            if items.len() < 2 {
                return None;
            }
            match below(rng, 3) {
                0 => {
                    items.reverse();
                    Some(format!("{at} reversed"))
                }
                1 => {
                    let keep = below(rng, items.len());
                    items.truncate(keep);
                    Some(format!("{at} cut to {keep}"))
                }
                _ => {
                    let (a, b) = (below(rng, items.len()), below(rng, items.len()));
                    items.swap(a, b);
                    Some(format!("{at}: [{a}] and [{b}] swapped"))
                }
            }
        }
        80..=84 => {
            let (value, depth) = raw_deep?;
            *target = value;
            Some(format!("{at} nested {depth} deep"))
        }
        85..=89 => {
            // A field added: unknown, or a copy of a sibling under another name.
            let Value::Object(map) = target else {
                return None;
            };
            let key = pick(
                rng,
                &["extra", "name", "format", "version", "__proto__", "", "\n"],
            )
            .to_string();
            let value = map.values().next().cloned().unwrap_or(Value::Null);
            map.insert(key.clone(), value);
            Some(format!("{at}.{key:?} added"))
        }
        _ => {
            // A subtree from elsewhere: this document or another of its kind.
            if donors.is_empty() || !chance(rng, 0.5) {
                return graft_within(doc, rng, &all, &path);
            }
            let source: &&Value = pick(rng, donors);
            let from = paths(source);
            let p = pick(rng, &from);
            let sub = get(source, p)?.clone();
            *get_mut(&mut doc.root, &path)? = sub;
            Some(format!("{at} = another file's {}", show(p)))
        }
    }
}

fn graft_within(doc: &mut Doc, rng: &mut Rng, all: &[Vec<Step>], to: &[Step]) -> Option<String> {
    let from = pick(rng, all).clone();
    let sub = get(&doc.root, &from)?.clone();
    *get_mut(&mut doc.root, to)? = sub;
    Some(format!("{} = {}", show(to), show(&from)))
}

/// Changes one to four numbers to odd values inside the working range, and nothing else: a
/// file the loaders accept, so that the runtime gets the odd numbers.
pub fn mutate_numbers_in_range(bytes: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let Some(mut doc) = Doc::parse(bytes) else {
        return (bytes.to_vec(), "unchanged (not JSON)".into());
    };
    let numbers: Vec<Vec<Step>> = paths(&doc.root)
        .into_iter()
        .filter(|p| get(&doc.root, p).is_some_and(Value::is_number))
        .collect();
    let mut done = Vec::new();
    for _ in 0..1 + below(rng, 4) {
        if numbers.is_empty() {
            break;
        }
        let path = pick(rng, &numbers);
        let old = get(&doc.root, path).and_then(Value::as_f64).unwrap_or(0.0);
        let x = if chance(rng, 0.5) {
            *pick(rng, ODD_IN_RANGE)
        } else {
            let y = old * *pick(rng, &[0.0, -1.0, 1e-6, 1e-3, 0.5, 1.5, 10.0, 1e3, 1e5]);
            y.clamp(-1e6, 1e6)
        };
        let keep_integer = get(&doc.root, path).is_some_and(|v| v.is_u64() || v.is_i64());
        let value = if keep_integer {
            Value::from(x.abs().round().min(1e6) as u64)
        } else {
            serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
        };
        if let Some(slot) = get_mut(&mut doc.root, path) {
            done.push(format!("{} = {value}", show(path)));
            *slot = value;
        }
    }
    (doc.to_bytes(true), done.join("; "))
}

/// Mutates JSON text: structure-aware when it parses, byte-level otherwise; sometimes cut
/// short. Returns the new text and what was done.
pub fn mutate_json(bytes: &[u8], rng: &mut Rng, donors: &[&Value]) -> (Vec<u8>, String) {
    let Some(mut doc) = Doc::parse(bytes) else {
        return super::bytes_mutate::mutate_bytes(bytes, rng, &[]);
    };
    let done = mutate_doc(&mut doc, rng, donors);
    let mut out = doc.to_bytes(chance(rng, 0.5));
    let mut what = done.join("; ");
    if chance(rng, 0.05) && !out.is_empty() {
        let cut = below(rng, out.len());
        out.truncate(cut);
        what.push_str(&format!("; cut at byte {cut}"));
    }
    (out, what)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn raw_tokens_are_written_verbatim() {
        let mut doc = Doc::parse(br#"{"a": [1, 2]}"#).unwrap_or_else(|| Doc::new(Value::Null));
        let nan = doc.raw("NaN");
        let deep = doc.raw("[[1]]");
        doc.root["a"][0] = nan;
        doc.root["b"] = deep;
        let text = String::from_utf8(doc.to_bytes(false)).unwrap_or_default();
        assert_eq!(text, r#"{"a":[NaN,2],"b":[[1]]}"#);
    }

    #[test]
    fn mutations_change_the_document_and_say_how() {
        let seed = br#"{"format": "x", "bodies": [{"name": "a", "joint": [0, 1.5, 0]}]}"#;
        let mut changed = 0;
        for i in 0..200 {
            let mut rng = Rng::seed_from_u64(i);
            let (out, what) = mutate_json(seed, &mut rng, &[]);
            assert!(!what.is_empty());
            let before: Value = serde_json::from_slice(seed).unwrap_or_default();
            let after: Option<Value> = serde_json::from_slice(&out).ok();
            if after != Some(before) {
                changed += 1;
            }
        }
        // A few draws put a value back as it was (a string from elsewhere that is equal).
        assert!(changed > 180, "{changed}");
    }
}
