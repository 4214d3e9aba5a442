//! Importing a scenario from text: a contract-v1 JSON file, an Epochlab SVG (its metadata), or pasted JSON.
//! Errors name the problem (the position in the JSON, the unknown field or kind, the broker); the caller leaves
//! the current scenario untouched when this fails.

use epochlab_core::{parse_scenario, Scenario, Variant};

use crate::export::{looks_like_svg, metadata_of};
use crate::storage::decode_parts;

/// What an import brings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The scenario.
    pub scenario: Scenario,
    /// Variants shown, when the source recorded them (an SVG does).
    pub variants: Option<Vec<Variant>>,
    /// The cursor, when recorded.
    pub cursor: Option<usize>,
}

/// Read a scenario from a file's or the clipboard's text.
pub fn import_text(text: &str) -> Result<Imported, String> {
    if text.trim().is_empty() {
        return Err("it is empty".to_string());
    }
    if looks_like_svg(text) {
        let json = metadata_of(text).ok_or("this SVG was not made by Epochlab: it carries no scenario")?;
        let (scenario, variants, cursor) = decode_parts(&json).map_err(|e| format!("the SVG's scenario: {e}"))?;
        return Ok(Imported { scenario, variants: Some(variants), cursor });
    }
    // A saved working state ({"scenario": …, "variants": …}) is accepted too; anything else is a scenario file.
    if let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(text) {
        if map.contains_key("scenario") && !map.contains_key("version") {
            let (scenario, variants, cursor) = decode_parts(text)?;
            return Ok(Imported { scenario, variants: Some(variants), cursor });
        }
    }
    let scenario = parse_scenario(text).map_err(|e| e.to_string())?;
    Ok(Imported { scenario, variants: None, cursor: None })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;

    #[test]
    fn a_scenario_file_imports() {
        let p = &epochlab_core::presets::PRESETS[1];
        let got = import_text(p.json).unwrap();
        assert_eq!(got.scenario, p.scenario());
        assert_eq!(got.variants, None);
    }

    #[test]
    fn an_exported_svg_imports_with_its_variants_and_cursor() {
        let m = Model::landing();
        let views = epochlab_core::view::views(&m.traces, Some(4));
        let (svg, _) = crate::export::svg(
            &m.scenario,
            &m.traces,
            &views,
            Some(4),
            &crate::storage::encode(&Model { cursor: Some(4), ..m.clone() }),
        );
        let got = import_text(&svg).unwrap();
        assert_eq!(got.scenario, m.scenario);
        assert_eq!(got.variants, Some(m.variants.clone()));
        assert_eq!(got.cursor, Some(4));
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(import_text("  "), Err("it is empty".to_string()));
        assert_eq!(import_text("{\"version\": 1,"), Err("line 1 column 14: EOF while parsing a value".to_string()));
        let bad_broker = r#"{"version": 1, "brokers": ["A"], "events": [{"kind": "crash", "broker": "Q"}]}"#;
        assert_eq!(
            import_text(bad_broker),
            Err("events[0] (crash): unknown broker \"Q\" (this scenario has A)".to_string())
        );
        assert!(import_text("<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>")
            .unwrap_err()
            .contains("not made by Epochlab"));
        let bad_kind = r#"{"version": 1, "brokers": ["A"], "events": [{"kind": "explode"}]}"#;
        assert!(import_text(bad_kind).unwrap_err().contains("unknown event kind \"explode\""));
        let bad_field = r#"{"version": 1, "brokers": ["A"], "colour": "red"}"#;
        assert!(import_text(bad_field).unwrap_err().contains("unknown field \"colour\""));
    }
}
