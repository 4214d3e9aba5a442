//! The stable fingerprint of a run's last state and memory (what the model checker deduplicates on): the
//! same value on every platform and run, equal for states that behave the same, different otherwise.

use epochlab_core::presets::find;
use epochlab_core::scenario::{Event, Scenario};
use epochlab_core::{rerun_protocol, Protocol, Variant};

/// Pinned here and in the app's wasm test (`tests/fingerprint.rs`): a change means the encoding moved.
const KIP101_SCENARIO_2_UNDER_KIP_279: u64 = 5_137_759_246_193_180_334;

fn fingerprint(s: &Scenario, v: Variant) -> u64 {
    rerun_protocol(None, s, Protocol::new(v, &s.config.flags)).resume.fingerprint()
}

fn preset(id: &str) -> Scenario {
    find(id).expect("preset").scenario()
}

#[test]
fn the_fingerprint_of_a_fixed_scenario_is_pinned() {
    assert_eq!(fingerprint(&preset("kip101-scenario-2"), Variant::Kip279), KIP101_SCENARIO_2_UNDER_KIP_279);
}

#[test]
fn record_names_and_a_rejected_event_change_nothing_that_matters() {
    let s = preset("kip101-scenario-1");
    let mut renamed = s.clone();
    for e in &mut renamed.events {
        if let Event::Produce { record, .. } = e {
            *record = record.as_ref().map(|r| format!("{r}-renamed"));
        }
    }
    // A fetch by a broker that leads is rejected (NOT_FOLLOWER): it shifts every later step number by one.
    let mut padded = s.clone();
    padded.events.insert(2, Event::Fetch { broker: "B".into(), drop_response: false });
    for v in Variant::ALL {
        let base = fingerprint(&s, v);
        assert_eq!(fingerprint(&renamed, v), base, "{}", v.id());
        assert_eq!(fingerprint(&padded, v), base, "{}", v.id());
    }
}

#[test]
fn different_states_or_memories_have_different_fingerprints() {
    let s = preset("kip101-scenario-1");
    let mut shorter = s.clone();
    shorter.events.pop();
    // Before the restart, consumed or not: the same replicas, another memory.
    let mut consumed = s.clone();
    consumed.events.truncate(8);
    let mut not_consumed = consumed.clone();
    not_consumed.events.remove(6);
    let prints: Vec<u64> =
        [&s, &shorter, &consumed, &not_consumed].iter().map(|x| fingerprint(x, Variant::Kip279)).collect();
    let distinct: std::collections::BTreeSet<u64> = prints.iter().copied().collect();
    assert_eq!(distinct.len(), prints.len(), "{prints:?}");
    let per_variant: std::collections::BTreeSet<u64> = Variant::ALL.iter().map(|&v| fingerprint(&s, v)).collect();
    assert!(per_variant.len() > 1, "the variants end in different states");
}
