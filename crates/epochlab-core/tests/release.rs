//! Kafka releases map to the variants that shipped in them, and bisecting a preset across releases finds
//! the KIP that fixed it.

use epochlab_core::invariants::InvariantId;
use epochlab_core::presets::find;
use epochlab_core::release::{bisect, describe_bisection, KafkaRelease};
use epochlab_core::Variant;

#[test]
fn releases_map_to_their_variants_and_names() {
    assert_eq!(KafkaRelease::from_id("0.11").map(KafkaRelease::variant), Some(Variant::Kip101));
    assert_eq!(KafkaRelease::from_id("2.0").map(KafkaRelease::variant), Some(Variant::Kip279));
    assert_eq!(KafkaRelease::from_id("2.8+"), Some(KafkaRelease::V2_8));
    assert_eq!(KafkaRelease::from_id("3.7"), Some(KafkaRelease::V2_8));
    assert_eq!(KafkaRelease::from_id("KRaft"), Some(KafkaRelease::Kraft));
    assert_eq!(KafkaRelease::from_id("0.9"), None);
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
    assert!(at(KafkaRelease::V1_1).contains(&InvariantId::I3));
    assert!(at(KafkaRelease::V2_0).is_empty());
    let text = describe_bisection(&outcomes);
    assert!(text.contains("from 2.0") && text.contains("KIP-279"), "{text}");
}

#[test]
fn a_story_that_holds_everywhere_says_so() {
    let s = find("happy-path").expect("preset").scenario();
    assert_eq!(describe_bisection(&bisect(&s)), "holds in every release");
}
