//! Reading the text format.

use std::fmt;

use serde_json::{json, Map, Value};

use crate::scenario::parse::CONFIG_FIELDS;
use crate::scenario::Overrides;
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

/// A quoted label or value without its closing quote (reading on would lose the rest of the line).
const UNCLOSED: &str = "the quote opened here is not closed before the end of the line";

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

/// A header line: its key, its value as written (comment included) and the value's column.
struct Header<'a> {
    key: &'a str,
    value: &'a str,
    column: usize,
}

/// Where a header line put its value: for an error the JSON check finds in it (`brokers[2]`: the third word).
struct Placed<'a> {
    key: &'a str,
    line: usize,
    column: usize,
    words: Vec<usize>,
}

/// Parse a scenario in the text format.
pub fn parse_text(text: &str) -> Result<Scenario, TextError> {
    parse_text_with(text, &Overrides::default())
}

/// [`parse_text`], with settings given beside the file counting as the file's own.
pub fn parse_text_with(text: &str, overrides: &Overrides) -> Result<Scenario, TextError> {
    let mut top = Map::new();
    let mut config = Map::new();
    let mut events = Vec::new();
    let mut lines_of_events = Vec::new();
    let mut headers: Vec<Placed> = Vec::new();
    for (line, kind) in classified(text) {
        let content = match kind {
            Line::Blank => continue,
            Line::Header(h) => {
                check_header_place(&h, line, &headers, !events.is_empty())?;
                headers.push(header_value(&mut top, &mut config, &h, line)?);
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
    overrides.apply(&mut config);
    top.insert("config".into(), Value::Object(config));
    top.insert("events".into(), Value::Array(events));
    if !top.contains_key("brokers") {
        return fail(1, 1, "missing \"brokers:\" (e.g. brokers: A B)");
    }
    parse_scenario_value(&Value::Object(top)).or_else(|e| {
        let (line, column) = position(&e.at, &headers, &lines_of_events);
        fail(line, column, e.message)
    })
}

/// A header line comes before the events, once (but for the description, which goes on over lines).
fn check_header_place(h: &Header, line: usize, before: &[Placed], after_events: bool) -> Result<(), TextError> {
    let key = h.key;
    if after_events {
        return fail(line, 1, format!("the header line \"{key}:\" must come before the first event"));
    }
    match before.iter().find(|p| p.key == key && key != "description") {
        Some(first) => {
            fail(line, 1, format!("\"{key}:\" is already given on line {} (only description: may repeat)", first.line))
        }
        None => Ok(()),
    }
}

/// Where an error of the JSON check is in the text: `events[3] (fetch)` on step 3's line; `brokers[1]`,
/// `config.flags[0]` or `config.flush` on their header's line, at the word or the value.
fn position(at: &str, headers: &[Placed], lines_of_events: &[usize]) -> (usize, usize) {
    if let Some(i) = event_index(at) {
        return (lines_of_events.get(i).copied().unwrap_or(1), 1);
    }
    let path = at.strip_prefix("config.").unwrap_or(at);
    let (key, word) = match path.split_once('[') {
        Some((key, rest)) => (key, rest.trim_end_matches(']').parse::<usize>().ok()),
        None => (path, None),
    };
    match headers.iter().find(|h| h.key == key) {
        Some(h) => (h.line, word.and_then(|w| h.words.get(w).copied()).unwrap_or(h.column)),
        None => (1, 1),
    }
}

/// What a line is to the reader.
enum Line<'a> {
    /// Empty, white space or a comment.
    Blank,
    /// `key: value` for a header key, its comment still on (a quoted name may hold a `#`).
    Header(Header<'a>),
    /// Anything else is an event (or an error in one), without its comment.
    Event(&'a str),
}

/// Every line with its 1-based number and what it is.
fn classified(text: &str) -> impl Iterator<Item = (usize, Line<'_>)> {
    text.trim_start_matches('\u{feff}').lines().enumerate().map(|(n, raw)| {
        let content = strip_comment(raw);
        let line = match header(raw) {
            Some(h) => Line::Header(h),
            None if content.trim().is_empty() => Line::Blank,
            None => Line::Event(content),
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

/// The line without a `#` comment. A `#` inside a quoted word stays; a quote opens one only at the start of a
/// word, as in [`tokens`] (`5"` is a word with a quote in it). An unclosed quote keeps the rest, for `tokens`
/// to refuse.
pub(crate) fn strip_comment(line: &str) -> &str {
    let (mut i, mut word_start) = (0, true);
    while let Some(c) = line[i..].chars().next() {
        match c {
            '#' => return &line[..i],
            '"' if word_start => match closing_quote(&line[i..]) {
                Some(end) => i += end,
                None => return line,
            },
            _ => {}
        }
        word_start = c.is_whitespace();
        i += c.len_utf8();
    }
    line
}

/// The byte index of the quote that closes the one `text` starts with (a `\` escapes the next character).
fn closing_quote(text: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in text.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some(i),
            _ => {}
        }
    }
    None
}

/// `key: value` for a header key.
fn header(line: &str) -> Option<Header<'_>> {
    let (key, value) = line.split_once(':')?;
    let column = line[..line.len() - value.len()].chars().count() + 1;
    let key = key.trim();
    header_keys().any(|k| k == key).then_some(Header { key, value, column })
}

/// A header value without its comment or outer spaces, and the column it starts at. The name and description
/// may be a JSON string (for outer spaces, a `#` or a leading quote); any other value ends at a `#`.
fn header_text(h: &Header, line: usize) -> Result<(String, usize), TextError> {
    let value = h.value.trim_start();
    let column = h.column + h.value[..h.value.len() - value.len()].chars().count();
    if value.starts_with('"') && matches!(h.key, "name" | "description") {
        return Ok((unquote(value, line, column)?, column));
    }
    Ok((value.split('#').next().unwrap_or_default().trim_end().to_string(), column))
}

/// The words of a header value and their columns (the value's first character is at `column`).
fn words(value: &str, column: usize) -> Vec<Token<'_>> {
    let offset = |w: &str| w.as_ptr() as usize - value.as_ptr() as usize;
    value.split_whitespace().map(|w| Token { text: w, column: column + value[..offset(w)].chars().count() }).collect()
}

fn header_value<'a>(
    top: &mut Map<String, Value>,
    config: &mut Map<String, Value>,
    h: &Header<'a>,
    line: usize,
) -> Result<Placed<'a>, TextError> {
    let (value, column) = header_text(h, line)?;
    let words = words(&value, column);
    let texts: Vec<&str> = words.iter().map(|w| w.text).collect();
    let key = h.key;
    match key {
        "version" => top.insert(
            key.into(),
            value.parse::<u64>().map(Value::from).or_else(|_| fail(line, column, "expected a whole number"))?,
        ),
        "name" => top.insert(key.into(), json!(value)),
        "description" => {
            let joined = match top.get(key).and_then(Value::as_str) {
                Some(before) => format!("{before}\n{value}"),
                None => value.clone(),
            };
            top.insert(key.into(), json!(joined))
        }
        "brokers" => top.insert(key.into(), json!(texts)),
        "flags" => config.insert(key.into(), json!(texts)),
        "min_insync_replicas" => config.insert(
            key.into(),
            value.parse::<u64>().map(Value::from).or_else(|_| fail(line, column, "expected a number from 1 to 5"))?,
        ),
        "unclean_leader_election" | "eligible_leader_replicas" => {
            config.insert(key.into(), json!(boolean(&value, line, column)?))
        }
        _ => config.insert(key.into(), json!(value)),
    };
    Ok(Placed { key, line, column, words: words.iter().map(|w| w.column).collect() })
}

fn boolean(value: &str, line: usize, column: usize) -> Result<bool, TextError> {
    match value {
        "true" | "yes" => Ok(true),
        "false" | "no" => Ok(false),
        other => fail(line, column, format!("expected true or false, got '{other}'")),
    }
}

/// A quoted header value (its quote at `column`): one JSON string, then nothing but a comment.
fn unquote(value: &str, line: usize, column: usize) -> Result<String, TextError> {
    let Some(end) = closing_quote(value) else { return fail(line, column, UNCLOSED) };
    let rest = value[end + 1..].trim_start();
    if !rest.is_empty() && !rest.starts_with('#') {
        let at = column + value[..value.len() - rest.len()].chars().count();
        let rest = strip_comment(rest).trim_end();
        return fail(line, at, format!("expected nothing after the quoted value but a comment, got '{rest}'"));
    }
    serde_json::from_str(&value[..=end]).or_else(|_| fail(line, column, "a quoted value must be one JSON string"))
}

/// Split a line into words, keeping a quoted label (which may hold spaces and escapes) as one word; its quote
/// must close on the line.
fn tokens(content: &str, line: usize) -> Result<Vec<Token<'_>>, TextError> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(skip) = content[from..].find(|c: char| !c.is_whitespace()) {
        let start = from + skip;
        let (word, column) = (&content[start..], content[..start].chars().count() + 1);
        let quoted = if word.starts_with('"') {
            closing_quote(word).map_or_else(|| fail(line, column, UNCLOSED), |end| Ok(end + 1))?
        } else {
            0
        };
        let len = word[quoted..].find(char::is_whitespace).map_or(word.len(), |n| quoted + n);
        out.push(Token { text: &word[..len], column });
        from = start + len;
    }
    Ok(out)
}

/// One event line as its contract JSON object.
pub(crate) fn event(content: &str, line: usize, index: usize) -> Result<Value, TextError> {
    let mut words = tokens(content, line)?;
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
