//! A produce's fields: the record's label, acks, and the broker it is sent to.

use epochlab_core::scenario::{Acks, Event};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::fields::{broker_select, KindProps};

/// Labels longer than this are cut (the chip has room for no more).
const MAX_LABEL: usize = 24;

const ACKS: [(Acks, &str); 3] = [(Acks::Zero, "0"), (Acks::One, "1"), (Acks::All, "all")];

/// A produce's fields.
#[function_component(ProduceFields)]
pub fn produce_fields(props: &KindProps) -> Html {
    let Event::Produce { record, acks, broker } = props.event.clone() else { return html! {} };
    let on_label = {
        let (acks, broker) = (acks, broker.clone());
        props.onchange.reform(move |e: yew::Event| {
            let label = e.target_unchecked_into::<HtmlInputElement>().value().trim().to_string();
            let record = (!label.is_empty()).then(|| label.chars().take(MAX_LABEL).collect());
            Event::Produce { record, acks, broker: broker.clone() }
        })
    };
    let on_acks = {
        let (record, broker) = (record.clone(), broker.clone());
        props.onchange.reform(move |e: yew::Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            let acks = ACKS.iter().find(|(_, v)| *v == value).map_or(Acks::All, |(a, _)| *a);
            Event::Produce { record: record.clone(), acks, broker: broker.clone() }
        })
    };
    let on_broker = {
        let record = record.clone();
        props.onchange.reform(move |broker| Event::Produce { record: record.clone(), acks, broker })
    };
    html! {
        <>
            <label class="editor__field">{ "Record label" }
                <input type="text" maxlength={MAX_LABEL.to_string()} value={record.unwrap_or_default()} placeholder="r<N>" onchange={on_label} data-testid="editor-record" />
            </label>
            <label class="editor__field">{ "acks" }
                <select onchange={on_acks} data-testid="editor-acks">
                    { for ACKS.iter().map(|(a, v)| html! { <option value={*v} selected={acks == *a}>{ *v }</option> }) }
                </select>
            </label>
            { broker_select("To broker", broker.as_deref(), Some("the leader"), &props.brokers, on_broker) }
        </>
    }
}
