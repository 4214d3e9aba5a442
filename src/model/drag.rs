//! Pointer-event dragging (mouse, touch and pen alike): hit-testing the timeline under the pointer and
//! turning a drop into a model action. The geometry rules are pure functions, tested natively.

use epochlab_core::scenario::edit::Lane;

use crate::model::EditAction;
use crate::model::{Action, PlaceSource};

/// Where a drag would land.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DropTarget {
    /// Between steps on a lane: insert at `position` (0 to the number of events).
    Gap {
        /// Lane index into the model's lanes.
        lane: usize,
        /// Insertion position in the current timeline.
        position: usize,
        /// Why the drop would be refused, if it would.
        problem: Option<String>,
    },
    /// Off the timeline: dropping an existing chip here deletes it.
    Outside,
}

/// The insertion position for a pointer over the cell of `step` (`None`: the trailing "end" cell):
/// the left half means before the step, the right half after it.
pub fn gap_position(step: Option<usize>, events: usize, x_in_cell: f64, cell_width: f64) -> usize {
    match step {
        None => events,
        Some(i) if x_in_cell < cell_width / 2.0 => i,
        Some(i) => (i + 1).min(events),
    }
}

/// The action a drop performs, if any.
pub fn drop_action(source: &PlaceSource, target: &DropTarget, lanes: &[Lane]) -> Option<Action> {
    match (source, target) {
        (_, DropTarget::Gap { problem: Some(_), .. }) => None,
        (PlaceSource::New(kind), DropTarget::Gap { lane, position, .. }) => {
            Some(Action::Edit(EditAction::Insert { position: *position, kind: *kind, lane: lanes.get(*lane)?.clone() }))
        }
        (PlaceSource::Existing(from), DropTarget::Gap { lane, position, .. }) => {
            // A gap after the chip's own step counts one less once the chip has left its place.
            let to = if *position > *from { position - 1 } else { *position };
            Some(Action::Edit(EditAction::Move { from: *from, to, lane: lanes.get(*lane)?.clone() }))
        }
        (PlaceSource::Existing(from), DropTarget::Outside) => Some(Action::Edit(EditAction::Remove(*from))),
        (PlaceSource::New(_), DropTarget::Outside) => None,
    }
}

/// How far (in CSS pixels) a pointer must travel before a press becomes a drag rather than a click.
pub const DRAG_THRESHOLD: f64 = 5.0;

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::scenario::EventKind;

    fn lanes() -> Vec<Lane> {
        vec![Lane::Broker("A".into()), Lane::Broker("B".into()), Lane::Cluster]
    }

    #[test]
    fn the_left_half_of_a_step_inserts_before_it_and_the_right_half_after() {
        assert_eq!(gap_position(Some(3), 10, 10.0, 60.0), 3);
        assert_eq!(gap_position(Some(3), 10, 40.0, 60.0), 4);
        assert_eq!(gap_position(None, 10, 0.0, 60.0), 10);
    }

    #[test]
    fn moving_a_chip_later_accounts_for_the_place_it_leaves() {
        let gap = |position| DropTarget::Gap { lane: 1, position, problem: None };
        assert_eq!(
            drop_action(&PlaceSource::Existing(2), &gap(5), &lanes()),
            Some(Action::Edit(EditAction::Move { from: 2, to: 4, lane: Lane::Broker("B".into()) }))
        );
        assert_eq!(
            drop_action(&PlaceSource::Existing(5), &gap(2), &lanes()),
            Some(Action::Edit(EditAction::Move { from: 5, to: 2, lane: Lane::Broker("B".into()) }))
        );
    }

    #[test]
    fn refused_drops_do_nothing_and_dropping_outside_deletes_an_existing_chip() {
        let refused = DropTarget::Gap { lane: 2, position: 0, problem: Some("no".into()) };
        assert_eq!(drop_action(&PlaceSource::New(EventKind::Fetch), &refused, &lanes()), None);
        assert_eq!(
            drop_action(&PlaceSource::Existing(3), &DropTarget::Outside, &lanes()),
            Some(Action::Edit(EditAction::Remove(3)))
        );
        assert_eq!(drop_action(&PlaceSource::New(EventKind::Crash), &DropTarget::Outside, &lanes()), None);
        assert_eq!(
            drop_action(
                &PlaceSource::New(EventKind::Crash),
                &DropTarget::Gap { lane: 0, position: 1, problem: None },
                &lanes()
            ),
            Some(Action::Edit(EditAction::Insert {
                position: 1,
                kind: EventKind::Crash,
                lane: Lane::Broker("A".into())
            }))
        );
    }
}
