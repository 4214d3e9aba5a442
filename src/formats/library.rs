//! "My scenarios": the user's own scenarios, kept in localStorage so that opening a preset, a new scenario or
//! an import never loses the one being worked on. Pure data and its JSON form, tested natively; the model
//! decides when to keep a scenario (`model::saved`), `storage` reads and writes the text.
//!
//! An entry that cannot be read (edited by hand, written by a newer version) is kept as it was, untouched,
//! and written back with the rest: reading the library never loses anything.

use std::rc::Rc;

use serde_json::Value;

use crate::formats::snapshot::{self, Snapshot};

/// A kept scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Stable within the library (the largest so far plus one).
    pub id: u64,
    /// When it was last kept, in milliseconds since the epoch.
    pub edited: u64,
    /// The scenario, with its variants and cursor.
    pub snapshot: Snapshot,
}

impl Entry {
    pub fn name(&self) -> &str {
        &self.snapshot.scenario.name
    }
}

/// Every kept scenario, the most recently kept first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Library {
    pub entries: Vec<Rc<Entry>>,
    /// Entries that could not be read, as their JSON text, kept to be written back unchanged.
    pub unreadable: Vec<String>,
}

impl Library {
    pub fn get(&self, id: u64) -> Option<&Rc<Entry>> {
        self.entries.iter().find(|e| e.id == id)
    }

    fn next_id(&self) -> u64 {
        self.entries.iter().map(|e| e.id).max().unwrap_or(0) + 1
    }

    /// Keep `snapshot` as entry `id` (replacing it), or as a new entry; returns its id.
    pub fn keep(&mut self, id: Option<u64>, snapshot: Snapshot, edited: u64) -> u64 {
        let id = id.filter(|id| self.get(*id).is_some()).unwrap_or_else(|| self.next_id());
        self.entries.retain(|e| e.id != id);
        self.entries.insert(0, Rc::new(Entry { id, edited, snapshot }));
        id
    }

    /// Remove an entry; returns it.
    pub fn remove(&mut self, id: u64) -> Option<Rc<Entry>> {
        let at = self.entries.iter().position(|e| e.id == id)?;
        Some(self.entries.remove(at))
    }

    /// Rename an entry (its scenario's name).
    pub fn rename(&mut self, id: u64, name: &str) -> bool {
        let Some(entry) = self.entries.iter_mut().find(|e| e.id == id) else { return false };
        Rc::make_mut(entry).snapshot.scenario.name = name.to_string();
        true
    }

    /// A copy of an entry named "<name> (copy)", kept first; returns its id.
    pub fn duplicate(&mut self, id: u64, edited: u64) -> Option<u64> {
        let mut snapshot = self.get(id)?.snapshot.clone();
        snapshot.scenario.name = format!("{} (copy)", snapshot.scenario.name);
        Some(self.keep(None, snapshot, edited))
    }

    /// The JSON form: an array of `{"id", "edited", "state"}` (the state is the snapshot's JSON form), then the
    /// unreadable entries as they were.
    pub fn to_json(&self) -> String {
        let readable = self.entries.iter().map(|e| {
            format!(r#"{{"id": {}, "edited": {}, "state": {}}}"#, e.id, e.edited, snapshot::to_json(&e.snapshot))
        });
        let all: Vec<String> = readable.chain(self.unreadable.iter().cloned()).collect();
        format!("[{}]", all.join(",\n"))
    }

    /// Read the JSON form. `Err` only when the whole value is not a list (then nothing should be written over
    /// it); an entry that cannot be read is kept aside in [`Library::unreadable`].
    pub fn from_json(text: &str) -> Result<Library, String> {
        let Ok(Value::Array(items)) = serde_json::from_str::<Value>(text) else {
            return Err("it is not a list of scenarios".to_string());
        };
        let mut library = Library::default();
        for item in items {
            match entry_of(&item) {
                Some(entry) => library.entries.push(Rc::new(entry)),
                None => library.unreadable.push(item.to_string()),
            }
        }
        Ok(library)
    }
}

fn entry_of(item: &Value) -> Option<Entry> {
    let id = item.get("id")?.as_u64()?;
    // Milliseconds; a fraction (written by hand) is dropped.
    let edited = item.get("edited")?.as_f64()? as u64;
    let snapshot = snapshot::from_json(&item.get("state")?.to_string()).ok()?;
    Some(Entry { id, edited, snapshot })
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::{presets, Variant};

    fn snapshot(name: &str) -> Snapshot {
        let mut scenario = presets::default_scenario();
        scenario.name = name.to_string();
        Snapshot { scenario, variants: vec![Variant::Kip279], cursor: Some(3) }
    }

    #[test]
    fn the_json_form_round_trips() {
        let mut library = Library::default();
        let a = library.keep(None, snapshot("mine"), 1_700_000_000_000);
        let b = library.keep(None, Snapshot { cursor: None, ..snapshot("other \"quoted\"") }, 5);
        assert_ne!(a, b);
        let read = Library::from_json(&library.to_json()).unwrap();
        assert_eq!(read, library);
        assert_eq!(read.entries[0].name(), "other \"quoted\"", "the most recently kept comes first");
    }

    #[test]
    fn keeping_an_entry_again_replaces_it_and_moves_it_first() {
        let mut library = Library::default();
        let a = library.keep(None, snapshot("a"), 1);
        library.keep(None, snapshot("b"), 2);
        assert_eq!(library.keep(Some(a), snapshot("a, edited"), 3), a);
        let names: Vec<&str> = library.entries.iter().map(|e| e.name()).collect();
        assert_eq!(names, ["a, edited", "b"]);
        assert_eq!(library.keep(Some(99), snapshot("c"), 4), 3, "an id that is gone gets a new one");
    }

    #[test]
    fn rename_duplicate_and_remove() {
        let mut library = Library::default();
        let a = library.keep(None, snapshot("a"), 1);
        assert!(library.rename(a, "renamed"));
        let copy = library.duplicate(a, 2).unwrap();
        assert_eq!(library.get(copy).unwrap().name(), "renamed (copy)");
        assert_eq!(library.get(copy).unwrap().snapshot.scenario.events, presets::default_scenario().events);
        assert_eq!(library.remove(a).unwrap().name(), "renamed");
        assert!(library.get(a).is_none() && !library.rename(a, "x") && library.duplicate(a, 3).is_none());
    }

    #[test]
    fn corrupt_entries_are_kept_aside_and_written_back_unchanged() {
        let mut good = Library::default();
        good.keep(None, snapshot("good"), 1);
        let good_json = good.to_json();
        let text = format!(
            r#"[{}, {{"id": 7}}, "junk", {{"id": 8, "edited": 1, "state": {{"scenario": {{"version": 9}}, "variants": []}}}}]"#,
            &good_json[1..good_json.len() - 1]
        );
        let read = Library::from_json(&text).unwrap();
        assert_eq!(read.entries.len(), 1);
        assert_eq!(read.unreadable.len(), 3);
        let again = Library::from_json(&read.to_json()).unwrap();
        assert_eq!(again, read, "nothing is lost by reading and writing back");
        assert!(Library::from_json("{").is_err() && Library::from_json("{}").is_err());
        assert_eq!(Library::from_json("[]").unwrap(), Library::default());
    }
}
