//! Importing a scenario from text: a contract-v1 JSON file, a file in the text format, an Epochlab SVG (its
//! metadata), or pasted JSON or text (told apart by content, as the CLI does).
//! Errors name the problem (the position in the JSON, the unknown field or kind, the broker); the caller leaves
//! the current scenario untouched when this fails.

use epochlab_core::scenario::text::{looks_like_json, parse_text};
use epochlab_core::Variant;

use crate::formats::export::{looks_like_svg, metadata_of};
use crate::formats::snapshot::{self, Snapshot};

/// The largest file or pasted text imported, in bytes (the core's, which the CLI reads by too).
pub const MAX_IMPORT_BYTES: usize = epochlab_core::scenario::MAX_FILE_BYTES;

/// Why `source` (a file's name, "the pasted text") of `bytes` bytes is not imported, if it is too large.
pub fn too_large(source: &str, bytes: usize) -> Option<String> {
    (bytes > MAX_IMPORT_BYTES).then(|| format!("{source} is larger than 4 MB"))
}

/// Read a snapshot from a file's or the clipboard's text (in the lessons' module, which has the text
/// format's reader). A bare scenario file opens under the variants `shown` now, on its last step.
pub fn import_text(text: &str, shown: &[Variant]) -> Result<Snapshot, String> {
    let text = without_bom(text);
    if text.trim().is_empty() {
        return Err("it is empty".to_string());
    }
    if looks_like_svg(text) {
        let json = metadata_of(text).ok_or("this SVG was not made by Epochlab: it carries no scenario")?;
        return snapshot::from_json(&json).map_err(|e| format!("the SVG's scenario: {e}"));
    }
    // A saved working state ({"scenario": …, "variants": …}) is accepted too; anything else is a scenario file.
    if let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(text) {
        if map.contains_key("scenario") && !map.contains_key("version") {
            return snapshot::from_json(text);
        }
    }
    let scenario = if looks_like_json(text) {
        epochlab_core::scenario::parse_scenario(text).map_err(|e| e.to_string())?
    } else {
        parse_text(text).map_err(|e| e.to_string())?
    };
    Ok(snapshot::of_scenario(scenario, shown.to_vec()))
}

// A byte-order mark: the file picker's decoder drops it, so pasted text drops it too.
fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Read the snapshot an exported PNG carries (in its `iTXt` chunk, as the SVG carries it in metadata).
pub fn import_png(bytes: &[u8]) -> Result<Snapshot, String> {
    if !epochlab_core::png::is_png(bytes) {
        return Err("it is not a PNG".to_string());
    }
    let json = epochlab_core::png::text_of(bytes, crate::formats::export::METADATA_ID)
        .ok_or("this PNG was not made by Epochlab: it carries no scenario")?;
    snapshot::from_json(&json).map_err(|e| format!("the PNG's scenario: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHOWN: [Variant; 1] = [Variant::Kip279];

    #[test]
    fn a_scenario_file_imports_under_the_variants_shown_on_its_last_step() {
        let p = &epochlab_core::presets::PRESETS[1];
        let got = import_text(p.json, &SHOWN).unwrap();
        assert_eq!(got.scenario, p.scenario());
        assert_eq!(got.variants, SHOWN);
        assert_eq!(got.cursor, snapshot::last_step(&got.scenario));
    }

    #[test]
    fn a_text_file_or_pasted_text_imports_like_the_json_and_its_errors_name_the_line() {
        let p = &epochlab_core::presets::PRESETS[2];
        let text = epochlab_core::scenario::text::to_text(&p.scenario());
        assert_eq!(import_text(&text, &SHOWN), import_text(p.json, &SHOWN));
        assert_eq!(import_text(&format!("\u{feff}{text}"), &SHOWN).map(|s| s.scenario), Ok(p.scenario()));
        let typo = import_text("brokers: A B\n\nelect A\n  crsh A\n", &SHOWN);
        assert_eq!(typo, Err("line 4, column 3: unknown event kind 'crsh' (did you mean 'crash'?)".to_string()));
    }

    #[test]
    fn an_exported_svg_imports_with_its_variants_and_cursor() {
        let scenario = epochlab_core::presets::default_scenario();
        let variants = vec![Variant::HwTruncation, Variant::Kip279];
        let traces = epochlab_core::compare(&scenario, &variants).traces;
        let views = epochlab_core::view::views(&traces, Some(4));
        let shared = Snapshot { scenario: scenario.clone(), variants: variants.clone(), cursor: Some(4) };
        let (svg, ..) =
            crate::formats::export::svg(&scenario, &traces, &views, Some(4), &snapshot::to_json(&shared), None);
        assert_eq!(import_text(&svg, &SHOWN), Ok(shared));
    }

    #[test]
    fn empty_text_is_refused_with_the_reason() {
        assert_eq!(import_text("  ", &SHOWN), Err("it is empty".to_string()));
        assert_eq!(import_text("\u{feff}", &SHOWN), Err("it is empty".to_string()));
    }

    #[test]
    fn pasted_text_with_a_byte_order_mark_imports_like_the_file() {
        let p = &epochlab_core::presets::PRESETS[1];
        assert_eq!(import_text(&format!("\u{feff}{}", p.json), &SHOWN), import_text(p.json, &SHOWN));
        assert!(import_text(&format!("\u{feff}{}", p.json), &SHOWN).is_ok());
    }

    #[test]
    fn more_than_4_mb_is_too_large_for_files_and_pastes_alike() {
        assert_eq!(too_large("the pasted text", MAX_IMPORT_BYTES), None);
        assert_eq!(
            too_large("the pasted text", MAX_IMPORT_BYTES + 1),
            Some("the pasted text is larger than 4 MB".into())
        );
    }

    #[test]
    fn a_png_carrying_a_snapshot_imports_it_and_any_other_picture_says_why_not() {
        let shared = Snapshot {
            scenario: epochlab_core::presets::PRESETS[2].scenario(),
            variants: vec![Variant::Kip101, Variant::Kip279],
            cursor: Some(5),
        };
        // The smallest PNG: signature, IHDR (1×1 RGBA) and IEND, with their CRCs.
        let bare: Vec<u8> = [
            &[0x89, b'P', b'N', b'G', 13, 10, 0x1a, 10][..],
            &[0, 0, 0, 13, b'I', b'H', b'D', b'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89],
            &[0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xae, 0x42, 0x60, 0x82],
        ]
        .concat();
        let png =
            epochlab_core::png::with_text(&bare, crate::formats::export::METADATA_ID, &snapshot::to_json(&shared))
                .unwrap();
        assert_eq!(import_png(&png), Ok(shared));
        assert!(import_png(&bare).unwrap_err().contains("not made by Epochlab"));
        assert_eq!(import_png(b"GIF89a"), Err("it is not a PNG".to_string()));
    }

    #[test]
    fn errors_name_the_problem() {
        let import = |text: &str| import_text(text, &SHOWN);
        assert_eq!(import("  "), Err("it is empty".to_string()));
        assert_eq!(import("{\"version\": 1,"), Err("line 1 column 14: EOF while parsing a value".to_string()));
        let bad_broker = r#"{"version": 1, "brokers": ["A"], "events": [{"kind": "crash", "broker": "Q"}]}"#;
        assert_eq!(
            import(bad_broker),
            Err("events[0] (crash): unknown broker \"Q\" (this scenario has A)".to_string())
        );
        assert!(import("<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>")
            .unwrap_err()
            .contains("not made by Epochlab"));
        let bad_kind = r#"{"version": 1, "brokers": ["A"], "events": [{"kind": "explode"}]}"#;
        assert!(import(bad_kind).unwrap_err().contains("unknown event kind \"explode\""));
        let bad_field = r#"{"version": 1, "brokers": ["A"], "colour": "red"}"#;
        assert!(import(bad_field).unwrap_err().contains("unknown field \"colour\""));
    }
}
