//! How the page starts, from the address's fragment and the stored working scenario. Pure, tested natively.
//!
//! Rules: a valid link opens its snapshot; a bad link (corrupt, truncated, oversized, from a newer version)
//! opens the landing scenario with a notice. Either way the stored working scenario is not overwritten until
//! the user edits, and an embed never writes storage at all. Without a link, the stored scenario opens, or
//! the landing one (with a notice when the stored value cannot be read).

use crate::link::{self, EmbedMode, Unpacked};
use crate::model::{Model, Notice, Page, Saving};
use crate::snapshot;

/// How the page starts.
pub struct Startup {
    /// The first model, with what the page was opened as (but not whether it is framed: the app knows).
    pub model: Model,
    /// Embedded, and how.
    pub embed: Option<EmbedMode>,
}

/// The model to start with when the address holds no link: the stored one, else the landing one.
fn from_storage(stored: Option<String>) -> Model {
    let Some(text) = stored else { return Model::landing() };
    snapshot::from_json(&text).map(Model::open).unwrap_or_else(|why| {
        let text = format!("Your saved scenario could not be read ({why}), so the default scenario is shown.");
        Model::landing().with_notice(Notice { error: true, text, undo: false })
    })
}

/// Decide the first model from the address's fragment, the stored working scenario and, for a compressed
/// link, what [`link::unpack`] made of it.
pub fn startup(hash: &str, stored: Option<String>, unpacked: Unpacked) -> Startup {
    let p = link::params(hash);
    let saving = match (&p.payload, p.embed) {
        (_, Some(_)) => Saving::Never,
        (Some(_), None) => Saving::AfterEdit,
        (None, None) => Saving::Always,
    };
    let mut model = match p.payload {
        None if p.embed.is_some() => Model::landing(),
        None => from_storage(stored),
        Some(payload) => link::open_link(&payload, unpacked).map(Model::open).unwrap_or_else(|e| {
            let text = format!("This link could not be opened: {e}. The default scenario is shown instead.");
            Model::landing().with_notice(Notice { error: true, text, undo: false })
        }),
    };
    model.page = Page { read_only: p.embed == Some(EmbedMode::View), saving, framed: false };
    Startup { model, embed: p.embed }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Action;
    use epochlab_core::share::{self, Content};
    use epochlab_core::Variant;

    fn link_to(m: &Model, embed: Option<EmbedMode>) -> String {
        format!("#{}", link::fragment(&m.snapshot(), embed))
    }

    fn stored(m: &Model) -> Option<String> {
        Some(snapshot::to_json(&m.snapshot()))
    }

    #[test]
    fn a_link_round_trips_the_whole_state() {
        let m = Model::landing()
            .after(Action::AddBroker)
            .after(Action::ToggleVariant(Variant::Kip101))
            .after(Action::SetCursor(Some(4)));
        let s = startup(&link_to(&m, None), None, None);
        assert_eq!(s.model.scenario, m.scenario);
        assert_eq!(s.model.variants, m.variants);
        assert_eq!(s.model.cursor, Some(4));
        assert_eq!(
            s.model.page.saving,
            Saving::AfterEdit,
            "a link does not overwrite the stored scenario until the user edits"
        );
        assert_eq!(s.embed, None);
        let before = Model::landing().after(Action::Home);
        assert_eq!(startup(&link_to(&before, None), None, None).model.cursor, None);
    }

    #[test]
    fn an_embed_link_is_read_only_in_view_mode() {
        let m = Model::landing();
        let s = startup(&link_to(&m, Some(EmbedMode::View)), None, None);
        assert_eq!(s.embed, Some(EmbedMode::View));
        assert!(s.model.page.read_only);
        let s = startup(&link_to(&m, Some(EmbedMode::Edit)), None, None);
        assert!(!s.model.page.read_only);
        assert_eq!(s.model.page.saving, Saving::Never, "an embed never saves");
        assert_eq!(startup("#embed=edit", None, None).model.page.saving, Saving::Never);
    }

    #[test]
    fn a_bad_link_opens_the_landing_scenario_with_a_notice_and_saves_nothing() {
        let saved = stored(&Model::landing().after(Action::AddBroker));
        for bad in ["#s=", "#s=!!!!", "#s=1AAAA", &format!("#s={}", "A".repeat(70_000))] {
            let s = startup(bad, saved.clone(), None);
            assert_eq!(s.model.scenario, Model::landing().scenario, "{bad}");
            assert!(
                s.model.notice.as_ref().is_some_and(|n| n.error && n.text.contains("could not be opened")),
                "{bad}"
            );
            assert_eq!(s.model.page.saving, Saving::AfterEdit);
        }
        assert_eq!(startup("#", None, None).model.notice, None, "an empty fragment opens without a notice");
    }

    #[test]
    fn a_compressed_link_opens_with_what_the_browser_unpacked() {
        let m = Model::landing().after(Action::AddBroker).after(Action::SetCursor(Some(3)));
        let state = m.snapshot();
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
    fn without_a_link_the_stored_scenario_opens_with_its_variants_and_cursor() {
        let m = Model::landing().after(Action::AddBroker).after(Action::SetCursor(Some(3)));
        let s = startup("", stored(&m), None);
        assert_eq!(s.model.scenario, m.scenario);
        assert_eq!(s.model.variants, m.variants);
        assert_eq!(s.model.cursor, Some(3));
        assert!(s.model.notice.is_none());
        assert_eq!(s.model.page.saving, Saving::Always);
    }

    #[test]
    fn a_preset_is_recognised_after_a_reload() {
        assert_eq!(startup("", stored(&Model::landing()), None).model.preset, Some("kip101-scenario-1"));
    }

    #[test]
    fn a_corrupt_stored_value_falls_back_to_the_landing_scenario_with_a_notice() {
        for bad in ["{", "null", r#"{"scenario": {"version": 9, "brokers": ["A"]}, "variants": []}"#] {
            let m = startup("", Some(bad.to_string()), None).model;
            assert_eq!(m.scenario, Model::landing().scenario);
            assert!(m.notice.as_ref().is_some_and(|n| n.error && n.text.contains("could not be read")), "{bad}");
        }
    }
}
