//! Applying a command: the one place every menu item, shortcut and panel button ends up.

use super::*;

impl AnymorphApp {
    pub(super) fn apply(&mut self, ctx: &egui::Context, command: Command) {
        log::debug!("{command:?}");
        let duration = self.duration();
        let fps = self.doc.clip().map_or(30.0, |c| c.fps);
        let overlays = &mut self.prefs.overlays;
        let panels = &mut self.prefs.panels;
        match command {
            Command::OpenProject => {
                let request = FileRequest::new(
                    PathPurpose::OpenProject,
                    PathKind::OpenFile,
                    "Open a Project",
                    "Open Project",
                )
                .filter("Anymorph project", &["json"])
                .directory(self.doc.path.as_deref().and_then(Path::parent));
                self.ask_path(request);
            }
            Command::OpenProjectPath(path) => self.open(&path),
            Command::ReloadProject => {
                if let Some(path) = self.doc.path.clone() {
                    self.open(&path);
                }
            }
            Command::AddCreatureFromFile => {
                // A creature is either file: the project's own or a rig from a DCC tool.
                let request = FileRequest::new(
                    PathPurpose::AddCreature,
                    PathKind::OpenFile,
                    "Add Creature from File",
                    "Add Creature",
                )
                .filter("Creature or glTF rig", &["json", "glb", "gltf"])
                .filter("Anymorph creature", &["json"])
                .filter("glTF rig", &["glb", "gltf"])
                .directory(self.creature_folder().as_deref());
                self.ask_path(request);
            }
            Command::AddCreature(path) => self.add_creature(&path),
            Command::ImportCreature => {
                let request = FileRequest::new(
                    PathPurpose::AddCreature,
                    PathKind::OpenFile,
                    "Import Creature (glTF)",
                    "Import Rig",
                )
                .filter("glTF rig", &["glb", "gltf"])
                .directory(self.creature_folder().as_deref());
                self.ask_path(request);
            }
            Command::BakeGltf => {
                let request = FileRequest::new(
                    PathPurpose::Bake,
                    PathKind::Folder,
                    "Bake glTF into a Folder",
                    "Bake Here",
                )
                .directory(self.doc.path.as_deref().and_then(Path::parent));
                self.ask_path(request);
            }
            Command::BakeGltfTo(dir) => self.bake_to(&dir),
            Command::SaveCreatureAs => self.save_creature_dialog(),
            Command::SaveCreatureTo { creature, path } => self.save_creature_to(creature, &path),
            Command::SetBodyCaps {
                creature,
                body,
                caps,
            } => self.set_body_caps(creature, body, caps),
            Command::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            Command::Deselect => self.selection = None,
            Command::RemoveSelectedCreature => {
                if let Some(sel) = self.selection.take() {
                    self.remove_creature(sel.creature);
                }
            }
            Command::RemoveCreature(i) => self.remove_creature(i),
            Command::ResetTarget => {
                self.doc.view_targets(None);
                let targets = self.doc.project_targets.clone();
                self.edit_content("Reset target", None, |c| c.external_targets = targets);
            }
            Command::FrameAll => self.viewport.request_frame(FrameRequest::All),
            Command::FrameSelected => self.viewport.request_frame(FrameRequest::Selected),
            Command::ToggleJoints => overlays.joints ^= true,
            Command::ToggleGoals => overlays.goals ^= true,
            Command::ToggleIk => overlays.ik ^= true,
            Command::ToggleCurve => overlays.curve ^= true,
            Command::ToggleTarget => overlays.target ^= true,
            Command::ToggleLabels => overlays.labels ^= true,
            Command::ToggleGround => overlays.ground ^= true,
            Command::ToggleMesh => overlays.mesh ^= true,
            Command::ToggleProxies => overlays.proxies ^= true,
            Command::ToggleGhosts => overlays.ghosts ^= true,
            Command::ToggleCapsPanel => panels.caps ^= true,
            Command::ToggleFootfalls => panels.footfalls ^= true,
            Command::ToggleChannelPanel => panels.channels ^= true,
            Command::ToggleRosterPanel => panels.roster ^= true,
            Command::ToggleTimelinePanel => panels.timeline ^= true,
            Command::ResetLayout => {
                *panels = Default::default();
                self.prefs.layout_generation = self.prefs.layout_generation.wrapping_add(1);
            }
            Command::TogglePlay => self.playback.toggle(duration),
            Command::StepForward => self.playback.step_frames(1, fps, duration),
            Command::StepBack => self.playback.step_frames(-1, fps, duration),
            Command::GoToStart => self.playback.set_time(0.0, duration),
            Command::GoToEnd => self.playback.set_time(duration, duration),
            Command::ToggleLoop => self.prefs.playback.looping ^= true,
            Command::ToggleWalk => self.prefs.locomotion.walking ^= true,
            Command::SetLocomotion(settings) => self.prefs.locomotion = *settings,
            Command::SetSpeed(s) => {
                if s.is_finite() && s > 0.0 {
                    self.prefs.playback.speed = s;
                }
            }
            Command::SetTime(t) => {
                self.playback.playing = false;
                self.playback.set_time(t, duration);
            }
            Command::NextClip | Command::PreviousClip => {
                let n = self.doc.clips.len();
                if n > 0 {
                    let step = if command == Command::NextClip {
                        1
                    } else {
                        n - 1
                    };
                    self.set_clip((self.doc.active_clip + step) % n);
                }
            }
            Command::SetActiveClip(i) => self.set_clip(i),
            Command::NewClip => {
                let after = (self.doc.active_clip + 1).min(self.doc.clips.len());
                self.add_clip("New clip", after, Clip::new("untitled", 2.0));
            }
            Command::NewClipFromTemplate(name) => {
                let template = anymorph_io::samples::CLIPS
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(n, json)| {
                        anymorph_io::clip_from_str(json, &format!("assets/clips/{n}.clip.json"))
                    });
                match template {
                    Some(Ok(clip)) => {
                        let after = (self.doc.active_clip + 1).min(self.doc.clips.len());
                        self.add_clip("New clip from template", after, clip);
                    }
                    Some(Err(e)) => self.message = Some((e.to_string(), Severity::Error)),
                    None => {
                        self.message = Some((format!("No template '{name}'"), Severity::Error));
                    }
                }
            }
            Command::NewGaitFromTemplate(name) => self.new_gait_from_template(&name),
            Command::DuplicateClip => {
                if let Some(clip) = self.doc.clip().cloned() {
                    self.add_clip("Duplicate clip", self.doc.active_clip + 1, clip);
                }
            }
            Command::DeleteClip => {
                let index = self.doc.active_clip;
                if self.doc.clips.len() > 1 && index < self.doc.clips.len() {
                    let name = self.doc.clips[index].name.clone();
                    self.edit_content("Delete clip", None, |c| {
                        c.remove_clip(index);
                    });
                    self.active_channel = self.default_channel();
                    self.playback
                        .set_time(self.playback.time_secs, self.duration());
                    self.message = Some((
                        format!("Deleted clip '{name}' (Undo brings it back; its file stays)"),
                        Severity::Info,
                    ));
                }
            }
            Command::NewAction => {
                if let Some(clip) = self.doc.clip() {
                    let (clip, intent) = (clip.name.clone(), clip.intent.clone());
                    let taken = |n: &str| self.doc.actions.iter().any(|a| a.name == n);
                    let name = (1..)
                        .map(|k| {
                            if k == 1 {
                                clip.clone()
                            } else {
                                format!("{clip}_{k}")
                            }
                        })
                        .find(|n| !taken(n))
                        .unwrap_or_default();
                    self.edit_content("New action", None, |c| {
                        c.actions.push(anymorph_runtime::action::ActionDef {
                            name,
                            intent,
                            branches: vec![clip],
                            leaves_out: Vec::new(),
                        });
                    });
                    self.channels.active_action = Some(self.doc.actions.len() - 1);
                }
            }
            Command::AddBranch => match self.channels.active_action {
                Some(a) => self.commands.push(Command::AddBranchTo(a)),
                None => {
                    self.message = Some((
                        "Pick an action in the Actions list first".into(),
                        Severity::Info,
                    ));
                }
            },
            Command::AddBranchTo(a) => {
                if let Some(clip) = self.doc.clip().map(|c| c.name.clone())
                    && self
                        .doc
                        .actions
                        .get(a)
                        .is_some_and(|x| !x.branches.contains(&clip))
                {
                    self.edit_content("Add branch", None, |c| c.actions[a].branches.push(clip));
                }
            }
            Command::RemoveBranch { action, branch } => {
                if self
                    .doc
                    .actions
                    .get(action)
                    .is_some_and(|a| branch < a.branches.len())
                {
                    self.edit_content("Remove branch", None, |c| {
                        c.actions[action].branches.remove(branch);
                        // An action with no branch cannot be saved or played.
                        if c.actions[action].branches.is_empty() {
                            c.actions.remove(action);
                        }
                    });
                }
            }
            Command::MoveBranch { action, from, to } => {
                if self
                    .doc
                    .actions
                    .get(action)
                    .is_some_and(|a| from < a.branches.len() && to < a.branches.len() && from != to)
                {
                    self.edit_content("Reorder branches", None, |c| {
                        let b = c.actions[action].branches.remove(from);
                        c.actions[action].branches.insert(to, b);
                    });
                }
            }
            Command::SetActionText {
                action,
                name,
                intent,
            } => {
                let name = name.trim().to_string();
                let clash = self
                    .doc
                    .actions
                    .iter()
                    .enumerate()
                    .any(|(i, a)| i != action && a.name == name);
                if name.is_empty() || clash {
                    self.message = Some((
                        format!("An action needs a name of its own; '{name}' is empty or taken"),
                        Severity::Error,
                    ));
                } else if self
                    .doc
                    .actions
                    .get(action)
                    .is_some_and(|a| a.name != name || a.intent != intent)
                {
                    self.edit_content("Edit action", None, |c| {
                        c.actions[action].name = name;
                        c.actions[action].intent = intent;
                    });
                }
            }
            Command::DuplicateAction(a) => {
                if let Some(action) = self.doc.actions.get(a).cloned() {
                    let taken = |n: &str| self.doc.actions.iter().any(|x| x.name == n);
                    let name = (2..)
                        .map(|k| format!("{}_{k}", action.name))
                        .find(|n| !taken(n))
                        .unwrap_or_default();
                    self.edit_content("Duplicate action", None, |c| {
                        c.actions.insert(
                            a + 1,
                            anymorph_runtime::action::ActionDef { name, ..action },
                        );
                    });
                    self.channels.active_action = Some(a + 1);
                }
            }
            Command::DeleteAction(a) => {
                if a < self.doc.actions.len() {
                    self.edit_content("Delete action", None, |c| {
                        c.actions.remove(a);
                    });
                    self.channels.active_action = None;
                }
            }
            Command::SetVariant { creature, variant } => {
                self.edit_content("Set variant", None, |c| {
                    if let Some(e) = c.roster.get_mut(creature) {
                        e.variant = variant;
                    }
                });
            }
            Command::ToggleChannelMute(i) => {
                if let Some(mut clip) = self.doc.clip().cloned()
                    && let Some(channel) = clip.channels.get_mut(i)
                {
                    channel.muted ^= true;
                    self.edit_clip(clip, "Mute channel", None);
                }
            }
            Command::SetActiveChannel(c) => self.active_channel = c,
            Command::Select(sel) => self.selection = sel,
            Command::SetTarget { at, drag } => {
                if at.is_finite() {
                    self.edit_content("Move target", Some(drag), |c| {
                        match c.external_targets.first_mut() {
                            Some(t) => *t = at,
                            None => c.external_targets.push(at),
                        }
                    });
                }
            }
            Command::NewProject => {
                self.autosave(true);
                let roster = self.doc.roster.clone();
                self.doc = Document::new_project(roster);
                self.history = History::default();
                self.preview = Preview::default();
                self.playback = Playback::default();
                self.selection = None;
                self.active_channel = None;
                self.autosave.reset();
                self.offer_recovery(None);
            }
            Command::SaveProject => match self.doc.path.clone() {
                Some(path) => self.save_to(&path),
                None => self.commands.push(Command::SaveProjectAs),
            },
            Command::SaveProjectAs => self.save_project_as(false),
            Command::SaveProjectTo(path) => self.save_to(&path),
            Command::Undo => {
                self.doc.set_pending(None);
                if !self.history.undo(&mut self.doc) {
                    self.message = Some(("Nothing to undo".into(), Severity::Info));
                }
            }
            Command::Redo => {
                self.doc.set_pending(None);
                if !self.history.redo(&mut self.doc) {
                    self.message = Some(("Nothing to redo".into(), Severity::Info));
                }
            }
            Command::GoToHistory(i) => {
                self.doc.set_pending(None);
                self.history.go_to(&mut self.doc, i);
            }
            Command::ShowHistory => self.show_history ^= true,
            Command::ToggleValidation => self.show_validation ^= true,
            Command::ToggleKeysPanel => panels.keys ^= true,
            Command::EditClip { clip, label, drag } => self.edit_clip(*clip, &label, drag),
            Command::EditGait {
                index,
                style,
                label,
                drag,
            } => self.edit_gait(index, *style, &label, drag),
            Command::SetChannelMode { channel, mode } => self.set_channel_mode(channel, mode),
            Command::PoseActive { pose, drag } => self.pose_active(pose, drag),
            Command::EndPose => {}
            Command::SetKey => self.set_key(),
            Command::DeleteKey => {
                let t = self.key_time();
                if let (Some(clip), Some(ch)) = (self.doc.clip(), self.active_channel) {
                    match posing::delete_keys_at(clip, ch, t) {
                        Some(clip) => self.edit_clip(clip, "Delete key", None),
                        None => {
                            self.message = Some((format!("No key at {t:.2} s"), Severity::Info));
                        }
                    }
                }
            }
            Command::CopyPose => {
                let t = self.key_time();
                let active = self.active_body();
                self.clipboard = self
                    .doc
                    .clip()
                    .and_then(|c| c.channels.get(self.active_channel?))
                    .map(|ch| match &active {
                        Some(a) => a.generalized(ch, t),
                        None => BodyPose::new(
                            ch.position
                                .as_ref()
                                .and_then(|c| c.sample(t))
                                .unwrap_or_default(),
                            ch.rotation
                                .as_ref()
                                .and_then(|c| c.sample(t))
                                .unwrap_or_default(),
                        ),
                    });
            }
            Command::PastePose => {
                if let (Some(pose), Some(clip), Some(ch)) =
                    (self.clipboard, self.doc.clip(), self.active_channel)
                {
                    let t = self.key_time();
                    if let Some(clip) = posing::key_pose(clip, ch, t, pose, Dofs::BOTH) {
                        self.edit_clip(clip, "Paste pose", None);
                    }
                }
            }
            Command::ToggleAutoKey => self.prefs.posing.auto_key ^= true,
            Command::TranslateTool => self.prefs.posing.tool = GizmoTool::Translate,
            Command::RotateTool => self.prefs.posing.tool = GizmoTool::Rotate,
            Command::ToggleGizmoSpace => self.prefs.posing.local ^= true,
            Command::AddChannel => {
                if let Some(mut clip) = self.doc.clip().cloned() {
                    let name = format!("channel {}", clip.channels.len() + 1);
                    // Every body until the animator narrows the query down.
                    clip.channels
                        .push(Channel::new(name, ContextQuery::default()));
                    let index = clip.channels.len() - 1;
                    self.edit_clip(clip, "Add channel", None);
                    self.active_channel = Some(index);
                }
            }
            Command::DuplicateChannel => {
                if let Some(i) = self.active_channel
                    && let Some(mut clip) = self.doc.clip().cloned()
                    && let Some(mut copy) = clip.channels.get(i).cloned()
                {
                    copy.name = format!("{} copy", copy.name);
                    clip.channels.insert(i + 1, copy);
                    self.edit_clip(clip, "Duplicate channel", None);
                    self.active_channel = Some(i + 1);
                }
            }
            Command::DeleteChannel => {
                if let Some(i) = self.active_channel
                    && let Some(mut clip) = self.doc.clip().cloned()
                    && i < clip.channels.len()
                {
                    clip.channels.remove(i);
                    let left = clip.channels.len();
                    self.edit_clip(clip, "Delete channel", None);
                    self.active_channel = (left > 0).then(|| i.min(left - 1));
                }
            }
            Command::MoveChannel { from, to } => {
                if let Some(mut clip) = self.doc.clip().cloned()
                    && from < clip.channels.len()
                    && to < clip.channels.len()
                    && from != to
                {
                    let ch = clip.channels.remove(from);
                    clip.channels.insert(to, ch);
                    self.edit_clip(clip, "Reorder channels", None);
                    if self.active_channel == Some(from) {
                        self.active_channel = Some(to);
                    }
                }
            }
            Command::SoloChannel(c) => self.doc.set_solo(c),
            Command::RecoverAutosave => {
                if let Some(offer) = self.recovery_offer.take() {
                    match recovery::read(&offer.file) {
                        Ok(doc) => {
                            self.doc = doc;
                            self.history = History::default();
                            self.history.mark_unsaved();
                            self.autosave.reset();
                            self.preview = Preview::default();
                            self.selection = None;
                            self.active_channel = self.default_channel();
                            self.viewport.request_frame(FrameRequest::All);
                            self.message = Some(("Recovered unsaved work".into(), Severity::Info));
                        }
                        Err(e) => {
                            log::error!("{e}");
                            self.message = Some((e.to_string(), Severity::Error));
                        }
                    }
                }
            }
            Command::DiscardAutosave => {
                if let Some(offer) = self.recovery_offer.take() {
                    remove_file_if_any(&offer.file);
                }
            }
            Command::ShowShortcuts => self.show_shortcuts ^= true,
            Command::ShowAbout => self.show_about ^= true,
        }
    }
}
