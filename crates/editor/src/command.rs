//! Every user action as one enum (rerun's `UICommand`): menus, keyboard shortcuts, buttons
//! and the Help list all come from here. Panels push commands while they lay out; the app
//! applies them after layout, so no panel mutates shared state mid-frame.

use anymorph_runtime::clip::Clip;
use anymorph_runtime::pose::BodyPose;
use egui::{Key, KeyboardShortcut, Modifiers};
use std::path::PathBuf;

/// A user action. Variants without data appear in menus and the shortcut list
/// ([`Command::ALL`]); variants with data come from panels (a row's button, a combo box).
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    // File
    NewProject,
    OpenProject,
    SaveProject,
    SaveProjectAs,
    ReloadProject,
    AddCreatureFromFile,
    ImportCreature,
    SaveCreatureAs,
    BakeGltf,
    Quit,
    // Edit
    Undo,
    Redo,
    ShowHistory,
    SetKey,
    DeleteKey,
    CopyPose,
    PastePose,
    ToggleAutoKey,
    TranslateTool,
    RotateTool,
    ToggleGizmoSpace,
    AddChannel,
    DuplicateChannel,
    DeleteChannel,
    NewClip,
    DuplicateClip,
    DeleteClip,
    NewAction,
    AddBranch,
    Deselect,
    RemoveSelectedCreature,
    ResetTarget,
    // View
    FrameAll,
    FrameSelected,
    ToggleJoints,
    ToggleGoals,
    ToggleIk,
    ToggleCurve,
    ToggleTarget,
    ToggleLabels,
    ToggleGround,
    ToggleMesh,
    ToggleProxies,
    ToggleGhosts,
    ToggleChannelPanel,
    ToggleRosterPanel,
    ToggleTimelinePanel,
    ToggleKeysPanel,
    ToggleValidation,
    ToggleCapsPanel,
    ToggleFootfalls,
    ResetLayout,
    // Playback
    TogglePlay,
    StepForward,
    StepBack,
    GoToStart,
    GoToEnd,
    ToggleLoop,
    /// Every previewed creature walks (the Locomotion panel's settings) or stands.
    ToggleWalk,
    NextClip,
    PreviousClip,
    // Help
    ShowShortcuts,
    ShowAbout,

    // With data: from panels.
    OpenProjectPath(PathBuf),
    SaveProjectTo(PathBuf),
    /// Bake the active clip for every roster creature it plays on, in its chosen variant,
    /// one GLB per creature into this folder.
    BakeGltfTo(PathBuf),
    /// Replace the active clip with an edited copy; edits with the same `drag` merge into
    /// one undo step.
    EditClip {
        clip: Box<Clip>,
        label: String,
        drag: Option<u64>,
    },
    /// The gizmo moved the active body's goal to this world pose.
    PoseActive {
        pose: BodyPose,
        drag: u64,
    },
    /// The animator let go of the gizmo.
    EndPose,
    GoToHistory(usize),
    RecoverAutosave,
    DiscardAutosave,
    MoveChannel {
        from: usize,
        to: usize,
    },
    SoloChannel(Option<usize>),
    /// Change a channel's movement mode, remapping its keys so the active body's curve
    /// keeps its shape.
    SetChannelMode {
        channel: usize,
        mode: anymorph_runtime::movement::MovementMode,
    },
    AddCreature(PathBuf),
    RemoveCreature(usize),
    /// Write roster creature `creature` to `path` as `*.creature.json` (its mesh reference
    /// follows it) and make the project refer to that file.
    SaveCreatureTo {
        creature: usize,
        path: PathBuf,
    },
    /// Replace one body's caps; the creature is derived again (root, spine, legs).
    SetBodyCaps {
        creature: usize,
        body: usize,
        caps: Vec<anymorph_runtime::creature::Cap>,
    },
    SetVariant {
        creature: usize,
        variant: usize,
    },
    SetActiveClip(usize),
    /// A new clip copied from the bundled sample clip of this name (`samples::CLIPS`).
    NewClipFromTemplate(String),
    /// A new gait style copied from the bundled style of this name (`samples::GAITS`), under
    /// a name the project does not use yet.
    NewGaitFromTemplate(String),
    /// Take branch `branch` out of action `action` (the action goes when its last does).
    RemoveBranch {
        action: usize,
        branch: usize,
    },
    /// Move a branch of `action` from one place in the order to another.
    MoveBranch {
        action: usize,
        from: usize,
        to: usize,
    },
    /// Make the active clip a branch of action `action`, tried last.
    AddBranchTo(usize),
    DeleteAction(usize),
    /// Copy action `action` (its branches and intent) under a name of its own, right after it.
    DuplicateAction(usize),
    /// Rename action `action` and set what it is for.
    SetActionText {
        action: usize,
        name: String,
        intent: String,
    },
    ToggleChannelMute(usize),
    SetActiveChannel(Option<usize>),
    Select(Option<Selection>),
    SetTime(f32),
    SetSpeed(f32),
    /// The Locomotion panel's settings (a view setting: not an edit of the project).
    SetLocomotion(Box<crate::walk::LocomotionPrefs>),
    /// Replace the project's gait style `index` with an edited copy; edits with the same
    /// `drag` merge into one undo step.
    EditGait {
        index: usize,
        style: Box<anymorph_runtime::gait::GaitStyle>,
        label: String,
        drag: Option<u64>,
    },
    /// External target 0 in character space; one drag is one undo step.
    SetTarget {
        at: glam::Vec3,
        drag: u64,
    },
}

/// What the animator has picked: a creature, and optionally one of its bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    pub creature: usize,
    pub body: Option<usize>,
}

/// The menu a command sits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Menu {
    File,
    Edit,
    /// The project's clips and actions: the library.
    Clip,
    View,
    Playback,
    Help,
}

impl Command {
    /// Every command without data, in menu order.
    pub const ALL: &'static [Command] = &[
        Command::NewProject,
        Command::OpenProject,
        Command::SaveProject,
        Command::SaveProjectAs,
        Command::ReloadProject,
        Command::AddCreatureFromFile,
        Command::ImportCreature,
        Command::SaveCreatureAs,
        Command::BakeGltf,
        Command::Quit,
        Command::Undo,
        Command::Redo,
        Command::ShowHistory,
        Command::SetKey,
        Command::DeleteKey,
        Command::CopyPose,
        Command::PastePose,
        Command::ToggleAutoKey,
        Command::TranslateTool,
        Command::RotateTool,
        Command::ToggleGizmoSpace,
        Command::AddChannel,
        Command::DuplicateChannel,
        Command::DeleteChannel,
        Command::NewClip,
        Command::DuplicateClip,
        Command::DeleteClip,
        Command::NewAction,
        Command::AddBranch,
        Command::Deselect,
        Command::RemoveSelectedCreature,
        Command::ResetTarget,
        Command::FrameAll,
        Command::FrameSelected,
        Command::ToggleJoints,
        Command::ToggleGoals,
        Command::ToggleIk,
        Command::ToggleCurve,
        Command::ToggleTarget,
        Command::ToggleLabels,
        Command::ToggleGround,
        Command::ToggleMesh,
        Command::ToggleProxies,
        Command::ToggleGhosts,
        Command::ToggleChannelPanel,
        Command::ToggleRosterPanel,
        Command::ToggleTimelinePanel,
        Command::ToggleKeysPanel,
        Command::ToggleValidation,
        Command::ToggleCapsPanel,
        Command::ToggleFootfalls,
        Command::ResetLayout,
        Command::TogglePlay,
        Command::StepBack,
        Command::StepForward,
        Command::GoToStart,
        Command::GoToEnd,
        Command::ToggleLoop,
        Command::ToggleWalk,
        Command::PreviousClip,
        Command::NextClip,
        Command::ShowShortcuts,
        Command::ShowAbout,
    ];

    /// What menus, buttons and the Help list call the command.
    pub fn label(&self) -> &'static str {
        match self {
            Command::NewProject => "New Project",
            Command::OpenProject => "Open Project…",
            Command::SaveProject => "Save",
            Command::SaveProjectAs => "Save As…",
            Command::Undo => "Undo",
            Command::Redo => "Redo",
            Command::ShowHistory => "Undo History",
            Command::SetKey => "Set Key",
            Command::DeleteKey => "Delete Key",
            Command::CopyPose => "Copy Pose",
            Command::PastePose => "Paste Pose",
            Command::ToggleAutoKey => "Auto Key",
            Command::TranslateTool => "Translate Tool",
            Command::RotateTool => "Rotate Tool",
            Command::ToggleGizmoSpace => "Gizmo in Local Space",
            Command::AddChannel => "Add Channel",
            Command::DuplicateChannel => "Duplicate Channel",
            Command::DeleteChannel => "Delete Channel",
            Command::NewClip => "New Clip",
            Command::DuplicateClip => "Duplicate Clip",
            Command::DeleteClip => "Delete Clip",
            Command::NewAction => "New Action from Clip",
            Command::AddBranch => "Add Clip to Its Action",
            Command::ReloadProject => "Reload Project",
            Command::AddCreatureFromFile => "Add Creature from File…",
            Command::ImportCreature => "Import Creature (glTF)…",
            Command::SaveCreatureAs => "Save Creature As…",
            Command::SaveCreatureTo { .. } => "Save Creature",
            Command::SetBodyCaps { .. } => "Edit Caps",
            Command::ToggleMesh => "Skinned Mesh",
            Command::ToggleProxies => "Body Proxies",
            Command::ToggleGhosts => "Ghosts (Onion Skin)",
            Command::ToggleCapsPanel => "Caps",
            Command::ToggleFootfalls => "Footfalls and Gait Style",
            Command::EditGait { .. } => "Edit Gait Style",
            Command::BakeGltf => "Bake glTF…",
            Command::BakeGltfTo(_) => "Bake glTF",
            Command::Quit => "Quit",
            Command::Deselect => "Deselect",
            Command::RemoveSelectedCreature => "Remove Selected Creature",
            Command::ResetTarget => "Reset Target",
            Command::FrameAll => "Frame All",
            Command::FrameSelected => "Frame Selected",
            Command::ToggleJoints => "Joints and Bones",
            Command::ToggleGoals => "Goals",
            Command::ToggleIk => "IK Particles and Constraints",
            Command::ToggleCurve => "Active Channel Curve",
            Command::ToggleTarget => "External Target",
            Command::ToggleLabels => "Creature Names",
            Command::ToggleGround => "Ground and Shadows",
            Command::ToggleChannelPanel => "Channels Panel",
            Command::ToggleRosterPanel => "Creatures Panel",
            Command::ToggleTimelinePanel => "Timeline Panel",
            Command::ToggleValidation => "Validation Grid",
            Command::ToggleKeysPanel => "Dope Sheet and Curves",
            Command::ResetLayout => "Reset Layout",
            Command::TogglePlay => "Play / Pause",
            Command::StepForward => "Next Frame",
            Command::StepBack => "Previous Frame",
            Command::GoToStart => "Go to Start",
            Command::GoToEnd => "Go to End",
            Command::ToggleLoop => "Loop Playback",
            Command::ToggleWalk => "Walk",
            Command::NextClip => "Next Clip",
            Command::PreviousClip => "Previous Clip",
            Command::ShowShortcuts => "Keyboard Shortcuts",
            Command::ShowAbout => "About Anymorph",
            Command::OpenProjectPath(_) => "Open Project",
            Command::SaveProjectTo(_) => "Save As",
            Command::EditClip { .. } => "Edit Clip",
            Command::PoseActive { .. } => "Pose",
            Command::EndPose => "End Pose",
            Command::GoToHistory(_) => "Go to History Step",
            Command::RecoverAutosave => "Recover",
            Command::DiscardAutosave => "Discard Recovery",
            Command::MoveChannel { .. } => "Move Channel",
            Command::SoloChannel(_) => "Solo Channel",
            Command::SetChannelMode { .. } => "Set Movement Mode",
            Command::AddCreature(_) => "Add Creature",
            Command::RemoveCreature(_) => "Remove Creature",
            Command::SetVariant { .. } => "Set Variant",
            Command::SetActiveClip(_) => "Set Active Clip",
            Command::NewClipFromTemplate(_) => "New Clip from Template",
            Command::NewGaitFromTemplate(_) => "New Gait Style from Template",
            Command::RemoveBranch { .. } => "Remove Branch",
            Command::MoveBranch { .. } => "Reorder Branches",
            Command::AddBranchTo(_) => "Add Branch",
            Command::DeleteAction(_) => "Delete Action",
            Command::DuplicateAction(_) => "Duplicate Action",
            Command::SetActionText { .. } => "Rename Action",
            Command::ToggleChannelMute(_) => "Mute Channel",
            Command::SetActiveChannel(_) => "Set Active Channel",
            Command::Select(_) => "Select",
            Command::SetTime(_) => "Set Time",
            Command::SetSpeed(_) => "Set Playback Speed",
            Command::SetLocomotion(_) => "Set Locomotion",
            Command::SetTarget { .. } => "Move Target",
        }
    }

    /// A one-line explanation for tooltips and the Help list.
    pub fn tooltip(&self) -> &'static str {
        match self {
            Command::NewProject => "Start an empty project previewed on the same creatures",
            Command::OpenProject => "Open a *.project.json",
            Command::SaveProject => "Write the project and its clips (atomically)",
            Command::SaveProjectAs => "Write the project and its clips to a new place",
            Command::Undo => "Take back the last edit (a whole drag is one step)",
            Command::Redo => "Do the last undone edit again",
            Command::ShowHistory => "List every edit; click one to go back to it",
            Command::SetKey => {
                "Key the active channel at the playhead: the posed body, or the value it has now"
            }
            Command::DeleteKey => "Delete the active channel's keys at the playhead",
            Command::CopyPose => "Copy the active channel's value at the playhead",
            Command::PastePose => "Key the copied value on the active channel at the playhead",
            Command::ToggleAutoKey => "Key every gizmo move at once instead of waiting for S",
            Command::TranslateTool => "Move the active body with the gizmo",
            Command::RotateTool => "Rotate the active body with the gizmo",
            Command::ToggleGizmoSpace => "Gizmo axes along the body instead of the world",
            Command::AddChannel => "Add a channel on every body; narrow its query in the inspector",
            Command::DuplicateChannel => "Copy the active channel with its keys",
            Command::DeleteChannel => "Remove the active channel from the clip",
            Command::NewClip => "Start an empty clip, saved as its own file beside the project",
            Command::DuplicateClip => {
                "Copy the active clip with its channels and keys, to vary it without losing it"
            }
            Command::DeleteClip => {
                "Take the active clip out of the project and its actions (undo brings it back)"
            }
            Command::NewAction => {
                "Start an action named after the active clip, with that clip as its first branch"
            }
            Command::AddBranch => {
                "Make the active clip the last branch of the action picked in the Actions list"
            }
            Command::ReloadProject => "Load the project again from disk",
            Command::AddCreatureFromFile => "Preview the clip on one more creature file",
            Command::ImportCreature => {
                "Import a rig from .glb/.gltf (legs and graspers found by name and geometry)"
            }
            Command::SaveCreatureAs => {
                "Write the selected creature (its caps, and a reference to its mesh) as *.creature.json"
            }
            Command::ToggleMesh => "Draw the skinned mesh of creatures imported from glTF",
            Command::ToggleProxies => {
                "Draw the bodies as boxes and capsules (a mesh turns see-through over them)"
            }
            Command::ToggleGhosts => {
                "Show the selected creature's skeleton a few frames before (blue) and after (orange) the playhead"
            }
            Command::ToggleCapsPanel => {
                "Review and edit the caps of each body of the selected creature"
            }
            Command::BakeGltf => {
                "Bake the clip for every creature it plays on, in its chosen variant, to GLB files"
            }
            Command::Quit => "Close the editor",
            Command::Deselect => "Clear the selection",
            Command::RemoveSelectedCreature => "Take the selected creature out of the preview",
            Command::ResetTarget => "Put the external target back where the project has it",
            Command::FrameAll => "Fit every creature in the viewport",
            Command::FrameSelected => "Fit the selected body or creature in the viewport",
            Command::ToggleJoints => "Show joints and the bones between them",
            Command::ToggleGoals => "Show the goals the clip asks of each body",
            Command::ToggleIk => "Show the IK solver's particles and length constraints",
            Command::ToggleCurve => "Draw the active channel's curve in space on every creature",
            Command::ToggleTarget => {
                "Show the external target handle; drag it to drive reach and look-at channels"
            }
            Command::ToggleLabels => "Name every creature in the viewport",
            Command::ToggleGround => "Show the ground grid and contact shadows",
            Command::ToggleChannelPanel => "Show the clip's channels on the left",
            Command::ToggleRosterPanel => "Show the creatures on the right",
            Command::ToggleTimelinePanel => "Show the timeline at the bottom",
            Command::ToggleKeysPanel => "Show the dope sheet / curve editor above the timeline",
            Command::ToggleValidation => {
                "Check every clip on every creature; click a cell to see its failure"
            }
            Command::ToggleFootfalls => {
                "Each walking creature's feet over one step cycle (stance dark, swing light); drag a bar or type to edit the gait style"
            }
            Command::ResetLayout => "Show every panel at its default size",
            Command::TogglePlay => "Start or stop playback",
            Command::StepForward => "Advance one frame of the clip",
            Command::StepBack => "Go back one frame of the clip",
            Command::GoToStart => "Jump to the clip's first frame",
            Command::GoToEnd => "Jump to the clip's last frame",
            Command::ToggleLoop => "Start over at the end instead of stopping",
            Command::ToggleWalk => {
                "Every creature walks with the Locomotion panel's speed, turn, gait style and ground, the clip played over the walk"
            }
            Command::NextClip => "Preview the next clip of the project",
            Command::PreviousClip => "Preview the previous clip of the project",
            Command::ShowShortcuts => "List every command with its shortcut",
            Command::ShowAbout => "What Anymorph is",
            _ => "",
        }
    }

    /// The keyboard shortcut, if the command has one. Navigation follows Maya and Blender
    /// (F frame selected, A / Home frame all, Space play, arrows step).
    pub fn shortcut(&self) -> Option<KeyboardShortcut> {
        let key = |key| Some(KeyboardShortcut::new(Modifiers::NONE, key));
        let with = |modifiers, key| Some(KeyboardShortcut::new(modifiers, key));
        match self {
            Command::NewProject => with(Modifiers::COMMAND, Key::N),
            Command::OpenProject => with(Modifiers::COMMAND, Key::O),
            Command::SaveProject => with(Modifiers::COMMAND, Key::S),
            Command::SaveProjectAs => with(Modifiers::COMMAND | Modifiers::SHIFT, Key::S),
            Command::Undo => with(Modifiers::COMMAND, Key::Z),
            Command::Redo => with(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z),
            Command::SetKey => key(Key::S),
            Command::NewClip => with(Modifiers::COMMAND | Modifiers::SHIFT, Key::N),
            Command::DuplicateClip => with(Modifiers::COMMAND, Key::D),
            Command::DeleteKey => key(Key::Delete),
            Command::CopyPose => with(Modifiers::COMMAND, Key::C),
            Command::PastePose => with(Modifiers::COMMAND, Key::V),
            Command::TranslateTool => key(Key::W),
            Command::RotateTool => key(Key::E),
            Command::ToggleGizmoSpace => key(Key::L),
            Command::ReloadProject => with(Modifiers::COMMAND | Modifiers::SHIFT, Key::R),
            Command::AddCreatureFromFile => with(Modifiers::COMMAND | Modifiers::SHIFT, Key::A),
            Command::Quit => with(Modifiers::COMMAND, Key::Q),
            Command::Deselect => key(Key::Escape),
            Command::FrameAll => key(Key::A),
            Command::FrameSelected => key(Key::F),
            Command::ToggleJoints => with(Modifiers::ALT, Key::J),
            Command::ToggleGoals => with(Modifiers::ALT, Key::G),
            Command::ToggleIk => with(Modifiers::ALT, Key::I),
            Command::ToggleCurve => with(Modifiers::ALT, Key::C),
            Command::ToggleTarget => with(Modifiers::ALT, Key::T),
            Command::ToggleLabels => with(Modifiers::ALT, Key::N),
            Command::ToggleMesh => with(Modifiers::ALT, Key::M),
            Command::ToggleProxies => with(Modifiers::ALT, Key::B),
            Command::ToggleGhosts => with(Modifiers::ALT, Key::O),
            Command::ToggleFootfalls => with(Modifiers::ALT, Key::F),
            Command::TogglePlay => key(Key::Space),
            Command::StepForward => key(Key::ArrowRight),
            Command::StepBack => key(Key::ArrowLeft),
            Command::GoToStart => with(Modifiers::SHIFT, Key::ArrowLeft),
            Command::GoToEnd => with(Modifiers::SHIFT, Key::ArrowRight),
            Command::ToggleWalk => with(Modifiers::ALT, Key::W),
            Command::NextClip => key(Key::PageDown),
            Command::PreviousClip => key(Key::PageUp),
            Command::ShowShortcuts => key(Key::F1),
            _ => None,
        }
    }

    /// A second shortcut some users' hands expect (Blender's Home for frame all).
    pub fn alternate_shortcut(&self) -> Option<KeyboardShortcut> {
        match self {
            Command::FrameAll => Some(KeyboardShortcut::new(Modifiers::NONE, Key::Home)),
            Command::Redo => Some(KeyboardShortcut::new(Modifiers::COMMAND, Key::Y)),
            _ => None,
        }
    }

    pub fn menu(&self) -> Option<Menu> {
        use Command as C;
        Some(match self {
            C::NewProject
            | C::OpenProject
            | C::SaveProject
            | C::SaveProjectAs
            | C::ReloadProject
            | C::AddCreatureFromFile
            | C::ImportCreature
            | C::SaveCreatureAs
            | C::BakeGltf
            | C::Quit => Menu::File,
            C::Undo
            | C::Redo
            | C::ShowHistory
            | C::SetKey
            | C::DeleteKey
            | C::CopyPose
            | C::PastePose
            | C::ToggleAutoKey
            | C::TranslateTool
            | C::RotateTool
            | C::ToggleGizmoSpace
            | C::AddChannel
            | C::DuplicateChannel
            | C::DeleteChannel
            | C::Deselect
            | C::RemoveSelectedCreature
            | C::ResetTarget => Menu::Edit,
            C::NewClip | C::DuplicateClip | C::DeleteClip | C::NewAction | C::AddBranch => {
                Menu::Clip
            }
            C::FrameAll
            | C::FrameSelected
            | C::ToggleJoints
            | C::ToggleGoals
            | C::ToggleIk
            | C::ToggleCurve
            | C::ToggleTarget
            | C::ToggleLabels
            | C::ToggleGround
            | C::ToggleMesh
            | C::ToggleProxies
            | C::ToggleGhosts
            | C::ToggleChannelPanel
            | C::ToggleRosterPanel
            | C::ToggleTimelinePanel
            | C::ToggleValidation
            | C::ToggleKeysPanel
            | C::ToggleCapsPanel
            | C::ToggleFootfalls
            | C::ResetLayout => Menu::View,
            C::TogglePlay
            | C::StepForward
            | C::StepBack
            | C::GoToStart
            | C::GoToEnd
            | C::ToggleLoop
            | C::ToggleWalk
            | C::NextClip
            | C::PreviousClip => Menu::Playback,
            C::ShowShortcuts | C::ShowAbout => Menu::Help,
            _ => return None,
        })
    }
}

/// Commands pushed during a frame, applied after layout.
#[derive(Debug, Default)]
pub struct CommandQueue {
    pending: Vec<Command>,
}

impl CommandQueue {
    pub fn push(&mut self, command: Command) {
        log::trace!("command {command:?}");
        self.pending.push(command);
    }

    pub fn take(&mut self) -> Vec<Command> {
        std::mem::take(&mut self.pending)
    }

    /// Pushes every command whose shortcut was pressed this frame, consuming the key so the
    /// focused widget does not also act on it (Space would otherwise press a focused button
    /// as well as toggle playback). Nothing is taken while a text field has the keyboard.
    pub fn push_shortcuts(&mut self, ctx: &egui::Context) {
        self.push_shortcuts_except(ctx, &[]);
    }

    /// Like [`CommandQueue::push_shortcuts`], leaving the keys of `skip` to a widget that
    /// handles them itself (the dope sheet deletes its selected keys under the pointer).
    pub fn push_shortcuts_except(&mut self, ctx: &egui::Context, skip: &[Command]) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        // Longer modifier sets first, so Shift+Left is not also read as Left.
        let mut bound: Vec<(KeyboardShortcut, &Command)> = Command::ALL
            .iter()
            .flat_map(|c| {
                [c.shortcut(), c.alternate_shortcut()]
                    .into_iter()
                    .flatten()
                    .map(move |s| (s, c))
            })
            .collect();
        bound.sort_by_key(|(s, _)| std::cmp::Reverse(modifier_count(s.modifiers)));
        bound.retain(|(_, c)| !skip.contains(c));
        for (shortcut, command) in bound {
            if ctx.input_mut(|i| i.consume_shortcut(&shortcut)) {
                self.push(command.clone());
            }
        }
    }
}

fn modifier_count(m: Modifiers) -> u32 {
    u32::from(m.alt) + u32::from(m.ctrl) + u32::from(m.shift) + u32::from(m.command || m.mac_cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_command_has_a_label_a_tooltip_and_a_menu() {
        for c in Command::ALL {
            assert!(!c.label().is_empty());
            assert!(!c.tooltip().is_empty(), "{c:?}");
            assert!(c.menu().is_some(), "{c:?}");
        }
    }

    #[test]
    fn no_two_commands_share_a_shortcut() {
        let mut seen = Vec::new();
        for c in Command::ALL {
            for s in [c.shortcut(), c.alternate_shortcut()].into_iter().flatten() {
                assert!(!seen.contains(&s), "{c:?} reuses {s:?}");
                seen.push(s);
            }
        }
    }
}
