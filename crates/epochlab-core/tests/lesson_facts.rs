//! The words of every lesson agree with the simulator (issue 12: "a test compares every number or record name
//! a lesson states with the trace"). Each step's text is read for the facts it states about the cluster
//! (`lesson::facts`: record names, `m2 at offset 1`, `A's HW is 1`, `LEO 2`, `epoch 2`, `offset 2`, `step 6`,
//! `(2, 1)`, `ISR {A, B}`), and each fact is looked up in the runs the step shows, up to its cursor
//! (`lesson::passages`). `epochlab lessons facts` lists what the reader found, for authors.
//!
//! The second half shows that the reader catches a wrong number, a wrong broker and a record that does not exist.

#[path = "support/shipped_lessons.rs"]
mod shipped_lessons;

use epochlab_core::lesson::{facts, passages, Fact, Lesson, LessonStep, Who};

/// Every fact a lesson states that its runs contradict, with where it is stated.
fn contradictions(lesson: &Lesson) -> Vec<String> {
    let mut out = Vec::new();
    for passage in passages(lesson) {
        for (fact, held) in passage.checked() {
            if !held {
                let (at, text) = (&passage.at, &passage.text);
                out.push(format!("{}: {fact:?} is not in the trace, in \u{ab}{at}: {text}\u{bb}", lesson.id));
            }
        }
    }
    out
}

fn lessons() -> Vec<Lesson> {
    shipped_lessons::shipped_lessons().into_iter().map(|(_, lesson)| lesson).collect()
}

#[test]
fn every_number_and_record_name_a_lesson_states_is_in_its_trace() {
    let all = lessons();
    assert_eq!(all.len(), 14);
    let stated: usize = all.iter().flat_map(passages).map(|p| p.stated().len()).sum();
    assert!(stated > 150, "the reader finds the lessons' facts ({stated})");
    let wrong: Vec<String> = all.iter().flat_map(contradictions).collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn lesson(id: &str) -> Lesson {
    lessons().into_iter().find(|l| l.id == id).expect("lesson")
}

/// The lesson with the first explanation's text changed from `from` to `to`.
fn with_first_explain(id: &str, from: &str, to: &str) -> Lesson {
    let mut l = lesson(id);
    if let Some(LessonStep::Explain { text, .. }) = l.steps.iter_mut().find(|s| matches!(s, LessonStep::Explain { .. }))
    {
        assert!(text.contains(from), "{text}");
        *text = text.replace(from, to);
    }
    l
}

#[test]
fn a_wrong_hw_a_wrong_broker_or_an_unknown_record_is_caught() {
    let id = "hardening-and-diverging-epoch";
    assert!(contradictions(&lesson(id)).is_empty());
    // The trace says A's HW moves to 1, and B's stays 0.
    let hw = contradictions(&with_first_explain(id, "A's HW moves to 1", "A's HW moves to 3"));
    assert_eq!(hw.len(), 1, "{hw:?}");
    assert!(hw[0].contains("Hw(Broker(0), 3)"), "{hw:?}");
    let broker = contradictions(&with_first_explain(id, "B's HW stays 0", "B's HW stays 1"));
    assert!(broker.len() == 1 && broker[0].contains("Hw(Broker(1), 1)"), "{broker:?}");
    let record = contradictions(&with_first_explain(id, "writes r0", "writes r7"));
    assert!(record.len() == 1 && record[0].contains("Record(\"r7\")"), "{record:?}");
    let offset = contradictions(&with_first_explain(id, "at offset 1", "at offset 4"));
    assert!(offset.len() == 1 && offset[0].contains("Offset(4)"), "{offset:?}");
}

#[test]
fn a_text_shown_one_step_late_is_caught() {
    // Lesson 1 says "B has m2, but its HW is still 1" after B receives m2 (step 5); one step later B's next
    // fetch has brought its HW to 2, and the sentence is false there (the reader found this in the lesson).
    let mut l = lesson("log-end-and-high-watermark");
    assert!(contradictions(&l).is_empty());
    let said = |s: &LessonStep| matches!(s, LessonStep::Explain { text, .. } if text.contains("its HW is still 1"));
    let Some(LessonStep::Explain { at, .. }) = l.steps.iter_mut().find(|s| said(s)) else { panic!("the sentence") };
    assert_eq!(*at, Some(5));
    *at = Some(6);
    let late = contradictions(&l);
    assert!(late.len() == 1 && late[0].contains("Hw(Broker(1), 1)"), "{late:?}");
}

#[test]
fn the_reader_finds_the_facts_in_kafkas_terms() {
    let brokers = ["A".to_string(), "B".to_string()];
    let f = facts(
        "A's HW moves to 1; its LEO is 2. B writes r1 at offset 1 (epoch 0, offset 1). The leader's HW 2.",
        &brokers,
    );
    assert_eq!(
        f,
        [
            Fact::Hw(Who::Broker(0), 1),
            Fact::Leo(Who::Anyone, 2),
            Fact::Record("r1".into()),
            Fact::RecordAt("r1".into(), 1),
            Fact::Offset(1),
            Fact::Epoch(0),
            Fact::Offset(1),
            Fact::Hw(Who::Leader, 2),
        ]
    );
    assert_eq!(facts("A's cache reads (0, 0) and (2, 1).", &brokers), [Fact::CacheEntry(0, 0), Fact::CacheEntry(2, 1)]);
    assert_eq!(facts("B leads with ISR {A, B}; then ISR {B}.", &brokers), [Fact::Isr(vec![0, 1]), Fact::Isr(vec![1])]);
    assert!(facts("KIP-101, min.insync.replicas = 2 and acks=1", &brokers).is_empty());
    let words: Vec<String> = f.iter().take(2).chain(&f[7..]).map(|x| x.words(&brokers)).collect();
    assert_eq!(words, ["A's HW 1", "LEO 2", "the leader's HW 2"]);
    assert_eq!(Fact::Isr(vec![0, 1]).words(&brokers), "ISR {A, B}");
}
