//! Epochlab's web app: a Yew front end over [`epochlab_core`].
//!
//! This is the foundation's smoke app: it runs the landing scenario and shows every broker's final log as
//! text. The full UI replaces it.

use epochlab_core::view::{BrokerView, RoleView, StepView};
use yew::prelude::*;

/// The final state of the landing scenario, as the view model draws it.
pub fn final_view() -> (String, StepView) {
    let scenario = epochlab_core::presets::default_scenario();
    let trace = epochlab_core::run(&scenario);
    let last = trace.steps.len().saturating_sub(1);
    (scenario.name.clone(), epochlab_core::view::view(&trace, Some(last), 0))
}

fn role_label(role: RoleView) -> &'static str {
    match role {
        RoleView::Leader => "leader",
        RoleView::Follower => "follower",
        RoleView::Down => "down",
        RoleView::Zombie => "zombie",
        RoleView::None => "no role",
    }
}

/// One broker's log as text: `m1@0 m2@0`, or `(empty)`.
pub fn log_text(broker: &BrokerView) -> String {
    let records: Vec<String> =
        broker.cells.iter().filter_map(|c| c.record.as_ref().map(|r| format!("{}@{}", r.label, r.epoch))).collect();
    if records.is_empty() {
        "(empty)".to_string()
    } else {
        records.join(" ")
    }
}

#[derive(Properties, PartialEq)]
struct BrokerProps {
    broker: BrokerView,
}

#[function_component(Broker)]
fn broker(props: &BrokerProps) -> Html {
    let b = &props.broker;
    html! {
        <li class="broker" data-testid={format!("broker-{}", b.name)}>
            <span class="broker-name">{ &b.name }</span>
            <span class="broker-role">{ role_label(b.role) }</span>
            <span class="broker-offsets">{ format!("HW {} · LEO {}", b.hw, b.leo) }</span>
            <code class="broker-log" data-testid={format!("log-{}", b.name)}>{ log_text(b) }</code>
        </li>
    }
}

/// The app's root component.
#[function_component(App)]
pub fn app() -> Html {
    let (name, view) = use_memo((), |_| final_view()).as_ref().clone();
    html! {
        <main class="app">
            <h1>{ "Epochlab" }</h1>
            <p class="scenario-name" data-testid="scenario-name">{ name }</p>
            <ul class="brokers" data-testid="brokers">
                { for view.brokers.into_iter().map(|broker| {
                    let key = broker.name.clone();
                    html! { <Broker {key} {broker} /> }
                }) }
            </ul>
        </main>
    }
}

/// Mounts [`App`] on the document body. Call once from `main`.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    console_error_panic_hook::set_once();
    yew::Renderer::<App>::new().render();
}

/// Natively there is no browser to render into: this does nothing (the crate still builds for clippy and tests).
#[cfg(not(target_arch = "wasm32"))]
pub fn start() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_landing_scenario_has_brokers_a_and_b() {
        let (name, view) = final_view();
        assert!(!name.is_empty());
        let names: Vec<&str> = view.brokers.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["A", "B"]);
        assert!(view.brokers.iter().any(|b| log_text(b) != "(empty)"));
    }
}
