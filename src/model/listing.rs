//! What "My scenarios" lists of the page's library: the page keeps the scenarios (and writes them to
//! storage); the lessons' module draws the panel, so that its code is not part of the first download, and
//! needs only each entry's id, name and last edit, and which one is open. Pure, tested natively.

use serde_json::Value;

use crate::formats::library::Library;

/// The most entries the module takes (a library written by hand could hold any number).
const MAX_LISTED: usize = 1000;

/// One kept scenario, as listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub id: u64,
    pub name: String,
    /// When it was last kept, in milliseconds since the epoch.
    pub edited: u64,
}

/// The library as listed, the most recently kept first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    pub entries: Vec<Listed>,
    /// The entry the working scenario is.
    pub open: Option<u64>,
}

impl Listing {
    pub fn of(library: &Library, open: Option<u64>) -> Listing {
        let entries =
            library.entries.iter().map(|e| Listed { id: e.id, name: e.name().to_string(), edited: e.edited }).collect();
        Listing { entries, open }
    }

    /// `{"open": id or null, "entries": [{"id", "name", "edited"}]}`.
    pub fn to_value(&self) -> Value {
        let entries: Vec<Value> = self
            .entries
            .iter()
            .map(|e| serde_json::json!({ "id": e.id, "name": e.name, "edited": e.edited }))
            .collect();
        serde_json::json!({ "open": self.open, "entries": entries })
    }

    /// Read back; an entry without an id or a name is left out.
    pub fn from_value(v: &Value) -> Result<Listing, String> {
        let items = v.get("entries").and_then(Value::as_array).ok_or("no entries")?;
        let listed = |item: &Value| {
            let name = item.get("name")?.as_str()?.chars().take(super::MAX_NAME).collect();
            Some(Listed { id: item.get("id")?.as_u64()?, name, edited: item.get("edited")?.as_u64()? })
        };
        let entries = items.iter().take(MAX_LISTED).filter_map(listed).collect();
        Ok(Listing { entries, open: v.get("open").and_then(Value::as_u64) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;

    #[test]
    fn a_library_is_listed_by_id_name_and_edit_and_read_back() {
        let mut library = Library::default();
        let first = library.keep(None, Model::landing().snapshot(), 5);
        library.rename(first, "mine \"quoted\"");
        library.duplicate(first, 9);
        let listing = Listing::of(&library, Some(first));
        let names: Vec<&str> = listing.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["mine \"quoted\" (copy)", "mine \"quoted\""]);
        assert_eq!(Listing::from_value(&listing.to_value()), Ok(listing));
        let damaged =
            serde_json::json!({ "open": "x", "entries": [{ "id": 1 }, { "id": 2, "name": "b", "edited": 3 }] });
        let read = Listing::from_value(&damaged).unwrap();
        assert_eq!((read.entries.len(), read.open), (1, None), "the entry without a name is left out");
        assert!(Listing::from_value(&serde_json::json!({})).is_err());
    }
}
