//! The breadth-first search.

use std::collections::VecDeque;

use super::seen::Seen;
use super::{CheckConfig, CheckResult, Progress};
use crate::engine::{Memory, Sim};
use crate::fingerprint::fingerprint;
use crate::invariants::Violation;
use crate::scenario::{Event, Scenario, MAX_BROKERS};
use crate::state::State;
use crate::variant::Protocol;

/// States between progress reports.
const REPORT_EVERY: u64 = 4096;

/// A state waiting to be expanded, and how it was reached (an index into the path arena).
struct Node {
    state: State,
    memory: Memory,
    path: u32,
    depth: u32,
}

/// Every path as (parent, event index): a node's path is followed back to the root (u32::MAX).
struct Paths(Vec<(u32, u16)>);

impl Paths {
    fn push(&mut self, parent: u32, event: usize) -> u32 {
        self.0.push((parent, event as u16));
        (self.0.len() - 1) as u32
    }

    fn events(&self, mut at: u32, alphabet: &[Event]) -> Vec<Event> {
        let mut reversed = Vec::new();
        for _ in 0..self.0.len() {
            if at == u32::MAX {
                break;
            }
            let (parent, event) = self.0[at as usize];
            reversed.push(alphabet[event as usize].clone());
            at = parent;
        }
        reversed.reverse();
        reversed
    }
}

/// Search for the shortest counterexample. `progress` is called every few thousand states; returning false
/// cancels the search.
pub fn check(config: &CheckConfig, mut progress: impl FnMut(&Progress) -> bool) -> CheckResult {
    let base = base_scenario(config);
    let protocol = Protocol::new(config.variant, &base.config.flags);
    let alphabet = config.alphabet.events(&base.brokers);
    let mut search = Search::new(config, &base, protocol);
    let mut queue =
        VecDeque::from([Node { state: search.sim.state.clone(), memory: Memory::default(), path: u32::MAX, depth: 0 }]);
    search.seen.insert(fingerprint(&queue[0].state, &queue[0].memory));
    let mut result = search.empty_result();
    while let Some(node) = queue.pop_front() {
        result.depth_reached = result.depth_reached.max(node.depth);
        if node.depth >= config.depth {
            // Left unexpanded: the space is not exhausted, only explored to the depth bound.
            search.depth_cut = true;
            continue;
        }
        for (index, event) in alphabet.iter().enumerate() {
            let Some(next) = search.successor(&node, event) else { continue };
            result.transitions += 1;
            if let Some(violation) = search.new_goal_violation(&node.memory, &next.memory) {
                let path = search.paths.push(node.path, index);
                let scenario = counterexample(&base, search.paths.events(path, &alphabet), config, &violation);
                return search.finish(result, Some((scenario, violation)), node.depth + 1, true);
            }
            if !search.seen.insert(fingerprint(&next.state, &next.memory)) {
                continue;
            }
            if search.seen.len() as u64 >= config.max_states {
                result.hit_state_limit = true;
                return search.finish(result, None, node.depth + 1, false);
            }
            let path = search.paths.push(node.path, index);
            queue.push_back(Node { path, depth: node.depth + 1, ..next });
        }
        if search.seen.len() as u64 % REPORT_EVERY == 0 || queue.is_empty() {
            let p = Progress {
                unique_states: search.seen.len() as u64,
                transitions: result.transitions,
                depth: node.depth,
                queue: queue.len() as u64,
            };
            if !progress(&p) {
                result.cancelled = true;
                return search.finish(result, None, node.depth, false);
            }
        }
    }
    let depth = result.depth_reached;
    search.finish(result, None, depth, true)
}

/// The scenario the paths extend: brokers A, B, … with the configuration, under the searched variant.
fn base_scenario(config: &CheckConfig) -> Scenario {
    let mut s = Scenario::empty();
    let n = usize::from(config.brokers).clamp(1, MAX_BROKERS);
    s.brokers = ["A", "B", "C", "D", "E"][..n].iter().map(|b| b.to_string()).collect();
    s.config = Config { variant: config.variant, kafka_version: None, ..config.config.clone() };
    s
}

use crate::scenario::Config;

fn counterexample(base: &Scenario, events: Vec<Event>, config: &CheckConfig, v: &Violation) -> Scenario {
    Scenario {
        name: format!("Shortest failure under {}", config.variant.id()),
        description: format!(
            "Found by a breadth-first search ({} brokers, at most {} records, epoch {}, depth {}): {} {} at step {}: {}",
            base.brokers.len(),
            config.records,
            config.epochs,
            config.depth,
            v.invariant.id(),
            v.invariant.name(),
            v.step,
            v.message
        ),
        events,
        ..base.clone()
    }
}

struct Search<'a> {
    config: &'a CheckConfig,
    sim: Sim<'a>,
    seen: Seen,
    paths: Paths,
    depth_cut: bool,
}

impl<'a> Search<'a> {
    fn new(config: &'a CheckConfig, base: &'a Scenario, protocol: Protocol) -> Search<'a> {
        Search { config, sim: Sim::new(base, protocol), seen: Seen::new(), paths: Paths(Vec::new()), depth_cut: false }
    }

    /// The node after `event`, or `None` when the event is rejected or leaves the bounds.
    fn successor(&mut self, node: &Node, event: &Event) -> Option<Node> {
        if matches!(event, Event::Produce { .. }) && node.memory.records.len() >= usize::from(self.config.records) {
            return None;
        }
        self.sim.state = node.state.clone();
        self.sim.memory = node.memory.clone();
        if !self.sim.transition(node.depth, event) || self.sim.state.controller.leader_epoch > self.config.epochs {
            return None;
        }
        let state = std::mem::replace(&mut self.sim.state, State::initial(0));
        Some(Node { state, memory: std::mem::take(&mut self.sim.memory), path: node.path, depth: node.depth })
    }

    /// A violation of the goal, not by design, that the step added.
    fn new_goal_violation(&self, before: &Memory, after: &Memory) -> Option<Violation> {
        let fresh = after.violations.iter().skip(before.violations.len());
        fresh.into_iter().find(|v| !v.by_design && self.config.goal.contains(&v.invariant)).cloned()
    }

    fn empty_result(&self) -> CheckResult {
        CheckResult {
            counterexample: None,
            violation: None,
            exhausted: false,
            hit_state_limit: false,
            cancelled: false,
            unique_states: 0,
            transitions: 0,
            depth_reached: 0,
            seen_bytes: 0,
        }
    }

    fn finish(
        &self,
        mut r: CheckResult,
        found: Option<(Scenario, Violation)>,
        depth: u32,
        exhausted: bool,
    ) -> CheckResult {
        r.unique_states = self.seen.len() as u64;
        r.depth_reached = r.depth_reached.max(depth);
        r.exhausted = exhausted && !self.depth_cut && found.is_none();
        r.seen_bytes = self.seen.bytes() as u64;
        if let Some((scenario, violation)) = found {
            r.counterexample = Some(scenario);
            r.violation = Some(violation);
        }
        r
    }
}
