//! `kip-101`: Kafka 0.11.0 to 1.1 (inter-broker protocol 0.11.0-IV2 and later).
//!
//! **Rule.** Records carry the leader epoch and each replica keeps an epoch → start-offset cache
//! (`leader-epoch-checkpoint`). A follower of a new leader enters a truncating state and sends
//! `OffsetsForLeaderEpoch(latest epoch in its cache)`. The leader answers with the start offset of the first
//! epoch larger than the one requested, or its LEO when the request names its latest epoch (v0 carries no
//! epoch). The follower truncates there if that is below its LEO; an UNDEFINED answer falls back to its HW
//! (model §3.5, `endOffsetFor_011` and `ReplicaFetcherThread.maybeTruncate`).
//!
//! **The bug it fixed.** Truncating to a stale HW: KIP-101 scenarios 1 and 2 (model §5.1, §5.2).
//!
//! **The bug it left.** The offset the leader returns may belong to an epoch the follower never had. After
//! fast back-to-back leader changes the follower keeps records of its own epoch at offsets where the leader
//! has others, and the logs diverge (KAFKA-6361, model §5.3; `logsShouldNotDivergeOnUncleanLeaderElections`,
//! model §5.4).
//!
//! **Source.** KIP-101; Kafka 0.11.0.0 `LeaderEpochFileCache.scala` L92 and `ReplicaFetcherThread.scala` L257;
//! TLA+ `Kip101.tla` (`LookupOffsetForEpoch`).

use super::kip_279::FollowerDecision;
use super::{BecomeFollowerRule, EpochLookup};
use crate::epoch_cache::UNDEFINED;

pub(super) const BECOME_FOLLOWER: BecomeFollowerRule = BecomeFollowerRule::AskLeaderEpoch;
pub(super) const LOOKUP: EpochLookup = EpochLookup::StartOfNextEpoch;

/// 0.11 `maybeTruncate`: UNDEFINED → own HW; an offset at or past the LEO → keep; else truncate to it.
pub(super) fn follower_decision(leader_end: i64, leo: u32, hw: u32) -> FollowerDecision {
    if leader_end == UNDEFINED {
        FollowerDecision::new(hw, leo, true, "the leader replied UNDEFINED, so it must use its high watermark")
    } else if leader_end >= i64::from(leo) {
        FollowerDecision::new(leo, leo, true, "the leader's offset is not below its log end")
    } else {
        FollowerDecision::new(leader_end as u32, leo, true, "the leader's offset is where the next epoch starts")
    }
}
