//! What the lesson builder starts an author with: a lesson file on the scenario shown, and a step of each
//! kind to add, placed at the step the cursor shows. Each is a lesson file's text (JSON, as
//! `docs/lessons.md` describes it), which the author then edits; the words to replace say so.

use serde_json::{json, Map, Value};

use crate::scenario::Scenario;
use crate::variant::Variant;

/// A step the builder adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// A paragraph at the cursor's step.
    Explain,
    /// A question, by its `predict` id (`survivors`, `hw`, `leader`, `record_at`, `any_bug`, `logs_agree`,
    /// `consumer_sees`).
    Question(&'static str),
    /// Something to do on the timeline, graded by a check.
    Task,
    /// The lesson's variants side by side.
    Compare,
}

/// Every question a lesson can ask, by its `predict` id, with what the builder calls it.
pub const QUESTIONS: [(&str, &str); 7] = [
    ("survivors", "Paint which offsets survive"),
    ("hw", "Drag a broker's HW"),
    ("leader", "Who leads"),
    ("record_at", "What a broker holds at an offset"),
    ("any_bug", "Does an invariant fail"),
    ("logs_agree", "Do the logs agree"),
    ("consumer_sees", "What a consumer meets"),
];

/// Words the author is to replace.
const SAY: &str = "Say what the learner sees here.";

/// A new lesson on `scenario`, shown under `variants`, with one explanation at the step `cursor` shows.
pub fn new_lesson(scenario: &Scenario, variants: &[Variant], cursor: Option<u32>) -> String {
    let id: String = scenario
        .name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|w| !w.is_empty())
        .take(6)
        .collect::<Vec<_>>()
        .join("-");
    let scenario_value: Value = serde_json::from_str(&scenario.to_json()).unwrap_or(Value::Null);
    let lesson = json!({
        "id": if id.is_empty() { "my-lesson".to_string() } else { id },
        "title": if scenario.name.is_empty() { "My lesson" } else { &scenario.name },
        "minutes": 3,
        "scenario": scenario_value,
        "variants": variants.iter().map(|v| v.id()).collect::<Vec<_>>(),
        "steps": [explain(cursor)],
        "takeaway": "The one sentence the learner should leave with.",
        "sources": []
    });
    pretty(&lesson)
}

fn explain(cursor: Option<u32>) -> Value {
    let mut step = Map::new();
    step.insert("explain".into(), SAY.into());
    if let Some(at) = cursor {
        step.insert("at".into(), at.into());
    }
    Value::Object(step)
}

/// `text` (a lesson file) with a step of `kind` added at its end, about the step `cursor` shows: an
/// explanation there, a question about the step after it. Refused when `text` is not a lesson's JSON.
pub fn add_step(text: &str, kind: StepKind, cursor: Option<u32>) -> Result<String, String> {
    let mut lesson: Value = serde_json::from_str(text).map_err(|e| format!("the text is not JSON yet ({e})"))?;
    let scenario = lesson.get("scenario").cloned().unwrap_or(Value::Null);
    let broker = scenario.pointer("/brokers/0").and_then(Value::as_str).unwrap_or("A").to_string();
    let events = scenario.get("events").and_then(Value::as_array).map_or(0, Vec::len) as u32;
    let variants: Vec<Value> = lesson.get("variants").and_then(Value::as_array).cloned().unwrap_or_default();
    let variant = variants.first().cloned().unwrap_or_else(|| "kip-279".into());
    // The step after the cursor's, within the scenario.
    let before = cursor.map_or(0, |c| c + 1).min(events.saturating_sub(1));
    let step = match kind {
        StepKind::Explain => explain(cursor),
        StepKind::Question(id) => {
            let mut q = json!({"predict": id, "before": before, "variant": variant, "prompt": "Ask the learner your question."});
            if matches!(id, "survivors" | "hw" | "record_at") {
                q["broker"] = broker.into();
            }
            if id == "record_at" {
                q["offset"] = 0.into();
            }
            q
        }
        StepKind::Task => json!({
            "task": "Say what the learner is to do on the timeline.",
            "check": {"holds": variant},
            "solution": scenario.get("events").cloned().unwrap_or_else(|| json!([])),
            "wrong": []
        }),
        StepKind::Compare => json!({"compare": "Say what to look at, side by side.", "variants": variants}),
    };
    let Some(steps) = lesson.get_mut("steps").and_then(Value::as_array_mut) else {
        return Err("the lesson has no \"steps\" list to add to".into());
    };
    steps.push(step);
    Ok(pretty(&lesson))
}

/// Keys in the order a reader expects them (a lesson's, a scenario's, a step's kind first); the rest after,
/// alphabetically.
const KEY_ORDER: [&str; 17] = [
    "id",
    "title",
    "minutes",
    "version",
    "name",
    "description",
    "brokers",
    "config",
    "explain",
    "predict",
    "task",
    "compare",
    "kind",
    "scenario",
    "preset",
    "variants",
    "steps",
];

fn key_rank(key: &str) -> usize {
    KEY_ORDER.iter().position(|k| *k == key).unwrap_or(KEY_ORDER.len())
}

/// A lesson file as an author reads it: two-space indents, keys in [`KEY_ORDER`], and an object or a list
/// of plain values (an event, a highlight, the brokers) on one line.
pub fn pretty(value: &Value) -> String {
    let mut out = String::new();
    write_value(value, 0, &mut out);
    out.push('\n');
    out
}

fn flat(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter().all(|v| !v.is_array() && !v.is_object()),
        Value::Object(map) => map.values().all(|v| !v.is_object() && (!v.is_array() || flat(v))),
        _ => true,
    }
}

fn write_value(value: &Value, depth: usize, out: &mut String) {
    let pad = |d: usize| "  ".repeat(d);
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by_key(|k| (key_rank(k), k.as_str()));
            let one_line = flat(value);
            out.push('{');
            for (i, key) in keys.iter().enumerate() {
                out.push_str(if i > 0 { "," } else { "" });
                if one_line {
                    out.push_str(if i > 0 { " " } else { "" });
                } else {
                    out.push('\n');
                    out.push_str(&pad(depth + 1));
                }
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push_str(": ");
                write_value(&map[key.as_str()], depth + 1, out);
            }
            if !one_line && !keys.is_empty() {
                out.push('\n');
                out.push_str(&pad(depth));
            }
            out.push('}');
        }
        Value::Array(items) if !flat(value) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i > 0 { ",\n" } else { "\n" });
                out.push_str(&pad(depth + 1));
                write_value(item, depth + 1, out);
            }
            out.push('\n');
            out.push_str(&pad(depth));
            out.push(']');
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(Value::to_string).collect();
            out.push_str(&format!("[{}]", items.join(", ")));
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::{parse_lesson, validate, LessonStep};
    use crate::presets;

    fn landing() -> Scenario {
        presets::PRESETS[0].scenario()
    }

    #[test]
    fn a_new_lesson_on_the_scenario_shown_reads_and_checks_out() {
        let text = new_lesson(&landing(), &[Variant::HwTruncation, Variant::Kip279], Some(4));
        let lesson = parse_lesson(&text).expect("reads");
        assert_eq!(lesson.id, "kip-101-scenario-1-a-committed", "six words of its name");
        assert_eq!(lesson.scenario, landing());
        assert!(matches!(&lesson.steps[..], [LessonStep::Explain { at: Some(4), .. }]));
        validate(&lesson).expect("checks out");
    }

    #[test]
    fn each_question_added_at_the_cursor_has_an_answer() {
        let mut text = new_lesson(&landing(), &[Variant::HwTruncation], Some(6));
        for (id, _) in QUESTIONS {
            text = add_step(&text, StepKind::Question(id), Some(6)).unwrap();
        }
        text = add_step(&text, StepKind::Explain, None).unwrap();
        text = add_step(&text, StepKind::Compare, Some(6)).unwrap();
        let lesson = parse_lesson(&text).expect("reads");
        assert_eq!(lesson.steps.len(), 10);
        let LessonStep::Predict(p) = &lesson.steps[1] else { panic!("a question") };
        assert_eq!((p.before, p.variant), (7, Variant::HwTruncation), "about the step after the cursor's");
        validate(&lesson).expect("every question answers");
        assert!(add_step("{\"id\": ", StepKind::Explain, None).unwrap_err().starts_with("the text is not JSON yet"));
    }

    #[test]
    fn a_lesson_file_is_written_in_the_order_a_reader_expects() {
        let text = new_lesson(&landing(), &[Variant::Kip279], Some(4));
        let at = |needle: &str| text.find(needle).unwrap_or_else(|| panic!("{needle} in {text}"));
        assert!(
            at("\"id\"") < at("\"title\"")
                && at("\"title\"") < at("\"scenario\"")
                && at("\"steps\"") < at("\"takeaway\"")
        );
        assert!(text.contains("\n      {\"kind\": \"elect\", \"broker\": \"B\"},\n"), "an event on a line: {text}");
        assert!(text.contains("{\"explain\": \"Say what the learner sees here.\", \"at\": 4}"), "{text}");
        let again: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(pretty(&again), text, "stable");
    }

    #[test]
    fn a_task_template_says_it_grades_nothing_yet() {
        let text = add_step(&new_lesson(&landing(), &[Variant::Kip279], None), StepKind::Task, None).unwrap();
        let lesson = parse_lesson(&text).expect("reads");
        // Its solution is the scenario itself, which the task must change: the check says so.
        let why = validate(&lesson).unwrap_err();
        assert_eq!(why.at, "steps[1]");
    }
}
