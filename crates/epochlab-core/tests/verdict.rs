//! The panel's words: a variant that holds only because a write was refused says so; the invariant list
//! puts bugs first and groups allowed losses by reason.

use epochlab_core::presets::{find, verdict_of, PRESETS};
use epochlab_core::verdict::{held_by_refusal, invariant_list, not_now, verdict_text, verdict_tooltip};
use epochlab_core::{run_variant, Scenario, Variant};

fn with_min_isr(id: &str, n: u8) -> Scenario {
    let mut s = find(id).expect("preset").scenario();
    s.config.min_insync_replicas = n;
    s
}

#[test]
fn a_variant_that_holds_only_because_a_write_was_refused_says_so() {
    // KIP-101 scenario 2 with min.insync.replicas = 2: the old rule "holds" because m3 is refused, which is
    // not the same as min.insync.replicas preventing the divergence.
    let s = with_min_isr("kip101-scenario-2", 2);
    let t = run_variant(&s, Variant::HwTruncation);
    assert!(verdict_of(&t).0.is_empty(), "no bug while the write is refused");
    let held = held_by_refusal(&s, &t).expect("held only by the refusal");
    assert_eq!(held.steps, [15]);
    assert_eq!(t.steps[15].outcome.reason(), Some("NOT_ENOUGH_REPLICAS"));
    let text = verdict_text(&[], Some(&held));
    assert_eq!(
        text,
        "no invariant fails, because the write at step 15 was refused (min.insync.replicas = 2); accepted, I3, I4 would fail"
    );
    // Leader epochs hold whether or not the write is accepted: no such clause.
    let kip = run_variant(&s, Variant::Kip101);
    assert_eq!(held_by_refusal(&s, &kip), None);
    assert_eq!(verdict_text(&[], None), "no invariant fails");
}

#[test]
fn the_refusal_clause_never_contradicts_the_run() {
    for p in &PRESETS {
        for n in 1..=3u8 {
            let mut s = p.scenario();
            s.config.min_insync_replicas = n;
            for v in Variant::ALL {
                let t = run_variant(&s, v);
                let (bugs, _) = verdict_of(&t);
                let Some(h) = held_by_refusal(&s, &t) else { continue };
                assert!(bugs.is_empty() && n > 1, "{} under {}: a failing run is not 'held'", p.id, v.id());
                assert!(!h.fails.is_empty());
                for step in &h.steps {
                    assert_eq!(t.steps[*step as usize].outcome.reason(), Some("NOT_ENOUGH_REPLICAS"));
                }
                let mut accepting = s.clone();
                accepting.config.min_insync_replicas = 1;
                assert_eq!(verdict_of(&run_variant(&accepting, v)).0, h.fails);
            }
        }
    }
    // Two refused writes are both named.
    let s = with_min_isr("kip101-scenario-1", 3);
    let h = held_by_refusal(&s, &run_variant(&s, Variant::HwTruncation)).expect("held");
    assert!(verdict_text(&[], Some(&h)).contains("the writes at steps 1, 3 were refused (min.insync.replicas = 3)"));
}

#[test]
fn the_invariant_list_puts_bugs_first_and_groups_allowed_losses_by_reason() {
    let t = run_variant(&find("unclean-elections-diverge").unwrap().scenario(), Variant::Kip101);
    let last = t.steps.len() - 1;
    let list = invariant_list(&t, Some(last));
    assert!(!list.bugs.is_empty());
    assert!(list.bugs.iter().all(|e| !t.violations[e.index].by_design));
    let allowed: usize = list.allowed.iter().map(|g| g.entries.len()).sum();
    assert_eq!(list.bugs.len() + allowed, t.violations.len(), "every violation is listed once");
    let unclean = list.allowed.iter().find(|g| g.reason.contains("unclean leader election")).expect("a group");
    assert!(unclean.summary().starts_with(&format!("{} allowed: an unclean leader election", unclean.entries.len())));
    for g in &list.allowed {
        assert!(g
            .entries
            .iter()
            .all(|e| t.violations[e.index].by_design && t.violations[e.index].message.contains(&g.reason)));
    }
    // holds_now is exactly the step's holding set.
    for e in list.bugs.iter().chain(list.allowed.iter().flat_map(|g| g.entries.iter())) {
        assert_eq!(e.holds_now, t.steps[last].violations.contains(&(e.index as u16)));
    }
    assert!(invariant_list(&t, None).bugs.iter().all(|e| !e.holds_now), "before the first step nothing holds");
    assert_eq!(not_now(7), "holds at another step, not at this one (first at step 7)");
}

#[test]
fn a_write_refused_because_it_went_to_a_follower_is_named_as_what_holds_the_variant() {
    // KIP-101 scenario 1 with m2 sent to A, which follows: refused, so nothing is lost under the old rule;
    // sent on to the leader B, as a producer's retry would, m2 is committed and then lost.
    let mut s = epochlab_core::presets::find("kip101-scenario-1").expect("preset").scenario();
    if let epochlab_core::scenario::Event::Produce { broker, .. } = &mut s.events[3] {
        *broker = Some("A".into());
    }
    let trace = epochlab_core::run_variant(&s, epochlab_core::Variant::HwTruncation);
    assert_eq!(trace.steps[3].outcome.reason(), Some("NOT_LEADER_OR_FOLLOWER"));
    let held = epochlab_core::verdict::held_by_refusal(&s, &trace).expect("held by the refusal");
    assert_eq!((held.reason.name(), held.steps.as_slice()), ("NOT_LEADER_OR_FOLLOWER", [3].as_slice()));
    assert!(held.fails.contains(&epochlab_core::invariants::InvariantId::I1));
    let text = epochlab_core::verdict::verdict_text(&[], Some(&held));
    assert!(
        text.starts_with("no invariant fails, because the write at step 3 was refused (NOT_LEADER_OR_FOLLOWER"),
        "{text}"
    );
}

#[test]
fn a_verdict_badge_says_what_it_covers_and_names_each_invariant() {
    use epochlab_core::invariants::InvariantId;
    let failing = verdict_tooltip(&[InvariantId::I1, InvariantId::I3]);
    assert!(failing.starts_with("Over every step of this scenario"), "{failing}");
    assert!(failing.contains(&format!("I1 ({})", InvariantId::I1.name())), "{failing}");
    assert!(failing.contains(&format!("I3 ({})", InvariantId::I3.name())), "{failing}");
    assert!(verdict_tooltip(&[]).contains("no invariant fails"));
}
