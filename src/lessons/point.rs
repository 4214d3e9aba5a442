//! Pointing while writing a lesson (lessons' module only): a click on a cell of a broker's log (not one
//! being painted for a question), on a broker's row or on a step's chip is `DraftAction::Point`, which the
//! model takes only while the builder is open: it is highlighted in the lesson's last explanation (`A@1`,
//! `A`, `#5`).

use epochlab_core::Variant;
use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::JsCast;

use crate::components::Dispatch;
use crate::model::learn::DraftAction;
use crate::model::{Action, LearnAction};

/// What follows a variant's id and a `-` (a test id names the variant panel first).
fn after_variant(rest: &str) -> Option<&str> {
    Variant::ALL.iter().find_map(|v| rest.strip_prefix(v.id())?.strip_prefix('-'))
}

/// `A@1` for a log cell's test id, `cell-<variant>-<broker>-<offset>` (a broker's name may hold a `-`).
fn cell_word(test_id: &str) -> Option<String> {
    let rest = after_variant(test_id.strip_prefix("cell-")?)?;
    let (broker, offset) = rest.rsplit_once('-')?;
    let offset: u32 = offset.parse().ok()?;
    (!broker.is_empty()).then(|| format!("{broker}@{offset}"))
}

/// `A` for a broker row's label, `broker-<variant>-<broker>`.
fn row_word(test_id: &str) -> Option<String> {
    let broker = after_variant(test_id.strip_prefix("broker-")?)?;
    (!broker.is_empty()).then(|| broker.to_string())
}

/// `#5` for a step's chip, `chip-<step>`.
fn chip_word(test_id: &str) -> Option<String> {
    let step: u32 = test_id.strip_prefix("chip-")?.parse().ok()?;
    Some(format!("#{step}"))
}

/// A log cell, a broker row's label, a step's chip (not the reason inside it).
const POINTABLE: &str =
    "[data-testid^=\"cell-\"], .log-grid__label[data-testid^=\"broker-\"], button[data-testid^=\"chip-\"]";

/// What a click is on, as a highlight word, while the builder is open (only then is it news).
fn pointed(e: &web_sys::Event) -> Option<String> {
    gloo::utils::document().query_selector("[data-testid=\"lesson-builder\"]").ok()??;
    let el = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let target = el.closest(POINTABLE).ok()??;
    if target.has_attribute("data-paint") {
        return None;
    }
    let id = target.get_attribute("data-testid")?;
    cell_word(&id).or_else(|| row_word(&id)).or_else(|| chip_word(&id))
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
    use super::{cell_word, chip_word, row_word};

    #[test]
    fn a_cells_test_id_names_its_broker_and_offset() {
        assert_eq!(cell_word("cell-hw-truncation-A-1").as_deref(), Some("A@1"));
        assert_eq!(cell_word("cell-kip-279-broker-2-12").as_deref(), Some("broker-2@12"));
        assert_eq!(cell_word("cell-kip-999-A-1"), None);
        assert_eq!(cell_word("cell-kip-279-A-x"), None);
    }

    #[test]
    fn a_rows_label_names_its_broker_and_a_chip_its_step() {
        assert_eq!(row_word("broker-kip-279-broker-2").as_deref(), Some("broker-2"));
        assert_eq!(row_word("broker-kip-279-"), None);
        assert_eq!(chip_word("chip-12").as_deref(), Some("#12"));
        assert_eq!(chip_word("chip-12-reason"), None, "a chip's reason is inside its chip, not a chip");
    }
}
