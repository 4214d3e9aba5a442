//! Writing a lesson in the text format: it reads back to the same lesson.

use serde_json::Value;

use crate::lesson::{Highlight, Lesson, LessonStep, Prediction, Question, Task};
use crate::scenario::text::{event_line, quote_if_needed};
use crate::scenario::Event;

/// The lesson as text: its header, its scenario (indented), then one line per step, a step's longer
/// settings on indented lines under it.
pub fn to_text(lesson: &Lesson) -> String {
    let mut out =
        format!("lesson: {}\ntitle: {}\nminutes: {}\n", lesson.id, quote_if_needed(&lesson.title), lesson.minutes);
    let variants: Vec<&str> = lesson.variants.iter().map(|v| v.id()).collect();
    out.push_str(&format!("variants: {}\n", variants.join(" ")));
    out.push_str(&format!("takeaway: {}\n", quote_if_needed(&lesson.takeaway)));
    for source in &lesson.sources {
        out.push_str(&format!("source: {}\n", source.cite()));
    }
    out.push_str("\nscenario:\n");
    for line in crate::scenario::text::to_text(&lesson.scenario).lines() {
        out.push_str(&if line.is_empty() { String::new() } else { format!("  {line}") });
        out.push('\n');
    }
    for step in &lesson.steps {
        out.push('\n');
        out.push_str(&step_text(step));
    }
    out
}

fn step_text(step: &LessonStep) -> String {
    match step {
        LessonStep::Explain { text, at, highlight } => {
            let mut head = String::from("explain");
            if let Some(at) = at {
                head.push_str(&format!(" at={at}"));
            }
            if !highlight.is_empty() {
                head.push_str(&format!(
                    " highlight={}",
                    highlight.iter().map(highlight_word).collect::<Vec<_>>().join(",")
                ));
            }
            format!("{head}: {}\n", quote_if_needed(text))
        }
        LessonStep::Predict(p) => prediction_text(p),
        LessonStep::Task(t) => task_text(t),
        LessonStep::Compare { text, variants, releases } => {
            let mut head = String::from("compare");
            if !variants.is_empty() {
                head.push_str(&format!(" variants={}", variants.iter().map(|v| v.id()).collect::<Vec<_>>().join(",")));
            }
            if !releases.is_empty() {
                head.push_str(&format!(" releases={}", releases.iter().map(|r| r.id()).collect::<Vec<_>>().join(",")));
            }
            format!("{head}: {}\n", quote_if_needed(text))
        }
    }
}

/// `A` (a row), `A@1` (a cell), `#5` (a chip).
fn highlight_word(h: &Highlight) -> String {
    match (&h.broker, h.offset, h.step) {
        (Some(b), Some(o), _) => format!("{b}@{o}"),
        (Some(b), None, _) => b.clone(),
        (None, _, Some(s)) => format!("#{s}"),
        (None, _, None) => String::new(),
    }
}

fn prediction_text(p: &Prediction) -> String {
    let (kind, broker, offset) = match &p.question {
        Question::Survivors { broker } => ("survivors", Some(broker), None),
        Question::Hw { broker } => ("hw", Some(broker), None),
        Question::Leader => ("leader", None, None),
        Question::RecordAt { broker, offset } => ("record_at", Some(broker), Some(*offset)),
        Question::AnyBug => ("any_bug", None, None),
        Question::LogsAgree => ("logs_agree", None, None),
        Question::ConsumerSees => ("consumer_sees", None, None),
    };
    let mut out = format!("predict {kind}");
    if let Some(b) = broker {
        out.push_str(&format!(" broker={b}"));
    }
    if let Some(o) = offset {
        out.push_str(&format!(" offset={o}"));
    }
    out.push_str(&format!(" before={} variant={}: {}\n", p.before, p.variant.id(), quote_if_needed(&p.prompt)));
    if let Some(choices) = &p.offered {
        out.push_str(&format!("  choices: {}\n", Value::from(choices.clone())));
    }
    if !p.wrong.is_empty() {
        let wrong: serde_json::Map<String, Value> =
            p.wrong.iter().map(|(k, m)| (k.clone(), Value::from(m.id()))).collect();
        out.push_str(&format!("  wrong: {}\n", Value::Object(wrong)));
    }
    if let Some(own) = &p.scenario {
        out.push_str(&format!("  scenario: {}\n", own.to_json().replace('\n', " ")));
    }
    out
}

fn task_text(t: &Task) -> String {
    let mut out = format!("task: {}\n  check: {}\n", quote_if_needed(&t.goal), t.check.to_value());
    out.push_str(&events_block("solution", &t.solution));
    out.push_str(&events_block("wrong", &t.wrong));
    out
}

fn events_block(key: &str, events: &[Event]) -> String {
    let mut out = format!("  {key}:\n");
    for e in events {
        out.push_str(&format!("    {}\n", event_line(e)));
    }
    out
}
