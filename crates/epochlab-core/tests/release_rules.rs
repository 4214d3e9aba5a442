//! What each Kafka release line adds beyond its truncation rule (model §12), run as stories: the 3.7 min-ISR
//! HW gate, KIP-966's Eligible Leader Replicas, KIP-380's bounce detection, the unclean-election defaults,
//! the inter-broker protocol and message format knobs, and 2.8.0's missing KAFKA-13141.

use epochlab_core::invariants::InvariantId;
use epochlab_core::scenario::text::parse_text;
use epochlab_core::state::State;
use epochlab_core::{run, Scenario, Trace};

fn scenario(release: &str, extra: &str, events: &str) -> Scenario {
    let text = format!("name: t\nbrokers: A B C\nkafka_version: {release}\n{extra}\n{events}");
    parse_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn bugs(t: &Trace) -> Vec<InvariantId> {
    let mut ids: Vec<InvariantId> = t.violations.iter().filter(|v| !v.by_design).map(|v| v.invariant).collect();
    ids.dedup();
    ids
}

fn leader_hw(s: &State) -> u32 {
    s.controller.leader.map_or(0, |l| s.replica(l).hw)
}

/// m2 is accepted with acks=1 while the ISR is down to the leader alone, below min ISR 2.
const UNDER_MIN_ISR: &str =
    "elect A\nproduce m1\nsettle\nproduce m2 acks=1\nshrink_isr B\nshrink_isr C\nconsume\nfetch B\nfetch B\n";

#[test]
fn from_3_7_the_leader_holds_its_hw_while_the_isr_is_below_min_isr() {
    let before = run(&scenario("3.6", "min_insync_replicas: 2", UNDER_MIN_ISR));
    let after = run(&scenario("3.7", "min_insync_replicas: 2", UNDER_MIN_ISR));
    // Step 5 drops C: 3.6 commits m2 with the leader alone; 3.7 keeps the HW at 1.
    assert_eq!(leader_hw(&before.steps[5].state), 2);
    assert_eq!(leader_hw(&after.steps[5].state), 1);
    assert!(
        after.steps[5].narration.contains("below min.insync.replicas 2 (Kafka 3.7"),
        "{}",
        after.steps[5].narration
    );
    // The consumer at step 6 sees nothing new under 3.7.
    assert_eq!(before.steps[6].state.replica(0).hw, 2);
    assert_eq!(after.steps[6].state.replica(0).hw, 1);
    // B catches up and rejoins: the ISR is back at min ISR, and the HW moves again.
    assert_eq!(after.steps[8].state.controller.isr.len(), 2);
    assert_eq!(leader_hw(&after.steps[8].state), 2);
}

/// KIP-966's motivating story: the last ISR member loses power with a committed record unflushed.
const LAST_REPLICA_STANDING: &str = "elect A\nproduce m1\nsettle\nflush A\nflush B\nflush C\ncrash C\nproduce m2\nfetch B\nfetch B\nshutdown B\ncrash A power\nrestart A\nrestart B\nsettle\n";

#[test]
fn before_eligible_leader_replicas_the_last_replica_standing_takes_committed_data_with_it() {
    let t = run(&scenario("3.7", "min_insync_replicas: 2\nflush: manual", LAST_REPLICA_STANDING));
    let lost = t.violations.iter().find(|v| v.invariant == InvariantId::I1).expect("m2 is lost");
    assert!(lost.by_design, "every ISR member lost power: Kafka's guarantee did not cover it before KIP-966");
    assert_eq!(t.final_state().controller.leader, Some(0), "A, back without m2, was re-elected");
}

#[test]
fn with_eligible_leader_replicas_the_replica_that_lost_power_is_not_re_elected() {
    let t = run(&scenario("4.1", "min_insync_replicas: 2\nflush: manual", LAST_REPLICA_STANDING));
    assert!(t.violations.iter().all(|v| v.invariant != InvariantId::I1), "{:?}", t.violations);
    // B shut down cleanly while the ISR was below min ISR: it joined the ELR (step 10).
    assert!(t.steps[10].state.controller.elr.contains(1));
    // A lost power as the last ISR member: the ISR empties into the ELR, and A leaves it at registration.
    let after_power = &t.steps[11].state.controller;
    assert!(after_power.isr.is_empty() && after_power.elr.contains(0) && after_power.elr.contains(1));
    assert!(!t.steps[12].state.controller.elr.contains(0), "{}", t.steps[12].narration);
    assert_eq!(t.steps[12].state.controller.leader, None, "A may not lead: the partition stays offline");
    // B returns and is elected from the ELR with every committed record; A follows and gets m2 back.
    assert_eq!(t.steps[13].state.controller.leader, Some(1));
    assert!(t.steps[13].narration.contains("Eligible Leader Replicas (KIP-966)"), "{}", t.steps[13].narration);
    assert_eq!(t.final_state().replica(0).leo(), 2);
    // 4.0 has it only when enabled.
    let off = run(&scenario("4.0", "min_insync_replicas: 2\nflush: manual", LAST_REPLICA_STANDING));
    assert!(off.violations.iter().any(|v| v.invariant == InvariantId::I1));
    let on =
        scenario("4.0", "min_insync_replicas: 2\nflush: manual\neligible_leader_replicas: true", LAST_REPLICA_STANDING);
    assert!(run(&on).violations.iter().all(|v| v.invariant != InvariantId::I1));
}

#[test]
fn from_2_2_a_bounce_the_controller_was_not_told_of_is_noticed_at_registration() {
    let events = "elect A\nproduce m1\nfetch B\nfetch B\ncrash B no-notify\nrestart B\n";
    let old = run(&scenario("2.1", "", events));
    let new = run(&scenario("2.2", "", events));
    assert_eq!(old.final_state().controller.isr.len(), 3, "before KIP-380 the ISR never changed");
    assert!(old.steps[5].narration.contains("faster than ZooKeeper's session timeout"), "{}", old.steps[5].narration);
    assert!(!new.final_state().controller.isr.contains(1), "the controller removed B when it noticed the bounce");
    assert_eq!(new.final_state().controller.leader_epoch, old.final_state().controller.leader_epoch + 1);
    assert!(new.steps[5].narration.contains("KIP-380"), "{}", new.steps[5].narration);
}

#[test]
fn unclean_leader_election_takes_the_releases_default_unless_it_is_set() {
    let events = "elect A\nproduce m1\ncrash C\ncrash B\nproduce m2\ncrash A\nrestart B\n";
    let old = run(&scenario("0.10.2", "", events));
    assert_eq!(old.final_state().controller.leader, Some(1), "0.10.2 elects B uncleanly by default");
    assert!(old.steps[6].narration.contains("on by default in Kafka 0.10.2"), "{}", old.steps[6].narration);
    let new = run(&scenario("0.11.0", "", events));
    assert_eq!(new.final_state().controller.leader, None, "from 0.11 the partition stays offline");
    let set = run(&scenario("0.10.2", "unclean_leader_election: false", events));
    assert_eq!(set.final_state().controller.leader, None);
}

#[test]
fn an_old_inter_broker_protocol_or_message_format_truncates_to_the_hw_on_any_later_release() {
    // Every election clean, no bounce: C's last response is lost, so C truncates m2 away when B takes over.
    let events = "elect A\nproduce m1\nfetch B\nfetch C\nproduce m2\nfetch B\nfetch C\nfetch B\nfetch C drop\ncrash A\ncrash B\n";
    let s = scenario("2.8", "", events);
    assert!(bugs(&run(&s)).is_empty(), "2.8 as shipped keeps the record");
    let knobs = [
        ("inter_broker_protocol_version", "inter-broker protocol 0.10.2"),
        ("log_message_format_version", "message format 0.10.2"),
    ];
    for (knob, words) in knobs {
        let mut held = s.clone();
        let v = epochlab_core::variant::ProtocolVersion::parse("0.10.2").ok();
        match knob {
            "inter_broker_protocol_version" => held.config.inter_broker_protocol_version = v,
            _ => held.config.log_message_format_version = v,
        }
        let t = run(&held);
        assert!(bugs(&t).contains(&InvariantId::I1), "{knob}: {:?}", t.violations);
        let said = t.steps.iter().any(|st| st.narration.contains(words) && st.narration.contains("hw-truncation rule"));
        assert!(said, "the narration says why it truncated to its HW ({knob})");
    }
}

#[test]
fn kafka_2_8_0_records_the_offset_of_a_diverging_fetch_and_2_8_1_does_not() {
    // A writes m2 alone and fails over to B (epoch 1), which writes m3; A returns and fetches past the
    // divergence: 2.8.0's leader records A's fetch offset 2, 2.8.1's keeps it unknown (KAFKA-13141).
    let events = "elect A\nproduce m1\nsettle\nproduce m2 acks=1\ncrash A\nproduce m3 acks=1\nrestart A\nfetch A\n";
    let remote = |release: &str| {
        let t = run(&scenario(release, "", events));
        let st = t.final_state();
        let leader = st.controller.leader.expect("B leads");
        st.replica(leader).remote_leo[0]
    };
    assert_eq!(remote("2.8.0"), 2);
    assert_eq!(remote("2.8.1"), -1);
}

#[test]
fn kafka_2_8_0_can_count_a_diverged_follower_toward_the_hw_and_2_8_1_cannot() {
    // Found by the safety property: C leads epoch 0 and writes r0; A is elected (epoch 1) before C's record
    // reached it; C's fetch offset 1 is recorded from a diverging fetch, so A's HW counts C as holding
    // offset 0, which it is about to lose (KAFKA-13141's bug).
    let events = "elect C\nproduce\nelect\ncrash B\nfetch C\nproduce broker=A\n";
    let buggy = run(&scenario("2.8.0", "", events));
    assert!(bugs(&buggy).contains(&InvariantId::I4), "{:?}", buggy.violations);
    assert!(bugs(&run(&scenario("2.8.1", "", events))).is_empty());
}
