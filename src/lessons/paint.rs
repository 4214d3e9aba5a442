//! Painting the log on the broker's row (lessons' module only): the page draws the painted cells
//! (`data-paint`, from `bridge::Painting`); the lessons take a click or tap on one, and Space or Enter on
//! the focused one (the grid's arrow keys move between its cells), as `LearnAction::Paint`.

use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::JsCast;

use crate::components::Dispatch;
use crate::model::{Action, LearnAction};

/// The offset of the painted cell an event is on.
fn painted_offset(e: &web_sys::Event) -> Option<usize> {
    let el = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let cell = el.closest("[data-paint]").ok()??;
    cell.get_attribute("data-offset")?.parse().ok()
}

/// Listen on the window, before the page sees the event (Space would otherwise play the timeline).
pub fn listen(dispatch: &Dispatch) -> [EventListener; 2] {
    let options = EventListenerOptions { phase: EventListenerPhase::Capture, passive: false };
    let on_click = {
        let dispatch = dispatch.clone();
        EventListener::new_with_options(&gloo::utils::window(), "click", options, move |e| {
            if let Some(offset) = painted_offset(e) {
                dispatch.emit(Action::Learn(LearnAction::Paint(offset)));
            }
        })
    };
    let dispatch = dispatch.clone();
    let on_key = EventListener::new_with_options(&gloo::utils::window(), "keydown", options, move |e| {
        let Some(key) = e.dyn_ref::<web_sys::KeyboardEvent>().map(web_sys::KeyboardEvent::key) else { return };
        if !matches!(key.as_str(), " " | "Enter") {
            return;
        }
        if let Some(offset) = painted_offset(e) {
            e.prevent_default();
            e.stop_propagation();
            dispatch.emit(Action::Learn(LearnAction::Paint(offset)));
        }
    });
    [on_click, on_key]
}
