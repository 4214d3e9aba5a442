//! The lessons' module's own model: a mirror of what the page shows, and the lessons. The module sends the
//! page what changes of it (`page_messages`); the page's model is the page's.

use std::rc::Rc;

use epochlab_core::lesson::Highlight;
use epochlab_core::scenario::Scenario;
use epochlab_core::{presets, Variant};

use super::Learn;
use crate::model::bridge::HeldBack;
use crate::model::{Notice, Shared, Shown};

/// What the lessons' module knows and draws.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonsModel {
    /// The page's scenario, variants and cursor, mirrored (a lesson's step changes them here first, then on
    /// the page).
    pub shown: Shown,
    /// The event whose editor is open (the page says which).
    pub selected: Option<usize>,
    /// What to say in the page's banner.
    pub notice: Option<Notice>,
    /// The Learn panel, the lesson followed, the progress, the lesson being written.
    pub learn: Shared<Learn>,
    /// What the lesson's step points at on the timeline and in the logs (sent to the page).
    pub marks: Rc<Vec<Highlight>>,
    /// The lesson's part of the address (`lesson=<id>&step=<n>`, sent to the page).
    pub lesson_params: Option<String>,
    /// Set only on the copy the panels are drawn from while a question waits (`LessonsModel::held_back`).
    pub pending: Option<HeldBack>,
    /// In a view-only embed: what would edit is off here too (the page refuses it anyway).
    pub read_only: bool,
}

impl Default for LessonsModel {
    /// Nothing mirrored yet: an empty scenario (the page says what it shows once the module is ready).
    fn default() -> LessonsModel {
        LessonsModel {
            shown: Shown::new(Scenario::empty(), vec![Variant::Kip279]),
            selected: None,
            notice: None,
            learn: Shared::default(),
            marks: Rc::default(),
            lesson_params: None,
            pending: None,
            read_only: false,
        }
    }
}

impl LessonsModel {
    /// A mirror of what the page shows, nothing about lessons yet.
    pub fn mirroring(shown: Shown) -> LessonsModel {
        LessonsModel { shown, ..LessonsModel::default() }
    }

    /// Show `scenario` under `variants` on its last step, as a new story: nothing selected.
    pub(super) fn show(&mut self, scenario: Scenario, variants: Vec<Variant>) {
        self.shown = Shown::opened(scenario, variants);
        self.selected = None;
    }

    /// Show these variants of the scenario, run again.
    pub(super) fn show_variants(&mut self, variants: Vec<Variant>) {
        self.shown.set_variants(variants);
        self.shown.rerun();
        self.selected = self.selected.filter(|s| *s < self.shown.scenario.events.len());
    }

    /// Open a preset (a misconception's counter-scenario) under its own variants.
    pub(super) fn load_preset(&mut self, id: &str) {
        match presets::find(id) {
            Some(p) => self.show(p.scenario(), p.variants.to_vec()),
            None => self.error(format!("there is no preset \"{id}\"")),
        }
    }

    /// Say what went wrong.
    pub(super) fn error(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::error(text));
    }

    /// Say what an action did.
    pub(super) fn inform(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::info(text));
    }

    /// Say what an edit did, offering to undo it (the page's Undo).
    pub(super) fn inform_undoable(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::undoable(text));
    }
}
