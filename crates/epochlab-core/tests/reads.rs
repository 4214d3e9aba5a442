//! What consumers saw: KIP-101 scenario 1's consumer read m1 and m2 from B below HW 2, and m2 is the phantom
//! read (I5) under hw-truncation, from the step where A leads without it; under kip-279 nothing is lost.

use epochlab_core::presets::find;
use epochlab_core::reads::reads;
use epochlab_core::{run_variant, Variant};

#[test]
fn the_consumer_of_scenario_1_read_m2_and_lost_it_under_the_old_rule_only() {
    let s = find("kip101-scenario-1").expect("preset").scenario();
    let old = reads(&run_variant(&s, Variant::HwTruncation));
    assert_eq!(old.len(), 1);
    let read = &old[0];
    assert_eq!((read.step, read.broker, read.hw), (6, 1, 2));
    let seen: Vec<(u32, &str)> = read.records.iter().map(|r| (r.offset, r.label.as_str())).collect();
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

/// Three brokers, every election clean: the consumer read m1 and m2 below A's HW 2; C's lost response left
/// its HW at 1, so C cuts m2 when B takes over, and leads without it once B fails too. The old
/// inter-broker protocol keeps the HW rule on the later releases.
fn consumer_past_a_truncation(release: &str, then: &str) -> epochlab_core::reads::Read {
    let text = format!(
        "name: t\nbrokers: A B C\nkafka_version: {release}\ninter_broker_protocol_version: 0.10.2\n\nelect A\nproduce m1\nfetch B\nfetch C\nproduce m2\nfetch B\nfetch C\nfetch B\nfetch C drop\nconsume\ncrash A\ncrash B\n{then}"
    );
    let s = epochlab_core::scenario::text::parse_text(&text).expect("scenario");
    reads(&epochlab_core::run(&s)).remove(0)
}

#[test]
fn from_2_3_a_consumer_past_a_truncation_is_told_where_the_log_diverged() {
    use epochlab_core::reads::Noticed;
    let after = consumer_past_a_truncation("2.3", "").truncated.expect("C leads without m2");
    assert_eq!((after.step, after.position, after.diverged_at, after.noticed), (11, 2, 1, Noticed::Validated));
    assert!(after.words().contains("LogTruncationException naming offset 1"), "{}", after.words());
    let before = consumer_past_a_truncation("2.2", "").truncated.expect("C leads without m2");
    assert_eq!((before.noticed, before.leader_leo), (Noticed::OutOfRange, 1));
    assert!(before.words().contains("OFFSET_OUT_OF_RANGE"), "{}", before.words());
    // Once C has written m3 at offset 1, an old consumer's position 2 is inside the log again: it reads on.
    let rewritten = consumer_past_a_truncation("2.2", "produce m3").truncated.expect("truncated");
    assert_eq!(rewritten.step, 11, "the first step it was truncated is what counts");
    let t = epochlab_core::scenario::text::parse_text(
        "name: t\nbrokers: A\nkafka_version: 2.2\n\nelect A\nproduce m1\nconsume\nproduce m2\n",
    )
    .expect("scenario");
    assert_eq!(reads(&epochlab_core::run(&t))[0].truncated, None, "nothing was truncated");
}
