//! The playground's state and its pure reducer (the todomvc pattern): every user action becomes an
//! [`Action`], [`Model::reduce`] returns the next model, and any scenario edit re-runs the core at once.
//!
//! Nothing here touches the DOM, timers or storage, so it is tested natively. The reducer's parts live by
//! concern: loading whole scenarios ([`load`]), scenario edits ([`edits`]), configuration ([`config`]), the
//! cursor and playback ([`cursor`]), keyboard placement ([`placing`]) and notices ([`notices`]).

mod action;
mod action_wire;
pub mod bridge;
mod changed;
mod config;
mod cursor;
pub mod drag;
mod edits;
mod effects;
mod focus;
mod history;
pub mod learn;
mod lesson_link;
pub mod listing;
mod load;
mod notices;
pub mod panels;
mod placement;
mod placing;
pub mod question;
mod saved;
mod settings;
mod shared;
mod shown;
pub mod splice;
mod spoken;
mod text;

use std::rc::Rc;

use epochlab_core::scenario::Scenario;
use epochlab_core::{presets, Variant};

use crate::formats::library::Library;

pub use self::action::{
    Action, CursorAction, EditAction, LoadAction, ModuleAction, NoticeAction, OtherTabAction, PlaceAction,
    VariantsAction,
};
pub use self::bridge::{FileContent, FileImport};
pub use self::effects::{Effect, Meanwhile, Page, Saving};
pub use self::focus::Focus;
pub use self::history::{History, DEPTH};
pub use self::learn::{Learn, LearnAction};
pub use self::lesson_link::LessonLink;
pub use self::listing::MAX_NAME;
pub use self::notices::Notice;
pub use self::placement::{PlaceSource, Placing};
pub use self::settings::{ConfigAction, SavedAction};
pub use self::shared::Shared;
pub use self::shown::Shown;
pub use self::spoken::lane_name;

/// How long one step stays on screen while playing, in milliseconds.
/// The latest model, for listeners registered once (they outlive the render that made them).
pub type LatestModel = Rc<std::cell::RefCell<Rc<Model>>>;

pub const SPEEDS: [(u32, &str); 3] = [(1600, "slow"), (900, "normal"), (450, "fast")];
/// At most this many variants side by side (the core's limit, shared with links and embeds).
pub use epochlab_core::variant::MAX_VARIANTS;
/// The variants the landing page compares.
pub const LANDING_VARIANTS: [Variant; 2] = [Variant::HwTruncation, Variant::Kip279];

/// The whole UI state. What is recomputed as a whole is [`Shared`], compared by identity.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// What is shown: the scenario, the variants, their traces, the cursor.
    pub shown: Shown,
    /// The selected event (its editor is open).
    pub selected: Option<usize>,
    /// A keyboard placement in progress.
    pub placing: Option<Placing>,
    /// Playing.
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// The banner.
    pub notice: Option<Notice>,
    /// Which preset the scenario came from, if any.
    pub preset: Option<&'static str>,
    /// The edited preset whose description the scenario still carries (it may no longer match).
    pub edited_preset: Option<&'static str>,
    /// What the page was opened as: what it may change, save and announce.
    pub page: Page,
    /// The edits that can be undone and redone.
    pub history: Shared<History>,
    /// "My scenarios".
    pub library: Shared<Library>,
    /// The library entry the working scenario was opened from, which keeping it again replaces.
    pub library_id: Option<u64>,
    /// The time of the action being reduced, in milliseconds since the epoch (when a scenario is kept).
    pub now: f64,
    /// Where the keyboard focus goes after this action, when the focused element went away or moved.
    pub focus: Option<Focus>,
    /// What the page last said to a screen reader (a polite live region).
    pub spoken: String,
    /// The page's link to the lessons' module.
    pub lessons: LessonLink,
    /// What the lesson's step points at on the timeline and in the logs.
    pub marks: Rc<Vec<epochlab_core::lesson::Highlight>>,
    /// The lesson's part of the address (`lesson=<id>&step=<n>`), while one is followed.
    pub lesson_params: Option<String>,
    /// The scenario a lesson last showed: not the user's to keep in My scenarios, until edited.
    pub shown_by_lesson: Option<Rc<Scenario>>,
    /// The step a lesson's question asks about, while it waits for the answer (see `question`).
    pub pending: Option<bridge::HeldBack>,
    /// The log a lesson's question asks to paint, drawn on its broker's row.
    pub painting: Option<Rc<bridge::Painting>>,
    /// The column choosing the Kafka release added (it goes with the release).
    pub release_column: Option<Variant>,
    /// A bounded-proof stamp the checker found, to put on the address.
    pub proof: Option<Rc<str>>,
    /// The My scenarios entry that keeps what another tab saved over this tab's stored scenario, and the
    /// scenario kept there last (the entry is updated only while it still holds it).
    pub other_tab_entry: Option<(u64, Rc<Scenario>)>,
}

/// `variants` with `first` in front (moved there, or added when it was not shown).
pub(super) fn with_first(mut variants: Vec<Variant>, first: Variant) -> Vec<Variant> {
    variants.retain(|v| *v != first);
    variants.insert(0, first);
    variants
}

impl Model {
    /// A model for a scenario shown under `variants`, with the cursor on the last step.
    pub fn new(scenario: Scenario, variants: Vec<Variant>, preset: Option<&'static str>) -> Model {
        // A scenario run as a Kafka release shows the release's variant first: showing another first would
        // forget the release (an imported file or a link naming `kafka_version` keeps it).
        let variants = match scenario.config.kafka_version {
            Some(release) => with_first(variants, release.variant()),
            None => variants,
        };
        Model {
            shown: Shown::opened(scenario, variants),
            selected: None,
            placing: None,
            playing: false,
            speed: 1,
            notice: None,
            preset,
            edited_preset: None,
            page: Page::default(),
            history: Shared::default(),
            library: Shared::default(),
            library_id: None,
            now: 0.0,
            focus: None,
            spoken: String::new(),
            lessons: LessonLink::default(),
            marks: Rc::default(),
            lesson_params: None,
            shown_by_lesson: None,
            pending: None,
            painting: None,
            release_column: None,
            proof: None,
            other_tab_entry: None,
        }
    }

    /// The landing page: KIP-101 scenario 1 under hw-truncation and kip-279, on its last step.
    pub fn landing() -> Model {
        Model::new(presets::default_scenario(), LANDING_VARIANTS.to_vec(), Some(presets::PRESETS[0].id))
    }

    /// Re-run every shown variant; the selection stays on the timeline.
    fn rerun(&mut self) {
        self.shown.rerun();
        self.selected = self.selected.filter(|s| *s < self.shown.scenario.events.len());
    }

    /// The next model, and the effects the action causes (for the app to run).
    pub fn reduce(&self, action: Action) -> (Model, Vec<Effect>) {
        self.reduce_at(action, self.now)
    }

    /// [`Model::reduce`] at a time (milliseconds since the epoch), which a scenario kept in the library records.
    pub fn reduce_at(&self, action: Action, now: f64) -> (Model, Vec<Effect>) {
        let mut next = self.clone();
        next.now = now;
        next.focus = None;
        let facts = action.facts(self);
        let refused = !facts.from_lessons && next.refused_by_question(&action);
        let span = if refused { None } else { next.apply(action) };
        next.editor_follows_selection();
        let held = !facts.from_lessons && next.hold_before_question();
        let changed = changed::Changed::between(self, &next, &facts, span);
        next.speak(&changed, facts.placed, self);
        if refused || held {
            next.say_question_waits(self);
        }
        if facts.recorded && changed.edited() {
            next.history = Shared::new(self.history.recorded(self.past()));
        }
        let effects = next.effects(self, &changed);
        (next, effects)
    }

    /// The model after an action, without its effects (to set up a model, or in tests).
    pub fn after(&self, action: Action) -> Model {
        self.reduce(action).0
    }

    /// Route an action to the part of the reducer it concerns; an edit of events says which it replaced.
    fn apply(&mut self, action: Action) -> Option<changed::Span> {
        if self.page.read_only && action.edits() {
            self.error(notices::READ_ONLY);
            return None;
        }
        match action {
            Action::Edit(edit) => return self.apply_edit(edit),
            Action::Load(load) => self.apply_load(load),
            Action::Place(place) => return self.apply_place(place),
            Action::Cursor(look) => self.apply_cursor(look),
            Action::Variants(VariantsAction::Toggle(v)) => self.toggle_variant(v),
            Action::Variants(VariantsAction::Set(vs)) => self.show_variants(vs),
            Action::Config(change) => self.change_config(change),
            Action::Notice(NoticeAction::Show(n)) => self.notice = Some(n),
            Action::Notice(NoticeAction::Dismiss) => self.notice = None,
            Action::Saved(change) => self.change_saved(change),
            Action::OtherTab(OtherTabAction::SavedLibrary(library)) => self.library = library,
            Action::OtherTab(OtherTabAction::SavedScenario(snapshot)) => self.keep_other_tab(*snapshot),
            Action::Module(link) => self.apply_to_lesson_link(link),
            // Lessons are reduced in their own module (`LessonsModel::learn_reduce`), never on the page.
            Action::Learn(_) => {}
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::invariants::InvariantId;
    use epochlab_core::scenario::edit::Lane;

    #[test]
    fn the_landing_shows_scenario_1_under_two_variants_on_its_last_step() {
        let m = Model::landing();
        assert_eq!(m.shown.variants, LANDING_VARIANTS);
        assert_eq!(m.shown.cursor, Some(9));
        assert_eq!(m.shown.traces.len(), 2);
        assert!(m.shown.traces[0].violations.iter().any(|v| v.invariant == InvariantId::I1 && !v.by_design));
        assert!(m.shown.traces[1].violations.iter().all(|v| v.by_design));
        assert_eq!(m.shown.first_difference, Some(8));
    }

    #[test]
    fn a_variant_held_only_by_a_refused_write_is_known_after_every_re_run() {
        let m = Model::new(presets::find("kip101-scenario-2").unwrap().scenario(), LANDING_VARIANTS.to_vec(), None);
        assert_eq!(*m.shown.held, [None, None]);
        let m = m.after(Action::Config(ConfigAction::SetMinIsr(2)));
        let held = m.shown.held[0].as_ref().expect("hw-truncation holds only because m3 was refused");
        assert_eq!((held.steps.as_slice(), held.min_insync_replicas), ([15].as_slice(), 2));
        assert_eq!(m.shown.held[1], None, "kip-279 holds anyway");
        let headline = crate::components::header::headline(&m);
        let held = "hw-truncation holds only because the write at step 15 was refused (min.insync.replicas = 2), \
                    and would fail I3, I4 if it were accepted";
        assert!(headline.contains(held), "{headline}");
        assert!(!headline.contains("hw-truncation holds every invariant"), "{headline}");
    }

    #[test]
    fn an_event_is_on_its_brokers_lane_or_the_cluster_lane() {
        let m = Model::landing();
        // Step 0 elects B, step 1 produces through the leader, step 7 crashes A.
        assert_eq!((m.shown.lane_of(0), m.shown.lane_of(1), m.shown.lane_of(7)), (Some(1), Some(2), Some(0)));
        assert_eq!(m.shown.lane_of(99), None);
        let lanes = m.shown.lanes();
        assert!((0..m.shown.scenario.events.len())
            .all(|i| lanes[m.shown.lane_of(i).unwrap()] == Lane::of(&m.shown.scenario.events[i])));
    }
}
