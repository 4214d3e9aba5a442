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
