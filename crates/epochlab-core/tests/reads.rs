//! What consumers saw: KIP-101 scenario 1's consumer read m1 and m2 from B below HW 2, and m2 is the phantom
//! read (I5) under hw-truncation, from the step where A leads without it; under kip-279 nothing is lost.

use epochlab_core::presets::find;
use epochlab_core::reads::reads;
use epochlab_core::{run_variant, Variant};

#[test]
fn the_consumer_of_scenario_1_read_m2_and_lost_it_under_the_old_rule_only() {
    let s = find("kip101-scenario-1").expect("preset").scenario();
    let trace = run_variant(&s, Variant::HwTruncation);
    let old = reads(&trace);
    assert_eq!(old.len(), 1);
    let read = &old[0];
    assert_eq!((read.step, read.broker, read.hw), (6, 1, 2));
    let seen: Vec<(u32, &str)> = read.records.iter().map(|r| (r.offset, trace.label(r.record))).collect();
    assert_eq!(seen, [(0, "m1"), (1, "m2")]);
    assert_eq!(read.records[0].lost, None);
    let loss = read.records[1].lost.as_ref().expect("m2 is a phantom read");
    assert!(!loss.by_design && loss.step > read.step && loss.message.contains("m2"), "{loss:?}");
    // Shown as lost only from its step on.
    assert!(read.records[1].lost_by(Some(loss.step as usize - 1)).is_none());
    assert!(read.records[1].lost_by(Some(loss.step as usize)).is_some());
    assert!(read.records[1].lost_by(None).is_none());
    let new = reads(&run_variant(&s, Variant::Kip279));
    assert!(new[0].records.iter().all(|r| r.lost.is_none()));
}

#[test]
fn a_run_without_a_consume_has_no_reads() {
    let s = find("kafka-6361-fast-failover").expect("preset").scenario();
    assert!(reads(&run_variant(&s, Variant::Kip101)).is_empty());
}

/// Two brokers: the consumer read m1 and m2 below A's HW 2, written while B was out of the ISR; A then
/// fails, and B, back, is elected uncleanly with m1 alone.
fn consumer_past_a_truncation(release: &str, then: &str) -> epochlab_core::reads::Read {
    let text = format!(
        "name: t\nbrokers: A B\nkafka_version: {release}\nunclean_leader_election: true\n\nelect A\nproduce m1\nfetch B\nfetch B\ncrash B\nproduce m2\nconsume\ncrash A\nrestart B\n{then}"
    );
    let s = epochlab_core::scenario::text::parse_text(&text).expect("scenario");
    reads(&epochlab_core::run(&s)).remove(0)
}

#[test]
fn from_2_3_a_consumer_past_a_truncation_is_told_where_the_log_diverged() {
    use epochlab_core::reads::Noticed;
    let after = consumer_past_a_truncation("2.3", "").truncated.expect("B leads without m2");
    assert_eq!((after.step, after.position, after.diverged_at, after.noticed), (8, 2, 1, Noticed::Validated));
    assert!(after.words().contains("LogTruncationException naming offset 1"), "{}", after.words());
    let before = consumer_past_a_truncation("2.2", "").truncated.expect("B leads without m2");
    assert_eq!((before.noticed, before.leader_leo), (Noticed::OutOfRange, 1));
    assert!(before.words().contains("OFFSET_OUT_OF_RANGE"), "{}", before.words());
    let t = epochlab_core::scenario::text::parse_text(
        "name: t\nbrokers: A\nkafka_version: 2.2\n\nelect A\nproduce m1\nconsume\nproduce m2\n",
    )
    .expect("scenario");
    assert_eq!(reads(&epochlab_core::run(&t))[0].truncated, None, "nothing was truncated");
}
