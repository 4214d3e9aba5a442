//! The model checker finds the shortest failure of each broken variant and none in the fixed ones, within
//! the default bounds; every counterexample, run as a scenario, shows its violation at its last step.

use epochlab_core::checker::{check, CheckConfig, CheckResult};
use epochlab_core::{run_variant, Variant};

fn search(variant: Variant) -> CheckResult {
    check(&CheckConfig { variant, ..CheckConfig::default() }, |_| true)
}

fn assert_counterexample(variant: Variant) {
    let r = search(variant);
    let scenario = r.counterexample.as_ref().unwrap_or_else(|| panic!("{} has no counterexample: {r:?}", variant.id()));
    let violation = r.violation.as_ref().expect("violation");
    let trace = run_variant(scenario, variant);
    let last = scenario.events.len() as u32 - 1;
    assert_eq!(violation.step, last, "{}", variant.id());
    assert!(
        trace.violations.iter().any(|v| v.invariant == violation.invariant && v.step == last && !v.by_design),
        "{}: running the counterexample shows {:?}",
        variant.id(),
        trace.violations
    );
    println!(
        "{}: {} events, {} states, {} transitions",
        variant.id(),
        scenario.events.len(),
        r.unique_states,
        r.transitions
    );
}

#[test]
fn hw_truncation_has_a_shortest_counterexample() {
    assert_counterexample(Variant::HwTruncation);
}

#[test]
fn kip_101_has_a_shortest_counterexample() {
    assert_counterexample(Variant::Kip101);
}

#[test]
fn kip_279_has_a_shortest_counterexample() {
    assert_counterexample(Variant::Kip279);
}

#[test]
fn leader_hw_truncation_has_a_shortest_counterexample() {
    assert_counterexample(Variant::LeaderHwTruncation);
}

#[test]
fn kafka_2_1_and_diverging_epoch_have_none_within_the_bounds() {
    for variant in [Variant::Kafka21, Variant::DivergingEpoch] {
        let r = search(variant);
        assert!(r.counterexample.is_none(), "{}: {:?}", variant.id(), r.counterexample.map(|s| s.to_json()));
        assert!(!r.hit_state_limit && !r.cancelled, "{}: {r:?}", variant.id());
        println!(
            "{}: none, {} states, depth {}, exhausted {}",
            variant.id(),
            r.unique_states,
            r.depth_reached,
            r.exhausted
        );
    }
}
