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
            <fieldset class="editor__group"><legend>{ legend }</legend>{ for boxes }</fieldset>
        </>
    }
}
