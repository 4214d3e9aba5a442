//! `settle`: rounds of `fetch` for every live follower in assignment order until a whole round changes
//! nothing, at most [`MAX_ROUNDS`]. A shortcut for "let replication catch up".

use super::narrate::{count, sentence};
use super::{fetch, Reject, Sim};
use crate::scenario::MAX_BROKERS;
use crate::state::{BrokerId, BrokerSet, FetchState, Role};
use crate::trace::Annotation;

/// The bound on fetch rounds in one settle.
pub(crate) const MAX_ROUNDS: u32 = 100;

pub(crate) fn settle(sim: &mut Sim<'_>) -> Result<String, Reject> {
    let mut rounds = 0;
    let mut quiet = false;
    sim.quiet = true;
    while rounds < MAX_ROUNDS {
        rounds += 1;
        let before = fingerprint(sim);
        for b in 0..sim.state.replicas.len() as BrokerId {
            let r = sim.state.replica(b);
            if r.up && r.role == Role::Follower {
                // A follower that cannot fetch right now just sits this round out.
                let _ = fetch::fetch(sim, b, false);
            }
        }
        if fingerprint(sim) == before {
            quiet = true;
            break;
        }
    }
    sim.quiet = false;
    let facts = summarize(sim);
    let how = if quiet {
        format!("{} until nothing changes", count(rounds as usize - 1, "fetch round"))
    } else {
        format!("{MAX_ROUNDS} fetch rounds, and it is still changing")
    };
    Ok(sentence(&if facts.is_empty() {
        format!("replication settles after {how}: nothing to do")
    } else {
        format!("replication settles after {how}: {}", facts.join("; "))
    }))
}

/// Per replica: up, LEO, HW, fetch state, remote LEOs, epoch-cache length, ISR view.
type ReplicaPrint = (bool, u32, u32, FetchState, [i32; MAX_BROKERS], usize, BrokerSet);

/// What a fetch round can change, cheap to compare. Within one round each follower fetches once, so a log
/// that changed also changed length (a fetch either truncates or appends, never both).
fn fingerprint(sim: &Sim<'_>) -> (Vec<ReplicaPrint>, BrokerSet) {
    let replicas = sim
        .state
        .replicas
        .iter()
        .map(|r| (r.up, r.leo(), r.hw, r.fetch_state, r.remote_leo, r.epoch_cache.entries().len(), r.isr))
        .collect();
    (replicas, sim.state.controller.isr)
}

/// Per broker: records received, records truncated, and where its HW ended.
fn summarize(sim: &Sim<'_>) -> Vec<String> {
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
