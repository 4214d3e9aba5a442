//! The fields of the kinds whose one field is the broker they happen on: deliver, shrink ISR, shutdown,
//! checkpoint HW, flush and zombie.

use epochlab_core::scenario::{BrokerFieldMut, Event};
use yew::prelude::*;

use super::fields::{required_broker, KindProps};

/// The event aimed at another broker.
fn on_broker(event: &Event, name: String) -> Event {
    let mut moved = event.clone();
    if let BrokerFieldMut::Required(broker) = moved.broker_field_mut() {
        *broker = name;
    }
    moved
}

/// The broker of a kind with nothing else to edit.
#[function_component(BrokerFields)]
pub fn broker_fields(props: &KindProps) -> Html {
    let Some(broker) = props.event.broker() else { return html! {} };
    let event = props.event.clone();
    let onchange = props.onchange.reform(move |name| on_broker(&event, name));
    required_broker("Broker", broker, &props.brokers, onchange)
}
