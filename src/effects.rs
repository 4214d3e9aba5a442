//! The app's side effects as hooks: saving, the address bar, keyboard shortcuts, playback, pausing when
//! hidden or off-screen, the embed's messages, and files dropped on the page. Each listener or timer exists
//! only while it is needed, so a paused or hidden page does no work.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::timers::callback::{Interval, Timeout};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{DragEvent, KeyboardEvent, MessageEvent};
use yew::prelude::*;

use crate::components::share_panel::import_file;
use crate::embed::{self, Command, Goto};
use crate::link::{self, EmbedMode};
use crate::model::{Action, Model, SPEEDS};
use crate::{storage, web};

/// Dispatch from effects.
pub type Dispatch = Callback<Action>;

/// Save the working scenario: never in an embed, and after opening a link only once the user has edited.
/// Saving waits for a pause in the edits (a drag or playback costs nothing here), and happens at once when
/// the page goes away, so a reload never loses the last edit.
#[hook]
pub fn use_persistence(model: &Rc<Model>, embed: Option<EmbedMode>, persist_now: bool) {
    let allowed = use_mut_ref(|| persist_now);
    let first = use_mut_ref(|| model.scenario.clone());
    let unsaved: Rc<RefCell<Option<Rc<Model>>>> = use_mut_ref(|| None);
    let pending: Rc<RefCell<Option<Timeout>>> = use_mut_ref(|| None);
    {
        let unsaved = unsaved.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "pagehide", move |_| save(&unsaved));
            move || drop(listener)
        });
    }
    let mounted = use_mut_ref(|| false);
    let key = (model.scenario.clone(), model.variants.clone(), model.cursor);
    let model = model.clone();
    use_effect_with(key, move |(scenario, _, _)| {
        // What the page opened with is already stored (or must not be): only changes are saved.
        let changed = std::mem::replace(&mut *mounted.borrow_mut(), true);
        if embed.is_none() && changed {
            if *scenario != *first.borrow() {
                *allowed.borrow_mut() = true;
            }
            if *allowed.borrow() {
                *unsaved.borrow_mut() = Some(model);
                let unsaved = unsaved.clone();
                *pending.borrow_mut() = Some(Timeout::new(300, move || save(&unsaved)));
            }
        }
    });
}

/// Write the unsaved model, if any.
fn save(unsaved: &RefCell<Option<Rc<Model>>>) {
    if let Some(model) = unsaved.borrow_mut().take() {
        storage::save(&model.snapshot());
    }
}

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

/// Keep the address's fragment in step with the scenario, variants and cursor: debounced, and with
/// `replaceState`, so the history is not flooded. The untouched landing page keeps a clean address.
#[hook]
pub fn use_address_follows(model: &Rc<Model>, embed: Option<EmbedMode>) {
    let pending: Rc<RefCell<Option<Timeout>>> = use_mut_ref(|| None);
    let mounted = use_mut_ref(|| false);
    // Compression answers asynchronously: only the latest edit's link may be written.
    let latest = use_mut_ref(|| 0u32);
    let key = (model.scenario.clone(), model.variants.clone(), model.cursor);
    let model = model.clone();
    use_effect_with(key, move |_| {
        if std::mem::replace(&mut *mounted.borrow_mut(), true) {
            let generation = latest.borrow().wrapping_add(1);
            *latest.borrow_mut() = generation;
            // Encoding (and deflating) the link waits for the pause too: a drag or playback costs nothing here.
            *pending.borrow_mut() = Some(Timeout::new(400, move || {
                spawn_local(async move {
                    let fragment =
                        link::address_fragment(link::compact_fragment(&model.snapshot(), embed).await, embed);
                    if *latest.borrow() == generation {
                        web::replace_hash(&fragment);
                    }
                })
            }));
        }
    });
}

/// Whether a key event comes from a field or control that needs its own keys.
fn typing(e: &KeyboardEvent) -> bool {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA")
        || el.closest("[contenteditable]").ok().flatten().is_some()
}

/// Global shortcuts: ←/→ step, space play/pause, Home/End; arrows, Enter and Escape while placing.
pub fn on_key(model: &Model, e: &KeyboardEvent) -> Option<Action> {
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

/// Keyboard shortcuts on the document.
#[hook]
pub fn use_keyboard(state: Rc<RefCell<Rc<Model>>>, dispatch: Dispatch) {
    use_effect_with((), move |_| {
        let options = EventListenerOptions::enable_prevent_default();
        let listener = EventListener::new_with_options(&gloo::utils::document(), "keydown", options, move |e| {
            let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
            if let Some(action) = on_key(&state.borrow(), e) {
                e.prevent_default();
                dispatch.emit(action);
            }
        });
        move || drop(listener)
    });
}

/// A timer only while playing.
#[hook]
pub fn use_playback(playing: bool, speed: usize, dispatch: Dispatch) {
    use_effect_with((playing, speed), move |_| {
        let timer =
            playing.then(|| Interval::new(SPEEDS[speed.min(SPEEDS.len() - 1)].0, move || dispatch.emit(Action::Tick)));
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
                    dispatch.emit(Action::Pause);
                }
            })
        };
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let unseen = entries
                .iter()
                .filter_map(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
                .any(|e| !e.is_intersecting());
            if unseen {
                dispatch.emit(Action::Pause);
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

/// The embed's postMessage API: follow commands from the host page and announce readiness and steps.
#[hook]
pub fn use_embed_messages(model: &Rc<Model>, state: Rc<RefCell<Rc<Model>>>, dispatch: Dispatch) {
    use_effect_with((), move |_| {
        let listener = EventListener::new(&gloo::utils::window(), "message", move |e| {
            let Some(e) = e.dyn_ref::<MessageEvent>() else { return };
            let data = js_sys::JSON::stringify(&e.data()).ok().and_then(|s| s.as_string()).unwrap_or_default();
            let value: serde_json::Value = serde_json::from_str(&data).unwrap_or(serde_json::Value::Null);
            match embed::parse(&value) {
                Ok(command) => {
                    for action in actions_for(command, &state.borrow()) {
                        dispatch.emit(action);
                    }
                }
                Err(why) => gloo::console::warn!(format!("Epochlab ignored a message: {why}")),
            }
        });
        move || drop(listener)
    });
    let announced = use_mut_ref(|| false);
    let key = (model.cursor, model.scenario.events.len(), model.variants.clone());
    let model = model.clone();
    use_effect_with(key, move |(cursor, steps, variants)| {
        if web::in_frame() {
            let kind = if std::mem::replace(&mut *announced.borrow_mut(), true) { "step" } else { "ready" };
            let narration = cursor
                .and_then(|c| model.primary().and_then(|t| t.steps.get(c)))
                .map_or(String::new(), |s| s.narration.clone());
            web::post_to_parent(&embed::announcement(kind, *cursor, *steps, variants, &narration));
        }
    });
}

/// The model actions a command stands for.
pub fn actions_for(command: Command, model: &Model) -> Vec<Action> {
    let goto = |g: Goto| match g {
        Goto::Start => Action::Home,
        Goto::End => Action::End,
        Goto::Step(i) => Action::SetCursor(Some(i)),
    };
    match command {
        Command::Load { scenario, variants, step } => {
            let mut actions = vec![Action::Replace(scenario)];
            actions.extend(variants.map(Action::SetVariants));
            actions.extend(step.map(goto));
            actions
        }
        Command::Goto(g) => vec![Action::Pause, goto(g)],
        Command::Play if !model.playing => vec![Action::Play],
        Command::Play => vec![],
        Command::Pause => vec![Action::Pause],
        Command::Variants(vs) => vec![Action::SetVariants(vs)],
    }
}

/// Files dropped anywhere on the page are imported (HTML5 drag and drop, distinct from chip dragging).
#[hook]
pub fn use_file_drop(state: Rc<RefCell<Rc<Model>>>, dispatch: Dispatch) {
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
            import_file(dispatch.clone(), state.borrow().variants.clone(), file);
        });
        move || {
            drop(over);
            drop(drop_listener);
        }
    });
}
