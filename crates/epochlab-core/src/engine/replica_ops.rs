//! Operations on one replica that several events share: append, truncate, HW moves, and the leader's
//! `maybeIncrementHW` with the acks=all completions it triggers (model §2, §3.4 E3, §3.5 `truncateTo`).

use std::sync::Arc;

use super::{PendingAck, Sim};
use crate::kafka_error::KafkaError;
use crate::scenario::Policy;
use crate::state::{BrokerId, Entry, FetchState, Role};
use crate::trace::{Annotation, ProduceResult, TruncateCause};

impl Sim<'_> {
    /// `truncateTo(x)`: drop records at and past `x`, and the epoch-cache entries that start there; cap HW and
    /// the flushed offset. Also drops a dangling cache entry at the LEO when nothing is truncated (trunk's
    /// `UnifiedLog.truncateTo`), so a follower never loops on an epoch it holds no record of.
    /// Returns the records removed.
    pub(crate) fn truncate_to(&mut self, b: BrokerId, x: u32, cause: TruncateCause) -> Vec<u32> {
        let r = &mut self.state.replicas[b as usize];
        let to = x.min(r.leo());
        r.epoch_cache.truncate_from_end(to);
        if to == r.leo() {
            return Vec::new();
        }
        let removed: Vec<u32> = r.log[to as usize..].iter().map(|e| e.id).collect();
        Arc::make_mut(&mut r.log).truncate(to as usize);
        debug_assert!(r.leo() == to && !removed.is_empty(), "truncate_to({x}) left LEO {}", r.leo());
        r.flushed = r.flushed.min(to);
        let old_hw = r.hw;
        r.hw = r.hw.min(to);
        let new_hw = r.hw;
        self.annotate(Annotation::Truncated { broker: b, to, removed: removed.clone(), cause });
        if new_hw != old_hw {
            self.annotate(Annotation::HwMoved { broker: b, from: old_hw, to: new_hw });
        }
        removed
    }

    /// Append records at the LEO, stamping the epoch cache (variants with epochs) and flushing when the flush
    /// policy is "always".
    pub(crate) fn append(&mut self, b: BrokerId, entries: &[Entry]) {
        if entries.is_empty() {
            return;
        }
        let uses_cache = self.protocol.uses_epoch_cache();
        let replacing = self.protocol.cache_21();
        let flush_always = self.scenario.config.flush == Policy::Always;
        let r = &mut self.state.replicas[b as usize];
        let from = r.leo();
        let log = Arc::make_mut(&mut r.log);
        for e in entries {
            if uses_cache {
                let offset = log.len() as u32;
                if replacing {
                    r.epoch_cache.assign_replacing(e.epoch, offset);
                } else {
                    r.epoch_cache.assign_append_only(e.epoch, offset);
                }
            }
            log.push(*e);
        }
        debug_assert_eq!(r.leo(), from + entries.len() as u32, "an append adds exactly its records at the LEO");
        if flush_always {
            r.flushed = r.leo();
        }
        self.annotate(Annotation::Appended { broker: b, from, records: entries.iter().map(|e| e.id).collect() });
    }

    /// Set a replica's HW (a follower's may go down), annotating the move.
    pub(crate) fn set_hw(&mut self, b: BrokerId, hw: u32) {
        let r = &mut self.state.replicas[b as usize];
        debug_assert!(hw <= r.leo(), "HW {hw} set past LEO {}", r.leo());
        if r.hw != hw {
            let from = r.hw;
            r.hw = hw;
            self.annotate(Annotation::HwMoved { broker: b, from, to: hw });
        }
    }

    /// `maybeIncrementHW(L)`: the minimum LEO over the leader's ISR view (a follower that has not fetched since
    /// the leader took over counts as unknown, which blocks the HW). The HW only moves up.
    pub(crate) fn maybe_increment_hw(&mut self, l: BrokerId) {
        let r = self.state.replica(l);
        if !r.is_acting_leader() {
            return;
        }
        let mut new_hw = i64::from(r.leo());
        // KIP-497: the maximal ISR (the committed one and any member proposed) holds the HW back.
        for f in r.maximal_isr().iter().filter(|f| *f != l) {
            new_hw = new_hw.min(i64::from(r.remote_leo[f as usize]));
        }
        // Kafka 3.7 (KAFKA-15583): "Not increasing HWM because partition is under min ISR".
        let under_min_isr = r.isr.len() < usize::from(self.scenario.config.min_insync_replicas);
        if self.protocol.rules.min_isr_gates_hw && under_min_isr {
            if new_hw > i64::from(r.hw) {
                self.hw_held = Some((l, r.hw, new_hw as u32));
            }
            return;
        }
        if new_hw > i64::from(r.hw) {
            self.set_hw(l, new_hw as u32);
            self.complete_acks(l);
        }
    }

    /// Complete the acks=all produces whose record is now below leader `l`'s HW.
    fn complete_acks(&mut self, l: BrokerId) {
        let hw = self.state.replica(l).hw;
        // `checkEnoughReplicasReachOffset` compares min ISR with the maximal ISR (`Partition.scala@3.7.0` L1108-1117).
        let isr_size = self.state.replica(l).maximal_isr().len();
        let enough = isr_size >= usize::from(self.scenario.config.min_insync_replicas);
        let (done, waiting): (Vec<PendingAck>, Vec<PendingAck>) =
            std::mem::take(&mut self.memory.pending_acks).into_iter().partition(|p| p.leader == l && p.offset < hw);
        self.memory.pending_acks = waiting;
        for p in done {
            let result = match enough {
                true => ProduceResult::Acked,
                false => ProduceResult::Failed(KafkaError::NotEnoughReplicasAfterAppend),
            };
            if enough {
                self.memory.history.record_ack(p.record, p.offset, crate::scenario::Acks::All, self.step);
            }
            self.annotate(Annotation::Produced { record: p.record, result });
        }
    }

    /// Produces waiting on `b` fail: it stopped being leader before their records committed.
    pub(crate) fn fail_pending_acks(&mut self, b: BrokerId) {
        let (failed, waiting): (Vec<PendingAck>, Vec<PendingAck>) =
            std::mem::take(&mut self.memory.pending_acks).into_iter().partition(|p| p.leader == b);
        self.memory.pending_acks = waiting;
        for p in failed {
            let result = ProduceResult::Failed(KafkaError::NotLeaderOrFollower);
            self.annotate(Annotation::Produced { record: p.record, result });
        }
    }

    /// Forget everything in memory (a crash or shutdown): role, epoch, leader state. The HW shown while down
    /// is what restart will recover it to.
    pub(crate) fn lose_memory(&mut self, b: BrokerId) {
        self.fail_pending_acks(b);
        let r = &mut self.state.replicas[b as usize];
        r.up = false;
        r.zombie = false;
        r.role = Role::None;
        r.known_epoch = -1;
        r.known_leader = None;
        r.fetch_state = FetchState::Idle;
        r.isr = crate::state::BrokerSet::EMPTY;
        r.pending_isr = crate::state::BrokerSet::EMPTY;
        r.remote_leo = [-1; crate::scenario::MAX_BROKERS];
        r.hw = r.hw_checkpoint.min(r.leo());
    }
}
