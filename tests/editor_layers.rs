//! A second clip layered over the active clip in the preview (Creatures panel > Layer),
//! driven on the real app: every creature's pose is the one the runtime's player gives for
//! the same two plays (the editor blends nothing itself), scrubbing and walking; it is a
//! preview setting, so the project stays unchanged.
#![cfg(feature = "editor")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod editor_common;

use anymorph::editor::AnymorphApp;
use anymorph::editor::command::Command;
use anymorph::editor::panels::locomotion::{ADDITIVE, LAYER, LAYER_PLAYS, LAYER_WEIGHT};
use anymorph::runtime::clip::Clip;
use anymorph::runtime::pipeline::clip_local_time;
use anymorph::runtime::player::{Character, PlayParams, VariantChoice};
use anymorph::runtime::pose::BodyPose;
use editor_common::{editor, max_distance};
use egui::Key;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::sync::Arc;

type App = AnymorphApp;

const LAYERED: &str = "nod_lookat";

/// Turns the layer on through the Layer section: `LAYERED`, additive, at half weight.
fn layer_on(h: &mut Harness<'static, App>) {
    h.get_by_label(LAYER).click();
    h.run();
    h.get_by_label(LAYER_PLAYS).click();
    h.run();
    // The list is longer than its popup: scrolled to, as a hand would.
    h.get_by_label(&format!("clip {LAYERED}")).scroll_to_me();
    h.run();
    h.get_by_label(&format!("clip {LAYERED}")).click();
    h.run();
    h.get_by_label(ADDITIVE).click();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, LAYER_WEIGHT)
        .focus();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, LAYER_WEIGHT)
        .type_text("0.5");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    h.key_press(Key::Escape);
    h.run();
    let layer = &h.state().preferences().locomotion.layer;
    assert_eq!(
        (
            layer.name.as_str(),
            layer.action,
            layer.additive,
            layer.weight
        ),
        (LAYERED, false, true, 0.5)
    );
}

fn clip_named(h: &Harness<'_, App>, name: &str) -> Clip {
    h.state()
        .document()
        .clips
        .iter()
        .find(|c| c.name == name)
        .unwrap()
        .clone()
}

/// The two plays as a game would start them on a player of its own, at `clock_secs`.
fn game_plays(
    character: &mut Character,
    base: &Arc<Clip>,
    variant: usize,
    layered: Option<&Arc<Clip>>,
    clock_secs: f32,
) {
    let _ = character.play(
        base,
        PlayParams {
            variant: VariantChoice::Index(variant),
            start_secs: clip_local_time(base, clock_secs),
            hold: true,
            ..PlayParams::default()
        },
    );
    if let Some(clip) = layered {
        let _ = character.play(
            clip,
            PlayParams {
                layer: 1,
                additive: true,
                weight: 0.5,
                start_secs: clip_local_time(clip, clock_secs),
                hold: true,
                ..PlayParams::default()
            },
        );
    }
}

/// A game's standing player of the two plays started at `clock_secs`, posed once.
fn standing_game(
    creature: &Arc<anymorph::runtime::creature::Creature>,
    base: &Arc<Clip>,
    variant: usize,
    layered: Option<&Arc<Clip>>,
    clock_secs: f32,
    targets: &[glam::Vec3],
) -> Character {
    let mut c = Character::new(Arc::clone(creature));
    c.set_gait_layers(Vec::new());
    game_plays(&mut c, base, variant, layered, clock_secs);
    for (k, &at) in targets.iter().enumerate() {
        c.set_target(k, at);
    }
    c.update(0.0);
    c
}

fn assert_same_pose(shown: &[BodyPose], game: &[BodyPose], what: &str) {
    assert_eq!(shown.len(), game.len(), "{what}");
    for (k, (a, b)) in shown.iter().zip(game).enumerate() {
        assert!(
            a.position.abs_diff_eq(b.position, 1e-5) && a.rotation.abs_diff_eq(b.rotation, 1e-5),
            "{what}: body {k}: {a:?} vs {b:?}"
        );
    }
}

#[test]
fn a_layered_clip_previews_on_every_creature_as_the_runtime_blends_it() {
    let mut h = editor();
    layer_on(&mut h);
    let t = 0.7;
    h.state_mut().run_command(Command::SetTime(t));
    h.run();
    let app = h.state();
    assert!(!app.history().is_dirty(), "a preview setting made an edit");
    assert_eq!(app.history().len(), 0);
    let base = Arc::new(app.document().clip().unwrap().clone());
    let layered = Arc::new(clip_named(&h, LAYERED));
    let targets = app.document().shown_targets().to_vec();
    let mut moved = 0;
    for (i, entry) in app.document().roster.iter().enumerate() {
        let creature = Arc::new(entry.creature.clone());
        let pose_of = |with_layer: bool| {
            let layer = with_layer.then_some(&layered);
            standing_game(&creature, &base, entry.variant, layer, t, &targets)
                .pose()
                .to_vec()
        };
        let with = pose_of(true);
        let shown = &app.preview().creatures[i].pose;
        assert_same_pose(shown, &with, entry.creature.name());
        if max_distance(&with, &pose_of(false)) > 1e-3 {
            moved += 1;
        }
    }
    assert!(moved >= 2, "the layer moved {moved} creatures");

    // Off again: the pipeline's pose of the active clip alone.
    h.get_by_label(LAYER_PLAYS).click();
    h.run();
    h.get_by_label(anymorph::editor::panels::locomotion::LAYER_NONE)
        .scroll_to_me();
    h.run();
    h.get_by_label(anymorph::editor::panels::locomotion::LAYER_NONE)
        .click();
    h.run();
    let app = h.state();
    assert!(app.preview().layer().is_none());
    assert!(app.preview().creatures.iter().all(|p| p.layered.is_none()));
}

#[test]
fn walking_creatures_play_the_layer_over_the_walk() {
    let mut h = editor();
    layer_on(&mut h);
    let t = 0.4;
    h.state_mut().run_command(Command::SetTime(t));
    h.run();
    // One frame of walking: the players start at the playhead and pose once. (A command
    // is applied after its frame's preview: the second frame is the first that walks.)
    let mut prefs = h.state().preferences().locomotion.clone();
    prefs.walking = true;
    h.state_mut()
        .run_command(Command::SetLocomotion(Box::new(prefs.clone())));
    h.step();
    assert!(!h.state().preview().is_walking());
    h.step();
    let app = h.state();
    assert!(app.preview().is_walking());
    let base = Arc::new(app.document().clip().unwrap().clone());
    let layered = Arc::new(clip_named(&h, LAYERED));
    let settings = prefs.settings(&app.document().gaits);
    let mut moved = 0;
    for (i, entry) in app.document().roster.iter().enumerate() {
        let creature = Arc::new(entry.creature.clone());
        let pose_of = |with_layer: bool| {
            let mut c = Character::new(Arc::clone(&creature));
            c.set_terrain(settings.terrain);
            c.set_gait_layers(vec![anymorph::runtime::gait::GaitLayer::new(Arc::clone(
                &settings.gait,
            ))]);
            game_plays(
                &mut c,
                &base,
                entry.variant,
                with_layer.then_some(&layered),
                t,
            );
            c.set_locomotion(settings.velocity, settings.turn_rate);
            for (k, &at) in app.document().shown_targets().iter().enumerate() {
                c.set_target(k, at);
            }
            c.update(0.0).to_vec()
        };
        let walker = app.preview().creatures[i].walker.as_ref().unwrap();
        let with = pose_of(true);
        assert_same_pose(walker.character().pose(), &with, entry.creature.name());
        if max_distance(&with, &pose_of(false)) > 1e-3 {
            moved += 1;
        }
    }
    assert!(moved >= 2, "the layer moved {moved} walking creatures");
}

/// An action as the layer: each creature plays the first of its branches that binds there,
/// as `Character::play_action` picks it.
#[test]
fn a_layered_action_plays_the_branch_each_creature_binds() {
    let mut h = editor();
    let action_def = h
        .state()
        .document()
        .actions
        .iter()
        .find(|a| a.branches.len() >= 2)
        .expect("the sample has an action with branches")
        .clone();
    // The layer over a clip that is not one of the action's branches.
    let base_index = h
        .state()
        .document()
        .clips
        .iter()
        .position(|c| c.name == LAYERED)
        .unwrap();
    h.state_mut()
        .run_command(Command::SetActiveClip(base_index));
    h.run();
    let mut prefs = h.state().preferences().locomotion.clone();
    prefs.layer = anymorph::editor::layer::LayerPrefs {
        name: action_def.name.clone(),
        action: true,
        additive: false,
        weight: 1.0,
    };
    h.state_mut()
        .run_command(Command::SetLocomotion(Box::new(prefs)));
    h.run();
    let t = 0.5;
    h.state_mut().run_command(Command::SetTime(t));
    h.run();
    let app = h.state();
    assert!(app.preview().layer().is_some(), "the action is no layer");
    let clips: Vec<Arc<Clip>> = app.document().clips.iter().cloned().map(Arc::new).collect();
    let action = anymorph::runtime::action::Action::resolve(&action_def, &clips).unwrap();
    let base = Arc::clone(&clips[base_index]);
    let mut branches = std::collections::BTreeSet::new();
    for (i, entry) in app.document().roster.iter().enumerate() {
        let mut c = Character::new(Arc::new(entry.creature.clone()));
        c.set_gait_layers(Vec::new());
        game_plays(&mut c, &base, entry.variant, None, t);
        if let Ok(k) = c.action_branch(&action) {
            let clip = Arc::clone(&action.branches[k]);
            c.play(
                &clip,
                PlayParams {
                    layer: 1,
                    start_secs: clip_local_time(&clip, t),
                    hold: true,
                    ..PlayParams::default()
                },
            )
            .unwrap();
            branches.insert(k);
        }
        for (k, &at) in app.document().shown_targets().iter().enumerate() {
            c.set_target(k, at);
        }
        let game = c.update(0.0).to_vec();
        assert_same_pose(
            &app.preview().creatures[i].pose,
            &game,
            entry.creature.name(),
        );
    }
    assert!(
        branches.len() >= 2,
        "every creature played one branch: {branches:?}"
    );
}

/// Issue 49, item 5 with a layer on: the onion skin comes from the same two plays as the
/// pose shown, so the ghost three frames ahead is where each creature stands three frames on.
#[test]
fn ghosts_ahead_are_the_layered_poses_shown_frames_later() {
    let mut h = editor();
    layer_on(&mut h);
    let t = 0.7;
    h.state_mut().run_command(Command::SetTime(t));
    h.run();
    let app = h.state();
    let fps = app.document().clip().unwrap().fps;
    let ahead = 3.0 / fps;
    let start = app.playback().time_secs;
    let ghosts: Vec<Vec<BodyPose>> = (0..app.document().roster.len())
        .map(|i| {
            let g = app
                .preview()
                .ghost_poses(app.document(), i, start, &[ahead]);
            assert_eq!(g.len(), 1, "creature {i}: no ghost");
            g[0].1.clone()
        })
        .collect();
    for _ in 0..3 {
        h.state_mut().run_command(Command::StepForward);
        h.run();
    }
    let app = h.state();
    assert!(
        (app.playback().time_secs - (start + ahead)).abs() < 1e-4,
        "three frames on: {} from {start}",
        app.playback().time_secs
    );
    assert!(app.preview().creatures.iter().all(|p| p.layered.is_some()));
    for (i, ghost) in ghosts.iter().enumerate() {
        let shown = &app.preview().creatures[i].pose;
        assert_eq!(ghost.len(), shown.len());
        for (k, (g, s)) in ghost.iter().zip(shown).enumerate() {
            assert!(
                g.position.abs_diff_eq(s.position, 1e-4)
                    && g.rotation.abs_diff_eq(s.rotation, 1e-4),
                "creature {i} body {k}: ghost {g:?}, shown {s:?}"
            );
        }
    }
}

/// Playing with a layer on steps each creature's player on, so what the jiggles carry
/// from frame to frame shows as in a game playing the same two: every pose shown is the
/// game's player started where playback started and stepped by the same frame times, and
/// on some creature it differs from the pose a scrub to that time shows (a fresh player,
/// its jiggles at rest), which is what the preview showed while playing before.
#[test]
fn playing_with_a_layer_steps_the_players_on_as_a_game_does() {
    let mut h = editor();
    layer_on(&mut h);
    if h.state().playback().playing {
        h.state_mut().run_command(Command::TogglePlay);
        h.run();
    }
    h.state_mut().run_command(Command::SetTime(0.2));
    h.run();
    assert!(!h.state().playback().playing);
    // The players the scrub made (paused, they stand still) are the ones playback steps.
    let start = h.state().playback().time_secs;
    let base = Arc::new(h.state().document().clip().unwrap().clone());
    let layered = Arc::new(clip_named(&h, LAYERED));
    let targets = h.state().document().shown_targets().to_vec();
    let mut games: Vec<Character> = h
        .state()
        .document()
        .roster
        .iter()
        .map(|entry| {
            let creature = Arc::new(entry.creature.clone());
            standing_game(
                &creature,
                &base,
                entry.variant,
                Some(&layered),
                start,
                &targets,
            )
        })
        .collect();
    h.state_mut().run_command(Command::TogglePlay);
    let mut before = start;
    let mut jiggled = 0.0f32;
    // The harness's frames are a quarter of a second: eight of them stay within the clip.
    for _ in 0..8 {
        h.step();
        let app = h.state();
        let now = app.playback().time_secs;
        assert!(now >= before, "playback went back: {before} to {now}");
        for (i, (game, entry)) in games.iter_mut().zip(&app.document().roster).enumerate() {
            game.update(now - before);
            let shown = &app.preview().creatures[i].pose;
            assert_same_pose(shown, game.pose(), entry.creature.name());
            let creature = Arc::new(entry.creature.clone());
            let scrub = standing_game(
                &creature,
                &base,
                entry.variant,
                Some(&layered),
                now,
                &targets,
            );
            jiggled = jiggled.max(max_distance(shown, scrub.pose()));
        }
        before = now;
    }
    assert!(h.state().playback().playing);
    assert!(before > start + 0.1, "played from {start} to {before}");
    assert!(
        jiggled > 1e-3,
        "no creature's jiggles showed while playing: {jiggled}"
    );
}
