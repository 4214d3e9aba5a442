//! `epochlab lesson check|link|fmt FILE`: an author's lesson (JSON or the lesson text format) checked
//! against the simulator as the page checks it before it opens one, the address that opens it (the lesson
//! inline, `#lesson=~…`), and the lesson written in either form.

use epochlab_core::lesson::{answer, link, text, Lesson, LessonStep};

use crate::commands::read_file;

/// The lesson in `text` (JSON or the text format), read and checked as the page does: errors name the
/// step (`steps[2]: …`) and, in text, its line.
fn checked(text: &str, name: &str) -> Result<Lesson, String> {
    text::check_any(text).map_err(|e| format!("{name}: {e}"))
}

/// `epochlab lesson check FILE`: what the lesson holds and each question's computed answer, or the first
/// problem.
pub(crate) fn check(file: &str) -> Result<String, String> {
    let (text, name) = read_file(file)?;
    let lesson = checked(&text, name)?;
    let count = |f: fn(&LessonStep) -> bool, one: &str| {
        let n = lesson.steps.iter().filter(|s| f(s)).count();
        format!("{n} {one}{}", if n == 1 { "" } else { "s" })
    };
    let mut out = format!(
        "{name}: ok: \u{201c}{}\u{201d} ({}), {}: {}, {}, {}, {}\n",
        lesson.title,
        lesson.id,
        count(|_| true, "step"),
        count(|s| matches!(s, LessonStep::Explain { .. }), "explanation"),
        count(|s| matches!(s, LessonStep::Predict(_)), "question"),
        count(|s| matches!(s, LessonStep::Task(_)), "task"),
        count(|s| matches!(s, LessonStep::Compare { .. }), "comparison"),
    );
    for (i, step) in lesson.steps.iter().enumerate() {
        let LessonStep::Predict(p) = step else { continue };
        // `validate` has made sure every question has an answer.
        let key = answer(&lesson, p).map_or_else(String::new, |a| a.key());
        out.push_str(&format!("  steps[{i}] before step {} ({}): {} -> {key}\n", p.before, p.variant.id(), p.words()));
    }
    Ok(out)
}

/// `epochlab lesson link FILE`: the address that opens the lesson at its first step (`step`: counted from 1,
/// as the lesson panel shows it), or its iframe's address with `embed`.
pub(crate) fn link(file: &str, base: Option<&str>, step: Option<u32>, embed: bool) -> Result<String, String> {
    let (text, name) = read_file(file)?;
    let lesson = checked(&text, name)?;
    let json = text::to_json(&text).map_err(|e| format!("{name}: {e}"))?;
    let reference = link::encode(&json).map_err(|e| format!("{name}: {e}"))?;
    let last = lesson.steps.len() as u32 + 1;
    let step = step.unwrap_or(1);
    if !(1..=last).contains(&step) {
        return Err(format!("--step {step}: the lesson has steps 1 to {} (and {last}, its end)", last - 1));
    }
    let base = base.map_or("", |b| b.split_once('#').map_or(b, |(before, _)| before));
    let embed = if embed { "&embed=lesson" } else { "" };
    Ok(format!("{base}#lesson={reference}&step={step}{embed}\n"))
}

/// `epochlab lesson fmt FILE [--to text|json]`: the lesson in the text format (or its JSON), checked first.
pub(crate) fn fmt(file: &str, to: &str) -> Result<String, String> {
    let (content, name) = read_file(file)?;
    let lesson = checked(&content, name)?;
    match to {
        "text" => Ok(text::to_text(&lesson)),
        "json" => {
            let json: serde_json::Value = serde_json::from_str(&text::to_json(&content)?).map_err(|e| e.to_string())?;
            Ok(serde_json::to_string_pretty(&json).map_err(|e| e.to_string())? + "\n")
        }
        other => Err(format!("--to {other}: expected text or json")),
    }
}
