//! The checker's projection (`canon`) is faithful. An exact breadth-first search over the engine itself
//! (its memory kept whole, deduplicated on the scenario fingerprint, which hashes all of it) reaches states;
//! any two of them the projection merges must be bisimilar: from both the same events apply, the first
//! goal violation each transition adds is the same, and the successors are merged again. And, as a
//! consequence the checker relies on, its shortest counterexample for each invariant has the exact search's
//! length.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::{canon, check, default_goal, Alphabet, CheckConfig, Node, SearchEnd, Space};
use crate::engine::{Memory, Sim};
use crate::fingerprint::fingerprint;
use crate::invariants::InvariantId;
use crate::scenario::{Config, Event};
use crate::state::State;
use crate::variant::{KafkaVersion, MetadataMode, Variant};

/// A state of the exact search, at its depth.
type Exact = (State, Memory, u32);

/// Every state the exact search reaches within the bounds (one per scenario fingerprint).
fn exact_states(config: &CheckConfig) -> Vec<Exact> {
    let space = Space::new(config);
    let root = space.root();
    let mut seen = BTreeSet::from([fingerprint(&root.state, &root.memory)]);
    let mut queue = VecDeque::from([(root.state, root.memory, 0)]);
    let mut all = Vec::new();
    while let Some((state, memory, depth)) = queue.pop_front() {
        if depth < config.depth {
            for (_, next, _) in exact_successors(&space, &state, &memory, depth).into_iter().flatten() {
                if seen.insert(fingerprint(&next.0, &next.1)) {
                    queue.push_back((next.0, next.1, depth + 1));
                }
            }
        }
        all.push((state, memory, depth));
    }
    all
}

/// Per alphabet event: `None` when it does not apply (or leaves the bounds), else the first violation of
/// the goal, not by design, it adds, the successor, and every invariant it newly violates not by design.
type Step = Option<(Option<InvariantId>, (State, Memory), Vec<InvariantId>)>;

fn exact_successors(space: &Space, state: &State, memory: &Memory, depth: u32) -> Vec<Step> {
    let (base, protocol) = space.engine();
    let c = space.config();
    let step = |event: &Event| {
        if matches!(event, Event::Produce { .. }) && memory.records.len() >= usize::from(c.records) {
            return None;
        }
        let mut sim = Sim::resume(base, protocol, state.clone(), memory.clone());
        if !sim.transition(depth, event) || sim.state.controller.leader_epoch > c.epochs {
            return None;
        }
        let fresh: Vec<_> =
            sim.memory.violations.iter().skip(memory.violations.len()).filter(|v| !v.by_design).collect();
        let goal = fresh.iter().map(|v| v.invariant).find(|i| c.goal.contains(i));
        let all = fresh.iter().map(|v| v.invariant).collect();
        Some((goal, (sim.state, sim.memory), all))
    };
    space.alphabet().iter().map(step).collect()
}

/// The checker's fingerprint of an exact state: its projection after what the goal does not read is
/// forgotten, as the checker forgets it after every step.
fn projected(space: &Space, state: &State, memory: &Memory) -> u64 {
    let mut memory = memory.clone();
    canon::forget_unwatched(&mut memory, &space.config().goal);
    Node { state: state.clone(), memory, depth: 0 }.fingerprint()
}

/// What the checker may see of a state's next step: per event, whether it applies, the goal violation it
/// adds and the successor's projection.
fn signature(space: &Space, (state, memory, depth): &Exact) -> Vec<Option<(Option<InvariantId>, u64)>> {
    let steps = exact_successors(space, state, memory, *depth);
    steps.into_iter().map(|s| s.map(|(goal, next, _)| (goal, projected(space, &next.0, &next.1)))).collect()
}

/// Every pair of states the projection merges is bisimilar (checked against one representative each).
/// Returns how many exact states were merged into another.
fn assert_bisimilar(config: &CheckConfig) -> usize {
    let space = Space::new(config);
    let states = exact_states(config);
    let mut first: BTreeMap<u64, usize> = BTreeMap::new();
    let mut merged = 0;
    for (index, s) in states.iter().enumerate() {
        // A state at the depth bound has unexplored successors of its own: compare only expanded ones.
        if s.2 >= config.depth {
            continue;
        }
        let key = projected(&space, &s.0, &s.1);
        let Some(&rep) = first.get(&key) else {
            first.insert(key, index);
            continue;
        };
        merged += 1;
        assert_eq!(
            signature(&space, s),
            signature(&space, &states[rep]),
            "{}: {:?} vs {:?}",
            config.variant.id(),
            s,
            states[rep]
        );
    }
    merged
}

/// Per invariant, the fewest events after which a violation of it, not by design, first holds.
fn exact_shortest(config: &CheckConfig) -> BTreeMap<InvariantId, u32> {
    let space = Space::new(config);
    let mut shortest = BTreeMap::new();
    for (state, memory, depth) in exact_states(config).iter().filter(|s| s.2 < config.depth) {
        for (_, _, fresh) in exact_successors(&space, state, memory, *depth).into_iter().flatten() {
            for invariant in fresh {
                let d = shortest.entry(invariant).or_insert(depth + 1);
                *d = (*d).min(depth + 1);
            }
        }
    }
    shortest
}

fn checker_shortest(config: &CheckConfig, goal: Vec<InvariantId>) -> Option<u32> {
    let r = check(&CheckConfig { goal, ..config.clone() }, |_| true);
    assert!(r.end != SearchEnd::StateLimit, "{r:?}");
    r.counterexample.map(|s| s.events.len() as u32)
}

fn bounds(variant: Variant, alphabet: Alphabet, config: Config, depth: u32) -> CheckConfig {
    CheckConfig { variant, alphabet, config, depth, epochs: 2, ..CheckConfig::default() }
}

fn unclean() -> Config {
    Config { unclean_leader_election: Some(true), ..Config::default() }
}

#[test]
fn states_the_checker_merges_have_the_same_future() {
    for variant in Variant::ALL {
        for goal in [default_goal(), vec![InvariantId::I2], Vec::new()] {
            let config = CheckConfig { goal, ..bounds(variant, Alphabet::Default, Config::default(), 6) };
            assert!(assert_bisimilar(&config) > 0, "{}: the projection merges something", variant.id());
        }
        let full = bounds(variant, Alphabet::Full, unclean(), 4);
        assert!(assert_bisimilar(&full) > 0, "{}: the projection merges something", variant.id());
    }
}

/// A release's settings: KRaft before and after 3.6, 3.7's pending ISR in ZooKeeper mode, 4.1 (ELR and the
/// last known leader), each with min ISR 2 so that the gate and the ELR take part (model §13).
fn release_configs() -> Vec<(Variant, Config)> {
    let modes = [("3.5", Some(MetadataMode::KRaft)), ("3.7", None), ("3.7", Some(MetadataMode::KRaft)), ("4.1", None)];
    modes
        .into_iter()
        .map(|(id, mode)| {
            let mut config = Config { min_insync_replicas: 2, ..Config::default() };
            let release = KafkaVersion::parse(id).expect("release");
            config.set_release(release);
            config.metadata_mode = mode;
            (release.variant(), config)
        })
        .collect()
}

#[test]
fn under_kraft_and_the_pending_isr_merged_states_have_the_same_future_and_shortest_failures_match() {
    for (variant, config) in release_configs() {
        let full = bounds(variant, Alphabet::Full, config.clone(), 6);
        assert!(assert_bisimilar(&full) > 0, "{config:?}: the projection merges something");
        let exact = exact_shortest(&bounds(variant, Alphabet::Default, config.clone(), 7));
        for invariant in InvariantId::CHECKED {
            let ours = checker_shortest(&bounds(variant, Alphabet::Default, config.clone(), 7), vec![invariant]);
            assert_eq!(ours, exact.get(&invariant).copied(), "{config:?}: {}", invariant.id());
        }
    }
}

#[test]
fn the_shortest_counterexample_for_each_invariant_has_the_exact_length() {
    let cases = [(Alphabet::Default, Config::default(), 8), (Alphabet::Full, unclean(), 6)];
    for variant in Variant::ALL {
        for (alphabet, config, depth) in cases.clone() {
            let config = bounds(variant, alphabet, config, depth);
            let exact = exact_shortest(&config);
            for invariant in InvariantId::CHECKED {
                let ours = checker_shortest(&config, vec![invariant]);
                assert_eq!(ours, exact.get(&invariant).copied(), "{} {alphabet:?}: {}", variant.id(), invariant.id());
            }
            let goal = default_goal();
            let first = exact.iter().filter(|(i, _)| goal.contains(i)).map(|(_, d)| *d).min();
            assert_eq!(checker_shortest(&config, goal), first, "{} {alphabet:?}: the default goal", variant.id());
        }
    }
}
