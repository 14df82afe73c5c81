//! `anymorph solve`: the particle IK on goals given in a file, body transforms as JSON.

use crate::io::{LoadError, load_creature};
use crate::runtime::creature::Creature;
use crate::runtime::eval::Goals;
use crate::runtime::math::WORKING_RANGE;
use crate::runtime::pipeline::PoseStage;
use anyhow::Result;
use glam::{Quat, Vec3};
use serde_json::{Map, Value, json};
use std::path::Path;

pub(super) fn solve_cmd(creature_path: &Path, goals_path: &Path) -> Result<()> {
    let creature = load_creature(creature_path)?;
    let (label, text) = crate::io::json::read_text(goals_path)?;
    let goals = goals_from_str(&text, &label, &creature)?;
    let mut stage = PoseStage::new(&creature);
    stage.record_ik_debug(true);
    // One frame with no time passed: jiggles hold, so bodies without IK follow rigidly.
    let pose = stage.run(&creature, &goals, 0.0);
    let bodies: Vec<Value> = pose
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({ "name": creature.body(i).name, "position": p.position.to_array(),
                    "rotation": p.rotation.to_array() })
        })
        .collect();
    let debug = stage.ik_debug();
    let out = json!({
        "creature": creature.name(),
        "bodies": bodies,
        "ik": {
            "iterations": debug.iterations,
            "phase_error": debug.phase_error,
            "buckling_weight": debug.buckling_weight,
        },
    });
    say!("{}", serde_json::to_string_pretty(&out)?);
    Ok(())
}

/// Reads a `solve` goal file (docs/FORMAT.md, "Solve goals"): an optional root pose and a
/// list of body goals, every error naming the file and the field.
pub fn goals_from_str(text: &str, path: &str, creature: &Creature) -> Result<Goals, LoadError> {
    let field = |field: String, message: String| LoadError::Field {
        path: path.into(),
        field,
        message,
    };
    let value: Value = serde_json::from_str(text).map_err(|e| LoadError::Syntax {
        path: path.into(),
        line: e.line(),
        column: e.column(),
        message: e
            .to_string()
            .split(" at line ")
            .next()
            .unwrap_or_default()
            .to_string(),
    })?;
    let Value::Object(doc) = value else {
        return Err(field("(document)".into(), "expected a JSON object".into()));
    };
    let mut goals = Goals::new(creature.len());
    // Where each body's goal was given: a second one for the same body would silently
    // replace the first, which is never what a hand-written file means.
    let mut given: Vec<Option<String>> = vec![None; creature.len()];
    match doc.get("root") {
        None | Some(Value::Null) => {}
        Some(Value::Object(root)) => {
            given[creature.root()] = Some("root".into());
            let r = creature.root();
            let rest = creature.body(r);
            let position =
                optional_vec3(root, "position", "root", &field)?.unwrap_or(rest.position);
            let rotation =
                optional_quat(root, "rotation", "root", &field)?.unwrap_or(rest.rotation);
            goals.set_position(r, position, 1.0);
            goals.set_rotation(r, rotation, 1.0);
        }
        Some(_) => return Err(field("root".into(), "expected an object or null".into())),
    }
    let list = match doc.get("goals") {
        None | Some(Value::Null) => &Vec::new(),
        Some(Value::Array(a)) => a,
        Some(_) => return Err(field("goals".into(), "expected an array".into())),
    };
    for (i, item) in list.iter().enumerate() {
        let at = format!("goals[{i}]");
        let Value::Object(g) = item else {
            return Err(field(at, "expected an object".into()));
        };
        let name = match g.get("body") {
            Some(Value::String(s)) => s,
            _ => return Err(field(format!("{at}.body"), "expected a body name".into())),
        };
        let Some(body) = creature.find(name) else {
            return Err(field(
                format!("{at}.body"),
                format!(
                    "no body named \"{name}\" in creature \"{}\"",
                    creature.name()
                ),
            ));
        };
        if let Some(first) = &given[body] {
            return Err(field(
                format!("{at}.body"),
                format!(
                    "\"{name}\" already has a goal ({first}): give a body's position and rotation in one goal"
                ),
            ));
        }
        given[body] = Some(at.clone());
        let weight = match g.get("weight") {
            None | Some(Value::Null) => 1.0,
            Some(v) => number(v)
                .ok_or_else(|| field(format!("{at}.weight"), "expected a number".into()))?,
        };
        if !(weight > 0.0 && weight <= 1.0) {
            return Err(field(
                format!("{at}.weight"),
                format!("must be in (0, 1], found {weight}"),
            ));
        }
        let position = optional_vec3(g, "position", &at, &field)?;
        let rotation = optional_quat(g, "rotation", &at, &field)?;
        if position.is_none() && rotation.is_none() {
            return Err(field(
                at,
                "a goal needs a position, a rotation or both".into(),
            ));
        }
        if let Some(p) = position {
            goals.set_position(body, p, weight);
        }
        if let Some(q) = rotation {
            goals.set_rotation(body, q, weight);
        }
    }
    Ok(goals)
}

fn number(v: &Value) -> Option<f32> {
    v.as_f64().map(|x| x as f32)
}

fn numbers<const N: usize>(v: &Value) -> Option<[f32; N]> {
    let a = v.as_array()?;
    if a.len() != N {
        return None;
    }
    let mut out = [0.0; N];
    for (slot, x) in out.iter_mut().zip(a) {
        *slot = number(x)?;
    }
    Some(out)
}

type FieldError<'a> = dyn Fn(String, String) -> LoadError + 'a;

fn optional_vec3(
    obj: &Map<String, Value>,
    key: &str,
    at: &str,
    field: &FieldError,
) -> Result<Option<Vec3>, LoadError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => {
            let a = numbers::<3>(v)
                .ok_or_else(|| field(format!("{at}.{key}"), "expected [x, y, z] or null".into()))?;
            if !a.iter().all(|x| x.is_finite()) {
                Err(field(format!("{at}.{key}"), format!("not finite: {a:?}")))
            } else if let Some(x) = a.iter().find(|x| x.abs() > WORKING_RANGE) {
                // Far past the creature the solver's squared distances overflow.
                Err(field(
                    format!("{at}.{key}"),
                    format!("{x} is outside the working range of ±{WORKING_RANGE:e}"),
                ))
            } else {
                Ok(Some(Vec3::from_array(a)))
            }
        }
    }
}

fn optional_quat(
    obj: &Map<String, Value>,
    key: &str,
    at: &str,
    field: &FieldError,
) -> Result<Option<Quat>, LoadError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => {
            let a = numbers::<4>(v).ok_or_else(|| {
                field(
                    format!("{at}.{key}"),
                    "expected [x, y, z, w] or null".into(),
                )
            })?;
            let q = Quat::from_array(a);
            let len = q.length();
            if !a.iter().all(|x| x.is_finite()) || !len.is_finite() {
                Err(field(format!("{at}.{key}"), format!("not finite: {a:?}")))
            } else if len < 1e-6 {
                Err(field(
                    format!("{at}.{key}"),
                    "a rotation must not be the zero quaternion".into(),
                ))
            } else {
                Ok(Some(q / len))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn biped() -> Creature {
        crate::samples::creatures()
            .unwrap()
            .into_iter()
            .find(|c| c.name() == "biped")
            .unwrap()
    }

    /// Found by `anymorph fuzz` (load-goals): a root at 1e20 gave an infinite phase error,
    /// printed as `null` by solve.
    #[test]
    fn positions_past_the_working_range_are_errors_naming_the_field() {
        let c = biped();
        for (text, field) in [
            (r#"{"root": {"position": [0, -1e20, 0]}}"#, "root.position"),
            (
                r#"{"goals": [{"body": "hand_l", "position": [1e7, 1, 0]}]}"#,
                "goals[0].position",
            ),
        ] {
            let e = goals_from_str(text, "far.goals.json", &c)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(&format!("far.goals.json: {field}: ")), "{e}");
            assert!(e.contains("working range"), "{e}");
        }
        let edge = r#"{"goals": [{"body": "hand_l", "position": [1e6, 1, 0]}]}"#;
        assert!(goals_from_str(edge, "edge.goals.json", &c).is_ok());
    }
}
