//! An election's fields: the candidate, and which brokers get the LeaderAndIsr at once.

use epochlab_core::scenario::edit::{delivers_to, toggle_delivery};
use epochlab_core::scenario::{Delivery, Event};
use yew::prelude::*;

use super::fields::{broker_select, check, KindProps};

/// An elect's fields.
#[function_component(ElectFields)]
pub fn elect_fields(props: &KindProps) -> Html {
    let Event::Elect { broker, deliver } = &props.event else { return html! {} };
    let on_candidate = {
        let deliver = deliver.clone();
        props.onchange.reform(move |broker| Event::Elect { broker, deliver: deliver.clone() })
    };
    let boxes = props.brokers.iter().map(|b| {
        let (candidate, toggled) = (broker.clone(), toggle_delivery(deliver, b, &props.brokers));
        let onchange =
            props.onchange.reform(move |_| Event::Elect { broker: candidate.clone(), deliver: toggled.clone() });
        check(b.clone(), format!("editor-deliver-{b}"), delivers_to(deliver, b), onchange)
    });
    let legend = if *deliver == Delivery::All { "Deliver to (all live brokers)" } else { "Deliver to" };
    html! {
        <>
            { broker_select("Candidate", broker.as_deref(), Some("controller's choice"), &props.brokers, on_candidate) }
            if broker.is_some() {
                <p class="editor__note" data-testid="editor-candidate-note">{ CANDIDATE_NOTE }</p>
            }
            <fieldset class="editor__group"><legend>{ legend }</legend>{ for boxes }</fieldset>
            if *deliver != Delivery::All {
                <p class="editor__note" data-testid="editor-withheld-note">{ WITHHELD_NOTE }</p>
            }
        </>
    }
}

/// Kafka has no call that elects a chosen ISR member: what naming one stands for.
const CANDIDATE_NOTE: &str = "A modelling device: Kafka's controller elects the first live ISR member in replica \
    order. Another ISR member stands for a preferred-replica election or a reassignment; one outside the ISR is an \
    unclean election (only with no ISR member live and unclean.leader.election.enable on).";

/// What a LeaderAndIsr withheld from a broker stands for.
const WITHHELD_NOTE: &str = "An unticked broker missed this LeaderAndIsr for now (slow, or cut off; the controller \
    resends it): it keeps its old epoch until a deliver step or its restart.";
