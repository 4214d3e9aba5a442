//! The lessons' module's mirror of what the page shows, kept lazily: while the module draws nothing (no
//! lesson, no Learn panel, no panel of its own open) a change the page tells of is only kept, and applied (so
//! re-run) when something here first needs it. An edit on the page then costs one re-run, the page's.

use std::cell::RefCell;
use std::rc::Rc;

use crate::formats::snapshot::Snapshot;
use crate::model::learn::LessonsModel;
use crate::model::panels::Panels;
use crate::model::splice::Splice;

/// The module's model, shared by its listeners and its callbacks.
pub type Shared = Rc<RefCell<Rc<LessonsModel>>>;

thread_local! {
    /// Whether the page has said what it shows (the mirror is the page's).
    pub static MIRRORED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Change the module's model (a copy, put in its place: what drew the old one keeps it).
pub fn change(model: &Shared, f: impl FnOnce(&mut LessonsModel)) {
    let mut next = (**model.borrow()).clone();
    f(&mut next);
    *model.borrow_mut() = Rc::new(next);
}

/// What the page last showed, not yet applied to the mirror.
#[derive(Clone, Default)]
pub struct Deferred(Rc<RefCell<Option<Box<Snapshot>>>>);

/// Whether anything the module draws or grades reads the mirror now.
fn needed(model: &LessonsModel, panels: Panels) -> bool {
    let learn = &model.learn;
    learn.shown || learn.run.is_some() || learn.wanted.is_some() || panels.any()
}

impl Deferred {
    /// The page shows `shown`: applied at once where it is needed, kept for later otherwise.
    pub fn shown(&self, model: &Shared, panels: Panels, shown: Box<Snapshot>) -> bool {
        *self.0.borrow_mut() = Some(shown);
        let now = needed(&model.borrow(), panels);
        if now {
            self.apply(model);
        }
        now
    }

    /// The page changed only events: applied to what was kept, or to the mirror's copy. `None` when the
    /// splice was made for another timeline (a message was missed): the module then asks for the whole.
    pub fn splice(&self, model: &Shared, panels: Panels, splice: &Splice) -> Option<bool> {
        let kept = self.0.borrow_mut().take();
        let mut shown = kept.unwrap_or_else(|| Box::new(model.borrow().shown.snapshot()));
        if !splice.apply(&mut shown.scenario) {
            return None;
        }
        shown.cursor = splice.cursor;
        Some(self.shown(model, panels, shown))
    }

    /// The page moved its cursor; `true` when the mirror changed (rather than what is kept for later).
    pub fn cursor(&self, model: &Shared, cursor: Option<u32>) -> bool {
        if let Some(kept) = self.0.borrow_mut().as_mut() {
            kept.cursor = cursor;
            return false;
        }
        change(model, |m| m.mirror_cursor(cursor));
        true
    }

    /// Bring the mirror up to date with what was kept, before anything reads it.
    pub fn apply(&self, model: &Shared) {
        let Some(shown) = self.0.borrow_mut().take() else { return };
        change(model, |m| m.mirror(*shown));
        MIRRORED.set(true);
    }
}
