//! Writes the sample clip library to `assets/clips/*.clip.json`.
//!
//! Run `cargo run --example build_sample_clips` after changing a definition here. The clips
//! are plain data once written: the editor may refine them further.

use anymorph::io::save_clip;
use anymorph::runtime::clip::{
    Branch, Channel, Clip, ClipEvent, Predicate, SideConstraint, VariantSettings,
};
use anymorph::runtime::creature::Cap;
use anymorph::runtime::curve::{Key, KeyedCurve};
use anymorph::runtime::movement::{
    LookAtLimits, MovementMode, PositionMode, RotationMode, ScaleMode,
};
use anymorph::runtime::query::{
    ContextQuery, FrontBack, LeftRight, QuerySpace, SecondaryContext, TopBottom,
};
use glam::{Quat, Vec3};
use std::path::Path;

fn positions(keys: &[(f32, [f32; 3])]) -> Option<KeyedCurve<Vec3>> {
    let keys = keys
        .iter()
        .map(|&(t, v)| Key::new(t, Vec3::from_array(v)))
        .collect();
    Some(KeyedCurve::new(keys).expect("sample position keys are valid"))
}

fn rotations(keys: &[(f32, Quat)]) -> Option<KeyedCurve<Quat>> {
    let keys = keys.iter().map(|&(t, q)| Key::new(t, q)).collect();
    Some(KeyedCurve::new(keys).expect("sample rotation keys are valid"))
}

fn scalars(keys: &[(f32, f32)]) -> KeyedCurve<f32> {
    let keys = keys.iter().map(|&(t, v)| Key::new(t, v)).collect();
    KeyedCurve::new(keys).expect("sample scalar keys are valid")
}

fn deg(d: f32) -> f32 {
    d.to_radians()
}

fn mode(position: PositionMode, rotation: RotationMode, scale: ScaleMode) -> MovementMode {
    MovementMode {
        position,
        rotation,
        scale,
        ..Default::default()
    }
}

fn single(group: Option<&str>, side: SideConstraint) -> VariantSettings {
    VariantSettings {
        single: true,
        group: group.map(Into::into),
        side,
        mirror: true,
    }
}

fn event(time_secs: f32, name: &str, channel: Option<&str>) -> ClipEvent {
    ClipEvent {
        time_secs,
        name: name.into(),
        channel: channel.map(Into::into),
        data: serde_json::Value::Null,
    }
}

fn needs(predicate: Predicate) -> Branch {
    Branch {
        predicate,
        expect: true,
    }
}

/// A branched action's predicates (paper section 4.1.1): graspers, and a spine upright or
/// prone as `upright` says.
fn graspers_and_spine(upright: bool) -> Vec<Branch> {
    vec![
        needs(Predicate::HasGraspers),
        Branch {
            predicate: Predicate::UprightSpine,
            expect: upright,
        },
    ]
}

fn idle_breathe() -> Clip {
    let mut clip = Clip::new("idle_breathe", 3.0);
    clip.intent = "Loopable breathing on any creature: the spine rises and falls by 0.6% of the creature's size and heads sway gently.".into();
    clip.looping = true;
    let mut breathe = Channel::new("breathe", ContextQuery::cap(Cap::Spine));
    breathe.mode = mode(
        PositionMode::RestRelative,
        RotationMode::RestRelative,
        ScaleMode::CreatureSize,
    );
    breathe.position = positions(&[(0.0, [0.0; 3]), (1.5, [0.0, 0.006, 0.0]), (3.0, [0.0; 3])]);
    let mut sway = Channel::new("head_sway", ContextQuery::cap(Cap::Head));
    sway.rotation = rotations(&[
        (0.0, Quat::IDENTITY),
        (0.75, Quat::from_rotation_y(deg(4.0))),
        (2.25, Quat::from_rotation_y(deg(-4.0))),
        (3.0, Quat::IDENTITY),
    ]);
    clip.channels = vec![breathe, sway];
    clip
}

/// The wave in its two branches (paper section 4.1.1): one hand raised, swayed and rocked.
/// `lift` is how far up, in arm lengths; `rotation` is how the hand's rock is applied.
fn wave_branch(name: &str, intent: &str, upright: bool, lift: f32, rotation: RotationMode) -> Clip {
    let mut clip = Clip::new(name, 2.4);
    clip.intent = intent.into();
    clip.branches = graspers_and_spine(upright);
    let mut hand = Channel::new("hand", leading_graspers());
    hand.mode = mode(PositionMode::RestRelative, rotation, ScaleMode::LimbLength);
    hand.variant = single(None, SideConstraint::None);
    hand.require = true;
    // A prone creature's arm often points straight ahead already: farther ahead is out of reach.
    let ahead = if upright { 0.15 } else { 0.0 };
    hand.position = positions(&[
        (0.0, [0.0, 0.0, 0.0]),
        (0.5, [0.25, lift, ahead]),
        (0.8, [0.35, lift, ahead]),
        (1.1, [0.15, lift, ahead]),
        (1.4, [0.35, lift, ahead]),
        (1.7, [0.2, lift, ahead]),
        (2.4, [0.0, 0.0, 0.0]),
    ]);
    hand.rotation = rotations(&[
        (0.0, Quat::IDENTITY),
        (0.5, Quat::IDENTITY),
        (0.8, Quat::from_rotation_z(deg(-20.0))),
        (1.1, Quat::from_rotation_z(deg(20.0))),
        (1.4, Quat::from_rotation_z(deg(-20.0))),
        (1.7, Quat::IDENTITY),
        (2.4, Quat::IDENTITY),
    ]);
    hand.rotation_weight = Some(scalars(&[(0.0, 0.0), (0.4, 1.0), (1.8, 1.0), (2.4, 0.0)]));
    clip.channels = vec![hand];
    clip.events = vec![event(0.8, "wave_sound", Some("hand"))];
    clip
}

/// An upright creature's wave: the hand high, fingers up. Fingers up from the start to the
/// end: while the rotation's weight ramps in and out the goal holds still, so the hand turns
/// from its rest toward it along one path. A goal that itself turned half round (from a
/// hanging hand's 170 degrees) while its weight ramped crossed the far side of the hand's
/// rest rotation, where the blend's shortest way round flips: the wrist jumped on most
/// creatures (18 cells of the grid).
fn wave() -> Clip {
    wave_branch(
        "wave",
        "An upright creature raises one of its front graspers by most of its arm's length and waves it side to side, fingers up: the game picks which one. wave_prone is the same wave for prone creatures.",
        true,
        0.95,
        RotationMode::Absolute,
    )
}

/// A prone creature's wave: its graspers often point forward under the trunk, where "up by
/// most of the arm" is inside the belly and beyond reach, and "fingers up" turns the hand
/// half round (the upright wave failed 30 of its 137 prone cells, 28 of them missing the
/// goal). The paw lifts by less and rocks about its own rest rotation.
fn wave_prone() -> Clip {
    wave_branch(
        "wave_prone",
        "A prone creature lifts one of its front graspers by 40% of its arm's length and waves it side to side, rocking it about its rest: the branch of wave for creatures whose spine is not upright.",
        false,
        0.4,
        RotationMode::RestRelative,
    )
}

fn reach_target() -> Clip {
    let mut clip = Clip::new("reach_target", 1.8);
    clip.intent = "Reach one grasper to external target 0 in a slight underhand arc and back; the game picks the grasper, e.g. the one closest to the target.".into();
    clip.branches = vec![needs(Predicate::HasGraspers)];
    let mut hand = Channel::new("reach", ContextQuery::cap(Cap::Grasper));
    hand.mode = mode(
        PositionMode::SecondaryRelative,
        RotationMode::RestRelative,
        ScaleMode::LimbLength,
    );
    hand.secondary = Some(SecondaryContext::ExternalTarget(0));
    hand.variant = single(None, SideConstraint::None);
    hand.require = true;
    // The arc dips a tenth of the arm below the line to the target. Arched a fifth above it,
    // a hanging arm came up high early and straightened while the goal still rushed on
    // toward a target beyond reach: the shoulder snapped round in two frames (jitter) on
    // the biped, the giant, branching_leg and the floater, and belly graspers arched into
    // their trunk. Dipping, 10 more of the grid's 168 reach cells pass, those four among
    // them, and none newly fails.
    hand.position = positions(&[
        (0.0, [0.0, 0.0, 0.0]),
        (0.3, [0.45, -0.1, 0.0]),
        (0.6, [1.0, 0.0, 0.0]),
        (1.1, [1.0, 0.0, 0.0]),
        (1.8, [0.0, 0.0, 0.0]),
    ]);
    clip.channels = vec![hand];
    clip.events = vec![event(0.6, "touch", Some("reach"))];
    clip
}

/// The pick-up in its two branches (paper section 4.1.1): one hand down to the ground and
/// back up, on time whatever the grasper's height, while the spine bodies `bending` bend by
/// `bend_deg`. `ahead` is how far in front of its rest the hand reaches the ground, in arm
/// lengths.
fn pick_up_branch(
    name: &str,
    intent: &str,
    upright: bool,
    (bending, bend_deg): (ContextQuery, f32),
    ahead: f32,
) -> Clip {
    let mut clip = Clip::new(name, 2.0);
    clip.intent = intent.into();
    clip.branches = graspers_and_spine(upright);
    let mut hand = Channel::new("grasp", leading_graspers());
    hand.mode = mode(
        PositionMode::GroundRelative,
        RotationMode::RestRelative,
        ScaleMode::LimbLength,
    );
    hand.variant = single(None, SideConstraint::None);
    hand.require = true;
    hand.position = positions(&[
        (0.0, [0.0, 0.0, 0.0]),
        (0.8, [0.0, 1.0, ahead]),
        (1.1, [0.0, 1.0, ahead]),
        (2.0, [0.0, 0.0, 0.0]),
    ]);
    let mut bend = Channel::new("bend", bending);
    bend.rotation = rotations(&[
        (0.0, Quat::IDENTITY),
        (0.8, Quat::from_rotation_x(deg(bend_deg))),
        (1.1, Quat::from_rotation_x(deg(bend_deg))),
        (2.0, Quat::IDENTITY),
    ]);
    clip.channels = vec![hand, bend];
    clip.events = vec![event(0.95, "grab", Some("grasp"))];
    clip
}

/// An upright creature bows deeply from the hips (85 degrees: every spine body in the top
/// half of the creature, its pelvis too) and reaches the ground half an arm ahead. With the
/// prone branch's slight bend the hand's pull alone bent the spine, which folded onto itself
/// or shook on long upright spines: the upright cells passed 17 of 31. Bowing 50 degrees
/// from the chest, 21; from the chest alone the hand still had to stretch the spine down to
/// the ground on creatures with short arms. Bowing from the hips, 30.
fn pick_up() -> Clip {
    pick_up_branch(
        "pick_up",
        "An upright creature bows and brings one of its front graspers down to the ground and back up, on time on every creature whatever its grasper height. pick_up_prone is the branch for prone creatures.",
        true,
        (upper_body(), 85.0),
        0.5,
    )
}

/// A prone creature bends only slightly: the top of its spine is its front half, neck and
/// head. A deep bend drove the head into the ground and lifted the hips off planted feet;
/// even 8 degrees lowered the front legs' shoulders farther than planted front feet could
/// follow as the creature walked (5 cells slipped; at 4 degrees none do). The limb's give
/// does the reaching, nearly straight down: farther ahead, a hand under the belly swept
/// through the legs in front of it. The prone cells pass 121 of 137 at 0.3 arm lengths
/// ahead and 8 degrees, 125 at 0.1, 132 at 0.1 and 4 degrees.
fn pick_up_prone() -> Clip {
    pick_up_branch(
        "pick_up_prone",
        "A prone creature brings one of its front graspers down to the ground and back up with a slight bend, on time whatever its grasper height: the branch of pick_up for creatures whose spine is not upright.",
        false,
        (top_of_spine(), 4.0),
        0.1,
    )
}

/// The front graspers among the graspers themselves (setspace): a creature with arms along
/// its body eats, claps, waves and picks up with the front pair; a hind hand brought forward
/// to the mouth passed through the front arm's shoulder (26 cells of the grid; clapping 9
/// more), and a middle pair waving or reaching down swept through the front arm. A creature
/// whose hands are side by side keeps them all.
fn leading_graspers() -> ContextQuery {
    ContextQuery {
        front_back: FrontBack::Front,
        space: QuerySpace::Setspace,
        ..ContextQuery::cap(Cap::Grasper)
    }
}

/// The upper half of the spine among the spine bodies themselves (setspace): a prone
/// creature's neck and head end, an upright one's chest, neck and head.
fn top_of_spine() -> ContextQuery {
    ContextQuery {
        top_bottom: TopBottom::Top,
        space: QuerySpace::Setspace,
        ..ContextQuery::cap(Cap::Spine)
    }
}

/// The spine bodies in the top half of the whole creature: an upright creature's pelvis,
/// chest, neck and head, where the legs are below.
fn upper_body() -> ContextQuery {
    ContextQuery {
        top_bottom: TopBottom::Top,
        ..ContextQuery::cap(Cap::Spine)
    }
}

fn hand_to_mouth() -> Clip {
    let mut clip = Clip::new("hand_to_mouth", 2.0);
    clip.intent =
        "Bring one of the front graspers to the mouth and back, wherever the mouth is relative to the hand."
            .into();
    clip.branches = vec![
        needs(Predicate::HasGraspers),
        needs(Predicate::HasCap(Cap::Mouth)),
    ];
    let mut hand = Channel::new("hand", leading_graspers());
    hand.mode = mode(
        PositionMode::SecondaryRelative,
        RotationMode::RestRelative,
        ScaleMode::LimbLength,
    );
    hand.secondary = Some(SecondaryContext::Query(ContextQuery::cap(Cap::Mouth)));
    hand.variant = single(None, SideConstraint::None);
    hand.require = true;
    // Up in front of the chest and back the same way, held 0.15 limb lengths across the line
    // to the mouth (in front of the face on a biped): at the mouth itself a biped's forearm
    // ran from the wrist at its face down through its upper chest.
    hand.position = positions(&[
        (0.0, [0.0, 0.0, 0.0]),
        (0.35, [0.45, 0.0, -0.3]),
        (0.7, [0.92, 0.0, -0.15]),
        (1.3, [0.92, 0.0, -0.15]),
        (1.65, [0.45, 0.0, -0.3]),
        (2.0, [0.0, 0.0, 0.0]),
    ]);
    clip.channels = vec![hand];
    clip.events = vec![event(0.8, "eat", Some("hand"))];
    clip
}

/// A grasper channel that swings toward the other grasper in play. Offsets across the line
/// between the hands are in limb lengths: a long-tailed creature with short arms keeps its
/// hands within their reach instead of clapping through its own chest. The frame's z is
/// x × up, which for a hand swinging toward the other side points backward: in front of the
/// body is negative z.
fn toward_other_grasper(
    name: &str,
    graspers: ContextQuery,
    variant: VariantSettings,
    keys: &[(f32, [f32; 3])],
) -> Channel {
    let mut c = Channel::new(name, graspers);
    c.mode = mode(
        PositionMode::SecondaryRelative,
        RotationMode::RestRelative,
        ScaleMode::LimbLength,
    );
    c.secondary = Some(SecondaryContext::Query(ContextQuery::cap(Cap::Grasper)));
    c.variant = variant;
    c.require = true;
    c.position = positions(keys);
    c
}

fn clap() -> Clip {
    let mut clip = Clip::new("clap", 2.0);
    clip.intent = "Clap two of the front graspers on opposite sides together three times in front of the body; each travels half way to the other.".into();
    clip.looping = true;
    clip.branches = vec![needs(Predicate::MinCount {
        cap: Cap::Grasper,
        count: 2,
    })];
    let keys = [
        (0.0, [0.0, 0.0, 0.0]),
        (0.35, [0.46, 0.086, -0.2211]),
        (0.6, [0.3, 0.086, -0.2211]),
        (0.85, [0.46, 0.086, -0.2211]),
        (1.1, [0.3, 0.086, -0.2211]),
        (1.35, [0.46, 0.086, -0.2211]),
        (2.0, [0.0, 0.0, 0.0]),
    ];
    clip.channels = vec![
        toward_other_grasper(
            "hand_a",
            leading_graspers(),
            single(Some("a"), SideConstraint::None),
            &keys,
        ),
        toward_other_grasper(
            "hand_b",
            leading_graspers(),
            single(Some("b"), SideConstraint::Opposite),
            &keys,
        ),
    ];
    clip.events = ["clap_1", "clap_2", "clap_3"]
        .iter()
        .zip([0.35, 0.85, 1.35])
        .map(|(n, t)| event(t, n, Some("hand_a")))
        .collect();
    clip
}

fn pass_fruit() -> Clip {
    let mut clip = Clip::new("pass_fruit", 2.2);
    clip.intent = "Hand a fruit from one front grasper to another on the other side of the body: the giver reaches half way, the receiver meets it and takes it.".into();
    clip.branches = vec![needs(Predicate::MinCount {
        cap: Cap::Grasper,
        count: 2,
    })];
    clip.channels = vec![
        toward_other_grasper(
            "giver",
            leading_graspers(),
            single(Some("giver"), SideConstraint::None),
            &[
                (0.0, [0.0; 3]),
                (0.9, [0.5, 0.1228, -0.172]),
                (1.3, [0.5, 0.1228, -0.172]),
                (2.2, [0.0; 3]),
            ],
        ),
        // Across the body: front graspers on one side are often a front and a middle pair
        // of arms, and a fruit handed along the flank between them met inside the arms
        // (4 cells of the grid; no creature that bound stops binding).
        toward_other_grasper(
            "receiver",
            leading_graspers(),
            single(Some("receiver"), SideConstraint::Opposite),
            &[
                (0.0, [0.0; 3]),
                (0.8, [0.25, 0.086, -0.172]),
                (1.1, [0.47, 0.1228, -0.172]),
                (1.4, [0.4, 0.1228, -0.172]),
                (2.2, [0.0; 3]),
            ],
        ),
    ];
    clip.events = vec![event(1.15, "handoff", Some("receiver"))];
    clip
}

/// The nod dips 8 degrees below the look. At 14 a head looking down at a low target nodded
/// its mouth into what sits below it: the hexapod's into its claw's coxa, a long-necked
/// head into its own trunk (the cells passed 179 of 185; at 8 degrees, 182). A head turns
/// at most 40 degrees toward the target (eased from 20): the target sweeps about 30 degrees
/// either side, and at the default 60 the heads of a many-headed creature turned into their
/// neighbours' necks (183 at 45 degrees, 184 at 40).
fn nod_lookat() -> Clip {
    let mut clip = Clip::new("nod_lookat", 2.0);
    clip.intent = "Every head turns to look at external target 0 and nods while looking; heads facing away from it fade out of the look.".into();
    clip.looping = true;
    let mut look = Channel::new("look", ContextQuery::cap(Cap::Head));
    look.mode = MovementMode {
        look_at: LookAtLimits {
            max_turn_rad: 40f32.to_radians(),
            ..LookAtLimits::default()
        },
        ..mode(
            PositionMode::RestRelative,
            RotationMode::LookAt,
            ScaleMode::None,
        )
    };
    look.secondary = Some(SecondaryContext::ExternalTarget(0));
    look.require = true;
    look.rotation = rotations(&[
        (0.0, Quat::IDENTITY),
        (0.4, Quat::from_rotation_x(deg(8.0))),
        (0.8, Quat::from_rotation_x(deg(-4.0))),
        (1.2, Quat::from_rotation_x(deg(8.0))),
        (1.6, Quat::IDENTITY),
        (2.0, Quat::IDENTITY),
    ]);
    clip.channels = vec![look];
    clip
}

fn dance() -> Clip {
    let mut clip = Clip::new("dance", 4.0);
    clip.intent = "A bouncy dance scaled to the creature's size: the body bobs and sways, graspers pump up and out, heads bob, feet stay planted.".into();
    clip.looping = true;
    let size_mode = mode(
        PositionMode::RestRelative,
        RotationMode::RestRelative,
        ScaleMode::CreatureSize,
    );
    let mut bounce = Channel::new("bounce", ContextQuery::cap(Cap::Spine));
    bounce.mode = size_mode;
    // Not mirrored: a spine body a hair right of the midline (a curved spine, a side neck)
    // would sway the other way and the spine's goals would fight.
    bounce.variant.mirror = false;
    bounce.position = positions(&[
        (0.0, [0.0, 0.0, 0.0]),
        (0.5, [0.02, -0.025, 0.0]),
        (1.0, [0.0, 0.0, 0.0]),
        (1.5, [-0.02, -0.025, 0.0]),
        (2.0, [0.0, 0.0, 0.0]),
        (2.5, [0.02, -0.025, 0.0]),
        (3.0, [0.0, 0.0, 0.0]),
        (3.5, [-0.02, -0.025, 0.0]),
        (4.0, [0.0, 0.0, 0.0]),
    ]);
    // In limb lengths (converted so the biped moves as it did in creature sizes): short
    // arms on a long creature pump within their reach.
    let limb_mode = mode(
        PositionMode::RestRelative,
        RotationMode::RestRelative,
        ScaleMode::LimbLength,
    );
    let pump: [(f32, [f32; 3]); 9] = [
        (0.0, [0.0, 0.0, 0.0]),
        (0.5, [0.0704, 0.4422, 0.0228]),
        (1.0, [0.0, 0.0983, 0.0137]),
        (1.5, [0.0704, 0.4422, 0.0228]),
        (2.0, [0.0, 0.0, 0.0]),
        (2.5, [0.0939, 0.2457, 0.0455]),
        (3.0, [0.0, 0.0983, 0.0137]),
        (3.5, [0.0939, 0.2457, 0.0455]),
        (4.0, [0.0, 0.0, 0.0]),
    ];
    // A grasper on the midline (under a prone creature's belly, mostly) has no "out", and
    // "up" is into its trunk: it pumps down on the same beat, by 0.2 of its arm at the
    // top of the pump, and owns its bodies before the side arms' channel (11 more of the
    // grid's dance cells pass, most of them belly graspers that had missed or shaken).
    let mut centre_arms = Channel::new(
        "centre_arms",
        ContextQuery {
            left_right: LeftRight::Center,
            ..ContextQuery::cap(Cap::Grasper)
        },
    );
    centre_arms.mode = limb_mode;
    let down = pump.map(|(t, [_, up, _])| (t, [0.0, -0.2 * up / 0.4422, 0.0]));
    centre_arms.position = positions(&down);
    let mut arms = Channel::new("arms", ContextQuery::cap(Cap::Grasper));
    arms.mode = limb_mode;
    arms.position = positions(&pump);
    let mut heads = Channel::new("heads", ContextQuery::cap(Cap::Head));
    heads.rotation = rotations(&[
        (0.0, Quat::IDENTITY),
        (0.5, Quat::from_rotation_x(deg(10.0))),
        (1.0, Quat::IDENTITY),
        (1.5, Quat::from_rotation_x(deg(10.0))),
        (2.0, Quat::IDENTITY),
        (2.5, Quat::from_rotation_y(deg(15.0))),
        (3.0, Quat::IDENTITY),
        (3.5, Quat::from_rotation_y(deg(-15.0))),
        (4.0, Quat::IDENTITY),
    ]);
    let mut feet = Channel::new("feet", ContextQuery::cap(Cap::Foot));
    feet.position = positions(&[(0.0, [0.0, 0.0, 0.0])]);
    feet.rotation = rotations(&[(0.0, Quat::IDENTITY)]);
    clip.channels = vec![bounce, centre_arms, arms, heads, feet];
    clip.events = [0.5, 1.5, 2.5, 3.5]
        .iter()
        .map(|&t| event(t, "beat", Some("bounce")))
        .collect();
    clip
}

fn roar() -> Clip {
    let mut clip = Clip::new("roar", 2.5);
    clip.intent =
        "Rear the upper spine back, then thrust forward with the mouth wide open, and settle."
            .into();
    clip.branches = vec![needs(Predicate::HasCap(Cap::Mouth))];
    let mut rear = Channel::new("rear", top_of_spine());
    // On a prone creature the top of the spine carries the front legs: reared 15 degrees
    // and thrust 10, its shoulders rose and fell farther than planted front feet could
    // follow, and a creature roaring as it walked dragged them (12 cells slipped, 21 of
    // 158 prone cells failed). At 10 and 5 degrees 2 still fail: the snake's thrust sank
    // its neck into the ground, and the wavy spine's front feet slipped. At 6 and 4 none
    // do; upright creatures pass either way, the open mouth carries the roar.
    rear.rotation = rotations(&[
        (0.0, Quat::IDENTITY),
        (0.6, Quat::from_rotation_x(deg(-6.0))),
        (1.2, Quat::from_rotation_x(deg(4.0))),
        (1.8, Quat::from_rotation_x(deg(3.0))),
        (2.5, Quat::IDENTITY),
    ]);
    let mut jaw = Channel::new("jaw", ContextQuery::cap(Cap::Mouth));
    jaw.mode = mode(
        PositionMode::RestRelative,
        RotationMode::RestRelative,
        ScaleMode::CreatureSize,
    );
    jaw.require = true;
    // No position keys: rest-relative offsets are in character space and fought the
    // rear channel's rotation of the spine (the mouth held near its rest place while the
    // head reared back, pulling the neck apart). The mouth rides on the head; the thrust
    // is the rear channel's forward swing.
    jaw.deforms.insert(
        "open".into(),
        scalars(&[(0.0, 0.0), (0.6, 0.2), (1.0, 1.0), (1.8, 1.0), (2.3, 0.0)]),
    );
    clip.channels = vec![rear, jaw];
    clip.events = vec![event(1.0, "roar_sound", Some("jaw"))];
    clip
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/clips");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        std::process::exit(1);
    }
    for mut clip in [
        idle_breathe(),
        wave(),
        wave_prone(),
        reach_target(),
        pick_up(),
        pick_up_prone(),
        hand_to_mouth(),
        clap(),
        pass_fruit(),
        nod_lookat(),
        dance(),
        roar(),
    ] {
        if let Err(e) = clip.validate() {
            eprintln!("{}: {e}", clip.name);
            std::process::exit(1);
        }
        let path = dir.join(format!("{}.clip.json", clip.name));
        if let Err(e) = save_clip(&path, &clip) {
            eprintln!("{e}");
            std::process::exit(1);
        }
        println!("wrote {}", path.display());
    }
}
