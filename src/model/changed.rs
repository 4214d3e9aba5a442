//! What one reduce changed, worked out once: the speech, the history, the effects and the message to the
//! lessons' module all read it, rather than each comparing the model before and after on its own. What the
//! action itself says (`Facts`, an edit's span of events, that the cursor came from the module, that the library came
//! from another tab) comes from the reducer, not from a comparison.

use super::Model;

/// The events an edit replaced: `removed` of them from step `at` on, by `inserted` of the new timeline's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub at: usize,
    pub removed: usize,
    pub inserted: usize,
}

/// What the action is, as far as the effects care (read before it is applied, `Action::facts`).
pub(super) struct Facts {
    /// Another tab's list of My scenarios: neither this page's edit nor for this page to write back.
    pub synced: bool,
    /// Whether an edit it makes is recorded for undo (undo and redo move in the history instead).
    pub recorded: bool,
    /// Where it puts an event, if it places one.
    pub placed: Option<usize>,
    /// A message from the lessons' module.
    pub from_lessons: bool,
    /// The cursor the lessons' module asked for.
    pub asked_cursor: Option<Option<u32>>,
}

/// What an action changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Changed {
    /// The scenario (its events, settings, name or description).
    pub scenario: bool,
    /// The core ran again.
    pub rerun: bool,
    pub variants: bool,
    pub cursor: bool,
    /// The number of steps.
    pub steps: bool,
    /// The lesson's part of the address.
    pub lesson: bool,
    /// My scenarios, by this page (another tab's list is not this page's to write back).
    pub library: bool,
    /// The events an edit replaced, when that was all it changed of the scenario.
    pub span: Option<Span>,
    /// The cursor is where the lessons' module asked for it: telling it back would only echo.
    pub cursor_asked: bool,
}

impl Changed {
    pub fn between(before: &Model, after: &Model, facts: &Facts, span: Option<Span>) -> Changed {
        let rerun = before.shown.traces != after.shown.traces;
        // Only a re-run follows a change of the events or settings: otherwise they are not compared at all,
        // and after one the comparison costs far less than the re-run did.
        let (a, b) = (&before.shown.scenario, &after.shown.scenario);
        let named = a.name != b.name || a.description != b.description;
        let scenario = named || (rerun && a != b);
        let cursor = before.shown.cursor != after.shown.cursor;
        Changed {
            scenario,
            rerun,
            variants: before.shown.variants != after.shown.variants,
            cursor,
            steps: a.events.len() != b.events.len(),
            lesson: before.lesson_params != after.lesson_params,
            library: !facts.synced && before.library != after.library,
            span: span.filter(|_| scenario && !named),
            cursor_asked: facts.asked_cursor.is_some_and(|asked| asked == after.shown.cursor.map(|c| c as u32)),
        }
    }

    /// What a snapshot holds (and the address): the scenario, the variants, the cursor, the lesson's step.
    pub fn snapshot(&self) -> bool {
        self.scenario || self.variants || self.cursor || self.lesson
    }

    /// What an embed's announcement holds: the cursor, the number of steps, the variants.
    pub fn announced(&self) -> bool {
        self.cursor || self.steps || self.variants
    }

    /// What undo takes back: the scenario, the variants, My scenarios.
    pub fn edited(&self) -> bool {
        self.scenario || self.variants || self.library
    }
}
