//! Pictures of the worst moment of a cell (feature `editor`): the pose replayed by
//! [`super::pose_at`], drawn offscreen by [`anymorph_render`] with the failing body in red.

use super::{CellReport, ValidationConfig, pose_at};
use anymorph_render::{BodyInstance, Camera, Ground, OffscreenRenderer, RenderError, Scene};
use anymorph_runtime::clip::Clip;
use anymorph_runtime::creature::Creature;
use anymorph_runtime::math::Aabb;
use glam::Vec3;
use std::path::Path;
use std::sync::Arc;

/// One offscreen device reused for every picture of a run.
pub struct ThumbnailRenderer {
    renderer: OffscreenRenderer,
    pub width: u32,
    pub height: u32,
}

const BODY: [f32; 3] = [0.55, 0.6, 0.68];
const CULPRIT: [f32; 3] = [0.9, 0.12, 0.1];
/// The second body of a two-body check (what the culprit sank into), so a tester sees both.
const OTHER: [f32; 3] = [0.95, 0.6, 0.1];

impl ThumbnailRenderer {
    /// Fails when there is no adapter at all (not even a CPU one); the caller reports
    /// without pictures then.
    pub fn new(width: u32, height: u32) -> Result<Self, RenderError> {
        // MSAA would cost more than it shows at thumbnail size on a CPU rasterizer.
        Ok(ThumbnailRenderer {
            renderer: OffscreenRenderer::new(1)?,
            width,
            height,
        })
    }

    pub fn adapter_name(&self) -> &str {
        self.renderer.adapter_name()
    }

    /// Draws `cell` at its worst moment (or at rest pose, start of the clip, when it passes)
    /// into `path`. `Ok(false)` when there is no pose to show (the clip does not bind, or the
    /// moment is already NaN).
    pub fn render_cell(
        &mut self,
        clip: &Arc<Clip>,
        creature: &Arc<Creature>,
        cell: &CellReport,
        config: &ValidationConfig,
        path: &Path,
    ) -> Result<bool, RenderError> {
        let Some(first) = cell.variants.first() else {
            return Ok(false);
        };
        let (variant, failure) = match cell.worst() {
            Some((v, f)) => (v.variant, f.clone()),
            // A passing cell: its first frame in place.
            None => (
                first.variant,
                super::Failure {
                    check: super::Check::Nan,
                    time_secs: 0.0,
                    frame: 0,
                    body: String::new(),
                    value: 0.0,
                    limit: 0.0,
                    walking: false,
                    other: None,
                },
            ),
        };
        let Some(pose) = pose_at(
            clip,
            creature,
            config,
            variant,
            failure.frame,
            failure.walking,
        ) else {
            return Ok(false);
        };
        let other = failure.other.as_deref().unwrap_or("");
        let scene = scene(
            creature,
            &pose,
            (&failure.body, other),
            self.width,
            self.height,
        );
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| RenderError::Save {
                path: dir.display().to_string(),
                message: e.to_string(),
            })?;
        }
        self.renderer
            .render_png(&scene, self.width, self.height, path)?;
        Ok(true)
    }
}

/// The creature in `pose` (world space), framed from the front-left and a little above,
/// the way a tester first looks at a creature in the editor; `culprit` in red and `other` in
/// orange (empty names colour nothing).
pub fn scene(
    creature: &Creature,
    pose: &[anymorph_runtime::pose::BodyPose],
    (culprit, other): (&str, &str),
    width: u32,
    height: u32,
) -> Scene {
    let bodies: Vec<BodyInstance> = creature
        .bodies()
        .iter()
        .zip(pose)
        .map(|(b, p)| {
            let colour = if b.name == culprit {
                CULPRIT
            } else if !other.is_empty() && b.name == other {
                OTHER
            } else {
                BODY
            };
            BodyInstance::posed(b, p, colour)
        })
        .collect();
    let bounds = bodies
        .iter()
        .fold(Aabb::EMPTY, |acc, b| acc.union(b.bounds()));
    let center = bounds.center();
    let radius = (0.5 * bounds.size().length()).max(0.05);
    let fov_y_rad = 35f32.to_radians();
    let aspect = width as f32 / height.max(1) as f32;
    // Fit the bounding sphere in the narrower of the two fields of view.
    let half_fov = (0.5 * fov_y_rad).min(((0.5 * fov_y_rad).tan() * aspect).atan());
    let distance = radius / half_fov.sin() * 1.05;
    let dir = Vec3::new(0.55, 0.45, 1.0).normalize_or(Vec3::Z);
    let ground_height = 0.0;
    Scene {
        camera: Camera {
            eye: center + dir * distance,
            target: center,
            up: Vec3::Y,
            fov_y_rad,
            near: (distance - radius * 1.5).max(0.01 * distance),
            far: distance + radius * 4.0 + 10.0,
        },
        bodies,
        ground: Some(Ground::around(bounds, ground_height)),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anymorph_runtime::pose::BodyPose;

    /// A tester looking at an interpenetration sees both bodies: the one that failed in
    /// red, the one it sank into in orange, the rest grey.
    #[test]
    fn the_failing_body_and_what_it_sank_into_stand_out() {
        let creature = anymorph_io::samples::creatures()
            .unwrap()
            .into_iter()
            .find(|c| c.name() == "biped")
            .unwrap();
        let pose: Vec<BodyPose> = creature
            .bodies()
            .iter()
            .map(|b| BodyPose::new(b.position, b.rotation))
            .collect();
        let shown = scene(&creature, &pose, ("forearm_l", "spine_2"), 160, 120);
        let colour = |name: &str| shown.bodies[creature.find(name).unwrap()].color;
        assert_eq!(colour("forearm_l"), CULPRIT);
        assert_eq!(colour("spine_2"), OTHER);
        assert_eq!(colour("head"), BODY);
        let alone = scene(&creature, &pose, ("forearm_l", ""), 160, 120);
        assert!(alone.bodies.iter().all(|b| b.color != OTHER));
    }
}
