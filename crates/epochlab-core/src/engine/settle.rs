//! `settle`: rounds of `fetch` for every live follower in assignment order until a whole round changes
//! nothing, at most [`MAX_ROUNDS`]. A shortcut for "let replication catch up" (model §3.4 E13).
//!
//! Its sentence is derived afterwards from the step's annotations, so it names everything the rounds did:
//! halts, ISR and leadership changes, acknowledgements, truncations, records received and HW moves.

use super::fetch;
use super::narrate::{count, sentence};
use super::{Reject, Sim};
use crate::scenario::MAX_BROKERS;
use crate::state::{BrokerId, BrokerSet, FetchState, Role};
use crate::trace::{Annotation, ProduceResult};

/// The bound on fetch rounds in one settle.
pub(crate) const MAX_ROUNDS: u32 = 100;

/// The sentence of a settle that changed nothing.
pub(crate) const NOTHING_TO_DO: &str = "nothing to do";

pub(crate) fn settle(sim: &mut Sim<'_>) -> Result<String, Reject> {
    let before = sim.state.clone();
    let (rounds, still_changing) = run_rounds(sim);
    if sim.quiet {
        return Ok(String::new());
    }
    let mut facts = cluster_facts(sim, before.controller.leader_epoch);
    facts.extend(broker_facts(sim));
    if facts.is_empty() && sim.state != before {
        facts = caught_up(sim);
    }
    let how = if still_changing {
        format!("{MAX_ROUNDS} fetch rounds, and it is still changing")
    } else {
        format!("{} until nothing changes", count(rounds as usize - 1, "fetch round"))
    };
    let what = if facts.is_empty() { NOTHING_TO_DO.to_string() } else { facts.join("; ") };
    Ok(sentence(&format!("replication settles after {how}: {what}")))
}

/// Fetch rounds until one changes nothing. Returns the rounds run and whether it stopped at the bound.
fn run_rounds(sim: &mut Sim<'_>) -> (u32, bool) {
    for round in 1..=MAX_ROUNDS {
        let before = progress(sim);
        for b in 0..sim.state.replicas.len() as BrokerId {
            let r = sim.state.replica(b);
            if r.up && r.role == Role::Follower {
                // A follower that cannot fetch right now just sits this round out.
                let _ = fetch::iterate(sim, b, false);
            }
        }
        if progress(sim) == before {
            return (round, false);
        }
    }
    (MAX_ROUNDS, true)
}

/// Per replica: up, LEO, HW, fetch state, remote LEOs, epoch-cache length, ISR view and pending ISR.
type ReplicaProgress = (bool, u32, u32, FetchState, [i32; MAX_BROKERS], usize, BrokerSet, BrokerSet);

/// What a fetch round can change, cheap to compare. Within one round each follower fetches once, so a log
/// that changed also changed length (a fetch either truncates or appends, never both).
fn progress(sim: &Sim<'_>) -> (Vec<ReplicaProgress>, BrokerSet, i32) {
    let replicas = sim
        .state
        .replicas
        .iter()
        .map(|r| {
            (r.up, r.leo(), r.hw, r.fetch_state, r.remote_leo, r.epoch_cache.entries().len(), r.isr, r.pending_isr)
        })
        .collect();
    (replicas, sim.state.controller.isr, sim.state.controller.leader_epoch)
}

/// Halts, ISR changes, elections and produce results, in the order they happened, then the epoch's move.
fn cluster_facts(sim: &Sim<'_>, epoch_before: i32) -> Vec<String> {
    let mut facts: Vec<String> = sim.annotations.iter().filter_map(|a| cluster_fact(sim, a)).collect();
    let epoch = sim.state.controller.leader_epoch;
    if epoch != epoch_before {
        facts.push(format!("the leader epoch moves from {epoch_before} to {epoch}"));
    }
    facts
}

fn cluster_fact(sim: &Sim<'_>, a: &Annotation) -> Option<String> {
    Some(match a {
        Annotation::Halted { broker } => {
            format!("{} halts on OFFSET_OUT_OF_RANGE (Kafka before 2.1 exits here)", sim.name(*broker))
        }
        Annotation::IsrChanged { from, to, by_leader } => {
            let who = by_leader.map_or("the controller".to_string(), |l| format!("leader {}", sim.name(l)));
            format!("{who} changes the ISR from {} to {}", sim.set_names(*from), sim.set_names(*to))
        }
        Annotation::Elected { leader: Some(l), epoch, .. } => {
            format!("the controller elects {} leader of epoch {epoch}", sim.name(*l))
        }
        Annotation::Elected { leader: None, epoch, .. } => format!("the partition goes offline in epoch {epoch}"),
        Annotation::Produced { record, result: ProduceResult::Acked } => {
            format!("{} is acknowledged", sim.label(*record))
        }
        Annotation::Produced { record, result } => {
            format!("the produce of {} fails with {}", sim.label(*record), result.name())
        }
        _ => return None,
    })
}

/// A settle whose only change is the leaders learning where their followers are: say who fetched.
fn caught_up(sim: &Sim<'_>) -> Vec<String> {
    let mut pairs: Vec<(BrokerId, BrokerId)> = Vec::new();
    for a in &sim.annotations {
        let (Annotation::Fetch { follower, leader, .. } | Annotation::OffsetsForLeaderEpoch { follower, leader, .. }) =
            a
        else {
            continue;
        };
        if !pairs.contains(&(*follower, *leader)) {
            pairs.push((*follower, *leader));
        }
    }
    let each = pairs.iter().map(|&(f, l)| format!("{} fetches from {} and is up to date", sim.name(f), sim.name(l)));
    each.collect()
}

/// Per broker: records truncated, records received, and where its HW ended.
fn broker_facts(sim: &Sim<'_>) -> Vec<String> {
    let mut facts = Vec::new();
    for b in 0..sim.state.replicas.len() as BrokerId {
        let (mut got, mut lost, mut hw_moved) = (Vec::new(), Vec::new(), false);
        for a in &sim.annotations {
            match a {
                Annotation::Appended { broker, records, .. } if *broker == b => got.extend_from_slice(records),
                Annotation::Truncated { broker, removed, .. } if *broker == b => lost.extend_from_slice(removed),
                Annotation::HwMoved { broker, .. } if *broker == b => hw_moved = true,
                _ => {}
            }
        }
        let name = sim.name(b);
        let mut parts = Vec::new();
        if !lost.is_empty() {
            parts.push(format!("{name} truncates {}", sim.labels(&lost)));
        }
        if !got.is_empty() {
            parts.push(format!("{name} receives {}", sim.labels(&got)));
        }
        if hw_moved {
            parts.push(format!("{name}'s HW is {}", sim.state.replica(b).hw));
        }
        if !parts.is_empty() {
            facts.push(parts.join(", "));
        }
    }
    facts
}
