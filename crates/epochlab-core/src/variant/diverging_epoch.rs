//! `diverging-epoch`: Kafka 2.8+ (inter-broker protocol 2.7-IV1 and later), the scheme KRaft also uses.
//!
//! **Rule.** There is no separate truncation round trip. Every Fetch carries `LastFetchedEpoch` (the latest
//! epoch in the follower's cache). The leader looks it up (2.1 semantics); if its epoch for that is older, or
//! its end offset is below the fetch offset, it answers `DivergingEpoch{epoch, endOffset}` with no records and
//! without recording the fetch (KAFKA-13141). The follower applies the KIP-279 rule and fetches again with its
//! new last epoch. Truncation counts as finished once a Fetch response reports no divergence. All four 2.1
//! flags are implied. Spec §3.4 E4a step 3, §9.
//!
//! **The bug it fixed.** None new: it folds the 2.1 guarantees into Fetch, saving a round trip per leader
//! change and the window between truncating and fetching.
//!
//! **Source.** KAFKA-10487 (leader side, 2.7), KAFKA-10554 (follower side, 2.8); trunk
//! `Partition.readRecords` L1517 and `AbstractFetcherThread` L341; KRaft `ReplicatedLog.truncateToEndOffset`.

use super::{BecomeFollowerRule, Flag};

pub(super) const BECOME_FOLLOWER: BecomeFollowerRule = BecomeFollowerRule::FetchWithLastFetchedEpoch;
pub(super) const IMPLIED_FLAGS: &[Flag] = &[Flag::Kafka7415, Flag::Kafka7128, Flag::Kafka7164, Flag::Kip320];
