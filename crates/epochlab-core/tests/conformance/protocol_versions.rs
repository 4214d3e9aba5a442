//! Fetcher tests that pin `inter.broker.protocol.version` below the release's own, against the release model's
//! contract (notes/releases-plan.md): below 0.11.0-IV2 no OffsetsForLeaderEpoch is sent and a new follower
//! truncates to its HW as 0.10.2 did; below 2.0-IV0 the request is v0 and its answer carries no epoch. The
//! scenarios are those of `replica_fetcher.rs`, run with the lower protocol.

use epochlab_core::state::FetchState;
use epochlab_core::trace::TruncateCause;

use crate::replica_fetcher::{EPOCH_NOT_KNOWN, LEADER_HAS_LESS, UNDEFINED_ANSWER};
use crate::support::{epoch_requests, fetches, logs_match, replica, run_text, source, truncations};

/// `header` then the body of a scenario of `replica_fetcher.rs`.
fn with_protocol(header: &str, body: &str) -> epochlab_core::Trace {
    run_text(&format!("{header}\n{body}"))
}

#[test]
fn below_0_11_no_leader_epoch_request_is_sent() {
    source("core/src/test/scala/unit/kafka/server/ReplicaFetcherThreadTest.scala@0.11.0.0#shouldNotIssueLeaderEpochRequestIfInterbrokerVersionBelow11");
    // IBP and message format 0.10.2 on a 0.11 broker: the fetcher answers itself UNDEFINED, so the restarted A
    // truncates to its HW (1) on becoming follower, without asking.
    let header = "kafka_version: 0.11\ninter_broker_protocol_version: 0.10.2\nlog_message_format_version: 0.10.2";
    let t = with_protocol(header, LEADER_HAS_LESS);
    assert!((0..t.steps.len()).all(|s| epoch_requests(&t, s).is_empty()), "no OffsetsForLeaderEpoch");
    assert_eq!(truncations(&t, 7, "A"), [(1, vec!["m1".into(), "m2".into()], TruncateCause::OwnHw)]);
    assert!(logs_match(&t, 9, "A", "B"));
    // At 0.11's own protocol (0.11.0-IV2) A asks, and the answer decides the cut.
    let own = with_protocol("kafka_version: 0.11", LEADER_HAS_LESS);
    assert_eq!(truncations(&own, 8, "A"), [(1, vec!["m1".into(), "m2".into()], TruncateCause::LeaderEpoch)]);
}

#[test]
fn below_2_0_the_follower_uses_the_leaders_end_offset_at_once() {
    source("core/src/test/scala/unit/kafka/server/ReplicaFetcherThreadTest.scala@2.0.0#shouldUseLeaderEndOffsetIfInterBrokerVersionBelow20");
    // IBP 0.11.0 on a 2.0 broker: OffsetsForLeaderEpoch v0, an answer without an epoch, and one final round
    // that truncates A to the leader's offset (3); the next iteration fetches.
    let t = with_protocol("kafka_version: 2.0.0\ninter_broker_protocol_version: 0.11.0-IV2", EPOCH_NOT_KNOWN);
    let asked = epoch_requests(&t, 13);
    assert_eq!(asked.iter().map(|(e, a)| (*e, a.epoch, a.offset)).collect::<Vec<_>>(), [(3, -1, 3)]);
    assert_eq!(truncations(&t, 13, "A"), [(3, vec!["a3".into()], TruncateCause::LeaderEpoch)]);
    assert_eq!(replica(&t, 13, "A").fetch_state, FetchState::Fetching);
    assert_eq!((epoch_requests(&t, 14).len(), fetches(&t, 14)), (0, 1));
    // At 2.0's own protocol the v1 answer names epoch 2, which A never had: A keeps truncating.
    let own = with_protocol("kafka_version: 2.0.0", EPOCH_NOT_KNOWN);
    let asked = epoch_requests(&own, 13);
    assert_eq!(asked.iter().map(|(e, a)| (*e, a.epoch, a.offset)).collect::<Vec<_>>(), [(3, 2, 3)]);
    assert_eq!(replica(&own, 13, "A").fetch_state, FetchState::Truncating);
}

#[test]
fn without_leader_epoch_requests_the_follower_truncates_to_its_high_watermark() {
    source("core/src/test/scala/unit/kafka/server/AbstractFetcherThreadTest.scala@2.4.0#testTruncateToHighWatermarkIfLeaderEpochRequestNotSupported");
    // Kafka's mock answers isOffsetForLeaderEpochSupported = false, which a real broker does below IBP
    // 0.11.0-IV2; Kafka refuses that protocol with the message format left at its default (v2), so the format
    // is lowered too, as `ReplicaFetcherThreadTest.scala@0.11.0.0` L48-49 does. A truncates to its HW (1) and
    // is ready to fetch from there, with no request.
    let header = "kafka_version: 2.4\ninter_broker_protocol_version: 0.10.2\nlog_message_format_version: 0.10.2";
    let t = with_protocol(header, UNDEFINED_ANSWER);
    assert_eq!(truncations(&t, 5, "A"), [(1, vec!["a1".into()], TruncateCause::OwnHw)]);
    assert_eq!((replica(&t, 5, "A").leo(), replica(&t, 5, "A").fetch_state), (1, FetchState::Fetching));
    assert_eq!((epoch_requests(&t, 6).len(), fetches(&t, 6)), (0, 1));
    // At 2.4's own protocol the request is supported: A keeps a1 until it asks (step 6).
    let own = with_protocol("kafka_version: 2.4", UNDEFINED_ANSWER);
    assert!(truncations(&own, 5, "A").is_empty());
    assert_eq!(epoch_requests(&own, 6).len(), 1);
}
