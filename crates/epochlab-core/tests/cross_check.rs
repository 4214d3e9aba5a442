//! Cross-check with stateright (0.31, a dev-dependency: native tests only): its single-threaded breadth-first
//! search over the same space (`support/stateright_model.rs`) must count the same unique states and find a
//! counterexample of the same length as our checker.
//!
//! Unique states are compared over the whole bounded space (an empty goal, so neither search stops early);
//! counterexample lengths with the default goal. Small bounds, the default bounds and 3 brokers at depth 7
//! all run (about half a minute in a debug build, since the checker's state is its canonical projection).

mod support;

use epochlab_core::checker::{check, CheckConfig, SearchEnd};
use epochlab_core::Variant;
use support::stateright_model::stateright_bfs;

fn bounds(variant: Variant, brokers: u8, depth: u32) -> CheckConfig {
    CheckConfig { variant, brokers, depth, max_states: 100_000_000, ..CheckConfig::default() }
}

fn assert_same(config: &CheckConfig) {
    let name = format!("{} ({} brokers, depth {})", config.variant.id(), config.brokers, config.depth);
    let whole = CheckConfig { goal: Vec::new(), ..config.clone() };
    let ours = check(&whole, |_| true);
    assert!(ours.counterexample.is_none() && ours.end != SearchEnd::StateLimit, "{name}: {ours:?}");
    let states = ours.unique_states;
    let theirs = stateright_bfs(&whole);
    assert_eq!(states as usize, theirs.unique_states, "{name}: unique states, ours vs stateright's");
    assert_eq!(theirs.counterexample_len, None, "{name}");

    let ours = check(config, |_| true);
    let theirs = stateright_bfs(config);
    let our_len = ours.counterexample.as_ref().map(|s| s.events.len());
    assert_eq!(our_len, theirs.counterexample_len, "{name}: shortest counterexample, ours vs stateright's");
    println!("{name}: {states} unique states, shortest counterexample {our_len:?}");
}

#[test]
fn every_variant_agrees_with_stateright_at_small_bounds() {
    for variant in Variant::ALL {
        assert_same(&bounds(variant, 2, 8));
    }
}

#[test]
fn three_brokers_agree_with_stateright_at_small_bounds() {
    for variant in [Variant::Kafka21, Variant::HwTruncation] {
        assert_same(&bounds(variant, 3, 5));
    }
}

#[test]
fn every_variant_agrees_with_stateright_at_the_default_bounds() {
    for variant in Variant::ALL {
        assert_same(&CheckConfig { variant, max_states: 100_000_000, ..CheckConfig::default() });
    }
}

#[test]
fn three_brokers_agree_with_stateright_for_two_variants() {
    for variant in [Variant::Kafka21, Variant::HwTruncation, Variant::Kip279] {
        assert_same(&bounds(variant, 3, 7));
    }
}
