//! The page's side of the lessons: whether their module is loaded, and what they asked the page to show
//! (see `model::bridge`). The lessons themselves (their state, their answers, their grading) live in the
//! lessons' module, on a model of their own (`model::learn`).

use std::rc::Rc;

use super::bridge::{FileContent, FileImport};
use super::panels::{Panel, Panels};
use super::{Model, ModuleAction};
use crate::model::bridge::ToPage;

/// The page's link to the lessons' module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LessonLink {
    /// The module was asked for (it loads once).
    pub loaded: bool,
    /// How many times the Learn button asked to open or close the list (each is sent once).
    pub toggles: u32,
    /// How many times the lessons asked for what is shown.
    pub mirrors: u32,
    /// The module said it is ready (a message sent before would be lost).
    pub ready: bool,
    /// The Learn button was pressed before the module was ready.
    pub pending_toggle: bool,
    /// The panels the module draws that are open (it is told on every change, and when it is ready).
    pub panels: Panels,
    /// The last file to import, for the module to read (sent once it is ready).
    pub file_import: Option<Rc<FileImport>>,
    /// Why the module could not be loaded, until the reader asks to try again.
    pub failed: Option<Rc<str>>,
    /// How many times loading was tried again (each try loads the module anew).
    pub retries: u32,
}

impl Model {
    /// The lesson's part of the address, while a lesson is followed.
    pub fn lesson_fragment(&self) -> Option<String> {
        self.lesson_params.clone()
    }

    /// An action on the link to the lessons' module.
    pub(super) fn apply_to_lesson_link(&mut self, action: ModuleAction) {
        match action {
            ModuleAction::OpenLearn => self.open_learn(),
            ModuleAction::FromLessons(m) => self.take_from_lessons(*m),
            ModuleAction::ShowPanel(panel, open) => self.show_panel(panel, open),
            ModuleAction::LessonsFailed(why) => self.lessons_failed(why),
            ModuleAction::RetryLessons => self.retry_lessons(),
            ModuleAction::ImportFile { source, content, shown } => self.import_file_later(source, content, shown),
        }
    }

    /// The Learn button: load the lessons and open their list once ready, or open or close their list.
    pub(super) fn open_learn(&mut self) {
        let l = &mut self.lessons;
        if !l.loaded || !l.ready {
            l.loaded = true;
            l.pending_toggle = true;
        } else {
            l.toggles = l.toggles.wrapping_add(1);
        }
    }

    /// A panel the module draws opened or closed: the module is loaded when one first opens.
    pub(super) fn show_panel(&mut self, panel: Panel, open: bool) {
        let l = &mut self.lessons;
        l.panels = l.panels.with(panel, open);
        l.loaded |= open;
    }

    /// The selected event's editor is a panel the module draws: open while an event is selected on a page
    /// that may edit.
    pub(super) fn editor_follows_selection(&mut self) {
        let open = self.selected.is_some() && !self.page.read_only;
        if self.lessons.panels.is_open(Panel::Editor) != open {
            self.show_panel(Panel::Editor, open);
        }
    }

    /// The module could not be loaded: the panels waiting for it say so, with a button to try again.
    pub(super) fn lessons_failed(&mut self, why: String) {
        let l = &mut self.lessons;
        if l.loaded && !l.ready {
            l.failed = Some(why.into());
        }
    }

    /// Try loading the module again, after it failed.
    pub(super) fn retry_lessons(&mut self) {
        let l = &mut self.lessons;
        if l.failed.take().is_some() {
            l.retries = l.retries.wrapping_add(1);
        }
    }

    /// A file in the text format to import: the module reads it (loaded for it if need be).
    pub(super) fn import_file_later(
        &mut self,
        source: String,
        content: FileContent,
        shown: Vec<epochlab_core::Variant>,
    ) {
        let l = &mut self.lessons;
        let serial = l.file_import.as_ref().map_or(0, |t| t.serial.wrapping_add(1));
        l.file_import = Some(Rc::new(FileImport { serial, source, content, shown }));
        l.loaded = true;
    }

    /// The step a lesson shows, on the scenario shown.
    fn show_cursor(&mut self, cursor: Option<u32>) {
        // A lesson whose story is the one already shown (lesson 2 on the landing page) shows it too.
        if self.shown_by_lesson.is_none() {
            self.shown_by_lesson = Some(self.shown.scenario.clone());
        }
        self.playing = false;
        self.shown.cursor = cursor.and_then(|c| self.shown.last_step().map(|last| (c as usize).min(last)));
    }

    /// What the lessons ask for.
    pub(super) fn take_from_lessons(&mut self, message: ToPage) {
        match message {
            ToPage::Ready => {
                let l = &mut self.lessons;
                l.mirrors = l.mirrors.wrapping_add(1);
                l.ready = true;
                if std::mem::take(&mut l.pending_toggle) {
                    l.toggles = l.toggles.wrapping_add(1);
                }
            }
            ToPage::Show(s) => {
                let s = *s;
                if s.scenario != *self.shown.scenario {
                    let kept = self.keep_working();
                    // A preset (a counter-scenario) is still the preset; a lesson's own scenario is not the user's.
                    // Recognising it runs nothing: the one run is `show_variants`'.
                    let recognised = epochlab_core::presets::recognise(&s.scenario);
                    (self.preset, self.edited_preset) = (recognised.preset, recognised.edited);
                    self.shown_by_lesson = Some(Rc::new(s.scenario.clone()));
                    self.shown.scenario = Rc::new(s.scenario);
                    (self.selected, self.placing) = (None, None);
                    self.show_variants(s.variants);
                    self.tell_replaced(kept, "A lesson opened its scenario.".to_string(), false);
                } else if s.variants != self.shown.variants {
                    self.show_variants(s.variants);
                }
                self.show_cursor(s.cursor);
            }
            ToPage::Cursor(cursor) => self.show_cursor(cursor),
            ToPage::Marks(marks) => self.marks = Rc::new(marks),
            ToPage::Params(params) => self.lesson_params = params,
            ToPage::Notice(notice) => self.notice = Some(notice),
            ToPage::Unsay(text) => self.notice = self.notice.take().filter(|n| n.text != text),
            ToPage::Pending(asked) => self.set_pending(asked),
            ToPage::Paint(painting) => self.painting = painting.map(Rc::new),
            // Carried out as the page's own action where the message is received (`use_lesson_messages`).
            ToPage::Do(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::bridge::ToLessons;
    use crate::model::{Action, Effect};
    use crate::model::{CursorAction, EditAction, VariantsAction};
    use epochlab_core::presets;

    #[test]
    fn a_cursor_move_is_told_to_the_lessons_as_a_cursor_not_the_whole_snapshot() {
        let (m, _) = Model::landing().reduce(Action::Module(ModuleAction::OpenLearn));
        let (m, _) = m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Ready))));
        let told = |effects: Vec<Effect>| -> Vec<ToLessons> {
            effects.into_iter().filter_map(|e| if let Effect::ToLessons(m) = e { Some(m) } else { None }).collect()
        };
        let (m, effects) = m.reduce(Action::Cursor(CursorAction::Set(Some(2))));
        assert_eq!(told(effects), [ToLessons::Cursor(Some(2))]);
        let (_, effects) = m.reduce(Action::Variants(VariantsAction::Toggle(epochlab_core::Variant::Kip101)));
        let shown = told(effects).into_iter().any(|t| matches!(t, ToLessons::Shown(_)));
        assert!(shown, "a change of the variants sends them all");
        // The first edit of a preset renames it ("(edited)"): the whole is sent; the next is a splice.
        let (m, _) = m.reduce(Action::Edit(EditAction::Remove(2)));
        let (_, effects) = m.reduce(Action::Edit(EditAction::Remove(1)));
        let told = told(effects);
        let splice = |t: &ToLessons| matches!(t, ToLessons::Splice(s) if (s.at, s.removed) == (1, 1));
        assert!(told.len() == 1 && splice(&told[0]), "{told:?}");
        // Through the wire form, as the window event carries it.
        let read = crate::model::bridge::ToLessons::from_json(&told[0].to_json());
        let removed_only =
            matches!(read, Ok(crate::model::bridge::ToLessons::Splice(s)) if s.inserted.events.is_empty());
        assert!(removed_only, "an edit of the events sends what changed: {told:?}");
        let (m, _) =
            Model::landing().reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Cursor(Some(99))))));
        assert_eq!(m.shown.cursor, m.shown.last_step(), "a lesson's cursor past the end stops at the last step");
    }

    #[test]
    fn each_edit_tells_the_lessons_the_span_it_replaced_and_the_splice_rebuilds_the_page_scenario() {
        use epochlab_core::scenario::edit::Lane;
        use epochlab_core::scenario::{Event, EventKind};
        let (m, _) = Model::landing().reduce(Action::Module(ModuleAction::OpenLearn));
        let (m, _) = m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Ready))));
        // The first edit of a preset renames it, and is sent whole: edit once before the cases.
        let b = || Lane::Broker("B".into());
        let m = m.after(Action::Edit(EditAction::Insert { position: 10, kind: EventKind::Flush, lane: b() }));
        assert!(m.shown.scenario.name.ends_with("(edited)"));
        let edits = [
            EditAction::Insert { position: 0, kind: EventKind::Crash, lane: Lane::Broker("A".into()) },
            EditAction::Insert { position: 11, kind: EventKind::Flush, lane: b() },
            EditAction::Move { from: 2, to: 8, lane: b() },
            EditAction::Move { from: 8, to: 1, lane: b() },
            EditAction::Move { from: 7, to: 7, lane: b() },
            EditAction::Move { from: 7, to: 10, lane: Lane::Broker("A".into()) },
            EditAction::Remove(0),
            EditAction::Remove(10),
            EditAction::Replace(4, Box::new(Event::Flush { broker: "A".into() })),
            EditAction::Undo,
        ];
        for edit in edits {
            // Undo restores a whole scenario (the span is found by comparing): undo an edit made on `m`.
            let m = if edit == EditAction::Undo { m.after(Action::Edit(EditAction::Remove(3))) } else { m.clone() };
            let (next, effects) = m.reduce(Action::Edit(edit.clone()));
            assert_ne!(next.shown.scenario, m.shown.scenario, "{edit:?} changes the scenario: {:?}", next.notice);
            let splice = effects.iter().find_map(|e| match e {
                Effect::ToLessons(ToLessons::Splice(s)) => Some(s.clone()),
                _ => None,
            });
            let splice = splice.unwrap_or_else(|| panic!("{edit:?} is sent as a splice: {effects:?}"));
            let mut copy = (*m.shown.scenario).clone();
            assert!(splice.apply(&mut copy), "{edit:?}");
            assert_eq!(copy, *next.shown.scenario, "{edit:?} as {splice:?}");
        }
    }

    #[test]
    fn a_cursor_the_lessons_moved_is_not_echoed_back_to_them() {
        let (m, _) = Model::landing().reduce(Action::Module(ModuleAction::OpenLearn));
        let (m, _) = m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Ready))));
        let (m, effects) = m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Cursor(Some(2))))));
        assert_eq!(m.shown.cursor, Some(2));
        assert!(!effects.iter().any(|e| matches!(e, Effect::ToLessons(ToLessons::Cursor(_)))), "{effects:?}");
        // A cursor past the end stops at the last step, and the module learns where it stopped.
        let (m, effects) = m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Cursor(Some(99))))));
        let clamped = m.shown.cursor.map(|c| c as u32);
        assert!(clamped < Some(99) && effects.contains(&Effect::ToLessons(ToLessons::Cursor(clamped))), "{effects:?}");
    }

    #[test]
    fn the_lessons_load_once_then_the_learn_button_toggles_their_list() {
        let (m, effects) = Model::landing().reduce(Action::Module(ModuleAction::OpenLearn));
        assert_eq!(effects, [Effect::LoadLessons]);
        let (m, effects) = m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Ready))));
        let sent: Vec<&ToLessons> =
            effects.iter().filter_map(|e| if let Effect::ToLessons(m) = e { Some(m) } else { None }).collect();
        assert!(sent.len() == 5, "{effects:?}");
        assert!(matches!((sent[0], sent[1]), (ToLessons::Shown(_), ToLessons::Toggle)), "{effects:?}");
        assert_eq!(sent[2], &ToLessons::Panels(Panels::default()), "and which panels are open");
        assert_eq!(sent[3], &ToLessons::Select(None), "and which event is selected");
        assert!(matches!(sent[4], ToLessons::Library(l) if l.entries.is_empty()), "and what My scenarios lists");
        let (_, effects) = m.reduce(Action::Module(ModuleAction::OpenLearn));
        assert_eq!(effects, [Effect::ToLessons(ToLessons::Toggle)]);
    }

    #[test]
    fn a_text_file_waits_for_the_module_then_is_sent_once() {
        let import = || {
            Action::Module(ModuleAction::ImportFile {
                source: "a.txt".into(),
                content: FileContent::Text("elect A".into()),
                shown: vec![],
            })
        };
        let sent = |effects: &[Effect]| {
            effects.iter().filter(|e| matches!(e, Effect::ToLessons(ToLessons::ReadFile(_)))).count()
        };
        let (m, effects) = Model::landing().reduce(import());
        assert_eq!(effects, [Effect::LoadLessons]);
        let (m, effects) = m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Ready))));
        assert_eq!(sent(&effects), 1, "{effects:?}");
        let (m, effects) = m.reduce(Action::Edit(EditAction::Undo));
        assert_eq!(sent(&effects), 0, "not again");
        let (_, effects) = m.reduce(import());
        assert_eq!(sent(&effects), 1, "the same file imported again is read again");
    }

    #[test]
    fn selecting_an_event_opens_the_editor_the_module_draws_and_tells_it_which() {
        let (m, effects) = Model::landing().reduce(Action::Cursor(CursorAction::Select(Some(3))));
        assert_eq!(effects, [Effect::LoadLessons], "the editor is the module's");
        assert!(m.lessons.panels.is_open(Panel::Editor));
        let (m, effects) = m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Ready))));
        assert!(effects.contains(&Effect::ToLessons(ToLessons::Select(Some(3)))), "{effects:?}");
        let (m, effects) = m.reduce(Action::Cursor(CursorAction::Select(None)));
        assert!(effects.contains(&Effect::ToLessons(ToLessons::Select(None))), "{effects:?}");
        assert!(!m.lessons.panels.is_open(Panel::Editor), "closed with the selection");
        let mut read_only = Model::landing();
        read_only.page.read_only = true;
        let (m, _) = read_only.reduce(Action::Cursor(CursorAction::Select(Some(3))));
        assert!(!m.lessons.panels.is_open(Panel::Editor), "a view-only embed has no editor");
    }

    #[test]
    fn opening_a_panel_loads_the_module_once_and_tells_it_which_are_open() {
        let (m, effects) = Model::landing().reduce(Action::Module(ModuleAction::ShowPanel(Panel::Messages, true)));
        assert_eq!(effects, [Effect::LoadLessons], "nothing is sent before the module is ready");
        let (m, effects) = m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Ready))));
        assert!(
            effects.contains(&Effect::ToLessons(ToLessons::Panels(Panels::default().with(Panel::Messages, true)))),
            "{effects:?}"
        );
        assert!(!effects.iter().any(|e| matches!(e, Effect::ToLessons(ToLessons::Toggle))), "no Learn list");
        let (m, effects) = m.reduce(Action::Module(ModuleAction::ShowPanel(Panel::Text, true)));
        assert_eq!(
            effects,
            [Effect::ToLessons(ToLessons::Panels(
                Panels::default().with(Panel::Messages, true).with(Panel::Text, true)
            ))]
        );
        let (_, effects) = m.reduce(Action::Module(ModuleAction::ShowPanel(Panel::Messages, false)));
        assert_eq!(effects, [Effect::ToLessons(ToLessons::Panels(Panels::default().with(Panel::Text, true)))]);
    }

    #[test]
    fn a_lesson_shows_its_scenario_undoably_and_is_told_of_every_change() {
        let m = Model::landing().after(Action::Module(ModuleAction::OpenLearn));
        let mut shown = Model::new(
            presets::find("kip101-scenario-2").unwrap().scenario(),
            vec![epochlab_core::Variant::Kip101],
            None,
        )
        .shown
        .snapshot();
        shown.cursor = Some(3);
        let (m, effects) =
            m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Show(Box::new(shown.clone()))))));
        assert_eq!((m.shown.snapshot(), m.history.can_undo()), (shown, true));
        assert!(effects.iter().any(|e| matches!(e, Effect::ToLessons(ToLessons::Shown(_)))));
        let (m, _) = m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Params(Some(
            "lesson=x&step=4".into(),
        ))))));
        assert_eq!(m.lesson_fragment().as_deref(), Some("lesson=x&step=4"));
        assert!(!m.is_users(), "a lesson's scenario is not kept in My scenarios");
        let undone = m.after(Action::Edit(EditAction::Undo));
        assert_eq!(undone.shown.scenario, Model::landing().shown.scenario);
    }

    #[test]
    fn a_module_that_fails_to_load_is_said_and_loaded_again_on_retry() {
        let (m, effects) = Model::landing().reduce(Action::Module(ModuleAction::ShowPanel(Panel::Config, true)));
        assert!(effects.contains(&Effect::LoadLessons));
        let (m, _) = m.reduce(Action::Module(ModuleAction::LessonsFailed("its script answered 404".into())));
        assert_eq!(m.lessons.failed.as_deref(), Some("its script answered 404"));
        let (m, effects) = m.reduce(Action::Module(ModuleAction::RetryLessons));
        assert_eq!((m.lessons.failed.clone(), m.lessons.retries), (None, 1));
        assert!(effects.contains(&Effect::LoadLessons), "a retry loads the module anew");
        let (m, _) = m.reduce(Action::Module(ModuleAction::FromLessons(Box::new(ToPage::Ready))));
        let (m, effects) = m.reduce(Action::Module(ModuleAction::LessonsFailed("late".into())));
        assert_eq!(m.lessons.failed, None, "a module that is ready has not failed");
        assert!(!effects.contains(&Effect::LoadLessons));
    }
}
