//! Undo and redo of every document edit, on the `undo` crate's [`Record`].
//!
//! An edit stores the part of the document it changed, before and after: a whole clip for
//! clip edits (the common case: keys, channels, settings), the undoable content of the
//! project otherwise (roster, variants, targets). Storing values instead of inverse
//! operations keeps undo exact whatever the edit did, and a clip is small. Edits that carry
//! the same drag id merge, so a gizmo or key drag is one step however many frames it took.

use crate::document::{Content, Document};
use anymorph_runtime::clip::Clip;
use undo::{Edit, Merged, Record};

/// What an edit replaced.
#[derive(Clone, Debug)]
enum Change {
    Clip {
        index: usize,
        before: Box<Clip>,
        after: Box<Clip>,
    },
    Content {
        before: Box<Content>,
        after: Box<Content>,
    },
}

/// One undoable step.
#[derive(Clone, Debug)]
pub struct DocEdit {
    label: String,
    change: Change,
    /// Edits of one drag share this id and merge into one step.
    drag: Option<u64>,
}

impl DocEdit {
    /// Replaces clip `index` with `after`. `before` must be the clip as it is now.
    pub fn clip(label: impl Into<String>, index: usize, before: Clip, after: Clip) -> Self {
        DocEdit {
            label: label.into(),
            change: Change::Clip {
                index,
                before: Box::new(before),
                after: Box::new(after),
            },
            drag: None,
        }
    }

    /// Replaces the undoable content of the document.
    pub fn content(label: impl Into<String>, before: Content, after: Content) -> Self {
        DocEdit {
            label: label.into(),
            change: Change::Content {
                before: Box::new(before),
                after: Box::new(after),
            },
            drag: None,
        }
    }

    /// Marks the edit as part of a drag: later edits with the same id merge into it.
    pub fn in_drag(mut self, drag: Option<u64>) -> Self {
        self.drag = drag;
        self
    }

    pub fn label(&self) -> &str {
        &self.label
    }
}

impl std::fmt::Display for DocEdit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label)
    }
}

impl Edit for DocEdit {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        match &self.change {
            Change::Clip { index, after, .. } => doc.replace_clip(*index, (**after).clone()),
            Change::Content { after, .. } => doc.set_content((**after).clone()),
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        match &self.change {
            Change::Clip { index, before, .. } => doc.replace_clip(*index, (**before).clone()),
            Change::Content { before, .. } => doc.set_content((**before).clone()),
        }
    }

    fn merge(&mut self, other: Self) -> Merged<Self> {
        if self.drag.is_none() || self.drag != other.drag {
            return Merged::No(other);
        }
        match (&mut self.change, other.change) {
            (
                Change::Clip { index, after, .. },
                Change::Clip {
                    index: i, after: a, ..
                },
            ) if *index == i => {
                *after = a;
                Merged::Yes
            }
            (Change::Content { after, .. }, Change::Content { after: a, .. }) => {
                *after = a;
                Merged::Yes
            }
            (_, change) => Merged::No(DocEdit { change, ..other }),
        }
    }
}

/// The document's undo record.
#[derive(Debug)]
pub struct History {
    record: Record<DocEdit>,
}

impl Default for History {
    fn default() -> Self {
        let mut record = Record::new();
        record.set_saved();
        History { record }
    }
}

impl History {
    /// Applies `edit` to `doc` and records it.
    pub fn apply(&mut self, doc: &mut Document, edit: DocEdit) {
        self.record.edit(doc, edit);
    }

    pub fn undo(&mut self, doc: &mut Document) -> bool {
        self.record.undo(doc).is_some()
    }

    pub fn redo(&mut self, doc: &mut Document) -> bool {
        self.record.redo(doc).is_some()
    }

    pub fn can_undo(&self) -> bool {
        self.record.can_undo()
    }

    pub fn can_redo(&self) -> bool {
        self.record.can_redo()
    }

    /// Jumps to the state after the first `index` steps (0 = as opened).
    pub fn go_to(&mut self, doc: &mut Document, index: usize) {
        if index <= self.record.len() {
            self.record.go_to(doc, index);
        }
    }

    /// How many steps are applied now.
    pub fn head(&self) -> usize {
        self.record.head()
    }

    /// Every step's label, oldest first.
    pub fn labels(&self) -> impl Iterator<Item = &str> {
        self.record.entries().map(|e| e.as_ref().label())
    }

    pub fn len(&self) -> usize {
        self.record.len()
    }

    pub fn is_empty(&self) -> bool {
        self.record.is_empty()
    }

    /// Whether the document differs from what was last saved or opened.
    pub fn is_dirty(&self) -> bool {
        !self.record.is_saved()
    }

    /// How many undo steps lie between the document and what was last saved or opened
    /// (`None`: no saved state is in the record, e.g. recovered work).
    pub fn unsaved_edits(&self) -> Option<usize> {
        self.record.saved().map(|s| s.abs_diff(self.record.head()))
    }

    pub fn mark_saved(&mut self) {
        self.record.set_saved();
    }

    /// Marks the document as differing from any file (a recovered autosave).
    pub fn mark_unsaved(&mut self) {
        self.record.clear_saved();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anymorph_runtime::clip::Clip;

    fn doc_with_clip() -> Document {
        let mut doc = Document::default();
        doc.clips.push(Clip::new("a", 1.0));
        doc
    }

    fn with_duration(doc: &Document, d: f32) -> Clip {
        let mut c = doc.clips[0].clone();
        c.duration_secs = d;
        c
    }

    #[test]
    fn a_drag_is_one_step_and_undo_restores_the_start() {
        let mut doc = doc_with_clip();
        let mut history = History::default();
        for d in [1.5, 2.0, 2.5] {
            let after = with_duration(&doc, d);
            let edit = DocEdit::clip("Duration", 0, doc.clips[0].clone(), after).in_drag(Some(7));
            history.apply(&mut doc, edit);
        }
        assert_eq!(history.len(), 1);
        assert_eq!(doc.clips[0].duration_secs, 2.5);
        assert!(history.is_dirty());
        assert!(history.undo(&mut doc));
        assert_eq!(doc.clips[0].duration_secs, 1.0);
        assert!(!history.is_dirty());
        assert!(history.redo(&mut doc));
        assert_eq!(doc.clips[0].duration_secs, 2.5);
    }

    #[test]
    fn edits_of_different_drags_stay_separate() {
        let mut doc = doc_with_clip();
        let mut history = History::default();
        for (d, drag) in [(1.5, Some(1)), (2.0, Some(2)), (3.0, None), (4.0, None)] {
            let after = with_duration(&doc, d);
            let edit = DocEdit::clip("Duration", 0, doc.clips[0].clone(), after).in_drag(drag);
            history.apply(&mut doc, edit);
        }
        assert_eq!(history.len(), 4);
        history.go_to(&mut doc, 1);
        assert_eq!(doc.clips[0].duration_secs, 1.5);
    }
}
