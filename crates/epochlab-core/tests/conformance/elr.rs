//! KIP-966 eligible leader replicas in the KRaft controller (`PartitionChangeBuilderTest`,
//! `ReplicationControlManagerTest`), against the release model's contract (notes/releases-plan.md): brokers
//! 0..3 are A..D, min.insync.replicas 3, ELR on (4.1), and each case runs again under 4.0, where ELR is off. Kafka's "fence" of a broker that later comes back unfenced is a
//! clean `shutdown` and `restart` here (a clean shutdown keeps its ELR place); a fence it never returns from, or an
//! unclean shutdown, is a `crash`. The model changes the ISR one broker per event, and the builder's rule (the new
//! ELR is the old ISR and ELR minus the new ISR, and only while the ISR is below min ISR) is applied per change, as
//! `ReplicationControlManagerTest` fences brokers one by one.

use crate::support::{elr, isr, last_known_elr, leader, list, run_at, source};

/// Four brokers, min ISR 3, under 4.1 (KIP-966 on by default); the events follow.
fn run_elr(events: &str) -> epochlab_core::Trace {
    run_elr_at("4.1", events)
}

/// The same under another release: 4.0 leaves Eligible Leader Replicas off unless opted in, so it is the
/// release before KIP-966 for every case here.
fn run_elr_at(release: &str, events: &str) -> epochlab_core::Trace {
    run_at(release, &format!("brokers: A B C D\nmin_insync_replicas: 3\n{events}"))
}

/// The leader A drops D, then C, from the ISR (AlterPartition); B's fetch after each lets the controller's
/// answer arrive.
const SHRINK_D_THEN_C: &str = "1: shrink_isr D\n2: fetch B\n3: shrink_isr C\n4: fetch B\n";

#[test]
fn members_leaving_an_isr_below_min_isr_join_the_elr() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testEligibleLeaderReplicas_IsrShrinkBelowMinISR");
    // Partial: Kafka shrinks {1,2,3,4} to {1,2} in one AlterPartition and gets ELR {3,4}; the model changes the
    // ISR one broker at a time: D leaves an ISR that stays at min ISR (no ELR), C leaves it below: ELR {C}.
    let events = format!("0: elect A\n{SHRINK_D_THEN_C}");
    let t = run_elr(&events);
    assert_eq!((isr(&t, 2), elr(&t, 2)), (list(&["A", "B", "C"]), list(&[])));
    assert_eq!((isr(&t, 4), elr(&t, 4)), (list(&["A", "B"]), list(&["C"])));
    assert!(elr(&run_elr_at("4.0", &events), 4).is_empty(), "no ELR without KIP-966");
}

#[test]
fn an_isr_back_at_min_isr_clears_the_elr() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testEligibleLeaderReplicas_IsrExpandAboveMinISR");
    // ISR {A, B}, ELR {C}; C catches up and the ISR grows to {A, B, C}: the ELR is emptied.
    // C's fetch makes A propose it (AlterPartition); the controller's answer commits it by A's next fetch.
    let events = format!("0: elect A\n{SHRINK_D_THEN_C}5: fetch C\n6: fetch C\n");
    let t = run_elr(&events);
    assert_eq!(elr(&t, 4), ["C"]);
    assert_eq!((isr(&t, 6), elr(&t, 6)), (list(&["A", "B", "C"]), list(&[])));
    // Without KIP-966 (4.0) there is no ELR to clear: C leaves and rejoins the ISR alone.
    let old = run_elr_at("4.0", &events);
    assert_eq!((elr(&old, 4), isr(&old, 6)), (list(&[]), list(&["A", "B", "C"])));
}

#[test]
fn an_elr_member_is_elected_when_the_isr_empties() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testEligibleLeaderReplicas_ElrCanBeElected");
    // Kafka's start: ISR {1}, ELR {3}; replica 1 goes offline: leader 3, ISR {3}, ELR {1}. Built here: B leaves
    // the ISR into the ELR and is kicked out by its unclean restart, leaving ISR {A}, ELR {C}.
    let events = format!("0: elect A\n{SHRINK_D_THEN_C}5: crash B\n6: restart B\n7: crash A\n");
    let t = run_elr(&events);
    assert_eq!((isr(&t, 6), elr(&t, 6)), (list(&["A"]), list(&["C"])));
    assert_eq!(leader(&t, 7).as_deref(), Some("C"));
    assert_eq!((isr(&t, 7), elr(&t, 7)), (list(&["C"]), list(&["A"])));
    // Without KIP-966 (4.0) the ISR keeps its last member, A, and the partition goes offline.
    let old = run_elr_at("4.0", &events);
    assert_eq!((leader(&old, 7), isr(&old, 7)), (None, list(&["A"])));
}

#[test]
fn with_elr_the_isr_can_shrink_to_nothing() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testEligibleLeaderReplicas_IsrCanShrinkToZero");
    // Partial: Kafka's ELR is {1, 2, 3, 4}, from one change; here every replica goes offline one at a time, so
    // the ELR holds those that left below min ISR: A, B, C when D goes first, while the ISR still had 3. The
    // last known leader (lastKnownElr {1}) and its staying put through a later unclean shutdown are whole.
    let events = "0: elect A\n1: crash D\n2: crash C\n3: crash B\n4: crash A\n5: restart B\n";
    let t = run_elr(events);
    assert_eq!(leader(&t, 4), None);
    assert_eq!((isr(&t, 4), elr(&t, 4)), (list(&[]), list(&["A", "B", "C"])));
    assert_eq!(last_known_elr(&t, 4), ["A"]);
    assert_eq!((elr(&t, 5), last_known_elr(&t, 5)), (list(&["A", "C"]), list(&["A"])), "B's unclean shutdown");
    // Without KIP-966 (4.0) the ISR never empties: it keeps A, and there is no last known leader.
    let old = run_elr_at("4.0", events);
    assert_eq!((isr(&old, 4), elr(&old, 4), last_known_elr(&old, 4)), (list(&["A"]), list(&[]), list(&[])));
}

#[test]
fn fenced_brokers_join_the_elr_and_keep_it_when_unfenced() {
    source("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java@3.8.0#testEligibleLeaderReplicas_BrokerFence");
    // fenceBrokers(2, 3): ELR {3}; fenceBrokers(1, 2, 3): ELR {1, 3}; unfenceBrokers(0..3): still {1, 3}.
    let events = "0: elect A\n1: shutdown C\n2: shutdown D\n3: shutdown B\n4: restart B\n5: restart C\n6: restart D\n";
    let t = run_elr(events);
    assert_eq!(elr(&t, 2), ["D"]);
    assert_eq!((isr(&t, 3), elr(&t, 3)), (list(&["A"]), list(&["B", "D"])));
    assert_eq!(elr(&t, 6), ["B", "D"]);
    let old = run_elr_at("4.0", events);
    assert!((1..=6).all(|s| elr(&old, s).is_empty()), "no ELR without KIP-966");
}

#[test]
fn a_clean_election_picks_a_live_elr_member() {
    source("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java@3.8.0#testEligibleLeaderReplicas_CleanElection");
    // fenceBrokers(1, 2, 3): ELR {2, 3}; unfence 2, fence 0: leader 2, ISR {2}, ELR {0, 3}.
    let events = "0: elect A\n1: shutdown B\n2: shutdown C\n3: shutdown D\n4: restart C\n5: shutdown A\n";
    let t = run_elr(events);
    assert_eq!((isr(&t, 3), elr(&t, 3)), (list(&["A"]), list(&["C", "D"])));
    assert_eq!(leader(&t, 5).as_deref(), Some("C"));
    assert_eq!((isr(&t, 5), elr(&t, 5)), (list(&["C"]), list(&["A", "D"])));
    // Without KIP-966 (4.0) C is outside the ISR {A}: the partition goes offline.
    let old = run_elr_at("4.0", events);
    assert_eq!((leader(&old, 5), isr(&old, 5)), (None, list(&["A"])));
}

#[test]
fn an_unclean_shutdown_removes_a_broker_from_the_elr() {
    source("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java@3.8.0#testEligibleLeaderReplicas_UncleanShutdown");
    // fenceBrokers(1, 2, 3): ELR {2, 3}; broker 3 registers after an unclean shutdown: ELR {2}; broker 0, the
    // last ISR member, does too: ELR still {2}, and 0 is the last known leader.
    let events = "0: elect A\n1: crash B\n2: crash C\n3: crash D\n4: restart D\n5: crash A\n6: restart A\n";
    let t = run_elr(events);
    assert_eq!((elr(&t, 3), last_known_elr(&t, 3)), (list(&["C", "D"]), list(&[])));
    assert_eq!((isr(&t, 4), elr(&t, 4), last_known_elr(&t, 4)), (list(&["A"]), list(&["C"]), list(&[])));
    assert_eq!((isr(&t, 6), elr(&t, 6), last_known_elr(&t, 6)), (list(&[]), list(&["C"]), list(&["A"])));
    assert_eq!(leader(&t, 6), None, "C, the ELR member, is down; A is not elected while the ELR has members");
    // Without KIP-966 (4.0) A stays the ISR's last member and leads again once back.
    let old = run_elr_at("4.0", events);
    assert_eq!((elr(&old, 3), leader(&old, 6).as_deref(), isr(&old, 6)), (list(&[]), Some("A"), list(&["A"])));
}
