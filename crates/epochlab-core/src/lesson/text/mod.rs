//! The lesson text format: a lesson file for people, as the scenario text format is for scenarios. A
//! header (`lesson:`, `title:`, `minutes:`, `variants:`, `takeaway:`, `source:` or `preset:`), the scenario
//! indented under `scenario:` in the scenario text format, then one line per step, `KIND [key=value …]:
//! words`, with a step's longer settings indented under it. `docs/lessons.md` describes it whole.
//!
//! ```text
//! lesson: acks-one-lost-on-failover
//! title: An acks=1 write lost on failover
//! variants: kip-279
//! takeaway: acks=1 acknowledges a write before any follower has it.
//! preset: happy-path
//!
//! explain at=4 highlight=A@1: A acknowledges m2 at once.
//! predict survivors broker=A before=8 variant=kip-279: Paint A's log: what survives?
//! ```

mod block;
mod read;
mod read_step;
mod write;

pub use read::{lesson_json, parse_lesson_text, LessonLines};
pub use write::to_text;

use super::{validate, Lesson};
use crate::scenario::text::looks_like_json;

/// A lesson file in either form (JSON when its first character is `{`), read and checked against the
/// simulator. The first problem is the error: in JSON, named by its place (`steps[2]: …`); in text, by its
/// line (`line 9, column 1: steps[2]: …`).
pub fn check_any(content: &str) -> Result<Lesson, String> {
    check_any_placed(content).map(|(lesson, _)| lesson)
}

/// [`check_any`], with where each step is when the lesson was text.
pub fn check_any_placed(content: &str) -> Result<(Lesson, Option<LessonLines>), String> {
    if looks_like_json(content) {
        let lesson = super::parse_lesson(content.trim_start_matches('\u{feff}')).map_err(|e| e.to_string())?;
        return validate(&lesson).map(|()| (lesson, None)).map_err(|e| e.to_string());
    }
    let (lesson, lines) = parse_lesson_text(content).map_err(|e| e.to_string())?;
    validate(&lesson).map_err(|e| lines.placed(&e).to_string())?;
    Ok((lesson, Some(lines)))
}

/// A lesson file's JSON, from either form (a link carries JSON): JSON as it is, text converted. Errors in
/// text name their line.
pub fn to_json(content: &str) -> Result<String, String> {
    if looks_like_json(content) {
        return Ok(content.trim_start_matches('\u{feff}').to_string());
    }
    lesson_json(content).map(|(json, _)| json.to_string()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests;
