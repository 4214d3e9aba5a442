//! A lesson shared whole in a link: `#lesson=~<payload>&step=<n>`. A shipped lesson is named by its id
//! (`#lesson=committed-record-lost`); an author's lesson travels inline, its file's JSON framed as a share
//! link's scenario is (`share`: a version character, then base64url of flags, length, content and CRC-32,
//! the content raw DEFLATE when that is shorter). The `~` tells the two apart: no shipped id has one.
//!
//! The reader's limits hold before anything is parsed: at most `share::MAX_PAYLOAD` characters, unpacking to
//! at most `share::MAX_LAYOUT` bytes, a checksum that catches a changed character, and then the lesson reader and
//! `validate`, as for a shipped file.

use serde_json::Value;

use crate::share::{self, Content, ShareError};

/// What starts an inline lesson's reference.
pub const INLINE: char = '~';

/// The payload of an inline reference (`~<payload>`); `None` for a shipped lesson's id.
pub fn inline_payload(reference: &str) -> Option<&str> {
    reference.strip_prefix(INLINE)
}

/// The reference (`~<payload>`) that carries a lesson file's text, its JSON written without spaces.
/// Refused when it is not JSON, or when the reader would refuse the link for its size.
pub fn encode(text: &str) -> Result<String, String> {
    let compact = compact(text)?;
    reference(&compact, Some(&miniz_oxide::deflate::compress_to_vec(&compact, 10)))
}

/// A lesson file's JSON without spaces, as a link carries it.
pub fn compact(text: &str) -> Result<Vec<u8>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    Ok(value.to_string().into_bytes())
}

/// The reference for [`compact`] text and, where the caller could compress it, the same as raw DEFLATE
/// (the web app has the browser's): the shorter is framed.
pub fn reference(compact: &[u8], deflated: Option<&[u8]>) -> Result<String, String> {
    let payload = share::payload(compact, deflated);
    share::check_link(compact, &payload).map_err(|e| lesson_words(&e))?;
    Ok(format!("{INLINE}{payload}"))
}

/// Check an inline payload's size, version, framing and checksum: its content, still to unpack when
/// deflated (the web app unpacks with the browser's own DEFLATE).
pub fn open(payload: &str) -> Result<Content, String> {
    if payload.is_empty() {
        return Err("the link holds no lesson at all".into());
    }
    share::open_payload(payload).map_err(|e| lesson_words(&e))
}

/// The lesson file's text in unpacked content.
pub fn text_of(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|_| "its lesson is not UTF-8 text".into())
}

/// The lesson file's text an inline payload holds (natively: the CLI and the tests).
pub fn decode(payload: &str) -> Result<String, String> {
    match open(payload)? {
        Content::Layout(bytes) => text_of(bytes),
        Content::Deflated(bytes) => text_of(share::inflate_limited(&bytes).map_err(|e| lesson_words(&e))?),
    }
}

/// A share error in a lesson's words (the share format's own speak of the scenario a link holds).
pub fn lesson_words(e: &ShareError) -> String {
    e.to_string().replace("its scenario", "its lesson")
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::share::MAX_PAYLOAD;

    const LESSON: &str = r#"{
        "id": "mine", "title": "Mine", "preset": "kip101-scenario-1", "variants": ["hw-truncation"],
        "steps": [{"explain": "A <script>alert(1)</script> is only text."}], "takeaway": "T."
    }"#;

    #[test]
    fn an_inline_lesson_round_trips_compactly() {
        let reference = encode(LESSON).unwrap();
        let payload = inline_payload(&reference).expect("inline");
        assert!(payload.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{payload}");
        let text = decode(payload).unwrap();
        assert!(!text.contains("\n"), "written without spaces: {text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), serde_json::from_str::<Value>(LESSON).unwrap());
        assert_eq!(inline_payload("committed-record-lost"), None);
    }

    #[test]
    fn a_changed_cut_or_empty_lesson_link_is_refused_before_reading() {
        let reference = encode(LESSON).unwrap();
        let payload = inline_payload(&reference).unwrap();
        let mut changed = payload.to_string();
        let last = if changed.ends_with('A') { "B" } else { "A" };
        changed.replace_range(changed.len() - 3..changed.len() - 2, last);
        assert!(decode(&changed).is_err());
        let cut = decode(&payload[..payload.len() / 2]).unwrap_err();
        assert!(cut.contains("cut short"), "{cut}");
        assert_eq!(decode("").unwrap_err(), "the link holds no lesson at all");
        assert!(encode("not json").unwrap_err().starts_with("not JSON"));
    }

    #[test]
    fn a_lesson_too_large_for_a_link_is_refused_where_it_is_written() {
        // Text that does not compress: a link of more than MAX_PAYLOAD characters.
        let mut noise = String::new();
        let mut x: u32 = 1;
        while noise.len() < 2 * MAX_PAYLOAD {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            noise.push(char::from(b'a' + (x >> 16) as u8 % 26));
        }
        let big = format!(r#"{{"id":"x","text":"{noise}"}}"#);
        let refused = encode(&big).err().unwrap_or_default();
        assert!(refused.starts_with("the link is too large"), "{refused}");
    }
}
