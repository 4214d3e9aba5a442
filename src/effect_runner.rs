//! Runs the effects the reducer returns ([`Effect`]). Saving waits for a pause in the edits (a drag or
//! playback costs nothing here) and happens at once when the page goes away, so a reload never loses the
//! last edit; the address is written after a pause too, with `replaceState` so the history is not flooded;
//! an announcement is posted at once.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use wasm_bindgen_futures::spawn_local;

use crate::link::{self, EmbedMode};
use crate::model::{Effect, Model};
use crate::{storage, web};

/// How long the edits pause before the working state is saved, in milliseconds.
const SAVE_AFTER: u32 = 300;
/// How long they pause before the address is written (compressing the link waits too).
const ADDRESS_AFTER: u32 = 400;

/// The model waiting to be saved, if any.
type Unsaved = Rc<RefCell<Option<Rc<Model>>>>;

/// The effects' timers and listener, for the page's whole life.
pub struct EffectRunner {
    embed: Option<EmbedMode>,
    unsaved: Unsaved,
    save_timer: RefCell<Option<Timeout>>,
    address_timer: RefCell<Option<Timeout>>,
    /// Compression answers asynchronously: only the latest change's link may be written.
    address_generation: Rc<Cell<u32>>,
    /// The traces of the last model whose address was written at once (a re-run makes new ones).
    written_traces: RefCell<Option<Rc<Vec<epochlab_core::Trace>>>>,
    _save_on_pagehide: EventListener,
}

fn save(unsaved: &Unsaved) {
    if let Some(model) = unsaved.borrow_mut().take() {
        storage::save(&model.snapshot());
    }
}

impl EffectRunner {
    /// A runner for a page embedded as `embed` (which the address keeps).
    pub fn new(embed: Option<EmbedMode>) -> EffectRunner {
        let unsaved: Unsaved = Rc::default();
        let on_pagehide = {
            let unsaved = unsaved.clone();
            EventListener::new(&gloo::utils::window(), "pagehide", move |_| save(&unsaved))
        };
        EffectRunner {
            embed,
            unsaved,
            save_timer: RefCell::new(None),
            address_timer: RefCell::new(None),
            address_generation: Rc::default(),
            written_traces: RefCell::new(None),
            _save_on_pagehide: on_pagehide,
        }
    }

    /// Run the effects of the action that made `model`.
    pub fn run(&self, effects: &[Effect], model: &Rc<Model>) {
        for effect in effects {
            match effect {
                Effect::Save => self.save_soon(model),
                Effect::WriteAddress => self.write_address_soon(model),
                Effect::Announce(announcement) => web::post_to_parent(&announcement.to_json()),
            }
        }
    }

    /// Save `model` once the edits pause (a new timer replaces, and so cancels, the pending one).
    fn save_soon(&self, model: &Rc<Model>) {
        *self.unsaved.borrow_mut() = Some(model.clone());
        let unsaved = self.unsaved.clone();
        *self.save_timer.borrow_mut() = Some(Timeout::new(SAVE_AFTER, move || save(&unsaved)));
    }

    /// Write `model`'s link into the address once the edits pause, compressed. After an edit (a re-run), the
    /// uncompressed link is written at once too: the address holds a link from the first load, so a reload
    /// right after an edit must not open the link from before it.
    fn write_address_soon(&self, model: &Rc<Model>) {
        let rerun = self.written_traces.borrow().as_ref().is_none_or(|t| !Rc::ptr_eq(t, &model.traces));
        if rerun {
            *self.written_traces.borrow_mut() = Some(model.traces.clone());
            let snapshot = model.snapshot();
            let fragment = link::address_fragment(link::fragment(&snapshot, self.embed), &snapshot, self.embed);
            web::replace_hash(&format!("{fragment}{}", link::kept_params(&web::hash())));
        }
        let generation = self.address_generation.get().wrapping_add(1);
        self.address_generation.set(generation);
        let (latest, model, embed) = (self.address_generation.clone(), model.clone(), self.embed);
        *self.address_timer.borrow_mut() = Some(Timeout::new(ADDRESS_AFTER, move || {
            spawn_local(async move {
                let snapshot = model.snapshot();
                let fragment = link::address_fragment(link::compact_fragment(&snapshot, embed).await, &snapshot, embed);
                if latest.get() == generation {
                    // An embed's `origin=` stays: a reload must follow only that origin still.
                    web::replace_hash(&format!("{fragment}{}", link::kept_params(&web::hash())));
                }
            })
        }));
    }
}
