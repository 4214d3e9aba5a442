//! Comparing variants: where their states part ways, and where each first fails.

use epochlab_core::presets::find;
use epochlab_core::{compare, Variant};

#[test]
fn scenario_1_parts_ways_at_the_restart_and_only_the_old_rule_fails() {
    let s = find("kip101-scenario-1").unwrap().scenario();
    let c = compare(&s, &[Variant::HwTruncation, Variant::Kip279]);
    assert_eq!(c.first_difference, Some(8));
    assert_eq!(c.first_bug, [Some(8), None]);
    assert_eq!(c.traces.len(), 2);
    assert_eq!(c.traces[1].variant, Variant::Kip279);
}

#[test]
fn variants_that_behave_alike_never_part_ways() {
    let s = find("happy-path").unwrap().scenario();
    let c = compare(&s, &[Variant::Kip101, Variant::Kip279, Variant::DivergingEpoch]);
    assert_eq!(c.first_difference, None, "epoch caches differ, but logs, HWs and leadership do not");
    assert_eq!(c.first_bug, [None, None, None]);
}

#[test]
fn kafka_6361_separates_kip_101_from_kip_279() {
    let s = find("kafka-6361-fast-failover").unwrap().scenario();
    let c = compare(&s, &[Variant::Kip101, Variant::Kip279]);
    assert_eq!(c.first_difference, Some(10));
    assert_eq!(c.first_bug, [Some(10), None]);
}
