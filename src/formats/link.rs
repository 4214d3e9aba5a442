//! What the address says: the share link's fragment (`#s=<payload>&embed=view`) holds a [`Snapshot`], and
//! the page keeps the fragment up to date. Pure, tested natively; `startup` decides what a link opens, and
//! the app reads and writes `location.hash`.

use epochlab_core::share::{self, Content, ShareError};

use crate::formats::snapshot::Snapshot;

/// How the page is embedded, from `embed=` in the fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedMode {
    /// `embed=view` (or a bare `embed`): read-only.
    View,
    /// `embed=edit`: the reader may change the scenario (nothing is saved).
    Edit,
    /// `embed=lesson`: a compact lesson (with `lesson=<id>`) for a blog post; nothing is saved.
    Lesson,
}

impl EmbedMode {
    pub fn param(self) -> &'static str {
        match self {
            EmbedMode::View => "embed=view",
            EmbedMode::Edit => "embed=edit",
            EmbedMode::Lesson => "embed=lesson",
        }
    }
}

/// The fragment's parameters.
#[derive(Debug, PartialEq)]
pub struct LinkParams {
    /// The embed mode, if any.
    pub embed: Option<EmbedMode>,
    /// The share payload (`s=`), if any.
    pub payload: Option<String>,
    /// `origin=`: the only origin an embed follows messages from, if given (percent-decoded).
    pub origin: Option<String>,
    /// `lesson=<id>&step=<n>`: the lesson to open and its step (0-based here; `n` counts from 1).
    pub lesson: Option<(String, usize)>,
}

/// Decode `%XX` escapes (an origin in a link is often written `https%3A%2F%2Fblog.example`); a malformed
/// escape stays as it is.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `origin=` and `proof=` parameters of `hash`, to keep in every fragment the page writes (so that a
/// reload still follows only that origin, and a bounded-proof stamp stays on the link).
pub fn kept_params(hash: &str) -> String {
    let kept = hash.trim_start_matches('#').split('&').filter(|p| p.starts_with("origin=") || p.starts_with("proof="));
    kept.map(|p| format!("&{p}")).collect()
}

/// `hash` (without its `#`) without its share payload (`s=`): every other parameter kept.
pub fn without_payload(hash: &str) -> String {
    let rest: Vec<&str> =
        hash.trim_start_matches('#').split('&').filter(|p| !p.is_empty() && !p.starts_with("s=")).collect();
    rest.join("&")
}

/// The `proof=` parameter of `hash` (a bounded-proof stamp), as `&proof=…`, or empty.
pub fn proof_param(hash: &str) -> String {
    let found = hash.trim_start_matches('#').split('&').find(|p| p.starts_with("proof="));
    found.map_or_else(String::new, |p| format!("&{p}"))
}

/// `hash` (without its `#`) with its bounded-proof stamp replaced by `stamp`.
pub fn with_proof(hash: &str, stamp: &str) -> String {
    let rest: Vec<&str> =
        hash.trim_start_matches('#').split('&').filter(|p| !p.is_empty() && !p.starts_with("proof=")).collect();
    let mut fragment = rest.join("&");
    if !fragment.is_empty() {
        fragment.push('&');
    }
    fragment + "proof=" + stamp
}

/// The lesson's part of the fragment (`&lesson=<id>&step=<n>`), empty without a lesson.
pub fn lesson_params(lesson: Option<String>) -> String {
    lesson.map_or_else(String::new, |l| format!("&{l}"))
}

/// Split `#s=…&embed=view` into its parameters (unknown ones are ignored).
pub fn params(hash: &str) -> LinkParams {
    let mut out = LinkParams { embed: None, payload: None, origin: None, lesson: None };
    let mut step = 0;
    for part in hash.trim_start_matches('#').split('&') {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        match key {
            "s" => out.payload = Some(value.to_string()),
            "embed" => {
                out.embed = Some(match value {
                    "edit" => EmbedMode::Edit,
                    "lesson" => EmbedMode::Lesson,
                    _ => EmbedMode::View,
                })
            }
            "origin" => out.origin = Some(percent_decode(value)),
            "lesson" if !value.is_empty() => out.lesson = Some((percent_decode(value), 0)),
            "step" => step = value.parse::<usize>().unwrap_or(1).clamp(1, 1000) - 1,
            _ => {}
        }
    }
    if let Some((_, s)) = out.lesson.as_mut() {
        *s = step;
    }
    out
}

/// What a compressed link holds, unpacked by the browser before the page starts (`None` when the address
/// holds no compressed link, `browser::compress::unpack`). See [`open_link`].
pub type Unpacked = Option<Result<Vec<u8>, ShareError>>;

/// The snapshot a link holds, given what `browser::compress::unpack` made of it.
pub fn open_link(payload: &str, unpacked: Unpacked) -> Result<Snapshot, ShareError> {
    match share::open_payload(payload)? {
        Content::Layout(layout) => share::from_layout(&layout),
        Content::Deflated(_) => share::from_layout(&unpacked.unwrap_or(Err(share::inflate_error(false)))?),
    }
}

/// The fragment that reproduces a snapshot (and the embed mode), without the `#`, uncompressed: for where a
/// link is needed at once. `browser::compress::compact_fragment` is the one to show and share.
pub fn fragment(snapshot: &Snapshot, embed: Option<EmbedMode>) -> String {
    fragment_of(&share::layout(snapshot), None, embed)
}

/// Why a fragment's link would not open, checked against the reader's own limits ([`share::check_link`]):
/// too long, or unpacking to more than a link may hold. `None` when it opens.
pub fn unopenable(fragment: &str, snapshot: &Snapshot) -> Option<ShareError> {
    let payload = params(fragment).payload?;
    share::check_link(&share::layout(snapshot), &payload).err()
}

/// What the address bar shows for a fragment: the fragment itself, or, for a link that would not open, no
/// scenario at all (a reload then opens the saved working scenario instead of failing on the link).
pub fn address_fragment(fragment: String, snapshot: &Snapshot, embed: Option<EmbedMode>) -> String {
    if unopenable(&fragment, snapshot).is_some() {
        embed.map_or_else(String::new, |e| e.param().to_string())
    } else {
        fragment
    }
}

pub fn fragment_of(layout: &[u8], deflated: Option<&[u8]>, embed: Option<EmbedMode>) -> String {
    with_embed(format!("s={}", share::payload(layout, deflated)), embed)
}

/// A fragment made without an embed mode, with one (so that one encoding serves both links).
pub fn with_embed(mut fragment: String, embed: Option<EmbedMode>) -> String {
    if let Some(e) = embed {
        fragment.push('&');
        fragment.push_str(e.param());
    }
    fragment
}

/// `<iframe>` code for a blog post, given the snapshot's fragment in [`EmbedMode::View`].
pub fn embed_code(page: &str, snapshot: &Snapshot, view_fragment: &str) -> String {
    let src = format!("{page}#{view_fragment}");
    let title = crate::formats::export::xml_escape(&format!("Epochlab: {}", snapshot.scenario.name));
    let rows = snapshot.scenario.brokers.len() as u32;
    // The timeline, then the broker rows of up to two variants side by side (a second row of panels beyond).
    let height = 440 + rows * 90 * if snapshot.variants.len() > 2 { 2 } else { 1 };
    format!(
        r#"<iframe src="{}" title="{title}" width="100%" height="{height}" style="border:0" loading="lazy"></iframe>"#,
        crate::formats::export::xml_escape(&src)
    )
}

/// The iframe that embeds a lesson at step `step` (counted from 1, as the lesson panel shows it).
pub fn lesson_embed_code(page: &str, id: &str, title: &str, step: usize) -> String {
    let src = format!("{page}#lesson={id}&step={step}&embed=lesson");
    let title = crate::formats::export::xml_escape(&format!("Epochlab lesson: {title}"));
    format!(
        r#"<iframe src="{}" title="{title}" width="100%" height="980" style="border:0" loading="lazy"></iframe>"#,
        crate::formats::export::xml_escape(&src)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_payload_keeps_every_other_parameter() {
        assert_eq!(without_payload("#s=1abc&lesson=x&step=2&proof=p1"), "lesson=x&step=2&proof=p1");
        assert_eq!(without_payload("#embed=edit&s=1abc&origin=a"), "embed=edit&origin=a");
        assert_eq!(without_payload("#s=1abc"), "");
    }

    #[test]
    fn a_lesson_embeds_at_its_step_with_its_title_escaped() {
        let code = lesson_embed_code("https://x.example/epochlab/", "kafka-today", "Kafka <today> & ELR", 3);
        assert!(
            code.contains(r#"src="https://x.example/epochlab/#lesson=kafka-today&amp;step=3&amp;embed=lesson""#),
            "{code}"
        );
        assert!(code.contains(r#"title="Epochlab lesson: Kafka &lt;today&gt; &amp; ELR""#), "{code}");
        assert_eq!(params("#lesson=kafka-today&step=3&embed=lesson").embed, Some(EmbedMode::Lesson));
    }
    use epochlab_core::{presets, Variant};

    fn landing() -> Snapshot {
        Snapshot {
            scenario: presets::default_scenario(),
            variants: vec![Variant::HwTruncation, Variant::Kip279],
            cursor: Some(9),
        }
    }

    #[test]
    fn fragment_parameters_are_read_in_any_order() {
        assert_eq!(params(""), LinkParams { embed: None, payload: None, origin: None, lesson: None });
        assert_eq!(
            params("#embed=edit&s=abc"),
            LinkParams { embed: Some(EmbedMode::Edit), payload: Some("abc".into()), origin: None, lesson: None }
        );
        let bare = params("#s=xyz&embed");
        assert_eq!((bare.embed, bare.payload.as_deref()), (Some(EmbedMode::View), Some("xyz")));
        assert_eq!(params("#other=1").payload, None);
        let framed = "#s=1&embed=view&origin=https%3A%2F%2Fblog.example%3A8443";
        assert_eq!(params(framed).origin.as_deref(), Some("https://blog.example:8443"));
        assert_eq!(params("#origin=http://a.test").origin.as_deref(), Some("http://a.test"));
        assert_eq!(params("#origin=%zz%4").origin.as_deref(), Some("%zz%4"), "a bad escape stays");
        assert_eq!(kept_params(framed), "&origin=https%3A%2F%2Fblog.example%3A8443");
        assert_eq!(kept_params("#s=1&embed=view"), "");
    }

    #[test]
    fn a_bounded_proof_stamp_is_kept_replaced_and_shared() {
        let hash = "#s=1abc&proof=1~old&origin=x";
        assert_eq!(kept_params(hash), "&proof=1~old&origin=x");
        assert_eq!(proof_param(hash), "&proof=1~old");
        assert_eq!(proof_param("#s=1abc"), "");
        assert_eq!(with_proof(hash, "1~new"), "s=1abc&origin=x&proof=1~new");
        assert_eq!(with_proof("", "1~new"), "proof=1~new");
        assert_eq!(params(hash).payload.as_deref(), Some("1abc"), "the stamp leaves the scenario alone");
    }

    #[test]
    fn a_lesson_link_names_the_lesson_and_its_step_counted_from_one() {
        let p = params("#step=3&lesson=committed-record-lost&embed=lesson");
        assert_eq!(p.lesson, Some(("committed-record-lost".to_string(), 2)));
        assert_eq!(p.embed, Some(EmbedMode::Lesson));
        assert_eq!(params("#lesson=x").lesson, Some(("x".to_string(), 0)), "no step: the first");
        assert_eq!(params("#lesson=x&step=zero").lesson, Some(("x".to_string(), 0)));
        assert_eq!(params("#lesson=&step=2").lesson, None);
        assert_eq!(lesson_params(Some("lesson=x&step=2".into())), "&lesson=x&step=2");
    }

    #[test]
    fn a_link_holds_the_whole_snapshot() {
        let mut snapshot = landing();
        snapshot.variants.push(Variant::Kip101);
        snapshot.cursor = None;
        let fragment = fragment(&snapshot, Some(EmbedMode::Edit));
        assert!(fragment.ends_with("&embed=edit"));
        let payload = params(&fragment).payload.expect("a payload");
        assert_eq!(open_link(&payload, None), Ok(snapshot));
    }

    #[test]
    fn the_embed_code_is_an_iframe_with_a_title_and_lazy_loading() {
        let s = landing();
        let code = embed_code("https://example.org/epochlab/", &s, &fragment(&s, Some(EmbedMode::View)));
        assert!(code.starts_with(r#"<iframe src="https://example.org/epochlab/#s="#));
        assert!(code.contains("&amp;embed=view"));
        assert!(code.contains(r#"title="Epochlab: KIP-101 scenario 1: a committed record lost""#));
        assert!(code.contains(r#"loading="lazy""#));
    }

    #[test]
    fn a_compact_fragment_is_the_plain_one_unless_compression_shortens_it() {
        let s = landing();
        let layout = share::layout(&s);
        assert_eq!(fragment_of(&layout, None, None), fragment(&s, None));
        let deflated = share::encode(&s);
        assert_eq!(fragment_of(&layout, Some(&[0u8; 2000]), None), fragment(&s, None), "a longer result is not used");
        let ok = share::open_payload(&deflated);
        assert!(matches!(ok, Ok(Content::Deflated(_))));
        let Ok(Content::Deflated(bytes)) = ok else { unreachable!() };
        let compact = fragment_of(&layout, Some(&bytes), Some(EmbedMode::Edit));
        assert_eq!(compact, format!("s={deflated}&embed=edit"));
        assert!(compact.len() < fragment(&s, Some(EmbedMode::Edit)).len());
    }

    #[test]
    fn a_link_too_long_to_open_is_kept_out_of_the_address_bar() {
        let mut s = landing();
        assert_eq!(unopenable(&fragment(&s, None), &s), None);
        assert_eq!(address_fragment(fragment(&s, None), &s, None), fragment(&s, None));
        s.scenario.description = "x".repeat(share::MAX_PAYLOAD);
        let long = fragment(&s, Some(EmbedMode::Edit));
        assert!(unopenable(&long, &s).is_some());
        assert_eq!(address_fragment(long.clone(), &s, Some(EmbedMode::Edit)), "embed=edit");
        assert_eq!(address_fragment(long, &s, None), "");
        // Short once compressed, but more than a link may unpack to: refused as the reader would.
        s.scenario.description = "x".repeat(1_200_000);
        let deflated = format!("s={}", share::encode(&s));
        assert!(deflated.len() < share::MAX_PAYLOAD);
        let why = unopenable(&deflated, &s).expect("refused").to_string();
        assert!(why.contains("unpacks to more than"), "{why}");
        assert_eq!(address_fragment(deflated, &s, None), "");
    }
}
