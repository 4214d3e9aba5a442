//! How the page starts, from the address's fragment and the stored working scenario. Pure, tested natively.
//!
//! Rules: a valid link opens its snapshot; a bad link (corrupt, truncated, oversized, from a newer version)
//! opens the landing scenario with a notice. Either way the stored working scenario is not overwritten until
//! the user edits, and an embed never writes storage at all. Without a link, the stored scenario opens, or
//! the landing one (with a notice when the stored value cannot be read).

use crate::formats::library::Library;
use crate::formats::link::{self, EmbedMode, Unpacked};
use crate::formats::snapshot;
use crate::model::{Model, Notice, Page, Saving, Shared};

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

/// Said once when the browser keeps nothing for the page.
pub const NOTHING_KEPT: &str = "This browser blocks storage for this page: Epochlab works, but nothing will be kept \
     when you leave it (not your scenario, not My scenarios). Export your scenario as JSON to keep it.";

/// Said when storage is full at the start: what it held opened, but what changes may not be kept.
pub const STORAGE_FULL: &str =
    "This site's storage is full: what it held opened, but changes may not be kept. Export your scenario as JSON to keep it.";

/// What the stored library made of the page.
#[derive(Debug, PartialEq)]
pub enum StoredLibrary {
    /// Read (perhaps with entries kept aside, which the notice counts).
    Read(Library, Option<Notice>),
    /// Not a library at all: start empty and move the text aside (never write over it).
    Unreadable(Notice),
}

/// Read "My scenarios" from its stored text.
pub fn stored_library(text: Option<&str>) -> StoredLibrary {
    let Some(text) = text else { return StoredLibrary::Read(Library::default(), None) };
    match Library::from_json(text) {
        Ok(library) => {
            let n = library.unreadable.len();
            let notice = (n > 0).then(|| Notice {
                error: true,
                text: format!(
                    "{n} scenario(s) in My scenarios could not be read; they are kept as they were, and the others \
                     open normally."
                ),
                undo: false,
            });
            StoredLibrary::Read(library, notice)
        }
        Err(why) => StoredLibrary::Unreadable(Notice {
            error: true,
            text: format!(
                "My scenarios could not be read ({why}): it was set aside unchanged in this browser's storage, \
                 and a new list starts empty."
            ),
            undo: false,
        }),
    }
}

/// A link replaces the working scenario once the user edits: keep the stored one in the library first (when it
/// is the user's own). Returns whether the library changed.
pub fn keep_stored_before_link(model: &mut Model, stored: Option<&str>, now: f64) -> bool {
    let Some(previous) = stored.and_then(|text| snapshot::from_json(text).ok()).map(Model::open) else {
        return false;
    };
    let already = model.library.entries.iter().any(|e| e.snapshot.scenario == *previous.shown.scenario);
    if !previous.is_users() || already || previous.shown.scenario == model.shown.scenario {
        return false;
    }
    let mut library = (*model.library).clone();
    library.keep(None, previous.shown.snapshot(), now as u64);
    model.library = Shared::new(library);
    true
}

/// Decide the first model from the address's fragment, the stored working scenario and, for a compressed
/// link, what [`crate::browser::compress::unpack`] made of it.
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
    model.page = Page { read_only: p.embed == Some(EmbedMode::View), saving, ..Page::default() };
    // A lesson link (or a lesson embed) loads the lessons' module, which opens the lesson (or the list).
    model.lessons.loaded = p.lesson.is_some() || p.embed == Some(EmbedMode::Lesson);
    // The address keeps the lesson until the module has read it.
    model.lesson_params = p.lesson.map(|(id, step)| format!("lesson={id}&step={}", step + 1));
    Startup { model, embed: p.embed }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Action;
    use crate::model::ConfigAction;
    use crate::model::{CursorAction, VariantsAction};
    use epochlab_core::share::{self, Content};
    use epochlab_core::Variant;

    fn link_to(m: &Model, embed: Option<EmbedMode>) -> String {
        format!("#{}", link::fragment(&m.shown.snapshot(), embed))
    }

    fn stored(m: &Model) -> Option<String> {
        Some(snapshot::to_json(&m.shown.snapshot()))
    }

    #[test]
    fn a_link_round_trips_the_whole_state() {
        let m = Model::landing()
            .after(Action::Config(ConfigAction::AddBroker))
            .after(Action::Variants(VariantsAction::Toggle(Variant::Kip101)))
            .after(Action::Cursor(CursorAction::Set(Some(4))));
        let s = startup(&link_to(&m, None), None, None);
        assert_eq!(s.model.shown.scenario, m.shown.scenario);
        assert_eq!(s.model.shown.variants, m.shown.variants);
        assert_eq!(s.model.shown.cursor, Some(4));
        assert_eq!(
            s.model.page.saving,
            Saving::AfterEdit,
            "a link does not overwrite the stored scenario until the user edits"
        );
        assert_eq!(s.embed, None);
        let before = Model::landing().after(Action::Cursor(CursorAction::Home));
        assert_eq!(startup(&link_to(&before, None), None, None).model.shown.cursor, None);
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
        let saved = stored(&Model::landing().after(Action::Config(ConfigAction::AddBroker)));
        for bad in ["#s=", "#s=!!!!", "#s=1AAAA", &format!("#s={}", "A".repeat(70_000))] {
            let s = startup(bad, saved.clone(), None);
            assert_eq!(s.model.shown.scenario, Model::landing().shown.scenario, "{bad}");
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
        let m = Model::landing()
            .after(Action::Config(ConfigAction::AddBroker))
            .after(Action::Cursor(CursorAction::Set(Some(3))));
        let state = m.shown.snapshot();
        // `share::encode` compresses with miniz, as the browser's CompressionStream would.
        let hash = format!("#s={}", share::encode(&state));
        let Ok(Content::Deflated(_)) = share::open_payload(&hash[3..]) else {
            panic!("the landing scenario compresses")
        };
        let unpacked = Some(Ok(share::layout(&state)));
        let s = startup(&hash, None, unpacked);
        assert_eq!((s.model.shown.scenario, s.model.shown.cursor), (m.shown.scenario.clone(), Some(3)));
        // What the browser could not unpack is a bad link, with the same notice.
        let s = startup(&hash, None, Some(Err(share::inflate_error(true))));
        assert_eq!(s.model.shown.scenario, Model::landing().shown.scenario);
        let notice = s.model.notice.expect("a notice").text;
        assert!(notice.contains("could not be opened") && notice.contains("unpacks to more than"), "{notice}");
        let s = startup(&hash, None, None);
        assert!(s.model.notice.is_some_and(|n| n.text.contains("cannot be decompressed")));
    }

    #[test]
    fn without_a_link_the_stored_scenario_opens_with_its_variants_and_cursor() {
        let m = Model::landing()
            .after(Action::Config(ConfigAction::AddBroker))
            .after(Action::Cursor(CursorAction::Set(Some(3))));
        let s = startup("", stored(&m), None);
        assert_eq!(s.model.shown.scenario, m.shown.scenario);
        assert_eq!(s.model.shown.variants, m.shown.variants);
        assert_eq!(s.model.shown.cursor, Some(3));
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
            assert_eq!(m.shown.scenario, Model::landing().shown.scenario);
            assert!(m.notice.as_ref().is_some_and(|n| n.error && n.text.contains("could not be read")), "{bad}");
        }
    }

    #[test]
    fn my_scenarios_opens_keeps_unreadable_entries_aside_and_sets_an_unreadable_list_aside() {
        assert_eq!(stored_library(None), StoredLibrary::Read(Library::default(), None));
        let mut library = Library::default();
        library.keep(None, Model::landing().after(Action::Config(ConfigAction::AddBroker)).shown.snapshot(), 1);
        let text = library.to_json();
        assert_eq!(stored_library(Some(&text)), StoredLibrary::Read(library.clone(), None));
        let with_junk = format!("{}, 42]", text.trim_end_matches(']'));
        let StoredLibrary::Read(read, Some(notice)) = stored_library(Some(&with_junk)) else { panic!("read") };
        assert_eq!((read.entries, read.unreadable.len()), (library.entries, 1));
        assert!(notice.error && notice.text.contains("1 scenario(s)"), "{notice:?}");
        let StoredLibrary::Unreadable(notice) = stored_library(Some("{oops")) else { panic!("unreadable") };
        assert!(notice.text.contains("set aside unchanged"));
    }

    #[test]
    fn a_link_over_the_users_stored_scenario_keeps_it_in_my_scenarios_once() {
        let mine = Model::landing().after(Action::Config(ConfigAction::AddBroker));
        let mut s = startup(&link_to(&Model::landing(), None), stored(&mine), None);
        assert!(keep_stored_before_link(&mut s.model, stored(&mine).as_deref(), 5.0));
        assert_eq!(s.model.library.entries[0].snapshot.scenario, *mine.shown.scenario);
        assert!(!keep_stored_before_link(&mut s.model, stored(&mine).as_deref(), 6.0), "kept once");
        let mut other = startup(&link_to(&mine, None), stored(&Model::landing()), None).model;
        assert!(
            !keep_stored_before_link(&mut other, stored(&Model::landing()).as_deref(), 5.0),
            "a preset is not kept"
        );
    }
}
