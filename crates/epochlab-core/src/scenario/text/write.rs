//! Writing the text format: the canonical text of a scenario, which reads back to the same scenario.

use crate::scenario::{Acks, Config, Delivery, Event, Policy, Scenario};

/// The scenario as text: the header (name, description, brokers, variant, then the configuration fields
/// that differ from the defaults), a blank line, and one event per line.
pub fn to_text(s: &Scenario) -> String {
    let mut out = format!("name: {}\n", quote_if_needed(&s.name));
    if !s.description.is_empty() {
        for line in s.description.split('\n') {
            out.push_str(&format!("description: {}\n", quote_if_needed(line)));
        }
    }
    out.push_str(&format!("brokers: {}\n", s.brokers.join(" ")));
    out.push_str(&config_lines(&s.config));
    if !s.events.is_empty() {
        out.push('\n');
    }
    for e in &s.events {
        out.push_str(&event_line(e));
        out.push('\n');
    }
    out
}

fn config_lines(c: &Config) -> String {
    let d = Config::default();
    let mut out = format!("variant: {}\n", c.variant.id());
    if !c.flags.is_empty() {
        out.push_str(&format!("flags: {}\n", c.flags.iter().map(|f| f.id()).collect::<Vec<_>>().join(" ")));
    }
    if c.min_insync_replicas != d.min_insync_replicas {
        out.push_str(&format!("min_insync_replicas: {}\n", c.min_insync_replicas));
    }
    if let Some(unclean) = c.unclean_leader_election {
        out.push_str(&format!("unclean_leader_election: {unclean}\n"));
    }
    if c.hw_checkpoint != Policy::Always {
        out.push_str("hw_checkpoint: manual\n");
    }
    if c.flush != Policy::Always {
        out.push_str("flush: manual\n");
    }
    if let Some(r) = c.kafka_version {
        out.push_str(&format!("kafka_version: {}\n", r.id()));
    }
    if let Some(elr) = c.eligible_leader_replicas {
        out.push_str(&format!("eligible_leader_replicas: {elr}\n"));
    }
    if let Some(v) = c.inter_broker_protocol_version {
        out.push_str(&format!("inter_broker_protocol_version: {}\n", v.id()));
    }
    if let Some(v) = c.log_message_format_version {
        out.push_str(&format!("log_message_format_version: {}\n", v.id()));
    }
    if let Some(mode) = c.metadata_mode {
        out.push_str(&format!("metadata_mode: {}\n", mode.id()));
    }
    out
}

/// A header value or label as written: plain, or a JSON string when plain text would not read back.
pub(crate) fn quote_if_needed(text: &str) -> String {
    let plain = !text.is_empty()
        && !text.starts_with(char::is_whitespace)
        && !text.ends_with(char::is_whitespace)
        && !text.starts_with('"')
        && !text.contains(['#', '\r', '\n', '\t']);
    if plain {
        text.to_string()
    } else {
        serde_json::to_string(text).unwrap_or_default()
    }
}

fn label(text: &str) -> String {
    let plain = !text.contains(|c: char| c.is_whitespace() || matches!(c, '"' | '=' | '#' | ':'));
    if plain {
        text.to_string()
    } else {
        serde_json::to_string(text).unwrap_or_default()
    }
}

/// A broker word, as `broker=NAME` when the name is also a keyword of the event.
fn broker(kind_keywords: &[&str], name: &str) -> String {
    if kind_keywords.contains(&name) {
        format!("broker={name}")
    } else {
        name.to_string()
    }
}

pub(crate) fn event_line(e: &Event) -> String {
    let mut words = vec![e.kind().id().to_string()];
    match e {
        Event::Elect { broker: b, deliver } => {
            words.extend(b.iter().map(|b| broker(&[], b)));
            match deliver {
                Delivery::All => {}
                Delivery::None => words.push("deliver=none".into()),
                Delivery::Only(names) if names.is_empty() => words.push("deliver=[]".into()),
                Delivery::Only(names) => words.push(format!("deliver={}", names.join(","))),
            }
        }
        Event::Produce { record, acks, broker: b } => {
            words.extend(record.iter().map(|r| label(r)));
            match acks {
                Acks::All => {}
                Acks::One => words.push("acks=1".into()),
                Acks::Zero => words.push("acks=0".into()),
            }
            words.extend(b.iter().map(|b| format!("broker={b}")));
        }
        Event::Fetch { broker: b, drop_response } => {
            words.push(broker(&["drop"], b));
            if *drop_response {
                words.push("drop".into());
            }
        }
        Event::Crash { broker: b, power, notify_controller } => {
            words.push(broker(&["power", "no-notify"], b));
            if *power {
                words.push("power".into());
            }
            if !notify_controller {
                words.push("no-notify".into());
            }
        }
        Event::Restart { broker: b, deliver } => {
            words.push(broker(&["no-deliver"], b));
            if !deliver {
                words.push("no-deliver".into());
            }
        }
        Event::Settle => {}
        Event::Consume { broker: b } => words.extend(b.iter().map(|b| broker(&[], b))),
        other => words.extend(other.broker().map(|b| broker(&[], b))),
    }
    words.join(" ")
}
