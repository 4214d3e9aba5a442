//! E5: one OffsetsForLeaderEpoch round. The follower asks where its latest epoch ends on the leader and
//! truncates by its variant's rule (model §3.5); it either starts fetching or asks again.

use super::super::Sim;
use crate::epoch_cache::EpochEnd;
use crate::state::{BrokerId, FetchState};
use crate::trace::{Annotation, TruncateCause};
use crate::variant::FollowerDecision;

/// What the round did.
pub(crate) struct Truncation {
    /// The epoch asked about (the follower's latest).
    pub(crate) epoch: i64,
    pub(crate) answer: EpochEnd,
    /// The answer arrived and was acted on (`None`: the response was lost).
    pub(crate) applied: Option<Applied>,
}

/// The follower's reaction to the answer.
pub(crate) struct Applied {
    pub(crate) decision: FollowerDecision,
    pub(crate) removed: Vec<u32>,
    /// The epoch it asks about next, when it is not done (KIP-279's iteration).
    pub(crate) asks_next: Option<i64>,
}

pub(super) fn round(sim: &mut Sim<'_>, f: BrokerId, l: BrokerId, dropped: bool) -> Truncation {
    let epoch = sim.state.replica(f).epoch_cache.latest_epoch();
    let lr = sim.state.replica(l);
    let answer = sim.protocol.leader_end_offset(&lr.epoch_cache, lr.leo(), epoch);
    sim.annotate(Annotation::OffsetsForLeaderEpoch { follower: f, leader: l, epoch, answer: Ok(answer), dropped });
    if dropped {
        return Truncation { epoch, answer, applied: None };
    }
    let r = sim.state.replica(f);
    let decision = sim.protocol.follower_decision(answer, &r.epoch_cache, r.leo(), r.hw);
    let removed = sim.truncate_to(f, decision.truncate_to, TruncateCause::LeaderEpoch);
    let r = &mut sim.state.replicas[f as usize];
    let asks_next = if decision.done {
        r.fetch_state = FetchState::Fetching;
        None
    } else {
        Some(r.epoch_cache.latest_epoch())
    };
    Truncation { epoch, answer, applied: Some(Applied { decision, removed, asks_next }) }
}
