//! The words of every lesson agree with the simulator (issue 12: "a test compares every number or record name
//! a lesson states with the trace"). Each step's text is read for the facts it states about the cluster, and
//! each fact is looked up in the runs the step shows (its variants; a task's also on its solution), up to its
//! cursor (an explanation's `at`, the step before a question's; the whole run for a comparison, a task or a
//! step that leaves the cursor where it is):
//!
//! - a record name (`m2`, `r0`) is one of the scenario's records;
//! - `<record> at offset N`: some broker holds that record at offset N;
//! - `HW N`, `LEO N` (with connecting words: `HW is 2`, `HW stays at 1`, `HWs are 2`): the broker the clause
//!   names last (`A's HW`, `A ... its HW`), or the leader for `the leader's HW`, or else some broker, has that
//!   value;
//! - `epoch N`, `LastFetchedEpoch N`: some broker knows that epoch, or some record carries it;
//! - `offset N`: some broker's log reaches offset N (N is at most its LEO);
//! - `step N`: the timeline has a step N;
//! - `(E, O)`: some broker's epoch cache holds epoch E starting at offset O;
//! - `ISR {A, B}`: the controller's ISR is exactly that.
//!
//! A HW, a LEO and a record's offset must hold in the state the step shows (after an explanation's `at`, or
//! before a question's step, as the learner sees it); the other facts may be history, and hold at some
//! state up to it.
//!
//! The second half shows that the reader catches a wrong number, a wrong broker and a record that does not exist.

#[path = "support/shipped_lessons.rs"]
mod shipped_lessons;

use epochlab_core::lesson::{Lesson, LessonStep};
use epochlab_core::scenario::Scenario;
use epochlab_core::state::State;
use epochlab_core::trace::Trace;
use epochlab_core::Variant;

/// A fact a text states.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Fact {
    Record(String),
    RecordAt(String, u32),
    Hw(Who, u32),
    Leo(Who, u32),
    Epoch(u32),
    Offset(u32),
    Step(u32),
    CacheEntry(u32, u32),
    Isr(Vec<usize>),
}

/// Whose HW or LEO a fact is about.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Who {
    Broker(usize),
    Leader,
    Anyone,
}

/// What a step's words are checked against: runs of its scenarios (a task's: the lesson's and its solution),
/// each up to a step (`None`: the whole run).
struct Window {
    scenarios: Vec<Scenario>,
    variants: Vec<Variant>,
    upto: Option<usize>,
}

/// Words that may stand between `HW`/`LEO`/`epoch`/... and its number.
const CONNECTORS: [&str; 17] = [
    "is", "are", "was", "of", "to", "at", "stays", "stayed", "still", "moves", "reaches", "becomes", "now", "=",
    "goes", "rises", "back",
];

fn trim(token: &str) -> &str {
    token.trim_matches(|c: char| "()[]{},.;:!?\"\u{201c}\u{201d}".contains(c))
}

fn ends_clause(token: &str) -> bool {
    let t = token.trim_end_matches(|c: char| ")\"\u{201d}".contains(c));
    t.ends_with(['.', ';', ':', '!', '?'])
}

fn is_record_name(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase()) && word.len() >= 2 && chars.all(|c| c.is_ascii_digit())
}

/// The number after token `i` (skipping connecting words), if there is one.
fn number_after(tokens: &[&str], i: usize) -> Option<u32> {
    for t in tokens.iter().skip(i + 1).take(4) {
        let word = trim(t);
        if let Ok(n) = word.parse::<u32>() {
            return Some(n);
        }
        if !CONNECTORS.contains(&word) {
            return None;
        }
    }
    None
}

/// The broker a token names (`A`, `A's`), if any.
fn broker_named(word: &str, brokers: &[String]) -> Option<usize> {
    let name = word.strip_suffix("'s").unwrap_or(word);
    brokers.iter().position(|b| b == name)
}

/// The facts `text` states, read clause by clause.
fn facts(text: &str, brokers: &[String]) -> Vec<Fact> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut out = Vec::new();
    let mut named: Option<usize> = None;
    for (i, token) in tokens.iter().enumerate() {
        let word = trim(token);
        if let Some(b) = broker_named(word, brokers) {
            named = Some(b);
        }
        let who = || match (i.checked_sub(1).map(|p| trim(tokens[p])), named) {
            (Some("leader's"), _) => Who::Leader,
            (_, Some(b)) => Who::Broker(b),
            _ => Who::Anyone,
        };
        let n = number_after(&tokens, i);
        match (word, n) {
            ("HW" | "HWs", Some(n)) => out.push(Fact::Hw(who(), n)),
            ("LEO" | "LEOs", Some(n)) => out.push(Fact::Leo(who(), n)),
            ("epoch" | "LastFetchedEpoch", Some(n)) => out.push(Fact::Epoch(n)),
            ("offset", Some(n)) => out.push(Fact::Offset(n)),
            ("step", Some(n)) => out.push(Fact::Step(n)),
            _ => {}
        }
        if is_record_name(word) {
            out.push(Fact::Record(word.to_string()));
            let at_offset = tokens.get(i + 1..i + 3).is_some_and(|t| trim(t[0]) == "at" && trim(t[1]) == "offset");
            if let Some(o) = tokens.get(i + 3).filter(|_| at_offset).and_then(|t| trim(t).parse().ok()) {
                out.push(Fact::RecordAt(word.to_string(), o));
            }
        }
        out.extend(cache_entry(token, tokens.get(i + 1)));
        if word == "ISR" {
            out.extend(isr(&tokens[i + 1..], brokers));
        }
        if ends_clause(token) {
            named = None;
        }
    }
    out
}

/// `(E, O)` spread over two tokens: `(2,` and `1)`.
fn cache_entry(token: &str, next: Option<&&str>) -> Option<Fact> {
    let e = token.strip_prefix('(')?.strip_suffix(',')?.parse().ok()?;
    let o = next?.split(')').next()?.parse().ok()?;
    Some(Fact::CacheEntry(e, o))
}

/// `{A, B}` after `ISR`.
fn isr(after: &[&str], brokers: &[String]) -> Option<Fact> {
    if !after.first()?.starts_with('{') {
        return None;
    }
    let end = after.iter().position(|t| t.contains('}'))?;
    let names = after[..=end].iter().map(|t| t.trim_matches(|c: char| "{},.;:()".contains(c)));
    names.map(|n| brokers.iter().position(|b| b == n)).collect::<Option<Vec<_>>>().map(Fact::Isr)
}

/// Whether `fact` holds in `state` of `trace`.
fn holds_in(fact: &Fact, trace: &Trace, state: &State) -> bool {
    let value = |who: &Who, field: fn(&epochlab_core::state::Replica) -> u32, n: u32| match who {
        Who::Broker(b) => state.replicas.get(*b).is_some_and(|r| field(r) == n),
        Who::Leader => state.true_leader().is_some_and(|l| field(state.replica(l)) == n),
        Who::Anyone => state.replicas.iter().any(|r| field(r) == n),
    };
    match fact {
        Fact::Record(name) => trace.records.iter().any(|r| r.label == *name),
        Fact::RecordAt(name, o) => {
            state.replicas.iter().any(|r| r.id_at(*o).is_some_and(|id| trace.label(id) == name.as_str()))
        }
        Fact::Hw(who, n) => value(who, |r| r.hw, *n),
        Fact::Leo(who, n) => value(who, |r| r.leo(), *n),
        Fact::Epoch(n) => {
            let n = *n as i32;
            state.controller.leader_epoch == n
                || state.replicas.iter().any(|r| r.known_epoch == n || r.log.iter().any(|e| e.epoch == n))
        }
        Fact::Offset(n) => state.replicas.iter().any(|r| r.leo() >= *n),
        Fact::Step(n) => (*n as usize) < trace.steps.len(),
        Fact::Isr(members) => {
            let isr = state.controller.isr;
            isr.len() == members.len() && members.iter().all(|&b| isr.contains(b as u8))
        }
        Fact::CacheEntry(e, o) => state
            .replicas
            .iter()
            .any(|r| r.epoch_cache.entries().iter().any(|x| x.epoch == *e as i32 && x.start_offset == *o)),
    }
}

/// Whether `fact` holds at some state the window has shown, under some of its variants.
fn holds(fact: &Fact, window: &Window) -> bool {
    let runs = window.scenarios.iter().flat_map(|s| window.variants.iter().map(move |v| (s, *v)));
    runs.into_iter().any(|(scenario, v)| {
        let trace = epochlab_core::run_variant(scenario, v);
        let last = window.upto.unwrap_or(trace.steps.len()).min(trace.steps.len().saturating_sub(1));
        let mut states = std::iter::once(&trace.initial).chain(trace.steps.iter().take(last + 1).map(|s| &s.state));
        // A HW, a LEO or a record's place is read off the state the step shows; the rest may be history.
        if matches!(fact, Fact::Hw(..) | Fact::Leo(..) | Fact::RecordAt(..)) && window.upto.is_some() {
            return holds_in(fact, &trace, trace.state_at(Some(last)));
        }
        states.any(|s| holds_in(fact, &trace, s))
    })
}

/// Each step's words with what they are checked against, and the takeaway against the whole lesson.
fn windows(lesson: &Lesson) -> Vec<(String, Window)> {
    let whole = |scenario: &Scenario, variants: &[Variant]| Window {
        scenarios: vec![scenario.clone()],
        variants: variants.to_vec(),
        upto: None,
    };
    let mut out = Vec::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        let scenario = lesson.step_scenario(i);
        let (text, window) = match step {
            LessonStep::Explain { text, at, .. } => {
                let upto = at.map(|a| a as usize);
                (text.clone(), Window { upto, ..whole(scenario, &lesson.variants) })
            }
            LessonStep::Predict(p) => {
                let upto = Some((p.before as usize).saturating_sub(1));
                (p.prompt.clone(), Window { upto, ..whole(scenario, &[p.variant]) })
            }
            LessonStep::Compare { text, variants, releases } => {
                // A comparison of releases may state what any of them shows.
                let mut scenarios = vec![scenario.clone()];
                for release in releases {
                    let mut as_release = scenario.clone();
                    as_release.config.set_release(*release);
                    scenarios.push(as_release);
                }
                (text.clone(), Window { scenarios, ..whole(scenario, variants) })
            }
            LessonStep::Task(t) => {
                let scenarios = vec![lesson.scenario.clone(), lesson.with_events(&t.solution)];
                (t.goal.clone(), Window { scenarios, ..whole(scenario, &Variant::ALL) })
            }
        };
        out.push((format!("steps[{i}]"), (text, window)));
    }
    out.push(("takeaway".into(), (lesson.takeaway.clone(), whole(&lesson.scenario, &Variant::ALL))));
    out.into_iter().map(|(at, (text, w))| (format!("{at}: {text}"), w)).collect()
}

/// Every fact a lesson states that its runs contradict, with where it is stated.
fn contradictions(lesson: &Lesson) -> Vec<String> {
    let mut out = Vec::new();
    for (text, window) in windows(lesson) {
        for fact in facts(&text, &window.scenarios[0].brokers) {
            if !holds(&fact, &window) {
                out.push(format!("{}: {fact:?} is not in the trace, in \u{ab}{text}\u{bb}", lesson.id));
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
    let stated: usize = all.iter().flat_map(windows).map(|(t, w)| facts(&t, &w.scenarios[0].brokers).len()).sum();
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
}

/// `cargo test -p epochlab-core --test lesson_facts print_facts -- --ignored --nocapture` lists the facts
/// read from every step, for authors checking what the reader understood.
#[test]
#[ignore]
fn print_facts() {
    for lesson in lessons() {
        for (text, window) in windows(&lesson) {
            let at = text.split(':').next().unwrap_or_default();
            println!("{} {at}: {:?}", lesson.id, facts(&text, &window.scenarios[0].brokers));
        }
    }
}
