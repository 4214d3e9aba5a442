//! What a search state is (model §11.1): the checker's own canonical projection of (state, memory), so that
//! two nodes it merges have the same future: the same events apply from both, each transition adds the same
//! first goal violation, and the successors are merged again (`faithful.rs` tests exactly that against an
//! exact search). The scenario fingerprint (`crate::fingerprint`, pinned for traces) hashes more; the search
//! hashes only this. Each part left out or renamed says why below; model §11.1 has the table.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::engine::Memory;
use crate::epoch_cache::EpochEntry;
use crate::invariants::{InvariantId, Key, StepRanks};
use crate::state::{Controller, Replica, Role, State};

/// Feed a node's projection to `h`.
pub(crate) fn hash_node<H: Hasher>(state: &State, memory: &Memory, h: &mut H) {
    hash_state(state, h);
    memory.records.len().hash(h);
    // Without unclean elections and power crashes, write steps are compared with nothing.
    let by_design = memory.history.by_design_steps().next().is_some();
    let steps = memory.records.iter().map(|r| r.step).chain(memory.history.by_design_steps());
    let ranks = StepRanks::of(steps.filter(|_| by_design));
    if by_design {
        memory.records.iter().for_each(|r| ranks.of_step(r.step).hash(h));
    }
    memory.pending_acks.hash(h);
    memory.history.hash_verdicts(h, &ranks);
    let current = memory.known.keys().filter(|key| can_recur(key, state.controller.leader_epoch));
    current.for_each(|key| key.hash(h));
}

/// Whether a violation with this identity can be reported again. O1's and L1's identities name the
/// controller's epoch at the time (the true leader's, or the controller's own), which only grows: one of an
/// older epoch can never recur, so it no longer decides anything. The others name records, offsets, brokers.
fn can_recur(key: &Key, controller_epoch: i32) -> bool {
    !matches!(key.0, InvariantId::O1 | InvariantId::L1) || key.2 == i64::from(controller_epoch)
}

/// The replicas' and the controller's part.
pub(crate) fn hash_state<H: Hasher>(state: &State, h: &mut H) {
    let epochs = Epochs::of(state);
    hash_controller(&state.controller, state, h);
    for r in &state.replicas {
        hash_replica(r, &epochs, h);
    }
}

/// Leader epochs up to an order-preserving renaming that keeps the controller's epoch: the rules only
/// compare epochs (and UNDEFINED, -1, below them all), a new election takes the next after the controller's,
/// and the epoch bound reads the controller's. So the epochs a state holds are packed just below the
/// controller's: `{0, 2}` under controller epoch 3 is `{1, 2}`. (Epochs past 63, which no bound allows, are
/// left as they are: naming them as they are is faithful too.)
struct Epochs {
    controller: i32,
    /// Bit e: some replica holds epoch e (known, in its log or in its cache).
    held: u64,
    renamed: bool,
}

impl Epochs {
    fn of(state: &State) -> Epochs {
        let mut held = 0u64;
        let mut renamed = (0..64).contains(&state.controller.leader_epoch);
        let mut hold = |e: i32| match e {
            0..=63 => held |= 1 << e,
            64.. => renamed = false,
            _ => {}
        };
        for r in &state.replicas {
            hold(r.known_epoch);
            r.log.iter().for_each(|e| hold(e.epoch));
            live_cache(r).iter().for_each(|e| hold(e.epoch));
        }
        Epochs { controller: state.controller.leader_epoch, held, renamed }
    }

    /// The canonical name of epoch `e` (every epoch a replica holds is at most the controller's).
    fn map(&self, e: i32) -> i32 {
        if !self.renamed || e < 0 || e >= self.controller {
            return e;
        }
        let above = (self.held >> (e + 1)).count_ones() as i32;
        let controller_held = (self.held >> self.controller) & 1;
        self.controller - above + controller_held as i32 - 1
    }
}

fn hash_controller<H: Hasher>(c: &Controller, state: &State, h: &mut H) {
    debug_assert!(
        c.outbox.iter().zip(&state.replicas).all(|(sent, r)| sent.is_none() || !r.up),
        "only a broker that is down has a LeaderAndIsr waiting: {c:?}"
    );
    // The partition epoch is only counted and shown: no rule reads it.
    (c.leader, c.leader_epoch, c.isr, c.live, c.elr, c.unclean_shutdowns, c.last_known_elr).hash(h);
}

/// The epoch cache entries that can still be read: a broker that is down has its cache read by nobody, and
/// `restart` drops the entries at or past its LEO before anything does (a leader's entry for an epoch in
/// which it wrote nothing, left after its log was cut).
fn live_cache(r: &Replica) -> &[EpochEntry] {
    let all = r.epoch_cache.entries();
    if r.up {
        return all;
    }
    &all[..all.partition_point(|e| e.start_offset < r.leo())]
}

fn hash_replica<H: Hasher>(r: &Replica, epochs: &Epochs, h: &mut H) {
    (r.up, r.zombie, r.hw, r.hw_checkpoint, r.flushed).hash(h);
    r.log.len().hash(h);
    r.log.iter().for_each(|e| (e.id, epochs.map(e.epoch)).hash(h));
    let cache = live_cache(r);
    cache.len().hash(h);
    cache.iter().for_each(|e| (epochs.map(e.epoch), e.start_offset).hash(h));
    (epochs.map(r.known_epoch), r.known_leader, r.role, r.fetch_state, r.isr).hash(h);
    if r.role == Role::Leader {
        // A follower joins the ISR at a fetch offset of at least the HW and the epoch start offset; the
        // HW only rises while it leads, so a start offset at or below it decides nothing more.
        r.leader_epoch_start_offset.max(r.hw).hash(h);
        // A proposed member (3.7's pending ISR) holds the HW back like a committed one.
        r.pending_isr.hash(h);
        for f in r.maximal_isr().iter() {
            follower_leo(r.remote_leo[usize::from(f)], r.hw, r.leo()).hash(h);
        }
    }
}

/// A leader's record of an ISR member's LEO, by what it decides: the HW rises to the smallest over the ISR
/// (a value at or below the HW never raises it, now or later, since the HW only rises), and the leader may
/// drop a member from its ISR only while it lags its LEO. So a value at or below the HW counts only as
/// caught up (at the LEO) or not; the LEO itself only grows while it leads.
fn follower_leo(remote: i32, hw: u32, leo: u32) -> i32 {
    match remote {
        r if r > hw as i32 => r,
        r if r >= leo as i32 => leo as i32,
        _ => -1,
    }
}

/// Drop from `memory` what no invariant of `goal` will read: the violations (and their identities) of the
/// other invariants, which only decide whether those are reported again, and the highest exposed HW when O1
/// is not looked for.
pub(crate) fn forget_unwatched(memory: &mut Memory, goal: &[InvariantId]) {
    if !goal.contains(&InvariantId::O1) {
        memory.history.forget_hw_peak();
    }
    if goal.contains(&InvariantId::I1) {
        memory.history.forget_covered_by_commits();
    }
    if memory.violations.iter().all(|v| goal.contains(&v.invariant)) {
        return;
    }
    let mut renumbered = vec![None; memory.violations.len()];
    let mut kept = Vec::new();
    for (index, v) in memory.violations.iter().enumerate() {
        if goal.contains(&v.invariant) {
            renumbered[index] = Some(kept.len() as u16);
            kept.push(v.clone());
        }
    }
    memory.violations = Arc::new(kept);
    Arc::make_mut(&mut memory.known).retain(|_, index| match renumbered.get(usize::from(*index)).copied().flatten() {
        Some(now) => {
            *index = now;
            true
        }
        None => false,
    });
}
