//! E4a + E4b: one Fetch request, answered by the leader and applied on the follower. The leader's answer is
//! decided first (the variant's divergence check, an out-of-range offset, or records), annotated once, and
//! then the response is applied unless it was lost.

use super::super::kraft::PartitionChange;
use super::super::Sim;
use crate::epoch_cache::EpochEnd;
use crate::kafka_error::KafkaError;
use crate::state::{BrokerId, Entry, FetchState};
use crate::trace::{Annotation, FetchAnswer, TruncateCause};
use crate::variant::FollowerDecision;

/// What the exchange did.
pub(crate) struct Exchange {
    /// The fetch offset (the follower's LEO).
    pub(crate) offset: u32,
    /// LastFetchedEpoch, or UNDEFINED when the variant does not send it.
    pub(crate) last_fetched_epoch: i64,
    pub(crate) leader_leo: u32,
    pub(crate) answer: FetchAnswer,
    /// The leader added the follower back to its ISR while serving the request.
    pub(crate) joined: bool,
    pub(crate) response: Response,
}

/// What the follower did with the response.
pub(crate) enum Response {
    /// The response never arrived.
    Lost,
    /// DivergingEpoch: it truncated by the variant's rule.
    Diverged { decision: FollowerDecision, removed: Vec<u32> },
    /// OFFSET_OUT_OF_RANGE before 2.1 with unclean election disabled: the follower halted, and what the
    /// controller then did.
    Halted { reaction: Option<String> },
    /// OFFSET_OUT_OF_RANGE otherwise: it truncated to the leader's LEO.
    OutOfRange { removed: Vec<u32> },
    /// Records (possibly none) and the leader's HW.
    Records { received: Vec<u32>, old_hw: u32, new_hw: u32, validated: bool },
}

pub(super) fn round(sim: &mut Sim<'_>, f: BrokerId, l: BrokerId, dropped: bool) -> Exchange {
    let offset = sim.state.replica(f).leo();
    let last_fetched_epoch = sim.protocol.last_fetched_epoch(&sim.state.replica(f).epoch_cache);
    let leader_leo = sim.state.replica(l).leo();
    let (answer, joined) = leader_answer(sim, f, l, offset, last_fetched_epoch);
    sim.annotate(Annotation::Fetch {
        follower: f,
        leader: l,
        offset,
        last_fetched_epoch,
        answer: answer.clone(),
        dropped,
    });
    let response = if dropped { Response::Lost } else { apply(sim, f, l, &answer, leader_leo) };
    Exchange { offset, last_fetched_epoch, leader_leo, answer, joined, response }
}

/// The leader's side: the variant's divergence check first (which does not record the fetch, KAFKA-13141),
/// then the offset check, then remote LEO, ISR expansion and HW, and the records from the fetch offset on.
fn leader_answer(sim: &mut Sim<'_>, f: BrokerId, l: BrokerId, offset: u32, lfe: i64) -> (FetchAnswer, bool) {
    let lr = sim.state.replica(l);
    if let Some(end) = sim.protocol.diverging_epoch(&lr.epoch_cache, lr.leo(), lfe, offset) {
        // Kafka 2.8.0 still recorded the fetch offset of a diverging fetch (fixed by KAFKA-13141 in 2.8.1).
        let joined = !sim.protocol.rules.kafka_13141 && record_fetch(sim, l, f, offset);
        return (FetchAnswer::DivergingEpoch { end }, joined);
    }
    if offset > lr.leo() {
        return (FetchAnswer::Error { error: KafkaError::OffsetOutOfRange }, false);
    }
    let joined = record_fetch(sim, l, f, offset);
    let lr = sim.state.replica(l);
    let records = lr.log[offset as usize..].iter().map(|e| e.id).collect();
    (FetchAnswer::Records { records, hw: lr.hw }, joined)
}

/// The leader records the follower's fetch offset, lets it back into the ISR if it caught up, and
/// re-evaluates its HW. Returns whether the follower joined the ISR.
fn record_fetch(sim: &mut Sim<'_>, l: BrokerId, f: BrokerId, offset: u32) -> bool {
    sim.state.replicas[l as usize].remote_leo[f as usize] = offset as i32;
    let joined = maybe_expand_isr(sim, l, f, offset);
    sim.maybe_increment_hw(l);
    joined
}

fn apply(sim: &mut Sim<'_>, f: BrokerId, l: BrokerId, answer: &FetchAnswer, leader_leo: u32) -> Response {
    match answer {
        FetchAnswer::DivergingEpoch { end } => diverged(sim, f, *end),
        FetchAnswer::Error { .. } if sim.protocol.halts_on_out_of_range() => {
            sim.lose_memory(f);
            sim.annotate(Annotation::Halted { broker: f });
            Response::Halted { reaction: sim.controller_on_failure(f) }
        }
        FetchAnswer::Error { .. } => {
            Response::OutOfRange { removed: sim.truncate_to(f, leader_leo, TruncateCause::OutOfRange) }
        }
        FetchAnswer::Records { records, hw } => receive(sim, f, l, records, *hw),
    }
}

fn diverged(sim: &mut Sim<'_>, f: BrokerId, end: EpochEnd) -> Response {
    let r = sim.state.replica(f);
    let decision = sim.protocol.follower_decision(end, &r.epoch_cache, r.leo(), r.hw);
    let removed = sim.truncate_to(f, decision.truncate_to, TruncateCause::DivergingEpoch);
    Response::Diverged { decision, removed }
}

/// The follower appends what it got and sets its HW to min(LEO, leader HW).
fn receive(sim: &mut Sim<'_>, f: BrokerId, l: BrokerId, records: &[u32], leader_hw: u32) -> Response {
    let from = sim.state.replica(f).leo() as usize;
    let sent: Vec<Entry> = sim.state.replica(l).log[from..from + records.len()].to_vec();
    sim.append(f, &sent);
    let new_hw = sim.state.replica(f).leo().min(leader_hw);
    let old_hw = sim.state.replica(f).hw;
    sim.set_hw(f, new_hw);
    let validated = sim.state.replica(f).fetch_state == FetchState::Validating;
    sim.state.replicas[f as usize].fetch_state = FetchState::Fetching;
    Response::Records { received: records.to_vec(), old_hw, new_hw, validated }
}

/// `maybeExpandIsr`: the follower rejoins once it reaches the leader's HW (and, with KAFKA-7128, the leader's
/// epoch start offset). The write to the controller succeeds only for the true leader (ZooKeeper CAS). From
/// 3.7 the leader only proposes it, and the controller's answer comes later (model §13.5).
fn maybe_expand_isr(sim: &mut Sim<'_>, l: BrokerId, f: BrokerId, offset: u32) -> bool {
    let lr = sim.state.replica(l);
    let reached_hw = offset >= lr.hw;
    let reached_epoch_start = !sim.protocol.isr_join_needs_epoch_start() || offset >= lr.leader_epoch_start_offset;
    let is_true_leader = sim.state.true_leader() == Some(l);
    if lr.isr.contains(f) || !reached_hw || !reached_epoch_start || !is_true_leader {
        return false;
    }
    if sim.expansion_round_trip() {
        // One AlterPartition in flight at a time (`Partition.canAddReplicaToIsr`: `!isInflight`).
        if !lr.pending_isr.is_empty() {
            return false;
        }
        sim.propose_isr_member(l, f);
        return true;
    }
    let from = lr.isr;
    sim.state.replicas[l as usize].isr.insert(f);
    let to = sim.state.replica(l).isr;
    sim.set_controller_isr(to);
    sim.write_partition(PartitionChange::WithoutLeaderEpoch);
    sim.memory.history.record_isr_join(f, sim.step);
    sim.annotate(Annotation::IsrChanged { from, to, by_leader: Some(l) });
    true
}
