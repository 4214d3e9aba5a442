//! Share links: a whole scenario plus the viewer's state in a compact, versioned, URL-safe string.
//!
//! A link is `…#s=<payload>`. The payload holds a [`ShareState`]: the [`Scenario`] (every field), the
//! variants shown side by side and the step cursor. [`encode`] / [`decode`] convert the payload;
//! [`fragment`] / [`from_fragment`] add and find the `s=` parameter.
//!
//! # Payload, format version 1
//!
//! ```text
//! payload = version-char  base64url(frame)          (no padding; only A-Z a-z 0-9 - _)
//! frame   = flags:u8  len:varint  content[len]  crc:u32-le
//! content = layout, or raw DEFLATE (RFC 1951, no zlib header) of the layout when flags bit 0 is set
//! ```
//!
//! * **version-char**: one character of `0-9a-zA-Z` (values 0 to 61, so `1` is version 1). `-` and `_` are
//!   reserved to start a longer version number if 61 ever runs out. It sits outside the base64 so a reader
//!   can refuse a newer link before trying to understand anything else.
//! * **flags**: bit 0 = content is deflated; bits 1 to 7 are zero.
//! * **len**: the content's length in bytes. Knowing it, a link cut short is told apart from a damaged one.
//! * **crc**: CRC-32 (IEEE 802.3, the zlib/PNG one) of every frame byte before it, little-endian. It catches
//!   a changed character before anything is decompressed or parsed.
//! * A frame must end exactly after the CRC, and the last base64 character's unused bits must be zero, so
//!   every payload has one spelling and any changed character is noticed.
//!
//! All integers in the layout are unsigned LEB128 **varints** (7 bits a byte, low group first, high bit set
//! on every byte but the last; at most 10 bytes, no needless trailing zero groups). A **string** is a varint
//! byte length followed by that many bytes of UTF-8.
//!
//! ```text
//! layout   = variants  cursor  name:string  description:string  brokers  config  events
//! variants = count:u8 (1..=4)  then count bytes, each an index into Variant::ALL
//!            (0 hw-truncation, 1 kip-101, 2 kip-279, 3 kafka-2.1, 4 diverging-epoch, 5 leader-hw-truncation)
//! cursor   = varint: 0 = before the first step, n + 1 = after step n
//! brokers  = count:varint (1..=5)  then count strings (the names, in assignment order)
//! config   = c0:u8  c1:u8  flag bytes
//!   c0: bits 0-2 variant index (as above), bit 3 unclean_leader_election, bit 4 hw_checkpoint is manual,
//!       bit 5 flush is manual, bits 6-7 zero
//!   c1: bits 0-2 min_insync_replicas, bits 3-5 number of flags n, bits 6-7 zero
//!   flag bytes: ceil(n / 4) bytes holding n 2-bit indices into Flag::ALL (0 kafka-7415, 1 kafka-7128,
//!       2 kafka-7164, 3 kip-320), first flag in the lowest bits; unused bits zero
//! events   = count:varint (0..=1000)  then count events
//! event    = head:u8  [extra:u8]  [more]
//!   head: bits 0-3 kind, in EventKind::ALL order (0 produce, 1 fetch, 2 settle, 3 crash, 4 restart,
//!         5 elect, 6 deliver, 7 shrink_isr, 8 shutdown, 9 checkpoint_hw, 10 flush, 11 consume,
//!         12 zombie); bits 4-6 broker slot (0 = none, s = broker index s - 1; a slot past the
//!         brokers makes the scenario invalid); bit 7 = an extra byte follows
//!   extra (only when some field is not its default; never 0):
//!     produce: bits 0-1 acks (0 all, 1 one, 2 zero), bit 2 a record label follows (label ref)
//!     fetch:   bit 0 drop_response
//!     crash:   bit 0 power, bit 1 notify_controller is false
//!     restart: bit 0 deliver is false
//!     elect:   bits 0-1 deliver (0 all, 1 none, 2 a list follows: count:u8, then count broker indices:u8)
//!     other kinds take no extra byte; unused bits are zero
//!   label ref = varint i: i < labels so far = the i-th distinct label already seen in this scenario;
//!               i = labels so far: a new label, its string follows
//! ```
//!
//! `Scenario::version` is not stored: share format 1 always holds a contract-version-1 scenario.
//!
//! # Why this shape
//!
//! * **Binary, then base64url.** A typical event is one byte (kind, broker and "all defaults" share a
//!   head byte); broker names are written once and referred to by index; a repeated record label costs one
//!   byte. A 40-event scenario's layout is a few dozen bytes besides its prose.
//! * **Deflate only when it wins.** The prose (name, description) is most of a preset's size, and deflate
//!   shortens English by about a third; on short scenarios its block header would cost more than it saves,
//!   so the encoder keeps whichever is shorter and says so in `flags`.
//! * **Version outside, checksum inside.** Old links keep their version character forever; a newer format
//!   is refused with a message naming both versions, and corruption or truncation never yields a different
//!   scenario.
//! * **The scenario rules are the contract's.** A decoded scenario is checked by [`parse_scenario`] through
//!   its contract JSON, so a link can hold nothing that a scenario file could not.
//! * **Bounded.** A payload longer than [`MAX_PAYLOAD`] is refused before it is read, inflation stops at
//!   [`MAX_LAYOUT`], and every count is checked against the contract's limits (or the bytes left) before
//!   anything is allocated for it.
//!
//! Encoding is deterministic for a given build: the same state always gives the same string. (A different
//! deflate implementation could compress differently; every version still decodes every link.)

use std::fmt;

use crate::scenario::{
    parse_scenario, Acks, Config, Delivery, Event, EventKind, Policy, Scenario, ScenarioError, FORMAT_VERSION,
    MAX_BROKERS, MAX_EVENTS,
};
use crate::variant::{Flag, Variant};

/// The share format version this build writes, and the newest it reads.
pub const VERSION: u32 = 1;
/// Payloads longer than this (in characters) are refused without being read.
pub const MAX_PAYLOAD: usize = 64 * 1024;
/// A deflated layout may unpack to at most this many bytes.
pub const MAX_LAYOUT: usize = 1024 * 1024;
/// Variants a link can show side by side, at most: as many as the playground shows.
pub use crate::variant::MAX_VARIANTS;

/// What a share link holds: the scenario and what the viewer was looking at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShareState {
    /// The whole scenario.
    pub scenario: Scenario,
    /// The variants shown side by side, in order (1 to [`MAX_VARIANTS`]).
    pub variants: Vec<Variant>,
    /// The step the timeline cursor is after; `None` = before the first step. Not checked against the
    /// number of events: the viewer clamps it.
    pub cursor: Option<u32>,
}

/// Why a share link could not be opened. `Display` is one line for a notice: a lowercase clause without a
/// final full stop, so it reads alone or inside a sentence ("This link could not be opened: {error}.").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// Damaged: a character outside base64url, a checksum mismatch, bad deflate data or a malformed
    /// layout. The text names what failed.
    Corrupt(String),
    /// The link ends early (it was cut when copied). The text says where.
    Truncated(String),
    /// Over [`MAX_PAYLOAD`] characters, or unpacking to over [`MAX_LAYOUT`] bytes.
    Oversized(String),
    /// Written by a newer Epochlab in a format this build cannot read.
    FutureVersion {
        /// The link's format version (62 stands for "62 or later", see the module docs).
        found: u32,
        /// The newest version this build reads ([`VERSION`]).
        supported: u32,
    },
    /// Decoded, but the scenario breaks the contract's rules (the message is [`parse_scenario`]'s).
    InvalidScenario(ScenarioError),
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::Corrupt(what) => write!(f, "the link is damaged: {what}"),
            ShareError::Truncated(what) => write!(f, "the link is incomplete, probably cut short when copied ({what})"),
            ShareError::Oversized(what) => write!(f, "the link is too large: {what}"),
            ShareError::FutureVersion { found, supported } => {
                let or_later = if *found >= RESERVED_VERSION { " or later" } else { "" };
                write!(
                    f,
                    "the link was made by a newer Epochlab: format version {found}{or_later}, \
                     this one reads up to {supported}"
                )
            }
            ShareError::InvalidScenario(e) => write!(f, "the link's scenario is invalid: {e}"),
        }
    }
}

impl std::error::Error for ShareError {}

fn corrupt(what: impl Into<String>) -> ShareError {
    ShareError::Corrupt(what.into())
}

fn invalid(at: impl Into<String>, message: impl Into<String>) -> ShareError {
    ShareError::InvalidScenario(ScenarioError { at: at.into(), message: message.into() })
}

// ---------------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------------

/// The payload for `state` (what follows `s=`). Never fails: a state that breaks the contract (an event
/// naming an unknown broker, six brokers, …) gives a payload that [`decode`] refuses as an invalid scenario,
/// and a result longer than [`MAX_PAYLOAD`] is refused as oversized, so check its length before offering it.
pub fn encode(state: &ShareState) -> String {
    let layout = layout(state);
    let deflated = miniz_oxide::deflate::compress_to_vec(&layout, DEFLATE_LEVEL);
    payload(&layout, Some(&deflated))
}

/// Read a payload (what follows `s=`). Never panics; every failure is one of [`ShareError`]'s classes.
pub fn decode(payload: &str) -> Result<ShareState, ShareError> {
    match open_payload(payload)? {
        Content::Layout(layout) => from_layout(&layout),
        Content::Deflated(deflated) => from_layout(&inflate(&deflated)?),
    }
}

/// What a payload's frame holds, once its version, length and checksum check out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// The layout itself: read it with [`from_layout`].
    Layout(Vec<u8>),
    /// The layout as raw DEFLATE (RFC 1951): inflate it to at most [`MAX_LAYOUT`] bytes, then [`from_layout`].
    Deflated(Vec<u8>),
}

// [`encode`] and [`decode`] compress with miniz_oxide. The web app compresses with the browser's own
// (CompressionStream), which keeps a DEFLATE implementation out of its download: it uses the four steps
// below, which are also what `encode` and `decode` are made of.

/// The layout of `state`: a payload's content before compression.
pub fn layout(state: &ShareState) -> Vec<u8> {
    write_layout(state)
}

/// The payload for a layout and, when the caller could compress it, the same layout as raw DEFLATE: the
/// shorter of the two is framed.
pub fn payload(layout: &[u8], deflated: Option<&[u8]>) -> String {
    let frame = match deflated {
        Some(d) if d.len() < layout.len() => seal(FLAG_DEFLATED, d),
        _ => seal(0, layout),
    };
    let mut payload = String::with_capacity(1 + frame.len().div_ceil(3) * 4);
    payload.push(char::from(VERSION_DIGITS[VERSION as usize]));
    base64url_encode(&frame, &mut payload);
    payload
}

/// Check a payload's size, version, framing and checksum, and return its content.
pub fn open_payload(payload: &str) -> Result<Content, ShareError> {
    if payload.len() > MAX_PAYLOAD {
        return Err(ShareError::Oversized(format!("{} characters, the limit is {MAX_PAYLOAD}", payload.len())));
    }
    let mut chars = payload.chars();
    let Some(first) = chars.next() else {
        return Err(ShareError::Truncated("the link holds no scenario at all".to_string()));
    };
    check_version(first)?;
    let frame = base64url_decode(chars.as_str())?;
    let (flags, content) = open(&frame)?;
    Ok(if flags & FLAG_DEFLATED != 0 { Content::Deflated(content.to_vec()) } else { Content::Layout(content.to_vec()) })
}

/// The share state a layout holds, checked against the scenario contract.
pub fn from_layout(layout: &[u8]) -> Result<ShareState, ShareError> {
    validate(read_layout(layout)?)
}

/// The error for deflated content that a decompressor refused: it unpacks to more than [`MAX_LAYOUT`] bytes
/// (`oversized`), or it is not valid DEFLATE.
pub fn inflate_error(oversized: bool) -> ShareError {
    if oversized {
        ShareError::Oversized(format!("its scenario unpacks to more than {MAX_LAYOUT} bytes"))
    } else {
        corrupt("its compressed data cannot be decompressed")
    }
}

/// `s=<payload>`, the fragment (without `#`) a link ends with.
pub fn fragment(state: &ShareState) -> String {
    format!("s={}", encode(state))
}

/// Find and decode the `s=` parameter of a URL fragment. Accepts `#s=…&other=…`, `s=…`, or a whole URL
/// (everything up to the first `#` is skipped). `Ok(None)` when there is no `s=` parameter.
pub fn from_fragment(fragment: &str) -> Result<Option<ShareState>, ShareError> {
    let params = fragment.split_once('#').map_or(fragment, |(_, after)| after);
    match params.split('&').find_map(|param| param.strip_prefix("s=")) {
        Some(payload) => decode(payload).map(Some),
        None => Ok(None),
    }
}

// ---------------------------------------------------------------------------------------------------------
// Version character
// ---------------------------------------------------------------------------------------------------------

/// Version `n` is written as `VERSION_DIGITS[n]`.
const VERSION_DIGITS: &[u8; 62] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
/// `-` and `_` introduce a version past 61; this build reports them as "62 or later".
const RESERVED_VERSION: u32 = 62;

fn check_version(first: char) -> Result<(), ShareError> {
    if first == '-' || first == '_' {
        return Err(ShareError::FutureVersion { found: RESERVED_VERSION, supported: VERSION });
    }
    let found = u8::try_from(first)
        .ok()
        .and_then(|b| VERSION_DIGITS.iter().position(|d| *d == b))
        .ok_or_else(|| corrupt(format!("it starts with {first:?}, which is not a format version")))?;
    let found = found as u32;
    if found == 0 {
        return Err(corrupt("format version 0 does not exist"));
    }
    if found > VERSION {
        return Err(ShareError::FutureVersion { found, supported: VERSION });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------
// base64url without padding (RFC 4648 §5)
// ---------------------------------------------------------------------------------------------------------

const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64url_encode(bytes: &[u8], out: &mut String) {
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let group = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        // 1 byte gives 2 characters, 2 give 3, 3 give 4.
        for i in 0..=chunk.len() {
            let sextet = (group >> (18 - 6 * i)) & 0x3f;
            out.push(char::from(BASE64URL[sextet as usize]));
        }
    }
}

fn sextet(c: u8) -> Option<u32> {
    let v = match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    };
    Some(u32::from(v))
}

/// The bytes a base64url text stands for, and whether it ends untidily: a lone last character (6 bits,
/// no whole byte) or unused bits that are not zero. Untidy endings are judged once the frame's length is
/// known: a link cut short is reported as truncated, not as damaged.
struct Decoded {
    bytes: Vec<u8>,
    untidy_end: bool,
}

fn base64url_decode(text: &str) -> Result<Decoded, ShareError> {
    let mut bytes = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let mut acc: u32 = 0;
    let mut bits: u32 = 0;
    for (i, c) in text.bytes().enumerate() {
        let Some(v) = sextet(c) else {
            // Position 0 is the version character.
            let shown = text[i..].chars().next().unwrap_or('?');
            return Err(corrupt(format!("{shown:?} at position {} is not a base64url character", i + 1)));
        };
        acc = (acc << 6 | v) & 0xfff;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push((acc >> bits) as u8);
        }
    }
    let untidy_end = bits == 6 || acc & ((1 << bits) - 1) != 0;
    Ok(Decoded { bytes, untidy_end })
}

// ---------------------------------------------------------------------------------------------------------
// Frame: flags, length, content, CRC-32
// ---------------------------------------------------------------------------------------------------------

const FLAG_DEFLATED: u8 = 1;
/// miniz's best compression: links are small, so time does not matter.
const DEFLATE_LEVEL: u8 = 10;
const CRC_LEN: usize = 4;

fn seal(flags: u8, content: &[u8]) -> Vec<u8> {
    let mut frame = Writer(Vec::with_capacity(content.len() + 16));
    frame.byte(flags);
    frame.varint(content.len() as u64);
    frame.0.extend_from_slice(content);
    let crc = crc32(&frame.0);
    frame.0.extend_from_slice(&crc.to_le_bytes());
    frame.0
}

/// Check a frame and return its flags and content.
fn open(decoded: &Decoded) -> Result<(u8, &[u8]), ShareError> {
    let frame = decoded.bytes.as_slice();
    let mut r = Reader::new(frame);
    let flags = r.byte().ok_or_else(|| ShareError::Truncated("it ends before its header".to_string()))?;
    let len = match r.varint() {
        Ok(len) => len,
        Err(VarintError::End) => return Err(ShareError::Truncated("it ends inside its header".to_string())),
        Err(VarintError::Malformed) => return Err(corrupt("its length field is malformed")),
    };
    let header = r.pos;
    let expected = usize::try_from(len).ok().and_then(|n| n.checked_add(header + CRC_LEN)).unwrap_or(usize::MAX);
    if expected > MAX_PAYLOAD {
        return Err(corrupt(format!("its length field says {len} bytes, more than a link can hold")));
    }
    if frame.len() < expected {
        return Err(ShareError::Truncated(format!("{} of {expected} bytes are there", frame.len())));
    }
    if frame.len() > expected {
        return Err(corrupt(format!("{} unexpected bytes after its end", frame.len() - expected)));
    }
    if decoded.untidy_end {
        return Err(corrupt("its last character does not fit"));
    }
    let body = expected - CRC_LEN;
    let stored = u32::from_le_bytes([frame[body], frame[body + 1], frame[body + 2], frame[body + 3]]);
    if crc32(&frame[..body]) != stored {
        return Err(corrupt("checksum mismatch (characters were changed)"));
    }
    if flags & !FLAG_DEFLATED != 0 {
        return Err(corrupt(format!("unknown flags {flags:#04x}")));
    }
    Ok((flags, &frame[header..body]))
}

fn inflate(content: &[u8]) -> Result<Vec<u8>, ShareError> {
    use miniz_oxide::inflate::{decompress_to_vec_with_limit, TINFLStatus};
    decompress_to_vec_with_limit(content, MAX_LAYOUT).map_err(|e| inflate_error(e.status == TINFLStatus::HasMoreOutput))
}

/// CRC-32/ISO-HDLC (reflected, polynomial 0xEDB88320), bit by bit: links are small.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

// ---------------------------------------------------------------------------------------------------------
// Byte writer and reader
// ---------------------------------------------------------------------------------------------------------

struct Writer(Vec<u8>);

impl Writer {
    fn byte(&mut self, b: u8) {
        self.0.push(b);
    }

    fn varint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.0.push((n as u8 & 0x7f) | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
    }

    fn string(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
}

enum VarintError {
    /// The bytes ran out inside it.
    End,
    /// Over 64 bits, or with needless trailing zero groups.
    Malformed,
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|end| *end <= self.bytes.len())?;
        let taken = &self.bytes[self.pos..end];
        self.pos = end;
        Some(taken)
    }

    fn varint(&mut self) -> Result<u64, VarintError> {
        let mut n: u64 = 0;
        for i in 0..10u32 {
            let b = self.byte().ok_or(VarintError::End)?;
            let group = u64::from(b & 0x7f);
            if i == 9 && group > 1 {
                return Err(VarintError::Malformed);
            }
            n |= group << (7 * i);
            if b & 0x80 == 0 {
                return if i > 0 && group == 0 { Err(VarintError::Malformed) } else { Ok(n) };
            }
        }
        Err(VarintError::Malformed)
    }
}

/// Reading the layout: the frame was whole and its checksum matched, so running out of bytes or a bad value
/// means the link was made wrongly, and is reported as damage naming the field.
struct Layout<'a>(Reader<'a>);

impl Layout<'_> {
    fn byte(&mut self, what: &str) -> Result<u8, ShareError> {
        self.0.byte().ok_or_else(|| corrupt(format!("its layout ends inside {what}")))
    }

    fn varint(&mut self, what: &str) -> Result<u64, ShareError> {
        self.0.varint().map_err(|e| match e {
            VarintError::End => corrupt(format!("its layout ends inside {what}")),
            VarintError::Malformed => corrupt(format!("{what} is not a well-formed number")),
        })
    }

    fn string(&mut self, what: &str) -> Result<String, ShareError> {
        let len = self.varint(what)?;
        // The length is checked against the bytes left before anything is allocated.
        let bytes = usize::try_from(len)
            .ok()
            .and_then(|n| self.0.take(n))
            .ok_or_else(|| corrupt(format!("{what} runs past the end of the layout")))?;
        String::from_utf8(bytes.to_vec()).map_err(|_| corrupt(format!("{what} is not valid UTF-8")))
    }
}

// ---------------------------------------------------------------------------------------------------------
// Layout: writing
// ---------------------------------------------------------------------------------------------------------

const HEAD_EXTRA: u8 = 0x80;
/// The broker slot an encoder writes for a name that is not one of the scenario's first five brokers.
const SLOT_UNKNOWN: u8 = 7;
/// The delivery-list index an encoder writes for a name that is not a broker.
const INDEX_UNKNOWN: u8 = u8::MAX;

fn write_layout(state: &ShareState) -> Vec<u8> {
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

fn variant_index(v: Variant) -> u8 {
    v.index() as u8
}

fn flag_index(f: Flag) -> u8 {
    f.index() as u8
}

fn write_config(w: &mut Writer, c: &Config) {
    let c0 = variant_index(c.variant)
        | u8::from(c.unclean_leader_election) << 3
        | u8::from(c.hw_checkpoint == Policy::Manual) << 4
        | u8::from(c.flush == Policy::Manual) << 5;
    // Out-of-range values stay out of range (7), so the decoder refuses them as the contract would. Five or
    // more flags repeat one, so keeping the first seven keeps the repetition.
    let flags = &c.flags[..c.flags.len().min(7)];
    let c1 = c.min_insync_replicas.min(7) | (flags.len() as u8) << 3;
    w.byte(c0);
    w.byte(c1);
    for four in flags.chunks(4) {
        w.byte(four.iter().enumerate().fold(0, |acc, (i, f)| acc | flag_index(*f) << (2 * i)));
    }
}

fn kind_tag(event: &Event) -> u8 {
    event.kind().index()
}

fn broker_slot(brokers: &[String], name: Option<&str>) -> u8 {
    match name {
        None => 0,
        Some(name) => match brokers.iter().position(|b| b == name) {
            Some(i) if i < MAX_BROKERS => i as u8 + 1,
            _ => SLOT_UNKNOWN,
        },
    }
}

fn write_event<'a>(w: &mut Writer, event: &'a Event, brokers: &[String], labels: &mut Vec<&'a str>) {
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
fn extra_bits(event: &Event) -> u8 {
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

fn write_label<'a>(w: &mut Writer, label: &'a str, labels: &mut Vec<&'a str>) {
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
fn write_delivery_list(w: &mut Writer, names: &[String], brokers: &[String]) {
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

// ---------------------------------------------------------------------------------------------------------
// Layout: reading
// ---------------------------------------------------------------------------------------------------------

fn read_layout(bytes: &[u8]) -> Result<ShareState, ShareError> {
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

fn variant_at(index: u8, what: &str) -> Result<Variant, ShareError> {
    Variant::ALL.get(usize::from(index)).copied().ok_or_else(|| corrupt(format!("{what}: unknown variant #{index}")))
}

fn read_variants(r: &mut Layout) -> Result<Vec<Variant>, ShareError> {
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

fn read_brokers(r: &mut Layout) -> Result<Vec<String>, ShareError> {
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

fn read_config(r: &mut Layout) -> Result<Config, ShareError> {
    let c0 = r.byte("the configuration")?;
    let c1 = r.byte("the configuration")?;
    if c0 & 0xc0 != 0 || c1 & 0xc0 != 0 {
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
    Ok(Config {
        variant: variant_at(c0 & 7, "config.variant")?,
        flags,
        min_insync_replicas: c1 & 7,
        unclean_leader_election: c0 & 0x08 != 0,
        hw_checkpoint: policy(c0 & 0x10 != 0),
        flush: policy(c0 & 0x20 != 0),
    })
}

fn read_events(r: &mut Layout, brokers: &[String]) -> Result<Vec<Event>, ShareError> {
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

fn read_event(r: &mut Layout, index: usize, brokers: &[String], labels: &mut Vec<String>) -> Result<Event, ShareError> {
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

fn broker_at(slot: u8, at: &str, brokers: &[String]) -> Result<Option<String>, ShareError> {
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
fn apply_extra(
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

fn read_label(r: &mut Layout, at: &str, labels: &mut Vec<String>) -> Result<String, ShareError> {
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

fn read_delivery_list(r: &mut Layout, at: &str, brokers: &[String]) -> Result<Vec<String>, ShareError> {
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

// ---------------------------------------------------------------------------------------------------------
// The contract's rules
// ---------------------------------------------------------------------------------------------------------

/// Check the scenario exactly as a scenario file is checked, by going through its contract JSON. The result
/// is the parsed scenario, so a link holds nothing a file could not (e.g. a delivery list names each broker
/// once).
fn validate(state: ShareState) -> Result<ShareState, ShareError> {
    let scenario = parse_scenario(&state.scenario.to_json()).map_err(ShareError::InvalidScenario)?;
    Ok(ShareState { scenario, ..state })
}
