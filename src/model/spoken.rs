//! What a screen reader hears (issue #11, WCAG 4.1.3): the step's narration when the cursor moves, where a
//! keyboard placement would land, and what a placement did, in names and positions rather than indexes
//! (as dnd-kit and react-beautiful-dnd announce drags). The page puts these in polite live regions.

use epochlab_core::scenario::edit::Lane;
use epochlab_core::scenario::Event;
use epochlab_core::Trace;

use super::changed::Changed;
use super::{Model, PlaceSource};
use crate::formats::icons::kind_info;

/// A lane in words: "broker B's lane", "the cluster lane".
pub fn lane_name(lane: &Lane) -> String {
    match lane {
        Lane::Cluster => "the cluster lane".to_string(),
        Lane::Broker(b) => format!("broker {b}'s lane"),
    }
}

/// An event in words: "restart of A", "settle".
fn event_words(event: &Event) -> String {
    match event.broker() {
        Some(b) => format!("{} of {b}", event.kind().words()),
        None => event.kind().words(),
    }
}

/// The narrations of a step, the first variant's, then each other variant's that says something else.
fn narrations(traces: &[Trace], step: usize) -> String {
    let Some(first) = traces.first().and_then(|t| t.steps.get(step)) else { return String::new() };
    let mut said = first.narration.clone();
    for t in traces.iter().skip(1) {
        match t.steps.get(step) {
            Some(s) if s.narration != first.narration => {
                said.push_str(&format!(" Under {}: {}", t.variant.id(), s.narration));
            }
            _ => {}
        }
    }
    said
}

/// What changed in the invariants between two runs of the same variants: new failures, then ones gone.
fn invariant_changes(before: &[Trace], after: &[Trace]) -> Vec<String> {
    let mut changes = Vec::new();
    for t in after {
        let old = before.iter().find(|b| b.variant == t.variant);
        let failing = |tr: &Trace, v: &epochlab_core::invariants::Violation| {
            tr.violations.iter().any(|o| o.invariant == v.invariant && !o.by_design)
        };
        for v in t.violations.iter().filter(|v| !v.by_design) {
            if !old.is_some_and(|o| failing(o, v)) {
                changes.push(format!(
                    "under {}, {} now fails at step {}: {}",
                    t.variant.id(),
                    v.invariant,
                    v.step,
                    v.message
                ));
            }
        }
        for v in old.map_or(&[][..], |o| &o.violations[..]).iter().filter(|v| !v.by_design) {
            if !failing(t, v) {
                changes.push(format!("under {}, {} no longer fails", t.variant.id(), v.invariant));
            }
        }
    }
    changes
}

impl Model {
    /// The cursor's step in words, with its narration: "Step 5 of 9, fetch: …".
    pub fn step_words(&self) -> String {
        let Some(c) = self.shown.cursor else { return "Before the first step.".to_string() };
        let last = self.shown.scenario.events.len().saturating_sub(1);
        let kind = self.shown.scenario.events.get(c).map(|e| e.kind().words()).unwrap_or_default();
        format!("Step {c} of {last}, {kind}: {}", narrations(&self.shown.traces, c))
    }

    /// The event a placement at `position` lands before, as the timeline shows it while placing.
    fn landing_before(&self, source: &PlaceSource, position: usize) -> String {
        let at = match source {
            PlaceSource::Existing(from) if position >= *from => position + 1,
            _ => position,
        };
        match self.shown.scenario.events.get(at) {
            Some(e) => format!("before step {position} ({})", event_words(e)),
            None => format!("at the end (step {position})"),
        }
    }

    /// Where a keyboard placement stands and what the keys do: "Placing new Crash over broker B's lane,
    /// before step 5 (restart of A). …".
    pub fn placing_words(&self) -> String {
        let Some(p) = self.placing.as_ref() else { return String::new() };
        let what = match &p.source {
            PlaceSource::New(k) => format!("new {}", kind_info(*k).1),
            PlaceSource::Existing(i) => match self.shown.scenario.events.get(*i) {
                Some(e) => format!("step {i} ({})", event_words(e)),
                None => format!("step {i}"),
            },
        };
        if p.touch {
            let again = match &p.source {
                PlaceSource::New(k) => format!("tap {} again", kind_info(*k).1),
                PlaceSource::Existing(_) => "Escape".to_string(),
            };
            let refused = self.notice.as_ref().filter(|n| n.error).map(|n| format!(" Refused: {}.", n.text));
            return format!(
                "Placing {what}: tap a gap on a lane to place it, or {again} to cancel.{}",
                refused.unwrap_or_default()
            );
        }
        let lane = self.shown.lanes().get(p.lane).map(lane_name).unwrap_or_default();
        let problem = self.placing_problem().map(|p| format!(" Refused here: {p}.")).unwrap_or_default();
        let before = self.landing_before(&p.source, p.position);
        format!(
            "Placing {what} on {lane}, {before}. ←/→ choose the step, ↑/↓ the lane, Enter to place, Escape to cancel.{problem}"
        )
    }

    /// What placing the event now at `index` did: where it is, whether a variant rejected it, and which
    /// invariants it made fail or hold.
    fn placed_words(&self, before: &Model, index: usize) -> String {
        let Some(e) = self.shown.scenario.events.get(index) else { return String::new() };
        let mut said = format!("Placed: {} at step {index}", event_words(e));
        for t in self.shown.traces.iter() {
            if let Some(reason) = t.steps.get(index).and_then(|s| s.outcome.reason()) {
                said.push_str(&format!(", rejected under {} ({reason})", t.variant.id()));
            }
        }
        let changes = invariant_changes(&before.shown.traces, &self.shown.traces);
        if changes.is_empty() {
            said.push_str("; no invariant changes.");
        } else {
            said.push_str(&format!("; {}.", changes.join("; ")));
        }
        said
    }

    /// What the page says after an action made this model from `before`, `placed` being where the action
    /// puts an event if it is a placement; unchanged when nothing is to be said.
    pub(super) fn speak(&mut self, changed: &Changed, placed: Option<usize>, before: &Model) {
        match placed {
            Some(i) if changed.scenario => self.spoken = self.placed_words(before, i),
            _ if changed.cursor => self.spoken = self.step_words(),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Action, CursorAction, EditAction, PlaceAction};

    #[test]
    fn moving_the_cursor_speaks_the_narration_once_and_each_variant_that_differs() {
        let m = Model::landing().after(Action::Cursor(CursorAction::Set(Some(8))));
        let said = m.spoken.clone();
        assert!(said.starts_with("Step 8 of 9, restart: "), "{said}");
        assert!(said.contains(" Under kip-279: "), "the variants part ways at step 8: {said}");
        let step0 = m.after(Action::Cursor(CursorAction::Home)).after(Action::Cursor(CursorAction::StepBy(1))).spoken;
        assert!(step0.starts_with("Step 0 of 9, elect: "), "{step0}");
        // Once per move: a variant is named only where its narration differs from the first's.
        let (mut same, mut differ) = (0, 0);
        for step in 0..m.shown.scenario.events.len() {
            let said = m.after(Action::Cursor(CursorAction::Set(Some(step)))).spoken;
            let (a, b) = (&m.shown.traces[0].steps[step].narration, &m.shown.traces[1].steps[step].narration);
            assert_eq!(said.contains(" Under kip-279: "), a != b, "step {step}: {said}");
            if a == b {
                same += 1
            } else {
                differ += 1
            }
        }
        assert!(same > 0 && differ > 0);
    }

    #[test]
    fn a_placement_says_where_it_lands_and_what_it_did() {
        let m = Model::landing()
            .after(Action::Place(PlaceAction::Start(PlaceSource::New(epochlab_core::scenario::EventKind::Crash))));
        let m = m.after(Action::Place(PlaceAction::Move { dx: -5, dy: 1 }));
        assert!(m.placing_words().starts_with("Placing new Crash on broker B's lane, before step 5 (fetch of A)."));
        let placed = m.after(Action::Place(PlaceAction::Commit));
        assert!(placed.spoken.starts_with("Placed: crash of B at step 5"), "{}", placed.spoken);
    }

    /// One keyboard session, everything it says, in order: the transcript a screen reader user hears.
    fn keyboard_session() -> String {
        use epochlab_core::scenario::EventKind;
        let actions = [
            Action::Cursor(CursorAction::Home),
            Action::Cursor(CursorAction::StepBy(1)),
            Action::Cursor(CursorAction::StepBy(1)),
            Action::Place(PlaceAction::Start(PlaceSource::New(EventKind::Crash))),
            Action::Place(PlaceAction::Move { dx: 0, dy: 2 }),
            Action::Place(PlaceAction::Move { dx: -4, dy: -1 }),
            Action::Place(PlaceAction::Commit),
            Action::Place(PlaceAction::Start(PlaceSource::Existing(6))),
            Action::Place(PlaceAction::Move { dx: 0, dy: -1 }),
            Action::Place(PlaceAction::Commit),
            Action::Edit(EditAction::Remove(6)),
            Action::Cursor(CursorAction::End),
        ];
        let mut m = Model::landing();
        let mut lines = Vec::new();
        for action in actions {
            let (placing, spoken, notice) = (m.placing_words(), m.spoken.clone(), m.notice.clone());
            lines.push(format!("> {action:?}"));
            m = m.after(action);
            if m.placing_words() != placing && !m.placing_words().is_empty() {
                lines.push(format!("  (placing) {}", m.placing_words()));
            }
            if m.spoken != spoken {
                lines.push(format!("  (spoken) {}", m.spoken));
            }
            // The banner is a live region of its own (role status or alert).
            if let Some(n) = m.notice.as_ref().filter(|n| Some(*n) != notice.as_ref()) {
                lines.push(format!("  (notice) {}", n.text));
            }
        }
        lines.join("\n") + "\n"
    }

    #[test]
    fn a_keyboard_session_says_what_it_said_before() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/model/spoken_transcript.txt");
        let transcript = keyboard_session();
        if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
            std::fs::write(path, &transcript).unwrap();
        }
        let kept = std::fs::read_to_string(path).unwrap_or_default();
        assert_eq!(transcript, kept, "the transcript changed: read it, then UPDATE_SNAPSHOTS=1 cargo test -p epochlab");
    }
}
