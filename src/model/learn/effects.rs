//! What a lesson action causes besides the next model: fetching what lessons need when first needed, and
//! storing the progress, the lessons kept and the lesson being written when they change.

use epochlab_core::lesson::link;

use super::{Fetched, Learn, LessonsModel};
use crate::model::Effect;

impl LessonsModel {
    /// The effects of having become this model from `before`.
    pub(super) fn lesson_effects(&self, before: &LessonsModel) -> Vec<Effect> {
        let (was, now) = (&before.learn, &self.learn);
        let mut effects = Vec::new();
        if matches!(now.index, Fetched::Loading) && !matches!(was.index, Fetched::Loading) {
            effects.push(Effect::FetchIndex);
        }
        if let Some((reference, step)) = now.wanted.as_ref().filter(|_| was.wanted != now.wanted) {
            if link::inline_payload(reference).is_some() {
                effects.push(Effect::UnpackLesson { reference: reference.clone(), step: *step });
            }
        }
        let indexed = matches!(now.index, Fetched::Ready(_));
        let newly = was.wanted != now.wanted || !matches!(was.index, Fetched::Ready(_));
        if let (Some((id, step)), true, true) = (&now.wanted, indexed, newly) {
            if let Some(file) = self.lesson_file(id) {
                effects.push(Effect::FetchLesson { id: id.clone(), file, step: *step });
            }
        }
        effects.extend(stored(was, now));
        effects
    }
}

/// What is stored again because it changed.
fn stored(was: &Learn, now: &Learn) -> Vec<Effect> {
    let mut effects = Vec::new();
    if !std::rc::Rc::ptr_eq(&was.progress, &now.progress) {
        effects.push(Effect::SaveProgress);
    }
    if let Some(text) = now.packing.as_ref().filter(|_| now.packing != was.packing) {
        effects.push(Effect::PackLesson(text.clone()));
    }
    if !std::rc::Rc::ptr_eq(&was.mine, &now.mine) {
        effects.push(Effect::SaveMine);
    }
    let text = |learn: &Learn| learn.draft.as_ref().map(|d| d.text.clone());
    if let Some(now_text) = text(now).filter(|t| Some(t) != text(was).as_ref()) {
        effects.push(Effect::SaveDraft(now_text));
    }
    effects
}
