//! The text scenario format: one event per line, readable aloud (`elect B`, `produce m1 acks=all`,
//! `fetch A drop`, `crash A power no-notify`), under a header of `key: value` lines for the name,
//! description, brokers and configuration. Comments start with `#`; blank lines and step labels (`3: fetch
//! A`) are optional. Documented in `docs/scenario-format.md`. Contract-v1 JSON stays the interchange
//! format; this one is for people.
//!
//! Reading builds the scenario's contract JSON and validates it with the JSON parser, so both formats have
//! the same limits and rules; errors name the line and column. Writing gives a canonical text that reads
//! back to the same scenario, and rewriting that text gives the same text.

mod read;
mod read_fields;
#[cfg(test)]
mod tests;
mod write;

pub(crate) use read::{event, strip_comment};
pub use read::{parse_text, parse_text_with, EventLines, TextError};
pub use write::to_text;
pub(crate) use write::{event_line, quote_if_needed};

use super::{Overrides, Scenario};

/// Whether a file's content is JSON (it starts with `{`, after a byte-order mark and white space) rather
/// than the text format.
pub fn looks_like_json(content: &str) -> bool {
    content.trim_start_matches('\u{feff}').trim_start().starts_with('{')
}

/// Read a scenario from either format, by content.
pub fn parse_any(content: &str) -> Result<Scenario, String> {
    parse_any_with(content, &Overrides::default())
}

/// [`parse_any`], with settings given beside the file (the command line's `--kafka`) counting as its own.
pub fn parse_any_with(content: &str, overrides: &Overrides) -> Result<Scenario, String> {
    let content = content.trim_start_matches('\u{feff}');
    if looks_like_json(content) {
        super::parse::parse_scenario_with(content, overrides).map_err(|e| e.to_string())
    } else {
        parse_text_with(content, overrides).map_err(|e| e.to_string())
    }
}
