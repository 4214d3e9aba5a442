//! The actions the lessons module forwards from the panels it draws, on the wire: a change of the cluster's
//! settings (each setting under its name, its value typed: a number, true or false, a version or release as
//! text, null for "the release's own") and of the name, description or My scenarios (ids as numbers), read
//! back strictly.

use epochlab_core::scenario::Policy;
use epochlab_core::variant::{KafkaVersion, MetadataMode, ProtocolVersion};
use epochlab_core::Flag;
use serde_json::{json, Value};

use super::settings::{ConfigAction, SavedAction};
use crate::formats::wire::Fields;

impl ConfigAction {
    /// `{"set": name, ...}`, the values typed.
    pub fn to_value(&self) -> Value {
        let version = |v: &Option<ProtocolVersion>| v.map(ProtocolVersion::id);
        match self {
            ConfigAction::AddBroker => json!({ "set": "add-broker" }),
            ConfigAction::RemoveBroker(b) => json!({ "set": "remove-broker", "broker": b }),
            ConfigAction::RenameBroker(from, to) => json!({ "set": "rename-broker", "broker": from, "to": to }),
            ConfigAction::SetMinIsr(n) => json!({ "set": "min-isr", "value": n }),
            ConfigAction::SetUnclean(on) => json!({ "set": "unclean", "value": on }),
            ConfigAction::SetElr(on) => json!({ "set": "elr", "value": on }),
            ConfigAction::SetMetadataMode(m) => json!({ "set": "metadata-mode", "value": m.map(MetadataMode::id) }),
            ConfigAction::SetInterBrokerProtocol(v) => json!({ "set": "ibp", "value": version(v) }),
            ConfigAction::SetMessageFormat(v) => json!({ "set": "format", "value": version(v) }),
            ConfigAction::SetHwCheckpoint(p) => json!({ "set": "hw-checkpoint", "value": p.as_str() }),
            ConfigAction::SetFlush(p) => json!({ "set": "flush", "value": p.as_str() }),
            ConfigAction::ToggleFlag(f) => json!({ "set": "flag", "value": f.id() }),
            ConfigAction::SetKafkaRelease(r) => json!({ "set": "release", "value": r.map(KafkaVersion::id) }),
        }
    }

    /// Read back; a setting the page does not know, or a value of the wrong type, is refused with its name.
    pub fn from_value(v: &Value) -> Result<ConfigAction, String> {
        let f = Fields::of(v)?;
        Ok(match f.text("set")? {
            "add-broker" => ConfigAction::AddBroker,
            "remove-broker" => ConfigAction::RemoveBroker(f.text("broker")?.into()),
            "rename-broker" => ConfigAction::RenameBroker(f.text("broker")?.into(), f.text("to")?.into()),
            "min-isr" => ConfigAction::SetMinIsr(u8::try_from(f.number("value")?).map_err(|_| "value is too large")?),
            "unclean" => ConfigAction::SetUnclean(maybe_flag(&f)?),
            "elr" => ConfigAction::SetElr(maybe_flag(&f)?),
            "metadata-mode" => {
                ConfigAction::SetMetadataMode(f.maybe_text("value")?.map(MetadataMode::from_id).transpose()?)
            }
            "ibp" => ConfigAction::SetInterBrokerProtocol(maybe_version(&f)?),
            "format" => ConfigAction::SetMessageFormat(maybe_version(&f)?),
            "hw-checkpoint" => ConfigAction::SetHwCheckpoint(policy(&f)?),
            "flush" => ConfigAction::SetFlush(policy(&f)?),
            "flag" => {
                let id = f.text("value")?;
                ConfigAction::ToggleFlag(Flag::from_id(id).ok_or_else(|| format!("unknown flag {id}"))?)
            }
            "release" => ConfigAction::SetKafkaRelease(f.maybe_text("value")?.map(KafkaVersion::parse).transpose()?),
            other => return Err(format!("an unknown setting \"{other}\"")),
        })
    }
}

impl SavedAction {
    /// `{"saved": name, ...}`, ids as numbers.
    pub fn to_value(&self) -> Value {
        match self {
            SavedAction::SetName(name) => json!({ "saved": "name", "text": name }),
            SavedAction::SetDescription(words) => json!({ "saved": "description", "text": words }),
            SavedAction::OpenSaved(id) => json!({ "saved": "open", "id": id }),
            SavedAction::RenameSaved(id, name) => json!({ "saved": "rename", "id": id, "text": name }),
            SavedAction::DuplicateSaved(id) => json!({ "saved": "duplicate", "id": id }),
            SavedAction::DeleteSaved(id) => json!({ "saved": "delete", "id": id }),
        }
    }

    /// Read back; an unknown action, or a field missing or of the wrong type, is refused with its name.
    pub fn from_value(v: &Value) -> Result<SavedAction, String> {
        let f = Fields::of(v)?;
        Ok(match f.text("saved")? {
            "name" => SavedAction::SetName(f.text("text")?.into()),
            "description" => SavedAction::SetDescription(f.text("text")?.into()),
            "open" => SavedAction::OpenSaved(f.number("id")?),
            "rename" => SavedAction::RenameSaved(f.number("id")?, f.text("text")?.into()),
            "duplicate" => SavedAction::DuplicateSaved(f.number("id")?),
            "delete" => SavedAction::DeleteSaved(f.number("id")?),
            other => return Err(format!("an unknown My scenarios action \"{other}\"")),
        })
    }
}

fn maybe_flag(f: &Fields) -> Result<Option<bool>, String> {
    match f.get("value")? {
        Value::Null => Ok(None),
        _ => f.flag("value").map(Some),
    }
}

fn maybe_version(f: &Fields) -> Result<Option<ProtocolVersion>, String> {
    f.maybe_text("value")?.map(ProtocolVersion::parse).transpose()
}

fn policy(f: &Fields) -> Result<Policy, String> {
    match f.text("value")? {
        "always" => Ok(Policy::Always),
        "manual" => Ok(Policy::Manual),
        other => Err(format!("unknown policy {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_round_trips_typed_and_a_bad_one_is_refused_by_name() {
        let all = [
            ConfigAction::AddBroker,
            ConfigAction::RemoveBroker("C".into()),
            ConfigAction::RenameBroker("A".into(), "Ann \"1\"".into()),
            ConfigAction::SetMinIsr(2),
            ConfigAction::SetUnclean(Some(true)),
            ConfigAction::SetUnclean(None),
            ConfigAction::SetElr(Some(false)),
            ConfigAction::SetMetadataMode(Some(MetadataMode::KRaft)),
            ConfigAction::SetMetadataMode(None),
            ConfigAction::SetInterBrokerProtocol(ProtocolVersion::parse("2.7-IV0").ok()),
            ConfigAction::SetMessageFormat(None),
            ConfigAction::SetHwCheckpoint(Policy::Manual),
            ConfigAction::SetFlush(Policy::Always),
            ConfigAction::ToggleFlag(Flag::Kip320),
            ConfigAction::SetKafkaRelease(KafkaVersion::parse("4.0.1").ok()),
            ConfigAction::SetKafkaRelease(None),
        ];
        for a in all {
            assert_eq!(ConfigAction::from_value(&a.to_value()), Ok(a.clone()), "{a:?}");
        }
        let refused = |v: Value| ConfigAction::from_value(&v).err().unwrap_or_default();
        assert_eq!(refused(json!({ "set": "min-isr", "value": "2" })), "value is not a whole number");
        assert_eq!(refused(json!({ "set": "unclean", "value": "on" })), "value is not true or false");
        assert_eq!(refused(json!({ "set": "unclean" })), "no value given");
        assert_eq!(refused(json!({ "set": "acks" })), "an unknown setting \"acks\"");
        assert!(refused(json!({ "set": "release", "value": "9.9" })).contains("unknown Kafka release"));
    }

    #[test]
    fn every_my_scenarios_action_round_trips_and_a_bad_one_is_refused_by_name() {
        let all = [
            SavedAction::SetName("a \"b\"".into()),
            SavedAction::SetDescription("d".into()),
            SavedAction::OpenSaved(3),
            SavedAction::RenameSaved(3, "c".into()),
            SavedAction::DuplicateSaved(4),
            SavedAction::DeleteSaved(5),
        ];
        for a in all {
            assert_eq!(SavedAction::from_value(&a.to_value()), Ok(a.clone()), "{a:?}");
        }
        let refused = |v: Value| SavedAction::from_value(&v).err().unwrap_or_default();
        assert_eq!(refused(json!({ "saved": "open", "id": "3" })), "id is not a whole number");
        assert_eq!(refused(json!({ "saved": "rename", "id": 3 })), "no text given");
        assert_eq!(refused(json!({ "saved": "keep" })), "an unknown My scenarios action \"keep\"");
    }
}
