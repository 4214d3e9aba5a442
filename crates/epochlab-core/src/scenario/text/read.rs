//! Reading the text format.

use std::fmt;

use serde_json::{json, Map, Value};

use crate::scenario::parse::CONFIG_FIELDS;
use crate::scenario::{parse_scenario_value, EventKind, Scenario, MAX_EVENTS};

/// What is wrong, where: `line 7, column 9: unknown event kind 'crsh' (did you mean 'crash'?)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was found and what was expected.
    pub message: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

fn fail<T>(line: usize, column: usize, message: impl Into<String>) -> Result<T, TextError> {
    Err(TextError { line, column, message: message.into() })
}

/// The header keys before the configuration's (whose names are the JSON's, [`CONFIG_FIELDS`]), in the order
/// the formatter writes them.
const TOP_HEADER_KEYS: [&str; 4] = ["version", "name", "description", "brokers"];

/// Every header key, in the order the formatter writes them.
fn header_keys() -> impl Iterator<Item = &'static str> {
    TOP_HEADER_KEYS.into_iter().chain(CONFIG_FIELDS)
}

/// One word of a line and the column it starts at.
struct Token<'a> {
    text: &'a str,
    column: usize,
}

/// Parse a scenario in the text format.
pub fn parse_text(text: &str) -> Result<Scenario, TextError> {
    let mut top = Map::new();
    let mut config = Map::new();
    let mut events = Vec::new();
    let mut lines_of_events = Vec::new();
    let mut header_lines: Vec<(String, usize)> = Vec::new();
    for (line, kind) in classified(text) {
        let content = match kind {
            Line::Blank => continue,
            Line::Header(key, _) if !events.is_empty() => {
                return fail(line, 1, format!("the header line \"{key}:\" must come before the first event"));
            }
            Line::Header(key, value) => {
                header_value(&mut top, &mut config, key, value, line)?;
                header_lines.push((key.to_string(), line));
                continue;
            }
            Line::Event(content) => content,
        };
        if events.len() >= MAX_EVENTS {
            return fail(line, 1, format!("a scenario holds at most {MAX_EVENTS} events"));
        }
        events.push(event(content, line, events.len())?);
        lines_of_events.push(line);
    }
    top.entry("version").or_insert_with(|| json!(1));
    top.insert("config".into(), Value::Object(config));
    top.insert("events".into(), Value::Array(events));
    if !top.contains_key("brokers") {
        return fail(1, 1, "missing \"brokers:\" (e.g. brokers: A B)");
    }
    parse_scenario_value(&Value::Object(top)).or_else(|e| {
        // A configuration error points at its header line, an event's at the event's.
        let header = e.at.strip_prefix("config.").and_then(|k| header_lines.iter().find(|(h, _)| h == k)).map(|h| h.1);
        let line = header.or_else(|| event_index(&e.at).and_then(|i| lines_of_events.get(i).copied())).unwrap_or(1);
        fail(line, 1, e.message)
    })
}

/// What a line is to the reader.
enum Line<'a> {
    /// Empty, white space or a comment.
    Blank,
    /// `key: value` for a header key.
    Header(&'a str, &'a str),
    /// Anything else is an event (or an error in one), without its comment.
    Event(&'a str),
}

/// Every line with its 1-based number and what it is.
fn classified(text: &str) -> impl Iterator<Item = (usize, Line<'_>)> {
    text.trim_start_matches('\u{feff}').lines().enumerate().map(|(n, raw)| {
        let content = strip_comment(raw);
        let line = if content.trim().is_empty() {
            Line::Blank
        } else if let Some((key, value)) = header(content) {
            Line::Header(key, value)
        } else {
            Line::Event(content)
        };
        (n + 1, line)
    })
}

/// Which line holds which step: step `i` is the `i`-th event line, as the reader counts them. It is known
/// for any text, even one that does not read (a line in error that would be an event still counts), so an
/// editor can follow its cursor while the text is being written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventLines(Vec<usize>);

impl EventLines {
    /// The event lines of `text`.
    pub fn of(text: &str) -> EventLines {
        EventLines(classified(text).filter(|(_, l)| matches!(l, Line::Event(_))).map(|(n, _)| n).collect())
    }

    /// The 1-based line of step `step`.
    pub fn line_of(&self, step: usize) -> Option<usize> {
        self.0.get(step).copied()
    }

    /// The step on a 1-based line, if that line is an event's.
    pub fn step_on(&self, line: usize) -> Option<usize> {
        self.0.binary_search(&line).ok()
    }

    /// The last step on or before a 1-based line: where a text cursor on that line is in time (after the
    /// step above a comment or blank line; `None` above the first step).
    pub fn step_at(&self, line: usize) -> Option<usize> {
        self.0.partition_point(|l| *l <= line).checked_sub(1)
    }

    /// How many event lines there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `events[3] (fetch)` → 3.
fn event_index(at: &str) -> Option<usize> {
    at.strip_prefix("events[")?.split(']').next()?.parse().ok()
}

/// The line without a `#` comment (a `#` inside a quoted label stays).
fn strip_comment(line: &str) -> &str {
    let (mut quoted, mut escaped) = (false, false);
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

/// `key: value` for a header key.
fn header(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let key = key.trim();
    header_keys().any(|k| k == key).then(|| (key, value.strip_prefix(' ').unwrap_or(value)))
}

fn header_value(
    top: &mut Map<String, Value>,
    config: &mut Map<String, Value>,
    key: &str,
    value: &str,
    line: usize,
) -> Result<(), TextError> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let column = key.len() + 3;
    match key {
        "version" => top.insert(
            key.into(),
            value.trim().parse::<u64>().map(Value::from).or_else(|_| fail(line, column, "expected a whole number"))?,
        ),
        "name" => top.insert(key.into(), json!(unquote(value, line, column)?)),
        "description" => {
            let more = unquote(value, line, column)?;
            let joined = match top.get(key).and_then(Value::as_str) {
                Some(before) => format!("{before}\n{more}"),
                None => more,
            };
            top.insert(key.into(), json!(joined))
        }
        "brokers" => top.insert(key.into(), json!(words)),
        "flags" => config.insert(key.into(), json!(words)),
        "min_insync_replicas" => config.insert(
            key.into(),
            value
                .trim()
                .parse::<u64>()
                .map(Value::from)
                .or_else(|_| fail(line, column, "expected a number from 1 to 5"))?,
        ),
        "unclean_leader_election" | "eligible_leader_replicas" => {
            config.insert(key.into(), json!(boolean(value.trim(), line, column)?))
        }
        _ => config.insert(key.into(), json!(value.trim())),
    };
    Ok(())
}

fn boolean(value: &str, line: usize, column: usize) -> Result<bool, TextError> {
    match value {
        "true" | "yes" => Ok(true),
        "false" | "no" => Ok(false),
        other => fail(line, column, format!("expected true or false, got '{other}'")),
    }
}

/// A header value or label, plain or as a JSON string (for leading spaces, quotes and the like).
fn unquote(value: &str, line: usize, column: usize) -> Result<String, TextError> {
    if value.starts_with('"') {
        serde_json::from_str(value.trim_end()).or_else(|_| fail(line, column, "a quoted value must be one JSON string"))
    } else {
        Ok(value.to_string())
    }
}

/// Split a line into words, keeping a quoted label (which may hold spaces and escapes) as one word.
fn tokens(line: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    let (mut quoted, mut escaped) = (false, false);
    for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
        if escaped {
            escaped = false;
            continue;
        }
        match (start, c) {
            (None, c) if !c.is_whitespace() => {
                start = Some(i);
                quoted = c == '"';
            }
            (Some(_), '\\') if quoted => escaped = true,
            (Some(s), '"') if quoted && i > s => quoted = false,
            (Some(s), c) if c.is_whitespace() && !quoted => {
                out.push(Token { text: &line[s..i], column: line[..s].chars().count() + 1 });
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// One event line as its contract JSON object.
fn event(content: &str, line: usize, index: usize) -> Result<Value, TextError> {
    let mut words = tokens(content);
    if let Some(label) = words.first().and_then(|w| w.text.strip_suffix(':')) {
        match label.parse::<usize>() {
            Ok(step) if step == index => {}
            Ok(step) => return fail(line, words[0].column, format!("this is step {index}, but it is labelled {step}")),
            Err(_) => {
                return fail(
                    line,
                    words[0].column,
                    format!("unknown header \"{label}:\" (one of {})", header_keys().collect::<Vec<_>>().join(", ")),
                )
            }
        }
        words.remove(0);
    }
    let Some(first) = words.first() else { return fail(line, 1, "a step label needs an event after it") };
    let Some(kind) = EventKind::from_id(first.text) else {
        return fail(line, first.column, unknown_kind(first.text));
    };
    let mut object = Map::new();
    object.insert("kind".into(), json!(kind.id()));
    for word in &words[1..] {
        super::read_fields::field(kind, word.text, &mut object).or_else(|m| fail(line, word.column, m))?;
    }
    Ok(Value::Object(object))
}

fn unknown_kind(word: &str) -> String {
    let kinds: Vec<&str> = EventKind::ALL.iter().map(|k| k.id()).collect();
    let close = kinds.iter().map(|k| (edit_distance(k, word), *k)).min().filter(|(d, _)| *d <= 2);
    match close {
        Some((_, k)) => format!("unknown event kind '{word}' (did you mean '{k}'?)"),
        None => format!("unknown event kind '{word}' (expected one of {})", kinds.join(", ")),
    }
}

/// Levenshtein distance, for "did you mean".
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}
