//! The metadata mode (model §13): how a scenario names it in each format, what Kafka refuses, and the
//! control plane each mode runs, as stories a Kafka operator would try.

use epochlab_core::scenario::text::{parse_any_with, parse_text, to_text};
use epochlab_core::scenario::Overrides;
use epochlab_core::share::{decode, encode, ShareState};
use epochlab_core::variant::MetadataMode;
use epochlab_core::{parse_scenario, run, Scenario, Trace};

fn scenario(release: &str, extra: &str, events: &str) -> Scenario {
    let text = format!("name: t\nbrokers: A B C\nkafka_version: {release}\n{extra}\n{events}");
    parse_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn refusal(release: &str, extra: &str) -> String {
    let text = format!("name: t\nbrokers: A B C\nkafka_version: {release}\n{extra}\nelect A\n");
    parse_text(&text).expect_err("refused").to_string()
}

fn leader_epoch(t: &Trace, step: usize) -> i32 {
    t.steps[step].state.controller.leader_epoch
}

fn leader(t: &Trace, step: usize) -> Option<u8> {
    t.steps[step].state.controller.leader
}

#[test]
fn the_mode_reads_and_writes_the_same_in_json_text_and_links() {
    let s = scenario("3.3", "metadata_mode: kraft", "elect A\n");
    assert_eq!(s.config.metadata_mode, Some(MetadataMode::KRaft));
    assert!(to_text(&s).contains("metadata_mode: kraft\n"), "{}", to_text(&s));
    assert_eq!(parse_text(&to_text(&s)).map(|t| t.config), Ok(s.config.clone()));
    assert!(s.to_json().contains(r#""metadata_mode": "kraft""#), "{}", s.to_json());
    assert_eq!(parse_scenario(&s.to_json()).map(|t| t.config), Ok(s.config.clone()));
    let link = encode(&ShareState { scenario: s.clone(), variants: vec![s.config.variant], cursor: None });
    assert_eq!(decode(&link).map(|l| l.scenario.config), Ok(s.config.clone()));
    // Left out, it is the release's own: ZooKeeper through 3.9, KRaft from 4.0.
    assert_eq!(scenario("3.9", "", "").config.metadata_mode_in_force(), MetadataMode::ZooKeeper);
    assert_eq!(scenario("4.0", "", "").config.metadata_mode_in_force(), MetadataMode::KRaft);
    // The old pseudo-release `kraft` is 3.6 in KRaft mode.
    let old = scenario("kraft", "", "");
    assert_eq!(
        (old.config.kafka_version.map(|v| v.id()), old.config.metadata_mode),
        (Some("3.6".into()), Some(MetadataMode::KRaft))
    );
}

#[test]
fn a_mode_kafka_does_not_offer_is_refused_with_its_reason() {
    assert!(refusal("2.7", "metadata_mode: kraft").contains("KRaft came in 2.8"));
    assert!(refusal("4.0", "metadata_mode: zookeeper").contains("4.0 removed it (KIP-833)"));
    assert!(refusal("3.3", "metadata_mode: raft").contains("unknown metadata mode \"raft\""));
    let knobs = refusal("3.5", "metadata_mode: kraft\ninter_broker_protocol_version: 3.0");
    assert!(knobs.contains("metadata.version takes their place"), "{knobs}");
    let text = "name: t\nbrokers: A B\nmetadata_mode: kraft\n";
    assert!(parse_text(text).expect_err("no release").to_string().contains("give config.kafka_version too"));
}

#[test]
fn the_protocol_alone_below_0_11_is_refused_as_kafka_refuses_it_and_the_command_lines_release_counts() {
    let alone = refusal("2.4", "inter_broker_protocol_version: 0.10.2");
    assert!(alone.contains("log_message_format_version defaults to Kafka 2.4's own (v2)"), "{alone}");
    let both = scenario("2.4", "inter_broker_protocol_version: 0.10.2\nlog_message_format_version: 0.10.2", "");
    assert_eq!(both.config.protocol(both.config.variant).generation().id(), "hw-truncation");
    // A file without a release, given one beside it (`--kafka 1.0`), is read as if it named it.
    let file = "name: t\nbrokers: A B\ninter_broker_protocol_version: 0.10.2\nelect A\n";
    let as_1_0 =
        |text: &str| parse_any_with(text, &Overrides { kafka_version: Some("1.0".into()), ..Overrides::default() });
    assert!(as_1_0(file).expect_err("refused").contains("refuses at start-up"));
    let with_format = file.replace("elect A", "log_message_format_version: 0.10.2\nelect A");
    assert_eq!(as_1_0(&with_format).map(|s| s.config.kafka_version.map(|v| v.id())), Ok(Some("1.0".into())));
}

/// A follower dies while the others stay in sync.
const FOLLOWER_DIES: &str = "elect A\nproduce m1\nsettle\ncrash C\n";

#[test]
fn a_follower_dying_raises_the_leader_epoch_under_zookeeper_and_only_the_partition_epoch_under_kraft_from_3_6() {
    let zk = run(&scenario("2.8", "", FOLLOWER_DIES));
    assert_eq!((leader_epoch(&zk, 3), zk.steps[3].state.controller.partition_epoch), (1, 0));
    let kraft = run(&scenario("4.1", "", FOLLOWER_DIES));
    assert_eq!((leader_epoch(&kraft, 3), kraft.steps[3].state.controller.partition_epoch), (0, 1));
    assert!(kraft.steps[3].narration.contains("broker.session.timeout.ms"), "{}", kraft.steps[3].narration);
    assert!(!kraft.steps[3].narration.contains("KIP-380"));
    let early = run(&scenario("3.5", "metadata_mode: kraft", FOLLOWER_DIES));
    assert_eq!(leader_epoch(&early, 3), 1, "KRaft before 3.6 writes the shrink with a new leader epoch");
}

/// Every replica of a three-broker partition loses power; they come back one by one.
const ALL_LOSE_POWER: &str =
    "flush: manual\nelect A\nproduce m1\nsettle\ncrash B power\ncrash C power\ncrash A power\n\
                              restart B\nrestart C\nrestart A\n";

#[test]
fn under_4_1_the_last_known_leader_is_elected_once_every_replica_lost_power() {
    let t = run(&scenario("4.1", "", ALL_LOSE_POWER));
    assert_eq!(leader(&t, 7), None, "B and C are back, but neither may lead");
    assert_eq!(leader(&t, 8), Some(0), "A, the last known leader, once it is back");
    assert!(t.steps[8].narration.contains("the last known leader"), "{}", t.steps[8].narration);
    assert!(t.violations.iter().all(|v| v.by_design), "its loss is allowed: the election is unclean");
    // 4.0 without ELR keeps A in the ISR (the last member) and re-elects it cleanly; 4.0 with ELR as 4.1.
    let off = run(&scenario("4.0", "", ALL_LOSE_POWER));
    assert_eq!(off.steps[5].state.controller.isr.iter().collect::<Vec<_>>(), [0]);
    assert!(!off.steps[8].narration.contains("the last known leader"));
    let on = run(&scenario("4.0", "eligible_leader_replicas: true", ALL_LOSE_POWER));
    assert_eq!(leader(&on, 8), Some(0));
    assert!(on.steps[8].narration.contains("the last known leader"));
}

/// The leader's followers die, then the leader; a follower comes back.
const UNCLEAN_STORY: &str =
    "unclean_leader_election: true\nelect A\nproduce m1\ncrash B\ncrash C\nproduce m2\ncrash A\nrestart B\n";

#[test]
fn kraft_ignores_the_unclean_setting_before_3_9_and_zookeeper_honours_it() {
    let zk = run(&scenario("3.7", "", UNCLEAN_STORY));
    assert_eq!(leader(&zk, 6), Some(1), "ZooKeeper elects B uncleanly");
    let kraft = run(&scenario("3.7", "metadata_mode: kraft", UNCLEAN_STORY));
    assert_eq!(leader(&kraft, 6), None);
    assert!(kraft.steps[6].narration.contains("KAFKA-12670"), "{}", kraft.steps[6].narration);
    let kraft_3_9 = run(&scenario("3.9", "metadata_mode: kraft", UNCLEAN_STORY));
    assert_eq!(leader(&kraft_3_9, 6), Some(1), "3.9 honours the setting");
}
