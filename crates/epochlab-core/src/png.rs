//! A scenario carried inside a PNG, as the SVG carries it in its metadata: an `iTXt` chunk (uncompressed
//! UTF-8 text: the PNG standard, section 11.3.4.5) right after `IHDR`, so that dropping an exported picture back on Epochlab
//! opens its scenario. Pure byte work, tested natively; the browser draws the pixels.

/// Every PNG starts with these eight bytes.
pub const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// Whether `bytes` start like a PNG.
pub fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(&SIGNATURE)
}

/// One chunk: its type and data.
struct Chunk<'a> {
    kind: &'a [u8],
    data: &'a [u8],
    /// Offset just past the chunk (its CRC included).
    end: usize,
}

/// The chunk at `at`, if it is whole.
fn chunk_at(bytes: &[u8], at: usize) -> Option<Chunk<'_>> {
    let len = u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize;
    let kind = bytes.get(at + 4..at + 8)?;
    let data = bytes.get(at + 8..at.checked_add(8)?.checked_add(len)?)?;
    let end = at + 12 + len;
    (end <= bytes.len()).then_some(Chunk { kind, data, end })
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 12);
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crate::share::crc32(&out[4..]).to_be_bytes());
    out
}

/// `png` with `text` under `keyword` in an `iTXt` chunk after `IHDR`. `Err` when `png` is not a PNG.
pub fn with_text(png: &[u8], keyword: &str, text: &str) -> Result<Vec<u8>, String> {
    let header = is_png(png).then(|| chunk_at(png, SIGNATURE.len())).flatten();
    let Some(ihdr) = header.filter(|c| c.kind == b"IHDR") else { return Err("the picture is not a PNG".to_string()) };
    // keyword, NUL, compression flag 0, method 0, empty language tag, NUL, empty translated keyword, NUL.
    let mut data = Vec::with_capacity(keyword.len() + text.len() + 5);
    data.extend_from_slice(keyword.as_bytes());
    data.extend_from_slice(&[0, 0, 0, 0, 0]);
    data.extend_from_slice(text.as_bytes());
    let mut out = Vec::with_capacity(png.len() + data.len() + 12);
    out.extend_from_slice(&png[..ihdr.end]);
    out.extend(chunk(b"iTXt", &data));
    out.extend_from_slice(&png[ihdr.end..]);
    Ok(out)
}

/// The text under `keyword` in an uncompressed `iTXt` or a `tEXt` chunk, if any.
pub fn text_of(png: &[u8], keyword: &str) -> Option<String> {
    if !is_png(png) {
        return None;
    }
    let mut at = SIGNATURE.len();
    while let Some(c) = chunk_at(png, at) {
        if let Some(text) = keyword_text(&c, keyword) {
            return Some(text);
        }
        if c.kind == b"IEND" {
            break;
        }
        at = c.end;
    }
    None
}

fn keyword_text(c: &Chunk<'_>, keyword: &str) -> Option<String> {
    let rest = c.data.strip_prefix(keyword.as_bytes())?.strip_prefix(&[0])?;
    let text = match c.kind {
        b"tEXt" => rest,
        // Uncompressed only (flag 0), then the language tag and the translated keyword, each NUL-ended.
        b"iTXt" => {
            let rest = rest.strip_prefix(&[0, 0])?;
            let after_tag = &rest[rest.iter().position(|b| *b == 0)? + 1..];
            &after_tag[after_tag.iter().position(|b| *b == 0)? + 1..]
        }
        _ => return None,
    };
    String::from_utf8(text.to_vec()).ok()
}

/// The width and height `IHDR` gives, in pixels.
pub fn size(png: &[u8]) -> Option<(u32, u32)> {
    let ihdr = is_png(png).then(|| chunk_at(png, SIGNATURE.len())).flatten().filter(|c| c.kind == b"IHDR")?;
    let word = |i: usize| Some(u32::from_be_bytes(ihdr.data.get(i..i + 4)?.try_into().ok()?));
    Some((word(0)?, word(4)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1×1 PNG.
    fn tiny() -> Vec<u8> {
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&1u32.to_be_bytes());
        ihdr.extend_from_slice(&1u32.to_be_bytes());
        ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
        let mut png = SIGNATURE.to_vec();
        png.extend(chunk(b"IHDR", &ihdr));
        png.extend(chunk(b"IDAT", &[0x78, 0x9c, 0x63, 0, 1, 0, 0, 5, 0, 1]));
        png.extend(chunk(b"IEND", &[]));
        png
    }

    #[test]
    fn a_scenario_round_trips_through_an_itxt_chunk_after_ihdr() {
        let text = r#"{"scenario": {"name": "Déjà vu ✓"}}"#;
        let png = with_text(&tiny(), "epochlab-scenario", text).unwrap();
        assert_eq!(text_of(&png, "epochlab-scenario").as_deref(), Some(text));
        assert_eq!(text_of(&png, "other"), None);
        assert_eq!(text_of(&tiny(), "epochlab-scenario"), None);
        // The chunk sits right after IHDR, with a valid CRC, and the rest is untouched.
        let itxt = chunk_at(&png, 33).expect("a chunk after IHDR");
        assert_eq!(itxt.kind, b"iTXt");
        let stored = u32::from_be_bytes(png[itxt.end - 4..itxt.end].try_into().unwrap());
        assert_eq!(stored, crate::share::crc32(&png[37..itxt.end - 4]));
        assert_eq!(&png[itxt.end..], &tiny()[33..]);
        assert_eq!(size(&png), Some((1, 1)));
    }

    #[test]
    fn a_text_chunk_is_read_too_and_damage_is_never_a_panic() {
        let mut png = tiny();
        let text = b"epochlab-scenario\0{}".to_vec();
        png.splice(33..33, chunk(b"tEXt", &text));
        assert_eq!(text_of(&png, "epochlab-scenario").as_deref(), Some("{}"));
        for cut in 0..png.len() {
            let _ = text_of(&png[..cut], "epochlab-scenario");
            let _ = size(&png[..cut]);
        }
        assert!(with_text(b"GIF89a", "k", "t").is_err());
        assert_eq!(text_of(b"not a png", "k"), None);
    }
}
