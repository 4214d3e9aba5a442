//! `hw-truncation`: Kafka up to 0.10.2 (or inter-broker protocol below 0.11.0-IV2).
//!
//! **Rule.** A replica that becomes follower of a *different* leader truncates its log to its own high
//! watermark, then fetches from its LEO (`ReplicaManager.makeFollowers` → `logManager.truncateTo(hw)`;
//! model §1 and §3.4 E2). When the leader is unchanged nothing is truncated (`Partition.makeFollower` returns
//! false). A fetch past the leader's end gets OFFSET_OUT_OF_RANGE and truncates to the leader's LEO, or halts
//! the broker when unclean election is disabled (model §3.4 E4b).
//!
//! **The bug.** A follower's HW lags the leader's by at least one fetch round trip, and after a restart it is
//! only as fresh as the last `replication-offset-checkpoint`. Truncating to it can discard committed records;
//! if that follower is then elected, they are lost (KIP-101 scenario 1, model §5.1). After a double power
//! failure the HW can also cover records the new leader never had, and the logs silently diverge (KIP-101
//! scenario 2, model §5.2).
//!
//! **Source.** Kafka 0.10.2.0 `ReplicaManager.scala` L856 and `Partition.scala` L207; KIP-101 "Alter
//! Replication Protocol to use Leader Epoch rather than High Watermark for Truncation"; TLA+
//! `KafkaTruncateToHighWatermark.tla` (hachikuji/kafka-specification), whose comment describes the loss.

use super::BecomeFollowerRule;

pub(super) const BECOME_FOLLOWER: BecomeFollowerRule = BecomeFollowerRule::TruncateToOwnHw;
