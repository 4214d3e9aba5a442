//! The CLI's JSON output (contract version 1): one object per variant run, with the steps, the final state
//! and each distinct violation at the first step where it holds. Brokers keep assignment order.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::invariants::InvariantId;
use crate::scenario::EventKind;
use crate::state::State;
use crate::trace::Trace;
use crate::variant::{Flag, Variant};
use crate::view::RoleView;

/// One variant run.
#[derive(Debug, Serialize)]
pub struct RunReport<'a> {
    /// Scenario name.
    pub scenario: &'a str,
    /// Variant id.
    pub variant: Variant,
    /// Flags in force.
    pub flags: &'a [Flag],
    /// One per event.
    pub steps: Vec<StepReport<'a>>,
    /// The state after the last event.
    #[serde(rename = "final")]
    pub final_state: FinalReport<'a>,
    /// Distinct violations.
    pub violations: Vec<ViolationReport<'a>>,
}

/// One step.
#[derive(Debug, Serialize)]
pub struct StepReport<'a> {
    /// Event index.
    pub index: u32,
    /// Event kind.
    pub kind: EventKind,
    /// `applied` or `rejected`.
    pub outcome: &'static str,
    /// Kafka's reason, when rejected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// The narration sentence.
    pub detail: &'a str,
}

/// The final state.
#[derive(Debug, Serialize)]
pub struct FinalReport<'a> {
    /// Controller view.
    pub controller: ControllerReport<'a>,
    /// Brokers by name, in assignment order.
    pub brokers: Brokers<'a>,
}

/// `{"leader": "A", "leader_epoch": 1, "isr": ["A"]}`.
#[derive(Debug, Serialize)]
pub struct ControllerReport<'a> {
    /// Leader name, or null.
    pub leader: Option<&'a str>,
    /// Current epoch.
    pub leader_epoch: i32,
    /// ISR names.
    pub isr: Vec<&'a str>,
}

/// The brokers map, serialised in assignment order.
#[derive(Debug)]
pub struct Brokers<'a> {
    trace: &'a Trace,
    state: &'a State,
}

/// A record as the contract shows it.
#[derive(Debug, Serialize)]
pub struct RecordReport<'a> {
    /// Label.
    pub record: &'a str,
    /// Epoch.
    pub epoch: i32,
}

#[derive(Debug, Serialize)]
struct BrokerReport<'a> {
    up: bool,
    role: &'static str,
    leader_epoch: i32,
    log: Vec<RecordReport<'a>>,
    leo: u32,
    hw: u32,
    hw_checkpoint: u32,
    flushed: u32,
    epoch_cache: Vec<[i64; 2]>,
}

/// One violation.
#[derive(Debug, Serialize)]
pub struct ViolationReport<'a> {
    /// Invariant id.
    pub invariant: InvariantId,
    /// First step where it holds.
    pub step: u32,
    /// Allowed by Kafka's guarantees.
    pub by_design: bool,
    /// What happened.
    pub message: &'a str,
}

impl Serialize for Brokers<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.state.replicas.len()))?;
        for (b, r) in self.state.replicas.iter().enumerate() {
            let report = BrokerReport {
                up: r.up,
                role: RoleView::of(r).id(),
                leader_epoch: r.known_epoch,
                log: r.log.iter().map(|e| RecordReport { record: self.trace.label(e.id), epoch: e.epoch }).collect(),
                leo: r.leo(),
                hw: r.hw,
                hw_checkpoint: r.hw_checkpoint,
                flushed: r.flushed,
                epoch_cache: r
                    .epoch_cache
                    .entries()
                    .iter()
                    .map(|e| [i64::from(e.epoch), i64::from(e.start_offset)])
                    .collect(),
            };
            map.serialize_entry(self.trace.broker_name(b as u8), &report)?;
        }
        map.end()
    }
}

impl<'a> RunReport<'a> {
    /// The contract view of a trace.
    pub fn new(trace: &'a Trace) -> RunReport<'a> {
        let state = trace.final_state();
        let c = &state.controller;
        RunReport {
            scenario: &trace.scenario,
            variant: trace.variant,
            flags: &trace.flags,
            steps: trace
                .steps
                .iter()
                .map(|s| StepReport {
                    index: s.index,
                    kind: s.kind,
                    outcome: s.outcome.label(),
                    reason: s.outcome.reason(),
                    detail: &s.narration,
                })
                .collect(),
            final_state: FinalReport {
                controller: ControllerReport {
                    leader: c.leader.map(|l| trace.broker_name(l)),
                    leader_epoch: c.leader_epoch,
                    isr: c.isr.iter().map(|b| trace.broker_name(b)).collect(),
                },
                brokers: Brokers { trace, state },
            },
            violations: trace
                .violations
                .iter()
                .map(|v| ViolationReport {
                    invariant: v.invariant,
                    step: v.step,
                    by_design: v.by_design,
                    message: &v.message,
                })
                .collect(),
        }
    }
}

/// The contract's `--json` output for several runs: a pretty-printed array.
pub fn runs_json(traces: &[Trace]) -> String {
    let reports: Vec<RunReport<'_>> = traces.iter().map(RunReport::new).collect();
    serde_json::to_string_pretty(&reports).unwrap_or_default()
}
