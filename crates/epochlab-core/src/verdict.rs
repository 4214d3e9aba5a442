//! What a variant's panel says about it, computed here so that the screen never contradicts the trace: the
//! verdict in words (saying so when a variant holds only because a write was refused) and the invariant
//! list, bugs first, then the losses Kafka allows grouped by why they are allowed.

use crate::invariants::InvariantId;
use crate::kafka_error::KafkaError;
use crate::presets::verdict_of;
use crate::scenario::{Event, Scenario};
use crate::trace::Trace;

/// The rejection min.insync.replicas gives a write (model §3).
const NOT_ENOUGH_REPLICAS: KafkaError = KafkaError::NotEnoughReplicas;
/// The rejection of a write sent to a broker that does not lead (model §3.4 E3).
const NOT_LEADER_OR_FOLLOWER: KafkaError = KafkaError::NotLeaderOrFollower;

/// A variant that holds every invariant only because writes were refused: accepted, the same scenario fails
/// `fails`. Accepted means min.insync.replicas = 1 for NOT_ENOUGH_REPLICAS, and, for NOT_LEADER_OR_FOLLOWER,
/// the write sent on to the controller's leader (as a producer's retry would).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldByRefusal {
    /// Kafka's error for the refused writes.
    pub reason: KafkaError,
    /// The steps whose write was refused.
    pub steps: Vec<u32>,
    /// The scenario's min.insync.replicas.
    pub min_insync_replicas: u8,
    /// What fails once those writes are accepted (min.insync.replicas = 1).
    pub fails: Vec<InvariantId>,
}

/// Whether `trace` (a run of `scenario`) holds every invariant only because writes were refused: the
/// counterfactual run with min.insync.replicas = 1 fails an invariant. `None` when it fails anyway, holds
/// anyway, or refused nothing.
pub fn held_by_refusal(scenario: &Scenario, trace: &Trace) -> Option<HeldByRefusal> {
    if !verdict_of(trace).0.is_empty() {
        return None;
    }
    let min_insync_replicas = scenario.config.min_insync_replicas;
    let refused = |reason: KafkaError| -> Vec<u32> {
        trace.steps.iter().filter(|s| s.outcome.error() == Some(reason)).map(|s| s.index).collect()
    };
    // The counterfactual is a whole run: only when something was refused.
    let held = |reason: KafkaError, steps: Vec<u32>, accepting: &dyn Fn() -> Scenario| {
        if steps.is_empty() {
            return None;
        }
        let (fails, _) = verdict_of(&crate::run_variant(&accepting(), trace.variant));
        (!fails.is_empty()).then_some(HeldByRefusal { reason, steps, min_insync_replicas, fails })
    };
    let accepting_all = || {
        let mut accepting = scenario.clone();
        accepting.config.min_insync_replicas = 1;
        accepting
    };
    let by_min_isr =
        (min_insync_replicas > 1).then(|| held(NOT_ENOUGH_REPLICAS, refused(NOT_ENOUGH_REPLICAS), &accepting_all));
    by_min_isr.flatten().or_else(|| {
        let steps = refused(NOT_LEADER_OR_FOLLOWER);
        held(NOT_LEADER_OR_FOLLOWER, steps.clone(), &|| sent_to_the_leader(scenario, &steps))
    })
}

/// The scenario with the produces at `steps` sent to the controller's leader instead of a named broker.
fn sent_to_the_leader(scenario: &Scenario, steps: &[u32]) -> Scenario {
    let mut s = scenario.clone();
    for &i in steps {
        if let Some(Event::Produce { broker, .. }) = s.events.get_mut(i as usize) {
            *broker = None;
        }
    }
    s
}

impl HeldByRefusal {
    /// "the write at step 15 was refused (min.insync.replicas = 2)".
    pub fn refused(&self) -> String {
        let steps: Vec<String> = self.steps.iter().map(u32::to_string).collect();
        let (writes, were) = match steps.len() {
            1 => (format!("the write at step {}", steps[0]), "was"),
            _ => (format!("the writes at steps {}", steps.join(", ")), "were"),
        };
        if self.reason == NOT_ENOUGH_REPLICAS {
            format!("{writes} {were} refused (min.insync.replicas = {})", self.min_insync_replicas)
        } else {
            format!("{writes} {were} refused ({}: sent to a broker that does not lead)", self.reason)
        }
    }
}

/// What a verdict badge means, said where it stands (its tooltip): over which run it is, and what each
/// invariant it names is.
pub fn verdict_tooltip(bugs: &[InvariantId]) -> String {
    if bugs.is_empty() {
        return "Over every step of this scenario under this column's rules, no invariant fails (the Invariants \
                list below says which held only by design)."
            .to_string();
    }
    let named: Vec<String> = bugs.iter().map(|i| format!("{} ({})", i.id(), i.name())).collect();
    format!(
        "Over every step of this scenario under this column's rules, these invariants fail: {}. The Invariants \
         list below says at which step each first fails, and why.",
        named.join(", ")
    )
}

/// The verdict in words: "fails I1, I3", "no invariant fails", or "no invariant fails, because the write at
/// step 7 was refused (min.insync.replicas = 2); accepted, I3 would fail".
pub fn verdict_text(bugs: &[InvariantId], held: Option<&HeldByRefusal>) -> String {
    if !bugs.is_empty() {
        return format!("fails {}", InvariantId::join(bugs, ", "));
    }
    match held {
        Some(h) => format!(
            "no invariant fails, because {}; accepted, {} would fail",
            h.refused(),
            InvariantId::join(&h.fails, ", ")
        ),
        None => "no invariant fails".to_string(),
    }
}

/// For a headline: "holds only because the write at step 7 was refused (min.insync.replicas = 2), and
/// would fail I3 if it were accepted".
pub fn held_text(h: &HeldByRefusal) -> String {
    let it = if h.steps.len() == 1 { "it were" } else { "they were" };
    format!("holds only because {}, and would fail {} if {it} accepted", h.refused(), InvariantId::join(&h.fails, ", "))
}

/// One entry of the invariant list: a violation of the trace, and whether it holds at the step shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Index into `trace.violations`.
    pub index: usize,
    /// It holds at the step shown (otherwise it holds at another step only: dimmed, and said so).
    pub holds_now: bool,
}

/// Allowed losses that share a reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowedGroup {
    /// Why Kafka allows them: "an unclean leader election happened after it was written".
    pub reason: String,
    /// The violations, in the order they first hold.
    pub entries: Vec<Entry>,
}

impl AllowedGroup {
    /// The collapsed group's summary: "6 allowed: an unclean leader election happened after it was written".
    pub fn summary(&self) -> String {
        format!("{} allowed: {}", self.entries.len(), self.reason)
    }
}

/// The invariant list of a variant at a step: bugs first, then allowed losses grouped by reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InvariantList {
    /// Violations that are bugs.
    pub bugs: Vec<Entry>,
    /// Violations Kafka allows, by reason, in the order each reason first appears.
    pub allowed: Vec<AllowedGroup>,
}

/// Why a by-design violation is allowed, from its message's "(allowed: …)" clause.
fn allowed_reason(message: &str) -> String {
    let reason = message.rsplit_once("(allowed: ").map(|(_, r)| r.trim_end_matches(')'));
    reason.unwrap_or("by design").to_string()
}

/// The list for `trace` at `step` (`None`: before the first event, where nothing holds).
pub fn invariant_list(trace: &Trace, step: Option<usize>) -> InvariantList {
    let holding: &[u16] = step.and_then(|s| trace.steps.get(s)).map_or(&[], |s| &s.violations);
    let mut list = InvariantList::default();
    for (index, v) in trace.violations.iter().enumerate() {
        let entry = Entry { index, holds_now: holding.contains(&(index as u16)) };
        if !v.by_design {
            list.bugs.push(entry);
            continue;
        }
        let reason = allowed_reason(&v.message);
        match list.allowed.iter_mut().find(|g| g.reason == reason) {
            Some(group) => group.entries.push(entry),
            None => list.allowed.push(AllowedGroup { reason, entries: vec![entry] }),
        }
    }
    list
}

/// What a dimmed entry says: it holds at another step, not at this one.
pub fn not_now(first_step: u32) -> String {
    format!("holds at another step, not at this one (first at step {first_step})")
}
