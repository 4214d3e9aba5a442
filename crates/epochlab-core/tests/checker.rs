//! The model checker finds the shortest failure of each broken variant and none in the fixed ones, within
//! the default bounds; every counterexample, run as a scenario, shows its violation at its last step.

use epochlab_core::checker::{check, CheckConfig, CheckResult, SearchEnd};
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

/// Within the default bounds (2 brokers, 2 records, epoch 3, depth 13) the fixed variants have no failure,
/// and the search has seen every state: 8,166 for kafka-2.1 and 7,102 for diverging-epoch. Eight of each
/// need all 13 events, e.g. four elections of A (epoch 3), two produces, B fetching both with the last
/// response lost, then A and B each crashing unnoticed and restarting (which resets A's record of B's LEO
/// and sends B back to truncating, without a new epoch). So one event less, at depth 12, finds no failure
/// either but cannot say it saw everything: that is why the default depth is 13.
#[test]
fn kafka_2_1_and_diverging_epoch_have_none_and_the_search_sees_every_state() {
    for variant in [Variant::Kafka21, Variant::DivergingEpoch] {
        let whole = search(variant);
        assert!(whole.counterexample.is_none(), "{}: {:?}", variant.id(), whole.violation);
        assert!(whole.end == SearchEnd::Exhausted, "{}: {whole:?}", variant.id());
        let short = check(&CheckConfig { variant, depth: 12, ..CheckConfig::default() }, |_| true);
        assert!(short.counterexample.is_none(), "{}: {:?}", variant.id(), short.violation);
        assert!(short.end == SearchEnd::DepthBound, "{}: {short:?}", variant.id());
        let (all, at_12) = (whole.unique_states, short.unique_states);
        assert!(all > at_12, "{}: {at_12} then {all}", variant.id());
        println!("{}: none, exhausted with {all} states; {at_12} states at depth 12", variant.id());
    }
}

/// With 3 brokers and depth 10 the fixed variants have no failure either (266,770 states for kafka-2.1,
/// about 2 s with the core optimised; the whole space closes only at depth 21, below).
#[test]
fn kafka_2_1_and_diverging_epoch_have_none_with_three_brokers_at_depth_10() {
    for variant in [Variant::Kafka21, Variant::DivergingEpoch] {
        let r = check(&CheckConfig { variant, brokers: 3, depth: 10, ..CheckConfig::default() }, |_| true);
        assert!(r.counterexample.is_none(), "{}: {:?}", variant.id(), r.violation);
        assert!(
            matches!(r.end, SearchEnd::Found | SearchEnd::Exhausted | SearchEnd::DepthBound) && r.depth_reached == 10,
            "{}: {r:?}",
            variant.id()
        );
        println!("{}, 3 brokers, depth 10: none, {} states", variant.id(), r.unique_states);
    }
}

mod shrinking {
    use epochlab_core::checker::{shrink, simpler, ShrinkError};
    use epochlab_core::invariants::InvariantId;
    use epochlab_core::presets::find;
    use epochlab_core::scenario::{Event, Scenario};
    use epochlab_core::{run_variant, Variant};

    fn breaks(s: &Scenario, v: Variant, i: InvariantId) -> bool {
        run_variant(s, v).violations.iter().any(|x| x.invariant == i && !x.by_design)
    }

    /// KIP-101 scenario 1 with noise: extra produces, settles, consumes and a checkpoint around the story.
    fn padded() -> Scenario {
        let mut s = find("kip101-scenario-1").expect("preset").scenario();
        for at in [1, 3, 6, 8] {
            s.events.insert(at, Event::Consume { broker: None });
        }
        s.events.insert(2, Event::CheckpointHw { broker: "B".into() });
        s.events.push(Event::Settle);
        s.events.push(Event::Produce { record: None, acks: Default::default(), broker: None });
        s
    }

    #[test]
    fn a_shrunk_scenario_is_one_minimal_and_each_event_has_its_reason() {
        let s = padded();
        let shrunk = shrink(&s, Variant::HwTruncation, Some(InvariantId::I1)).expect("I1 fails");
        let m = &shrunk.scenario;
        assert!(breaks(m, Variant::HwTruncation, InvariantId::I1));
        assert!(m.events.len() < s.events.len(), "{} of {}", m.events.len(), s.events.len());
        for i in 0..m.events.len() {
            let mut without = m.clone();
            without.events.remove(i);
            assert!(!breaks(&without, Variant::HwTruncation, InvariantId::I1), "step {i} is not needed");
            for simpler in simpler(&m.events[i]) {
                let mut candidate = m.clone();
                candidate.events[i] = simpler;
                assert!(!breaks(&candidate, Variant::HwTruncation, InvariantId::I1), "step {i} could be simpler");
            }
        }
        assert_eq!(shrunk.reasons.len(), m.events.len());
        assert!(shrunk.reasons.iter().all(|r| r.contains("I1 no longer fails")), "{:?}", shrunk.reasons);
    }

    /// Issue 21: a restart at the end, a settle, or a record lost with or without the removed event left a
    /// reason with nothing after "no longer fails". Every preset under every variant it breaks says what
    /// changes without each event.
    #[test]
    fn every_removal_of_every_preset_shrunk_under_every_variant_says_what_changes() {
        for preset in epochlab_core::presets::PRESETS {
            for v in Variant::ALL {
                let Ok(shrunk) = shrink(&preset.scenario(), v, None) else { continue };
                for (i, why) in shrunk.reasons.iter().enumerate() {
                    let (head, detail) = why.split_once(": ").unwrap_or((why, ""));
                    assert!(head.ends_with("no longer fails"), "{} {v:?} step {i}: {why}", preset.id);
                    let says = ["rejected instead", "applies instead", "instead of"].iter().any(|w| detail.contains(w));
                    assert!(says, "{} under {}, step {i} has no reason: {why}", preset.id, v.id());
                }
            }
        }
    }

    #[test]
    fn a_restart_at_the_end_is_needed_because_the_broker_would_stay_down() {
        let s = find("kip101-scenario-2").expect("preset").scenario();
        let shrunk = shrink(&s, Variant::LeaderHwTruncation, Some(InvariantId::I3)).expect("I3 fails");
        let last = shrunk.reasons.last().expect("a reason");
        assert!(last.contains("(restart), I3 no longer fails: at the end, A is down instead of up"), "{last}");
    }

    #[test]
    fn a_scenario_without_the_violation_cannot_be_shrunk() {
        let s = find("happy-path").expect("preset").scenario();
        let e = shrink(&s, Variant::Kip279, None).unwrap_err();
        assert_eq!(e, ShrinkError::NoViolation { variant: Variant::Kip279, invariant: None });
        assert!(e.to_string().contains("nothing to shrink"));
    }
}

#[test]
fn a_search_run_in_slices_ends_as_one_run_does() {
    use epochlab_core::checker::Search;
    for variant in [Variant::Kip279, Variant::Kafka21] {
        let config = CheckConfig { variant, depth: 8, ..CheckConfig::default() };
        let whole = check(&config, |_| true);
        let mut search = Search::new(&config);
        let mut slices = 0;
        let sliced = loop {
            slices += 1;
            if let Some(r) = search.run(97) {
                break r;
            }
            assert!(search.progress().unique_states <= whole.unique_states);
        };
        assert!(slices > 10, "{slices}");
        assert_eq!(sliced, whole, "{}", variant.id());
        assert_eq!(search.run(97), Some(whole), "an ended search keeps its result");
    }
}

#[test]
fn a_cancelled_search_says_so_and_is_not_exhausted() {
    let mut calls = 0;
    let r = check(&CheckConfig { variant: Variant::Kafka21, ..CheckConfig::default() }, |p| {
        calls += 1;
        assert!(p.unique_states > 0 && p.queue > 0);
        calls < 3
    });
    assert!(r.end == SearchEnd::Cancelled && r.counterexample.is_none(), "{r:?}");
    assert_eq!(calls, 3);
}

/// With 3 brokers the space is too deep to close at depth 10 (266,770 of its 564,974 states for
/// kafka-2.1): every state is seen only at depth 21, about 20 s in a release build.
#[test]
#[ignore = "about 20 s in a release build, minutes in a debug one: run with --release -- --ignored"]
fn kafka_2_1_with_three_brokers_is_exhausted_given_the_depth() {
    let config = CheckConfig { variant: Variant::Kafka21, brokers: 3, depth: 30, ..CheckConfig::default() };
    let r = check(&config, |_| true);
    assert!(r.counterexample.is_none(), "{:?}", r.violation);
    assert!(r.end == SearchEnd::Exhausted, "{r:?}");
    assert!(r.depth_reached < 30, "{}", r.depth_reached);
    println!("kafka-2.1, 3 brokers: exhausted, {} states, depth {}", r.unique_states, r.depth_reached);
}

mod stamps {

    use epochlab_core::checker::{check, settings_crc, CheckConfig, Stamp};
    use epochlab_core::scenario::Config;
    use epochlab_core::Variant;

    fn proof() -> (CheckConfig, Stamp) {
        let config = CheckConfig { variant: Variant::Kafka21, depth: 6, ..CheckConfig::default() };
        let r = check(&config, |_| true);
        (config.clone(), Stamp::of(&config, &r).expect("no failure within depth 6"))
    }

    #[test]
    fn a_narrower_stamp_says_what_it_leaves_out() {
        let full = Stamp::parse("1~kafka-2.1~default~2~2~3~13~I1.I2.I3.I4.I5.I7.L1~8166~exhausted~0000abcd");
        assert_eq!(full.map(|s| s.not_covered()), Ok(None));
        let cut = Stamp::parse("1~kafka-2.1~default~2~2~3~13~I1~8166~exhausted~0000abcd").unwrap();
        assert_eq!(cut.not_covered().as_deref(), Some("I2, I3, I4, I5, I7, L1 were not looked for"));
        assert!(cut.summary().contains("no failure of I1 within"), "{}", cut.summary());
    }

    #[test]
    fn a_stamp_reads_back_from_a_link_and_a_re_run_confirms_it() {
        let (config, stamp) = proof();
        let text = stamp.to_string();
        assert!(text.starts_with("1~kafka-2.1~default~2~2~3~6~I1.I2.I3.I4.I5.I7.L1~"), "{text}");
        let link = format!("https://example.org/epochlab/#s=1abc&proof={text}&embed=view");
        assert_eq!(Stamp::in_fragment(&link), Some(Ok(stamp.clone())));
        assert_eq!(Stamp::in_fragment("#s=1abc"), None);
        assert!(stamp.summary().starts_with("kafka-2.1: no failure within 2 brokers, 2 records, epoch 3, depth 6: "));
        let rerun = Stamp::of(&config, &check(&config, |_| true));
        assert_eq!(stamp.confirmed_by(rerun.as_ref()), Ok(()));
    }

    #[test]
    fn a_re_run_with_other_settings_counts_or_verdict_does_not_confirm() {
        let (config, stamp) = proof();
        let unclean = Config { unclean_leader_election: Some(true), ..Config::default() };
        let other = CheckConfig { config: unclean.clone(), ..config.clone() };
        assert_ne!(settings_crc(&unclean, Variant::Kafka21), stamp.config);
        let rerun = Stamp::of(&other, &check(&other, |_| true));
        assert!(stamp.confirmed_by(rerun.as_ref()).unwrap_err().contains("cluster settings"));
        let more = Stamp { states: stamp.states + 1, ..stamp.clone() };
        assert!(more.confirmed_by(Some(&stamp)).unwrap_err().contains("states"));
        assert!(stamp.confirmed_by(None).is_err());
        // The release a scenario names does not change what is searched: the variant decides.
        assert_eq!(settings_crc(&Config::default(), Variant::Kafka21), stamp.config);
    }

    #[test]
    fn a_failure_a_cancel_or_the_state_limit_makes_no_stamp() {
        let found = CheckConfig { variant: Variant::HwTruncation, ..CheckConfig::default() };
        assert_eq!(Stamp::of(&found, &check(&found, |_| true)), None);
        let (config, _) = proof();
        let long = CheckConfig { depth: 12, ..config.clone() };
        assert_eq!(Stamp::of(&long, &check(&long, |_| false)), None, "cancelled");
        let small = CheckConfig { max_states: 10, ..config };
        assert_eq!(Stamp::of(&small, &check(&small, |_| true)), None);
    }

    #[test]
    fn a_damaged_stamp_says_what_is_wrong() {
        let (_, stamp) = proof();
        let good = stamp.to_string();
        let cases = [
            (good.replacen("1~", "2~", 1), "version 1"),
            (good.replace("kafka-2.1", "kafka-9"), "no variant"),
            (good.replace("~default~", "~tiny~"), "no alphabet"),
            (good.replacen("~2~2~3~6~", "~9~2~3~6~", 1), "brokers \"9\""),
            (good.replacen("~2~2~3~6~", "~2~2~3~x~", 1), "depth \"x\""),
            (good.replace("I7", "I9"), "no invariant"),
            (good.replace("~depth~", "~maybe~").replace("~exhausted~", "~maybe~"), "instead of exhausted"),
            (good[..good.len() - 2].to_string(), "8 hex digits"),
            (good.rsplit_once('~').map(|(a, _)| a.to_string()).unwrap_or_default(), "10 fields"),
            (String::new(), "version 1"),
        ];
        for (text, why) in cases {
            let e = Stamp::parse(&text).expect_err(&text);
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
