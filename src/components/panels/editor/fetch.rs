//! A fetch's fields: the follower, and whether its response is lost.

use epochlab_core::scenario::Event;
use yew::prelude::*;

use super::fields::{check, required_broker, KindProps};

/// A fetch's fields.
#[function_component(FetchFields)]
pub fn fetch_fields(props: &KindProps) -> Html {
    let Event::Fetch { broker, drop_response } = props.event.clone() else { return html! {} };
    let on_broker = props.onchange.reform(move |broker| Event::Fetch { broker, drop_response });
    let on_drop = {
        let broker = broker.clone();
        props.onchange.reform(move |drop_response| Event::Fetch { broker: broker.clone(), drop_response })
    };
    html! {
        <>
            { required_broker("Follower", &broker, &props.brokers, on_broker) }
            { check("Drop the response", "editor-drop", drop_response, on_drop) }
        </>
    }
}
