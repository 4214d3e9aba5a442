//! The invariants of spec §4, checked after every step, one file each. Ids are the contract's.
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
mod l1_leader_in_isr;
mod o1_hw_regression;

pub use history::History;

use serde::Serialize;

use crate::state::{BrokerId, State};
use crate::trace::RecordInfo;

/// Every invariant the checker reports, with its contract id and name.
pub const INVARIANTS: [(&str, &str); 8] = [
    ("I1", "committed-data loss"),
    ("I2", "acknowledged-write loss"),
    ("I3", "divergence after truncation"),
    ("I4", "ISR inconsistent below the HW"),
    ("I5", "consumer-visible record lost or rewritten"),
    ("I7", "record epochs decreasing along a log"),
    ("O1", "HW went backwards"),
    ("L1", "leader not in the ISR"),
];

/// The name of an invariant id, e.g. `committed-data loss` for `I1`.
pub fn invariant_name(id: &str) -> &'static str {
    INVARIANTS.iter().find(|(i, _)| *i == id).map_or("unknown invariant", |(_, n)| n)
}

/// One distinct violation, reported at the first step where it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Contract id: I1 … L1.
    pub invariant: &'static str,
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
    /// Identity of the violation across steps.
    #[serde(skip)]
    pub key: String,
}

/// What an invariant check reads.
pub(crate) struct Ctx<'a> {
    pub(crate) state: &'a State,
    pub(crate) history: &'a History,
    pub(crate) records: &'a [RecordInfo],
    pub(crate) brokers: &'a [String],
    pub(crate) step: u32,
}

impl Ctx<'_> {
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
        invariant: &'static str,
        key: String,
        by_design: bool,
        message: String,
        brokers: Vec<BrokerId>,
        offsets: Vec<u32>,
    ) -> Violation {
        Violation { invariant, step: self.step, by_design, message, brokers, offsets, key }
    }
}

/// Record what this step made committed or exposed, then check every invariant.
pub(crate) fn check(ctx: &Ctx<'_>) -> Vec<Violation> {
    let mut found = Vec::new();
    i1_committed_loss::check(ctx, &mut found);
    i2_acked_loss::check(ctx, &mut found);
    i3_divergence::check(ctx, &mut found);
    i4_isr_consistency::check(ctx, &mut found);
    i5_consumer_visible::check(ctx, &mut found);
    i7_epoch_order::check(ctx, &mut found);
    o1_hw_regression::check(ctx, &mut found);
    l1_leader_in_isr::check(ctx, &mut found);
    found
}

/// Shared by I1, I2 and I5: is record `id` still at `offset` on the true leader? `None` when it is (or when
/// there is no true leader to ask); otherwise what the leader holds there.
pub(crate) fn missing_on_leader(ctx: &Ctx<'_>, offset: u32, id: u32) -> Option<(BrokerId, Option<u32>)> {
    let tl = ctx.state.true_leader()?;
    let there = ctx.state.replica(tl).id_at(offset);
    (there != Some(id)).then_some((tl, there))
}

/// " and holds m3 (epoch 1) there instead", or "".
pub(crate) fn instead(ctx: &Ctx<'_>, there: Option<u32>) -> String {
    there.map_or(String::new(), |id| format!(", which holds {} there instead", ctx.describe(Some(id))))
}
