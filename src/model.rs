//! The playground's state and its pure reducer (the todomvc pattern): every user action becomes an
//! [`Action`], [`Model::reduce`] returns the next model, and any scenario edit re-runs the core at once.
//!
//! Nothing here touches the DOM, timers or storage, so it is tested natively.

use std::rc::Rc;

use epochlab_core::scenario::edit::{self, Lane};
use epochlab_core::scenario::{Event, EventKind, Policy, Scenario};
use epochlab_core::{presets, recompare, Flag, Trace, Variant};

use crate::snapshot::Snapshot;

/// How long one step stays on screen while playing, in milliseconds.
pub const SPEEDS: [(u32, &str); 3] = [(1600, "slow"), (900, "normal"), (450, "fast")];
/// At most this many variants side by side.
pub const MAX_VARIANTS: usize = 4;

/// A message shown in the banner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// Something went wrong (vs. a plain information).
    pub error: bool,
    /// The text.
    pub text: String,
}

/// What a keyboard placement moves: a new event from the palette, or an existing one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceSource {
    /// A palette chip of this kind.
    New(EventKind),
    /// The event at this index.
    Existing(usize),
}

/// A keyboard placement in progress: the chosen lane (index into [`Model::lanes`]) and insertion position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placing {
    /// What is being placed.
    pub source: PlaceSource,
    /// Lane index.
    pub lane: usize,
    /// Insertion position (0 to the number of events).
    pub position: usize,
}

/// The whole UI state.
#[derive(Clone, Debug)]
pub struct Model {
    /// The scenario being edited.
    pub scenario: Scenario,
    /// Variants shown side by side (1 to 4); the first is the scenario's configured variant.
    pub variants: Vec<Variant>,
    /// One trace per variant, recomputed on every edit.
    pub traces: Rc<Vec<Trace>>,
    /// The first step after which the shown variants' states differ.
    pub first_difference: Option<u32>,
    /// The step whose state is shown (`None`: before the first event).
    pub cursor: Option<usize>,
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
    /// A view-only embed: every edit is refused.
    pub read_only: bool,
}

impl PartialEq for Model {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.traces, &other.traces)
            && self.scenario == other.scenario
            && self.variants == other.variants
            && self.cursor == other.cursor
            && self.selected == other.selected
            && self.placing == other.placing
            && self.playing == other.playing
            && self.speed == other.speed
            && self.notice == other.notice
            && self.read_only == other.read_only
    }
}

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
    /// Add a broker.
    AddBroker,
    /// Remove a broker (and its events).
    RemoveBroker(String),
    /// Rename a broker.
    RenameBroker(String, String),
    /// min.insync.replicas.
    SetMinIsr(u8),
    /// unclean.leader.election.enable.
    SetUnclean(bool),
    /// HW checkpoint policy.
    SetHwCheckpoint(Policy),
    /// Flush policy.
    SetFlush(Policy),
    /// Turn a flag on or off.
    ToggleFlag(Flag),
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
                | Action::AddBroker
                | Action::RemoveBroker(_)
                | Action::RenameBroker(..)
                | Action::SetMinIsr(_)
                | Action::SetUnclean(_)
                | Action::SetHwCheckpoint(_)
                | Action::SetFlush(_)
                | Action::ToggleFlag(_)
                | Action::StartPlacing(_)
                | Action::CommitPlacing
                | Action::Import(_)
        )
    }
}

/// The variants the landing page compares.
pub const LANDING_VARIANTS: [Variant; 2] = [Variant::HwTruncation, Variant::Kip279];

impl Model {
    /// A model for a scenario shown under `variants`, with the cursor on the last step.
    pub fn new(scenario: Scenario, variants: Vec<Variant>, preset: Option<&'static str>) -> Model {
        let mut m = Model {
            scenario,
            variants: Vec::new(),
            traces: Rc::new(Vec::new()),
            first_difference: None,
            cursor: None,
            selected: None,
            placing: None,
            playing: false,
            speed: 1,
            notice: None,
            preset,
            read_only: false,
        };
        m.set_variants(variants);
        m.rerun();
        m.cursor = m.last_step();
        m
    }

    /// The landing page: KIP-101 scenario 1 under hw-truncation and kip-279, on its last step.
    pub fn landing() -> Model {
        Model::new(presets::default_scenario(), LANDING_VARIANTS.to_vec(), Some(presets::PRESETS[0].id))
    }

    /// The model a snapshot opens: its cursor clamped to the timeline, and the preset it came from recognised.
    pub fn open(snapshot: Snapshot) -> Model {
        let Snapshot { scenario, variants, cursor } = snapshot;
        let mut model = Model::new(scenario, variants, None);
        model.cursor = cursor.and_then(|c| model.last_step().map(|last| (c as usize).min(last)));
        model.preset = presets::PRESETS.iter().find(|p| p.scenario() == model.scenario).map(|p| p.id);
        model
    }

    /// What links, storage and exports keep of the model.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            scenario: self.scenario.clone(),
            variants: self.variants.clone(),
            cursor: self.cursor.map(|c| c as u32),
        }
    }

    /// The same model showing a notice.
    pub fn with_notice(mut self, notice: Notice) -> Model {
        self.notice = Some(notice);
        self
    }

    /// The timeline's lanes: one per broker, then the cluster lane.
    pub fn lanes(&self) -> Vec<Lane> {
        self.scenario.brokers.iter().map(|b| Lane::Broker(b.clone())).chain(std::iter::once(Lane::Cluster)).collect()
    }

    /// The last step, if any.
    pub fn last_step(&self) -> Option<usize> {
        self.scenario.events.len().checked_sub(1)
    }

    /// The trace of the first shown variant (chips show its outcomes).
    pub fn primary(&self) -> Option<&Trace> {
        self.traces.first()
    }

    fn set_variants(&mut self, mut variants: Vec<Variant>) {
        variants.dedup();
        variants.truncate(MAX_VARIANTS);
        if variants.is_empty() {
            variants.push(self.scenario.config.variant);
        }
        self.scenario.config.variant = variants[0];
        self.variants = variants;
    }

    /// Re-run every shown variant and compare them.
    fn rerun(&mut self) {
        // Each variant goes on from its previous trace where the scenario did not change.
        let cmp = recompare(&self.traces, &self.scenario, &self.variants);
        self.first_difference = cmp.first_difference;
        self.traces = Rc::new(cmp.traces);
        self.cursor = match (self.cursor, self.last_step()) {
            (Some(c), Some(last)) => Some(c.min(last)),
            _ => None,
        };
        self.selected = self.selected.filter(|s| *s < self.scenario.events.len());
    }

    fn error(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice { error: true, text: text.into() });
    }

    /// Apply a scenario edit; on success re-run and place the cursor with `cursor_after`, else show why.
    fn edit(
        &mut self,
        change: impl FnOnce(&mut Scenario) -> Result<(), String>,
        cursor_after: impl FnOnce(&Model) -> Option<usize>,
    ) {
        let mut next = self.scenario.clone();
        match change(&mut next) {
            Ok(()) => {
                // At the end (including an empty timeline, where both are None): follow the new end.
                let was_at_end = self.cursor == self.last_step();
                self.scenario = next;
                self.preset = None;
                self.notice = self.notice.take().filter(|n| !n.error);
                self.rerun();
                self.cursor = if was_at_end { self.last_step() } else { cursor_after(self) };
            }
            Err(why) => self.error(why),
        }
    }

    /// The next model.
    pub fn reduce(&self, action: Action) -> Model {
        let mut m = self.clone();
        m.apply(action);
        m
    }

    fn apply(&mut self, action: Action) {
        if self.read_only && action.edits() {
            return self.error("this embed is read-only: open it in Epochlab to change the scenario");
        }
        match action {
            Action::LoadPreset(id) => match presets::find(&id) {
                Some(p) => {
                    let mut variants = self.variants.clone();
                    let own = p.scenario().config.variant;
                    if !variants.contains(&own) {
                        variants.insert(0, own);
                    }
                    *self = Model::new(p.scenario(), variants, Some(p.id));
                }
                None => self.error(format!("there is no preset \"{id}\"")),
            },
            Action::NewScenario => *self = Model::new(Scenario::empty(), self.variants.clone(), None),
            Action::Replace(scenario) => {
                let mut variants = self.variants.clone();
                if variants.first() != Some(&scenario.config.variant) {
                    variants.retain(|v| *v != scenario.config.variant);
                    variants.insert(0, scenario.config.variant);
                }
                let read_only = self.read_only;
                *self = Model::new(*scenario, variants, None);
                self.read_only = read_only;
            }
            Action::Import(snapshot) => {
                let name = snapshot.scenario.name.clone();
                let read_only = self.read_only;
                *self = Model::open(*snapshot);
                self.read_only = read_only;
                self.notice = Some(Notice { error: false, text: format!("Imported \"{name}\".") });
            }
            Action::Play => self.playing = self.last_step().is_some(),
            Action::Insert { position, kind, lane } => {
                let cursor = self.cursor;
                self.edit(
                    |s| edit::insert(s, position, kind, &lane),
                    |_| cursor.map(|c| if position <= c { c + 1 } else { c }),
                );
                self.selected = None;
            }
            Action::Move { from, to, lane } => {
                let cursor = self.cursor;
                self.edit(|s| edit::move_event(s, from, to, &lane), |_| cursor);
                self.selected = None;
            }
            Action::Remove(i) => {
                let cursor = self.cursor;
                self.edit(
                    |s| edit::remove(s, i).map(|_| ()),
                    |m| cursor.map(|c| if i < c { c - 1 } else { c }).filter(|c| Some(*c) <= m.last_step()),
                );
                self.selected = None;
            }
            Action::Edit(i, event) => {
                let cursor = self.cursor;
                self.edit(|s| edit::replace(s, i, *event), |_| cursor);
            }
            Action::Select(i) => self.selected = i.filter(|i| *i < self.scenario.events.len()),
            Action::SetCursor(c) => self.cursor = c.and_then(|c| self.last_step().map(|l| c.min(l))),
            Action::StepBy(n) => self.cursor = step_by(self.cursor, n, self.last_step()),
            Action::Home => self.cursor = None,
            Action::End => self.cursor = self.last_step(),
            Action::TogglePlay => {
                if !self.playing && self.cursor == self.last_step() {
                    self.cursor = None;
                }
                self.playing = !self.playing && self.last_step().is_some();
            }
            Action::Pause => self.playing = false,
            Action::Tick => {
                if self.cursor == self.last_step() {
                    self.playing = false;
                } else {
                    self.cursor = step_by(self.cursor, 1, self.last_step());
                }
            }
            Action::SetSpeed(s) => self.speed = s.min(SPEEDS.len() - 1),
            Action::ToggleVariant(v) => {
                let mut vs = self.variants.clone();
                if vs.contains(&v) {
                    if vs.len() == 1 {
                        return self.error("at least one variant stays shown");
                    }
                    vs.retain(|x| *x != v);
                } else if vs.len() >= MAX_VARIANTS {
                    return self.error(format!("at most {MAX_VARIANTS} variants side by side"));
                } else {
                    vs.push(v);
                    vs.sort_by_key(|x| Variant::ALL.iter().position(|y| y == x));
                }
                self.set_variants(vs);
                self.rerun();
            }
            Action::SetVariants(vs) => {
                self.set_variants(vs);
                self.rerun();
            }
            Action::AddBroker => self.edit(|s| edit::add_broker(s).map(|_| ()), |m| m.cursor),
            Action::RemoveBroker(name) => {
                let mut removed = 0;
                self.edit(|s| edit::remove_broker(s, &name).map(|n| removed = n), |m| m.cursor);
                if removed > 0 && self.notice.is_none() {
                    self.notice = Some(Notice {
                        error: false,
                        text: format!("Removed broker {name} and its {removed} event(s)."),
                    });
                }
            }
            Action::RenameBroker(old, new) => self.edit(|s| edit::rename_broker(s, &old, new.trim()), |m| m.cursor),
            Action::SetMinIsr(n) => {
                let max = self.scenario.brokers.len() as u8;
                self.edit(
                    |s| {
                        s.config.min_insync_replicas = n.clamp(1, max);
                        Ok(())
                    },
                    |m| m.cursor,
                )
            }
            Action::SetUnclean(on) => self.edit(
                |s| {
                    s.config.unclean_leader_election = on;
                    Ok(())
                },
                |m| m.cursor,
            ),
            Action::SetHwCheckpoint(p) => self.edit(
                |s| {
                    s.config.hw_checkpoint = p;
                    Ok(())
                },
                |m| m.cursor,
            ),
            Action::SetFlush(p) => self.edit(
                |s| {
                    s.config.flush = p;
                    Ok(())
                },
                |m| m.cursor,
            ),
            Action::ToggleFlag(f) => self.edit(
                |s| {
                    if s.config.flags.contains(&f) {
                        s.config.flags.retain(|x| *x != f);
                    } else {
                        s.config.flags.push(f);
                        s.config.flags.sort();
                    }
                    Ok(())
                },
                |m| m.cursor,
            ),
            Action::Notify(n) => self.notice = Some(n),
            Action::DismissNotice => self.notice = None,
            Action::StartPlacing(source) => {
                let (lane, position) = match &source {
                    PlaceSource::New(_) => (0, self.scenario.events.len()),
                    PlaceSource::Existing(i) => {
                        let lane = self
                            .scenario
                            .events
                            .get(*i)
                            .map(Lane::of)
                            .and_then(|l| self.lanes().iter().position(|x| *x == l));
                        (lane.unwrap_or(0), *i)
                    }
                };
                self.placing = Some(Placing { source, lane, position });
            }
            Action::MovePlacing { dx, dy } => {
                let lanes = self.lanes().len() as i32;
                let positions = match self.placing.as_ref().map(|p| &p.source) {
                    Some(PlaceSource::Existing(_)) => self.scenario.events.len() as i32 - 1,
                    _ => self.scenario.events.len() as i32,
                };
                if let Some(p) = &mut self.placing {
                    p.lane = (p.lane as i32 + dy).clamp(0, lanes - 1) as usize;
                    p.position = (p.position as i32 + dx).clamp(0, positions.max(0)) as usize;
                }
            }
            Action::CommitPlacing => {
                if let Some(p) = self.placing.take() {
                    let lane = self.lanes().get(p.lane).cloned().unwrap_or(Lane::Cluster);
                    let action = match p.source {
                        PlaceSource::New(kind) => Action::Insert { position: p.position, kind, lane },
                        PlaceSource::Existing(from) => Action::Move { from, to: p.position, lane },
                    };
                    self.apply(action);
                }
            }
            Action::CancelPlacing => self.placing = None,
        }
    }

    /// Whether a placement would be refused, and why (for the keyboard placement indicator).
    pub fn placing_problem(&self) -> Option<String> {
        let p = self.placing.as_ref()?;
        let lane = self.lanes().get(p.lane).cloned()?;
        let kind = match &p.source {
            PlaceSource::New(k) => *k,
            PlaceSource::Existing(i) => self.scenario.events.get(*i)?.kind(),
        };
        edit::can_place(kind, &lane, &self.scenario).err()
    }
}

fn step_by(cursor: Option<usize>, n: i32, last: Option<usize>) -> Option<usize> {
    let last = last? as i64;
    let at = cursor.map_or(-1, |c| c as i64) + i64::from(n);
    (at >= 0).then(|| at.min(last) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::invariants::InvariantId;

    fn lane(b: &str) -> Lane {
        Lane::Broker(b.to_string())
    }

    #[test]
    fn the_landing_shows_scenario_1_under_two_variants_on_its_last_step() {
        let m = Model::landing();
        assert_eq!(m.variants, LANDING_VARIANTS);
        assert_eq!(m.cursor, Some(9));
        assert_eq!(m.traces.len(), 2);
        assert!(m.traces[0].violations.iter().any(|v| v.invariant == InvariantId::I1 && !v.by_design));
        assert!(m.traces[1].violations.iter().all(|v| v.by_design));
        assert_eq!(m.first_difference, Some(8));
    }

    #[test]
    fn inserting_at_the_end_follows_the_end_and_shows_the_effect() {
        let m = Model::landing();
        let m = m.reduce(Action::Insert { position: 10, kind: EventKind::Crash, lane: lane("A") });
        assert_eq!(m.scenario.events.len(), 11);
        assert_eq!(m.cursor, Some(10));
        assert!(!m.traces[0].steps[10].state.replicas[0].up);
    }

    #[test]
    fn building_from_an_empty_scenario_follows_each_new_event() {
        let m = Model::new(Scenario::empty(), vec![Variant::Kip279], None);
        assert_eq!(m.cursor, None);
        let m = m.reduce(Action::Insert { position: 0, kind: EventKind::Elect, lane: Lane::Cluster });
        assert_eq!(m.cursor, Some(0));
        let m = m.reduce(Action::Insert { position: 1, kind: EventKind::Produce, lane: Lane::Cluster });
        assert_eq!(m.cursor, Some(1));
        // Before the first step of a non-empty timeline is not "the end": an insert leaves the cursor there.
        let m =
            m.reduce(Action::Home).reduce(Action::Insert { position: 2, kind: EventKind::Settle, lane: Lane::Cluster });
        assert_eq!(m.cursor, None);
    }

    #[test]
    fn editing_the_past_keeps_the_future_and_the_cursor_on_the_same_step() {
        let m = Model::landing().reduce(Action::SetCursor(Some(5)));
        let m = m.reduce(Action::Insert { position: 2, kind: EventKind::Flush, lane: lane("A") });
        assert_eq!(m.cursor, Some(6));
        assert_eq!(m.scenario.events.len(), 11);
        assert_eq!(m.scenario.events[10].kind(), EventKind::Crash);
        let m = m.reduce(Action::Remove(2));
        assert_eq!(m.cursor, Some(5));
        assert_eq!(m.scenario, presets::default_scenario().tap_variant(Variant::HwTruncation));
    }

    #[test]
    fn a_refused_drop_changes_nothing_and_says_why() {
        let m = Model::landing();
        let n = m.reduce(Action::Insert { position: 0, kind: EventKind::Fetch, lane: Lane::Cluster });
        assert_eq!(n.scenario, m.scenario);
        assert!(n.notice.as_ref().is_some_and(|n| n.error && n.text.contains("needs a broker")));
    }

    #[test]
    fn moving_a_chip_changes_its_step_and_its_broker() {
        let m = Model::landing().reduce(Action::Move { from: 7, to: 3, lane: lane("B") });
        assert_eq!(m.scenario.events[3], Event::Crash { broker: "B".into(), power: false, notify_controller: false });
    }

    #[test]
    fn cursor_moves_step_by_step_and_playback_stops_at_the_end() {
        let m = Model::landing().reduce(Action::Home);
        assert_eq!(m.cursor, None);
        let m = m.reduce(Action::StepBy(1)).reduce(Action::StepBy(1));
        assert_eq!(m.cursor, Some(1));
        let m = m.reduce(Action::StepBy(-5));
        assert_eq!(m.cursor, None);
        let m = m.reduce(Action::End).reduce(Action::TogglePlay);
        assert!(m.playing);
        assert_eq!(m.cursor, None, "play from the end restarts");
        let mut m = m;
        for _ in 0..20 {
            m = m.reduce(Action::Tick);
        }
        assert!(!m.playing);
        assert_eq!(m.cursor, Some(9));
    }

    #[test]
    fn variants_can_be_shown_up_to_four_and_never_none() {
        let m = Model::landing().reduce(Action::ToggleVariant(Variant::Kip101));
        assert_eq!(m.variants, [Variant::HwTruncation, Variant::Kip101, Variant::Kip279]);
        let m =
            m.reduce(Action::ToggleVariant(Variant::DivergingEpoch)).reduce(Action::ToggleVariant(Variant::Kafka21));
        assert_eq!(m.variants.len(), 4);
        assert!(m.notice.is_some());
        let m =
            Model::new(Scenario::empty(), vec![Variant::Kip279], None).reduce(Action::ToggleVariant(Variant::Kip279));
        assert_eq!(m.variants, [Variant::Kip279]);
    }

    #[test]
    fn keyboard_placement_chooses_lane_and_position_then_places() {
        let m = Model::new(Scenario::empty(), vec![Variant::Kip279], None);
        let m = m.reduce(Action::StartPlacing(PlaceSource::New(EventKind::Elect)));
        assert_eq!(m.placing.as_ref().map(|p| (p.lane, p.position)), Some((0, 0)));
        let m = m.reduce(Action::MovePlacing { dx: 0, dy: 5 });
        assert_eq!(m.placing.as_ref().map(|p| p.lane), Some(2), "clamped to the cluster lane");
        assert_eq!(m.placing_problem(), None);
        let m = m.reduce(Action::CommitPlacing);
        assert_eq!(m.scenario.events, [Event::Elect { broker: None, deliver: Default::default() }]);
        let m = m
            .reduce(Action::StartPlacing(PlaceSource::New(EventKind::Fetch)))
            .reduce(Action::MovePlacing { dx: 0, dy: 2 });
        assert!(m.placing_problem().is_some_and(|p| p.contains("needs a broker")));
        let m = m.reduce(Action::CancelPlacing);
        assert_eq!(m.placing, None);
        assert_eq!(m.scenario.events.len(), 1);
    }

    #[test]
    fn brokers_and_config_edits_rerun() {
        let m = Model::landing().reduce(Action::AddBroker);
        assert_eq!(m.scenario.brokers, ["A", "B", "C"]);
        assert_eq!(m.traces[0].initial.replicas.len(), 3);
        let m = m.reduce(Action::RenameBroker("C".into(), "carol".into()));
        assert_eq!(m.scenario.brokers[2], "carol");
        let m = m.reduce(Action::RenameBroker("carol".into(), "A".into()));
        assert!(m.notice.as_ref().is_some_and(|n| n.error));
        let m = m.reduce(Action::RemoveBroker("A".into()));
        assert_eq!(m.scenario.brokers, ["B", "carol"]);
        assert!(m.notice.as_ref().is_some_and(|n| n.text.contains("Removed broker A")));
        let m = m.reduce(Action::SetUnclean(true)).reduce(Action::ToggleFlag(Flag::Kip320));
        assert!(m.scenario.config.unclean_leader_election);
        assert_eq!(m.scenario.config.flags, [Flag::Kip320]);
    }

    #[test]
    fn a_view_only_embed_refuses_edits_but_lets_the_reader_step_and_choose_variants() {
        let mut m = Model::landing();
        m.read_only = true;
        let n = m.reduce(Action::Remove(0));
        assert_eq!(n.scenario, m.scenario);
        assert!(n.notice.as_ref().is_some_and(|n| n.text.contains("read-only")));
        let n = m.reduce(Action::StepBy(-1)).reduce(Action::ToggleVariant(Variant::Kip101));
        assert_eq!(n.cursor, Some(8));
        assert_eq!(n.variants.len(), 3);
        // Loading a scenario by message keeps it read-only.
        let n = m.reduce(Action::Replace(Box::new(Scenario::empty())));
        assert!(n.read_only);
    }

    #[test]
    fn an_import_brings_its_variants_and_cursor_and_says_so() {
        let imported = Snapshot {
            scenario: presets::find("happy-path").unwrap().scenario(),
            variants: vec![Variant::Kip101],
            cursor: Some(3),
        };
        let m = Model::landing().reduce(Action::Import(Box::new(imported)));
        assert_eq!(m.variants, [Variant::Kip101]);
        assert_eq!(m.cursor, Some(3));
        assert!(m.notice.as_ref().is_some_and(|n| !n.error && n.text.contains("Happy path")));
    }

    trait TapVariant {
        fn tap_variant(self, v: Variant) -> Self;
    }
    impl TapVariant for Scenario {
        fn tap_variant(mut self, v: Variant) -> Self {
            self.config.variant = v;
            self
        }
    }
}
