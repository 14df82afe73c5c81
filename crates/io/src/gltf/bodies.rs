//! Bones to bodies: where each bone ends, how low it reaches, and the box around it — fitted
//! to the mesh vertices it moves most, or else grown around the bone from its length.

use super::mesh::SkinnedMesh;
use super::skeleton::BodyExtras;
use anymorph_runtime::creature::{Cap, Shape};
use anymorph_runtime::math::frame_along;
use glam::{Affine3A, Mat4, Quat, Vec3};

/// Fewer vertices than this on a body and its box comes from the bone instead.
const MIN_POINTS: usize = 4;

/// Each body's bone in character space.
pub(super) struct Bones {
    pub joint: Vec<Vec3>,
    /// The node's rest rotation (scale removed).
    pub frame: Vec<Quat>,
    /// Where the bone ends: its main child's joint, or extrapolated for a leaf.
    pub end: Vec<Vec3>,
    pub end_is_child: Vec<bool>,
    /// Mesh vertices this body moves most.
    pub points: Vec<Vec<Vec3>>,
    /// The lowest height the bone reaches (joint, end, its vertices).
    pub low: Vec<f32>,
    /// Whether the rig has a mesh.
    pub skinned: bool,
}

pub(super) fn bones(
    world: &[Mat4],
    parent: &[Option<usize>],
    mesh: Option<&SkinnedMesh>,
    size: f32,
) -> Bones {
    let n = world.len();
    let joint: Vec<Vec3> = world.iter().map(|m| m.w_axis.truncate()).collect();
    let frame: Vec<Quat> = world
        .iter()
        .map(|m| {
            let (_, r, _) = m.to_scale_rotation_translation();
            if r.is_finite() {
                r.normalize()
            } else {
                Quat::IDENTITY
            }
        })
        .collect();
    let mut children = vec![Vec::new(); n];
    for (b, p) in parent.iter().enumerate() {
        if let Some(p) = *p {
            children[p].push(b);
        }
    }
    let tol = (0.01 * size).max(1e-4);
    // Per body: how many central bodies (on the sagittal plane) it and its descendants hold.
    let mut central_below: Vec<usize> = joint
        .iter()
        .map(|j| usize::from(j.x.abs() <= tol))
        .collect();
    for b in (0..n).rev() {
        if let Some(p) = parent[b] {
            central_below[p] += central_below[b];
        }
    }
    let min_len = 1e-4 * size.max(1e-3);
    let child_end = |b: usize| -> Option<Vec3> {
        let kids = &children[b];
        let central = |c: &usize| joint[*c].x.abs() <= tol;
        // A spine bone runs to the spine bone after it — not to a shoulder, and not to a
        // jaw (a central leaf beside other children): a head ends past its own tip.
        let onward = |c: &&usize| central(c) && (!children[**c].is_empty() || kids.len() == 1);
        let end = if joint[b].x.abs() <= tol && kids.iter().any(central) {
            let main = kids
                .iter()
                .filter(onward)
                .max_by_key(|&&c| (central_below[c], usize::MAX - c))?;
            joint[*main]
        } else if kids.is_empty() {
            return None;
        } else {
            kids.iter().map(|&c| joint[c]).sum::<Vec3>() / kids.len() as f32
        };
        (end.distance(joint[b]) > min_len).then_some(end)
    };
    // Rigs from Blender and most tools run each bone along its local +Y; when this rig does,
    // a leaf's own +Y says where it points better than its parent's direction does.
    let (along, total) = (0..n).fold((0, 0), |(a, t), b| {
        match (children[b].len(), child_end(b)) {
            (1, Some(e)) => {
                let dir = (e - joint[b]).normalize_or_zero();
                (a + usize::from((frame[b] * Vec3::Y).dot(dir) > 0.9), t + 1)
            }
            _ => (a, t),
        }
    });
    let y_along_bone = total > 0 && along * 5 >= total * 4;

    let mut points = vec![Vec::new(); n];
    if let Some(m) = mesh {
        for (v, p) in m.positions.iter().enumerate() {
            if let Some(b) = m.dominant_body(v).filter(|&b| b < n) {
                points[b].push(*p);
            }
        }
    }
    let mut end = Vec::with_capacity(n);
    let mut end_is_child = Vec::with_capacity(n);
    for b in 0..n {
        if let Some(e) = child_end(b) {
            end.push(e);
            end_is_child.push(true);
            continue;
        }
        let from_parent = parent[b].map(|p| joint[b] - joint[p]);
        let dir = if y_along_bone {
            frame[b] * Vec3::Y
        } else {
            from_parent
                .and_then(|d| d.try_normalize())
                .unwrap_or(Vec3::Y)
        };
        let fallback = from_parent
            .map_or(0.1 * size, |d| 0.5 * d.length())
            .max(0.02 * size);
        let reach = points[b]
            .iter()
            .map(|p| (*p - joint[b]).dot(dir))
            .fold(f32::NEG_INFINITY, f32::max);
        let length = if points[b].len() >= MIN_POINTS && reach > 0.01 * size {
            reach
        } else {
            fallback
        };
        end.push(joint[b] + dir * length);
        end_is_child.push(false);
    }
    let low = (0..n)
        .map(|b| {
            let y = joint[b].y.min(end[b].y);
            points[b].iter().fold(y, |y, p| y.min(p.y))
        })
        .collect();
    Bones {
        joint,
        frame,
        end,
        end_is_child,
        points,
        low,
        skinned: mesh.is_some(),
    }
}

impl Bones {
    /// Moves every bone by a rigid transform (into character space).
    pub fn transform(&mut self, m: Affine3A) {
        let turn = Quat::from_mat3a(&m.matrix3).normalize();
        for p in self.joint.iter_mut().chain(&mut self.end) {
            *p = m.transform_point3(*p);
        }
        for pts in &mut self.points {
            for p in pts {
                *p = m.transform_point3(*p);
            }
        }
        for f in &mut self.frame {
            *f = (turn * *f).normalize();
        }
        // A turn about +Y keeps heights; only the shift moves them.
        let dy = m.translation.y;
        for l in &mut self.low {
            *l += dy;
        }
    }
}

/// A body's rest centre, rotation, half extents and shape.
pub(super) struct BodyBox {
    pub position: Vec3,
    pub rotation: Quat,
    pub half_extents: Vec3,
    pub shape: Shape,
}

/// The box of body `b`: from Anymorph's own extras when the file has them, else fitted.
pub(super) fn body_box(
    bones: &Bones,
    b: usize,
    caps: &[Cap],
    extras: Option<&BodyExtras>,
    size: f32,
) -> BodyBox {
    let joint = bones.joint[b];
    if let Some(x) = extras {
        let frame = bones.frame[b];
        return BodyBox {
            position: joint + frame * x.center,
            rotation: (frame * x.rotation).normalize(),
            half_extents: x.half_extents,
            shape: x.shape,
        };
    }
    let bone = bones.end[b] - joint;
    // As in the sample creatures: feet, heads and face parts are boxes square to the
    // character; every other bone is a capsule along its local +Y with +Z to the front.
    let square = caps
        .iter()
        .any(|c| matches!(c, Cap::Foot | Cap::Head | Cap::Eye | Cap::Mouth | Cap::Ear));
    let rotation = if square {
        Quat::IDENTITY
    } else {
        frame_along(bone, Vec3::Z)
    };
    let shape = if caps.contains(&Cap::Eye) {
        Shape::Sphere
    } else if square {
        Shape::Box
    } else {
        Shape::Capsule
    };
    let length = bone.length();
    let mut pts: Vec<Vec3> = vec![joint];
    let pad = if bones.points[b].len() >= MIN_POINTS {
        pts.extend(bones.points[b].iter().copied());
        if bones.end_is_child[b] {
            pts.push(bones.end[b]);
        }
        0.002 * size
    } else {
        pts.push(bones.end[b]);
        if bones.skinned && bones.points[b].is_empty() {
            // A bone that moves no vertex of a skinned rig is a control: keep it thin.
            0.005 * size
        } else {
            (0.15 * length).clamp(0.005 * size, 0.05 * size)
        }
    };
    let inverse = rotation.inverse();
    let (lo, hi) = pts.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| {
            let l = inverse * (*p - joint);
            (lo.min(l), hi.max(l))
        },
    );
    let center = (lo + hi) * 0.5;
    let mut half = (hi - lo) * 0.5 + Vec3::splat(pad);
    if shape == Shape::Sphere {
        half = Vec3::splat(half.max_element());
    }
    BodyBox {
        position: joint + rotation * center,
        rotation,
        half_extents: half,
        shape,
    }
}
