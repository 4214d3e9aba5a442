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
//!       bit 5 flush is manual, bit 6 a release byte follows the flag bytes, bit 7 zero
//!   c1: bits 0-2 min_insync_replicas, bits 3-5 number of flags n, bit 6 a knobs byte follows the release,
//!       bit 7 zero (c0 bit 3 set: unclean election on; clear: the release's default unless the knobs say off)
//!   flag bytes: ceil(n / 4) bytes holding n 2-bit indices into Flag::ALL (0 kafka-7415, 1 kafka-7128,
//!       2 kafka-7164, 3 kip-320), first flag in the lowest bits; unused bits zero
//!   release (only with c0 bit 6; links made before it have bit 6 clear and still read): 0xff and the
//!       kafka_version as a string (`3.3`, `4.0.1`); links made before the release lines hold one byte, an
//!       index into that time's list (0 0.10.2, 1 0.11.0, 2 1.0, 3 1.1, 4 2.0 (read as 2.0.0), 5 2.1, 6 2.4, 7 2.8, 8 kraft,
//!       read as 3.6)
//!   knobs (only with c1 bit 6, never 0): bit 0 unclean_leader_election is false, bits 1-2
//!       eligible_leader_replicas (1 false, 2 true), bit 3 an inter_broker_protocol_version string follows,
//!       bit 4 a log_message_format_version string follows (in that order), bits 5-6 metadata_mode (1
//!       zookeeper, 2 kraft; links made before it have them clear: the release's own); bit 7 zero
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

use crate::scenario::{parse_scenario, Scenario, ScenarioError};
use crate::variant::Variant;

mod bytes;
mod envelope;
mod read;
mod write;

pub(crate) use envelope::crc32;
use envelope::{base64url_decode, base64url_encode, inflate, open, seal, DEFLATE_LEVEL, FLAG_DEFLATED};
use read::read_layout;
use write::write_layout;

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

/// Whether a link written for `layout` as `payload` can be opened: the reader's size limits, applied where
/// links are written, so that the page never offers a link Epochlab itself refuses. (A payload of repeated
/// prose can be short and still unpack to more than [`MAX_LAYOUT`].)
pub fn check_link(layout: &[u8], payload: &str) -> Result<(), ShareError> {
    if payload.len() > MAX_PAYLOAD {
        return Err(ShareError::Oversized(format!("{} characters, the limit is {MAX_PAYLOAD}", payload.len())));
    }
    if layout.len() > MAX_LAYOUT {
        return Err(inflate_error(true));
    }
    Ok(())
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

/// Raw DEFLATE unpacked to at most [`MAX_LAYOUT`] bytes (miniz_oxide; the web app has the browser's).
pub fn inflate_limited(deflated: &[u8]) -> Result<Vec<u8>, ShareError> {
    inflate(deflated)
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
// The contract's rules
// ---------------------------------------------------------------------------------------------------------

/// Check the scenario exactly as a scenario file is checked, by going through its contract JSON. The result
/// is the parsed scenario, so a link holds nothing a file could not (e.g. a delivery list names each broker
/// once).
fn validate(state: ShareState) -> Result<ShareState, ShareError> {
    let scenario = parse_scenario(&state.scenario.to_json()).map_err(ShareError::InvalidScenario)?;
    Ok(ShareState { scenario, ..state })
}
