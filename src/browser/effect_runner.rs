//! Runs the effects the reducer returns ([`Effect`]). Saving waits for a pause in the edits (a drag or
//! playback costs nothing here) and happens at once when the page goes away, so a reload never loses the
//! last edit; the address is written after a pause too, with `replaceState` so the history is not flooded;
//! an announcement is posted at once.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use wasm_bindgen_futures::spawn_local;

use crate::browser::Dispatch;
use crate::browser::{storage, web};
use crate::formats::link::{self, EmbedMode};
use crate::model::NoticeAction;
use crate::model::{Action, Effect, Focus, Meanwhile, Model, ModuleAction, Notice};

/// How long the edits pause before the working state is saved, in milliseconds.
const SAVE_AFTER: u32 = 300;
/// How long they pause before the address is written (compressing the link waits too).
const ADDRESS_AFTER: u32 = 400;

/// The element a [`Focus`] names.
fn focus_selector(focus: Focus) -> String {
    match focus {
        Focus::Chip(i) => format!(".timeline [data-testid=\"chip-{i}\"]"),
        Focus::Timeline => "#timeline".to_string(),
    }
}

/// Said when My scenarios cannot be saved: the working copy is not written over either.
const LIBRARY_FIRST: &str = " The stored scenario is kept until My scenarios can be saved.";

/// The model waiting to be saved, if any.
type Unsaved = Rc<RefCell<Option<Rc<Model>>>>;

/// Tells the user when a save fails: once, until a save works again (a full storage fails every time).
#[derive(Clone)]
struct Teller {
    dispatch: Rc<RefCell<Option<Dispatch>>>,
    failing: Rc<Cell<bool>>,
}

impl Teller {
    /// The same teller for another kind of save (each kind is told once).
    fn another(&self) -> Teller {
        Teller { dispatch: self.dispatch.clone(), failing: Rc::default() }
    }

    /// Say once that `what` could not be saved, and `more` after it.
    fn tell(&self, what: &str, result: Result<(), String>, undo: bool, more: &str) {
        let Err(why) = result else { return self.failing.set(false) };
        if self.failing.replace(true) {
            return;
        }
        let text = format!(
            "{what} could not be saved in this browser ({why}). It stays on this page and the copy saved before is \
             unchanged: export it as JSON to keep it.{more}"
        );
        let notice = Notice { error: true, text, undo };
        // Told after the action being run, never from inside it.
        if let Some(dispatch) = self.dispatch.borrow().clone() {
            spawn_local(async move { dispatch.emit(Action::Notice(NoticeAction::Show(notice))) });
        }
    }
}

impl Teller {
    /// What tells the page that the lessons' module could not be loaded (after the action being run).
    fn lessons_failed(&self) -> Rc<dyn Fn(String)> {
        let dispatch = self.dispatch.clone();
        Rc::new(move |why: String| {
            if let Some(dispatch) = dispatch.borrow().clone() {
                spawn_local(async move { dispatch.emit(Action::Module(ModuleAction::LessonsFailed(why))) });
            }
        })
    }
}

/// The effects' timers and listener, for the page's whole life.
pub struct EffectRunner {
    embed: Option<EmbedMode>,
    teller: Teller,
    library_teller: Teller,
    unsaved: Unsaved,
    /// My scenarios could not be saved: the stored working copy, perhaps the only stored copy of a scenario
    /// just kept there, is not written over until it can be.
    library_unsaved: Rc<Cell<bool>>,
    save_timer: RefCell<Option<Timeout>>,
    address_timer: RefCell<Option<Timeout>>,
    /// Compression answers asynchronously: only the latest change's link may be written.
    address_generation: Rc<Cell<u32>>,
    /// The link a saving page last wrote into the address, and whether an edit has made it stale since.
    written: Rc<RefCell<Written>>,
    _save_on_pagehide: EventListener,
}

/// Saves the working copy if it changed; whether storage then holds the scenario shown.
fn save(unsaved: &Unsaved, teller: &Teller, library_unsaved: &Cell<bool>) -> bool {
    if library_unsaved.get() {
        return false;
    }
    let model = unsaved.borrow_mut().take();
    let Some(model) = model else { return true };
    let saved = storage::save(&model.shown.snapshot());
    let ok = saved.is_ok();
    teller.tell("Your scenario", saved, false, "");
    ok
}

/// As the page goes away: the working copy saved, and, if the address still holds the link from before the
/// last edit, that link recorded for this tab, so that a reload opens the saved copy instead of it. The
/// record made when the link went stale (`unlink_at_once`) stays while the address is the page's own:
/// a reload started before the edited link was written reloads the old one, though the address has moved on.
fn on_pagehide(unsaved: &Unsaved, teller: &Teller, library_unsaved: &Cell<bool>, written: &RefCell<Written>) {
    let current = save(unsaved, teller, library_unsaved);
    let written = written.borrow();
    // Only the page's own link: one put in the address from elsewhere (a new link, which the page reloads
    // for) is what the next start must open, and so is the link when storage could not take the edit.
    let own = written.payload.is_some() && link::params(&web::hash()).payload == written.payload;
    match written.payload.as_deref() {
        Some(payload) if current && own && written.stale => storage::record_stale_link(payload),
        _ if current && own => {}
        _ => storage::forget_stale_link(),
    }
}

/// The link a saving page last wrote into the address, and whether an edit has made it stale since.
#[derive(Default)]
struct Written {
    payload: Option<String>,
    stale: bool,
}

impl EffectRunner {
    /// A runner for a page embedded as `embed` (which the address keeps), telling failed saves through
    /// `dispatch` once it is set.
    pub fn new(embed: Option<EmbedMode>, dispatch: Rc<RefCell<Option<Dispatch>>>) -> EffectRunner {
        let unsaved: Unsaved = Rc::default();
        let library_unsaved: Rc<Cell<bool>> = Rc::default();
        let teller = Teller { dispatch, failing: Rc::default() };
        let written: Rc<RefCell<Written>> = Rc::default();
        let on_pagehide = {
            let (unsaved, teller) = (unsaved.clone(), teller.clone());
            let (held, written) = (library_unsaved.clone(), written.clone());
            EventListener::new(&gloo::utils::window(), "pagehide", move |_| {
                on_pagehide(&unsaved, &teller, &held, &written)
            })
        };
        EffectRunner {
            embed,
            library_teller: teller.another(),
            teller,
            unsaved,
            library_unsaved,
            save_timer: RefCell::new(None),
            address_timer: RefCell::new(None),
            address_generation: Rc::default(),
            written,
            _save_on_pagehide: on_pagehide,
        }
    }

    /// Run the effects of the action that made `model`.
    pub fn run(&self, effects: &[Effect], model: &Rc<Model>) {
        for effect in effects {
            match effect {
                Effect::Save => self.save_soon(model),
                // The library is the safety net of a replaced scenario: written at once.
                Effect::SaveLibrary => {
                    // What was just kept there is on this page still: undo brings it back.
                    let saved = storage::save_library(&model.library);
                    self.library_unsaved.set(saved.is_err());
                    self.library_teller.tell("My scenarios", saved, true, LIBRARY_FIRST);
                }
                Effect::WriteAddress { meanwhile } => {
                    match meanwhile {
                        Meanwhile::Unchanged => {}
                        Meanwhile::RecordStale => self.record_stale(),
                        Meanwhile::WriteUncompressed => self.write_uncompressed(model),
                    }
                    self.write_address_soon(model);
                }
                Effect::WriteProof(stamp) => web::replace_hash(&link::with_proof(&web::hash(), stamp)),
                Effect::Announce(announcement) => web::post_to_parent(&announcement.to_json()),
                Effect::Focus(focus) => web::focus_after_render(&focus_selector(*focus)),
                Effect::LoadLessons => web::load_lessons(self.teller.lessons_failed()),
                Effect::ToLessons(message) => web::send_event(crate::model::bridge::TO_LESSONS, &message.to_json()),
            }
        }
    }

    /// Save `model` once the edits pause (a new timer replaces, and so cancels, the pending one).
    fn save_soon(&self, model: &Rc<Model>) {
        *self.unsaved.borrow_mut() = Some(model.clone());
        let (unsaved, teller) = (self.unsaved.clone(), self.teller.clone());
        let held = self.library_unsaved.clone();
        *self.save_timer.borrow_mut() = Some(Timeout::new(SAVE_AFTER, move || {
            save(&unsaved, &teller, &held);
        }));
    }

    /// Right after an edit on a page that saves, until the compressed link is written: as the page goes away
    /// it saves the working copy and records the stale link for this tab, and the next start opens the working
    /// copy instead of it (`Meanwhile::RecordStale`).
    fn record_stale(&self) {
        let mut written = self.written.borrow_mut();
        // Recorded now, not only as the page goes away (see `on_pagehide`).
        if let (false, Some(payload)) = (written.stale, written.payload.as_deref()) {
            storage::record_stale_link(payload);
        }
        written.stale = true;
    }

    /// Right after an edit on a page that saves nothing: the uncompressed link, at once.
    fn write_uncompressed(&self, model: &Model) {
        let hash = web::hash();
        let lesson = link::lesson_params(model.lesson_fragment());
        let snapshot = model.shown.snapshot();
        let fragment = link::address_fragment(link::fragment(&snapshot, self.embed), &snapshot, self.embed);
        web::replace_hash(&format!("{fragment}{lesson}{}", link::kept_params(&hash)));
    }

    /// Write `model`'s link into the address once the edits pause, compressed.
    fn write_address_soon(&self, model: &Rc<Model>) {
        let generation = self.address_generation.get().wrapping_add(1);
        self.address_generation.set(generation);
        let (latest, model, embed) = (self.address_generation.clone(), model.clone(), self.embed);
        let written = self.written.clone();
        *self.address_timer.borrow_mut() = Some(Timeout::new(ADDRESS_AFTER, move || {
            spawn_local(async move {
                let snapshot = model.shown.snapshot();
                let fragment = link::address_fragment(
                    crate::browser::compress::compact_fragment(&snapshot, embed).await,
                    &snapshot,
                    embed,
                );
                if latest.get() == generation {
                    let payload = link::params(&fragment).payload;
                    *written.borrow_mut() = Written { payload, stale: false };
                    // An embed's `origin=` stays: a reload must follow only that origin still.
                    let lesson = link::lesson_params(model.lesson_fragment());
                    web::replace_hash(&format!("{fragment}{lesson}{}", link::kept_params(&web::hash())));
                }
            })
        }));
    }
}
