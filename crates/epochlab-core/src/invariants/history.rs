//! What the checker remembers across steps (model §4 "The checker keeps a history of").

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::cow::share_from;
use crate::scenario::Acks;
use crate::state::{BrokerId, BrokerSet, State};

/// A power crash: which broker, when, and the controller's ISR at that moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PowerCrash {
    step: u32,
    broker: BrokerId,
    isr: BrokerSet,
}

/// History for the invariants. The three maps grow only now and then (a commit, an acknowledgement, a read),
/// so they are shared between copies and copied on write: a search copies the history with every node.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct History {
    /// `(offset, id)` ever below a true leader's HW → first step.
    committed: Arc<BTreeMap<(u32, u32), u32>>,
    /// `(offset, id)` acknowledged to a producer → (acks, step).
    acked: Arc<BTreeMap<(u32, u32), (Acks, u32)>>,
    /// `(offset, id)` read by a consumer → first step.
    seen: Arc<BTreeMap<(u32, u32), u32>>,
    /// Steps with an unclean election.
    unclean: Vec<u32>,
    power_crashes: Vec<PowerCrash>,
    /// ISR joins of brokers that lost power before: (step, broker). A replica that re-synced and rejoined
    /// holds the committed records again, so its power loss no longer counts (model §4).
    rejoins: Vec<(u32, BrokerId)>,
    /// The highest HW any true leader exposed, and who exposed it in which epoch.
    max_hw: Option<(u32, BrokerId, i32)>,
    /// How far `committed` already covers the current true leader's log: (leader, epoch, HW).
    committed_mark: Option<(BrokerId, i32, u32)>,
}

/// As derived, but `clone_from` reuses buffers and skips the reference counts of maps already shared (a
/// search resets a scratch memory after every transition it tries).
impl Clone for History {
    #[inline]
    fn clone(&self) -> Self {
        History {
            committed: Arc::clone(&self.committed),
            acked: Arc::clone(&self.acked),
            seen: Arc::clone(&self.seen),
            unclean: self.unclean.clone(),
            power_crashes: self.power_crashes.clone(),
            rejoins: self.rejoins.clone(),
            ..*self
        }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        // Every field by name, so that a new one cannot be missed.
        let History { committed, acked, seen, unclean, power_crashes, rejoins, max_hw, committed_mark } = source;
        share_from(&mut self.committed, committed);
        share_from(&mut self.acked, acked);
        share_from(&mut self.seen, seen);
        self.unclean.clone_from(unclean);
        self.power_crashes.clone_from(power_crashes);
        self.rejoins.clone_from(rejoins);
        (self.max_hw, self.committed_mark) = (*max_hw, *committed_mark);
    }
}

impl History {
    pub(crate) fn record_ack(&mut self, id: u32, offset: u32, acks: Acks, step: u32) {
        first_only(&mut self.acked, (offset, id), (acks, step));
    }

    pub(crate) fn record_seen(&mut self, offset: u32, id: u32, step: u32) {
        first_only(&mut self.seen, (offset, id), step);
    }

    pub(crate) fn record_unclean(&mut self, step: u32) {
        self.unclean.push(step);
    }

    pub(crate) fn record_power_crash(&mut self, broker: BrokerId, isr: BrokerSet, step: u32) {
        self.power_crashes.push(PowerCrash { step, broker, isr });
    }

    pub(crate) fn record_isr_join(&mut self, broker: BrokerId, step: u32) {
        if self.power_crashes.iter().any(|c| c.broker == broker) {
            self.rejoins.push((step, broker));
        }
    }

    /// After a step: everything below the true leader's HW is committed from now on. While the same leader
    /// leads in the same epoch its log below the HW never changes (a leader never truncates), so only the
    /// newly committed offsets are recorded. The mark is dropped whenever there is no true leader (a leader
    /// that went down may come back in the same epoch with another log), so it is always a function of the
    /// state: the current true leader, its epoch and HW, or none.
    pub(crate) fn observe(&mut self, state: &State, step: u32) {
        let Some(tl) = state.true_leader() else {
            self.committed_mark = None;
            return;
        };
        let r = state.replica(tl);
        let from = match self.committed_mark {
            Some((leader, epoch, hw)) if leader == tl && epoch == r.known_epoch => hw.min(r.hw),
            _ => 0,
        };
        for (offset, e) in r.log.iter().enumerate().take(r.hw as usize).skip(from as usize) {
            first_only(&mut self.committed, (offset as u32, e.id), step);
        }
        self.committed_mark = Some((tl, r.known_epoch, r.hw));
    }

    /// After the checks: raise the highest exposed HW.
    pub(crate) fn after_check(&mut self, state: &State) {
        if let Some(tl) = state.true_leader() {
            let hw = state.replica(tl).hw;
            if self.max_hw.is_none_or(|(max, _, _)| hw > max) {
                self.max_hw = Some((hw, tl, state.replica(tl).known_epoch));
            }
        }
    }

    pub(crate) fn committed(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        self.committed.iter().map(|(&(o, id), &s)| (o, id, s))
    }

    pub(crate) fn acked(&self) -> impl Iterator<Item = (u32, u32, Acks, u32)> + '_ {
        self.acked.iter().map(|(&(o, id), &(a, s))| (o, id, a, s))
    }

    pub(crate) fn seen(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        self.seen.iter().map(|(&(o, id), &s)| (o, id, s))
    }

    /// Every step number it mentions (for the fingerprint's ranks).
    pub(crate) fn steps(&self) -> impl Iterator<Item = u32> + '_ {
        let committed = self.committed.values().copied();
        let acked = self.acked.values().map(|&(_, s)| s);
        let seen = self.seen.values().copied();
        let crashes = self.power_crashes.iter().map(|c| c.step);
        let rejoins = self.rejoins.iter().map(|r| r.0);
        committed.chain(acked).chain(seen).chain(self.unclean.iter().copied()).chain(crashes).chain(rejoins)
    }

    /// Hash everything it remembers, each step number as its rank.
    pub(crate) fn hash_ranked<H: Hasher>(&self, h: &mut H, ranks: &StepRanks) {
        for (key, &step) in self.committed.iter() {
            (key, ranks.of_step(step)).hash(h);
        }
        for (key, &(acks, step)) in self.acked.iter() {
            (key, acks, ranks.of_step(step)).hash(h);
        }
        for (key, &step) in self.seen.iter() {
            (key, ranks.of_step(step)).hash(h);
        }
        for &step in &self.unclean {
            ranks.of_step(step).hash(h);
        }
        for c in &self.power_crashes {
            (ranks.of_step(c.step), c.broker, c.isr).hash(h);
        }
        for &(step, b) in &self.rejoins {
            (ranks.of_step(step), b).hash(h);
        }
        (self.max_hw, self.committed_mark).hash(h);
    }

    pub(crate) fn max_hw(&self) -> Option<(u32, BrokerId, i32)> {
        self.max_hw
    }

    /// Forget the highest exposed HW (only O1 reads it): a search that does not look for O1 drops it, so
    /// that states differing in it alone are one (model §11.1).
    pub(crate) fn forget_hw_peak(&mut self) {
        self.max_hw = None;
    }

    /// Forget the acks=all acknowledgements and the reads of records that were also committed: a loss of
    /// such a record is an I2 or I5 violation exactly when it is an I1 violation, by design under the same
    /// rule, and I1 is checked first. Only for a search that looks for I1 (model §11.1).
    pub(crate) fn forget_covered_by_commits(&mut self) {
        let committed = &self.committed;
        let covered_ack = |key: &(u32, u32), acks: &Acks| *acks == Acks::All && committed.contains_key(key);
        if self.acked.iter().any(|(key, (acks, _))| covered_ack(key, acks)) {
            Arc::make_mut(&mut self.acked).retain(|key, (acks, _)| !covered_ack(key, acks));
        }
        if self.seen.keys().any(|key| committed.contains_key(key)) {
            Arc::make_mut(&mut self.seen).retain(|key, _| !committed.contains_key(key));
        }
    }

    /// The steps the by-design rules compare a record's write step with: unclean elections and power crashes.
    pub(crate) fn by_design_steps(&self) -> impl Iterator<Item = u32> + '_ {
        let rejoins = self.rejoins.iter().map(|r| r.0);
        self.unclean.iter().copied().chain(self.power_crashes.iter().map(|c| c.step)).chain(rejoins)
    }

    /// Hash what decides the invariants' future verdicts (model §11.1): which `(offset, id)` were committed,
    /// acknowledged (and with which acks) or seen, but not the steps at which they were (only messages name
    /// those); unclean elections and power crashes with their steps as ranks among `ranks` (the by-design
    /// rules compare them with records' write steps); the highest exposed HW's value (O1 compares it, its
    /// broker and epoch are for the message). Not the committed mark: a function of the state (see
    /// `observe`).
    pub(crate) fn hash_verdicts<H: Hasher>(&self, h: &mut H, ranks: &StepRanks) {
        self.committed.len().hash(h);
        self.committed.keys().for_each(|key| key.hash(h));
        self.acked.len().hash(h);
        self.acked.iter().for_each(|(key, (acks, _))| (key, acks).hash(h));
        self.seen.len().hash(h);
        self.seen.keys().for_each(|key| key.hash(h));
        self.unclean.len().hash(h);
        self.unclean.iter().for_each(|&step| ranks.of_step(step).hash(h));
        self.power_crashes.len().hash(h);
        self.power_crashes.iter().for_each(|c| (ranks.of_step(c.step), c.broker, c.isr).hash(h));
        self.rejoins.len().hash(h);
        self.rejoins.iter().for_each(|&(step, b)| (ranks.of_step(step), b).hash(h));
        self.max_hw.map(|(hw, _, _)| hw).hash(h);
    }

    /// Whether Kafka's guarantee ("a committed message will not be lost, as long as there is at least one in
    /// sync replica alive, at all times") no longer covers a record written at `written`: an unclean election
    /// since, or (unless `power_counts` is false: KIP-966) every ISR member, as of some power crash, lost
    /// power since without re-syncing and rejoining the ISR in between. Returns the reason in words.
    pub(crate) fn loss_by_design(&self, written: u32, power_counts: bool) -> Option<&'static str> {
        if self.unclean.iter().any(|&s| s > written) {
            return Some("an unclean leader election happened after it was written");
        }
        if !power_counts {
            return None;
        }
        let mut crashed = BrokerSet::EMPTY;
        let mut rejoins = self.rejoins.iter().filter(|r| r.0 > written).peekable();
        for c in self.power_crashes.iter().filter(|c| c.step > written) {
            while let Some(&(_, b)) = rejoins.next_if(|r| r.0 < c.step) {
                crashed.remove(b);
            }
            crashed.insert(c.broker);
            if crashed.is_superset(c.isr) {
                return Some("every ISR member lost power since it was written");
            }
        }
        None
    }
}

/// Insert `value` at `key` unless the key is there (the first step is what counts), copying a shared map
/// only when it changes.
fn first_only<V>(map: &mut Arc<BTreeMap<(u32, u32), V>>, key: (u32, u32), value: V)
where
    V: Clone,
{
    if !map.contains_key(&key) {
        Arc::make_mut(map).insert(key, value);
    }
}

/// Step numbers, sorted: the fingerprint hashes a step as its position here, since the rules only compare
/// steps ("an unclean election after the record was written").
pub(crate) struct StepRanks(Vec<u32>);

impl StepRanks {
    pub(crate) fn of(steps: impl Iterator<Item = u32>) -> StepRanks {
        let mut steps: Vec<u32> = steps.collect();
        steps.sort_unstable();
        steps.dedup();
        StepRanks(steps)
    }

    /// The rank of a step among them.
    pub(crate) fn of_step(&self, step: u32) -> u64 {
        self.0.partition_point(|&s| s < step) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(bs: &[BrokerId]) -> BrokerSet {
        let mut s = BrokerSet::EMPTY;
        bs.iter().for_each(|b| s.insert(*b));
        s
    }

    #[test]
    fn a_power_loss_healed_by_a_rejoin_no_longer_voids_the_guarantee() {
        // Written at step 1; A loses power (ISR A B C), re-syncs and rejoins at 5; then B and C lose power.
        let mut h = History::default();
        h.record_power_crash(0, set(&[0, 1, 2]), 3);
        h.record_isr_join(0, 5);
        h.record_power_crash(1, set(&[0, 1, 2]), 7);
        h.record_power_crash(2, set(&[0, 2]), 8);
        assert_eq!(h.loss_by_design(1, true), None, "A rejoined with the record before B and C lost power");
        // Without the rejoin, all three lost power since the write.
        let mut h = History::default();
        h.record_power_crash(0, set(&[0, 1, 2]), 3);
        h.record_power_crash(1, set(&[0, 1, 2]), 7);
        h.record_power_crash(2, set(&[0, 1, 2]), 8);
        assert!(h.loss_by_design(1, true).is_some());
        assert_eq!(h.loss_by_design(1, false), None, "with KIP-966 a power loss alone voids nothing");
        assert_eq!(h.loss_by_design(9, true), None, "a record written after the crashes is covered");
    }
}
