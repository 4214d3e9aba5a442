//! What the current step did, for one variant: the narration sentence and its annotations.

use epochlab_core::trace::Trace;
use yew::prelude::*;

use crate::model::Shared;

/// Props.
#[derive(Properties, Clone, PartialEq)]
pub struct ExplanationProps {
    /// The traces, and which one is this variant's.
    pub trace: Shared<Vec<Trace>>,
    /// Which trace.
    pub index: usize,
    /// The step shown.
    pub step: Option<usize>,
}

/// The narration and annotations of the step under the cursor.
#[function_component(Explanation)]
pub fn explanation(props: &ExplanationProps) -> Html {
    let Some(trace) = props.trace.get(props.index) else { return html! {} };
    let Some(step) = props.step.and_then(|i| trace.steps.get(i)) else {
        return html! { <p class="explanation__narration">{ "Before the first event: no leader, every broker up with an empty log." }</p> };
    };
    let variant = trace.variant.id();
    html! {
        <div class="explanation">
            <p class={classes!("explanation__narration", step.outcome.reason().map(|_| "explanation__narration--rejected"))}
                data-testid={format!("narration-{variant}")}>
                <span class="explanation__step">{ format!("Step {} · {}", step.index, step.kind.words()) }</span>
                { " " }{ &step.narration }
            </p>
            if !step.annotations.is_empty() {
                <details class="explanation__details">
                    <summary>{ format!("{} detail{}", step.annotations.len(), if step.annotations.len() == 1 { "" } else { "s" }) }</summary>
                    <ul class="explanation__annotations">
                        { for step.annotations.iter().map(|a| html! { <li>{ trace.describe(a) }</li> }) }
                    </ul>
                </details>
            }
        </div>
    }
}
