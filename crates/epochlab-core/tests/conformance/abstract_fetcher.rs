//! `AbstractFetcherThreadTest`: the fetcher against a mock leader whose log, epoch and HW the test sets. The
//! mock's "set the leader's epoch" is an election delivered to one side only; its hand-made logs are built
//! by elections delivered to one broker at a time. One `doWork()` is one `fetch` (or a `settle` for the
//! tests' "until the logs match").

use epochlab_core::invariants::InvariantId;
use epochlab_core::state::FetchState;
use epochlab_core::trace::TruncateCause;
use epochlab_core::Variant;

use crate::support::{
    bugs, diverging, end, epoch_requests, epochs, labels, logs_match, rejected, replica, run_at, run_text_as, source,
    truncations,
};

/// F writes in epochs 0, 2, 4 and L in 1, 3, 5, each leading alone; then L leads epoch 5 for both.
const INTERLEAVED_EPOCHS: &str = "brokers: L F
0: elect F deliver=F
1: produce fa acks=1 broker=F
2: elect L deliver=L
3: produce la acks=1 broker=L
4: elect F deliver=F
5: produce fb acks=1 broker=F
6: elect L deliver=L
7: produce lb acks=1 broker=L
8: elect F deliver=F
9: produce fc acks=1 broker=F
10: elect L
11: produce lc acks=1
12: settle
";

#[test]
fn a_follower_reconciles_a_log_of_other_epochs_with_the_leader() {
    source("core/src/test/scala/unit/kafka/server/AbstractFetcherThreadTest.scala@2.1.0#testTruncation");
    // The follower F holds records of epochs 0, 2, 4 and the leader L of epochs 1, 3, 5, both three long; F
    // follows L in epoch 5. Truncation takes three rounds and then F copies L: same log, LEO and HW.
    let t = run_at("2.1", INTERLEAVED_EPOCHS);
    assert_eq!((epochs(&t, 11, "F"), epochs(&t, 11, "L")), (vec![0, 2, 4], vec![1, 3, 5]));
    assert!(logs_match(&t, 12, "F", "L"), "{:?} vs {:?}", labels(&t, 12, "F"), labels(&t, 12, "L"));
    let (f, l) = (replica(&t, 12, "F"), replica(&t, 12, "L"));
    assert_eq!((f.leo(), f.hw), (l.leo(), l.hw));
    assert_eq!(labels(&t, 12, "F"), ["la", "lb", "lc"]);
    // 0.11 (KIP-101 alone) gets one answer, the start of L's epoch after 4 (offset 2): F keeps fa and fb.
    let old = run_at("0.11", INTERLEAVED_EPOCHS);
    assert!(!logs_match(&old, 12, "F", "L"));
    assert!(bugs(&old).contains(&InvariantId::I3), "{:?}", bugs(&old));
}

/// B is caught up at two records in epoch 0; then the leader alone moves to epoch 1.
const LEADER_EPOCH_BUMPED: &str = "brokers: A B
0: elect A
1: produce a
2: produce b
3: settle
4: elect A deliver=A
5: fetch B
";

#[test]
fn a_fetch_in_an_older_epoch_is_fenced() {
    source("core/src/test/scala/unit/kafka/server/AbstractFetcherThreadTest.scala@2.1.0#testFencedFetch");
    // KIP-320: B's Fetch carries epoch 0, the leader is in 1: FENCED_LEADER_EPOCH and nothing changes. (Kafka then
    // drops the partition from the fetcher until the next LeaderAndIsr; the model just refuses the step.)
    let t = run_at("2.1", LEADER_EPOCH_BUMPED);
    assert_eq!(replica(&t, 3, "B").leo(), 2, "caught up");
    assert_eq!(rejected(&t, 5), Some("FENCED_LEADER_EPOCH"));
    assert_eq!(t.steps[5].state, t.steps[4].state);
    // Before KIP-320 (2.0) the same fetch is served.
    assert_eq!(rejected(&run_text_as(LEADER_EPOCH_BUMPED, Variant::Kip279), 5), None);
}

/// B, an empty follower in epoch 0, still truncating; the leader alone moves to epoch 1 and writes two records.
const TRUNCATING_IN_AN_OLD_EPOCH: &str =
    "brokers: A B\n0: elect A\n1: elect A deliver=A\n2: produce a acks=1\n3: produce b acks=1\n4: fetch B\n";

#[test]
fn a_truncation_request_in_an_older_epoch_is_fenced() {
    source("core/src/test/scala/unit/kafka/server/AbstractFetcherThreadTest.scala@2.1.0#testFencedTruncation");
    // B, an empty follower in epoch 0, still truncating; the leader writes two records in epoch 1.
    let t = run_at("2.1", TRUNCATING_IN_AN_OLD_EPOCH);
    assert_eq!(rejected(&t, 4), Some("FENCED_LEADER_EPOCH"));
    let b = replica(&t, 4, "B");
    assert_eq!((b.leo(), b.hw, b.fetch_state), (0, 0, FetchState::Truncating), "no progress");
    // 2.0.0 (no KIP-320) serves it: B truncates to its HW and copies both records.
    let old = run_at("2.0.0", TRUNCATING_IN_AN_OLD_EPOCH);
    assert_eq!((rejected(&old, 4), replica(&old, 4, "B").leo()), (None, 2));
}

/// Epoch 1 reaches the follower B before the leader A.
const FOLLOWER_EPOCH_AHEAD: &str =
    "brokers: A B\n0: elect A\n1: produce a acks=1\n2: elect A deliver=B\n3: fetch B\n4: deliver A\n5: fetch B\n";

#[test]
fn a_follower_ahead_of_the_leaders_epoch_waits_in_truncation() {
    source("core/src/test/scala/unit/kafka/server/AbstractFetcherThreadTest.scala@2.1.0#testUnknownLeaderEpochInTruncation");
    // Epoch 1 reaches B before the leader: UNKNOWN_LEADER_EPOCH, no data, still truncating. Once the leader is
    // in epoch 1 too, the next round makes progress: one record, fetching.
    let t = run_at("2.1", FOLLOWER_EPOCH_AHEAD);
    assert_eq!(rejected(&t, 3), Some("UNKNOWN_LEADER_EPOCH"));
    assert_eq!((replica(&t, 3, "B").leo(), replica(&t, 3, "B").fetch_state), (0, FetchState::Truncating));
    assert_eq!((replica(&t, 5, "B").leo(), replica(&t, 5, "B").fetch_state), (1, FetchState::Fetching));
    // 2.0.0 (no KIP-320) does not compare epochs: B's first round goes through while the leader lags.
    let old = run_at("2.0.0", FOLLOWER_EPOCH_AHEAD);
    assert_eq!((rejected(&old, 3), replica(&old, 3, "B").fetch_state), (None, FetchState::Fetching));
}

/// F has three records; L loses them all in a power failure nobody notices and comes back empty.
const LEADER_LOG_REPLACED: &str = "brokers: L F\nflush: manual
0: elect L
1: produce a
2: produce b
3: produce c
4: settle
5: crash L power no-notify
6: restart L
7: fetch F
";

#[test]
fn out_of_range_high_truncates_the_follower_to_the_leaders_end() {
    source(
        "core/src/test/scala/unit/kafka/server/AbstractFetcherThreadTest.scala@2.1.0#testFollowerFetchOutOfRangeHigh",
    );
    // "Change the leader log without going through the truncation phase": L loses its unflushed log in a power
    // failure the controller never sees and comes back leading the same epoch, empty. F, fetching at 3, gets
    // OFFSET_OUT_OF_RANGE and (KAFKA-7414) truncates to L's LEO 0 instead of halting.
    let t = run_at("2.1", LEADER_LOG_REPLACED);
    assert_eq!((replica(&t, 4, "F").leo(), replica(&t, 4, "F").fetch_state), (3, FetchState::Fetching));
    assert_eq!(replica(&t, 6, "L").leo(), 0);
    let cut = truncations(&t, 7, "F");
    assert_eq!(cut.iter().map(|c| (c.0, c.2)).collect::<Vec<_>>(), [(0, TruncateCause::OutOfRange)]);
    let f = replica(&t, 7, "F");
    assert_eq!((f.leo(), f.hw, f.up), (0, 0, true));
    // 2.0.0 (before KAFKA-7414) with unclean election off: F halts rather than truncate.
    let old = run_at("2.0.0", LEADER_LOG_REPLACED);
    assert_eq!((replica(&old, 7, "F").up, replica(&old, 7, "F").leo()), (false, 3));
}

/// a (epoch 0) and b (epoch 1) shared; then B writes c in epoch 2 alone and A d in epoch 3 alone.
const DIVERGED_TAILS: &str = "brokers: A B
0: elect A
1: produce a
2: settle
3: elect A
4: produce b
5: settle
6: elect B deliver=B
7: produce c acks=1 broker=B
8: elect A deliver=A
9: produce d acks=1 broker=A
10: deliver B
11: fetch B
12: settle
";

#[test]
fn a_diverging_epoch_in_the_fetch_response_truncates_the_follower() {
    source("core/src/test/scala/unit/kafka/server/AbstractFetcherThreadTest.scala@2.8.0#testDivergingEpochs");
    // Shared a/e0, b/e1; then B wrote c in epoch 2 and A d in epoch 3. B's Fetch carries LastFetchedEpoch 2; A
    // answers DivergingEpoch (1, 2); B truncates to 2, its last fetched epoch is now the shared 1, and after
    // reconciling it is the leader's 3.
    let t = run_at("2.8", DIVERGED_TAILS);
    assert_eq!(replica(&t, 10, "B").epoch_cache.latest_epoch(), 2);
    assert_eq!(diverging(&t, 11), [end(1, 2)]);
    assert_eq!(truncations(&t, 11, "B"), [(2, vec!["c".into()], TruncateCause::DivergingEpoch)]);
    assert_eq!(replica(&t, 11, "B").epoch_cache.latest_epoch(), 1);
    assert!(logs_match(&t, 12, "A", "B"));
    assert_eq!(replica(&t, 12, "B").epoch_cache.latest_epoch(), 3);
    // 2.7 (before KIP-595's scheme, KAFKA-10554) asks OffsetsForLeaderEpoch instead: no DivergingEpoch.
    let old = run_at("2.7", DIVERGED_TAILS);
    assert_eq!((diverging(&old, 11), epoch_requests(&old, 11).len()), (vec![], 1));
}
