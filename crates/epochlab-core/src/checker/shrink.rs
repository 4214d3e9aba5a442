//! The shrinker: from a scenario that shows a bug, a 1-minimal one that still shows it. Delta debugging
//! drops chunks of events, then single events; then each field is set back to its default (acks,
//! power, drop_response, notify_controller, deliver) where the bug survives; repeated until nothing
//! changes. Removing any one remaining event, or simplifying any remaining field, makes the same invariant
//! (under the same variant) stop failing. Each remaining event then gets its reason: what happens without it.

use super::shrink_reason::reason;
use crate::invariants::InvariantId;
use crate::scenario::{Acks, Delivery, Event, Scenario};
use crate::trace::Trace;
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
    /// The other variants that broke an invariant (as a bug) on the scenario but break none on the shrunk
    /// one: it keeps the events the shrink's variant needs, not theirs.
    pub passes_now: Vec<Variant>,
}

impl Shrunk {
    /// Said beside the shrunk scenario when it no longer shows another variant's failure.
    pub fn caveat(&self, variant: Variant) -> Option<String> {
        let ids: Vec<&str> = self.passes_now.iter().map(|v| v.id()).collect();
        let (list, verb) = match ids.as_slice() {
            [] => return None,
            [one] => (one.to_string(), "fails"),
            [rest @ .., last] => (format!("{} and {last}", rest.join(", ")), "fail"),
        };
        Some(format!(
            "Shrunk for {} only: {list} {verb} on the longer scenario but not on this one, which keeps just the \
             events {}'s failure needs.",
            variant.id(),
            variant.id()
        ))
    }
}

/// Shrink `scenario` keeping `invariant` failing under `variant` (default: the gravest bug it shows, so a
/// lost committed record before an ISR inconsistency that happened first: what a learner came to see).
pub fn shrink(scenario: &Scenario, variant: Variant, invariant: Option<InvariantId>) -> Result<Shrunk, ShrinkError> {
    let chosen = invariant.or_else(|| gravest_bug(&crate::run_variant(scenario, variant)));
    let Some(target) = chosen.filter(|i| breaks(scenario, variant, *i)) else {
        return Err(ShrinkError::NoViolation { variant, invariant });
    };
    let mut best = minimize_events(scenario, |s| breaks(s, variant, target));
    best.name = format!("{} (shrunk)", scenario.name);
    let reasons = (0..best.events.len()).map(|i| reason(&best, i, variant, target)).collect();
    let passes_now = Variant::ALL
        .into_iter()
        .filter(|&other| other != variant && any_bug(&crate::run_variant(scenario, other)))
        .filter(|&other| !any_bug(&crate::run_variant(&best, other)))
        .collect();
    shown_first(&mut best, variant);
    Ok(Shrunk { scenario: best, invariant: target, reasons, passes_now })
}

/// Opened on the page, a shrunk scenario shows first the variant it was shrunk for. Shrunk under another
/// variant than its release's, it ran without the release's rules, so it no longer names the release.
fn shown_first(scenario: &mut Scenario, variant: Variant) {
    scenario.config.variant = variant;
    scenario.config.keep_release_consistent();
}

fn gravest_bug(trace: &Trace) -> Option<InvariantId> {
    InvariantId::gravest(&crate::presets::verdict_of(trace).0)
}

fn any_bug(trace: &Trace) -> bool {
    trace.violations.iter().any(|v| !v.by_design)
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
