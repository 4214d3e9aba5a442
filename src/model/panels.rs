//! The panels drawn by the second wasm module (the one the lessons live in), so that their code is not
//! part of the page's first download: the configuration, the message diagram, the scenario as text, the
//! model checker, share and export, and My scenarios. The page draws each panel's frame (its summary or toggle, and an empty root the module
//! draws into); the module draws an open panel's contents from its mirror of what the page shows, and sends
//! back what the user did there as page actions ([`Forwarded`]), which the page handles as its own.

use epochlab_core::scenario::{Event, Scenario};
use epochlab_core::Variant;
use serde_json::{json, Value};

use super::settings::{ConfigAction, SavedAction};
use crate::formats::snapshot::{self, Snapshot};
use crate::formats::wire::Fields;

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

    /// The open panels as bits, one per [`Panel`] in order (the message form).
    pub fn bits(self) -> u8 {
        self.0
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
    /// A change of the cluster's settings in the configuration panel, typed on the wire.
    Config(ConfigAction),
    /// A change of the name, the description or My scenarios, typed on the wire.
    Saved(SavedAction),
    /// A variant shown or hidden.
    ToggleVariant(Variant),
    /// The editor's new event for a step, and the scenario (without events) whose brokers it names.
    Edit { step: usize, event: Box<Event>, on: Box<Scenario> },
    /// The editor's Delete.
    Remove(usize),
    /// The editor's "Move with the keyboard".
    MoveWithKeys(usize),
    /// The editor closed.
    CloseEditor,
}

/// Text that can stand after `proof=` in the address as it is: a stamp's characters, and short (the
/// checker's module made it; the page does not parse stamps, which would cost its download).
fn is_stamp_text(text: &str) -> bool {
    text.len() < 200 && text.chars().all(|c| c.is_ascii_alphanumeric() || "~.-_".contains(c))
}

impl Forwarded {
    /// The editor's new `event` for `step` of `on`: it travels in a scenario of `on`'s brokers and settings.
    pub fn edit(step: usize, event: Event, on: &Scenario) -> Forwarded {
        Forwarded::Edit { step, event: Box::new(event), on: Box::new(super::splice::carrier(on, Vec::new())) }
    }

    pub fn to_value(&self) -> Value {
        match self {
            Forwarded::SetCursor(c) => json!({ "do": "cursor", "cursor": c }),
            Forwarded::ApplyText(s) => json!({ "do": "text", "scenario": s }),
            Forwarded::Import(s) => json!({ "do": "import", "snapshot": snapshot::to_value(s) }),
            Forwarded::LoadFound { scenario, cursor, what } => {
                json!({ "do": "found", "scenario": scenario, "cursor": cursor, "what": what })
            }
            Forwarded::AddProof(stamp) => json!({ "do": "proof", "stamp": stamp }),
            Forwarded::Config(change) => json!({ "do": "config", "change": change.to_value() }),
            Forwarded::Saved(change) => json!({ "do": "saved", "change": change.to_value() }),
            Forwarded::ToggleVariant(v) => json!({ "do": "variant", "variant": v.id() }),
            // The event travels in a scenario of the brokers and settings it is read against.
            Forwarded::Edit { step, event, on } => {
                json!({ "do": "edit", "cursor": step, "scenario": super::splice::carrier(on, vec![(**event).clone()]) })
            }
            Forwarded::Remove(step) => json!({ "do": "remove", "cursor": step }),
            Forwarded::MoveWithKeys(step) => json!({ "do": "move", "cursor": step }),
            Forwarded::CloseEditor => json!({ "do": "close-editor" }),
        }
    }

    pub fn from_value(v: &Value) -> Result<Forwarded, String> {
        let f = Fields::of(v)?;
        let step = || f.small("cursor").map(|c| c as usize);
        Ok(match f.text("do")? {
            "cursor" => Forwarded::SetCursor(f.maybe_small("cursor")?.map(|c| c as usize)),
            "text" => Forwarded::ApplyText(f.scenario("scenario")?),
            "import" => Forwarded::Import(Box::new(snapshot::from_value(f.get("snapshot")?)?)),
            "found" => Forwarded::LoadFound {
                scenario: f.scenario("scenario")?,
                cursor: f.maybe_small("cursor")?.map(|c| c as usize),
                what: f.short_text("what", 300)?.to_string(),
            },
            "proof" => {
                let stamp = f.text("stamp")?;
                if !is_stamp_text(stamp) {
                    return Err("stamp is not a stamp".to_string());
                }
                Forwarded::AddProof(stamp.to_string())
            }
            "config" => Forwarded::Config(ConfigAction::from_value(f.get("change")?)?),
            "saved" => Forwarded::Saved(SavedAction::from_value(f.get("change")?)?),
            "variant" => Forwarded::ToggleVariant(f.variant("variant")?),
            "edit" => {
                let mut on = f.scenario("scenario")?;
                let event = match (on.events.pop(), on.events.is_empty()) {
                    (Some(event), true) => Box::new(event),
                    _ => return Err("an edit is one event".to_string()),
                };
                Forwarded::Edit { step: step()?, event, on }
            }
            "remove" => Forwarded::Remove(step()?),
            "move" => Forwarded::MoveWithKeys(step()?),
            "close-editor" => Forwarded::CloseEditor,
            other => return Err(format!("an unknown panel action \"{other}\"")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Action, CursorAction, EditAction, LoadAction, Model, PlaceAction, PlaceSource, VariantsAction};
    use epochlab_core::scenario::Policy;
    use epochlab_core::variant::{KafkaVersion, MetadataMode, ProtocolVersion};
    use epochlab_core::Flag;

    #[test]
    fn every_forwarded_action_round_trips_to_the_action_it_stands_for() {
        let m = Model::landing();
        let actions = [
            Action::Cursor(CursorAction::Set(Some(3))),
            Action::Cursor(CursorAction::Set(None)),
            Action::Edit(EditAction::ApplyText(Box::new((*m.shown.scenario).clone()))),
            Action::Load(LoadAction::Import(Box::new(m.shown.snapshot()))),
            Action::Load(LoadAction::Found {
                scenario: Box::new((*m.shown.scenario).clone()),
                cursor: Some(2),
                what: "found \"it\"".into(),
            }),
            Action::Variants(VariantsAction::Toggle(Variant::Kip101)),
            Action::Config(ConfigAction::AddBroker),
            Action::Config(ConfigAction::RemoveBroker("C".into())),
            Action::Config(ConfigAction::RenameBroker("A".into(), "Ann \"1\"".into())),
            Action::Config(ConfigAction::SetMinIsr(2)),
            Action::Config(ConfigAction::SetUnclean(Some(true))),
            Action::Config(ConfigAction::SetUnclean(Some(false))),
            Action::Config(ConfigAction::SetUnclean(None)),
            Action::Config(ConfigAction::SetElr(Some(true))),
            Action::Config(ConfigAction::SetElr(None)),
            Action::Config(ConfigAction::SetMetadataMode(Some(MetadataMode::KRaft))),
            Action::Config(ConfigAction::SetMetadataMode(None)),
            Action::Config(ConfigAction::SetInterBrokerProtocol(ProtocolVersion::parse("2.7-IV0").ok())),
            Action::Config(ConfigAction::SetInterBrokerProtocol(None)),
            Action::Config(ConfigAction::SetMessageFormat(ProtocolVersion::parse("0.10.2").ok())),
            Action::Config(ConfigAction::SetHwCheckpoint(Policy::Manual)),
            Action::Config(ConfigAction::SetFlush(Policy::Always)),
            Action::Config(ConfigAction::ToggleFlag(Flag::ALL[0])),
            Action::Config(ConfigAction::SetKafkaRelease(None)),
            Action::Config(ConfigAction::SetKafkaRelease(KafkaVersion::parse("4.0.1").ok())),
            Action::Load(LoadAction::AddProof("1~kafka-2.1~default~2~2~3~9~I1.I2~1234~exhausted~0000abcd".into())),
            Action::Edit(EditAction::Remove(4)),
            Action::Place(PlaceAction::Start(PlaceSource::Existing(2))),
            Action::Cursor(CursorAction::Select(None)),
            Action::Saved(SavedAction::SetName("Mine \"1\"".into())),
            Action::Saved(SavedAction::SetDescription("two\nlines".into())),
            Action::Saved(SavedAction::OpenSaved(7)),
            Action::Saved(SavedAction::RenameSaved(7, "renamed".into())),
            Action::Saved(SavedAction::DuplicateSaved(7)),
            Action::Saved(SavedAction::DeleteSaved(u64::MAX)),
        ];
        for action in actions {
            let f = Forwarded::of(&action).expect("forwarded");
            let v = f.to_value();
            assert_eq!(Forwarded::from_value(&v).map(Forwarded::into_action), Ok(action));
        }
        assert_eq!(Forwarded::of(&Action::Edit(EditAction::Undo)), None, "the page's own actions are not forwarded");
        let crash = Event::Crash { broker: "B".into(), power: true, notify_controller: false };
        let edit = Forwarded::edit(3, crash.clone(), &m.shown.scenario);
        let v = edit.to_value();
        assert_eq!(
            Forwarded::from_value(&v).map(Forwarded::into_action),
            Ok(Action::Edit(EditAction::Replace(3, Box::new(crash))))
        );
        let stranger = serde_json::json!({ "do": "edit", "cursor": 1, "scenario": { "version": 1, "brokers": ["A"],
            "events": [{ "kind": "crash", "broker": "Z" }] } });
        assert!(Forwarded::from_value(&stranger).is_err(), "an edit naming no broker of the scenario is refused");
        assert!(Forwarded::from_value(&serde_json::json!({ "do": "text", "scenario": 3 })).is_err());
        let bad = serde_json::json!({ "do": "config", "name": "variant", "arg": "kip-999", "second": "" });
        assert!(Forwarded::from_value(&bad).is_err(), "an unknown variant is refused, not guessed");
        let smuggled = serde_json::json!({ "do": "proof", "stamp": "1~x&s=evil" });
        assert!(Forwarded::from_value(&smuggled).is_err(), "a stamp cannot write other parameters");
    }

    #[test]
    fn panels_open_and_close_one_by_one_and_unknown_bits_are_refused() {
        let p = Panels::default().with(Panel::Text, true).with(Panel::Share, true).with(Panel::Text, false);
        assert!(p.is_open(Panel::Share) && !p.is_open(Panel::Text) && p.any());
        let v = Value::from(p.bits());
        assert_eq!(Panels::from_json(&v), Ok(p));
        assert!(Panels::from_json(&Value::from(128)).is_err());
    }
}
