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
            if !notify_controller {
                <p class="editor__note" data-testid="editor-bounce-note">
                    { "Not notified: a bounce faster than ZooKeeper's session timeout, a modelling device. Kafka 0.10.2 would not let the broker register again until its old session expired, and from 2.2 (KIP-380) the controller notices the bounce when it registers, as a release from 2.2 on shows." }
                </p>
            }
        </>
    }
}
