//! `anymorph info`: what the runtime sees in a creature.

use crate::io::load_creature;
use crate::runtime::creature::{Cap, Creature};
use anyhow::Result;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

pub(super) fn info(path: &Path, as_json: bool) -> Result<()> {
    let c = load_creature(path)?;
    let summary = creature_summary(&c);
    if as_json {
        say!("{}", serde_json::to_string_pretty(&summary)?);
        return Ok(());
    }
    say!(
        "{} — {} bodies, root {}, {} legs",
        c.name(),
        c.len(),
        c.body(c.root()).name,
        c.legs().len()
    );
    let b = c.bounds();
    say!(
        "bounds {:.3?} .. {:.3?}; spine {} ({})",
        b.min.to_array(),
        b.max.to_array(),
        if c.upright().upright {
            "upright"
        } else {
            "prone"
        },
        c.spine_chain()
            .iter()
            .map(|&s| c.body(s).name.as_str())
            .collect::<Vec<_>>()
            .join(" → ")
    );
    if let Some(import) = c.extra().get("import") {
        // A creature imported from glTF: how it was placed and what the importer guessed.
        let text = |k: &str| {
            import
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        say!(
            "imported from glTF: {}; {}",
            text("skeleton"),
            text("facing")
        );
        if let Some(Value::Array(warnings)) = import.get("warnings") {
            for w in warnings.iter().filter_map(Value::as_str) {
                say!("  warning: {w}");
            }
        }
    }
    say!("{:<24} {:<20} {:>8}  caps", "body", "parent", "limb m");
    for &id in c.order() {
        let body = c.body(id);
        let parent = c.parent(id).map_or("-", |p| c.body(p).name.as_str());
        let caps: Vec<&str> = body.caps.iter().map(Cap::as_str).collect();
        let source = match body.extra.get("caps_source").and_then(Value::as_str) {
            Some(s) => format!("   (from {s})"),
            None => String::new(),
        };
        say!(
            "{:<24} {:<20} {:>8.3}  {}{source}",
            body.name,
            parent,
            c.limb_length(id),
            caps.join(" ")
        );
    }
    let gear = crate::runtime::gait::Gear::of(&c);
    say!("locomotion: {:?}", gear.locomotion);
    for (i, g) in gear.groups.iter().enumerate() {
        let feet: Vec<&str> = g
            .limbs
            .iter()
            .map(|&l| c.body(gear.limbs[l].foot).name.as_str())
            .collect();
        say!(
            "  group {i}: {} feet ({}), leg {:.3} m, cadence ×{:.3}{}",
            feet.len(),
            feet.join(" "),
            g.length,
            g.ratio,
            if i == gear.reference {
                " (sets the cadence)"
            } else {
                ""
            }
        );
    }
    for leg in c.legs() {
        say!(
            "leg: {} → {} ({:.3} m)",
            c.body(leg.hip).name,
            c.body(leg.foot).name,
            leg.length
        );
    }
    Ok(())
}

/// The `info --json` object.
pub fn creature_summary(c: &Creature) -> Value {
    let mut caps: BTreeMap<String, usize> = BTreeMap::new();
    for b in c.bodies() {
        for cap in &b.caps {
            *caps.entry(cap.to_string()).or_default() += 1;
        }
    }
    let name = |id: usize| c.body(id).name.clone();
    let mut summary = json!({
        "name": c.name(),
        "bodies": c.len(),
        "root": name(c.root()),
        "legs": c.legs().len(),
        "caps": caps,
        // Each body's caps by name, so a script can see which bodies are the graspers.
        "body_caps": c.bodies().iter().map(|b| (
            b.name.clone(),
            json!(b.caps.iter().map(|x| x.to_string()).collect::<Vec<_>>()),
        )).collect::<serde_json::Map<String, Value>>(),
        "bounds": { "min": c.bounds().min.to_array(), "max": c.bounds().max.to_array() },
        "upright_spine": c.upright().upright,
        "upright_score": c.upright().score,
        "spine_chain": c.spine_chain().iter().map(|&b| name(b)).collect::<Vec<_>>(),
        "locomotion": format!("{:?}", crate::runtime::gait::Gear::of(c).locomotion).to_lowercase(),
        "leg_groups": crate::runtime::gait::Gear::of(c).groups.iter().map(|g| json!({
            "feet": g.limbs.len(), "leg_length": g.length, "cadence_ratio": g.ratio,
        })).collect::<Vec<_>>(),
        "leg_list": c.legs().iter().map(|l| json!({
            "hip": name(l.hip), "foot": name(l.foot), "length": l.length,
            "chain": l.chain.iter().map(|&b| name(b)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    // Imported from glTF: where each body's caps came from (extras, a name rule, geometry).
    let sources: serde_json::Map<String, Value> = c
        .bodies()
        .iter()
        .filter_map(|b| Some((b.name.clone(), b.extra.get("caps_source")?.clone())))
        .collect();
    if let Some(obj) = summary.as_object_mut() {
        if !sources.is_empty() {
            obj.insert("caps_sources".into(), Value::Object(sources));
        }
        if let Some(import) = c.extra().get("import") {
            obj.insert("import".into(), import.clone());
        }
    }
    summary
}
