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
        println!("{}", serde_json::to_string_pretty(&summary)?);
        return Ok(());
    }
    println!(
        "{} — {} bodies, root {}, {} legs",
        c.name(),
        c.len(),
        c.body(c.root()).name,
        c.legs().len()
    );
    let b = c.bounds();
    println!(
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
    println!("{:<24} {:<20} {:>8}  caps", "body", "parent", "limb m");
    for &id in c.order() {
        let body = c.body(id);
        let parent = c.parent(id).map_or("-", |p| c.body(p).name.as_str());
        let caps: Vec<&str> = body.caps.iter().map(Cap::as_str).collect();
        println!(
            "{:<24} {:<20} {:>8.3}  {}",
            body.name,
            parent,
            c.limb_length(id),
            caps.join(" ")
        );
    }
    let gear = crate::runtime::gait::Gear::of(&c);
    println!("locomotion: {:?}", gear.locomotion);
    for (i, g) in gear.groups.iter().enumerate() {
        let feet: Vec<&str> = g
            .limbs
            .iter()
            .map(|&l| c.body(gear.limbs[l].foot).name.as_str())
            .collect();
        println!(
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
        println!(
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
    json!({
        "name": c.name(),
        "bodies": c.len(),
        "root": name(c.root()),
        "legs": c.legs().len(),
        "caps": caps,
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
    })
}
