//! KIP-966 eligible leader replicas in the KRaft controller (`PartitionChangeBuilderTest`,
//! `ReplicationControlManagerTest`), against the release model's contract (notes/releases-plan.md): brokers
//! 0..3 are A..D, min.insync.replicas 3, ELR on. Kafka's "fence" of a broker that later comes back unfenced is a
//! clean `shutdown` and `restart` here (a clean shutdown keeps its ELR place); a fence it never returns from, or an
//! unclean shutdown, is a `crash`. The model changes the ISR one broker per event, and the builder's rule (the new
//! ELR is the old ISR and ELR minus the new ISR, and only while the ISR is below min ISR) is applied per change, as
//! `ReplicationControlManagerTest` fences brokers one by one.

use crate::support::{elr, isr, leader, list, run_text, source};

/// Four brokers, KIP-966 on, min ISR 3; the events follow.
fn run_elr(events: &str) -> epochlab_core::Trace {
    run_text(&format!(
        "brokers: A B C D\nkafka_version: 4.1\neligible_leader_replicas: true\nmin_insync_replicas: 3\n{events}"
    ))
}

#[test]
fn members_leaving_an_isr_below_min_isr_join_the_elr() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testEligibleLeaderReplicas_IsrShrinkBelowMinISR");
    // Kafka shrinks {1,2,3,4} to {1,2} in one AlterPartition and gets ELR {3,4}. One at a time: D leaves an ISR
    // that stays at min ISR (no ELR), C leaves it below: ELR {C}.
    let t = run_elr("0: elect A\n1: shrink_isr D\n2: shrink_isr C\n");
    assert_eq!((isr(&t, 1), elr(&t, 1)), (list(&["A", "B", "C"]), list(&[])));
    assert_eq!((isr(&t, 2), elr(&t, 2)), (list(&["A", "B"]), list(&["C"])));
}

#[test]
fn an_isr_back_at_min_isr_clears_the_elr() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testEligibleLeaderReplicas_IsrExpandAboveMinISR");
    // ISR {A, B}, ELR {C}; C catches up and the ISR grows to {A, B, C}: the ELR is emptied.
    let t = run_elr("0: elect A\n1: shrink_isr D\n2: shrink_isr C\n3: fetch C\n");
    assert_eq!(elr(&t, 2), ["C"]);
    assert_eq!((isr(&t, 3), elr(&t, 3)), (list(&["A", "B", "C"]), list(&[])));
}

#[test]
fn an_elr_member_is_elected_when_the_isr_empties() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testEligibleLeaderReplicas_ElrCanBeElected");
    // Kafka's start: ISR {1}, ELR {3}; replica 1 goes offline: leader 3, ISR {3}, ELR {1}. Built here: B leaves
    // the ISR into the ELR and is kicked out by its unclean restart, leaving ISR {A}, ELR {C}.
    let t = run_elr("0: elect A\n1: shrink_isr D\n2: shrink_isr C\n3: crash B\n4: restart B\n5: crash A\n");
    assert_eq!((isr(&t, 4), elr(&t, 4)), (list(&["A"]), list(&["C"])));
    assert_eq!(leader(&t, 5).as_deref(), Some("C"));
    assert_eq!((isr(&t, 5), elr(&t, 5)), (list(&["C"]), list(&["A"])));
}

#[test]
fn with_elr_the_isr_can_shrink_to_nothing() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testEligibleLeaderReplicas_IsrCanShrinkToZero");
    // Every replica goes offline: no leader, an empty ISR, and the ELR holds those that left below min ISR (all
    // four in Kafka's single change; A, B, C when D goes first, while the ISR still had 3).
    let t = run_elr("0: elect A\n1: crash D\n2: crash C\n3: crash B\n4: crash A\n");
    assert_eq!(leader(&t, 4), None);
    assert_eq!((isr(&t, 4), elr(&t, 4)), (list(&[]), list(&["A", "B", "C"])));
}

#[test]
fn fenced_brokers_join_the_elr_and_keep_it_when_unfenced() {
    source("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java@3.8.0#testEligibleLeaderReplicas_BrokerFence");
    // fenceBrokers(2, 3): ELR {3}; fenceBrokers(1, 2, 3): ELR {1, 3}; unfenceBrokers(0..3): still {1, 3}.
    let t =
        run_elr("0: elect A\n1: shutdown C\n2: shutdown D\n3: shutdown B\n4: restart B\n5: restart C\n6: restart D\n");
    assert_eq!(elr(&t, 2), ["D"]);
    assert_eq!((isr(&t, 3), elr(&t, 3)), (list(&["A"]), list(&["B", "D"])));
    assert_eq!(elr(&t, 6), ["B", "D"]);
}

#[test]
fn a_clean_election_picks_a_live_elr_member() {
    source("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java@3.8.0#testEligibleLeaderReplicas_CleanElection");
    // fenceBrokers(1, 2, 3): ELR {2, 3}; unfence 2, fence 0: leader 2, ISR {2}, ELR {0, 3}.
    let t = run_elr("0: elect A\n1: shutdown B\n2: shutdown C\n3: shutdown D\n4: restart C\n5: shutdown A\n");
    assert_eq!((isr(&t, 3), elr(&t, 3)), (list(&["A"]), list(&["C", "D"])));
    assert_eq!(leader(&t, 5).as_deref(), Some("C"));
    assert_eq!((isr(&t, 5), elr(&t, 5)), (list(&["C"]), list(&["A", "D"])));
}

#[test]
fn an_unclean_shutdown_removes_a_broker_from_the_elr() {
    source("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java@3.8.0#testEligibleLeaderReplicas_UncleanShutdown");
    // fenceBrokers(1, 2, 3): ELR {2, 3}; broker 3 registers after an unclean shutdown: ELR {2}. (Kafka's last
    // known leader, set by broker 0's unclean shutdown next, is not modelled.)
    let t = run_elr("0: elect A\n1: crash B\n2: crash C\n3: crash D\n4: restart D\n");
    assert_eq!(elr(&t, 3), ["C", "D"]);
    assert_eq!((isr(&t, 4), elr(&t, 4)), (list(&["A"]), list(&["C"])));
}
