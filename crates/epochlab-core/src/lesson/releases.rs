//! A lesson's story under several Kafka releases, side by side: for each release, how it ends (who leads,
//! each broker's log) and which committed records it lost, allowed by design or as a bug. The releases run
//! the same events; only their rules differ (model §12).

use crate::invariants::InvariantId;
use crate::scenario::Scenario;
use crate::trace::Trace;
use crate::variant::KafkaVersion;

/// How the story ends under one release.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReleaseColumn {
    /// The release run.
    pub release: KafkaVersion,
    /// The broker leading at the end, if the partition is online.
    pub leader: Option<String>,
    /// Each broker's name and log at the end (record labels, offset 0 first).
    pub logs: Vec<(String, Vec<String>)>,
    /// Committed records lost (I1), and whether Kafka allows it (every ISR member lost power, an unclean
    /// election).
    pub lost: Vec<(String, bool)>,
    /// Invariants that fail as bugs.
    pub bugs: Vec<InvariantId>,
}

/// The story run as each release (the release's own variant, rules and defaults; the scenario's other
/// settings kept).
pub fn release_columns(scenario: &Scenario, releases: &[KafkaVersion]) -> Vec<ReleaseColumn> {
    releases.iter().map(|&release| column(scenario, release)).collect()
}

fn column(scenario: &Scenario, release: KafkaVersion) -> ReleaseColumn {
    let mut as_release = scenario.clone();
    as_release.config.set_release(release);
    let trace = crate::run_variant(&as_release, release.variant());
    let end = trace.final_state();
    let logs = (0..trace.brokers.len())
        .map(|b| {
            let log = end.replicas[b].log.iter().map(|e| trace.label(e.id).to_string()).collect();
            (trace.brokers[b].clone(), log)
        })
        .collect();
    let (bugs, _) = crate::presets::verdict_of(&trace);
    ReleaseColumn {
        release,
        leader: end.true_leader().map(|l| trace.broker_name(l).to_string()),
        logs,
        lost: lost_records(&trace),
        bugs,
    }
}

/// The committed records the run lost, each once, by design or not.
fn lost_records(trace: &Trace) -> Vec<(String, bool)> {
    let mut lost: Vec<(String, bool)> = Vec::new();
    for v in trace.violations.iter().filter(|v| v.invariant == InvariantId::I1) {
        for id in &v.records {
            let label = trace.label(*id).to_string();
            if !lost.iter().any(|(l, _)| *l == label) {
                lost.push((label, v.by_design));
            }
        }
    }
    lost
}
