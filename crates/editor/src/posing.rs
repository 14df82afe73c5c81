//! Posing and keying through the movement modes (paper 3.2.1): the animator moves the active
//! body on the active creature; the pose is generalized with that body's `G` and keyed on the
//! channel, so every body the channel selects on every creature moves by its own `S`.
//!
//! The frames come from the runtime's own plan ([`anymorph_runtime::eval::Plan::motion_frame`]),
//! so the active body lands exactly where the runtime will put it.

use crate::command::Selection;
use crate::document::Document;
use crate::preview::Preview;
use anymorph_runtime::clip::{Channel, Clip};
use anymorph_runtime::creature::{BodyId, Side};
use anymorph_runtime::curve::KeyedCurve;
use anymorph_runtime::eval::default_external_target;
use anymorph_runtime::movement::MotionFrame;
use anymorph_runtime::movement::{RestBody, Surroundings};
use anymorph_runtime::pose::BodyPose;
use anymorph_runtime::query::SecondaryContext;
use glam::{Quat, Vec3};

/// The body the gizmo poses: the selected body, when the active channel moves it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActiveBody {
    pub creature: usize,
    pub body: BodyId,
    /// The channel's `S`/`G` for this body, as the runtime used it last frame.
    pub frame: MotionFrame,
    /// The body's rest pose, character space.
    pub rest: BodyPose,
    /// World = character + offset.
    pub offset: Vec3,
}

impl ActiveBody {
    pub fn find(
        doc: &Document,
        preview: &Preview,
        selection: Option<Selection>,
        channel: Option<usize>,
    ) -> Option<ActiveBody> {
        let sel = selection?;
        let body = sel.body?;
        let channel = channel?;
        let p = preview.creatures.get(sel.creature)?;
        let creature = &doc.roster.get(sel.creature)?.creature;
        if body >= creature.len() {
            return None;
        }
        let frame = match p
            .pipeline
            .as_ref()
            .and_then(|pl| pl.plan().motion_frame(channel, body))
        {
            Some(frame) => frame,
            // A channel with no keys yet has no track in the plan: build its frame the way
            // the plan would, for a body its query selects.
            None => {
                let ch = doc.shown_clip()?.channels.get(channel)?;
                if !ch.context.select(creature).contains(&body) {
                    return None;
                }
                let (rest, around, mirrored) = frame_inputs(doc, sel.creature, ch, body)?;
                MotionFrame::new(&ch.mode, &rest, &around, mirrored)
            }
        };
        let b = creature.body(body);
        Some(ActiveBody {
            creature: sel.creature,
            body,
            frame,
            rest: BodyPose::new(b.position, b.rotation),
            offset: p.offset,
        })
    }

    /// The channel's generalized value at `t`; a DOF without a curve holds the rest pose.
    pub fn generalized(&self, channel: &Channel, t: f32) -> BodyPose {
        let at_rest = self.frame.generalize(self.rest);
        BodyPose {
            position: channel
                .position
                .as_ref()
                .and_then(|c| c.sample(t))
                .unwrap_or(at_rest.position),
            rotation: channel
                .rotation
                .as_ref()
                .and_then(|c| c.sample(t))
                .unwrap_or(at_rest.rotation),
        }
    }

    /// Where the channel puts the body at `t`, character space.
    pub fn specialized(&self, channel: &Channel, t: f32) -> BodyPose {
        self.frame.specialize(self.generalized(channel, t))
    }
}

/// What `S` and `G` of `channel` depend on for one body: its rest data, the surroundings
/// (the secondary target as the preview places it, flat ground) and whether it is mirrored.
pub fn frame_inputs(
    doc: &Document,
    creature: usize,
    channel: &Channel,
    body: BodyId,
) -> Option<(RestBody, Surroundings, bool)> {
    let creature = &doc.roster.get(creature)?.creature;
    let target = match &channel.secondary {
        Some(SecondaryContext::ExternalTarget(i)) => Some(
            doc.shown_targets()
                .get(*i)
                .copied()
                .unwrap_or_else(|| default_external_target(creature)),
        ),
        Some(SecondaryContext::Query(q)) => q
            .select(creature)
            .first()
            .map(|&b| creature.body(b).position),
        None => None,
    };
    let mirrored = channel.variant.mirror && creature.side(body) == Side::Right;
    Some((
        RestBody::of(creature, body),
        Surroundings {
            target,
            ground_height: 0.0,
        },
        mirrored,
    ))
}

/// Which degrees of freedom a key writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dofs {
    pub position: bool,
    pub rotation: bool,
}

impl Dofs {
    pub const BOTH: Dofs = Dofs {
        position: true,
        rotation: true,
    };
}

/// `t` on the clip's frame grid, inside the clip.
pub fn snap_to_frame(clip: &Clip, t: f32) -> f32 {
    let fps = if clip.fps > 0.0 { clip.fps } else { 30.0 };
    ((t * fps).round() / fps).clamp(0.0, clip.duration_secs.max(0.0))
}

/// Keys the generalized pose `qg` on `channel` at `t`, adding curves a DOF lacks. Returns
/// `None` (and leaves the clip alone) if the result would not be a valid clip.
pub fn key_pose(clip: &Clip, channel: usize, t: f32, qg: BodyPose, dofs: Dofs) -> Option<Clip> {
    if !qg.position.is_finite() || !qg.rotation.is_finite() {
        return None;
    }
    let mut out = clip.clone();
    let ch = out.channels.get_mut(channel)?;
    if dofs.position {
        ch.position
            .get_or_insert_with(KeyedCurve::empty)
            .set_key(t, qg.position)
            .ok()?;
    }
    if dofs.rotation {
        let curve = ch.rotation.get_or_insert_with(KeyedCurve::empty);
        // Stay in the hemisphere of the curve's value here, so the key does not spin the
        // long way round.
        let near = curve.sample(t).unwrap_or(Quat::IDENTITY);
        let q = if qg.rotation.dot(near) < 0.0 {
            -qg.rotation
        } else {
            qg.rotation
        };
        curve.set_key(t, q.normalize()).ok()?;
    }
    out.validate().ok()?;
    Some(out)
}

/// Keys the channel's current value at `t` on every DOF it animates (position and rotation
/// when it animates none yet).
pub fn key_current(
    clip: &Clip,
    channel: usize,
    t: f32,
    active: Option<&ActiveBody>,
) -> Option<Clip> {
    let ch = clip.channels.get(channel)?;
    let mut dofs = Dofs {
        position: ch.position.is_some(),
        rotation: ch.rotation.is_some(),
    };
    if !dofs.position && !dofs.rotation {
        dofs = Dofs::BOTH;
    }
    let qg = match active {
        Some(a) => a.generalized(ch, t),
        None => BodyPose {
            position: ch
                .position
                .as_ref()
                .and_then(|c| c.sample(t))
                .unwrap_or(Vec3::ZERO),
            rotation: ch
                .rotation
                .as_ref()
                .and_then(|c| c.sample(t))
                .unwrap_or(Quat::IDENTITY),
        },
    };
    key_pose(clip, channel, t, qg, dofs)
}

/// Removes the channel's keys at `t` (within half a frame) on every curve; `None` when there
/// were none.
pub fn delete_keys_at(clip: &Clip, channel: usize, t: f32) -> Option<Clip> {
    let half_frame = 0.5 / clip.fps.max(1.0);
    let mut out = clip.clone();
    let ch = out.channels.get_mut(channel)?;
    let mut removed = false;
    fn strip<T: anymorph_runtime::curve::Keyable>(
        c: &mut Option<KeyedCurve<T>>,
        t: f32,
        tol: f32,
    ) -> bool {
        let Some(curve) = c else { return false };
        let mut any = false;
        while let Some(i) = curve.keys().iter().position(|k| (k.time - t).abs() <= tol) {
            curve.remove(i);
            any = true;
        }
        if curve.is_empty() {
            *c = None;
        }
        any
    }
    removed |= strip(&mut ch.position, t, half_frame);
    removed |= strip(&mut ch.rotation, t, half_frame);
    removed |= strip(&mut ch.position_weight, t, half_frame);
    removed |= strip(&mut ch.rotation_weight, t, half_frame);
    if !removed {
        return None;
    }
    out.validate().ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use anymorph_runtime::query::ContextQuery;

    fn clip() -> Clip {
        let mut c = Clip::new("c", 2.0);
        c.channels.push(Channel::new("ch", ContextQuery::default()));
        c
    }

    #[test]
    fn keys_are_written_and_deleted_at_the_time() {
        let pose = BodyPose::new(Vec3::new(0.1, 0.2, 0.3), Quat::from_rotation_y(0.5));
        let c = key_pose(&clip(), 0, 0.5, pose, Dofs::BOTH).unwrap();
        let ch = &c.channels[0];
        assert_eq!(
            ch.position.as_ref().unwrap().sample(0.5),
            Some(pose.position)
        );
        let q = ch.rotation.as_ref().unwrap().sample(0.5).unwrap();
        assert!(q.abs_diff_eq(pose.rotation, 1e-6));
        let d = delete_keys_at(&c, 0, 0.51).unwrap();
        assert!(d.channels[0].position.is_none());
        assert!(delete_keys_at(&d, 0, 0.5).is_none());
    }

    #[test]
    fn non_finite_poses_are_refused() {
        let pose = BodyPose::new(Vec3::NAN, Quat::IDENTITY);
        assert!(key_pose(&clip(), 0, 0.5, pose, Dofs::BOTH).is_none());
    }

    #[test]
    fn times_snap_to_frames_inside_the_clip() {
        let c = clip();
        assert_eq!(snap_to_frame(&c, 0.51), 15.0 / 30.0);
        assert_eq!(snap_to_frame(&c, 9.0), 2.0);
    }
}
