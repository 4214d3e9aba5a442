//! The header: what the user is looking at in one line, the preset picker, and "new scenario".

use epochlab_core::presets::PRESETS;
use epochlab_core::view::summary;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::ModelProps;
use crate::model::{Action, Model, ModuleAction};
use crate::model::{EditAction, LoadAction};

/// "hw-truncation breaks I1 (committed-data loss) at step 9, and 3 more; kip-279 holds every invariant."
pub fn headline(m: &Model) -> String {
    if m.pending.is_some() {
        return format!("{}: {}", m.shown.scenario.name, crate::model::question::NEUTRAL);
    }
    format!("{}: {}.", m.shown.scenario.name, summary::verdicts(&m.shown.traces, &m.shown.held))
}

/// Undo and Redo, disabled when there is nothing to undo or redo.
pub fn undo_buttons(m: &Model, d: &Callback<Action>) -> Html {
    let (undo, redo) = (m.history.can_undo(), m.history.can_redo());
    html! {
        <span class="undo" role="group" aria-label="Undo and redo">
            <button type="button" class="undo__button" aria-label="Undo (Ctrl+Z)" title="Undo (Ctrl+Z)" disabled={!undo}
                onclick={d.reform(|_| Action::Edit(EditAction::Undo))} data-testid="undo">{ "↶ Undo" }</button>
            <button type="button" class="undo__button" aria-label="Redo (Ctrl+Shift+Z)" title="Redo (Ctrl+Shift+Z or Ctrl+Y)" disabled={!redo}
                onclick={d.reform(|_| Action::Edit(EditAction::Redo))} data-testid="redo">{ "↷ Redo" }</button>
        </span>
    }
}

/// The description shown under the headline: an edited preset's is marked as the preset's.
fn description(m: &Model) -> Option<Html> {
    let d = &m.shown.scenario.description;
    if d.is_empty() {
        return None;
    }
    let marked = m.edited_preset.is_some().then(|| html! {
        <span class="header__description-source" data-testid="description-source">{ "The preset's description, which may no longer match your edits: " }</span>
    });
    Some(html! { <p class="header__description" data-testid="description">{ for marked }{ d.clone() }</p> })
}

/// The header.
#[function_component(Header)]
pub fn header(props: &ModelProps) -> Html {
    let m = &props.model;
    let onpreset = props
        .dispatch
        .reform(|e: Event| Action::Load(LoadAction::Preset(e.target_unchecked_into::<HtmlSelectElement>().value())));
    // Parsed once: the picker's names and descriptions never change.
    let presets = use_memo((), |_| {
        PRESETS
            .iter()
            .map(|p| (p.id, format!("{} ({})", p.scenario().name, p.about()), p.scenario().description))
            .collect::<Vec<_>>()
    });
    html! {
        <header class="header">
            <div class="header__brand">
                <h1 class="header__title">{ "Epochlab" }</h1>
                <p class="header__tagline">{ "Kafka's log truncation, step by step: high watermarks versus leader epochs." }</p>
            </div>
            <div class="header__actions">
                <label class="header__preset">{ "Scenario " }
                    <select onchange={onpreset} data-testid="preset-picker" aria-label="Open a preset scenario">
                        if m.preset.is_none() { <option value="" selected=true disabled=true>{ "your scenario" }</option> }
                        { for presets.iter().map(|(id, name, description)| html! {
                            <option value={*id} selected={m.preset == Some(*id)} title={description.clone()}>{ name.clone() }</option>
                        }) }
                    </select>
                </label>
                <button type="button" class="header__learn" aria-controls="lesson-root" title="Guided lessons: predict, then watch"
                    onclick={props.dispatch.reform(|_| Action::Module(ModuleAction::OpenLearn))} data-testid="learn-toggle">{ "Learn" }</button>
                <button type="button" onclick={props.dispatch.reform(|_| Action::Load(LoadAction::New))} data-testid="new-scenario">{ "New scenario" }</button>
                { undo_buttons(m, &props.dispatch) }
            </div>
            <p class="header__headline" data-testid="headline">{ headline(m) }</p>
            { for description(m) }
        </header>
    }
}
