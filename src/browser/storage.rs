//! The working scenario survives a reload: its [`Snapshot`] is kept in localStorage in its JSON form, next to
//! "My scenarios" ([`Library`]). Reading them back, and what happens when they cannot be read, is the start's
//! business (`startup`).
//!
//! Storage may be missing, blocked (a browser set to block site data, a frame from another site) or full: the
//! getter itself can throw. Nothing here panics; every write says whether it worked.

use wasm_bindgen::JsValue;

use crate::formats::library::Library;
use crate::formats::snapshot::{self, Snapshot};

/// The localStorage key (versioned, so a future format can tell old values apart).
pub const KEY: &str = "epochlab.working.v1";
/// "My scenarios".
pub const LIBRARY_KEY: &str = "epochlab.library.v1";
/// Where a library that cannot be read at all is moved, so that nothing writes over it.
pub const UNREADABLE_LIBRARY_KEY: &str = "epochlab.library.v1.unreadable";

/// Whether the text panel is open (a preference, not part of the scenario).
pub const TEXT_PANEL_KEY: &str = "epochlab.text-panel.v1";

/// The lesson progress.
pub const PROGRESS_KEY: &str = "epochlab.lessons.v1";

/// The lesson being written in the builder (its file's text).
pub const DRAFT_KEY: &str = "epochlab.lesson-draft.v1";

/// The author's kept lessons (listed in My scenarios), and where unreadable ones are set aside.
pub const MINE_KEY: &str = "epochlab.my-lessons.v1";
const MINE_ASIDE_KEY: &str = "epochlab.my-lessons.v1.unreadable";

/// In this tab's sessionStorage: the link the address still held when the page went away, though the saved
/// working copy is newer (the address is rewritten only once edits pause).
pub const STALE_LINK_KEY: &str = "epochlab.stale-link.v1";

/// Records the stale link (nothing is lost if the browser refuses: the address then opens that link).
pub fn record_stale_link(payload: &str) {
    if let Some(s) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) {
        let _ = s.set_item(STALE_LINK_KEY, payload);
    }
}

/// No stale link for this tab: the address is to be opened as it is.
pub fn forget_stale_link() {
    if let Some(s) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) {
        let _ = s.remove_item(STALE_LINK_KEY);
    }
}

/// The stale link recorded before this start, removed: it is read once.
pub fn take_stale_link() -> Option<String> {
    let s = web_sys::window()?.session_storage().ok().flatten()?;
    let link = s.get_item(STALE_LINK_KEY).ok().flatten();
    let _ = s.remove_item(STALE_LINK_KEY);
    link
}

/// The page's localStorage, if the browser lets the page have one.
fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// What the page may do with storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read and written.
    Works,
    /// Read, but full: what is stored opens, and a write may fail (each failure is told).
    Full,
    /// Not to be had (a browser set to block site data, a frame from another site).
    Blocked,
}

/// What storage allows (a test write, removed at once).
pub fn access() -> Access {
    let Some(storage) = local() else { return Access::Blocked };
    let probe = "epochlab.probe";
    let written = storage.set_item(probe, "1");
    let _ = storage.remove_item(probe);
    match written {
        Ok(()) => Access::Works,
        Err(e) if reason(&e) == FULL => Access::Full,
        Err(_) => Access::Blocked,
    }
}

/// Why a write failed when storage is full.
const FULL: &str = "the browser's storage for this site is full";

fn get(key: &str) -> Option<String> {
    local()?.get_item(key).ok().flatten()
}

/// Why a write failed, in words ("QuotaExceededError").
fn reason(error: &JsValue) -> String {
    let name = js_sys::Reflect::get(error, &"name".into()).ok().and_then(|n| n.as_string());
    match name.as_deref() {
        Some("QuotaExceededError") => FULL.to_string(),
        Some(other) => format!("the browser refused ({other})"),
        None => "the browser refused".to_string(),
    }
}

fn set(key: &str, value: &str) -> Result<(), String> {
    let storage = local().ok_or("this browser keeps no site data")?;
    storage.set_item(key, value).map_err(|e| reason(&e))
}

/// The stored working scenario, if any.
pub fn load() -> Option<String> {
    get(KEY)
}

/// Store a snapshot; a full or refused storage keeps the last value and says why.
pub fn save(snapshot: &Snapshot) -> Result<(), String> {
    set(KEY, &snapshot::to_json(snapshot))
}

/// The stored library's text, if any.
pub fn load_library() -> Option<String> {
    get(LIBRARY_KEY)
}

pub fn save_library(library: &Library) -> Result<(), String> {
    set(LIBRARY_KEY, &library.to_json())
}

/// Move a library that cannot be read out of the way (kept, never written over).
pub fn set_aside_library(text: &str) -> Result<(), String> {
    set(UNREADABLE_LIBRARY_KEY, text)?;
    local().map(|s| s.remove_item(LIBRARY_KEY));
    Ok(())
}

/// Whether the user left the text panel open.
pub fn text_panel_open() -> bool {
    get(TEXT_PANEL_KEY).as_deref() == Some("open")
}

/// Remember whether the text panel is open; a refused write only forgets the choice.
pub fn save_text_panel(open: bool) {
    let _ = set(TEXT_PANEL_KEY, if open { "open" } else { "closed" });
}

/// The stored lesson progress's text, if any.
pub fn load_progress() -> Option<String> {
    get(PROGRESS_KEY)
}

pub fn save_progress(progress: &crate::model::learn::Progress) -> Result<(), String> {
    set(PROGRESS_KEY, &progress.to_json())
}

/// The lesson being written, as it was left.
pub fn load_draft() -> Option<String> {
    get(DRAFT_KEY)
}

pub fn save_draft(text: &str) -> Result<(), String> {
    set(DRAFT_KEY, text)
}

/// The kept lessons as stored.
pub fn load_mine() -> Option<String> {
    get(MINE_KEY)
}

pub fn save_mine(json: &str) -> Result<(), String> {
    set(MINE_KEY, json)
}

/// Stored lessons that could not be read, kept aside rather than written over.
pub fn set_aside_mine(text: &str) {
    let _ = set(MINE_ASIDE_KEY, text);
}
