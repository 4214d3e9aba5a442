//! The Kafka release: chosen instead of a variant (each release runs its variant, with what changed in it
//! and the KIPs and JIRAs that changed it, from `epochlab_core::release`), and the bisect strip, which runs
//! the scenario under every release and shows where the outcome changes and why.

use std::fmt::Write;
use std::rc::Rc;

use epochlab_core::invariants::InvariantId;
use epochlab_core::release::{bisect, describe_bisection, KafkaRelease, ReleaseOutcome};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::{ModelProps, TracesRef};
use crate::export::xml_escape;
use crate::model::{Action, Model};
use crate::web;

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

/// The strip as markup: one cell per release (a button that chooses it), a mark where the outcome changes,
/// and what changed there. Text, not markup macros: the page's first download stays smaller.
fn strip_html(outcomes: &[ReleaseOutcome], chosen: Option<KafkaRelease>) -> String {
    let changed = |i: usize| i > 0 && outcomes[i - 1].bugs != outcomes[i].bugs;
    let verdict = |o: &ReleaseOutcome| match o.bugs.is_empty() {
        true => "✓ holds".to_string(),
        false => format!("✕ {}", InvariantId::join(&o.bugs, " ")),
    };
    let mut out = format!(
        r#"<p class="bisect__summary" data-testid="bisect-summary">Across Kafka's history: {}.</p><ol class="bisect__cells" aria-label="The outcome under each Kafka release (choose one to run it)">"#,
        xml_escape(&describe_bisection(outcomes))
    );
    for (i, o) in outcomes.iter().enumerate() {
        let (id, v) = (o.release.id(), verdict(o));
        let class = if o.bugs.is_empty() { "holds" } else { "fails" };
        let mark = if changed(i) { " bisect__cell--changed" } else { "" };
        let title = xml_escape(&format!("Kafka {id}: {v}. Changed: {}", o.release.changes()));
        let _ = write!(
            out,
            r#"<li class="bisect__cell bisect__cell--{class}{mark}"><button type="button" data-release="{id}" aria-pressed="{}" title="{title}" data-testid="bisect-{id}"><span class="bisect__release">{id}</span><span class="bisect__verdict">{v}</span></button></li>"#,
            chosen == Some(o.release)
        );
    }
    out.push_str(r#"</ol><ul class="bisect__changes">"#);
    for o in outcomes.iter().enumerate().filter(|(i, _)| changed(*i)).map(|(_, o)| o) {
        let now =
            if o.bugs.is_empty() { "holds".to_string() } else { format!("fails {}", InvariantId::join(&o.bugs, ", ")) };
        let _ = write!(
            out,
            r#"<li data-testid="bisect-change"><strong>From {} it {now}: </strong>{}</li>"#,
            o.release.id(),
            xml_escape(o.release.changes())
        );
    }
    out.push_str("</ul>");
    out
}

/// The bisect strip, run again only when the scenario is.
#[function_component(BisectStrip)]
pub fn bisect_strip(props: &ModelProps) -> Html {
    let outcomes = {
        let (scenario, traces) = (props.model.scenario.clone(), props.model.traces.clone());
        use_memo(TracesRef(traces), move |_| bisect(&scenario))
    };
    let markup = strip_html(&outcomes, props.model.scenario.config.kafka_version);
    // A click between the buttons chooses nothing.
    let dispatch = props.dispatch.clone();
    let onclick = Callback::from(move |e: MouseEvent| {
        if let Some(r) = web::closest_attribute(&e, "data-release").and_then(|id| KafkaRelease::from_id(&id)) {
            dispatch.emit(Action::SetKafkaRelease(Some(r)));
        }
    });
    html! {
        <div class="bisect" data-testid="bisect" {onclick}>{ Html::from_html_unchecked(AttrValue::from(markup)) }</div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::presets::find;

    #[test]
    fn the_strip_marks_where_the_outcome_changes_and_names_what_changed_it() {
        let s = find("kafka-6361-fast-failover").expect("preset").scenario();
        let html = strip_html(&bisect(&s), Some(KafkaRelease::V2_0));
        assert!(html.contains("holds from 2.0: KIP-279"), "{html}");
        assert_eq!(html.matches("bisect__cell--changed").count(), 2, "0.11.0 and 2.0");
        assert!(
            html.contains(r#"data-release="2.0" aria-pressed="true""#)
                && html.contains(r#"data-release="1.1" aria-pressed="false""#)
        );
        assert!(html.contains("<strong>From 2.0 it holds: </strong>KIP-279"), "{html}");
        assert!(html.contains("<strong>From 0.11.0 it fails I3, I4: </strong>KIP-101"), "{html}");
    }
}
