//! The text scenario format: every preset round-trips, KIP-101 scenario 2 reads as written from memory,
//! and errors name the line and column and what was expected.

use epochlab_core::presets::PRESETS;
use epochlab_core::scenario::text::{looks_like_json, parse_any, parse_text, to_text, EventLines};
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

#[test]
fn every_step_of_a_written_text_is_on_the_line_the_mapping_names() {
    for p in PRESETS {
        let s = p.scenario();
        let text = to_text(&s);
        let lines: Vec<&str> = text.lines().collect();
        let map = EventLines::of(&text);
        assert_eq!(map.len(), s.events.len(), "{}", p.id);
        for (i, e) in s.events.iter().enumerate() {
            let line = map.line_of(i).expect("every step has a line");
            assert!(
                lines[line - 1].starts_with(e.kind().id()),
                "{}: step {i} on line {line}: {}",
                p.id,
                lines[line - 1]
            );
            assert_eq!(map.step_on(line), Some(i));
        }
        assert_eq!(map.step_on(1), None, "the name is no step");
        assert_eq!(map.line_of(s.events.len()), None);
    }
}

#[test]
fn the_mapping_skips_comments_blanks_and_the_header_and_survives_an_error() {
    let text = "# mine\nname: x\nbrokers: A B\n\nelect A   # first\n\n  # aside\n1: produce m1\ncrsh A\nfetch B\n";
    let map = EventLines::of(text);
    assert_eq!((map.line_of(0), map.line_of(1), map.line_of(2), map.line_of(3)), (Some(5), Some(8), Some(9), Some(10)));
    assert_eq!((map.step_on(4), map.step_on(6), map.step_on(7), map.step_on(9)), (None, None, None, Some(2)));
    let at: Vec<Option<usize>> = (1..=12).map(|line| map.step_at(line)).collect();
    let before = [None, None, None, None, Some(0), Some(0), Some(0), Some(1), Some(2), Some(3), Some(3), Some(3)];
    assert_eq!(at, before, "a caret on a comment or blank line is after the step above it");
    assert!(parse_text(text).unwrap_err().to_string().starts_with("line 9, "), "the line in error is step 2's");
    assert!(EventLines::of("").is_empty());
    assert_eq!(EventLines::of("\u{feff}brokers: A\r\nelect A\r\n").line_of(0), Some(2));
}
