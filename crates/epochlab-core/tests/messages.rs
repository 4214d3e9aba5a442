//! The message list a sequence diagram draws, from KIP-101 scenario 1: LeaderAndIsr to both brokers, the
//! produce and its acknowledgement, fetches, the lost response, the consumer's read, the truncation mark.

use epochlab_core::messages::{messages, MessageKind, Party};
use epochlab_core::presets::find;
use epochlab_core::{run_variant, Variant};

#[test]
fn scenario_1_under_hw_truncation_gives_the_exchanges_of_its_story() {
    let s = find("kip101-scenario-1").expect("preset").scenario();
    let t = run_variant(&s, Variant::HwTruncation);
    let all = messages(&s, &t);
    let at = |step: u32| all.iter().filter(move |m| m.step == step).collect::<Vec<_>>();
    let (a, b) = (Party::Broker(0), Party::Broker(1));
    let election = at(0);
    assert_eq!(election.iter().filter(|m| m.kind == MessageKind::LeaderAndIsr && !m.held).count(), 2);
    assert!(at(1).iter().any(|m| m.from == Party::Producer && m.to == b && m.label == "Produce m1"));
    let lost = at(5);
    assert!(lost.iter().any(|m| m.kind == MessageKind::Fetch && m.from == a && m.label == "Fetch at 2"));
    assert!(lost.iter().any(|m| m.kind == MessageKind::FetchResponse && m.lost && m.label == "nothing, HW 2"));
    assert!(at(5).iter().chain(at(4).iter()).any(|m| m.kind == MessageKind::ProduceResponse && m.label == "ack m2"));
    assert!(at(6).iter().any(|m| m.to == Party::Consumer && m.label == "m1, m2, HW 2"));
    assert!(at(8).iter().any(|m| m.kind == MessageKind::Local && m.from == a && m.label.starts_with("truncate to 1")));
}

#[test]
fn a_held_back_leader_and_isr_is_drawn_held_then_delivered() {
    let s = find("kafka-6361-fast-failover").expect("preset").scenario();
    let t = run_variant(&s, Variant::Kip101);
    let all = messages(&s, &t);
    assert!(all
        .iter()
        .any(|m| m.step == 5 && m.to == Party::Broker(0) && m.kind == MessageKind::LeaderAndIsr && m.held));
    assert!(all.iter().any(|m| m.step == 9 && m.to == Party::Broker(1) && m.label.ends_with("(delivered)")));
}

#[test]
fn a_consumer_past_a_truncation_validates_its_position_from_2_3() {
    let story = |release: &str| {
        let text = format!(
            "name: t\nbrokers: A B\nkafka_version: {release}\nunclean_leader_election: true\n\nelect A\nproduce m1\nfetch B\nfetch B\ncrash B\nproduce m2\nconsume\ncrash A\nrestart B\n"
        );
        let s = epochlab_core::scenario::text::parse_text(&text).expect("scenario");
        let t = epochlab_core::run(&s);
        epochlab_core::messages::messages(&s, &t)
    };
    let labels = |ms: Vec<epochlab_core::messages::Message>| -> Vec<String> {
        ms.into_iter().filter(|m| m.step == 8).map(|m| m.label).collect()
    };
    let new = labels(story("2.3"));
    assert!(new.iter().any(|l| l == "OffsetsForLeaderEpoch (consumer, next poll) epoch 1"), "{new:?}");
    assert!(new.iter().any(|l| l.starts_with("diverged at 1: LogTruncationException")), "{new:?}");
    let old = labels(story("2.2"));
    assert!(old.iter().any(|l| l == "Fetch (consumer, next poll) at 2"), "{old:?}");
    assert!(old.iter().any(|l| l.starts_with("OFFSET_OUT_OF_RANGE")), "{old:?}");
}

#[test]
fn leader_and_isr_carries_the_isr_and_under_kip_966_the_elr() {
    // Kafka 4.1's last replica standing: B shuts down cleanly at step 10 and is kept as an eligible leader.
    let s = find("last-replica-standing").expect("preset").scenario();
    let t = run_variant(&s, s.config.variant);
    let all = messages(&s, &t);
    let sent = |step: u32| all.iter().filter(move |m| m.step == step && m.kind == MessageKind::LeaderAndIsr);
    // A 4.1 cluster runs KRaft: the brokers replay the partition's record, which carries both epochs.
    let first = "PartitionChangeRecord leader epoch 0, partition epoch 0, leader A, ISR {A, B, C}";
    assert!(sent(0).all(|m| m.label == first), "{:?}", sent(0).collect::<Vec<_>>());
    let elr = |m: &&epochlab_core::messages::Message| m.label.ends_with("leader A, ISR {A}, ELR {B} (replayed)");
    assert!(sent(10).any(|m| elr(&m)), "{:?}", sent(10).collect::<Vec<_>>());
    // Under 3.9 in ZooKeeper mode the same story sends LeaderAndIsr.
    let mut zk = s.clone();
    zk.config.set_release(epochlab_core::variant::KafkaVersion::parse("3.9").expect("release"));
    let t = run_variant(&zk, zk.config.variant);
    let all = messages(&zk, &t);
    assert!(all.iter().any(|m| m.step == 0 && m.label == "LeaderAndIsr epoch 0, leader A, ISR {A, B, C}"));
}
