//! One variant's side of the comparison: its verdict, the brokers' logs at the cursor, what the step did,
//! and the invariants, each linking to the step where it first fails.

use std::rc::Rc;

use epochlab_core::invariants::InvariantId;
use epochlab_core::presets::verdict_of;
use epochlab_core::view::StepView;
use yew::prelude::*;

use super::explanation::Explanation;
use super::log_grid::LogGrid;
use crate::model::Action;

/// Props.
#[derive(Properties, Clone)]
pub struct VariantPanelProps {
    /// All traces (shared), and which one this panel shows.
    pub traces: Rc<Vec<epochlab_core::Trace>>,
    /// Index of this panel's trace.
    pub index: usize,
    /// The cursor.
    pub step: Option<usize>,
    /// The variant's view at the cursor (on the grid shared by every panel).
    pub view: StepView,
    /// Dispatch (for the invariant links).
    pub dispatch: Callback<Action>,
}

impl PartialEq for VariantPanelProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.traces, &other.traces)
            && self.index == other.index
            && self.step == other.step
            && self.view == other.view
    }
}

/// A variant's panel.
#[function_component(VariantPanel)]
pub fn variant_panel(props: &VariantPanelProps) -> Html {
    let Some(trace) = props.traces.get(props.index) else { return html! {} };
    let v = &props.view;
    let id = trace.variant.id();
    let (bugs, allowed) = verdict_of(trace);
    let verdict = if bugs.is_empty() {
        html! { <span class="verdict verdict--ok" data-testid={format!("verdict-{id}")}>{ "no invariant fails" }</span> }
    } else {
        html! { <span class="verdict verdict--bug" data-testid={format!("verdict-{id}")}>{ format!("fails {}", InvariantId::join(&bugs, ", ")) }</span> }
    };
    let allowed_note =
        if allowed.is_empty() { String::new() } else { format!("allowed: {}", InvariantId::join(&allowed, ", ")) };
    let holding: Vec<u16> =
        props.step.and_then(|s| trace.steps.get(s)).map(|s| s.violations.clone()).unwrap_or_default();
    let flags: Vec<&str> = trace.flags.iter().map(|f| f.id()).collect();
    html! {
        <article class="variant" data-testid={format!("variant-{id}")} aria-label={format!("Variant {id}")}>
            <header class="variant__head">
                <h3 class="variant__title">{ id }<span class="variant__subtitle">{ trace.variant.title() }</span></h3>
                { verdict }
                if !allowed_note.is_empty() { <span class="verdict verdict--allowed">{ allowed_note }</span> }
            </header>
            if !flags.is_empty() { <p class="variant__flags">{ format!("flags: {}", flags.join(", ")) }</p> }
            <p class="variant__controller">
                { format!("Controller: leader {} · epoch {} · ISR {{{}}}",
                    v.controller_leader.as_deref().unwrap_or("none"), v.controller_epoch, v.controller_isr.join(", ")) }
            </p>
            <LogGrid view={v.clone()} variant={id} />
            <Explanation trace={props.traces.clone()} index={props.index} step={props.step} />
            <section class="invariants" aria-label={format!("Invariants under {id}")}>
                <h4 class="invariants__title">{ "Invariants" }</h4>
                if trace.violations.is_empty() {
                    <p class="invariants__none">{ "Every invariant holds at every step." }</p>
                } else {
                    <ul class="invariants__list">
                        { for trace.violations.iter().enumerate().map(|(i, viol)| {
                            let now = holding.contains(&(i as u16));
                            let step = viol.step as usize;
                            let onclick = props.dispatch.reform(move |_| Action::SetCursor(Some(step)));
                            let class = classes!("violation", viol.by_design.then_some("violation--allowed"), now.then_some("violation--now"));
                            html! {
                                <li {class} data-testid={format!("violation-{id}-{}", viol.invariant)}>
                                    <span class="violation__id">{ viol.invariant.id() }</span>
                                    <span class="violation__tag">{ if viol.by_design { "allowed" } else { "bug" } }</span>
                                    <span class="violation__name">{ viol.invariant.name() }</span>
                                    <button type="button" class="violation__step" {onclick}
                                        aria-label={format!("Go to step {step}, where {} first holds", viol.invariant)}>{ format!("step {step}") }</button>
                                    <p class="violation__message">{ &viol.message }</p>
                                </li>
                            }
                        }) }
                    </ul>
                }
            </section>
        </article>
    }
}
