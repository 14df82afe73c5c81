//! Ray casts against drawn bodies, on the CPU: what is under the mouse.

use crate::camera::Ray;
use crate::scene::BodyInstance;
use anymorph_runtime::creature::Shape;
use glam::Vec3;

/// The distance along `ray` to the body's drawn surface (box, capsule or sphere), if hit.
pub fn hit_body(ray: &Ray, body: &BodyInstance) -> Option<f32> {
    let to_local = body.rotation.inverse();
    let origin = to_local * (ray.origin - body.position);
    let direction = to_local * ray.direction;
    let extent = body.extent();
    match body.shape {
        Shape::Box => hit_box(origin, direction, extent.scale),
        Shape::Sphere => hit_sphere(origin, direction, Vec3::ZERO, extent.scale.x),
        Shape::Capsule => hit_capsule(origin, direction, extent.segment_half, extent.scale.x),
    }
}

/// The nearest body a ray hits: its index in `bodies` and the distance.
pub fn pick_body(ray: &Ray, bodies: &[BodyInstance]) -> Option<(usize, f32)> {
    bodies
        .iter()
        .enumerate()
        .filter_map(|(i, b)| hit_body(ray, b).map(|t| (i, t)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

/// Slab test against the box from `-half` to `half`.
fn hit_box(origin: Vec3, direction: Vec3, half: Vec3) -> Option<f32> {
    let inv = direction.recip();
    let t0 = (-half - origin) * inv;
    let t1 = (half - origin) * inv;
    let near = t0.min(t1).max_element();
    let far = t0.max(t1).min_element();
    (near <= far && far >= 0.0 && near.is_finite()).then_some(near.max(0.0))
}

fn hit_sphere(origin: Vec3, direction: Vec3, center: Vec3, radius: f32) -> Option<f32> {
    let oc = origin - center;
    let b = oc.dot(direction);
    let c = oc.length_squared() - radius * radius;
    let disc = b * b - c;
    if disc < 0.0 {
        return None;
    }
    let root = disc.sqrt();
    let t = if -b - root >= 0.0 {
        -b - root
    } else {
        -b + root
    };
    (t >= 0.0 && t.is_finite()).then_some(t)
}

/// A capsule along local Y: the segment from `-segment_half` to `segment_half`, swept by
/// `radius`.
fn hit_capsule(origin: Vec3, direction: Vec3, segment_half: f32, radius: f32) -> Option<f32> {
    let mut best: Option<f32> = None;
    let mut keep = |t: Option<f32>| {
        if let Some(t) = t {
            best = Some(best.map_or(t, |b| b.min(t)));
        }
    };
    // The side: an infinite cylinder around Y, kept where it lies along the segment.
    let (ox, oz, dx, dz) = (origin.x, origin.z, direction.x, direction.z);
    let a = dx * dx + dz * dz;
    if a > 1e-12 {
        let b = ox * dx + oz * dz;
        let c = ox * ox + oz * oz - radius * radius;
        let disc = b * b - a * c;
        if disc >= 0.0 {
            let root = disc.sqrt();
            for t in [(-b - root) / a, (-b + root) / a] {
                let y = origin.y + t * direction.y;
                if t >= 0.0 && y.abs() <= segment_half {
                    keep(Some(t));
                }
            }
        }
    }
    for end in [-segment_half, segment_half] {
        keep(hit_sphere(
            origin,
            direction,
            Vec3::new(0.0, end, 0.0),
            radius,
        ));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    fn body(shape: Shape, position: Vec3) -> BodyInstance {
        BodyInstance {
            position,
            rotation: Quat::from_rotation_z(0.3),
            half_extents: Vec3::new(0.1, 0.5, 0.1),
            shape,
            color: [1.0; 3],
            hovered: false,
            selected: false,
        }
    }

    fn ray_down_z(x: f32, y: f32) -> Ray {
        Ray {
            origin: Vec3::new(x, y, 5.0),
            direction: Vec3::NEG_Z,
        }
    }

    #[test]
    fn each_shape_is_hit_at_its_surface() {
        for shape in [Shape::Box, Shape::Capsule, Shape::Sphere] {
            let b = body(shape, Vec3::ZERO);
            let t = hit_body(&ray_down_z(0.0, 0.0), &b).unwrap();
            assert!((t - 4.9).abs() < 1e-4, "{shape:?} {t}");
        }
    }

    #[test]
    fn a_capsule_is_hit_along_its_length_but_a_sphere_is_not() {
        // Along the rotated Y axis, 0.4 from the centre.
        let along = Quat::from_rotation_z(0.3) * Vec3::new(0.0, 0.4, 0.0);
        let ray = ray_down_z(along.x, along.y);
        assert!(hit_body(&ray, &body(Shape::Capsule, Vec3::ZERO)).is_some());
        assert!(hit_body(&ray, &body(Shape::Sphere, Vec3::ZERO)).is_none());
        assert!(hit_body(&ray, &body(Shape::Box, Vec3::ZERO)).is_some());
    }

    #[test]
    fn the_nearest_body_wins() {
        let far = body(Shape::Box, Vec3::new(0.0, 0.0, -2.0));
        let near = body(Shape::Box, Vec3::ZERO);
        let (i, _) = pick_body(&ray_down_z(0.0, 0.0), &[far, near]).unwrap();
        assert_eq!(i, 1);
        assert!(pick_body(&ray_down_z(3.0, 0.0), &[far, near]).is_none());
    }
}
