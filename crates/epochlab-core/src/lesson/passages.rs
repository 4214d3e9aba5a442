//! Each step's words with the runs they speak of, so that the [`Fact`]s they state can be looked up there: the
//! runs the step shows (its variants; a task's also on its solution; a comparison's also under each of its
//! releases), up to its cursor (an explanation's `at`, the step before a question's; the whole run for a
//! comparison, a task, the takeaway or a step that leaves the cursor where it is).
//!
//! A HW, a LEO and a record's offset must hold in the state the step shows (after an explanation's `at`, or
//! before a question's step, as the learner sees it), for the broker the fact is about. The other facts may be
//! history and hold at some state up to the cursor: a record name is one of the scenario's records, an epoch
//! is the controller's or one some broker knows or some record carries, an offset is reached by some broker's
//! log (N is at most its LEO), a step is one of the timeline's, a cache entry is in some broker's epoch cache,
//! and an ISR is exactly the controller's.

use super::facts::{facts, Fact, Who};
use super::{Lesson, LessonStep};
use crate::scenario::Scenario;
use crate::state::{Replica, State};
use crate::trace::Trace;
use crate::variant::Variant;

/// A piece of a lesson's prose and what it is checked against.
#[derive(Clone, Debug)]
pub struct Passage {
    /// Where it is in the lesson file: `steps[3]` or `takeaway`.
    pub at: String,
    /// The words.
    pub text: String,
    /// The scenarios whose runs it speaks of; the first is the one the step shows (its brokers name the facts).
    pub scenarios: Vec<Scenario>,
    /// The variants each scenario runs under.
    pub variants: Vec<Variant>,
    /// The last step the learner has seen (`None`: the whole run).
    pub upto: Option<usize>,
}

impl Passage {
    /// The brokers the words may name.
    pub fn brokers(&self) -> &[String] {
        self.scenarios.first().map_or(&[], |s| &s.brokers)
    }

    /// The facts the words state.
    pub fn stated(&self) -> Vec<Fact> {
        facts(&self.text, self.brokers())
    }

    /// Each fact the words state, with whether some of the passage's runs bear it out.
    pub fn checked(&self) -> Vec<(Fact, bool)> {
        let runs: Vec<Trace> =
            self.scenarios.iter().flat_map(|s| self.variants.iter().map(move |v| crate::run_variant(s, *v))).collect();
        self.stated()
            .into_iter()
            .map(|fact| {
                let held = runs.iter().any(|trace| self.holds_in_run(&fact, trace));
                (fact, held)
            })
            .collect()
    }

    fn holds_in_run(&self, fact: &Fact, trace: &Trace) -> bool {
        let last = self.upto.unwrap_or(trace.steps.len()).min(trace.steps.len().saturating_sub(1));
        // A HW, a LEO or a record's place is read off the state the step shows; the rest may be history.
        if matches!(fact, Fact::Hw(..) | Fact::Leo(..) | Fact::RecordAt(..)) && self.upto.is_some() {
            return holds_in(fact, trace, trace.state_at(Some(last)));
        }
        let mut states = std::iter::once(&trace.initial).chain(trace.steps.iter().take(last + 1).map(|s| &s.state));
        states.any(|s| holds_in(fact, trace, s))
    }
}

/// Each step's words with what they are checked against, and the takeaway against the whole lesson.
pub fn passages(lesson: &Lesson) -> Vec<Passage> {
    let whole = |at: String, text: &str, scenario: &Scenario, variants: &[Variant]| Passage {
        at,
        text: text.to_string(),
        scenarios: vec![scenario.clone()],
        variants: variants.to_vec(),
        upto: None,
    };
    let mut out = Vec::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        let scenario = lesson.step_scenario(i);
        let at = format!("steps[{i}]");
        out.push(match step {
            LessonStep::Explain { text, at: cursor, .. } => {
                Passage { upto: cursor.map(|a| a as usize), ..whole(at, text, scenario, &lesson.variants) }
            }
            LessonStep::Predict(p) => {
                let upto = Some((p.before as usize).saturating_sub(1));
                Passage { upto, ..whole(at, &p.prompt, scenario, &[p.variant]) }
            }
            LessonStep::Compare { text, variants, releases } => {
                // A comparison of releases may state what any of them shows.
                let mut scenarios = vec![scenario.clone()];
                for release in releases {
                    let mut as_release = scenario.clone();
                    as_release.config.set_release(*release);
                    scenarios.push(as_release);
                }
                Passage { scenarios, ..whole(at, text, scenario, variants) }
            }
            LessonStep::Task(t) => {
                let scenarios = vec![lesson.scenario.clone(), lesson.with_events(&t.solution)];
                Passage { scenarios, ..whole(at, &t.goal, scenario, &Variant::ALL) }
            }
        });
    }
    out.push(whole("takeaway".into(), &lesson.takeaway, &lesson.scenario, &Variant::ALL));
    out
}

/// Whether `fact` holds in `state` of `trace`.
fn holds_in(fact: &Fact, trace: &Trace, state: &State) -> bool {
    let value = |who: &Who, field: fn(&Replica) -> u32, n: u32| match who {
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
        Fact::Leo(who, n) => value(who, Replica::leo, *n),
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
