//! The bind phase: branch predicates, required channels and the variant product, with every
//! example of the paper's Figure 4 discussion (section 4.1.2).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::runtime::bind::bind;
use anymorph::runtime::clip::{Branch, Channel, Clip, Predicate, SideConstraint, VariantSettings};
use anymorph::runtime::creature::{Cap, Creature, CreatureBuilder, Shape};
use anymorph::runtime::query::{ContextQuery, LimbModifier};
use glam::{Quat, Vec3};

/// Figure 4's abstract character seen from the front: A and B up top (A on the left), 1 on
/// the left below, 2 and 3 on the right below. `top` and `low` are the caps of the two rows.
fn figure4(top: Cap, low: Cap) -> Creature {
    let mut b = CreatureBuilder::new("figure4");
    let block =
        |b: &mut CreatureBuilder, name: &str, parent: &str, caps: &[Cap], x: f32, y: f32| {
            b.body(
                name,
                Some(parent),
                caps,
                Vec3::new(x * 0.5, y, 0.0),
                Vec3::new(x, y, 0.0),
                Quat::IDENTITY,
                Vec3::splat(0.05),
                Shape::Box,
            );
        };
    b.body(
        "torso",
        None,
        &[Cap::Spine],
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
        Quat::IDENTITY,
        Vec3::new(0.3, 0.6, 0.2),
        Shape::Box,
    );
    block(&mut b, "A", "torso", std::slice::from_ref(&top), 0.6, 1.5);
    block(&mut b, "B", "torso", &[top], -0.6, 1.5);
    block(&mut b, "1", "torso", std::slice::from_ref(&low), 0.6, 0.8);
    block(&mut b, "2", "torso", std::slice::from_ref(&low), -0.5, 0.8);
    block(&mut b, "3", "torso", &[low], -0.8, 0.8);
    b.build().unwrap()
}

fn single_channel(name: &str, cap: Cap, group: &str, side: SideConstraint) -> Channel {
    let mut c = Channel::new(name, ContextQuery::cap(cap));
    c.variant = VariantSettings {
        single: true,
        group: Some(group.into()),
        side,
        mirror: true,
    };
    c
}

fn labels(clip: &Clip, c: &Creature) -> Vec<String> {
    let b = bind(clip, c);
    assert!(b.binds(), "{:?}", b.reason);
    b.variants
        .iter()
        .map(|v| v.label.replace(" → ", ""))
        .collect()
}

fn clip_with(channels: Vec<Channel>) -> Clip {
    let mut clip = Clip::new("t", 1.0);
    clip.channels = channels;
    clip.validate().unwrap();
    clip
}

#[test]
fn one_single_variant_channel_makes_a_variant_per_body() {
    let c = figure4(Cap::Grasper, Cap::Grasper);
    let clip = clip_with(vec![single_channel(
        "grab",
        Cap::Grasper,
        "g",
        SideConstraint::None,
    )]);
    assert_eq!(labels(&clip, &c), ["A", "B", "1", "2", "3"]);
}

#[test]
fn two_groups_on_two_graspers_give_ab_and_ba() {
    let c = figure4(Cap::Grasper, Cap::Mouth);
    let clip = clip_with(vec![
        single_channel("giver", Cap::Grasper, "giver", SideConstraint::None),
        single_channel("receiver", Cap::Grasper, "receiver", SideConstraint::None),
    ]);
    assert_eq!(labels(&clip, &c), ["AB", "BA"]);
    let b = bind(&clip, &c);
    // BA plays the authored motion from the right side: the mirror image.
    assert!(!b.variants[0].mirrored && b.variants[1].mirrored);
}

#[test]
fn different_caps_make_the_full_product() {
    let c = figure4(Cap::Mouth, Cap::Grasper);
    let clip = clip_with(vec![
        single_channel("hand", Cap::Grasper, "hand", SideConstraint::None),
        single_channel("mouth", Cap::Mouth, "mouth", SideConstraint::None),
    ]);
    assert_eq!(labels(&clip, &c), ["1A", "1B", "2A", "2B", "3A", "3B"]);
}

#[test]
fn side_constraints_filter_the_product() {
    let c = figure4(Cap::Mouth, Cap::Grasper);
    let pair = |side| {
        clip_with(vec![
            single_channel("first", Cap::Grasper, "first", SideConstraint::None),
            single_channel("second", Cap::Grasper, "second", side),
        ])
    };
    assert_eq!(labels(&pair(SideConstraint::Same), &c), ["23", "32"]);
    assert_eq!(
        labels(&pair(SideConstraint::Opposite), &c),
        ["12", "13", "21", "31"]
    );
    assert_eq!(
        labels(&pair(SideConstraint::None), &c),
        ["12", "13", "21", "23", "31", "32"]
    );
}

#[test]
fn a_co_varying_group_adds_no_variants_and_picks_the_matching_shoulder() {
    let c = common::creature("four_armed");
    let hand = single_channel("hand", Cap::Grasper, "arm", SideConstraint::None);
    let mut shoulder = single_channel("shoulder", Cap::Grasper, "arm", SideConstraint::None);
    shoulder.context.limb = LimbModifier::SpineSegment;
    let clip = clip_with(vec![hand, shoulder]);
    let b = bind(&clip, c);
    assert_eq!(b.variants.len(), 4);
    for v in &b.variants {
        let hand = v.bodies[0][0];
        let shoulder = v.bodies[1][0];
        let mut at = hand;
        while let Some(p) = c.parent(at) {
            at = p;
            if at == shoulder {
                break;
            }
        }
        assert_eq!(
            at, shoulder,
            "{}: the shoulder is the hand's own spine segment",
            v.label
        );
    }
}

#[test]
fn branches_say_why_a_clip_does_not_bind() {
    let snake = common::creature("snake");
    let biped = common::creature("biped");
    let mut clip = Clip::new("t", 1.0);
    clip.branches = vec![Branch {
        predicate: Predicate::HasGraspers,
        expect: true,
    }];
    let b = bind(&clip, snake);
    assert!(!b.binds());
    assert_eq!(
        b.reason.as_deref(),
        Some("the clip needs graspers; this creature has none")
    );
    assert!(bind(&clip, biped).binds());
    clip.branches = vec![Branch {
        predicate: Predicate::UprightSpine,
        expect: true,
    }];
    assert!(bind(&clip, biped).binds());
    let q = bind(&clip, common::creature("quadruped"));
    assert!(q.reason.unwrap().contains("upright spine"));
    clip.branches = vec![Branch {
        predicate: Predicate::MinCount {
            cap: Cap::Foot,
            count: 6,
        },
        expect: true,
    }];
    assert!(bind(&clip, common::creature("hexapod")).binds());
    assert!(
        bind(&clip, biped)
            .reason
            .unwrap()
            .contains("at least 6 bodies with cap 'foot'; this creature has 2")
    );
    clip.branches = vec![Branch {
        predicate: Predicate::HasFeet,
        expect: false,
    }];
    assert!(bind(&clip, common::creature("floater")).binds());
    assert!(!bind(&clip, biped).binds());
}

#[test]
fn a_required_channel_that_selects_nothing_drops_the_clip() {
    let mut clip = Clip::new("t", 1.0);
    let mut wing = Channel::new("flap", ContextQuery::cap(Cap::Wing));
    wing.require = true;
    clip.channels = vec![wing];
    let reason = bind(&clip, common::creature("biped")).reason.unwrap();
    assert_eq!(
        reason,
        "channel 'flap' is required but nothing matches its query (cap 'wing') on this creature"
    );
    assert!(bind(&clip, common::creature("bird")).binds());
    clip.channels[0].require = false;
    assert!(
        bind(&clip, common::creature("biped")).binds(),
        "an optional channel just plays nothing"
    );
}

#[test]
fn every_sample_clip_binds_where_it_should() {
    for clip in common::clips() {
        for c in common::creatures() {
            let b = bind(clip, c);
            let graspers = c.count_cap(&Cap::Grasper);
            let expected = match clip.name.as_str() {
                "reach_target" => graspers > 0,
                // The wave's and the pick-up's two branches split the creatures with
                // graspers between them.
                "wave" | "pick_up" => graspers > 0 && c.upright().upright,
                "wave_prone" | "pick_up_prone" => graspers > 0 && !c.upright().upright,
                "clap" => {
                    c.count_cap(&Cap::Grasper) >= 2
                        && (0..c.len()).any(|x| {
                            c.body(x).has_cap(&Cap::Grasper)
                                && c.side(x) == anymorph::runtime::creature::Side::Left
                        })
                        && (0..c.len()).any(|x| {
                            c.body(x).has_cap(&Cap::Grasper)
                                && c.side(x) == anymorph::runtime::creature::Side::Right
                        })
                }
                "pass_fruit" => graspers >= 2,
                "greet" => graspers > 0 && c.upright().upright,
                // The branches for creatures without graspers: feet, heads, mouths.
                "wave_foot" | "pick_up_foot" | "clap_feet" | "reach_foot" => !c.legs().is_empty(),
                "wave_head" | "greet_bow" | "roar_head" | "reach_head" => {
                    c.count_cap(&Cap::Head) > 0
                }
                "eat_ground" | "pick_up_mouth" => {
                    c.count_cap(&Cap::Mouth) > 0 && !c.legs().is_empty()
                }
                "eat_snap" | "pick_up_snap" | "clap_jaws" => c.count_cap(&Cap::Mouth) > 0,
                "hand_to_mouth" => graspers > 0 && c.count_cap(&Cap::Mouth) > 0,
                "nod_lookat" => c.count_cap(&Cap::Head) > 0,
                "roar" => c.count_cap(&Cap::Mouth) > 0,
                // Everything else moves the spine, which every creature has.
                _ => true,
            };
            assert_eq!(
                b.binds(),
                expected,
                "{} on {}: {:?}",
                clip.name,
                c.name(),
                b.reason
            );
            if b.binds() {
                assert!(!b.variants.is_empty());
            } else {
                assert!(!b.reason.unwrap().is_empty());
            }
        }
    }
}

/// The wave and the pick-up are each authored in two branches (paper section 4.1.1): every
/// creature with graspers, sample or generated, gets exactly one of each pair, and every
/// branch is in use.
#[test]
fn exactly_one_branch_of_each_action_binds_on_every_creature_with_graspers() {
    let zoo: Vec<_> = (0..40)
        .map(|seed| anymorph::zoo::generate(seed).unwrap())
        .collect();
    for (upright, prone) in [("wave", "wave_prone"), ("pick_up", "pick_up_prone")] {
        let (up_clip, prone_clip) = (common::clip(upright), common::clip(prone));
        let mut used = (0, 0);
        for c in common::creatures().iter().chain(zoo.iter()) {
            let (a, b) = (bind(up_clip, c).binds(), bind(prone_clip, c).binds());
            if c.count_cap(&Cap::Grasper) == 0 {
                assert!(!a && !b, "{}: no graspers, no {upright}", c.name());
                continue;
            }
            assert!(a != b, "{}: {upright} {a}, {prone} {b}", c.name());
            used.0 += usize::from(a);
            used.1 += usize::from(b);
        }
        assert!(
            used.0 > 0 && used.1 > 0,
            "{upright} {}, {prone} {}",
            used.0,
            used.1
        );
    }
}
