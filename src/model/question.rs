//! A lesson's question waiting for its answer, on the page: the lessons say which step is asked about
//! (`ToPage::Pending`), and until the answer the page neither plays that step nor shows what comes of it.
//! The cursor stays before it, whatever moves it (keys, buttons, chips, drags, playback), edits wait, and
//! the page is drawn from [`Model::before_question`]: the traces cut at the cursor, so no verdict, mark,
//! narration, consumer read or message of a later step is on screen.

use std::rc::Rc;

use epochlab_core::Trace;

use super::bridge::HeldBack;
use super::learn::LessonsModel;
use super::{Action, Model, Shared, Shown};
use crate::model::{EditAction, LoadAction, VariantsAction};

impl HeldBack {
    /// Step `step` held back, with the words that say why.
    pub fn new(step: u32, asked_now: bool) -> HeldBack {
        HeldBack { step, asked_now, why: waits(step, asked_now) }
    }
}

/// Said (in the banner and to a screen reader) when something would step past the step held back.
fn waits(step: u32, asked_now: bool) -> String {
    if asked_now {
        format!("The lesson's question is about step {step}: answer it in the lesson panel to see that step play (or close the lesson).")
    } else {
        format!("The lesson asks about step {step} further on: go on in the lesson panel to its question to see that step play (or close the lesson).")
    }
}

/// What a whole-scenario verdict says instead while a step is held back (true on a question and before it).
pub const NEUTRAL: &str = "The outcome shows once the lesson's question about it is answered.";

/// A trace cut before step `asked`: its steps up to the one before, and the violations found there, or none
/// while the question is `open`.
fn cut(trace: &Trace, asked: usize, open: bool) -> Trace {
    let mut t = trace.clone();
    t.steps.truncate(asked);
    t.violations.retain(|v| !open && (v.step as usize) < asked);
    t
}

/// What would show or change what the question asks about.
fn shows_or_changes(action: &Action) -> bool {
    action.edits()
        || matches!(
            action,
            Action::Edit(EditAction::Undo)
                | Action::Edit(EditAction::Redo)
                | Action::Load(LoadAction::Preset(_))
                | Action::Load(LoadAction::Replace(_))
                | Action::Variants(VariantsAction::Toggle(_))
        )
}

impl Shown {
    /// What is drawn while a question about step `held.step` waits: every trace cut before it, and no verdict
    /// that would tell what it does. While the question is open, no verdict at all: "does an invariant fail?"
    /// is answered by a failure at any earlier step too, and the rule is that nothing on screen answers it.
    pub fn before_step(&self, held: &HeldBack) -> Shown {
        let (asked, open) = (held.step as usize, held.asked_now);
        let mut drawn = self.clone();
        drawn.traces = Shared::new(self.traces.iter().map(|t| cut(t, asked, open)).collect());
        drawn.first_difference = self.first_difference.filter(|d| (*d as usize) < asked);
        drawn.held = Shared::new(vec![None; self.traces.len()]);
        // A lesson's scenario tells its story in its description (the header, the text and the My scenarios
        // panels show it); what is drawn leaves it out until the answer.
        drawn.scenario_mut().description.clear();
        drawn
    }
}

impl LessonsModel {
    /// The panels this module draws are drawn as the page draws its own while a question waits (see
    /// [`Model::before_question`]).
    pub fn held_back(self: &Rc<LessonsModel>) -> Rc<LessonsModel> {
        let Some(asked) = self.question_asked() else { return self.clone() };
        let mut mirror = (**self).clone();
        mirror.shown = self.shown.before_step(&asked);
        mirror.pending = Some(asked);
        Rc::new(mirror)
    }
}

impl Model {
    /// The last step that may be shown while the question waits (`None`: before the first), if one waits.
    fn question_limit(&self) -> Option<Option<usize>> {
        self.pending.as_ref().map(|held| (held.step as usize).checked_sub(1))
    }

    /// Refuse what the question waits for; `true` when refused.
    pub(super) fn refused_by_question(&mut self, action: &Action) -> bool {
        let refused = self.pending.is_some() && shows_or_changes(action);
        if refused {
            self.refuse_past_question();
        }
        refused
    }

    fn refuse_past_question(&mut self) {
        self.playing = false;
        if let Some(why) = self.pending.as_ref().map(|h| h.why.clone()) {
            self.inform(why);
        }
    }

    /// After an action: a cursor past the question goes back before it (`true`: it did).
    pub(super) fn hold_before_question(&mut self) -> bool {
        let Some(limit) = self.question_limit() else { return false };
        let past = self.shown.cursor.map(|c| c as i64).unwrap_or(-1) > limit.map(|c| c as i64).unwrap_or(-1);
        if past {
            self.shown.cursor = limit;
            self.refuse_past_question();
        }
        past
    }

    /// Tell a screen reader why the cursor stopped (after the step it stopped on, when it moved).
    pub(super) fn say_question_waits(&mut self, before: &Model) {
        let Some(why) = self.pending.as_ref().map(|h| h.why.clone()) else { return };
        self.spoken = if self.shown.cursor == before.shown.cursor { why } else { format!("{} {why}", self.spoken) };
    }

    /// The lessons say a question waits for step `asked` (or none does).
    pub(super) fn set_pending(&mut self, asked: Option<HeldBack>) {
        self.pending = asked;
        if let Some(limit) = self.question_limit() {
            self.playing = false;
            if self.shown.cursor.map(|c| c as i64).unwrap_or(-1) > limit.map(|c| c as i64).unwrap_or(-1) {
                self.shown.cursor = limit;
            }
        }
    }

    /// What the page draws: itself, or while a question waits, itself with every trace cut before the step
    /// asked about (the page's verdicts then say [`NEUTRAL`]).
    pub fn before_question(&self) -> Option<Model> {
        let held = self.pending.as_ref()?;
        let mut drawn = self.clone();
        drawn.shown = self.shown.before_step(held);
        Some(drawn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::bridge::ToPage;
    use crate::model::CursorAction;
    use crate::model::ModuleAction;

    fn held(step: u32, asked_now: bool) -> Model {
        Model::landing().after(Action::Cursor(CursorAction::Set(Some(3)))).after(Action::Module(
            ModuleAction::FromLessons(Box::new(ToPage::Pending(Some(HeldBack::new(step, asked_now))))),
        ))
    }

    fn asked(step: u32) -> Model {
        held(step, true)
    }

    #[test]
    fn nothing_steps_past_a_waiting_question() {
        let m = asked(8);
        assert_eq!(m.shown.cursor, Some(3));
        for action in [
            Action::Cursor(CursorAction::End),
            Action::Cursor(CursorAction::StepBy(9)),
            Action::Cursor(CursorAction::Set(Some(9))),
            Action::Cursor(CursorAction::Set(Some(8))),
        ] {
            let after = m.after(action.clone());
            assert_eq!(after.shown.cursor, Some(7), "{action:?} stops before step 8");
            let why = "The lesson's question is about step 8: answer it in the lesson panel";
            assert!(after.spoken.contains(why), "{action:?} says why: {}", after.spoken);
            assert!(after.notice.is_some_and(|n| n.text.starts_with(why)));
        }
        assert_eq!(
            m.after(Action::Cursor(CursorAction::StepBy(2))).shown.cursor,
            Some(5),
            "before the question, the cursor moves"
        );
        assert!(m.after(Action::Cursor(CursorAction::StepBy(2))).notice.is_none());
        let mut played = m.after(Action::Cursor(CursorAction::Play));
        for _ in 0..20 {
            played = played.after(Action::Cursor(CursorAction::Tick));
        }
        assert_eq!((played.shown.cursor, played.playing), (Some(7), false), "playback stops before the question");
        let edit = m.after(Action::Edit(EditAction::Remove(0)));
        assert_eq!(edit.shown.scenario, m.shown.scenario, "edits wait for the answer");
        assert_eq!(m.after(Action::Edit(EditAction::Undo)).shown.scenario, m.shown.scenario);
        let answered = m
            .after(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Pending(None)))))
            .after(Action::Cursor(CursorAction::End));
        assert_eq!(answered.shown.cursor, Some(9), "answered, the page moves freely again");
        let first = asked(0).after(Action::Cursor(CursorAction::StepBy(1)));
        assert_eq!(first.shown.cursor, None, "a question about step 0 keeps the cursor before every step");
    }

    #[test]
    fn before_the_question_the_page_says_the_lesson_asks_further_on() {
        let after = held(8, false).after(Action::Cursor(CursorAction::End));
        assert_eq!(after.shown.cursor, Some(7));
        let notice = after.notice.map(|n| n.text).unwrap_or_default();
        assert!(notice.starts_with("The lesson asks about step 8 further on: go on in the lesson panel"), "{notice}");
        assert!(!notice.contains("answer it"), "no question is on screen yet: {notice}");
    }

    #[test]
    fn the_page_is_drawn_from_the_steps_before_the_question() {
        let m = Model::landing();
        assert!(m.before_question().is_none());
        let m = asked(8);
        let shown = m.before_question().unwrap();
        assert!(shown.shown.traces.iter().all(|t| t.steps.len() == 8 && t.violations.iter().all(|v| v.step < 8)));
        assert!(m.shown.traces[0].violations.iter().any(|v| v.step >= 8), "the full run has later violations");
        assert_eq!(shown.shown.first_difference, None, "the variants part ways at step 8, not shown yet");
        assert!(shown.shown.scenario.description.is_empty() && !m.shown.scenario.description.is_empty());
        let headline = crate::components::header::headline(&shown);
        assert!(headline.contains(NEUTRAL) && !headline.contains("breaks"), "{headline}");
    }
}
