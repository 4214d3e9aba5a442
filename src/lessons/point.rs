//! Pointing at the logs while writing a lesson (lessons' module only): a click on a cell of a broker's log
//! (not one being painted for a question) is `DraftAction::Point`, which the model takes only while the
//! builder is open: the cell is highlighted in the lesson's last explanation.

use epochlab_core::Variant;
use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::JsCast;

use crate::components::Dispatch;
use crate::model::learn::DraftAction;
use crate::model::{Action, LearnAction};

/// `A@1` for a log cell's test id, `cell-<variant>-<broker>-<offset>` (a broker's name may hold a `-`).
fn cell_word(test_id: &str) -> Option<String> {
    let rest = test_id.strip_prefix("cell-")?;
    let rest = Variant::ALL.iter().find_map(|v| rest.strip_prefix(v.id())?.strip_prefix('-'))?;
    let (broker, offset) = rest.rsplit_once('-')?;
    let offset: u32 = offset.parse().ok()?;
    (!broker.is_empty()).then(|| format!("{broker}@{offset}"))
}

/// The cell a click is on, as a highlight word, while the builder is open (only then is it news).
fn pointed(e: &web_sys::Event) -> Option<String> {
    gloo::utils::document().query_selector("[data-testid=\"lesson-builder\"]").ok()??;
    let el = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let cell = el.closest("[data-testid^=\"cell-\"]").ok()??;
    if cell.has_attribute("data-paint") {
        return None;
    }
    cell_word(&cell.get_attribute("data-testid")?)
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

#[cfg(test)]
mod tests {
    use super::cell_word;

    #[test]
    fn a_cells_test_id_names_its_broker_and_offset() {
        assert_eq!(cell_word("cell-hw-truncation-A-1").as_deref(), Some("A@1"));
        assert_eq!(cell_word("cell-kip-279-broker-2-12").as_deref(), Some("broker-2@12"));
        assert_eq!(cell_word("cell-kip-999-A-1"), None);
        assert_eq!(cell_word("cell-kip-279-A-x"), None);
    }
}
