//! `anymorph query`: the bodies a context query selects.

use crate::io::load_creature;
use crate::runtime::query::ContextQuery;
use anyhow::{Context, Result};
use serde_json::json;
use std::path::Path;

pub(super) fn query_cmd(path: &Path, query: &str, as_json: bool) -> Result<()> {
    let c = load_creature(path)?;
    let text = if query.trim_start().starts_with('{') {
        query.to_string()
    } else {
        std::fs::read_to_string(query).with_context(|| format!("--query: cannot read '{query}'"))?
    };
    let q: ContextQuery =
        serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(&text))
            .map_err(|e| anyhow::anyhow!("--query: {}: {}", e.path(), e.inner()))?;
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
