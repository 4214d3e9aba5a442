//! The pieces of a lesson's text both readers take apart (`read`, the lesson; `read_step`, one step): the
//! lines in blocks, the words after a `:`, event lines, and an error on a line.

use serde_json::Value;

use crate::scenario::text::{event, strip_comment, TextError};

/// An error at `line`, `column`.
pub(super) fn fail<T>(line: usize, column: usize, message: impl Into<String>) -> Result<T, TextError> {
    Err(TextError { line, column, message: message.into() })
}

/// A top-level line and the indented lines under it.
pub(super) struct Block<'a> {
    pub line: usize,
    pub text: &'a str,
    pub under: Vec<(usize, &'a str)>,
}

/// The lines in blocks; comments and blank lines left out (a scenario keeps its blank lines).
pub(super) fn blocks(text: &str) -> Result<Vec<Block<'_>>, TextError> {
    let mut out: Vec<Block> = Vec::new();
    for (n, raw) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let line = n + 1;
        if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
            continue;
        }
        if raw.starts_with([' ', '\t']) {
            let Some(block) = out.last_mut() else {
                return fail(line, 1, "an indented line must belong to the step or the scenario above it");
            };
            block.under.push((line, raw));
        } else {
            out.push(Block { line, text: raw, under: Vec::new() });
        }
    }
    Ok(out)
}

/// The words after a `:`: trimmed, or a JSON string when they start with a quote.
pub(super) fn prose(value: &str, line: usize, column: usize) -> Result<String, TextError> {
    let value = value.trim();
    if value.starts_with('"') {
        return serde_json::from_str(value)
            .or_else(|e| fail(line, column, format!("a quoted text that does not read: {e}")));
    }
    Ok(value.to_string())
}

/// Event lines (the scenario text format's) as a lesson file's events.
pub(super) fn events(lines: &[(usize, &str)]) -> Result<Value, TextError> {
    let mut out = Vec::new();
    for (i, (line, raw)) in lines.iter().enumerate() {
        let indent = raw.len() - raw.trim_start().len();
        let read = event(strip_comment(raw.trim_start()), *line, i)
            .map_err(|e| TextError { column: e.column + indent, ..e })?;
        out.push(read);
    }
    Ok(Value::Array(out))
}
