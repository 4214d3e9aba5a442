//! What the address says: the share link's fragment (`#s=<payload>&embed=view`) decides what the page opens
//! with, and the page keeps the fragment up to date. Pure, tested natively; `app` reads and writes
//! `location.hash`.
//!
//! Rules: a valid link opens its scenario; a bad link (corrupt, truncated, oversized, from a newer version)
//! opens the landing scenario with a notice. Either way the stored working scenario is not overwritten until
//! the user edits, and an embed never writes storage at all.

use epochlab_core::share::{self, Content, ShareError, ShareState};

use crate::model::{Action, Model, Notice};
use crate::storage;

/// How the page is embedded, from `embed=` in the fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedMode {
    /// `embed=view` (or a bare `embed`): read-only.
    View,
    /// `embed=edit`: the reader may change the scenario (nothing is saved).
    Edit,
}

impl EmbedMode {
    fn param(self) -> &'static str {
        match self {
            EmbedMode::View => "embed=view",
            EmbedMode::Edit => "embed=edit",
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
}

/// Split `#s=…&embed=view` into its parameters (unknown ones are ignored).
pub fn params(hash: &str) -> LinkParams {
    let mut out = LinkParams { embed: None, payload: None };
    for part in hash.trim_start_matches('#').split('&') {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        match key {
            "s" => out.payload = Some(value.to_string()),
            "embed" => out.embed = Some(if value == "edit" { EmbedMode::Edit } else { EmbedMode::View }),
            _ => {}
        }
    }
    out
}

/// How the page starts.
pub struct Startup {
    /// The first model.
    pub model: Model,
    /// Embedded, and how.
    pub embed: Option<EmbedMode>,
    /// Whether the working scenario may be saved right away (false after opening a link, until an edit).
    pub persist_now: bool,
}

/// The model for a share state.
pub fn model_of(state: ShareState) -> Model {
    let ShareState { scenario, variants, cursor } = state;
    let mut model = Model::new(scenario, variants, None);
    let cursor = cursor.map(|c| c as usize);
    model = model.reduce(Action::SetCursor(cursor));
    if cursor.is_none() {
        model = model.reduce(Action::Home);
    }
    if let Some(p) = epochlab_core::presets::PRESETS.iter().find(|p| p.scenario() == model.scenario) {
        model.preset = Some(p.id);
    }
    model
}

/// What a compressed link holds, unpacked by the browser before the page starts (`None` when the address
/// holds no compressed link). See [`startup`].
pub type Unpacked = Option<Result<Vec<u8>, ShareError>>;

/// Unpack the address's link if it is compressed: the one step of opening a link that must wait for the
/// browser.
pub async fn unpack(hash: &str) -> Unpacked {
    let payload = params(hash).payload?;
    match share::open_payload(&payload) {
        Ok(Content::Deflated(deflated)) => Some(crate::compress::inflate(&deflated).await),
        _ => None,
    }
}

/// The share state of a link, given what [`unpack`] made of it.
fn open_link(payload: &str, unpacked: Unpacked) -> Result<ShareState, ShareError> {
    match share::open_payload(payload)? {
        Content::Layout(layout) => share::from_layout(&layout),
        Content::Deflated(_) => share::from_layout(&unpacked.unwrap_or(Err(share::inflate_error(false)))?),
    }
}

/// Decide the first model from the address's fragment, the stored working scenario and, for a compressed
/// link, what [`unpack`] made of it.
pub fn startup(hash: &str, stored: Option<String>, unpacked: Unpacked) -> Startup {
    let p = params(hash);
    let mut startup = match p.payload {
        None if p.embed.is_some() => Startup { model: Model::landing(), embed: p.embed, persist_now: false },
        None => Startup { model: storage::initial(stored), embed: None, persist_now: true },
        Some(payload) => match open_link(&payload, unpacked) {
            Ok(state) => Startup { model: model_of(state), embed: p.embed, persist_now: false },
            Err(e) => {
                let mut model = Model::landing();
                model.notice = Some(Notice {
                    error: true,
                    text: format!("This link could not be opened: {e}. The default scenario is shown instead."),
                });
                Startup { model, embed: p.embed, persist_now: false }
            }
        },
    };
    startup.model.read_only = startup.embed == Some(EmbedMode::View);
    startup
}

/// The share state of a model.
pub fn share_state(model: &Model) -> ShareState {
    ShareState {
        scenario: model.scenario.clone(),
        variants: model.variants.clone(),
        cursor: model.cursor.map(|c| c as u32),
    }
}

/// The fragment that reproduces the model (and the embed mode), without the `#`, uncompressed: for where a
/// link is needed at once. [`compact_fragment`] is the one to show and share.
pub fn fragment(model: &Model, embed: Option<EmbedMode>) -> String {
    fragment_of(&share::layout(&share_state(model)), None, embed)
}

/// [`fragment`], compressed by the browser when that makes it shorter.
pub async fn compact_fragment(model: &Model, embed: Option<EmbedMode>) -> String {
    let layout = share::layout(&share_state(model));
    let deflated = crate::compress::deflate(&layout).await;
    fragment_of(&layout, deflated.as_deref(), embed)
}

/// Whether a fragment's link is longer than any link Epochlab opens ([`share::MAX_PAYLOAD`]).
pub fn too_long(fragment: &str) -> bool {
    params(fragment).payload.is_some_and(|p| p.len() > share::MAX_PAYLOAD)
}

/// What the address bar shows for a fragment: the fragment itself, or, for a link too long to open, no
/// scenario at all (a reload then opens the saved working scenario instead of failing on the link).
pub fn address_fragment(fragment: String, embed: Option<EmbedMode>) -> String {
    if too_long(&fragment) {
        embed.map_or_else(String::new, |e| e.param().to_string())
    } else {
        fragment
    }
}

fn fragment_of(layout: &[u8], deflated: Option<&[u8]>, embed: Option<EmbedMode>) -> String {
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

/// `<iframe>` code for a blog post, given the model's fragment in [`EmbedMode::View`].
pub fn embed_code(page: &str, model: &Model, view_fragment: &str) -> String {
    let src = format!("{page}#{view_fragment}");
    let title = crate::export::xml_escape(&format!("Epochlab: {}", model.scenario.name));
    let rows = model.scenario.brokers.len() as u32;
    // The timeline, then the broker rows of up to two variants side by side (a second row of panels beyond).
    let height = 440 + rows * 90 * if model.variants.len() > 2 { 2 } else { 1 };
    format!(
        r#"<iframe src="{}" title="{title}" width="100%" height="{height}" style="border:0" loading="lazy"></iframe>"#,
        crate::export::xml_escape(&src)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::Variant;

    #[test]
    fn fragment_parameters_are_read_in_any_order() {
        assert_eq!(params(""), LinkParams { embed: None, payload: None });
        assert_eq!(
            params("#embed=edit&s=abc"),
            LinkParams { embed: Some(EmbedMode::Edit), payload: Some("abc".into()) }
        );
        assert_eq!(params("#s=xyz&embed"), LinkParams { embed: Some(EmbedMode::View), payload: Some("xyz".into()) });
        assert_eq!(params("#other=1").payload, None);
    }

    #[test]
    fn a_link_round_trips_the_whole_state() {
        let m = Model::landing()
            .reduce(Action::AddBroker)
            .reduce(Action::ToggleVariant(Variant::Kip101))
            .reduce(Action::SetCursor(Some(4)));
        let s = startup(&format!("#{}", fragment(&m, None)), None, None);
        assert_eq!(s.model.scenario, m.scenario);
        assert_eq!(s.model.variants, m.variants);
        assert_eq!(s.model.cursor, Some(4));
        assert!(!s.persist_now, "a link does not overwrite the stored scenario until the user edits");
        assert_eq!(s.embed, None);
        let before = Model::landing().reduce(Action::Home);
        assert_eq!(startup(&format!("#{}", fragment(&before, None)), None, None).model.cursor, None);
    }

    #[test]
    fn an_embed_link_is_read_only_in_view_mode() {
        let m = Model::landing();
        let s = startup(&format!("#{}", fragment(&m, Some(EmbedMode::View))), None, None);
        assert_eq!(s.embed, Some(EmbedMode::View));
        assert!(s.model.read_only);
        let s = startup(&format!("#{}", fragment(&m, Some(EmbedMode::Edit))), None, None);
        assert!(!s.model.read_only);
        assert!(!s.persist_now);
    }

    #[test]
    fn a_bad_link_opens_the_landing_scenario_with_a_notice_and_saves_nothing() {
        let stored = storage::encode(&Model::landing().reduce(Action::AddBroker));
        for bad in ["#s=", "#s=!!!!", "#s=1AAAA", &format!("#s={}", "A".repeat(70_000))] {
            let s = startup(bad, Some(stored.clone()), None);
            assert_eq!(s.model.scenario, Model::landing().scenario, "{bad}");
            assert!(
                s.model.notice.as_ref().is_some_and(|n| n.error && n.text.contains("could not be opened")),
                "{bad}"
            );
            assert!(!s.persist_now);
        }
    }

    #[test]
    fn without_a_link_the_stored_scenario_opens() {
        let m = Model::landing().reduce(Action::AddBroker);
        let s = startup("", Some(storage::encode(&m)), None);
        assert_eq!(s.model.scenario, m.scenario);
        assert!(s.persist_now);
    }

    #[test]
    fn the_embed_code_is_an_iframe_with_a_title_and_lazy_loading() {
        let m = Model::landing();
        let code = embed_code("https://example.org/epochlab/", &m, &fragment(&m, Some(EmbedMode::View)));
        assert!(code.starts_with(r#"<iframe src="https://example.org/epochlab/#s="#));
        assert!(code.contains("&amp;embed=view"));
        assert!(code.contains(r#"title="Epochlab: KIP-101 scenario 1: a committed record lost""#));
        assert!(code.contains(r#"loading="lazy""#));
    }

    #[test]
    fn a_compressed_link_opens_with_what_the_browser_unpacked() {
        let m = Model::landing().reduce(Action::AddBroker).reduce(Action::SetCursor(Some(3)));
        let state = share_state(&m);
        // `share::encode` compresses with miniz, as the browser's CompressionStream would.
        let hash = format!("#s={}", share::encode(&state));
        let Ok(Content::Deflated(_)) = share::open_payload(&hash[3..]) else {
            panic!("the landing scenario compresses")
        };
        let unpacked = Some(Ok(share::layout(&state)));
        let s = startup(&hash, None, unpacked);
        assert_eq!((s.model.scenario, s.model.cursor), (m.scenario.clone(), Some(3)));
        // What the browser could not unpack is a bad link, with the same notice.
        let s = startup(&hash, None, Some(Err(share::inflate_error(true))));
        assert_eq!(s.model.scenario, Model::landing().scenario);
        let notice = s.model.notice.expect("a notice").text;
        assert!(notice.contains("could not be opened") && notice.contains("unpacks to more than"), "{notice}");
        let s = startup(&hash, None, None);
        assert!(s.model.notice.is_some_and(|n| n.text.contains("cannot be decompressed")));
    }

    #[test]
    fn a_compact_fragment_is_the_plain_one_unless_compression_shortens_it() {
        let m = Model::landing();
        let layout = share::layout(&share_state(&m));
        assert_eq!(fragment_of(&layout, None, None), fragment(&m, None));
        let deflated = share::encode(&share_state(&m));
        assert_eq!(fragment_of(&layout, Some(&[0u8; 2000]), None), fragment(&m, None), "a longer result is not used");
        let ok = share::open_payload(&deflated);
        assert!(matches!(ok, Ok(Content::Deflated(_))));
        let Ok(Content::Deflated(bytes)) = ok else { unreachable!() };
        let compact = fragment_of(&layout, Some(&bytes), Some(EmbedMode::Edit));
        assert_eq!(compact, format!("s={deflated}&embed=edit"));
        assert!(compact.len() < fragment(&m, Some(EmbedMode::Edit)).len());
    }

    #[test]
    fn a_link_too_long_to_open_is_kept_out_of_the_address_bar() {
        let mut m = Model::landing();
        assert!(!too_long(&fragment(&m, None)));
        assert_eq!(address_fragment(fragment(&m, None), None), fragment(&m, None));
        m.scenario.description = "x".repeat(share::MAX_PAYLOAD);
        let long = fragment(&m, Some(EmbedMode::Edit));
        assert!(too_long(&long));
        assert_eq!(address_fragment(long.clone(), Some(EmbedMode::Edit)), "embed=edit");
        assert_eq!(address_fragment(long, None), "");
        assert_eq!(startup("#", None, None).model.notice, None, "an empty fragment opens without a notice");
    }
}
