//! The shrinker: from a scenario that shows a bug, a 1-minimal one that still shows it. Delta debugging
//! drops chunks of events, then single events; then each field is set back to its default (acks,
//! power, drop_response, notify_controller, deliver) where the bug survives; repeated until nothing
//! changes. Removing any one remaining event, or simplifying any remaining field, makes the same invariant
//! (under the same variant) stop failing. Each remaining event then gets its reason: what happens without it.

use crate::invariants::InvariantId;
use crate::scenario::{Acks, Delivery, Event, Scenario};
use crate::trace::{Outcome, Trace};
use crate::variant::Variant;

/// Rounds of removing and simplifying, at most (each round strictly shrinks, so few are ever needed).
const MAX_ROUNDS: usize = 64;

/// Why a scenario cannot be shrunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShrinkError {
    /// The scenario shows no such violation (not by design) under the variant.
    NoViolation {
        /// The variant.
        variant: Variant,
        /// The invariant asked about, if one was.
        invariant: Option<InvariantId>,
    },
}

impl std::fmt::Display for ShrinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ShrinkError::NoViolation { variant, invariant } = self;
        match invariant {
            Some(i) => write!(
                f,
                "the scenario does not break {} under {}, so there is nothing to shrink",
                i.id(),
                variant.id()
            ),
            None => write!(f, "the scenario breaks no invariant under {}, so there is nothing to shrink", variant.id()),
        }
    }
}

/// A 1-minimal scenario and why each of its events is needed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shrunk {
    /// The minimal scenario.
    pub scenario: Scenario,
    /// The invariant it breaks.
    pub invariant: InvariantId,
    /// One per remaining event, in order.
    pub reasons: Vec<String>,
}

/// Shrink `scenario` keeping `invariant` (default: the first bug it shows) failing under `variant`.
pub fn shrink(scenario: &Scenario, variant: Variant, invariant: Option<InvariantId>) -> Result<Shrunk, ShrinkError> {
    let chosen = invariant.or_else(|| first_bug(&crate::run_variant(scenario, variant)));
    let Some(target) = chosen.filter(|i| breaks(scenario, variant, *i)) else {
        return Err(ShrinkError::NoViolation { variant, invariant });
    };
    let mut best = minimize_events(scenario, |s| breaks(s, variant, target));
    best.name = format!("{} (shrunk)", scenario.name);
    let reasons = (0..best.events.len()).map(|i| reason(&best, i, variant, target)).collect();
    Ok(Shrunk { scenario: best, invariant: target, reasons })
}

fn first_bug(trace: &Trace) -> Option<InvariantId> {
    trace.violations.iter().filter(|v| !v.by_design).min_by_key(|v| v.step).map(|v| v.invariant)
}

fn breaks(s: &Scenario, variant: Variant, invariant: InvariantId) -> bool {
    crate::run_variant(s, variant).violations.iter().any(|v| v.invariant == invariant && !v.by_design)
}

/// Remove events and simplify fields for as long as `fails` holds; the result is 1-minimal for it.
pub fn minimize_events(scenario: &Scenario, fails: impl Fn(&Scenario) -> bool) -> Scenario {
    let mut best = scenario.clone();
    for _ in 0..MAX_ROUNDS {
        let removed = remove_chunks(&mut best, &fails);
        let simplified = simplify_fields(&mut best, &fails);
        if !removed && !simplified {
            break;
        }
    }
    best
}

/// Drop runs of events, halving the run length down to single events. Returns whether any went.
fn remove_chunks(best: &mut Scenario, fails: &impl Fn(&Scenario) -> bool) -> bool {
    let mut changed = false;
    let mut chunk = best.events.len().max(1);
    while chunk >= 1 {
        let mut i = 0;
        while i < best.events.len() {
            let mut candidate = best.clone();
            candidate.events.drain(i..(i + chunk).min(best.events.len()));
            if fails(&candidate) {
                *best = candidate;
                changed = true;
            } else {
                i += chunk;
            }
        }
        chunk /= 2;
    }
    changed
}

fn simplify_fields(best: &mut Scenario, fails: &impl Fn(&Scenario) -> bool) -> bool {
    let mut changed = false;
    for i in 0..best.events.len() {
        for simpler in simpler(&best.events[i]) {
            let mut candidate = best.clone();
            candidate.events[i] = simpler;
            if fails(&candidate) {
                *best = candidate;
                changed = true;
                break;
            }
        }
    }
    changed
}

/// The event with one field set back to its default, for each field that is not.
pub fn simpler(event: &Event) -> Vec<Event> {
    let mut out = Vec::new();
    match event {
        Event::Elect { broker, deliver } if *deliver != Delivery::All => {
            out.push(Event::Elect { broker: broker.clone(), deliver: Delivery::All });
        }
        Event::Produce { record, acks, broker } if *acks != Acks::All => {
            out.push(Event::Produce { record: record.clone(), acks: Acks::All, broker: broker.clone() });
        }
        Event::Fetch { broker, drop_response: true } => {
            out.push(Event::Fetch { broker: broker.clone(), drop_response: false })
        }
        Event::Crash { broker, power, notify_controller } => {
            if *power {
                out.push(Event::Crash { broker: broker.clone(), power: false, notify_controller: *notify_controller });
            }
            if !*notify_controller {
                out.push(Event::Crash { broker: broker.clone(), power: *power, notify_controller: true });
            }
        }
        Event::Restart { broker, deliver: false } => out.push(Event::Restart { broker: broker.clone(), deliver: true }),
        _ => {}
    }
    out
}

/// What happens without event `i`: the bug is gone, and the first thing that runs differently.
fn reason(best: &Scenario, i: usize, variant: Variant, target: InvariantId) -> String {
    let with = crate::run_variant(best, variant);
    let mut without_it = best.clone();
    without_it.events.remove(i);
    let without = crate::run_variant(&without_it, variant);
    let what = format!("without step {i} ({}), {} no longer fails", best.events[i].kind().words(), target.id());
    match first_change(&with, &without, i) {
        Some(change) => format!("{what}: {change}"),
        None => what,
    }
}

/// The first later step whose outcome changes, or the first broker whose final log differs.
fn first_change(with: &Trace, without: &Trace, removed: usize) -> Option<String> {
    for (j, step) in without.steps.iter().enumerate().skip(removed) {
        let original = &with.steps[j + 1];
        if step.outcome != original.outcome {
            return Some(match step.outcome {
                Outcome::Rejected { reason } => {
                    format!("step {} ({}) is rejected instead ({reason})", j + 1, step.kind.words())
                }
                Outcome::Applied => format!("step {} ({}) applies instead of being rejected", j + 1, step.kind.words()),
            });
        }
    }
    let logs = |t: &Trace, b: usize| {
        t.final_state().replicas[b].log.iter().map(|e| t.label(e.id).to_string()).collect::<Vec<_>>()
    };
    let show = |l: Vec<String>| if l.is_empty() { "empty".to_string() } else { format!("[{}]", l.join(", ")) };
    let name = |b: usize| with.broker_name(b as u8).to_string();
    if let Some(b) = (0..with.brokers.len()).find(|&b| logs(with, b) != logs(without, b)) {
        return Some(format!("{}'s log ends {} instead of {}", name(b), show(logs(without, b)), show(logs(with, b))));
    }
    let leader =
        |t: &Trace| t.final_state().controller.leader.map_or("no one".to_string(), |l| t.broker_name(l).to_string());
    if leader(with) != leader(without) {
        return Some(format!("{} leads at the end instead of {}", leader(without), leader(with)));
    }
    let hw = |t: &Trace, b: usize| t.final_state().replicas[b].hw;
    (0..with.brokers.len())
        .find(|&b| hw(with, b) != hw(without, b))
        .map(|b| format!("{}'s HW ends at {} instead of {}", name(b), hw(without, b), hw(with, b)))
}
