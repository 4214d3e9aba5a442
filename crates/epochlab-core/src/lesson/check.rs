//! How a lesson task is graded: a predicate over the learner's scenario and its runs.

use crate::invariants::InvariantId;
use crate::scenario::{EventKind, Scenario};
use crate::trace::{Annotation, Trace};
use crate::variant::Variant;

/// A predicate over a scenario, run under the variants it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// This invariant fails as a bug (not an allowed loss) at some step under the variant.
    Fails {
        /// Under this variant.
        variant: Variant,
        /// This invariant.
        invariant: InvariantId,
    },
    /// No invariant fails as a bug at any step under the variant.
    Holds {
        /// Under this variant.
        variant: Variant,
    },
    /// No election under the variant is unclean.
    NoUncleanElection {
        /// Under this variant.
        variant: Variant,
    },
    /// The timeline holds an event of this kind.
    HasEvent {
        /// The kind.
        kind: EventKind,
    },
    /// At the end, the broker's log holds exactly these records (by name) under the variant.
    LogIs {
        /// Under this variant.
        variant: Variant,
        /// The broker.
        broker: String,
        /// Record names, in offset order.
        records: Vec<String>,
    },
    /// Every one of these.
    All(Vec<Check>),
}

impl Check {
    /// The check as a lesson file writes it.
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Check::Fails { variant, invariant } => json!({"fails": invariant.id(), "variant": variant.id()}),
            Check::Holds { variant } => json!({"holds": variant.id()}),
            Check::NoUncleanElection { variant } => json!({"no_unclean_election": variant.id()}),
            Check::HasEvent { kind } => json!({"has_event": kind.id()}),
            Check::LogIs { variant, broker, records } => {
                json!({"log_is": records, "broker": broker, "variant": variant.id()})
            }
            Check::All(checks) => json!({"all": checks.iter().map(Check::to_value).collect::<Vec<_>>()}),
        }
    }

    /// Whether `scenario` satisfies the check.
    pub fn passes(&self, scenario: &Scenario) -> bool {
        let run = |v: &Variant| crate::run_variant(scenario, *v);
        match self {
            Check::Fails { variant, invariant } => {
                run(variant).violations.iter().any(|v| v.invariant == *invariant && !v.by_design)
            }
            Check::Holds { variant } => run(variant).first_bug_step().is_none(),
            Check::NoUncleanElection { variant } => !has_unclean_election(&run(variant)),
            Check::HasEvent { kind } => scenario.events.iter().any(|e| e.kind() == *kind),
            Check::LogIs { variant, broker, records } => final_log(&run(variant), scenario, broker) == *records,
            Check::All(checks) => checks.iter().all(|c| c.passes(scenario)),
        }
    }
}

fn has_unclean_election(trace: &Trace) -> bool {
    trace.steps.iter().flat_map(|s| &s.annotations).any(|a| matches!(a, Annotation::Elected { unclean: true, .. }))
}

fn final_log(trace: &Trace, scenario: &Scenario, broker: &str) -> Vec<String> {
    let Some(b) = scenario.broker_index(broker) else { return Vec::new() };
    trace.final_state().replicas[b].log.iter().map(|e| trace.label(e.id).to_string()).collect()
}
