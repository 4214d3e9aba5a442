//! # epochlab-core
//!
//! A faithful, deterministic model of one Kafka partition's replication: controller, ISR, high watermark,
//! leader epochs, crashes, and the log-truncation rules of six protocol variants, with Kafka's invariants
//! checked after every step. The semantics are those of `docs/model.md` (cited as "model §N").
//!
//! **Purity.** No clock, no I/O, no randomness, no web crate: the same scenario always gives the same trace.
//! Ordered collections only (`BTreeMap`, `Vec`), explicit integer widths, every loop bounded.
//!
//! **One way in.** Callers edit a [`Scenario`] and [`run`] it; the [`Trace`] holds every step's outcome,
//! narration, annotations, state and violations, and [`view`] turns a step into what a UI draws.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod checker;
pub mod compare;
pub mod conformance;
mod cow;
mod engine;
pub mod epoch_cache;
pub mod fingerprint;
pub mod invariants;
pub mod kafka_error;
pub mod lesson;
pub mod messages;
pub mod png;
pub mod presets;
pub mod reads;
mod record;
pub mod release;
pub mod report;
mod resume;
pub mod scenario;
pub mod sequence;
pub mod share;
pub mod state;
pub mod text;
pub mod trace;
mod validate;
pub mod variant;
pub mod verdict;
pub mod view;

pub use compare::{compare, recompare, Comparison};
pub use resume::{Resume, Resumes, Run};
pub use scenario::{parse_scenario, Scenario, ScenarioError};
pub use trace::Trace;
pub use validate::Invalid;
pub use variant::{Flag, Protocol, Variant};

use std::sync::Arc;

/// Run a scenario under its configured variant and flags.
pub fn run(scenario: &Scenario) -> Trace {
    run_variant(scenario, scenario.config.variant)
}

/// Run a scenario under another variant, keeping the scenario's configured flags.
pub fn run_variant(scenario: &Scenario, variant: Variant) -> Trace {
    run_protocol(scenario, scenario.config.protocol(variant))
}

/// Run a scenario under an explicit protocol.
pub fn run_protocol(scenario: &Scenario, protocol: Protocol) -> Trace {
    rerun_protocol(None, scenario, protocol).trace
}

/// Run a scenario under an explicit protocol, going on from `previous` (the resume data of a run of an
/// earlier version of the scenario) where the two agree: the steps before the first changed event are
/// reused, not recomputed. The trace equals [`run_protocol`]'s.
pub fn rerun_protocol(previous: Option<&Resume>, scenario: &Scenario, protocol: Protocol) -> Run {
    rerun_shared(previous, scenario, protocol, Arc::new(scenario.events.clone()))
}

/// `Sim::step` through a pointer the optimisers cannot see through, so that neither LLVM nor wasm-opt (which
/// inlines any function with one caller) folds the step into the run's loop. In the browser a loop inlined
/// into one long call runs in V8's baseline code all along, while a step function called once per event is
/// compiled by the optimising tier after its first calls: opening a 1,000-event link takes about 35 ms less.
/// Natively (no baseline tier) LLVM's inlining is worth more: the pointer is a constant it sees through.
fn step_out_of_line<'a>() -> fn(&mut engine::Sim<'a>, u32, &scenario::Event) -> trace::Step {
    let step = engine::Sim::<'a>::step;
    if cfg!(target_family = "wasm") {
        std::hint::black_box(step)
    } else {
        step
    }
}

/// [`rerun_protocol`] with the scenario's events already shared (one copy for every run of a comparison).
pub(crate) fn rerun_shared(
    previous: Option<&Resume>,
    scenario: &Scenario,
    protocol: Protocol,
    events: Arc<Vec<scenario::Event>>,
) -> Run {
    let mut sim = engine::Sim::new(scenario, protocol);
    let initial = sim.state.clone();
    let mut steps = Vec::with_capacity(scenario.events.len());
    let mut checkpoints = Vec::new();
    if let Some(start) = previous.and_then(|r| r.start_for(protocol, scenario)) {
        steps = start.steps;
        sim.state = start.state;
        sim.memory = start.memory;
        checkpoints = start.checkpoints;
    }
    let reused = steps.len();
    let step = step_out_of_line();
    for (index, event) in scenario.events.iter().enumerate().skip(reused) {
        steps.push(Arc::new(step(&mut sim, index as u32, event)));
        let done = index as u32 + 1;
        if done % resume::EVERY == 0 || done as usize == scenario.events.len() {
            checkpoints.push(Arc::new(resume::Checkpoint::new(done, &sim.memory)));
        }
    }
    let memory = sim.memory;
    let ends = resume::Ends { records: memory.records, violations: memory.violations };
    let trace = Trace {
        scenario: scenario.name.clone(),
        brokers: scenario.brokers.clone(),
        variant: protocol.variant,
        flags: protocol.flags(),
        initial: initial.clone(),
        steps: steps.clone(),
        violations: ends.violations.to_vec(),
        records: ends.records.to_vec(),
        rules: protocol.rules,
    };
    Run { trace, resume: Resume::new((protocol, scenario, events), initial, (steps, checkpoints), ends), reused }
}
