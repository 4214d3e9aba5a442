//! Everything a user (or an embedding page) can do, as data.

use epochlab_core::scenario::edit::Lane;
use epochlab_core::scenario::{Event, EventKind, Scenario};
use epochlab_core::Variant;

use super::bridge::ToPage;
use super::changed::Facts;
use super::panels::Forwarded;
use super::settings::{ConfigAction, SavedAction};
use super::{Notice, PlaceSource};
use crate::formats::embed::{Command, Goto};
use crate::formats::snapshot::Snapshot;

/// Everything a user can do, grouped by what it concerns: each group is one enum, handled in one exhaustive
/// match, so a new action is a compiler error wherever it must be handled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Open a whole scenario (a preset, an empty one, a link, a file, what the checker found).
    Load(LoadAction),
    /// Change the scenario's events, or undo and redo such a change.
    Edit(EditAction),
    /// Place an event with the keyboard or by tapping.
    Place(PlaceAction),
    /// Where the user looks: the step shown, the event selected, playback.
    Cursor(CursorAction),
    /// The variants shown side by side.
    Variants(VariantsAction),
    /// A change of the cluster's settings (brokers, min ISR, the release and its settings, policies, flags).
    Config(ConfigAction),
    /// The banner.
    Notice(NoticeAction),
    /// The scenario's name and description, and My scenarios.
    Saved(SavedAction),
    /// What another tab of the page stored.
    OtherTab(OtherTabAction),
    /// The page's side of its link to the lessons' module.
    Module(ModuleAction),
    /// Something about lessons (reduced in the lessons' module, `LessonsModel::learn_reduce`; the page never sends it).
    Learn(super::LearnAction),
}

/// Opening a whole scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadAction {
    /// Open a preset (its default side-by-side variants are kept).
    Preset(String),
    /// Start from an empty two-broker scenario.
    New,
    /// Replace the scenario (a loaded link or message), keeping the variants unless given.
    Replace(Box<Scenario>),
    /// Open an imported snapshot.
    Import(Box<Snapshot>),
    /// Open what the checker found (a shortest failure, a shrunk scenario) under its variant, the cursor on
    /// `cursor`, saying `what`; undoable, and the user's own scenario is kept in My scenarios.
    Found { scenario: Box<Scenario>, cursor: Option<usize>, what: String },
    /// Put the checker's bounded-proof stamp (its text) on the address, for the share link to carry.
    AddProof(String),
}

/// A change of the scenario's events, and the history of such changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditAction {
    /// Insert a new event of a kind at a position on a lane.
    Insert { position: usize, kind: EventKind, lane: Lane },
    /// Move an event in time and/or to another lane (`to` counts positions before the move).
    Move { from: usize, to: usize, lane: Lane },
    /// Delete an event.
    Remove(usize),
    /// Replace an event (the field editor).
    Replace(usize, Box<Event>),
    /// Take the scenario the text panel's text reads as (one edit; nothing when it is the same scenario).
    ApplyText(Box<Scenario>),
    /// Undo the last edit (the cursor comes back with it).
    Undo,
    /// Redo the last undone edit.
    Redo,
}

/// A keyboard or touch placement of an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceAction {
    /// Begin a keyboard placement.
    Start(PlaceSource),
    /// Move the placement: lanes (dy) and positions (dx).
    Move { dx: i32, dy: i32 },
    /// Drop at the placement.
    Commit,
    /// Abandon the placement.
    Cancel,
    /// A tap on a palette chip: start a touch placement of it, or cancel the one under way for it.
    Tap(PlaceSource),
    /// A tap or click on a gap of a lane during a placement: drop there (`gap` counts positions before the move).
    At { lane: usize, gap: usize },
}

/// Where the user looks: the step shown, the event whose editor is open, playback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CursorAction {
    /// Show the state after a step (`None`: before the first).
    Set(Option<usize>),
    /// Step by ±n.
    StepBy(i32),
    /// Jump before the first step.
    Home,
    /// Jump to the last step.
    End,
    /// Select an event (or none).
    Select(Option<usize>),
    /// Start playback (no-op when already playing).
    Play,
    /// Play or pause.
    TogglePlay,
    /// Pause.
    Pause,
    /// One tick of playback: advance, or stop at the end.
    Tick,
    /// Choose a speed.
    SetSpeed(usize),
}

/// The variants shown side by side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantsAction {
    /// Show or hide a variant.
    Toggle(Variant),
    /// Show exactly these variants.
    Set(Vec<Variant>),
}

/// The banner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoticeAction {
    /// Show a notice.
    Show(Notice),
    /// Hide the notice.
    Dismiss,
}

/// What another tab of the page stored: never this page's edit, so never undone or written back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OtherTabAction {
    /// It changed "My scenarios": take its list.
    SavedLibrary(super::Shared<crate::formats::library::Library>),
    /// It saved its working scenario (over this tab's stored one): kept in My scenarios.
    SavedScenario(Box<Snapshot>),
}

/// The page's side of its link to the lessons' module: loading it, what it says, the panels it draws, the files
/// it reads. One group, handled in one exhaustive match (`Model::apply_to_lesson_link`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModuleAction {
    /// The Learn button.
    OpenLearn,
    /// A message from the lessons' module.
    FromLessons(Box<crate::model::bridge::ToPage>),
    /// A panel the lessons' module draws was opened or closed.
    ShowPanel(super::panels::Panel, bool),
    /// The lessons' module could not be loaded, and why.
    LessonsFailed(String),
    /// Load the lessons' module again after it failed.
    RetryLessons,
    /// Import a file: read by the lessons' module, which has the readers.
    ImportFile { source: String, content: super::FileContent, shown: Vec<Variant> },
}

impl Action {
    /// Whether the action changes the scenario (refused in a view-only embed). Choosing variants and moving
    /// the cursor are viewing, not editing.
    pub fn edits(&self) -> bool {
        match self {
            Action::Load(load) => match load {
                LoadAction::New | LoadAction::Import(_) | LoadAction::Found { .. } => true,
                // A preset or a link replaces what is viewed; the proof stamp only goes on the address.
                LoadAction::Preset(_) | LoadAction::Replace(_) | LoadAction::AddProof(_) => false,
            },
            Action::Edit(edit) => match edit {
                EditAction::Insert { .. }
                | EditAction::Move { .. }
                | EditAction::Remove(_)
                | EditAction::Replace(..)
                | EditAction::ApplyText(_) => true,
                EditAction::Undo | EditAction::Redo => false,
            },
            Action::Place(place) => match place {
                PlaceAction::Start(_) | PlaceAction::Commit | PlaceAction::Tap(_) | PlaceAction::At { .. } => true,
                PlaceAction::Move { .. } | PlaceAction::Cancel => false,
            },
            Action::Config(_) => true,
            Action::Saved(saved) => match saved {
                SavedAction::SetName(_) | SavedAction::SetDescription(_) | SavedAction::OpenSaved(_) => true,
                SavedAction::RenameSaved(..) | SavedAction::DuplicateSaved(_) | SavedAction::DeleteSaved(_) => false,
            },
            Action::Cursor(_)
            | Action::OtherTab(_)
            | Action::Variants(_)
            | Action::Notice(_)
            | Action::Module(_)
            | Action::Learn(_) => false,
        }
    }
}

impl Action {
    /// What the action is, as far as what it changes cares: read before it is applied to `before`.
    pub(super) fn facts(&self, before: &super::Model) -> Facts {
        let synced = matches!(self, Action::OtherTab(OtherTabAction::SavedLibrary(_)));
        let placed = match self {
            Action::Edit(EditAction::Insert { position, .. }) => Some(*position),
            Action::Edit(EditAction::Move { to, .. }) => Some(*to),
            Action::Place(PlaceAction::Commit | PlaceAction::At { .. }) => before.placing.as_ref().map(|p| p.position),
            _ => None,
        };
        let (from_lessons, asked_cursor) = match self {
            Action::Module(ModuleAction::FromLessons(m)) => {
                (true, if let ToPage::Cursor(c) = **m { Some(c) } else { None })
            }
            _ => (false, None),
        };
        let recorded = !synced && !matches!(self, Action::Edit(EditAction::Undo | EditAction::Redo));
        Facts { synced, recorded, placed, from_lessons, asked_cursor }
    }

    /// The actions an embedding page's command stands for (`playing`: whether playback is on already).
    pub fn for_command(command: Command, playing: bool) -> Vec<Action> {
        let goto = |g: Goto| match g {
            Goto::Start => Action::Cursor(CursorAction::Home),
            Goto::End => Action::Cursor(CursorAction::End),
            Goto::Step(i) => Action::Cursor(CursorAction::Set(Some(i))),
        };
        match command {
            Command::Load { scenario, variants, step } => {
                let mut actions = vec![Action::Load(LoadAction::Replace(scenario))];
                actions.extend(variants.map(|vs| Action::Variants(VariantsAction::Set(vs))));
                actions.extend(step.map(goto));
                actions
            }
            Command::Goto(g) => vec![Action::Cursor(CursorAction::Pause), goto(g)],
            Command::Play if !playing => vec![Action::Cursor(CursorAction::Play)],
            Command::Play => vec![],
            Command::Pause => vec![Action::Cursor(CursorAction::Pause)],
            Command::Variants(vs) => vec![Action::Variants(VariantsAction::Set(vs))],
        }
    }
}

/// What the lessons module's panels hand to the page (`bridge::ToPage::Do`), and the action each stands for.
impl Forwarded {
    /// The action a panel dispatched, when it is one the page must carry out. Every group is matched in
    /// full: a new action is a compiler error here until it is said whether a panel's use of it is forwarded.
    pub fn of(action: &Action) -> Option<Forwarded> {
        match action {
            Action::Load(load) => Forwarded::of_load(load),
            Action::Edit(EditAction::ApplyText(s)) => Some(Forwarded::ApplyText(s.clone())),
            Action::Edit(EditAction::Remove(step)) => Some(Forwarded::Remove(*step)),
            // The editor's edit travels with its brokers (`Forwarded::edit`); the panels neither insert, move
            // nor undo.
            Action::Edit(
                EditAction::Replace(..)
                | EditAction::Insert { .. }
                | EditAction::Move { .. }
                | EditAction::Undo
                | EditAction::Redo,
            ) => None,
            Action::Place(PlaceAction::Start(PlaceSource::Existing(step))) => Some(Forwarded::MoveWithKeys(*step)),
            Action::Place(_) => None,
            Action::Cursor(look) => Forwarded::of_cursor(look),
            Action::Config(change) => Some(Forwarded::Config(change.clone())),
            Action::Saved(change) => Some(Forwarded::Saved(change.clone())),
            Action::Variants(VariantsAction::Toggle(v)) => Some(Forwarded::ToggleVariant(*v)),
            Action::Variants(VariantsAction::Set(_)) => None,
            // Said to the page as `ToPage::Notice`; the others are the page's own or the module's.
            Action::Notice(_) | Action::OtherTab(_) | Action::Module(_) | Action::Learn(_) => None,
        }
    }

    fn of_load(load: &LoadAction) -> Option<Forwarded> {
        match load {
            LoadAction::Import(s) => Some(Forwarded::Import(s.clone())),
            LoadAction::Found { scenario, cursor, what } => {
                Some(Forwarded::LoadFound { scenario: scenario.clone(), cursor: *cursor, what: what.clone() })
            }
            LoadAction::AddProof(stamp) => Some(Forwarded::AddProof(stamp.clone())),
            LoadAction::Preset(_) | LoadAction::New | LoadAction::Replace(_) => None,
        }
    }

    fn of_cursor(look: &CursorAction) -> Option<Forwarded> {
        match look {
            CursorAction::Set(c) => Some(Forwarded::SetCursor(*c)),
            CursorAction::Select(None) => Some(Forwarded::CloseEditor),
            CursorAction::Select(Some(_))
            | CursorAction::StepBy(_)
            | CursorAction::Home
            | CursorAction::End
            | CursorAction::Play
            | CursorAction::TogglePlay
            | CursorAction::Pause
            | CursorAction::Tick
            | CursorAction::SetSpeed(_) => None,
        }
    }

    /// The action the page carries out.
    pub fn into_action(self) -> Action {
        match self {
            Forwarded::SetCursor(c) => Action::Cursor(CursorAction::Set(c)),
            Forwarded::ApplyText(s) => Action::Edit(EditAction::ApplyText(s)),
            Forwarded::Import(s) => Action::Load(LoadAction::Import(s)),
            Forwarded::LoadFound { scenario, cursor, what } => {
                Action::Load(LoadAction::Found { scenario, cursor, what })
            }
            Forwarded::AddProof(stamp) => Action::Load(LoadAction::AddProof(stamp)),
            Forwarded::Config(change) => Action::Config(change),
            Forwarded::Saved(change) => Action::Saved(change),
            Forwarded::ToggleVariant(v) => Action::Variants(VariantsAction::Toggle(v)),
            Forwarded::Edit { step, event, .. } => Action::Edit(EditAction::Replace(step, event)),
            Forwarded::Remove(step) => Action::Edit(EditAction::Remove(step)),
            Forwarded::MoveWithKeys(step) => Action::Place(PlaceAction::Start(PlaceSource::Existing(step))),
            Forwarded::CloseEditor => Action::Cursor(CursorAction::Select(None)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_embedding_pages_commands_become_actions() {
        let load = Command::Load { scenario: Box::new(Scenario::empty()), variants: None, step: Some(Goto::End) };
        assert_eq!(
            Action::for_command(load, false),
            [Action::Load(LoadAction::Replace(Box::new(Scenario::empty()))), Action::Cursor(CursorAction::End)]
        );
        assert_eq!(
            Action::for_command(Command::Goto(Goto::Step(3)), true),
            [Action::Cursor(CursorAction::Pause), Action::Cursor(CursorAction::Set(Some(3)))]
        );
        assert_eq!(Action::for_command(Command::Play, false), [Action::Cursor(CursorAction::Play)]);
        assert_eq!(Action::for_command(Command::Play, true), [], "playing already");
        let shown = vec![Variant::Kip101];
        assert_eq!(
            Action::for_command(Command::Variants(shown.clone()), false),
            [Action::Variants(VariantsAction::Set(shown))]
        );
    }
}
