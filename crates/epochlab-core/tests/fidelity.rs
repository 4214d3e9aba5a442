//! The three fidelity fixes of the groundwork issue, one test per behaviour: an election that finds nobody
//! on an offline partition changes nothing; `settle` names everything it caused; narration never states a
//! reason the configuration or the state contradicts.

use epochlab_core::state::Role;
use epochlab_core::trace::{Annotation, Outcome};
use epochlab_core::{parse_scenario, run, Trace};

fn story(brokers: &str, config: &str, events: &str) -> Trace {
    let json =
        format!(r#"{{"version": 1, "name": "t", "brokers": {brokers}, "config": {{{config}}}, "events": {events}}}"#);
    run(&parse_scenario(&json).unwrap_or_else(|e| panic!("bad test scenario: {e}")))
}

const A: usize = 0;
const B: usize = 1;

/// A leads, B dies and leaves the ISR (epoch 1), then A dies and the partition goes offline (epoch 2).
const OFFLINE: &str =
    r#"{"kind": "elect", "broker": "A"}, {"kind": "crash", "broker": "B"}, {"kind": "crash", "broker": "A"}"#;

#[test]
fn the_first_offline_transition_bumps_the_epoch() {
    let t = story(r#"["A", "B"]"#, "", &format!("[{OFFLINE}]"));
    let offline = &t.steps[2];
    assert_eq!((offline.state.controller.leader, offline.state.controller.leader_epoch), (None, 2));
    assert!(offline.annotations.iter().any(|a| matches!(a, Annotation::Elected { leader: None, epoch: 2, .. })));
}

#[test]
fn an_election_that_finds_nobody_on_an_offline_partition_changes_nothing() {
    let events = format!(
        r#"[{OFFLINE}, {{"kind": "elect"}}, {{"kind": "elect", "broker": "B"}}, {{"kind": "elect", "broker": "A"}}]"#
    );
    let t = story(r#"["A", "B"]"#, "", &events);
    for step in &t.steps[3..] {
        assert_eq!(
            step.outcome,
            Outcome::Rejected { reason: epochlab_core::kafka_error::KafkaError::EligibleLeadersNotAvailable },
            "{}",
            step.narration
        );
        assert_eq!(step.state, t.steps[2].state, "nothing changes: {}", step.narration);
    }
    assert!(t.steps[3].narration.contains("is offline"), "{}", t.steps[3].narration);
}

#[test]
fn a_restart_that_finds_nobody_eligible_leaves_the_partition_offline_in_its_epoch() {
    // B was removed from the ISR {A}: with unclean election off it cannot lead when it comes back.
    let t = story(r#"["A", "B"]"#, "", &format!(r#"[{OFFLINE}, {{"kind": "restart", "broker": "B"}}]"#));
    let restart = &t.steps[3];
    assert_eq!(restart.outcome, Outcome::Applied);
    assert!(restart.state.replicas[B].up);
    assert_eq!((restart.state.controller.leader, restart.state.controller.leader_epoch), (None, 2));
    assert!(!restart.annotations.iter().any(|a| matches!(a, Annotation::Elected { .. })));
    assert!(restart.narration.contains("ELIGIBLE_LEADERS_NOT_AVAILABLE"), "{}", restart.narration);
}

#[test]
fn a_settle_names_the_halt_and_the_isr_change_it_caused() {
    // The out-of-range story of handlers.rs, ending in a settle instead of a fetch: under hw-truncation with
    // unclean election off, B halts on OFFSET_OUT_OF_RANGE and the controller drops it from the ISR.
    let events = r#"[{"kind": "elect", "broker": "B"}, {"kind": "produce", "record": "m1"}, {"kind": "fetch", "broker": "A"},
        {"kind": "produce", "record": "m2"}, {"kind": "fetch", "broker": "A"}, {"kind": "fetch", "broker": "A", "drop_response": true},
        {"kind": "crash", "broker": "A", "notify_controller": false}, {"kind": "restart", "broker": "A"},
        {"kind": "crash", "broker": "B"}, {"kind": "restart", "broker": "B"}, {"kind": "settle"}]"#;
    let t = story(r#"["A", "B"]"#, r#""variant": "hw-truncation""#, events);
    let settle = &t.steps[10];
    assert!(!settle.state.replicas[B].up, "B halted");
    assert!(settle.annotations.contains(&Annotation::Halted { broker: B as u8 }));
    assert!(!settle.narration.contains("nothing to do"), "{}", settle.narration);
    assert!(settle.narration.contains("B halts on OFFSET_OUT_OF_RANGE"), "{}", settle.narration);
    if t.steps[9].state.controller.isr != settle.state.controller.isr {
        assert!(settle.narration.contains("changes the ISR"), "{}", settle.narration);
    }
}

#[test]
fn a_leaders_crash_with_no_live_broker_under_unclean_election_says_no_broker_is_live() {
    let t = story(r#"["A", "B"]"#, r#""unclean_leader_election": true"#, &format!("[{OFFLINE}]"));
    let text = &t.steps[2].narration;
    assert!(text.contains("no broker is live"), "{text}");
    assert!(!text.contains("unclean election is disabled"), "{text}");
}

#[test]
fn a_restarted_follower_whose_leader_did_not_change_is_not_told_it_did() {
    // A leads throughout; B crashes (the controller does not notice) and restarts under kip-279.
    let events = r#"[{"kind": "elect", "broker": "A"}, {"kind": "produce", "record": "m1"}, {"kind": "settle"},
        {"kind": "crash", "broker": "B", "notify_controller": false}, {"kind": "restart", "broker": "B"}]"#;
    let t = story(r#"["A", "B"]"#, r#""variant": "kip-279""#, events);
    let restart = &t.steps[4];
    assert_eq!(restart.state.replicas[B].role, Role::Follower);
    assert_eq!(restart.state.replicas[B].known_leader, Some(A as u8));
    assert!(!restart.narration.contains("the leader changed"), "{}", restart.narration);
    assert!(restart.narration.contains("knew no leader"), "{}", restart.narration);
}

#[test]
fn a_new_leader_is_narrated_with_the_hw_the_step_ends_with() {
    // B crashes and leaves the ISR: A, re-elected in the new epoch, alone decides the HW and moves it to its
    // LEO in the same step; the sentence says so instead of stopping at the HW it started from.
    let events = r#"[{"kind": "elect", "broker": "A"}, {"kind": "produce", "record": "m1", "acks": 1},
        {"kind": "crash", "broker": "B"}]"#;
    let t = story(r#"["A", "B"]"#, r#""variant": "kip-279""#, events);
    let crash = &t.steps[2];
    assert_eq!(crash.state.replicas[A].hw, 1);
    assert!(crash.narration.contains("with its own HW 0 and LEO 1"), "{}", crash.narration);
    assert!(crash.narration.contains("moves its HW to 1"), "{}", crash.narration);
}
