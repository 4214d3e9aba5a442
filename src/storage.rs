//! The working scenario survives a reload: it is kept in localStorage as contract JSON plus the variants
//! shown. A value that cannot be read falls back to the landing scenario with a visible notice.

use epochlab_core::scenario::parse_scenario_value;
use epochlab_core::{Scenario, Variant};
use serde::Deserialize;

use crate::model::{Model, Notice};

/// The localStorage key (versioned, so a future format can tell old values apart).
pub const KEY: &str = "epochlab.working.v1";

#[derive(Deserialize)]
struct Stored {
    scenario: serde_json::Value,
    variants: Vec<String>,
    #[serde(default)]
    cursor: Option<usize>,
}

/// Serialise what is worth keeping: the scenario's own contract JSON (the one serialiser the app carries),
/// the variants shown and the cursor.
pub fn encode(model: &Model) -> String {
    let variants: Vec<String> = model.variants.iter().map(|v| format!("\"{}\"", v.id())).collect();
    let cursor = model.cursor.map_or_else(|| "null".to_string(), |c| c.to_string());
    format!(
        r#"{{"scenario": {}, "variants": [{}], "cursor": {cursor}}}"#,
        model.scenario.to_json(),
        variants.join(", ")
    )
}

/// The parts of a stored value (also what an exported SVG carries): scenario, variants shown, cursor.
pub fn decode_parts(text: &str) -> Result<(Scenario, Vec<Variant>, Option<usize>), String> {
    let stored: Stored = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let scenario = parse_scenario_value(&stored.scenario).map_err(|e| e.to_string())?;
    let mut variants = Vec::new();
    for id in &stored.variants {
        variants.push(Variant::from_id(id).ok_or_else(|| format!("unknown variant \"{id}\""))?);
    }
    Ok((scenario, variants, stored.cursor))
}

/// Read a stored value back. `Err` carries the reason, for the notice.
pub fn decode(text: &str) -> Result<Model, String> {
    let (scenario, variants, cursor) = decode_parts(text)?;
    let mut model = Model::new(scenario, variants, None);
    model.cursor = cursor.filter(|c| Some(*c) <= model.last_step()).or(model.cursor);
    if let Some(p) = epochlab_core::presets::PRESETS.iter().find(|p| p.scenario() == model.scenario) {
        model.preset = Some(p.id);
    }
    Ok(model)
}

/// The model to start with: the stored one, the landing one, or the landing one with a notice.
pub fn initial(stored: Option<String>) -> Model {
    match stored {
        None => Model::landing(),
        Some(text) => decode(&text).unwrap_or_else(|why| {
            let mut m = Model::landing();
            m.notice = Some(Notice {
                error: true,
                text: format!("Your saved scenario could not be read ({why}), so the default scenario is shown."),
            });
            m
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Action;

    #[test]
    fn a_stored_model_comes_back_with_its_scenario_variants_and_cursor() {
        let m = Model::landing().reduce(Action::AddBroker).reduce(Action::SetCursor(Some(3)));
        let back = initial(Some(encode(&m)));
        assert_eq!(back.scenario, m.scenario);
        assert_eq!(back.variants, m.variants);
        assert_eq!(back.cursor, Some(3));
        assert!(back.notice.is_none());
    }

    #[test]
    fn a_preset_is_recognised_after_a_reload() {
        let back = initial(Some(encode(&Model::landing())));
        assert_eq!(back.preset, Some("kip101-scenario-1"));
    }

    #[test]
    fn a_corrupt_value_falls_back_to_the_landing_scenario_with_a_notice() {
        for bad in ["{", "null", r#"{"scenario": {"version": 9, "brokers": ["A"]}, "variants": []}"#] {
            let m = initial(Some(bad.to_string()));
            assert_eq!(m.scenario, Model::landing().scenario);
            assert!(m.notice.as_ref().is_some_and(|n| n.error && n.text.contains("could not be read")), "{bad}");
        }
    }
}
