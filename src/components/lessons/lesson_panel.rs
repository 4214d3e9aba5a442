//! The lesson followed, beside the live playground: its step (an explanation, a question, a task or a
//! comparison) in words whose glossary terms open their entry, back / next / restart, and an aria-live
//! region that says every prompt and result. Everything it shows comes from the model's `LessonRun`.

use epochlab_core::lesson::{LessonIndex, LessonStep, Question, Segment, Source};
use yew::prelude::*;

use crate::components::lessons::lesson_question::{answer_words, controls, outcome, outcome_text};
use crate::components::lessons::lesson_releases::ReleaseTable;
use crate::components::{Dispatch, LessonsProps};
use crate::model::learn::LessonsModel;
use crate::model::learn::{DraftAction, Fetched, LessonRun, Origin};
use crate::model::{Action, LearnAction};

fn learn(a: LearnAction) -> Action {
    Action::Learn(a)
}

/// A text with its glossary terms as buttons that open their entry.
fn words(index: Option<&LessonIndex>, text: &str, d: &Dispatch) -> Html {
    let Some(index) = index else { return html! { { text } } };
    html! {
        { for index.segments(text).into_iter().map(|s| match s {
            Segment::Text(t) => html! { { t } },
            Segment::Term(t, id) => {
                let open = id.clone();
                html! {
                    <button type="button" class="term" onclick={d.reform(move |_| learn(LearnAction::Term(Some(open.clone()))))}
                        aria-label={format!("{t} (glossary)")} data-testid={format!("term-{id}")}>{ t }</button>
                }
            }
        }) }
    }
}

fn term_box(model: &LessonsModel, index: Option<&LessonIndex>, d: &Dispatch) -> Html {
    let Some(term) = model.learn.term.as_deref().and_then(|id| index?.term(id)) else { return html! {} };
    html! {
        <aside class="lesson__term" aria-label="Glossary" data-testid="term-definition">
            <strong>{ &term.term }</strong>{ ": " }{ &term.definition }
            <button type="button" class="lesson__term-close" onclick={d.reform(|_| learn(LearnAction::Term(None)))} aria-label="Close the glossary entry">{ "✕" }</button>
        </aside>
    }
}

/// What the aria-live region says for the step shown.
fn live_text(model: &LessonsModel, run: &LessonRun, index: Option<&LessonIndex>) -> String {
    let log = model.painted_log();
    match run.current() {
        None => format!("Lesson done. {}", run.lesson.takeaway),
        Some(LessonStep::Explain { text, .. } | LessonStep::Compare { text, .. }) => text.clone(),
        Some(LessonStep::Predict(p)) => match &run.outcome {
            // Each switch of a painted offset is said, with the marks so far.
            None if matches!(p.question, Question::Survivors { .. }) => {
                format!("Predict: {} Your marks: {}.", p.prompt, answer_words(p, &run.painted_answer(), &log))
            }
            None => format!("Predict: {}", p.prompt),
            Some(o) => outcome_text(p, o, &log, index),
        },
        Some(LessonStep::Task(t)) => {
            let state = if run.passed { "Done: the check passes on your timeline." } else { "Not done yet." };
            format!("{} {state}", t.goal)
        }
    }
}

fn task_body(model: &LessonsModel, run: &LessonRun, goal: &str, index: Option<&LessonIndex>, d: &Dispatch) -> Html {
    let (class, state) = if run.passed {
        ("task__state task__state--done", "Done: the check passes on your timeline.")
    } else {
        ("task__state", "Not done yet: change the timeline below, or let the lesson show you.")
    };
    html! {
        <>
            <p class="lesson__text">{ words(index, goal, d) }</p>
            <p {class} data-testid="task-state" data-passed={run.passed.to_string()}>{ state }</p>
            <div class="lesson__task-actions">
                <button type="button" onclick={d.reform(|_| learn(LearnAction::ShowMe))} disabled={model.read_only} data-testid="show-me">{ "Show me" }</button>
                <button type="button" onclick={d.reform(|_| learn(LearnAction::TryIt))} data-testid="try-it">{ "Try it yourself" }</button>
            </div>
        </>
    }
}

fn step_body(model: &LessonsModel, run: &LessonRun, index: Option<&LessonIndex>, d: &Dispatch) -> Html {
    let log = model.painted_log();
    match run.current() {
        None => html! {
            <div class="lesson__end" data-testid="lesson-done">
                <p class="lesson__takeaway"><strong>{ "Takeaway: " }</strong>{ words(index, &run.lesson.takeaway, d) }</p>
                { read_more(&run.lesson.sources) }
                { next_lesson(model, run, d) }
            </div>
        },
        Some(LessonStep::Explain { text, .. }) => html! { <p class="lesson__text">{ words(index, text, d) }</p> },
        Some(LessonStep::Compare { text, releases, .. }) if !releases.is_empty() => html! {
            <>
                <p class="lesson__text">{ words(index, text, d) }</p>
                <ReleaseTable scenario={run.lesson.step_scenario(run.step).clone()} releases={releases.clone()} />
            </>
        },
        Some(LessonStep::Compare { text, .. }) => html! {
            <p class="lesson__text">{ words(index, text, d) }<span class="lesson__hint">{ " The first step where the variants differ is marked on the timeline." }</span></p>
        },
        Some(LessonStep::Predict(p)) => html! {
            <>
                <p class="lesson__text lesson__prompt" data-testid="lesson-prompt"><strong>{ "Predict: " }</strong>{ words(index, &p.prompt, d) }</p>
                { controls(run, p, &log, d) }
                { for run.outcome.as_ref().map(|o| outcome(p, o, &log, index, d)) }
            </>
        },
        Some(LessonStep::Task(t)) => task_body(model, run, &t.goal, index, d),
    }
}

/// The lesson's sources, each opening where it is read (a KIP, a JIRA, Kafka's file at the tag).
fn read_more(sources: &[Source]) -> Html {
    let items = sources.iter().map(|s| {
        html! { <li><a href={s.url()} target="_blank" rel="noopener noreferrer">{ s.to_string() }</a></li> }
    });
    html! {
        <section class="lesson__sources" data-testid="lesson-sources">
            <h3>{ "Read more" }</h3>
            <ul>{ for items }</ul>
        </section>
    }
}

fn next_lesson(model: &LessonsModel, run: &LessonRun, d: &Dispatch) -> Html {
    let Fetched::Ready(index) = &model.learn.index else { return html! {} };
    // A shared lesson is in no list, even under a shipped lesson's id.
    let shipped = run.origin == Origin::Shipped;
    let at = index.lessons.iter().position(|l| shipped && l.id == run.lesson.id);
    let Some(next) = at.and_then(|i| index.lessons.get(i + 1)) else { return html! {} };
    let id = next.id.clone();
    html! {
        <button type="button" class="lesson__next-lesson" onclick={d.reform(move |_| learn(LearnAction::Start(id.clone(), 0)))} data-testid="next-lesson">
            { format!("Next lesson: {}", next.title) }
        </button>
    }
}

fn nav(run: &LessonRun, d: &Dispatch) -> Html {
    let steps = run.lesson.steps.len();
    html! {
        <nav class="lesson__nav" aria-label="Lesson steps">
            // Off as aria-disabled, not disabled: the button keeps the keyboard focus when it turns itself off.
            <button type="button" onclick={d.reform(|_| learn(LearnAction::Back))} aria-disabled={(run.step == 0).to_string()} data-testid="lesson-back">{ "← Back" }</button>
            <button type="button" class="lesson__next" onclick={d.reform(|_| learn(LearnAction::Next))} aria-disabled={(run.waiting() || run.at_end()).to_string()} data-testid="lesson-next"
                title={if run.waiting() { "Answer the question first" } else { "" }}>{ if run.step + 1 == steps { "Finish →" } else { "Next →" } }</button>
            <button type="button" onclick={d.reform(|_| learn(LearnAction::Restart))} data-testid="lesson-restart">{ "Restart" }</button>
            if run.origin == Origin::Draft {
                <button type="button" onclick={d.reform(|_| learn(LearnAction::Draft(DraftAction::Write)))} data-testid="lesson-back-to-writing">{ "Back to writing" }</button>
            }
            <button type="button" class="lesson__leave" onclick={d.reform(|_| learn(LearnAction::Leave))} data-testid="lesson-leave">{ "Close the lesson" }</button>
        </nav>
    }
}

/// A task set aside stays in sight: its goal, so the learner need not go back to read it.
fn aside_goal(run: &LessonRun) -> Html {
    let Some(LessonStep::Task(t)) = run.current() else { return Html::default() };
    html! { <p class="lesson__aside-goal" data-testid="aside-task-goal"><strong>{ "Task: " }</strong>{ &t.goal }</p> }
}

/// The lesson set aside while the learner works on the timeline.
fn aside_bar(run: &LessonRun, d: &Dispatch) -> Html {
    let task = matches!(run.current(), Some(LessonStep::Task(_)));
    let state = if !task {
        ""
    } else if run.passed {
        " The task's check passes."
    } else {
        " The task's check does not pass yet."
    };
    html! {
        <section class="lesson lesson--aside" aria-label="Lesson" data-testid="lesson-aside">
            <p class="lesson__aside-text" aria-live="polite">{ format!("Lesson \u{201c}{}\u{201d}, step {}, is waiting.{state}", run.lesson.title, run.step + 1) }</p>
            { aside_goal(run) }
            <button type="button" onclick={d.reform(|_| learn(LearnAction::Resume))} data-testid="lesson-resume">{ "Back to the lesson" }</button>
        </section>
    }
}

/// The panel (nothing without a lesson).
#[function_component(LessonPanel)]
pub fn lesson_panel(props: &LessonsProps) -> Html {
    let (m, d) = (&props.model, &props.dispatch);
    let shown = m.learn.run.as_ref().filter(|r| !r.aside).map(|r| (r.lesson.id.clone(), r.step));
    use_effect_with(shown, |shown| {
        if shown.is_some() {
            crate::browser::web::bring_lesson_mark_into_view();
        }
    });
    let Some(run) = m.learn.run.as_ref() else { return html! {} };
    if run.aside {
        return aside_bar(run, d);
    }
    let index = match &m.learn.index {
        Fetched::Ready(index) => Some(&**index),
        _ => None,
    };
    let steps = run.lesson.steps.len();
    let counter = if run.at_end() { "Done".to_string() } else { format!("Step {} of {steps}", run.step + 1) };
    html! {
        <section class="lesson" aria-labelledby="lesson-title" data-testid="lesson" data-step={run.step.to_string()}>
            <header class="lesson__head">
                <h2 id="lesson-title" class="lesson__title">{ &run.lesson.title }</h2>
                <span class="lesson__counter" data-testid="lesson-counter">{ counter }</span>
                <progress class="lesson__progress" max={steps.to_string()} value={run.step.min(steps).to_string()} aria-hidden="true"></progress>
            </header>
            { step_body(m, run, index, d) }
            { term_box(m, index, d) }
            <p class="sr-only" aria-live="polite" data-testid="lesson-live">{ live_text(m, run, index) }</p>
            { nav(run, d) }
        </section>
    }
}
