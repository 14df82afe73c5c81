//! The validation grid inside the editor (paper section 5, Figure 9): the open project's clips
//! (rows) on its roster creatures (columns), checked by [`anymorph_validation::check_cell`] on a
//! background thread so the UI never waits. Clicking a cell asks the app to show that creature
//! and variant at the worst moment; a tester's pass/fail verdicts go into the project
//! ([`ValidationMark`]).
//!
//! The panel does not change the document: it returns a [`ValidationRequest`] and the app
//! applies it ([`apply_mark_request`] does the marks part).

use anymorph_io::project_file::{ValidationMark, Verdict};
use anymorph_runtime::clip::Clip;
use anymorph_runtime::creature::Creature;
use anymorph_validation::report::check_rgb;
use anymorph_validation::{CellReport, Check, ValidationConfig, check_cell};
use egui::{Color32, RichText};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// What the panel needs from the open project.
pub struct ValidationInputs<'a> {
    pub clips: &'a [Clip],
    /// The roster, by the name the grid shows (unique names keep columns apart).
    pub creatures: &'a [(&'a str, &'a Creature)],
    /// The project's marks.
    pub marks: &'a [ValidationMark],
    pub config: &'a ValidationConfig,
}

/// What the app should do after the panel was drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum ValidationRequest {
    /// Show `creature` playing `clip` in `variant`, paused at `time_secs` (clip-local).
    LoadCell {
        clip: String,
        creature: String,
        variant: usize,
        time_secs: f32,
    },
    /// Store this mark in the project, replacing any mark for the same cell and variant.
    SetMark(ValidationMark),
    /// Remove the mark for this cell and variant.
    ClearMark {
        clip: String,
        creature: String,
        variant: usize,
    },
}

/// Applies a mark request to a project's marks; returns whether they changed. `LoadCell` is
/// not about marks and changes nothing.
pub fn apply_mark_request(marks: &mut Vec<ValidationMark>, request: &ValidationRequest) -> bool {
    match request {
        ValidationRequest::SetMark(mark) => {
            match marks
                .iter_mut()
                .find(|m| m.is_for(&mark.clip, &mark.creature, mark.variant))
            {
                Some(m) if m == mark => false,
                Some(m) => {
                    *m = mark.clone();
                    true
                }
                None => {
                    marks.push(mark.clone());
                    true
                }
            }
        }
        ValidationRequest::ClearMark {
            clip,
            creature,
            variant,
        } => {
            let before = marks.len();
            marks.retain(|m| !m.is_for(clip, creature, *variant));
            marks.len() != before
        }
        ValidationRequest::LoadCell { .. } => false,
    }
}

/// How a cell looks once the tester's marks are taken into account.
#[derive(Clone, Debug, PartialEq)]
pub enum CellState {
    /// Not checked yet (or the run was stopped before it).
    Pending,
    /// The clip does not bind; the reason.
    NotBound(String),
    /// Every checked variant passes (by the checks or by a tester's mark).
    Pass { marked: bool },
    /// A variant fails: the worst automatic failure not overruled by a mark, or a tester's
    /// "fail" (then `check` is `None`).
    Fail {
        variant: usize,
        check: Option<Check>,
        time_secs: f32,
        summary: String,
    },
}

/// The state of one cell: a variant marked pass hides its failures, one marked fail fails
/// whatever the checks said.
pub fn cell_state(cell: Option<&CellReport>, marks: &[ValidationMark]) -> CellState {
    let Some(cell) = cell else {
        return CellState::Pending;
    };
    if let Some(reason) = &cell.reason {
        return CellState::NotBound(reason.clone());
    }
    let mark_of = |variant: usize| {
        marks
            .iter()
            .find(|m| m.is_for(&cell.clip, &cell.creature, variant))
    };
    let mut marked = false;
    let mut worst: Option<(usize, &anymorph_validation::Failure)> = None;
    for v in &cell.variants {
        match mark_of(v.variant) {
            Some(m) if m.verdict == Verdict::Fail => {
                let note = if m.note.is_empty() {
                    String::new()
                } else {
                    format!(": {}", m.note)
                };
                return CellState::Fail {
                    variant: v.variant,
                    check: None,
                    time_secs: v.failures.first().map_or(0.0, |f| f.time_secs),
                    summary: format!("marked fail by a tester in variant {}{note}", v.variant),
                };
            }
            Some(_) => marked = true,
            None => {
                for f in &v.failures {
                    if worst.is_none_or(|(_, w)| f.value / f.limit > w.value / w.limit) {
                        worst = Some((v.variant, f));
                    }
                }
            }
        }
    }
    match worst {
        None => CellState::Pass { marked },
        Some((variant, f)) => CellState::Fail {
            variant,
            check: Some(f.check),
            time_secs: f.time_secs,
            summary: format!("{}, variant {variant}", f.describe()),
        },
    }
}

/// The request a click on a cell makes: the failing variant at its worst moment, or the
/// first variant from the start when nothing fails.
pub fn load_request(cell: &CellReport, state: &CellState) -> Option<ValidationRequest> {
    let (variant, time_secs) = match state {
        CellState::Pending | CellState::NotBound(_) => return None,
        CellState::Pass { .. } => (0, 0.0),
        CellState::Fail {
            variant, time_secs, ..
        } => (*variant, *time_secs),
    };
    Some(ValidationRequest::LoadCell {
        clip: cell.clip.clone(),
        creature: cell.creature.clone(),
        variant,
        time_secs,
    })
}

/// One background run over every clip × creature.
struct Run {
    receiver: mpsc::Receiver<CellReport>,
    cancel: Arc<AtomicBool>,
    total: usize,
    done: usize,
}

impl Run {
    /// Copies the inputs so the thread owns what it checks: the document may change (or be
    /// closed) while it runs.
    fn start(inputs: &ValidationInputs) -> Run {
        let clips: Vec<Arc<Clip>> = inputs.clips.iter().cloned().map(Arc::new).collect();
        let creatures: Vec<(String, Arc<Creature>)> = inputs
            .creatures
            .iter()
            .map(|(name, c)| ((*name).to_string(), Arc::new((*c).clone())))
            .collect();
        let config = inputs.config.clone();
        let cancel = Arc::new(AtomicBool::new(false));
        let (sender, receiver) = mpsc::channel();
        let total = clips.len() * creatures.len();
        let stop = Arc::clone(&cancel);
        let spawned = std::thread::Builder::new()
            .name("validation".into())
            .spawn(move || {
                for clip in &clips {
                    for (name, creature) in &creatures {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        let mut cell = check_cell(clip, creature, &config);
                        cell.creature.clone_from(name);
                        if sender.send(cell).is_err() {
                            return;
                        }
                    }
                }
            });
        if let Err(e) = spawned {
            log::warn!("cannot start the validation thread: {e}");
        }
        Run {
            receiver,
            cancel,
            total,
            done: 0,
        }
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        // The thread notices between cells; nobody waits for it.
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The panel's own state: the latest results and the cell being looked at.
#[derive(Default)]
pub struct ValidationPanel {
    run: Option<Run>,
    cells: Vec<CellReport>,
    selected: Option<(String, String)>,
    note: String,
}

impl std::fmt::Debug for ValidationPanel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ValidationPanel")
            .field("running", &self.is_running())
            .field("cells", &self.cells.len())
            .field("selected", &self.selected)
            .finish()
    }
}

impl ValidationPanel {
    /// Starts checking every clip on every creature, dropping earlier results.
    pub fn start(&mut self, inputs: &ValidationInputs) {
        self.cells.clear();
        self.run = Some(Run::start(inputs));
    }

    /// Stops a run; the cells checked so far stay.
    pub fn stop(&mut self) {
        self.run = None;
    }

    pub fn is_running(&self) -> bool {
        self.run.is_some()
    }

    /// The results so far.
    pub fn cells(&self) -> &[CellReport] {
        &self.cells
    }

    /// Takes the cells the thread has finished; ends the run when it has sent them all (or
    /// died).
    pub fn poll(&mut self) {
        let Some(run) = &mut self.run else {
            return;
        };
        loop {
            match run.receiver.try_recv() {
                Ok(cell) => {
                    run.done += 1;
                    self.cells
                        .retain(|c| !(c.clip == cell.clip && c.creature == cell.creature));
                    self.cells.push(cell);
                }
                Err(mpsc::TryRecvError::Empty) => return,
                Err(mpsc::TryRecvError::Disconnected) => {
                    if run.done < run.total {
                        log::warn!(
                            "validation stopped after {} of {} cells",
                            run.done,
                            run.total
                        );
                    }
                    self.run = None;
                    return;
                }
            }
        }
    }

    fn cell(&self, clip: &str, creature: &str) -> Option<&CellReport> {
        self.cells
            .iter()
            .find(|c| c.clip == clip && c.creature == creature)
    }

    /// Draws the panel. At most one request per frame: a click does one thing.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        inputs: &ValidationInputs,
    ) -> Option<ValidationRequest> {
        self.poll();
        let mut request = None;
        ui.horizontal(|ui| {
            ui.heading("Validation");
            if let Some(run) = &self.run {
                ui.add(egui::Spinner::new());
                ui.label(format!("{} / {} cells", run.done, run.total));
                if ui.button("⏹ Stop").clicked() {
                    self.stop();
                }
                // Results arrive without input events: keep drawing until the run ends.
                ui.ctx().request_repaint();
            } else if ui
                .button("▶ Run")
                .on_hover_text("check every clip on every roster creature")
                .clicked()
            {
                self.start(inputs);
            }
        });
        let states: Vec<CellState> = inputs
            .clips
            .iter()
            .flat_map(|clip| {
                inputs
                    .creatures
                    .iter()
                    .map(|(name, _)| cell_state(self.cell(&clip.name, name), inputs.marks))
            })
            .collect();
        let checked: Vec<&CellState> = states
            .iter()
            .filter(|s| matches!(s, CellState::Pass { .. } | CellState::Fail { .. }))
            .collect();
        let passed = checked
            .iter()
            .filter(|s| matches!(s, CellState::Pass { .. }))
            .count();
        if !checked.is_empty() {
            ui.label(format!(
                "{passed} of {} bound cells pass ({:.1}%)",
                checked.len(),
                100.0 * passed as f64 / checked.len() as f64
            ));
        }
        ui.separator();
        egui::ScrollArea::both()
            .id_salt("validation grid")
            .max_height(ui.available_height() * 0.6)
            .show(ui, |ui| {
                egui::Grid::new("validation grid")
                    .spacing([2.0, 2.0])
                    .show(ui, |ui| {
                        ui.label("");
                        for (name, _) in inputs.creatures {
                            ui.label(RichText::new(*name).small());
                        }
                        ui.end_row();
                        let columns = inputs.creatures.len().max(1);
                        for (row, clip) in inputs.clips.iter().enumerate() {
                            ui.label(&clip.name);
                            for (col, (name, _)) in inputs.creatures.iter().enumerate() {
                                let state = &states[row * columns + col];
                                let selected = self
                                    .selected
                                    .as_ref()
                                    .is_some_and(|(c, k)| c == &clip.name && k == name);
                                let response = cell_ui(ui, state, selected);
                                if response.clicked() {
                                    self.selected = Some((clip.name.clone(), (*name).to_string()));
                                    if let Some(cell) = self.cell(&clip.name, name) {
                                        request = load_request(cell, state);
                                    }
                                }
                            }
                            ui.end_row();
                        }
                    });
            });
        ui.separator();
        if let Some(r) = self.detail_ui(ui, inputs.marks) {
            request = Some(r);
        }
        request
    }

    /// The selected cell's variants, their failures and the tester's marks.
    fn detail_ui(
        &mut self,
        ui: &mut egui::Ui,
        marks: &[ValidationMark],
    ) -> Option<ValidationRequest> {
        let (clip, creature) = self.selected.clone()?;
        ui.label(RichText::new(format!("{clip} on {creature}")).strong());
        let Some(cell) = self.cell(&clip, &creature).cloned() else {
            ui.label("not checked yet");
            return None;
        };
        if let Some(reason) = &cell.reason {
            ui.label(format!("does not bind: {reason}"));
            return None;
        }
        ui.horizontal(|ui| {
            ui.label("note");
            ui.text_edit_singleline(&mut self.note);
        });
        let mut request = None;
        for v in &cell.variants {
            let mark = marks.iter().find(|m| m.is_for(&clip, &creature, v.variant));
            ui.horizontal(|ui| {
                ui.label(format!("variant {}: {}", v.variant, v.label));
                let set = |verdict| {
                    ValidationRequest::SetMark(ValidationMark {
                        clip: clip.clone(),
                        creature: creature.clone(),
                        variant: v.variant,
                        verdict,
                        note: self.note.trim().to_string(),
                    })
                };
                if ui.button("✔ pass").clicked() {
                    request = Some(set(Verdict::Pass));
                }
                if ui.button("✖ fail").clicked() {
                    request = Some(set(Verdict::Fail));
                }
                if let Some(m) = mark {
                    let text = format!("marked {:?}", m.verdict).to_lowercase();
                    ui.label(text).on_hover_text(&m.note);
                    if ui.small_button("clear").clicked() {
                        request = Some(ValidationRequest::ClearMark {
                            clip: clip.clone(),
                            creature: creature.clone(),
                            variant: v.variant,
                        });
                    }
                }
            });
            if v.failures.is_empty() {
                ui.label("  passes every check");
            }
            for f in &v.failures {
                ui.horizontal(|ui| {
                    let [r, g, b] = check_rgb(Some(f.check));
                    ui.colored_label(Color32::from_rgb(r, g, b), "■");
                    ui.label(f.describe());
                    if ui.small_button("show").clicked() {
                        request = Some(ValidationRequest::LoadCell {
                            clip: clip.clone(),
                            creature: creature.clone(),
                            variant: v.variant,
                            time_secs: f.time_secs,
                        });
                    }
                });
            }
        }
        request
    }
}

fn cell_ui(ui: &mut egui::Ui, state: &CellState, selected: bool) -> egui::Response {
    let (fill, text, tip) = match state {
        CellState::Pending => (Color32::from_gray(60), "…", "not checked yet".to_string()),
        CellState::NotBound(reason) => (
            Color32::from_gray(90),
            "–",
            format!("does not bind: {reason}"),
        ),
        CellState::Pass { marked } => {
            let [r, g, b] = check_rgb(None);
            let tip = if *marked {
                "passes (a tester marked a failing variant pass)"
            } else {
                "passes every check"
            };
            (Color32::from_rgb(r, g, b), "✔", tip.to_string())
        }
        CellState::Fail { check, summary, .. } => {
            let [r, g, b] = check_rgb(*check);
            let fill = if check.is_some() {
                Color32::from_rgb(r, g, b)
            } else {
                Color32::from_rgb(200, 60, 60)
            };
            (fill, "✖", summary.clone())
        }
    };
    let button = egui::Button::new(RichText::new(text).color(Color32::BLACK))
        .fill(fill)
        .min_size(egui::vec2(22.0, 18.0))
        .selected(selected);
    ui.add(button).on_hover_text(tip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use anymorph_validation::{Failure, VariantReport};

    fn failure(check: Check, value: f32, time_secs: f32) -> Failure {
        Failure {
            check,
            time_secs,
            frame: 0,
            body: "hand_l".into(),
            value,
            limit: 1.0,
            walking: false,
            other: None,
        }
    }

    #[test]
    fn a_failure_reads_the_same_everywhere_and_names_both_bodies() {
        let alone = failure(Check::Jitter, 0.025, 1.5);
        assert_eq!(
            alone.describe(),
            "jitter on hand_l at 1.50 s (0.025 > 1.000)"
        );
        let pair = Failure {
            other: Some("spine_3".into()),
            walking: true,
            ..failure(Check::Interpenetration, 2.0, 0.25)
        };
        assert_eq!(
            pair.describe(),
            "interpenetration on hand_l and spine_3 at 0.25 s while walking (2.000 > 1.000)"
        );
    }

    fn cell(failures: Vec<Vec<Failure>>) -> CellReport {
        CellReport {
            clip: "wave".into(),
            creature: "biped".into(),
            action: None,
            excluded: false,
            reason: None,
            variant_count: failures.len(),
            variants: failures
                .into_iter()
                .enumerate()
                .map(|(variant, failures)| VariantReport {
                    variant,
                    label: format!("v{variant}"),
                    failures,
                })
                .collect(),
        }
    }

    fn mark(variant: usize, verdict: Verdict) -> ValidationMark {
        ValidationMark {
            clip: "wave".into(),
            creature: "biped".into(),
            variant,
            verdict,
            note: String::new(),
        }
    }

    #[test]
    fn the_worst_failure_picks_the_variant_and_time() {
        let c = cell(vec![
            vec![failure(Check::Jitter, 1.5, 0.2)],
            vec![failure(Check::GoalError, 3.0, 0.7)],
        ]);
        let state = cell_state(Some(&c), &[]);
        assert!(matches!(
            state,
            CellState::Fail {
                variant: 1,
                check: Some(Check::GoalError),
                ..
            }
        ));
        assert_eq!(
            load_request(&c, &state),
            Some(ValidationRequest::LoadCell {
                clip: "wave".into(),
                creature: "biped".into(),
                variant: 1,
                time_secs: 0.7
            })
        );
    }

    #[test]
    fn marks_overrule_the_checks() {
        let c = cell(vec![
            vec![failure(Check::Jitter, 1.5, 0.2)],
            vec![failure(Check::GoalError, 3.0, 0.7)],
        ]);
        // Variant 1 accepted by a tester: variant 0's failure is what is left.
        let state = cell_state(Some(&c), &[mark(1, Verdict::Pass)]);
        assert!(matches!(
            state,
            CellState::Fail {
                variant: 0,
                check: Some(Check::Jitter),
                ..
            }
        ));
        let all = [mark(0, Verdict::Pass), mark(1, Verdict::Pass)];
        assert_eq!(cell_state(Some(&c), &all), CellState::Pass { marked: true });
        let clean = cell(vec![vec![]]);
        assert!(matches!(
            cell_state(Some(&clean), &[mark(0, Verdict::Fail)]),
            CellState::Fail { check: None, .. }
        ));
        assert_eq!(cell_state(None, &[]), CellState::Pending);
    }

    #[test]
    fn mark_requests_replace_and_clear_one_cell() {
        let mut marks = vec![mark(0, Verdict::Pass)];
        let mut failing = mark(0, Verdict::Fail);
        failing.note = "elbow flips".into();
        assert!(apply_mark_request(
            &mut marks,
            &ValidationRequest::SetMark(failing.clone())
        ));
        assert_eq!(marks, vec![failing.clone()]);
        assert!(!apply_mark_request(
            &mut marks,
            &ValidationRequest::SetMark(failing)
        ));
        assert!(apply_mark_request(
            &mut marks,
            &ValidationRequest::SetMark(mark(1, Verdict::Pass))
        ));
        assert!(apply_mark_request(
            &mut marks,
            &ValidationRequest::ClearMark {
                clip: "wave".into(),
                creature: "biped".into(),
                variant: 0
            }
        ));
        assert_eq!(marks, vec![mark(1, Verdict::Pass)]);
    }

    #[test]
    fn a_background_run_checks_every_cell() {
        let clips = anymorph_io::samples::clips().expect("sample clips");
        let creatures = anymorph_io::samples::creatures().expect("sample creatures");
        let clips: Vec<Clip> = clips.into_iter().filter(|c| c.name == "wave").collect();
        let named: Vec<(&str, &Creature)> = vec![
            ("renamed", &creatures[0]),
            (creatures[1].name(), &creatures[1]),
        ];
        let config = ValidationConfig::default();
        let inputs = ValidationInputs {
            clips: &clips,
            creatures: &named,
            marks: &[],
            config: &config,
        };
        let mut panel = ValidationPanel::default();
        panel.start(&inputs);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        while panel.is_running() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(10));
            panel.poll();
        }
        assert!(!panel.is_running(), "the run finished");
        assert_eq!(panel.cells().len(), 2);
        assert!(
            panel.cells().iter().any(|c| c.creature == "renamed"),
            "cells carry the roster's name, not the creature file's"
        );
    }
}
