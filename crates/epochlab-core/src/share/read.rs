//! Reading a layout back into a [`ShareState`](super::ShareState), checking every count before it is used.

use super::bytes::{Layout, Reader};
use super::write::HEAD_EXTRA;
use super::{corrupt, invalid, ShareError, ShareState, MAX_VARIANTS};
use crate::scenario::{
    Acks, Config, Delivery, Event, EventKind, Policy, Scenario, FORMAT_VERSION, MAX_BROKERS, MAX_EVENTS,
};
use crate::variant::{Flag, KafkaVersion, MetadataMode, ProtocolVersion, Variant};

// ---------------------------------------------------------------------------------------------------------
// Layout: reading
// ---------------------------------------------------------------------------------------------------------

pub(super) fn read_layout(bytes: &[u8]) -> Result<ShareState, ShareError> {
    let mut r = Layout(Reader::new(bytes));
    let variants = read_variants(&mut r)?;
    let cursor = match r.varint("the cursor")? {
        0 => None,
        n => Some(u32::try_from(n - 1).map_err(|_| corrupt(format!("cursor {} is out of range", n - 1)))?),
    };
    let name = r.string("the name")?;
    let description = r.string("the description")?;
    let brokers = read_brokers(&mut r)?;
    let config = read_config(&mut r)?;
    let events = read_events(&mut r, &brokers)?;
    if r.0.remaining() != 0 {
        return Err(corrupt(format!("{} unexpected bytes after the last event", r.0.remaining())));
    }
    let scenario = Scenario { version: FORMAT_VERSION, name, description, brokers, config, events };
    Ok(ShareState { scenario, variants, cursor })
}

pub(super) fn variant_at(index: u8, what: &str) -> Result<Variant, ShareError> {
    Variant::ALL.get(usize::from(index)).copied().ok_or_else(|| corrupt(format!("{what}: unknown variant #{index}")))
}

pub(super) fn read_variants(r: &mut Layout) -> Result<Vec<Variant>, ShareError> {
    let count = r.byte("the variant list")?;
    if count == 0 || usize::from(count) > MAX_VARIANTS {
        return Err(corrupt(format!("it selects {count} variants (a link shows 1 to {MAX_VARIANTS})")));
    }
    let mut variants = Vec::with_capacity(usize::from(count));
    for _ in 0..count {
        variants.push(variant_at(r.byte("the variant list")?, "the variant list")?);
    }
    Ok(variants)
}

pub(super) fn read_brokers(r: &mut Layout) -> Result<Vec<String>, ShareError> {
    let count = r.varint("the broker count")?;
    if count == 0 || count > MAX_BROKERS as u64 {
        // parse_scenario's own words.
        return Err(invalid("brokers", format!("{count} brokers given; a partition has 1 to {MAX_BROKERS}")));
    }
    let mut brokers = Vec::with_capacity(count as usize);
    for i in 0..count {
        brokers.push(r.string(&format!("brokers[{i}]"))?);
    }
    Ok(brokers)
}

pub(super) fn read_config(r: &mut Layout) -> Result<Config, ShareError> {
    let c0 = r.byte("the configuration")?;
    let c1 = r.byte("the configuration")?;
    if c0 & 0x80 != 0 || c1 & 0x80 != 0 {
        return Err(corrupt("unknown configuration bits are set"));
    }
    let count = (c1 >> 3) & 7;
    let mut flags = Vec::with_capacity(usize::from(count));
    for first in (0..count).step_by(4) {
        let packed = r.byte("the flag list")?;
        let here = (count - first).min(4);
        if u32::from(packed) >> (2 * u32::from(here)) != 0 {
            return Err(corrupt("unused flag-list bits are set"));
        }
        for i in 0..here {
            flags.push(Flag::ALL[usize::from((packed >> (2 * i)) & 3)]);
        }
    }
    let policy = |manual: bool| if manual { Policy::Manual } else { Policy::Always };
    let (kafka_version, legacy_kraft) = if c0 & 0x40 != 0 { read_release(r)? } else { (None, false) };
    let mut config = Config {
        variant: variant_at(c0 & 7, "config.variant")?,
        flags,
        min_insync_replicas: c1 & 7,
        unclean_leader_election: (c0 & 0x08 != 0).then_some(true),
        hw_checkpoint: policy(c0 & 0x10 != 0),
        flush: policy(c0 & 0x20 != 0),
        kafka_version,
        ..Config::default()
    };
    if c1 & 0x40 != 0 {
        read_knobs(r, &mut config)?;
    }
    if legacy_kraft && config.metadata_mode.is_none() {
        config.metadata_mode = Some(MetadataMode::KRaft);
    }
    Ok(config)
}

/// The release: a string (`0xff`, then its id), or in links made before the release lines an index into the
/// nine releases of that time (`kraft`, the ninth, read as Kafka 3.6 in KRaft mode: the bool).
fn read_release(r: &mut Layout) -> Result<(Option<KafkaVersion>, bool), ShareError> {
    const LEGACY: [&str; 9] = ["0.10.2", "0.11.0", "1.0", "1.1", "2.0.0", "2.1", "2.4", "2.8", "3.6"];
    let i = r.byte("config.kafka_version")?;
    let id = match i {
        0xff => r.string("config.kafka_version")?,
        _ => LEGACY
            .get(usize::from(i))
            .map(|s| s.to_string())
            .ok_or_else(|| corrupt(format!("config.kafka_version: unknown Kafka release #{i}")))?,
    };
    let version = KafkaVersion::parse(&id).map_err(|e| corrupt(format!("config.kafka_version: {e}")))?;
    Ok((Some(version), i == 8))
}

/// The knobs byte (bit 0 unclean election explicitly off, bits 1-2 eligible_leader_replicas: 1 off, 2 on,
/// bit 3 an inter-broker protocol string follows, bit 4 a message format string follows).
fn read_knobs(r: &mut Layout, config: &mut Config) -> Result<(), ShareError> {
    let k = r.byte("the release settings")?;
    if k & 0x80 != 0 || (k >> 1) & 3 == 3 || (k >> 5) & 3 == 3 || k == 0 {
        return Err(corrupt("unknown release-setting bits are set"));
    }
    if k & 1 != 0 {
        if config.unclean_leader_election.is_some() {
            return Err(corrupt("unclean election is both on and off"));
        }
        config.unclean_leader_election = Some(false);
    }
    config.eligible_leader_replicas = [None, Some(false), Some(true)][usize::from((k >> 1) & 3)];
    config.metadata_mode = [None, Some(MetadataMode::ZooKeeper), Some(MetadataMode::KRaft)][usize::from((k >> 5) & 3)];
    let mut version = |what: &str| -> Result<ProtocolVersion, ShareError> {
        let text = r.string(what)?;
        ProtocolVersion::parse(&text).map_err(|e| corrupt(format!("{what}: {e}")))
    };
    if k & 8 != 0 {
        config.inter_broker_protocol_version = Some(version("config.inter_broker_protocol_version")?);
    }
    if k & 16 != 0 {
        config.log_message_format_version = Some(version("config.log_message_format_version")?);
    }
    Ok(())
}

pub(super) fn read_events(r: &mut Layout, brokers: &[String]) -> Result<Vec<Event>, ShareError> {
    let count = r.varint("the event count")?;
    if count > MAX_EVENTS as u64 {
        return Err(invalid("events", format!("{count} events is more than the limit of {MAX_EVENTS}")));
    }
    let mut events = Vec::with_capacity(count as usize);
    let mut labels: Vec<String> = Vec::new();
    for index in 0..count as usize {
        events.push(read_event(r, index, brokers, &mut labels)?);
    }
    Ok(events)
}

pub(super) fn read_event(
    r: &mut Layout,
    index: usize,
    brokers: &[String],
    labels: &mut Vec<String>,
) -> Result<Event, ShareError> {
    let here = format!("events[{index}]");
    let head = r.byte(&here)?;
    let kind = EventKind::from_index(head & 0x0f)
        .ok_or_else(|| corrupt(format!("{here}: unknown event kind #{}", head & 0x0f)))?;
    let at = format!("{here} ({kind})");
    let extra = if head & HEAD_EXTRA != 0 {
        match r.byte(&at)? {
            0 => return Err(corrupt(format!("{at}: an empty extra byte"))),
            extra => extra,
        }
    } else {
        0
    };
    let broker = broker_at((head >> 4) & 7, &at, brokers)?;
    let event = match Event::new_of_kind(kind, broker.as_deref()) {
        Some(event) => event,
        None => return Err(corrupt(format!("{at}: names no broker but needs one"))),
    };
    if !kind.takes_broker() && broker.is_some() {
        return Err(corrupt(format!("{at}: a settle names no broker")));
    }
    apply_extra(r, event, extra, &at, brokers, labels)
}

pub(super) fn broker_at(slot: u8, at: &str, brokers: &[String]) -> Result<Option<String>, ShareError> {
    if slot == 0 {
        return Ok(None);
    }
    let index = usize::from(slot - 1);
    match brokers.get(index) {
        Some(name) => Ok(Some(name.clone())),
        None => Err(invalid(at, format!("broker index {index} is unknown (this scenario has {})", brokers.join(", ")))),
    }
}

/// Fill in the non-default fields from the extra byte (and what follows it).
pub(super) fn apply_extra(
    r: &mut Layout,
    event: Event,
    extra: u8,
    at: &str,
    brokers: &[String],
    labels: &mut Vec<String>,
) -> Result<Event, ShareError> {
    let bits_beyond = |used: u32| u32::from(extra) >> used != 0;
    let event = match event {
        Event::Produce { broker, .. } if !bits_beyond(3) => {
            let acks = match extra & 3 {
                0 => Acks::All,
                1 => Acks::One,
                2 => Acks::Zero,
                _ => return Err(corrupt(format!("{at}: unknown acks"))),
            };
            let record = if extra & 4 != 0 { Some(read_label(r, at, labels)?) } else { None };
            Event::Produce { record, acks, broker }
        }
        Event::Fetch { broker, .. } if !bits_beyond(1) => Event::Fetch { broker, drop_response: extra & 1 != 0 },
        Event::Crash { broker, .. } if !bits_beyond(2) => {
            Event::Crash { broker, power: extra & 1 != 0, notify_controller: extra & 2 == 0 }
        }
        Event::Restart { broker, .. } if !bits_beyond(1) => Event::Restart { broker, deliver: extra & 1 == 0 },
        Event::Elect { broker, .. } if !bits_beyond(2) => {
            let deliver = match extra & 3 {
                0 => Delivery::All,
                1 => Delivery::None,
                2 => Delivery::Only(read_delivery_list(r, at, brokers)?),
                _ => return Err(corrupt(format!("{at}: unknown delivery"))),
            };
            Event::Elect { broker, deliver }
        }
        other if extra == 0 => other,
        _ => return Err(corrupt(format!("{at}: unknown field bits are set"))),
    };
    Ok(event)
}

pub(super) fn read_label(r: &mut Layout, at: &str, labels: &mut Vec<String>) -> Result<String, ShareError> {
    let i = r.varint(at)?;
    match usize::try_from(i).ok().filter(|i| *i <= labels.len()) {
        Some(i) if i < labels.len() => Ok(labels[i].clone()),
        Some(_) => {
            let label = r.string(&format!("{at} record label"))?;
            labels.push(label.clone());
            Ok(label)
        }
        None => Err(corrupt(format!("{at}: record label #{i} was never given"))),
    }
}

pub(super) fn read_delivery_list(r: &mut Layout, at: &str, brokers: &[String]) -> Result<Vec<String>, ShareError> {
    let count = r.byte(at)?;
    let mut names = Vec::with_capacity(usize::from(count).min(MAX_BROKERS));
    for _ in 0..count {
        let i = r.byte(at)?;
        let name = brokers.get(usize::from(i)).ok_or_else(|| {
            invalid(
                at,
                format!("\"deliver\" names broker index {i}, unknown (this scenario has {})", brokers.join(", ")),
            )
        })?;
        names.push(name.clone());
    }
    Ok(names)
}
