//! `LeaderEpochFileCacheTest`: the cache alone. Each Kafka `assign(epoch, startOffset)` is the generation's
//! assign (0.11 `assign_append_only`, 2.1 `assign_replacing`), each `endOffsetFor(e)` the generation's lookup
//! with the test's log end offset, and `clearAndFlushLatest` / `truncateFromEnd` is `truncate_from_end`.

use epochlab_core::epoch_cache::{EpochCache, UNDEFINED};
use epochlab_core::variant::KafkaRelease;

use crate::support::{end, run_at, source};

fn entries(cache: &EpochCache) -> Vec<(i32, u32)> {
    cache.entries().iter().map(|e| (e.epoch, e.start_offset)).collect()
}

/// A cache built with 0.11's `assign` (append-only).
fn assigned_011(assigns: &[(i32, u32)]) -> EpochCache {
    let mut cache = EpochCache::default();
    for &(epoch, offset) in assigns {
        cache.assign_append_only(epoch, offset);
    }
    cache
}

/// A cache built with 2.1's `assign` (KAFKA-7415: replaces conflicting entries).
fn assigned_21(assigns: &[(i32, u32)]) -> EpochCache {
    let mut cache = EpochCache::default();
    for &(epoch, offset) in assigns {
        cache.assign_replacing(epoch, offset);
    }
    cache
}

#[test]
fn a_new_epoch_may_start_at_the_same_offset_in_0_11() {
    source("core/src/test/scala/unit/kafka/server/epoch/LeaderEpochFileCacheTest.scala@0.11.0.0#shouldAllowLeaderEpochToChangeEvenIfOffsetDoesNot");
    assert_eq!(entries(&assigned_011(&[(2, 9), (3, 9)])), [(2, 9), (3, 9)]);
    // 2.1's assign (KAFKA-7415) replaces the entry that starts at the same offset.
    assert_eq!(entries(&assigned_21(&[(2, 9), (3, 9)])), [(3, 9)]);
}

#[test]
fn an_older_epoch_is_ignored_in_0_11() {
    source("core/src/test/scala/unit/kafka/server/epoch/LeaderEpochFileCacheTest.scala@0.11.0.0#shouldNotLetEpochGoBackwardsEvenIfMessageEpochsDo");
    // assign(1, 5), assign(2, 6), then a record of epoch 1 at 7; the log end offset is then 8.
    let cache = assigned_011(&[(1, 5), (2, 6), (1, 7)]);
    assert_eq!(cache.latest_epoch(), 2);
    assert_eq!((cache.end_offset_011(8, 1), cache.end_offset_011(8, 2)), (6, 8));
    assert_eq!(entries(&cache), [(1, 5), (2, 6)]);
    // 2.1's assign truncates the later epoch instead.
    assert_eq!(entries(&assigned_21(&[(1, 5), (2, 6), (1, 7)])), [(1, 7)]);
}

#[test]
fn an_older_epoch_replaces_the_later_ones_in_2_1() {
    source("core/src/test/scala/unit/kafka/server/epoch/LeaderEpochFileCacheTest.scala@2.1.0#shouldEnforceMonotonicallyIncreasingEpochs");
    // The same assigns as 0.11's shouldNotLetEpochGoBackwardsEvenIfMessageEpochsDo; 2.1 truncates instead.
    let cache = assigned_21(&[(1, 5), (2, 6), (1, 7)]);
    assert_eq!(cache.latest_epoch(), 1);
    assert_eq!(cache.end_offset_21(8, 1), end(1, 8));
    assert_eq!(cache.end_offset_21(8, 2), end(UNDEFINED, UNDEFINED));
    assert_eq!(entries(&cache), [(1, 7)]);
    // 0.11's append-only assign ignores the older epoch: the test's assertions fail there.
    assert_eq!(entries(&assigned_011(&[(1, 5), (2, 6), (1, 7)])), [(1, 5), (2, 6)]);
}

#[test]
fn an_earlier_offset_is_ignored_in_0_11() {
    source("core/src/test/scala/unit/kafka/server/epoch/LeaderEpochFileCacheTest.scala@0.11.0.0#shouldNotLetOffsetsGoBackwardsEvenIfEpochsProgress");
    assert_eq!(entries(&assigned_011(&[(2, 6), (3, 5)])), [(2, 6)]);
    // 2.1's assign lets the earlier offset win.
    assert_eq!(entries(&assigned_21(&[(2, 6), (3, 5)])), [(3, 5)]);
}

#[test]
fn an_earlier_offset_wins_in_2_1() {
    source("core/src/test/scala/unit/kafka/server/epoch/LeaderEpochFileCacheTest.scala@2.1.0#shouldEnforceOffsetsIncreaseMonotonically");
    assert_eq!(entries(&assigned_21(&[(2, 6), (3, 5)])), [(3, 5)]);
    // 0.11's append-only assign keeps the first entry.
    assert_eq!(entries(&assigned_011(&[(2, 6), (3, 5)])), [(2, 6)]);
}

#[test]
fn epochs_tracked_as_leaders_change_in_0_11() {
    source("core/src/test/scala/unit/kafka/server/epoch/LeaderEpochFileCacheTest.scala@0.11.0.0#shouldIncreaseAndTrackEpochsAsLeadersChangeManyTimes");
    // Epochs 0 and 1 both start at 0 (a leader change with no record), then five records, epoch 2 at 5, five more.
    let mut cache = assigned_011(&[(0, 0), (1, 0)]);
    assert_eq!(cache.latest_epoch(), 1);
    assert_eq!((cache.end_offset_011(0, 1), cache.end_offset_011(0, 0)), (0, 0));
    assert_eq!((cache.end_offset_011(5, 1), cache.end_offset_011(5, 0)), (5, 0));
    cache.assign_append_only(2, 5);
    assert_eq!((cache.end_offset_011(10, 2), cache.end_offset_011(10, 1), cache.end_offset_011(10, 0)), (10, 5, 0));
    // 2.1's assign(1, 0) drops epoch 0's entry, which 0.11 keeps.
    assert_eq!(
        (entries(&assigned_011(&[(0, 0), (1, 0)])), entries(&assigned_21(&[(0, 0), (1, 0)]))),
        (vec![(0, 0), (1, 0)], vec![(1, 0)])
    );
}

#[test]
fn epochs_tracked_as_leaders_change_in_2_1() {
    source("core/src/test/scala/unit/kafka/server/epoch/LeaderEpochFileCacheTest.scala@2.1.0#shouldIncreaseAndTrackEpochsAsLeadersChangeManyTimes");
    // 2.1's assign(1, 0) drops epoch 0's entry (same start offset); the floor still answers epoch 0 with (0, 0).
    let mut cache = assigned_21(&[(0, 0), (1, 0)]);
    assert_eq!(cache.latest_epoch(), 1);
    assert_eq!((cache.end_offset_21(0, 1), cache.end_offset_21(0, 0)), (end(1, 0), end(0, 0)));
    assert_eq!((cache.end_offset_21(5, 1), cache.end_offset_21(5, 0)), (end(1, 5), end(0, 0)));
    cache.assign_replacing(2, 5);
    assert_eq!(cache.end_offset_21(10, 2), end(2, 10));
    assert_eq!((cache.end_offset_21(10, 1), cache.end_offset_21(10, 0)), (end(1, 5), end(0, 0)));
    // Before KAFKA-7415 (0.11's lookup) an epoch below the first entry has no floor, and the answer no epoch.
    let old = assigned_011(&[(0, 0), (1, 0)]);
    assert_eq!(entries(&old), [(0, 0), (1, 0)], "0.11 keeps epoch 0's entry");
    let v011 = KafkaRelease::V0_11_0.protocol().leader_end_offset(&old, 5, 0);
    assert_eq!(v011, end(-1, 0));
}

#[test]
fn epochs_tracked_as_a_follower_receives_records() {
    source("core/src/test/scala/unit/kafka/server/epoch/LeaderEpochFileCacheTest.scala@2.1.0#shouldIncreaseAndTrackEpochsAsFollowerReceivesManyMessages");
    // One assign per record, three records per epoch: only each epoch's first record makes an entry.
    let mut cache = EpochCache::default();
    for (epoch, first) in [(0, 0u32), (1, 3), (2, 6)] {
        for offset in first..first + 3 {
            cache.assign_replacing(epoch, offset);
        }
        assert_eq!(cache.latest_epoch(), i64::from(epoch));
        assert_eq!(cache.end_offset_21(first + 3, i64::from(epoch)), end(i64::from(epoch), i64::from(first + 3)));
    }
    assert_eq!((cache.end_offset_21(9, 0), cache.end_offset_21(9, 1)), (end(0, 3), end(1, 6)));
    assert_eq!(entries(&cache), [(0, 0), (1, 3), (2, 6)]);
    // Leaders answer with the epoch from 2.0 (KIP-279): 0.11's answer to the same lookup names none.
    let answer = |line: KafkaRelease| line.protocol().leader_end_offset(&cache, 9, 0);
    assert_eq!((answer(KafkaRelease::V2_1), answer(KafkaRelease::V0_11_0)), (end(0, 3), end(-1, 3)));
}

#[test]
fn truncating_between_epoch_boundaries_keeps_the_epoch_it_falls_in() {
    source("core/src/test/scala/unit/kafka/server/epoch/LeaderEpochFileCacheTest.scala@0.11.0.0#shouldDropEntriesBetweenEpochBoundaryWhenRemovingNewest");
    let mut cache = assigned_011(&[(2, 6), (3, 8), (4, 11)]);
    cache.truncate_from_end(9);
    assert_eq!(cache.latest_epoch(), 3);
    assert_eq!(entries(&cache), [(2, 6), (3, 8)]);
    // The same cut on a broker: A's log recovery after a power loss inside epoch 1 (offset 2) keeps epoch 1.
    // Before KIP-101 (0.10.2) there is no cache to cut.
    let cut = |release: &str| cache_after_power_loss(&run_at(release, LOSES_THE_TAIL_OF_EPOCH_1));
    assert_eq!((cut("0.11"), cut("0.10.2")), (vec![(0, 0), (1, 1)], vec![]));
}

/// A leads epochs 0, 1 and 2 alone (m0; m1, m2; m3), flushes after m1 and loses power: its log ends at 2.
const LOSES_THE_TAIL_OF_EPOCH_1: &str = "brokers: A\nflush: manual
0: elect A
1: produce m0 acks=1
2: elect A
3: produce m1 acks=1
4: flush A
5: produce m2 acks=1
6: elect A
7: produce m3 acks=1
8: crash A power
9: restart A
";

fn cache_after_power_loss(t: &epochlab_core::Trace) -> Vec<(i32, u32)> {
    assert_eq!(crate::support::labels(t, 9, "A"), ["m0", "m1"]);
    crate::support::cache(t, 9, "A")
}
