//! The page's listeners as hooks: a new link typed into the address bar, keyboard shortcuts, playback,
//! pausing when hidden or off-screen, the embed's commands, and files dropped on the page. Each listener or
//! timer exists only while it is needed, so a paused or hidden page does no work. (What an action causes,
//! saving and the address among it, is returned by the reducer and run by `effect_runner`.)

use std::cell::{Cell, RefCell};

use gloo::events::{EventListener, EventListenerOptions};
use gloo::timers::callback::{Interval, Timeout};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DragEvent, KeyboardEvent, MessageEvent};
use yew::prelude::*;

use crate::browser::import_file::import_file;
use crate::browser::Dispatch;
use crate::formats::embed;
use crate::model::LatestModel;
use crate::model::{Action, Model, ModuleAction, Notice, SPEEDS};
use crate::model::{CursorAction, EditAction, NoticeAction, OtherTabAction, PlaceAction};

/// A new link typed or pasted into the address bar (a `hashchange`, which our own `replaceState` never
/// fires) starts the page afresh from that link.
#[hook]
pub fn use_reload_on_new_link() {
    use_effect_with((), |_| {
        let listener = EventListener::new(&gloo::utils::window(), "hashchange", |_| {
            let _ = gloo::utils::window().location().reload();
        });
        move || drop(listener)
    });
}

/// Whether a key event comes from a field or control that needs its own keys.
fn typing(e: &KeyboardEvent) -> bool {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA")
        || el.closest("[contenteditable]").ok().flatten().is_some()
}

/// Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z and Ctrl+Y redo (in a text field the browser's own undo applies).
fn undo_key(e: &KeyboardEvent) -> Option<Action> {
    if !(e.ctrl_key() || e.meta_key()) || e.alt_key() {
        return None;
    }
    match (e.key().to_lowercase().as_str(), e.shift_key()) {
        ("z", false) => Some(Action::Edit(EditAction::Undo)),
        ("z", true) | ("y", false) => Some(Action::Edit(EditAction::Redo)),
        _ => None,
    }
}

/// Global shortcuts: ←/→ step, space play/pause, Home/End, undo and redo; arrows, Enter and Escape while placing.
pub fn on_key(model: &Model, e: &KeyboardEvent) -> Option<Action> {
    if typing(e) {
        return None;
    }
    if let Some(action) = undo_key(e) {
        return Some(action);
    }
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    let key = e.key();
    if model.placing.is_some() {
        return match key.as_str() {
            "ArrowLeft" => Some(Action::Place(PlaceAction::Move { dx: -1, dy: 0 })),
            "ArrowRight" => Some(Action::Place(PlaceAction::Move { dx: 1, dy: 0 })),
            "ArrowUp" => Some(Action::Place(PlaceAction::Move { dx: 0, dy: -1 })),
            "ArrowDown" => Some(Action::Place(PlaceAction::Move { dx: 0, dy: 1 })),
            "Enter" => Some(Action::Place(PlaceAction::Commit)),
            "Escape" => Some(Action::Place(PlaceAction::Cancel)),
            _ => None,
        };
    }
    let on_button = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlButtonElement>().ok()).is_some();
    match key.as_str() {
        "ArrowLeft" => Some(Action::Cursor(CursorAction::StepBy(-1))),
        "ArrowRight" => Some(Action::Cursor(CursorAction::StepBy(1))),
        "Home" => Some(Action::Cursor(CursorAction::Home)),
        "End" => Some(Action::Cursor(CursorAction::End)),
        // Space on a focused button presses the button.
        " " if !on_button => Some(Action::Cursor(CursorAction::TogglePlay)),
        "Escape" if model.selected.is_some() => Some(Action::Cursor(CursorAction::Select(None))),
        _ => None,
    }
}

/// Steps closer together than this are a scrub (a held key repeats every 30 to 50 ms).
const SCRUB_GAP_MS: u32 = 250;

/// The scrub is over this long after its last step: longer than the animations it ends at once (a cell's
/// arrival, 450 ms; a truncated cell's fade, 600 ms), so that none is still running when they come back.
const SCRUB_CALM_MS: u32 = 800;

/// While arrow-key steps come faster than a cell's arrival (450 ms) or a marker's slide (300 ms) can end,
/// the page is marked as scrubbing (`data-scrubbing` on the root element, which no render touches) and the
/// stylesheet draws neither: each step then costs one drawing, not one per frame of every running animation.
#[derive(Default)]
struct ScrubMark {
    last_step_ms: Cell<f64>,
    calm: RefCell<Option<Timeout>>,
}

impl ScrubMark {
    /// A step key came now: a scrub if the last came less than [`SCRUB_GAP_MS`] ago.
    fn stepped(&self) {
        let now = js_sys::Date::now();
        let close = now - self.last_step_ms.replace(now) < f64::from(SCRUB_GAP_MS);
        let Some(root) = gloo::utils::document().document_element().filter(|_| close) else { return };
        let _ = root.set_attribute("data-scrubbing", "");
        let calm = Timeout::new(SCRUB_CALM_MS, move || {
            let _ = root.remove_attribute("data-scrubbing");
        });
        *self.calm.borrow_mut() = Some(calm);
    }
}

/// Keyboard shortcuts on the document. Each step key is handled at once, not batched per frame: batched, the
/// page took a flood of keys faster but drew fewer frames (Chrome already gives input a turn per frame).
#[hook]
pub fn use_keyboard(state: LatestModel, dispatch: Dispatch) {
    use_effect_with((), move |_| {
        let scrub = ScrubMark::default();
        let options = EventListenerOptions::enable_prevent_default();
        let listener = EventListener::new_with_options(&gloo::utils::document(), "keydown", options, move |e| {
            let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
            // The model is borrowed only to decide: dispatching replaces it.
            let action = on_key(&state.borrow(), e);
            let Some(action) = action else { return };
            e.prevent_default();
            if let Action::Cursor(CursorAction::StepBy(_)) = action {
                scrub.stepped();
            }
            dispatch.emit(action);
        });
        move || drop(listener)
    });
}

/// A timer only while playing.
#[hook]
pub fn use_playback(playing: bool, speed: usize, dispatch: Dispatch) {
    use_effect_with((playing, speed), move |_| {
        let timer = playing.then(|| {
            Interval::new(SPEEDS[speed.min(SPEEDS.len() - 1)].0, move || {
                dispatch.emit(Action::Cursor(CursorAction::Tick))
            })
        });
        move || drop(timer)
    });
}

/// Pause when the page is hidden, or when the app is scrolled out of view (an embed below the fold).
#[hook]
pub fn use_pause_when_unseen(root: NodeRef, dispatch: Dispatch) {
    use_effect_with((), move |_| {
        let on_hide = {
            let dispatch = dispatch.clone();
            EventListener::new(&gloo::utils::document(), "visibilitychange", move |_| {
                if gloo::utils::document().hidden() {
                    dispatch.emit(Action::Cursor(CursorAction::Pause));
                }
            })
        };
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let unseen = entries
                .iter()
                .filter_map(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
                .any(|e| !e.is_intersecting());
            if unseen {
                dispatch.emit(Action::Cursor(CursorAction::Pause));
            }
        });
        let observer = web_sys::IntersectionObserver::new(callback.as_ref().unchecked_ref()).ok();
        if let (Some(o), Some(el)) = (&observer, root.cast::<web_sys::Element>()) {
            o.observe(&el);
        }
        move || {
            drop(on_hide);
            if let Some(o) = observer {
                o.disconnect();
            }
            drop(callback);
        }
    });
}

/// Whether `e` comes from the window that frames this page, and from where.
fn sender_of(e: &MessageEvent) -> (bool, String) {
    let parent = gloo::utils::window().parent().ok().flatten();
    let from_parent = match (e.source(), parent) {
        (Some(source), Some(parent)) => crate::browser::web::in_frame() && js_sys::Object::is(&source, &parent),
        _ => false,
    };
    (from_parent, e.origin())
}

/// The lengths of `data.scenario.events` and `.brokers`, read without copying the message.
fn counts(data: &JsValue) -> embed::Counts {
    let scenario = js_sys::Reflect::get(data, &"scenario".into()).unwrap_or(JsValue::UNDEFINED);
    let length = |key: &str| {
        let value = js_sys::Reflect::get(&scenario, &key.into()).ok()?;
        js_sys::Array::is_array(&value).then(|| js_sys::Array::from(&value).length() as usize)
    };
    embed::Counts { events: length("events"), brokers: length("brokers") }
}

/// Why a message is not followed.
enum Ignored {
    /// Not from the embedding page: counted by the origin that sent it, now and then a warning (a flood
    /// from another frame costs a count).
    Elsewhere { origin: String, why: String },
    /// From the embedding page but malformed: a warning each, for its author.
    Malformed(String),
    /// From the embedding page but over the limits: the reader is told too.
    Oversized(String),
}

/// A message the embed follows: from its parent (and `origin`, if the link names one), within the limits.
fn command_of(e: &MessageEvent, origin: Option<&str>) -> Result<embed::Command, Ignored> {
    let (from_parent, sender) = sender_of(e);
    // Refused before its data is touched: a flood from another frame costs no parsing.
    embed::accepts(embed::Sender { from_parent, origin: &sender }, origin)
        .map_err(|why| Ignored::Elsewhere { origin: sender.clone(), why })?;
    let data = e.data();
    embed::precheck(counts(&data), None).map_err(Ignored::Oversized)?;
    let text = js_sys::JSON::stringify(&data).ok().and_then(|s| s.as_string()).unwrap_or_default();
    embed::precheck(embed::Counts::default(), Some(text.len())).map_err(Ignored::Oversized)?;
    let value: serde_json::Value = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
    embed::parse(&value).map_err(Ignored::Malformed)
}

/// The embed's postMessage API: follow commands from the embedding page (what the embed announces back is
/// an effect of the actions, see `model::Effect`). A page opened on its own (no `embed` in the link) follows
/// no message at all; an oversized load is refused before it is read, and says so.
#[hook]
pub fn use_embed_commands(state: LatestModel, dispatch: Dispatch, embedded: bool) {
    use_effect_with((), move |_| {
        let origin = crate::formats::link::params(&crate::browser::web::hash()).origin;
        let mut ignored = embed::IgnoredCounts::default();
        let listener = embedded.then(|| {
            EventListener::new(&gloo::utils::window(), "message", move |e| {
                let Some(e) = e.dyn_ref::<MessageEvent>() else { return };
                match command_of(e, origin.as_deref()) {
                    Ok(command) => {
                        let playing = state.borrow().playing;
                        for action in Action::for_command(command, playing) {
                            dispatch.emit(action);
                        }
                    }
                    Err(Ignored::Oversized(why)) => {
                        let text = format!("The embedding page sent a scenario too large to open: {why}.");
                        gloo::console::warn!(text.clone());
                        dispatch.emit(Action::Notice(NoticeAction::Show(Notice { error: true, text, undo: false })));
                    }
                    Err(Ignored::Elsewhere { origin, why }) => {
                        if let Some(warning) = ignored.warning(&origin, &why) {
                            gloo::console::warn!(warning);
                        }
                    }
                    Err(Ignored::Malformed(why)) => gloo::console::warn!(format!("Epochlab ignored a message: {why}")),
                }
            })
        });
        move || drop(listener)
    });
}

/// Storage written by another tab of the same site (the `storage` event fires in every other tab of the
/// origin, never in the one that wrote): its "My scenarios" is taken, so that this page's next write keeps
/// what the other tab kept; its working scenario, which this tab's next save would write over, is kept in
/// My scenarios.
#[hook]
pub fn use_library_from_other_tabs(state: LatestModel, dispatch: Dispatch, stored_ok: bool) {
    use_effect_with((), move |_| {
        let listener = stored_ok.then(|| {
            let mut working = crate::browser::storage::load();
            EventListener::new(&gloo::utils::window(), "storage", move |_| {
                let text = crate::browser::storage::load_library().unwrap_or_else(|| "[]".to_string());
                // Only a real change: this page's own writes come back as no event, others' as one each.
                if let Ok(library) = crate::formats::library::Library::from_json(&text) {
                    if *state.borrow().library != library {
                        dispatch
                            .emit(Action::OtherTab(OtherTabAction::SavedLibrary(crate::model::Shared::new(library))));
                    }
                }
                let now = crate::browser::storage::load();
                if now != working {
                    let other = now.as_deref().and_then(|t| crate::formats::snapshot::from_json(t).ok());
                    working = now;
                    if let Some(snapshot) = other {
                        dispatch.emit(Action::OtherTab(OtherTabAction::SavedScenario(Box::new(snapshot))));
                    }
                }
            })
        });
        move || drop(listener)
    });
}

/// Files dropped anywhere on the page are imported (HTML5 drag and drop, distinct from chip dragging).
#[hook]
pub fn use_file_drop(state: LatestModel, dispatch: Dispatch) {
    use_effect_with((), move |_| {
        let window = gloo::utils::window();
        let options = EventListenerOptions::enable_prevent_default();
        let has_files = |e: &DragEvent| {
            e.data_transfer().is_some_and(|dt| dt.types().iter().any(|t| t.as_string().as_deref() == Some("Files")))
        };
        let over = EventListener::new_with_options(&window, "dragover", options, move |e| {
            if let Some(e) = e.dyn_ref::<DragEvent>() {
                if has_files(e) {
                    e.prevent_default();
                }
            }
        });
        let drop_listener = EventListener::new_with_options(&window, "drop", options, move |e| {
            let Some(e) = e.dyn_ref::<DragEvent>() else { return };
            let Some(file) = e.data_transfer().and_then(|dt| dt.files()).and_then(|f| f.get(0)) else { return };
            e.prevent_default();
            let shown = state.borrow().shown.variants.clone();
            import_file(dispatch.clone(), shown, file);
        });
        move || {
            drop(over);
            drop(drop_listener);
        }
    });
}

/// Messages from the lessons' module (see `model::bridge`).
#[hook]
pub fn use_lesson_messages(dispatch: Dispatch) {
    use_effect_with((), move |_| {
        let listener = EventListener::new(&gloo::utils::window(), crate::model::bridge::TO_PAGE, move |e| {
            let detail = e.dyn_ref::<web_sys::CustomEvent>().and_then(|e| e.detail().as_string()).unwrap_or_default();
            match crate::model::bridge::ToPage::from_json(&detail) {
                // What the user did in a panel the module draws is the page's own action.
                Ok(crate::model::bridge::ToPage::Do(forwarded)) => dispatch.emit(forwarded.into_action()),
                Ok(message) => dispatch.emit(Action::Module(ModuleAction::FromLessons(Box::new(message)))),
                Err(why) => gloo::console::warn!(format!("Epochlab ignored a lesson message: {why}")),
            }
        });
        move || drop(listener)
    });
}
