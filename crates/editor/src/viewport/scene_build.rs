//! Turns the document and the live preview into a render [`Scene`]: posed bodies in world
//! space coloured by their caps, the ground, and the overlays the animator switched on.

use crate::command::Selection;
use crate::document::Document;
use crate::prefs::Overlays;
use crate::preview::{CreaturePreview, Preview};
use crate::walk::FootMark;
use anymorph_io::gltf::SkinnedMesh;
use anymorph_render::{
    BodyInstance, Ground, LineSegment, Rgba, Scene, SkinnedInstance, rgba_from_srgb8,
};
use anymorph_runtime::creature::{BodyId, Cap, Creature};
use anymorph_runtime::eval::default_external_target;
use anymorph_runtime::ik::ConstraintKind;
use anymorph_runtime::math::Aabb;
use anymorph_runtime::pose::BodyPose;
use glam::{Mat4, Vec3};
use std::sync::Arc;

/// A creature's name tag, anchored above its head.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub creature: usize,
    pub anchor: Vec3,
    pub text: String,
    pub binds: bool,
}

/// The external target drawn at one creature.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetHandle {
    pub creature: usize,
    pub world: Vec3,
    /// The creature's placement: world = character + offset.
    pub offset: Vec3,
}

/// A scene plus what the viewport needs to map pixels back to the document.
#[derive(Clone, Debug)]
pub struct BuiltScene {
    pub scene: Scene,
    /// For each body instance, its creature (roster index) and body.
    pub owners: Vec<(usize, BodyId)>,
    /// The external target handle on each creature.
    pub target_handles: Vec<TargetHandle>,
    pub labels: Vec<Label>,
    /// World box of every creature at rest, for framing.
    pub rest_bounds: Aabb,
}

/// Where the external target sits for a creature, in its character space.
pub fn target_in_character(doc: &Document, creature: &Creature) -> Vec3 {
    doc.target()
        .unwrap_or_else(|| default_external_target(creature))
}

/// Whether the active clip aims anything at an external target.
pub fn clip_uses_external_target(doc: &Document) -> bool {
    doc.clip().is_some_and(|clip| {
        clip.channels.iter().any(|c| {
            matches!(
                c.secondary,
                Some(anymorph_runtime::query::SecondaryContext::ExternalTarget(_))
            )
        })
    })
}

fn body_color(creature: &Creature, body: BodyId) -> [f32; 3] {
    let b = creature.body(body);
    let pick = |r, g, bl| {
        let c = rgba_from_srgb8(r, g, bl, 255);
        [c[0], c[1], c[2]]
    };
    let by_cap = [
        (Cap::Grasper, (88, 150, 214)),
        (Cap::Foot, (108, 170, 112)),
        (Cap::Mouth, (222, 128, 88)),
        (Cap::Eye, (236, 206, 96)),
        (Cap::Ear, (214, 150, 120)),
        (Cap::Head, (206, 176, 150)),
        (Cap::Wing, (110, 190, 196)),
        (Cap::Fin, (110, 190, 196)),
        (Cap::Tail, (160, 140, 196)),
        (Cap::Weapon, (206, 84, 84)),
    ];
    if let Some((_, (r, g, bl))) = by_cap.iter().find(|(cap, _)| b.has_cap(cap)) {
        return pick(*r, *g, *bl);
    }
    if creature.is_spine(body) {
        pick(196, 184, 166)
    } else {
        pick(168, 160, 150)
    }
}

/// Where a body's joint is in the pose, character space.
fn posed_pivot(creature: &Creature, body: BodyId, pose: &BodyPose) -> Vec3 {
    let rest = creature.body(body);
    let local = rest.rotation.inverse() * (creature.pivot(body) - rest.position);
    pose.position + pose.rotation * local
}

const JOINT: (u8, u8, u8) = (240, 240, 240);
const BONE: (u8, u8, u8) = (120, 200, 255);
const GOAL: (u8, u8, u8) = (255, 150, 40);
const CURVE: (u8, u8, u8) = (235, 45, 45);
const TARGET: (u8, u8, u8) = (255, 214, 64);

fn rgba(c: (u8, u8, u8), alpha: f32) -> Rgba {
    let [r, g, b, _] = rgba_from_srgb8(c.0, c.1, c.2, 255);
    [r, g, b, alpha]
}

/// Everything the viewport draws this frame.
pub struct SceneInputs<'a> {
    pub doc: &'a Document,
    pub preview: &'a Preview,
    pub overlays: Overlays,
    pub selection: Option<Selection>,
    pub hovered: Option<(usize, BodyId)>,
    pub target_hovered: bool,
    pub active_channel: Option<usize>,
    pub time_secs: f32,
    /// Per roster creature, its skinned mesh if it has one.
    pub meshes: &'a [Option<Arc<SkinnedMesh>>],
}

pub fn build(inputs: &SceneInputs<'_>, camera: anymorph_render::Camera) -> BuiltScene {
    let mut out = BuiltScene {
        scene: Scene {
            camera,
            ..Scene::default()
        },
        owners: Vec::new(),
        target_handles: Vec::new(),
        labels: Vec::new(),
        rest_bounds: Aabb::EMPTY,
    };
    // The handle only means something when the clip aims at it (reach, look-at).
    let show_target = inputs.overlays.target && clip_uses_external_target(inputs.doc);
    for (ci, (entry, preview)) in inputs
        .doc
        .roster
        .iter()
        .zip(&inputs.preview.creatures)
        .enumerate()
    {
        let creature = &entry.creature;
        let rest = creature.bounds();
        out.rest_bounds = out.rest_bounds.union(Aabb {
            min: rest.min + preview.offset,
            max: rest.max + preview.offset,
        });
        let first_body = out.scene.bodies.len();
        add_bodies(&mut out, inputs, ci, creature, preview);
        if add_mesh(&mut out.scene, inputs, ci, creature, preview) && !inputs.overlays.proxies {
            // The mesh stands in for the proxies; creatures without one keep theirs.
            out.scene.hidden_bodies.resize(first_body, false);
            out.scene.hidden_bodies.resize(out.scene.bodies.len(), true);
        }
        if inputs.overlays.joints {
            add_skeleton(&mut out.scene.overlay, creature, preview);
        }
        if inputs.overlays.ghosts && inputs.selection.is_some_and(|s| s.creature == ci) {
            add_ghosts(&mut out.scene.overlay, inputs, ci, creature, preview);
        }
        add_mode_comparison(&mut out.scene.overlay, inputs, ci, creature, preview);
        if inputs.overlays.goals {
            add_goals(&mut out.scene.overlay, creature, preview);
        }
        if inputs.overlays.ik {
            add_ik(&mut out.scene.overlay, preview);
        }
        if inputs.overlays.curve {
            add_curves(&mut out.scene.overlay, preview);
        }
        if show_target && preview.binds() {
            out.target_handles.push(TargetHandle {
                creature: ci,
                world: target_in_character(inputs.doc, creature) + preview.offset,
                offset: preview.offset,
            });
        }
        if inputs.overlays.labels {
            let posed_top = preview
                .pose
                .iter()
                .map(|p| p.position.y)
                .fold(rest.max.y, f32::max);
            // Over the creature where it walked to (the path view), at its posed top.
            let over = preview.to_world(rest.center());
            out.labels.push(Label {
                creature: ci,
                anchor: Vec3::new(over.x, posed_top + preview.offset.y, over.z)
                    + Vec3::Y * (0.08 * creature.size()).max(0.05),
                text: creature.name().to_string(),
                binds: preview.binds(),
            });
        }
    }
    if show_target {
        add_target_handles(&mut out, inputs.target_hovered);
    }
    let mut ground_under = out.rest_bounds;
    for (entry, preview) in inputs.doc.roster.iter().zip(&inputs.preview.creatures) {
        add_foot_marks(&mut out.scene.lines, preview);
        if preview.display_from_character != BodyPose::IDENTITY {
            // Walking the path, a creature leaves its slot: the ground goes with it.
            ground_under = ground_under.union(posed_bounds(&entry.creature, preview, None));
        }
    }
    if inputs.overlays.ground {
        out.scene.ground = Some(Ground::around(ground_under, 0.0));
    }
    out.scene.contact_shadows = inputs.overlays.ground;
    out
}

fn add_bodies(
    out: &mut BuiltScene,
    inputs: &SceneInputs<'_>,
    ci: usize,
    creature: &Creature,
    preview: &CreaturePreview,
) {
    let variant = preview.pipeline.as_ref().map_or_else(
        || inputs.doc.roster.get(ci).map_or(0, |e| e.variant),
        |p| p.plan().variant,
    );
    let channel_bodies = moved_bodies(preview, variant, inputs.active_channel);
    for (b, pose) in preview.pose.iter().enumerate().take(creature.len()) {
        let body = creature.body(b);
        let selected = inputs
            .selection
            .is_some_and(|s| s.creature == ci && s.body.is_none_or(|sb| sb == b));
        let mut color = body_color(creature, b);
        if !preview.binds() {
            // The clip does not play here: grey the creature out.
            let grey = (color[0] + color[1] + color[2]) / 3.0 * 0.55;
            color = color.map(|c| grey + (c - grey) * 0.15);
        }
        if channel_bodies.contains(&b) {
            let tint = [1.0, 0.55, 0.1];
            color = std::array::from_fn(|i| color[i] * 0.45 + tint[i] * 0.55);
        }
        out.scene.bodies.push(BodyInstance {
            position: pose.position + preview.offset,
            hovered: inputs.hovered == Some((ci, b)),
            selected,
            ..BodyInstance::posed(body, pose, color)
        });
        out.owners.push((ci, b));
    }
}

/// The bodies channel `channel` moves on a creature (its query, through the chosen
/// variant): tinted so the animator sees what a query selects on every creature at once.
/// Read from the binding, not from the tracks the keys made, so a channel with no keys yet
/// shows its bodies too; where the clip does not play, it moves none.
pub fn moved_bodies(
    preview: &CreaturePreview,
    variant: usize,
    channel: Option<usize>,
) -> Vec<BodyId> {
    channel
        .filter(|_| preview.binds())
        .and_then(|c| {
            preview
                .binding
                .variants
                .get(variant)?
                .bodies
                .get(c)
                .cloned()
        })
        .unwrap_or_default()
}

/// The creature's skinned mesh in this frame's pose (the one the preview's pipeline
/// computed; nothing is posed again here). Returns whether a mesh was added.
fn add_mesh(
    scene: &mut Scene,
    inputs: &SceneInputs<'_>,
    ci: usize,
    creature: &Creature,
    preview: &CreaturePreview,
) -> bool {
    if !inputs.overlays.mesh {
        return false;
    }
    let Some(mesh) = inputs.meshes.get(ci).and_then(Option::as_ref) else {
        return false;
    };
    if mesh.inverse_bind.len() != creature.len() || preview.pose.len() != creature.len() {
        // A mesh bound to another version of the creature would tear it apart.
        return false;
    }
    let mut joint_matrices = Vec::with_capacity(creature.len());
    mesh.skin_matrices(&preview.pose, &mut joint_matrices);
    let world_from_character = Mat4::from_translation(preview.offset);
    for m in &mut joint_matrices {
        *m = world_from_character * *m;
    }
    let [r, g, b, _] = rgba_from_srgb8(206, 188, 172, 255);
    let mut color = [r, g, b];
    if !preview.binds() {
        let grey = (r + g + b) / 3.0 * 0.55;
        color = color.map(|c| grey + (c - grey) * 0.15);
    }
    if inputs.selection.is_some_and(|s| s.creature == ci) {
        let tint = [1.0, 0.55, 0.1];
        color = std::array::from_fn(|i| color[i] * 0.8 + tint[i] * 0.2);
    }
    // Over the proxies the skin is see-through, so both read at once.
    let alpha = if inputs.overlays.proxies { 0.45 } else { 1.0 };
    scene.meshes.push(SkinnedInstance {
        mesh: Arc::clone(mesh),
        joint_matrices,
        color: [color[0], color[1], color[2], alpha],
    });
    true
}

fn add_skeleton(overlay: &mut Vec<LineSegment>, creature: &Creature, preview: &CreaturePreview) {
    let world = |p: Vec3| p + preview.offset;
    for (b, pose) in preview.pose.iter().enumerate().take(creature.len()) {
        let centre = world(pose.position);
        if let Some(parent) = creature.parent(b) {
            let joint = world(posed_pivot(creature, b, pose));
            let parent_centre = world(preview.pose[parent].position);
            overlay.push(LineSegment::new(parent_centre, joint, rgba(BONE, 0.9), 2.0));
            overlay.push(LineSegment::new(joint, centre, rgba(BONE, 0.9), 2.0));
            overlay.push(LineSegment::point(joint, [0.0, 0.0, 0.0, 0.8], 9.0));
            overlay.push(LineSegment::point(joint, rgba(JOINT, 1.0), 6.0));
        }
        overlay.push(LineSegment::point(centre, rgba(BONE, 1.0), 4.0));
    }
}

/// Clip frames between one ghost and the next, and ghosts on each side of the playhead:
/// three frames apart at 30 fps a ghost is 0.1 s, so two a side span the length of a
/// quick gesture without crowding the creature.
const GHOST_STEP_FRAMES: f32 = 3.0;
const GHOSTS_PER_SIDE: usize = 2;
const GHOST_BEFORE: (u8, u8, u8) = (90, 150, 255);
const GHOST_AFTER: (u8, u8, u8) = (255, 160, 60);

/// The onion skin: the selected creature's skeleton a few frames before (blue) and after
/// (orange) the playhead, fainter the farther from it, as the runtime poses it then.
fn add_ghosts(
    overlay: &mut Vec<LineSegment>,
    inputs: &SceneInputs<'_>,
    index: usize,
    creature: &Creature,
    preview: &CreaturePreview,
) {
    let Some(clip) = inputs.doc.shown_clip() else {
        return;
    };
    let step = GHOST_STEP_FRAMES / clip.fps.max(1.0);
    let offsets: Vec<f32> = (1..=GHOSTS_PER_SIDE)
        .flat_map(|k| [-(k as f32) * step, k as f32 * step])
        .collect();
    let ghosts = inputs
        .preview
        .ghost_poses(inputs.doc, index, inputs.time_secs, &offsets);
    for (offset, pose) in ghosts {
        let nth = (offset.abs() / step).round().max(1.0);
        let hue = if offset < 0.0 {
            GHOST_BEFORE
        } else {
            GHOST_AFTER
        };
        let color = rgba(hue, 0.75 / nth);
        add_bones(overlay, creature, &pose, preview.offset, (color, 2.0));
    }
}

/// `pose` drawn as bones alone (a ghost of the skeleton), each body from its parent's centre
/// to its joint and on to its own centre, moved by `offset` (the creature's slot).
fn add_bones(
    overlay: &mut Vec<LineSegment>,
    creature: &Creature,
    pose: &[BodyPose],
    offset: Vec3,
    (color, width): (Rgba, f32),
) {
    let world = |p: Vec3| p + offset;
    for (b, p) in pose.iter().enumerate().take(creature.len()) {
        let Some(parent) = creature.parent(b) else {
            continue;
        };
        let joint = world(posed_pivot(creature, b, p));
        overlay.push(LineSegment::new(
            world(pose[parent].position),
            joint,
            color,
            width,
        ));
        overlay.push(LineSegment::new(joint, world(p.position), color, width));
    }
}

/// Not blue or orange, so the old mode's pose is not read as an onion-skin frame.
const OLD_MODE: (u8, u8, u8) = (230, 80, 230);

/// After a movement-mode change: every creature's pose under the old mode, drawn over the
/// new one (in place, so the difference is the change itself), fading out.
fn add_mode_comparison(
    overlay: &mut Vec<LineSegment>,
    inputs: &SceneInputs<'_>,
    index: usize,
    creature: &Creature,
    preview: &CreaturePreview,
) {
    let Some(comparison) = &inputs.preview.mode_comparison else {
        return;
    };
    // While walking the shown pose is the walk's, which the comparison does not play.
    if preview.walker.is_some() {
        return;
    }
    let Some(Some(pose)) = comparison.poses.get(index) else {
        return;
    };
    let color = rgba(OLD_MODE, 0.9 * comparison.opacity);
    add_bones(overlay, creature, pose, preview.offset, (color, 2.5));
}

fn add_goals(overlay: &mut Vec<LineSegment>, creature: &Creature, preview: &CreaturePreview) {
    let Some(goals) = preview.goals() else {
        return;
    };
    let size = creature.size();
    let turn = preview.display_from_character.rotation;
    for b in goals.bodies() {
        let Some(pose) = preview.pose.get(b) else {
            continue;
        };
        let at = pose.position + preview.offset;
        if let Some((goal, weight)) = goals.position(b) {
            let goal = preview.to_world(goal);
            // The line from body to goal shows what IK could not reach.
            overlay.push(LineSegment::new(at, goal, rgba(GOAL, 0.6), 1.5));
            overlay.push(LineSegment::point(goal, [0.0, 0.0, 0.0, 0.8], 12.0));
            overlay.push(LineSegment::point(
                goal,
                rgba(GOAL, 0.4 + 0.6 * weight),
                9.0,
            ));
        }
        if let Some((rotation, _)) = goals.rotation(b) {
            let reach = 0.08 * size;
            for (axis, color) in [
                (Vec3::X, [1.0, 0.15, 0.1, 1.0]),
                (Vec3::Y, [0.2, 1.0, 0.2, 1.0]),
                (Vec3::Z, [0.2, 0.4, 1.0, 1.0]),
            ] {
                overlay.push(LineSegment::new(
                    at,
                    at + turn * rotation * axis * reach,
                    color,
                    2.0,
                ));
            }
        }
    }
}

fn add_ik(overlay: &mut Vec<LineSegment>, preview: &CreaturePreview) {
    let Some(debug) = preview.ik_debug() else {
        return;
    };
    let world = |p: Vec3| preview.to_world(p);
    for c in &debug.constraints {
        let (Some(a), Some(b)) = (debug.particles.get(c.a), debug.particles.get(c.b)) else {
            continue;
        };
        let strain = if c.rest_length > 1e-6 {
            ((c.length - c.rest_length) / c.rest_length).abs()
        } else {
            0.0
        };
        let color = if strain > 0.01 {
            [1.0, 0.1, 0.1, 0.95]
        } else {
            match c.kind {
                ConstraintKind::Bone => [0.2, 0.95, 0.35, 0.9],
                ConstraintKind::SimplifiedLimb => [0.2, 0.85, 0.95, 0.9],
                ConstraintKind::Cross => [0.75, 0.4, 1.0, 0.8],
                ConstraintKind::AntiBuckling => [1.0, 0.85, 0.2, 0.8],
            }
        };
        overlay.push(LineSegment::new(
            world(a.position),
            world(b.position),
            color,
            1.5,
        ));
    }
    for p in &debug.particles {
        overlay.push(LineSegment::point(
            world(p.position),
            [0.1, 1.0, 0.4, 1.0],
            6.0,
        ));
    }
}

fn add_curves(overlay: &mut Vec<LineSegment>, preview: &CreaturePreview) {
    let world = |p: Vec3| preview.to_world(p);
    for trace in &preview.curves {
        for pair in trace.points.windows(2) {
            overlay.push(LineSegment::new(
                world(pair[0]),
                world(pair[1]),
                rgba(CURVE, 0.95),
                2.5,
            ));
        }
        for &key in &trace.keys {
            overlay.push(LineSegment::point(world(key), [0.0, 0.0, 0.0, 0.9], 9.0));
            overlay.push(LineSegment::point(world(key), [1.0, 1.0, 1.0, 1.0], 6.0));
        }
        // Where the body's goal is now, on its curve.
        if let Some(goal) = preview.goals().and_then(|g| g.position(trace.body)) {
            overlay.push(LineSegment::point(world(goal.0), rgba(CURVE, 1.0), 10.0));
        }
    }
}

const FOOT_PLANTED: (u8, u8, u8) = (70, 225, 245);
const TERRAIN: (u8, u8, u8) = (150, 170, 120);
const FOOTPRINT: (u8, u8, u8) = (40, 150, 190);

/// Where a walking creature's feet stand: a ring on the ground under each planted foot, and
/// fading dots where feet stood before (the stride, and on the treadmill the ground sliding
/// back). Depth-tested, so a body in front hides them.
fn add_foot_marks(lines: &mut Vec<LineSegment>, preview: &CreaturePreview) {
    const SEGMENTS: usize = 16;
    // A slope or waves: the ground the feet stand on, where the flat grid is not.
    for [a, b] in &preview.ground_lines {
        lines.push(LineSegment::new(
            preview.offset + *a,
            preview.offset + *b,
            rgba(TERRAIN, 0.55),
            1.5,
        ));
    }
    let lift = |m: &FootMark| m.normal * (0.004 + 0.01 * m.size);
    for m in &preview.planted_feet {
        let centre = preview.offset + m.at + lift(m);
        let radius = (0.7 * m.size).max(0.03);
        // Two directions across the ground's normal.
        let u = m.normal.any_orthonormal_vector();
        let v = m.normal.cross(u);
        let at = |k: usize| {
            let a = std::f32::consts::TAU * k as f32 / SEGMENTS as f32;
            centre + (u * a.cos() + v * a.sin()) * radius
        };
        for k in 0..SEGMENTS {
            lines.push(LineSegment::new(
                at(k),
                at(k + 1),
                rgba(FOOT_PLANTED, 1.0),
                3.0,
            ));
        }
        lines.push(LineSegment::point(centre, rgba(FOOT_PLANTED, 1.0), 7.0));
    }
    let count = preview.footprints.len().max(1) as f32;
    for (i, m) in preview.footprints.iter().enumerate() {
        let fade = 0.25 + 0.5 * (i + 1) as f32 / count;
        lines.push(LineSegment::point(
            preview.offset + m.at + lift(m),
            rgba(FOOTPRINT, fade),
            6.0,
        ));
    }
}

fn add_target_handles(out: &mut BuiltScene, hovered: bool) {
    let size = if hovered { 20.0 } else { 16.0 };
    for at in out.target_handles.iter().map(|h| h.world) {
        out.scene
            .overlay
            .push(LineSegment::point(at, [0.0, 0.0, 0.0, 0.85], size + 4.0));
        out.scene
            .overlay
            .push(LineSegment::point(at, rgba(TARGET, 1.0), size));
        out.scene
            .overlay
            .push(LineSegment::point(at, [0.0, 0.0, 0.0, 0.85], size * 0.35));
        // A drop line to the ground tells how high the target floats.
        let ground = Vec3::new(at.x, 0.0, at.z);
        out.scene
            .lines
            .push(LineSegment::new(at, ground, rgba(TARGET, 0.5), 1.0));
    }
}

/// The rotation-free world box of a creature's current pose, for frame selected.
pub fn posed_bounds(creature: &Creature, preview: &CreaturePreview, body: Option<BodyId>) -> Aabb {
    let of = |b: BodyId| {
        let pose = preview.pose.get(b).copied().unwrap_or(BodyPose::IDENTITY);
        let rest = creature.body(b);
        Aabb::of_oriented_box(
            pose.position + preview.offset,
            pose.rotation,
            rest.half_extents.abs(),
        )
    };
    match body {
        Some(b) if b < creature.len() => of(b),
        _ => (0..creature.len()).fold(Aabb::EMPTY, |acc, b| acc.union(of(b))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anymorph_runtime::bind::bind;
    use anymorph_runtime::clip::{Channel, Clip};
    use anymorph_runtime::creature::Cap;
    use anymorph_runtime::query::{CapFilter, ContextQuery};

    fn preview_of(clip: &Clip, creature: &Creature) -> CreaturePreview {
        CreaturePreview {
            binding: bind(clip, creature),
            pipeline: None,
            pose: Vec::new(),
            offset: Vec3::ZERO,
            curves: Vec::new(),
            walker: None,
            layered: None,
            display_from_character: BodyPose::IDENTITY,
            planted_feet: Vec::new(),
            footprints: Vec::new(),
            ground_lines: Vec::new(),
        }
    }

    #[test]
    fn a_channel_without_keys_tints_what_it_selects_and_nothing_where_the_clip_does_not_play() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let biped =
            anymorph_io::load_creature(&root.join("sample_creatures/biped.creature.json")).unwrap();
        let snake =
            anymorph_io::load_creature(&root.join("sample_creatures/snake.creature.json")).unwrap();
        let mut clip = Clip::new("grasp", 1.0);
        let mut channel = Channel::new(
            "hands",
            ContextQuery {
                cap: CapFilter::Cap(Cap::Grasper),
                ..ContextQuery::default()
            },
        );
        channel.require = true;
        clip.channels.push(channel);
        let on_biped = preview_of(&clip, &biped);
        assert!(on_biped.binds());
        let tinted = moved_bodies(&on_biped, 0, Some(0));
        assert!(!tinted.is_empty(), "a keyless channel tints nothing");
        assert!(tinted.iter().all(|&b| biped.body(b).has_cap(&Cap::Grasper)));
        assert!(tinted.len() < biped.len());
        let on_snake = preview_of(&clip, &snake);
        assert!(!on_snake.binds(), "a snake has no graspers");
        assert!(moved_bodies(&on_snake, 0, Some(0)).is_empty());
        assert!(moved_bodies(&on_biped, 0, None).is_empty());
    }
}
