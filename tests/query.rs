//! Context queries (paper 3.1) on the sample creatures.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::runtime::creature::{Cap, Creature, CreatureBuilder};
use anymorph::runtime::query::{
    CENTER_ZONE_FRACTION, CapFilter, ContextQuery, Extent, FrontBack, LeftRight, LimbModifier,
    QuerySpace, TopBottom,
};
use glam::Vec3;
use serde_json::json;

fn names(c: &Creature, q: &ContextQuery) -> Vec<String> {
    q.select(c)
        .into_iter()
        .map(|b| c.body(b).name.clone())
        .collect()
}

fn query(v: serde_json::Value) -> ContextQuery {
    serde_json::from_value(v).unwrap()
}

#[test]
fn cap_type_selects_every_body_with_the_cap() {
    let c = common::creature("four_armed");
    assert_eq!(
        names(c, &ContextQuery::cap(Cap::Grasper)),
        ["hand_l", "low_hand_l", "hand_r", "low_hand_r"]
    );
    assert_eq!(query(json!({"cap": "any"})).select(c).len(), c.len());
    assert!(query(json!({"cap": "wing"})).select(c).is_empty());
}

#[test]
fn sides_include_the_centre_zone_and_centre_is_only_the_zone() {
    let c = common::creature("biped");
    let left = names(c, &query(json!({"cap": "any", "left_right": "left"})));
    let right = names(c, &query(json!({"cap": "any", "left_right": "right"})));
    let centre = names(c, &query(json!({"cap": "any", "left_right": "center"})));
    assert!(left.contains(&"hand_l".into()) && !left.contains(&"hand_r".into()));
    assert!(right.contains(&"foot_r".into()) && !right.contains(&"foot_l".into()));
    for spine in ["pelvis", "spine_1", "head", "mouth"] {
        assert!(
            left.contains(&spine.into())
                && right.contains(&spine.into())
                && centre.contains(&spine.into()),
            "{spine}"
        );
    }
    assert!(!centre.contains(&"hand_l".into()));
    // Every body is on the left, on the right or both; the centre zone is both.
    for b in 0..c.len() {
        let n = &c.body(b).name;
        assert!(left.contains(n) || right.contains(n), "{n}");
        assert_eq!(
            left.contains(n) && right.contains(n),
            centre.contains(n),
            "{n}"
        );
    }
    // The zone is the middle 20% of the creature's width, around the sagittal plane.
    let half = c.bounds().size().x * CENTER_ZONE_FRACTION;
    for b in 0..c.len() {
        let x = c.body(b).position.x;
        assert_eq!(centre.contains(&c.body(b).name), x.abs() <= half);
    }
}

#[test]
fn front_back_and_top_bottom_split_the_bounds() {
    let c = common::creature("quadruped");
    let front = names(c, &query(json!({"cap": "foot", "front_back": "front"})));
    let back = names(c, &query(json!({"cap": "foot", "front_back": "back"})));
    assert_eq!(front, ["front_paw_l", "front_paw_r"]);
    assert_eq!(back, ["hind_paw_l", "hind_paw_r"]);
    let top = names(c, &query(json!({"cap": "any", "top_bottom": "top"})));
    assert!(top.contains(&"head".into()) && !top.contains(&"front_paw_l".into()));
    let b = names(
        c,
        &query(json!({"cap": "foot", "front_back": "back", "left_right": "right"})),
    );
    assert_eq!(b, ["hind_paw_r"]);
}

#[test]
fn setspace_splits_a_clump_the_creature_bounds_cannot() {
    // The hexapod's two graspers both sit in the front half of the creature, so a plain
    // front query keeps both (and neither is in the back); relative to the graspers' own
    // box, left and right separate them.
    let c = common::creature("hexapod");
    let front = names(c, &query(json!({"cap": "grasper", "front_back": "front"})));
    assert_eq!(front, ["raptor_claw_l", "raptor_claw_r"]);
    assert!(names(c, &query(json!({"cap": "grasper", "front_back": "back"}))).is_empty());
    // The feet's own box splits them front/back around the feet's middle.
    let feet_front = names(
        c,
        &query(json!({"cap": "foot", "front_back": "front", "space": "setspace"})),
    );
    let feet_back = names(
        c,
        &query(json!({"cap": "foot", "front_back": "back", "space": "setspace"})),
    );
    assert!(
        feet_front.contains(&"front_foot_l".into()) && !feet_front.contains(&"hind_foot_l".into())
    );
    assert!(
        feet_back.contains(&"hind_foot_r".into()) && !feet_back.contains(&"front_foot_r".into())
    );
    // The middle feet sit just beyond the centre zone of the feet's box, so they are front.
    assert!(feet_front.contains(&"mid_foot_l".into()) && !feet_back.contains(&"mid_foot_l".into()));
    // A set with no spread on an axis is all in its centre zone, and then each side keeps all
    // of it: the two claws side by side are both front and both back of their own box.
    for side in ["front", "back"] {
        let claws = names(
            c,
            &query(json!({"cap": "grasper", "front_back": side, "space": "setspace"})),
        );
        assert_eq!(claws, ["raptor_claw_l", "raptor_claw_r"], "{side}");
    }
}

/// A trunk with three pairs of arms along it, front to back.
fn three_pairs_of_arms() -> Creature {
    let mut b = CreatureBuilder::new("three_pairs");
    b.bone(
        "spine",
        None,
        &[Cap::Spine, Cap::Root],
        Vec3::new(0.0, 1.0, -1.0),
        Vec3::new(0.0, 1.0, 1.0),
        0.2,
    );
    for (i, z) in [0.8, 0.0, -0.8].into_iter().enumerate() {
        let arm = format!("arm{i}_l");
        b.bone(
            &arm,
            Some("spine"),
            &[],
            Vec3::new(0.2, 1.0, z),
            Vec3::new(0.6, 0.8, z),
            0.05,
        );
        b.bone(
            &format!("hand{i}_l"),
            Some(&arm),
            &[Cap::Grasper],
            Vec3::new(0.6, 0.8, z),
            Vec3::new(0.7, 0.7, z),
            0.04,
        );
    }
    b.mirror_left();
    b.build().unwrap()
}

#[test]
fn setspace_sides_leave_out_a_middle_pair() {
    // Setspace splits a clump: of three pairs of arms the middle pair is neither the front
    // nor the back one, or "a front hand" could be the one behind another arm.
    let c = three_pairs_of_arms();
    let side = |s: &str| {
        names(
            &c,
            &query(json!({"cap": "grasper", "front_back": s, "space": "setspace"})),
        )
    };
    assert_eq!(side("front"), ["hand0_l", "hand0_r"]);
    assert_eq!(side("back"), ["hand2_l", "hand2_r"]);
    assert_eq!(side("center"), ["hand1_l", "hand1_r"]);
    // The creature's own halves keep the paper's rule: the sides include the centre zone.
    let front = names(&c, &query(json!({"cap": "grasper", "front_back": "front"})));
    assert_eq!(front, ["hand0_l", "hand1_l", "hand0_r", "hand1_r"]);
}

#[test]
fn extents_pick_zero_or_one_body_deterministically() {
    let c = common::creature("four_armed");
    let top = ContextQuery {
        extent: Extent::TopMost,
        ..ContextQuery::cap(Cap::Grasper)
    };
    // The lower pair is held forward, so its hands are the highest; the pair ties in
    // height and the tie goes to the left one, every time.
    assert_eq!(names(c, &top), ["low_hand_l"]);
    let bottom = ContextQuery {
        extent: Extent::BottomMost,
        ..ContextQuery::cap(Cap::Grasper)
    };
    assert_eq!(names(c, &bottom), ["hand_l"]);
    let right_most = ContextQuery {
        extent: Extent::RightMost,
        cap: CapFilter::Any,
        ..Default::default()
    };
    assert_eq!(right_most.select(c).len(), 1);
    assert!(c.body(right_most.select(c)[0]).position.x < 0.0);
    let none = ContextQuery {
        extent: Extent::FrontMost,
        ..ContextQuery::cap(Cap::Wing)
    };
    assert!(none.select(c).is_empty());
    for e in [
        Extent::LeftMost,
        Extent::RightMost,
        Extent::FrontMost,
        Extent::BackMost,
        Extent::TopMost,
        Extent::BottomMost,
    ] {
        for c in common::creatures() {
            let q = ContextQuery {
                extent: e,
                ..Default::default()
            };
            assert_eq!(q.select(c).len(), 1, "{} {e:?}", c.name());
        }
    }
}

#[test]
fn spine_segment_walks_up_to_the_shoulder() {
    let c = common::creature("four_armed");
    let shoulders = ContextQuery {
        limb: LimbModifier::SpineSegment,
        ..ContextQuery::cap(Cap::Grasper)
    };
    assert_eq!(names(c, &shoulders), ["spine_2", "spine_3"]);
    let upper_left = ContextQuery {
        limb: LimbModifier::SpineSegment,
        left_right: LeftRight::Left,
        extent: Extent::TopMost,
        ..ContextQuery::cap(Cap::Grasper)
    };
    assert_eq!(names(c, &upper_left), ["spine_2"]);
    let hips = ContextQuery {
        limb: LimbModifier::SpineSegment,
        ..ContextQuery::cap(Cap::Foot)
    };
    assert_eq!(
        names(common::creature("quadruped"), &hips),
        ["pelvis", "chest"]
    );
    // A spine body maps to itself.
    let spine = ContextQuery {
        limb: LimbModifier::SpineSegment,
        ..ContextQuery::cap(Cap::Spine)
    };
    assert_eq!(spine.select(c), ContextQuery::cap(Cap::Spine).select(c));
}

#[test]
fn json_shape_matches_design_and_defaults_are_any() {
    let q = query(
        json!({ "cap": "grasper", "left_right": "left", "front_back": "any", "top_bottom": "any",
                          "space": "creature", "extent": "none", "limb": "none" }),
    );
    assert_eq!(q.cap, CapFilter::Cap(Cap::Grasper));
    assert_eq!(
        (q.front_back, q.top_bottom, q.space),
        (FrontBack::Any, TopBottom::Any, QuerySpace::Creature)
    );
    let short = query(json!({"cap": "grasper", "left_right": "left"}));
    assert_eq!(q, short);
    assert_eq!(
        serde_json::to_value(&short).unwrap(),
        json!({"cap": "grasper", "left_right": "left"})
    );
    assert!(
        serde_json::from_value::<ContextQuery>(json!({"cap": "grasper", "left_right": "up"}))
            .is_err()
    );
    assert!(
        serde_json::from_value::<ContextQuery>(json!({"left_right": "left"})).is_err(),
        "cap is required"
    );
    assert_eq!(q.to_string(), "cap 'grasper', left");
}
