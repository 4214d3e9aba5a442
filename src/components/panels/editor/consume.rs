//! A consume's one field: the broker read from, or the leader.

use epochlab_core::scenario::Event;
use yew::prelude::*;

use super::fields::{broker_select, KindProps};

/// A consume's fields.
#[function_component(ConsumeFields)]
pub fn consume_fields(props: &KindProps) -> Html {
    let Event::Consume { broker } = &props.event else { return html! {} };
    let onchange = props.onchange.reform(|broker| Event::Consume { broker });
    broker_select("From broker", broker.as_deref(), Some("the leader"), &props.brokers, onchange)
}
