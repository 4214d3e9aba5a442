//! Keyboard placement: a palette chip or a timeline chip is moved over the timeline with the arrow keys,
//! then dropped where it stands (or the placement is cancelled).

use epochlab_core::scenario::edit;

use super::action::PlaceAction;
use super::changed::Span;
use super::placement::{PlaceSource, Placing};
use super::{Action, Model};
use crate::model::EditAction;

impl Model {
    /// Place an event with the keyboard or by tapping.
    /// A placement dropped is an edit: the events it replaced.
    pub(super) fn apply_place(&mut self, place: PlaceAction) -> Option<Span> {
        match place {
            PlaceAction::Start(source) => self.start_placing(source),
            PlaceAction::Move { dx, dy } => self.move_placing(dx, dy),
            PlaceAction::Commit => return self.commit_placing(),
            PlaceAction::Cancel => self.placing = None,
            PlaceAction::Tap(source) => self.tap_place(source),
            PlaceAction::At { lane, gap } => return self.place_at(lane, gap),
        }
        None
    }

    /// Start placing: a new chip from the first lane at the end, an existing one from where it is. An event
    /// with no lane (which the parser and the editor never let happen) cannot be placed.
    pub(super) fn start_placing(&mut self, source: PlaceSource) {
        let (lane, position) = match &source {
            PlaceSource::New(_) => (0, self.shown.scenario.events.len()),
            PlaceSource::Existing(i) => match self.shown.lane_of(*i) {
                Some(lane) => (lane, *i),
                None => return,
            },
        };
        self.placing = Some(Placing { source, lane, position, touch: false });
    }

    /// Move the placement by lanes (`dy`) and positions (`dx`), staying on the timeline.
    pub(super) fn move_placing(&mut self, dx: i32, dy: i32) {
        let lanes = self.shown.lanes().len() as i32;
        // A moved chip leaves its place: one position fewer to choose from.
        let positions = match self.placing.as_ref().map(|p| &p.source) {
            Some(PlaceSource::Existing(_)) => self.shown.scenario.events.len() as i32 - 1,
            _ => self.shown.scenario.events.len() as i32,
        };
        if let Some(p) = &mut self.placing {
            p.lane = (p.lane as i32 + dy).clamp(0, lanes - 1) as usize;
            p.position = (p.position as i32 + dx).clamp(0, positions.max(0)) as usize;
        }
    }

    /// Drop at the placement: an insert or a move. A lane that went away meanwhile drops nothing.
    pub(super) fn commit_placing(&mut self) -> Option<Span> {
        let p = self.placing.take()?;
        let lane = self.shown.lanes().get(p.lane).cloned()?;
        let moving = matches!(p.source, PlaceSource::Existing(_));
        let span = self.apply(match p.source {
            PlaceSource::New(kind) => Action::Edit(EditAction::Insert { position: p.position, kind, lane }),
            PlaceSource::Existing(from) => Action::Edit(EditAction::Move { from, to: p.position, lane }),
        });
        // The moved chip's element is re-drawn elsewhere: the focus follows it (a refused move stays).
        if moving && span.is_some() {
            self.focus = Some(super::Focus::Chip(p.position));
        }
        span
    }

    /// A tap on a palette chip starts a touch placement; a second tap on the same chip cancels it.
    pub(super) fn tap_place(&mut self, source: PlaceSource) {
        if self.placing.as_ref().is_some_and(|p| p.source == source) {
            self.placing = None;
            return;
        }
        self.start_placing(source);
        if let Some(p) = &mut self.placing {
            p.touch = true;
        }
    }

    /// Drop the placement at a gap of a lane (a tap or a click on the timeline): the gap counts positions in
    /// the timeline as drawn, so a moved chip's later gaps count one less once it has left its place.
    pub(super) fn place_at(&mut self, lane: usize, gap: usize) -> Option<Span> {
        let p = self.placing.as_mut()?;
        p.lane = lane;
        p.position = match p.source {
            PlaceSource::Existing(from) if gap > from => gap - 1,
            _ => gap,
        };
        // A refused gap keeps the placement, its indicator and reason there, so that another gap can be tried.
        match self.placing_problem() {
            Some(why) => {
                self.error(why);
                None
            }
            None => self.commit_placing(),
        }
    }

    /// Whether a placement would be refused, and why (for the keyboard placement indicator).
    pub fn placing_problem(&self) -> Option<String> {
        let p = self.placing.as_ref()?;
        let lane = self.shown.lanes().get(p.lane).cloned()?;
        let kind = match &p.source {
            PlaceSource::New(k) => *k,
            PlaceSource::Existing(i) => self.shown.scenario.events.get(*i)?.kind(),
        };
        edit::can_place(kind, &lane, &self.shown.scenario).err()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::scenario::{Event, EventKind, Scenario};
    use epochlab_core::Variant;

    #[test]
    fn keyboard_placement_chooses_lane_and_position_then_places() {
        let m = Model::new(Scenario::empty(), vec![Variant::Kip279], None);
        let m = m.after(Action::Place(PlaceAction::Start(PlaceSource::New(EventKind::Elect))));
        assert_eq!(m.placing.as_ref().map(|p| (p.lane, p.position)), Some((0, 0)));
        let m = m.after(Action::Place(PlaceAction::Move { dx: 0, dy: 5 }));
        assert_eq!(m.placing.as_ref().map(|p| p.lane), Some(2), "clamped to the cluster lane");
        assert_eq!(m.placing_problem(), None);
        let m = m.after(Action::Place(PlaceAction::Commit));
        assert_eq!(m.shown.scenario.events, [Event::Elect { broker: None, deliver: Default::default() }]);
        let m = m
            .after(Action::Place(PlaceAction::Start(PlaceSource::New(EventKind::Fetch))))
            .after(Action::Place(PlaceAction::Move { dx: 0, dy: 2 }));
        assert!(m.placing_problem().is_some_and(|p| p.contains("needs a broker")));
        let m = m.after(Action::Place(PlaceAction::Cancel));
        assert_eq!(m.placing, None);
        assert_eq!(m.shown.scenario.events.len(), 1);
    }

    #[test]
    fn a_tap_starts_a_placement_a_second_tap_cancels_it_and_a_tap_on_a_gap_places() {
        let m = Model::landing();
        let flush = PlaceSource::New(EventKind::Flush);
        let placing = m.after(Action::Place(PlaceAction::Tap(flush.clone())));
        assert!(placing.placing.as_ref().is_some_and(|p| p.touch));
        assert_eq!(
            placing.after(Action::Place(PlaceAction::Tap(flush.clone()))).placing,
            None,
            "the same chip again cancels"
        );
        let other = placing.after(Action::Place(PlaceAction::Tap(PlaceSource::New(EventKind::Crash))));
        assert_eq!(other.placing.map(|p| p.source), Some(PlaceSource::New(EventKind::Crash)));
        let placed = placing.after(Action::Place(PlaceAction::At { lane: 1, gap: 3 }));
        assert_eq!(placed.placing, None);
        assert_eq!(placed.shown.scenario.events[3], Event::Flush { broker: "B".into() });
        // A refused gap places nothing, says why and keeps the placement for another try.
        let refused = placing.after(Action::Place(PlaceAction::At { lane: 2, gap: 3 }));
        assert_eq!(refused.shown.scenario, m.shown.scenario);
        assert!(refused.notice.as_ref().is_some_and(|n| n.error && n.text.contains("needs a broker")));
        assert_eq!(refused.placing.as_ref().map(|p| (p.lane, p.position)), Some((2, 3)));
        assert_eq!(
            refused.after(Action::Place(PlaceAction::At { lane: 0, gap: 0 })).shown.scenario.events[0],
            Event::Flush { broker: "A".into() }
        );
        // Without a placement, a tap on a gap does nothing.
        assert_eq!(m.after(Action::Place(PlaceAction::At { lane: 1, gap: 3 })).shown.scenario, m.shown.scenario);
    }

    #[test]
    fn a_moved_chip_lands_in_the_gap_tapped() {
        // Step 7 is A's crash: the gap before step 9 is position 8 once it has left its place.
        let m = Model::landing().after(Action::Place(PlaceAction::Start(PlaceSource::Existing(7))));
        let moved = m.after(Action::Place(PlaceAction::At { lane: 1, gap: 9 }));
        assert_eq!(moved.shown.scenario.events[8].kind(), EventKind::Crash);
        assert_eq!(moved.shown.scenario.events[8].broker(), Some("B"));
    }

    #[test]
    fn an_existing_chip_starts_from_its_own_lane_and_a_missing_one_does_not_start() {
        // In the landing scenario step 7 is A's crash, step 0 elects B, step 1 produces through the leader.
        let m = Model::landing().after(Action::Place(PlaceAction::Start(PlaceSource::Existing(7))));
        assert_eq!(m.placing.as_ref().map(|p| (p.lane, p.position)), Some((0, 7)));
        let lane = |i| {
            Model::landing().after(Action::Place(PlaceAction::Start(PlaceSource::Existing(i)))).placing.map(|p| p.lane)
        };
        assert_eq!((lane(0), lane(1)), (Some(1), Some(2)));
        assert_eq!(Model::landing().after(Action::Place(PlaceAction::Start(PlaceSource::Existing(99)))).placing, None);
    }
}
