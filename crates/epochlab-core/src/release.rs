//! Kafka releases, as the model knows them (model §1): each maps to the protocol variant and hardening
//! flags it shipped, with the KIPs and JIRAs that made the change from the release before. `bisect` runs a
//! scenario under every release and says where the outcome changes and what changed it.

use crate::invariants::InvariantId;
use crate::presets::verdict_of;
use crate::scenario::Scenario;
pub use crate::variant::KafkaRelease;
use crate::variant::Protocol;

/// The outcome under one release: the invariants that fail as bugs, sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReleaseOutcome {
    /// The release.
    pub release: KafkaRelease,
    /// Bugs (empty: it holds).
    pub bugs: Vec<InvariantId>,
}

/// Run the scenario under every release line, oldest first, with the scenario's release settings (the
/// scenario's own flags are not used: a release decides them).
pub fn bisect(scenario: &Scenario) -> Vec<ReleaseOutcome> {
    KafkaRelease::ALL
        .into_iter()
        .map(|release| {
            let version = crate::variant::KafkaVersion::of_line(release);
            let trace = crate::run_protocol(scenario, Protocol::of_release(version, &scenario.config.knobs()));
            ReleaseOutcome { release, bugs: verdict_of(&trace).0 }
        })
        .collect()
}

/// "fails I3 up to 1.1; holds from 2.0: KIP-279 …": the runs of equal outcome, and what changed at each
/// boundary.
pub fn describe_bisection(outcomes: &[ReleaseOutcome]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < outcomes.len() {
        let start = &outcomes[i];
        let end = outcomes[i..].iter().take_while(|o| o.bugs == start.bugs).count() + i - 1;
        let what = if start.bugs.is_empty() {
            "holds".to_string()
        } else {
            format!("fails {}", InvariantId::join(&start.bugs, ", "))
        };
        let span = match (i, end + 1 == outcomes.len()) {
            (0, true) => "in every release".to_string(),
            (0, false) => format!("up to {}", outcomes[end].release.last_id()),
            (_, true) => format!("from {}", start.release.id()),
            (_, false) => format!("from {} to {}", start.release.id(), outcomes[end].release.last_id()),
        };
        let why = if i == 0 { String::new() } else { format!(": {}", start.release.changes()) };
        parts.push(format!("{what} {span}{why}"));
        i = end + 1;
    }
    parts.join("; ")
}
