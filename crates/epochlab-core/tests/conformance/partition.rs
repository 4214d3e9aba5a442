//! `PartitionTest`: the leader's side of one partition: its epoch cache on becoming leader, the become-follower
//! decision, ISR expansion and shrink, and the HW. Kafka seeds logs and calls `makeLeader`, `makeFollower`,
//! `updateFollowerFetchState` and `maybeShrinkIsr` directly; here they are elections, `fetch` (the follower's
//! fetch offset is its LEO) and `shrink_isr` (which stands for `replica.lag.time.max.ms` expiring).

use epochlab_core::state::FetchState;
use epochlab_core::Variant;

use crate::support::{at, end, isr, leader_isr, list, rejected, replica, run_at, run_text_as, source};

#[test]
fn becoming_leader_caches_the_new_epoch_at_the_log_end() {
    source("core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.1.0#testMakeLeaderUpdatesEpochCache");
    // Records of two epochs, then A leads a third without writing: lastOffsetForLeaderEpoch(that epoch) is
    // (epoch, LEO 4), because 2.1 caches (epoch, LEO) in makeLeader.
    let text = "brokers: A B
0: elect A
1: produce k1 acks=1
2: produce k2 acks=1
3: elect A
4: produce k3 acks=1
5: produce k4 acks=1
6: elect A
";
    let t = run_at("2.1", text);
    let a = replica(&t, 6, "A");
    assert_eq!((a.known_epoch, a.leo()), (2, 4));
    assert_eq!(a.epoch_cache.entries().last().map(|e| (e.epoch, e.start_offset)), Some((2, 4)));
    assert_eq!(a.epoch_cache.end_offset_21(a.leo(), 2), end(2, 4));
    // In 2.0 the cache ends at epoch 1 and the same lookup is UNDEFINED.
    let old = run_text_as(text, Variant::Kip279);
    let a = replica(&old, 6, "A");
    assert_eq!(a.epoch_cache.end_offset_20(a.leo(), 2), end(-1, -1));
}

/// A leads B and C; C dies and the controller removes it from the ISR: a new epoch, the same leader.
const EPOCH_ONLY_CHANGE: &str = "brokers: A B C\n0: elect A\n1: produce m0\n2: settle\n3: crash C\n";

#[test]
fn an_epoch_change_with_the_same_leader_runs_the_become_follower_steps() {
    source("core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.1.0#testMakeFollowerWithNoLeaderIdChange");
    // makeFollower with the same leader and a higher epoch returns true (KAFKA-7164): B truncates again.
    let t = run_at("2.1", EPOCH_ONLY_CHANGE);
    let b = replica(&t, 3, "B");
    assert_eq!((b.known_epoch, b.known_leader), (1, Some(0)));
    assert_eq!(b.fetch_state, FetchState::Truncating);
    // 2.0's makeFollower returned false when the leader id was unchanged: B keeps fetching.
    assert_eq!(replica(&run_text_as(EPOCH_ONLY_CHANGE, Variant::Kip279), 3, "B").fetch_state, FetchState::Fetching);
}

/// F1 is out of the ISR {L, F2}. F1 copies k1, k2; L writes k3..k5, becomes follower and leader again (epoch 2,
/// which starts at offset 5) and writes k6, k7; then F1 fetches at 2, above the HW 2 but below 5, and at 7.
const EPOCH_START: &str = "brokers: L F1 F2
0: elect L
1: shrink_isr F1
2: produce k1 acks=1
3: produce k2 acks=1
4: fetch F2
5: fetch F2
6: fetch F1
7: produce k3 acks=1
8: produce k4 acks=1
9: produce k5 acks=1
10: elect F2 deliver=L
11: elect L
12: produce k6 acks=1
13: produce k7 acks=1
14: fetch F1          # the truncation round of the new epoch
15: fetch F1          # fetch offset 2
16: fetch F1          # fetch offset 7
";

#[test]
fn a_follower_joins_the_isr_only_from_the_current_epochs_start() {
    source("core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.1.0#testFollowerDoesNotJoinISRUntilCaughtUpToOffsetWithinCurrentLeaderEpoch");
    let t = run_at("2.1", EPOCH_START);
    assert_eq!((replica(&t, 5, "L").hw, isr(&t, 6)), (2, list(&["L", "F2"])));
    assert_eq!((replica(&t, 11, "L").leader_epoch_start_offset, replica(&t, 11, "L").hw), (5, 2));
    assert_eq!(replica(&t, 15, "L").remote_leo[1], 2);
    assert_eq!((isr(&t, 15), leader_isr(&t, 15, "L")), (list(&["L", "F2"]), list(&["L", "F2"])));
    assert_eq!(isr(&t, 16), ["L", "F1", "F2"]);
    // Without KAFKA-7128 (2.0) F1 joins at its first fetch of the new epoch, at offset 2.
    let old = run_text_as(EPOCH_START, Variant::Kip279);
    assert_eq!(isr(&old, 14), ["L", "F1", "F2"]);
}

#[test]
fn a_follower_rejoins_the_isr_once_it_reaches_the_high_watermark() {
    source("core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.4.0#testIsrExpansion");
    // The ISR is the leader alone (HW 3); B's fetch at 0 records its LEO but does not expand the ISR; its fetch
    // at 3 brings it back.
    let t = run_at(
        "2.4",
        "brokers: A B\n0: elect A\n1: shrink_isr B\n2: produce m0 acks=1\n3: produce m1 acks=1\n4: produce m2 acks=1\n5: fetch B\n6: fetch B\n",
    );
    assert_eq!((isr(&t, 4), replica(&t, 4, "A").hw), (list(&["A"]), 3));
    assert_eq!((isr(&t, 5), replica(&t, 5, "A").remote_leo[1]), (list(&["A"]), 0));
    assert_eq!(
        (isr(&t, 6), leader_isr(&t, 6, "A"), replica(&t, 6, "A").remote_leo[1]),
        (list(&["A", "B"]), list(&["A", "B"]), 3)
    );
}

#[test]
fn shrinking_away_a_follower_that_never_fetched_advances_the_high_watermark() {
    source("core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.4.0#testMaybeShrinkIsr");
    // Ten seeded records there, three here: the HW waits for B (unknown LEO) until B leaves the ISR.
    let t = run_at(
        "2.4",
        "brokers: A B\n0: elect A\n1: produce m0 acks=1\n2: produce m1 acks=1\n3: produce m2 acks=1\n4: shrink_isr B\n",
    );
    assert_eq!((isr(&t, 3), replica(&t, 3, "A").hw), (list(&["A", "B"]), 0));
    assert_eq!((isr(&t, 4), replica(&t, 4, "A").hw), (list(&["A"]), 3));
}

#[test]
fn a_follower_caught_up_to_the_log_end_is_not_shrunk() {
    source("core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.4.0#testShouldNotShrinkIsrIfFollowerCaughtUpToLogEnd");
    let t = run_at(
        "2.4",
        "brokers: A B\n0: elect A\n1: produce m0 acks=1\n2: produce m1 acks=1\n3: produce m2 acks=1\n4: fetch B\n5: fetch B\n6: shrink_isr B\n",
    );
    assert_eq!((replica(&t, 5, "A").hw, replica(&t, 5, "A").remote_leo[1]), (3, 3));
    assert_eq!(rejected(&t, 6), Some("REPLICA_CAUGHT_UP"));
    assert_eq!(isr(&t, 6), ["A", "B"]);
}

#[test]
fn the_high_watermark_does_not_advance_under_min_isr() {
    source("core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@3.7.0#testHighWatermarkAdvanceShouldNotAdvanceWhenUnderMinISR");
    // KAFKA-15583: min.insync.replicas 3, ISR {A, B}. B reaches the leader's LEO: the HW stays 0. C catches up and
    // rejoins (Kafka: once its AlterPartition completes): the HW moves to the LEO.
    let t = run_at(
        "3.7",
        "brokers: A B C\nmin_insync_replicas: 3
0: elect A
1: shrink_isr C
2: produce m0 acks=1
3: produce m1 acks=1
4: fetch B
5: fetch B
6: fetch C
7: fetch C
",
    );
    assert_eq!((isr(&t, 5), replica(&t, 5, "A").remote_leo[1]), (list(&["A", "B"]), 2));
    assert_eq!(replica(&t, 5, "A").hw, 0, "under min ISR");
    assert_eq!(isr(&t, 7), ["A", "B", "C"]);
    assert_eq!(replica(&t, 7, "A").hw, 2);
    assert_eq!(at(&t, 7).controller.leader, Some(0));
}
