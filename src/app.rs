//! The root component: holds the model, wires the side effects (storage, keyboard, playback timer,
//! pausing when hidden) and lays out the page.

use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::storage::{LocalStorage, Storage};
use gloo::timers::callback::Interval;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::components::config::ConfigPanel;
use crate::components::controls::Controls;
use crate::components::editor::EventEditor;
use crate::components::header::Header;
use crate::components::log_grid::Legend;
use crate::components::notice::NoticeBanner;
use crate::components::palette::Palette;
use crate::components::timeline::{chip_text, Timeline};
use crate::components::variant_panel::VariantPanel;
use crate::icons::kind_info;
use crate::model::{Action, Model, PlaceSource, SPEEDS};
use crate::pointer_drag::use_pointer_drag;
use crate::storage;

/// Yew's reducer wrapper around the pure [`Model`].
#[derive(Clone, PartialEq)]
struct State(Rc<Model>);

impl Reducible for State {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(State(Rc::new(self.0.reduce(action))))
    }
}

/// Whether a key event comes from a text field or control that needs its own keys.
fn typing(e: &KeyboardEvent) -> bool {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA")
        || el.closest("[contenteditable]").ok().flatten().is_some()
}

/// Global shortcuts: ←/→ step, space play/pause, Home/End; arrows, Enter and Escape while placing.
fn on_key(model: &Model, e: &KeyboardEvent) -> Option<Action> {
    if typing(e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    let key = e.key();
    if model.placing.is_some() {
        return match key.as_str() {
            "ArrowLeft" => Some(Action::MovePlacing { dx: -1, dy: 0 }),
            "ArrowRight" => Some(Action::MovePlacing { dx: 1, dy: 0 }),
            "ArrowUp" => Some(Action::MovePlacing { dx: 0, dy: -1 }),
            "ArrowDown" => Some(Action::MovePlacing { dx: 0, dy: 1 }),
            "Enter" => Some(Action::CommitPlacing),
            "Escape" => Some(Action::CancelPlacing),
            _ => None,
        };
    }
    let on_button = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlButtonElement>().ok()).is_some();
    match key.as_str() {
        "ArrowLeft" => Some(Action::StepBy(-1)),
        "ArrowRight" => Some(Action::StepBy(1)),
        "Home" => Some(Action::Home),
        "End" => Some(Action::End),
        // Space on a focused button presses the button.
        " " if !on_button => Some(Action::TogglePlay),
        "Escape" if model.selected.is_some() => Some(Action::Select(None)),
        _ => None,
    }
}

/// Scroll the timeline (never the page) so that the current step's column is visible.
fn scroll_current_step_into_view() {
    let document = gloo::utils::document();
    let (Ok(Some(scroller)), Ok(Some(step))) =
        (document.query_selector(".timeline__scroll"), document.query_selector(".timeline__step--current"))
    else {
        return;
    };
    let (Ok(scroller), Ok(step)) =
        (scroller.dyn_into::<web_sys::HtmlElement>(), step.dyn_into::<web_sys::HtmlElement>())
    else {
        return;
    };
    let (left, width) = (step.offset_left(), step.offset_width());
    let (view_left, view_width) = (scroller.scroll_left(), scroller.client_width());
    if left < view_left || left + width > view_left + view_width {
        scroller.set_scroll_left((left - view_width / 2 + width / 2).max(0));
    }
}

/// The app.
#[function_component(App)]
pub fn app() -> Html {
    let state =
        use_reducer(|| State(Rc::new(storage::initial(LocalStorage::raw().get_item(storage::KEY).ok().flatten()))));
    let model = state.0.clone();
    let dispatch = {
        let state = state.clone();
        Callback::from(move |a: Action| state.dispatch(a))
    };

    // Persist the working scenario whenever it (or the variants or cursor) changes.
    {
        let key = (model.scenario.clone(), model.variants.clone(), model.cursor);
        let model = model.clone();
        use_effect_with(key, move |_| {
            let _ = LocalStorage::raw().set_item(storage::KEY, &storage::encode(&model));
        });
    }

    // Keyboard shortcuts, on the document.
    {
        let state = state.clone();
        use_effect_with((), move |_| {
            let options = EventListenerOptions::enable_prevent_default();
            let listener = EventListener::new_with_options(&gloo::utils::document(), "keydown", options, move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
                if let Some(action) = on_key(&state.0, e) {
                    e.prevent_default();
                    state.dispatch(action);
                }
            });
            move || drop(listener)
        });
    }

    // Playback: a timer only while playing; none when paused, so an idle page uses no CPU.
    {
        let state = state.clone();
        let (playing, speed) = (model.playing, model.speed);
        use_effect_with((playing, speed), move |_| {
            let timer = playing.then(|| {
                let state = state.clone();
                Interval::new(SPEEDS[speed].0, move || state.dispatch(Action::Tick))
            });
            move || drop(timer)
        });
    }

    // Pause when the page is hidden.
    {
        let state = state.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::document(), "visibilitychange", move |_| {
                if gloo::utils::document().hidden() {
                    state.dispatch(Action::Pause);
                }
            });
            move || drop(listener)
        });
    }

    // Keep the current step in view when the timeline scrolls sideways (phones, long scenarios).
    use_effect_with(model.cursor, |_| {
        scroll_current_step_into_view();
    });

    let drag = use_pointer_drag(model.clone(), dispatch.clone());
    let width = epochlab_core::view::views(&model.traces, model.cursor).first().map_or(0, |v| v.width);
    let ghost = drag.view.as_ref().map(|v| {
        let text = match &v.source {
            PlaceSource::New(k) => kind_info(k).1.to_string(),
            PlaceSource::Existing(i) => model.scenario.events.get(*i).map(chip_text).unwrap_or_default(),
        };
        let style = format!("left: {}px; top: {}px", v.x, v.y);
        html! { <div class="drag-ghost" {style} aria-hidden="true" data-testid="drag-ghost">{ text }</div> }
    });
    let columns = format!("--variants: {}", model.variants.len());

    html! {
        <div class={classes!("app", model.playing.then_some("app--playing"))}>
            <Header model={model.clone()} dispatch={dispatch.clone()} />
            <NoticeBanner model={model.clone()} dispatch={dispatch.clone()} />
            <main class="workspace">
                <div class="workspace__timeline">
                    <Controls model={model.clone()} dispatch={dispatch.clone()} />
                    <Timeline model={model.clone()} dispatch={dispatch.clone()} drag={drag.clone()} />
                    <EventEditor model={model.clone()} dispatch={dispatch.clone()} />
                </div>
                <div class="variants" style={columns}>
                    { for (0..model.traces.len()).map(|i| html! {
                        <VariantPanel traces={model.traces.clone()} index={i} step={model.cursor} {width} dispatch={dispatch.clone()} />
                    }) }
                </div>
                <Legend />
                <details class="workspace__config">
                    <summary>{ "Configuration: variants, brokers, cluster settings" }</summary>
                    <ConfigPanel model={model.clone()} dispatch={dispatch.clone()} />
                </details>
            </main>
            <Palette dispatch={dispatch.clone()} drag={drag.clone()} />
            // Always one node here, so that siblings keep their DOM (and the timeline its scroll position).
            { ghost.unwrap_or_default() }
        </div>
    }
}
