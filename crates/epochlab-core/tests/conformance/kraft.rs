//! The KRaft controller (`PartitionChangeBuilderTest`, `ReplicationControlManagerTest`), the leader's side of
//! it (`PartitionTest` at 3.7.0) and the start-up check of the old protocol knobs (`KafkaConfigTest`). Kafka's
//! "fence" of a broker is a `crash` whose session expires (the controller is told), its "unfence" a `restart`,
//! an unclean shutdown a `crash` followed by the `restart` that registers it again; a leader's AlterPartition
//! is `shrink_isr` or the fetch that lets a follower back in. Brokers are named A, B, … in the order of the
//! test's replica list. Each case runs again under the release (or mode) before the rule it pins.

use epochlab_core::scenario::text::parse_text;

use crate::support::{
    at, elections, elr, isr, last_known_elr, leader, leader_epoch, leader_isr, list, partition_epoch, rejected,
    replica, run_at, run_kraft, source,
};

/// `FOO` (replicas {2, 1, 3}, all in the ISR, leader 1) as A, B, C led by B; A catches up and C never
/// fetches, so the leader drops C (AlterPartition {2, 1}); A's next fetch lets any answer arrive.
const FOO_SHRINK: &str = "brokers: A B C
0: elect B
1: produce m0 acks=1
2: fetch A
3: fetch A
4: shrink_isr C
5: fetch A
";

/// The leader epoch and Kafka's partition epoch after step 5 of [`FOO_SHRINK`], with the ISR then.
fn foo_shrink(release: &str) -> (i32, i32, Vec<String>) {
    let t = run_kraft(release, FOO_SHRINK);
    (leader_epoch(&t, 5), partition_epoch(&t, 5), isr(&t, 5))
}

#[test]
fn kraft_from_3_6_keeps_the_leader_epoch_when_the_isr_shrinks() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testNoLeaderEpochBumpOnIsrShrink");
    // The test's metadata versions 3.6-IV0, 3.7-IV2 and 3.9-IV0: NO_LEADER_CHANGE, so only the partition epoch
    // moves (`PartitionRegistration.merge`).
    for release in ["3.6", "3.7", "3.9"] {
        assert_eq!(foo_shrink(release), (0, 1, list(&["A", "B"])), "KRaft {release}");
    }
    // KRaft 3.5 (before KAFKA-15021) writes the shrink with a new leader epoch.
    assert_eq!(foo_shrink("3.5").0, 1);
}

#[test]
fn kraft_before_3_6_raises_the_leader_epoch_when_the_isr_shrinks() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testLeaderEpochBumpOnIsrShrink");
    // The test's metadata versions 3.4-IV0 and 3.5-IV2: the record sets leader 1, the same leader in a new epoch.
    for release in ["3.4", "3.5"] {
        assert_eq!(foo_shrink(release), (1, 1, list(&["A", "B"])), "KRaft {release}");
    }
    // From 3.6 (KAFKA-15021) the same shrink keeps epoch 0.
    assert_eq!(foo_shrink("3.6").0, 0);
}

/// `FOO` with a fourth replica D (4) that leaves the ISR and comes back: {2, 1, 3} to {2, 1, 3, 4}.
const FOO_EXPAND: &str = "brokers: A B C D
0: elect B
1: shrink_isr D
2: fetch A           # any answer to the shrink arrives
3: produce m0 acks=1
4: fetch D           # D joins, or is proposed
5: fetch A           # any answer to the expansion arrives
";

#[test]
fn an_isr_expansion_never_raises_the_leader_epoch() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testNoLeaderEpochBumpOnIsrExpansion");
    // Every metadata version: the expansion moves the partition epoch only. No release of the model raises the
    // leader epoch on an expansion, so the contrast is KRaft 3.5's shrink just before it, which does.
    for release in ["3.5", "3.8"] {
        let t = run_kraft(release, FOO_EXPAND);
        assert_eq!((isr(&t, 3), isr(&t, 5)), (list(&["A", "B", "C"]), list(&["A", "B", "C", "D"])), "{release}");
        assert_eq!(leader_epoch(&t, 5), leader_epoch(&t, 3), "KRaft {release}: the expansion keeps the epoch");
        assert_eq!(partition_epoch(&t, 5), partition_epoch(&t, 3) + 1, "KRaft {release}");
    }
    let old = run_kraft("3.5", FOO_EXPAND);
    assert_eq!((leader_epoch(&old, 0), leader_epoch(&old, 2)), (0, 1), "3.5's shrink raised it");
}

/// Broker 0 (A) leads and bounces faster than its session timeout; the new incarnation registers.
const LEADER_BOUNCES: &str = "brokers: A B C
0: elect A
1: produce m0
2: settle
3: crash A no-notify
4: restart A
";

#[test]
fn fencing_a_broker_removes_its_leadership_and_isr_place() {
    source("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java@3.8.0#testRemoveLeaderships");
    // Partial: one partition, one where broker 0 leads (Kafka's partitions 0 and 3). Its fence here is the one
    // that lets the new incarnation register: the old registration is fenced first (`handleBrokerFenced`).
    let t = run_kraft("3.8", LEADER_BOUNCES);
    assert_eq!((leader(&t, 3).as_deref(), isr(&t, 3)), (Some("A"), list(&["A", "B", "C"])), "session alive");
    assert_eq!((leader(&t, 4).as_deref(), isr(&t, 4)), (Some("B"), list(&["B", "C"])));
    // ZooKeeper before KIP-380 (2.1) never notices such a bounce: A keeps its leadership and ISR place.
    let old = run_at("2.1", LEADER_BOUNCES);
    assert_eq!((leader(&old, 4).as_deref(), isr(&old, 4)), (Some("A"), list(&["A", "B", "C"])));
}

#[test]
fn fencing_brokers_one_by_one_leaves_the_isr_to_the_rest() {
    source("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java@3.8.0#testFenceMultipleBrokers");
    // Partial: partitions {1, 2, 3} and {2, 3, 4} of the three. fenceBrokers(2, 3) on {1, 2, 3} (A, B, C: leader
    // 1 stays, ISR {1}) and on {2, 3, 4} (the leader moves to 4, ISR {4}). Kafka asserts leaders and ISRs; the
    // epochs tell KRaft 3.6+ from what came before.
    let followers = "brokers: A B C\n0: elect A\n1: produce m0\n2: settle\n3: crash B\n4: crash C\n";
    let t = run_kraft("3.8", followers);
    assert_eq!((leader(&t, 4).as_deref(), isr(&t, 4)), (Some("A"), list(&["A"])));
    assert_eq!((leader_epoch(&t, 4), partition_epoch(&t, 4)), (0, 2));
    let leaders = "brokers: A B C\n0: elect A\n1: produce m0\n2: settle\n3: crash A\n4: crash B\n";
    let t = run_kraft("3.8", leaders);
    assert_eq!((leader(&t, 4).as_deref(), isr(&t, 4)), (Some("C"), list(&["C"])));
    // KRaft 3.5 (before KAFKA-15021) raises the leader epoch at each follower's fence.
    assert_eq!(leader_epoch(&run_kraft("3.5", followers), 4), 2);
}

/// Replicas {1, 2, 3, 4} as A, B, C, D. C is fenced; once back it is proposed for the ISR, and fenced again
/// before the controller answers; back once more, it is proposed again.
const FENCED_PROPOSAL: &str = "brokers: A B C D
0: elect A
1: produce m0
2: settle
3: crash C           # handleBrokerFenced(3)
4: restart C
5: fetch C           # A proposes {A, B, C, D}
6: crash C           # fenced before the answer
7: fetch B           # the controller's answer: INELIGIBLE_REPLICA
8: restart C         # handleBrokerUnfenced(3)
9: fetch C           # the same proposal
10: fetch B          # committed
";

#[test]
fn the_controller_refuses_a_fenced_broker_in_the_isr() {
    source("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java@3.8.0#testAlterPartitionShouldRejectFencedBrokers");
    // Partial: Kafka's leader sends the AlterPartition while 3 is fenced; here it proposes 3 while 3 is live and
    // the controller answers after 3's fence, with INELIGIBLE_REPLICA (AlterPartition v2+; v0-1's
    // OPERATION_NOT_ATTEMPTED is not told apart). KIP-841. After the fence: ISR {1, 2, 4}, leader 1, leader
    // epoch 0, partition epoch 1. Once 3 is unfenced the proposal commits: ISR {1, 2, 3, 4}, leader epoch 0,
    // partition epoch 2.
    let t = run_kraft("3.8", FENCED_PROPOSAL);
    assert_eq!((isr(&t, 3), leader(&t, 3).as_deref()), (list(&["A", "B", "D"]), Some("A")));
    assert_eq!((leader_epoch(&t, 3), partition_epoch(&t, 3)), (0, 1));
    assert!(t.steps[7].narration.contains("INELIGIBLE_REPLICA"), "{}", t.steps[7].narration);
    assert_eq!((leader_isr(&t, 7, "A"), isr(&t, 7)), (list(&["A", "B", "D"]), list(&["A", "B", "D"])));
    assert_eq!(isr(&t, 10), ["A", "B", "C", "D"]);
    assert_eq!((leader_epoch(&t, 10), partition_epoch(&t, 10)), (0, 2));
    // KRaft 3.5 (before KAFKA-15021): the fence writes leader epoch 1.
    assert_eq!(leader_epoch(&run_kraft("3.5", FENCED_PROPOSAL), 3), 1);
}

/// The test's partition of four replicas, min ISR 3, run under `release` (4.1: ELR on; 4.0: off).
fn four_replicas(release: &str, events: &str) -> epochlab_core::Trace {
    run_at(release, &format!("brokers: A B C D\nmin_insync_replicas: 3\n{events}"))
}

/// ISR {1}, ELR {2, 3} (A; B, C), then 3 registers again after an unclean shutdown.
const UNCLEAN_ELR_MEMBER: &str = "0: elect A
1: crash D           # ISR {A, B, C}: at min ISR, no ELR
2: crash C           # ISR {A, B}, ELR {C}
3: crash B           # ISR {A}, ELR {B, C}
4: restart C         # unclean shutdown of 3
";

#[test]
fn an_unclean_shutdown_takes_a_replica_out_of_the_elr() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testEligibleLeaderReplicas_RemoveUncleanShutdownReplicasFromElr");
    // Partial: ELR {2, 3} becomes {2}, with no new leader. The test's lastKnownElr {3} is the builder's with
    // last-known-leader recovery off (`setUseLastKnownLeaderInBalancedRecovery(false)`), which no production
    // caller sets; with it on, lastKnownElr names the last leader only (as `ReplicationControlManagerTest`'s
    // `_UncleanShutdown` asserts), and the model keeps it empty here.
    let t = four_replicas("4.1", UNCLEAN_ELR_MEMBER);
    assert_eq!((isr(&t, 3), elr(&t, 3)), (list(&["A"]), list(&["B", "C"])));
    assert_eq!((isr(&t, 4), elr(&t, 4), last_known_elr(&t, 4)), (list(&["A"]), list(&["B"]), list(&[])));
    assert_eq!((leader(&t, 4).as_deref(), leader_epoch(&t, 4)), (Some("A"), 0));
    assert_eq!(partition_epoch(&t, 4), partition_epoch(&t, 3) + 1);
    // 4.0 without the opt-in has no ELR to take it out of.
    assert!((1..=4).all(|s| elr(&four_replicas("4.0", UNCLEAN_ELR_MEMBER), s).is_empty()));
}

/// Every replica goes offline, the leader A last; they come back one by one, each after an unclean shutdown,
/// A last: ISR and ELR are then empty and A is the last known leader.
const ALL_DOWN_LEADER_BACK_LAST: &str = "0: elect A
1: crash B
2: crash C
3: crash D
4: crash A           # ISR {}, ELR {A, C, D}, last known leader A
5: restart B
6: restart C
7: restart D
8: restart A
";

#[test]
fn the_last_known_leader_is_elected_when_isr_and_elr_are_empty() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testEligibleLeaderReplicas_ElectLastKnownLeader");
    // Partial: leader 1, ISR [1], lastKnownElr cleared; the RECOVERING state (KIP-704) is not modelled, but the
    // election is unclean, which is what RECOVERING marks.
    let t = four_replicas("4.1", ALL_DOWN_LEADER_BACK_LAST);
    assert_eq!((isr(&t, 4), elr(&t, 4), last_known_elr(&t, 4)), (list(&[]), list(&["A", "C", "D"]), list(&["A"])));
    assert_eq!((elr(&t, 7), leader(&t, 7)), (list(&["A"]), None));
    assert_eq!(elections(&t, 8), [(Some("A".to_string()), true)]);
    assert_eq!((isr(&t, 8), elr(&t, 8), last_known_elr(&t, 8)), (list(&["A"]), list(&[]), list(&[])));
    // 4.0 without ELR: A never left the ISR, so its election is a clean one.
    let old = four_replicas("4.0", ALL_DOWN_LEADER_BACK_LAST);
    assert_eq!((isr(&old, 4), elections(&old, 8)), (list(&["A"]), vec![(Some("A".to_string()), false)]));
}

/// ISR {}, ELR {3} (C, down after a clean shutdown), last known leader 1 (A), which comes back.
const LAST_KNOWN_LEADER_WITH_AN_ELR: &str = "0: elect A
1: crash D           # ISR {A, B, C}
2: crash B           # ISR {A, C}, ELR {B}
3: shutdown C        # ISR {A}, ELR {B, C}: a clean shutdown keeps C's place
4: crash A           # ISR {}, ELR {A, B, C}, last known leader A
5: restart B         # unclean: ELR {A, C}
6: restart A         # unclean: ELR {C}
7: elect A
";

#[test]
fn the_last_known_leader_waits_while_the_elr_has_members() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testEligibleLeaderReplicas_ElectLastKnownLeaderShouldFail");
    // No change: the last known leader is not elected while the ELR is not empty, even if its members are down.
    let t = four_replicas("4.1", LAST_KNOWN_LEADER_WITH_AN_ELR);
    assert_eq!((isr(&t, 6), elr(&t, 6), last_known_elr(&t, 6)), (list(&[]), list(&["C"]), list(&["A"])));
    assert_eq!(leader(&t, 6), None);
    assert_eq!(rejected(&t, 7), Some("ELIGIBLE_LEADERS_NOT_AVAILABLE"));
    assert_eq!(at(&t, 7).controller, at(&t, 6).controller);
    // 4.0 without ELR: A is the ISR's last member and leads again as soon as it is back.
    assert_eq!(leader(&four_replicas("4.0", LAST_KNOWN_LEADER_WITH_AN_ELR), 6).as_deref(), Some("A"));
}

/// Partition 0 of the test, replicas {1, 2, 3}: fenceBrokers(2, 3), fenceBrokers(1, 2, 3), then 2 is unfenced.
const ALL_FENCED_THEN_ONE_BACK: &str = "brokers: A B C
0: elect A
1: crash B
2: crash C
3: crash A
4: elect
5: restart B
";

#[test]
fn without_elr_the_last_isr_member_stays_and_nobody_is_elected_by_itself() {
    source("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java@3.8.0#testElectUncleanLeaders_WithoutElr");
    // Partial: partition 0 of three. Leader -1 with ISR {1}; an election with nobody alive writes nothing
    // (ELIGIBLE_LEADERS_NOT_AVAILABLE). The test then elects 2 through the ElectLeaders API's UNCLEAN type,
    // which KRaft honours before 3.9 too; the model's `elect` follows unclean.leader.election.enable instead, so
    // that part is left out and the case asserts that nothing elects 2 by itself. Metadata version 3.6-IV1.
    let t = run_kraft("3.6", ALL_FENCED_THEN_ONE_BACK);
    assert_eq!((leader(&t, 3), isr(&t, 3)), (None, list(&["A"])));
    assert_eq!(rejected(&t, 4), Some("ELIGIBLE_LEADERS_NOT_AVAILABLE"));
    assert_eq!(at(&t, 4).controller, at(&t, 3).controller, "no record");
    assert_eq!((leader(&t, 5), isr(&t, 5)), (None, list(&["A"])));
    // With ELR (4.1) the last member leaves the ISR too: the assertion ISR {1} fails there.
    let elr_on = run_at("4.1", ALL_FENCED_THEN_ONE_BACK);
    assert_eq!((isr(&elr_on, 3), elr(&elr_on, 3)), (list(&[]), list(&["A"])));
}

/// The test's topic, replicas {1, 2, 3}, with unclean.leader.election.enable=true: all fenced, then 2 back.
const UNCLEAN_ON_ALL_FENCED: &str = "brokers: A B C\nunclean_leader_election: true
0: elect A
1: crash B
2: crash C
3: crash A
4: restart B
5: elect
";

#[test]
fn kraft_before_3_9_never_elects_uncleanly_by_itself() {
    source("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java@3.8.0#testPreferredElectionDoesNotTriggerUncleanElection");
    // Partial: Kafka's election is a PREFERRED one, refused with PREFERRED_LEADER_NOT_AVAILABLE; the model's
    // `elect` is the controller's own choice, refused with ELIGIBLE_LEADERS_NOT_AVAILABLE. Either way nothing
    // is written although the topic enables unclean election, which KRaft 3.8 ignores (KAFKA-12670).
    let t = run_kraft("3.8", UNCLEAN_ON_ALL_FENCED);
    assert_eq!((leader(&t, 4), isr(&t, 4)), (None, list(&["A"])));
    assert_eq!(rejected(&t, 5), Some("ELIGIBLE_LEADERS_NOT_AVAILABLE"));
    assert_eq!(at(&t, 5).controller, at(&t, 4).controller);
    // KRaft 3.9 honours the setting: B is elected uncleanly as soon as it is back.
    let fixed = run_kraft("3.9", UNCLEAN_ON_ALL_FENCED);
    assert_eq!((elections(&fixed, 4), isr(&fixed, 4)), (vec![(Some("B".to_string()), true)], list(&["B"])));
}

/// `FOO`'s replicas {2, 1, 3} as A, B, C, with unclean election enabled: the ISR shrinks to {3} as A and B go,
/// 3 goes too (offline, ISR {3}), and 1 comes back alone.
const OFFLINE_WITH_ISR_OF_3: &str = "brokers: A B C\nunclean_leader_election: true
0: elect C
1: produce m0
2: settle
3: crash A
4: crash B
5: crash C
6: restart B
";

#[test]
fn an_unclean_leader_becomes_the_isr_alone() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testUncleanLeaderElection");
    // Partial: the offline partition's UNCLEAN election (ISR {3}, only 1 acceptable → leader 1, ISR [1]); the
    // RECOVERING state is not modelled. KRaft 3.9 makes that election itself once the topic enables it.
    let t = run_kraft("3.9", OFFLINE_WITH_ISR_OF_3);
    assert_eq!((leader(&t, 5), isr(&t, 5)), (None, list(&["C"])));
    assert_eq!(elections(&t, 6), [(Some("B".to_string()), true)]);
    assert_eq!((leader(&t, 6).as_deref(), isr(&t, 6)), (Some("B"), list(&["B"])));
    // KRaft 3.8 ignores the setting (KAFKA-12670): the partition stays offline with ISR {C}.
    let old = run_kraft("3.8", OFFLINE_WITH_ISR_OF_3);
    assert_eq!((leader(&old, 6), isr(&old, 6)), (None, list(&["C"])));
}

/// ISR {0, 1}: the follower B catches up (HW 1); the leader writes m1 while B's heartbeats have stopped (or
/// it shuts down), and the controller then shrinks the ISR to {A}.
fn follower_leaves(how: &str) -> String {
    format!(
        "brokers: A B\n0: elect A\n1: produce m0 acks=1\n2: fetch B\n3: fetch B\n4: produce m1 acks=1\n5: {how} B\n"
    )
}

#[test]
fn the_high_watermark_advances_once_a_fenced_follower_leaves_the_isr() {
    source("core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@3.7.0#testHighWatermarkIncreasesWithFencedOrShutdownFollower");
    // Partial: the "fenced" and "shutdown" parameters; the "unfenced" one (a caught-up, eligible follower outside
    // the ISR still holds the HW) has no event here. The shrink comes in the same leader epoch (makeLeader
    // returns false), and the HW moves to the LEO.
    for how in ["crash", "shutdown"] {
        let t = run_kraft("3.7", &follower_leaves(how));
        assert_eq!(replica(&t, 4, "A").hw, 1, "{how}: B has not fetched m1");
        let a = replica(&t, 5, "A");
        assert_eq!((leader_epoch(&t, 5), a.known_epoch, a.leader_epoch_start_offset), (0, 0, 0), "{how}");
        assert_eq!((leader_isr(&t, 5, "A"), a.hw), (list(&["A"]), 2), "{how}");
    }
    // KRaft 3.5 (before KAFKA-15021): the shrink raises the leader epoch, and A takes up leadership again.
    let a = replica(&run_kraft("3.5", &follower_leaves("crash")), 5, "A").clone();
    assert_eq!((a.known_epoch, a.leader_epoch_start_offset), (1, 2));
}

/// A scenario with these release settings, as read (or why it is refused).
fn settings(release: &str, knobs: &str) -> Result<(), String> {
    parse_text(&format!("kafka_version: {release}\n{knobs}brokers: A B\nelect A\n"))
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn an_old_inter_broker_protocol_needs_an_old_message_format() {
    source("core/src/test/scala/unit/kafka/server/KafkaConfigTest.scala@2.4.0#testInterBrokerVersionMessageFormatCompatibility");
    // Partial: the pairs across record versions v1 (0.10.x) and v2 (0.11 on): a format whose record version is
    // above the protocol's is refused, the default (2.4's, v2) included. Kafka 2.4 also accepts a newer format
    // of the same record version (protocol 1.1, format 2.0), which the model refuses: left out.
    let ibp_alone = settings("2.4", "inter_broker_protocol_version: 0.10.2\n").unwrap_err();
    assert!(ibp_alone.contains("log_message_format_version"), "{ibp_alone}");
    let v2_over_v1 = "inter_broker_protocol_version: 0.10.2\nlog_message_format_version: 0.11.0\n";
    assert!(settings("2.4", v2_over_v1).is_err());
    assert_eq!(settings("2.4", "inter_broker_protocol_version: 0.10.2\nlog_message_format_version: 0.10.2\n"), Ok(()));
    assert_eq!(settings("2.4", "inter_broker_protocol_version: 0.11.0\nlog_message_format_version: 0.10.2\n"), Ok(()));
    // 0.10.2's own default format is v1: the protocol alone starts there.
    assert_eq!(settings("0.10.2", "inter_broker_protocol_version: 0.10.2\n"), Ok(()));
}

/// min.insync.replicas 2 and two replicas: in sync, then B fails (ISR {A}, epoch 1, as the test's second
/// makeLeader), and A writes.
const MIN_ISR_TWO: &str = "brokers: A B\nmin_insync_replicas: 2
0: elect A
1: produce m0 acks=1
2: settle
3: crash B
4: produce m1 acks=1
5: produce m2
";

#[test]
fn a_leader_below_min_isr_is_under_min_isr() {
    source("core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@3.7.0#testIsUnderMinIsr");
    // Partial: `isUnderMinIsr` read through its effects: the HW gate (KAFKA-15583) and the acks=all refusal.
    let t = run_at("3.7", MIN_ISR_TWO);
    assert_eq!((isr(&t, 2), replica(&t, 2, "A").hw), (list(&["A", "B"]), 1), "not under min ISR");
    assert_eq!((isr(&t, 3), leader_epoch(&t, 3)), (list(&["A"]), 1));
    assert_eq!(replica(&t, 4, "A").hw, 1, "under min ISR: the HW holds");
    assert_eq!(rejected(&t, 5), Some("NOT_ENOUGH_REPLICAS"));
    // 3.6 (before KAFKA-15583): under min ISR the HW still follows the leader alone.
    assert_eq!(replica(&run_at("3.6", MIN_ISR_TWO), 4, "A").hw, 2);
}

/// ISR {1}, ELR {3} (A; C) under min ISR 3; then 4 (D) catches up and joins: ISR {1, 4}, still below.
const NEW_MEMBER_NOT_IN_ELR: &str = "0: elect A
1: shrink_isr D      # ISR {A, B, C}
2: fetch B           # (the controller's answer)
3: shrink_isr C      # ISR {A, B}, ELR {C}
4: fetch B
5: crash B           # ISR {A}, ELR {B, C}
6: restart B         # unclean: ELR {C}
7: produce m0 acks=1
8: fetch D           # A proposes D
9: fetch D           # committed
";

#[test]
fn a_new_member_below_min_isr_leaves_the_elr_as_it_was() {
    source("metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testEligibleLeaderReplicas_IsrAddNewMemberNotInELR");
    // Partial: ELR {3} stays; the test's lastKnownElr {2} is the builder's bookkeeping with last-known-leader
    // recovery off (see `an_unclean_shutdown_takes_a_replica_out_of_the_elr`).
    let t = four_replicas("4.1", NEW_MEMBER_NOT_IN_ELR);
    assert_eq!((isr(&t, 6), elr(&t, 6)), (list(&["A"]), list(&["C"])));
    assert_eq!((isr(&t, 9), elr(&t, 9)), (list(&["A", "D"]), list(&["C"])));
    // 4.0 without ELR: nobody is kept eligible.
    let old = four_replicas("4.0", NEW_MEMBER_NOT_IN_ELR);
    assert_eq!((isr(&old, 9), elr(&old, 9)), (list(&["A", "D"]), list(&[])));
}

/// Leader 0 of {0, 1, 2} (A of A, B, C) drops C, then C catches up and is taken back.
const SHRINK_THEN_EXPAND: &str = "brokers: A B C
0: elect A
1: produce m0 acks=1
2: fetch B
3: fetch B
4: shrink_isr C      # AlterPartition {0, 1}
5: fetch C           # (its answer); C copies m0
6: fetch C           # AlterPartition {0, 1, 2}
7: fetch B           # its answer
";

#[test]
fn the_leaders_isr_changes_are_written_in_its_leader_epoch() {
    source("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java@3.8.0#testShrinkAndExpandIsr");
    // Both AlterPartition requests succeed (NONE) and the partition then holds what was asked, each change one
    // partition epoch, the leader epoch untouched.
    let t = run_kraft("3.8", SHRINK_THEN_EXPAND);
    assert_eq!((isr(&t, 5), leader_epoch(&t, 5), partition_epoch(&t, 5)), (list(&["A", "B"]), 0, 1));
    assert_eq!((isr(&t, 7), leader_epoch(&t, 7), partition_epoch(&t, 7)), (list(&["A", "B", "C"]), 0, 2));
    // KRaft 3.5 (before KAFKA-15021) writes the shrink in a new leader epoch.
    assert_eq!(leader_epoch(&run_kraft("3.5", SHRINK_THEN_EXPAND), 4), 1);
}

/// A, B, C led by A; B lags and is dropped, then catches up (its second fetch, at the HW, is a proposal:
/// AlterPartition {A, B, C}) and loses its session before the controller answers; C's fetch lets the answer
/// arrive.
const PROPOSAL_THEN_FENCE: &str = "brokers: A B C
0: elect A
1: produce m0 acks=1
2: fetch C
3: fetch C
4: shrink_isr B
5: fetch B
6: fetch B
7: crash B
8: fetch C
";

#[test]
fn the_controller_refuses_an_expansion_naming_a_fenced_broker() {
    source("core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@3.7.0#testIsrNotExpandedIfReplicaIsFencedOrShutdown");
    // Partial: the controller's INELIGIBLE_REPLICA and the leader's return to its committed ISR (KIP-841); not
    // the broker's own check, which no model event reaches (a fenced broker never fetches here).
    for release in ["3.7", "3.8"] {
        let t = run_kraft(release, PROPOSAL_THEN_FENCE);
        assert_eq!(replica(&t, 6, "A").pending_isr.len(), 1, "KRaft {release}: B is proposed");
        assert_eq!(isr(&t, 7), ["A", "C"], "KRaft {release}: B was never committed, so its fence changes no ISR");
        assert_eq!((isr(&t, 8), leader_isr(&t, 8, "A")), (list(&["A", "C"]), list(&["A", "C"])));
        assert_eq!(replica(&t, 8, "A").pending_isr.len(), 0, "KRaft {release}: the leader dropped the proposal");
        assert!(t.steps[8].narration.contains("INELIGIBLE_REPLICA"), "{}", t.steps[8].narration);
    }
    // 3.6: the leader's expansion is committed in the fetch itself, and the fence takes B out again.
    let before = run_kraft("3.6", PROPOSAL_THEN_FENCE);
    assert_eq!((isr(&before, 6), isr(&before, 7)), (list(&["A", "B", "C"]), list(&["A", "C"])));
}
