//! `diverging-epoch`: Kafka 2.8+ (inter-broker protocol 2.7-IV1 and later), the scheme KRaft also uses.
//!
//! **Rule.** There is no separate truncation round trip. Every Fetch carries `LastFetchedEpoch` (the latest
//! epoch in the follower's cache). The leader looks it up (2.1 semantics); if its epoch for that is older, or
//! its end offset is below the fetch offset, it answers `DivergingEpoch{epoch, endOffset}` with no records and
//! without recording the fetch (KAFKA-13141). The follower applies the KIP-279 rule and fetches again with its
//! new last epoch. Truncation counts as finished once a Fetch response reports no divergence. All four 2.1
//! flags are implied. Model §3.4 E4a step 3, §9.
//!
//! **The bug it fixed.** None new: it folds the 2.1 guarantees into Fetch, saving a round trip per leader
//! change and the window between truncating and fetching.
//!
//! **Source.** KAFKA-10487 (leader side, 2.7), KAFKA-10554 (follower side, 2.8); trunk
//! `Partition.readRecords` L1517 and `AbstractFetcherThread` L341; KRaft `ReplicatedLog.truncateToEndOffset`.

use super::{BecomeFollowerRule, Flag};
use crate::epoch_cache::{EpochCache, EpochEnd, UNDEFINED};

pub(super) const BECOME_FOLLOWER: BecomeFollowerRule = BecomeFollowerRule::FetchWithLastFetchedEpoch;
pub(super) const IMPLIED_FLAGS: &[Flag] = &[Flag::Kafka7415, Flag::Kafka7128, Flag::Kafka7164, Flag::Kip320];

/// The leader's check of a Fetch's LastFetchedEpoch (trunk `Partition.readRecords`): the end of that epoch
/// on the leader (2.1 lookup) when the follower's log diverges from the leader's there: the leader's epoch
/// for it is older, or ends before the fetch offset.
pub(super) fn diverging(cache: &EpochCache, leader_leo: u32, last_fetched_epoch: i64, offset: u32) -> Option<EpochEnd> {
    if last_fetched_epoch == UNDEFINED {
        return None;
    }
    let end = cache.end_offset_21(leader_leo, last_fetched_epoch);
    (end.epoch < last_fetched_epoch || end.offset < i64::from(offset)).then_some(end)
}
