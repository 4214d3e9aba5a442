//! The small editor for the selected event's fields, drawn by the lessons' module (it is not needed for the
//! first paint): one component per event kind (the kinds with only a
//! broker share one). Every change replaces the event, which re-runs the scenario.

mod broker_only;
mod consume;
mod crash;
mod elect;
mod fetch;
mod fields;
mod produce;
mod restart;

use epochlab_core::scenario::{Event, EventKind};
use yew::prelude::*;

use self::fields::KindProps;
use crate::components::LessonsProps;
use crate::formats::icons::kind_info;
use crate::model::{Action, PlaceSource};
use crate::model::{CursorAction, EditAction, PlaceAction};

/// The fields of an event's kind.
fn kind_fields(props: KindProps) -> Html {
    match props.event.kind() {
        EventKind::Elect => html! { <elect::ElectFields ..props /> },
        EventKind::Produce => html! { <produce::ProduceFields ..props /> },
        EventKind::Consume => html! { <consume::ConsumeFields ..props /> },
        EventKind::Fetch => html! { <fetch::FetchFields ..props /> },
        EventKind::Crash => html! { <crash::CrashFields ..props /> },
        EventKind::Restart => html! { <restart::RestartFields ..props /> },
        EventKind::Settle => html! { <p class="editor__note">{ "Settle has no fields." }</p> },
        _ => html! { <broker_only::BrokerFields ..props /> },
    }
}

/// The event editor (nothing when no event is selected).
#[function_component(EventEditor)]
pub fn event_editor(props: &LessonsProps) -> Html {
    let m = &props.model;
    let Some(i) = m.selected else { return html! {} };
    let Some(event) = m.shown.scenario.events.get(i).cloned() else { return html! {} };
    let (icon, label, help) = kind_info(event.kind());
    let onchange = props.dispatch.reform(move |e: Event| Action::Edit(EditAction::Replace(i, Box::new(e))));
    let fields = kind_fields(KindProps { event, brokers: m.shown.scenario.brokers.clone(), onchange });
    let outcomes = m
        .shown
        .traces
        .iter()
        .filter_map(|t| t.steps.get(i).map(|s| (t.variant.id(), s.outcome.label(), s.outcome.reason())));
    let close = props.dispatch.reform(|_| Action::Cursor(CursorAction::Select(None)));
    let remove = props.dispatch.reform(move |_| Action::Edit(EditAction::Remove(i)));
    let move_kb = props.dispatch.reform(move |_| Action::Place(PlaceAction::Start(PlaceSource::Existing(i))));
    html! {
        <section class="editor" aria-label={format!("Edit step {i}")} data-testid="editor">
            <header class="editor__head">
                <h2 class="editor__title"><span aria-hidden="true">{ icon }</span>{ format!(" Step {i}: {label}") }</h2>
                <button type="button" class="editor__close" onclick={close} aria-label="Close the editor"><span aria-hidden="true">{ "×" }</span></button>
            </header>
            <p class="editor__help">{ help }</p>
            <div class="editor__fields">{ fields }</div>
            <ul class="editor__outcomes">
                { for outcomes.map(|(v, o, r)| html! { <li>{ format!("{v}: {o}{}", r.map(|r| format!(" ({r})")).unwrap_or_default()) }</li> }) }
            </ul>
            <div class="editor__actions">
                <button type="button" onclick={move_kb} data-testid="editor-move">{ "Move with the keyboard" }</button>
                <button type="button" class="danger" onclick={remove} data-testid="editor-delete">{ "Delete" }</button>
            </div>
        </section>
    }
}
