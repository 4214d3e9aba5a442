//! The Kafka release: chosen instead of a variant (each release runs its variant, with what changed in it
//! and the KIPs and JIRAs that changed it, from `epochlab_core::release`), and the bisect strip, which runs
//! the scenario under every release and shows where the outcome changes and why.

use std::rc::Rc;

use epochlab_core::invariants::InvariantId;
use epochlab_core::release::{bisect, describe_bisection, KafkaRelease};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::{ModelProps, TracesRef};
use crate::model::{Action, Model};

/// The release picker and what the chosen release changed.
pub fn release_group(m: &Rc<Model>, d: &Callback<Action>) -> Html {
    let chosen = m.scenario.config.kafka_version;
    let onchange = d.reform(|e: Event| {
        Action::SetKafkaRelease(KafkaRelease::from_id(&e.target_unchecked_into::<HtmlSelectElement>().value()))
    });
    let options = KafkaRelease::ALL.iter().map(|r| {
        html! {
            <option value={r.id()} selected={chosen == Some(*r)}>{ format!("Kafka {} ({})", r.id(), r.variant().id()) }</option>
        }
    });
    let about = match chosen {
        Some(r) => format!(
            "Kafka {} runs {}: {}. Changed in this release: {}.",
            r.id(),
            r.variant().id(),
            r.variant().title(),
            r.changes()
        ),
        None => "No release chosen: the variants below are shown as they are.".to_string(),
    };
    html! {
        <fieldset class="config__group">
            <legend>{ "Kafka release (instead of a variant)" }</legend>
            <label class="config__field">{ "Release " }
                <select {onchange} data-testid="kafka-release">
                    <option value="" selected={chosen.is_none()}>{ "none: choose variants" }</option>
                    { for options }
                </select>
            </label>
            <p class="config__about" data-testid="kafka-release-about">{ about }</p>
            <BisectStrip model={m.clone()} dispatch={d.clone()} />
        </fieldset>
    }
}

/// The strip: one cell per release (a button that chooses it), a mark where the outcome changes.
#[function_component(BisectStrip)]
pub fn bisect_strip(props: &ModelProps) -> Html {
    let outcomes = {
        let (scenario, traces) = (props.model.scenario.clone(), props.model.traces.clone());
        use_memo(TracesRef(traces), move |_| bisect(&scenario))
    };
    let chosen = props.model.scenario.config.kafka_version;
    let changed = |i: usize| i > 0 && outcomes[i - 1].bugs != outcomes[i].bugs;
    let cells = outcomes.iter().enumerate().map(|(i, o)| {
        let fails = !o.bugs.is_empty();
        let verdict = if fails { format!("✕ {}", InvariantId::join(&o.bugs, " ")) } else { "✓ holds".to_string() };
        let release = o.release;
        let onclick = props.dispatch.reform(move |_| Action::SetKafkaRelease(Some(release)));
        let class = classes!(
            "bisect__cell",
            if fails { "bisect__cell--fails" } else { "bisect__cell--holds" },
            changed(i).then_some("bisect__cell--changed"),
        );
        let title = format!("Kafka {}: {}. Changed: {}", o.release.id(), verdict, o.release.changes());
        html! {
            <li {class}>
                <button type="button" {onclick} aria-pressed={(chosen == Some(release)).to_string()} {title}
                    data-testid={format!("bisect-{}", o.release.id())}>
                    <span class="bisect__release">{ o.release.id() }</span>
                    <span class="bisect__verdict">{ verdict }</span>
                </button>
            </li>
        }
    });
    // Where the outcome changes, and what changed it.
    let changes = outcomes.iter().enumerate().filter(|(i, _)| changed(*i)).map(|(_, o)| {
        let now = if o.bugs.is_empty() { "holds".to_string() } else { format!("fails {}", InvariantId::join(&o.bugs, ", ")) };
        html! {
            <li data-testid="bisect-change"><strong>{ format!("From {} it {now}: ", o.release.id()) }</strong>{ o.release.changes() }</li>
        }
    });
    html! {
        <div class="bisect" data-testid="bisect">
            <p class="bisect__summary" data-testid="bisect-summary">{ format!("Across Kafka's history: {}.", describe_bisection(&outcomes)) }</p>
            <ol class="bisect__cells" aria-label="The outcome under each Kafka release (choose one to run it)">{ for cells }</ol>
            <ul class="bisect__changes">{ for changes }</ul>
        </div>
    }
}
