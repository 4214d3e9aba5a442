//! Determinism: a run is a pure function of the scenario and the protocol (no clock, no randomness, no
//! global state), so every preset under every variant gives the same trace digest every time, from a clone,
//! from its own exported JSON, and from another thread. And the digest is not blind: variants whose expected
//! verdicts differ must produce different step-by-step behaviour, and a changed scenario a different digest.

use epochlab_core::presets::PRESETS;
use epochlab_core::{run_variant, Scenario, Trace, Variant};

/// FNV-1a over the JSON of what the run *did* (steps with their states, violations, records), leaving out
/// the variant and flag names that `Trace::digest` also covers: two variants that behave identically give
/// equal behaviour digests, so a difference here is a real difference in behaviour.
fn behaviour_digest(trace: &Trace) -> u64 {
    let json = serde_json::to_string(&(&trace.steps, &trace.violations, &trace.records)).unwrap_or_default();
    json.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn digests(scenario: &Scenario) -> Vec<u64> {
    Variant::ALL.iter().map(|&v| run_variant(scenario, v).digest()).collect()
}

#[test]
fn every_preset_under_every_variant_gives_the_same_digest_twice() {
    for p in &PRESETS {
        let scenario = p.scenario();
        assert!(!scenario.events.is_empty(), "preset {} parsed to an empty scenario", p.id);
        for v in Variant::ALL {
            let (a, b) = (run_variant(&scenario, v), run_variant(&scenario, v));
            assert_eq!(a.digest(), b.digest(), "{} under {}: two runs give different digests", p.id, v.id());
            assert_eq!(a, b, "{} under {}: two runs give different traces", p.id, v.id());
        }
    }
}

#[test]
fn a_cloned_scenario_gives_the_same_digest() {
    for p in &PRESETS {
        let scenario = p.scenario();
        let clone = scenario.clone();
        assert_eq!(digests(&scenario), digests(&clone), "{}: the clone runs differently", p.id);
    }
}

#[test]
fn a_scenario_reparsed_from_its_own_json_gives_the_same_digest() {
    for p in &PRESETS {
        let scenario = p.scenario();
        let reparsed = Scenario::from_json(&scenario.to_json())
            .unwrap_or_else(|e| panic!("{}: its exported JSON does not parse: {e}", p.id));
        assert_eq!(reparsed, scenario, "{}: export and re-import changed the scenario", p.id);
        assert_eq!(digests(&reparsed), digests(&scenario), "{}: the re-imported scenario runs differently", p.id);
    }
}

#[test]
// The core never starts a thread (crates/epochlab-core/clippy.toml); this test runs it on others on purpose.
#[allow(clippy::disallowed_methods)]
fn runs_on_other_threads_give_the_same_digests() {
    let here: Vec<Vec<u64>> = PRESETS.iter().map(|p| digests(&p.scenario())).collect();
    let handles: Vec<_> = (0..4)
        .map(|_| std::thread::spawn(|| PRESETS.iter().map(|p| digests(&p.scenario())).collect::<Vec<_>>()))
        .collect();
    for h in handles {
        let there = h.join().expect("a run panicked on another thread");
        assert_eq!(there, here, "a run on another thread gave different digests");
    }
}

#[test]
fn variants_with_different_expected_verdicts_behave_differently() {
    let mut differing_pairs = 0;
    for p in &PRESETS {
        let scenario = p.scenario();
        let traces: Vec<Trace> = Variant::ALL.iter().map(|&v| run_variant(&scenario, v)).collect();
        for (i, a) in traces.iter().enumerate() {
            for b in &traces[i + 1..] {
                // Trace::digest covers the variant's name, so it always tells two variants apart.
                assert_ne!(
                    a.digest(),
                    b.digest(),
                    "{}: {} and {} share a digest",
                    p.id,
                    a.variant.id(),
                    b.variant.id()
                );
                if p.expected(a.variant) != p.expected(b.variant) {
                    differing_pairs += 1;
                    assert_ne!(
                        behaviour_digest(a),
                        behaviour_digest(b),
                        "{}: {} and {} are expected to reach different verdicts but behave identically",
                        p.id,
                        a.variant.id(),
                        b.variant.id()
                    );
                }
            }
        }
    }
    assert!(differing_pairs > 0, "no preset expects different verdicts from two variants: this test checks nothing");
}

#[test]
fn kip_101_scenario_1_loses_m2_only_under_hw_truncation() {
    // A concrete behavioural difference, independent of the digest function: model §5.1.
    let scenario = epochlab_core::presets::find("kip101-scenario-1").expect("preset kip101-scenario-1").scenario();
    let old = run_variant(&scenario, Variant::HwTruncation);
    let new = run_variant(&scenario, Variant::Kip101);
    assert_ne!(behaviour_digest(&old), behaviour_digest(&new));
    let leader_leo = |t: &Trace| {
        let state = t.final_state();
        state.true_leader().map(|l| state.replica(l).leo())
    };
    // A becomes leader after B crashes: with [m1] under the old rule, with [m1, m2] under KIP-101.
    assert_eq!((leader_leo(&old), leader_leo(&new)), (Some(1), Some(2)));
}

#[test]
fn a_changed_scenario_gives_a_different_digest() {
    for p in &PRESETS {
        let scenario = p.scenario();
        let mut shorter = scenario.clone();
        shorter.events.pop();
        let mut renamed = scenario.clone();
        renamed.name.push_str(" (copy)");
        for v in Variant::ALL {
            let base = run_variant(&scenario, v);
            let cut = run_variant(&shorter, v);
            assert_ne!(
                base.digest(),
                cut.digest(),
                "{} under {}: dropping the last event kept the digest",
                p.id,
                v.id()
            );
            assert_ne!(
                base.digest(),
                run_variant(&renamed, v).digest(),
                "{} under {}: renaming the scenario kept the digest",
                p.id,
                v.id()
            );
        }
    }
}
