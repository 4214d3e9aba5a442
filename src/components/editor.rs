//! The small editor for the selected event's fields: acks, record label, power crash, notify controller,
//! drop response, deliver to, candidate. Every change is an edit of the scenario and re-runs it.

use epochlab_core::scenario::{Acks, BrokerFieldMut, Delivery, Event};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::ModelProps;
use crate::icons::kind_info;
use crate::model::{Action, PlaceSource};

fn select_value(e: &yew::Event) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}

fn checked(e: &yew::Event) -> bool {
    e.target_unchecked_into::<HtmlInputElement>().checked()
}

/// The event editor (nothing when no event is selected).
#[function_component(EventEditor)]
pub fn event_editor(props: &ModelProps) -> Html {
    let m = &props.model;
    let Some(i) = m.selected else { return html! {} };
    let Some(event) = m.scenario.events.get(i).cloned() else { return html! {} };
    let brokers = m.scenario.brokers.clone();
    let d = props.dispatch.clone();
    let edit = move |f: Box<dyn Fn(&mut Event)>| {
        let d = d.clone();
        let event = event.clone();
        move |_: ()| {
            let mut e = event.clone();
            f(&mut e);
            d.emit(Action::Edit(i, Box::new(e)));
        }
    };
    let current = m.scenario.events[i].clone();
    let (icon, label, help) = kind_info(current.kind());

    // A broker picker; `optional` adds the "leader / controller's choice" entry.
    let broker_select = |name: &'static str,
                         value: Option<&str>,
                         optional: Option<&'static str>,
                         set: fn(&mut Event, Option<String>)| {
        let edit = edit.clone();
        let onchange = Callback::from(move |e: yew::Event| {
            let v = select_value(&e);
            let choice = if v.is_empty() { None } else { Some(v) };
            edit(Box::new(move |ev: &mut Event| set(ev, choice.clone())))(())
        });
        html! {
            <label class="editor__field">{ name }
                <select {onchange} data-testid="editor-broker">
                    { for optional.map(|o| html! { <option value="" selected={value.is_none()}>{ o }</option> }) }
                    { for brokers.iter().map(|b| html! { <option value={b.clone()} selected={value == Some(b.as_str())}>{ b }</option> }) }
                </select>
            </label>
        }
    };
    let toggle = |name: &'static str, testid: &'static str, on: bool, set: fn(&mut Event, bool)| {
        let edit = edit.clone();
        let onchange = Callback::from(move |e: yew::Event| {
            let v = checked(&e);
            edit(Box::new(move |ev: &mut Event| set(ev, v)))(())
        });
        html! { <label class="editor__field editor__field--check"><input type="checkbox" checked={on} {onchange} data-testid={testid} />{ name }</label> }
    };

    let fields = match &current {
        Event::Elect { broker, deliver } => {
            let deliver_all = matches!(deliver, Delivery::All);
            let listed = |b: &str| match deliver {
                Delivery::All => true,
                Delivery::None => false,
                Delivery::Only(l) => l.iter().any(|x| x == b),
            };
            let boxes = brokers.iter().map(|b| {
                let name = b.clone();
                let all_brokers = brokers.clone();
                let edit = edit.clone();
                let onchange = Callback::from(move |e: yew::Event| {
                    let on = checked(&e);
                    let (name, all_brokers) = (name.clone(), all_brokers.clone());
                    edit(Box::new(move |ev: &mut Event| {
                        if let Event::Elect { deliver, .. } = ev {
                            let mut list: Vec<String> = match deliver {
                                Delivery::All => all_brokers.clone(),
                                Delivery::None => Vec::new(),
                                Delivery::Only(l) => l.clone(),
                            };
                            list.retain(|x| *x != name);
                            if on {
                                list.push(name.clone());
                            }
                            list.sort_by_key(|x| all_brokers.iter().position(|y| y == x));
                            *deliver = if list.len() == all_brokers.len() {
                                Delivery::All
                            } else if list.is_empty() {
                                Delivery::None
                            } else {
                                Delivery::Only(list)
                            };
                        }
                    }))(())
                });
                html! { <label class="editor__field editor__field--check"><input type="checkbox" checked={listed(b)} {onchange} data-testid={format!("editor-deliver-{b}")} />{ b }</label> }
            });
            html! {
                <>
                    { broker_select("Candidate", broker.as_deref(), Some("controller's choice"), |e, v| if let Event::Elect { broker, .. } = e { *broker = v }) }
                    <fieldset class="editor__group"><legend>{ if deliver_all { "Deliver to (all live brokers)" } else { "Deliver to" } }</legend>{ for boxes }</fieldset>
                </>
            }
        }
        Event::Produce { record, acks, broker } => {
            let label_edit = edit.clone();
            let onlabel = Callback::from(move |e: yew::Event| {
                let v = e.target_unchecked_into::<HtmlInputElement>().value().trim().to_string();
                label_edit(Box::new(move |ev: &mut Event| {
                    if let Event::Produce { record, .. } = ev {
                        *record = (!v.is_empty()).then(|| v.chars().take(24).collect())
                    }
                }))(())
            });
            let acks_edit = edit.clone();
            let onacks = Callback::from(move |e: yew::Event| {
                let a = match select_value(&e).as_str() {
                    "0" => Acks::Zero,
                    "1" => Acks::One,
                    _ => Acks::All,
                };
                acks_edit(Box::new(move |ev: &mut Event| {
                    if let Event::Produce { acks, .. } = ev {
                        *acks = a
                    }
                }))(())
            });
            html! {
                <>
                    <label class="editor__field">{ "Record label" }
                        <input type="text" maxlength="24" value={record.clone().unwrap_or_default()} placeholder="r<N>" onchange={onlabel} data-testid="editor-record" />
                    </label>
                    <label class="editor__field">{ "acks" }
                        <select onchange={onacks} data-testid="editor-acks">
                            { for [(Acks::Zero, "0"), (Acks::One, "1"), (Acks::All, "all")].iter().map(|(a, v)| html! { <option value={*v} selected={acks == a}>{ *v }</option> }) }
                        </select>
                    </label>
                    { broker_select("To broker", broker.as_deref(), Some("the leader"), |e, v| if let Event::Produce { broker, .. } = e { *broker = v }) }
                </>
            }
        }
        Event::Consume { broker } => broker_select("From broker", broker.as_deref(), Some("the leader"), |e, v| {
            if let Event::Consume { broker } = e {
                *broker = v
            }
        }),
        Event::Fetch { broker, drop_response } => html! {
            <>
                { broker_select("Follower", Some(broker), None, |e, v| if let (Event::Fetch { broker, .. }, Some(v)) = (e, v) { *broker = v }) }
                { toggle("Drop the response", "editor-drop", *drop_response, |e, v| if let Event::Fetch { drop_response, .. } = e { *drop_response = v }) }
            </>
        },
        Event::Crash { broker, power, notify_controller } => html! {
            <>
                { broker_select("Broker", Some(broker), None, |e, v| if let (Event::Crash { broker, .. }, Some(v)) = (e, v) { *broker = v }) }
                { toggle("Power loss (unflushed records are lost)", "editor-power", *power, |e, v| if let Event::Crash { power, .. } = e { *power = v }) }
                { toggle("Notify the controller", "editor-notify", *notify_controller, |e, v| if let Event::Crash { notify_controller, .. } = e { *notify_controller = v }) }
            </>
        },
        Event::Restart { broker, deliver } => html! {
            <>
                { broker_select("Broker", Some(broker), None, |e, v| if let (Event::Restart { broker, .. }, Some(v)) = (e, v) { *broker = v }) }
                { toggle("Deliver LeaderAndIsr at once", "editor-deliver", *deliver, |e, v| if let Event::Restart { deliver, .. } = e { *deliver = v }) }
            </>
        },
        Event::Settle => html! { <p class="editor__note">{ "Settle has no fields." }</p> },
        other => {
            let b = other.broker().unwrap_or_default().to_string();
            broker_select("Broker", Some(&b), None, |e, v| {
                if let (Some(v), Some(target)) = (v, broker_field(e)) {
                    *target = v;
                }
            })
        }
    };
    let outcomes =
        m.traces.iter().filter_map(|t| t.steps.get(i).map(|s| (t.variant.id(), s.outcome.label(), s.outcome.reason())));
    let close = props.dispatch.reform(|_| Action::Select(None));
    let remove = props.dispatch.reform(move |_| Action::Remove(i));
    let move_kb = props.dispatch.reform(move |_| Action::StartPlacing(PlaceSource::Existing(i)));
    html! {
        <section class="editor" aria-label={format!("Edit step {i}")} data-testid="editor">
            <header class="editor__head">
                <h2 class="editor__title"><span aria-hidden="true">{ icon }</span>{ format!(" Step {i}: {label}") }</h2>
                <button type="button" class="editor__close" onclick={close} aria-label="Close the editor">{ "×" }</button>
            </header>
            <p class="editor__help">{ help }</p>
            <div class="editor__fields">{ fields }</div>
            <ul class="editor__outcomes">
                { for outcomes.map(|(v, o, r)| html! { <li>{ format!("{v}: {o}{}", r.map(|r| format!(" ({r})")).unwrap_or_default()) }</li> }) }
            </ul>
            <div class="editor__actions">
                <button type="button" onclick={move_kb} data-testid="editor-move">{ "Move with the keyboard" }</button>
                <button type="button" class="danger" onclick={remove} data-testid="editor-delete">{ "Delete" }</button>
            </div>
        </section>
    }
}

/// The broker field of an event that has a required broker.
fn broker_field(e: &mut Event) -> Option<&mut String> {
    match e.broker_field_mut() {
        BrokerFieldMut::Required(broker) => Some(broker),
        _ => None,
    }
}
