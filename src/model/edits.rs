//! Scenario edits: inserting, moving, removing and replacing events. Each is the core's pure edit; on
//! success the scenario re-runs and the cursor stays on the same step, or follows the end.

use epochlab_core::scenario::edit::{self, Lane};
use epochlab_core::scenario::{Event, EventKind, Scenario};

use super::action::EditAction;
use super::changed::Span;
use super::Model;

impl Model {
    /// Change the scenario's events, or undo or redo a change: the events replaced, when the edit says which
    /// (undo, redo and a text's whole scenario do not).
    pub(super) fn apply_edit(&mut self, edit: EditAction) -> Option<Span> {
        match edit {
            EditAction::Insert { position, kind, lane } => return self.insert(position, kind, lane),
            EditAction::Move { from, to, lane } => return self.move_event(from, to, lane),
            EditAction::Remove(i) => return self.remove(i),
            EditAction::Replace(i, event) => return self.replace_event(i, *event),
            EditAction::ApplyText(scenario) => self.apply_text(*scenario),
            EditAction::Undo => self.undo(),
            EditAction::Redo => self.redo(),
        }
        None
    }

    /// Apply a scenario edit; on success re-run, place the cursor with `cursor_after` and say so, else show why.
    pub(super) fn edit(
        &mut self,
        change: impl FnOnce(&mut Scenario) -> Result<(), String>,
        cursor_after: impl FnOnce(&Model) -> Option<usize>,
    ) -> bool {
        let mut next = (*self.shown.scenario).clone();
        match change(&mut next) {
            Ok(()) => {
                // At the end (including an empty timeline, where both are None): follow the new end.
                let was_at_end = self.shown.cursor == self.shown.last_step();
                // The first edit of a preset makes it the user's: "<preset name> (edited)", described by the preset.
                if let Some(id) = self.preset.take() {
                    next.name = super::saved::edited_name(&next.name);
                    self.edited_preset = Some(id);
                }
                self.shown.scenario = std::rc::Rc::new(next);
                self.clear_error();
                self.rerun();
                self.shown.cursor = if was_at_end { self.shown.last_step() } else { cursor_after(self) };
                true
            }
            Err(why) => {
                self.error(why);
                false
            }
        }
    }

    pub(super) fn insert(&mut self, position: usize, kind: EventKind, lane: Lane) -> Option<Span> {
        let cursor = self.shown.cursor;
        let span = Span { at: position, removed: 0, inserted: 1 };
        let done = self.edit(
            |s| edit::insert(s, position, kind, &lane),
            |_| cursor.map(|c| if position <= c { c + 1 } else { c }),
        );
        self.selected = None;
        done.then_some(span)
    }

    /// A move changes the steps between where the event was and where it goes (`to` counts positions before
    /// the move), and its own lane.
    pub(super) fn move_event(&mut self, from: usize, to: usize, lane: Lane) -> Option<Span> {
        let cursor = self.shown.cursor;
        let (at, end) = (from.min(to), (from.max(to) + 1).min(self.shown.scenario.events.len()));
        let span = Span { at, removed: end.saturating_sub(at), inserted: end.saturating_sub(at) };
        let done = self.edit(|s| edit::move_event(s, from, to, &lane), |_| cursor);
        self.selected = None;
        done.then_some(span)
    }

    /// Delete an event. Nothing asks first, so the banner says what went and offers to undo it.
    pub(super) fn remove(&mut self, i: usize) -> Option<Span> {
        let cursor = self.shown.cursor;
        let kind = self.shown.scenario.events.get(i).map(Event::kind);
        let before = self.shown.scenario.events.len();
        let done = self.edit(
            |s| edit::remove(s, i).map(|_| ()),
            |m| cursor.map(|c| if i < c { c - 1 } else { c }).filter(|c| Some(*c) <= m.shown.last_step()),
        );
        if let Some(kind) = kind.filter(|_| self.shown.scenario.events.len() < before) {
            self.inform_undoable(format!("Deleted step {i} ({})", crate::formats::icons::kind_info(kind).1));
            self.focus_after_removing(i);
        }
        self.selected = None;
        done.then_some(Span { at: i, removed: 1, inserted: 0 })
    }

    pub(super) fn replace_event(&mut self, i: usize, event: Event) -> Option<Span> {
        let cursor = self.shown.cursor;
        self.edit(|s| edit::replace(s, i, event), |_| cursor).then_some(Span { at: i, removed: 1, inserted: 1 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Action;
    use crate::model::{CursorAction, LoadAction, VariantsAction};
    use epochlab_core::{presets, Variant};

    fn lane(b: &str) -> Lane {
        Lane::Broker(b.to_string())
    }

    #[test]
    fn inserting_at_the_end_follows_the_end_and_shows_the_effect() {
        let m = Model::landing();
        let m = m.after(Action::Edit(EditAction::Insert { position: 10, kind: EventKind::Crash, lane: lane("A") }));
        assert_eq!(m.shown.scenario.events.len(), 11);
        assert_eq!(m.shown.cursor, Some(10));
        assert!(!m.shown.traces[0].steps[10].state.replicas[0].up);
    }

    #[test]
    fn building_from_an_empty_scenario_follows_each_new_event() {
        let m = Model::new(Scenario::empty(), vec![Variant::Kip279], None);
        assert_eq!(m.shown.cursor, None);
        let m = m.after(Action::Edit(EditAction::Insert { position: 0, kind: EventKind::Elect, lane: Lane::Cluster }));
        assert_eq!(m.shown.cursor, Some(0));
        let m =
            m.after(Action::Edit(EditAction::Insert { position: 1, kind: EventKind::Produce, lane: Lane::Cluster }));
        assert_eq!(m.shown.cursor, Some(1));
        // Before the first step of a non-empty timeline is not "the end": an insert leaves the cursor there.
        let m = m.after(Action::Cursor(CursorAction::Home)).after(Action::Edit(EditAction::Insert {
            position: 2,
            kind: EventKind::Settle,
            lane: Lane::Cluster,
        }));
        assert_eq!(m.shown.cursor, None);
    }

    #[test]
    fn editing_the_past_keeps_the_future_and_the_cursor_on_the_same_step() {
        let m = Model::landing().after(Action::Cursor(CursorAction::Set(Some(5))));
        let m = m.after(Action::Edit(EditAction::Insert { position: 2, kind: EventKind::Flush, lane: lane("A") }));
        assert_eq!(m.shown.cursor, Some(6));
        assert_eq!(m.shown.scenario.events.len(), 11);
        assert_eq!(m.shown.scenario.events[10].kind(), EventKind::Crash);
        let m = m.after(Action::Edit(EditAction::Remove(2)));
        assert_eq!(m.shown.cursor, Some(5));
        let mut landing = presets::default_scenario();
        landing.config.variant = Variant::HwTruncation;
        // Edited, the preset is the user's own now.
        landing.name = format!("{} (edited)", landing.name);
        assert_eq!(*m.shown.scenario, landing);
    }

    #[test]
    fn a_refused_drop_changes_nothing_and_says_why() {
        let m = Model::landing();
        let n = m.after(Action::Edit(EditAction::Insert { position: 0, kind: EventKind::Fetch, lane: Lane::Cluster }));
        assert_eq!(n.shown.scenario, m.shown.scenario);
        assert!(n.notice.as_ref().is_some_and(|n| n.error && n.text.contains("needs a broker")));
    }

    #[test]
    fn a_deletion_says_what_went_and_offers_undo_until_the_next_edit() {
        let m = Model::landing().after(Action::Edit(EditAction::Remove(7)));
        let notice = m.notice.clone().expect("a notice");
        assert_eq!((notice.text.as_str(), notice.error, notice.undo), ("Deleted step 7 (Crash)", false, true));
        let n = m.after(Action::Edit(EditAction::Insert { position: 0, kind: EventKind::Flush, lane: lane("A") }));
        assert_eq!(n.notice, None, "its Undo would now undo the insert");
        assert_eq!(Model::landing().after(Action::Edit(EditAction::Remove(99))).notice.map(|n| n.undo), Some(false));
    }

    #[test]
    fn moving_a_chip_changes_its_step_and_its_broker() {
        let m = Model::landing().after(Action::Edit(EditAction::Move { from: 7, to: 3, lane: lane("B") }));
        assert_eq!(
            m.shown.scenario.events[3],
            Event::Crash { broker: "B".into(), power: false, notify_controller: false }
        );
    }

    #[test]
    fn a_view_only_embed_refuses_edits_but_lets_the_reader_step_and_choose_variants() {
        let mut m = Model::landing();
        m.page.read_only = true;
        let n = m.after(Action::Edit(EditAction::Remove(0)));
        assert_eq!(n.shown.scenario, m.shown.scenario);
        assert!(n.notice.as_ref().is_some_and(|n| n.text.contains("read-only")));
        let n = m
            .after(Action::Cursor(CursorAction::StepBy(-1)))
            .after(Action::Variants(VariantsAction::Toggle(Variant::Kip101)));
        assert_eq!(n.shown.cursor, Some(8));
        assert_eq!(n.shown.variants.len(), 3);
        // Loading a scenario by message keeps it read-only.
        let n = m.after(Action::Load(LoadAction::Replace(Box::new(Scenario::empty()))));
        assert!(n.page.read_only);
    }
}
