//! What the page says of the runs as a whole and of each step on the timeline, worked out here rather than
//! by the components: the headline's verdict per variant, the bugs that first hold at a step (the step's
//! `!` mark) and the refusals of a step's event (the chip's reasons).

use crate::invariants::InvariantId;
use crate::presets::verdict_of;
use crate::verdict::{held_text, HeldByRefusal};
use crate::{Trace, Variant};

/// "hw-truncation breaks I1 (committed-data loss) at step 9, and 3 more; kip-279 holds every invariant":
/// each trace's gravest bug and where it first holds, or that it holds (only because writes were refused,
/// when `held` says so).
pub fn verdicts(traces: &[Trace], held: &[Option<HeldByRefusal>]) -> String {
    let held = held.iter().map(Some).chain(std::iter::repeat(None));
    let parts: Vec<String> =
        traces.iter().zip(held).map(|(t, held)| verdict(t, held.and_then(Option::as_ref))).collect();
    parts.join("; ")
}

fn verdict(t: &Trace, held: Option<&HeldByRefusal>) -> String {
    let (bugs, _) = verdict_of(t);
    let worst = InvariantId::gravest(&bugs);
    let step =
        worst.and_then(|id| t.violations.iter().filter(|v| v.invariant == id && !v.by_design).map(|v| v.step).min());
    match (worst, step, held) {
        (Some(id), Some(step), _) => {
            let more = if bugs.len() > 1 { format!(", and {} more", bugs.len() - 1) } else { String::new() };
            format!("{} breaks {id} ({}) at step {step}{more}", t.variant.id(), id.name())
        }
        // Not "holds": it holds only because the write was refused (min.insync.replicas).
        (_, _, Some(h)) => format!("{} {}", t.variant.id(), held_text(h)),
        _ => format!("{} holds every invariant", t.variant.id()),
    }
}

/// The bugs (not by design) that first hold at step `step`, per variant, as `variant: invariant`.
pub fn bugs_at(traces: &[Trace], step: u32) -> Vec<String> {
    let at = |t: &Trace| {
        let ids = t.violations.iter().filter(|v| v.step == step && !v.by_design).map(|v| v.invariant);
        ids.map(|id| format!("{}: {id}", t.variant.id())).collect::<Vec<_>>()
    };
    traces.iter().flat_map(at).collect()
}

/// Under which variants the event of step `step` was refused, and Kafka's error for it.
pub fn refusals_at(traces: &[Trace], step: usize) -> Vec<(Variant, &'static str)> {
    traces.iter().filter_map(|t| t.steps.get(step).and_then(|s| s.outcome.reason()).map(|r| (t.variant, r))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::find;

    #[test]
    fn the_landing_scenario_says_which_variant_breaks_what_and_where() {
        let s = find("kip101-scenario-1").expect("preset").scenario();
        let traces: Vec<Trace> =
            [Variant::HwTruncation, Variant::Kip279].into_iter().map(|v| crate::run_variant(&s, v)).collect();
        let words = verdicts(&traces, &[]);
        assert!(words.starts_with("hw-truncation breaks I1 (committed-data loss) at step "), "{words}");
        assert!(words.ends_with("; kip-279 holds every invariant"), "{words}");
        let i1 = traces[0].violations.iter().filter(|v| v.invariant == InvariantId::I1 && !v.by_design);
        let step = i1.map(|v| v.step).min().expect("I1 fails");
        assert!(bugs_at(&traces, step).iter().all(|b| b.starts_with("hw-truncation: ")));
        assert!(bugs_at(&traces, step).iter().any(|b| b == "hw-truncation: I1"), "{:?}", bugs_at(&traces, step));
        assert!(refusals_at(&traces, 0).is_empty());
    }
}
