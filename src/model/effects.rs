//! What an action causes besides the next model: saving the working state, writing the address, telling an
//! embedding page where the cursor is. [`Model::reduce`] returns these as data, decided here from what the
//! action changed and what the page is; the app runs them (debounced, see `effect_runner`).

use std::rc::Rc;

use super::changed::Changed;
use super::splice::{carrier, Splice};
use super::Model;
use crate::formats::embed::{Announced, Announcement};
use crate::model::bridge::ToLessons;

/// Something the app does because of an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Save the model's snapshot in localStorage.
    Save,
    /// Write "My scenarios" to localStorage.
    SaveLibrary,
    /// Write the model's snapshot into the address's fragment, compressed once the edits pause; what the
    /// address holds `meanwhile`.
    WriteAddress { meanwhile: Meanwhile },
    /// Put a bounded-proof stamp on the address (kept there by every later write).
    WriteProof(Rc<str>),
    /// Tell the embedding page (the parent frame) what is shown.
    Announce(Announcement),
    /// Focus an element once the page is drawn.
    Focus(super::Focus),
    /// Load the lessons' module.
    LoadLessons,
    /// Send the lessons' module a message.
    ToLessons(ToLessons),
}

/// What the address holds until the compressed link is written. After a re-run the link from before it must
/// not survive a reload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meanwhile {
    /// Nothing re-ran (a cursor move): the link there opens the same scenario.
    Unchanged,
    /// A page that saves: the link there is recorded as stale for this tab, and a reload opens the saved
    /// copy instead (writing the address on every drop took 2 to 3 ms of it at 1,000 events).
    RecordStale,
    /// A page that saves nothing: the uncompressed link is written at once.
    WriteUncompressed,
}

/// When the working state is saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saving {
    /// Never: an embed does not touch the reader's saved scenario.
    Never,
    /// Once the scenario changes: opening a link keeps the stored scenario until the user edits.
    AfterEdit,
    /// On every change.
    Always,
}

/// What the page was opened as. Every load keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    /// A view-only embed: every edit is refused.
    pub read_only: bool,
    /// When the working state is saved.
    pub saving: Saving,
    /// Inside a frame: the parent page is told of every step.
    pub framed: bool,
    /// A framed lesson link: `ready` waits until the lesson shows its own scenario, so that it describes the
    /// lesson's story rather than the landing scenario shown meanwhile.
    pub ready_waits_for_lesson: bool,
    /// Storage can be used: where it is blocked nothing is written to it (My scenarios is kept while the page
    /// is open).
    pub stored: bool,
}

impl Default for Page {
    /// The working page: editable, saved, on its own.
    fn default() -> Page {
        Page { read_only: false, saving: Saving::Always, framed: false, ready_waits_for_lesson: false, stored: true }
    }
}

impl Model {
    /// What the embed tells its parent page about this model.
    pub fn announcement(&self, kind: Announced) -> Announcement {
        let narration = self.shown.cursor.and_then(|c| self.shown.primary().and_then(|t| t.steps.get(c)));
        Announcement {
            kind,
            step: self.shown.cursor,
            steps: self.shown.scenario.events.len(),
            variants: self.shown.variants.clone(),
            narration: narration.map_or(String::new(), |s| s.narration.clone()),
        }
    }

    /// The effects of having become this model from `before`, which `changed` says. The first change of the
    /// scenario after a link was opened starts the saving.
    pub(super) fn effects(&mut self, before: &Model, changed: &Changed) -> Vec<Effect> {
        if changed.scenario && self.page.saving == Saving::AfterEdit {
            self.page.saving = Saving::Always;
        }
        let mut effects = Vec::new();
        if changed.library && self.page.saving != Saving::Never && self.page.stored {
            effects.push(Effect::SaveLibrary);
        }
        let saves = self.page.saving == Saving::Always && self.page.stored;
        if changed.snapshot() && saves {
            effects.push(Effect::Save);
        }
        if self.proof != before.proof {
            effects.extend(self.proof.clone().map(Effect::WriteProof));
        }
        if changed.snapshot() {
            let meanwhile = match (changed.rerun, saves) {
                (false, _) => Meanwhile::Unchanged,
                (true, true) => Meanwhile::RecordStale,
                (true, false) => Meanwhile::WriteUncompressed,
            };
            effects.push(Effect::WriteAddress { meanwhile });
        }
        if self.page.ready_waits_for_lesson && self.shown_by_lesson.is_some() {
            self.page.ready_waits_for_lesson = false;
            effects.push(Effect::Announce(self.announcement(Announced::Ready)));
        } else if changed.announced() && self.page.framed && !self.page.ready_waits_for_lesson {
            effects.push(Effect::Announce(self.announcement(Announced::Step)));
        }
        effects.extend(self.focus.map(Effect::Focus));
        effects.extend(self.link_effects(before, changed));
        effects
    }

    /// The events an edit changed, for the lessons' module: the span the edit arm gave, or, after undo and
    /// redo (the history restores a whole scenario), the span found by comparing the two timelines.
    fn splice(&self, before: &Model, changed: &Changed) -> Option<Splice> {
        let cursor = self.shown.cursor.map(|c| c as u32);
        let Some(span) = changed.span else {
            return Splice::between(&before.shown.scenario, &self.shown.scenario, cursor);
        };
        let inserted = self.shown.scenario.events[span.at..span.at + span.inserted].to_vec();
        Some(Splice {
            at: span.at as u32,
            removed: span.removed as u32,
            inserted: Box::new(carrier(&self.shown.scenario, inserted)),
            before: before.shown.scenario.events.len() as u32,
            cursor,
        })
    }

    /// Loading the lessons' module, and telling it what is shown.
    fn link_effects(&self, before: &Model, changed: &Changed) -> Vec<Effect> {
        let (was, now) = (&before.lessons, &self.lessons);
        let mut effects = Vec::new();
        if now.loaded && (!was.loaded || now.retries != was.retries) {
            effects.push(Effect::LoadLessons);
        }
        // What is shown first: the module acts on its mirror of it.
        let whole = changed.scenario || changed.variants || now.mirrors != was.mirrors;
        if now.loaded && whole {
            // An edit of the events alone travels as what changed: the module's copy has the rest.
            let splice =
                (!changed.variants && now.mirrors == was.mirrors).then(|| self.splice(before, changed)).flatten();
            let message = match splice {
                Some(splice) => ToLessons::Splice(splice),
                None => ToLessons::Shown(Box::new(self.shown.snapshot())),
            };
            effects.push(Effect::ToLessons(message));
        } else if now.loaded && changed.cursor && !changed.cursor_asked {
            // A cursor move is a small message: the module's mirror keeps the rest.
            effects.push(Effect::ToLessons(ToLessons::Cursor(self.shown.cursor.map(|c| c as u32))));
        }
        if now.toggles != was.toggles {
            effects.push(Effect::ToLessons(ToLessons::Toggle));
        }
        if now.ready && (now.panels != was.panels || now.mirrors != was.mirrors) {
            effects.push(Effect::ToLessons(ToLessons::Panels(now.panels)));
        }
        if now.ready && (self.selected != before.selected || now.mirrors != was.mirrors) {
            effects.push(Effect::ToLessons(ToLessons::Select(self.selected.map(|s| s as u32))));
        }
        let listed = before.library != self.library || self.library_id != before.library_id;
        if now.ready && (listed || now.mirrors != was.mirrors) {
            let listing = crate::model::listing::Listing::of(&self.library, self.library_id);
            effects.push(Effect::ToLessons(ToLessons::Library(Box::new(listing))));
        }
        if let Some(import) = now.file_import.as_ref().filter(|_| now.ready) {
            if now.file_import != was.file_import || now.mirrors != was.mirrors {
                effects.push(Effect::ToLessons(ToLessons::ReadFile((**import).clone())));
            }
        }
        effects
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Action;
    use crate::model::{ConfigAction, ModuleAction};
    use crate::model::{CursorAction, EditAction, LoadAction, NoticeAction, VariantsAction};
    use epochlab_core::scenario::edit::Lane;
    use epochlab_core::scenario::EventKind;
    use epochlab_core::Variant;

    fn opened_as(page: Page) -> Model {
        let mut m = Model::landing();
        m.page = page;
        m
    }

    fn effects(m: &Model, action: Action) -> Vec<Effect> {
        m.reduce(action).1
    }

    /// The address written after a re-run (the link from before it must not survive a reload).
    const REWRITTEN: Effect = Effect::WriteAddress { meanwhile: Meanwhile::RecordStale };
    /// The address written without a re-run (a cursor move).
    const MOVED: Effect = Effect::WriteAddress { meanwhile: Meanwhile::Unchanged };
    /// The address written after a re-run on a page that saves nothing: the uncompressed link at once.
    const UNCOMPRESSED: Effect = Effect::WriteAddress { meanwhile: Meanwhile::WriteUncompressed };

    fn flush_on_a() -> Action {
        Action::Edit(EditAction::Insert { position: 10, kind: EventKind::Flush, lane: Lane::Broker("A".into()) })
    }

    #[test]
    fn an_edit_saves_and_writes_the_address() {
        assert_eq!(effects(&Model::landing(), flush_on_a()), [Effect::Save, REWRITTEN]);
        assert_eq!(effects(&Model::landing(), Action::Config(ConfigAction::AddBroker)), [Effect::Save, REWRITTEN]);
    }

    #[test]
    fn the_cursor_and_the_variants_are_part_of_the_saved_state() {
        let m = Model::landing();
        assert_eq!(
            effects(&m, Action::Cursor(CursorAction::Home)),
            [Effect::Save, MOVED],
            "a cursor move re-runs nothing"
        );
        assert_eq!(effects(&m, Action::Variants(VariantsAction::Toggle(Variant::Kip101))), [Effect::Save, REWRITTEN]);
    }

    #[test]
    fn what_changes_no_snapshot_causes_nothing() {
        let m = Model::landing();
        for action in [
            Action::Cursor(CursorAction::End),
            Action::Cursor(CursorAction::SetSpeed(2)),
            Action::Notice(NoticeAction::Dismiss),
            Action::Cursor(CursorAction::Pause),
        ] {
            assert_eq!(effects(&m, action.clone()), [], "{action:?}");
        }
        // A selection opens the editor, which the lessons' module draws: loaded then, nothing saved.
        assert_eq!(effects(&m, Action::Cursor(CursorAction::Select(Some(3)))), [Effect::LoadLessons]);
        // A refused edit changes nothing either (it only says why).
        assert_eq!(
            effects(&m, Action::Edit(EditAction::Insert { position: 10, kind: EventKind::Flush, lane: Lane::Cluster })),
            []
        );
    }

    #[test]
    fn after_opening_a_link_cursor_moves_only_write_the_address_until_an_edit() {
        let m = opened_as(Page { saving: Saving::AfterEdit, ..Page::default() });
        let (m, moved) = m.reduce(Action::Cursor(CursorAction::Home));
        assert_eq!(moved, [MOVED]);
        assert_eq!(effects(&m, Action::Variants(VariantsAction::Toggle(Variant::Kip101))), [UNCOMPRESSED]);
        let (m, edited) = m.reduce(flush_on_a());
        assert_eq!(edited, [Effect::Save, REWRITTEN]);
        assert_eq!(m.page.saving, Saving::Always, "saving goes on once the user has edited");
        assert_eq!(effects(&m, Action::Cursor(CursorAction::End)), [Effect::Save, MOVED]);
    }

    #[test]
    fn an_embed_never_saves() {
        let view = opened_as(Page { read_only: true, saving: Saving::Never, framed: true, ..Page::default() });
        assert!(!effects(&view, Action::Cursor(CursorAction::Home)).contains(&Effect::Save));
        assert_eq!(effects(&view, flush_on_a()), [], "a view-only embed refuses the edit");
        let edit = opened_as(Page { read_only: false, saving: Saving::Never, framed: true, ..Page::default() });
        let edited = effects(&edit, flush_on_a());
        assert!(edited.contains(&UNCOMPRESSED) && !edited.contains(&Effect::Save), "{edited:?}");
    }

    #[test]
    fn where_storage_is_blocked_nothing_is_saved_and_an_edit_writes_the_link_at_once() {
        let m = opened_as(Page { stored: false, ..Page::default() });
        let (m, edited) = m.reduce(flush_on_a());
        assert_eq!(edited, [UNCOMPRESSED]);
        let (m, kept) = m.reduce(Action::Load(LoadAction::New));
        assert!(!kept.contains(&Effect::SaveLibrary), "{kept:?}");
        assert_eq!(m.library.entries.len(), 1, "My scenarios keeps the edited scenario while the page is open");
    }

    #[test]
    fn a_framed_lesson_says_ready_once_it_shows_the_lessons_scenario() {
        let page = Page { saving: Saving::Never, framed: true, ready_waits_for_lesson: true, ..Page::default() };
        let m = opened_as(page);
        assert_eq!(effects(&m, Action::Cursor(CursorAction::Set(Some(2)))), [MOVED], "no step before ready");
        // Lesson 2's story is the landing scenario itself: showing it still makes the embed ready.
        let lesson = epochlab_core::presets::find("kip101-scenario-1").expect("preset");
        let shown = crate::formats::snapshot::Snapshot {
            scenario: lesson.scenario(),
            variants: vec![Variant::HwTruncation],
            cursor: Some(3),
        };
        let (m, told) = m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(
            crate::model::bridge::ToPage::Show(Box::new(shown)),
        ))));
        let ready: Vec<_> =
            told.iter().filter_map(|e| if let Effect::Announce(a) = e { Some(a) } else { None }).collect();
        assert_eq!(ready.len(), 1);
        assert_eq!((ready[0].kind, ready[0].steps), (Announced::Ready, lesson.scenario().events.len()));
        assert!(!m.page.ready_waits_for_lesson);
    }

    #[test]
    fn a_framed_page_announces_every_step_change() {
        let m = opened_as(Page { read_only: true, saving: Saving::Never, framed: true, ..Page::default() });
        let (m, moved) = m.reduce(Action::Cursor(CursorAction::Set(Some(2))));
        let announced = m.announcement(Announced::Step);
        assert_eq!(moved, [MOVED, Effect::Announce(announced.clone())]);
        assert_eq!((announced.step, announced.steps), (Some(2), 10));
        assert!(announced.narration.contains("fetch"), "{}", announced.narration);
        assert_eq!(effects(&m, Action::Cursor(CursorAction::Select(Some(1)))), [], "selecting is not announced");
        assert!(!effects(&Model::landing(), Action::Cursor(CursorAction::Home))
            .iter()
            .any(|e| matches!(e, Effect::Announce(_))));
    }
}
