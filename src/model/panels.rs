//! The panels drawn by the second wasm module (the one the lessons live in), so that their code is not
//! part of the page's first download: the configuration, the message diagram, the scenario as text, the
//! model checker, share and export, and My scenarios. The page draws each panel's frame (its summary or toggle, and an empty root the module
//! draws into); the module draws an open panel's contents from its mirror of what the page shows, and sends
//! back what the user did there as page actions ([`Forwarded`]), which the page handles as its own.

use epochlab_core::scenario::{Event, Policy, Scenario};
use epochlab_core::variant::{KafkaVersion, MetadataMode, ProtocolVersion};
use epochlab_core::{Flag, Variant};
use serde_json::Value;

use super::{Action, PlaceSource};
use crate::formats::snapshot::{self, Snapshot};

/// A panel drawn by the module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Panel {
    Config,
    Messages,
    Text,
    Checker,
    Share,
    /// The selected event's editor: open while an event is selected on a page that may edit.
    Editor,
    /// The scenario's name and description, and My scenarios (with the lessons the user wrote).
    Saved,
}

impl Panel {
    pub const ALL: [Panel; 7] =
        [Panel::Config, Panel::Messages, Panel::Text, Panel::Checker, Panel::Share, Panel::Editor, Panel::Saved];

    /// The element the module draws the panel into.
    pub fn root_id(self) -> &'static str {
        match self {
            Panel::Config => "config-root",
            Panel::Messages => "messages-root",
            Panel::Text => "text-root",
            Panel::Checker => "checker-root",
            Panel::Share => "share-root",
            Panel::Editor => "editor-root",
            Panel::Saved => "saved-root",
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// Which panels are open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Panels(u8);

impl Panels {
    pub fn is_open(self, panel: Panel) -> bool {
        self.0 & panel.bit() != 0
    }

    pub fn with(self, panel: Panel, open: bool) -> Panels {
        Panels(if open { self.0 | panel.bit() } else { self.0 & !panel.bit() })
    }

    pub fn any(self) -> bool {
        self.0 != 0
    }

    pub fn to_json(self) -> String {
        self.0.to_string()
    }

    pub fn from_json(v: &Value) -> Result<Panels, String> {
        let all = Panel::ALL.iter().fold(0u8, |bits, p| bits | p.bit());
        match v.as_u64() {
            Some(bits) if bits & !u64::from(all) == 0 => Ok(Panels(bits as u8)),
            _ => Err("unknown panels".to_string()),
        }
    }
}

/// What the user did in a panel the module draws: the page action it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forwarded {
    /// A step picked in the diagram or the text.
    SetCursor(Option<usize>),
    /// The scenario the text reads as.
    ApplyText(Box<Scenario>),
    /// A file or pasted text imported.
    Import(Box<Snapshot>),
    /// What the checker found.
    LoadFound { scenario: Box<Scenario>, cursor: Option<usize>, what: String },
    /// A bounded-proof stamp to put on the address.
    AddProof(String),
    /// A change in the configuration panel or My scenarios (one of the actions [`config_words`] words).
    Config(Box<Action>),
    /// The editor's new event for a step, in a scenario of the brokers it is read against.
    Edit { step: usize, carrier: Box<Scenario> },
    /// The editor's Delete.
    Remove(usize),
    /// The editor's "Move with the keyboard".
    MoveWithKeys(usize),
    /// The editor closed.
    CloseEditor,
}

/// A configuration or My scenarios action in words: its name and up to two arguments.
fn config_words(action: &Action) -> Option<(&'static str, String, String)> {
    let one = |name, arg: &str| Some((name, arg.to_string(), String::new()));
    match action {
        Action::SetName(name) => one("name", name),
        Action::SetDescription(words) => one("description", words),
        Action::OpenSaved(id) => one("open-saved", &id.to_string()),
        Action::RenameSaved(id, name) => Some(("rename-saved", id.to_string(), name.clone())),
        Action::DuplicateSaved(id) => one("duplicate-saved", &id.to_string()),
        Action::DeleteSaved(id) => one("delete-saved", &id.to_string()),
        Action::ToggleVariant(v) => one("variant", v.id()),
        Action::AddBroker => one("add-broker", ""),
        Action::RemoveBroker(b) => one("remove-broker", b),
        Action::RenameBroker(from, to) => Some(("rename-broker", from.clone(), to.clone())),
        Action::SetMinIsr(n) => one("min-isr", &n.to_string()),
        Action::SetUnclean(on) => one("unclean", on_off(*on)),
        Action::SetElr(on) => one("elr", on_off(*on)),
        Action::SetMetadataMode(mode) => one("metadata-mode", mode.map_or("", MetadataMode::id)),
        Action::SetInterBrokerProtocol(v) => one("ibp", &v.map(ProtocolVersion::id).unwrap_or_default()),
        Action::SetMessageFormat(v) => one("format", &v.map(ProtocolVersion::id).unwrap_or_default()),
        Action::SetHwCheckpoint(p) => one("hw-checkpoint", p.as_str()),
        Action::SetFlush(p) => one("flush", p.as_str()),
        Action::ToggleFlag(f) => one("flag", f.id()),
        Action::SetKafkaRelease(r) => one("release", &r.map(KafkaVersion::id).unwrap_or_default()),
        _ => None,
    }
}

/// The configuration action these words stand for.
fn config_action(name: &str, arg: &str, second: &str) -> Option<Action> {
    let policy = || match arg {
        "always" => Some(Policy::Always),
        "manual" => Some(Policy::Manual),
        _ => None,
    };
    let id = || arg.parse::<u64>().ok();
    Some(match name {
        "name" => Action::SetName(arg.to_string()),
        "description" => Action::SetDescription(arg.to_string()),
        "open-saved" => Action::OpenSaved(id()?),
        "rename-saved" => Action::RenameSaved(id()?, second.to_string()),
        "duplicate-saved" => Action::DuplicateSaved(id()?),
        "delete-saved" => Action::DeleteSaved(id()?),
        "variant" => Action::ToggleVariant(Variant::from_id(arg)?),
        "add-broker" => Action::AddBroker,
        "remove-broker" => Action::RemoveBroker(arg.to_string()),
        "rename-broker" => Action::RenameBroker(arg.to_string(), second.to_string()),
        "min-isr" => Action::SetMinIsr(arg.parse().ok()?),
        "unclean" => Action::SetUnclean(from_on_off(arg)?),
        "elr" => Action::SetElr(from_on_off(arg)?),
        "metadata-mode" if arg.is_empty() => Action::SetMetadataMode(None),
        "metadata-mode" => Action::SetMetadataMode(Some(MetadataMode::from_id(arg).ok()?)),
        "ibp" => Action::SetInterBrokerProtocol(maybe_version(arg)?),
        "format" => Action::SetMessageFormat(maybe_version(arg)?),
        "hw-checkpoint" => Action::SetHwCheckpoint(policy()?),
        "flush" => Action::SetFlush(policy()?),
        "flag" => Action::ToggleFlag(Flag::from_id(arg)?),
        "release" if arg.is_empty() => Action::SetKafkaRelease(None),
        "release" => Action::SetKafkaRelease(Some(KafkaVersion::parse(arg).ok()?)),
        _ => return None,
    })
}

/// `on`, `off`, or empty for "the release's default".
fn on_off(setting: Option<bool>) -> &'static str {
    match setting {
        Some(true) => "on",
        Some(false) => "off",
        None => "",
    }
}

fn from_on_off(word: &str) -> Option<Option<bool>> {
    match word {
        "on" => Some(Some(true)),
        "off" => Some(Some(false)),
        "" => Some(None),
        _ => None,
    }
}

/// A version, or empty for "the release's own".
fn maybe_version(word: &str) -> Option<Option<ProtocolVersion>> {
    match word {
        "" => Some(None),
        v => ProtocolVersion::parse(v).ok().map(Some),
    }
}

/// Text that can stand after `proof=` in the address as it is: a stamp's characters, and short (the
/// checker's module made it; the page does not parse stamps, which would cost its download).
fn is_stamp_text(text: &str) -> bool {
    text.len() < 200 && text.chars().all(|c| c.is_ascii_alphanumeric() || "~.-_".contains(c))
}

impl Forwarded {
    /// The action a panel dispatched, when it is one the page must carry out.
    pub fn of(action: &Action) -> Option<Forwarded> {
        Some(match action {
            Action::SetCursor(c) => Forwarded::SetCursor(*c),
            Action::ApplyText(s) => Forwarded::ApplyText(s.clone()),
            Action::Import(s) => Forwarded::Import(s.clone()),
            Action::LoadFound { scenario, cursor, what } => {
                Forwarded::LoadFound { scenario: scenario.clone(), cursor: *cursor, what: what.clone() }
            }
            Action::AddProof(stamp) => Forwarded::AddProof(stamp.clone()),
            Action::Remove(step) => Forwarded::Remove(*step),
            Action::StartPlacing(PlaceSource::Existing(step)) => Forwarded::MoveWithKeys(*step),
            Action::Select(None) => Forwarded::CloseEditor,
            other if config_words(other).is_some() => Forwarded::Config(Box::new(other.clone())),
            _ => return None,
        })
    }

    /// The editor's new `event` for `step` of `on`: it travels in a scenario of `on`'s brokers and settings.
    pub fn edit(step: usize, event: Event, on: &Scenario) -> Forwarded {
        Forwarded::Edit { step, carrier: Box::new(super::splice::carrier(on, vec![event])) }
    }

    pub fn into_action(self) -> Action {
        match self {
            Forwarded::SetCursor(c) => Action::SetCursor(c),
            Forwarded::ApplyText(s) => Action::ApplyText(s),
            Forwarded::Import(s) => Action::Import(s),
            Forwarded::LoadFound { scenario, cursor, what } => Action::LoadFound { scenario, cursor, what },
            Forwarded::AddProof(stamp) => Action::AddProof(stamp),
            Forwarded::Config(action) => *action,
            Forwarded::Edit { step, mut carrier } => {
                Action::Edit(step, Box::new(carrier.events.pop().unwrap_or(Event::Settle)))
            }
            Forwarded::Remove(step) => Action::Remove(step),
            Forwarded::MoveWithKeys(step) => Action::StartPlacing(PlaceSource::Existing(step)),
            Forwarded::CloseEditor => Action::Select(None),
        }
    }

    pub fn to_json(&self) -> String {
        let cursor = |c: &Option<usize>| c.map_or_else(|| "null".to_string(), |c| c.to_string());
        let quote = |t: &str| serde_json::to_string(t).unwrap_or_default();
        match self {
            Forwarded::SetCursor(c) => format!(r#"{{"do":"cursor","cursor":{}}}"#, cursor(c)),
            Forwarded::ApplyText(s) => format!(r#"{{"do":"text","scenario":{}}}"#, s.to_json()),
            Forwarded::Import(s) => format!(r#"{{"do":"import","snapshot":{}}}"#, snapshot::to_json(s)),
            Forwarded::LoadFound { scenario, cursor: c, what } => format!(
                r#"{{"do":"found","scenario":{},"cursor":{},"what":{}}}"#,
                scenario.to_json(),
                cursor(c),
                quote(what)
            ),
            Forwarded::AddProof(stamp) => format!(r#"{{"do":"proof","stamp":{}}}"#, quote(stamp)),
            Forwarded::Config(a) => {
                let (name, arg, second) = config_words(a).unwrap_or_default();
                format!(r#"{{"do":"config","name":{},"arg":{},"second":{}}}"#, quote(name), quote(&arg), quote(&second))
            }
            Forwarded::Edit { step, carrier } => {
                format!(r#"{{"do":"edit","cursor":{step},"scenario":{}}}"#, carrier.to_json())
            }
            Forwarded::Remove(step) => format!(r#"{{"do":"remove","cursor":{step}}}"#),
            Forwarded::MoveWithKeys(step) => format!(r#"{{"do":"move","cursor":{step}}}"#),
            Forwarded::CloseEditor => r#"{"do":"close-editor"}"#.to_string(),
        }
    }

    pub fn from_json(v: &Value) -> Result<Forwarded, String> {
        let scenario = || -> Result<Box<Scenario>, String> {
            let s = v.get("scenario").ok_or("no scenario")?;
            epochlab_core::scenario::parse_scenario_value(s).map(Box::new).map_err(|e| e.to_string())
        };
        let cursor = v.get("cursor").and_then(Value::as_u64).map(|c| c.min(u64::from(u32::MAX)) as usize);
        match v.get("do").and_then(Value::as_str) {
            Some("cursor") => Ok(Forwarded::SetCursor(cursor)),
            Some("text") => Ok(Forwarded::ApplyText(scenario()?)),
            Some("import") => {
                let s = v.get("snapshot").ok_or("no snapshot")?;
                snapshot::from_value(s).map(|s| Forwarded::Import(Box::new(s)))
            }
            Some("found") => {
                let what = v.get("what").and_then(Value::as_str).unwrap_or_default().chars().take(300).collect();
                Ok(Forwarded::LoadFound { scenario: scenario()?, cursor, what })
            }
            Some("proof") => {
                let stamp = v.get("stamp").and_then(Value::as_str).filter(|s| is_stamp_text(s)).ok_or("no stamp")?;
                Ok(Forwarded::AddProof(stamp.to_string()))
            }
            Some("config") => {
                let word = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default();
                let action = config_action(word("name"), word("arg"), word("second")).ok_or("an unknown setting")?;
                Ok(Forwarded::Config(Box::new(action)))
            }
            Some("edit") => {
                let carrier = scenario()?;
                if carrier.events.len() != 1 {
                    return Err("an edit is one event".to_string());
                }
                Ok(Forwarded::Edit { step: cursor.ok_or("no step")?, carrier })
            }
            Some("remove") => Ok(Forwarded::Remove(cursor.ok_or("no step")?)),
            Some("move") => Ok(Forwarded::MoveWithKeys(cursor.ok_or("no step")?)),
            Some("close-editor") => Ok(Forwarded::CloseEditor),
            _ => Err("an unknown panel action".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;

    #[test]
    fn every_forwarded_action_round_trips_to_the_action_it_stands_for() {
        let m = Model::landing();
        let actions = [
            Action::SetCursor(Some(3)),
            Action::SetCursor(None),
            Action::ApplyText(Box::new((*m.scenario).clone())),
            Action::Import(Box::new(m.snapshot())),
            Action::LoadFound {
                scenario: Box::new((*m.scenario).clone()),
                cursor: Some(2),
                what: "found \"it\"".into(),
            },
            Action::ToggleVariant(Variant::Kip101),
            Action::AddBroker,
            Action::RemoveBroker("C".into()),
            Action::RenameBroker("A".into(), "Ann \"1\"".into()),
            Action::SetMinIsr(2),
            Action::SetUnclean(Some(true)),
            Action::SetUnclean(Some(false)),
            Action::SetUnclean(None),
            Action::SetElr(Some(true)),
            Action::SetElr(None),
            Action::SetMetadataMode(Some(MetadataMode::KRaft)),
            Action::SetMetadataMode(None),
            Action::SetInterBrokerProtocol(ProtocolVersion::parse("2.7-IV0").ok()),
            Action::SetInterBrokerProtocol(None),
            Action::SetMessageFormat(ProtocolVersion::parse("0.10.2").ok()),
            Action::SetHwCheckpoint(Policy::Manual),
            Action::SetFlush(Policy::Always),
            Action::ToggleFlag(Flag::ALL[0]),
            Action::SetKafkaRelease(None),
            Action::SetKafkaRelease(KafkaVersion::parse("4.0.1").ok()),
            Action::AddProof("1~kafka-2.1~default~2~2~3~9~I1.I2~1234~exhausted~0000abcd".into()),
            Action::Remove(4),
            Action::StartPlacing(PlaceSource::Existing(2)),
            Action::Select(None),
            Action::SetName("Mine \"1\"".into()),
            Action::SetDescription("two\nlines".into()),
            Action::OpenSaved(7),
            Action::RenameSaved(7, "renamed".into()),
            Action::DuplicateSaved(7),
            Action::DeleteSaved(u64::MAX),
        ];
        for action in actions {
            let f = Forwarded::of(&action).expect("forwarded");
            let v: Value = serde_json::from_str(&f.to_json()).expect("json");
            assert_eq!(Forwarded::from_json(&v).map(Forwarded::into_action), Ok(action));
        }
        assert_eq!(Forwarded::of(&Action::Undo), None, "the page's own actions are not forwarded");
        let crash = Event::Crash { broker: "B".into(), power: true, notify_controller: false };
        let edit = Forwarded::edit(3, crash.clone(), &m.scenario);
        let v: Value = serde_json::from_str(&edit.to_json()).expect("json");
        assert_eq!(Forwarded::from_json(&v).map(Forwarded::into_action), Ok(Action::Edit(3, Box::new(crash))));
        let stranger = serde_json::json!({ "do": "edit", "cursor": 1, "scenario": { "version": 1, "brokers": ["A"],
            "events": [{ "kind": "crash", "broker": "Z" }] } });
        assert!(Forwarded::from_json(&stranger).is_err(), "an edit naming no broker of the scenario is refused");
        assert!(Forwarded::from_json(&serde_json::json!({ "do": "text", "scenario": 3 })).is_err());
        let bad = serde_json::json!({ "do": "config", "name": "variant", "arg": "kip-999", "second": "" });
        assert!(Forwarded::from_json(&bad).is_err(), "an unknown variant is refused, not guessed");
        let smuggled = serde_json::json!({ "do": "proof", "stamp": "1~x&s=evil" });
        assert!(Forwarded::from_json(&smuggled).is_err(), "a stamp cannot write other parameters");
    }

    #[test]
    fn panels_open_and_close_one_by_one_and_unknown_bits_are_refused() {
        let p = Panels::default().with(Panel::Text, true).with(Panel::Share, true).with(Panel::Text, false);
        assert!(p.is_open(Panel::Share) && !p.is_open(Panel::Text) && p.any());
        let v: Value = serde_json::from_str(&p.to_json()).expect("json");
        assert_eq!(Panels::from_json(&v), Ok(p));
        assert!(Panels::from_json(&Value::from(128)).is_err());
    }
}
