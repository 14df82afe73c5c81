//! The two unit meshes every body is drawn from: a cube (boxes) and a sphere split at its
//! equator (spheres, and capsules whose hemispheres the shader pushes apart).

use bytemuck::{Pod, Zeroable};
use std::f32::consts::{FRAC_PI_2, TAU};

/// A mesh vertex in body space, before the instance scales it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct MeshVertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    /// +1 on the upper hemisphere, -1 on the lower, 0 on the cube.
    pub hemisphere: f32,
}

/// Triangle list with 32-bit indices, counter-clockwise from outside.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshData {
    pub vertices: Vec<MeshVertex>,
    pub indices: Vec<u32>,
}

/// The cube from -1 to 1 with one flat normal per face.
pub fn unit_cube() -> MeshData {
    let mut mesh = MeshData::default();
    // (normal, u axis, v axis) with u × v = normal, so corners wind counter-clockwise.
    let faces: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
        ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]),
        ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
        ([0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]),
        ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
    ];
    for (n, u, v) in faces {
        let base = mesh.vertices.len() as u32;
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let p = [
                n[0] + su * u[0] + sv * v[0],
                n[1] + su * u[1] + sv * v[1],
                n[2] + su * u[2] + sv * v[2],
            ];
            mesh.vertices.push(MeshVertex {
                position: p,
                normal: n,
                hemisphere: 0.0,
            });
        }
        mesh.indices
            .extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    mesh
}

/// The unit sphere as two hemispheres that each own their equator ring, so a capsule's
/// straight segment appears between them when the shader pushes them apart.
pub fn split_sphere(segments: u32, rings_per_hemisphere: u32) -> MeshData {
    let segments = segments.max(3);
    let rings = rings_per_hemisphere.max(1);
    let mut mesh = MeshData::default();
    let stride = segments + 1;
    let mut equators = [0u32; 2];
    for (h, hemisphere) in [1.0f32, -1.0].into_iter().enumerate() {
        let base = mesh.vertices.len() as u32;
        equators[h] = base;
        // Ring 0 is the equator, ring `rings` the pole.
        for ring in 0..=rings {
            let latitude = FRAC_PI_2 * ring as f32 / rings as f32;
            let (y, r) = (latitude.sin() * hemisphere, latitude.cos());
            for s in 0..=segments {
                let longitude = TAU * s as f32 / segments as f32;
                let p = [r * longitude.cos(), y, r * longitude.sin()];
                mesh.vertices.push(MeshVertex {
                    position: p,
                    normal: p,
                    hemisphere,
                });
            }
        }
        for ring in 0..rings {
            for s in 0..segments {
                let a = base + ring * stride + s;
                let b = a + 1;
                let c = a + stride;
                let d = c + 1;
                if hemisphere > 0.0 {
                    mesh.indices.extend_from_slice(&[a, c, b, b, c, d]);
                } else {
                    mesh.indices.extend_from_slice(&[a, b, c, b, d, c]);
                }
            }
        }
    }
    // The capsule's straight wall joins the two equators; it has no area until the shader
    // pushes the hemispheres apart.
    let [upper, lower] = equators;
    for s in 0..segments {
        let (a, b) = (upper + s, upper + s + 1);
        let (c, d) = (lower + s, lower + s + 1);
        mesh.indices.extend_from_slice(&[c, a, d, a, b, d]);
    }
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// Every triangle's winding faces away from the centre: its geometric normal points the
    /// same way as its vertices' normals.
    /// `segment_half` pushes the hemispheres apart as the shader does for a capsule.
    fn assert_outward(mesh: &MeshData, segment_half: f32) {
        let at = |v: MeshVertex| Vec3::from(v.position) + Vec3::Y * v.hemisphere * segment_half;
        for t in mesh.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| mesh.vertices[t[k] as usize]);
            let pa = at(a);
            let face = (at(b) - pa).cross(at(c) - pa);
            if face.length() < 1e-6 {
                continue; // a sliver at a pole
            }
            let n = Vec3::from(a.normal) + Vec3::from(b.normal) + Vec3::from(c.normal);
            assert!(face.dot(n) > 0.0, "inward triangle {t:?}");
        }
    }

    #[test]
    fn cube_faces_outward() {
        let cube = unit_cube();
        assert_eq!(cube.indices.len(), 36);
        assert_outward(&cube, 0.0);
    }

    #[test]
    fn sphere_faces_outward_and_stays_on_the_unit_sphere() {
        let sphere = split_sphere(16, 6);
        assert_outward(&sphere, 0.0);
        // As a capsule, including the wall between the hemispheres.
        assert_outward(&sphere, 0.7);
        let walls = 16 * 6;
        assert_eq!(sphere.indices.len(), 2 * 16 * 6 * 6 + walls);
        for v in &sphere.vertices {
            assert!((Vec3::from(v.position).length() - 1.0).abs() < 1e-5);
            assert!(v.hemisphere * v.position[1] >= -1e-6);
        }
    }
}
