//! Reading contract-v1 JSON with messages that name the position, the field or event, and what was wrong.
//!
//! Syntax errors come from serde_json with their line and column. Everything after that is checked by hand on
//! the parsed value, so that every message can name `events[3] (fetch)` and list what would have been accepted.

use std::fmt;

use serde_json::{Map, Value};

use super::{Acks, Config, Delivery, Event, EventKind, Policy, Scenario, FORMAT_VERSION, MAX_BROKERS, MAX_EVENTS};
use crate::variant::{Flag, KafkaVersion, MetadataMode, ProtocolVersion, Variant};

/// Why a scenario was refused. The message is one line, meant to be shown as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Where: `line 3 column 7`, `brokers[2]`, `events[4] (fetch)`, `config.flush`; empty for the whole file.
    pub at: String,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.at, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

fn err(at: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError { at: at.into(), message: message.into() }
}

/// Parse and validate a contract-v1 scenario.
pub fn parse_scenario(text: &str) -> Result<Scenario, ScenarioError> {
    parse_scenario_with(text, &super::Overrides::default())
}

/// [`parse_scenario`], with settings given beside the file counting as the file's own.
pub(crate) fn parse_scenario_with(text: &str, overrides: &super::Overrides) -> Result<Scenario, ScenarioError> {
    let mut value: Value = serde_json::from_str(text).map_err(|e| {
        let what = e.to_string();
        // serde_json appends " at line L column C"; move the position to the front.
        let message = what.split(" at line ").next().unwrap_or(&what).to_string();
        err(format!("line {} column {}", e.line(), e.column()), message)
    })?;
    if let (Value::Object(top), false) = (&mut value, overrides.is_empty()) {
        if let Value::Object(config) = top.entry("config").or_insert_with(|| Value::Object(Map::new())) {
            overrides.apply(config);
        }
    }
    parse_scenario_value(&value)
}

/// Validate an already parsed JSON value as a contract-v1 scenario (messages as [`parse_scenario`]'s).
pub fn parse_scenario_value(value: &Value) -> Result<Scenario, ScenarioError> {
    let Value::Object(top) = value else {
        return Err(err("", format!("a scenario is a JSON object, not {}", describe(value))));
    };
    check_fields(top, "", &["version", "name", "description", "brokers", "config", "events"])?;

    let version = match top.get("version") {
        None => return Err(err("version", "missing: this file format needs \"version\": 1")),
        Some(v) => v.as_u64().ok_or_else(|| err("version", format!("expected a whole number, got {}", describe(v))))?,
    };
    if version != u64::from(FORMAT_VERSION) {
        return Err(err(
            "version",
            format!("version {version} is not supported: this Epochlab reads version {FORMAT_VERSION}"),
        ));
    }
    let name = optional_string(top, "name", "")?.unwrap_or_else(|| "Untitled scenario".to_string());
    let description = optional_string(top, "description", "")?.unwrap_or_default();
    let brokers = parse_brokers(top.get("brokers"))?;
    let config = match top.get("config") {
        None => Config::default(),
        Some(Value::Object(map)) => parse_config(map)?,
        Some(other) => return Err(err("config", format!("expected an object, got {}", describe(other)))),
    };
    if usize::from(config.min_insync_replicas) > brokers.len() {
        return Err(err(
            "config.min_insync_replicas",
            format!(
                "{} is more than the {} broker(s): no acks=all write could ever succeed",
                config.min_insync_replicas,
                brokers.len()
            ),
        ));
    }
    let events = match top.get("events") {
        None => Vec::new(),
        Some(Value::Array(items)) => {
            if items.len() > MAX_EVENTS {
                return Err(err("events", format!("{} events is more than the limit of {MAX_EVENTS}", items.len())));
            }
            let mut events = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                events.push(parse_event(i, item, &brokers)?);
            }
            events
        }
        Some(other) => return Err(err("events", format!("expected an array, got {}", describe(other)))),
    };
    Ok(Scenario { version: FORMAT_VERSION, name, description, brokers, config, events })
}

fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string \"{s}\""),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

fn check_fields(map: &Map<String, Value>, at: &str, allowed: &[&str]) -> Result<(), ScenarioError> {
    for key in map.keys() {
        if !allowed.contains(&key.as_str()) {
            let place = if at.is_empty() { "the scenario".to_string() } else { at.to_string() };
            let expected = if allowed.is_empty() { "no fields".to_string() } else { allowed.join(", ") };
            return Err(err(at, format!("unknown field \"{key}\" in {place} (expected {expected})")));
        }
    }
    Ok(())
}

fn field_path(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}

fn optional_string(map: &Map<String, Value>, key: &str, at: &str) -> Result<Option<String>, ScenarioError> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(err(field_path(at, key), format!("expected a string, got {}", describe(other)))),
    }
}

fn optional_bool(map: &Map<String, Value>, key: &str, at: &str, default: bool) -> Result<bool, ScenarioError> {
    match map.get(key) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(err(field_path(at, key), format!("expected true or false, got {}", describe(other)))),
    }
}

/// A valid broker name: `[A-Za-z0-9_-]{1,16}`.
pub fn valid_broker_name(name: &str) -> bool {
    (1..=16).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn parse_brokers(value: Option<&Value>) -> Result<Vec<String>, ScenarioError> {
    let items = match value {
        None => return Err(err("brokers", "missing: list 1 to 5 broker names, e.g. [\"A\", \"B\"]")),
        Some(Value::Array(items)) => items,
        Some(other) => return Err(err("brokers", format!("expected an array of names, got {}", describe(other)))),
    };
    if items.is_empty() || items.len() > MAX_BROKERS {
        return Err(err("brokers", format!("{} brokers given; a partition has 1 to {MAX_BROKERS}", items.len())));
    }
    let mut names: Vec<String> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("brokers[{i}]");
        let Value::String(name) = item else {
            return Err(err(at, format!("expected a name, got {}", describe(item))));
        };
        if !valid_broker_name(name) {
            return Err(err(at, format!("\"{name}\" is not a valid name (1 to 16 of A-Z, a-z, 0-9, _ and -)")));
        }
        if names.contains(name) {
            return Err(err(at, format!("\"{name}\" appears twice; broker names must be unique")));
        }
        names.push(name.clone());
    }
    Ok(names)
}

/// The fields of a scenario's `config`, in the order the formats write them (the text format's header
/// takes the same names).
pub(crate) const CONFIG_FIELDS: [&str; 11] = [
    "variant",
    "flags",
    "min_insync_replicas",
    "unclean_leader_election",
    "hw_checkpoint",
    "flush",
    "kafka_version",
    "eligible_leader_replicas",
    "inter_broker_protocol_version",
    "log_message_format_version",
    "metadata_mode",
];

/// Validate a JSON value as a scenario's `config` object alone (the checker's worker is sent only the settings).
pub fn parse_config_value(value: &Value) -> Result<Config, ScenarioError> {
    match value {
        Value::Object(map) => parse_config(map),
        other => Err(err("config", format!("expected an object, got {}", describe(other)))),
    }
}

fn parse_config(map: &Map<String, Value>) -> Result<Config, ScenarioError> {
    check_fields(map, "config", &CONFIG_FIELDS)?;
    let mut config = Config::default();
    if let Some(v) = optional_string(map, "variant", "config")? {
        config.variant = Variant::from_id(&v).ok_or_else(|| {
            err("config.variant", format!("unknown variant \"{v}\" (expected one of {})", Variant::id_list()))
        })?;
    }
    match map.get("flags") {
        None => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let at = format!("config.flags[{i}]");
                let Value::String(id) = item else {
                    return Err(err(at, format!("expected a flag name, got {}", describe(item))));
                };
                let flag = Flag::from_id(id).ok_or_else(|| {
                    err(at.clone(), format!("unknown flag \"{id}\" (expected one of {})", Flag::id_list()))
                })?;
                if config.flags.contains(&flag) {
                    return Err(err(at, format!("flag \"{id}\" is listed twice")));
                }
                config.flags.push(flag);
            }
        }
        Some(other) => return Err(err("config.flags", format!("expected an array, got {}", describe(other)))),
    }
    if let Some(v) = map.get("min_insync_replicas") {
        config.min_insync_replicas = v
            .as_u64()
            .filter(|n| (1..=MAX_BROKERS as u64).contains(n))
            .and_then(|n| u8::try_from(n).ok())
            .ok_or_else(|| err("config.min_insync_replicas", format!("expected 1 to 5, got {}", describe(v))))?;
    }
    config.unclean_leader_election = maybe_bool(map, "unclean_leader_election")?;
    config.hw_checkpoint = parse_policy(map, "hw_checkpoint")?;
    config.flush = parse_policy(map, "flush")?;
    parse_release(map, &mut config)?;
    Ok(config)
}

/// `kafka_version`: the release decides the variant and the flags, so a file that names another variant
/// or any flag beside it is contradicting itself. The release knobs need a release that has them.
fn parse_release(map: &Map<String, Value>, config: &mut Config) -> Result<(), ScenarioError> {
    let release = match optional_string(map, "kafka_version", "config")? {
        Some(id) => Some(KafkaVersion::parse(&id).map_err(|e| err("config.kafka_version", e))?),
        None => None,
    };
    parse_knobs(map, config, release)?;
    let Some(release) = release else { return Ok(()) };
    parse_metadata_mode(map, config, release)?;
    let at = "config.kafka_version";
    if map.contains_key("variant") && config.variant != release.variant() {
        return Err(err(
            at,
            format!(
                "Kafka {} runs {}, but config.variant is {}; give one or the other",
                release.id(),
                release.variant().id(),
                config.variant.id()
            ),
        ));
    }
    if !config.flags.is_empty() {
        return Err(err(at, format!("Kafka {} decides the flags itself; leave config.flags out", release.id())));
    }
    config.set_release(release);
    Ok(())
}

/// `eligible_leader_replicas` (Kafka 4.0 and later), `inter_broker_protocol_version` and
/// `log_message_format_version` (any release): settings of a release, so they need one.
fn parse_knobs(
    map: &Map<String, Value>,
    config: &mut Config,
    release: Option<KafkaVersion>,
) -> Result<(), ScenarioError> {
    config.eligible_leader_replicas = maybe_bool(map, "eligible_leader_replicas")?;
    let needs_release = |key: &str| {
        err(format!("config.{key}"), "is a setting of a Kafka release: give config.kafka_version too".to_string())
    };
    if config.eligible_leader_replicas.is_some() && release.is_none() {
        return Err(needs_release("eligible_leader_replicas"));
    }
    if map.contains_key("metadata_mode") && release.is_none() {
        return Err(needs_release("metadata_mode"));
    }
    if config.eligible_leader_replicas == Some(true) && release.is_some_and(|r| !r.line().elr().0) {
        let r = release.map(KafkaVersion::id).unwrap_or_default();
        return Err(err(
            "config.eligible_leader_replicas",
            format!("Kafka {r} has no Eligible Leader Replicas (KIP-966 came in 4.0)"),
        ));
    }
    for key in ["inter_broker_protocol_version", "log_message_format_version"] {
        let Some(text) = optional_string(map, key, "config")? else { continue };
        if release.is_none() {
            return Err(needs_release(key));
        }
        let v = Some(ProtocolVersion::parse(&text).map_err(|e| err(format!("config.{key}"), e))?);
        match key {
            "inter_broker_protocol_version" => config.inter_broker_protocol_version = v,
            _ => config.log_message_format_version = v,
        }
    }
    match release.and_then(|r| crate::variant::refuse_knobs(r, &config.knobs())) {
        Some(why) => Err(err("config.kafka_version", why)),
        None => Ok(()),
    }
}

/// `metadata_mode` (`zookeeper` or `kraft`), checked against the release. The old pseudo-release `kraft`
/// reads as Kafka 3.6 in KRaft mode (model §13).
fn parse_metadata_mode(
    map: &Map<String, Value>,
    config: &mut Config,
    release: KafkaVersion,
) -> Result<(), ScenarioError> {
    let at = "config.metadata_mode";
    let named_kraft =
        map.get("kafka_version").and_then(Value::as_str).is_some_and(|id| id.trim().eq_ignore_ascii_case("kraft"));
    let mode = match optional_string(map, "metadata_mode", "config")? {
        Some(id) => Some(MetadataMode::from_id(&id).map_err(|e| err(at, e))?),
        None if named_kraft => Some(MetadataMode::KRaft),
        None => None,
    };
    if let Some(why) = mode.and_then(|m| m.offered_by(release).err()) {
        return Err(err(at, why));
    }
    config.metadata_mode = mode;
    match crate::variant::refuse_knobs(release, &config.knobs()) {
        Some(why) => Err(err(at, why)),
        None => Ok(()),
    }
}

/// A boolean that may be left out (`None`: the release decides).
fn maybe_bool(map: &Map<String, Value>, key: &str) -> Result<Option<bool>, ScenarioError> {
    match map.contains_key(key) {
        true => optional_bool(map, key, "config", false).map(Some),
        false => Ok(None),
    }
}

fn parse_policy(map: &Map<String, Value>, key: &str) -> Result<Policy, ScenarioError> {
    match optional_string(map, key, "config")?.as_deref() {
        None | Some("always") => Ok(Policy::Always),
        Some("manual") => Ok(Policy::Manual),
        Some(other) => {
            Err(err(format!("config.{key}"), format!("unknown policy \"{other}\" (expected \"always\" or \"manual\")")))
        }
    }
}

fn parse_event(index: usize, value: &Value, brokers: &[String]) -> Result<Event, ScenarioError> {
    let Value::Object(map) = value else {
        return Err(err(format!("events[{index}]"), format!("expected an event object, got {}", describe(value))));
    };
    let id = match map.get("kind") {
        None => return Err(err(format!("events[{index}]"), "missing \"kind\"")),
        Some(Value::String(k)) => k.as_str(),
        Some(other) => {
            return Err(err(format!("events[{index}]"), format!("\"kind\" must be a string, got {}", describe(other))))
        }
    };
    let Some(kind) = EventKind::from_id(id) else {
        let expected: Vec<&str> = EventKind::ALL.iter().map(|k| k.id()).collect();
        return Err(err(
            format!("events[{index}]"),
            format!("unknown event kind \"{id}\" (expected one of {})", expected.join(", ")),
        ));
    };
    let at = format!("events[{index}] ({kind})");
    let mut allowed = vec!["kind"];
    allowed.extend_from_slice(kind.fields());
    for key in map.keys() {
        if !allowed.contains(&key.as_str()) {
            let expected = kind.fields();
            let expected = if expected.is_empty() { "no other fields".to_string() } else { expected.join(", ") };
            return Err(err(at, format!("unknown field \"{key}\" (a {kind} takes {expected})")));
        }
    }
    let broker = parse_broker_field(map, &at, brokers)?;
    let needs_broker = |b: Option<String>| {
        b.ok_or_else(|| err(at.clone(), format!("missing \"broker\": a {kind} needs one of {}", brokers.join(", "))))
    };
    let event = match kind {
        EventKind::Elect => Event::Elect { broker, deliver: parse_delivery(map.get("deliver"), &at, brokers)? },
        EventKind::Produce => {
            Event::Produce { record: parse_record_label(map, &at)?, acks: parse_acks(map.get("acks"), &at)?, broker }
        }
        EventKind::Consume => Event::Consume { broker },
        EventKind::Settle => Event::Settle,
        EventKind::Deliver => Event::Deliver { broker: needs_broker(broker)? },
        EventKind::Fetch => Event::Fetch {
            broker: needs_broker(broker)?,
            drop_response: optional_bool(map, "drop_response", &at, false)?,
        },
        EventKind::ShrinkIsr => Event::ShrinkIsr { broker: needs_broker(broker)? },
        EventKind::Crash => Event::Crash {
            broker: needs_broker(broker)?,
            power: optional_bool(map, "power", &at, false)?,
            notify_controller: optional_bool(map, "notify_controller", &at, true)?,
        },
        EventKind::Restart => {
            Event::Restart { broker: needs_broker(broker)?, deliver: optional_bool(map, "deliver", &at, true)? }
        }
        EventKind::Shutdown => Event::Shutdown { broker: needs_broker(broker)? },
        EventKind::CheckpointHw => Event::CheckpointHw { broker: needs_broker(broker)? },
        EventKind::Flush => Event::Flush { broker: needs_broker(broker)? },
        EventKind::Zombie => Event::Zombie { broker: needs_broker(broker)? },
    };
    Ok(event)
}

fn parse_broker_field(map: &Map<String, Value>, at: &str, brokers: &[String]) -> Result<Option<String>, ScenarioError> {
    match map.get("broker") {
        None => Ok(None),
        Some(Value::String(name)) => {
            if brokers.contains(name) {
                Ok(Some(name.clone()))
            } else {
                Err(err(at, format!("unknown broker \"{name}\" (this scenario has {})", brokers.join(", "))))
            }
        }
        Some(other) => Err(err(at, format!("\"broker\" must be a broker name, got {}", describe(other)))),
    }
}

fn parse_record_label(map: &Map<String, Value>, at: &str) -> Result<Option<String>, ScenarioError> {
    match map.get("record") {
        None => Ok(None),
        Some(Value::String(s)) if !s.is_empty() && s.chars().count() <= 24 => Ok(Some(s.clone())),
        Some(Value::String(_)) => Err(err(at, "\"record\" must be a label of 1 to 24 characters")),
        Some(other) => Err(err(at, format!("\"record\" must be a string label, got {}", describe(other)))),
    }
}

fn parse_acks(value: Option<&Value>, at: &str) -> Result<Acks, ScenarioError> {
    match value {
        None => Ok(Acks::All),
        Some(Value::String(s)) if s == "all" || s == "-1" => Ok(Acks::All),
        Some(Value::Number(n)) if n.as_i64() == Some(-1) => Ok(Acks::All),
        Some(Value::Number(n)) if n.as_u64() == Some(0) => Ok(Acks::Zero),
        Some(Value::Number(n)) if n.as_u64() == Some(1) => Ok(Acks::One),
        Some(other) => Err(err(at, format!("\"acks\" must be 0, 1 or \"all\", got {}", describe(other)))),
    }
}

fn parse_delivery(value: Option<&Value>, at: &str, brokers: &[String]) -> Result<Delivery, ScenarioError> {
    match value {
        None => Ok(Delivery::All),
        Some(Value::String(s)) if s == "all" => Ok(Delivery::All),
        Some(Value::String(s)) if s == "none" => Ok(Delivery::None),
        Some(Value::Array(items)) => {
            let mut names: Vec<String> = Vec::new();
            for item in items {
                let Value::String(name) = item else {
                    return Err(err(at, format!("\"deliver\" lists broker names, got {}", describe(item))));
                };
                if !brokers.contains(name) {
                    return Err(err(
                        at,
                        format!(
                            "\"deliver\" names unknown broker \"{name}\" (this scenario has {})",
                            brokers.join(", ")
                        ),
                    ));
                }
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
            Ok(Delivery::Only(names))
        }
        Some(other) => {
            Err(err(at, format!("\"deliver\" must be \"all\", \"none\" or a list of brokers, got {}", describe(other))))
        }
    }
}
