//! The two sides of the bridge in one test: the page's model and the lessons' model, each message passed
//! as JSON, as in the browser.

use epochlab_core::lesson::Answer;

use super::{LearnAction, LessonsModel};
use crate::model::bridge::{HeldBack, ToLessons, ToPage};
use crate::model::{Action, Effect, Model, ModuleAction};
use crate::model::{CursorAction, EditAction};

const INDEX: &str = include_str!("../../../crates/epochlab-core/lessons/index.json");
const LESSON_2: &str = include_str!("../../../crates/epochlab-core/lessons/02-committed-record-lost.json");

pub(super) struct Both {
    pub page: Model,
    pub lessons: LessonsModel,
}

impl Both {
    pub fn new() -> Both {
        let mut both = Both { page: Model::landing(), lessons: LessonsModel::default() };
        both.page_act(Action::Module(ModuleAction::OpenLearn));
        both.send(ToPage::Ready);
        both
    }

    fn send(&mut self, m: ToPage) {
        let m = ToPage::from_json(&m.to_json()).unwrap();
        self.page_act(Action::Module(ModuleAction::FromLessons(Box::new(m))));
    }

    pub fn page_act(&mut self, a: Action) {
        let (next, effects) = self.page.reduce(a);
        self.page = next;
        for e in effects {
            if let Effect::ToLessons(message) = e {
                // Through the wire form, as the window event carries it.
                match ToLessons::from_json(&message.to_json()).unwrap() {
                    ToLessons::Shown(s) => self.lessons.mirror(*s),
                    ToLessons::Splice(splice) => {
                        let mut shown = self.lessons.shown.snapshot();
                        assert!(splice.apply(&mut shown.scenario), "the splice fits the mirror");
                        shown.cursor = splice.cursor;
                        self.lessons.mirror(shown);
                    }
                    ToLessons::Cursor(c) => self.lessons.mirror_cursor(c),
                    ToLessons::Toggle => self.learn(LearnAction::Toggle),
                    _ => {}
                }
            }
        }
    }

    pub fn learn(&mut self, a: LearnAction) {
        let before = self.lessons.clone();
        let (next, _) = before.learn_reduce(a);
        self.lessons = next.clone();
        for m in super::page_messages(&before, &next) {
            self.send(m);
        }
    }

    pub fn open_lesson_2(&mut self) {
        self.learn(LearnAction::Start("committed-record-lost".into(), 0));
        self.learn(LearnAction::IndexLoaded(Ok(INDEX.into())));
        self.learn(LearnAction::LessonLoaded("committed-record-lost".into(), 0, Ok(LESSON_2.into())));
    }
}

#[test]
fn the_page_holds_back_the_step_a_question_asks_about_until_the_answer() {
    let mut b = Both::new();
    b.open_lesson_2();
    for _ in 0..3 {
        b.learn(LearnAction::Next);
    }
    let now = |step| Some(HeldBack::new(step, true));
    assert_eq!(
        (b.page.pending.clone(), b.page.shown.cursor),
        (now(8), Some(7)),
        "asked about step 8, stopped before it"
    );
    b.page_act(Action::Cursor(CursorAction::End));
    assert_eq!(b.page.shown.cursor, Some(7), "the page refuses to step past the question");
    assert!(b.page.before_question().is_some_and(|m| m.shown.traces.iter().all(|t| t.steps.len() == 8)));
    let painting = |b: &Both| b.page.painting.as_ref().map(|p| (p.variant.id(), p.broker.clone(), p.kept.clone()));
    assert_eq!(painting(&b), Some(("hw-truncation", "A".to_string(), vec![true, true])), "A's row is painted");
    b.learn(LearnAction::Paint(1));
    assert_eq!(painting(&b).map(|p| p.2), Some(vec![true, false]), "the page draws the switched offset");
    b.learn(LearnAction::Paint(1));
    b.learn(LearnAction::Answer(Answer::Offsets(vec![true, true])));
    assert_eq!((b.page.pending.clone(), b.page.shown.cursor), (None, Some(8)), "answered, the step plays");
    assert_eq!(painting(&b), None, "and the painting is gone from the row");
    b.learn(LearnAction::Next);
    b.learn(LearnAction::Next);
    assert_eq!(b.page.pending.as_ref().map(|h| h.step), Some(9));
    b.learn(LearnAction::Leave);
    assert_eq!(b.page.pending, None, "closing the lesson lets the page go");
}

#[test]
fn undo_after_show_me_after_the_full_walk_brings_back_the_learners_timeline() {
    let mut b = Both::new();
    b.open_lesson_2();
    for a in [
        LearnAction::Next,
        LearnAction::Next,
        LearnAction::Next,
        LearnAction::Answer(Answer::Offsets(vec![true, true])),
        LearnAction::Next,
        LearnAction::Next,
        LearnAction::Answer(Answer::Name("nothing".into())),
        LearnAction::Next,
        LearnAction::Answer(Answer::YesNo(true)),
        LearnAction::Next,
        LearnAction::Next,
    ] {
        b.learn(a);
    }
    let before = b.page.shown.snapshot();
    b.learn(LearnAction::ShowMe);
    assert!(b.lessons.learn.run.as_ref().unwrap().passed);
    b.page_act(Action::Edit(EditAction::Undo));
    assert_eq!(b.page.shown.snapshot().scenario, before.scenario);
    assert!(!b.lessons.learn.run.as_ref().unwrap().passed);
}

#[test]
fn a_notice_the_lesson_raised_goes_when_the_learner_moves_on() {
    let mut b = Both::new();
    b.open_lesson_2();
    b.learn(LearnAction::Start("committed-record-lost".into(), 8));
    b.learn(LearnAction::LessonLoaded("committed-record-lost".into(), 8, Ok(LESSON_2.into())));
    b.learn(LearnAction::ShowMe);
    let said = |b: &Both| b.page.notice.as_ref().map(|n| n.text.clone()).unwrap_or_default();
    assert!(said(&b).contains("solution is on the timeline"), "{}", said(&b));
    b.learn(LearnAction::Next);
    assert_eq!(said(&b), "", "the solution's notice stayed behind on the next step");
    // The page's own notice is not the lesson's to take down.
    b.learn(LearnAction::Back);
    b.learn(LearnAction::ShowMe);
    b.page_act(Action::Notice(crate::model::NoticeAction::Show(crate::model::Notice {
        error: false,
        text: "the page's own".into(),
        undo: false,
    })));
    b.learn(LearnAction::Leave);
    assert_eq!(said(&b), "the page's own");
}

/// Every question of every shipped lesson, opened by its link's step as a learner would reach it: while it
/// is open the page draws no verdict (no failure listed, no step marked, the headline neutral), whatever the
/// question asks, so nothing on screen answers it.
#[test]
fn while_any_shipped_question_is_open_the_page_draws_no_verdict() {
    use epochlab_core::lesson::{parse_index, parse_lesson, LessonStep};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/epochlab-core/lessons/");
    let index = parse_index(INDEX).expect("the shipped index");
    let mut asked = 0;
    for entry in &index.lessons {
        let text = std::fs::read_to_string(format!("{dir}{}", entry.file)).expect("a shipped lesson");
        let lesson = parse_lesson(&text).expect("it parses");
        for (step, _) in lesson.steps.iter().enumerate().filter(|(_, s)| matches!(s, LessonStep::Predict(_))) {
            let mut b = Both::new();
            b.learn(LearnAction::Start(entry.id.clone(), step));
            b.learn(LearnAction::IndexLoaded(Ok(INDEX.into())));
            b.learn(LearnAction::LessonLoaded(entry.id.clone(), step, Ok(text.clone())));
            let at = format!("{} step {}", entry.id, step + 1);
            assert!(b.page.pending.as_ref().is_some_and(|h| h.asked_now), "{at}: the question is open");
            let drawn = b.page.before_question().expect("drawn before the question");
            assert!(drawn.shown.traces.iter().all(|t| t.violations.is_empty()), "{at}: a failure is listed");
            // What the logs draw at the cursor comes from these traces too (a step names its violations by index).
            let views = epochlab_core::view::views(&drawn.shown.traces, drawn.shown.cursor);
            assert!(views.iter().all(|v| v.violations.is_empty()), "{at}: a view shows a failure");
            let headline = crate::components::header::headline(&drawn);
            assert!(headline.ends_with(crate::model::question::NEUTRAL), "{at}: {headline}");
            assert!(drawn.shown.scenario.description.is_empty(), "{at}: the story's description is shown");
            // Nor does the HW marker start on a value (it could be the answer) until the learner moves it. A
            // log to paint starts as it is before the step: the baseline, not a guess.
            let run = b.lessons.learn.run.clone().expect("following");
            assert_eq!(run.hw, None, "{at}: the HW marker starts on a value");
            asked += 1;
        }
    }
    assert!(asked >= 30, "every shipped question is walked: {asked}");
}
