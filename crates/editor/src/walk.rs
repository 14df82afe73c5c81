//! Watching a clip while the creatures walk: each creature runs through the runtime's
//! stateful player ([`Character`]) with the edited clip laid over its gait, as a game would
//! play it. The editor only sets the player's inputs and reads its pose and its feet; the
//! composition (channels that own feet override the gait) is the runtime's.

use anymorph_runtime::clip::Clip;
use anymorph_runtime::creature::Creature;
use anymorph_runtime::eval::StageTimes;
use anymorph_runtime::gait::{FootPhase, GaitLayer, GaitStyle};
use anymorph_runtime::player::Character;
use anymorph_runtime::pose::BodyPose;
use anymorph_runtime::terrain::Terrain;
use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Arc;

/// Forward speeds the panel offers, m/s.
pub const SPEED_RANGE: std::ops::RangeInclusive<f32> = 0.0..=4.0;
/// Turn rates the panel offers, rad/s (positive turns left, about +Y).
pub const TURN_RANGE: std::ops::RangeInclusive<f32> = -2.0..=2.0;
/// Slopes the panel offers, degrees (the runtime takes up to ±60; steeper than this no
/// sample style climbs).
pub const SLOPE_RANGE: std::ops::RangeInclusive<f32> = -30.0..=30.0;
pub const WAVE_AMPLITUDE_RANGE: std::ops::RangeInclusive<f32> = 0.0..=0.3;
pub const WAVE_LENGTH_RANGE: std::ops::RangeInclusive<f32> = 0.5..=10.0;
/// The style used when the project has none by the chosen name: the runtime's built-in.
pub const BUILT_IN_GAIT: &str = "walk";
/// Old footprints kept per foot, drawn fading behind the planted ones.
const FOOTPRINTS_PER_FOOT: usize = 3;

/// The shape of the ground the creatures walk on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GroundShape {
    #[default]
    Flat,
    Slope,
    Waves,
}

impl GroundShape {
    pub const ALL: [GroundShape; 3] = [GroundShape::Flat, GroundShape::Slope, GroundShape::Waves];

    pub fn label(self) -> &'static str {
        match self {
            GroundShape::Flat => "Flat",
            GroundShape::Slope => "Slope",
            GroundShape::Waves => "Waves",
        }
    }
}

/// How a walking creature is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WalkView {
    /// Each creature stays in its slot facing the front: its root motion (travel and turn)
    /// is taken out, and the ground slides under it.
    #[default]
    Treadmill,
    /// Each creature travels and turns from its slot; the path starts over when the clip does.
    Path,
}

impl WalkView {
    pub fn label(self) -> &'static str {
        match self {
            WalkView::Treadmill => "Treadmill",
            WalkView::Path => "Path",
        }
    }
}

/// The Locomotion panel's settings: a view setting, kept in the editor's preferences and
/// never in the project (changing them is not an edit).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LocomotionPrefs {
    pub walking: bool,
    /// Forward, m/s.
    pub speed: f32,
    /// About +Y, rad/s.
    pub turn_rate: f32,
    /// A gait style of the project, by name.
    pub gait: String,
    pub ground: GroundShape,
    pub slope_degrees: f32,
    pub wave_amplitude: f32,
    pub wave_length: f32,
    pub view: WalkView,
    /// A second clip or action played over the active clip, walking or not.
    pub layer: crate::layer::LayerPrefs,
}

impl Default for LocomotionPrefs {
    fn default() -> Self {
        LocomotionPrefs {
            walking: false,
            speed: 1.0,
            turn_rate: 0.0,
            gait: BUILT_IN_GAIT.into(),
            ground: GroundShape::Flat,
            slope_degrees: 10.0,
            wave_amplitude: 0.05,
            wave_length: 2.0,
            view: WalkView::Treadmill,
            layer: crate::layer::LayerPrefs::default(),
        }
    }
}

/// `v` within `range`, or `fallback` when it is not a number (preferences come from disk).
fn within(v: f32, range: &std::ops::RangeInclusive<f32>, fallback: f32) -> f32 {
    if v.is_finite() {
        v.clamp(*range.start(), *range.end())
    } else {
        fallback
    }
}

impl LocomotionPrefs {
    /// Velocity in character space (+Z forward).
    pub fn velocity(&self) -> Vec3 {
        Vec3::Z * within(self.speed, &SPEED_RANGE, 0.0)
    }

    pub fn turn_rate(&self) -> f32 {
        within(self.turn_rate, &TURN_RANGE, 0.0)
    }

    /// The ground as the runtime takes it, always within the panel's ranges.
    pub fn terrain(&self) -> Terrain {
        match self.ground {
            GroundShape::Flat => Terrain::Flat,
            GroundShape::Slope => Terrain::Slope {
                degrees: within(self.slope_degrees, &SLOPE_RANGE, 0.0),
            },
            GroundShape::Waves => Terrain::Waves {
                amplitude: within(self.wave_amplitude, &WAVE_AMPLITUDE_RANGE, 0.0),
                wavelength: within(self.wave_length, &WAVE_LENGTH_RANGE, 2.0),
            },
        }
    }

    /// The chosen style among the project's, else the runtime's built-in walk.
    pub fn style(&self, project_gaits: &[Arc<GaitStyle>]) -> Arc<GaitStyle> {
        project_gaits
            .iter()
            .find(|g| g.name == self.gait)
            .cloned()
            .unwrap_or_else(anymorph_runtime::gait::default_walk)
    }

    /// What the preview needs from these settings this frame.
    pub fn settings(&self, project_gaits: &[Arc<GaitStyle>]) -> WalkSettings {
        WalkSettings {
            velocity: self.velocity(),
            turn_rate: self.turn_rate(),
            terrain: self.terrain(),
            gait: self.style(project_gaits),
            view: self.view,
        }
    }
}

/// The styles the panel lists: the project's, and the built-in walk when the project has no
/// style of that name.
pub fn gait_names(project_gaits: &[Arc<GaitStyle>]) -> Vec<String> {
    let mut names: Vec<String> = project_gaits.iter().map(|g| g.name.clone()).collect();
    if !names.iter().any(|n| n == BUILT_IN_GAIT) {
        names.insert(0, BUILT_IN_GAIT.into());
    }
    names
}

/// The player's inputs for every creature.
#[derive(Clone, Debug, PartialEq)]
pub struct WalkSettings {
    pub velocity: Vec3,
    pub turn_rate: f32,
    pub terrain: Terrain,
    pub gait: Arc<GaitStyle>,
    pub view: WalkView,
}

/// A foot on the ground, in the creature's display space (see [`Walker::display_from_world`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FootMark {
    /// The ground point under the foot.
    pub at: Vec3,
    /// The ground's upward normal there.
    pub normal: Vec3,
    /// The foot's size, metres across, for the mark's radius.
    pub size: f32,
}

impl FootMark {
    /// The mark where `to_display` puts its point, its normal turned by `turn`.
    fn placed(&self, to_display: impl Fn(Vec3) -> Vec3, turn: Quat) -> FootMark {
        FootMark {
            at: to_display(self.at),
            normal: turn * self.normal,
            size: self.size,
        }
    }
}

/// One creature walking: its player and the footprints it left.
#[derive(Clone, Debug)]
pub struct Walker {
    character: Character,
    /// Whether each gait foot (parallel to the gait's limbs) was planted last frame.
    planted: Vec<bool>,
    /// Where feet were planted before, world space, oldest first.
    footprints: VecDeque<FootMark>,
}

impl Walker {
    /// A creature standing at its slot with the clip (if it plays there) started at the
    /// playhead.
    pub fn new(
        creature: Arc<Creature>,
        clip: Option<&Arc<Clip>>,
        variant: usize,
        settings: &WalkSettings,
        layer: Option<&crate::layer::PreviewLayer>,
        clock_secs: f32,
    ) -> Self {
        let mut character = Character::new(creature);
        character.record_ik_debug(true);
        character.set_terrain(settings.terrain);
        character.set_gait_layers(vec![GaitLayer::new(Arc::clone(&settings.gait))]);
        if let Some(clip) = clip {
            let params = crate::layer::base_params(clip, variant, clock_secs);
            if let Err(e) = character.play(clip, params) {
                // Where the clip does not bind, the creature still walks (the roster says why).
                log::trace!("walking without the clip: {e}");
            }
        }
        if let Some(layer) = layer
            && let Err(e) = layer.play(&mut character, clock_secs)
        {
            log::trace!("walking without the layer: {e}");
        }
        Walker {
            character,
            planted: Vec::new(),
            footprints: VecDeque::new(),
        }
    }

    pub fn character(&self) -> &Character {
        &self.character
    }

    /// Walks on with `style` from the next step (an edit of the style being walked): the
    /// feet keep their places and their cycle, as a game's would when it tunes a style.
    pub fn set_style(&mut self, style: &Arc<GaitStyle>) {
        self.character
            .set_gait_layers(vec![GaitLayer::new(Arc::clone(style))]);
    }

    /// Walks `dt_secs` further (0 re-poses in place), adding the player's stage times to
    /// `stages`. External targets are in character space (the document's); in the path
    /// view they stay where their handles are drawn, at the slot, and on the treadmill they
    /// go along with the creature as its slot does.
    pub fn update(
        &mut self,
        settings: &WalkSettings,
        targets_in_character: &[Vec3],
        dt_secs: f32,
        stages: &mut StageTimes,
    ) {
        self.character
            .set_locomotion(settings.velocity, settings.turn_rate);
        let w = self.character.world_from_character();
        for (i, &t) in targets_in_character.iter().enumerate() {
            let world = match settings.view {
                WalkView::Treadmill => w.position + w.rotation * t,
                WalkView::Path => t,
            };
            self.character.set_target(i, world);
        }
        self.character.update_timed(dt_secs, stages);
        self.record_footprints();
    }

    /// Where the creature's character space is shown, relative to its slot: in the
    /// treadmill view the travel and the turn are taken out (the ground under the root
    /// stays at the slot's height 0); in the path view it goes where the player took it.
    pub fn display_from_character(&self, view: WalkView) -> BodyPose {
        match view {
            WalkView::Treadmill => BodyPose::IDENTITY,
            WalkView::Path => self.character.world_from_character(),
        }
    }

    /// Maps the player's world into the slot's display space.
    fn display_from_world(&self, view: WalkView) -> impl Fn(Vec3) -> Vec3 + use<> {
        let w = self.character.world_from_character();
        let inverse = w.rotation.inverse();
        move |p: Vec3| match view {
            WalkView::Treadmill => inverse * (p - w.position),
            WalkView::Path => p,
        }
    }

    /// Rotation part of [`Walker::display_from_world`].
    fn display_rotation(&self, view: WalkView) -> Quat {
        match view {
            WalkView::Treadmill => self.character.world_from_character().rotation.inverse(),
            WalkView::Path => Quat::IDENTITY,
        }
    }

    /// Every body's pose in display space (what the viewport draws at the slot).
    pub fn display_pose(&self, view: WalkView, out: &mut Vec<BodyPose>) {
        let d = self.display_from_character(view);
        out.clear();
        out.extend(self.character.pose().iter().map(|p| {
            BodyPose::new(
                d.position + d.rotation * p.position,
                (d.rotation * p.rotation).normalize(),
            )
        }));
    }

    /// The feet standing on the ground now, in display space.
    pub fn planted_feet(&self, view: WalkView) -> Vec<FootMark> {
        let to_display = self.display_from_world(view);
        let turn = self.display_rotation(view);
        self.ground_marks()
            .into_iter()
            .flatten()
            .map(|m| m.placed(&to_display, turn))
            .collect()
    }

    /// Where feet stood before, oldest first, in display space.
    pub fn footprints(&self, view: WalkView) -> Vec<FootMark> {
        let to_display = self.display_from_world(view);
        let turn = self.display_rotation(view);
        self.footprints
            .iter()
            .map(|m| m.placed(&to_display, turn))
            .collect()
    }

    /// The ground around the creature as lines in display space, where it is not flat (the
    /// viewport's grid is the flat ground): a patch of `cells` × `cells` squares of world
    /// coordinates, so on the treadmill it slides under the creature as the world does.
    pub fn ground_lines(&self, view: WalkView) -> Vec<[Vec3; 2]> {
        let terrain = *self.character.terrain();
        if terrain == Terrain::Flat {
            return Vec::new();
        }
        const CELLS: i32 = 6;
        const STEPS_PER_CELL: i32 = 4;
        let size = self.character.creature().size().max(0.1);
        let cell = size / 3.0;
        let centre = self.character.world_from_character().position;
        let (x0, z0) = ((centre.x / cell).round(), (centre.z / cell).round());
        let to_display = self.display_from_world(view);
        let at = |x: f32, z: f32| to_display(Vec3::new(x, terrain.height(x, z), z));
        let half = CELLS / 2;
        let mut lines = Vec::new();
        for k in -half..=half {
            for step in -half * STEPS_PER_CELL..half * STEPS_PER_CELL {
                let a = step as f32 / STEPS_PER_CELL as f32;
                let b = (step + 1) as f32 / STEPS_PER_CELL as f32;
                let line = (z0 + k as f32) * cell;
                let across = |t: f32| (x0 + t) * cell;
                lines.push([at(across(a), line), at(across(b), line)]);
                let line = (x0 + k as f32) * cell;
                let along = |t: f32| (z0 + t) * cell;
                lines.push([at(line, along(a)), at(line, along(b))]);
            }
        }
        lines
    }

    /// Per gait foot, its mark in world space when it stands on the ground. A foot counts
    /// when the gait has it in stance and it rests at its ground height: a foot a clip
    /// owns is in stance for the gait wherever the clip holds it, and held up it is not
    /// on the ground.
    fn ground_marks(&self) -> Vec<Option<FootMark>> {
        let gait = self.character.gait();
        let terrain = self.character.terrain();
        let creature = self.character.creature();
        gait.feet()
            .iter()
            .zip(&gait.gear().limbs)
            .map(|(foot, limb)| {
                if foot.phase != FootPhase::Stance {
                    return None;
                }
                let p = foot.anchor.position;
                let ground = terrain.height(p.x, p.z);
                let lifted = p.y - ground - limb.home.y;
                let tolerance = (0.05 * limb.length).max(0.01);
                (lifted.abs() <= tolerance).then(|| {
                    let extents = creature.body(limb.foot).half_extents.abs();
                    FootMark {
                        at: Vec3::new(p.x, ground, p.z),
                        normal: terrain.normal(p.x, p.z),
                        size: 2.0 * extents.x.max(extents.z),
                    }
                })
            })
            .collect()
    }

    /// Keeps where each foot that just landed stands, so the trail shows the stride.
    fn record_footprints(&mut self) {
        let marks = self.ground_marks();
        self.planted.resize(marks.len(), false);
        for (i, mark) in marks.iter().enumerate() {
            match mark {
                Some(m) if !self.planted[i] => {
                    self.footprints.push_back(*m);
                    self.planted[i] = true;
                }
                Some(_) => {}
                None => self.planted[i] = false,
            }
        }
        let keep = FOOTPRINTS_PER_FOOT * marks.len().max(1);
        while self.footprints.len() > keep {
            self.footprints.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn biped() -> Arc<Creature> {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        Arc::new(
            anymorph_io::load_creature(&root.join("sample_creatures/biped.creature.json")).unwrap(),
        )
    }

    #[test]
    fn preferences_off_the_panel_ranges_give_sane_inputs() {
        let prefs = LocomotionPrefs {
            speed: f32::NAN,
            turn_rate: 50.0,
            ground: GroundShape::Slope,
            slope_degrees: 89.0,
            ..LocomotionPrefs::default()
        };
        assert_eq!(prefs.velocity(), Vec3::ZERO);
        assert_eq!(prefs.turn_rate(), *TURN_RANGE.end());
        assert_eq!(
            prefs.terrain(),
            Terrain::Slope {
                degrees: *SLOPE_RANGE.end()
            }
        );
        let waves = LocomotionPrefs {
            ground: GroundShape::Waves,
            wave_length: 0.0,
            ..LocomotionPrefs::default()
        };
        assert!(matches!(waves.terrain(), Terrain::Waves { wavelength, .. } if wavelength > 0.0));
    }

    #[test]
    fn the_settings_persist_and_older_preferences_load_without_them() {
        use crate::prefs::Preferences;
        let prefs = Preferences {
            locomotion: LocomotionPrefs {
                walking: true,
                speed: 2.5,
                gait: "trot".into(),
                ground: GroundShape::Waves,
                view: WalkView::Path,
                ..LocomotionPrefs::default()
            },
            ..Preferences::default()
        };
        let text = serde_json::to_string(&prefs).unwrap();
        let back: Preferences = serde_json::from_str(&text).unwrap();
        assert_eq!(back, prefs);
        let older: Preferences = serde_json::from_str(r#"{"recent": []}"#).unwrap();
        assert_eq!(older.locomotion, LocomotionPrefs::default());
        assert!(!older.locomotion.walking);
    }

    #[test]
    fn an_unknown_style_falls_back_to_the_built_in_walk() {
        let prefs = LocomotionPrefs {
            gait: "moonwalk".into(),
            ..LocomotionPrefs::default()
        };
        assert_eq!(prefs.style(&[]).name, BUILT_IN_GAIT);
        assert_eq!(gait_names(&[]), vec![BUILT_IN_GAIT.to_string()]);
    }

    #[test]
    fn a_walking_biped_travels_on_the_path_and_stays_in_its_slot_on_the_treadmill() {
        let settings = LocomotionPrefs {
            walking: true,
            speed: 1.0,
            ..LocomotionPrefs::default()
        }
        .settings(&[]);
        let mut w = Walker::new(biped(), None, 0, &settings, None, 0.0);
        let mut planted_seen = 0;
        for _ in 0..120 {
            w.update(&settings, &[], 1.0 / 60.0, &mut StageTimes::default());
            planted_seen += w.planted_feet(WalkView::Treadmill).len();
        }
        let travelled = w.display_from_character(WalkView::Path).position;
        assert!(travelled.z > 1.5, "two seconds at 1 m/s went {travelled}");
        assert_eq!(
            w.display_from_character(WalkView::Treadmill),
            BodyPose::IDENTITY
        );
        assert!(planted_seen > 0, "no foot was ever on the ground");
        // On the treadmill the planted feet stand near the slot, on its ground.
        for m in w.planted_feet(WalkView::Treadmill) {
            assert!(m.at.y.abs() < 1e-3 && m.at.z.abs() < 1.0, "{m:?}");
        }
        assert!(!w.footprints(WalkView::Path).is_empty());
    }
}
