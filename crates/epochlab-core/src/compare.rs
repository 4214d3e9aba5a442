//! Run one scenario under several variants and say where they part ways (issue: "Comparison").
//!
//! States are compared on what the protocol variants share and a user sees: every broker's log (record and
//! epoch), HW, liveness and role, and the controller's leader, epoch and ISR. Epoch caches and fetcher states
//! differ by construction between variants, so they are left out.

use serde::Serialize;

use crate::resume::{Resume, Resumes};
use crate::scenario::Scenario;
use crate::state::State;
use crate::trace::Trace;
use crate::variant::{Protocol, Variant};

/// The result of a comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Comparison {
    /// One trace per variant, in the order asked.
    pub traces: Vec<Trace>,
    /// The first step after which the variants' states differ, if they ever do.
    pub first_difference: Option<u32>,
    /// Per variant (same order): the first step at which a non-by-design invariant fails.
    pub first_bug: Vec<Option<u32>>,
}

/// Run `scenario` under each variant (with the scenario's flags) and compare.
pub fn compare(scenario: &Scenario, variants: &[Variant]) -> Comparison {
    recompare(&Resumes::default(), scenario, variants).0
}

/// As [`compare`], each variant's run going on from its run among `previous` (runs of an earlier version of
/// the scenario) where the scenario did not change. The comparison equals [`compare`]'s; the resume data
/// returned beside it serves the next re-run.
pub fn recompare(previous: &Resumes, scenario: &Scenario, variants: &[Variant]) -> (Comparison, Resumes) {
    let protocols: Vec<Protocol> = variants.iter().map(|&v| scenario.config.protocol(v)).collect();
    let events = std::sync::Arc::new(scenario.events.clone());
    let mut reused = scenario.events.len();
    let (traces, resumes): (Vec<Trace>, Vec<Resume>) = protocols
        .iter()
        .map(|&protocol| {
            let run = crate::rerun_shared(previous.find(protocol), scenario, protocol, events.clone());
            reused = reused.min(run.reused);
            (run.trace, run.resume)
        })
        .unzip();
    // Steps every run reused are the previous runs' steps: a difference among them is the previous one.
    let same_runs = previous.protocols() == protocols;
    let first_difference = match previous.first_difference.filter(|_| same_runs) {
        Some(d) if (d as usize) < reused => Some(d),
        _ => first_difference(&traces, if same_runs { reused } else { 0 }),
    };
    let first_bug = traces.iter().map(Trace::first_bug_step).collect();
    let comparison = Comparison { traces, first_difference, first_bug };
    (comparison, Resumes { runs: resumes, first_difference })
}

/// The first step at or after `from` after which the traces' states differ.
fn first_difference(traces: &[Trace], from: usize) -> Option<u32> {
    let steps = traces.first().map_or(0, |t| t.steps.len());
    let found = (from..steps).find(|&i| {
        let first = traces.first().map(|t| observable(t.state_at(Some(i))));
        traces.iter().skip(1).any(|t| Some(observable(t.state_at(Some(i)))) != first)
    });
    found.map(|i| i as u32)
}

/// The part of a state compared across variants.
fn observable(state: &State) -> impl PartialEq + '_ {
    let replicas: Vec<_> = state.replicas.iter().map(|r| (&r.log, r.hw, r.up, r.role)).collect();
    (state.controller.leader, state.controller.leader_epoch, state.controller.isr, replicas)
}
