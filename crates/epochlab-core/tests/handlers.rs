//! One test (or a few) per event handler, checking both the state it leaves and the annotations it emits.
//! Scenarios are written inline in the contract's JSON so that each test reads as a story.

use epochlab_core::epoch_cache::EpochEnd;
use epochlab_core::kafka_error::KafkaError;
use epochlab_core::state::{BrokerSet, FetchState, Role};
use epochlab_core::trace::{Annotation, FetchAnswer, Outcome, ProduceResult, Step, TruncateCause};
use epochlab_core::{parse_scenario, run, Trace};

/// Run `events` (a JSON array) on brokers A, B (and C if `three`) under `config` (a JSON object body).
fn story(brokers: &str, config: &str, events: &str) -> Trace {
    let json =
        format!(r#"{{"version": 1, "name": "t", "brokers": {brokers}, "config": {{{config}}}, "events": {events}}}"#);
    run(&parse_scenario(&json).unwrap_or_else(|e| panic!("bad test scenario: {e}")))
}

fn ab(config: &str, events: &str) -> Trace {
    story(r#"["A", "B"]"#, config, events)
}

fn labels(t: &Trace, b: usize, step: usize) -> Vec<String> {
    t.steps[step].state.replicas[b].log.iter().map(|e| t.label(e.id).to_string()).collect()
}

fn rejected(step: &Step) -> Option<&'static str> {
    step.outcome.reason()
}

const A: usize = 0;
const B: usize = 1;

#[test]
fn elect_without_candidate_picks_the_first_live_isr_member_and_delivers_to_everyone() {
    let t = ab("", r#"[{"kind": "elect"}]"#);
    let s = &t.steps[0];
    assert_eq!(s.outcome, Outcome::Applied);
    assert_eq!(s.state.controller.leader, Some(0));
    assert_eq!(s.state.controller.leader_epoch, 0);
    assert_eq!(s.state.replicas[A].role, Role::Leader);
    assert_eq!(s.state.replicas[B].role, Role::Follower);
    assert_eq!(s.state.replicas[B].known_leader, Some(0));
    assert!(s.annotations.contains(&Annotation::Elected {
        leader: Some(0),
        epoch: 0,
        unclean: false,
        isr: BrokerSet::first(2)
    }));
    assert!(s.annotations.contains(&Annotation::LeaderAndIsrApplied { broker: 1, leader: Some(0), epoch: 0 }));
}

#[test]
fn elect_with_delivery_held_back_leaves_the_request_queued_until_deliver() {
    let t = ab(
        "",
        r#"[{"kind": "elect", "broker": "B", "deliver": "none"}, {"kind": "deliver", "broker": "B"}, {"kind": "deliver", "broker": "B"}]"#,
    );
    assert_eq!(t.steps[0].state.replicas[B].role, Role::None);
    assert!(t.steps[0].state.controller.outbox[B].is_some());
    assert_eq!(t.steps[1].state.replicas[B].role, Role::Leader);
    assert!(t.steps[1].annotations.contains(&Annotation::LeaderAndIsrApplied { broker: 1, leader: Some(1), epoch: 0 }));
    assert_eq!(rejected(&t.steps[2]), Some("NO_PENDING_REQUEST"));
}

#[test]
fn elect_refuses_a_candidate_outside_the_isr_unless_unclean_election_is_allowed() {
    let events = r#"[{"kind": "elect", "broker": "A"}, {"kind": "crash", "broker": "B"}, {"kind": "crash", "broker": "A"},
        {"kind": "restart", "broker": "B", "deliver": false}, {"kind": "elect", "broker": "B"}]"#;
    let clean = ab("", events);
    // A crashed last and is the ISR's last member: the partition went offline; B (outside the ISR) is refused.
    assert_eq!(clean.steps[2].state.controller.leader, None);
    assert_eq!(rejected(&clean.steps[4]), Some("ELIGIBLE_LEADERS_NOT_AVAILABLE"));
    let unclean = ab(r#""unclean_leader_election": true"#, events);
    // With unclean election, B's restart already elects it, uncleanly.
    let s = &unclean.steps[3];
    assert_eq!(s.state.controller.leader, Some(1));
    assert_eq!(s.state.controller.isr, BrokerSet::only(1));
    assert!(s.annotations.iter().any(|a| matches!(a, Annotation::Elected { unclean: true, .. })));
}

#[test]
fn produce_appends_on_the_leader_and_acks_all_waits_for_the_hw() {
    // B's first fetch is at offset 0 (its empty epoch cache sends it straight to fetching), the next at 1.
    let t = ab(
        "",
        r#"[{"kind": "elect"}, {"kind": "fetch", "broker": "B"}, {"kind": "produce", "record": "m1"},
        {"kind": "fetch", "broker": "B"}, {"kind": "fetch", "broker": "B"}]"#,
    );
    let s = &t.steps[2];
    assert_eq!(labels(&t, A, 2), ["m1"]);
    assert_eq!(s.state.replicas[A].hw, 0);
    assert!(s.annotations.contains(&Annotation::Appended { broker: 0, from: 0, records: vec![0] }));
    assert!(s.annotations.contains(&Annotation::Produced { record: 0, result: ProduceResult::Pending }));
    assert_eq!(t.steps[3].state.replicas[A].hw, 0, "fetching at 0 does not tell A that B has m1");
    // The fetch at offset 1 does: the HW passes m1 and the produce is acknowledged.
    let s = &t.steps[4];
    assert_eq!(s.state.replicas[A].hw, 1);
    assert!(s.annotations.contains(&Annotation::Produced { record: 0, result: ProduceResult::Acked }));
}

#[test]
fn produce_is_rejected_without_a_leader_on_a_follower_and_below_min_isr() {
    let t = story(
        r#"["A", "B"]"#,
        r#""min_insync_replicas": 2"#,
        r#"[{"kind": "produce"}, {"kind": "elect"}, {"kind": "produce", "broker": "B"},
        {"kind": "shrink_isr", "broker": "B"}, {"kind": "produce"}, {"kind": "produce", "acks": 1}]"#,
    );
    assert_eq!(rejected(&t.steps[0]), Some("LEADER_NOT_AVAILABLE"));
    assert_eq!(rejected(&t.steps[2]), Some("NOT_LEADER_OR_FOLLOWER"));
    assert_eq!(rejected(&t.steps[4]), Some("NOT_ENOUGH_REPLICAS"));
    assert_eq!(t.steps[4].state, t.steps[3].state);
    // acks=1 does not care about min.insync.replicas.
    assert_eq!(t.steps[5].outcome, Outcome::Applied);
    assert_eq!(labels(&t, A, 5), ["r0"]);
}

#[test]
fn fetch_copies_records_and_the_follower_hw_lags_by_one_round_trip() {
    let t = ab(
        "",
        r#"[{"kind": "elect"}, {"kind": "produce", "record": "m1"}, {"kind": "fetch", "broker": "B"},
        {"kind": "fetch", "broker": "B"}]"#,
    );
    // After becoming follower, B (KIP-279) is truncating; with an empty cache it falls back to its HW and
    // fetches in the same iteration.
    assert_eq!(t.steps[0].state.replicas[B].fetch_state, FetchState::Truncating);
    let s = &t.steps[2];
    assert_eq!(s.state.replicas[B].fetch_state, FetchState::Fetching);
    assert_eq!(labels(&t, B, 2), ["m1"]);
    assert_eq!(s.state.replicas[B].hw, 0, "the response carried the leader's HW from before B had m1");
    assert!(s.annotations.iter().any(|a| matches!(a,
        Annotation::Fetch { follower: 1, leader: 0, offset: 0, answer: FetchAnswer::Records { records, hw: 0 }, dropped: false, .. } if records == &vec![0])));
    let s = &t.steps[3];
    assert_eq!(s.state.replicas[A].hw, 1);
    assert_eq!(s.state.replicas[B].hw, 1);
    assert!(s.annotations.contains(&Annotation::HwMoved { broker: 1, from: 0, to: 1 }));
}

#[test]
fn a_dropped_fetch_response_changes_the_leader_but_not_the_follower() {
    let t = ab(
        "",
        r#"[{"kind": "elect"}, {"kind": "fetch", "broker": "B"}, {"kind": "produce"}, {"kind": "fetch", "broker": "B", "drop_response": true}]"#,
    );
    let (before, after) = (&t.steps[2].state, &t.steps[3].state);
    assert_eq!(after.replicas[B], before.replicas[B]);
    assert_eq!(after.replicas[A].remote_leo[B], 0);
    assert!(t.steps[3].annotations.iter().any(|a| matches!(a, Annotation::Fetch { dropped: true, .. })));
}

#[test]
fn fetch_is_rejected_on_a_crashed_broker_on_the_leader_and_from_a_dead_leader() {
    let t = ab(
        "",
        r#"[{"kind": "fetch", "broker": "B"}, {"kind": "elect"}, {"kind": "fetch", "broker": "A"},
        {"kind": "crash", "broker": "B"}, {"kind": "fetch", "broker": "B"}, {"kind": "restart", "broker": "B"},
        {"kind": "crash", "broker": "A", "notify_controller": false}, {"kind": "fetch", "broker": "B"}]"#,
    );
    assert_eq!(rejected(&t.steps[0]), Some("LEADER_NOT_AVAILABLE"));
    assert_eq!(rejected(&t.steps[2]), Some("NOT_FOLLOWER"));
    assert_eq!(rejected(&t.steps[4]), Some("BROKER_NOT_AVAILABLE"));
    assert_eq!(rejected(&t.steps[7]), Some("NOT_LEADER_OR_FOLLOWER"));
}

#[test]
fn kip_279_truncation_round_asks_offsets_for_leader_epoch_and_truncates() {
    // Leader A writes r1 that B never gets; B takes over and writes r2; A returns as follower.
    let t = ab(
        "",
        r#"[{"kind": "elect"}, {"kind": "produce", "record": "r0"}, {"kind": "settle"},
        {"kind": "produce", "record": "r1", "acks": 1}, {"kind": "crash", "broker": "A"},
        {"kind": "produce", "record": "r2"}, {"kind": "restart", "broker": "A"}, {"kind": "fetch", "broker": "A"}]"#,
    );
    assert_eq!(t.steps[6].state.replicas[A].fetch_state, FetchState::Truncating);
    let s = &t.steps[7];
    assert!(s.annotations.contains(&Annotation::OffsetsForLeaderEpoch {
        follower: 0,
        leader: 1,
        epoch: 0,
        answer: Ok(EpochEnd { epoch: 0, offset: 1 }),
        dropped: false
    }));
    assert!(s.annotations.contains(&Annotation::Truncated {
        broker: 0,
        to: 1,
        removed: vec![1],
        cause: TruncateCause::LeaderEpoch
    }));
    assert_eq!(s.state.replicas[A].fetch_state, FetchState::Fetching);
    assert_eq!(labels(&t, A, 7), ["r0"]);
}

#[test]
fn hw_truncation_truncates_to_the_followers_own_hw_on_becoming_follower() {
    let t = ab(
        r#""variant": "hw-truncation""#,
        r#"[{"kind": "elect", "broker": "B"}, {"kind": "produce", "record": "m1"},
        {"kind": "fetch", "broker": "A"}, {"kind": "produce", "record": "m2"}, {"kind": "fetch", "broker": "A"},
        {"kind": "crash", "broker": "A", "notify_controller": false}, {"kind": "restart", "broker": "A"}]"#,
    );
    let s = &t.steps[6];
    assert_eq!(s.state.replicas[A].hw, 1);
    assert!(s.annotations.contains(&Annotation::Truncated {
        broker: 0,
        to: 1,
        removed: vec![1],
        cause: TruncateCause::OwnHw
    }));
    assert_eq!(labels(&t, A, 6), ["m1"]);
    assert!(s.narration.contains("truncates to its own HW 1, discarding m2"), "{}", s.narration);
}

#[test]
fn diverging_epoch_fetch_reports_divergence_and_the_follower_truncates() {
    let t = ab(
        r#""variant": "diverging-epoch""#,
        r#"[{"kind": "elect"}, {"kind": "produce", "record": "r0"}, {"kind": "settle"},
        {"kind": "produce", "record": "r1", "acks": 1}, {"kind": "crash", "broker": "A"},
        {"kind": "produce", "record": "r2"}, {"kind": "restart", "broker": "A"}, {"kind": "fetch", "broker": "A"}, {"kind": "fetch", "broker": "A"}]"#,
    );
    assert_eq!(t.steps[6].state.replicas[A].fetch_state, FetchState::Validating);
    let s = &t.steps[7];
    assert!(s.annotations.iter().any(|a| matches!(
        a,
        Annotation::Fetch {
            follower: 0,
            last_fetched_epoch: 0,
            answer: FetchAnswer::DivergingEpoch { end: EpochEnd { epoch: 0, offset: 1 } },
            ..
        }
    )));
    assert!(s.annotations.contains(&Annotation::Truncated {
        broker: 0,
        to: 1,
        removed: vec![1],
        cause: TruncateCause::DivergingEpoch
    }));
    // The leader did not record the diverging fetch (KAFKA-13141).
    assert_eq!(s.state.replicas[B].remote_leo[A], -1);
    assert_eq!(t.steps[8].state.replicas[A].fetch_state, FetchState::Fetching);
    assert_eq!(labels(&t, A, 8), ["r0", "r2"]);
}

#[test]
fn out_of_range_halts_a_pre_2_1_follower_but_truncates_under_kafka_2_1() {
    // S1's follow-up: B returns with m2 after A was elected with only m1.
    let events = r#"[{"kind": "elect", "broker": "B"}, {"kind": "produce", "record": "m1"}, {"kind": "fetch", "broker": "A"},
        {"kind": "produce", "record": "m2"}, {"kind": "fetch", "broker": "A"}, {"kind": "fetch", "broker": "A", "drop_response": true},
        {"kind": "crash", "broker": "A", "notify_controller": false}, {"kind": "restart", "broker": "A"},
        {"kind": "crash", "broker": "B"}, {"kind": "restart", "broker": "B"}, {"kind": "fetch", "broker": "B"}]"#;
    let old = ab(r#""variant": "hw-truncation""#, events);
    let s = &old.steps[10];
    assert!(!s.state.replicas[B].up, "B halts: {}", s.narration);
    assert!(s.annotations.iter().any(|a| matches!(
        a,
        Annotation::Fetch { answer: FetchAnswer::Error { error: KafkaError::OffsetOutOfRange }, .. }
    )));
    let unclean = ab(r#""variant": "hw-truncation", "unclean_leader_election": true"#, events);
    let s = &unclean.steps[10];
    assert!(s.state.replicas[B].up);
    assert!(s.annotations.contains(&Annotation::Truncated {
        broker: 1,
        to: 1,
        removed: vec![1],
        cause: TruncateCause::OutOfRange
    }));
}

#[test]
fn kip_320_fences_a_fetch_with_a_stale_leader_epoch() {
    // The controller bumps the epoch (B dies and is removed from the ISR of A, B, C); C has not heard yet.
    let events = r#"[{"kind": "elect"}, {"kind": "crash", "broker": "B", "notify_controller": true},
        {"kind": "fetch", "broker": "C"}]"#;
    let c = 2;
    let fenced = story(
        r#"["A", "B", "C"]"#,
        r#""variant": "kafka-2.1""#,
        &events.replace(
            r#""notify_controller": true"#,
            r#""notify_controller": true}, {"kind": "elect", "broker": "A", "deliver": ["A"]"#,
        ),
    );
    let s = fenced.steps.last().unwrap();
    assert_eq!(rejected(s), Some("FENCED_LEADER_EPOCH"));
    assert!(
        fenced.steps[s.index as usize - 1].state.replicas[c].known_epoch
            < fenced.steps[s.index as usize - 1].state.replicas[0].known_epoch
    );
    let open = story(
        r#"["A", "B", "C"]"#,
        r#""variant": "kip-279""#,
        &events.replace(
            r#""notify_controller": true"#,
            r#""notify_controller": true}, {"kind": "elect", "broker": "A", "deliver": ["A"]"#,
        ),
    );
    assert_eq!(open.steps.last().unwrap().outcome, Outcome::Applied);
}

#[test]
fn settle_fetches_until_nothing_changes() {
    let t = story(
        r#"["A", "B", "C"]"#,
        "",
        r#"[{"kind": "elect"}, {"kind": "produce"}, {"kind": "produce"}, {"kind": "settle"}]"#,
    );
    let s = &t.steps[3];
    for r in &s.state.replicas {
        assert_eq!(r.leo(), 2);
        assert_eq!(r.hw, 2);
    }
    assert!(s.narration.contains("until nothing changes"), "{}", s.narration);
    assert!(s.annotations.iter().any(|a| matches!(a, Annotation::Appended { broker: 2, .. })));
}

#[test]
fn shrink_isr_drops_a_lagging_follower_and_lets_the_hw_advance() {
    let t = ab(
        "",
        r#"[{"kind": "elect"}, {"kind": "produce"}, {"kind": "shrink_isr", "broker": "B"}, {"kind": "shrink_isr", "broker": "B"},
        {"kind": "shrink_isr", "broker": "A"}]"#,
    );
    let s = &t.steps[2];
    assert_eq!(s.state.controller.isr, BrokerSet::only(0));
    assert_eq!(s.state.replicas[A].isr, BrokerSet::only(0));
    assert_eq!(s.state.controller.leader_epoch, 0, "a leader's ISR change does not bump the epoch");
    assert_eq!(s.state.replicas[A].hw, 1);
    assert!(s.annotations.contains(&Annotation::IsrChanged {
        from: BrokerSet::first(2),
        to: BrokerSet::only(0),
        by_leader: Some(0)
    }));
    assert!(s.annotations.contains(&Annotation::Produced { record: 0, result: ProduceResult::Acked }));
    assert_eq!(rejected(&t.steps[3]), Some("NOT_IN_ISR"));
    assert_eq!(rejected(&t.steps[4]), Some("INVALID_REQUEST"));
}

#[test]
fn shrink_isr_refuses_a_caught_up_follower() {
    let t = ab(
        "",
        r#"[{"kind": "elect"}, {"kind": "produce"}, {"kind": "settle"}, {"kind": "shrink_isr", "broker": "B"}]"#,
    );
    assert_eq!(rejected(&t.steps[3]), Some("REPLICA_CAUGHT_UP"));
}

#[test]
fn crash_of_the_leader_with_notification_elects_a_new_leader() {
    let t = ab("", r#"[{"kind": "elect"}, {"kind": "produce"}, {"kind": "settle"}, {"kind": "crash", "broker": "A"}]"#);
    let s = &t.steps[3];
    assert!(!s.state.replicas[A].up);
    assert_eq!(s.state.replicas[A].role, Role::None);
    assert_eq!(s.state.controller.leader, Some(1));
    assert_eq!(s.state.controller.leader_epoch, 1);
    assert_eq!(s.state.controller.isr, BrokerSet::only(1));
    assert!(s.annotations.contains(&Annotation::Crashed { broker: 0, power: false }));
    assert!(s.annotations.iter().any(|a| matches!(a, Annotation::Elected { leader: Some(1), epoch: 1, .. })));
}

#[test]
fn crash_without_notification_leaves_the_controller_unaware() {
    let t = ab("", r#"[{"kind": "elect"}, {"kind": "crash", "broker": "B", "notify_controller": false}]"#);
    let s = &t.steps[1];
    assert_eq!(s.state.controller.isr, BrokerSet::first(2));
    assert_eq!(s.state.controller.leader_epoch, 0);
    assert!(s.state.controller.live.contains(1));
}

#[test]
fn crash_of_a_follower_shrinks_the_isr_with_an_epoch_bump() {
    let t = ab("", r#"[{"kind": "elect"}, {"kind": "crash", "broker": "B"}]"#);
    let s = &t.steps[1];
    assert_eq!(s.state.controller.isr, BrokerSet::only(0));
    assert_eq!(s.state.controller.leader_epoch, 1);
    assert_eq!(s.state.replicas[A].known_epoch, 1);
    assert!(s.annotations.contains(&Annotation::IsrChanged {
        from: BrokerSet::first(2),
        to: BrokerSet::only(0),
        by_leader: None
    }));
}

#[test]
fn power_crash_loses_the_unflushed_tail() {
    let t = ab(
        r#""flush": "manual""#,
        r#"[{"kind": "elect"}, {"kind": "produce", "record": "m1"}, {"kind": "flush", "broker": "A"},
        {"kind": "produce", "record": "m2", "acks": 1}, {"kind": "crash", "broker": "A", "power": true}]"#,
    );
    assert_eq!(t.steps[2].state.replicas[A].flushed, 1);
    let s = &t.steps[4];
    assert_eq!(labels(&t, A, 4), ["m1"]);
    assert!(s.annotations.contains(&Annotation::Truncated {
        broker: 0,
        to: 1,
        removed: vec![1],
        cause: TruncateCause::PowerLoss
    }));
    assert!(s.annotations.contains(&Annotation::Crashed { broker: 0, power: true }));
}

#[test]
fn restart_recovers_the_hw_from_the_checkpoint_and_trims_the_epoch_cache() {
    let t = ab(
        r#""hw_checkpoint": "manual", "flush": "manual""#,
        r#"[{"kind": "elect"}, {"kind": "produce"}, {"kind": "settle"},
        {"kind": "checkpoint_hw", "broker": "B"}, {"kind": "produce"}, {"kind": "settle"}, {"kind": "crash", "broker": "B", "power": true},
        {"kind": "restart", "broker": "B", "deliver": false}]"#,
    );
    assert_eq!(t.steps[3].state.replicas[B].hw_checkpoint, 1);
    assert_eq!(t.steps[5].state.replicas[B].hw, 2);
    let s = &t.steps[7];
    let b = &s.state.replicas[B];
    assert!(b.up);
    assert_eq!(b.leo(), 0, "nothing was flushed on B");
    assert_eq!(b.hw, 0, "HW = min(checkpoint 1, LEO 0)");
    assert!(b.epoch_cache.is_empty(), "entries at or past the LEO are dropped");
    assert_eq!(b.role, Role::None, "the LeaderAndIsr was held back");
    assert!(s.state.controller.outbox[B].is_some());
    assert!(s.annotations.contains(&Annotation::Restarted { broker: 1 }));
    assert_eq!(rejected(&ab("", r#"[{"kind": "restart", "broker": "A"}]"#).steps[0]), Some("BROKER_ALREADY_UP"));
}

#[test]
fn shutdown_flushes_checkpoints_and_moves_leadership() {
    let t = ab(
        r#""hw_checkpoint": "manual", "flush": "manual""#,
        r#"[{"kind": "elect"}, {"kind": "produce"}, {"kind": "settle"}, {"kind": "shutdown", "broker": "A"}]"#,
    );
    let s = &t.steps[3];
    let a = &s.state.replicas[A];
    assert!(!a.up);
    assert_eq!((a.flushed, a.hw_checkpoint), (1, 1));
    assert_eq!(s.state.controller.leader, Some(1));
    assert_eq!(s.state.controller.isr, BrokerSet::only(1));
}

#[test]
fn checkpoint_hw_and_flush_persist_the_current_values() {
    let t = ab(
        r#""hw_checkpoint": "manual", "flush": "manual""#,
        r#"[{"kind": "elect"}, {"kind": "produce"}, {"kind": "settle"},
        {"kind": "checkpoint_hw", "broker": "A"}, {"kind": "flush", "broker": "A"}]"#,
    );
    assert_eq!(t.steps[2].state.replicas[A].hw_checkpoint, 0);
    assert_eq!(t.steps[2].state.replicas[A].flushed, 0);
    assert_eq!(t.steps[3].state.replicas[A].hw_checkpoint, 1);
    assert_eq!(t.steps[4].state.replicas[A].flushed, 1);
}

#[test]
fn consume_reads_below_the_hw_and_is_remembered_for_i5() {
    let t = ab(
        r#""variant": "hw-truncation""#,
        include_str!("../src/presets/kip101-scenario-1.json")
            .split("\"events\": ")
            .nth(1)
            .unwrap()
            .trim_end()
            .trim_end_matches('}'),
    );
    let s = &t.steps[6];
    assert_eq!(s.kind, epochlab_core::scenario::EventKind::Consume);
    assert!(s.annotations.contains(&Annotation::Consumed { broker: 1, records: vec![0, 1] }));
    assert!(t.violations.iter().any(|v| v.invariant == epochlab_core::invariants::InvariantId::I5 && !v.by_design));
}

#[test]
fn zombie_ignores_leader_and_isr_but_keeps_fetching_and_rejoins_the_isr_without_fencing() {
    let events = r#"[{"kind": "elect"}, {"kind": "produce"}, {"kind": "settle"}, {"kind": "zombie", "broker": "B"},
        {"kind": "shrink_isr", "broker": "B"}, {"kind": "elect", "broker": "A"}, {"kind": "deliver", "broker": "B"}, {"kind": "fetch", "broker": "B"}]"#;
    let open = ab("", events);
    assert!(open.steps[3].state.replicas[B].zombie);
    assert_eq!(rejected(&open.steps[6]), Some("ZOMBIE"));
    assert_eq!(open.steps[7].outcome, Outcome::Applied);
    assert!(open.steps[7].state.controller.isr.contains(1), "without KIP-320 the zombie rejoins the ISR");
    let fenced = ab(r#""flags": ["kip-320"]"#, events);
    assert_eq!(rejected(&fenced.steps[7]), Some("FENCED_LEADER_EPOCH"));
}

#[test]
fn kafka_7415_records_the_new_epoch_in_the_leaders_cache_at_election() {
    let with = ab(r#""variant": "kafka-2.1""#, r#"[{"kind": "elect"}]"#);
    assert_eq!(with.steps[0].state.replicas[A].epoch_cache.latest_epoch(), 0);
    let without = ab(r#""variant": "kip-279""#, r#"[{"kind": "elect"}]"#);
    assert!(without.steps[0].state.replicas[A].epoch_cache.is_empty());
}

#[test]
fn kafka_7128_keeps_a_follower_out_of_the_isr_until_it_reaches_the_epoch_start() {
    // B becomes leader with LEO 2 (its epoch starts at 2) but a stale HW of 1, held there by C, which has not
    // fetched from it yet. A returns from a power loss with only r0 and fetches at offset 1, which reaches B's
    // HW: before KAFKA-7128 that is enough to rejoin the ISR, although A lacks r1 that B's HW may soon cover.
    let events = r#"[{"kind": "elect"}, {"kind": "produce", "record": "r0"}, {"kind": "settle"}, {"kind": "flush", "broker": "A"},
        {"kind": "produce", "record": "r1", "acks": 1}, {"kind": "fetch", "broker": "B"}, {"kind": "crash", "broker": "A", "power": true},
        {"kind": "restart", "broker": "A"}, {"kind": "fetch", "broker": "A"}, {"kind": "fetch", "broker": "A"}]"#;
    let brokers = r#"["A", "B", "C"]"#;
    let open = story(brokers, r#""variant": "kip-279", "flush": "manual""#, events);
    let s = &open.steps[9];
    assert_eq!(s.state.replicas[B].leader_epoch_start_offset, 2);
    assert_eq!(s.state.replicas[B].hw, 1);
    assert!(s.state.controller.isr.contains(0), "without KAFKA-7128, A rejoins at its fetch offset 1 = B's HW");
    assert!(s.annotations.iter().any(|a| matches!(a, Annotation::IsrChanged { by_leader: Some(1), .. })));
    let fixed = story(brokers, r#""variant": "kip-279", "flush": "manual", "flags": ["kafka-7128"]"#, events);
    assert!(!fixed.steps[9].state.controller.isr.contains(0), "with KAFKA-7128, A must first reach offset 2");
}
