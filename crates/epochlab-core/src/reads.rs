//! What consumers saw: for each `consume` step, the records the consumer read (offset, record, from which
//! broker, below which HW), and for each of them whether it was later lost or rewritten on the leader, as
//! the I5 check (model §4, "consumer-visible record lost or rewritten": a phantom read) found it. Nothing is
//! re-derived here: the reads come from the steps' annotations and the losses from the trace's violations.

use serde::Serialize;

use crate::invariants::InvariantId;
use crate::state::BrokerId;
use crate::trace::{Annotation, Trace};

/// One `consume`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Read {
    /// Its step.
    pub step: u32,
    /// The broker read from.
    pub broker: BrokerId,
    /// That broker's HW then (the consumer sees everything below it).
    pub hw: u32,
    /// What it read, in offset order from 0.
    pub records: Vec<SeenRecord>,
}

/// One record a consumer read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeenRecord {
    /// Its offset.
    pub offset: u32,
    /// Its id.
    pub record: u32,
    /// Its label.
    pub label: String,
    /// Whether, and when, the leader lost it or holds another record there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost: Option<Loss>,
}

/// A phantom read: the I5 violation about the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Loss {
    /// The step from which the leader no longer holds it there.
    pub step: u32,
    /// Kafka never promised to keep it (unclean election, every ISR member lost power).
    pub by_design: bool,
    /// The checker's sentence.
    pub message: String,
}

impl SeenRecord {
    /// Lost by the cursor's step (`None`: before the first step).
    pub fn lost_by(&self, cursor: Option<usize>) -> Option<&Loss> {
        self.lost.as_ref().filter(|l| cursor.is_some_and(|c| l.step as usize <= c))
    }
}

/// Every `consume` of the run, in step order.
pub fn reads(trace: &Trace) -> Vec<Read> {
    let mut out = Vec::new();
    for step in &trace.steps {
        for a in &step.annotations {
            let Annotation::Consumed { broker, records } = a else { continue };
            let hw = step.state.replicas.get(*broker as usize).map_or(0, |r| r.hw);
            let records = records
                .iter()
                .enumerate()
                .map(|(offset, id)| SeenRecord {
                    offset: offset as u32,
                    record: *id,
                    label: trace.label(*id).to_string(),
                    lost: loss(trace, offset as u32, *id),
                })
                .collect();
            out.push(Read { step: step.index, broker: *broker, hw, records });
        }
    }
    out
}

fn loss(trace: &Trace, offset: u32, id: u32) -> Option<Loss> {
    trace
        .violations
        .iter()
        .find(|v| v.invariant == InvariantId::I5 && v.records.contains(&id) && v.offsets.contains(&offset))
        .map(|v| Loss { step: v.step, by_design: v.by_design, message: v.message.clone() })
}
