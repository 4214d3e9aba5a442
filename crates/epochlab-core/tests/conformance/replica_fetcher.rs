//! `ReplicaFetcherThreadTest`: a follower's fetcher and its OffsetsForLeaderEpoch exchange. Kafka mocks the
//! follower's cache and the leader's answer; here both come from real logs built by elections delivered to
//! one broker at a time (`elect X deliver=X`), which is how a stale leader writes records the next leader lacks.
//! One `doWork()` is one `fetch`; the model sends the Fetch that follows a finished truncation in the next step.

use epochlab_core::invariants::InvariantId;
use epochlab_core::state::FetchState;
use epochlab_core::trace::TruncateCause;

use crate::support::{bugs, end, epoch_requests, fetches, labels, logs_match, replica, run_at, source, truncations};

/// The follower B restarts, so its fetcher starts in the truncation phase with a non-empty cache; then three
/// fetcher iterations, with a record written between them.
const FIRST_FETCH: &str = "brokers: A B
0: elect A
1: produce m0
2: settle
3: crash B
4: restart B          # follower of A in epoch 1, truncating
5: fetch B
6: produce m1 acks=1
7: fetch B
8: fetch B
";

/// Counts the OffsetsForLeaderEpoch and Fetch round trips of steps 5, 7 and 8 of [`FIRST_FETCH`].
fn first_fetch_counts(release: &str) -> (Vec<usize>, Vec<usize>) {
    let t = run_at(release, FIRST_FETCH);
    let steps = [5, 7, 8];
    (steps.iter().map(|&s| epoch_requests(&t, s).len()).collect(), steps.iter().map(|&s| fetches(&t, s)).collect())
}

#[test]
fn the_leader_epoch_is_asked_on_the_first_fetch_only() {
    source("core/src/test/scala/unit/kafka/server/ReplicaFetcherThreadTest.scala@0.11.0.0#shouldFetchLeaderEpochOnFirstFetchOnly");
    // Partial: the epoch-request count (Kafka's epochFetchCount stays 1 over three loops). Kafka's fetchCount is
    // 1, 2, 3: its loop truncates and fetches at once, while here the fetch after a truncation is the next step.
    assert_eq!(first_fetch_counts("0.11"), (vec![1, 0, 0], vec![0, 1, 1]));
    // 0.10.2 has no OffsetsForLeaderEpoch: nothing to count.
    assert_eq!(first_fetch_counts("0.10.2").0, [0, 0, 0]);
}

#[test]
fn the_leader_epoch_is_asked_once_when_both_know_it() {
    source("core/src/test/scala/unit/kafka/server/ReplicaFetcherThreadTest.scala@2.0.0#shouldFetchLeaderEpochOnFirstFetchOnlyIfLeaderEpochKnownToBoth");
    // Partial: the epoch-request count, as in the 0.11 case (the fetch count is shifted the same way). The
    // leader answers with the follower's own latest epoch (0): one round is final.
    assert_eq!(first_fetch_counts("2.0.0"), (vec![1, 0, 0], vec![0, 1, 1]));
    let answer = |release: &str| epoch_requests(&run_at(release, FIRST_FETCH), 5)[0].1;
    assert_eq!(answer("2.0.0"), end(0, 1), "OffsetsForLeaderEpoch v1 names the epoch both know");
    // 0.11's v0 answer names no epoch, so "known to both" cannot be told.
    assert_eq!(answer("0.11"), end(-1, 1));
}

#[test]
fn the_partition_leaves_the_truncating_state_after_one_round() {
    source("core/src/test/scala/unit/kafka/server/ReplicaFetcherThreadTest.scala@0.11.0.0#shouldMovePartitionsOutOfTruncatingLogState");
    let t = run_at("0.11", FIRST_FETCH);
    assert_eq!(replica(&t, 4, "B").fetch_state, FetchState::Truncating);
    assert_eq!(replica(&t, 5, "B").fetch_state, FetchState::Fetching);
    // 0.10.2 has no truncating state: B truncates to its HW as it becomes follower and fetches at once.
    assert_eq!(replica(&run_at("0.10.2", FIRST_FETCH), 4, "B").fetch_state, FetchState::Fetching);
}

/// A writes m1, m2 (acks=1) that B never fetches, crashes, and B leads epoch 1 with n1 at offset 1. A comes back
/// as B's follower with the longer log.
pub(crate) const LEADER_HAS_LESS: &str = "brokers: A B
0: elect A
1: produce m0
2: settle
3: produce m1 acks=1
4: produce m2 acks=1
5: crash A
6: produce n1
7: restart A
8: fetch A            # OffsetsForLeaderEpoch(0)
9: settle
";

/// Step 8 of [`LEADER_HAS_LESS`]: the leader's answer and A's truncation.
fn truncates_to_the_answer(release: &str, answer_epoch: i64) {
    let t = run_at(release, LEADER_HAS_LESS);
    let asked = epoch_requests(&t, 8);
    assert_eq!(asked.iter().map(|(e, a)| (*e, a.epoch, a.offset)).collect::<Vec<_>>(), [(0, answer_epoch, 1)]);
    assert_eq!(truncations(&t, 8, "A"), [(1, vec!["m1".into(), "m2".into()], TruncateCause::LeaderEpoch)]);
    assert!(logs_match(&t, 9, "A", "B"));
    assert_eq!(labels(&t, 9, "A"), ["m0", "n1"]);
}

#[test]
fn the_follower_truncates_to_the_offset_in_the_0_11_response() {
    source("core/src/test/scala/unit/kafka/server/ReplicaFetcherThreadTest.scala@0.11.0.0#shouldTruncateToOffsetSpecifiedInEpochOffsetResponse");
    // v0 answers an offset only: the start of the next epoch, 1.
    truncates_to_the_answer("0.11", -1);
    // 0.10.2 asks nothing: A cuts to its own HW as it becomes follower.
    let old = run_at("0.10.2", LEADER_HAS_LESS);
    assert!(epoch_requests(&old, 8).is_empty());
    assert_eq!(truncations(&old, 7, "A"), [(1, vec!["m1".into(), "m2".into()], TruncateCause::OwnHw)]);
}

#[test]
fn the_follower_truncates_to_the_offset_in_the_2_0_response() {
    source("core/src/test/scala/unit/kafka/server/ReplicaFetcherThreadTest.scala@2.0.0#shouldTruncateToOffsetSpecifiedInEpochOffsetResponse");
    // v1 answers (epoch 0, ends at 1); A knows epoch 0 too, so it truncates to min(its end 3, 1).
    truncates_to_the_answer("2.0.0", 0);
    // 0.11's v0 answer carries no epoch.
    assert_eq!(epoch_requests(&run_at("0.11", LEADER_HAS_LESS), 8)[0].1, end(-1, 1));
}

/// A follows B in epoch 0 (HW 1), leads epoch 1 alone and writes a1; B, which never saw epoch 1 and wrote nothing
/// since, leads epoch 2. A asks about epoch 1, which B's cache does not cover.
pub(crate) const UNDEFINED_ANSWER: &str = "brokers: A B
0: elect B
1: produce r0
2: settle
3: elect A deliver=A
4: produce a1 acks=1 broker=A
5: elect B
6: fetch A
";

/// Step 6 of [`UNDEFINED_ANSWER`]: an undefined answer and a truncation to A's HW.
fn truncates_to_the_high_watermark(release: &str) {
    let t = run_at(release, UNDEFINED_ANSWER);
    assert_eq!(replica(&t, 5, "A").hw, 1);
    let asked = epoch_requests(&t, 6);
    assert_eq!(asked.len(), 1);
    assert_eq!((asked[0].0, asked[0].1.offset), (1, -1), "the leader answers UNDEFINED_EPOCH_OFFSET");
    assert_eq!(truncations(&t, 6, "A"), [(1, vec!["a1".into()], TruncateCause::LeaderEpoch)]);
}

/// Before KIP-101 (0.10.2) the same target comes without a request: A cuts to its HW as it becomes follower
/// (step 5), and its first fetch asks nothing.
fn truncates_without_asking() {
    let old = run_at("0.10.2", UNDEFINED_ANSWER);
    assert_eq!(truncations(&old, 5, "A"), [(1, vec!["a1".into()], TruncateCause::OwnHw)]);
    assert!(epoch_requests(&old, 6).is_empty());
}

#[test]
fn an_undefined_offset_truncates_to_the_high_watermark() {
    source("core/src/test/scala/unit/kafka/server/ReplicaFetcherThreadTest.scala@0.11.0.0#shouldTruncateToHighWatermarkIfLeaderReturnsUndefinedOffset");
    truncates_to_the_high_watermark("0.11");
    truncates_without_asking();
}

#[test]
fn an_undefined_offset_truncates_to_the_initial_fetch_offset() {
    source("core/src/test/scala/unit/kafka/server/ReplicaFetcherThreadTest.scala@2.0.0#shouldTruncateToInitialFetchOffsetIfLeaderReturnsUndefinedOffset");
    // In 2.0 a follower's initial fetch offset is its HW (1 here), so the target is the same.
    truncates_to_the_high_watermark("2.0.0");
    truncates_without_asking();
}

/// B writes b0 in epoch 0 and A a0..a2 in epoch 1, each leading alone; then B leads epoch 2 with b1 and A follows.
/// A's cache starts at epoch 1, above the epoch 0 that B will answer.
const NO_EPOCH_THAT_OLD: &str = "brokers: A B
0: elect B deliver=B
1: produce b0 acks=1 broker=B
2: elect A deliver=A
3: produce a0 acks=1 broker=A
4: produce a1 acks=1 broker=A
5: produce a2 acks=1 broker=A
6: elect B
7: produce b1 acks=1
8: fetch A
";

#[test]
fn a_follower_with_no_epoch_that_old_truncates_to_the_leaders_offset() {
    source("core/src/test/scala/unit/kafka/server/ReplicaFetcherThreadTest.scala@2.0.0#shouldTruncateToOffsetSpecifiedInEpochOffsetResponseIfFollowerHasNoMoreEpochs");
    // B answers (0, 1); A's 2.0 lookup of epoch 0 is UNDEFINED, so A truncates to min(leader's offset 1, LEO 3),
    // finally.
    let t = run_at("2.0.0", NO_EPOCH_THAT_OLD);
    let asked = epoch_requests(&t, 8);
    assert_eq!(asked.iter().map(|(e, a)| (*e, a.epoch, a.offset)).collect::<Vec<_>>(), [(1, 0, 1)]);
    assert_eq!(truncations(&t, 8, "A"), [(1, vec!["a1".into(), "a2".into()], TruncateCause::LeaderEpoch)]);
    assert_eq!(replica(&t, 8, "A").fetch_state, FetchState::Fetching, "the truncation is final");
    // What the model adds: a0 (epoch 1) stays where B has b0 (epoch 0), a divergence 2.0 does not see and 2.1's
    // floor lookup (KAFKA-7415: epoch 0 ends at A's first offset, 0) removes.
    assert_eq!(bugs(&t), [InvariantId::I3]);
    let fixed = run_at("2.1", NO_EPOCH_THAT_OLD);
    assert_eq!(truncations(&fixed, 8, "A").first().map(|c| c.0), Some(0));
    assert!(bugs(&fixed).is_empty(), "{:?}", fixed.violations);
}

/// Fast fail-overs: B leads epochs 1, 2 and 4, A leads 0 and 3. A ends with epochs 0, 1, 3, B with 0, 1, 2, 4.
pub(crate) const EPOCH_NOT_KNOWN: &str = "brokers: A B
0: elect A
1: produce r0
2: settle
3: elect B
4: produce r1
5: settle
6: elect B deliver=B
7: produce b2 acks=1 broker=B
8: elect A deliver=A
9: produce a2 acks=1 broker=A
10: produce a3 acks=1 broker=A
11: elect B
12: produce b3 acks=1
13: fetch A          # asks 3, told (2, 3): A never had epoch 2
14: fetch A          # asks 1, told (1, 2)
15: fetch A
";

#[test]
fn an_epoch_unknown_to_the_follower_makes_it_ask_again() {
    source("core/src/test/scala/unit/kafka/server/ReplicaFetcherThreadTest.scala@2.0.0#shouldFetchLeaderEpochSecondTimeIfLeaderRepliesWithEpochNotKnownToFollower");
    // Loop 1: one epoch request, no fetch; A cuts to the end of its largest epoch below 2 (offset 2) and asks
    // about epoch 1. Loop 2: the answer (1, 2) is final, then the fetching starts.
    let t = run_at("2.0.0", EPOCH_NOT_KNOWN);
    let shape = |s: usize| epoch_requests(&t, s).iter().map(|(e, a)| (*e, a.epoch, a.offset)).collect::<Vec<_>>();
    assert_eq!((shape(13), fetches(&t, 13)), (vec![(3, 2, 3)], 0));
    assert_eq!(truncations(&t, 13, "A"), [(2, vec!["a2".into(), "a3".into()], TruncateCause::LeaderEpoch)]);
    assert_eq!(replica(&t, 13, "A").fetch_state, FetchState::Truncating);
    assert_eq!((shape(14), fetches(&t, 14)), (vec![(1, 1, 2)], 0));
    assert_eq!((replica(&t, 14, "A").leo(), replica(&t, 14, "A").fetch_state), (2, FetchState::Fetching));
    assert_eq!((epoch_requests(&t, 15).len(), fetches(&t, 15)), (0, 1));
    assert!(logs_match(&t, 15, "A", "B"));
    // 0.11 (before KIP-279) gets one v0 answer, the start of B's epoch after 3 (offset 3), and stops there.
    let old = run_at("0.11", EPOCH_NOT_KNOWN);
    let asked = epoch_requests(&old, 13);
    assert_eq!(asked.iter().map(|(e, a)| (*e, a.epoch, a.offset)).collect::<Vec<_>>(), [(3, -1, 3)]);
    assert_eq!(replica(&old, 13, "A").fetch_state, FetchState::Fetching);
}

/// B has x1 that the new leader A lacks; A is down (the controller not told) for three of B's rounds.
const LEADER_DOWN_WHILE_TRUNCATING: &str = "brokers: A B
0: elect B
1: produce m0
2: settle
3: produce x1 acks=1
4: elect A
5: crash A no-notify
6: fetch B
7: fetch B
8: fetch B
9: restart A
10: fetch B
";

#[test]
fn the_fetcher_keeps_asking_while_the_leader_answers_errors() {
    source("core/src/test/scala/unit/kafka/server/ReplicaFetcherThreadTest.scala@0.11.0.0#shouldPollIndefinitelyIfLeaderReturnsAnyException");
    // B has x1 that A lacks and must truncate; while A is down (the controller not told) every round fails with
    // NOT_LEADER_OR_FOLLOWER and nothing is truncated; once A is back, the next round truncates.
    let t = run_at("0.11", LEADER_DOWN_WHILE_TRUNCATING);
    for step in 6..=8 {
        assert_eq!(t.steps[step].outcome.reason(), Some("NOT_LEADER_OR_FOLLOWER"), "step {step}");
        assert_eq!(
            (labels(&t, step, "B"), replica(&t, step, "B").fetch_state),
            (vec!["m0".into(), "x1".into()], FetchState::Truncating)
        );
    }
    assert_eq!(truncations(&t, 10, "B"), [(1, vec!["x1".into()], TruncateCause::LeaderEpoch)]);
    // 0.10.2 never waits on the leader: B cut x1 to its HW as it became follower (step 4).
    let old = run_at("0.10.2", LEADER_DOWN_WHILE_TRUNCATING);
    assert_eq!(truncations(&old, 4, "B"), [(1, vec!["x1".into()], TruncateCause::OwnHw)]);
}
