//! The deterministic state machine: applies one scenario event at a time (model §3.4 to §3.6).
//!
//! Sans-IO and clock-free: a run is a pure function of the scenario and the protocol. Each event kind has its
//! own file; shared replica and controller operations live in `replica_ops` and `controller`. A handler either
//! changes the state and returns its narration, or returns a [`Reject`] before changing anything.

/// Refuse an event with Kafka's error name and the plain-words reason, formatted only when a trace will show
/// it (a search's transitions are quiet: only whether the event applied matters there).
macro_rules! refuse {
    ($sim:expr, $reason:expr, $($why:tt)+) => {
        Err($crate::engine::rejection($sim.quiet, $reason, format_args!($($why)+)))
    };
}

/// Narration, formatted only when a trace will show it: a search's transitions are quiet, and its arguments
/// (broker sets, record labels) are not even worked out there. Where a sentence is built from clauses,
/// the empty ones are skipped (`controller::join_clauses`, `narrate::sentence`).
macro_rules! say {
    ($sim:expr, $($text:tt)+) => {
        if $sim.quiet { String::new() } else { format!($($text)+) }
    };
}

mod alter_partition;
mod controller;
mod crash;
mod deliver;
mod disk;
mod elect;
mod fetch;
mod kraft;
mod memory;
mod narrate;
mod produce;
mod replica_ops;
mod restart;
mod settle;
mod shrink_isr;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::invariants::{self, Ctx};
use crate::record::RecordInfo;
use crate::scenario::{Acks, Event, Policy, Scenario};
use crate::state::{BrokerId, State};
use crate::trace::{Annotation, Outcome, Step};

use crate::kafka_error::KafkaError;
use crate::variant::Protocol;
pub(crate) use memory::{Memory, PendingAck};

/// Why an event could not apply: Kafka's error name and the plain-words reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reject {
    pub(crate) reason: KafkaError,
    pub(crate) why: String,
}

pub(crate) fn reject<T>(reason: KafkaError, why: impl Into<String>) -> Result<T, Reject> {
    Err(Reject { reason, why: why.into() })
}

/// A refusal, its reason formatted only when not `quiet` (one function for every handler: no copy per site).
pub(crate) fn rejection(quiet: bool, reason: KafkaError, why: std::fmt::Arguments<'_>) -> Reject {
    Reject { reason, why: if quiet { String::new() } else { why.to_string() } }
}

/// The running simulation: state plus everything the trace and the checker need to remember.
pub(crate) struct Sim<'a> {
    pub(crate) scenario: &'a Scenario,
    pub(crate) protocol: Protocol,
    pub(crate) state: State,
    pub(crate) memory: Memory,
    pub(crate) step: u32,
    pub(crate) annotations: Vec<Annotation>,
    /// A search's transition: nobody reads its narration, or the reason of a refused event, so neither is
    /// formatted (`say!`, `refuse!`).
    pub(crate) quiet: bool,
    /// This step, the min ISR gate (3.7) held a leader's HW: (leader, HW kept, HW it would have had).
    pub(crate) hw_held: Option<(BrokerId, u32, u32)>,
}

/// What one step produced, before the checker runs.
pub(crate) struct StepResult {
    pub(crate) outcome: Outcome,
    pub(crate) narration: String,
    pub(crate) annotations: Vec<Annotation>,
}

impl<'a> Sim<'a> {
    pub(crate) fn new(scenario: &'a Scenario, protocol: Protocol) -> Sim<'a> {
        Sim {
            scenario,
            protocol,
            state: State::initial(scenario.brokers.len()),
            memory: Memory::default(),
            step: 0,
            annotations: Vec::new(),
            quiet: false,
            hw_held: None,
        }
    }

    /// A quiet simulation that continues from `state` and `memory` (a search's node).
    pub(crate) fn resume(scenario: &'a Scenario, protocol: Protocol, state: State, memory: Memory) -> Sim<'a> {
        Sim { scenario, protocol, state, memory, step: 0, annotations: Vec::new(), quiet: true, hw_held: None }
    }

    /// Resolve a broker name. The parser guarantees names exist; an unknown one is rejected, never a panic.
    pub(crate) fn broker(&self, name: &str) -> Result<BrokerId, Reject> {
        match self.scenario.broker_index(name) {
            Some(i) => Ok(i as BrokerId),
            None => refuse!(self, KafkaError::UnknownBroker, "this scenario has no broker {name}"),
        }
    }

    pub(crate) fn name(&self, b: BrokerId) -> &str {
        self.scenario.brokers.get(b as usize).map_or("?", String::as_str)
    }

    pub(crate) fn label(&self, id: u32) -> &str {
        self.memory.records.get(id as usize).map_or("?", |r| r.label.as_str())
    }

    /// Apply one event as step `index`, then check every invariant: the step as a trace records it.
    pub(crate) fn step(&mut self, index: u32, event: &Event) -> Step {
        let result = self.apply(index, event);
        #[cfg(debug_assertions)]
        if let Err(broken) = self.state.validate() {
            panic!("step {index} ({}) left an invalid state: {broken}", event.kind());
        }
        let violations = self.check_invariants(index);
        Step {
            index,
            kind: event.kind(),
            outcome: result.outcome,
            narration: result.narration,
            annotations: result.annotations,
            state: self.state.clone(),
            violations,
        }
    }

    /// One transition for a search: apply the event as step `index` and, when it applied, check the
    /// invariants. Returns whether it applied (a rejected event changes nothing).
    pub(crate) fn transition(&mut self, index: u32, event: &Event) -> bool {
        let result = self.apply(index, event);
        let applied = result.outcome == Outcome::Applied;
        // Nobody reads them; the buffer is kept for the next transition (`apply` clears it).
        self.annotations = result.annotations;
        if applied {
            self.check_invariants(index);
        }
        applied
    }

    /// The invariants after step `index`: the indices into `memory.violations` of those holding now.
    fn check_invariants(&mut self, index: u32) -> Vec<u16> {
        let m = &mut self.memory;
        m.history.observe(&self.state, index);
        let ctx = Ctx {
            state: &self.state,
            history: &m.history,
            records: &m.records,
            brokers: &self.scenario.brokers,
            step: index,
            power_loss_voids_guarantee: !self.protocol.rules.elr,
        };
        let holding = invariants::check(&ctx, &mut m.known, &mut m.violations);
        m.history.after_check(&self.state);
        holding
    }

    /// Apply one event as step `index`.
    fn apply(&mut self, index: u32, event: &Event) -> StepResult {
        self.step = index;
        self.annotations.clear();
        self.hw_held = None;
        let result = self.dispatch(event);
        let (outcome, narration) = match result {
            Ok(narration) => {
                self.after_event();
                let held = self.hw_held_words();
                (Outcome::Applied, narration + &held)
            }
            Err(r) if self.quiet => (Outcome::Rejected { reason: r.reason }, String::new()),
            Err(r) => (Outcome::Rejected { reason: r.reason }, format!("Rejected with {}: {}.", r.reason, r.why)),
        };
        StepResult { outcome, narration, annotations: std::mem::take(&mut self.annotations) }
    }

    fn dispatch(&mut self, event: &Event) -> Result<String, Reject> {
        match event {
            Event::Elect { broker, deliver } => elect::elect(self, broker.as_deref(), deliver),
            Event::Deliver { broker } => deliver::deliver(self, self.broker(broker)?),
            Event::Produce { record, acks, broker } => {
                produce::produce(self, record.as_deref(), *acks, broker.as_deref())
            }
            Event::Fetch { broker, drop_response } => fetch::fetch(self, self.broker(broker)?, *drop_response),
            Event::Settle => settle::settle(self),
            Event::ShrinkIsr { broker } => shrink_isr::shrink_isr(self, self.broker(broker)?),
            Event::Crash { broker, power, notify_controller } => {
                crash::crash(self, self.broker(broker)?, *power, *notify_controller)
            }
            Event::Restart { broker, deliver } => restart::restart(self, self.broker(broker)?, *deliver),
            Event::Shutdown { broker } => crash::shutdown(self, self.broker(broker)?),
            Event::CheckpointHw { broker } => disk::checkpoint_hw(self, self.broker(broker)?),
            Event::Flush { broker } => disk::flush(self, self.broker(broker)?),
            Event::Consume { broker } => produce::consume(self, broker.as_deref()),
            Event::Zombie { broker } => deliver::zombie(self, self.broker(broker)?),
        }
    }

    /// " A holds its HW at 1: …" when the 3.7 min ISR gate held a leader's HW in this step.
    fn hw_held_words(&self) -> String {
        let Some((l, hw, would)) = self.hw_held.filter(|_| !self.quiet) else { return String::new() };
        let r = self.state.replica(l);
        let pending = if r.pending_isr.is_empty() {
            String::new()
        } else {
            format!(
                " (its maximal ISR counts {} already, but the gate counts only what the controller has committed)",
                self.set_names(r.pending_isr)
            )
        };
        format!(
            " {} holds its HW at {hw} instead of {would}: its ISR {} is below min.insync.replicas {}{pending} (Kafka 3.7 and later, KAFKA-15583), so nothing more is committed or readable until a follower rejoins.",
            self.name(l),
            self.set_names(r.isr),
            self.scenario.config.min_insync_replicas
        )
    }

    /// Policies that act "after every event".
    fn after_event(&mut self) {
        if self.scenario.config.hw_checkpoint == Policy::Always {
            for r in self.state.replicas.iter_mut().filter(|r| r.up) {
                r.hw_checkpoint = r.hw;
            }
        }
    }

    pub(crate) fn annotate(&mut self, a: Annotation) {
        self.annotations.push(a);
    }

    /// Register a new record produced by `leader`.
    pub(crate) fn new_record(&mut self, label: Option<&str>, epoch: i32, leader: BrokerId, acks: Acks) -> u32 {
        let id = self.memory.records.len() as u32;
        let label = label.map_or_else(|| format!("r{id}"), str::to_string);
        Arc::make_mut(&mut self.memory.records).push(RecordInfo { label, epoch, step: self.step, leader, acks });
        id
    }
}
