//! Undo and redo: a bounded stack of what edits change (the scenario, the variants shown, the library, and the
//! cursor, which comes back with the edit). Cursor moves and playback are not edits and are never recorded.
//! Entries are shared (`Rc`), so copying the history on an edit copies pointers, never scenarios.

use std::rc::Rc;

use epochlab_core::scenario::Scenario;
use epochlab_core::Variant;

use super::{Model, Shared};
use crate::formats::library::Library;

/// At most this many edits can be undone (the issue asks for at least 200).
pub const DEPTH: usize = 250;

/// What an edit changes, as it was before (or after) it.
#[derive(Clone, Debug, PartialEq)]
pub struct Past {
    scenario: Rc<Scenario>,
    variants: Vec<Variant>,
    cursor: Option<usize>,
    preset: Option<&'static str>,
    edited_preset: Option<&'static str>,
    library: Shared<Library>,
    library_id: Option<u64>,
}

/// The edits that can be undone (oldest first) and redone (the next redo last).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    undo: Vec<Rc<Past>>,
    redo: Vec<Rc<Past>>,
}

impl History {
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// How many edits can be undone.
    pub fn depth(&self) -> usize {
        self.undo.len()
    }

    /// The history after a new edit from `before`: it can be undone, and what was undone can no longer be redone.
    pub(super) fn recorded(&self, before: Past) -> History {
        let mut undo = self.undo.clone();
        if undo.len() >= DEPTH {
            undo.remove(0);
        }
        undo.push(Rc::new(before));
        History { undo, redo: Vec::new() }
    }

    /// Step back from `now`: the state to restore and the history after it.
    fn undone(&self, now: Past) -> Option<(Rc<Past>, History)> {
        let mut undo = self.undo.clone();
        let back = undo.pop()?;
        let mut redo = self.redo.clone();
        redo.push(Rc::new(now));
        Some((back, History { undo, redo }))
    }

    /// Step forward from `now`.
    fn redone(&self, now: Past) -> Option<(Rc<Past>, History)> {
        let mut redo = self.redo.clone();
        let forward = redo.pop()?;
        let mut undo = self.undo.clone();
        undo.push(Rc::new(now));
        Some((forward, History { undo, redo }))
    }
}

impl Model {
    pub(super) fn past(&self) -> Past {
        Past {
            scenario: self.shown.scenario.clone(),
            variants: self.shown.variants.clone(),
            cursor: self.shown.cursor,
            preset: self.preset,
            edited_preset: self.edited_preset,
            library: self.library.clone(),
            library_id: self.library_id,
        }
    }

    fn restore(&mut self, past: &Past) {
        self.shown.scenario = past.scenario.clone();
        self.preset = past.preset;
        self.edited_preset = past.edited_preset;
        self.library = past.library.clone();
        self.library_id = past.library_id;
        self.shown.set_variants(past.variants.clone());
        self.selected = None;
        self.placing = None;
        self.playing = false;
        // An undo makes the notice about the edit (say, "saved in My scenarios") stale.
        self.notice = None;
        self.rerun();
        self.shown.cursor = match (past.cursor, self.shown.last_step()) {
            (Some(c), Some(last)) => Some(c.min(last)),
            _ => None,
        };
    }

    pub(super) fn undo(&mut self) {
        match self.history.undone(self.past()) {
            Some((back, history)) => {
                self.restore(&back);
                self.history = Shared::new(history);
            }
            None => self.inform("There is nothing to undo."),
        }
    }

    pub(super) fn redo(&mut self) {
        match self.history.redone(self.past()) {
            Some((forward, history)) => {
                self.restore(&forward);
                self.history = Shared::new(history);
            }
            None => self.inform("There is nothing to redo."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Action;
    use crate::model::{ConfigAction, SavedAction};
    use crate::model::{CursorAction, EditAction, LoadAction, VariantsAction};
    use epochlab_core::scenario::edit::Lane;
    use epochlab_core::scenario::{Event, EventKind, Policy};
    use epochlab_core::Flag;

    fn flush_on(position: usize) -> Action {
        Action::Edit(EditAction::Insert { position, kind: EventKind::Flush, lane: Lane::Broker("A".into()) })
    }

    /// Every kind of edit, undone, gives back the model before it; redone, the model after it.
    #[test]
    fn every_kind_of_edit_undoes_and_redoes() {
        let crash_b = Event::Crash { broker: "B".into(), power: true, notify_controller: false };
        let edits = [
            flush_on(3),
            Action::Edit(EditAction::Move { from: 7, to: 3, lane: Lane::Broker("B".into()) }),
            Action::Edit(EditAction::Remove(2)),
            Action::Edit(EditAction::Replace(7, Box::new(crash_b))),
            Action::Config(ConfigAction::AddBroker),
            Action::Config(ConfigAction::RemoveBroker("A".into())),
            Action::Config(ConfigAction::RenameBroker("B".into(), "bee".into())),
            Action::Config(ConfigAction::SetMinIsr(2)),
            Action::Config(ConfigAction::SetUnclean(Some(true))),
            Action::Config(ConfigAction::SetHwCheckpoint(Policy::Manual)),
            Action::Config(ConfigAction::SetFlush(Policy::Manual)),
            Action::Config(ConfigAction::ToggleFlag(Flag::Kip320)),
            Action::Variants(VariantsAction::Toggle(Variant::Kip101)),
            Action::Variants(VariantsAction::Set(vec![Variant::Kip279])),
            Action::Saved(SavedAction::SetName("mine".into())),
            Action::Saved(SavedAction::SetDescription("why it matters".into())),
            Action::Edit(EditAction::ApplyText(Box::new(
                epochlab_core::presets::find("happy-path").unwrap().scenario(),
            ))),
            Action::Load(LoadAction::Preset("happy-path".into())),
            Action::Load(LoadAction::New),
        ];
        for edit in edits {
            let before = Model::landing().after(Action::Cursor(CursorAction::Set(Some(5))));
            let after = before.after(edit.clone());
            assert_ne!(after.past(), before.past(), "{edit:?} is an edit");
            let undone = after.after(Action::Edit(EditAction::Undo));
            assert_eq!(undone.past(), before.past(), "{edit:?} undone");
            assert_eq!(undone.shown.traces[0].steps.len(), before.shown.traces[0].steps.len(), "{edit:?} re-ran");
            let redone = undone.after(Action::Edit(EditAction::Redo));
            assert_eq!(redone.past(), after.past(), "{edit:?} redone");
            assert!(!redone.history.can_redo() && redone.history.can_undo());
        }
    }

    #[test]
    fn cursor_moves_and_playback_are_not_edits() {
        let m = Model::landing();
        for action in [
            Action::Cursor(CursorAction::Home),
            Action::Cursor(CursorAction::StepBy(-1)),
            Action::Cursor(CursorAction::Play),
            Action::Cursor(CursorAction::Tick),
            Action::Cursor(CursorAction::Select(Some(2))),
        ] {
            assert!(!m.after(action.clone()).history.can_undo(), "{action:?}");
        }
        let refused =
            m.after(Action::Edit(EditAction::Insert { position: 0, kind: EventKind::Fetch, lane: Lane::Cluster }));
        assert!(!refused.history.can_undo(), "a refused edit is not recorded");
    }

    #[test]
    fn the_cursor_comes_back_with_the_edit() {
        let m = Model::landing().after(Action::Cursor(CursorAction::Set(Some(2)))).after(flush_on(5));
        let moved = m.after(Action::Cursor(CursorAction::End));
        let undone = moved.after(Action::Edit(EditAction::Undo));
        assert_eq!(undone.shown.cursor, Some(2));
        assert_eq!(
            undone.after(Action::Edit(EditAction::Redo)).shown.cursor,
            Some(10),
            "where the cursor was when the edit was undone"
        );
    }

    #[test]
    fn at_least_200_edits_can_be_undone_and_a_new_edit_clears_the_redos() {
        let mut m = Model::new(epochlab_core::Scenario::empty(), vec![Variant::Kip279], None);
        for i in 0..(DEPTH + 20) {
            m = m.after(Action::Edit(EditAction::Insert { position: i, kind: EventKind::Settle, lane: Lane::Cluster }));
        }
        assert_eq!(m.history.depth(), DEPTH);
        const { assert!(DEPTH >= 200) };
        for _ in 0..DEPTH {
            m = m.after(Action::Edit(EditAction::Undo));
        }
        assert_eq!(m.shown.scenario.events.len(), 20, "the oldest edits beyond the depth are forgotten");
        let nothing = m.after(Action::Edit(EditAction::Undo));
        assert_eq!(nothing.shown.scenario, m.shown.scenario);
        assert!(nothing.notice.is_some_and(|n| n.text.contains("nothing to undo")));
        let m = m.after(Action::Edit(EditAction::Redo)).after(Action::Edit(EditAction::Remove(0)));
        assert!(!m.history.can_redo());
    }
}
