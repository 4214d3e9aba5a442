//! A bounded model checker over the core itself (pure, one thread, deterministic): breadth-first from the
//! contract's initial state, one event of an alphabet per transition, deduplicated on a stable fingerprint
//! of a canonical projection of (state, memory) that merges only states with the same future (`canon`,
//! model §11.1). Successors are tried in alphabet order, so the first counterexample found is a shortest
//! one, and the same on every run and platform.
//!
//! Bounds keep the space finite: brokers, records appended (produce is not offered past R), the
//! controller's leader epoch (a transition past E is pruned), depth, and a state limit at which the search
//! stops cleanly and says so. A result with no failure can be stamped (`stamp`) for a share link.

mod alphabet;
pub mod bounds;
mod canon;
#[cfg(test)]
mod faithful;
mod pair_hasher;
mod search;
mod seen;
mod shrink;
mod shrink_reason;
mod space;
mod stamp;

pub use alphabet::Alphabet;
pub use search::{check, Search};
pub use shrink::{minimize_events, shrink, simpler, ShrinkError, Shrunk};
pub use space::{Node, Reached, Space, Successor};
pub use stamp::{settings_crc, Stamp};

use crate::invariants::{InvariantId, Violation};
use crate::scenario::{Config, Scenario};
use crate::variant::Variant;

/// The invariants a search looks for by default: every checked one but O1, which is always allowed.
pub fn default_goal() -> Vec<InvariantId> {
    InvariantId::CHECKED.into_iter().filter(|i| *i != InvariantId::O1).collect()
}

/// What a search that found nothing can claim: "no failure" when it looked for every default invariant,
/// else which it looked for ("no failure of I1, I2"), so a narrower search never reads as a wider one.
pub fn no_failure_words(goal: &[InvariantId]) -> String {
    let default = default_goal();
    if goal.len() == default.len() && default.iter().all(|i| goal.contains(i)) {
        return "no failure".to_string();
    }
    let ids: Vec<&str> = goal.iter().map(|i| i.id()).collect();
    format!("no failure of {}", ids.join(", "))
}

/// What to search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckConfig {
    /// The protocol variant (with `config.flags`).
    pub variant: Variant,
    /// Brokers, 2 to 4 (named A, B, …; `bounds::BROKERS`).
    pub brokers: u8,
    /// Records a path may append, counting those truncated later.
    pub records: u8,
    /// The highest controller leader epoch a path may reach.
    pub epochs: i32,
    /// The longest path.
    pub depth: u32,
    /// Unique states at which the search stops.
    pub max_states: u64,
    /// A violation of one of these, not by design, is a counterexample.
    pub goal: Vec<InvariantId>,
    /// The events offered.
    pub alphabet: Alphabet,
    /// The cluster settings the paths run under (its `variant` is ignored: `variant` above decides).
    pub config: Config,
}

impl CheckConfig {
    /// What is searched, for a verdict: `kafka-2.1`, or `Kafka 3.6 in KRaft mode (diverging-epoch)` when the
    /// settings name a release whose variant is searched (its rules then apply).
    pub fn searched(&self) -> String {
        let Some(release) = self.config.kafka_version.filter(|r| r.variant() == self.variant) else {
            return self.variant.id().to_string();
        };
        let mode = match release.has_kraft() {
            true => format!(" in {} mode", self.config.metadata_mode_in_force().title()),
            false => String::new(),
        };
        format!("Kafka {}{mode} ({})", release.id(), self.variant.id())
    }
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            variant: Variant::Kip279,
            brokers: bounds::BROKERS.default as u8,
            records: bounds::RECORDS.default as u8,
            epochs: bounds::EPOCHS.default as i32,
            depth: DEFAULT_DEPTH,
            max_states: bounds::MAX_STATES.default,
            goal: default_goal(),
            alphabet: Alphabet::Default,
            config: Config::default(),
        }
    }
}

/// The default depth bound ([`bounds::DEPTH`]).
pub const DEFAULT_DEPTH: u32 = bounds::DEPTH.default as u32;

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// The shortest path to a violation, as a scenario, or none within the bounds.
    pub counterexample: Option<Scenario>,
    /// The violation at its last step.
    pub violation: Option<Violation>,
    /// How it ended.
    pub end: SearchEnd,
    /// Unique states seen.
    pub unique_states: u64,
    /// Transitions taken (applied events, including those leading to states seen before).
    pub transitions: u64,
    /// The deepest level reached.
    pub depth_reached: u32,
    /// Bytes the visited set and the path arena held at the end (the frontier's nodes come on top).
    pub seen_bytes: u64,
}

/// How a search ended: one of five, worded once for the CLI and the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchEnd {
    /// A counterexample was found (the shortest).
    Found,
    /// No failure, and every state within the bounds was explored.
    Exhausted,
    /// No failure up to the depth bound, and longer paths lead to states not seen.
    DepthBound,
    /// Stopped at the state limit.
    StateLimit,
    /// Stopped because the progress callback asked.
    Cancelled,
}

impl SearchEnd {
    /// How it ended, in words that follow "no failure within …, " (or stand alone for a failure found).
    pub fn words(self) -> &'static str {
        match self {
            SearchEnd::Found => "a failure found",
            SearchEnd::Exhausted => "every reachable state explored",
            SearchEnd::DepthBound => "stopped at the depth bound: longer paths were not tried",
            SearchEnd::StateLimit => "stopped at the state limit",
            SearchEnd::Cancelled => "cancelled",
        }
    }
}

/// Where a running search is, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Unique states so far.
    pub unique_states: u64,
    /// Transitions so far.
    pub transitions: u64,
    /// The level being explored.
    pub depth: u32,
    /// States waiting in the queue.
    pub queue: u64,
}
