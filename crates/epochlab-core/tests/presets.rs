//! Every preset under every variant reaches its expected verdict (model §5.1 to §5.5).

use epochlab_core::presets::{verdict_of, PRESETS};
use epochlab_core::{run_variant, Variant};

#[test]
fn every_preset_parses() {
    for p in &PRESETS {
        epochlab_core::parse_scenario(p.json).unwrap_or_else(|e| panic!("preset {} does not parse: {e}", p.id));
    }
}

/// The page recognises a preset only among scenarios with a description (a long link skips parsing them).
#[test]
fn every_preset_has_a_description() {
    for p in &PRESETS {
        assert!(!p.scenario().description.trim().is_empty(), "preset {} has no description", p.id);
    }
}

#[test]
fn every_preset_gives_its_expected_verdict_under_every_variant() {
    let mut failures = Vec::new();
    for p in &PRESETS {
        let scenario = p.scenario();
        for v in Variant::ALL {
            let trace = run_variant(&scenario, v);
            let (bugs, allowed) = verdict_of(&trace);
            let expected = p.expected(v);
            if bugs != expected.bugs || allowed != expected.by_design {
                failures.push(format!(
                    "{} under {}: got bugs {bugs:?} allowed {allowed:?}, expected bugs {:?} allowed {:?}",
                    p.id,
                    v.id(),
                    expected.bugs,
                    expected.by_design
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_preset_opens_with_the_variants_it_is_about() {
    for p in &PRESETS {
        let scenario = p.scenario();
        assert!((1..=epochlab_core::variant::MAX_VARIANTS).contains(&p.variants.len()), "{}: {:?}", p.id, p.variants);
        assert_eq!(p.variants[0], scenario.config.variant, "{}: its configured variant comes first", p.id);
        // A preset whose story is a failure shows a variant where it fails, and one where it does not.
        let fails = |v: Variant| !p.expected(v).bugs.is_empty();
        if Variant::ALL.into_iter().any(fails) {
            assert!(p.variants.iter().any(|&v| fails(v)), "{}: none of {:?} shows its failure", p.id, p.variants);
            assert!(p.variants.iter().any(|&v| !fails(v)), "{}: none of {:?} shows the fix", p.id, p.variants);
        }
    }
    let unclean = epochlab_core::presets::find("unclean-elections-diverge").unwrap();
    assert!(unclean.variants.contains(&Variant::Kip101), "the failure it describes is KIP-101's");
}

/// The table `InvariantId::can_be_by_design` holds of what the invariants really decide: over every preset
/// under every variant and every Kafka release line, a violation Kafka allows is only ever of an invariant
/// the table names, and each of I1, I2 and O1 is allowed somewhere (so the run is not vacuous). Before, a
/// test pinned the table to a literal and nothing read it.
#[test]
fn only_invariants_that_can_be_by_design_are_ever_allowed() {
    use epochlab_core::invariants::InvariantId;
    use epochlab_core::variant::{KafkaRelease, KafkaVersion};
    let mut seen = std::collections::BTreeSet::new();
    for p in &PRESETS {
        let scenario = p.scenario();
        let releases = KafkaRelease::ALL.into_iter().map(|line| {
            let mut s = scenario.clone();
            s.config.set_release(KafkaVersion::of_line(line));
            (s, line.variant())
        });
        let variants = Variant::ALL.into_iter().map(|v| (scenario.clone(), v));
        for (s, v) in variants.chain(releases) {
            for violation in run_variant(&s, v).violations.iter().filter(|x| x.by_design) {
                let id = violation.invariant;
                assert!(id.can_be_by_design(), "{} under {}: {id} allowed: {}", p.id, v.id(), violation.message);
                seen.insert(id);
            }
        }
    }
    for id in [InvariantId::I1, InvariantId::I2, InvariantId::O1] {
        assert!(seen.contains(&id), "no preset shows an allowed {id}");
    }
}

#[test]
fn a_preset_is_recognised_under_any_variant_and_an_edited_one_by_its_description() {
    use epochlab_core::presets::{recognise, Recognised};
    for p in PRESETS {
        let mut s = p.scenario();
        assert_eq!(recognise(&s).preset, Some(p.id), "{}", p.id);
        s.config.variant = epochlab_core::Variant::LeaderHwTruncation;
        assert_eq!(recognise(&s).preset, Some(p.id), "{} under another variant", p.id);
        s.events.push(epochlab_core::scenario::Event::Settle);
        assert_eq!(recognise(&s), Recognised { preset: None, edited: Some(p.id) }, "{} edited", p.id);
        s.description.clear();
        assert_eq!(recognise(&s), Recognised::default(), "{}: no description, no preset", p.id);
    }
}
