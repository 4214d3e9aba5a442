//! Where the keyboard focus goes when an action removes or moves the focused element, so that a keyboard
//! user keeps their place (WCAG 2.4.3): on the moved chip, or on the deleted chip's neighbour.

use super::Model;

/// An element the app focuses after the next render.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The timeline chip of the event at this index.
    Chip(usize),
    /// The timeline itself (no chip is left).
    Timeline,
}

impl Model {
    /// After deleting the event at `i`: the chip that took its place, else the one before, else the timeline.
    pub(super) fn focus_after_removing(&mut self, i: usize) {
        let n = self.shown.scenario.events.len();
        self.focus = Some(if n == 0 { Focus::Timeline } else { Focus::Chip(i.min(n - 1)) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Action, PlaceSource};
    use crate::model::{CursorAction, EditAction, LoadAction, PlaceAction};

    #[test]
    fn a_deleted_chip_hands_the_focus_to_its_neighbour() {
        let m = Model::landing();
        assert_eq!(m.after(Action::Edit(EditAction::Remove(3))).focus, Some(Focus::Chip(3)));
        let last = m.shown.scenario.events.len() - 1;
        assert_eq!(m.after(Action::Edit(EditAction::Remove(last))).focus, Some(Focus::Chip(last - 1)));
        let one = m
            .after(Action::Load(LoadAction::New))
            .after(Action::Place(PlaceAction::Start(PlaceSource::New(epochlab_core::scenario::EventKind::Flush))));
        let one = one.after(Action::Place(PlaceAction::Commit));
        assert_eq!(one.shown.scenario.events.len(), 1);
        assert_eq!(one.after(Action::Edit(EditAction::Remove(0))).focus, Some(Focus::Timeline));
    }

    #[test]
    fn a_chip_moved_with_the_keyboard_keeps_the_focus_where_it_lands() {
        let m = Model::landing().after(Action::Place(PlaceAction::Start(PlaceSource::Existing(7))));
        let moved =
            m.after(Action::Place(PlaceAction::Move { dx: -2, dy: 0 })).after(Action::Place(PlaceAction::Commit));
        assert_eq!(moved.focus, Some(Focus::Chip(5)));
        assert_eq!(moved.shown.scenario.events[5], Model::landing().shown.scenario.events[7]);
        assert_eq!(moved.after(Action::Cursor(CursorAction::StepBy(1))).focus, None, "a later action asks for nothing");
    }
}
