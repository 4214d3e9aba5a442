//! Re-running an edited scenario from where it first differs, instead of from the start.
//!
//! The UI re-runs the scenario on every edit, and most edits leave a long prefix untouched (a drop at the end
//! of a 200-step story changes nothing before it). A trace keeps, every [`EVERY`] steps and after its last
//! one, a [`Checkpoint`] of what the simulator and the checker remember beyond the step's state. A re-run
//! of an edited scenario starts from the last checkpoint before the first changed event, reusing the steps
//! before it (shared, not copied). The result is the trace a full run gives: `tests/resume.rs` checks that.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::engine::PendingAck;
use crate::invariants::{History, Key};
use crate::scenario::{Config, Event, Scenario};
use crate::variant::Protocol;

/// Steps between checkpoints: a re-run repeats at most this many unchanged steps.
pub(crate) const EVERY: u32 = 16;

/// What a run remembers at a step boundary beyond the state: enough to go on from there.
#[derive(Clone)]
pub(crate) struct Checkpoint {
    /// Events applied so far.
    pub(crate) steps: u32,
    /// `Trace::records` and `Trace::violations` only grow: their lengths then.
    pub(crate) records: u32,
    pub(crate) violations: u32,
    pub(crate) pending_acks: Vec<PendingAck>,
    pub(crate) history: History,
    pub(crate) known: BTreeMap<Key, u16>,
}

/// A trace's memory for re-runs: what it ran and its checkpoints (oldest first). Not part of what a trace
/// says, so it is left out of equality, `Debug` and serialisation.
#[derive(Clone, Default)]
pub struct Resume {
    ran: Option<(Protocol, Vec<String>, Config, Vec<Event>)>,
    /// Shared with the traces that re-ran from this one.
    pub(crate) checkpoints: Vec<Arc<Checkpoint>>,
}

impl Resume {
    pub(crate) fn new(protocol: Protocol, scenario: &Scenario, checkpoints: Vec<Arc<Checkpoint>>) -> Resume {
        let ran = (protocol, scenario.brokers.clone(), scenario.config.clone(), scenario.events.clone());
        Resume { ran: Some(ran), checkpoints }
    }

    /// The latest checkpoint from which `scenario` under `protocol` runs exactly as the trace did: same
    /// protocol, brokers and configuration, and the same events up to the checkpoint.
    pub(crate) fn start_for(&self, protocol: Protocol, scenario: &Scenario) -> Option<&Arc<Checkpoint>> {
        let (p, brokers, config, events) = self.ran.as_ref()?;
        if *p != protocol || *brokers != scenario.brokers || *config != scenario.config {
            return None;
        }
        let same = events.iter().zip(&scenario.events).take_while(|(a, b)| a == b).count() as u32;
        self.checkpoints.iter().rev().find(|c| c.steps <= same)
    }
}

impl PartialEq for Resume {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Resume {}

impl fmt::Debug for Resume {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Resume({} checkpoints)", self.checkpoints.len())
    }
}
