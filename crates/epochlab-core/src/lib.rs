//! # epochlab-core
//!
//! A faithful, deterministic model of one Kafka partition's replication: controller, ISR, high watermark,
//! leader epochs, crashes, and the log-truncation rules of six protocol variants, with Kafka's invariants
//! checked after every step. The semantics follow `shared/spec/kafka-replication.md` (cited as "spec §N").
//!
//! **Purity.** No clock, no I/O, no randomness, no web crate: the same scenario always gives the same trace.
//! Ordered collections only (`BTreeMap`, `Vec`), explicit integer widths, every loop bounded.
//!
//! **One way in.** Callers edit a [`Scenario`] and [`run`] it; the [`Trace`] holds every step's outcome,
//! narration, annotations, state and violations, and [`view`] turns a step into what a UI draws.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod compare;
mod engine;
pub mod epoch_cache;
pub mod invariants;
pub mod presets;
pub mod report;
mod resume;
pub mod scenario;
pub mod share;
pub mod state;
pub mod trace;
pub mod variant;
pub mod view;

pub use compare::{compare, recompare, Comparison};
pub use scenario::{parse_scenario, Scenario, ScenarioError};
pub use trace::Trace;
pub use variant::{Flag, Protocol, Variant};

use std::collections::BTreeMap;
use std::sync::Arc;

use invariants::{Ctx, Violation};

/// Run a scenario under its configured variant and flags.
pub fn run(scenario: &Scenario) -> Trace {
    run_variant(scenario, scenario.config.variant)
}

/// Run a scenario under another variant, keeping the scenario's configured flags.
pub fn run_variant(scenario: &Scenario, variant: Variant) -> Trace {
    run_protocol(scenario, Protocol::new(variant, &scenario.config.flags))
}

/// Run a scenario under an explicit protocol.
pub fn run_protocol(scenario: &Scenario, protocol: Protocol) -> Trace {
    rerun_protocol(None, scenario, protocol)
}

/// Run a scenario under an explicit protocol, going on from `previous` (a trace of an earlier version of the
/// scenario) where the two agree: the steps before the first changed event are reused, not recomputed.
/// The result equals [`run_protocol`]'s.
pub fn rerun_protocol(previous: Option<&Trace>, scenario: &Scenario, protocol: Protocol) -> Trace {
    let mut sim = engine::Sim::new(scenario, protocol);
    let initial = sim.state.clone();
    let mut steps = Vec::with_capacity(scenario.events.len());
    let mut violations: Vec<Violation> = Vec::new();
    let mut known = BTreeMap::new();
    let mut checkpoints = Vec::new();
    if let Some((prev, from)) = previous.and_then(|t| Some((t, t.resume.start_for(protocol, scenario)?))) {
        let n = from.steps as usize;
        steps.extend(prev.steps[..n].iter().cloned());
        sim.state = steps.last().map_or_else(|| initial.clone(), |s: &Arc<trace::Step>| s.state.clone());
        sim.records = prev.records[..from.records as usize].to_vec();
        sim.pending_acks = from.pending_acks.clone();
        sim.history = from.history.clone();
        violations = prev.violations[..from.violations as usize].to_vec();
        known = from.known.clone();
        checkpoints = prev.resume.checkpoints.iter().take_while(|c| c.steps <= from.steps).cloned().collect();
    }
    let first = steps.len();
    for (index, event) in scenario.events.iter().enumerate().skip(first) {
        let index = index as u32;
        let result = sim.apply(index, event);
        sim.history.observe(&sim.state, index);
        let ctx = Ctx {
            state: &sim.state,
            history: &sim.history,
            records: &sim.records,
            brokers: &scenario.brokers,
            step: index,
        };
        let holding = invariants::check(&ctx, &mut known, &mut violations);
        sim.history.after_check(&sim.state);
        steps.push(Arc::new(trace::Step {
            index,
            kind: event.kind(),
            outcome: result.outcome,
            narration: result.narration,
            annotations: result.annotations,
            state: sim.state.clone(),
            violations: holding,
        }));
        let done = index + 1;
        if done % resume::EVERY == 0 || done as usize == scenario.events.len() {
            checkpoints.push(Arc::new(resume::Checkpoint {
                steps: done,
                records: sim.records.len() as u32,
                violations: violations.len() as u32,
                pending_acks: sim.pending_acks.clone(),
                history: sim.history.clone(),
                known: known.clone(),
            }));
        }
    }
    Trace {
        scenario: scenario.name.clone(),
        brokers: scenario.brokers.clone(),
        variant: protocol.variant,
        flags: protocol.flags(),
        initial,
        steps,
        violations,
        records: sim.records,
        resume: resume::Resume::new(protocol, scenario, checkpoints),
    }
}
