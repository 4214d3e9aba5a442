//! The invariants of model §4, checked after every step, one file each. Ids are the contract's.
//!
//! The checker keeps a [`History`] (what was ever committed, acknowledged or consumed; unclean elections and
//! power losses) so that a loss can be told apart as *by design* (Kafka never promised to keep the record)
//! or a *bug* in the protocol variant.

mod history;
mod i1_committed_loss;
mod i2_acked_loss;
mod i3_divergence;
mod i4_isr_consistency;
mod i5_consumer_visible;
mod i7_epoch_order;
mod id;
mod l1_leader_in_isr;
mod o1_hw_regression;

pub use history::History;
pub(crate) use history::StepRanks;
pub use id::InvariantId;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::record::RecordInfo;
use crate::state::{BrokerId, Entry, State};

/// One distinct violation, reported at the first step where it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Contract id: I1 … L1.
    pub invariant: InvariantId,
    /// The first step where it holds.
    pub step: u32,
    /// Kafka never promised otherwise (unclean election, all ISR members lost power, acks=1, or O1).
    pub by_design: bool,
    /// Names the records, offsets, brokers and epochs involved.
    pub message: String,
    /// Brokers involved (for highlighting).
    pub brokers: Vec<BrokerId>,
    /// Offsets involved (for highlighting).
    pub offsets: Vec<u32>,
    /// Records involved (I1, I2, I5: the record lost), by id.
    pub records: Vec<u32>,
}

/// The identity of a violation across steps: the invariant and up to four numbers that pin it down (a
/// record, an offset, brokers, ids). Cheap to build, so a violation that keeps holding costs no formatting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Key(pub(crate) InvariantId, pub(crate) i64, pub(crate) i64, pub(crate) i64, pub(crate) i64);

/// Where checks report: known violations are only noted as holding; new ones are built once.
pub(crate) struct Sink<'a> {
    known: &'a mut Arc<BTreeMap<Key, u16>>,
    all: &'a mut Arc<Vec<Violation>>,
    holding: Vec<u16>,
}

impl Sink<'_> {
    /// Report that the violation `key` holds now; `make` builds it the first time only (and only then are
    /// the shared maps copied).
    pub(crate) fn report(&mut self, key: Key, make: impl FnOnce() -> Violation) {
        let index = match self.known.get(&key) {
            Some(index) => *index,
            None => {
                let next = self.all.len() as u16;
                Arc::make_mut(self.known).insert(key, next);
                Arc::make_mut(self.all).push(make());
                next
            }
        };
        self.holding.push(index);
    }
}

/// What an invariant check reads.
pub(crate) struct Ctx<'a> {
    pub(crate) state: &'a State,
    pub(crate) history: &'a History,
    pub(crate) records: &'a [RecordInfo],
    pub(crate) brokers: &'a [String],
    pub(crate) step: u32,
    /// Whether losing power on every ISR member voids Kafka's guarantee: yes, except with KIP-966's ELR,
    /// which keeps a replica that lost power from leading (model §4, §12.12).
    pub(crate) power_loss_voids_guarantee: bool,
}

impl Ctx<'_> {
    /// Why Kafka's guarantee no longer covers a record written at `written`, if it does not.
    pub(crate) fn loss_by_design(&self, written: u32) -> Option<&'static str> {
        self.history.loss_by_design(written, self.power_loss_voids_guarantee)
    }

    pub(crate) fn name(&self, b: BrokerId) -> &str {
        self.brokers.get(b as usize).map_or("?", String::as_str)
    }
    pub(crate) fn label(&self, id: u32) -> &str {
        self.records.get(id as usize).map_or("?", |r| r.label.as_str())
    }
    /// `m2 (epoch 0)`, or `nothing` for a missing record.
    pub(crate) fn describe(&self, id: Option<u32>) -> String {
        match id {
            Some(id) => format!("{} (epoch {})", self.label(id), self.records.get(id as usize).map_or(-1, |r| r.epoch)),
            None => "nothing".to_string(),
        }
    }
    pub(crate) fn violation(
        &self,
        invariant: InvariantId,
        by_design: bool,
        message: String,
        brokers: Vec<BrokerId>,
        offsets: Vec<u32>,
        records: Vec<u32>,
    ) -> Violation {
        Violation { invariant, step: self.step, by_design, message, brokers, offsets, records }
    }
}

/// Check every invariant after a step. New violations are appended to `all` (and remembered in `known`);
/// the result lists the indices into `all` of every violation holding now.
pub(crate) fn check(ctx: &Ctx<'_>, known: &mut Arc<BTreeMap<Key, u16>>, all: &mut Arc<Vec<Violation>>) -> Vec<u16> {
    let mut sink = Sink { known, all, holding: Vec::new() };
    i1_committed_loss::check(ctx, &mut sink);
    i2_acked_loss::check(ctx, &mut sink);
    i3_divergence::check(ctx, &mut sink);
    i4_isr_consistency::check(ctx, &mut sink);
    i5_consumer_visible::check(ctx, &mut sink);
    i7_epoch_order::check(ctx, &mut sink);
    o1_hw_regression::check(ctx, &mut sink);
    l1_leader_in_isr::check(ctx, &mut sink);
    sink.holding
}

/// Shared by I1, I2 and I5: the true leader's log, if there is a true leader (with none, nothing is missing
/// on it). Each checks every record it ever covered at every step, so the leader is looked up once per check
/// and a record still in place costs one comparison.
pub(crate) fn leader_log<'a>(ctx: &Ctx<'a>) -> Option<&'a [Entry]> {
    ctx.state.true_leader().map(|l| ctx.state.replica(l).log.as_slice())
}

/// Whether record `id` is at `offset` in `log`.
pub(crate) fn holds(log: &[Entry], offset: u32, id: u32) -> bool {
    log.get(offset as usize).is_some_and(|e| e.id == id)
}

/// Shared by I1, I2 and I5: is record `id` still at `offset` on the true leader? `None` when it is (or when
/// there is no true leader to ask); otherwise what the leader holds there.
pub(crate) fn missing_on_leader(ctx: &Ctx<'_>, offset: u32, id: u32) -> Option<(BrokerId, Option<u32>)> {
    let tl = ctx.state.true_leader()?;
    let there = ctx.state.replica(tl).id_at(offset);
    (there != Some(id)).then_some((tl, there))
}

/// Shared by I1, I2 and I5: if record `id` is no longer at `offset` on the true leader, report it. `head`
/// says what was promised ("m2 at offset 1 was committed (step 5) and is"); `by_design` says why Kafka never
/// promised to keep it, if it did not. Both are evaluated only the first time the loss is seen.
pub(crate) fn report_loss(
    ctx: &Ctx<'_>,
    out: &mut Sink<'_>,
    invariant: InvariantId,
    (offset, id): (u32, u32),
    by_design: impl FnOnce() -> Option<&'static str>,
    head: impl FnOnce() -> String,
) {
    let Some((leader, there)) = missing_on_leader(ctx, offset, id) else { return };
    out.report(Key(invariant, i64::from(id), 0, 0, 0), || {
        let by_design = by_design();
        let why = by_design.map_or(String::new(), |w| format!(" (allowed: {w})"));
        let message = format!("{} gone from leader {}{}{why}", head(), ctx.name(leader), instead(ctx, there));
        ctx.violation(invariant, by_design.is_some(), message, vec![leader], vec![offset], vec![id])
    });
}

/// When a record was written (for the by-design rules).
pub(crate) fn written_at(ctx: &Ctx<'_>, id: u32) -> u32 {
    ctx.records.get(id as usize).map_or(0, |r| r.step)
}

/// " and holds m3 (epoch 1) there instead", or "".
pub(crate) fn instead(ctx: &Ctx<'_>, there: Option<u32>) -> String {
    there.map_or(String::new(), |id| format!(", which holds {} there instead", ctx.describe(Some(id))))
}

/// An optional record id as a key number (-1: none).
pub(crate) fn id_key(id: Option<u32>) -> i64 {
    id.map_or(-1, i64::from)
}
