//! The scenario file: every field, every default, every error message (contract version 1).

use epochlab_core::scenario::{Acks, Delivery, Event, Policy};
use epochlab_core::{parse_scenario, Flag, Scenario, Variant};

fn with_events(events: &str) -> String {
    format!(r#"{{"version": 1, "name": "t", "brokers": ["A", "B"], "events": {events}}}"#)
}

fn error(json: &str) -> String {
    parse_scenario(json).expect_err("expected an error").to_string()
}

#[test]
fn a_minimal_scenario_takes_every_default() {
    let s = parse_scenario(r#"{"version": 1, "brokers": ["A"]}"#).unwrap();
    assert_eq!(s.name, "Untitled scenario");
    assert_eq!(s.description, "");
    assert!(s.events.is_empty());
    let c = &s.config;
    assert_eq!(c.variant, Variant::Kip279);
    assert!(c.flags.is_empty());
    assert_eq!(c.min_insync_replicas, 1);
    assert_eq!(c.unclean_leader_election, None);
    assert_eq!(c.hw_checkpoint, Policy::Always);
    assert_eq!(c.flush, Policy::Always);
}

#[test]
fn every_config_field_is_read() {
    let s = parse_scenario(
        r#"{"version": 1, "name": "n", "description": "d", "brokers": ["A", "B", "C"], "config": {"variant": "diverging-epoch",
        "flags": ["kafka-7415", "kip-320"], "min_insync_replicas": 2, "unclean_leader_election": true,
        "hw_checkpoint": "manual", "flush": "manual"}}"#,
    )
    .unwrap();
    assert_eq!((s.name.as_str(), s.description.as_str()), ("n", "d"));
    assert_eq!(s.brokers, ["A", "B", "C"]);
    let c = &s.config;
    assert_eq!(c.variant, Variant::DivergingEpoch);
    assert_eq!(c.flags, [Flag::Kafka7415, Flag::Kip320]);
    assert_eq!(c.min_insync_replicas, 2);
    assert_eq!(c.unclean_leader_election, Some(true));
    assert_eq!((c.hw_checkpoint, c.flush), (Policy::Manual, Policy::Manual));
}

#[test]
fn every_variant_and_flag_id_is_accepted() {
    for v in Variant::ALL {
        let s =
            parse_scenario(&format!(r#"{{"version": 1, "brokers": ["A"], "config": {{"variant": "{}"}}}}"#, v.id()))
                .unwrap();
        assert_eq!(s.config.variant, v);
    }
    for f in Flag::ALL {
        let s =
            parse_scenario(&format!(r#"{{"version": 1, "brokers": ["A"], "config": {{"flags": ["{}"]}}}}"#, f.id()))
                .unwrap();
        assert_eq!(s.config.flags, [f]);
    }
}

#[test]
fn every_event_kind_and_field_is_read_with_its_defaults() {
    let s = parse_scenario(&with_events(
        r#"[{"kind": "elect"}, {"kind": "elect", "broker": "B", "deliver": ["A"]}, {"kind": "elect", "deliver": "none"},
        {"kind": "deliver", "broker": "A"}, {"kind": "produce"}, {"kind": "produce", "record": "m1", "acks": 1, "broker": "B"},
        {"kind": "produce", "acks": 0}, {"kind": "produce", "acks": "all"}, {"kind": "fetch", "broker": "A"},
        {"kind": "fetch", "broker": "A", "drop_response": true}, {"kind": "settle"}, {"kind": "shrink_isr", "broker": "B"},
        {"kind": "crash", "broker": "A"}, {"kind": "crash", "broker": "A", "power": true, "notify_controller": false},
        {"kind": "restart", "broker": "A"}, {"kind": "restart", "broker": "A", "deliver": false}, {"kind": "shutdown", "broker": "B"},
        {"kind": "checkpoint_hw", "broker": "A"}, {"kind": "flush", "broker": "A"}, {"kind": "consume"}, {"kind": "consume", "broker": "B"},
        {"kind": "zombie", "broker": "B"}]"#,
    ))
    .unwrap();
    let b = |n: &str| n.to_string();
    let expected = vec![
        Event::Elect { broker: None, deliver: Delivery::All },
        Event::Elect { broker: Some(b("B")), deliver: Delivery::Only(vec![b("A")]) },
        Event::Elect { broker: None, deliver: Delivery::None },
        Event::Deliver { broker: b("A") },
        Event::Produce { record: None, acks: Acks::All, broker: None },
        Event::Produce { record: Some(b("m1")), acks: Acks::One, broker: Some(b("B")) },
        Event::Produce { record: None, acks: Acks::Zero, broker: None },
        Event::Produce { record: None, acks: Acks::All, broker: None },
        Event::Fetch { broker: b("A"), drop_response: false },
        Event::Fetch { broker: b("A"), drop_response: true },
        Event::Settle,
        Event::ShrinkIsr { broker: b("B") },
        Event::Crash { broker: b("A"), power: false, notify_controller: true },
        Event::Crash { broker: b("A"), power: true, notify_controller: false },
        Event::Restart { broker: b("A"), deliver: true },
        Event::Restart { broker: b("A"), deliver: false },
        Event::Shutdown { broker: b("B") },
        Event::CheckpointHw { broker: b("A") },
        Event::Flush { broker: b("A") },
        Event::Consume { broker: None },
        Event::Consume { broker: Some(b("B")) },
        Event::Zombie { broker: b("B") },
    ];
    assert_eq!(s.events, expected);
}

#[test]
fn export_then_import_gives_the_same_scenario_and_omits_defaults() {
    for p in &epochlab_core::presets::PRESETS {
        let s = p.scenario();
        let json = s.to_json();
        assert_eq!(parse_scenario(&json).unwrap(), s, "{}", p.id);
    }
    let s = parse_scenario(&with_events(r#"[{"kind": "fetch", "broker": "A"}, {"kind": "produce"}]"#)).unwrap();
    let json = s.to_json();
    assert!(!json.contains("drop_response") && !json.contains("acks"), "{json}");
}

#[test]
fn syntax_errors_name_the_line_and_column() {
    assert_eq!(error("{\n  \"version\": 1,\n  \"brokers\": [\"A\",]\n}"), "line 3 column 19: trailing comma");
    assert!(error("").starts_with("line 1 column 0: EOF while parsing"));
}

#[test]
fn structural_errors_name_the_field_and_what_was_expected() {
    let cases: &[(&str, &str)] = &[
        (r#"[1]"#, "a scenario is a JSON object, not an array"),
        (r#"{"brokers": ["A"]}"#, "version: missing: this file format needs \"version\": 1"),
        (r#"{"version": 2, "brokers": ["A"]}"#, "version: version 2 is not supported: this Epochlab reads version 1"),
        (r#"{"version": "1", "brokers": ["A"]}"#, "version: expected a whole number, got the string \"1\""),
        (r#"{"version": 1, "brokers": ["A"], "extra": 1}"#, "unknown field \"extra\" in the scenario (expected version, name, description, brokers, config, events)"),
        (r#"{"version": 1}"#, "brokers: missing: list 1 to 5 broker names, e.g. [\"A\", \"B\"]"),
        (r#"{"version": 1, "brokers": []}"#, "brokers: 0 brokers given; a partition has 1 to 5"),
        (r#"{"version": 1, "brokers": ["A","B","C","D","E","F"]}"#, "brokers: 6 brokers given; a partition has 1 to 5"),
        (r#"{"version": 1, "brokers": ["A", "A"]}"#, "brokers[1]: \"A\" appears twice; broker names must be unique"),
        (r#"{"version": 1, "brokers": ["a b"]}"#, "brokers[0]: \"a b\" is not a valid name (1 to 16 of A-Z, a-z, 0-9, _ and -)"),
        (r#"{"version": 1, "brokers": [7]}"#, "brokers[0]: expected a name, got the number 7"),
        (r#"{"version": 1, "brokers": ["A"], "name": 3}"#, "name: expected a string, got the number 3"),
        (r#"{"version": 1, "brokers": ["A"], "config": []}"#, "config: expected an object, got an array"),
        (r#"{"version": 1, "brokers": ["A"], "config": {"variant": "kip-999"}}"#, "config.variant: unknown variant \"kip-999\" (expected one of hw-truncation, kip-101, kip-279, kafka-2.1, diverging-epoch, leader-hw-truncation)"),
        (r#"{"version": 1, "brokers": ["A"], "config": {"flags": ["x"]}}"#, "config.flags[0]: unknown flag \"x\" (expected one of kafka-7415, kafka-7128, kafka-7164, kip-320)"),
        (r#"{"version": 1, "brokers": ["A"], "config": {"flags": ["kip-320", "kip-320"]}}"#, "config.flags[1]: flag \"kip-320\" is listed twice"),
        (r#"{"version": 1, "brokers": ["A"], "config": {"min_insync_replicas": 0}}"#, "config.min_insync_replicas: expected 1 to 5, got the number 0"),
        (r#"{"version": 1, "brokers": ["A"], "config": {"min_insync_replicas": 2}}"#, "config.min_insync_replicas: 2 is more than the 1 broker(s): no acks=all write could ever succeed"),
        (r#"{"version": 1, "brokers": ["A"], "config": {"unclean_leader_election": "yes"}}"#, "config.unclean_leader_election: expected true or false, got the string \"yes\""),
        (r#"{"version": 1, "brokers": ["A"], "config": {"flush": "sometimes"}}"#, "config.flush: unknown policy \"sometimes\" (expected \"always\" or \"manual\")"),
        (r#"{"version": 1, "brokers": ["A"], "config": {"acks": 1}}"#, "config: unknown field \"acks\" in config (expected variant, flags, min_insync_replicas, unclean_leader_election, hw_checkpoint, flush, kafka_version, eligible_leader_replicas, inter_broker_protocol_version, log_message_format_version, metadata_mode)"),
        (r#"{"version": 1, "brokers": ["A"], "config": {"kafka_version": "5.0"}}"#, "config.kafka_version: unknown Kafka release \"5.0\" (known: 0.10.2 to 4.3, with an optional patch)"),
        (r#"{"version": 1, "brokers": ["A"], "config": {"eligible_leader_replicas": true}}"#, "config.eligible_leader_replicas: is a setting of a Kafka release: give config.kafka_version too"),
        (r#"{"version": 1, "brokers": ["A"], "config": {"kafka_version": "3.9", "eligible_leader_replicas": true}}"#, "config.eligible_leader_replicas: Kafka 3.9 has no Eligible Leader Replicas (KIP-966 came in 4.0)"),
        (r#"{"version": 1, "brokers": ["A"], "config": {"kafka_version": "2.1", "inter_broker_protocol_version": "2.1-V1"}}"#, "config.inter_broker_protocol_version: \"2.1-V1\" is not a Kafka version such as 0.10.2, 0.11.0-IV2 or 2.7-IV1"),
        (r#"{"version": 1, "brokers": ["A"], "config": {"log_message_format_version": "0.10.2"}}"#, "config.log_message_format_version: is a setting of a Kafka release: give config.kafka_version too"),
        (r#"{"version": 1, "brokers": ["A"], "events": {}}"#, "events: expected an array, got an object"),
    ];
    for (json, message) in cases {
        assert_eq!(error(json), *message, "for {json}");
    }
}

#[test]
fn event_errors_name_the_event_index_and_kind() {
    let cases: &[(&str, &str)] = &[
        (r#"[3]"#, "events[0]: expected an event object, got the number 3"),
        (r#"[{"broker": "A"}]"#, "events[0]: missing \"kind\""),
        (r#"[{"kind": 1}]"#, "events[0]: \"kind\" must be a string, got the number 1"),
        (r#"[{"kind": "settle"}, {"kind": "fetchx"}]"#, "events[1]: unknown event kind \"fetchx\" (expected one of produce, fetch, settle, crash, restart, elect, deliver, shrink_isr, shutdown, checkpoint_hw, flush, consume, zombie)"),
        (r#"[{"kind": "fetch", "brokr": "A"}]"#, "events[0] (fetch): unknown field \"brokr\" (a fetch takes broker, drop_response)"),
        (r#"[{"kind": "settle", "broker": "A"}]"#, "events[0] (settle): unknown field \"broker\" (a settle takes no other fields)"),
        (r#"[{"kind": "fetch"}]"#, "events[0] (fetch): missing \"broker\": a fetch needs one of A, B"),
        (r#"[{"kind": "crash", "broker": "Z"}]"#, "events[0] (crash): unknown broker \"Z\" (this scenario has A, B)"),
        (r#"[{"kind": "crash", "broker": 1}]"#, "events[0] (crash): \"broker\" must be a broker name, got the number 1"),
        (r#"[{"kind": "crash", "broker": "A", "power": 1}]"#, "events[0] (crash).power: expected true or false, got the number 1"),
        (r#"[{"kind": "produce", "acks": 2}]"#, "events[0] (produce): \"acks\" must be 0, 1 or \"all\", got the number 2"),
        (r#"[{"kind": "produce", "record": ""}]"#, "events[0] (produce): \"record\" must be a label of 1 to 24 characters"),
        (r#"[{"kind": "produce", "record": 5}]"#, "events[0] (produce): \"record\" must be a string label, got the number 5"),
        (r#"[{"kind": "elect", "deliver": "some"}]"#, "events[0] (elect): \"deliver\" must be \"all\", \"none\" or a list of brokers, got the string \"some\""),
        (r#"[{"kind": "elect", "deliver": ["Q"]}]"#, "events[0] (elect): \"deliver\" names unknown broker \"Q\" (this scenario has A, B)"),
        (r#"[{"kind": "elect", "deliver": [1]}]"#, "events[0] (elect): \"deliver\" lists broker names, got the number 1"),
        (r#"[{"kind": "restart", "broker": "A", "deliver": "yes"}]"#, "events[0] (restart).deliver: expected true or false, got the string \"yes\""),
    ];
    for (events, message) in cases {
        assert_eq!(error(&with_events(events)), *message, "for {events}");
    }
}

#[test]
fn too_many_events_are_refused() {
    let events = format!("[{}]", vec![r#"{"kind": "settle"}"#; epochlab_core::scenario::MAX_EVENTS + 1].join(","));
    assert_eq!(error(&with_events(&events)), "events: 1001 events is more than the limit of 1000");
}

#[test]
fn the_empty_scenario_is_valid_and_round_trips() {
    let s = Scenario::empty();
    assert_eq!(parse_scenario(&s.to_json()).unwrap(), s);
}
