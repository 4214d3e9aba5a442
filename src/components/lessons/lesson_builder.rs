//! The lesson builder, opened by "Write a lesson" in the Learn panel: the lesson file's text, with buttons
//! that add a step of each kind at the cursor, what the simulator answers to each question, what is wrong
//! and where, a preview as a learner, and the link and iframe that share the lesson. Everything here is
//! computed by the model (`model::learn::builder`) and the core; this only draws it.

use epochlab_core::lesson::template::{StepKind, QUESTIONS};
use web_sys::{HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::browser::web;
use crate::components::panels::share_panel::copy;
use crate::components::{Dispatch, LessonsProps};
use crate::formats::link;
use crate::model::learn::{Draft, DraftAction};
use crate::model::{Action, LearnAction};

fn act(d: &Dispatch, a: DraftAction) -> Callback<MouseEvent> {
    d.reform(move |_| Action::Learn(LearnAction::Draft(a.clone())))
}

/// The buttons that add a step at the cursor, with the question kind chosen beside its button.
fn add_tools(d: &Dispatch, question: &UseStateHandle<&'static str>) -> Html {
    let on_kind = {
        let question = question.clone();
        Callback::from(move |e: Event| {
            let id = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some((id, _)) = QUESTIONS.iter().find(|(q, _)| *q == id) {
                question.set(id);
            }
        })
    };
    html! {
        <div class="builder__tools" role="group" aria-label="Add a step at the cursor">
            <button type="button" onclick={act(d, DraftAction::Add(StepKind::Explain))} data-testid="builder-add-explain">{ "Add an explanation" }</button>
            <span class="builder__question">
                <button type="button" onclick={act(d, DraftAction::Add(StepKind::Question(**question)))} data-testid="builder-add-question">{ "Add a question:" }</button>
                <select aria-label="The question's kind" onchange={on_kind} data-testid="builder-question-kind">
                    { for QUESTIONS.iter().map(|(id, words)| html! { <option value={*id} selected={*id == **question}>{ *words }</option> }) }
                </select>
            </span>
            <button type="button" onclick={act(d, DraftAction::Add(StepKind::Task))} data-testid="builder-add-task">{ "Add a task" }</button>
            <button type="button" onclick={act(d, DraftAction::Add(StepKind::Compare))} data-testid="builder-add-compare">{ "Add a comparison" }</button>
        </div>
    }
}

/// Undo, redo and starting again, which the builder keeps apart from the timeline's.
fn history_tools(draft: &Draft, d: &Dispatch) -> Html {
    let off = |can: bool| (!can).then_some("true");
    html! {
        <div class="builder__tools" role="group" aria-label="The lesson's edits">
            <button type="button" onclick={act(d, DraftAction::Undo)} aria-disabled={off(draft.can_undo())} data-testid="builder-undo">{ "Undo" }</button>
            <button type="button" onclick={act(d, DraftAction::Redo)} aria-disabled={off(draft.can_redo())} data-testid="builder-redo">{ "Redo" }</button>
            <button type="button" onclick={act(d, DraftAction::Fresh)} data-testid="builder-fresh">{ "Start again from the scenario shown" }</button>
        </div>
    }
}

fn steps_words(n: usize) -> String {
    format!("{n} step{}", if n == 1 { "" } else { "s" })
}

/// Whether the lesson checks out, each question's answer, or the first problem and where it is.
fn status(draft: &Draft) -> Html {
    match &draft.read {
        Ok(lesson) => html! {
            <div class="builder__status" data-testid="builder-status" data-ok="true">
                <p>{ format!("It checks out: {}, every question answered by the simulator.", steps_words(lesson.steps.len())) }</p>
                if !draft.answers.is_empty() {
                    <ul class="builder__answers" data-testid="builder-answers">
                        { for draft.answers.iter().map(|a| html! { <li>{ a }</li> }) }
                    </ul>
                }
            </div>
        },
        Err(why) => html! {
            <p class="builder__status builder__status--error" data-testid="builder-status" data-ok="false">
                { format!("Not yet a lesson: {why}") }
            </p>
        },
    }
}

/// The link that opens the lesson, and the iframe that embeds it.
fn share_rows(draft: &Draft, d: &Dispatch) -> Html {
    let Some(reference) = &draft.link else { return Html::default() };
    let page = web::page_url();
    let url = format!("{page}#lesson={reference}&step=1");
    let title = draft.read.as_ref().map(|l| l.title.clone()).unwrap_or_default();
    let embed = link::lesson_embed_code(&page, reference, &title, 1);
    html! {
        <div class="builder__share">
            <div class="share__row">
                <button type="button" onclick={copy(d, url.clone(), "Lesson link")} data-testid="builder-link-copy">{ "Copy the lesson's link" }</button>
                <textarea class="share__code" readonly=true rows="2" aria-label="The lesson's link" data-testid="builder-link" value={url} />
            </div>
            <div class="share__row">
                <button type="button" onclick={copy(d, embed.clone(), "Lesson embed code")} data-testid="builder-embed-copy">{ "Copy its embed code" }</button>
                <textarea class="share__code" readonly=true rows="2" aria-label="The lesson's embed code" data-testid="builder-embed" value={embed} />
            </div>
        </div>
    }
}

/// The builder (nothing while it is closed).
#[function_component(LessonBuilder)]
pub fn lesson_builder(props: &LessonsProps) -> Html {
    let (m, d) = (&props.model, &props.dispatch);
    let question = use_state(|| QUESTIONS[0].0);
    let heading = use_node_ref();
    {
        // Opened from My scenarios, below the timeline, the builder above it is brought into view.
        let heading = heading.clone();
        use_effect_with(m.learn.writing, move |writing| {
            if let Some(h) = heading.cast::<web_sys::HtmlElement>().filter(|_| *writing) {
                let _ = h.focus();
            }
        });
    }
    let Some(draft) = m.learn.draft.as_ref().filter(|_| m.learn.writing) else { return Html::default() };
    let on_text = d.reform(|e: InputEvent| {
        Action::Learn(LearnAction::Draft(DraftAction::Text(e.target_unchecked_into::<HtmlTextAreaElement>().value())))
    });
    html! {
        <section class="learn builder" aria-labelledby="builder-title" data-testid="lesson-builder">
            <header class="learn__head">
                <h2 id="builder-title" class="learn__heading" tabindex="-1" ref={heading}>{ "Write a lesson" }</h2>
                <p class="learn__about">{ "On the scenario below: move the cursor to a step, add what happens there, and edit the words in the lesson's text (one line per step; its format is in docs/lessons.md). Click a cell of the logs, a broker's row or a step's chip to highlight it in the last explanation. The simulator answers every question; Preview takes the lesson as a learner would." }</p>
                <button type="button" class="learn__close" onclick={act(d, DraftAction::Close)} aria-label="Close the lesson builder" data-testid="builder-close">{ "✕" }</button>
            </header>
            { add_tools(d, &question) }
            { history_tools(draft, d) }
            <label class="builder__text">{ "The lesson (text format)" }
                <textarea rows="16" spellcheck="false" value={draft.text.to_string()} oninput={on_text} data-testid="builder-text" />
            </label>
            { status(draft) }
            <div class="builder__tools">
                <button type="button" onclick={act(d, DraftAction::Preview)} data-testid="builder-preview">{ "Preview as a learner" }</button>
                <button type="button" onclick={act(d, DraftAction::Share)} data-testid="builder-share">{ "Make a link" }</button>
                <button type="button" onclick={act(d, DraftAction::Keep)} data-testid="builder-keep">{ "Keep in My scenarios" }</button>
            </div>
            { share_rows(draft, d) }
        </section>
    }
}
