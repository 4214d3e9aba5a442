//! The leader's side of one partition: `PartitionTest` before KRaft (case file `partition.rs`).

use super::Case;

/// The partition leader's cases.
pub(super) const CASES: &[Case] = &[
    Case {
        citation: "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.1.0#testMakeLeaderUpdatesEpochCache",
        test: "partition::becoming_leader_caches_the_new_epoch_at_the_log_end",
        holds_under: "2.1",
        fails_under: "kip-279 (2.0): the cache ends at the old epoch, UNDEFINED",
        part: None,
    },
    Case {
        citation: "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.1.0#testMakeFollowerWithNoLeaderIdChange",
        test: "partition::an_epoch_change_with_the_same_leader_runs_the_become_follower_steps",
        holds_under: "2.1",
        fails_under: "kip-279 (2.0, before KAFKA-7164): the follower keeps fetching",
        part: Some("the \"epoch + 1 → true\" half; the same-epoch half has no event"),
    },
    Case {
        citation: "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.1.0#testFollowerDoesNotJoinISRUntilCaughtUpToOffsetWithinCurrentLeaderEpoch",
        test: "partition::a_follower_joins_the_isr_only_from_the_current_epochs_start",
        holds_under: "2.1",
        fails_under: "kip-279 (2.0, before KAFKA-7128): it joins below the epoch start",
        part: None,
    },
    Case {
        citation: "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.4.0#testFollowerDoesNotJoinISRUntilCaughtUpToOffsetWithinCurrentLeaderEpoch",
        test: "partition::a_follower_at_the_high_watermark_waits_for_the_epoch_start",
        holds_under: "2.4",
        fails_under: "2.0.0 (before KAFKA-7128): it joins at the HW, below the epoch start",
        part: None,
    },
    Case {
        citation: "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.4.0#testMaybeShrinkIsr",
        test: "partition::shrinking_away_a_follower_that_never_fetched_advances_the_high_watermark",
        holds_under: "2.4",
        fails_under: "3.7 with min.insync.replicas 2 (KAFKA-15583): the HW stays",
        part: Some("the shrink once the lag expired; not the time-based \"not shrunk at first\" half"),
    },
    Case {
        citation: "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.4.0#testShouldNotShrinkIsrIfFollowerCaughtUpToLogEnd",
        test: "partition::a_follower_caught_up_to_the_log_end_is_not_shrunk",
        holds_under: "2.4, and every release",
        fails_under: "no release; contrast: one record behind, the shrink goes through",
        part: None,
    },
    Case {
        citation: "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@3.7.0#testHighWatermarkAdvanceShouldNotAdvanceWhenUnderMinISR",
        test: "partition::the_high_watermark_does_not_advance_under_min_isr",
        holds_under: "3.7",
        fails_under: "3.6 (before KAFKA-15583): the HW advances under min ISR",
        part: None,
    },
];
