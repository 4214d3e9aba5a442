//! Share links (`epochlab_core::share`): round trips, the documented byte layout, every error class, decoding
//! hostile input without panicking or allocating without bound, and link sizes.
//!
//! The layout is checked against an independent writer here (`seal_v1` with its own base64url and CRC-32),
//! built from the module's documentation, so the format cannot drift without these tests noticing.

use epochlab_core::presets::PRESETS;
use epochlab_core::scenario::{Acks, Config, Delivery, Event, Policy, Scenario, FORMAT_VERSION};
use epochlab_core::share::{
    check_link, decode, encode, fragment, from_fragment, from_layout, inflate_error, layout, open_payload,
    payload as frame_payload, Content, ShareError, ShareState, MAX_LAYOUT, MAX_PAYLOAD,
};
use epochlab_core::variant::{KafkaVersion, ProtocolVersion};
use epochlab_core::{Flag, Variant};
use proptest::prelude::*;

#[path = "support/seed.rs"]
mod seed;

// ---------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------

fn share(scenario: Scenario, variants: &[Variant], cursor: Option<u32>) -> ShareState {
    ShareState { scenario, variants: variants.to_vec(), cursor }
}

fn two_brokers(events: Vec<Event>) -> Scenario {
    Scenario { events, ..Scenario::empty() }
}

fn fetch(broker: &str) -> Event {
    Event::Fetch { broker: broker.to_string(), drop_response: false }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn b64(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let mut n = 0u32;
        for (i, b) in chunk.iter().enumerate() {
            n |= u32::from(*b) << (16 - 8 * i);
        }
        for i in 0..=chunk.len() {
            out.push(char::from(B64[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

/// Table-driven CRC-32 (a different shape from the module's bitwise one).
fn crc32(bytes: &[u8]) -> u32 {
    let table: Vec<u32> =
        (0..256u32).map(|i| (0..8).fold(i, |c, _| if c & 1 == 1 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 })).collect();
    !bytes.iter().fold(!0u32, |c, b| table[((c ^ u32::from(*b)) & 0xff) as usize] ^ (c >> 8))
}

fn varint(mut n: u64, out: &mut Vec<u8>) {
    loop {
        let low = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

/// A version-1 payload around `content`, written from the module docs alone.
fn seal_v1(flags: u8, content: &[u8]) -> String {
    let mut frame = vec![flags];
    varint(content.len() as u64, &mut frame);
    frame.extend_from_slice(content);
    let crc = crc32(&frame);
    frame.extend_from_slice(&crc.to_le_bytes());
    format!("1{}", b64(&frame))
}

/// A raw layout: variants [kip-279], cursor None, name "x", no description, brokers A and B, default config,
/// then `events` (count and bytes, given by the caller).
fn layout_with_events(count: u64, events: &[u8]) -> Vec<u8> {
    let mut l = vec![1, 2, 0, 1, b'x', 0, 2, 1, b'A', 1, b'B', 0x02, 0x01];
    varint(count, &mut l);
    l.extend_from_slice(events);
    l
}

fn is_corrupt(r: &Result<ShareState, ShareError>) -> bool {
    matches!(r, Err(ShareError::Corrupt(_)))
}

// ---------------------------------------------------------------------------------------------------------
// Round trips and the layout
// ---------------------------------------------------------------------------------------------------------

#[test]
fn every_preset_round_trips_with_variant_selections_and_cursors() {
    let selections: [&[Variant]; 4] = [
        &[Variant::Kip279],
        &[Variant::HwTruncation, Variant::Kip101],
        &[Variant::LeaderHwTruncation, Variant::DivergingEpoch, Variant::Kafka21],
        &[Variant::Kafka21, Variant::HwTruncation, Variant::Kip279, Variant::DivergingEpoch],
    ];
    for preset in &PRESETS {
        let scenario = preset.scenario();
        assert_ne!(scenario, Scenario::empty(), "{} parses", preset.id);
        let last = scenario.events.len() as u32 - 1;
        for variants in selections {
            for cursor in [None, Some(0), Some(last / 2), Some(last), Some(u32::MAX)] {
                let state = share(scenario.clone(), variants, cursor);
                let payload = encode(&state);
                assert!(payload.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{payload}");
                assert_eq!(encode(&state), payload, "deterministic");
                assert_eq!(decode(&payload), Ok(state.clone()), "{} {variants:?} {cursor:?}", preset.id);
                assert_eq!(from_fragment(&format!("#{}", fragment(&state))), Ok(Some(state)));
            }
        }
    }
}

/// The state that `documented_layout` spells out byte by byte.
fn documented_state() -> ShareState {
    let scenario = Scenario {
        name: "g".to_string(),
        events: vec![
            Event::Elect { broker: Some("B".to_string()), deliver: Delivery::All },
            Event::Produce { record: Some("m1".to_string()), acks: Acks::All, broker: None },
            Event::Fetch { broker: "A".to_string(), drop_response: true },
            Event::Crash { broker: "A".to_string(), power: true, notify_controller: true },
            Event::Produce { record: Some("m1".to_string()), acks: Acks::One, broker: None },
            Event::Elect { broker: None, deliver: Delivery::Only(vec!["B".to_string(), "A".to_string()]) },
            Event::Settle,
        ],
        ..Scenario::empty()
    };
    share(scenario, &[Variant::Kip279, Variant::HwTruncation], Some(2))
}

fn documented_layout() -> Vec<u8> {
    #[rustfmt::skip]
    let layout = vec![
        2, 2, 0,                  // variants: kip-279, hw-truncation
        3,                        // cursor: after step 2
        1, b'g', 0,               // name "g", no description
        2, 1, b'A', 1, b'B',      // brokers A, B
        0x02, 0x01,               // kip-279, min.insync 1, no flags
        7,                        // 7 events
        0x25,                     // elect, slot 2 (B)
        0x80, 0x04, 0, 2, b'm', b'1', // produce with a new label "m1"
        0x91, 0x01,               // fetch A, drop_response
        0x93, 0x01,               // crash A, power
        0x80, 0x05, 0,            // produce acks=1, label #0 again
        0x85, 0x02, 2, 1, 0,      // elect, deliver to [B, A]
        0x02,                     // settle
    ];
    layout
}

#[test]
fn the_layout_is_the_documented_one() {
    let (state, layout) = (documented_state(), documented_layout());
    let raw = seal_v1(0, &layout);
    let deflated = seal_v1(1, &miniz_oxide::deflate::compress_to_vec(&layout, 10));
    let shorter = if deflated.len() < raw.len() { &deflated } else { &raw };
    assert_eq!(&encode(&state), shorter);
    assert_eq!(decode(&raw), Ok(state.clone()));
    assert_eq!(decode(&deflated), Ok(state));
}

/// The steps the web app takes with the browser's compressor give the links `encode` and `decode` handle.
#[test]
fn encoding_in_steps_with_any_compressor_gives_the_same_links() {
    let (state, documented) = (documented_state(), documented_layout());
    assert_eq!(layout(&state), documented);
    let deflated = miniz_oxide::deflate::compress_to_vec(&documented, 10);
    assert_eq!(frame_payload(&documented, Some(&deflated)), encode(&state));
    // Without a compressor, or with one that does no better, the layout goes in as it is.
    let raw = frame_payload(&documented, None);
    assert_eq!(raw, seal_v1(0, &documented));
    assert_eq!(frame_payload(&documented, Some(&[0u8; 400])), raw);
    assert_eq!(open_payload(&raw), Ok(Content::Layout(documented.clone())));
    assert_eq!(from_layout(&documented), Ok(state.clone()));
    // A preset is long enough to be worth compressing: its content comes back deflated.
    let preset = ShareState { scenario: PRESETS[0].scenario(), variants: vec![Variant::Kip279], cursor: None };
    let long = layout(&preset);
    let packed = miniz_oxide::deflate::compress_to_vec(&long, 10);
    assert!(packed.len() < long.len());
    assert_eq!(open_payload(&frame_payload(&long, Some(&packed))), Ok(Content::Deflated(packed)));
    // A decompressor's failures read like decode's own.
    assert!(matches!(inflate_error(true), ShareError::Oversized(_)));
    assert_eq!(
        inflate_error(false).to_string(),
        decode(&seal_v1(1, &[0xff, 0xff, 0xff])).unwrap_err().to_string(),
        "a stream that is not DEFLATE"
    );
}

#[test]
fn a_version_1_link_keeps_opening() {
    // Written by version 1; must decode to the same state in every later Epochlab.
    const LINK: &str = "1ACMCAgADAWcAAgFBAUICAQclgAQAAm0xkQGTAYAFAIUCAgEAAj_0f1U";
    assert_eq!(decode(LINK), Ok(documented_state()));
    assert_eq!(LINK, seal_v1(0, &documented_layout()));
}

#[test]
fn config_flags_and_policies_round_trip_in_order() {
    let mut scenario = Scenario { brokers: vec!["b-1".into(), "B_2".into(), "c".into()], ..Scenario::empty() };
    scenario.config = Config {
        variant: Variant::LeaderHwTruncation,
        flags: vec![Flag::Kip320, Flag::Kafka7415, Flag::Kafka7164, Flag::Kafka7128],
        min_insync_replicas: 3,
        unclean_leader_election: Some(true),
        hw_checkpoint: Policy::Manual,
        flush: Policy::Manual,
        ..Config::default()
    };
    scenario.description = "Ünïcödé — 漢字 🦀".to_string();
    let state = share(scenario, &[Variant::Kip101], None);
    assert_eq!(decode(&encode(&state)), Ok(state));
}

#[test]
fn a_kafka_release_rides_in_the_link_after_the_flags() {
    for release in KafkaVersion::all() {
        let mut scenario = PRESETS[1].scenario();
        scenario.config.set_release(release);
        let state = share(scenario, &[release.variant()], Some(2));
        assert_eq!(decode(&encode(&state)), Ok(state.clone()), "{}", release.id());
        // The documented bytes: c0 (variant, bit 6), c1 (min ISR 1, no flags), 0xff and the release's id.
        let mut empty = two_brokers(vec![]);
        empty.config.set_release(release);
        let bytes = layout(&share(empty, &[release.variant()], None));
        let id = release.id();
        let mut tail = vec![release.variant().index() as u8 | 0x40, 1, 0xff, id.len() as u8];
        tail.extend(id.bytes());
        tail.push(0);
        assert_eq!(bytes[bytes.len() - tail.len()..], tail, "{id}");
    }
    // An unknown release is refused as corrupt.
    let mut scenario = two_brokers(vec![]);
    scenario.config.set_release(KafkaVersion::parse("2.0").expect("release"));
    let mut bytes = layout(&share(scenario, &[Variant::Kip279], None));
    let at = bytes.iter().rposition(|b| *b == b'2').expect("release string");
    bytes[at] = b'9';
    assert!(is_corrupt(&from_layout(&bytes)), "{:?}", from_layout(&bytes));
}

#[test]
fn links_made_before_the_release_lines_open_as_the_release_they_named() {
    // The nine releases of that time were one index byte; `kraft` (8) modelled 3.0 to 3.6.
    let named = ["0.10.2", "0.11.0", "1.0", "1.1", "2.0.0", "2.1", "2.4", "2.8", "3.6"];
    for (i, id) in named.iter().enumerate() {
        let mut scenario = two_brokers(vec![]);
        let release = KafkaVersion::parse(id).expect("release");
        scenario.config.set_release(release);
        let mut bytes = layout(&share(scenario.clone(), &[release.variant()], None));
        let start = bytes.iter().rposition(|b| *b == 0xff).expect("release marker");
        bytes.splice(start..bytes.len() - 1, [i as u8]);
        // `kraft` opens as what it named: 3.6 in KRaft mode (model §13).
        let kraft = (i == 8).then_some(epochlab_core::variant::MetadataMode::KRaft);
        scenario.config.metadata_mode = kraft;
        assert_eq!(from_layout(&bytes).map(|s| s.scenario.config), Ok(scenario.config), "{id}");
    }
    let mut bytes = layout(&share(two_brokers(vec![]), &[Variant::Kip279], None));
    let c0 = bytes.len() - 3;
    bytes[c0] |= 0x40;
    bytes.insert(bytes.len() - 1, 9);
    assert!(is_corrupt(&from_layout(&bytes)), "index 9 was never a release");
}

#[test]
fn the_release_settings_ride_in_the_link() {
    let mut scenario = two_brokers(vec![]);
    scenario.config.set_release(KafkaVersion::parse("4.0.1").expect("release"));
    scenario.config.eligible_leader_replicas = Some(true);
    scenario.config.unclean_leader_election = Some(false);
    let state = share(scenario.clone(), &[Variant::DivergingEpoch], None);
    assert_eq!(decode(&encode(&state)), Ok(state));
    scenario.config.set_release(KafkaVersion::parse("2.8").expect("release"));
    scenario.config.inter_broker_protocol_version = ProtocolVersion::parse("2.7-IV0").ok();
    scenario.config.log_message_format_version = ProtocolVersion::parse("0.10.2").ok();
    let state = share(scenario.clone(), &[Variant::DivergingEpoch], None);
    assert_eq!(decode(&encode(&state)), Ok(state));
    scenario.config.unclean_leader_election = None;
    let state = share(scenario, &[Variant::DivergingEpoch], None);
    assert_eq!(decode(&encode(&state)), Ok(state));
}

// ---------------------------------------------------------------------------------------------------------
// Error classes
// ---------------------------------------------------------------------------------------------------------

fn kip101_1() -> ShareState {
    share(PRESETS[0].scenario(), &[Variant::HwTruncation, Variant::Kip279], Some(4))
}

#[test]
fn a_changed_character_is_corrupt() {
    let payload = encode(&kip101_1());
    let mut chars: Vec<char> = payload.chars().collect();
    let mid = chars.len() / 2;
    chars[mid] = if chars[mid] == 'A' { 'B' } else { 'A' };
    let changed: String = chars.into_iter().collect();
    let err = decode(&changed).unwrap_err();
    assert!(matches!(err, ShareError::Corrupt(_)), "{err:?}");
    assert_eq!(err.to_string(), "the link is damaged: checksum mismatch (characters were changed)");
    let bad_char = format!("{}%{}", &payload[..10], &payload[11..]);
    assert_eq!(
        decode(&bad_char).unwrap_err().to_string(),
        "the link is damaged: '%' at position 10 is not a base64url character"
    );
}

#[test]
fn a_link_cut_short_is_truncated() {
    let payload = encode(&kip101_1());
    let err = decode(&payload[..payload.len() / 2]).unwrap_err();
    assert!(matches!(err, ShareError::Truncated(_)), "{err:?}");
    assert!(err.to_string().starts_with("the link is incomplete, probably cut short when copied ("), "{err}");
    assert!(err.to_string().ends_with(" bytes are there)"), "{err}");
    assert!(matches!(decode(""), Err(ShareError::Truncated(_))));
    assert!(matches!(decode("1"), Err(ShareError::Truncated(_))));
    assert!(matches!(decode("1A"), Err(ShareError::Truncated(_))));
}

#[test]
fn a_payload_over_64_kb_is_oversized_and_so_is_a_deflate_bomb() {
    let long = format!("1{}", "A".repeat(MAX_PAYLOAD));
    let err = decode(&long).unwrap_err();
    assert_eq!(err, ShareError::Oversized(format!("{} characters, the limit is 65536", MAX_PAYLOAD + 1)));
    assert_eq!(err.to_string(), "the link is too large: 65537 characters, the limit is 65536");
    // Exactly at the limit is read (and found damaged, not oversized).
    assert!(
        is_corrupt(&decode(&long[..MAX_PAYLOAD]))
            || matches!(decode(&long[..MAX_PAYLOAD]), Err(ShareError::Truncated(_)))
    );
    // Two megabytes of one byte deflate to a few kilobytes: inflation stops at the limit.
    let bomb = miniz_oxide::deflate::compress_to_vec(&vec![7u8; 2 << 20], 10);
    let err = decode(&seal_v1(1, &bomb)).unwrap_err();
    assert!(matches!(err, ShareError::Oversized(_)), "{err:?}");
    assert!(err.to_string().contains("unpacks to more than 1048576 bytes"), "{err}");
}

#[test]
fn a_newer_version_is_named() {
    let payload = encode(&kip101_1());
    let newer = format!("2{}", &payload[1..]);
    let err = decode(&newer).unwrap_err();
    assert_eq!(err, ShareError::FutureVersion { found: 2, supported: 1 });
    assert_eq!(err.to_string(), "the link was made by a newer Epochlab: format version 2, this one reads up to 1");
    assert_eq!(decode("Zxyz").unwrap_err(), ShareError::FutureVersion { found: 61, supported: 1 });
    assert!(decode("_xyz").unwrap_err().to_string().contains("format version 62 or later"));
    assert!(is_corrupt(&decode("0AAAA")));
    assert!(is_corrupt(&decode("é")));
}

#[test]
fn an_unknown_broker_index_or_six_brokers_is_an_invalid_scenario() {
    // The encoder writes the "unknown" slot (broker index 6) for a name the scenario does not have.
    let bad_event = share(two_brokers(vec![fetch("A"), fetch("Z")]), &[Variant::Kip279], None);
    let err = decode(&encode(&bad_event)).unwrap_err();
    let ShareError::InvalidScenario(inner) = &err else { panic!("{err:?}") };
    assert_eq!(inner.at, "events[1] (fetch)");
    assert_eq!(
        err.to_string(),
        "the link's scenario is invalid: events[1] (fetch): broker index 6 is unknown (this scenario has A, B)"
    );
    // Hand-made: a fetch naming broker index 2 on a two-broker scenario.
    let err = decode(&seal_v1(0, &layout_with_events(1, &[0x31]))).unwrap_err();
    assert!(err.to_string().contains("events[0] (fetch): broker index 2 is unknown"), "{err}");

    let mut six = Scenario::empty();
    six.brokers = ["A", "B", "C", "D", "E", "F"].map(String::from).to_vec();
    let err = decode(&encode(&share(six, &[Variant::Kip279], None))).unwrap_err();
    assert_eq!(err.to_string(), "the link's scenario is invalid: brokers: 6 brokers given; a partition has 1 to 5");

    // Rules checked through the contract JSON: parse_scenario's own message.
    let mut bad_name = Scenario::empty();
    bad_name.brokers[1] = "no spaces".into();
    let err = decode(&encode(&share(bad_name, &[Variant::Kip279], None))).unwrap_err();
    assert!(err.to_string().contains("brokers[1]: \"no spaces\" is not a valid name"), "{err}");
    let mut too_strict = Scenario::empty();
    too_strict.config.min_insync_replicas = 3;
    let err = decode(&encode(&share(too_strict, &[Variant::Kip279], None))).unwrap_err();
    assert!(err.to_string().contains("config.min_insync_replicas: 3 is more than the 2 broker(s)"), "{err}");
    let long_label = two_brokers(vec![Event::Produce { record: Some("x".repeat(25)), acks: Acks::All, broker: None }]);
    let err = decode(&encode(&share(long_label, &[Variant::Kip279], None))).unwrap_err();
    assert!(err.to_string().contains("\"record\" must be a label of 1 to 24 characters"), "{err}");
    let mut twice = Scenario::empty();
    twice.config.flags = vec![Flag::Kip320; 6];
    let err = decode(&encode(&share(twice, &[Variant::Kip279], None))).unwrap_err();
    assert!(err.to_string().contains("flag \"kip-320\" is listed twice"), "{err}");
}

#[test]
fn hostile_layouts_are_refused_without_allocating_their_claims() {
    // Four billion events: refused by the contract's limit before any allocation.
    let err = decode(&seal_v1(0, &layout_with_events(u64::from(u32::MAX), &[]))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the link's scenario is invalid: events: 4294967295 events is more than the limit of 1000"
    );
    // A string claiming an exabyte.
    let mut huge_name = vec![1, 2, 0];
    varint(1 << 60, &mut huge_name);
    assert_eq!(
        decode(&seal_v1(0, &huge_name)).unwrap_err().to_string(),
        "the link is damaged: the name runs past the end of the layout"
    );
    // An eleven-byte varint, an unknown kind, bits no field uses, a label never given, bytes after the end.
    let overlong = seal_v1(0, &[1, 2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    assert!(decode(&overlong).unwrap_err().to_string().contains("the cursor is not a well-formed number"));
    for (events, needle) in [
        (&[0x0e][..], "events[0]: unknown event kind #14"),
        (&[0x96, 0x01], "events[0] (deliver): unknown field bits are set"),
        (&[0x80, 0x04, 0x01], "record label #1 was never given"),
        (&[0x80, 0x00], "an empty extra byte"),
        (&[0x12], "events[0] (settle): a settle names no broker"),
        (&[0x01], "events[0] (fetch): names no broker but needs one"),
        (&[0x02, 0x02], "1 unexpected bytes after the last event"),
        (&[0x80, 0x03], "unknown acks"),
    ] {
        let err = decode(&seal_v1(0, &layout_with_events(1, events))).unwrap_err();
        assert!(matches!(err, ShareError::Corrupt(_)) && err.to_string().contains(needle), "{needle}: {err}");
    }
    // No variant, five variants, an unknown variant.
    for head in [&[0u8][..], &[5, 0, 0, 0, 0, 0], &[1, 6]] {
        assert!(is_corrupt(&decode(&seal_v1(0, head))), "{head:?}");
    }
    // Unknown frame flags (with a valid checksum) and bad deflate data.
    assert!(decode(&seal_v1(2, &layout_with_events(0, &[]))).unwrap_err().to_string().contains("unknown flags 0x02"));
    assert!(decode(&seal_v1(1, &[0xff; 12])).unwrap_err().to_string().contains("cannot be decompressed"));
    // A frame whose length field is larger than any link.
    assert!(is_corrupt(&decode(&format!("1{}", b64(&[0, 0xff, 0xff, 0xff, 0x7f])))));
    // A valid frame with a stray last character.
    let payload = seal_v1(0, &layout_with_events(0, &[]));
    assert!(decode(&payload).is_ok());
    let stray = format!("{payload}A");
    assert!(
        matches!(decode(&stray), Err(ShareError::Corrupt(_)) | Err(ShareError::Truncated(_))),
        "{:?}",
        decode(&stray)
    );
}

#[test]
fn fragments_find_the_s_parameter() {
    let state = kip101_1();
    let frag = fragment(&state);
    assert!(frag.starts_with("s=1"));
    assert_eq!(from_fragment(&format!("#{frag}&theme=dark")), Ok(Some(state.clone())));
    assert_eq!(from_fragment(&format!("#theme=dark&{frag}")), Ok(Some(state.clone())));
    assert_eq!(from_fragment(&frag), Ok(Some(state.clone())));
    assert_eq!(from_fragment(&format!("https://example.org/epochlab/?x=1#{frag}")), Ok(Some(state)));
    assert_eq!(from_fragment(""), Ok(None));
    assert_eq!(from_fragment("#"), Ok(None));
    assert_eq!(from_fragment("#theme=dark&ss=1"), Ok(None));
    assert!(matches!(from_fragment("#s="), Err(ShareError::Truncated(_))));
    assert!(from_fragment("#s=garbage!").is_err());
    for garbage in ["hello world", "1hello", "1AAAAAAAAAAAAAAAAAAAAA", "1----", "☃", "1\u{0}"] {
        assert!(decode(garbage).is_err(), "{garbage:?}");
    }
}

// ---------------------------------------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------------------------------------

/// A realistic 40-event scenario on three brokers: events cycling through produce, fetch, crash, restart,
/// elect and settle with their default fields, a name and a 100-character description.
fn forty_events() -> Scenario {
    let brokers = ["A", "B", "C"];
    let mut events = Vec::new();
    for i in 0..40 {
        let b = brokers[(i / 6) % 3].to_string();
        events.push(match i % 6 {
            0 => Event::Produce { record: None, acks: Acks::All, broker: None },
            1 => Event::Fetch { broker: b, drop_response: false },
            2 => Event::Crash { broker: b, power: false, notify_controller: true },
            3 => Event::Restart { broker: b, deliver: true },
            4 => Event::Elect { broker: None, deliver: Delivery::All },
            _ => Event::Settle,
        });
    }
    let description = "Followers crash and come back one after another while the leader keeps taking writes; \
                       watch the HWs.";
    assert_eq!(description.len(), 100);
    Scenario {
        version: FORMAT_VERSION,
        name: "Rolling restarts under load".to_string(),
        description: description.to_string(),
        brokers: brokers.map(String::from).to_vec(),
        config: Config { min_insync_replicas: 2, ..Config::default() },
        events,
    }
}

/// Measured (the fragment `s=…`, in characters) when written, each with two variants and a cursor: the
/// 40-event scenario 201; presets kip101-scenario-1 383, kip101-scenario-2 417, kafka-6361-fast-failover 483,
/// unclean-elections-diverge 547, leader-hw-no-fix 451, happy-path 321. The presets' prose (up to 540
/// characters of name and description) is most of each link; deflate shortens it by about a third.
#[test]
fn links_stay_short() {
    let forty = share(forty_events(), &[Variant::HwTruncation, Variant::Kip279], Some(20));
    let forty_len = fragment(&forty).len();
    let mut report = vec![format!("40-event scenario: {forty_len}")];
    let mut longest = 0;
    for preset in &PRESETS {
        let state = share(preset.scenario(), &[Variant::HwTruncation, Variant::Kip279], Some(5));
        let len = fragment(&state).len();
        longest = longest.max(len);
        report.push(format!("{}: {len}", preset.id));
    }
    let report = report.join(", ");
    println!("share fragment sizes: {report}");
    assert!(forty_len < 600, "the 40-event scenario's link is too long: {report}");
    assert!(forty_len < 300, "the 40-event scenario's link grew (it was 201): {report}");
    assert!(longest < 600, "a preset's link is too long: {report}");
}

// ---------------------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------------------

fn text(max: usize) -> impl Strategy<Value = String> {
    prop_oneof![
        2 => proptest::collection::vec(proptest::char::range(' ', '~'), 0..=max).prop_map(String::from_iter),
        1 => proptest::collection::vec(any::<char>(), 0..=max).prop_map(String::from_iter),
    ]
}

fn brokers() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::btree_set("[A-Za-z0-9_-]{1,16}", 1..=5)
        .prop_map(|set| set.into_iter().collect())
        .prop_shuffle()
}

fn label(pool: &'static [&'static str]) -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        2 => Just(None),
        2 => proptest::sample::select(pool).prop_map(|s| Some(s.to_string())),
        1 => proptest::collection::vec(any::<char>(), 1..=24).prop_map(|c| Some(String::from_iter(c))),
    ]
}

fn event(brokers: Vec<String>) -> impl Strategy<Value = Event> {
    let one = proptest::sample::select(brokers.clone());
    let maybe = proptest::option::of(one.clone());
    let acks = prop_oneof![Just(Acks::Zero), Just(Acks::One), Just(Acks::All)];
    let n = brokers.len();
    let delivery = prop_oneof![
        Just(Delivery::All),
        Just(Delivery::None),
        proptest::sample::subsequence(brokers, 0..=n).prop_shuffle().prop_map(Delivery::Only),
    ];
    prop_oneof![
        (label(&["m1", "m2", "x", "ü"]), acks, maybe.clone()).prop_map(|(record, acks, broker)| Event::Produce {
            record,
            acks,
            broker
        }),
        (one.clone(), any::<bool>()).prop_map(|(broker, drop_response)| Event::Fetch { broker, drop_response }),
        Just(Event::Settle),
        (one.clone(), any::<bool>(), any::<bool>()).prop_map(|(broker, power, notify_controller)| Event::Crash {
            broker,
            power,
            notify_controller
        }),
        (one.clone(), any::<bool>()).prop_map(|(broker, deliver)| Event::Restart { broker, deliver }),
        (maybe.clone(), delivery).prop_map(|(broker, deliver)| Event::Elect { broker, deliver }),
        one.clone().prop_map(|broker| Event::Deliver { broker }),
        one.clone().prop_map(|broker| Event::ShrinkIsr { broker }),
        one.clone().prop_map(|broker| Event::Shutdown { broker }),
        one.clone().prop_map(|broker| Event::CheckpointHw { broker }),
        one.clone().prop_map(|broker| Event::Flush { broker }),
        maybe.prop_map(|broker| Event::Consume { broker }),
        one.prop_map(|broker| Event::Zombie { broker }),
    ]
}

fn variant() -> impl Strategy<Value = Variant> {
    proptest::sample::select(Variant::ALL.to_vec())
}

fn config(n: usize) -> impl Strategy<Value = Config> {
    let policy = || prop_oneof![Just(Policy::Always), Just(Policy::Manual)];
    (
        variant(),
        proptest::sample::subsequence(Flag::ALL.to_vec(), 0..=4).prop_shuffle(),
        1..=n as u8,
        proptest::option::of(any::<bool>()),
        policy(),
        policy(),
    )
        .prop_map(|(variant, flags, min_insync_replicas, unclean_leader_election, hw_checkpoint, flush)| Config {
            variant,
            flags,
            min_insync_replicas,
            unclean_leader_election,
            hw_checkpoint,
            flush,
            ..Config::default()
        })
}

fn scenario() -> impl Strategy<Value = Scenario> {
    brokers().prop_flat_map(|brokers| {
        let n = brokers.len();
        (text(60), text(200), config(n), proptest::collection::vec(event(brokers.clone()), 0..=60)).prop_map(
            move |(name, description, config, events)| Scenario {
                version: FORMAT_VERSION,
                name,
                description,
                brokers: brokers.clone(),
                config,
                events,
            },
        )
    })
}

fn state() -> impl Strategy<Value = ShareState> {
    (scenario(), proptest::collection::vec(variant(), 1..=4), proptest::option::of(any::<u32>()))
        .prop_map(|(scenario, variants, cursor)| ShareState { scenario, variants, cursor })
}

/// A valid payload: a random state's or a preset's.
fn payload() -> impl Strategy<Value = String> {
    prop_oneof![
        state().prop_map(|s| encode(&s)),
        (0..PRESETS.len()).prop_map(|i| encode(&share(PRESETS[i].scenario(), &[Variant::Kip101], Some(3)))),
    ]
}

proptest! {
    // Bounded so the file runs in a few seconds in debug; no persistence file (failures print their input).
    #![proptest_config(ProptestConfig {
        cases: 200,
        failure_persistence: None,
        rng_seed: seed::rng_seed(),
        ..ProptestConfig::default()
    })]

    #[test]
    fn encode_then_decode_is_the_identity(state in state()) {
        let payload = encode(&state);
        prop_assert!(payload.len() <= MAX_PAYLOAD);
        prop_assert_eq!(decode(&payload), Ok(state), "payload {}", payload);
    }

    #[test]
    fn arbitrary_strings_never_panic(s in prop_oneof![any::<String>(), "[1-3][A-Za-z0-9_-]{0,80}"]) {
        let _ = decode(&s);
        let _ = from_fragment(&s);
    }

    /// Every change of one character is caught (the CRC catches every burst of up to 32 bits), and every cut
    /// is reported as truncation.
    #[test]
    fn mutations_and_truncations_are_caught(payload in payload(), at in any::<prop::sample::Index>(),
                                            c in proptest::sample::select(B64.to_vec()), cut in any::<prop::sample::Index>()) {
        let i = at.index(payload.len());
        if payload.as_bytes()[i] != c {
            let mut changed = payload.clone().into_bytes();
            changed[i] = c;
            let changed = String::from_utf8(changed).unwrap();
            prop_assert!(decode(&changed).is_err(), "{} -> {}", payload, changed);
        }
        let cut = &payload[..cut.index(payload.len())];
        prop_assert!(matches!(decode(cut), Err(ShareError::Truncated(_))), "{:?}", decode(cut));
    }

    #[test]
    fn byte_mutations_never_panic(payload in payload(), edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3u8), 1..6)) {
        let mut bytes = payload.into_bytes();
        for (at, byte, op) in edits {
            let i = at.index(bytes.len().max(1));
            match op {
                0 if !bytes.is_empty() => bytes[i] = byte,
                1 if !bytes.is_empty() => { bytes.remove(i); }
                _ => bytes.insert(i.min(bytes.len()), byte),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = decode(&text);
    }
}

#[test]
fn the_writer_refuses_exactly_the_links_the_reader_refuses() {
    let mut state = share(PRESETS[0].scenario(), &[Variant::Kip279], Some(2));
    let small = encode(&state);
    assert_eq!(check_link(&layout(&state), &small), Ok(()));
    assert!(decode(&small).is_ok());
    // 1.2 MB of one letter deflates to a short payload that still unpacks to more than the reader allows.
    state.scenario.description = "x".repeat(1_200_000);
    let long = encode(&state);
    assert!(long.len() < MAX_PAYLOAD, "short enough to pass the payload limit: {}", long.len());
    let refused = check_link(&layout(&state), &long).expect_err("the writer refuses it");
    assert_eq!(decode(&long).expect_err("the reader refuses it"), refused);
    assert!(refused.to_string().contains(&format!("more than {MAX_LAYOUT} bytes")), "{refused}");
    // Prose that does not compress overflows the payload instead; the writer says so too.
    state.scenario.description = (0..70_000u32).map(|i| char::from(b'a' + (i * 7919 % 26) as u8)).collect();
    let plain = frame_payload(&layout(&state), None);
    assert!(matches!(check_link(&layout(&state), &plain), Err(ShareError::Oversized(_))));
    assert!(matches!(decode(&plain), Err(ShareError::Oversized(_))));
}
