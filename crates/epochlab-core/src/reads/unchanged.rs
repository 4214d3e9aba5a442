//! Whether a re-run left what consumers saw as it was. The page works out [`reads`](super::reads) for every
//! variant after every edit, and at the event limit that costs more than the re-run itself (every record of
//! every read, a hundred reads of hundreds of records): about 2 ms of a drop's 15 in the browser. An edit
//! that only appends steps (building a scenario from its end, the common case) rarely changes it, and this
//! tells so from the appended steps alone.

use std::sync::Arc;

use super::{common_prefix, leader_log, Read};
use crate::invariants::{InvariantId, Violation};
use crate::state::Entry;
use crate::trace::{Annotation, Step, Trace};

/// Whether `reads(new)` equals `old_reads` (which is `reads(old)`), told without working it out. True only
/// when `new` re-ran from `old` and appended steps (its first steps are `old`'s, shared), the appended steps
/// consume nothing, found no new phantom read (I5), and no leader log among them takes away what an earlier
/// read saw that no leader had taken away before. False says nothing: work it out again.
pub fn unchanged(old: &Trace, old_reads: &[Read], new: &Trace) -> bool {
    let Some(appended) = new.steps.get(old.steps.len()..) else { return false };
    let shared = old.steps.iter().zip(&new.steps).all(|(a, b)| Arc::ptr_eq(a, b));
    shared
        && old.rules == new.rules
        && phantoms(&old.violations).eq(phantoms(&new.violations))
        && !appended.iter().any(consumes)
        && !appended_leaders_cut(old, old_reads, appended)
}

fn phantoms(all: &[Violation]) -> impl Iterator<Item = &Violation> {
    all.iter().filter(|v| v.invariant == InvariantId::I5)
}

fn consumes(step: &Arc<Step>) -> bool {
    step.annotations.iter().any(|a| matches!(a, Annotation::Consumed { .. }))
}

/// Whether an appended step's leader log differs from a read that every later leader of `old` still held.
fn appended_leaders_cut(old: &Trace, old_reads: &[Read], appended: &[Arc<Step>]) -> bool {
    // The last leader log of `old`, with its step: every untruncated read made before it agrees with it.
    let last = old.steps.iter().rev().find_map(|s| leader_log(s).map(|log| (s.index, log)));
    // Each appended leader log, and below which offset it holds what the leader log before it held (the
    // first compared with `last`): worked out once, for every read.
    let mut before = last.map(|(_, log)| log);
    let chain: Vec<(&[Entry], usize)> = appended
        .iter()
        .filter_map(|s| leader_log(s))
        .map(|log| {
            let agrees = before.map_or(0, |b| common_prefix(b, log));
            before = Some(log);
            (log, agrees)
        })
        .collect();
    let mut intact = old_reads.iter().filter(|r| r.truncated.is_none() && !r.records.is_empty());
    // Bounded: each read against each appended leader log once, and only where that log may differ.
    intact.any(|read| {
        // `last` held the read only if it came after it; the logs after the first follow from each other.
        let last_held = last.is_some_and(|(step, _)| step > read.step);
        chain.iter().enumerate().any(|(k, &(log, agrees))| {
            let from = if k == 0 && !last_held { 0 } else { agrees };
            let below = read.records.get(from..).unwrap_or_default();
            below.iter().any(|r| log.get(r.offset as usize).map(|e| e.id) != Some(r.record))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::PRESETS;
    use crate::reads::reads;
    use crate::reads::tests::edge_stories;
    use crate::scenario::Scenario;
    use crate::{rerun_protocol, Variant};

    /// `story`'s first `n` events, then its first `m`, the longer run re-run from the shorter as the page
    /// does (sharing its steps): the two traces.
    fn grown(story: &Scenario, (n, m): (usize, usize), variant: Variant) -> (Trace, Trace) {
        let protocol = story.config.protocol(variant);
        let first_of = |count: usize| Scenario { events: story.events[..count].to_vec(), ..story.clone() };
        let first = rerun_protocol(None, &first_of(n), protocol);
        let then = rerun_protocol(Some(&first.resume), &first_of(m), protocol);
        (first.trace, then.trace)
    }

    /// Every preset's and edge story's every prefix grown to every longer prefix, under every variant:
    /// `check` is given the story, the variant, the two lengths and the two traces.
    fn each_growth(mut check: impl FnMut(&str, Variant, (usize, usize), &Trace, &Trace)) {
        for (id, story) in PRESETS.iter().map(|p| (p.id, p.scenario())).chain(edge_stories()) {
            let len = story.events.len();
            for variant in Variant::ALL {
                for pair in (0..len).flat_map(|n| (n..=len).map(move |m| (n, m))) {
                    let (old, new) = grown(&story, pair, variant);
                    check(id, variant, pair, &old, &new);
                }
            }
        }
    }

    #[test]
    fn when_it_says_unchanged_the_reads_worked_out_again_are_the_same() {
        let (mut kept, mut redone) = (0, 0);
        // Some growths append a consume, a truncating leader or a phantom read, some nothing that matters.
        each_growth(|id, variant, pair, old, new| {
            let old_reads = reads(old);
            if unchanged(old, &old_reads, new) {
                assert_eq!(reads(new), old_reads, "{id} under {variant:?}, events {pair:?}");
                kept += 1;
            } else {
                redone += 1;
            }
        });
        // Both answers occur: the check is neither always true nor always false.
        assert!(kept > 100 && redone > 100, "kept {kept}, redone {redone}");
    }

    /// A phantom read (I5) usually comes with the truncation that the leaders' check finds: this holds the
    /// check to its own word, that it finds exactly the earlier reads an appended leader takes away.
    #[test]
    fn the_leaders_check_finds_each_earlier_read_an_appended_leader_takes_away() {
        let mut cut = 0;
        each_growth(|id, variant, pair, old, new| {
            let (old_reads, new_reads) = (reads(old), reads(new));
            let newly_truncated = old_reads.iter().zip(&new_reads).any(|(o, n)| o.truncated != n.truncated);
            let found = appended_leaders_cut(old, &old_reads, &new.steps[old.steps.len()..]);
            assert_eq!(found, newly_truncated, "{id} under {variant:?}, events {pair:?}");
            cut += usize::from(found);
        });
        assert!(cut >= 5, "only {cut} cuts among the presets");
    }

    #[test]
    fn a_shorter_run_or_one_run_afresh_is_never_taken_as_unchanged() {
        let story = PRESETS[0].scenario();
        let n = story.events.len();
        let (old, new) = grown(&story, (n - 1, n), Variant::Kip101);
        assert!(!unchanged(&new, &reads(&new), &old), "fewer steps");
        let afresh = crate::run_variant(&story, Variant::Kip101);
        assert!(!unchanged(&old, &reads(&old), &afresh), "steps not shared");
        assert!(unchanged(&old, &reads(&old), &old), "the same trace");
    }

    /// Steps shared but other rules: how a consumer past a truncation finds out depends on the release.
    #[test]
    fn a_trace_under_other_rules_is_never_taken_as_unchanged() {
        let [.., (_, twice)] = edge_stories();
        let old = crate::run_variant(&twice, Variant::Kip279);
        let mut rules = old.rules;
        rules.consumers_validate = !rules.consumers_validate;
        let new = Trace { rules, ..old.clone() };
        let old_reads = reads(&old);
        assert_ne!(reads(&new), old_reads, "the truncated read is noticed otherwise");
        assert!(!unchanged(&old, &old_reads, &new));
    }
}
