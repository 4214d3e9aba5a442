//! The breadth-first search over a [`Space`].

use std::collections::VecDeque;

use super::seen::Seen;
use super::space::Space;
use super::{CheckConfig, CheckResult, Progress};
use crate::invariants::Violation;
use crate::scenario::Scenario;

/// States between progress reports.
const REPORT_EVERY: u64 = 4096;

/// Every path as (parent, event index): a node's path is followed back to the root (u32::MAX).
struct Paths(Vec<(u32, u16)>);

impl Paths {
    fn push(&mut self, parent: u32, event: usize) -> u32 {
        self.0.push((parent, event as u16));
        (self.0.len() - 1) as u32
    }

    /// The alphabet indices from the root to `at`.
    fn events(&self, mut at: u32) -> Vec<u16> {
        let mut reversed = Vec::new();
        for _ in 0..self.0.len() {
            if at == u32::MAX {
                break;
            }
            let (parent, event) = self.0[at as usize];
            reversed.push(event);
            at = parent;
        }
        reversed.reverse();
        reversed
    }
}

/// Search for the shortest counterexample. `progress` is called every few thousand states; returning false
/// cancels the search.
pub fn check(config: &CheckConfig, mut progress: impl FnMut(&Progress) -> bool) -> CheckResult {
    let space = Space::new(config);
    let mut search = Search { seen: Seen::new(), paths: Paths(Vec::new()), depth_cut: false };
    let root = space.root();
    search.seen.insert(root.fingerprint());
    let mut queue = VecDeque::from([(root, u32::MAX)]);
    let mut result = search.empty_result();
    while let Some((node, path)) = queue.pop_front() {
        result.depth_reached = result.depth_reached.max(node.depth());
        if space.at_depth_bound(&node) {
            // Left unexpanded: the space is not exhausted, only explored to the depth bound.
            search.depth_cut = true;
            continue;
        }
        for index in 0..space.alphabet().len() {
            let Some(next) = space.successor(&node, index) else { continue };
            result.transitions += 1;
            if let Some(violation) = next.violation {
                let path = search.paths.push(path, index);
                let scenario = space.counterexample(&search.paths.events(path), &violation);
                return search.finish(result, Some((scenario, violation)), node.depth() + 1, true);
            }
            if !search.seen.insert(next.node.fingerprint()) {
                continue;
            }
            if search.seen.len() as u64 >= config.max_states {
                result.hit_state_limit = true;
                return search.finish(result, None, node.depth() + 1, false);
            }
            queue.push_back((next.node, search.paths.push(path, index)));
        }
        if search.seen.len() as u64 % REPORT_EVERY == 0 || queue.is_empty() {
            let p = Progress {
                unique_states: search.seen.len() as u64,
                transitions: result.transitions,
                depth: node.depth(),
                queue: queue.len() as u64,
            };
            if !progress(&p) {
                result.cancelled = true;
                return search.finish(result, None, node.depth(), false);
            }
        }
    }
    let depth = result.depth_reached;
    search.finish(result, None, depth, true)
}

struct Search {
    seen: Seen,
    paths: Paths,
    depth_cut: bool,
}

impl Search {
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
