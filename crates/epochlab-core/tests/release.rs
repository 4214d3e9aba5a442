//! Kafka releases map to the variants that shipped in them, and bisecting a preset across releases finds
//! the KIP that fixed it.

use epochlab_core::invariants::InvariantId;
use epochlab_core::presets::find;
use epochlab_core::release::{bisect, describe_bisection, KafkaRelease};
use epochlab_core::scenario::parse_scenario;
use epochlab_core::scenario::text::{parse_text, to_text};
use epochlab_core::variant::KafkaVersion;
use epochlab_core::Variant;

#[test]
fn releases_map_to_their_variants_and_names() {
    assert_eq!(KafkaRelease::from_id("0.11").map(KafkaRelease::variant), Some(Variant::Kip101));
    assert_eq!(KafkaRelease::from_id("2.0").map(KafkaRelease::variant), Some(Variant::Kip279));
    assert_eq!(KafkaRelease::from_id("2.8+"), Some(KafkaRelease::V2_8_1));
    assert_eq!(KafkaRelease::from_id("3.3"), Some(KafkaRelease::V2_8_1));
    assert_eq!(KafkaRelease::from_id("3.7"), Some(KafkaRelease::V3_7));
    assert_eq!(KafkaRelease::from_id("KRaft"), Some(KafkaRelease::V2_8_1), "the old KRaft entry modelled 3.0 to 3.6");
    assert_eq!(KafkaRelease::from_id("4.0.1"), Some(KafkaRelease::V4_0));
    assert_eq!(KafkaRelease::from_id("0.9"), None);
    assert_eq!(KafkaRelease::from_id("5.0"), None);
    assert_eq!(KafkaRelease::V2_1.flags().len(), 4);
    for r in KafkaRelease::ALL {
        assert_eq!(KafkaRelease::from_id(r.id()), Some(r));
    }
}

#[test]
fn bisecting_the_fast_failover_story_points_at_kip_279() {
    let s = find("kafka-6361-fast-failover").expect("preset").scenario();
    let outcomes = bisect(&s);
    let at = |r: KafkaRelease| outcomes.iter().find(|o| o.release == r).map(|o| o.bugs.clone()).unwrap_or_default();
    assert!(at(KafkaRelease::V1_0).contains(&InvariantId::I3));
    assert!(at(KafkaRelease::V2_0).is_empty());
    let text = describe_bisection(&outcomes);
    assert!(text.contains("from 2.0") && text.contains("KIP-279"), "{text}");
}

#[test]
fn a_story_that_holds_everywhere_says_so() {
    let s = find("happy-path").expect("preset").scenario();
    assert_eq!(describe_bisection(&bisect(&s)), "holds in every release");
}

#[test]
fn a_scenario_names_its_release_in_json_and_text_and_it_decides_the_variant() {
    let mut s = find("kafka-6361-fast-failover").expect("preset").scenario();
    s.config.set_release(KafkaVersion::parse("1.1").expect("release"));
    let json = serde_json::to_string(&s).expect("json");
    assert!(json.contains(r#""kafka_version":"1.1""#), "{json}");
    assert_eq!(parse_scenario(&json), Ok(s.clone()));
    let text = to_text(&s);
    assert!(text.contains("\nkafka_version: 1.1\n"), "{text}");
    assert_eq!(parse_text(&text).map_err(|e| e.to_string()), Ok(s.clone()));
    // The variant may be left out: the release decides it.
    let bare = r#"{"version":1,"name":"n","brokers":["A","B"],"config":{"kafka_version":"2.0"},"events":[]}"#;
    let parsed = parse_scenario(bare).expect("a release alone");
    assert_eq!(
        (parsed.config.variant, parsed.config.kafka_version),
        (Variant::Kip279, KafkaVersion::parse("2.0").ok())
    );
    // A 3.x release is kept as written and runs its line.
    let later = bare.replace("2.0", "3.3");
    let v = parse_scenario(&later).expect("3.3").config.kafka_version.expect("release");
    assert_eq!((v.id(), v.line()), ("3.3".to_string(), KafkaRelease::V2_8_1));
    // A file without it reads as before.
    let old = r#"{"version":1,"name":"n","brokers":["A"],"config":{"variant":"kip-101"},"events":[]}"#;
    assert_eq!(parse_scenario(old).expect("old file").config.kafka_version, None);
}

#[test]
fn a_release_that_contradicts_the_variant_or_flags_is_refused_with_a_reason() {
    let with = |config: &str| {
        let json = format!(r#"{{"version":1,"name":"n","brokers":["A","B"],"config":{config},"events":[]}}"#);
        parse_scenario(&json).expect_err("refused").to_string()
    };
    let mismatch = with(r#"{"variant":"kip-101","kafka_version":"2.0"}"#);
    assert!(mismatch.contains("config.kafka_version") && mismatch.contains("kip-279"), "{mismatch}");
    let flags = with(r#"{"flags":["kip-320"],"kafka_version":"2.0"}"#);
    assert!(flags.contains("decides the flags"), "{flags}");
    let unknown = with(r#"{"kafka_version":"0.8"}"#);
    assert!(unknown.contains("unknown Kafka release \"0.8\"") && unknown.contains("0.10.2 to 4.3"), "{unknown}");
}

#[test]
fn a_scenario_under_its_release_runs_as_the_release_does() {
    let mut s = find("kafka-6361-fast-failover").expect("preset").scenario();
    s.config.set_release(KafkaVersion::parse("2.0").expect("release"));
    let by_release = epochlab_core::run_protocol(&s, KafkaRelease::V2_0.protocol());
    let by_config = epochlab_core::run_variant(&s, s.config.variant);
    assert_eq!(by_release.steps.last().map(|st| &st.state), by_config.steps.last().map(|st| &st.state));
    let outcomes = bisect(&s);
    let at = |r: KafkaRelease| outcomes.iter().find(|o| o.release == r).expect("release").bugs.clone();
    assert!(at(KafkaRelease::V1_0).contains(&InvariantId::I3));
    assert!(at(KafkaRelease::V2_0).is_empty());
}
