//! From the rig's space to Anymorph's character space (+Y up, +Z front, +X left, metres,
//! ground at `y = 0`, sagittal plane `x = 0`).
//!
//! glTF already is +Y up, +Z front and metres (node scales are applied through the world
//! matrices), so most rigs need only a shift. A rig modelled facing another way is turned by a
//! multiple of 90° about +Y, judged from what its names say: left/right names tell where its
//! left is; failing that, a lying spine's head end or the feet's toes tell where its front is.

use glam::{Affine3A, Quat, Vec3};

/// What the importer needs to know about each body to place the rig.
pub(super) struct PlacementInput<'a> {
    /// Joint positions in the file's scene space.
    pub joints: &'a [Vec3],
    /// +1 for a body named as on the left, -1 on the right, 0 otherwise.
    pub named_side: &'a [i8],
    /// Bodies named as a head, and as feet and toes.
    pub heads: &'a [usize],
    pub feet: &'a [usize],
    pub toes: &'a [usize],
    /// Points that may touch the ground (joints and mesh vertices), scene space.
    pub lowest_y: f32,
    /// The top body's joint, which is put on the sagittal plane.
    pub root: usize,
    pub size: f32,
}

/// The rigid move into character space and what it did, for the import report.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Placement {
    pub character_from_scene: Affine3A,
    /// Degrees turned about +Y (0, 90, 180 or 270).
    pub turned_degrees: u32,
    /// Why the rig was (or was not) turned.
    pub facing: String,
    /// The shift applied after turning, metres.
    pub shift: Vec3,
}

pub(super) fn place(input: &PlacementInput) -> Placement {
    let (front, facing) = front_estimate(input);
    // Snap to the nearest horizontal axis: rigs are modelled axis-aligned, and a small tilt
    // in the estimate must not tilt the creature.
    let quarter_turns = if front.length_squared() < 1e-12 {
        0
    } else if front.z.abs() >= front.x.abs() {
        if front.z >= 0.0 { 0 } else { 2 }
    } else if front.x >= 0.0 {
        // Front along +X: turning −90° about +Y takes +X to +Z.
        3
    } else {
        1
    };
    let turn = Quat::from_rotation_y(quarter_turns as f32 * std::f32::consts::FRAC_PI_2);
    let root = turn * input.joints.get(input.root).copied().unwrap_or(Vec3::ZERO);
    let shift = Vec3::new(-root.x, -input.lowest_y, 0.0);
    let facing = if quarter_turns == 0 {
        format!("faces +Z as glTF says ({facing})")
    } else {
        format!(
            "turned {}° about +Y to face +Z ({facing})",
            quarter_turns * 90
        )
    };
    Placement {
        character_from_scene: Affine3A::from_translation(shift) * Affine3A::from_quat(turn),
        turned_degrees: quarter_turns * 90,
        facing,
        shift,
    }
}

/// The rig's front as a horizontal direction in scene space, and which cue gave it.
fn front_estimate(input: &PlacementInput) -> (Vec3, String) {
    let horizontal = |v: Vec3| Vec3::new(v.x, 0.0, v.z);
    let mean = |ids: &mut dyn Iterator<Item = usize>| {
        let (sum, n) = ids.fold((Vec3::ZERO, 0), |(s, n), i| {
            (
                s + input.joints.get(i).copied().unwrap_or(Vec3::ZERO),
                n + 1,
            )
        });
        (n > 0).then(|| sum / n as f32)
    };
    let side = |s: i8| {
        let mut it = (0..input.joints.len()).filter(move |&i| input.named_side.get(i) == Some(&s));
        mean(&mut it)
    };
    let significant = 0.05 * input.size;
    if let (Some(left), Some(right)) = (side(1), side(-1)) {
        let left_dir = horizontal(left - right);
        if left_dir.length() > significant {
            // +X left and +Y up make +Z front: front = left × up.
            return (
                left_dir.cross(Vec3::Y),
                "from its left and right names".into(),
            );
        }
    }
    if let Some(head) = mean(&mut input.heads.iter().copied()) {
        let root = input.joints.get(input.root).copied().unwrap_or(Vec3::ZERO);
        let along = horizontal(head - root);
        // Only a lying body tells its front by where its head is.
        if along.length() > significant && along.length() > (head.y - root.y).abs() {
            return (along, "from where its head lies".into());
        }
    }
    let pairs: Vec<Vec3> = input
        .toes
        .iter()
        .filter_map(|&t| {
            let toe = input.joints.get(t)?;
            let foot = input
                .feet
                .iter()
                .filter_map(|&f| input.joints.get(f))
                .min_by(|a, b| a.distance(*toe).total_cmp(&b.distance(*toe)))?;
            Some(horizontal(*toe - *foot))
        })
        .collect();
    let toes: Vec3 = pairs.iter().sum();
    if toes.length() > 0.01 * input.size {
        return (toes, "from where its toes point".into());
    }
    (
        Vec3::Z,
        "no left/right names, lying head or toes to judge by".into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(joints: &'a [Vec3], sides: &'a [i8]) -> PlacementInput<'a> {
        PlacementInput {
            joints,
            named_side: sides,
            heads: &[],
            feet: &[],
            toes: &[],
            lowest_y: -0.5,
            root: 0,
            size: 2.0,
        }
    }

    #[test]
    fn a_rig_facing_minus_z_is_turned_by_its_side_names() {
        // Left hand at −X: the rig faces −Z.
        let joints = [
            Vec3::new(0.2, 1.0, 0.0),
            Vec3::new(-0.5, 1.0, 0.0),
            Vec3::new(0.9, 1.0, 0.0),
        ];
        let p = place(&input(&joints, &[0, 1, -1]));
        assert_eq!(p.turned_degrees, 180);
        let left = p.character_from_scene.transform_point3(joints[1]);
        assert!(left.x > 0.0, "{left}");
        let root = p.character_from_scene.transform_point3(joints[0]);
        assert!(root.x.abs() < 1e-6 && (root.y - 1.5).abs() < 1e-6, "{root}");
    }

    #[test]
    fn a_rig_facing_plus_x_turns_a_quarter() {
        // Left at −Z: front = left × up = +X.
        let joints = [
            Vec3::ZERO,
            Vec3::new(0.0, 0.0, -0.5),
            Vec3::new(0.0, 0.0, 0.5),
        ];
        let p = place(&input(&joints, &[0, 1, -1]));
        assert_eq!(p.turned_degrees, 270);
        let left = p.character_from_scene.transform_point3(joints[1]);
        assert!(left.x > 0.4 && left.z.abs() < 1e-5, "{left}");
        let p = place(&input(&joints, &[0, 0, 0]));
        assert_eq!(p.turned_degrees, 0);
    }
}
