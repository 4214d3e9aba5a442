//! The scenario's name and description, and "My scenarios": every scenario the user kept, with its last edit,
//! to open, rename, duplicate or delete (each undoable on the page, which keeps them), and every lesson the
//! user wrote and kept, to open in the builder or remove (and put back).

use wasm_bindgen::JsValue;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::components::{Dispatch, LessonsProps};
use crate::model::learn::LessonsModel;
use crate::model::learn::{DraftAction, KeptLesson};
use crate::model::listing::Listed;
use crate::model::{Action, LearnAction, SavedAction, MAX_NAME};

/// "1 Dec 2026, 10:22" in the reader's own locale (the browser formats it: no date code in the wasm).
fn when(ms: f64) -> String {
    let date = js_sys::Date::new(&JsValue::from_f64(ms));
    date.to_locale_string("default", &JsValue::UNDEFINED).as_string().unwrap_or_default()
}

fn button(d: &Dispatch, text: &'static str, label: String, action: Action, testid: String) -> Html {
    let onclick = d.reform(move |_| action.clone());
    html! { <button type="button" aria-label={label} {onclick} data-testid={testid}>{ text }</button> }
}

fn entry_row(entry: &Listed, open_now: bool, d: &Dispatch) -> Html {
    let (id, name) = (entry.id, entry.name.clone());
    let rename = d.reform(move |e: Event| {
        Action::Saved(SavedAction::RenameSaved(id, e.target_unchecked_into::<HtmlInputElement>().value()))
    });
    html! {
        <li class={classes!("saved__entry", open_now.then_some("saved__entry--open"))} data-testid={format!("saved-{id}")}>
            <input type="text" class="saved__name" value={name.clone()} maxlength={MAX_NAME.to_string()} onchange={rename}
                aria-label={format!("Rename {name}")} title={name.clone()} data-testid={format!("saved-name-{id}")} />
            <span class="saved__when">{ format!("last edit {}", when(entry.edited as f64)) }{ if open_now { " (open now)" } else { "" } }</span>
            { button(d, "Open", format!("Open {name}"), Action::Saved(SavedAction::OpenSaved(id)), format!("saved-open-{id}")) }
            { button(d, "Duplicate", format!("Duplicate {name}"), Action::Saved(SavedAction::DuplicateSaved(id)), format!("saved-duplicate-{id}")) }
            { button(d, "Delete", format!("Delete {name}"), Action::Saved(SavedAction::DeleteSaved(id)), format!("saved-delete-{id}")) }
        </li>
    }
}

fn lesson_row(i: usize, kept: &KeptLesson, d: &Dispatch) -> Html {
    let draft = |a: DraftAction| Action::Learn(LearnAction::Draft(a));
    let title = &kept.title;
    html! {
        <li class="saved__entry" data-testid={format!("my-lesson-{}", kept.id)}>
            <span class="saved__lesson">{ format!("Lesson: {title}") }</span>
            <span class="saved__when">{ format!("id {}", kept.id) }</span>
            { button(d, "Open in the builder", format!("Open the lesson {title} in the builder"), draft(DraftAction::Open(i)), "my-lesson-open".into()) }
            { button(d, "Remove", format!("Remove the lesson {title}"), draft(DraftAction::Forget(i)), "my-lesson-remove".into()) }
        </li>
    }
}

/// The lessons kept, and the one removed last, to put back.
fn lessons(m: &LessonsModel, d: &Dispatch) -> Html {
    let learn = &m.learn;
    let restore = learn.restorable().map(|(_, k)| {
        let onclick = d.reform(|_| Action::Learn(LearnAction::Draft(DraftAction::Restore)));
        html! {
            <p class="saved__empty" role="status" data-testid="my-lesson-removed">
                { format!("Removed the lesson \u{201c}{}\u{201d}. ", k.title) }
                <button type="button" {onclick} data-testid="my-lesson-restore">{ "Put it back" }</button>
            </p>
        }
    });
    html! {
        <>
            if !learn.mine.is_empty() {
                <ul class="saved__list" aria-label="Lessons you wrote" data-testid="my-lessons">
                    { for learn.mine.iter().enumerate().map(|(i, k)| lesson_row(i, k, d)) }
                </ul>
            }
            { for restore }
        </>
    }
}

/// The panel.
#[function_component(MyScenarios)]
pub fn my_scenarios(props: &LessonsProps) -> Html {
    let (m, d) = (&props.model, &props.dispatch);
    let on_name =
        d.reform(|e: Event| Action::Saved(SavedAction::SetName(e.target_unchecked_into::<HtmlInputElement>().value())));
    let on_description = d.reform(|e: Event| {
        Action::Saved(SavedAction::SetDescription(e.target_unchecked_into::<HtmlTextAreaElement>().value()))
    });
    let listing = &m.learn.listing;
    html! {
        <section class="saved" aria-label="Name, description and My scenarios">
            <label class="saved__field">{ "Name " }
                <input type="text" value={m.shown.scenario.name.clone()} maxlength={MAX_NAME.to_string()} onchange={on_name} data-testid="scenario-name" />
            </label>
            <label class="saved__field">{ "Description " }
                <textarea rows="3" maxlength="4000" value={m.shown.scenario.description.clone()} onchange={on_description} data-testid="scenario-description" />
            </label>
            <h3 class="saved__title">{ "My scenarios" }</h3>
            if listing.entries.is_empty() && m.learn.mine.is_empty() {
                <p class="saved__empty" data-testid="saved-empty">{ "None yet: your scenario is kept here whenever a preset, a new scenario or an import replaces it, and a lesson you write when you keep it." }</p>
            } else if !listing.entries.is_empty() {
                <ul class="saved__list" aria-label="Scenarios" data-testid="saved-list">
                    { for listing.entries.iter().map(|e| entry_row(e, listing.open == Some(e.id), d)) }
                </ul>
            }
            { lessons(m, d) }
        </section>
    }
}
