//! The payload's envelope: base64url, and the frame (flags, length, content, CRC-32) around the layout.

use super::bytes::{Reader, VarintError, Writer};
use super::{corrupt, inflate_error, ShareError, MAX_LAYOUT, MAX_PAYLOAD};

// ---------------------------------------------------------------------------------------------------------
// base64url without padding (RFC 4648 §5)
// ---------------------------------------------------------------------------------------------------------

pub(super) const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

pub(super) fn base64url_encode(bytes: &[u8], out: &mut String) {
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

pub(super) fn sextet(c: u8) -> Option<u32> {
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
pub(super) struct Decoded {
    bytes: Vec<u8>,
    untidy_end: bool,
}

pub(super) fn base64url_decode(text: &str) -> Result<Decoded, ShareError> {
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

pub(super) const FLAG_DEFLATED: u8 = 1;
/// miniz's best compression: links are small, so time does not matter.
pub(super) const DEFLATE_LEVEL: u8 = 10;
pub(super) const CRC_LEN: usize = 4;

pub(super) fn seal(flags: u8, content: &[u8]) -> Vec<u8> {
    let mut frame = Writer(Vec::with_capacity(content.len() + 16));
    frame.byte(flags);
    frame.varint(content.len() as u64);
    frame.0.extend_from_slice(content);
    let crc = crc32(&frame.0);
    frame.0.extend_from_slice(&crc.to_le_bytes());
    frame.0
}

/// Check a frame and return its flags and content.
pub(super) fn open(decoded: &Decoded) -> Result<(u8, &[u8]), ShareError> {
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

pub(super) fn inflate(content: &[u8]) -> Result<Vec<u8>, ShareError> {
    use miniz_oxide::inflate::{decompress_to_vec_with_limit, TINFLStatus};
    decompress_to_vec_with_limit(content, MAX_LAYOUT).map_err(|e| inflate_error(e.status == TINFLStatus::HasMoreOutput))
}

/// CRC-32/ISO-HDLC (reflected, polynomial 0xEDB88320), bit by bit: links are small.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
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
