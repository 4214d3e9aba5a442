//! A lesson's question: the controls to answer it (paint the log, drag the HW, choose, yes or no) and,
//! once answered, whether the simulator agrees, with the misconception a known wrong answer reveals.

use epochlab_core::lesson::{Answer, LessonIndex, Prediction, Question, CONSUMER_SEES, NO_LEADER};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::components::Dispatch;
use crate::model::learn::{LessonRun, Outcome};
use crate::model::{Action, LearnAction};

fn answer_action(chosen: Answer) -> Action {
    Action::Learn(LearnAction::Answer(chosen))
}

/// An answer in words: a painted log → "offset 0 (m1) survives, offset 1 (m2) is truncated".
pub fn answer_words(p: &Prediction, a: &Answer, log: &[String]) -> String {
    match (&p.question, a) {
        (_, Answer::Offsets(kept)) => survivor_words(kept, log),
        (_, Answer::YesNo(yes)) => if *yes { "yes" } else { "no" }.to_string(),
        (Question::Hw { broker }, Answer::Number(hw)) => format!("{broker}'s HW is {hw}"),
        (Question::Leader, Answer::Name(leader)) if leader == NO_LEADER => "no broker leads".to_string(),
        (Question::Leader, Answer::Name(leader)) => format!("{leader} leads"),
        (Question::RecordAt { broker, offset }, Answer::Name(record)) => {
            format!("{broker} holds {record} at offset {offset}")
        }
        (Question::ConsumerSees, Answer::Name(seen)) => consumer_words(seen).to_string(),
        // No control answers a question with another kind of answer; said as the lesson file would.
        (_, a) => a.key(),
    }
}

/// Each offset of the painted log, with its record and whether the learner (or the simulator) keeps it.
fn survivor_words(kept: &[bool], log: &[String]) -> String {
    if kept.is_empty() {
        return "the log is empty".to_string();
    }
    let words: Vec<String> = kept
        .iter()
        .enumerate()
        .map(|(o, kept)| {
            let record = log.get(o).map_or(String::new(), |r| format!(" ({r})"));
            format!("offset {o}{record} {}", if *kept { "survives" } else { "is truncated" })
        })
        .collect();
    words.join(", ")
}

/// What a consumer past a truncation meets, in words: one per answer of [`CONSUMER_SEES`], in its order.
const CONSUMER_WORDS: [&str; CONSUMER_SEES.len()] = [
    "it checks its position after the leader change and learns where the logs part (LogTruncationException, or a reset to that offset)",
    "its next fetch is past the leader's log end: OFFSET_OUT_OF_RANGE, and auto.offset.reset decides",
    "its next fetch succeeds, and it never learns that records below its position changed",
    "nothing: no record it read has been taken away",
];

/// The words of a `consumer_sees` answer (the last, "nothing", for one it does not know).
fn consumer_words(seen: &str) -> &'static str {
    let at = CONSUMER_SEES.iter().position(|k| *k == seen).unwrap_or(CONSUMER_SEES.len() - 1);
    CONSUMER_WORDS[at]
}

/// Painting happens on the broker's row in the logs (the page draws it, `lessons::paint` takes the clicks and
/// keys) or on the same offsets here, beside the button that checks it: on a phone the row is a screen away.
fn paint_controls(run: &LessonRun, p: &Prediction, log: &[String], d: &Dispatch) -> Html {
    let answered = run.outcome.is_some();
    let painted = run.painted_answer();
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
            <p class="paint__marks" data-testid="paint-marks">{ format!("Your marks: {}.", answer_words(p, &painted, log)) }</p>
            <button type="button" class="lesson__submit" disabled={answered} onclick={d.reform(move |_| answer_action(painted.clone()))} data-testid="paint-submit">{ "Check my prediction" }</button>
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

fn hw_controls(run: &LessonRun, broker: &str, d: &Dispatch) -> Html {
    // The choices are the HWs 0 to the highest log end the broker reaches.
    let max = run.choices.len().saturating_sub(1);
    let answered = run.outcome.is_some();
    let oninput = d.reform(|e: InputEvent| {
        let v = e.target_unchecked_into::<HtmlInputElement>().value();
        Action::Learn(LearnAction::SetHw(v.parse().unwrap_or(0)))
    });
    // No value until the learner moves the marker: the range's thumb sits mid-way, and nothing is submitted.
    let shown = run.hw.map_or("?".to_string(), |hw| hw.to_string());
    let submit = run.hw.map(|hw| d.reform(move |_| answer_action(Answer::Number(hw))));
    html! {
        <div class="hw-drag">
            <label class="hw-drag__label">{ format!("Drag {broker}'s HW marker: ") }
                <input type="range" min="0" max={max.to_string()} step="1" value={run.hw.map(|hw| hw.to_string())} {oninput} disabled={answered}
                    aria-valuetext={format!("HW {shown}")} data-testid="hw-slider" />
                <output class="hw-drag__value" data-testid="hw-value">{ format!("HW {shown}") }</output>
            </label>
            <button type="button" class="lesson__submit" disabled={answered || submit.is_none()} onclick={submit} data-testid="hw-submit">{ "This is my prediction" }</button>
            if run.hw.is_none() && !answered { <p class="hw-drag__hint" data-testid="hw-hint">{ "Move the marker to where you predict the HW will be." }</p> }
        </div>
    }
}

/// A choice's label: yes or no, a consumer's fate in words, else the broker, record or HW as named.
fn choice_label(p: &Prediction, a: &Answer) -> String {
    match a {
        Answer::YesNo(yes) => if *yes { "Yes" } else { "No" }.to_string(),
        Answer::Name(seen) if p.question == Question::ConsumerSees => consumer_words(seen).to_string(),
        _ => a.key(),
    }
}

fn choice_controls(p: &Prediction, run: &LessonRun, d: &Dispatch) -> Html {
    let answered = run.outcome.as_ref();
    html! {
        <div class="choices" role="group" aria-label="Your prediction">
            { for run.choices.iter().map(|a| {
                let chosen = answered.is_some_and(|o| o.chosen == *a);
                let class = classes!("choice", chosen.then_some("choice--chosen"), answered.filter(|o| o.right == *a).map(|_| "choice--right"));
                let picked = a.clone();
                html! {
                    <button type="button" {class} disabled={answered.is_some()} aria-pressed={chosen.to_string()}
                        onclick={d.reform(move |_| answer_action(picked.clone()))} data-testid={format!("choice-{}", a.key())}>{ choice_label(p, a) }</button>
                }
            }) }
        </div>
    }
}

/// The controls that answer the question.
pub fn controls(run: &LessonRun, p: &Prediction, log: &[String], d: &Dispatch) -> Html {
    match &p.question {
        Question::Survivors { .. } => paint_controls(run, p, log, d),
        Question::Hw { broker } => hw_controls(run, broker, d),
        _ => choice_controls(p, run, d),
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
    let counter = o.counter.as_ref().map(|c| {
        let preset = c.preset;
        html! {
            <button type="button" class="outcome__counter" onclick={d.reform(move |_| Action::Learn(LearnAction::Counter(preset)))} data-testid="counter-scenario">
                { format!("Open the counter-scenario: {}", c.name) }
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
