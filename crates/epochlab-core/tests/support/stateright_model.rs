//! A `stateright::Model` over the checker's [`Space`]: the same root, alphabet and transitions, and a state
//! hashed over the fingerprint's fields (by stateright's own hasher), so its breadth-first search can be
//! compared with ours. Shared by the cross-check tests and the checker bench.

use std::hash::{Hash, Hasher};

use epochlab_core::checker::{CheckConfig, Node, Space};
use stateright::{Checker, Model, Property};

/// A node, and whether the transition into it broke the goal (not part of its identity).
#[derive(Clone, Debug)]
pub struct SrState {
    pub node: Node,
    pub violated: bool,
}

impl Hash for SrState {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.node.hash(h);
    }
}

impl PartialEq for SrState {
    fn eq(&self, other: &SrState) -> bool {
        self.node == other.node && self.violated == other.violated
    }
}

pub struct SrModel(pub Space);

impl Model for SrModel {
    type State = SrState;
    type Action = u16;

    fn init_states(&self) -> Vec<SrState> {
        vec![SrState { node: self.0.root(), violated: false }]
    }

    fn actions(&self, state: &SrState, actions: &mut Vec<u16>) {
        // Like our search: a node at the depth bound, or ending a counterexample, is not expanded.
        if !state.violated && !self.0.at_depth_bound(&state.node) {
            actions.extend(0..self.0.alphabet().len() as u16);
        }
    }

    fn next_state(&self, state: &SrState, action: u16) -> Option<SrState> {
        let next = self.0.successor(&state.node, usize::from(action))?;
        Some(SrState { node: next.node, violated: next.violation.is_some() })
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::always("no goal violation", |_, s: &SrState| !s.violated)]
    }
}

/// What stateright's single-threaded BFS found.
pub struct SrOutcome {
    pub unique_states: usize,
    /// Events in the shortest counterexample, if any.
    pub counterexample_len: Option<usize>,
}

pub fn stateright_bfs(config: &CheckConfig) -> SrOutcome {
    let checker = SrModel(Space::new(config)).checker().threads(1).spawn_bfs().join();
    SrOutcome {
        unique_states: checker.unique_state_count(),
        counterexample_len: checker.discovery("no goal violation").map(|p| p.into_actions().len()),
    }
}
