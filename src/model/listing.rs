//! What "My scenarios" lists of the page's library: the page keeps the scenarios (and writes them to
//! storage); the lessons' module draws the panel, so that its code is not part of the first download, and
//! needs only each entry's id, name and last edit, and which one is open. Pure, tested natively.

use serde_json::Value;

use crate::formats::wire::Fields;

use crate::formats::library::Library;

/// The longest scenario name accepted (the field's `maxlength` too).
pub const MAX_NAME: usize = 120;

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
        // What the panel lists, each name as the panel shows it (at most MAX_NAME characters).
        let listed = |e: &std::rc::Rc<crate::formats::library::Entry>| Listed {
            id: e.id,
            name: e.name().chars().take(MAX_NAME).collect(),
            edited: e.edited,
        };
        let entries = library.entries.iter().take(MAX_LISTED).map(listed).collect();
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

    /// Read back strictly: an entry without its id, name or edit time refuses the listing, naming the field.
    pub fn from_value(v: &Value) -> Result<Listing, String> {
        let f = Fields::of(v)?;
        let entry = |item: &Value| -> Result<Listed, String> {
            let e = Fields::of(item)?;
            Ok(Listed {
                id: e.number("id")?,
                name: e.short_text("name", MAX_NAME)?.into(),
                edited: e.number("edited")?,
            })
        };
        let entries = f.list("entries", MAX_LISTED)?.iter().map(entry).collect::<Result<_, _>>()?;
        let open = match f.get("open")? {
            Value::Null => None,
            _ => Some(f.number("open")?),
        };
        Ok(Listing { entries, open })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;

    #[test]
    fn a_library_is_listed_by_id_name_and_edit_and_read_back() {
        let mut library = Library::default();
        let first = library.keep(None, Model::landing().shown.snapshot(), 5);
        library.rename(first, "mine \"quoted\"");
        library.duplicate(first, 9);
        let listing = Listing::of(&library, Some(first));
        let names: Vec<&str> = listing.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["mine \"quoted\" (copy)", "mine \"quoted\""]);
        assert_eq!(Listing::from_value(&listing.to_value()), Ok(listing));
        let damaged =
            serde_json::json!({ "open": null, "entries": [{ "id": 1 }, { "id": 2, "name": "b", "edited": 3 }] });
        assert_eq!(Listing::from_value(&damaged).err().as_deref(), Some("no name given"));
        let garbled = serde_json::json!({ "open": "x", "entries": [] });
        assert_eq!(Listing::from_value(&garbled).err().as_deref(), Some("open is not a whole number"));
        assert!(Listing::from_value(&serde_json::json!({})).is_err());
    }
}
