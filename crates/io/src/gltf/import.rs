//! The import pipeline: file → skeleton → mesh → character space → caps → bodies → a
//! validated [`Creature`] with its mesh and a report of every guess made on the way.

use super::CONTROL_CAP;
use super::bodies::{Bones, body_box, bones};
use super::caps::{CapsInput, CapsSource, infer};
use super::mesh::{SkinnedMesh, extract};
use super::rules::{NameMatch, NamedSide, RigRules};
use super::skeleton::{Skeleton, build};
use super::source::{Source, read_bytes, read_path};
use super::space::{Placement, PlacementInput, place};
use crate::LoadError;
use anymorph_runtime::creature::{BodyDef, Cap, Creature, Extras};
use glam::{Affine3A, Vec3};
use serde_json::{Value, json};
use std::path::Path;

/// A rig imported from glTF: the creature, its mesh (if the file has one) and what the
/// importer decided.
#[derive(Clone, Debug)]
pub struct ImportedRig {
    pub creature: Creature,
    /// Skinned to `creature`'s bodies, in character space at rest.
    pub mesh: Option<SkinnedMesh>,
    pub report: ImportReport,
}

/// What the importer decided, for people reviewing the result (and the editor's caps panel).
#[derive(Clone, Debug, PartialEq)]
pub struct ImportReport {
    /// Where the bodies came from: the skin's joints or the node tree.
    pub skeleton: String,
    /// How the rig was placed: turned to face +Z, shifted onto the ground.
    pub facing: String,
    pub turned_degrees: u32,
    /// Metres moved (after turning) to put the lowest point on `y = 0` and the top body on
    /// the sagittal plane.
    pub shift: Vec3,
    /// Per body (creature order): where its caps came from.
    pub caps: Vec<CapsSource>,
    pub mesh: String,
    pub warnings: Vec<String>,
}

impl ImportReport {
    /// The report as JSON (kept in the creature's extras as `"import"`).
    pub fn to_json(&self) -> Value {
        json!({
            "skeleton": self.skeleton,
            "facing": self.facing,
            "turned_degrees": self.turned_degrees,
            "shift": self.shift.to_array(),
            "mesh": self.mesh,
            "warnings": self.warnings,
        })
    }
}

/// Imports a `.glb`/`.gltf` rig with the built-in rules extended by a `rig_rules.json`
/// beside it.
pub fn import_rig(path: &Path) -> Result<ImportedRig, LoadError> {
    let rules = RigRules::for_rig(path)?;
    import_rig_with(path, &rules)
}

/// Imports a rig with the given rule table.
pub fn import_rig_with(path: &Path, rules: &RigRules) -> Result<ImportedRig, LoadError> {
    let src = read_path(path)?;
    let file_name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = file_name
        .strip_suffix(".glb")
        .or_else(|| file_name.strip_suffix(".gltf"))
        .or_else(|| file_name.rsplit_once('.').map(|(s, _)| s))
        .unwrap_or(&file_name)
        .to_string();
    import(&src, rules, &stem, Some(&file_name))
}

/// Imports glTF or GLB bytes; `label` names the source in errors and the creature, and
/// `base_dir` resolves external buffers.
pub fn import_rig_from_bytes(
    bytes: &[u8],
    label: &str,
    base_dir: Option<&Path>,
    rules: &RigRules,
) -> Result<ImportedRig, LoadError> {
    let src = read_bytes(bytes, label, base_dir)?;
    import(&src, rules, label, None)
}

/// The mesh a `*.creature.json` refers to with `"mesh": "rig.glb"` (relative to the creature
/// file), skinned to this creature's bodies by name. `None` when it names no mesh or the
/// glTF has none.
pub fn mesh_for_creature(
    creature: &Creature,
    creature_path: &Path,
) -> Result<Option<SkinnedMesh>, LoadError> {
    let Some(Value::String(mesh)) = creature.extra().get("mesh") else {
        return Ok(None);
    };
    let dir = creature_path.parent().unwrap_or(Path::new("."));
    let path = dir.join(mesh);
    let rig = import_rig(&path)?;
    let Some(mut m) = rig.mesh else {
        return Ok(None);
    };
    let remap: Vec<u16> = rig
        .creature
        .bodies()
        .iter()
        .map(|b| {
            creature
                .find(&b.name)
                .and_then(|i| u16::try_from(i).ok())
                .unwrap_or_else(|| {
                    log::warn!(
                        "{}: body '{}' of the mesh is not in creature '{}'; its vertices follow the root",
                        path.display(),
                        b.name,
                        creature.name()
                    );
                    u16::try_from(creature.root()).unwrap_or(0)
                })
        })
        .collect();
    for j in &mut m.joints {
        for k in j.iter_mut() {
            *k = remap.get(usize::from(*k)).copied().unwrap_or(0);
        }
    }
    m.bind_to(creature);
    Ok(Some(m))
}

fn import(
    src: &Source,
    rules: &RigRules,
    name: &str,
    file_name: Option<&str>,
) -> Result<ImportedRig, LoadError> {
    let skeleton = build(src)?;
    let mut warnings = Vec::new();
    for s in &skeleton.skipped {
        warnings.push(format!(
            "node '{s}' is a camera or a light and was left out"
        ));
    }
    let mut mesh = extract(src, &skeleton, &mut warnings)?;
    let n = skeleton.len();
    let words: Vec<_> = skeleton.names.iter().map(|s| rules.words(s)).collect();
    let names: Vec<Option<NameMatch>> = (0..n)
        .map(|b| {
            let mut ancestors = Vec::new();
            let mut at = skeleton.parent[b];
            while let Some(p) = at {
                ancestors.push(&words[p]);
                at = skeleton.parent[p];
            }
            rules.classify(&words[b], &ancestors)
        })
        .collect();

    // Sizes do not change when the rig is turned and shifted: measure in the file's space.
    let (lo, hi) = skeleton
        .world
        .iter()
        .map(|m| m.w_axis.truncate())
        .chain(mesh.iter().flat_map(|m| m.positions.iter().copied()))
        .fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(p), hi.max(p)),
        );
    let size = (hi - lo).max_element().max(1e-3);
    if size > 50.0 {
        warnings.push(format!(
            "the rig is {size:.1} m across; glTF is in metres — was it exported in centimetres?"
        ));
    }
    let mut bones = bones(&skeleton.world, &skeleton.parent, mesh.as_ref(), size);
    let placement = placement(&skeleton, &bones, &words, &names, size);
    bones.transform(placement.character_from_scene);
    if let Some(m) = &mut mesh {
        m.transform(placement.character_from_scene);
    }
    let height = bones
        .joint
        .iter()
        .chain(&bones.end)
        .map(|p| p.y)
        .fold(1e-3f32, f32::max);

    let sided: Vec<bool> = words.iter().map(|w| w.side.is_some()).collect();
    let extras_caps: Vec<Option<Vec<Cap>>> =
        skeleton.extras.iter().map(|e| e.caps.clone()).collect();
    let mut inferred = infer(&CapsInput {
        parent: &skeleton.parent,
        joint: &bones.joint,
        end: &bones.end,
        low: &bones.low,
        names: &names,
        sided: &sided,
        extras: &extras_caps,
        size,
        height,
    });

    let mut defs = Vec::with_capacity(n);
    for (b, from_extras) in extras_caps.iter().enumerate() {
        let mut caps = inferred.caps[b].clone();
        // A bone that moves no vertex of a skinned rig and nothing named is a control (an IK
        // target, a weapon socket): no body of the creature's flesh, so no check counts what
        // passes through it.
        if bones.skinned && bones.points[b].is_empty() && caps.is_empty() && from_extras.is_none() {
            caps.push(Cap::Other(CONTROL_CAP.into()));
            let why = "moves no vertex of the skinned mesh";
            inferred.sources[b] = match &inferred.sources[b] {
                CapsSource::Name(w) => CapsSource::Geometry(format!("{why}; named '{w}'")),
                _ => CapsSource::Geometry(why.into()),
            };
        }
        let caps = &caps;
        let fit = body_box(&bones, b, caps, skeleton.extras[b].body.as_ref(), size);
        let mut extra = Extras::new();
        extra.insert(
            "caps_source".into(),
            Value::String(inferred.sources[b].to_string()),
        );
        // The bone's own axes, so a bake writes rotations that apply to the source rig.
        extra.insert("node_rotation".into(), json!(bones.frame[b].to_array()));
        defs.push(BodyDef {
            name: skeleton.names[b].clone(),
            parent: skeleton.parent[b].map(|p| skeleton.names[p].clone()),
            caps: caps.clone(),
            joint: bones.joint[b],
            position: fit.position,
            rotation: fit.rotation,
            half_extents: fit.half_extents,
            shape: fit.shape,
            extra,
        });
    }
    let report = ImportReport {
        skeleton: if skeleton.skins > 0 {
            format!("the joints of {} skin(s): {n} bodies", skeleton.skins)
        } else {
            format!("the node tree (no skin): {n} bodies")
        },
        facing: placement.facing.clone(),
        turned_degrees: placement.turned_degrees,
        shift: placement.shift,
        caps: inferred.sources.clone(),
        mesh: match &mesh {
            Some(m) => format!(
                "{} vertices, {} triangles",
                m.vertex_count(),
                m.triangle_count()
            ),
            None => "none".into(),
        },
        warnings,
    };
    let mut extra = Extras::new();
    if let Some(f) = file_name {
        extra.insert("mesh".into(), Value::String(f.to_string()));
    }
    extra.insert("import".into(), report.to_json());
    let creature =
        Creature::with_extras(name, defs, extra).map_err(|source| LoadError::Creature {
            path: src.label.clone(),
            source,
        })?;
    if let Some(m) = &mut mesh {
        m.bind_to(&creature);
    }
    Ok(ImportedRig {
        creature,
        mesh,
        report,
    })
}

/// How to move the rig into character space. A file Anymorph baked (every node carries its
/// body) is already there and is left exactly as it is.
fn placement(
    skeleton: &Skeleton,
    bones: &Bones,
    words: &[super::rules::NameWords],
    names: &[Option<NameMatch>],
    size: f32,
) -> Placement {
    let ours = skeleton
        .node
        .iter()
        .zip(&skeleton.extras)
        .all(|(node, e)| node.is_none() || e.body.is_some());
    if ours {
        return Placement {
            character_from_scene: Affine3A::IDENTITY,
            turned_degrees: 0,
            facing: "written by Anymorph: already in character space".into(),
            shift: Vec3::ZERO,
        };
    }
    let named_side: Vec<i8> = words
        .iter()
        .map(|w| match w.side {
            Some(NamedSide::Left) => 1,
            Some(NamedSide::Right) => -1,
            None => 0,
        })
        .collect();
    let with_cap = |cap: &Cap, ignored: bool| -> Vec<usize> {
        (0..names.len())
            .filter(|&b| {
                names[b]
                    .as_ref()
                    .is_some_and(|m| m.ignored == ignored && m.caps.contains(cap))
            })
            .collect()
    };
    let heads: Vec<usize> = with_cap(&Cap::Head, false)
        .into_iter()
        .filter(|&b| words[b].side.is_none())
        .collect();
    let feet = with_cap(&Cap::Foot, false);
    let toes = with_cap(&Cap::Other("toe".into()), true);
    // The lowest point any bone reaches — its mesh, or without one its bone tips — stands
    // on the ground.
    let lowest_y = bones.low.iter().copied().fold(f32::INFINITY, f32::min);
    place(&PlacementInput {
        joints: &bones.joint,
        named_side: &named_side,
        heads: &heads,
        feet: &feet,
        toes: &toes,
        lowest_y: if lowest_y.is_finite() { lowest_y } else { 0.0 },
        root: 0,
        size,
    })
}
