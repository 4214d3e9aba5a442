//! Everything a user (or an embedding page) can do, as data.

use epochlab_core::scenario::edit::Lane;
use epochlab_core::scenario::{Event, EventKind, Policy, Scenario};
use epochlab_core::variant::{KafkaVersion, MetadataMode, ProtocolVersion};
use epochlab_core::{Flag, Variant};

use super::{Notice, PlaceSource};
use crate::formats::embed::{Command, Goto};
use crate::formats::snapshot::Snapshot;

/// Everything a user can do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Open a preset (its default side-by-side variants are kept).
    LoadPreset(String),
    /// Start from an empty two-broker scenario.
    NewScenario,
    /// Replace the scenario (a loaded link or message), keeping the variants unless given.
    Replace(Box<Scenario>),
    /// Open an imported snapshot.
    Import(Box<Snapshot>),
    /// Open what the checker found (a shortest failure, a shrunk scenario) under its variant, the cursor on
    /// `cursor`, saying `what`; undoable, and the user's own scenario is kept in My scenarios.
    LoadFound { scenario: Box<Scenario>, cursor: Option<usize>, what: String },
    /// Put the checker's bounded-proof stamp (its text) on the address, for the share link to carry.
    AddProof(String),
    /// Start playback (no-op when already playing).
    Play,
    /// Insert a new event of a kind at a position on a lane.
    Insert { position: usize, kind: EventKind, lane: Lane },
    /// Move an event in time and/or to another lane (`to` counts positions before the move).
    Move { from: usize, to: usize, lane: Lane },
    /// Delete an event.
    Remove(usize),
    /// Replace an event (the field editor).
    Edit(usize, Box<Event>),
    /// Take the scenario the text panel's text reads as (one edit; nothing when it is the same scenario).
    ApplyText(Box<Scenario>),
    /// Select an event (or none).
    Select(Option<usize>),
    /// Show the state after a step (`None`: before the first).
    SetCursor(Option<usize>),
    /// Step by ±n.
    StepBy(i32),
    /// Jump before the first step.
    Home,
    /// Jump to the last step.
    End,
    /// Play or pause.
    TogglePlay,
    /// Pause.
    Pause,
    /// One tick of playback: advance, or stop at the end.
    Tick,
    /// Choose a speed.
    SetSpeed(usize),
    /// Show or hide a variant.
    ToggleVariant(Variant),
    /// Show exactly these variants.
    SetVariants(Vec<Variant>),
    /// A change of the cluster's settings (brokers, min ISR, the release and its settings, policies, flags).
    Config(ConfigAction),
    /// Show a notice.
    Notify(Notice),
    /// Hide the notice.
    DismissNotice,
    /// Begin a keyboard placement.
    StartPlacing(PlaceSource),
    /// Move the placement: lanes (dy) and positions (dx).
    MovePlacing { dx: i32, dy: i32 },
    /// Drop at the placement.
    CommitPlacing,
    /// Abandon the placement.
    CancelPlacing,
    /// Undo the last edit (the cursor comes back with it).
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Another tab changed "My scenarios": take its list (not an edit of this page's, so never undone).
    SyncLibrary(std::rc::Rc<crate::formats::library::Library>),
    /// Another tab of the page saved its working scenario (over this tab's stored one): kept in My scenarios.
    KeepOtherTab(Box<Snapshot>),
    /// A tap on a palette chip: start a touch placement of it, or cancel the one under way for it.
    TapPlace(PlaceSource),
    /// A tap or click on a gap of a lane during a placement: drop there (`gap` counts positions before the move).
    PlaceAt { lane: usize, gap: usize },
    /// The scenario's name and description, and My scenarios.
    Saved(SavedAction),
    /// The page's side of its link to the lessons' module.
    Module(ModuleAction),
    /// Something about lessons (in the lessons' module).
    Learn(super::LearnAction),
}

/// The scenario's name and description, and the scenarios kept in My scenarios: one group, forwarded typed
/// from the panel the lessons module draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SavedAction {
    /// Name the scenario.
    SetName(String),
    /// Describe the scenario.
    SetDescription(String),
    /// Open a scenario from "My scenarios" (the working one is kept there first).
    OpenSaved(u64),
    /// Rename a scenario in "My scenarios".
    RenameSaved(u64, String),
    /// Copy a scenario in "My scenarios".
    DuplicateSaved(u64),
    /// Delete a scenario from "My scenarios".
    DeleteSaved(u64),
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

/// A change of the cluster's settings: one group, so that every place that must handle them (the reducer,
/// what counts as an edit, what the lessons module forwards) names the group, and a new setting is a
/// compiler error wherever it must be handled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigAction {
    /// Add a broker.
    AddBroker,
    /// Remove a broker (and its events).
    RemoveBroker(String),
    /// Rename a broker.
    RenameBroker(String, String),
    /// min.insync.replicas.
    SetMinIsr(u8),
    /// unclean.leader.election.enable (`None`: the release's default).
    SetUnclean(Option<bool>),
    /// KIP-966's Eligible Leader Replicas on a 4.x release (`None`: the release's default).
    SetElr(Option<bool>),
    /// ZooKeeper or KRaft on a release that offers both (`None`: the release's own, model §13).
    SetMetadataMode(Option<MetadataMode>),
    /// inter.broker.protocol.version (`None`: the release's own).
    SetInterBrokerProtocol(Option<ProtocolVersion>),
    /// log.message.format.version (`None`: the release's own).
    SetMessageFormat(Option<ProtocolVersion>),
    /// HW checkpoint policy.
    SetHwCheckpoint(Policy),
    /// Flush policy.
    SetFlush(Policy),
    /// Turn a flag on or off.
    ToggleFlag(Flag),
    /// Run as a Kafka release (its variant and flags), or forget the release.
    SetKafkaRelease(Option<KafkaVersion>),
}

impl Action {
    /// Whether the action changes the scenario (refused in a view-only embed). Choosing variants and moving
    /// the cursor are viewing, not editing.
    pub fn edits(&self) -> bool {
        matches!(
            self,
            Action::NewScenario
                | Action::Insert { .. }
                | Action::Move { .. }
                | Action::Remove(_)
                | Action::Edit(..)
                | Action::ApplyText(_)
                | Action::Config(_)
                | Action::StartPlacing(_)
                | Action::CommitPlacing
                | Action::TapPlace(_)
                | Action::PlaceAt { .. }
                | Action::Import(_)
                | Action::LoadFound { .. }
                | Action::Saved(SavedAction::SetName(_) | SavedAction::SetDescription(_) | SavedAction::OpenSaved(_))
        )
    }
}

impl Action {
    /// The actions an embedding page's command stands for (`playing`: whether playback is on already).
    pub fn for_command(command: Command, playing: bool) -> Vec<Action> {
        let goto = |g: Goto| match g {
            Goto::Start => Action::Home,
            Goto::End => Action::End,
            Goto::Step(i) => Action::SetCursor(Some(i)),
        };
        match command {
            Command::Load { scenario, variants, step } => {
                let mut actions = vec![Action::Replace(scenario)];
                actions.extend(variants.map(Action::SetVariants));
                actions.extend(step.map(goto));
                actions
            }
            Command::Goto(g) => vec![Action::Pause, goto(g)],
            Command::Play if !playing => vec![Action::Play],
            Command::Play => vec![],
            Command::Pause => vec![Action::Pause],
            Command::Variants(vs) => vec![Action::SetVariants(vs)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_embedding_pages_commands_become_actions() {
        let load = Command::Load { scenario: Box::new(Scenario::empty()), variants: None, step: Some(Goto::End) };
        assert_eq!(Action::for_command(load, false), [Action::Replace(Box::new(Scenario::empty())), Action::End]);
        assert_eq!(
            Action::for_command(Command::Goto(Goto::Step(3)), true),
            [Action::Pause, Action::SetCursor(Some(3))]
        );
        assert_eq!(Action::for_command(Command::Play, false), [Action::Play]);
        assert_eq!(Action::for_command(Command::Play, true), [], "playing already");
        let shown = vec![Variant::Kip101];
        assert_eq!(Action::for_command(Command::Variants(shown.clone()), false), [Action::SetVariants(shown)]);
    }
}
