//! Re-running an edited scenario from where it first differs, instead of from the start.
//!
//! The UI re-runs the scenario on every edit, and most edits leave a long prefix untouched (a drop at the end
//! of a 200-step story changes nothing before it). A run keeps, every [`EVERY`] steps and after its last
//! one, a [`Checkpoint`] of the simulator's memory. A re-run of an edited scenario starts from the last
//! checkpoint before the first changed event, reusing the steps before it (shared, not copied). The result
//! is the trace a full run gives: `tests/resume.rs` checks that.

use std::fmt;
use std::sync::Arc;

use crate::engine::Memory;
use crate::fingerprint::fingerprint;
use crate::invariants::Violation;
use crate::record::RecordInfo;
use crate::scenario::{Config, Event, Scenario};
use crate::state::State;
use crate::trace::{Step, Trace};
use crate::variant::Protocol;

/// Steps between checkpoints: a re-run repeats at most this many unchanged steps.
pub(crate) const EVERY: u32 = 16;

/// The simulator's memory at a step boundary: with that step's state, enough to go on from there.
///
/// The records and violations only ever grow, so a checkpoint keeps how many there were, not a share of
/// them: a shared list would be copied whole by the run's next record or violation (copy on write), about
/// once per checkpoint, which made opening a 1,000-event link copy every record's label some 30 times.
pub(crate) struct Checkpoint {
    /// Events applied so far.
    steps: u32,
    /// The memory, without its records and violations.
    memory: Memory,
    records: usize,
    violations: usize,
}

impl Checkpoint {
    /// The checkpoint of `memory` after `steps` events.
    pub(crate) fn new(steps: u32, memory: &Memory) -> Checkpoint {
        let (records, violations) = (memory.records.len(), memory.violations.len());
        let memory = Memory { records: Arc::default(), violations: Arc::default(), ..memory.clone() };
        Checkpoint { steps, memory, records, violations }
    }

    /// The memory here, its records and violations the first ones of the run's `last`.
    fn memory(&self, last: &Ends) -> Memory {
        let (records, violations) = (first(&last.records, self.records), first(&last.violations, self.violations));
        Memory { records, violations, ..self.memory.clone() }
    }
}

/// The first `n` of `all`: shared when that is all of them (a drop at the end goes on from the last
/// checkpoint, which has every record), copied otherwise.
fn first<T: Clone>(all: &Arc<Vec<T>>, n: usize) -> Arc<Vec<T>> {
    if n == all.len() {
        Arc::clone(all)
    } else {
        Arc::new(all[..n].to_vec())
    }
}

/// A run's records and violations when it ended: every checkpoint's are the first ones of these.
#[derive(Clone, Default)]
pub(crate) struct Ends {
    pub(crate) records: Arc<Vec<RecordInfo>>,
    pub(crate) violations: Arc<Vec<Violation>>,
}

/// What a re-run of an edited version of a scenario goes on from: what ran, its steps and its checkpoints
/// (oldest first). Kept beside a [`Trace`], not in it: it is not part of what a trace says.
#[derive(Clone)]
pub struct Resume {
    protocol: Protocol,
    brokers: Vec<String>,
    config: Config,
    /// Shared by the runs of one comparison.
    events: Arc<Vec<Event>>,
    initial: State,
    steps: Vec<Arc<Step>>,
    checkpoints: Vec<Arc<Checkpoint>>,
    ends: Ends,
}

/// A run: the trace, and what a re-run goes on from.
pub struct Run {
    /// What the run says.
    pub trace: Trace,
    /// What a re-run of an edited scenario goes on from.
    pub resume: Resume,
    /// Leading steps taken over from the previous run (the same allocations), not recomputed.
    pub reused: usize,
}

impl Resume {
    pub(crate) fn new(
        (protocol, scenario, events): (Protocol, &Scenario, Arc<Vec<Event>>),
        initial: State,
        (steps, checkpoints): (Vec<Arc<Step>>, Vec<Arc<Checkpoint>>),
        ends: Ends,
    ) -> Resume {
        let (brokers, config) = (scenario.brokers.clone(), scenario.config.clone());
        Resume { protocol, brokers, config, events, initial, steps, checkpoints, ends }
    }

    /// The protocol it ran under.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// The latest checkpoint from which `scenario` under `protocol` runs exactly as this run did (same
    /// protocol, brokers and configuration, and the same events up to the checkpoint): the steps before it,
    /// the state and memory there, and the checkpoints so far.
    pub(crate) fn start_for(&self, protocol: Protocol, scenario: &Scenario) -> Option<Start> {
        if self.protocol != protocol || self.brokers != scenario.brokers || self.config != scenario.config {
            return None;
        }
        let same = self.events.iter().zip(&scenario.events).take_while(|(a, b)| a == b).count() as u32;
        let at = self.checkpoints.iter().rposition(|c| c.steps <= same)?;
        let from = &self.checkpoints[at];
        let steps = self.steps[..from.steps as usize].to_vec();
        let state = steps.last().map_or_else(|| self.initial.clone(), |s| s.state.clone());
        let memory = from.memory(&self.ends);
        Some(Start { steps, state, memory, checkpoints: self.checkpoints[..=at].to_vec() })
    }

    /// The stable fingerprint of the run's last state and memory (see [`crate::fingerprint`]).
    pub fn fingerprint(&self) -> u64 {
        let state = self.steps.last().map_or(&self.initial, |s| &s.state);
        let memory = self.checkpoints.last().map_or_else(Memory::default, |c| c.memory(&self.ends));
        fingerprint(state, &memory)
    }
}

/// Where a re-run starts.
pub(crate) struct Start {
    pub(crate) steps: Vec<Arc<Step>>,
    pub(crate) state: State,
    pub(crate) memory: Memory,
    pub(crate) checkpoints: Vec<Arc<Checkpoint>>,
}

/// The resume data of a comparison: one run per variant shown (found again by protocol), and where they
/// parted ways, which a re-run keeps when the edit came after it.
#[derive(Clone, Default)]
pub struct Resumes {
    pub(crate) runs: Vec<Resume>,
    pub(crate) first_difference: Option<u32>,
}

impl Resumes {
    /// The one that ran under `protocol`, if any.
    pub fn find(&self, protocol: Protocol) -> Option<&Resume> {
        self.runs.iter().find(|r| r.protocol == protocol)
    }

    /// The protocols of the runs, in order.
    pub(crate) fn protocols(&self) -> Vec<Protocol> {
        self.runs.iter().map(|r| r.protocol).collect()
    }
}

impl fmt::Debug for Resume {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Resume({} steps, {} checkpoints)", self.steps.len(), self.checkpoints.len())
    }
}

impl fmt::Debug for Resumes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resumes").field("runs", &self.runs).field("first_difference", &self.first_difference).finish()
    }
}
