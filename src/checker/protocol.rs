//! What the checker panel (in the lessons module) and the checker's worker say to each other: one enum per
//! direction, compiled into both programs from this one file. A message is one JSON text, encoded once: a
//! scenario travels as a JSON value (never a string inside a string), the settings as a `Config`. A message
//! that is unknown or malformed is an error the receiver reports: no field is ever silently 0 or "".

use epochlab_core::checker::bounds::{Bound, BROKERS, DEPTH, EPOCHS, MAX_STATES, RECORDS};
use epochlab_core::checker::{Alphabet, CheckConfig, Stamp};
use epochlab_core::invariants::InvariantId;
use epochlab_core::scenario::{parse_config_value, Scenario};
use epochlab_core::Variant;
use serde_json::{json, Value};

use crate::formats::wire::{parse, text_of, Fields};

/// From the panel to the worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckRequest {
    /// A search; for a re-check, the link's stamp it should confirm.
    Check { search: Box<CheckConfig>, claim: Option<Stamp> },
    /// Stop the search under way.
    Cancel,
    /// Keep only the events the scenario's gravest bug needs under this variant.
    Shrink { scenario: Box<Scenario>, variant: Variant },
}

/// From the worker to the panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckReply {
    /// The worker's wasm has loaded: requests can be sent.
    Ready,
    /// A search under way.
    Progress(Underway),
    /// A search or a shrink ended.
    Done(Box<Verdict>),
    /// A request could not be run, and why.
    Failed(String),
}

/// A progress report: its line, and the depth explored of the deepest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Underway {
    pub text: String,
    pub depth: u32,
    pub max: u32,
}

/// How a search or a shrink ended, worded by the worker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    pub text: String,
    /// Lines under the text: a shrunk scenario's reason for each event.
    pub reasons: Vec<String>,
    /// A scenario to open on the timeline.
    pub found: Option<Found>,
    /// A search that found no failure: its bounded-proof stamp, to offer for the share link.
    pub stamp: Option<Stamp>,
}

/// A scenario the checker found or shrank, the step to put the cursor on, and the notice to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub scenario: Box<Scenario>,
    pub cursor: Option<usize>,
    pub notice: String,
}

/// A stamp field, or null.
fn stamp(f: &Fields, key: &str) -> Result<Option<Stamp>, String> {
    match f.get(key)? {
        Value::Null => Ok(None),
        v => v.as_str().ok_or_else(|| format!("{key} is not a text")).and_then(Stamp::parse).map(Some),
    }
}

/// A bound, refused with the reason when missing or out of range (never defaulted or clamped).
fn bound(f: &Fields, b: Bound) -> Result<u64, String> {
    b.check(f.number(b.name)?)
}

impl CheckRequest {
    pub fn to_json(&self) -> String {
        text_of(&match self {
            CheckRequest::Check { search, claim } => check_json(search, claim.as_ref()),
            CheckRequest::Cancel => json!({ "t": "cancel" }),
            CheckRequest::Shrink { scenario, variant } => {
                json!({ "t": "shrink", "scenario": scenario, "variant": variant.id() })
            }
        })
    }

    pub fn from_json(text: &str) -> Result<CheckRequest, String> {
        let v = parse(text)?;
        let f = Fields::of(&v)?;
        match f.text("t")? {
            "cancel" => Ok(CheckRequest::Cancel),
            "shrink" => Ok(CheckRequest::Shrink { scenario: f.scenario("scenario")?, variant: f.variant("variant")? }),
            "check" => Ok(CheckRequest::Check { search: Box::new(search_of(&f)?), claim: stamp(&f, "claim")? }),
            other => Err(format!("an unknown request \"{other}\"")),
        }
    }
}

fn check_json(c: &CheckConfig, claim: Option<&Stamp>) -> Value {
    let goal: Vec<&str> = c.goal.iter().map(|i| i.id()).collect();
    let mut v = json!({ "t": "check", "variant": c.variant.id(), "invariants": goal, "alphabet": c.alphabet.id(),
        "config": c.config, "claim": claim.map(Stamp::to_string) });
    // Each bound under its core name, the one `search_of` reads and every refusal says.
    let bounds = [(BROKERS, u64::from(c.brokers)), (RECORDS, u64::from(c.records)), (DEPTH, u64::from(c.depth))];
    for (b, value) in bounds.into_iter().chain([(EPOCHS, c.epochs.max(0) as u64), (MAX_STATES, c.max_states)]) {
        v[b.name] = value.into();
    }
    v
}

/// A search as a request names it, every bound checked against the core's.
fn search_of(f: &Fields) -> Result<CheckConfig, String> {
    let ids = f.get("invariants")?.as_array().ok_or("invariants is not a list")?;
    let goal = ids
        .iter()
        .map(|id| id.as_str().and_then(InvariantId::from_id).ok_or_else(|| format!("unknown invariant {id}")))
        .collect::<Result<Vec<_>, _>>()?;
    if goal.is_empty() {
        return Err("choose at least one invariant".into());
    }
    let alphabet = f.text("alphabet")?;
    Ok(CheckConfig {
        variant: f.variant("variant")?,
        brokers: bound(f, BROKERS)? as u8,
        records: bound(f, RECORDS)? as u8,
        epochs: bound(f, EPOCHS)? as i32,
        depth: bound(f, DEPTH)? as u32,
        max_states: bound(f, MAX_STATES)?,
        goal,
        alphabet: Alphabet::from_id(alphabet).ok_or_else(|| format!("unknown alphabet {alphabet}"))?,
        config: parse_config_value(f.get("config")?).map_err(|e| e.to_string())?,
    })
}

impl CheckReply {
    pub fn to_json(&self) -> String {
        text_of(&match self {
            CheckReply::Ready => json!({ "t": "ready" }),
            CheckReply::Progress(p) => json!({ "t": "progress", "text": p.text, "depth": p.depth, "max": p.max }),
            CheckReply::Done(v) => verdict_json(v),
            CheckReply::Failed(why) => json!({ "t": "failed", "text": why }),
        })
    }

    pub fn from_json(text: &str) -> Result<CheckReply, String> {
        let v = parse(text)?;
        let f = Fields::of(&v)?;
        let small = |key: &str| f.number(key).map(|n| n.min(u64::from(u32::MAX)) as u32);
        match f.text("t")? {
            "ready" => Ok(CheckReply::Ready),
            "progress" => Ok(CheckReply::Progress(Underway {
                text: f.text("text")?.into(),
                depth: small("depth")?,
                max: small("max")?,
            })),
            "done" => verdict_of(&f).map(|v| CheckReply::Done(Box::new(v))),
            "failed" => Ok(CheckReply::Failed(f.text("text")?.into())),
            other => Err(format!("an unknown reply \"{other}\"")),
        }
    }

    /// A search is under way.
    pub fn is_busy(&self) -> bool {
        matches!(self, CheckReply::Progress(_))
    }
}

fn verdict_json(v: &Verdict) -> Value {
    let found = v.found.as_ref().map(|f| json!({ "scenario": f.scenario, "cursor": f.cursor, "notice": f.notice }));
    json!({ "t": "done", "text": v.text, "reasons": v.reasons, "found": found,
        "stamp": v.stamp.as_ref().map(Stamp::to_string) })
}

fn verdict_of(f: &Fields) -> Result<Verdict, String> {
    let reasons = f.get("reasons")?.as_array().ok_or("reasons is not a list")?;
    let reasons = reasons.iter().map(|r| r.as_str().map(str::to_string).ok_or("a reason is not a text"));
    let found = match f.get("found")? {
        Value::Null => None,
        v => {
            let found = Fields::of(v)?;
            let cursor = match found.get("cursor")? {
                Value::Null => None,
                _ => Some(found.number("cursor")? as usize),
            };
            Some(Found { scenario: found.scenario("scenario")?, cursor, notice: found.text("notice")?.into() })
        }
    };
    Ok(Verdict {
        text: f.text("text")?.into(),
        reasons: reasons.collect::<Result<_, _>>()?,
        found,
        stamp: stamp(f, "stamp")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::presets;

    fn search() -> CheckConfig {
        CheckConfig {
            variant: Variant::Kafka21,
            depth: 9,
            goal: vec![InvariantId::I1, InvariantId::I3],
            ..Default::default()
        }
    }

    #[test]
    fn every_request_and_reply_round_trips() {
        let scenario = Box::new(presets::find("kip101-scenario-1").expect("preset").scenario());
        let stamp = Some(Stamp {
            variant: Variant::Kafka21,
            alphabet: Alphabet::Default,
            bounds: [2, 2, 3, 9],
            goal: vec![InvariantId::I1],
            states: 1234,
            exhausted: true,
            config: 0xabcd,
        });
        let requests = [
            CheckRequest::Check { search: Box::new(search()), claim: None },
            CheckRequest::Check { search: Box::new(search()), claim: stamp.clone() },
            CheckRequest::Cancel,
            CheckRequest::Shrink { scenario: scenario.clone(), variant: Variant::HwTruncation },
        ];
        for r in requests {
            assert_eq!(CheckRequest::from_json(&r.to_json()).as_ref(), Ok(&r), "{}", r.to_json());
        }
        let found = Found { scenario, cursor: Some(3), notice: "found \"it\"".into() };
        let replies = [
            CheckReply::Ready,
            CheckReply::Progress(Underway { text: "12 states".into(), depth: 2, max: 13 }),
            CheckReply::Done(Box::new(Verdict {
                text: "a".into(),
                reasons: vec!["b".into()],
                found: Some(found),
                stamp: None,
            })),
            CheckReply::Done(Box::new(Verdict { text: "none".into(), stamp, ..Verdict::default() })),
            CheckReply::Failed("why".into()),
        ];
        for r in replies {
            assert_eq!(CheckReply::from_json(&r.to_json()).as_ref(), Ok(&r), "{}", r.to_json());
        }
    }

    #[test]
    fn the_scenario_travels_as_a_json_value_not_a_string_inside_a_string() {
        let scenario = Box::new(presets::find("kip101-scenario-1").expect("preset").scenario());
        let text = CheckRequest::Shrink { scenario, variant: Variant::HwTruncation }.to_json();
        let v: Value = serde_json::from_str(&text).expect("json");
        assert!(v["scenario"].is_object(), "{text}");
        assert!(serde_json::from_str::<Value>(
            &CheckRequest::Check { search: Box::new(search()), claim: None }.to_json()
        )
        .expect("json")["config"]
            .is_object());
    }

    #[test]
    fn a_bad_message_is_an_error_that_names_what_is_wrong() {
        let good: Value =
            serde_json::from_str(&CheckRequest::Check { search: Box::new(search()), claim: None }.to_json())
                .expect("json");
        let without = |key: &str| {
            let mut v = good.clone();
            v.as_object_mut().expect("object").remove(key);
            CheckRequest::from_json(&v.to_string()).err()
        };
        assert_eq!(without("records").as_deref(), Some("no records given"));
        assert_eq!(without("config").as_deref(), Some("no config given"));
        let with = |key: &str, value: Value| {
            let mut v = good.clone();
            v[key] = value;
            CheckRequest::from_json(&v.to_string()).err()
        };
        assert_eq!(with("depth", json!(99)).as_deref(), Some("depth 99 is out of range (1 to 30)"));
        assert_eq!(with("depth", json!("9")).as_deref(), Some("depth is not a whole number"));
        assert_eq!(with("variant", json!("kip-999")).as_deref(), Some("unknown variant kip-999"));
        assert_eq!(with("invariants", json!([])).as_deref(), Some("choose at least one invariant"));
        assert_eq!(with("alphabet", json!("tiny")).as_deref(), Some("unknown alphabet tiny"));
        assert!(with("claim", json!("1~x")).is_some_and(|e| e.contains("2 fields")));
        assert!(with("config", json!({ "min_insync_replicas": "two" })).is_some());
        assert_eq!(CheckRequest::from_json(r#"{"t":"go"}"#).err().as_deref(), Some("an unknown request \"go\""));
        assert!(CheckRequest::from_json("{").is_err_and(|e| e.starts_with("a garbled message")));
        assert_eq!(CheckReply::from_json(r#"{"t":"progress","text":"x"}"#).err().as_deref(), Some("no depth given"));
        assert_eq!(CheckReply::from_json("[]").err().as_deref(), Some("a message that is not a JSON object"));
    }
}
