//! Actions: a name and ordered branch clips; the first branch that binds to a creature plays,
//! and when none does the error gives every branch's reason. Saved in packages (version 2).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use anymorph::io::{Package, package_from_str, package_to_string};
use anymorph::runtime::action::{Action, ActionDef, ActionError};
use anymorph::runtime::clip::Clip;
use anymorph::runtime::player::{Character, PlayError, PlayParams};
use std::sync::Arc;

fn clips() -> Vec<Arc<Clip>> {
    common::clips().iter().cloned().map(Arc::new).collect()
}

fn wave() -> Action {
    let def = ActionDef {
        name: "wave".into(),
        intent: "wave with a grasper, upright or prone".into(),
        branches: vec!["wave".into(), "wave_prone".into()],
    };
    Action::resolve(&def, &clips()).unwrap()
}

#[test]
fn the_first_branch_that_binds_plays() {
    let action = wave();
    // Upright with graspers: the first branch; prone with graspers: the second.
    for (creature, branch) in [("biped", 0), ("four_armed", 0)] {
        let mut ch = Character::new(Arc::new(common::creature(creature).clone()));
        assert_eq!(ch.action_branch(&action).unwrap(), branch, "{creature}");
        let (_, played) = ch.play_action(&action, PlayParams::default()).unwrap();
        assert_eq!(played, branch);
        ch.update(0.5);
        assert!(ch.pose().iter().all(|p| p.position.is_finite()));
    }
    let prone = common::creatures()
        .iter()
        .find(|c| {
            let mut ch = Character::new(Arc::new((*c).clone()));
            ch.binding(&action.branches[0]).reason.is_some()
                && ch.binding(&action.branches[1]).reason.is_none()
        })
        .expect("a sample creature only the prone branch plays on");
    let mut ch = Character::new(Arc::new(prone.clone()));
    assert_eq!(ch.action_branch(&action).unwrap(), 1, "{}", prone.name());
}

#[test]
fn no_branch_names_every_branchs_reason() {
    let action = wave();
    let mut ch = Character::new(Arc::new(common::creature("snake").clone()));
    let e = ch.play_action(&action, PlayParams::default()).unwrap_err();
    let PlayError::NoBranch { reasons, .. } = &e else {
        panic!("{e}");
    };
    assert!(
        reasons.contains("wave:") && reasons.contains("wave_prone:"),
        "{e}"
    );
    assert!(
        e.to_string()
            .starts_with("action 'wave' has no branch that plays on 'snake'")
    );
}

#[test]
fn a_definition_must_name_clips_that_are_there_once_each() {
    let all = clips();
    let def = |branches: &[&str]| ActionDef {
        name: "a".into(),
        intent: String::new(),
        branches: branches.iter().map(|s| s.to_string()).collect(),
    };
    assert!(matches!(
        Action::resolve(&def(&[]), &all),
        Err(ActionError::NoBranches(_))
    ));
    assert!(matches!(
        Action::resolve(&def(&["wave", "nope"]), &all),
        Err(ActionError::MissingClip { index: 1, .. })
    ));
    assert!(matches!(
        Action::resolve(&def(&["wave", "wave"]), &all),
        Err(ActionError::RepeatedBranch { .. })
    ));
}

#[test]
fn packages_keep_their_actions() {
    let package = Package {
        name: "p".into(),
        clips: clips(),
        gait_styles: Vec::new(),
        actions: vec![Arc::new(wave())],
    };
    let text = package_to_string(&package);
    assert!(text.contains("\"version\": 2"), "{}", &text[..200]);
    let back = package_from_str(&text, "p.package.json").unwrap();
    let action = back.action("wave").unwrap();
    assert_eq!(action.to_def(), wave().to_def());
    // Its branches are the package's own clips.
    assert!(Arc::ptr_eq(&action.branches[0], back.clip("wave").unwrap()));
}
