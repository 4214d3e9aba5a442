//! What the simulator remembers besides the replica and controller state (model §4, "the checker keeps a
//! history"): every record produced, the acks=all produces still waiting, the invariants' history, and the
//! violations already reported. One value, so that a checkpoint or a search can copy it whole and hash it.
//! The parts that most steps leave alone are shared (`Arc`, copied on write): a search copies the memory
//! for every transition it tries, and most of them produce nothing and find nothing new.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::cow::share_from;
use crate::invariants::{History, Key, Violation};
use crate::record::RecordInfo;
use crate::state::BrokerId;

/// An acks=all produce waiting for the leader's HW to pass its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PendingAck {
    pub(crate) record: u32,
    pub(crate) offset: u32,
    pub(crate) leader: BrokerId,
}

/// The simulator's memory.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Memory {
    /// Every record ever produced, by id.
    pub(crate) records: Arc<Vec<RecordInfo>>,
    /// acks=all produces not yet answered.
    pub(crate) pending_acks: Vec<PendingAck>,
    /// What the invariants remember across steps.
    pub(crate) history: History,
    /// Every distinct violation so far, at the first step it held.
    pub(crate) violations: Arc<Vec<Violation>>,
    /// The identity of each violation in `violations`, so that one that keeps holding is not reported again.
    pub(crate) known: Arc<BTreeMap<Key, u16>>,
}

/// As derived, but `clone_from` reuses buffers and skips the reference counts of parts already shared: a
/// search resets one scratch memory to its node's after every transition it tries (`checker::space`).
impl Clone for Memory {
    #[inline]
    fn clone(&self) -> Self {
        Memory {
            records: Arc::clone(&self.records),
            pending_acks: self.pending_acks.clone(),
            history: self.history.clone(),
            violations: Arc::clone(&self.violations),
            known: Arc::clone(&self.known),
        }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        // Every field by name, so that a new one cannot be missed.
        let Memory { records, pending_acks, history, violations, known } = source;
        share_from(&mut self.records, records);
        self.pending_acks.clone_from(pending_acks);
        self.history.clone_from(history);
        share_from(&mut self.violations, violations);
        share_from(&mut self.known, known);
    }
}
