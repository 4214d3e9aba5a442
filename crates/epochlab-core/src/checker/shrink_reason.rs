//! Why a shrunk scenario needs each of its events: what runs differently without it. A later step whose
//! outcome changes is named first (`step 5 (restart) is rejected instead`); else how the cluster ends
//! differently (a log, a broker up or down, the leader, the ISR, a HW); else, when both runs end alike (a
//! record lost either way), the first step from the removed one on after which the cluster differs.

use crate::invariants::InvariantId;
use crate::scenario::Scenario;
use crate::state::{BrokerSet, State};
use crate::trace::{Outcome, Trace};
use crate::variant::Variant;

/// What happens without event `i`: the bug is gone, and the first thing that runs differently.
pub(super) fn reason(best: &Scenario, i: usize, variant: Variant, target: InvariantId) -> String {
    let with = crate::run_variant(best, variant);
    let mut without_it = best.clone();
    without_it.events.remove(i);
    let without = crate::run_variant(&without_it, variant);
    let what = format!("without step {i} ({}), {} no longer fails", best.events[i].kind().words(), target.id());
    let change = later_outcome_change(&with, &without, i)
        .or_else(|| difference(&with, without.final_state(), with.final_state()).map(|d| format!("at the end, {d}")))
        .or_else(|| first_state_change(&with, &without, i));
    match change {
        Some(change) => format!("{what}: {change}"),
        None => format!("{what}, though every step and the cluster run as before"),
    }
}

/// The first later step that is applied where it was rejected, or the other way round.
fn later_outcome_change(with: &Trace, without: &Trace, removed: usize) -> Option<String> {
    without.steps.iter().enumerate().skip(removed).find_map(|(j, step)| {
        (step.outcome != with.steps[j + 1].outcome).then(|| match &step.outcome {
            Outcome::Rejected { reason } => {
                format!("step {} ({}) is rejected instead ({reason})", j + 1, step.kind.words())
            }
            Outcome::Applied => format!("step {} ({}) applies instead of being rejected", j + 1, step.kind.words()),
        })
    })
}

/// From the removed step on, the first point where the two runs' clusters differ, as "after step N".
fn first_state_change(with: &Trace, without: &Trace, removed: usize) -> Option<String> {
    (removed..with.steps.len()).find_map(|k| {
        // Without the event, the first k events of `without` stand where the first k + 1 of `with` do.
        let before = if k == 0 { &without.initial } else { without.state_at(Some(k - 1)) };
        difference(with, before, &with.steps[k].state)
            .map(|d| format!("after step {k} ({}), {d}", with.steps[k].kind.words()))
    })
}

/// How state `without` differs from `with`, in the first of the ways a learner sees on the page.
fn difference(t: &Trace, without: &State, with: &State) -> Option<String> {
    let name = |b: usize| t.broker_name(b as u8).to_string();
    let log = |s: &State, b: usize| -> Vec<&str> { s.replicas[b].log.iter().map(|e| t.label(e.id)).collect() };
    let show = |l: Vec<&str>| if l.is_empty() { "empty".to_string() } else { format!("[{}]", l.join(", ")) };
    let brokers = 0..with.replicas.len();
    let changed = |f: &dyn Fn(&State, usize) -> String| brokers.clone().find(|&b| f(without, b) != f(with, b));
    let up = |s: &State, b: usize| if s.replicas[b].up { "up" } else { "down" }.to_string();
    let hw = |s: &State, b: usize| s.replicas[b].hw.to_string();
    if let Some(b) = changed(&|s, b| show(log(s, b))) {
        return Some(format!("{}'s log is {} instead of {}", name(b), show(log(without, b)), show(log(with, b))));
    }
    if let Some(b) = changed(&up) {
        return Some(format!("{} is {} instead of {}", name(b), up(without, b), up(with, b)));
    }
    let leader = |s: &State| s.controller.leader.map_or("no one".to_string(), |l| name(l as usize));
    if leader(without) != leader(with) {
        return Some(format!("{} leads instead of {}", leader(without), leader(with)));
    }
    let isr = |set: BrokerSet| format!("{{{}}}", set.iter().map(|b| name(b as usize)).collect::<Vec<_>>().join(", "));
    if without.controller.isr != with.controller.isr {
        let (a, b) = (isr(without.controller.isr), isr(with.controller.isr));
        return Some(format!("the controller's ISR is {a} instead of {b}"));
    }
    changed(&hw).map(|b| format!("{}'s HW is {} instead of {}", name(b), hw(without, b), hw(with, b)))
}
