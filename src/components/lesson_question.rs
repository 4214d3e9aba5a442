//! A lesson's question: the controls to answer it (paint the log, drag the HW, choose, yes or no) and,
//! once answered, whether the simulator agrees, with the misconception a known wrong answer reveals.

use epochlab_core::lesson::{choices, Answer, Lesson, LessonIndex, Prediction, Question, CONSUMER_SEES};
use epochlab_core::presets;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::Dispatch;
use crate::model::learn::{LessonRun, Outcome};
use crate::model::{Action, LearnAction};

fn answer_action(key: String) -> Action {
    Action::Learn(LearnAction::Answer(key))
}

/// An answer in words: `keep cut` → "offset 0 (m1) survives, offset 1 (m2) is truncated".
pub fn answer_words(p: &Prediction, key: &str, log: &[String]) -> String {
    match &p.question {
        Question::Survivors { .. } => {
            let words: Vec<String> = key
                .split(' ')
                .enumerate()
                .map(|(o, k)| {
                    let record = log.get(o).map_or(String::new(), |r| format!(" ({r})"));
                    format!("offset {o}{record} {}", if k == "keep" { "survives" } else { "is truncated" })
                })
                .collect();
            if words.is_empty() {
                "the log is empty".to_string()
            } else {
                words.join(", ")
            }
        }
        Question::Hw { broker } => format!("{broker}'s HW is {key}"),
        Question::Leader => {
            if key == "none" {
                "no broker leads".to_string()
            } else {
                format!("{key} leads")
            }
        }
        Question::RecordAt { broker, offset } => format!("{broker} holds {key} at offset {offset}"),
        Question::AnyBug | Question::LogsAgree => {
            if key == "yes" {
                "yes".into()
            } else {
                "no".into()
            }
        }
        Question::ConsumerSees => consumer_words(key).to_string(),
    }
}

/// What a consumer past a truncation meets, in words: one per answer of [`CONSUMER_SEES`], in its order.
const CONSUMER_WORDS: [&str; CONSUMER_SEES.len()] = [
    "it checks its position after the leader change and learns where the logs part (LogTruncationException, or a reset to that offset)",
    "its next fetch is past the leader's log end: OFFSET_OUT_OF_RANGE, and auto.offset.reset decides",
    "its next fetch succeeds, and it never learns that records below its position changed",
    "nothing: no record it read has been taken away",
];

/// The words of a `consumer_sees` answer (the last, "nothing", for a key it does not know).
fn consumer_words(key: &str) -> &'static str {
    let at = CONSUMER_SEES.iter().position(|k| *k == key).unwrap_or(CONSUMER_SEES.len() - 1);
    CONSUMER_WORDS[at]
}

/// The painted log's answer key: `keep cut` (per offset of the broker's log before the step).
pub fn painted_key(run: &LessonRun) -> String {
    run.painted.iter().map(|k| if *k { "keep" } else { "cut" }).collect::<Vec<_>>().join(" ")
}

/// Painting happens on the broker's row in the logs (the page draws it, `lesson_paint` takes the clicks and
/// keys) or on the same offsets here, beside the button that checks it: on a phone the row is a screen away.
fn paint_controls(run: &LessonRun, p: &Prediction, log: &[String], d: &Dispatch) -> Html {
    let answered = run.outcome.is_some();
    let key = painted_key(run);
    let broker = match &p.question {
        Question::Survivors { broker } => broker.as_str(),
        _ => "",
    };
    html! {
        <div class="paint">
            <p class="paint__help" data-testid="paint-help">{ format!(
                "Paint here or on {broker}'s row in the logs below: click or tap an offset to switch it between \
                 surviving and truncated (or focus a cell, move with the arrow keys and press Space)."
            ) }</p>
            { paint_row(run, log, answered, d) }
            <p class="paint__marks" data-testid="paint-marks">{ format!("Your marks: {}.", answer_words(p, &key, log)) }</p>
            <button type="button" class="lesson__submit" disabled={answered} onclick={d.reform(move |_| answer_action(key.clone()))} data-testid="paint-submit">{ "Check my prediction" }</button>
        </div>
    }
}

/// The broker's offsets as toggles, pressed while the learner says the record survives.
fn paint_row(run: &LessonRun, log: &[String], answered: bool, d: &Dispatch) -> Html {
    let cells = run.painted.iter().enumerate().map(|(offset, kept)| {
        let record = log.get(offset).map_or("?", String::as_str);
        let state = if *kept { "survives" } else { "truncated" };
        html! {
            <button type="button" class={classes!("paint__offset", (!kept).then_some("paint__offset--cut"))} aria-pressed={kept.to_string()}
                disabled={answered} onclick={d.reform(move |_| Action::Learn(LearnAction::Paint(offset)))}
                data-testid={format!("paint-offset-{offset}")}>
                <span class="paint__at">{ format!("offset {offset}") }</span><span class="paint__record">{ record }</span><span class="paint__state">{ state }</span>
            </button>
        }
    });
    html! { <div class="paint__row" role="group" aria-label="Your marks, offset by offset">{ for cells }</div> }
}

fn hw_controls(lesson: &Lesson, p: &Prediction, run: &LessonRun, broker: &str, d: &Dispatch) -> Html {
    let max = choices(lesson, p).len().saturating_sub(1);
    let answered = run.outcome.is_some();
    let oninput = d.reform(|e: InputEvent| {
        let v = e.target_unchecked_into::<HtmlInputElement>().value();
        Action::Learn(LearnAction::SetHw(v.parse().unwrap_or(0)))
    });
    let hw = run.hw;
    html! {
        <div class="hw-drag">
            <label class="hw-drag__label">{ format!("Drag {broker}'s HW marker: ") }
                <input type="range" min="0" max={max.to_string()} step="1" value={hw.to_string()} {oninput} disabled={answered}
                    aria-valuetext={format!("HW {hw}")} data-testid="hw-slider" />
                <output class="hw-drag__value" data-testid="hw-value">{ format!("HW {hw}") }</output>
            </label>
            <button type="button" class="lesson__submit" disabled={answered} onclick={d.reform(move |_| answer_action(hw.to_string()))} data-testid="hw-submit">{ "This is my prediction" }</button>
        </div>
    }
}

fn choice_controls(lesson: &Lesson, p: &Prediction, run: &LessonRun, d: &Dispatch) -> Html {
    let answered = run.outcome.as_ref();
    html! {
        <div class="choices" role="group" aria-label="Your prediction">
            { for choices(lesson, p).iter().map(|a| {
                let key = a.key();
                let label = match a {
                    Answer::YesNo(true) => "Yes".to_string(),
                    Answer::YesNo(false) => "No".to_string(),
                    _ if p.question == Question::ConsumerSees => consumer_words(&key).to_string(),
                    _ => key.clone(),
                };
                let chosen = answered.is_some_and(|o| o.chosen == key);
                let class = classes!("choice", chosen.then_some("choice--chosen"), answered.filter(|o| o.right == key).map(|_| "choice--right"));
                let k = key.clone();
                html! {
                    <button type="button" {class} disabled={answered.is_some()} aria-pressed={chosen.to_string()}
                        onclick={d.reform(move |_| answer_action(k.clone()))} data-testid={format!("choice-{key}")}>{ label }</button>
                }
            }) }
        </div>
    }
}

/// The controls that answer the question.
pub fn controls(run: &LessonRun, p: &Prediction, log: &[String], d: &Dispatch) -> Html {
    match &p.question {
        Question::Survivors { .. } => paint_controls(run, p, log, d),
        Question::Hw { broker } => hw_controls(&run.lesson, p, run, broker, d),
        _ => choice_controls(&run.lesson, p, run, d),
    }
}

/// What the simulator says of the answer: right, or the misconception with its correction and the
/// scenario that disproves it.
pub fn outcome_text(p: &Prediction, o: &Outcome, log: &[String], index: Option<&LessonIndex>) -> String {
    let right = answer_words(p, &o.right, log);
    if o.is_right() {
        return format!("Right: {right}. Watch the step play on the timeline.");
    }
    let mut text = format!("Not quite: the simulator says {right}.");
    if let Some(words) = o.misconception.and_then(|m| index?.misconception(m)) {
        text.push_str(&format!(" You may have thought: \u{201c}{}\u{201d} {}", words.belief, words.correction));
    }
    text
}

/// The result box shown after the answer.
pub fn outcome(p: &Prediction, o: &Outcome, log: &[String], index: Option<&LessonIndex>, d: &Dispatch) -> Html {
    let class = classes!("outcome", if o.is_right() { "outcome--right" } else { "outcome--wrong" });
    let counter = o.misconception.map(|m| {
        let preset = m.counter_scenario();
        let name = presets::find(preset).map(|p| p.scenario().name).unwrap_or_default();
        html! {
            <button type="button" class="outcome__counter" onclick={d.reform(move |_| Action::Learn(LearnAction::Counter(preset)))} data-testid="counter-scenario">
                { format!("Open the counter-scenario: {name}") }
            </button>
        }
    });
    let misconception = o.misconception.map(|m| {
        let (belief, correction) =
            index.and_then(|i| i.misconception(m)).map_or((m.id(), ""), |w| (&*w.belief, &*w.correction));
        html! {
            <p class="outcome__misconception" data-testid="misconception" data-misconception={m.id()}>
                <strong>{ format!("\u{201c}{belief}\u{201d} ") }</strong>{ correction }
            </p>
        }
    });
    html! {
        <div {class} data-testid="outcome" data-right={o.is_right().to_string()}>
            <p class="outcome__verdict">{ if o.is_right() { "Right. " } else { "Not quite. " } }
                { format!("The simulator says {}.", answer_words(p, &o.right, log)) }</p>
            { for misconception }
            { for counter }
        </div>
    }
}
