//! The one snapshot of the working state (the scenario, the variants shown and the cursor) that every way in
//! and out of the page uses: share links, localStorage, an exported SVG's metadata, imports and the share
//! panel. It is the core's [`ShareState`], what a link holds; this module adds the JSON form that storage and
//! SVG metadata carry. A snapshot is opened in one place, `Model::open`.

use epochlab_core::scenario::parse_scenario_value;
use epochlab_core::share::ShareState;
use epochlab_core::{Scenario, Variant};
use serde::Deserialize;

/// The working state worth keeping. Its cursor is the step shown (`None`: before the first step), clamped
/// to the timeline when opened.
pub type Snapshot = ShareState;

#[derive(Deserialize)]
struct Stored {
    scenario: serde_json::Value,
    variants: Vec<String>,
    /// Absent: not recorded, the last step is shown. `null`: before the first step.
    #[serde(default, deserialize_with = "recorded")]
    cursor: Option<Option<usize>>,
}

/// A `cursor` that is present, even as `null` (serde reads a present `null` as absent otherwise).
fn recorded<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<usize>>, D::Error> {
    Option::<usize>::deserialize(d).map(Some)
}

/// The last step of a scenario: where a source that records no cursor opens.
pub fn last_step(scenario: &Scenario) -> Option<u32> {
    scenario.events.len().checked_sub(1).map(|c| c as u32)
}

/// A bare scenario (a scenario file records neither variants nor cursor), shown under `variants` on its last
/// step.
pub fn of_scenario(scenario: Scenario, variants: Vec<Variant>) -> Snapshot {
    Snapshot { cursor: last_step(&scenario), scenario, variants }
}

/// The JSON form: the scenario's own contract JSON (the one serialiser the app carries), the variants shown
/// and the cursor.
pub fn to_json(snapshot: &Snapshot) -> String {
    let variants: Vec<String> = snapshot.variants.iter().map(|v| format!("\"{}\"", v.id())).collect();
    let cursor = snapshot.cursor.map_or_else(|| "null".to_string(), |c| c.to_string());
    format!(
        r#"{{"scenario": {}, "variants": [{}], "cursor": {cursor}}}"#,
        snapshot.scenario.to_json(),
        variants.join(", ")
    )
}

/// The JSON form as a value, to travel inside a message (never a JSON text inside a JSON text).
pub fn to_value(snapshot: &Snapshot) -> serde_json::Value {
    let variants: Vec<&str> = snapshot.variants.iter().map(|v| v.id()).collect();
    serde_json::json!({ "scenario": snapshot.scenario, "variants": variants, "cursor": snapshot.cursor })
}

/// Read the JSON form back. `Err` carries the reason, for a notice.
pub fn from_json(text: &str) -> Result<Snapshot, String> {
    from_value(&serde_json::from_str(text).map_err(|e| e.to_string())?)
}

/// Read the JSON form from a value already parsed (a message that carries a snapshot), without printing it
/// back to text first.
pub fn from_value(value: &serde_json::Value) -> Result<Snapshot, String> {
    let stored = Stored::deserialize(value).map_err(|e| e.to_string())?;
    let scenario = parse_scenario_value(&stored.scenario).map_err(|e| e.to_string())?;
    let mut variants = Vec::new();
    for id in &stored.variants {
        variants.push(Variant::from_id(id).ok_or_else(|| format!("unknown variant \"{id}\""))?);
    }
    // A cursor past the timeline is clamped when the snapshot is opened, so saturating here loses nothing.
    let cursor = match stored.cursor {
        Some(recorded) => recorded.map(|c| u32::try_from(c).unwrap_or(u32::MAX)),
        None => last_step(&scenario),
    };
    Ok(Snapshot { scenario, variants, cursor })
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::presets;

    fn landing(cursor: Option<u32>) -> Snapshot {
        Snapshot {
            scenario: presets::default_scenario(),
            variants: vec![Variant::HwTruncation, Variant::Kip279],
            cursor,
        }
    }

    #[test]
    fn the_json_form_round_trips_every_cursor() {
        for cursor in [None, Some(0), Some(4)] {
            assert_eq!(from_json(&to_json(&landing(cursor))), Ok(landing(cursor)));
        }
    }

    #[test]
    fn a_value_without_a_cursor_opens_on_the_last_step() {
        let scenario = presets::default_scenario().to_json();
        let got = from_json(&format!(r#"{{"scenario": {scenario}, "variants": ["kip-279"]}}"#)).unwrap();
        assert_eq!((got.variants, got.cursor), (vec![Variant::Kip279], Some(9)));
        assert_eq!(of_scenario(presets::default_scenario(), vec![]).cursor, Some(9));
        assert_eq!(of_scenario(Scenario::empty(), vec![]).cursor, None);
    }

    #[test]
    fn a_value_that_cannot_be_read_says_why() {
        assert!(from_json("{").is_err());
        let scenario = presets::default_scenario().to_json();
        let unknown = format!(r#"{{"scenario": {scenario}, "variants": ["kip-9"]}}"#);
        assert_eq!(from_json(&unknown), Err("unknown variant \"kip-9\"".to_string()));
    }
}
