//! What a fuzz case must never do, checked on its outputs: panic, print or write a
//! non-finite number (NaN, infinity, or the `null` serde_json writes for one), fail with an
//! error that is not one line or that names neither the file it came from nor the flag, or
//! hang.

use serde_json::Value;
use std::fmt;

/// The kinds of violation, in the columns of the fuzz report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A panic (in-process: caught by the harness or printed by a panic hook; subprocess:
    /// "panicked" on stderr, exit status 101, or death by a signal).
    Panic,
    /// NaN, infinity or a `null` number in an output.
    NonFinite,
    /// An error that names neither the input file it is about nor the flag.
    NoFile,
    /// An error of more than one line.
    MultiLine,
    /// No answer within the case's time limit.
    Hang,
    /// Anything else that is wrong: a written file that does not load back.
    Other,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Panic,
        Kind::NonFinite,
        Kind::NoFile,
        Kind::MultiLine,
        Kind::Hang,
        Kind::Other,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Panic => "panic",
            Kind::NonFinite => "non-finite",
            Kind::NoFile => "no-file",
            Kind::MultiLine => "multi-line",
            Kind::Hang => "hang",
            Kind::Other => "other",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One broken rule, with what showed it.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub kind: Kind,
    pub detail: String,
}

impl Violation {
    pub fn new(kind: Kind, detail: impl Into<String>) -> Self {
        Violation {
            kind,
            detail: detail.into(),
        }
    }
}

/// Keys whose value may be `null` in an output: "no such thing", not a number. A `null`
/// anywhere else — under another key or inside an array — is a number serde_json could not
/// write (NaN or infinity).
pub const NULLABLE_KEYS: &[&str] = &[
    // actions --json and variants --json: why a clip does not play, the branch that plays.
    "reason",
    "clip",
    // validate's summary: the second body of a failure between two.
    "other",
    // check ik --json: a goal set whose end was not kept out of the trunk.
    "kept_out",
    // eval: a goal without a position or a rotation part.
    "position",
    "rotation",
    // creature and package files: the root has no parent.
    "parent",
    // optional parts of clips, channels and projects.
    "secondary",
    "target",
    "look_at",
    "limits",
    "mesh",
    "gait",
    "active_clip",
];

/// The first non-finite number in a JSON document, as `path: what`.
pub fn non_finite_in_json(doc: &Value) -> Option<String> {
    fn walk(v: &Value, path: &mut String, parent_key: Option<&str>) -> Option<String> {
        match v {
            Value::Null => {
                let allowed = parent_key.is_some_and(|k| NULLABLE_KEYS.contains(&k));
                (!allowed).then(|| format!("{}: null where a number belongs", show(path)))
            }
            Value::Number(n) => match n.as_f64() {
                Some(x) if x.is_finite() => None,
                _ => Some(format!("{}: {n}", show(path))),
            },
            // A data URI is base64, where "NaN" is just three letters.
            Value::String(s) if s.starts_with("data:") => None,
            Value::String(s) => non_finite_in_text(s).map(|t| format!("{}: {t}", show(path))),
            Value::Bool(_) => None,
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    let found = walk(item, path, None);
                    path.truncate(len);
                    if found.is_some() {
                        return found;
                    }
                }
                None
            }
            Value::Object(map) => {
                for (k, item) in map {
                    let len = path.len();
                    path.push('.');
                    path.push_str(k);
                    let found = walk(item, path, Some(k));
                    path.truncate(len);
                    if found.is_some() {
                        return found;
                    }
                }
                None
            }
        }
    }
    fn show(path: &str) -> &str {
        if path.is_empty() { "(document)" } else { path }
    }
    walk(doc, &mut String::new(), None)
}

/// The first word of `text` that is a printed non-finite number (`NaN`, `inf`, `-inf`,
/// `infinity`), with a little context.
pub fn non_finite_in_text(text: &str) -> Option<String> {
    // validate's summary line says how many cells had NaN: "…; NaN in 0. Report: …".
    let text = text.replace("NaN in ", "NAN_COUNT in ");
    // check's tables have a column titled NaN; a message may quote the bad input it refuses.
    let text: String = text
        .lines()
        .filter(|l| !l.starts_with("family "))
        .filter(|l| {
            !["not a finite", "not finite", "outside the working range"]
                .iter()
                .any(|echo| l.contains(echo))
        })
        .collect::<Vec<_>>()
        .join("\n");
    let is_word_char = |c: char| c.is_alphanumeric() || c == '_' || c == '.' || c == '#';
    let mut start = None;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let inside = is_word_char(c);
        if inside && start.is_none() {
            start = Some(i);
        }
        let last = k + 1 == chars.len();
        if let Some(s) = start
            && (!inside || last)
        {
            let end = if inside && last { text.len() } else { i };
            let word = text[s..end].trim_matches('.');
            let lower = word.to_ascii_lowercase();
            if matches!(lower.as_str(), "nan" | "inf" | "infinity" | "1.#inf") {
                let from = text[..s].char_indices().rev().nth(30).map_or(0, |(j, _)| j);
                let to = text[end..]
                    .char_indices()
                    .nth(30)
                    .map_or(text.len(), |(j, _)| end + j);
                return Some(format!("'{word}' in \"…{}…\"", &text[from..to]));
            }
            start = None;
        }
    }
    None
}

/// Non-finite numbers in a command's printed output: JSON when it parses as JSON (then
/// `null` numbers count too), text otherwise.
pub fn non_finite_in_output(stdout: &str) -> Option<String> {
    let trimmed = stdout.trim_start();
    if (trimmed.starts_with('{') || trimmed.starts_with('['))
        && let Ok(doc) = serde_json::from_str::<Value>(trimmed)
    {
        return non_finite_in_json(&doc);
    }
    non_finite_in_text(stdout)
}

/// A panic in a subprocess's stderr or exit status.
pub fn panic_in_stderr(stderr: &str, code: Option<i32>) -> Option<String> {
    if let Some(line) = stderr.lines().find(|l| l.contains("panicked")) {
        // The message is on the next line (Rust ≥ 1.73: "thread 'main' panicked at FILE:\nMSG").
        let next = stderr
            .lines()
            .skip_while(|l| !l.contains("panicked"))
            .nth(1)
            .unwrap_or("");
        return Some(format!("{} {}", line.trim(), next.trim()));
    }
    match code {
        Some(101) => Some(format!("exit status 101: {}", first_line(stderr))),
        None => Some(format!(
            "killed by a signal (abort, stack overflow or out of memory): {}",
            first_line(stderr)
        )),
        _ => None,
    }
}

/// The command's error message: stderr without warnings and clap's usage tail.
pub fn error_text(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter(|l| !l.starts_with("warning:"))
        .filter(|l| !l.starts_with("For more information, try"))
        .filter(|l| !l.starts_with("Usage:"))
        .filter(|l| !l.starts_with("  tip:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rules for a failed run's error: one line, naming at least one string of every group
/// in `must_name` (the file names and flags the case changed).
pub fn check_error(stderr: &str, must_name: &[Vec<String>]) -> Vec<Violation> {
    let text = error_text(stderr);
    let mut found = Vec::new();
    if text.is_empty() {
        return found;
    }
    if text.lines().count() > 1 {
        found.push(Violation::new(
            Kind::MultiLine,
            format!("{} lines: {}", text.lines().count(), clip_text(&text, 300)),
        ));
    }
    for group in must_name {
        let names: Vec<&String> = group.iter().filter(|n| !n.trim().is_empty()).collect();
        // The command line prints control characters escaped (a name may hold a newline).
        let named = |name: &str| text.contains(name) || text.contains(&escape_controls(name));
        if !names.is_empty() && !names.iter().any(|name| named(name)) {
            found.push(Violation::new(
                Kind::NoFile,
                format!(
                    "names none of [{}]: {}",
                    group.join(", "),
                    clip_text(&text, 300)
                ),
            ));
        }
    }
    found
}

/// The first non-finite float in a GLB's accessors (`FLOAT` components), or a problem
/// reading it.
pub fn non_finite_in_glb(bytes: &[u8]) -> Option<String> {
    let (json, bin) = match super::glb::split(bytes) {
        Ok(parts) => parts,
        Err(e) => return Some(format!("the written GLB does not parse: {e}")),
    };
    if let Some(bad) = non_finite_in_json(&json) {
        return Some(format!("JSON chunk: {bad}"));
    }
    non_finite_in_accessors(&json, &bin)
}

/// The first non-finite float of a glTF document's accessors into `bin` (buffer 0).
pub fn non_finite_in_accessors(json: &Value, bin: &[u8]) -> Option<String> {
    for (i, view) in super::glb::float_accessor_ranges(json, bin.len())
        .into_iter()
        .enumerate()
    {
        let Some(view) = view else { continue };
        for (k, at) in view.offsets().enumerate() {
            let Some(b) = bin.get(at..at + 4) else {
                return Some(format!("accessors[{i}] reads past the buffer"));
            };
            let x = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if !x.is_finite() {
                return Some(format!("accessors[{}] element {k}: {x}", view.accessor));
            }
        }
    }
    None
}

/// `text` with control characters escaped as the command line prints them.
pub fn escape_controls(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

fn first_line(text: &str) -> &str {
    text.lines().find(|l| !l.trim().is_empty()).unwrap_or("")
}

/// At most `max` characters of `text`.
pub fn clip_text(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nulls_are_numbers_except_under_nullable_keys() {
        assert!(
            non_finite_in_json(&json!({"reason": null, "bodies": [{"parent": null}]})).is_none()
        );
        let bad = non_finite_in_json(&json!({"bodies": [{"position": [0.0, null, 1.0]}]}));
        assert_eq!(
            bad.as_deref(),
            Some(".bodies[0].position[1]: null where a number belongs")
        );
        assert!(non_finite_in_json(&json!({"time": null})).is_some());
        let uri = json!({"buffers": [{"uri": "data:application/octet-stream;base64,nAN/vQ=="}]});
        assert!(non_finite_in_json(&uri).is_none());
    }

    #[test]
    fn printed_non_finite_words_are_found() {
        assert!(non_finite_in_text("leg: hip → foot (inf m)").is_some());
        assert!(non_finite_in_text("bounds [NaN, 0.000, 1.000]").is_some());
        assert!(non_finite_in_text("x -inf").is_some());
        assert!(non_finite_in_text("information: infinite influx, infant").is_none());
        assert!(non_finite_in_text("3 of 4 cells pass; NaN in 0. Report: r").is_none());
        assert!(non_finite_in_text("family  walks  duty  NaN  worst slip\nall  1  0  0").is_none());
        assert!(non_finite_in_text("  a.clip.json: keys[1]: inf is not a finite number").is_none());
        assert!(non_finite_in_output("{\"a\": [1, null]}").is_some());
        assert!(non_finite_in_output("{\"label\": \"leg inf m\"}").is_some());
    }

    #[test]
    fn errors_are_one_line_naming_the_file() {
        let names = vec![vec!["c.creature.json".to_string()]];
        assert!(check_error("error: /t/c.creature.json: bodies[0]: bad\n", &names).is_empty());
        let v = check_error("error: bodies[0]: bad\n", &names);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].kind, Kind::NoFile);
        let v = check_error("error: /t/c.creature.json: bad\nsecond line\n", &names);
        assert_eq!(v[0].kind, Kind::MultiLine);
        assert!(check_error("warning: meh\n", &names).is_empty());
    }

    #[test]
    fn panics_and_signals_are_found_in_a_subprocess() {
        let stderr = "thread 'main' panicked at src/cli/eval.rs:100:5:\nindex out of bounds\n";
        let p = panic_in_stderr(stderr, Some(101)).unwrap_or_default();
        assert!(p.contains("index out of bounds"), "{p}");
        assert!(panic_in_stderr("", None).is_some());
        assert!(panic_in_stderr("error: x\n", Some(1)).is_none());
    }
}
