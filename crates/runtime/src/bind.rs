//! The bind phase (paper 4.1): does a clip play on a creature, and in how many ways?
//!
//! Branch predicates and required channels decide whether it binds; single-variant channels
//! expand into variants by the modified cartesian product of their bodies.

use crate::clip::{Clip, Predicate, SideConstraint};
use crate::creature::{BodyId, Cap, Creature, Side};
use crate::query::SecondaryContext;
use std::collections::HashMap;

/// At most this many variants are enumerated (the first ones in enumeration order), so a
/// many-legged creature and a three-group clip cannot explode the product.
pub const MAX_VARIANTS: usize = 256;

impl Predicate {
    /// Whether `creature` has what the predicate asks for (before a branch's `expect`).
    pub fn evaluate(&self, creature: &Creature) -> bool {
        match self {
            Predicate::UprightSpine => creature.upright().upright,
            Predicate::HasGraspers => creature.count_cap(&Cap::Grasper) > 0,
            Predicate::HasFeet => !creature.legs().is_empty(),
            Predicate::HasCap(cap) => creature.count_cap(cap) > 0,
            Predicate::MinCount { cap, count } => creature.count_cap(cap) >= *count,
        }
    }

    /// Why `creature` fails this predicate when `expect` was wanted, in a tester's words.
    fn explain(&self, expect: bool, creature: &Creature) -> String {
        let graspers = creature.count_cap(&Cap::Grasper);
        match (self, expect) {
            (Predicate::UprightSpine, true) => format!(
                "the clip is for creatures with an upright spine; this one's spine lies prone (score {:.2})",
                creature.upright().score
            ),
            (Predicate::UprightSpine, false) => format!(
                "the clip is for creatures with a prone spine; this one's spine is upright (score {:.2})",
                creature.upright().score
            ),
            (Predicate::HasGraspers, true) => {
                "the clip needs graspers; this creature has none".to_string()
            }
            (Predicate::HasGraspers, false) => {
                format!("the clip is for creatures without graspers; this one has {graspers}")
            }
            (Predicate::HasFeet, true) => "the clip needs feet; this creature has none".to_string(),
            (Predicate::HasFeet, false) => format!(
                "the clip is for creatures without feet; this one has {} legs",
                creature.legs().len()
            ),
            (Predicate::HasCap(cap), true) => {
                format!("the clip needs a body with cap '{cap}'; this creature has none")
            }
            (Predicate::HasCap(cap), false) => format!(
                "the clip is for creatures without cap '{cap}'; this one has {}",
                creature.count_cap(cap)
            ),
            (Predicate::MinCount { cap, count }, true) => format!(
                "the clip needs at least {count} bodies with cap '{cap}'; this creature has {}",
                creature.count_cap(cap)
            ),
            (Predicate::MinCount { cap, count }, false) => format!(
                "the clip is for creatures with fewer than {count} bodies with cap '{cap}'; this one has {}",
                creature.count_cap(cap)
            ),
        }
    }
}

/// What a channel selects on a creature, before variants narrow it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChannelSelection {
    /// Bodies the channel's context query selects.
    pub bodies: Vec<BodyId>,
    /// Bodies of the secondary query, when the secondary context is a query.
    pub secondary: Vec<BodyId>,
}

/// One way the clip plays: for every channel, the bodies it moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// A name for the variant, from the bodies its groups play on (`hand.L`).
    pub label: String,
    /// The lead variant group plays on a right-side body, mirrored.
    pub mirrored: bool,
    /// Per channel (clip order), the bodies it plays on in this variant.
    pub bodies: Vec<Vec<BodyId>>,
    /// The body each variant group plays on, in group order.
    pub choices: Vec<BodyId>,
}

/// The result of binding a clip to a creature.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    /// Why the clip does not play on this creature; `None` when it binds.
    pub reason: Option<String>,
    /// Per channel (clip order), what it selects.
    pub selections: Vec<ChannelSelection>,
    /// Every way the clip can play on the creature (at most [`MAX_VARIANTS`]).
    pub variants: Vec<Variant>,
}

impl Binding {
    /// The clip plays on the creature.
    pub fn binds(&self) -> bool {
        self.reason.is_none()
    }
}

/// A variant group: single-variant channels that vary together, led by the first one.
struct Group {
    channels: Vec<usize>,
    side: SideConstraint,
}

/// Binds `clip` to `creature`: branches, required channels, then variants.
pub fn bind(clip: &Clip, creature: &Creature) -> Binding {
    let selections: Vec<ChannelSelection> = clip
        .channels
        .iter()
        .map(|c| {
            let secondary = match &c.secondary {
                Some(SecondaryContext::Query(q)) => q.select(creature),
                _ => Vec::new(),
            };
            let mut bodies = c.context.select(creature);
            // A channel aimed at bodies the creature lacks has nothing to aim at.
            if matches!(c.secondary, Some(SecondaryContext::Query(_))) && secondary.is_empty() {
                bodies.clear();
            }
            ChannelSelection { bodies, secondary }
        })
        .collect();
    let fail = |reason: String, selections: Vec<ChannelSelection>| Binding {
        reason: Some(reason),
        selections,
        variants: Vec::new(),
    };

    for b in &clip.branches {
        if b.predicate.evaluate(creature) != b.expect {
            return fail(b.predicate.explain(b.expect, creature), selections);
        }
    }
    for (c, sel) in clip.channels.iter().zip(&selections) {
        if c.require && sel.bodies.is_empty() {
            let why = match &c.secondary {
                Some(SecondaryContext::Query(q)) if q.select(creature).is_empty() => {
                    format!("nothing matches its secondary query ({q})")
                }
                _ => format!("nothing matches its query ({})", c.context),
            };
            return fail(
                format!(
                    "channel '{}' is required but {why} on this creature",
                    c.name
                ),
                selections,
            );
        }
    }

    let groups = variant_groups(clip, &selections);
    let mut variants = Vec::new();
    let mut choice = Vec::with_capacity(groups.len());
    enumerate(
        creature,
        clip,
        &selections,
        &groups,
        &mut choice,
        &mut variants,
    );
    if variants.is_empty() {
        let names: Vec<String> = groups
            .iter()
            .map(|g| format!("'{}'", clip.channels[g.channels[0]].name))
            .collect();
        return fail(
            format!(
                "the single-variant channels {} need different bodies that meet their side constraints; this creature has no such combination",
                names.join(", ")
            ),
            selections,
        );
    }
    Binding {
        reason: None,
        selections,
        variants,
    }
}

fn variant_groups(clip: &Clip, selections: &[ChannelSelection]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (i, c) in clip.channels.iter().enumerate() {
        if !c.variant.single || selections[i].bodies.is_empty() {
            continue;
        }
        match c.variant.group.as_deref() {
            Some(name) => match by_name.get(name) {
                Some(&g) => groups[g].channels.push(i),
                None => {
                    by_name.insert(name, groups.len());
                    groups.push(Group {
                        channels: vec![i],
                        side: c.variant.side,
                    });
                }
            },
            None => groups.push(Group {
                channels: vec![i],
                side: c.variant.side,
            }),
        }
    }
    groups
}

fn enumerate(
    creature: &Creature,
    clip: &Clip,
    selections: &[ChannelSelection],
    groups: &[Group],
    choice: &mut Vec<BodyId>,
    out: &mut Vec<Variant>,
) {
    if out.len() >= MAX_VARIANTS {
        return;
    }
    let g = choice.len();
    if g == groups.len() {
        out.push(make_variant(creature, clip, selections, groups, choice));
        return;
    }
    let lead = groups[g].channels[0];
    for &body in &selections[lead].bodies {
        if choice.contains(&body) {
            continue;
        }
        if g > 0 {
            let lead_side = creature.side(choice[0]);
            let side = creature.side(body);
            let ok = match groups[g].side {
                SideConstraint::None => true,
                SideConstraint::Same => side == lead_side,
                SideConstraint::Opposite => {
                    side != Side::Center && lead_side != Side::Center && side != lead_side
                }
            };
            if !ok {
                continue;
            }
        }
        choice.push(body);
        enumerate(creature, clip, selections, groups, choice, out);
        choice.pop();
    }
}

fn make_variant(
    creature: &Creature,
    clip: &Clip,
    selections: &[ChannelSelection],
    groups: &[Group],
    choice: &[BodyId],
) -> Variant {
    let mut bodies: Vec<Vec<BodyId>> = clip
        .channels
        .iter()
        .zip(selections)
        .map(|(c, s)| {
            if c.variant.single {
                Vec::new()
            } else {
                s.bodies.clone()
            }
        })
        .collect();
    for (group, &lead_body) in groups.iter().zip(choice) {
        for (k, &ch) in group.channels.iter().enumerate() {
            bodies[ch] = if k == 0 {
                vec![lead_body]
            } else {
                related_body(creature, lead_body, &selections[ch].bodies)
                    .into_iter()
                    .collect()
            };
        }
    }
    let label = if choice.is_empty() {
        "all selected bodies".to_string()
    } else {
        choice
            .iter()
            .map(|&b| creature.body(b).name.as_str())
            .collect::<Vec<_>>()
            .join(" → ")
    };
    let mirrored = match (groups.first(), choice.first()) {
        (Some(g), Some(&b)) => {
            clip.channels[g.channels[0]].variant.mirror && creature.side(b) == Side::Right
        }
        _ => false,
    };
    Variant {
        label,
        mirrored,
        bodies,
        choices: choice.to_vec(),
    }
}

/// The body of a co-varying channel that goes with the group's chosen body: its nearest
/// ancestor or descendant in the tree (a grasper's shoulder), else the nearest at rest.
fn related_body(creature: &Creature, lead: BodyId, candidates: &[BodyId]) -> Option<BodyId> {
    let depth_between = |a: BodyId, b: BodyId| -> Option<usize> {
        // Steps from `a` up to `b`, if `b` is an ancestor of `a` (or `a` itself).
        let mut at = a;
        let mut steps = 0;
        loop {
            if at == b {
                return Some(steps);
            }
            at = creature.parent(at)?;
            steps += 1;
        }
    };
    let related = candidates
        .iter()
        .filter_map(|&c| {
            depth_between(lead, c)
                .or_else(|| depth_between(c, lead))
                .map(|d| (d, c))
        })
        .min();
    if let Some((_, c)) = related {
        return Some(c);
    }
    let at = creature.body(lead).position;
    candidates.iter().copied().min_by(|&a, &b| {
        at.distance_squared(creature.body(a).position)
            .total_cmp(&at.distance_squared(creature.body(b).position))
            .then(a.cmp(&b))
    })
}
