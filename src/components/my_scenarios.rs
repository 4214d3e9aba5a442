//! The scenario's name and description, and "My scenarios": every scenario the user kept, with its last edit,
//! to open, rename, duplicate or delete (each undoable).

use std::rc::Rc;

use wasm_bindgen::JsValue;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::{Dispatch, ModelProps};
use crate::formats::library::Entry;
use crate::model::{Action, MAX_NAME};

/// "1 Dec 2026, 10:22" in the reader's own locale (the browser formats it: no date code in the wasm).
fn when(ms: f64) -> String {
    let date = js_sys::Date::new(&JsValue::from_f64(ms));
    date.to_locale_string("default", &JsValue::UNDEFINED).as_string().unwrap_or_default()
}

fn entry_row(entry: &Rc<Entry>, open_now: bool, d: &Dispatch) -> Html {
    let id = entry.id;
    let name = entry.name().to_string();
    let rename =
        d.reform(move |e: Event| Action::RenameSaved(id, e.target_unchecked_into::<HtmlInputElement>().value()));
    let button = |text: &'static str, label: String, action: Action, testid: String| {
        let onclick = d.reform(move |_| action.clone());
        html! { <button type="button" aria-label={label} {onclick} data-testid={testid}>{ text }</button> }
    };
    html! {
        <li class={classes!("saved__entry", open_now.then_some("saved__entry--open"))} data-testid={format!("saved-{id}")}>
            <input type="text" class="saved__name" value={name.clone()} maxlength={MAX_NAME.to_string()} onchange={rename}
                aria-label={format!("Rename {name}")} title={name.clone()} data-testid={format!("saved-name-{id}")} />
            <span class="saved__when">{ format!("last edit {}", when(entry.edited as f64)) }{ if open_now { " (open now)" } else { "" } }</span>
            { button("Open", format!("Open {name}"), Action::OpenSaved(id), format!("saved-open-{id}")) }
            { button("Duplicate", format!("Duplicate {name}"), Action::DuplicateSaved(id), format!("saved-duplicate-{id}")) }
            { button("Delete", format!("Delete {name}"), Action::DeleteSaved(id), format!("saved-delete-{id}")) }
        </li>
    }
}

/// The panel.
#[function_component(MyScenarios)]
pub fn my_scenarios(props: &ModelProps) -> Html {
    let (m, d) = (&props.model, &props.dispatch);
    let on_name = d.reform(|e: Event| Action::SetName(e.target_unchecked_into::<HtmlInputElement>().value()));
    let on_description =
        d.reform(|e: Event| Action::SetDescription(e.target_unchecked_into::<HtmlTextAreaElement>().value()));
    let entries = &m.library.entries;
    html! {
        <section class="saved" aria-label="Name, description and My scenarios">
            <label class="saved__field">{ "Name " }
                <input type="text" value={m.scenario.name.clone()} maxlength={MAX_NAME.to_string()} onchange={on_name} data-testid="scenario-name" />
            </label>
            <label class="saved__field">{ "Description " }
                <textarea rows="3" maxlength="4000" value={m.scenario.description.clone()} onchange={on_description} data-testid="scenario-description" />
            </label>
            <h3 class="saved__title">{ "My scenarios" }</h3>
            if entries.is_empty() {
                <p class="saved__empty" data-testid="saved-empty">{ "None yet: your scenario is kept here whenever a preset, a new scenario or an import replaces it." }</p>
            } else {
                <ul class="saved__list" data-testid="saved-list">
                    { for entries.iter().map(|e| entry_row(e, m.library_id == Some(e.id), d)) }
                </ul>
            }
        </section>
    }
}
