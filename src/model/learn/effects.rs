//! What a lesson action causes besides the next model: fetching what lessons need when first needed, and
//! storing the progress, the lessons kept and the lesson being written when they change.

use epochlab_core::lesson::link;

use std::rc::Rc;

use super::{Fetched, Learn, LessonsModel};

/// Something the lessons' module does because of a lesson action (its own runner: `lessons::app`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonsEffect {
    /// Fetch the lesson list and glossary (`lessons/index.json`).
    FetchIndex,
    /// Fetch a lesson's file, to open it at a step.
    FetchLesson { id: String, file: String, step: usize },
    /// Unpack a shared lesson from its link's `~<payload>`, to open it at a step.
    UnpackLesson { reference: String, step: usize },
    /// Write the lesson progress to localStorage.
    SaveProgress,
    /// Make the link of the lesson being written (this text), with the browser's DEFLATE.
    PackLesson(Rc<str>),
    /// Keep the lesson being written in this browser (this text).
    SaveDraft(Rc<str>),
    /// Store the lessons kept in My scenarios.
    SaveMine,
}

impl LessonsModel {
    /// The effects of having become this model from `before`.
    pub(super) fn lesson_effects(&self, before: &LessonsModel) -> Vec<LessonsEffect> {
        let (was, now) = (&before.learn, &self.learn);
        let mut effects = Vec::new();
        if matches!(now.index, Fetched::Loading) && !matches!(was.index, Fetched::Loading) {
            effects.push(LessonsEffect::FetchIndex);
        }
        if let Some((reference, step)) = now.wanted.as_ref().filter(|_| was.wanted != now.wanted) {
            if link::inline_payload(reference).is_some() {
                effects.push(LessonsEffect::UnpackLesson { reference: reference.clone(), step: *step });
            }
        }
        let indexed = matches!(now.index, Fetched::Ready(_));
        let newly = was.wanted != now.wanted || !matches!(was.index, Fetched::Ready(_));
        if let (Some((id, step)), true, true) = (&now.wanted, indexed, newly) {
            if let Some(file) = self.lesson_file(id) {
                effects.push(LessonsEffect::FetchLesson { id: id.clone(), file, step: *step });
            }
        }
        effects.extend(stored(was, now));
        effects
    }
}

/// What is stored again because it changed.
fn stored(was: &Learn, now: &Learn) -> Vec<LessonsEffect> {
    let mut effects = Vec::new();
    if !Rc::ptr_eq(&was.progress, &now.progress) {
        effects.push(LessonsEffect::SaveProgress);
    }
    if let Some(text) = now.packing.as_ref().filter(|_| now.packing != was.packing) {
        effects.push(LessonsEffect::PackLesson(text.clone()));
    }
    if !Rc::ptr_eq(&was.mine, &now.mine) {
        effects.push(LessonsEffect::SaveMine);
    }
    let text = |learn: &Learn| learn.draft.as_ref().map(|d| d.text.clone());
    if let Some(now_text) = text(now).filter(|t| Some(t) != text(was).as_ref()) {
        effects.push(LessonsEffect::SaveDraft(now_text));
    }
    effects
}
