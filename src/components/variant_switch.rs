//! On a narrow screen the variants do not fit side by side: a switch shows one at a time, on the same
//! offset grid and at the same cursor, and says where they first part ways.

use epochlab_core::presets::verdict_of;
use epochlab_core::Trace;
use yew::prelude::*;

use crate::model::Action;
use crate::model::{CursorAction, Shared};

/// Props.
#[derive(Properties, Clone, PartialEq)]
pub struct VariantSwitchProps {
    /// The shown variants' traces, in panel order.
    pub traces: Shared<Vec<Trace>>,
    /// The panel shown on a narrow screen.
    pub shown: usize,
    /// The first step after which the variants' states differ.
    pub first_difference: Option<u32>,
    /// Choose the panel shown.
    pub choose: Callback<usize>,
    /// Dispatch (to go to the first difference).
    pub dispatch: Callback<Action>,
    /// A lesson's question waits: the traces end before its step, so neither verdicts nor "same state".
    #[prop_or_default]
    pub pending: bool,
}

/// The switch (CSS shows it on narrow screens only; nothing with a single variant).
#[function_component(VariantSwitch)]
pub fn variant_switch(p: &VariantSwitchProps) -> Html {
    if p.traces.len() < 2 {
        return html! {};
    }
    let buttons = p.traces.iter().enumerate().map(|(i, t)| {
        let id = t.variant.id();
        let fails = !p.pending && !verdict_of(t).0.is_empty();
        let verdict = match (p.pending, fails) {
            (true, _) => "",
            (_, true) => " ✕ fails",
            _ => " ✓ holds",
        };
        let onclick = p.choose.reform(move |_| i);
        let class = classes!("variant-switch__button", fails.then_some("variant-switch__button--bug"));
        html! {
            <button type="button" {class} {onclick} aria-pressed={(i == p.shown).to_string()}
                data-testid={format!("variant-switch-{id}")}>
                { id }
                <span class="variant-switch__verdict">{ verdict }</span>
            </button>
        }
    });
    let difference = match p.first_difference {
        Some(step) => {
            let onclick = p.dispatch.reform(move |_| Action::Cursor(CursorAction::Set(Some(step as usize))));
            html! {
                <p class="variant-switch__difference" data-testid="variant-switch-difference">
                    { format!("≠ They part ways after step {step}. ") }
                    <button type="button" {onclick}>{ format!("Show step {step}") }</button>
                </p>
            }
        }
        None if p.pending => html! { <p class="variant-switch__difference">{ crate::model::question::NEUTRAL }</p> },
        None => html! { <p class="variant-switch__difference">{ "= Same state at every step." }</p> },
    };
    html! {
        <div class="variant-switch" data-testid="variant-switch">
            <div class="variant-switch__buttons" role="group" aria-label="Variant shown">{ for buttons }</div>
            { difference }
        </div>
    }
}
