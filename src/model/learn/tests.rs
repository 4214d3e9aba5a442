use super::*;

/// A painted log's answer: per offset, kept or cut.
fn offsets(kept: &[bool]) -> LearnAction {
    LearnAction::Answer(Answer::Offsets(kept.to_vec()))
}

const INDEX: &str = include_str!("../../../crates/epochlab-core/lessons/index.json");
const LESSON_2: &str = include_str!("../../../crates/epochlab-core/lessons/02-committed-record-lost.json");

fn act(m: &LessonsModel, a: LearnAction) -> (LessonsModel, Vec<LessonsEffect>) {
    m.learn_reduce(a)
}

/// The lessons' mirror of the landing page.
fn landing() -> LessonsModel {
    LessonsModel::mirroring(crate::model::Model::landing().shown)
}

/// Lesson 2 opened at `step`, as the page does it: asked for, the index and the file fetched.
fn lesson_2(step: usize) -> LessonsModel {
    let (m, effects) = act(&landing(), LearnAction::Start("committed-record-lost".into(), step));
    assert_eq!(effects, [LessonsEffect::FetchIndex]);
    let (m, effects) = act(&m, LearnAction::IndexLoaded(Ok(INDEX.into())));
    let file = "02-committed-record-lost.json".to_string();
    assert_eq!(effects, [LessonsEffect::FetchLesson { id: "committed-record-lost".into(), file, step }]);
    act(&m, LearnAction::LessonLoaded("committed-record-lost".into(), step, Ok(LESSON_2.into()))).0
}

#[test]
fn the_learn_panel_fetches_the_lesson_list_when_it_first_opens() {
    let (m, effects) = act(&landing(), LearnAction::Toggle);
    assert!(m.learn.shown);
    assert_eq!(effects, [LessonsEffect::FetchIndex]);
    let (m, _) = act(&m, LearnAction::IndexLoaded(Ok(INDEX.into())));
    let (m, effects) = act(&act(&m, LearnAction::Toggle).0, LearnAction::Toggle);
    assert!(m.learn.shown && matches!(m.learn.index, Fetched::Ready(_)));
    assert!(!effects.contains(&LessonsEffect::FetchIndex), "fetched once");
    let (failed, _) = act(&act(&landing(), LearnAction::Toggle).0, LearnAction::IndexLoaded(Err("HTTP 404".into())));
    assert!(failed.notice.is_some_and(|n| n.error && n.text.contains("HTTP 404")));
}

#[test]
fn a_lesson_opens_at_its_step_on_the_live_timeline() {
    let m = lesson_2(0);
    let run = m.learn.run.as_ref().expect("following");
    assert_eq!((run.step, m.shown.cursor), (0, Some(4)), "the first explanation shows step 4");
    assert!(m.is_lesson_scenario());
    assert_eq!(m.lesson_params.as_deref(), Some("lesson=committed-record-lost&step=1"), "kept for the page");
    assert_eq!(m.learn.progress.lessons["committed-record-lost"], LessonProgress { step: 0, done: false });
    assert_eq!(m.lesson_highlights()[0].broker.as_deref(), Some("B"));
    let deep = lesson_2(4);
    assert_eq!((deep.learn.run.as_ref().unwrap().step, deep.shown.cursor), (4, Some(8)));
}

#[test]
fn a_question_stops_before_its_step_and_a_wrong_answer_names_its_misconception() {
    let m = lesson_2(3);
    assert_eq!(m.shown.cursor, Some(7), "stopped before step 8");
    assert_eq!(m.painted_log(), ["m1", "m2"]);
    let refused = act(&m, LearnAction::Next).0;
    assert_eq!(refused.learn.run.as_ref().unwrap().step, 3, "no skipping a question");
    // Painting nothing leaves both kept: the learner thinks A keeps m2.
    let wrong = act(&m, offsets(&[true, true])).0;
    let outcome = wrong.learn.run.as_ref().unwrap().outcome.clone().unwrap();
    assert!(!outcome.is_right());
    let follower_hw = Misconception::FollowerHwIsCurrent;
    assert_eq!((&outcome.right, outcome.misconception), (&Answer::Offsets(vec![true, false]), Some(follower_hw)));
    assert_eq!(outcome.counter, Some(CounterScenario::of(follower_hw)), "its counter-scenario named once");
    assert_eq!(wrong.shown.cursor, Some(8), "the step plays");
    let painted = act(&m, LearnAction::Paint(1)).0;
    assert_eq!(painted.learn.run.as_ref().unwrap().painted, [true, false]);
    let right = act(&painted, LearnAction::Answer(painted.learn.run.as_ref().unwrap().painted_answer())).0;
    assert!(right.learn.run.as_ref().unwrap().outcome.as_ref().unwrap().is_right());
    let next = act(&right, LearnAction::Next).0;
    assert_eq!(next.learn.run.as_ref().unwrap().step, 4);
}

#[test]
fn a_link_past_the_last_step_opens_the_end_but_marks_nothing_done() {
    let m = lesson_2(999);
    assert!(m.learn.run.as_ref().unwrap().at_end());
    assert_eq!(m.learn.progress.done(), 0, "only passing the last step marks a lesson done");
    let (back, _) = act(&m, LearnAction::Back);
    assert_eq!(back.learn.progress.done(), 0);
    let (end, _) = act(&back, LearnAction::Next);
    assert!(end.learn.progress.lessons["committed-record-lost"].done, "Next past the last step does");
}

#[test]
fn show_me_solves_a_task_undoably_and_the_end_marks_the_lesson_done() {
    let m = lesson_2(8);
    assert!(!m.learn.run.as_ref().unwrap().passed);
    let (solved, _) = act(&m, LearnAction::ShowMe);
    assert!(solved.learn.run.as_ref().unwrap().passed, "the core's check passes the scripted solution");
    // The page undoes it and shows the lessons what it shows now.
    let mut undone = solved.clone();
    undone.mirror(m.shown.snapshot());
    assert!(!undone.learn.run.as_ref().unwrap().passed, "graded again after Undo");
    let (end, effects) = act(&act(&solved, LearnAction::Next).0, LearnAction::Next);
    assert!(end.learn.run.as_ref().unwrap().at_end());
    assert!(end.learn.progress.lessons["committed-record-lost"].done);
    assert!(effects.contains(&LessonsEffect::SaveProgress));
}

#[test]
fn a_counter_scenario_sets_the_lesson_aside_and_resuming_brings_its_scenario_back() {
    let m = act(&lesson_2(3), offsets(&[true, true])).0;
    let (away, _) = act(&m, LearnAction::Counter(Misconception::LeaderHwFixes.counter_scenario()));
    assert!(away.learn.run.as_ref().unwrap().aside && !away.is_lesson_scenario());
    assert!(away.lesson_highlights().is_empty());
    let back = act(&away, LearnAction::Resume).0;
    assert!(back.is_lesson_scenario() && !back.learn.run.as_ref().unwrap().aside);
    assert_eq!(back.shown.cursor, Some(7), "asked again from before the step");
}

#[test]
fn a_bad_lesson_file_or_progress_file_changes_nothing_but_says_why() {
    let (m, _) = act(&landing(), LearnAction::Start("committed-record-lost".into(), 0));
    let (m, _) = act(&m, LearnAction::IndexLoaded(Ok(INDEX.into())));
    let broken = act(&m, LearnAction::LessonLoaded("committed-record-lost".into(), 0, Ok("{".into()))).0;
    assert!(broken.learn.run.is_none() && broken.shown.scenario == landing().shown.scenario);
    assert!(broken.notice.is_some_and(|n| n.error && n.text.contains("could not be opened")));
    let missing = act(&m, LearnAction::Start("no-such-lesson".into(), 0)).0;
    assert!(missing.notice.is_some_and(|n| n.text.contains("no lesson")));
    let progress = lesson_2(2).learn.progress.clone();
    let kept = act(&lesson_2(2), LearnAction::ImportProgress("not json".into())).0;
    assert_eq!(kept.learn.progress, progress);
    let imported = act(&kept, LearnAction::ImportProgress(Progress::default().at("x", 1, true).to_json())).0;
    assert_eq!(imported.learn.progress.done(), 1);
}

/// Lesson `file` opened at `step` (its id read from the file).
fn opened(file: &str, text: &str, step: usize) -> LessonsModel {
    let id = parse_lesson(text).expect("a shipped lesson").id;
    let (m, _) = act(&landing(), LearnAction::Start(id.clone(), step));
    let (m, _) = act(&m, LearnAction::IndexLoaded(Ok(INDEX.into())));
    assert!(m.lesson_file(&id).is_some_and(|f| f == file), "{file} is in the index");
    act(&m, LearnAction::LessonLoaded(id, step, Ok(text.into()))).0
}

#[test]
fn every_shipped_question_is_offered_and_graded_from_the_run_shown_as_the_core_does_it() {
    let index = parse_index(INDEX).expect("the shipped index");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/epochlab-core/lessons/");
    for entry in &index.lessons {
        let text = std::fs::read_to_string(format!("{dir}{}", entry.file)).expect("the lesson file");
        let lesson = parse_lesson(&text).expect("a shipped lesson");
        for (step, p) in lesson.steps.iter().enumerate().filter_map(|(i, s)| match s {
            LessonStep::Predict(p) => Some((i, p)),
            _ => None,
        }) {
            let m = opened(&entry.file, &text, step);
            let at = format!("{} step {step}", entry.file);
            assert!(m.held_trace(lesson.scenario_of(p), p.variant).is_some(), "{at}: the run shown is the question's");
            let run = m.learn.run.as_ref().expect("following");
            assert_eq!(*run.choices, epochlab_core::lesson::choices(&lesson, p), "{at}: choices");
            let guess = run.choices.first().cloned().unwrap_or_else(|| run.painted_answer());
            let answered = act(&m, LearnAction::Answer(guess)).0;
            let outcome = answered.learn.run.as_ref().and_then(|r| r.outcome.clone()).expect("answered");
            assert_eq!(Some(outcome.right), epochlab_core::lesson::answer(&lesson, p), "{at}: the right answer");
        }
    }
}

/// A shared lesson opened from its link (`#lesson=~…&step=2`), as the lessons' module does it.
fn shared(text: &str, step: usize) -> (String, LessonsModel) {
    let reference = epochlab_core::lesson::link::encode(text).unwrap();
    let (m, effects) = act(&landing(), LearnAction::Start(reference.clone(), step));
    assert_eq!(effects, [LessonsEffect::UnpackLesson { reference: reference.clone(), step }], "no list, no fetch");
    let payload = epochlab_core::lesson::link::inline_payload(&reference).unwrap();
    let unpacked = epochlab_core::lesson::link::decode(payload);
    (reference.clone(), act(&m, LearnAction::LessonLoaded(reference, step, unpacked)).0)
}

#[test]
fn a_shared_lesson_opens_from_its_link_and_keeps_its_progress_apart() {
    // Lesson 2's own file, shared: the same id as the shipped lesson.
    let (reference, m) = shared(LESSON_2, 1);
    let run = m.learn.run.as_ref().expect("following");
    assert_eq!((run.step, &run.origin), (1, &Origin::Shared(reference.as_str().into())));
    let fragment = m.lesson_params.clone().unwrap();
    assert_eq!(fragment, format!("lesson={reference}&step=2"), "the address keeps the lesson inline");
    assert!(!m.learn.progress.lessons.contains_key("committed-record-lost"), "the shipped lesson's is untouched");
    assert_eq!(m.learn.progress.lessons["shared:committed-record-lost"], LessonProgress { step: 1, done: false });
    // The index arriving meanwhile (the Learn panel opened) does not call it unknown.
    let (m, _) = act(&m, LearnAction::IndexLoaded(Ok(INDEX.into())));
    assert!(m.notice.as_ref().is_none_or(|n| !n.error), "{:?}", m.notice);
}

#[test]
fn a_shared_lesson_that_does_not_check_out_is_refused_with_its_step() {
    let broken = LESSON_2.replacen("\"before\": 8", "\"before\": 99", 1);
    assert_ne!(broken, LESSON_2, "the file asks before step 8");
    let (_, m) = shared(&broken, 0);
    assert!(m.learn.run.is_none());
    let notice = m.notice.expect("said");
    assert!(
        notice.error && notice.text.starts_with("The shared lesson in this link could not be opened (steps["),
        "{}",
        notice.text
    );
    let (m, _) = act(&landing(), LearnAction::Start("~1garbage".into(), 0));
    let (m, _) =
        act(&m, LearnAction::LessonLoaded("~1garbage".into(), 0, epochlab_core::lesson::link::decode("1garbage")));
    assert!(m.notice.is_some_and(|n| n.text.contains("the link is damaged")));
}
