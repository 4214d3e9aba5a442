//! A restart's fields: the broker, and whether the current LeaderAndIsr reaches it at once.

use epochlab_core::scenario::Event;
use yew::prelude::*;

use super::fields::{check, required_broker, KindProps};

/// A restart's fields.
#[function_component(RestartFields)]
pub fn restart_fields(props: &KindProps) -> Html {
    let Event::Restart { broker, deliver } = props.event.clone() else { return html! {} };
    let on_broker = props.onchange.reform(move |broker| Event::Restart { broker, deliver });
    let on_deliver = {
        let broker = broker.clone();
        props.onchange.reform(move |deliver| Event::Restart { broker: broker.clone(), deliver })
    };
    html! {
        <>
            { required_broker("Broker", &broker, &props.brokers, on_broker) }
            { check("Deliver LeaderAndIsr at once", "editor-deliver", deliver, on_deliver) }
        </>
    }
}
