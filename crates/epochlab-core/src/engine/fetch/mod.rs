//! `fetch`: one fetcher iteration of a follower (model §3.4 E4a/E4b, E5, §3.5).
//!
//! A follower still truncating does one OffsetsForLeaderEpoch round; otherwise it sends one Fetch, the leader
//! processes it (remote LEO, ISR expansion, HW advance) and the response is applied, unless it is dropped.
//! [`iterate`] changes the state and says what happened as data; the narration is derived from that after
//! the change (`narrate`), so `settle` runs iterations without building sentences it would not show.

mod exchange;
mod narrate;
mod truncation;

use super::alter_partition::Answer;
use super::narrate::sentence;
use super::{Reject, Sim};
use crate::kafka_error::KafkaError;
use crate::state::{BrokerId, FetchState, Role};
use crate::trace::TruncateCause;

pub(crate) use exchange::Exchange;
pub(crate) use truncation::Truncation;

/// What one fetcher iteration did.
pub(crate) struct Iteration {
    pub(crate) follower: BrokerId,
    pub(crate) leader: BrokerId,
    /// With an empty epoch cache, the local truncation to the HW that came first (E5's fallback).
    pub(crate) fallback: Option<Fallback>,
    pub(crate) round: Round,
    /// The controller's answer to the leader's AlterPartition, arrived before it served this request.
    pub(crate) answer: Option<Answer>,
}

/// E5 with an empty epoch cache: "truncate to initial offset which is the high watermark".
pub(crate) struct Fallback {
    pub(crate) hw: u32,
    pub(crate) removed: Vec<u32>,
}

/// The round trip the iteration made.
pub(crate) enum Round {
    /// OffsetsForLeaderEpoch (E5).
    Truncation(Truncation),
    /// Fetch (E4a + E4b).
    Fetch(Exchange),
}

/// The `fetch` event.
pub(crate) fn fetch(sim: &mut Sim<'_>, f: BrokerId, drop_response: bool) -> Result<String, Reject> {
    let iteration = iterate(sim, f, drop_response)?;
    if sim.quiet {
        return Ok(String::new());
    }
    Ok(sentence(&narrate::iteration(sim, &iteration)))
}

/// One fetcher iteration: the state change and what it consisted of, or why the follower cannot fetch.
pub(crate) fn iterate(sim: &mut Sim<'_>, f: BrokerId, dropped: bool) -> Result<Iteration, Reject> {
    let l = check_can_fetch(sim, f)?;
    let answer = sim.answer_alter_partition(l);
    let r = sim.state.replica(f);
    let (fallback, round) = if r.fetch_state != FetchState::Truncating {
        (None, Round::Fetch(exchange::round(sim, f, l, dropped)))
    } else if r.epoch_cache.is_empty() {
        // Nothing to ask about: the fetcher truncates to its HW locally and fetches in the same iteration
        // (`AbstractFetcherThread.doWork`: maybeTruncate, then maybeFetch).
        let fallback = truncate_to_hw_without_epochs(sim, f);
        (Some(fallback), Round::Fetch(exchange::round(sim, f, l, dropped)))
    } else {
        (None, Round::Truncation(truncation::round(sim, f, l, dropped)))
    };
    Ok(Iteration { follower: f, leader: l, fallback, round, answer })
}

fn truncate_to_hw_without_epochs(sim: &mut Sim<'_>, f: BrokerId) -> Fallback {
    let hw = sim.state.replica(f).hw;
    let removed = sim.truncate_to(f, hw, TruncateCause::OwnHw);
    sim.state.replicas[f as usize].fetch_state = FetchState::Fetching;
    Fallback { hw, removed }
}

/// The follower must be up and following someone who is up and leading; with KIP-320 the epochs must match.
fn check_can_fetch(sim: &Sim<'_>, f: BrokerId) -> Result<BrokerId, Reject> {
    let r = sim.state.replica(f);
    let name = sim.name(f);
    if !r.up {
        return refuse!(sim, KafkaError::BrokerNotAvailable, "{name} is down, so it cannot fetch");
    }
    match r.role {
        Role::Leader => return refuse!(sim, KafkaError::NotFollower, "{name} believes it leads; only followers fetch"),
        Role::None => return refuse!(sim, KafkaError::LeaderNotAvailable, "{name} knows no leader to fetch from"),
        Role::Follower => {}
    }
    let Some(l) = r.known_leader else {
        return refuse!(sim, KafkaError::LeaderNotAvailable, "{name} knows no leader to fetch from");
    };
    let lr = sim.state.replica(l);
    if !lr.is_acting_leader() {
        let state = if lr.up { "no longer believes it leads" } else { "is down" };
        return refuse!(sim, KafkaError::NotLeaderOrFollower, "{name} fetches from {}, which {state}", sim.name(l));
    }
    if sim.protocol.fences_stale_epochs() && r.known_epoch != lr.known_epoch {
        return fenced(sim, f, l);
    }
    Ok(l)
}

/// KIP-320: the request's current leader epoch does not match the leader's.
fn fenced(sim: &Sim<'_>, f: BrokerId, l: BrokerId) -> Result<BrokerId, Reject> {
    let (mine, theirs) = (sim.state.replica(f).known_epoch, sim.state.replica(l).known_epoch);
    let (reason, how) = if mine < theirs {
        (KafkaError::FencedLeaderEpoch, "older than")
    } else {
        (KafkaError::UnknownLeaderEpoch, "newer than")
    };
    refuse!(
        sim,
        reason,
        "{}'s current leader epoch {mine} is {how} {}'s epoch {theirs}, and KIP-320 fences the request",
        sim.name(f),
        sim.name(l)
    )
}
