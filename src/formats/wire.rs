//! The one codec of the messages between the three programs (page ↔ lessons module, lessons module ↔
//! checker's worker): a message is a JSON object written with `json!`, and read back with [`Fields`], which
//! names a field that is missing or of the wrong type. Nothing defaults silently: a message either reads
//! whole or is refused with its reason.

use epochlab_core::scenario::{parse_scenario_value, Scenario};
use epochlab_core::Variant;
use serde_json::{Map, Value};

/// A message's fields, read strictly.
pub struct Fields<'a>(&'a Map<String, Value>);

impl<'a> Fields<'a> {
    /// The fields of a JSON object.
    pub fn of(value: &'a Value) -> Result<Fields<'a>, String> {
        value.as_object().map(Fields).ok_or_else(|| "a message that is not a JSON object".to_string())
    }

    /// A field, present whatever its type.
    pub fn get(&self, key: &str) -> Result<&'a Value, String> {
        self.0.get(key).ok_or_else(|| format!("no {key} given"))
    }

    /// A text field.
    pub fn text(&self, key: &str) -> Result<&'a str, String> {
        self.get(key)?.as_str().ok_or_else(|| format!("{key} is not a text"))
    }

    /// A text field no longer than `max` characters.
    pub fn short_text(&self, key: &str, max: usize) -> Result<&'a str, String> {
        let text = self.text(key)?;
        match text.chars().count() <= max {
            true => Ok(text),
            false => Err(format!("{key} is longer than {max} characters")),
        }
    }

    /// A text field, or null.
    pub fn maybe_text(&self, key: &str) -> Result<Option<&'a str>, String> {
        match self.get(key)? {
            Value::Null => Ok(None),
            _ => self.text(key).map(Some),
        }
    }

    /// A whole-number field.
    pub fn number(&self, key: &str) -> Result<u64, String> {
        self.get(key)?.as_u64().ok_or_else(|| format!("{key} is not a whole number"))
    }

    /// A whole number that fits a `u32`.
    pub fn small(&self, key: &str) -> Result<u32, String> {
        u32::try_from(self.number(key)?).map_err(|_| format!("{key} is too large"))
    }

    /// A whole number that fits a `u32`, or null.
    pub fn maybe_small(&self, key: &str) -> Result<Option<u32>, String> {
        match self.get(key)? {
            Value::Null => Ok(None),
            _ => self.small(key).map(Some),
        }
    }

    /// A true-or-false field.
    pub fn flag(&self, key: &str) -> Result<bool, String> {
        self.get(key)?.as_bool().ok_or_else(|| format!("{key} is not true or false"))
    }

    /// A list field of at most `max` items.
    pub fn list(&self, key: &str, max: usize) -> Result<&'a [Value], String> {
        let items = self.get(key)?.as_array().ok_or_else(|| format!("{key} is not a list"))?;
        match items.len() <= max {
            true => Ok(items),
            false => Err(format!("{key} holds more than {max} items")),
        }
    }

    /// A scenario field, checked as a scenario file is.
    pub fn scenario(&self, key: &str) -> Result<Box<Scenario>, String> {
        parse_scenario_value(self.get(key)?).map(Box::new).map_err(|e| e.to_string())
    }

    /// A variant id field.
    pub fn variant(&self, key: &str) -> Result<Variant, String> {
        let id = self.text(key)?;
        Variant::from_id(id).ok_or_else(|| format!("unknown variant {id}"))
    }
}

/// A JSON object's text from its fields, each value already JSON text ([`quote`], [`number`], a
/// scenario's `to_json`): the writer the page uses, so that serde's value serialiser is not part of its
/// download (`make test` checks the first download's size).
pub fn object(fields: &[(&str, String)]) -> String {
    let fields: Vec<String> = fields.iter().map(|(key, value)| format!("{}:{value}", quote(key))).collect();
    format!("{{{}}}", fields.join(","))
}

/// A text as a JSON string.
pub fn quote(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// A whole number, or null.
pub fn number(n: Option<u32>) -> String {
    n.map_or_else(|| "null".to_string(), |n| n.to_string())
}

/// A message's JSON text (serialising a `Value` cannot fail).
pub fn text_of(value: &Value) -> String {
    value.to_string()
}

/// A message's JSON, or why it is not JSON.
pub fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("a garbled message: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_reader_names_what_is_missing_or_mistyped() {
        let v = json!({ "t": "x", "n": 3, "big": u64::MAX, "no": null, "yes": true, "l": [1, 2] });
        let f = Fields::of(&v).expect("object");
        assert_eq!(f.text("t"), Ok("x"));
        assert_eq!(f.text("n").err().as_deref(), Some("n is not a text"));
        assert_eq!(f.text("gone").err().as_deref(), Some("no gone given"));
        assert_eq!(f.short_text("t", 0).err().as_deref(), Some("t is longer than 0 characters"));
        assert_eq!((f.maybe_text("no"), f.maybe_small("no")), (Ok(None), Ok(None)));
        assert_eq!(f.small("big").err().as_deref(), Some("big is too large"));
        assert_eq!(f.flag("yes"), Ok(true));
        assert_eq!(f.flag("n").err().as_deref(), Some("n is not true or false"));
        assert_eq!(f.list("l", 1).err().as_deref(), Some("l holds more than 1 items"));
        assert_eq!(f.variant("t").err().as_deref(), Some("unknown variant x"));
        assert!(Fields::of(&json!([])).is_err());
        assert!(parse("{").is_err_and(|e| e.starts_with("a garbled message")));
    }
}
