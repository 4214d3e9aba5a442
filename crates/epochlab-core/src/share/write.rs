//! Writing a [`ShareState`](super::ShareState) as a layout (the format is in the module's documentation).

use super::bytes::Writer;
use super::ShareState;
use crate::scenario::{Acks, Config, Delivery, Event, Policy, MAX_BROKERS};
use crate::variant::{Flag, MetadataMode, Variant};

// ---------------------------------------------------------------------------------------------------------
// Layout: writing
// ---------------------------------------------------------------------------------------------------------

pub(super) const HEAD_EXTRA: u8 = 0x80;
/// The broker slot an encoder writes for a name that is not one of the scenario's first five brokers.
pub(super) const SLOT_UNKNOWN: u8 = 7;
/// The delivery-list index an encoder writes for a name that is not a broker.
pub(super) const INDEX_UNKNOWN: u8 = u8::MAX;

pub(super) fn write_layout(state: &ShareState) -> Vec<u8> {
    let mut w = Writer(Vec::with_capacity(64 + state.scenario.description.len() + state.scenario.events.len() * 2));
    w.byte(state.variants.len().min(usize::from(u8::MAX)) as u8);
    for v in state.variants.iter().take(usize::from(u8::MAX)) {
        w.byte(variant_index(*v));
    }
    w.varint(state.cursor.map_or(0, |c| u64::from(c) + 1));
    let s = &state.scenario;
    w.string(&s.name);
    w.string(&s.description);
    w.varint(s.brokers.len() as u64);
    for b in &s.brokers {
        w.string(b);
    }
    write_config(&mut w, &s.config);
    w.varint(s.events.len() as u64);
    let mut labels: Vec<&str> = Vec::new();
    for event in &s.events {
        write_event(&mut w, event, &s.brokers, &mut labels);
    }
    w.0
}

pub(super) fn variant_index(v: Variant) -> u8 {
    v.index() as u8
}

pub(super) fn flag_index(f: Flag) -> u8 {
    f.index() as u8
}

pub(super) fn write_config(w: &mut Writer, c: &Config) {
    let c0 = variant_index(c.variant)
        | u8::from(c.unclean_leader_election == Some(true)) << 3
        | u8::from(c.hw_checkpoint == Policy::Manual) << 4
        | u8::from(c.flush == Policy::Manual) << 5
        | u8::from(c.kafka_version.is_some()) << 6;
    // Out-of-range values stay out of range (7), so the decoder refuses them as the contract would. Five or
    // more flags repeat one, so keeping the first seven keeps the repetition.
    let flags = &c.flags[..c.flags.len().min(7)];
    let knobs = knobs_byte(c);
    let c1 = c.min_insync_replicas.min(7) | (flags.len() as u8) << 3 | u8::from(knobs != 0) << 6;
    w.byte(c0);
    w.byte(c1);
    for four in flags.chunks(4) {
        w.byte(four.iter().enumerate().fold(0, |acc, (i, f)| acc | flag_index(*f) << (2 * i)));
    }
    if let Some(r) = c.kafka_version {
        w.byte(0xff);
        w.string(&r.id());
    }
    if knobs != 0 {
        w.byte(knobs);
        for v in [c.inter_broker_protocol_version, c.log_message_format_version].into_iter().flatten() {
            w.string(&v.id());
        }
    }
}

/// The release settings byte (see the layout in `share`), zero when every setting is the release's own.
fn knobs_byte(c: &Config) -> u8 {
    let elr = match c.eligible_leader_replicas {
        None => 0,
        Some(false) => 1,
        Some(true) => 2,
    };
    let mode = match c.metadata_mode {
        None => 0,
        Some(MetadataMode::ZooKeeper) => 1,
        Some(MetadataMode::KRaft) => 2,
    };
    u8::from(c.unclean_leader_election == Some(false))
        | elr << 1
        | mode << 5
        | u8::from(c.inter_broker_protocol_version.is_some()) << 3
        | u8::from(c.log_message_format_version.is_some()) << 4
}

pub(super) fn kind_tag(event: &Event) -> u8 {
    event.kind().index()
}

pub(super) fn broker_slot(brokers: &[String], name: Option<&str>) -> u8 {
    match name {
        None => 0,
        Some(name) => match brokers.iter().position(|b| b == name) {
            Some(i) if i < MAX_BROKERS => i as u8 + 1,
            _ => SLOT_UNKNOWN,
        },
    }
}

pub(super) fn write_event<'a>(w: &mut Writer, event: &'a Event, brokers: &[String], labels: &mut Vec<&'a str>) {
    let extra = extra_bits(event);
    let head = kind_tag(event) | broker_slot(brokers, event.broker()) << 4 | if extra != 0 { HEAD_EXTRA } else { 0 };
    w.byte(head);
    if extra != 0 {
        w.byte(extra);
    }
    match event {
        Event::Produce { record: Some(label), .. } => write_label(w, label, labels),
        Event::Elect { deliver: Delivery::Only(names), .. } => write_delivery_list(w, names, brokers),
        _ => {}
    }
}

/// The event's extra byte; 0 when every field is its default.
pub(super) fn extra_bits(event: &Event) -> u8 {
    match event {
        Event::Produce { record, acks, .. } => {
            let acks = match acks {
                Acks::All => 0,
                Acks::One => 1,
                Acks::Zero => 2,
            };
            acks | u8::from(record.is_some()) << 2
        }
        Event::Fetch { drop_response, .. } => u8::from(*drop_response),
        Event::Crash { power, notify_controller, .. } => u8::from(*power) | u8::from(!notify_controller) << 1,
        Event::Restart { deliver, .. } => u8::from(!deliver),
        Event::Elect { deliver, .. } => match deliver {
            Delivery::All => 0,
            Delivery::None => 1,
            Delivery::Only(_) => 2,
        },
        _ => 0,
    }
}

pub(super) fn write_label<'a>(w: &mut Writer, label: &'a str, labels: &mut Vec<&'a str>) {
    match labels.iter().position(|l| *l == label) {
        Some(i) => w.varint(i as u64),
        None => {
            w.varint(labels.len() as u64);
            w.string(label);
            labels.push(label);
        }
    }
}

/// Indices in list order, each once (as parsing does); a name that is not a broker is [`INDEX_UNKNOWN`].
pub(super) fn write_delivery_list(w: &mut Writer, names: &[String], brokers: &[String]) {
    let mut indices: Vec<u8> = Vec::with_capacity(names.len().min(8));
    for name in names {
        let i = brokers.iter().position(|b| b == name).filter(|i| *i < MAX_BROKERS).map_or(INDEX_UNKNOWN, |i| i as u8);
        if !indices.contains(&i) {
            indices.push(i);
        }
    }
    w.byte(indices.len() as u8);
    for i in indices {
        w.byte(i);
    }
}
