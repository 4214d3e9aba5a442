//! The text scenario format: every preset round-trips, KIP-101 scenario 2 reads as written from memory,
//! and errors name the line and column and what was expected.

use epochlab_core::presets::PRESETS;
use epochlab_core::scenario::text::{looks_like_json, parse_any, parse_text, to_text};
use epochlab_core::scenario::{Delivery, Event};

#[test]
fn every_preset_round_trips_through_text() {
    for p in PRESETS {
        let s = p.scenario();
        let text = to_text(&s);
        assert_eq!(parse_text(&text).expect(p.id), s, "{}:\n{text}", p.id);
        assert_eq!(to_text(&parse_text(&text).expect(p.id)), text);
    }
}

#[test]
fn a_scenario_written_by_hand_reads_with_comments_labels_and_every_field() {
    let text = "# KIP-101 scenario 2, from memory\nname: two records at one offset\nbrokers: A B\nvariant: hw-truncation\nflush: manual\n\n0: elect A\nproduce m1 acks=all\nfetch B\nfetch B drop   # the response is lost\ncrash A power no-notify\nrestart B no-deliver\nelect deliver=A,B\nproduce \"with space\" acks=1 broker=B\nsettle\n";
    let s = parse_text(text).expect("valid");
    assert_eq!(s.brokers, ["A", "B"]);
    assert_eq!(s.events.len(), 9);
    assert_eq!(s.events[3], Event::Fetch { broker: "B".into(), drop_response: true });
    assert_eq!(s.events[4], Event::Crash { broker: "A".into(), power: true, notify_controller: false });
    assert_eq!(s.events[6], Event::Elect { broker: None, deliver: Delivery::Only(vec!["A".into(), "B".into()]) });
    assert!(
        matches!(&s.events[7], Event::Produce { record: Some(r), broker: Some(b), .. } if r == "with space" && b == "B")
    );
}

#[test]
fn errors_name_the_line_the_column_and_what_was_expected() {
    let err = |text: &str| parse_text(text).unwrap_err().to_string();
    let typo = err("brokers: A B\n\nelect A\nproduce m1\n  crsh A\n");
    assert_eq!(typo, "line 5, column 3: unknown event kind 'crsh' (did you mean 'crash'?)");
    assert!(err("brokers: A B\nfetch Z\n").starts_with("line 2, column 1: "), "{}", err("brokers: A B\nfetch Z\n"));
    assert!(err("brokers: A B\nfetch Z\n").contains("Z"));
    assert!(err("brokers: A\nelect A\nname: late\n").contains("must come before the first event"));
    assert!(err("brokers: A\n3: elect A\n").contains("this is step 0, but it is labelled 3"));
    assert!(err("brokers: A\nproduce acks=2\n").starts_with("line 2, column 9: acks is 0, 1 or all"));
    assert!(err("brokers: A\nfetch A power\n").contains("line 2"));
    assert!(err("elect\n").contains("missing \"brokers:\""));
}

#[test]
fn json_and_text_are_told_apart_by_content() {
    assert!(looks_like_json("\u{feff}  {\"version\": 1}"));
    assert!(!looks_like_json("brokers: A\n"));
    let from_json = parse_any(&PRESETS[0].scenario().to_json()).expect("json");
    let from_text = parse_any(&format!("\u{feff}{}", to_text(&PRESETS[0].scenario()))).expect("text");
    assert_eq!(from_json, from_text);
}
