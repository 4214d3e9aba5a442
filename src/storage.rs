//! The working scenario survives a reload: its [`Snapshot`] is kept in localStorage in its JSON form. Reading
//! it back, and what happens when it cannot be read, is the start's business (`startup`).

use gloo::storage::{LocalStorage, Storage};

use crate::snapshot::{self, Snapshot};

/// The localStorage key (versioned, so a future format can tell old values apart).
pub const KEY: &str = "epochlab.working.v1";

/// The stored value, if any (storage that throws, in a third-party frame, holds nothing).
pub fn load() -> Option<String> {
    LocalStorage::raw().get_item(KEY).ok().flatten()
}

/// Store a snapshot; a full or refused storage keeps the last value.
pub fn save(snapshot: &Snapshot) {
    let _ = LocalStorage::raw().set_item(KEY, &snapshot::to_json(snapshot));
}
