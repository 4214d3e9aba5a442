//! The search space of a check, one transition at a time: the root, the alphabet, and the successor of a
//! node by one event. The breadth-first search walks it, and so does the stateright model the cross-check
//! tests and the checker bench build over it, so both explore the same transitions by construction.

use std::hash::{Hash, Hasher};
use std::ops::ControlFlow;

use super::pair_hasher::PairHasher;
use super::{canon, CheckConfig};
use crate::engine::{Memory, Sim};
use crate::invariants::Violation;
use crate::scenario::{Config, Event, Scenario, MAX_BROKERS};
use crate::state::State;
use crate::variant::{Protocol, Variant};

/// A state of the search: the replicas and controller, the simulator's memory, and the depth it was first
/// reached at. Hashed by what decides the future (the checker's projection, `canon`), depth aside.
#[derive(Clone, Debug)]
pub struct Node {
    pub(crate) state: State,
    pub(crate) memory: Memory,
    pub(crate) depth: u32,
}

impl Node {
    /// Events on the path that first reached it.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The stable fingerprint of its projection, which the search deduplicates on.
    pub fn fingerprint(&self) -> u64 {
        fingerprint(&self.state, &self.memory)
    }
}

impl Hash for Node {
    fn hash<H: Hasher>(&self, h: &mut H) {
        canon::hash_node(&self.state, &self.memory, h);
    }
}

impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        self.state == other.state && self.memory == other.memory
    }
}

/// One transition's result, lent by [`Space::for_each_successor`]: the node reached, and the goal violation
/// (not by design) the transition added.
pub struct Reached<'a> {
    state: &'a State,
    memory: &'a Memory,
    depth: u32,
    /// The goal violation the transition added.
    pub violation: Option<Violation>,
}

impl Reached<'_> {
    /// The node's fingerprint ([`Node::fingerprint`]).
    pub fn fingerprint(&self) -> u64 {
        fingerprint(self.state, self.memory)
    }

    /// The node, copied out (for a search to keep).
    pub fn to_node(&self) -> Node {
        Node { state: self.state.clone(), memory: self.memory.clone(), depth: self.depth }
    }
}

/// The stable fingerprint of a node's projection.
fn fingerprint(state: &State, memory: &Memory) -> u64 {
    let mut h = PairHasher::default();
    canon::hash_node(state, memory, &mut h);
    h.finish()
}

/// One transition's result.
pub struct Successor {
    /// The node reached.
    pub node: Node,
    /// A goal violation (not by design) the transition added: the node ends a counterexample.
    pub violation: Option<Violation>,
}

/// The space a [`CheckConfig`] bounds.
pub struct Space {
    config: CheckConfig,
    base: Scenario,
    protocol: Protocol,
    alphabet: Vec<Event>,
}

impl Space {
    /// The space of `config`: brokers A, B, … under its variant and cluster settings.
    pub fn new(config: &CheckConfig) -> Space {
        let base = base_scenario(config);
        let protocol = base.config.protocol(config.variant);
        let alphabet = config.alphabet.events(&base.brokers);
        Space { config: config.clone(), base, protocol, alphabet }
    }

    /// The bounds.
    pub fn config(&self) -> &CheckConfig {
        &self.config
    }

    /// The scenario the paths extend and its protocol (the exact reference search of the tests).
    #[cfg(test)]
    pub(crate) fn engine(&self) -> (&Scenario, Protocol) {
        (&self.base, self.protocol)
    }

    /// The events offered from every node, in the order successors are tried.
    pub fn alphabet(&self) -> &[Event] {
        &self.alphabet
    }

    /// The contract's initial state: no leader, ISR = every broker, nothing remembered.
    pub fn root(&self) -> Node {
        let sim = Sim::new(&self.base, self.protocol);
        Node { state: sim.state, memory: sim.memory, depth: 0 }
    }

    /// Whether the depth bound leaves `node` unexpanded.
    pub fn at_depth_bound(&self, node: &Node) -> bool {
        node.depth >= self.config.depth
    }

    /// The node after alphabet event `event`, or `None` when the event is rejected or leaves the bounds
    /// (produce past the record bound, a controller leader epoch past the epoch bound).
    pub fn successor(&self, node: &Node, event: usize) -> Option<Successor> {
        let event = &self.alphabet[event];
        if matches!(event, Event::Produce { .. }) && node.memory.records.len() >= usize::from(self.config.records) {
            return None;
        }
        let mut sim = Sim::resume(&self.base, self.protocol, node.state.clone(), node.memory.clone());
        if !sim.transition(node.depth, event) || sim.state.controller.leader_epoch > self.config.epochs {
            return None;
        }
        Some(self.arrive(node, sim.state, sim.memory))
    }

    /// Every successor of `node` in alphabet order, to `visit` (which may stop the walk), as
    /// [`Space::successor`] gives them one by one but lent, not given: most successors of a search are states
    /// seen before, which it drops, so it copies only those it keeps.
    pub fn for_each_successor(&self, node: &Node, visit: impl FnMut(usize, Reached<'_>) -> ControlFlow<()>) {
        self.for_each_successor_in(node, &mut None, visit);
    }

    /// [`Space::for_each_successor`] with a scratch copy of a node that the caller keeps from one call to
    /// the next, so that its buffers are reused. One copy serves every event: a refused event changes
    /// nothing (the engine refuses before it changes anything), and after an applied one the scratch is
    /// reset to the node in place.
    pub(crate) fn for_each_successor_in(
        &self,
        node: &Node,
        scratch: &mut Option<(State, Memory)>,
        mut visit: impl FnMut(usize, Reached<'_>) -> ControlFlow<()>,
    ) {
        let (state, memory) = match scratch.take() {
            Some((mut state, mut memory)) => {
                state.clone_from(&node.state);
                memory.clone_from(&node.memory);
                (state, memory)
            }
            None => (node.state.clone(), node.memory.clone()),
        };
        let mut sim = Sim::resume(&self.base, self.protocol, state, memory);
        let mut dirty = false;
        for (index, event) in self.alphabet.iter().enumerate() {
            if matches!(event, Event::Produce { .. }) && node.memory.records.len() >= usize::from(self.config.records) {
                continue;
            }
            if dirty {
                sim.state.clone_from(&node.state);
                sim.memory.clone_from(&node.memory);
            }
            dirty = sim.transition(node.depth, event);
            if !dirty {
                debug_assert!(sim.state == node.state && sim.memory == node.memory, "a refused event changed nothing");
                continue;
            }
            if sim.state.controller.leader_epoch > self.config.epochs {
                continue;
            }
            let violation = self.settle(&node.memory, &mut sim.memory);
            let reached = Reached { state: &sim.state, memory: &sim.memory, depth: node.depth + 1, violation };
            if visit(index, reached).is_break() {
                break;
            }
        }
        *scratch = Some((sim.state, sim.memory));
    }

    /// The node one step after `from`: the goal violation the step added, if any, then the memory without
    /// what the goal does not read.
    fn arrive(&self, from: &Node, state: State, mut memory: Memory) -> Successor {
        let violation = self.settle(&from.memory, &mut memory);
        Successor { node: Node { state, memory, depth: from.depth + 1 }, violation }
    }

    /// The memory one step after `before`, as a node holds it: the goal violation the step added, if any,
    /// and `after` without what the goal does not read.
    fn settle(&self, before: &Memory, after: &mut Memory) -> Option<Violation> {
        let violation = self.new_goal_violation(before, after);
        canon::forget_unwatched(after, &self.config.goal);
        violation
    }

    /// A violation of the goal, not by design, that the step added.
    fn new_goal_violation(&self, before: &Memory, after: &Memory) -> Option<Violation> {
        let fresh = after.violations.iter().skip(before.violations.len());
        fresh.into_iter().find(|v| !v.by_design && self.config.goal.contains(&v.invariant)).cloned()
    }

    /// The counterexample the alphabet indices `path` spell, as a scenario, ending in `v`.
    pub fn counterexample(&self, path: &[u16], v: &Violation) -> Scenario {
        let c = &self.config;
        Scenario {
            name: format!("Shortest failure under {}", c.variant.id()),
            description: format!(
                "Found by a breadth-first search ({} brokers, at most {} records, epoch {}, depth {}): {} {} at step {}: {}",
                self.base.brokers.len(),
                c.records,
                c.epochs,
                c.depth,
                v.invariant.id(),
                v.invariant.name(),
                v.step,
                v.message
            ),
            events: path.iter().map(|i| self.alphabet[usize::from(*i)].clone()).collect(),
            ..self.base.clone()
        }
    }
}

/// The scenario the paths extend: brokers A, B, … with the configuration, under the searched variant.
fn base_scenario(config: &CheckConfig) -> Scenario {
    let mut s = Scenario::empty();
    let n = usize::from(config.brokers).clamp(1, MAX_BROKERS);
    s.brokers = ["A", "B", "C", "D", "E"][..n].iter().map(|b| b.to_string()).collect();
    s.config = searched_config(&config.config, config.variant);
    s
}

/// The settings a search under `variant` runs: the configuration's release with its rules when `variant` is
/// the release's own, else the plain variant (a release would decide another).
pub(crate) fn searched_config(config: &Config, variant: Variant) -> Config {
    let mut searched = Config { variant, ..config.clone() };
    searched.keep_release_consistent();
    searched
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, VecDeque};
    use std::ops::ControlFlow;

    use super::super::{default_goal, CheckConfig};
    use super::Space;
    use crate::variant::Variant;

    /// The lent successors, with one scratch reused across nodes, are `successor`'s one by one (which
    /// the stateright model walks): the same events, nodes, fingerprints and violations, in order.
    #[test]
    fn lent_successors_with_a_reused_scratch_are_the_given_ones() {
        let config = CheckConfig {
            variant: Variant::Kafka21,
            brokers: 3,
            depth: 5,
            goal: default_goal(),
            ..CheckConfig::default()
        };
        let space = Space::new(&config);
        let mut scratch = None;
        let mut seen = BTreeSet::from([space.root().fingerprint()]);
        let mut queue = VecDeque::from([space.root()]);
        while let Some(node) = queue.pop_front().filter(|n| !space.at_depth_bound(n)) {
            let mut lent = Vec::new();
            space.for_each_successor_in(&node, &mut scratch, |index, next| {
                lent.push((index, next.fingerprint(), next.violation.clone(), next.to_node()));
                ControlFlow::Continue(())
            });
            let given: Vec<_> = (0..space.alphabet().len())
                .filter_map(|i| space.successor(&node, i).map(|s| (i, s.node.fingerprint(), s.violation, s.node)))
                .collect();
            assert_eq!(lent.len(), given.len());
            for (a, b) in lent.into_iter().zip(given) {
                assert_eq!((a.0, a.1, &a.2), (b.0, b.1, &b.2));
                assert!(a.3 == b.3 && a.3.depth == b.3.depth, "event {} reaches another node", a.0);
                if seen.insert(a.1) {
                    queue.push_back(a.3);
                }
            }
        }
        assert!(seen.len() > 1000, "the walk covers a real part of the space: {}", seen.len());
    }
}
