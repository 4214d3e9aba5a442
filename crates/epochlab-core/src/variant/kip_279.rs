//! `kip-279`: Kafka 2.0 (OffsetsForLeaderEpoch v1).
//!
//! **Rule.** The leader answers with the largest epoch E it has that is <= the requested one, and the end
//! offset of E. If the follower also has E, it truncates to min(leader's end, its own end of E, LEO) and is
//! done. If it does not, it truncates to the end of its own largest epoch below E and asks again with its new
//! latest epoch; the exchange repeats until the follower recognises the epoch ("2 roundtrips is required
//! starting at 3 consecutive fast leader failovers"). Model §3.5 `endOffsetFor_20` and `followerTruncate`.
//!
//! **The bug it fixed.** KAFKA-6361: divergence after fast leader fail-over under KIP-101 (model §5.3, §5.4).
//!
//! **What 2.0 still lacked.** A brand-new leader has no cache entry for its own epoch until it writes
//! (KAFKA-7415), a follower may join the ISR against a stale HW (KAFKA-7128), a follower does not re-truncate
//! when only the epoch changes (KAFKA-7164), and stale fetchers are not fenced (KIP-320). See `kafka_2_1`.
//!
//! **Source.** KIP-279; Kafka 2.0.0 `AbstractFetcherThread.getOffsetTruncationState` L321 and
//! `LeaderEpochFileCache` L98; TLA+ `Kip279.tla` (`FirstNonMatchingOffsetFromTail`, the idealised outcome).

use super::{BecomeFollowerRule, EpochLookup};
use crate::epoch_cache::{EpochCache, EpochEnd, UNDEFINED};

pub(super) const BECOME_FOLLOWER: BecomeFollowerRule = BecomeFollowerRule::AskLeaderEpoch;
pub(super) const LOOKUP: EpochLookup = EpochLookup::LargestEpochAtMost;

/// Where a follower truncates after an epoch answer, and whether it is done reconciling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FollowerDecision {
    /// The offset to truncate to (equal to the LEO when nothing is truncated).
    pub truncate_to: u32,
    /// Whether anything is truncated.
    pub truncates: bool,
    /// Whether the follower may start fetching (false: ask again).
    pub done: bool,
    /// The rule that applied, in plain words.
    pub why: &'static str,
}

impl FollowerDecision {
    pub(super) fn new(target: u32, leo: u32, done: bool, why: &'static str) -> FollowerDecision {
        let truncate_to = target.min(leo);
        FollowerDecision { truncate_to, truncates: truncate_to < leo, done, why }
    }
}

/// `followerTruncate(E, leaderEnd)` of model §3.5 (2.0 lookups, or 2.1's with `cache_21`).
pub(super) fn follower_decision(
    answer: EpochEnd,
    cache: &EpochCache,
    leo: u32,
    hw: u32,
    cache_21: bool,
) -> FollowerDecision {
    let clamp = |x: i64| x.clamp(0, i64::from(u32::MAX)) as u32;
    if answer.offset == UNDEFINED {
        return FollowerDecision::new(
            hw,
            leo,
            true,
            "the leader has no end offset for that epoch, so it must use its high watermark",
        );
    }
    if answer.epoch == UNDEFINED {
        return FollowerDecision::new(clamp(answer.offset), leo, true, "the leader's answer carries no epoch");
    }
    let own = if cache_21 { cache.end_offset_21(leo, answer.epoch) } else { cache.end_offset_20(leo, answer.epoch) };
    if own.offset == UNDEFINED {
        FollowerDecision::new(
            clamp(answer.offset),
            leo,
            true,
            "it does not track epochs that old, so it takes the leader's end offset",
        )
    } else if own.epoch != answer.epoch {
        FollowerDecision::new(
            clamp(own.offset),
            leo,
            false,
            "it never had the leader's epoch, so it cuts back to the end of its own largest earlier epoch",
        )
    } else {
        FollowerDecision::new(
            clamp(own.offset.min(answer.offset)),
            leo,
            true,
            "both know that epoch, so it keeps the shorter of the two ends of it",
        )
    }
}
