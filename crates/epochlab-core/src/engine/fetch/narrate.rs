//! The sentence for one fetcher iteration, derived after the state change from what it did.

use super::super::narrate::count;
use super::super::Sim;
use super::exchange::{Exchange, Response};
use super::truncation::Truncation;
use super::{Iteration, Round};
use crate::epoch_cache::{EpochEnd, UNDEFINED};
use crate::state::BrokerId;
use crate::trace::FetchAnswer;
use crate::variant::FollowerDecision;

/// Names of the two brokers of an iteration.
struct Pair<'s> {
    follower: &'s str,
    leader: &'s str,
    leader_id: BrokerId,
}

pub(super) fn iteration(sim: &Sim<'_>, it: &Iteration) -> String {
    let names = Pair { follower: sim.name(it.follower), leader: sim.name(it.leader), leader_id: it.leader };
    let round = match &it.round {
        Round::Truncation(t) => truncation(sim, &names, t),
        Round::Fetch(x) => exchange(sim, &names, x),
    };
    sim.after_answer(it.leader, it.answer.as_ref(), with_fallback(sim, &names, it, round))
}

fn with_fallback(sim: &Sim<'_>, names: &Pair<'_>, it: &Iteration, round: String) -> String {
    match &it.fallback {
        None => round,
        Some(fb) => format!(
            "{} has no epoch in its cache to ask about, so it truncates to its HW {}{}; {round}",
            names.follower,
            fb.hw,
            discarding(sim, &fb.removed)
        ),
    }
}

fn truncation(sim: &Sim<'_>, n: &Pair<'_>, t: &Truncation) -> String {
    let (f, l) = (n.follower, n.leader);
    let asked = format!("{f} asks {l} for the end of epoch {}; {l} answers {}", t.epoch, describe_end(t.answer));
    let Some(applied) = &t.applied else {
        return format!("{asked}, but the response is lost, so {f} will ask again");
    };
    let next = match applied.asks_next {
        None => "and starts fetching".to_string(),
        Some(epoch) => format!("and asks again with its new latest epoch {epoch}"),
    };
    format!("{asked}; {f} {}{} {next}", explain(&applied.decision), discarding(sim, &applied.removed))
}

fn exchange(sim: &Sim<'_>, n: &Pair<'_>, x: &Exchange) -> String {
    let (f, l) = (n.follower, n.leader);
    let lost = matches!(x.response, Response::Lost);
    match &x.answer {
        FetchAnswer::DivergingEpoch { end } => {
            let head = format!(
                "{f} fetches at {} with LastFetchedEpoch {}; {l} answers DivergingEpoch {} because its log differs there",
                x.offset,
                x.last_fetched_epoch,
                describe_end(*end)
            );
            match &x.response {
                Response::Diverged { decision, removed } => {
                    format!("{head}; {f} {}{}", explain(decision), discarding(sim, removed))
                }
                _ => format!("{head}, but the response is lost"),
            }
        }
        FetchAnswer::Error { error } => {
            let head = format!("{f} fetches at {}, past {l}'s log end {}: {l} answers {error}", x.offset, x.leader_leo);
            out_of_range(sim, f, head, x)
        }
        FetchAnswer::Records { hw, .. } if lost => {
            let head = records_head(sim, n, x, *hw);
            format!("{head}, but the response is lost, so {f} gets no records and does not learn the HW")
        }
        FetchAnswer::Records { hw, .. } => records(sim, n, x, *hw),
    }
}

fn out_of_range(sim: &Sim<'_>, f: &str, head: String, x: &Exchange) -> String {
    match &x.response {
        Response::Halted { reaction } => format!(
            "{head}; {f} halts: truncating below its own log would lose data and unclean leader election is disabled (Kafka before 2.1 exits here){}",
            reaction.as_ref().map(|t| format!("; {t}")).unwrap_or_default()
        ),
        Response::OutOfRange { removed } => format!(
            "{head}; {f} truncates to {}{} (\"a potential mismatch we don't fix\")",
            x.leader_leo,
            discarding(sim, removed)
        ),
        _ => format!("{head}, but the response is lost"),
    }
}

fn records_head(sim: &Sim<'_>, n: &Pair<'_>, x: &Exchange, leader_hw: u32) -> String {
    let (f, l) = (n.follower, n.leader);
    let mut text = format!("{f} fetches at offset {} from {l}", x.offset);
    let lr = sim.state.replica(n.leader_id);
    if x.joined && !lr.pending_isr.is_empty() {
        let maximal = sim.set_names(lr.maximal_isr());
        text.push_str(&format!(
            "; {l} proposes {f} for the ISR (AlterPartition): its maximal ISR {maximal} counts {f} for the HW at once, while the committed ISR stays {} until the controller answers",
            sim.set_names(lr.isr)
        ));
    } else if x.joined {
        let isr = sim.set_names(lr.isr);
        text.push_str(&format!("; {l} adds {f} back to the ISR, now {isr}"));
    }
    text.push_str(&format!("; {l}'s HW is {leader_hw}"));
    text
}

fn records(sim: &Sim<'_>, n: &Pair<'_>, x: &Exchange, leader_hw: u32) -> String {
    let mut text = records_head(sim, n, x, leader_hw);
    let Response::Records { received, old_hw, new_hw, validated } = &x.response else { return text };
    let got = if received.is_empty() {
        "nothing new".to_string()
    } else {
        format!("{} ({})", count(received.len(), "record"), sim.labels(received))
    };
    text.push_str(&format!("; {} receives {got}", n.follower));
    if new_hw != old_hw {
        text.push_str(&format!(" and sets its HW to min(LEO, leader HW) = {new_hw}"));
    }
    if *validated {
        text.push_str("; no divergence was reported, so its log is confirmed consistent");
    }
    text
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

/// "truncates to 1 (why)" / "keeps its log (why)".
fn explain(d: &FollowerDecision) -> String {
    let what = if d.truncates { format!("truncates to {}", d.truncate_to) } else { "keeps its log".to_string() };
    format!("{what} ({})", d.why)
}
