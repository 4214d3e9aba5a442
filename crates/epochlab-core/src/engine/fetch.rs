//! `fetch`: one fetcher iteration of a follower (spec §3.4 E4a/E4b, E5, §3.5).
//!
//! A follower still truncating does one OffsetsForLeaderEpoch round; otherwise it sends one Fetch, the leader
//! processes it (remote LEO, ISR expansion, HW advance) and the response is applied, unless it is dropped.

use super::narrate::{count, sentence};
use super::{reject, Reject, Sim};
use crate::epoch_cache::{EpochEnd, UNDEFINED};
use crate::state::{BrokerId, Entry, FetchState, Role};
use crate::trace::{Annotation, FetchAnswer, TruncateCause};
use crate::variant::FollowerDecision;

pub(crate) fn fetch(sim: &mut Sim<'_>, f: BrokerId, drop_response: bool) -> Result<String, Reject> {
    let l = check_can_fetch(sim, f)?;
    let r = sim.state.replica(f);
    let text = if r.fetch_state != FetchState::Truncating {
        let text = fetch_round(sim, f, l, drop_response)?;
        if sim.quiet {
            return Ok(text);
        }
        text
    } else if r.epoch_cache.is_empty() {
        // Nothing to ask about: the fetcher truncates to its HW locally and fetches in the same iteration
        // (`AbstractFetcherThread.doWork`: maybeTruncate, then maybeFetch).
        let fallback = truncate_to_hw_without_epochs(sim, f);
        format!("{fallback}; {}", fetch_round(sim, f, l, drop_response)?)
    } else {
        truncation_round(sim, f, l, drop_response)
    };
    Ok(sentence(&text))
}

/// E5 with an empty epoch cache: "truncate to initial offset which is the high watermark".
fn truncate_to_hw_without_epochs(sim: &mut Sim<'_>, f: BrokerId) -> String {
    let hw = sim.state.replica(f).hw;
    let removed = sim.truncate_to(f, hw, TruncateCause::OwnHw);
    sim.state.replicas[f as usize].fetch_state = FetchState::Fetching;
    format!(
        "{} has no epoch in its cache to ask about, so it truncates to its HW {hw}{}",
        sim.name(f),
        discarding(sim, &removed)
    )
}

/// The follower must be up and following someone who is up and leading; with KIP-320 the epochs must match.
fn check_can_fetch(sim: &Sim<'_>, f: BrokerId) -> Result<BrokerId, Reject> {
    let r = sim.state.replica(f);
    let name = sim.name(f);
    if !r.up {
        return reject("BROKER_NOT_AVAILABLE", format!("{name} is down, so it cannot fetch"));
    }
    match r.role {
        Role::Leader => return reject("NOT_FOLLOWER", format!("{name} believes it leads; only followers fetch")),
        Role::None => return reject("LEADER_NOT_AVAILABLE", format!("{name} knows no leader to fetch from")),
        Role::Follower => {}
    }
    let Some(l) = r.known_leader else {
        return reject("LEADER_NOT_AVAILABLE", format!("{name} knows no leader to fetch from"));
    };
    let lr = sim.state.replica(l);
    if !lr.is_acting_leader() {
        let state = if lr.up { "no longer believes it leads" } else { "is down" };
        return reject("NOT_LEADER_OR_FOLLOWER", format!("{name} fetches from {}, which {state}", sim.name(l)));
    }
    if sim.protocol.fences_stale_epochs() && r.known_epoch != lr.known_epoch {
        let (reason, how) = if r.known_epoch < lr.known_epoch {
            ("FENCED_LEADER_EPOCH", "older than")
        } else {
            ("UNKNOWN_LEADER_EPOCH", "newer than")
        };
        return reject(
            reason,
            format!(
                "{name}'s current leader epoch {} is {how} {}'s epoch {}, and KIP-320 fences the request",
                r.known_epoch,
                sim.name(l),
                lr.known_epoch
            ),
        );
    }
    Ok(l)
}

/// E5: one OffsetsForLeaderEpoch round.
fn truncation_round(sim: &mut Sim<'_>, f: BrokerId, l: BrokerId, dropped: bool) -> String {
    let (fname, lname) = (sim.name(f).to_string(), sim.name(l).to_string());
    let r = sim.state.replica(f);
    let epoch = r.epoch_cache.latest_epoch();
    let lr = sim.state.replica(l);
    let answer = sim.protocol.leader_end_offset(&lr.epoch_cache, lr.leo(), epoch);
    sim.annotate(Annotation::OffsetsForLeaderEpoch { follower: f, leader: l, epoch, answer: Ok(answer), dropped });
    let asked = format!("{fname} asks {lname} for the end of epoch {epoch}; {lname} answers {}", describe_end(answer));
    if dropped {
        return format!("{asked}, but the response is lost, so {fname} will ask again");
    }
    let r = sim.state.replica(f);
    let decision = sim.protocol.follower_decision(answer, &r.epoch_cache, r.leo(), r.hw);
    let removed = sim.truncate_to(f, decision.truncate_to, TruncateCause::LeaderEpoch);
    let r = &mut sim.state.replicas[f as usize];
    let next = if decision.done {
        r.fetch_state = FetchState::Fetching;
        "and starts fetching".to_string()
    } else {
        format!("and asks again with its new latest epoch {}", r.epoch_cache.latest_epoch())
    };
    format!("{asked}; {fname} {}{} {next}", decision.explain(), discarding(sim, &removed))
}

/// E4a + E4b: one Fetch request, processed on the leader, and its response applied on the follower.
fn fetch_round(sim: &mut Sim<'_>, f: BrokerId, l: BrokerId, dropped: bool) -> Result<String, Reject> {
    let (fname, lname) = (sim.scenario.brokers[f as usize].as_str(), sim.scenario.brokers[l as usize].as_str());
    let offset = sim.state.replica(f).leo();
    let lfe =
        if sim.protocol.divergence_in_fetch() { sim.state.replica(f).epoch_cache.latest_epoch() } else { UNDEFINED };
    let leader_leo = sim.state.replica(l).leo();

    // Variant d: the leader checks LastFetchedEpoch first, and does not record this fetch (KAFKA-13141).
    if lfe != UNDEFINED {
        let lr = sim.state.replica(l);
        let end = lr.epoch_cache.end_offset_21(leader_leo, lfe);
        if end.epoch < lfe || end.offset < i64::from(offset) {
            sim.annotate(Annotation::Fetch {
                follower: f,
                leader: l,
                offset,
                last_fetched_epoch: lfe,
                answer: FetchAnswer::DivergingEpoch { end },
                dropped,
            });
            let head = format!(
                "{fname} fetches at {offset} with LastFetchedEpoch {lfe}; {lname} answers DivergingEpoch {} because its log differs there",
                describe_end(end)
            );
            if dropped {
                return Ok(format!("{head}, but the response is lost"));
            }
            let r = sim.state.replica(f);
            let decision = sim.protocol.follower_decision(end, &r.epoch_cache, r.leo(), r.hw);
            let removed = sim.truncate_to(f, decision.truncate_to, TruncateCause::DivergingEpoch);
            return Ok(format!("{head}; {fname} {}{}", decision.explain(), discarding(sim, &removed)));
        }
    }

    if offset > leader_leo {
        let error = "OFFSET_OUT_OF_RANGE";
        sim.annotate(Annotation::Fetch {
            follower: f,
            leader: l,
            offset,
            last_fetched_epoch: lfe,
            answer: FetchAnswer::Error { error },
            dropped,
        });
        let head = format!("{fname} fetches at {offset}, past {lname}'s log end {leader_leo}: {lname} answers {error}");
        if dropped {
            return Ok(format!("{head}, but the response is lost"));
        }
        if sim.protocol.halts_on_out_of_range(sim.scenario.config.unclean_leader_election) {
            sim.lose_memory(f);
            let reaction = sim.controller_on_failure(f).map(|t| format!("; {t}")).unwrap_or_default();
            return Ok(format!(
                "{head}; {fname} halts: truncating below its own log would lose data and unclean leader election is disabled (Kafka before 2.1 exits here){reaction}"
            ));
        }
        let removed = sim.truncate_to(f, leader_leo, TruncateCause::OutOfRange);
        return Ok(format!(
            "{head}; {fname} truncates to {leader_leo}{} (\"a potential mismatch we don't fix\")",
            discarding(sim, &removed)
        ));
    }

    // Leader side: remote LEO, ISR expansion, HW.
    sim.state.replicas[l as usize].remote_leo[f as usize] = offset as i32;
    let joined = maybe_expand_isr(sim, l, f, offset);
    sim.maybe_increment_hw(l);
    let lr = sim.state.replica(l);
    let sent: Vec<Entry> = lr.log[offset as usize..].to_vec();
    let leader_hw = lr.hw;
    sim.annotate(Annotation::Fetch {
        follower: f,
        leader: l,
        offset,
        last_fetched_epoch: lfe,
        answer: FetchAnswer::Records { records: sent.iter().map(|e| e.id).collect(), hw: leader_hw },
        dropped,
    });
    let received = (!dropped).then(|| {
        sim.append(f, &sent);
        let new_hw = sim.state.replica(f).leo().min(leader_hw);
        let old_hw = sim.state.replica(f).hw;
        sim.set_hw(f, new_hw);
        let validated = sim.state.replica(f).fetch_state == FetchState::Validating;
        sim.state.replicas[f as usize].fetch_state = FetchState::Fetching;
        (old_hw, new_hw, validated)
    });
    if sim.quiet {
        return Ok(String::new());
    }
    let mut text = format!("{fname} fetches at offset {offset} from {lname}");
    if joined {
        text.push_str(&format!(
            "; {lname} adds {fname} back to the ISR, now {}",
            sim.set_names(sim.state.replica(l).isr)
        ));
    }
    text.push_str(&format!("; {lname}'s HW is {leader_hw}"));
    let Some((old_hw, new_hw, validated)) = received else {
        text.push_str(&format!(", but the response is lost, so {fname} gets no records and does not learn the HW"));
        return Ok(text);
    };
    let got = if sent.is_empty() {
        "nothing new".to_string()
    } else {
        let ids: Vec<u32> = sent.iter().map(|e| e.id).collect();
        format!("{} ({})", count(ids.len(), "record"), sim.labels(&ids))
    };
    text.push_str(&format!("; {fname} receives {got}"));
    if new_hw != old_hw {
        text.push_str(&format!(" and sets its HW to min(LEO, leader HW) = {new_hw}"));
    }
    if validated {
        text.push_str("; no divergence was reported, so its log is confirmed consistent");
    }
    Ok(text)
}

/// `maybeExpandIsr`: the follower rejoins once it reaches the leader's HW (and, with KAFKA-7128, the leader's
/// epoch start offset). The write to the controller succeeds only for the true leader (ZooKeeper CAS).
fn maybe_expand_isr(sim: &mut Sim<'_>, l: BrokerId, f: BrokerId, offset: u32) -> bool {
    let lr = sim.state.replica(l);
    let reached_hw = offset >= lr.hw;
    let reached_epoch_start = !sim.protocol.isr_join_needs_epoch_start() || offset >= lr.leader_epoch_start_offset;
    let is_true_leader = sim.state.true_leader() == Some(l);
    if lr.isr.contains(f) || !reached_hw || !reached_epoch_start || !is_true_leader {
        return false;
    }
    let from = lr.isr;
    sim.state.replicas[l as usize].isr.insert(f);
    sim.state.controller.isr.insert(f);
    let to = sim.state.replica(l).isr;
    sim.annotate(Annotation::IsrChanged { from, to, by_leader: Some(l) });
    true
}

fn describe_end(end: EpochEnd) -> String {
    match (end.epoch, end.offset) {
        (_, UNDEFINED) => "UNDEFINED".to_string(),
        (UNDEFINED, offset) => format!("offset {offset}"),
        (epoch, offset) => format!("(epoch {epoch}, end offset {offset})"),
    }
}

fn discarding(sim: &Sim<'_>, removed: &[u32]) -> String {
    if removed.is_empty() {
        String::new()
    } else {
        format!(", discarding {}", sim.labels(removed))
    }
}

impl FollowerDecision {
    /// "truncates to 1" / "keeps its log".
    fn explain(&self) -> String {
        let what =
            if self.truncates { format!("truncates to {}", self.truncate_to) } else { "keeps its log".to_string() };
        format!("{what} ({})", self.why)
    }
}
