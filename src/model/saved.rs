//! "My scenarios" in the reducer: the working scenario is kept in the library before anything replaces it,
//! and the library's entries can be opened, renamed, duplicated and deleted. The library is part of what undo
//! restores, so each of these can be undone. The scenario's own name and description are edited here too.

use std::rc::Rc;

use epochlab_core::scenario::Scenario;

use super::listing::MAX_NAME;
use super::{Model, Notice, SavedAction, Saving, Shared};
use crate::formats::snapshot::Snapshot;

impl Model {
    /// A change of the name, the description or My scenarios: each one, named here.
    pub(super) fn change_saved(&mut self, change: SavedAction) {
        match change {
            SavedAction::SetName(name) => self.set_name(&name),
            SavedAction::SetDescription(text) => self.set_description(&text),
            SavedAction::OpenSaved(id) => self.open_saved(id),
            SavedAction::RenameSaved(id, name) => self.rename_saved(id, &name),
            SavedAction::DuplicateSaved(id) => self.duplicate_saved(id),
            SavedAction::DeleteSaved(id) => self.delete_saved(id),
        }
    }

    /// Whether the working scenario is the user's own: not an unedited preset, not an empty new scenario.
    pub fn is_users(&self) -> bool {
        // "New scenario" shows the variants shown before it: the variant alone does not make it the user's.
        let mut untouched = Scenario::empty();
        untouched.config.variant = self.shown.scenario.config.variant;
        let lessons = self.shown_by_lesson.as_deref() == Some(&self.shown.scenario);
        self.preset.is_none() && *self.shown.scenario != untouched && !lessons
    }

    /// Keep the working scenario in the library before it is replaced; returns its name if it was kept.
    pub(super) fn keep_working(&mut self) -> Option<String> {
        if !self.is_users() || self.page.saving == Saving::Never {
            return None;
        }
        let mut library = (*self.library).clone();
        // A scenario kept already (another tab kept it) is moved to the top, not kept twice.
        let same = library.entries.iter().find(|e| e.snapshot.scenario == *self.shown.scenario).map(|e| e.id);
        library.keep(self.library_id.or(same), self.shown.snapshot(), self.now as u64);
        self.library = Shared::new(library);
        Some(self.shown.scenario.name.clone())
    }

    /// Say what replaced the scenario and where the user's own went, with an Undo button; a scenario that was
    /// not the user's (an unedited preset) needs no word unless `always`.
    pub(super) fn tell_replaced(&mut self, kept: Option<String>, what: String, always: bool) {
        let text = match kept {
            Some(name) => {
                format!("{what} Your scenario \u{201c}{name}\u{201d} was saved in My scenarios (below the timeline).")
            }
            None if always => what,
            None => return,
        };
        self.notice = Some(Notice { error: false, text, undo: true });
    }

    /// Another tab saved its scenario where this tab's is stored, and this tab's next save would write over
    /// it: keep it in My scenarios (one entry for it, updated while it still holds what was kept there), so
    /// that neither tab's work is lost to the other's last save. An empty scenario, an unedited preset and
    /// a scenario kept already are not kept again.
    pub(super) fn keep_other_tab(&mut self, snapshot: Snapshot) {
        let kept = self.library.entries.iter().any(|e| e.snapshot.scenario == snapshot.scenario);
        if kept || snapshot.scenario == *self.shown.scenario || self.page.saving == Saving::Never {
            return;
        }
        if !Model::open(snapshot.clone()).is_users() {
            return;
        }
        let scenario = Rc::new(snapshot.scenario.clone());
        let ours = self.other_tab_entry.as_ref().and_then(|(id, last)| {
            let entry = self.library.get(*id)?;
            (entry.snapshot.scenario == **last).then_some(*id)
        });
        let first = self.other_tab_entry.is_none();
        let mut library = (*self.library).clone();
        self.other_tab_entry = Some((library.keep(ours, snapshot, self.now as u64), scenario));
        self.library = Shared::new(library);
        if first {
            let text = "Another tab saved its own scenario: it is kept in My scenarios.";
            self.notice = Some(Notice { error: false, text: text.to_string(), undo: false });
        }
    }

    /// Open a kept scenario (keeping the working one first).
    pub(super) fn open_saved(&mut self, id: u64) {
        let Some(entry) = self.library.get(id).cloned() else { return self.error("that saved scenario is gone") };
        if self.library_id == Some(id) && !self.is_users() {
            return;
        }
        let kept = self.keep_working().filter(|_| self.library_id != Some(id));
        self.load(Model::open(entry.snapshot.clone()));
        self.library_id = Some(id);
        self.tell_replaced(kept, format!("Opened \u{201c}{}\u{201d}.", entry.name()), false);
    }

    /// Rename a kept scenario (and the working one, when it is that entry).
    pub(super) fn rename_saved(&mut self, id: u64, name: &str) {
        let Some(name) = valid_name(name) else { return self.error("a scenario needs a name") };
        let mut library = (*self.library).clone();
        if library.rename(id, &name) {
            self.library = Shared::new(library);
            if self.library_id == Some(id) {
                self.shown.scenario_mut().name = name;
            }
        }
    }

    pub(super) fn duplicate_saved(&mut self, id: u64) {
        let mut library = (*self.library).clone();
        if library.duplicate(id, self.now as u64).is_some() {
            self.library = Shared::new(library);
        }
    }

    pub(super) fn delete_saved(&mut self, id: u64) {
        let mut library = (*self.library).clone();
        let Some(entry) = library.remove(id) else { return };
        self.library = Shared::new(library);
        if self.library_id == Some(id) {
            self.library_id = None;
        }
        let text = format!("Deleted \u{201c}{}\u{201d} from My scenarios.", entry.name());
        self.notice = Some(Notice { error: false, text, undo: true });
    }

    /// Name the scenario. Naming an unedited preset makes it the user's, still described by the preset.
    pub(super) fn set_name(&mut self, name: &str) {
        let Some(name) = valid_name(name) else { return self.error("a scenario needs a name") };
        if name != self.shown.scenario.name {
            self.edited_preset = self.preset.take().or(self.edited_preset);
            self.shown.scenario_mut().name = name;
        }
    }

    /// Describe the scenario: the description is the user's from now on.
    pub(super) fn set_description(&mut self, description: &str) {
        let description = description.trim();
        if description != self.shown.scenario.description {
            if self.preset.take().is_some() {
                self.shown.scenario_mut().name = edited_name(&self.shown.scenario.name);
            }
            self.edited_preset = None;
            self.shown.scenario_mut().description = description.to_string();
        }
    }
}

/// A name trimmed and cut to [`MAX_NAME`] characters; `None` when nothing is left.
fn valid_name(name: &str) -> Option<String> {
    let name: String = name.trim().chars().take(MAX_NAME).collect();
    (!name.is_empty()).then_some(name)
}

/// "<preset name> (edited)".
pub(super) fn edited_name(name: &str) -> String {
    format!("{name} (edited)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Action, Effect};
    use crate::model::{EditAction, LoadAction, NoticeAction, OtherTabAction};
    use epochlab_core::scenario::edit::Lane;
    use epochlab_core::scenario::EventKind;

    fn edited_landing() -> Model {
        Model::landing().after(Action::Edit(EditAction::Insert {
            position: 10,
            kind: EventKind::Flush,
            lane: Lane::Broker("A".into()),
        }))
    }

    #[test]
    fn an_edited_preset_is_named_as_edited_and_keeps_the_presets_description_marked() {
        let m = edited_landing();
        assert_eq!(m.shown.scenario.name, "KIP-101 scenario 1: a committed record lost (edited)");
        assert_eq!((m.preset, m.edited_preset), (None, Some("kip101-scenario-1")));
        let m = m.after(Action::Saved(SavedAction::SetDescription("my own words".into())));
        assert_eq!(m.edited_preset, None, "the description is the user's now");
        let named = Model::landing().after(Action::Saved(SavedAction::SetName("  Mine  ".into())));
        assert_eq!((named.shown.scenario.name.as_str(), named.edited_preset), ("Mine", Some("kip101-scenario-1")));
        let reopened = Model::open(edited_landing().shown.snapshot());
        assert_eq!(reopened.edited_preset, Some("kip101-scenario-1"), "recognised after a reload");
        assert!(Model::landing()
            .after(Action::Saved(SavedAction::SetName(" ".into())))
            .notice
            .is_some_and(|n| n.error));
    }

    #[test]
    fn a_preset_opened_over_the_users_scenario_keeps_it_in_my_scenarios() {
        let (m, effects) = edited_landing().reduce(Action::Load(LoadAction::Preset("happy-path".into())));
        assert_eq!(m.preset, Some("happy-path"));
        assert!(effects.contains(&Effect::SaveLibrary));
        let kept = &m.library.entries[0];
        assert_eq!(kept.snapshot.scenario, *edited_landing().shown.scenario);
        let notice = m.notice.clone().unwrap();
        assert!(notice.undo && notice.text.contains("saved in My scenarios"), "{notice:?}");
        // Open it again: the preset, unedited, is not kept; the entry is the working scenario once more.
        let back = m.after(Action::Saved(SavedAction::OpenSaved(kept.id)));
        assert_eq!(back.shown.scenario, edited_landing().shown.scenario);
        assert_eq!((back.library.entries.len(), back.library_id), (1, Some(kept.id)));
        // Edited and replaced again, it updates its own entry rather than adding one.
        let again =
            back.after(Action::Saved(SavedAction::SetName("renamed".into()))).after(Action::Load(LoadAction::New));
        assert_eq!(again.library.entries.len(), 1);
        assert_eq!(again.library.entries[0].name(), "renamed");
    }

    #[test]
    fn what_another_tab_saved_is_kept_in_one_entry_of_my_scenarios() {
        let other = |name: &str| {
            let mut s = edited_landing().shown.scenario.as_ref().clone();
            s.name = name.into();
            Box::new(crate::formats::snapshot::of_scenario(s, vec![epochlab_core::Variant::Kip101]))
        };
        let (m, effects) = Model::landing().reduce(Action::OtherTab(OtherTabAction::SavedScenario(other("other tab"))));
        assert_eq!(m.library.entries[0].name(), "other tab");
        assert!(effects.contains(&Effect::SaveLibrary) && m.notice.is_some());
        let m = m
            .after(Action::Notice(NoticeAction::Dismiss))
            .after(Action::OtherTab(OtherTabAction::SavedScenario(other("other tab, later"))));
        let names: Vec<&str> = m.library.entries.iter().map(|e| e.name()).collect();
        assert_eq!(names, ["other tab, later"], "one entry, updated");
        assert!(m.notice.is_none(), "said once");
        let same = Box::new(crate::formats::snapshot::of_scenario(
            m.shown.scenario.as_ref().clone(),
            m.shown.variants.clone(),
        ));
        assert_eq!(
            m.after(Action::OtherTab(OtherTabAction::SavedScenario(same))).library,
            m.library,
            "this tab's own scenario is not kept again"
        );
    }

    #[test]
    fn unedited_presets_and_empty_scenarios_are_not_kept_and_embeds_keep_nothing() {
        let m = Model::landing()
            .after(Action::Load(LoadAction::Preset("happy-path".into())))
            .after(Action::Load(LoadAction::New));
        let m = m.after(Action::Load(LoadAction::Preset("happy-path".into())));
        assert!(m.library.entries.is_empty());
        let mut embed = edited_landing();
        embed.page.saving = Saving::Never;
        assert!(embed.after(Action::Load(LoadAction::New)).library.entries.is_empty());
    }

    #[test]
    fn undo_after_a_preset_brings_the_users_scenario_back() {
        let m = edited_landing()
            .after(Action::Load(LoadAction::Preset("happy-path".into())))
            .after(Action::Edit(EditAction::Undo));
        assert_eq!(m.shown.scenario, edited_landing().shown.scenario);
        assert!(m.library.entries.is_empty(), "as it was before the preset");
    }

    #[test]
    fn another_tabs_list_is_taken_without_becoming_an_edit_or_a_write() {
        let mut other = crate::formats::library::Library::default();
        other.keep(None, edited_landing().shown.snapshot(), 1);
        let (m, effects) =
            Model::landing().reduce(Action::OtherTab(OtherTabAction::SavedLibrary(Shared::new(other.clone()))));
        assert_eq!(*m.library, other);
        assert!(!m.history.can_undo() && !effects.contains(&Effect::SaveLibrary), "{effects:?}");
    }

    #[test]
    fn entries_rename_duplicate_and_delete_undoably() {
        let m = edited_landing().after(Action::Load(LoadAction::New));
        let id = m.library.entries[0].id;
        let m = m
            .after(Action::Saved(SavedAction::RenameSaved(id, "first".into())))
            .after(Action::Saved(SavedAction::DuplicateSaved(id)));
        let names: Vec<&str> = m.library.entries.iter().map(|e| e.name()).collect();
        assert_eq!(names, ["first (copy)", "first"]);
        let deleted = m.after(Action::Saved(SavedAction::DeleteSaved(id)));
        assert_eq!(deleted.library.entries.len(), 1);
        assert!(deleted.notice.as_ref().is_some_and(|n| n.undo && n.text.contains("Deleted")));
        assert_eq!(deleted.after(Action::Edit(EditAction::Undo)).library, m.library);
    }
}
