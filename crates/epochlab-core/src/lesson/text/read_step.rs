//! One step of a lesson's text: `KIND [key=value …]: words`, and the indented settings under it
//! (`choices:`, `wrong:`, `check:` as JSON; a task's `solution:` and `wrong:` as event lines).

use serde_json::{json, Map, Value};

use super::block::{events, fail, prose, Block};
use crate::scenario::text::TextError;

/// The words of a step's head with their 1-based columns.
fn head_words(head: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in head.char_indices().chain(std::iter::once((head.len(), ' '))) {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s + 1, &head[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

/// The settings each kind of step takes on its head line.
fn settings_of(kind: &str) -> &'static [&'static str] {
    match kind {
        "explain" => &["at", "highlight"],
        "predict" => &["broker", "offset", "before", "variant"],
        "compare" => &["variants", "releases"],
        _ => &[],
    }
}

/// A step's line and the lines under it, as a lesson file's step.
pub(super) fn step(block: &Block) -> Result<Value, TextError> {
    let line = block.line;
    let Some((head, words)) = block.text.split_once(':') else {
        return fail(line, block.text.trim_end().len() + 1, "expected \":\" and the step's words after its settings");
    };
    let mut heads = head_words(head).into_iter();
    let (_, kind) = heads.next().unwrap_or((1, ""));
    let mut step = Map::new();
    let text = prose(words, line, head.len() + 2)?;
    let text_key = if kind == "predict" { "prompt" } else { kind };
    step.insert(text_key.into(), text.into());
    if kind == "predict" {
        let Some((_, question)) = heads.next().filter(|(_, w)| !w.contains('=')) else {
            let kinds = "survivors, hw, leader, record_at, any_bug, logs_agree or consumer_sees";
            return fail(line, head.len() + 1, format!("predict needs the question's kind: predict {kinds}"));
        };
        step.insert("predict".into(), question.into());
    }
    for (column, word) in heads {
        let Some((key, value)) = word.split_once('=').filter(|(k, _)| settings_of(kind).contains(k)) else {
            let takes = settings_of(kind).iter().map(|k| format!("{k}=")).collect::<Vec<_>>().join(", ");
            let takes = if takes.is_empty() { "no settings".to_string() } else { takes };
            return fail(line, column, format!("\"{word}\": {kind} takes {takes}"));
        };
        step.insert(key.into(), setting(key, value, line, column)?);
    }
    under(block, kind, &mut step)?;
    Ok(Value::Object(step))
}

/// A head setting's value: a number, a list, or a name.
fn setting(key: &str, value: &str, line: usize, column: usize) -> Result<Value, TextError> {
    let number = || {
        value
            .parse::<u32>()
            .map(Value::from)
            .or_else(|_| fail(line, column, format!("{key}= expects a whole number, not \"{value}\"")))
    };
    match key {
        "at" | "offset" | "before" => number(),
        "highlight" => {
            value.split(',').map(|h| highlight(h, line, column)).collect::<Result<Vec<_>, _>>().map(Value::from)
        }
        "variants" | "releases" => Ok(Value::from(value.split(',').filter(|v| !v.is_empty()).collect::<Vec<_>>())),
        _ => Ok(Value::from(value)),
    }
}

/// `A` (a row), `A@1` (a cell), `#5` (a chip).
fn highlight(word: &str, line: usize, column: usize) -> Result<Value, TextError> {
    let bad =
        || fail(line, column, format!("highlight \"{word}\": write A (a row), A@1 (a cell) or #5 (a step's chip)"));
    if let Some(step) = word.strip_prefix('#') {
        return step.parse::<u32>().map_or_else(|_| bad(), |s| Ok(json!({"step": s})));
    }
    match word.split_once('@') {
        Some((broker, offset)) if !broker.is_empty() => {
            offset.parse::<u32>().map_or_else(|_| bad(), |o| Ok(json!({"broker": broker, "offset": o})))
        }
        None if !word.is_empty() => Ok(json!({"broker": word})),
        _ => bad(),
    }
}

/// The indented lines under a step: `key: JSON` settings, and a task's event lists.
fn under(block: &Block, kind: &str, step: &mut Map<String, Value>) -> Result<(), TextError> {
    let (json_keys, lists): (&[&str], &[&str]) = match kind {
        "predict" => (&["choices", "wrong", "scenario", "preset"], &[]),
        "task" => (&["check"], &["solution", "wrong"]),
        _ => (&[], &[]),
    };
    let mut list: Option<(&str, Vec<(usize, &str)>)> = None;
    for &(line, raw) in &block.under {
        let trimmed = raw.trim();
        let column = raw.len() - raw.trim_start().len() + 1;
        let keyed = trimmed.split_once(':').filter(|(k, _)| json_keys.contains(k) || lists.contains(k));
        match keyed {
            Some((key, value)) if lists.contains(&key) && value.trim().is_empty() => {
                finish(&mut list, step)?;
                list = Some((key, Vec::new()));
            }
            Some((key, value)) if json_keys.contains(&key) => {
                finish(&mut list, step)?;
                let read: Value = match key {
                    "preset" => Value::from(value.trim()),
                    _ => serde_json::from_str(value.trim())
                        .or_else(|e| fail(line, column + key.len() + 2, format!("{key}: expected JSON ({e})")))?,
                };
                step.insert(key.into(), read);
            }
            _ => match list.as_mut() {
                Some((_, lines)) => lines.push((line, raw)),
                None => {
                    let takes: Vec<String> = json_keys.iter().chain(lists).map(|k| format!("{k}:")).collect();
                    let takes = if takes.is_empty() { "nothing under it".to_string() } else { takes.join(", ") };
                    return fail(line, column, format!("this {kind} takes {takes}"));
                }
            },
        }
    }
    finish(&mut list, step)
}

fn finish(list: &mut Option<(&str, Vec<(usize, &str)>)>, step: &mut Map<String, Value>) -> Result<(), TextError> {
    if let Some((key, lines)) = list.take() {
        step.insert(key.into(), events(&lines)?);
    }
    Ok(())
}
