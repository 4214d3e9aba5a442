//! The leader's ISR expansion as a round trip to the controller (KIP-497's AlterPartition, model §13.5).
//!
//! From 3.7, where the min ISR gate reads the committed ISR, the round trip shows: the leader proposes the
//! follower and counts it in its maximal ISR at once (the HW waits for it, `Partition.scala@3.7.0`
//! L1159-1173), but the gate counts only the committed ISR (L1151-1154), so under min ISR the HW waits until
//! the controller's answer arrives. The model lets that answer arrive just before the leader serves its next
//! fetch or drops a follower; a leader that loses its leadership first forgets the proposal. The controller
//! refuses a proposal that names a broker it does not count live (KIP-841: fenced or shutting down,
//! INELIGIBLE_REPLICA), and the leader goes back to its committed ISR.

use super::controller::join_clauses;
use super::kraft::PartitionChange;
use super::Sim;
use crate::state::{BrokerId, BrokerSet};
use crate::trace::Annotation;

/// What became of a leader's pending AlterPartition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The controller committed the ISR, and the leader's HW then.
    Committed { isr: BrokerSet, hw: u32 },
    /// The controller refused it: these members are not live (INELIGIBLE_REPLICA).
    Ineligible { members: BrokerSet },
}

impl Sim<'_> {
    /// Whether the leader's ISR expansion waits for the controller (3.7 and later, model §13.5).
    pub(crate) fn expansion_round_trip(&self) -> bool {
        self.protocol.rules.min_isr_gates_hw
    }

    /// The leader proposes `f` for its ISR: counted at once in its maximal ISR, not yet committed.
    pub(crate) fn propose_isr_member(&mut self, l: BrokerId, f: BrokerId) {
        self.state.replicas[l as usize].pending_isr.insert(f);
    }

    /// The controller's answer to `l`'s pending AlterPartition, if one is in flight, applied.
    pub(crate) fn answer_alter_partition(&mut self, l: BrokerId) -> Option<Answer> {
        let r = self.state.replica(l);
        if r.pending_isr.is_empty() || !r.is_acting_leader() {
            return None;
        }
        let (proposed, from) = (r.pending_isr, r.isr);
        self.state.replicas[l as usize].pending_isr = BrokerSet::EMPTY;
        let live = self.state.controller.live;
        let ineligible = BrokerSet::from_bits(proposed.bits() & !live.bits());
        if !ineligible.is_empty() {
            return Some(Answer::Ineligible { members: ineligible });
        }
        let to = BrokerSet::from_bits(from.bits() | proposed.bits());
        self.state.replicas[l as usize].isr = to;
        self.set_controller_isr(to);
        self.write_partition(PartitionChange::WithoutLeaderEpoch);
        for f in proposed.iter() {
            self.memory.history.record_isr_join(f, self.step);
        }
        self.annotate(Annotation::IsrChanged { from, to, by_leader: Some(l) });
        self.maybe_increment_hw(l);
        Some(Answer::Committed { isr: to, hw: self.state.replica(l).hw })
    }

    /// The answer in words, as the clause that starts the event's sentence.
    pub(crate) fn answer_words(&self, l: BrokerId, answer: &Answer) -> String {
        let name = self.name(l);
        match answer {
            Answer::Committed { isr, hw } => say!(
                self,
                "the controller's answer to {name}'s AlterPartition arrives first: it committed ISR {}{}, and {name}'s HW is then {hw}",
                self.set_names(*isr),
                self.partition_epoch_note()
            ),
            Answer::Ineligible { members } => say!(
                self,
                "the controller refuses {name}'s AlterPartition with INELIGIBLE_REPLICA: it does not count {} live (KIP-841), so {name} goes back to its committed ISR {}",
                self.set_names(*members),
                self.set_names(self.state.replica(l).isr)
            ),
        }
    }

    /// "head" preceded by the answer's clause, when an answer arrived.
    pub(crate) fn after_answer(&self, l: BrokerId, answer: Option<&Answer>, head: String) -> String {
        match answer {
            Some(a) => join_clauses(self.answer_words(l, a), vec![head]),
            None => head,
        }
    }
}
