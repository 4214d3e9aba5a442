//! The right answer to a lesson's question, computed by running the lesson's scenario (never stored in the
//! lesson), and the choices a learner picks from.

use super::{Lesson, Prediction, Question};
use crate::reads::Noticed;
use crate::scenario::Scenario;
use crate::state::State;
use crate::trace::Trace;

/// An answer to a question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Per offset of the broker's log before the step: still there after it.
    Offsets(Vec<bool>),
    /// A number (a HW).
    Number(u32),
    /// A broker's or a record's name, or `none` / `nothing`.
    Name(String),
    /// Yes or no.
    YesNo(bool),
}

impl Answer {
    /// The answer as the lesson file names it: `keep cut` (per offset), `2`, `A`, `yes`.
    pub fn key(&self) -> String {
        match self {
            Answer::Offsets(kept) => kept.iter().map(|k| Answer::offset_key(*k)).collect::<Vec<_>>().join(" "),
            Answer::Number(n) => n.to_string(),
            Answer::Name(name) => name.clone(),
            Answer::YesNo(yes) => if *yes { "yes" } else { "no" }.to_string(),
        }
    }

    /// One offset of an [`Answer::Offsets`] key: `keep` (it survives) or `cut` (the page's painted cells
    /// carry it too, so that a painted row reads as the lesson file does).
    pub const fn offset_key(kept: bool) -> &'static str {
        if kept {
            "keep"
        } else {
            "cut"
        }
    }
}

/// The [`Question::Leader`] answer when no broker leads.
pub const NO_LEADER: &str = "none";

/// The answer to `p`, from a run of the lesson's scenario under the question's variant. `None` when the
/// question cannot be answered there (a step past the end, a broker the scenario lacks).
pub fn answer(lesson: &Lesson, p: &Prediction) -> Option<Answer> {
    let scenario = lesson.scenario_of(p);
    answer_from_trace(&crate::run_variant(scenario, p.variant), scenario, p)
}

/// The answer to `p` read from `trace`, a run of `scenario` (the question's, [`Lesson::scenario_of`]) under
/// the question's variant: a caller that holds that run already grades without running it again.
pub fn answer_from_trace(trace: &Trace, scenario: &Scenario, p: &Prediction) -> Option<Answer> {
    let step = p.before as usize;
    if step >= trace.steps.len() {
        return None;
    }
    let before = trace.state_at(step.checked_sub(1));
    let after = trace.state_at(Some(step));
    let broker = |name: &str| scenario.broker_index(name);
    Some(match &p.question {
        Question::Survivors { broker: b } => {
            let (old, new) = (&before.replicas[broker(b)?].log, &after.replicas[broker(b)?].log);
            Answer::Offsets(old.iter().enumerate().map(|(o, e)| new.get(o).is_some_and(|n| n.id == e.id)).collect())
        }
        Question::Hw { broker: b } => Answer::Number(after.replicas[broker(b)?].hw),
        Question::Leader => Answer::Name(after.true_leader().map_or(NO_LEADER, |l| trace.broker_name(l)).to_string()),
        Question::RecordAt { broker: b, offset } => {
            let id = after.replicas[broker(b)?].id_at(*offset);
            Answer::Name(id.map_or("nothing", |id| trace.label(id)).to_string())
        }
        Question::AnyBug => Answer::YesNo(bug_holds(trace, step)),
        Question::LogsAgree => Answer::YesNo(logs_agree(after)),
        Question::ConsumerSees => Answer::Name(consumer_sees(trace, step).to_string()),
    })
}

/// What the first consumer whose read a leader no longer holds (by `step`) meets on its next poll.
fn consumer_sees(trace: &Trace, step: usize) -> &'static str {
    let noticed = crate::reads::reads(trace).into_iter().filter_map(|r| r.truncated).find(|t| t.step as usize <= step);
    noticed.map_or(CONSUMER_SEES[3], |t| t.noticed.key())
}

/// The answers of a [`Question::ConsumerSees`], in the order offered.
pub const CONSUMER_SEES: [&str; 4] =
    [Noticed::Validated.key(), Noticed::OutOfRange.key(), Noticed::Unnoticed.key(), "nothing"];

/// The answers a learner chooses among, in the order shown; empty for a painted log (any pattern).
pub fn choices(lesson: &Lesson, p: &Prediction) -> Vec<Answer> {
    let scenario = lesson.scenario_of(p);
    choices_from_trace(&crate::run_variant(scenario, p.variant), scenario, p)
}

/// [`choices`] read from `trace`, a run of `scenario` (the question's) under the question's variant.
pub fn choices_from_trace(trace: &Trace, scenario: &Scenario, p: &Prediction) -> Vec<Answer> {
    let all = default_choices(trace, scenario, p);
    match &p.offered {
        Some(keys) => keys.iter().filter_map(|k| all.iter().find(|a| a.key() == *k).cloned()).collect(),
        None => all,
    }
}

fn default_choices(trace: &Trace, scenario: &Scenario, p: &Prediction) -> Vec<Answer> {
    let name = |s: &str| Answer::Name(s.to_string());
    match &p.question {
        Question::Survivors { .. } => Vec::new(),
        Question::Hw { broker } => {
            let b = scenario.broker_index(broker).unwrap_or(0);
            let leo = trace.steps.iter().map(|s| s.state.replicas[b].leo()).max().unwrap_or(0);
            (0..=leo).map(Answer::Number).collect()
        }
        Question::Leader => scenario.brokers.iter().map(|b| name(b)).chain([name(NO_LEADER)]).collect(),
        Question::RecordAt { .. } => trace.records.iter().map(|r| name(&r.label)).chain([name("nothing")]).collect(),
        Question::AnyBug | Question::LogsAgree => vec![Answer::YesNo(true), Answer::YesNo(false)],
        Question::ConsumerSees => CONSUMER_SEES.iter().map(|k| name(k)).collect(),
    }
}

fn bug_holds(trace: &Trace, step: usize) -> bool {
    trace.steps[step].violations.iter().any(|&v| !trace.violations[v as usize].by_design)
}

/// Every two running brokers hold the same record at every offset both have.
fn logs_agree(state: &State) -> bool {
    let up: Vec<_> = state.replicas.iter().filter(|r| r.up).collect();
    up.iter().all(|a| up.iter().all(|b| a.log.iter().zip(b.log.iter()).all(|(x, y)| x.id == y.id)))
}
