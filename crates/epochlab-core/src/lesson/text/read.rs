//! Reading a lesson in the text format. The reader builds the lesson file's JSON and reads that, as the
//! scenario text reader does, so the two forms follow one set of rules; an error found in the JSON (or by
//! `validate` afterwards) is put back on the line of the step or header it is about.

use serde_json::{json, Map, Value};

use super::block::{blocks, fail, prose, Block};
use crate::lesson::{parse_lesson_value, Lesson, LessonError};
use crate::scenario::text::{parse_text, TextError};

/// Header keys, and the lesson file's key each gives.
const HEADERS: [(&str, &str); 7] = [
    ("lesson", "id"),
    ("title", "title"),
    ("minutes", "minutes"),
    ("variants", "variants"),
    ("takeaway", "takeaway"),
    ("source", "sources"),
    ("preset", "preset"),
];

/// Which line holds what: for putting an error found later back on its line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LessonLines {
    /// The line of each step, in order.
    pub steps: Vec<usize>,
    /// The line of each header key given (lesson file keys: `id`, `title`, …) and of `scenario:`.
    pub keys: Vec<(String, usize)>,
}

impl LessonLines {
    /// The line a lesson error's place (`steps[2].check`, `title`, `scenario`) is on.
    pub fn line_of(&self, at: &str) -> usize {
        if let Some(i) =
            at.strip_prefix("steps[").and_then(|r| r.split(']').next()).and_then(|n| n.parse::<usize>().ok())
        {
            return self.steps.get(i).copied().unwrap_or(1);
        }
        let key = at.split(['.', '[']).next().unwrap_or(at);
        self.keys.iter().find(|(k, _)| k == key).map_or(1, |(_, line)| *line)
    }

    /// A lesson error, on its line.
    pub fn placed(&self, e: &LessonError) -> TextError {
        TextError { line: self.line_of(&e.at), column: 1, message: e.to_string() }
    }
}

/// Read a lesson in the text format, with where each step and header is. Errors name their line.
pub fn parse_lesson_text(text: &str) -> Result<(Lesson, LessonLines), TextError> {
    let (json, lines) = lesson_json(text)?;
    match parse_lesson_value(&json) {
        Ok(read) => Ok((read, lines)),
        Err(e) => Err(lines.placed(&e)),
    }
}

/// The lesson file's JSON a text stands for (not yet read as a lesson), with where each step and header is.
pub fn lesson_json(text: &str) -> Result<(Value, LessonLines), TextError> {
    let mut lesson = Map::new();
    let mut lines = LessonLines::default();
    let mut steps = Vec::new();
    for block in blocks(text)? {
        let (head, _) = block.text.split_once(':').unwrap_or((block.text, ""));
        let keyword = head.split_whitespace().next().unwrap_or("");
        if matches!(keyword, "explain" | "predict" | "task" | "compare") {
            steps.push(super::read_step::step(&block)?);
            lines.steps.push(block.line);
        } else if block.text.trim_end() == "scenario:" {
            lesson.insert("scenario".into(), scenario(&block)?);
            lines.keys.push(("scenario".into(), block.line));
        } else {
            let key = header(&block, &mut lesson)?;
            lines.keys.push((key.to_string(), block.line));
        }
    }
    lesson.insert("steps".into(), Value::Array(steps));
    Ok((Value::Object(lesson), lines))
}

/// A `key: value` header line into the lesson's JSON; the lesson file's key it gave.
fn header(block: &Block, lesson: &mut Map<String, Value>) -> Result<&'static str, TextError> {
    let line = block.line;
    let Some((key, value)) = block.text.split_once(':') else {
        return fail(
            line,
            1,
            "expected a header (lesson:, title:, …), scenario: or a step (explain, predict, task, compare)",
        );
    };
    let Some((_, json_key)) = HEADERS.iter().find(|(k, _)| *k == key.trim()) else {
        let known: Vec<&str> = HEADERS.iter().map(|(k, _)| *k).collect();
        return fail(
            line,
            1,
            format!("unknown header \"{}:\" (one of {}, or scenario:)", key.trim(), known.join(", ")),
        );
    };
    if let Some(under) = block.under.first() {
        return fail(under.0, 1, "a header takes no indented lines");
    }
    let column = key.len() + 2;
    let value = prose(value, line, column)?;
    let given = match *json_key {
        "minutes" => {
            Value::from(value.parse::<u64>().or_else(|_| fail(line, column, "minutes: expected a whole number"))?)
        }
        "variants" => Value::from(value.split_whitespace().collect::<Vec<_>>()),
        _ => Value::from(value),
    };
    if *json_key == "sources" {
        let list = lesson.entry("sources").or_insert_with(|| json!([]));
        if let Some(list) = list.as_array_mut() {
            list.push(given);
        }
    } else if lesson.insert(json_key.to_string(), given).is_some() {
        return fail(line, 1, format!("\"{}:\" is given twice (only source: may repeat)", key.trim()));
    }
    Ok(json_key)
}

/// `scenario:` and the scenario under it, in the scenario text format, indented.
fn scenario(block: &Block) -> Result<Value, TextError> {
    let Some(&(first, first_text)) = block.under.first() else {
        return fail(block.line, 1, "scenario: needs the scenario's lines under it, indented");
    };
    let indent = first_text.len() - first_text.trim_start().len();
    let text: Vec<&str> = block.under.iter().map(|(_, l)| l.get(indent..).unwrap_or(l.trim_start())).collect();
    // An error's line in the scenario's own text is the block's n-th line.
    let scenario = parse_text(&text.join("\n")).map_err(|e| {
        let line = block.under.get(e.line.saturating_sub(1)).map_or(first, |u| u.0);
        TextError { line, column: e.column + indent, message: e.message }
    })?;
    serde_json::from_str(&scenario.to_json()).or_else(|e| fail(block.line, 1, e.to_string()))
}
