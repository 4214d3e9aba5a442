//! A quiz question that runs its own story (lesson 11): the page shows that story while it is asked, and
//! comes back to it from the counter-scenario.

use super::*;

const INDEX: &str = include_str!("../../../crates/epochlab-core/lessons/index.json");
const QUIZ: &str = include_str!("../../../crates/epochlab-core/lessons/14-misconceptions-quiz.json");

fn act(m: &LessonsModel, a: LearnAction) -> (LessonsModel, Vec<LessonsEffect>) {
    m.learn_reduce(a)
}

/// The lessons' mirror of the landing page.
fn landing() -> LessonsModel {
    LessonsModel::mirroring(crate::model::Model::landing().shown)
}

fn quiz(step: usize) -> LessonsModel {
    let (m, _) = act(&landing(), LearnAction::Start("misconceptions-quiz".into(), step));
    let (m, _) = act(&m, LearnAction::IndexLoaded(Ok(INDEX.into())));
    act(&m, LearnAction::LessonLoaded("misconceptions-quiz".into(), step, Ok(QUIZ.into()))).0
}

/// A record's name (or `nothing`) as an answer.
fn record(name: &str) -> Answer {
    Answer::Name(name.to_string())
}

fn preset_name(id: &str) -> String {
    epochlab_core::presets::find(id).map(|p| p.scenario().name).unwrap_or_default()
}

#[test]
fn a_quiz_question_shows_its_own_counter_scenario_and_comes_back_to_it() {
    assert_eq!(quiz(0).shown.scenario.name, preset_name("kip101-scenario-1"), "the lesson's own story first");
    let m = quiz(5);
    assert_eq!(m.shown.scenario.name, preset_name("leader-hw-no-fix"));
    assert!(m.is_lesson_scenario());
    assert_eq!(m.shown.cursor, Some(6), "stopped before step 7");
    let wrong = act(&m, LearnAction::Answer(record("nothing"))).0;
    let outcome = wrong.learn.run.as_ref().and_then(|r| r.outcome.clone()).expect("answered");
    assert_eq!((outcome.right, outcome.misconception), (record("m2"), Some(Misconception::LeaderHwFixes)));
    let away = act(&wrong, LearnAction::Counter(Misconception::LeaderHwFixes.counter_scenario())).0;
    let back = act(&away, LearnAction::Resume).0;
    assert!(back.is_lesson_scenario());
    assert_eq!(
        (back.shown.scenario.name.as_str(), back.shown.cursor),
        (preset_name("leader-hw-no-fix").as_str(), Some(6))
    );
    // The next question runs its own story: three brokers, every election clean.
    let right = act(&back, LearnAction::Answer(record("m2"))).0;
    let next = act(&right, LearnAction::Next).0;
    assert_eq!(next.shown.scenario.name, preset_name("three-brokers-clean-elections"));
}

#[test]
fn a_definition_opened_in_one_lesson_is_closed_when_the_next_opens() {
    let open = act(&quiz(1), LearnAction::Term(Some("hw".into()))).0;
    assert_eq!(open.learn.term.as_deref(), Some("hw"));
    let (next, _) = act(&open, LearnAction::Start("misconceptions-quiz".into(), 0));
    let next = act(&next, LearnAction::LessonLoaded("misconceptions-quiz".into(), 0, Ok(QUIZ.into()))).0;
    assert_eq!(next.learn.term, None);
}
