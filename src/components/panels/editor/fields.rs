//! What every kind's fields are made of: the props they share, a broker picker and a check box.

use epochlab_core::scenario::Event;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The props of every kind's fields. Each kind's component is only mounted for events of its kind, and draws
/// nothing for any other.
#[derive(Properties, PartialEq, Clone)]
pub struct KindProps {
    /// The event being edited.
    pub event: Event,
    /// The scenario's brokers, in assignment order.
    pub brokers: Vec<String>,
    /// Takes the edited event.
    pub onchange: Callback<Event>,
}

/// A broker picker. `none` names the entry for "no broker" of a field that may be left empty.
pub fn broker_select(
    label: &'static str,
    value: Option<&str>,
    none: Option<&'static str>,
    brokers: &[String],
    onchange: Callback<Option<String>>,
) -> Html {
    let onchange = onchange.reform(|e: yew::Event| {
        let name = e.target_unchecked_into::<HtmlSelectElement>().value();
        (!name.is_empty()).then_some(name)
    });
    html! {
        <label class="editor__field">{ label }
            <select {onchange} data-testid="editor-broker">
                { for none.map(|o| html! { <option value="" selected={value.is_none()}>{ o }</option> }) }
                { for brokers.iter().map(|b| html! { <option value={b.clone()} selected={value == Some(b.as_str())}>{ b }</option> }) }
            </select>
        </label>
    }
}

/// The picker of a broker the event needs: there is no "no broker" entry to choose.
pub fn required_broker(label: &'static str, value: &str, brokers: &[String], onchange: Callback<String>) -> Html {
    let onchange = Callback::from(move |name: Option<String>| name.into_iter().for_each(|n| onchange.emit(n)));
    broker_select(label, Some(value), None, brokers, onchange)
}

/// A check box.
pub fn check(label: impl Into<AttrValue>, testid: impl Into<AttrValue>, on: bool, onchange: Callback<bool>) -> Html {
    let onchange = onchange.reform(|e: yew::Event| e.target_unchecked_into::<HtmlInputElement>().checked());
    html! {
        <label class="editor__field editor__field--check">
            <input type="checkbox" checked={on} {onchange} data-testid={testid.into()} />{ label.into() }
        </label>
    }
}
