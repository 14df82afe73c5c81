//! What the key-editing panels (dope sheet, curve editor) ask of the app.

use anymorph_runtime::clip::Clip;

/// One request from a key-editing panel. The panels never change the document: the app
/// applies these after layout, every `Edit` through its undo record.
#[derive(Clone, Debug, PartialEq)]
pub enum PanelOutput {
    /// Replace the whole clip with this edited copy. `drag` is Some(id) while a drag goes on:
    /// consecutive outputs with the same id are merged into one undo step by the app.
    Edit {
        clip: Clip,
        label: String,
        drag: Option<egui::Id>,
    },
    /// Move the playhead (scrub by clicking the ruler).
    SetTime(f32),
    /// The user clicked a channel row: make it active.
    SetActiveChannel(usize),
}
