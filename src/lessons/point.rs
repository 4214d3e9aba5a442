//! Pointing while writing a lesson (lessons' module only): a click on a cell of a broker's log (not one
//! being painted for a question), on a broker's row or on a step's chip is `DraftAction::Point`, which the
//! model takes only while the builder is open: it is highlighted in the lesson's last explanation (`A@1`,
//! `A`, `#5`).

use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::JsCast;

use crate::components::Dispatch;
use crate::model::learn::DraftAction;
use crate::model::{Action, LearnAction};

/// What a click is on, as a highlight word, while the builder is open (only then is it news). The page marks
/// what may be pointed at with `data-point`, its word (`A@1` on a log cell, `A` on a broker row's label,
/// `#5` on a step's chip), so nothing here reads the page's test ids.
fn pointed(e: &web_sys::Event) -> Option<String> {
    gloo::utils::document().query_selector("[data-testid=\"lesson-builder\"]").ok()??;
    let el = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let target = el.closest("[data-point]").ok()??;
    if target.has_attribute("data-paint") {
        return None;
    }
    target.get_attribute("data-point").filter(|word| !word.is_empty())
}

/// Listen on the window, beside the page's own handling of the click.
pub fn listen(dispatch: &Dispatch) -> EventListener {
    let options = EventListenerOptions { phase: EventListenerPhase::Capture, passive: true };
    let dispatch = dispatch.clone();
    EventListener::new_with_options(&gloo::utils::window(), "click", options, move |e| {
        if let Some(word) = pointed(e) {
            dispatch.emit(Action::Learn(LearnAction::Draft(DraftAction::Point(word))));
        }
    })
}
