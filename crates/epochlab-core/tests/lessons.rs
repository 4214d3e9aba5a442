//! Every shipped lesson, run headlessly (as Learn Git Branching tests every level's solution): it parses,
//! each question has an answer the simulator computes, each wrong choice names its misconception, and each
//! task's scripted solution passes while its near miss fails.

use std::fs;
use std::path::Path;

#[path = "support/shipped_lessons.rs"]
mod shipped_lessons;

use epochlab_core::lesson::{
    answer, parse_index, parse_lesson, validate, validate_shipped, Answer, Lesson, LessonStep, Segment,
};

/// Every lesson that ships, in order: removing one (or its file) fails here.
const SHIPPED: [&str; 14] = [
    "log-end-and-high-watermark",
    "committed-record-lost",
    "two-records-at-one-offset",
    "commit-boundary-not-lineage",
    "leader-epochs",
    "fast-failover",
    "needs-unclean-election",
    "leader-hw-strawman",
    "min-insync-replicas",
    "hardening-and-diverging-epoch",
    "unclean-elections-converge",
    "kafka-today",
    "consumers-notice-truncation",
    "misconceptions-quiz",
];

fn lessons() -> Vec<(String, Lesson)> {
    shipped_lessons::shipped_lessons()
}

#[test]
fn every_lesson_is_valid_against_the_simulator() {
    let all = lessons();
    let ids: Vec<&str> = all.iter().map(|(_, l)| l.id.as_str()).collect();
    assert_eq!(ids, SHIPPED, "the lessons that cover the card's topics, in order");
    for (name, lesson) in &all {
        validate_shipped(lesson).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!lesson.takeaway.is_empty() && (3..=8).contains(&lesson.minutes), "{name}");
        assert!(!lesson.sources.is_empty(), "{name} names no source for its claims");
    }
}

#[test]
fn every_lesson_asks_before_it_shows_and_ids_are_unique() {
    let all = lessons();
    let mut ids: Vec<&str> = all.iter().map(|(_, l)| l.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len());
    for (name, lesson) in &all {
        assert!(lesson.steps.iter().any(|s| matches!(s, LessonStep::Predict(_))), "{name} asks nothing");
    }
}

#[test]
fn the_answers_are_the_simulators_not_the_authors() {
    // Spot checks against the stories as narrated: lesson 2's restart cuts m2, lesson 3's keeps it.
    let all = lessons();
    let predictions = |id: &str| -> Vec<Answer> {
        let (_, lesson) = all.iter().find(|(_, l)| l.id == id).expect("lesson");
        lesson
            .steps
            .iter()
            .filter_map(|s| if let LessonStep::Predict(p) = s { answer(lesson, p) } else { None })
            .collect()
    };
    assert_eq!(predictions("committed-record-lost")[0], Answer::Offsets(vec![true, false]));
    assert_eq!(predictions("two-records-at-one-offset")[0], Answer::Offsets(vec![true, true]));
    assert_eq!(predictions("two-records-at-one-offset")[1], Answer::YesNo(false));
    assert_eq!(predictions("log-end-and-high-watermark")[..2], [Answer::Number(0), Answer::Number(1)]);
}

#[test]
fn the_validator_refuses_a_lesson_that_contradicts_the_simulator() {
    use epochlab_core::lesson::Misconception;
    let (_, lesson) = lessons().into_iter().find(|(_, l)| l.id == "committed-record-lost").expect("lesson 2");
    // Calling the simulator's own answer wrong.
    let mut wrong_is_right = lesson.clone();
    if let Some(LessonStep::Predict(p)) = wrong_is_right.steps.iter_mut().find(|s| matches!(s, LessonStep::Predict(_)))
    {
        p.wrong.insert("keep cut".into(), Misconception::HwMarksLineage);
    }
    assert!(validate(&wrong_is_right).is_err());
    // A task whose near miss is its solution grades nothing.
    let mut no_grade = lesson.clone();
    if let Some(LessonStep::Task(t)) = no_grade.steps.iter_mut().find(|s| matches!(s, LessonStep::Task(_))) {
        t.wrong = t.solution.clone();
    }
    assert!(validate(&no_grade).unwrap_err().message.contains("near miss"));
    // A task the learner's starting timeline already passes is done on arrival (issue 21: lesson 7's was).
    let mut done_on_arrival = lesson.clone();
    let task = lesson.steps.iter().find(|s| matches!(s, LessonStep::Task(_))).expect("lesson 2 has a task").clone();
    if let LessonStep::Task(t) = &task {
        done_on_arrival.scenario = lesson.with_events(&t.solution);
    }
    done_on_arrival.steps = vec![task];
    assert!(validate(&done_on_arrival).unwrap_err().message.contains("done on arrival"));
    // A wrong choice without its misconception.
    let mut unmapped = lesson;
    for step in &mut unmapped.steps {
        if let LessonStep::Predict(p) = step {
            p.wrong.clear();
        }
    }
    assert!(validate_shipped(&unmapped).unwrap_err().message.contains("names no misconception"));
    assert!(validate(&unmapped).is_ok(), "an author may leave a wrong choice unexplained");
}

#[test]
fn the_index_lists_every_lesson_as_its_file_says_and_the_glossary_has_every_term() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let index = parse_index(&fs::read_to_string(dir.join("index.json")).expect("index.json")).expect("parses");
    let all = lessons();
    assert_eq!(index.lessons.len(), all.len());
    for (entry, (file, lesson)) in index.lessons.iter().zip(&all) {
        assert_eq!(
            (&entry.file, &entry.id, &entry.title, entry.minutes),
            (file, &lesson.id, &lesson.title, lesson.minutes)
        );
    }
    let ids: Vec<&str> = index.glossary.iter().map(|t| t.id.as_str()).collect();
    let wanted = [
        "hw",
        "leo",
        "isr",
        "leader-epoch",
        "epoch-cache",
        "offsets-for-leader-epoch",
        "unclean-election",
        "acks",
        "min-isr",
        "committed",
        "invariant",
        "allowed-loss",
    ];
    assert_eq!(ids, wanted);
    // Every misconception has its words, and no words lack their misconception.
    for m in epochlab_core::lesson::Misconception::ALL {
        let words = index.misconception(m).unwrap_or_else(|| panic!("no words for {}", m.id()));
        assert!(!words.belief.is_empty() && !words.correction.is_empty(), "{}", m.id());
    }
    assert_eq!(index.misconceptions.len(), epochlab_core::lesson::Misconception::ALL.len());
    // Every term is linked from at least one lesson's words.
    let texts: Vec<String> = all.iter().flat_map(|(_, l)| l.steps.iter().map(step_text)).collect();
    for term in &index.glossary {
        let linked =
            texts.iter().any(|t| index.segments(t).iter().any(|s| matches!(s, Segment::Term(_, id) if *id == term.id)));
        assert!(linked, "no lesson mentions {}", term.id);
    }
}

fn step_text(step: &LessonStep) -> String {
    match step {
        LessonStep::Explain { text, .. } | LessonStep::Compare { text, .. } => text.clone(),
        LessonStep::Predict(p) => p.prompt.clone(),
        LessonStep::Task(t) => t.goal.clone(),
    }
}

#[test]
fn the_quiz_asks_about_each_misconception_on_a_live_counter_scenario() {
    use epochlab_core::lesson::Misconception as M;
    use epochlab_core::lesson::Prediction;
    let (_, quiz) = lessons().into_iter().find(|(_, l)| l.id == "misconceptions-quiz").expect("lesson 11");
    let questions: Vec<&Prediction> =
        quiz.steps.iter().filter_map(|s| if let LessonStep::Predict(p) = s { Some(p) } else { None }).collect();
    let asked: Vec<M> = questions.iter().flat_map(|p| p.wrong.values().copied()).collect();
    // The seed's four and the issue's two; "HW truncation is safe" first, so that no earlier question has
    // already played the step it asks about.
    let seed = [
        M::HwTruncationIsSafe,
        M::OnlyPerformance,
        M::MinIsrPrevents,
        M::ConsumerOffsetReset,
        M::LeaderHwFixes,
        M::NeedsUncleanElection,
    ];
    assert_eq!(asked, seed, "one question per misconception");
    for (p, m) in questions.iter().zip(seed) {
        let own = p.scenario.as_deref().unwrap_or_else(|| panic!("{}: the question runs its own story", m.id()));
        assert!(epochlab_core::run_variant(own, p.variant).first_bug_step().is_some(), "{} is not disproved", m.id());
        // The link after a wrong answer opens the misconception's counter-scenario, which also breaks there.
        let counter = epochlab_core::presets::find(m.counter_scenario()).expect("shipped").scenario();
        assert!(epochlab_core::run_variant(&counter, p.variant).first_bug_step().is_some(), "{}", m.id());
        assert_eq!(*own, counter, "{} asks about its counter-scenario", m.id());
    }
    // Answered from each question's own story, not the lesson's (KIP-101 scenario 1).
    let keys: Vec<String> = questions.iter().filter_map(|p| answer(&quiz, p)).map(|a| a.key()).collect();
    assert_eq!(keys, ["nothing", "nothing", "yes", "nothing", "m2", "yes"]);
}

#[test]
fn a_question_with_a_bad_story_of_its_own_is_refused_where_it_is() {
    let lesson = |own: &str| {
        format!(
            r#"{{"id": "x", "title": "x", "minutes": 3, "preset": "happy-path", "variants": ["kip-279"], "takeaway": "t",
            "steps": [{{"predict": "leader", {own}, "before": 1, "variant": "kip-279", "prompt": "?"}}]}}"#
        )
    };
    let e = parse_lesson(&lesson(r#""preset": "nope""#)).unwrap_err();
    assert_eq!((e.at.as_str(), e.message.as_str()), ("steps[0]", "preset: no preset nope"));
    let e = parse_lesson(&lesson(r#""scenario": {"version": 1}"#)).unwrap_err();
    assert_eq!(e.at, "steps[0]");
    let e = parse_lesson(&lesson(r#""scenario": {}, "preset": "happy-path""#)).unwrap_err();
    assert!(e.message.contains("exactly one"), "{e}");
    let own = parse_lesson(&lesson(r#""preset": "kip101-scenario-1""#)).expect("a preset of its own");
    let Some(LessonStep::Predict(p)) = own.steps.first() else { panic!("a question") };
    assert_eq!(own.scenario_of(p).name, epochlab_core::presets::find("kip101-scenario-1").expect("p").scenario().name);
}

#[test]
fn no_explanation_shows_a_step_that_a_later_question_asks_about() {
    // The page shows a lesson's story only up to its next question; an explanation's cursor must stay before.
    for (name, lesson) in lessons() {
        for (i, step) in lesson.steps.iter().enumerate() {
            let (LessonStep::Explain { at: Some(at), .. }, Some(limit)) =
                (step, lesson.next_question_about_its_story(i))
            else {
                continue;
            };
            assert!(*at < limit, "{name} steps[{i}] shows step {at}, which a later question asks about ({limit})");
        }
    }
}

/// Issue 21: "the same story under 3.6 and under 4.1 side by side". Lesson 12's comparison runs the lesson's
/// events as each release: 3.6 elects A back and loses m2 (allowed: the whole ISR lost power); 4.1 waits
/// for B, the Eligible Leader Replica, and loses nothing.
#[test]
fn kafka_today_compares_3_6_and_4_1_side_by_side() {
    use epochlab_core::lesson::release_columns;
    let all = lessons();
    let (_, lesson) = all.iter().find(|(_, l)| l.id == "kafka-today").expect("lesson 12");
    let (i, releases) = lesson
        .steps
        .iter()
        .enumerate()
        .find_map(|(i, s)| match s {
            LessonStep::Compare { releases, .. } if !releases.is_empty() => Some((i, releases.clone())),
            _ => None,
        })
        .expect("a comparison of releases");
    let ids: Vec<String> = releases.iter().map(|r| r.id()).collect();
    assert_eq!(ids, ["3.6", "4.1"]);
    let [old, new] = &release_columns(lesson.step_scenario(i), &releases)[..] else { panic!("two columns") };
    let log =
        |c: &epochlab_core::lesson::ReleaseColumn, b: &str| c.logs.iter().find(|(n, _)| n == b).unwrap().1.join(" ");
    assert_eq!(old.leader.as_deref(), Some("A"));
    assert_eq!(old.lost, [("m2".to_string(), true)], "3.6 loses m2, allowed");
    assert!(!log(old, "B").contains("m2"), "B truncated m2 to follow A: {}", log(old, "B"));
    assert_eq!(new.leader.as_deref(), Some("B"));
    assert!(new.lost.is_empty() && new.bugs.is_empty() && old.bugs.is_empty());
    assert!(log(new, "A").contains("m2") && log(new, "B").contains("m2"));
}

#[test]
fn a_comparison_of_releases_names_two_to_four_real_releases() {
    let base = r#"{"id": "x", "title": "x", "minutes": 3, "preset": "happy-path", "variants": ["kip-279"], "takeaway": "x",
        "steps": [{"compare": "x", "variants": ["kip-279"], "releases": RELEASES}]}"#;
    let parse = |releases: &str| parse_lesson(&base.replace("RELEASES", releases));
    assert!(parse(r#"["2.0", "4.1"]"#).is_ok());
    let one = parse(r#"["4.1"]"#).unwrap_err().to_string();
    assert!(one.contains("steps[0]") && one.contains("two to four"), "{one}");
    let unknown = parse(r#"["3.6", "5.0"]"#).unwrap_err().to_string();
    assert!(unknown.contains("\"releases\"") && unknown.contains("5.0"), "{unknown}");
}
