//! The pointer-drag hook: one drag at a time, from the palette or the timeline, driven by window-level
//! pointer listeners that exist only while a press is in progress (so an idle page runs no handlers).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use epochlab_core::scenario::edit::can_place;
use epochlab_core::scenario::EventKind;
use gloo::events::{EventListener, EventListenerOptions};
use gloo::timers::callback::Timeout;
use wasm_bindgen::JsCast;
use web_sys::PointerEvent;
use yew::prelude::*;

use crate::model::drag::{drop_action, gap_position, DropTarget, DRAG_THRESHOLD};
use crate::model::{Action, LatestModel, Model, PlaceSource};

/// What the page draws while dragging: the ghost under the pointer and the drop indicator.
#[derive(Clone, Debug, PartialEq)]
pub struct DragView {
    /// What is dragged.
    pub source: PlaceSource,
    /// Pointer position (viewport pixels).
    pub x: f64,
    /// Pointer position (viewport pixels).
    pub y: f64,
    /// Where it would land now.
    pub target: Option<DropTarget>,
}

/// How a press becomes a drag.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hold {
    /// A mouse, or a palette chip: as soon as the pointer travels past the threshold.
    Now,
    /// A finger on a timeline chip, not held long enough yet: moving now is a scroll, not a drag.
    Waiting,
    /// Held long enough: the chip is lifted and follows the finger.
    Lifted,
}

/// A press in progress.
struct Press {
    source: PlaceSource,
    start: (f64, f64),
    hold: Hold,
    active: bool,
    target: Option<DropTarget>,
}

/// How long a finger rests on a timeline chip before it lifts (a shorter touch is a tap or a scroll).
const LONG_PRESS_MS: u32 = 300;

/// How far (CSS pixels) a finger may tremble during the long press without it becoming a scroll.
const LONG_PRESS_SLOP: f64 = 10.0;

/// Handle returned by [`use_pointer_drag`].
#[derive(Clone)]
pub struct PointerDrag {
    /// The drag being shown, if any.
    pub view: Option<DragView>,
    /// Call from a chip's `onpointerdown`.
    pub start: Callback<(PlaceSource, PointerEvent)>,
    /// True right after a drag ended, so the chip's `click` that follows is ignored.
    pub suppress_click: Rc<Cell<bool>>,
    /// Whether the last press was a finger (or a pen): a tap then starts a touch placement.
    pub touch_input: Rc<Cell<bool>>,
}

/// Whether `e` is the click that ends a drag, to be ignored. Only a pointer's click (detail above 0) can be:
/// the flag is cleared on the next tick, and on a loaded machine a key's click (Enter on a chip, detail 0)
/// can come before that tick, which must not swallow it.
pub fn ends_drag(suppress: &Cell<bool>, e: &web_sys::MouseEvent) -> bool {
    suppress.replace(false) && e.detail() > 0
}

impl PartialEq for PointerDrag {
    fn eq(&self, other: &Self) -> bool {
        self.view == other.view && Rc::ptr_eq(&self.suppress_click, &other.suppress_click)
    }
}

fn kind_of(source: &PlaceSource, model: &Model) -> Option<EventKind> {
    match source {
        PlaceSource::New(k) => Some(*k),
        PlaceSource::Existing(i) => model.shown.scenario.events.get(*i).map(|e| e.kind()),
    }
}

/// What lies under the pointer.
fn hit_test(x: f64, y: f64, source: &PlaceSource, model: &Model) -> Option<DropTarget> {
    let document = gloo::utils::document();
    let element = document.element_from_point(x as f32, y as f32)?;
    let Ok(Some(cell)) = element.closest("[data-drop-lane]") else {
        let in_timeline = matches!(element.closest(".timeline"), Ok(Some(_)));
        return (!in_timeline).then_some(DropTarget::Outside);
    };
    let lane: usize = cell.get_attribute("data-drop-lane")?.parse().ok()?;
    let step = cell.get_attribute("data-drop-step").and_then(|s| s.parse::<usize>().ok());
    let rect = cell.get_bounding_client_rect();
    let position = gap_position(step, model.shown.scenario.events.len(), x - rect.left(), rect.width());
    let lanes = model.shown.lanes();
    let problem = match (kind_of(source, model), lanes.get(lane)) {
        (Some(kind), Some(l)) => can_place(kind, l, &model.shown.scenario).err(),
        _ => Some("nothing to drop here".to_string()),
    };
    Some(DropTarget::Gap { lane, position, problem })
}

/// What a press's listeners work with: all of it stays valid for the page's life.
#[derive(Clone)]
struct Handles {
    view: UseStateHandle<Option<DragView>>,
    latest: LatestModel,
    dispatch: Callback<Action>,
    listeners: Rc<RefCell<Vec<EventListener>>>,
    long_press: Rc<RefCell<Option<Timeout>>>,
    suppress: Rc<Cell<bool>>,
    touch_input: Rc<Cell<bool>>,
    /// A chip is lifted: the page's touchmove listener stops the browser from scrolling.
    lifted: Rc<Cell<bool>>,
}

/// Follow the pointer: past the threshold the press becomes a drag, drawn with what lies under it. A finger
/// that moves before the long press is scrolling: the press ends and the browser scrolls.
fn follow_pointer(press: Rc<RefCell<Press>>, h: Handles) -> EventListener {
    let options = EventListenerOptions::enable_prevent_default();
    EventListener::new_with_options(&gloo::utils::window(), "pointermove", options, move |ev| {
        let Some(ev) = ev.dyn_ref::<PointerEvent>() else { return };
        let (x, y) = (ev.client_x() as f64, ev.client_y() as f64);
        let mut p = press.borrow_mut();
        // A resting finger trembles: only a real slide before the long press counts as a scroll.
        let threshold = if p.hold == Hold::Waiting { LONG_PRESS_SLOP } else { DRAG_THRESHOLD };
        if !p.active && (x - p.start.0).hypot(y - p.start.1) < threshold {
            return;
        }
        if p.hold == Hold::Waiting {
            drop(p);
            return finish(&press.borrow(), &h, false);
        }
        p.active = true;
        ev.prevent_default();
        p.target = hit_test(x, y, &p.source, &h.latest.borrow());
        h.view.set(Some(DragView { source: p.source.clone(), x, y, target: p.target.clone() }));
    })
}

/// The long press is over: lift the chip where the finger rests (the ghost shows above it).
fn lift(press: &Rc<RefCell<Press>>, h: &Handles) {
    let mut p = press.borrow_mut();
    if p.hold != Hold::Waiting {
        return;
    }
    p.hold = Hold::Lifted;
    p.active = true;
    h.lifted.set(true);
    let (x, y) = p.start;
    h.view.set(Some(DragView { source: p.source.clone(), x, y, target: None }));
}

/// End a press: a drag drops where it is (`commit`) or not at all, and the click that follows is ignored.
fn finish(press: &Press, h: &Handles, commit: bool) {
    if press.active {
        h.suppress.set(true);
        if commit {
            let lanes = h.latest.borrow().shown.lanes();
            if let Some(action) = press.target.as_ref().and_then(|t| drop_action(&press.source, t, &lanes)) {
                h.dispatch.emit(action);
            }
        }
    }
    h.lifted.set(false);
    h.long_press.borrow_mut().take();
    h.view.set(None);
    // Listeners cannot drop themselves while running: release them on the next tick. The click that follows
    // a drag comes before it; a drag that ends elsewhere has none, and must not swallow the next real click.
    let (listeners, suppress) = (h.listeners.clone(), h.suppress.clone());
    Timeout::new(0, move || {
        listeners.borrow_mut().clear();
        suppress.set(false);
    })
    .forget();
}

/// A primary button pressed on a chip: listen to the pointer until it is released or cancelled. A finger
/// on a timeline chip must rest first, so that a scroll starting on a chip never moves it.
fn start_press(source: PlaceSource, e: &PointerEvent, h: &Handles) {
    let touch = e.pointer_type() != "mouse";
    h.touch_input.set(touch);
    if !e.is_primary() || e.button() != 0 || h.latest.borrow().page.read_only {
        return;
    }
    h.suppress.set(false);
    let start = (e.client_x() as f64, e.client_y() as f64);
    let hold = if touch && matches!(source, PlaceSource::Existing(_)) { Hold::Waiting } else { Hold::Now };
    let press = Rc::new(RefCell::new(Press { source, start, hold, active: false, target: None }));
    let window = gloo::utils::window();
    let on_move = follow_pointer(press.clone(), h.clone());
    let on_up = {
        let (press, h) = (press.clone(), h.clone());
        EventListener::new(&window, "pointerup", move |_| finish(&press.borrow(), &h, true))
    };
    let on_cancel = {
        let (press, h) = (press.clone(), h.clone());
        EventListener::new(&window, "pointercancel", move |_| finish(&press.borrow(), &h, false))
    };
    // A long press must not open the context menu (or the text callout) instead of lifting the chip.
    let options = EventListenerOptions::enable_prevent_default();
    let no_menu = EventListener::new_with_options(&window, "contextmenu", options, |e| e.prevent_default());
    if hold == Hold::Waiting {
        let h2 = h.clone();
        *h.long_press.borrow_mut() = Some(Timeout::new(LONG_PRESS_MS, move || lift(&press, &h2)));
    }
    *h.listeners.borrow_mut() = vec![on_move, on_up, on_cancel, no_menu];
}

/// While a chip is lifted, the finger drags it: the browser must not scroll. The listener exists from the
/// start, since a touch's moves can only be cancelled when a listener was there when it began.
#[hook]
fn use_no_scroll_while_lifted(lifted: Rc<Cell<bool>>) {
    use_effect_with((), move |_| {
        let options = EventListenerOptions::enable_prevent_default();
        let listener = EventListener::new_with_options(&gloo::utils::window(), "touchmove", options, move |e| {
            if lifted.get() {
                e.prevent_default();
            }
        });
        move || drop(listener)
    });
}

/// Dragging with Pointer Events: mouse, touch and pen alike.
#[hook]
pub fn use_pointer_drag(model: Rc<Model>, dispatch: Callback<Action>) -> PointerDrag {
    let view = use_state(|| None::<DragView>);
    let listeners: Rc<RefCell<Vec<EventListener>>> = use_mut_ref(Vec::new);
    let long_press: Rc<RefCell<Option<Timeout>>> = use_mut_ref(|| None);
    let latest = use_mut_ref(|| model.clone());
    *latest.borrow_mut() = model;
    let suppress_click = use_mut_ref(|| Rc::new(Cell::new(false))).borrow().clone();
    let touch_input = use_mut_ref(|| Rc::new(Cell::new(false))).borrow().clone();
    let lifted = use_mut_ref(|| Rc::new(Cell::new(false))).borrow().clone();
    use_no_scroll_while_lifted(lifted.clone());
    let handles = Handles {
        view: view.clone(),
        latest,
        dispatch,
        listeners,
        long_press,
        suppress: suppress_click.clone(),
        touch_input: touch_input.clone(),
        lifted,
    };
    // Created once: the closure only holds handles that stay valid, so memoized chips keep equal props.
    let start = (*use_memo((), move |_| {
        Callback::from(move |(source, e): (PlaceSource, PointerEvent)| start_press(source, &e, &handles))
    }))
    .clone();
    PointerDrag { view: (*view).clone(), start, suppress_click, touch_input }
}
