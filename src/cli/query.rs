//! `anymorph query`: the bodies a context query selects.

use crate::io::load_creature;
use crate::runtime::query::ContextQuery;
use anyhow::Result;
use serde_json::json;
use std::path::Path;

pub(super) fn query_cmd(path: &Path, query: &str, as_json: bool) -> Result<()> {
    let c = load_creature(path)?;
    // Inline JSON is labelled by the option, a file by its name, so an error says which.
    if query.trim().is_empty() {
        anyhow::bail!("--query: empty; give the query as JSON or a file holding it");
    }
    let q: ContextQuery = if query.trim_start().starts_with('{') {
        crate::io::json::parse_plain(query, "--query")?
    } else {
        let (label, text) = crate::io::json::read_text(Path::new(query))?;
        crate::io::json::parse_plain(&text, &label)?
    };
    let names: Vec<&str> = q
        .select(&c)
        .into_iter()
        .map(|b| c.body(b).name.as_str())
        .collect();
    if as_json {
        say!(
            "{}",
            serde_json::to_string_pretty(&json!({ "query": q, "bodies": names }))?
        );
    } else {
        for n in names {
            say!("{n}");
        }
    }
    Ok(())
}
