//! The dope sheet and the curve editor driven by simulated pointer and keyboard input
//! (egui_kittest), with every edit applied to the clip between frames as the app does.

use super::curve_edit::{
    Component, CurveHit, CurveView, SelectedKey, Side, ViewMap, drag_keys, handle_pos, hit_test,
    set_tangent_slope, slope_from_handle,
};
use super::curve_editor::{CurveEditor, CurveEditorInputs, CurveSpace};
use super::dope_sheet::{DopeSheet, DopeSheetInputs};
use super::key_edit::tests::sample_clip;
use super::key_edit::{Dof, KeyRef};
use super::output::PanelOutput;
use anymorph_runtime::clip::Clip;
use anymorph_runtime::curve::TangentMode;
use anymorph_runtime::movement::{MotionFrame, MovementMode, RestBody, ScaleMode, Surroundings};
use anymorph_runtime::pose::BodyPose;
use egui::{Event, Key, Modifiers, PointerButton, Pos2, Rect, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::{Quat, Vec3};

/// What the app would hold: the clip, the playhead, the active channel, and every output.
struct Host<W> {
    widget: W,
    clip: Clip,
    time: f32,
    active: Option<usize>,
    specialize: Option<MotionFrame>,
    outputs: Vec<PanelOutput>,
}

impl<W: Default> Host<W> {
    fn new(clip: Clip) -> Self {
        Host {
            widget: W::default(),
            clip,
            time: 0.0,
            active: Some(0),
            specialize: None,
            outputs: Vec::new(),
        }
    }
}

fn apply<W>(host: &mut Host<W>, out: Vec<PanelOutput>) {
    for o in out {
        match &o {
            PanelOutput::Edit { clip, .. } => host.clip = clip.clone(),
            PanelOutput::SetTime(t) => host.time = *t,
            PanelOutput::SetActiveChannel(c) => host.active = Some(*c),
        }
        host.outputs.push(o);
    }
}

fn sheet(clip: Clip) -> Harness<'static, Host<DopeSheet>> {
    let mut h = Harness::builder()
        .with_size(Vec2::new(800.0, 300.0))
        .build_ui_state(
            |ui, host: &mut Host<DopeSheet>| {
                let inputs = DopeSheetInputs {
                    clip: &host.clip,
                    active_channel: host.active,
                    time_secs: host.time,
                };
                let out = host.widget.ui(ui, &inputs);
                apply(host, out);
            },
            Host::new(clip),
        );
    h.run_steps(2);
    h
}

fn curves(clip: Clip, specialize: Option<MotionFrame>) -> Harness<'static, Host<CurveEditor>> {
    let mut host = Host::new(clip);
    host.specialize = specialize;
    let mut h = Harness::builder()
        .with_size(Vec2::new(900.0, 400.0))
        .build_ui_state(
            |ui, host: &mut Host<CurveEditor>| {
                let inputs = CurveEditorInputs {
                    clip: &host.clip,
                    active_channel: host.active,
                    time_secs: host.time,
                    specialize: host.specialize,
                };
                let out = host.widget.ui(ui, &inputs);
                apply(host, out);
            },
            host,
        );
    h.run_steps(2);
    h
}

fn press<S>(h: &mut Harness<'_, S>, pos: Pos2, pressed: bool) {
    h.event(Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(1);
}

/// Press, move in steps, release, with the pointer left over the widget.
fn drag<S>(h: &mut Harness<'_, S>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.run_steps(1);
    press(h, from, true);
    for f in [0.3, 0.7, 1.0] {
        h.hover_at(from + (to - from) * f);
        h.run_steps(1);
    }
    press(h, to, false);
}

fn click<S>(h: &mut Harness<'_, S>, pos: Pos2) {
    h.hover_at(pos);
    h.run_steps(1);
    press(h, pos, true);
    press(h, pos, false);
}

fn frame(n: f32) -> f32 {
    n / 30.0
}

fn position_times(clip: &Clip, channel: usize) -> Vec<f32> {
    clip.channels[channel]
        .position
        .as_ref()
        .map(|c| c.keys().iter().map(|k| k.time).collect())
        .unwrap_or_default()
}

fn edits(outputs: &[PanelOutput]) -> Vec<(&str, Option<egui::Id>)> {
    outputs
        .iter()
        .filter_map(|o| match o {
            PanelOutput::Edit { label, drag, .. } => Some((label.as_str(), *drag)),
            _ => None,
        })
        .collect()
}

fn key(dof: Dof, n: f32) -> KeyRef {
    KeyRef {
        channel: 0,
        dof,
        time: frame(n),
    }
}

#[test]
fn dragging_a_key_moves_it_by_whole_frames_as_one_drag() {
    let mut h = sheet(sample_clip());
    let from = h
        .state()
        .widget
        .key_screen_pos(&h.state().clip, &key(Dof::Position, 10.0))
        .expect("the key is drawn");
    let layout = h.state().widget.layout().expect("drawn");
    // 4.4 frames right: snapping makes it 4.
    let to = from + Vec2::new(4.4 * layout.px_per_sec / 30.0, 3.0);
    let value_before = h.state().clip.channels[0]
        .position
        .as_ref()
        .map(|c| c.keys()[1].value);
    drag(&mut h, from, to);

    let host = h.state();
    let e = edits(&host.outputs);
    assert!(!e.is_empty(), "the drag made no edit");
    let id = e[0].1.expect("a drag edit carries its drag id");
    assert!(
        e.iter().all(|(l, d)| *l == "Move keys" && *d == Some(id)),
        "{e:?}"
    );
    let times = position_times(&host.clip, 0);
    assert_eq!(times.len(), 3);
    let moved = times[1] * 30.0;
    assert!((moved - moved.round()).abs() < 1e-3, "off frame: {moved}");
    assert_eq!(moved.round(), 14.0);
    let value_after = host.clip.channels[0]
        .position
        .as_ref()
        .map(|c| c.keys()[1].value);
    assert_eq!(value_before, value_after);
    // The other DOFs did not move.
    assert_eq!(
        host.clip.channels[0].deforms,
        sample_clip().channels[0].deforms
    );

    // A second drag is a second undo step.
    let count = e.len();
    let from = h
        .state()
        .widget
        .key_screen_pos(&h.state().clip, &key(Dof::Position, 14.0))
        .expect("the moved key is drawn");
    drag(
        &mut h,
        from,
        from + Vec2::new(layout.px_per_sec / 30.0 * 2.0, 0.0),
    );
    let e = edits(&h.state().outputs);
    assert!(e.len() > count);
    assert!(
        e[count..]
            .iter()
            .all(|(_, d)| d.is_some() && *d != Some(id))
    );
}

#[test]
fn box_select_then_delete_removes_exactly_those_keys() {
    let mut h = sheet(sample_clip());
    let clip = h.state().clip.clone();
    let w = &h.state().widget;
    let p10 = w
        .key_screen_pos(&clip, &key(Dof::Position, 10.0))
        .expect("drawn");
    let g10 = w
        .key_screen_pos(&clip, &key(Dof::Deform("grip".into()), 10.0))
        .expect("drawn");
    let px_per_frame = w.layout().expect("drawn").px_per_sec / 30.0;
    let from = p10 + Vec2::new(-2.0 * px_per_frame, -7.0);
    let to = g10 + Vec2::new(2.0 * px_per_frame, 7.0);
    drag(&mut h, from, to);
    assert_eq!(
        h.state().widget.selected().len(),
        2,
        "{:?}",
        h.state().widget.selected()
    );
    h.hover_at(to);
    h.key_press(Key::Delete);
    h.run_steps(1);

    let out = &h.state().clip;
    let times: Vec<f32> = position_times(out, 0)
        .iter()
        .map(|t| (t * 30.0).round())
        .collect();
    assert_eq!(times, [0.0, 20.0]);
    assert_eq!(out.channels[0].deforms["grip"].len(), 1);
    assert_eq!(out.channels[1], clip.channels[1]);
    assert!(
        edits(&h.state().outputs)
            .iter()
            .any(|(l, d)| *l == "Delete keys" && d.is_none())
    );
}

#[test]
fn copy_and_paste_at_the_playhead_duplicates_the_values() {
    let mut h = sheet(sample_clip());
    let clip = h.state().clip.clone();
    let p20 = h
        .state()
        .widget
        .key_screen_pos(&clip, &key(Dof::Position, 20.0))
        .expect("drawn");
    click(&mut h, p20);
    assert_eq!(h.state().widget.selected().len(), 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    h.run_steps(1);
    h.state_mut().time = frame(27.0);
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run_steps(1);

    let c = h.state().clip.channels[0]
        .position
        .clone()
        .expect("position");
    assert_eq!(c.len(), 4);
    let pasted = c.keys()[3];
    assert!((pasted.time - frame(27.0)).abs() < 1e-5);
    assert_eq!(pasted.value, c.keys()[2].value);
    assert_eq!(pasted.value, Vec3::new(-0.2, 0.0, 0.1));
}

#[test]
fn clicking_a_channel_name_makes_it_active_and_the_ruler_scrubs() {
    let mut h = sheet(sample_clip());
    let layout = h.state().widget.layout().expect("drawn");
    // Row 3 is the head channel's summary row.
    click(
        &mut h,
        Pos2::new(layout.names.left() + 20.0, layout.row_y(3)),
    );
    assert_eq!(h.state().active, Some(1));
    click(
        &mut h,
        Pos2::new(layout.x_of(frame(12.2)), layout.ruler.center().y),
    );
    assert!(
        (h.state().time - frame(12.0)).abs() < 1e-5,
        "{}",
        h.state().time
    );
}

fn limb_scaled_frame() -> MotionFrame {
    let mode = MovementMode {
        scale: ScaleMode::LimbLength,
        ..MovementMode::default()
    };
    let body = RestBody {
        rest: BodyPose::new(Vec3::new(0.3, 1.2, 0.1), Quat::from_rotation_z(0.4)),
        limb_length: 0.7,
        creature_extent: Vec3::new(1.0, 2.0, 0.5),
        contact_height: 1.0,
    };
    // Mirrored, so specialized x runs against generalized x.
    MotionFrame::new(&mode, &body, &Surroundings::default(), true)
}

#[test]
fn a_key_drag_in_the_specialized_view_stores_what_specializes_to_the_dragged_value() {
    let s = limb_scaled_frame();
    let mut h = curves(sample_clip(), Some(s));
    h.state_mut().widget.set_space(CurveSpace::Specialized);
    h.run_steps(2);
    let point = SelectedKey {
        component: Component {
            dof: Dof::Position,
            index: 0,
        },
        time: frame(10.0),
    };
    let from = {
        let host = h.state();
        let inputs = CurveEditorInputs {
            clip: &host.clip,
            active_channel: host.active,
            time_secs: host.time,
            specialize: host.specialize,
        };
        host.widget.key_screen_pos(&inputs, &point).expect("drawn")
    };
    let before = sample_clip().channels[0]
        .position
        .as_ref()
        .map(|c| c.keys()[1].value);
    let before = before.expect("key");
    let shown_before = s.specialize(BodyPose::new(before, Quat::IDENTITY)).position;
    drag(&mut h, from, from + Vec2::new(0.0, -50.0));

    let host = h.state();
    let view = host.widget.view().expect("framed");
    let plot = host.widget.plot_rect().expect("drawn");
    let after = host.clip.channels[0].position.as_ref().map(|c| c.keys()[1]);
    let after = after.expect("key");
    assert!(
        (after.time - frame(10.0)).abs() < 1e-5,
        "moved in time: {}",
        after.time
    );
    let shown_after = s
        .specialize(BodyPose::new(after.value, Quat::IDENTITY))
        .position;
    let expected = shown_before.x + 50.0 / view.px_per_value(plot);
    assert!(
        (shown_after.x - expected).abs() < 1e-4,
        "{shown_after} vs x = {expected}"
    );
    assert!((shown_after.y - shown_before.y).abs() < 1e-5);
    assert!((shown_after.z - shown_before.z).abs() < 1e-5);
    // G really ran: the stored x went down (mirror) by the dragged amount over the limb scale.
    let stored = (after.value.x - before.x) * -0.7;
    assert!(
        (stored - (expected - shown_before.x)).abs() < 1e-4,
        "{stored}"
    );
    let e = edits(&host.outputs);
    assert!(!e.is_empty() && e.iter().all(|(_, d)| d.is_some() && *d == e[0].1));
}

#[test]
fn the_tangent_buttons_set_the_selected_keys_mode() {
    let mut h = curves(sample_clip(), None);
    let point = SelectedKey {
        component: Component {
            dof: Dof::Position,
            index: 1,
        },
        time: frame(10.0),
    };
    let pos = {
        let host = h.state();
        let inputs = CurveEditorInputs {
            clip: &host.clip,
            active_channel: host.active,
            time_secs: host.time,
            specialize: None,
        };
        host.widget.key_screen_pos(&inputs, &point).expect("drawn")
    };
    click(&mut h, pos);
    assert_eq!(h.state().widget.selected(), [point]);
    h.get_by_label("Linear").click();
    h.run_steps(1);
    let modes: Vec<TangentMode> = h.state().clip.channels[0]
        .position
        .as_ref()
        .map(|c| c.keys().iter().map(|k| k.mode).collect())
        .unwrap_or_default();
    assert_eq!(modes[1], TangentMode::Linear);
    assert_eq!(modes[0], TangentMode::AutoClamped);
    h.get_by_label("Broken").click();
    h.run_steps(1);
    let k = h.state().clip.channels[0]
        .position
        .as_ref()
        .map(|c| c.keys()[1]);
    let k = k.expect("key");
    assert!(k.broken && k.mode == TangentMode::Free);
}

#[test]
fn tangent_handles_round_trip_and_broken_moves_one_side() {
    let view = CurveView {
        time_min: -0.1,
        time_max: 1.2,
        value_min: -2.0,
        value_max: 3.0,
    };
    let plot = Rect::from_min_size(Pos2::new(10.0, 20.0), Vec2::new(500.0, 250.0));
    let key_pos = view.to_screen(plot, 0.5, 0.7);
    for slope in [-4.0, -0.3, 0.0, 2.5] {
        for side in [Side::In, Side::Out] {
            let h = handle_pos(&view, plot, key_pos, slope, side);
            assert!((h.distance(key_pos) - super::curve_edit::HANDLE_PX).abs() < 1e-3);
            let back = slope_from_handle(&view, plot, key_pos, h, side).expect("finite");
            assert!((back - slope).abs() < 1e-3, "{slope} came back {back}");
        }
    }
    let t = view.time_at(plot, view.to_screen(plot, 0.9, 0.0).x);
    assert!((t - 0.9).abs() < 1e-5);

    let point = SelectedKey {
        component: Component {
            dof: Dof::Position,
            index: 2,
        },
        time: frame(10.0),
    };
    let s = limb_scaled_frame();
    let map = ViewMap { frame: Some(&s) };
    let clip = sample_clip();
    let joined = set_tangent_slope(&clip, 0, &point, Side::Out, 1.5, map).expect("edited");
    let k = joined.channels[0]
        .position
        .as_ref()
        .map(|c| c.keys()[1])
        .expect("key");
    assert_eq!(k.mode, TangentMode::Free);
    let shown = |t: Vec3| s.specialize_vector(t);
    assert!(
        (shown(k.in_tangent).z - 1.5).abs() < 1e-4 && (shown(k.out_tangent).z - 1.5).abs() < 1e-4
    );

    let broken = super::key_edit::set_broken(&clip, &[key(Dof::Position, 10.0)], true).expect("ok");
    let before = broken.channels[0]
        .position
        .as_ref()
        .map(|c| c.keys()[1])
        .expect("key");
    let edited = set_tangent_slope(&broken, 0, &point, Side::In, -2.0, map).expect("edited");
    let k = edited.channels[0]
        .position
        .as_ref()
        .map(|c| c.keys()[1])
        .expect("key");
    assert!((shown(k.in_tangent).z + 2.0).abs() < 1e-4);
    assert_eq!(k.out_tangent, before.out_tangent);
    assert!(set_tangent_slope(&clip, 0, &point, Side::In, f32::NAN, map).is_none());
}

#[test]
fn hit_testing_prefers_handles_and_ignores_far_points() {
    let p = |i: usize| SelectedKey {
        component: Component {
            dof: Dof::Rotation,
            index: i,
        },
        time: 0.0,
    };
    let points = [(p(0), Pos2::new(10.0, 10.0)), (p(1), Pos2::new(14.0, 10.0))];
    let handles = [(p(0), Side::Out, Pos2::new(15.0, 12.0))];
    assert_eq!(
        hit_test(&points, &handles, Pos2::new(14.0, 11.0), 7.0),
        Some(CurveHit::Handle(p(0), Side::Out))
    );
    assert_eq!(
        hit_test(&points, &[], Pos2::new(13.0, 10.0), 7.0),
        Some(CurveHit::Key(p(1)))
    );
    assert_eq!(
        hit_test(&points, &handles, Pos2::new(100.0, 10.0), 7.0),
        None
    );
}

#[test]
fn rotation_drags_keep_unit_quaternions_and_odd_input_is_refused() {
    let clip = sample_clip();
    let s = limb_scaled_frame();
    let map = ViewMap { frame: Some(&s) };
    let point = SelectedKey {
        component: Component {
            dof: Dof::Rotation,
            index: 1,
        },
        time: frame(15.0),
    };
    let (out, _) = drag_keys(&clip, 1, std::slice::from_ref(&point), 0.0, 0.2, map).expect("ok");
    let q = out.channels[1]
        .rotation
        .as_ref()
        .map(|c| c.keys()[1].value)
        .expect("key");
    assert!((q.length() - 1.0).abs() < 1e-4);
    let before = clip.channels[1]
        .rotation
        .as_ref()
        .map(|c| c.keys()[1].value)
        .expect("key");
    let shown = |q: Quat| s.specialize(BodyPose::new(Vec3::ZERO, q)).rotation;
    assert!((shown(q).y - (shown(before).y + 0.2)).abs() < 1e-4);
    assert!(drag_keys(&clip, 1, std::slice::from_ref(&point), f32::NAN, 0.0, map).is_none());
    assert!(drag_keys(&clip, 1, &[point], 0.0, f32::INFINITY, map).is_none());
    // An empty clip or a channel out of range draws and edits nothing, without panicking.
    let empty = Clip::new("empty", 0.0);
    let mut h = curves(empty.clone(), None);
    h.run_steps(1);
    let mut h2 = sheet(empty);
    h2.run_steps(1);
    assert!(h.state().outputs.is_empty() && h2.state().outputs.is_empty());
}

#[test]
fn dragging_a_tangent_handle_makes_the_key_free_with_the_dragged_slope() {
    let mut h = curves(sample_clip(), None);
    let point = SelectedKey {
        component: Component {
            dof: Dof::Position,
            index: 1,
        },
        time: frame(10.0),
    };
    let key_pos = {
        let host = h.state();
        let inputs = CurveEditorInputs {
            clip: &host.clip,
            active_channel: host.active,
            time_secs: host.time,
            specialize: None,
        };
        host.widget.key_screen_pos(&inputs, &point).expect("drawn")
    };
    click(&mut h, key_pos);
    let (view, plot) = (
        h.state().widget.view().expect("framed"),
        h.state().widget.plot_rect().expect("drawn"),
    );
    let before = h.state().clip.channels[0]
        .position
        .as_ref()
        .map(|c| c.keys()[1]);
    let before = before.expect("key");
    assert_ne!(before.mode, TangentMode::Free);
    let handle = handle_pos(&view, plot, key_pos, before.out_tangent.y, Side::Out);
    let to = handle + Vec2::new(0.0, -30.0);
    drag(&mut h, handle, to);

    let host = h.state();
    let k = host.clip.channels[0].position.as_ref().map(|c| c.keys()[1]);
    let k = k.expect("key");
    assert_eq!(k.mode, TangentMode::Free);
    let want = slope_from_handle(&view, plot, key_pos, to, Side::Out).expect("finite");
    assert!(
        (k.out_tangent.y - want).abs() < 1e-3,
        "{} vs {want}",
        k.out_tangent.y
    );
    assert!(k.out_tangent.y > before.out_tangent.y);
    // Unbroken: one line through the key; the other components keep their slopes.
    assert_eq!(k.in_tangent, k.out_tangent);
    assert_eq!(k.out_tangent.x, before.out_tangent.x);
    let e = edits(&host.outputs);
    assert!(!e.is_empty() && e.iter().all(|(l, d)| *l == "Edit tangent" && *d == e[0].1));
}
