//! Reading a lesson file (JSON; the format is in `docs/lessons.md`). Errors name where they are.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

use super::{Check, Highlight, Lesson, LessonStep, Misconception, Prediction, Question, Source, Task};
use crate::invariants::InvariantId;
use crate::presets;
use crate::scenario::{parse_scenario_value, Event, EventKind, Scenario};
use crate::variant::{KafkaVersion, Variant};

/// What is wrong with a lesson file, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    /// Where: `steps[3].check`.
    pub at: String,
    /// What.
    pub message: String,
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

fn err<T>(at: &str, message: impl Into<String>) -> Result<T, LessonError> {
    Err(LessonError { at: at.to_string(), message: message.into() })
}

/// Parse a lesson file.
pub fn parse_lesson(text: &str) -> Result<Lesson, LessonError> {
    let value: Value = serde_json::from_str(text).or_else(|e| err("lesson", format!("not JSON: {e}")))?;
    parse_lesson_value(&value)
}

/// Read a lesson file's JSON value (the text format builds one).
pub fn parse_lesson_value(value: &Value) -> Result<Lesson, LessonError> {
    let Value::Object(map) = value else { return err("lesson", "expected an object") };
    let scenario = scenario(map)?;
    let steps = match map.get("steps") {
        Some(Value::Array(items)) => items.iter().enumerate().map(|(i, s)| step(s, i, &scenario)).collect(),
        _ => err("steps", "expected an array of steps"),
    }?;
    Ok(Lesson {
        id: text_field(map, "id", "lesson")?,
        title: text_field(map, "title", "lesson")?,
        minutes: map.get("minutes").and_then(Value::as_u64).map_or(5, |m| m.min(60) as u8),
        variants: variants(map.get("variants"), "variants")?,
        takeaway: text_field(map, "takeaway", "lesson")?,
        sources: sources(map.get("sources"))?,
        scenario,
        steps,
    })
}

/// `"scenario": {…}` (contract v1) or `"preset": "<id>"`.
fn scenario(map: &Map<String, Value>) -> Result<Scenario, LessonError> {
    match (map.get("scenario"), map.get("preset").and_then(Value::as_str)) {
        (Some(value), None) => parse_scenario_value(value).or_else(|e| err("scenario", e.to_string())),
        (None, Some(id)) => {
            presets::find(id).map(|p| p.scenario()).map_or_else(|| err("preset", format!("no preset {id}")), Ok)
        }
        _ => err("lesson", "give exactly one of \"scenario\" and \"preset\""),
    }
}

/// `"sources": ["KIP-101", "KAFKA-7415", "path@tag"]`, each a citation `Source` reads (none: an empty list;
/// the shipped lessons' test asks each of them for at least one).
fn sources(value: Option<&Value>) -> Result<Vec<Source>, LessonError> {
    let items = match value {
        None => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => return err("sources", "expected an array of citations"),
    };
    let cite = |(i, v): (usize, &Value)| {
        let at = format!("sources[{i}]");
        v.as_str().map_or_else(|| err(&at, "expected text"), |c| Source::parse(c).or_else(|e| err(&at, e)))
    };
    items.iter().enumerate().map(cite).collect()
}

fn text_field(map: &Map<String, Value>, key: &str, at: &str) -> Result<String, LessonError> {
    map.get(key)
        .and_then(Value::as_str)
        .map(str::to_string)
        .map_or_else(|| err(at, format!("missing \"{key}\" text")), Ok)
}

fn variant(value: Option<&Value>, at: &str) -> Result<Variant, LessonError> {
    let id = value.and_then(Value::as_str).unwrap_or_default();
    Variant::from_id(id)
        .map_or_else(|| err(at, format!("unknown variant \"{id}\" (one of {})", Variant::id_list())), Ok)
}

fn variants(value: Option<&Value>, at: &str) -> Result<Vec<Variant>, LessonError> {
    match value {
        Some(Value::Array(items)) if !items.is_empty() => items.iter().map(|v| variant(Some(v), at)).collect(),
        _ => err(at, "expected a non-empty array of variant ids"),
    }
}

/// A comparison's Kafka releases: none, or at least two (`["3.6", "4.1"]`).
fn releases(value: Option<&Value>, at: &str) -> Result<Vec<KafkaVersion>, LessonError> {
    let Some(value) = value else { return Ok(Vec::new()) };
    let Some(items) = value.as_array().filter(|items| (2..=4).contains(&items.len())) else {
        return err(at, "\"releases\" expects two to four Kafka releases, as \"3.6\"");
    };
    items
        .iter()
        .map(|r| {
            let id = r.as_str().unwrap_or_default();
            KafkaVersion::parse(id).or_else(|why| err(at, format!("\"releases\": {why}")))
        })
        .collect()
}

fn step(value: &Value, i: usize, scenario: &Scenario) -> Result<LessonStep, LessonError> {
    let at = format!("steps[{i}]");
    let Value::Object(map) = value else { return err(&at, "expected an object") };
    if let Some(text) = map.get("explain").and_then(Value::as_str) {
        let step = map.get("at").and_then(Value::as_u64).map(|s| s as u32);
        return Ok(LessonStep::Explain { text: text.to_string(), at: step, highlight: highlights(map, &at)? });
    }
    if let Some(kind) = map.get("predict").and_then(Value::as_str) {
        return prediction(map, kind, &at).map(LessonStep::Predict);
    }
    if let Some(goal) = map.get("task").and_then(Value::as_str) {
        return task(map, goal, &at, scenario).map(LessonStep::Task);
    }
    if let Some(text) = map.get("compare").and_then(Value::as_str) {
        let (variants, releases) = (variants(map.get("variants"), &at)?, releases(map.get("releases"), &at)?);
        return Ok(LessonStep::Compare { text: text.to_string(), variants, releases });
    }
    err(&at, "expected one of \"explain\", \"predict\", \"task\" or \"compare\"")
}

fn highlights(map: &Map<String, Value>, at: &str) -> Result<Vec<Highlight>, LessonError> {
    let Some(items) = map.get("highlight") else { return Ok(Vec::new()) };
    let Value::Array(items) = items else { return err(at, "\"highlight\" must be an array") };
    Ok(items
        .iter()
        .map(|h| Highlight {
            broker: h.get("broker").and_then(Value::as_str).map(str::to_string),
            offset: h.get("offset").and_then(Value::as_u64).map(|o| o as u32),
            step: h.get("step").and_then(Value::as_u64).map(|s| s as u32),
        })
        .collect())
}

fn prediction(map: &Map<String, Value>, kind: &str, at: &str) -> Result<Prediction, LessonError> {
    let broker = || text_field(map, "broker", at);
    let question = match kind {
        "survivors" => Question::Survivors { broker: broker()? },
        "hw" => Question::Hw { broker: broker()? },
        "leader" => Question::Leader,
        "record_at" => {
            let offset = map.get("offset").and_then(Value::as_u64).map_or_else(|| err(at, "missing \"offset\""), Ok)?;
            Question::RecordAt { broker: broker()?, offset: offset as u32 }
        }
        "any_bug" => Question::AnyBug,
        "logs_agree" => Question::LogsAgree,
        "consumer_sees" => Question::ConsumerSees,
        other => return err(at, format!("unknown question \"{other}\"")),
    };
    let before = map.get("before").and_then(Value::as_u64).map_or_else(|| err(at, "missing \"before\" step"), Ok)?;
    let prompt = text_field(map, "prompt", at)?;
    let offered = match map.get("choices") {
        Some(Value::Array(items)) => Some(items.iter().filter_map(Value::as_str).map(str::to_string).collect()),
        Some(_) => return err(at, "\"choices\" must be an array of answers"),
        None => None,
    };
    let variant = variant(map.get("variant"), at)?;
    // A quiz question may be about its own scenario (a preset or an inline one) instead of the lesson's.
    let own = (map.contains_key("scenario") || map.contains_key("preset"))
        .then(|| scenario(map).or_else(|e| err(at, format!("{}: {}", e.at, e.message))))
        .transpose()?
        .map(Box::new);
    Ok(Prediction { before: before as u32, variant, question, prompt, offered, wrong: wrong(map, at)?, scenario: own })
}

/// `"wrong": {"<answer key>": "<misconception id>", …}`.
fn wrong(map: &Map<String, Value>, at: &str) -> Result<BTreeMap<String, Misconception>, LessonError> {
    let Some(Value::Object(items)) = map.get("wrong") else { return Ok(BTreeMap::new()) };
    let mut out = BTreeMap::new();
    for (answer, id) in items {
        let id = id.as_str().unwrap_or_default();
        let m = Misconception::from_id(id).map_or_else(|| err(at, format!("unknown misconception \"{id}\"")), Ok)?;
        out.insert(answer.clone(), m);
    }
    Ok(out)
}

fn task(map: &Map<String, Value>, goal: &str, at: &str, scenario: &Scenario) -> Result<Task, LessonError> {
    let check = check(map.get("check"), &format!("{at}.check"))?;
    let solution = events(map.get("solution"), &format!("{at}.solution"), scenario)?;
    let wrong = events(map.get("wrong"), &format!("{at}.wrong"), scenario)?;
    Ok(Task { goal: goal.to_string(), check, solution, wrong })
}

/// Events as in a scenario file, checked against the lesson scenario's brokers by the scenario parser.
fn events(value: Option<&Value>, at: &str, scenario: &Scenario) -> Result<Vec<Event>, LessonError> {
    let Some(list) = value else { return err(at, "missing events") };
    let config = serde_json::to_value(&scenario.config).unwrap_or(Value::Null);
    let file = serde_json::json!({"version": 1, "name": "task", "brokers": scenario.brokers, "config": config, "events": list});
    parse_scenario_value(&file).map(|s| s.events).or_else(|e| err(at, e.to_string()))
}

fn check(value: Option<&Value>, at: &str) -> Result<Check, LessonError> {
    let Some(Value::Object(map)) = value else { return err(at, "expected a check object") };
    let v = || variant(map.get("variant"), at);
    if let Some(id) = map.get("fails").and_then(Value::as_str) {
        let invariant = InvariantId::from_id(id).map_or_else(|| err(at, format!("unknown invariant {id}")), Ok)?;
        return Ok(Check::Fails { variant: v()?, invariant });
    }
    if map.contains_key("holds") {
        return Ok(Check::Holds { variant: variant(map.get("holds"), at)? });
    }
    if map.contains_key("no_unclean_election") {
        return Ok(Check::NoUncleanElection { variant: variant(map.get("no_unclean_election"), at)? });
    }
    if let Some(id) = map.get("has_event").and_then(Value::as_str) {
        let kind = EventKind::from_id(id).map_or_else(|| err(at, format!("unknown event kind {id}")), Ok)?;
        return Ok(Check::HasEvent { kind });
    }
    if let Some(Value::Array(records)) = map.get("log_is") {
        let records = records.iter().filter_map(Value::as_str).map(str::to_string).collect();
        return Ok(Check::LogIs { variant: v()?, broker: text_field(map, "broker", at)?, records });
    }
    if let Some(Value::Array(all)) = map.get("all") {
        return all
            .iter()
            .enumerate()
            .map(|(i, c)| check(Some(c), &format!("{at}.all[{i}]")))
            .collect::<Result<_, _>>()
            .map(Check::All);
    }
    err(at, "expected one of fails, holds, no_unclean_election, has_event, log_is, all")
}
