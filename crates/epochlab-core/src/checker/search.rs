//! The breadth-first search over a [`Space`], resumable: [`Search::run`] expands a budget of nodes and
//! returns, so a worker can report progress and hear a cancel between slices; [`check`] runs it to the end.

use std::collections::VecDeque;
use std::ops::ControlFlow;

use super::seen::Seen;
use super::space::{Node, Space};
use super::{CheckConfig, CheckResult, Progress, SearchEnd};
use crate::engine::Memory;
use crate::invariants::Violation;
use crate::scenario::Scenario;
use crate::state::State;

/// Nodes expanded between progress reports in [`check`].
const REPORT_EVERY: u64 = 2048;

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

    fn bytes(&self) -> usize {
        self.0.capacity() * std::mem::size_of::<(u32, u16)>()
    }
}

/// Search for the shortest counterexample. `progress` is called every few thousand states; returning false
/// cancels the search.
pub fn check(config: &CheckConfig, mut progress: impl FnMut(&Progress) -> bool) -> CheckResult {
    let mut search = Search::new(config);
    // Each slice expands at least one node, so this ends within the state space's size.
    loop {
        if let Some(result) = search.run(REPORT_EVERY) {
            return result;
        }
        if !progress(&search.progress()) {
            return search.cancel();
        }
    }
}

/// Why an expansion ended the search.
enum Ended {
    Found(Box<(Scenario, Violation)>),
    StateLimit,
}

/// A search under way.
pub struct Search {
    space: Space,
    seen: Seen,
    paths: Paths,
    /// Nodes to expand, each with its path and fingerprint.
    queue: VecDeque<(Node, u32, u64)>,
    /// The copy of a node the expansions work on, kept so that its buffers are reused.
    scratch: Option<(State, Memory)>,
    result: CheckResult,
    depth: u32,
    depth_cut: bool,
    ended: Option<CheckResult>,
}

impl Search {
    /// A search of `config`'s space, at its root.
    pub fn new(config: &CheckConfig) -> Search {
        let space = Space::new(config);
        let root = space.root();
        let mut seen = Seen::new();
        let fingerprint = root.fingerprint();
        seen.insert(fingerprint);
        Search {
            space,
            seen,
            paths: Paths(Vec::new()),
            queue: VecDeque::from([(root, u32::MAX, fingerprint)]),
            scratch: None,
            result: empty_result(),
            depth: 0,
            depth_cut: false,
            ended: None,
        }
    }

    /// Where it is.
    pub fn progress(&self) -> Progress {
        Progress {
            unique_states: self.seen.len() as u64,
            transitions: self.result.transitions,
            depth: self.depth,
            queue: self.queue.len() as u64,
        }
    }

    /// Expand up to `budget` nodes (at least one): the result once the search has ended, else `None`.
    pub fn run(&mut self, budget: u64) -> Option<CheckResult> {
        if self.ended.is_some() {
            return self.ended.clone();
        }
        for _ in 0..budget.max(1) {
            let Some((node, path, fingerprint)) = self.queue.pop_front() else {
                let end = if self.depth_cut { SearchEnd::DepthBound } else { SearchEnd::Exhausted };
                return Some(self.finish(None, self.depth, end));
            };
            self.depth = self.depth.max(node.depth());
            if self.space.at_depth_bound(&node) {
                // Left unexpanded. The space is exhausted all the same if no event leads from it anywhere
                // new: to a state not seen, or to a violation (which would lie past the bound).
                self.depth_cut = self.depth_cut || self.leads_somewhere_new(&node);
                continue;
            }
            if let Some(done) = self.expand(&node, path, fingerprint) {
                return Some(done);
            }
        }
        None
    }

    /// Whether a successor of `node` is a state not seen yet or ends a counterexample.
    fn leads_somewhere_new(&mut self, node: &Node) -> bool {
        let mut new = false;
        let seen = &self.seen;
        self.space.for_each_successor_in(node, &mut self.scratch, |_, next| {
            new = next.violation.is_some() || !seen.contains(next.fingerprint());
            if new {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        new
    }

    /// Stop here: the result so far, marked cancelled.
    pub fn cancel(&mut self) -> CheckResult {
        self.finish(None, self.depth, SearchEnd::Cancelled)
    }

    /// Queue the new successors of `node` (whose fingerprint is `own`); the result if one ends a
    /// counterexample or fills the state limit.
    fn expand(&mut self, node: &Node, path: u32, own: u64) -> Option<CheckResult> {
        let mut ended = None;
        let space = &self.space;
        space.for_each_successor_in(node, &mut self.scratch, |index, next| {
            self.result.transitions += 1;
            if let Some(violation) = next.violation {
                let path = self.paths.push(path, index);
                let scenario = space.counterexample(&self.paths.events(path), &violation);
                ended = Some(Ended::Found(Box::new((scenario, violation))));
                return ControlFlow::Break(());
            }
            let fingerprint = next.fingerprint();
            // A step back to the node itself (a fetch with nothing new, say) is common: no table lookup.
            if fingerprint == own || !self.seen.insert(fingerprint) {
                return ControlFlow::Continue(());
            }
            if self.seen.len() as u64 >= space.config().max_states {
                ended = Some(Ended::StateLimit);
                return ControlFlow::Break(());
            }
            let at = self.paths.push(path, index);
            self.queue.push_back((next.to_node(), at, fingerprint));
            ControlFlow::Continue(())
        });
        match ended? {
            Ended::Found(found) => Some(self.finish(Some(*found), node.depth() + 1, SearchEnd::Found)),
            Ended::StateLimit => Some(self.finish(None, node.depth() + 1, SearchEnd::StateLimit)),
        }
    }

    fn finish(&mut self, found: Option<(Scenario, Violation)>, depth: u32, end: SearchEnd) -> CheckResult {
        let mut r = self.result.clone();
        r.unique_states = self.seen.len() as u64;
        r.depth_reached = self.depth.max(depth);
        r.end = end;
        r.seen_bytes = (self.seen.bytes() + self.paths.bytes()) as u64;
        if let Some((scenario, violation)) = found {
            r.counterexample = Some(scenario);
            r.violation = Some(violation);
        }
        self.queue.clear();
        self.ended = Some(r.clone());
        r
    }
}

fn empty_result() -> CheckResult {
    CheckResult {
        counterexample: None,
        violation: None,
        end: SearchEnd::Cancelled,
        unique_states: 0,
        transitions: 0,
        depth_reached: 0,
        seen_bytes: 0,
    }
}
