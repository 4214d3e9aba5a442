//! The words after an event's kind: a positional broker (or, for `produce`, the record's label) and
//! keyword flags (`drop`, `power`, `no-notify`, `no-deliver`) or `key=value` fields.

use serde_json::{json, Map, Value};

use crate::scenario::EventKind;

/// Put one word's meaning into the event's contract JSON; the error says what was expected.
pub(super) fn field(kind: EventKind, word: &str, object: &mut Map<String, Value>) -> Result<(), String> {
    if let Some((key, value)) = word.split_once('=').filter(|_| !word.starts_with('"')) {
        return keyed(kind, key, value, object);
    }
    match (kind, word) {
        (EventKind::Fetch, "drop") => set(object, "drop_response", json!(true)),
        (EventKind::Crash, "power") => set(object, "power", json!(true)),
        (EventKind::Crash, "no-notify") => set(object, "notify_controller", json!(false)),
        (EventKind::Restart, "no-deliver") => set(object, "deliver", json!(false)),
        (EventKind::Produce, label) => set(object, "record", json!(label_of(label)?)),
        (EventKind::Settle, other) => Err(format!("settle takes nothing, got '{other}'")),
        (_, broker) => set(object, "broker", json!(broker)),
    }
}

fn keyed(kind: EventKind, key: &str, value: &str, object: &mut Map<String, Value>) -> Result<(), String> {
    match (kind, key) {
        (EventKind::Produce, "acks") => match value {
            "0" => set(object, "acks", json!(0)),
            "1" => set(object, "acks", json!(1)),
            "all" | "-1" => set(object, "acks", json!("all")),
            other => Err(format!("acks is 0, 1 or all, got '{other}'")),
        },
        (k, "broker") if k.takes_broker() => set(object, "broker", json!(value)),
        (EventKind::Elect, "deliver") => set(object, "deliver", delivery(value)?),
        _ => Err(format!("a {} takes no '{key}=' (it takes {})", kind.words(), takes(kind))),
    }
}

/// `all`, `none`, `A,B` or `[A,B]` (`[]`: nobody yet, listed). An empty name (`A,,B`, a bare `deliver=`) is
/// refused rather than skipped: it may be a name left out.
fn delivery(value: &str) -> Result<Value, String> {
    match value {
        "all" | "none" => Ok(json!(value)),
        "[]" => Ok(json!([])),
        list => {
            let inner = list.strip_prefix('[').and_then(|l| l.strip_suffix(']')).unwrap_or(list);
            let names: Vec<&str> = inner.split(',').collect();
            if names.contains(&"") {
                return Err(format!("deliver is all, none, [] or broker names separated by commas, got '{value}'"));
            }
            Ok(json!(names))
        }
    }
}

fn label_of(word: &str) -> Result<String, String> {
    if word.starts_with('"') {
        serde_json::from_str(word).map_err(|_| "a quoted record label must be one JSON string".to_string())
    } else {
        Ok(word.to_string())
    }
}

fn set(object: &mut Map<String, Value>, key: &str, value: Value) -> Result<(), String> {
    if object.contains_key(key) {
        let kind = object.get("kind").and_then(Value::as_str).unwrap_or("event").to_string();
        return Err(format!("this {kind} already has its {}", key.replace('_', " ")));
    }
    object.insert(key.to_string(), value);
    Ok(())
}

fn takes(kind: EventKind) -> &'static str {
    match kind {
        EventKind::Elect => "a candidate broker and deliver=all|none|A,B",
        EventKind::Produce => "a record label, acks=0|1|all and broker=B",
        EventKind::Fetch => "a broker and drop",
        EventKind::Crash => "a broker, power and no-notify",
        EventKind::Restart => "a broker and no-deliver",
        EventKind::Settle => "nothing",
        EventKind::Consume => "an optional broker",
        _ => "a broker",
    }
}
