//! The view model: what a UI draws for one variant at one step, computed here so that no rule is re-derived
//! in components and every status is tested natively.
//!
//! Logs are laid out on one offset grid shared by every broker (one column is one offset). A cell's status
//! compares it with the true leader: committed (below the leader's HW and the same record), uncommitted,
//! divergent (a different record from the leader's at that offset, marked on both rows), truncated (a ghost
//! of a record some step removed), or lost (a committed record now missing or replaced on the leader).
//!
//! Red means a bug, only: a difference or a loss is `Divergent` or `Lost` only when a violation that is not
//! by design holds on that broker now. A difference no bug explains (a follower that has not truncated yet)
//! is `Differs`, and a loss Kafka allows (an unclean election, acks=1, a power loss) is `LostAllowed`.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Serialize;

use crate::epoch_cache::EpochEntry;
use crate::invariants::{InvariantId, Violation};
use crate::state::{BrokerId, FetchState, Replica, Role, State};
use crate::trace::{Annotation, Outcome, Trace, TruncateCause};

pub mod summary;
mod words;

/// A record as drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CellRecord {
    /// Unique id.
    pub id: u32,
    /// Label.
    pub label: String,
    /// Leader epoch (the cell's colour).
    pub epoch: i32,
}

/// A cell's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CellStatus {
    /// No record and nothing to recall.
    Empty,
    /// Below the leader's HW, and the leader holds the same record.
    Committed,
    /// Present, not (yet) committed.
    Uncommitted,
    /// A different record from the leader's at this offset, and a bug (an invariant that is not by design
    /// fails on this broker now): both rows are marked.
    Divergent,
    /// A different record from the leader's that no bug explains (yet): a follower that has not truncated,
    /// a broker that is down.
    Differs,
    /// No record now; a step removed one (see the ghost).
    Truncated,
    /// On the leader: a committed record is missing or replaced here, and Kafka promised to keep it (a bug).
    Lost,
    /// On the leader: a committed record is missing or replaced here, as Kafka allows (by design: an unclean
    /// election, acks=1, every replica losing power).
    LostAllowed,
}

impl CellStatus {
    /// The CSS-friendly name.
    pub fn as_str(self) -> &'static str {
        match self {
            CellStatus::Empty => "empty",
            CellStatus::Committed => "committed",
            CellStatus::Uncommitted => "uncommitted",
            CellStatus::Divergent => "divergent",
            CellStatus::Differs => "differs",
            CellStatus::Truncated => "truncated",
            CellStatus::Lost => "lost",
            CellStatus::LostAllowed => "lost_allowed",
        }
    }
}

/// A record a step removed from this broker at this offset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ghost {
    /// The record.
    pub record: CellRecord,
    /// The step that removed it.
    pub step: u32,
    /// Why.
    pub cause: TruncateCause,
}

impl Ghost {
    /// Hover text: "m2 removed at step 8: truncated to its own high watermark on becoming follower".
    pub fn explain(&self) -> String {
        format!("{} removed at step {}: {}", self.record.label, self.step, self.cause.describe())
    }
}

/// One cell of the offset grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// Offset (column).
    pub offset: u32,
    /// The record held, if any.
    pub record: Option<CellRecord>,
    /// Status.
    pub status: CellStatus,
    /// The latest record removed here, if it has not come back.
    pub ghost: Option<Ghost>,
    /// On the leader: the committed record that is missing or replaced here (also set on a divergent cell).
    pub lost: Option<CellRecord>,
    /// That loss is one Kafka allows (by design).
    pub lost_allowed: bool,
    /// Touched by the current step (appended or truncated).
    pub changed: bool,
    /// Named by a violation holding now that is a bug.
    pub flagged: bool,
    /// Named by a by-design violation holding now (an allowed loss), and by no bug.
    pub allowed: bool,
}

/// How a broker is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RoleView {
    /// The true leader (or a broker that believes it leads).
    Leader,
    /// A follower.
    Follower,
    /// Down.
    Down,
    /// A zombie.
    Zombie,
    /// Up, no role (no LeaderAndIsr yet, or offline).
    None,
}

impl RoleView {
    /// What a replica shows as: down and zombie first, then what it believes it is.
    pub fn of(r: &Replica) -> RoleView {
        match (r.up, r.zombie, r.role) {
            (false, _, _) => RoleView::Down,
            (true, true, _) => RoleView::Zombie,
            (true, false, Role::Leader) => RoleView::Leader,
            (true, false, Role::Follower) => RoleView::Follower,
            (true, false, Role::None) => RoleView::None,
        }
    }

    /// The contract's role word: `leader`, `follower`, `down`, `zombie` or `none` (also a CSS class).
    pub fn id(self) -> &'static str {
        match self {
            RoleView::Leader => "leader",
            RoleView::Follower => "follower",
            RoleView::Down => "down",
            RoleView::Zombie => "zombie",
            RoleView::None => "none",
        }
    }

    /// The role in words for a reader; `stale`: a leader the controller has replaced.
    pub fn words(self, stale: bool) -> &'static str {
        match self {
            RoleView::Leader if stale => "stale leader",
            RoleView::None => "no leader known",
            other => other.id(),
        }
    }
}

/// One broker's row and panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BrokerView {
    /// Assignment position.
    pub id: BrokerId,
    /// Name.
    pub name: String,
    /// Role badge.
    pub role: RoleView,
    /// Believes it leads but is not the controller's leader in the current epoch.
    pub stale_leader: bool,
    /// Epoch of the last LeaderAndIsr applied.
    pub known_epoch: i32,
    /// Leader it follows (or itself).
    pub known_leader: Option<String>,
    /// Member of the controller's ISR.
    pub in_isr: bool,
    /// Member of KIP-966's Eligible Leader Replicas.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_elr: bool,
    /// Leader only: its own ISR view.
    pub leader_isr: Vec<String>,
    /// Fetcher state.
    pub fetch_state: FetchState,
    /// High watermark.
    pub hw: u32,
    /// Log end offset.
    pub leo: u32,
    /// Persisted HW.
    pub hw_checkpoint: u32,
    /// Flushed offset.
    pub flushed: u32,
    /// Epoch cache.
    pub epoch_cache: Vec<EpochEntry>,
    /// The cache as Kafka's `leader-epoch-checkpoint` file.
    pub checkpoint_file: String,
    /// The offset grid, `width` cells.
    pub cells: Vec<Cell>,
}

/// Everything drawn for one variant at one step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepView {
    /// The step shown (`None`: before the first event).
    pub step: Option<u32>,
    /// Number of offset columns.
    pub width: u32,
    /// Controller: leader name, epoch, ISR names.
    pub controller_leader: Option<String>,
    /// Controller epoch.
    pub controller_epoch: i32,
    /// KRaft's partition epoch, shown beside the leader epoch (`None` under ZooKeeper, model §13.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition_epoch: Option<i32>,
    /// Controller ISR.
    pub controller_isr: Vec<String>,
    /// KIP-966's Eligible Leader Replicas (empty without ELR).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub controller_elr: Vec<String>,
    /// One per broker.
    pub brokers: Vec<BrokerView>,
    /// Narration of the step (empty before the first event).
    pub narration: String,
    /// Rejection reason, if the step was rejected.
    pub rejected: Option<&'static str>,
    /// Violations holding after the step.
    pub violations: Vec<Violation>,
}

impl StepView {
    /// The offsets this step is about, for a log view too narrow to show every offset: the cells the step
    /// appended or truncated and those a violation points at; failing those, the commit frontier (from just
    /// below the highest HW up to the highest LEO). `None` when every log is empty.
    pub fn focus(&self) -> Option<Range<u32>> {
        let cells = self.brokers.iter().flat_map(|b| b.cells.iter().filter(|c| c.changed || c.flagged));
        let marked = cells.fold(None, |span: Option<Range<u32>>, c| {
            Some(span.map_or(c.offset..c.offset + 1, |s| s.start.min(c.offset)..s.end.max(c.offset + 1)))
        });
        if marked.is_some() {
            return marked;
        }
        let hw = self.brokers.iter().map(|b| b.hw).max()?;
        let leo = self.brokers.iter().map(|b| b.leo).max()?;
        (leo > 0).then(|| hw.saturating_sub(1).min(leo - 1)..leo)
    }
}

/// The view of `trace` after `step` (`None`: the initial state). `min_width` lets side-by-side views share
/// one grid.
pub fn view(trace: &Trace, step: Option<usize>, min_width: u32) -> StepView {
    let step = step.filter(|_| !trace.steps.is_empty()).map(|s| s.min(trace.steps.len() - 1));
    let state = trace.state_at(step);
    let ghosts = ghosts(trace, state, step);
    let current = step.map(|i| &trace.steps[i]);
    // A step names its violations by index into the trace's list; a trace drawn with its verdicts withheld
    // (while a lesson's question is open, the shell's `model::question`) has an empty list, and then none hold.
    let violations: Vec<Violation> = current.map_or_else(Vec::new, |s| {
        s.violations.iter().filter_map(|&i| trace.violations.get(i as usize).cloned()).collect()
    });
    // I1 holds exactly when a committed record is missing or replaced on the true leader: its offset and
    // record, and whether Kafka allows that loss.
    let lost: Vec<Loss> = violations
        .iter()
        .filter(|v| v.invariant == InvariantId::I1)
        .filter_map(|v| Some(Loss { offset: *v.offsets.first()?, record: *v.records.first()?, allowed: v.by_design }))
        .collect();
    let tl = state.true_leader();
    let width = grid_width(state, &ghosts, &lost, min_width);

    let mut brokers: Vec<BrokerView> =
        state.replicas.iter().enumerate().map(|(b, r)| broker_view(trace, state, b as BrokerId, r, width)).collect();
    for (b, bv) in brokers.iter_mut().enumerate() {
        let b = b as BrokerId;
        for cell in &mut bv.cells {
            cell.status = status(state, tl, b, cell.offset);
            cell.ghost = ghosts.get(&(b, cell.offset)).cloned();
            if cell.record.is_none() && cell.ghost.is_some() {
                cell.status = CellStatus::Truncated;
            }
        }
    }
    if let Some(tl) = tl {
        mark_divergence(&mut brokers, tl, &violations);
        mark_lost(trace, &mut brokers[tl as usize], &lost);
    }
    if let Some(s) = current {
        mark_changes(&mut brokers, &s.annotations);
    }
    mark_flagged(&mut brokers, &violations);

    let c = &state.controller;
    StepView {
        step: step.map(|s| s as u32),
        width,
        controller_leader: c.leader.map(|l| trace.broker_name(l).to_string()),
        controller_epoch: c.leader_epoch,
        partition_epoch: trace.rules.control.kraft().then_some(c.partition_epoch),
        controller_isr: c.isr.iter().map(|b| trace.broker_name(b).to_string()).collect(),
        controller_elr: c.elr.iter().map(|b| trace.broker_name(b).to_string()).collect(),
        brokers,
        narration: current.map_or_else(String::new, |s| s.narration.clone()),
        rejected: current.and_then(|s| match s.outcome {
            Outcome::Rejected { reason } => Some(reason.name()),
            Outcome::Applied => None,
        }),
        violations,
    }
}

/// A committed record the leader no longer holds at its offset (from an I1 violation).
struct Loss {
    offset: u32,
    record: u32,
    /// By design: Kafka never promised to keep it.
    allowed: bool,
}

/// Enough columns for every log, every ghost and every lost record.
fn grid_width(state: &State, ghosts: &BTreeMap<(BrokerId, u32), Ghost>, lost: &[Loss], min_width: u32) -> u32 {
    let logs = state.replicas.iter().map(|r| r.leo());
    let ghosts = ghosts.keys().map(|&(_, o)| o + 1);
    let lost = lost.iter().map(|l| l.offset + 1);
    logs.chain(ghosts).chain(lost).fold(min_width, u32::max)
}

/// The cells the holding violations name: bugs are flagged, by-design ones marked allowed.
fn mark_flagged(brokers: &mut [BrokerView], violations: &[Violation]) {
    for v in violations {
        for &b in &v.brokers {
            let Some(bv) = brokers.get_mut(b as usize) else { continue };
            for &o in &v.offsets {
                if let Some(c) = bv.cells.get_mut(o as usize) {
                    c.flagged |= !v.by_design;
                    c.allowed |= v.by_design;
                }
            }
        }
    }
    for c in brokers.iter_mut().flat_map(|b| b.cells.iter_mut()) {
        c.allowed &= !c.flagged;
    }
}

/// Views of several traces of one scenario at one step, on one shared grid width.
pub fn views(traces: &[Trace], step: Option<usize>) -> Vec<StepView> {
    let mut views: Vec<StepView> = traces.iter().map(|t| view(t, step, 0)).collect();
    let width = views.iter().map(|v| v.width).max().unwrap_or(0);
    for v in &mut views {
        widen(v, width);
    }
    views
}

/// Extend a view's grid with empty cells: past its own width nothing is held, truncated or lost.
fn widen(view: &mut StepView, width: u32) {
    for b in &mut view.brokers {
        let from = b.cells.len() as u32;
        b.cells.extend((from..width).map(|offset| Cell {
            offset,
            record: None,
            status: CellStatus::Empty,
            ghost: None,
            lost: None,
            lost_allowed: false,
            changed: false,
            flagged: false,
            allowed: false,
        }));
    }
    view.width = view.width.max(width);
}

fn record(trace: &Trace, id: u32) -> CellRecord {
    let info = trace.records.get(id as usize);
    CellRecord { id, label: trace.label(id).to_string(), epoch: info.map_or(-1, |r| r.epoch) }
}

fn broker_view(trace: &Trace, state: &State, b: BrokerId, r: &Replica, width: u32) -> BrokerView {
    let c = &state.controller;
    let role = RoleView::of(r);
    let cells = (0..width)
        .map(|offset| Cell {
            offset,
            record: r.log.get(offset as usize).map(|e| record(trace, e.id)),
            status: CellStatus::Empty,
            ghost: None,
            lost: None,
            lost_allowed: false,
            changed: false,
            flagged: false,
            allowed: false,
        })
        .collect();
    BrokerView {
        id: b,
        name: trace.broker_name(b).to_string(),
        role,
        stale_leader: r.is_acting_leader() && state.true_leader() != Some(b),
        known_epoch: r.known_epoch,
        known_leader: r.known_leader.map(|l| trace.broker_name(l).to_string()),
        in_isr: c.isr.contains(b),
        in_elr: c.elr.contains(b),
        leader_isr: if r.role == Role::Leader {
            r.isr.iter().map(|m| trace.broker_name(m).to_string()).collect()
        } else {
            Vec::new()
        },
        fetch_state: r.fetch_state,
        hw: r.hw,
        leo: r.leo(),
        hw_checkpoint: r.hw_checkpoint,
        flushed: r.flushed,
        epoch_cache: r.epoch_cache.entries().to_vec(),
        checkpoint_file: r.epoch_cache.checkpoint_file(),
        cells,
    }
}

/// Committed / uncommitted / divergent for a cell that holds a record.
fn status(state: &State, tl: Option<BrokerId>, b: BrokerId, offset: u32) -> CellStatus {
    let r = state.replica(b);
    let Some(id) = r.id_at(offset) else { return CellStatus::Empty };
    match tl {
        Some(l) => {
            let leader = state.replica(l);
            match leader.id_at(offset) {
                Some(lid) if lid != id => CellStatus::Divergent,
                Some(_) if offset < leader.hw => CellStatus::Committed,
                _ => CellStatus::Uncommitted,
            }
        }
        None if offset < r.hw => CellStatus::Committed,
        None => CellStatus::Uncommitted,
    }
}

/// Whether a bug (a violation that is not by design) holds on broker `b` now.
fn bug_on(violations: &[Violation], b: BrokerId) -> bool {
    violations.iter().any(|v| !v.by_design && v.brokers.contains(&b))
}

/// A follower cell that differs from the leader marks the leader's cell at that offset too. A difference is
/// red (`Divergent`) only while a bug holds on that follower; otherwise it `Differs`.
fn mark_divergence(brokers: &mut [BrokerView], tl: BrokerId, violations: &[Violation]) {
    let mut marks = Vec::new();
    for bv in brokers.iter_mut().filter(|bv| bv.id != tl) {
        let bug = bug_on(violations, bv.id);
        for c in bv.cells.iter_mut().filter(|c| c.status == CellStatus::Divergent) {
            if !bug {
                c.status = CellStatus::Differs;
            }
            marks.push((c.offset, c.status));
        }
    }
    for (o, status) in marks {
        if let Some(c) = brokers[tl as usize].cells.get_mut(o as usize) {
            // A bug on any follower at this offset outranks a difference elsewhere.
            if c.status != CellStatus::Divergent {
                c.status = status;
            }
        }
    }
}

/// Committed records that the leader no longer holds at their offset.
fn mark_lost(trace: &Trace, leader: &mut BrokerView, lost: &[Loss]) {
    for l in lost {
        let Some(cell) = leader.cells.get_mut(l.offset as usize) else { continue };
        // A divergence stays visible as such (both rows are outlined); the lost record is still named.
        if !matches!(cell.status, CellStatus::Divergent | CellStatus::Differs) {
            cell.status = if l.allowed { CellStatus::LostAllowed } else { CellStatus::Lost };
        }
        // A bug's loss wins over an allowed one at the same offset.
        if cell.lost.is_none() || !l.allowed {
            cell.lost = Some(record(trace, l.record));
            cell.lost_allowed = l.allowed;
        }
    }
}

fn mark_changes(brokers: &mut [BrokerView], annotations: &[Annotation]) {
    for a in annotations {
        let (b, from, n) = match a {
            Annotation::Appended { broker, from, records } => (*broker, *from, records.len() as u32),
            Annotation::Truncated { broker, to, removed, .. } => (*broker, *to, removed.len() as u32),
            _ => continue,
        };
        if let Some(bv) = brokers.get_mut(b as usize) {
            for c in bv.cells.iter_mut().skip(from as usize).take(n as usize) {
                c.changed = true;
            }
        }
    }
}

/// The latest record removed at each (broker, offset) up to `step`, unless the same record is back there.
fn ghosts(trace: &Trace, state: &State, step: Option<usize>) -> BTreeMap<(BrokerId, u32), Ghost> {
    let mut ghosts = BTreeMap::new();
    let Some(last) = step else { return ghosts };
    for s in &trace.steps[..=last] {
        for a in &s.annotations {
            if let Annotation::Truncated { broker, to, removed, cause } = a {
                for (i, &id) in removed.iter().enumerate() {
                    let offset = to + i as u32;
                    ghosts.insert((*broker, offset), Ghost { record: record(trace, id), step: s.index, cause: *cause });
                }
            }
        }
    }
    // Kept by inserting into a new map: `retain` would compile the map's node rebalancing into the page.
    let mut kept = BTreeMap::new();
    for ((b, o), g) in ghosts {
        if state.replica(b).id_at(o) != Some(g.record.id) {
            kept.insert((b, o), g);
        }
    }
    kept
}
