//! What the lesson builder starts an author with: a lesson on the scenario shown, and a step of each kind
//! to add, placed at the step the cursor shows, in the lesson text format (`lesson::text`), which the author
//! then edits; the words to replace say so.

use super::text::{parse_lesson_text, to_text};
use super::Lesson;
use crate::scenario::text::event_line;
use crate::scenario::{Event, Scenario};
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

/// A new lesson on `scenario`, shown under `variants`, with one explanation at the step `cursor` shows, in
/// the text format.
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
    let lesson = Lesson {
        id: if id.is_empty() { "my-lesson".into() } else { id },
        title: if scenario.name.is_empty() { "My lesson".into() } else { scenario.name.clone() },
        minutes: 3,
        scenario: scenario.clone(),
        variants: variants.to_vec(),
        steps: Vec::new(),
        takeaway: "The one sentence the learner should leave with.".into(),
        sources: Vec::new(),
    };
    let mut text = to_text(&lesson);
    text.push_str(&step_lines(StepKind::Explain, cursor, &lesson, &[]));
    text
}

/// What a new step names: the lesson's first broker and variant, and how many steps its scenario has.
struct Facts {
    broker: String,
    variant: String,
    variants: Vec<String>,
    events: u32,
}

impl Facts {
    fn of(lesson: &Lesson) -> Facts {
        Facts {
            broker: lesson.scenario.brokers.first().cloned().unwrap_or_else(|| "A".into()),
            variant: lesson.variants.first().map_or("kip-279", |v| v.id()).to_string(),
            variants: lesson.variants.iter().map(|v| v.id().to_string()).collect(),
            events: lesson.scenario.events.len() as u32,
        }
    }
}

/// `text` (a lesson in the text format) with a step of `kind` added at its end, about the step `cursor`
/// shows: an explanation there, a question about the step after it. The text is added to as it is (its
/// comments and layout stay); refused while the text does not read, since the step names its brokers.
pub fn add_step(text: &str, kind: StepKind, cursor: Option<u32>, timeline: &[Event]) -> Result<String, String> {
    let (lesson, _) = parse_lesson_text(text).map_err(|e| format!("the text does not read yet ({e})"))?;
    let mut out = text.trim_end().to_string();
    out.push_str("\n\n");
    out.push_str(&step_lines(kind, cursor, &lesson, timeline));
    Ok(out)
}

/// `text` with `word` (`A@1` a cell, `A` a broker's row, `#5` a step's chip) added to the highlights of its last explanation, the line kept as the
/// author wrote it otherwise. Refused when there is no explanation to add it to.
pub fn point(text: &str, word: &str) -> Result<String, String> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let Some(line) = lines.iter_mut().rev().find(|l| l.starts_with("explain") && l.contains(':')) else {
        return Err("add an explanation first: what you point at is highlighted in the last one".into());
    };
    let colon = line.find(':').unwrap_or(line.len());
    let (head, rest) = line.split_at(colon);
    let mut words: Vec<String> = head.split_whitespace().map(str::to_string).collect();
    match words.iter_mut().find(|w| w.starts_with("highlight=")) {
        Some(h) if h.split([',', '=']).any(|w| w == word) => return Ok(text.to_string()),
        Some(h) => h.push_str(&format!(",{word}")),
        None => words.push(format!("highlight={word}")),
    }
    *line = format!("{}{rest}", words.join(" "));
    let mut out = lines.join("\n");
    out.push('\n');
    Ok(out)
}

/// A task whose solution is the timeline as it is (the author plays the fix there first) and whose near
/// miss is the lesson's own story, graded by "no invariant fails as a bug" under the lesson's first variant.
fn task_lines(lesson: &Lesson, timeline: &[Event]) -> String {
    let lines = |events: &[Event]| events.iter().map(|e| format!("    {}\n", event_line(e))).collect::<String>();
    format!(
        "task: Say what the learner is to do on the timeline.\n  check: {{\"holds\": \"{}\"}}\n  solution:\n{}  wrong:\n{}",
        Facts::of(lesson).variant,
        lines(timeline),
        lines(&lesson.scenario.events)
    )
}

/// A step's lines in the text format, with words for the author to replace.
fn step_lines(kind: StepKind, cursor: Option<u32>, lesson: &Lesson, timeline: &[Event]) -> String {
    let f = &Facts::of(lesson);
    // The step after the cursor's, within the scenario.
    let before = cursor.map_or(0, |c| c + 1).min(f.events.saturating_sub(1));
    match kind {
        StepKind::Explain => match cursor {
            Some(at) => format!("explain at={at}: {SAY}\n"),
            None => format!("explain: {SAY}\n"),
        },
        StepKind::Question(id) => {
            let broker = if matches!(id, "survivors" | "hw" | "record_at") {
                format!(" broker={}", f.broker)
            } else {
                String::new()
            };
            let offset = if id == "record_at" { " offset=0" } else { "" };
            format!(
                "predict {id}{broker}{offset} before={before} variant={}: Ask the learner your question.\n",
                f.variant
            )
        }
        StepKind::Task => task_lines(lesson, timeline),
        StepKind::Compare => format!("compare variants={}: Say what to look at, side by side.\n", f.variants.join(",")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::text::check_any;
    use crate::lesson::LessonStep;
    use crate::presets;

    fn landing() -> Scenario {
        presets::PRESETS[0].scenario()
    }

    #[test]
    fn a_new_lesson_on_the_scenario_shown_reads_and_checks_out() {
        let text = new_lesson(&landing(), &[Variant::HwTruncation, Variant::Kip279], Some(4));
        let lesson = check_any(&text).expect("checks out");
        assert_eq!(lesson.id, "kip-101-scenario-1-a-committed", "six words of its name");
        assert_eq!(lesson.scenario, landing());
        assert!(matches!(&lesson.steps[..], [LessonStep::Explain { at: Some(4), .. }]));
        assert!(text.ends_with("\nexplain at=4: Say what the learner sees here.\n"), "{text}");
    }

    #[test]
    fn each_question_added_at_the_cursor_has_an_answer_and_the_authors_words_stay() {
        let mut text = new_lesson(&landing(), &[Variant::HwTruncation], Some(6));
        text.push_str("# my own note\n");
        for (id, _) in QUESTIONS {
            text = add_step(&text, StepKind::Question(id), Some(6), &[]).unwrap();
        }
        text = add_step(&text, StepKind::Explain, None, &[]).unwrap();
        text = add_step(&text, StepKind::Compare, Some(6), &[]).unwrap();
        assert!(text.contains("# my own note"), "added to as it is");
        let lesson = check_any(&text).expect("every question answers");
        assert_eq!(lesson.steps.len(), 10);
        let LessonStep::Predict(p) = &lesson.steps[1] else { panic!("a question") };
        assert_eq!((p.before, p.variant), (7, Variant::HwTruncation), "about the step after the cursor's");
        assert!(add_step("lesson: x\n", StepKind::Explain, None, &[])
            .unwrap_err()
            .starts_with("the text does not read yet"));
    }

    #[test]
    fn a_cell_pointed_at_is_highlighted_in_the_last_explanation() {
        let text = new_lesson(&landing(), &[Variant::HwTruncation], Some(6));
        let once = point(&text, "A@1").unwrap();
        assert!(once.ends_with("explain at=6 highlight=A@1: Say what the learner sees here.\n"), "{once}");
        let twice = point(&once, "B@0").unwrap();
        assert!(twice.ends_with("explain at=6 highlight=A@1,B@0: Say what the learner sees here.\n"), "{twice}");
        assert_eq!(point(&twice, "A@1").unwrap(), twice, "once is enough");
        check_any(&twice).expect("checks out");
        assert!(point("lesson: x\n", "A@1").unwrap_err().starts_with("add an explanation first"));
    }

    #[test]
    fn a_task_takes_the_timeline_as_its_solution_and_the_lessons_story_as_its_near_miss() {
        let text = new_lesson(&landing(), &[Variant::HwTruncation], None);
        // Unchanged, the timeline is the story itself: the check says the task grades nothing.
        let same = add_step(&text, StepKind::Task, None, &landing().events).unwrap();
        assert!(check_any(&same).unwrap_err().contains("steps[1]"));
        // The fix played on the timeline first: the response at step 5 arrives, so A's HW is not stale.
        let mut fixed = landing().events;
        fixed[5] = crate::scenario::Event::Fetch { broker: "A".into(), drop_response: false };
        let task = add_step(&text, StepKind::Task, None, &fixed).unwrap();
        let lesson = check_any(&task).expect("the fix passes, the story fails");
        let LessonStep::Task(t) = &lesson.steps[1] else { panic!("a task") };
        assert_eq!((t.solution.clone(), t.wrong.clone()), (fixed, landing().events));
    }
}
