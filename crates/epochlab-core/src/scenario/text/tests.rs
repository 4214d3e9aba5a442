//! The reader says what is wrong on the line it is on, and drops no text without saying so.

use super::parse_text;
use crate::scenario::{Delivery, Event};

const UNCLOSED: &str = "the quote opened here is not closed before the end of the line";

fn err(text: &str) -> String {
    parse_text(text).unwrap_err().to_string()
}

fn record(text: &str) -> Option<String> {
    match parse_text(text).map(|s| s.events.into_iter().next()) {
        Ok(Some(Event::Produce { record, .. })) => record,
        other => panic!("expected a produce, got {other:?}"),
    }
}

#[test]
fn an_unclosed_quote_in_an_event_is_an_error_at_the_quote() {
    let text = "name: x\nbrokers: A B\nelect A\nproduce \"my record acks=1\n";
    assert_eq!(err(text), format!("line 4, column 9: {UNCLOSED}"));
    // A `#` inside it is no comment, and an escaped quote or a final `\` does not close it.
    assert_eq!(err("brokers: A\nproduce \"a # b\n"), format!("line 2, column 9: {UNCLOSED}"));
    assert_eq!(err("brokers: A\nproduce \"a\\\" b\n"), format!("line 2, column 9: {UNCLOSED}"));
    assert_eq!(err("brokers: A\n0: produce m1 \"a\\\n"), format!("line 2, column 15: {UNCLOSED}"));
    // Not only labels: a quoted broker was dropped too, leaving an election without its candidate.
    assert_eq!(err("brokers: A B\nelect \"B\n"), format!("line 2, column 7: {UNCLOSED}"));
    assert_eq!(record("brokers: A\nproduce \"my # record\" # a comment\n").as_deref(), Some("my # record"));
}

#[test]
fn an_unclosed_quote_in_the_name_or_description_is_an_error_at_the_quote() {
    assert_eq!(err("brokers: A\n\nname: \"two records # at one offset\n"), format!("line 3, column 7: {UNCLOSED}"));
    let text = "brokers: A\ndescription: first\ndescription:   \"second\n";
    assert_eq!(err(text), format!("line 3, column 16: {UNCLOSED}"));
    assert_eq!(
        err("brokers: A\nname: \"two\" records\n"),
        "line 2, column 13: expected nothing after the quoted value but a comment, got 'records'"
    );
    assert_eq!(err("brokers: A\nname: \"a\\q\"\n"), "line 2, column 7: a quoted value must be one JSON string");
    let s = parse_text("name: \"a # b\"  # the name\ndescription: \" x\"\nbrokers: A\n").expect("valid");
    assert_eq!((s.name.as_str(), s.description.as_str()), ("a # b", " x"));
}

#[test]
fn an_error_in_a_header_value_names_its_line_and_word() {
    let text = "name: x\ndescription: y\nbrokers: A B A\n";
    assert_eq!(err(text), "line 3, column 14: \"A\" appears twice; broker names must be unique");
    assert!(err("\n\n\nbrokers: A B C D E F\n").starts_with("line 4, column 10: 6 brokers given"));
    let text = "name: x\n\nversion: 2\nbrokers: A\n";
    assert!(err(text).starts_with("line 3, column 10: version 2 is not supported"), "{}", err(text));
    let text = "brokers: A B\nname: x\nflags: kafka-7415 nope\n";
    assert!(err(text).starts_with("line 3, column 19: unknown flag \"nope\""), "{}", err(text));
    let text = "brokers: A\n\n  flush:   sometimes\n";
    assert!(err(text).starts_with("line 3, column 12: unknown policy \"sometimes\""), "{}", err(text));
    let text = "brokers: A\nname: x\nunclean_leader_election: maybe\n";
    assert_eq!(err(text), "line 3, column 26: expected true or false, got 'maybe'");
    let text = "brokers: A B\n\n\nmin_insync_replicas: 3\n";
    assert!(err(text).starts_with("line 4, column 22: 3 is more than the 2 broker(s)"), "{}", err(text));
}

#[test]
fn a_header_given_twice_is_an_error_rather_than_the_last_one_winning() {
    let text = "name: first\nbrokers: A\nname: second\n";
    assert_eq!(err(text), "line 3, column 1: \"name:\" is already given on line 1 (only description: may repeat)");
    assert!(
        err("brokers: A B\nvariant: kip-101\nbrokers: A\n").starts_with("line 3, column 1: \"brokers:\" is already")
    );
    let s = parse_text("description: one\nbrokers: A\ndescription: two\n").expect("valid");
    assert_eq!(s.description, "one\ntwo");
}

#[test]
fn a_plain_header_value_ends_at_its_comment_without_its_outer_spaces() {
    let s = parse_text("name:   two records   # KIP-101\nbrokers: A\n").expect("valid");
    assert_eq!(s.name, "two records");
    let s = parse_text("name: 5\" floppy # the old kind\nbrokers: A\n").expect("valid");
    assert_eq!(s.name, "5\" floppy");
    let s = parse_text("name:  \"quoted\"\nbrokers: A\n").expect("valid");
    assert_eq!(s.name, "quoted");
}

#[test]
fn a_quote_inside_a_word_opens_nothing_so_a_comment_after_it_stays_a_comment() {
    assert_eq!(record("brokers: A\nproduce ab\"c  # a label with a quote\n").as_deref(), Some("ab\"c"));
}

#[test]
fn an_empty_name_in_a_delivery_list_is_an_error() {
    let expected = "deliver is all, none, [] or broker names separated by commas";
    assert_eq!(err("brokers: A B\nelect deliver=A,,B\n"), format!("line 2, column 7: {expected}, got 'A,,B'"));
    assert_eq!(err("brokers: A B\nelect deliver=\n"), format!("line 2, column 7: {expected}, got ''"));
    assert_eq!(err("brokers: A B\nelect deliver=[A,]\n"), format!("line 2, column 7: {expected}, got '[A,]'"));
    let s = parse_text("brokers: A B\nelect deliver=[]\nelect deliver=[A,B]\n").expect("valid");
    assert_eq!(s.events[0], Event::Elect { broker: None, deliver: Delivery::Only(vec![]) });
    assert_eq!(s.events[1], Event::Elect { broker: None, deliver: Delivery::Only(vec!["A".into(), "B".into()]) });
}
