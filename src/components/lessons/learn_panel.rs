//! The Learn panel, opened from the header: the lessons with the learner's progress, the glossary, and
//! the progress file (export and import). Its content is fetched when it first opens (see `model::learn`).

use epochlab_core::lesson::{IndexEntry, LessonIndex};
use wasm_bindgen_futures::spawn_local;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::browser::web;
use crate::components::{Dispatch, LessonsProps};
use crate::model::learn::{DraftAction, Fetched, Progress};
use crate::model::NoticeAction;
use crate::model::{Action, LearnAction, Notice};

/// "done", "in progress (step 3)" or nothing.
fn progress_text(progress: &Progress, id: &str) -> Option<String> {
    let p = progress.lessons.get(id)?;
    Some(if p.done { "done".to_string() } else { format!("in progress (step {})", p.step + 1) })
}

fn lesson_item(n: usize, entry: &IndexEntry, progress: &Progress, d: &Dispatch) -> Html {
    let state = progress_text(progress, &entry.id);
    // An unfinished lesson goes on where it was left; a done one starts again.
    let resume = progress.lessons.get(&entry.id).filter(|p| !p.done).map_or(0, |p| p.step as usize);
    let id = entry.id.clone();
    let class = classes!(
        "learn__lesson",
        state.as_ref().map(|s| if s == "done" { "learn__lesson--done" } else { "learn__lesson--started" })
    );
    html! {
        <li {class}>
            <button type="button" class="learn__open" onclick={d.reform(move |_| Action::Learn(LearnAction::Start(id.clone(), resume)))}
                data-testid={format!("lesson-{}", entry.id)}>
                <span class="learn__number">{ n + 1 }</span>
                <span class="learn__title">{ &entry.title }</span>
                <span class="learn__minutes">{ format!("{} min", entry.minutes) }</span>
                if let Some(s) = state { <span class="learn__state" data-testid={format!("lesson-state-{}", entry.id)}>{ s }</span> }
            </button>
        </li>
    }
}

fn glossary(index: &LessonIndex) -> Html {
    html! {
        <details class="learn__glossary" data-testid="glossary">
            <summary>{ "Glossary" }</summary>
            <dl>
                { for index.glossary.iter().map(|t| html! {
                    <div id={format!("glossary-{}", t.id)} class="learn__term">
                        <dt>{ &t.term }</dt><dd>{ &t.definition }</dd>
                    </div>
                }) }
            </dl>
        </details>
    }
}

fn import_progress(d: &Dispatch) -> Callback<Event> {
    let d = d.clone();
    Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        input.set_value("");
        let d = d.clone();
        spawn_local(async move {
            match web::read_file(&file).await {
                Ok(text) => d.emit(Action::Learn(LearnAction::ImportProgress(text))),
                Err(why) => {
                    let text = format!("That progress file could not be read ({why}); your progress is unchanged.");
                    d.emit(Action::Notice(NoticeAction::Show(Notice { error: true, text, undo: false })));
                }
            }
        });
    })
}

fn progress_files(progress: &Progress, d: &Dispatch) -> Html {
    let json = progress.to_json();
    let d2 = d.clone();
    let export = Callback::from(move |_| {
        if let Err(why) = web::download_text("epochlab-progress.json", "application/json", &json) {
            let text = format!("The progress file could not be made ({why}).");
            d2.emit(Action::Notice(NoticeAction::Show(Notice { error: true, text, undo: false })));
        }
    });
    html! {
        <div class="learn__files">
            <button type="button" onclick={export} data-testid="export-progress">{ "Export progress" }</button>
            <label class="share__file">{ "Import progress " }
                <input type="file" accept=".json,application/json" onchange={import_progress(d)} data-testid="import-progress" />
            </label>
        </div>
    }
}

/// The panel.
#[function_component(LearnPanel)]
pub fn learn_panel(props: &LessonsProps) -> Html {
    let learn = &props.model.learn;
    let d = &props.dispatch;
    let body = match &learn.index {
        Fetched::Ready(index) => html! {
            <>
                <ol class="learn__lessons">
                    { for index.lessons.iter().enumerate().map(|(n, e)| lesson_item(n, e, &learn.progress, d)) }
                </ol>
                { glossary(index) }
            </>
        },
        Fetched::Failed(why) => {
            html! { <p class="learn__status">{ format!("The lessons could not be loaded ({why}).") }</p> }
        }
        _ => html! { <p class="learn__status" aria-busy="true">{ "Loading the lessons…" }</p> },
    };
    html! {
        <section id="learn-panel" class="learn" aria-labelledby="learn-title" data-testid="learn-panel">
            <header class="learn__head">
                <h2 id="learn-title" class="learn__heading">{ "Learn: guided lessons" }</h2>
                <p class="learn__about">{ "Each lesson plays on the live timeline below and asks you to predict before it shows you. Start with the first if Kafka's replication is new to you." }</p>
                <button type="button" class="learn__close" onclick={d.reform(|_| Action::Learn(LearnAction::Toggle))} aria-label="Close the lesson list">{ "✕" }</button>
            </header>
            { body }
            <p class="learn__write">
                <button type="button" onclick={d.reform(|_| Action::Learn(LearnAction::Draft(DraftAction::Write)))} data-testid="write-lesson">{ "Write a lesson" }</button>
                { " of your own on the scenario shown, and share it as a link." }
            </p>
            { progress_files(&learn.progress, d) }
        </section>
    }
}
