//! Where each creature stands in the world: side by side in rows, facing the front (+Z),
//! each in its own slot so none overlap whatever their sizes.

use anymorph_runtime::math::Aabb;
use glam::Vec3;

/// World offset of each creature's character space (world = character + offset), from
/// their rest bounds. Rows run along X, in roster order; later rows stand further back.
pub fn side_by_side(bounds: &[Aabb]) -> Vec<Vec3> {
    let n = bounds.len();
    if n == 0 {
        return Vec::new();
    }
    // About twice as wide as deep, and rows balanced (6 → 3 + 3, not 4 + 2).
    let rows = n.div_ceil((2.0 * n as f32).sqrt().ceil() as usize).max(1);
    let per_row = n.div_ceil(rows);
    let sizes: Vec<Vec3> = bounds
        .iter()
        .map(|b| b.size().max(Vec3::splat(0.05)))
        .collect();
    let largest = sizes.iter().fold(Vec3::ZERO, |m, s| m.max(*s));
    let gap = (0.35 * largest.x.max(largest.z)).max(0.3);
    // Rows stand well apart so a back row's labels clear the front row's heads.
    let row_gap = gap + 0.5 * largest.y;
    let mut offsets = vec![Vec3::ZERO; n];
    let mut row_z = 0.0;
    for row in 0..rows {
        let members: Vec<usize> = (row * per_row..((row + 1) * per_row).min(n)).collect();
        let width: f32 =
            members.iter().map(|&i| sizes[i].x).sum::<f32>() + gap * (members.len() as f32 - 1.0);
        let depth = members.iter().map(|&i| sizes[i].z).fold(0.0, f32::max);
        // Seen from the front (the default camera, at +Z), world +X is on the right: the
        // roster reads left to right on screen.
        let mut x = -width * 0.5;
        for &i in &members {
            let slot_center = x + sizes[i].x * 0.5;
            let c = bounds[i].center();
            offsets[i] = Vec3::new(slot_center - c.x, 0.0, row_z - c.z);
            x += sizes[i].x + gap;
        }
        row_z -= depth + row_gap;
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(sizes: &[f32]) -> Vec<Aabb> {
        sizes
            .iter()
            .map(|&s| Aabb::from_points([Vec3::new(-s, 0.0, -s), Vec3::new(s, 2.0 * s, s)]))
            .collect()
    }

    #[test]
    fn no_two_creatures_overlap() {
        for n in [1, 2, 6, 8, 16] {
            let b = boxes(
                &(0..n)
                    .map(|i| 0.2 + 0.3 * (i % 4) as f32)
                    .collect::<Vec<_>>(),
            );
            let o = side_by_side(&b);
            for i in 0..n {
                for j in i + 1..n {
                    let a = Aabb {
                        min: b[i].min + o[i],
                        max: b[i].max + o[i],
                    };
                    let c = Aabb {
                        min: b[j].min + o[j],
                        max: b[j].max + o[j],
                    };
                    let apart = a.max.x < c.min.x
                        || c.max.x < a.min.x
                        || a.max.z < c.min.z
                        || c.max.z < a.min.z;
                    assert!(apart, "{n} creatures: {i} and {j} overlap");
                }
            }
        }
    }

    #[test]
    fn rows_are_balanced_and_wider_than_deep() {
        let o = side_by_side(&boxes(&[0.5; 6]));
        let rows: std::collections::BTreeSet<i32> =
            o.iter().map(|v| (v.z * 100.0) as i32).collect();
        assert_eq!(rows.len(), 2);
        let o = side_by_side(&boxes(&[0.5; 16]));
        let rows: std::collections::BTreeSet<i32> =
            o.iter().map(|v| (v.z * 100.0) as i32).collect();
        assert_eq!(rows.len(), 3);
    }
}
