//! A crash's fields: the broker, power loss, and whether the controller notices.

use epochlab_core::scenario::Event;
use yew::prelude::*;

use super::fields::{check, required_broker, KindProps};

/// A crash's fields.
#[function_component(CrashFields)]
pub fn crash_fields(props: &KindProps) -> Html {
    let Event::Crash { broker, power, notify_controller } = props.event.clone() else { return html! {} };
    let on_broker = props.onchange.reform(move |broker| Event::Crash { broker, power, notify_controller });
    let on_power = {
        let broker = broker.clone();
        props.onchange.reform(move |power| Event::Crash { broker: broker.clone(), power, notify_controller })
    };
    let on_notify = {
        let broker = broker.clone();
        props.onchange.reform(move |notify_controller| Event::Crash {
            broker: broker.clone(),
            power,
            notify_controller,
        })
    };
    html! {
        <>
            { required_broker("Broker", &broker, &props.brokers, on_broker) }
            { check("Power loss (unflushed records are lost)", "editor-power", power, on_power) }
            { check("Notify the controller", "editor-notify", notify_controller, on_notify) }
        </>
    }
}
