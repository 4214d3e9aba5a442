//! The view model: cell statuses, ghosts, lost records, markers and roles, as the UI and the CLI draw them.

use epochlab_core::presets::find;
use epochlab_core::trace::TruncateCause;
use epochlab_core::view::{view, views, CellStatus, RoleView};
use epochlab_core::{run_variant, Trace, Variant};

fn preset(id: &str, variant: Variant) -> Trace {
    run_variant(&find(id).expect("preset").scenario(), variant)
}

fn statuses(t: &Trace, step: usize, broker: usize) -> Vec<CellStatus> {
    view(t, Some(step), 0).brokers[broker].cells.iter().map(|c| c.status).collect()
}

#[test]
fn before_the_first_event_every_log_is_empty() {
    let t = preset("kip101-scenario-1", Variant::Kip279);
    let v = view(&t, None, 0);
    assert_eq!(v.step, None);
    assert_eq!(v.width, 0);
    assert_eq!(v.narration, "");
    assert!(v.brokers.iter().all(|b| b.cells.is_empty() && b.role == RoleView::None && b.in_isr));
    assert_eq!(v.controller_leader, None);
    assert_eq!(v.controller_epoch, -1);
}

#[test]
fn a_committed_record_lost_on_the_new_leader_is_marked_lost_with_its_ghost() {
    let t = preset("kip101-scenario-1", Variant::HwTruncation);
    let v = view(&t, Some(9), 0);
    let a = &v.brokers[0];
    assert_eq!(a.role, RoleView::Leader);
    assert_eq!((a.hw, a.leo, a.hw_checkpoint, a.flushed), (1, 1, 1, 1));
    assert_eq!(a.cells[0].status, CellStatus::Committed);
    let lost = &a.cells[1];
    assert_eq!(lost.status, CellStatus::Lost);
    assert_eq!(lost.record, None);
    assert_eq!(lost.lost.as_ref().map(|r| r.label.as_str()), Some("m2"));
    let ghost = lost.ghost.as_ref().expect("the truncation left a ghost");
    assert_eq!((ghost.step, ghost.cause), (8, TruncateCause::OwnHw));
    assert_eq!(ghost.explain(), "m2 removed at step 8: truncated to its own high watermark on becoming follower");
    assert!(lost.flagged, "I1 names offset 1 on A");
    let b = &v.brokers[1];
    assert_eq!(b.role, RoleView::Down);
    assert_eq!(statuses(&t, 9, 1), [CellStatus::Committed, CellStatus::Uncommitted]);
    assert_eq!(v.controller_leader.as_deref(), Some("A"));
    assert_eq!(v.controller_isr, ["A"]);
}

#[test]
fn the_truncation_step_shows_a_ghost_where_the_record_was() {
    let t = preset("kip101-scenario-1", Variant::HwTruncation);
    let v = view(&t, Some(8), 0);
    let cell = &v.brokers[0].cells[1];
    assert_eq!(cell.status, CellStatus::Truncated);
    assert!(cell.changed, "the step that truncated it highlights it");
    assert_eq!(cell.ghost.as_ref().map(|g| g.record.label.as_str()), Some("m2"));
    // Under kip-279 nothing was truncated: no ghost.
    let kip = preset("kip101-scenario-1", Variant::Kip279);
    assert!(view(&kip, Some(8), 0).brokers[0].cells.iter().all(|c| c.ghost.is_none()));
}

#[test]
fn divergent_records_are_marked_on_both_rows() {
    let t = preset("kip101-scenario-2", Variant::HwTruncation);
    let last = t.steps.len() - 1;
    assert_eq!(statuses(&t, last, 0), [CellStatus::Committed, CellStatus::Divergent]);
    assert_eq!(statuses(&t, last, 1), [CellStatus::Committed, CellStatus::Divergent]);
    // B leads; the m2 that A still holds was committed at offset 1 before the power failure, so B's cell
    // also names it as lost (by design here), while staying marked divergent.
    let b = &view(&t, Some(last), 0).brokers[1].cells[1];
    assert_eq!(b.lost.as_ref().map(|r| r.label.as_str()), Some("m2"));
    let fixed = preset("kip101-scenario-2", Variant::Kip279);
    assert_eq!(statuses(&fixed, last, 0), [CellStatus::Committed, CellStatus::Committed]);
}

#[test]
fn uncommitted_records_sit_at_or_above_the_leaders_hw() {
    let t = preset("happy-path", Variant::Kip279);
    // After step 2 B has fetched m1 but the leader's HW is still 0.
    assert_eq!(statuses(&t, 2, 0), [CellStatus::Uncommitted]);
    assert_eq!(statuses(&t, 2, 1), [CellStatus::Uncommitted]);
    assert_eq!(statuses(&t, 2, 2), [CellStatus::Empty]);
    assert!(view(&t, Some(2), 0).brokers[1].cells[0].changed);
    // The last step: everything committed everywhere.
    let last = t.steps.len() - 1;
    for b in 0..3 {
        assert_eq!(statuses(&t, last, b), [CellStatus::Committed, CellStatus::Committed]);
    }
}

#[test]
fn side_by_side_views_share_one_grid_width() {
    let s = find("kip101-scenario-1").unwrap().scenario();
    let traces = vec![run_variant(&s, Variant::HwTruncation), run_variant(&s, Variant::Kip279)];
    let vs = views(&traces, Some(9));
    assert_eq!(vs[0].width, 2);
    assert_eq!(vs[1].width, 2);
    assert!(vs.iter().all(|v| v.brokers.iter().all(|b| b.cells.len() == 2)));
    assert_eq!(view(&traces[0], Some(9), 5).width, 5, "a wider minimum is honoured");
    // A view widened to the shared grid is the view computed with that width.
    let narrow = run_variant(&find("happy-path").unwrap().scenario(), Variant::Kip279);
    let together = views(&[traces[0].clone(), narrow.clone()], Some(2));
    assert_eq!(together[1], view(&narrow, Some(2), together[0].width));
}

#[test]
fn a_broker_shows_its_epoch_cache_as_kafkas_checkpoint_file() {
    let t = preset("kafka-6361-fast-failover", Variant::Kip279);
    let v = view(&t, Some(t.steps.len() - 1), 0);
    let a = &v.brokers[0];
    assert_eq!(a.checkpoint_file, "0\n2\n0 0\n2 2\n");
    assert_eq!(a.leader_isr, ["A", "B"]);
    assert!(a.in_isr);
    assert_eq!(v.brokers[1].known_leader.as_deref(), Some("A"));
}

#[test]
fn a_rejected_step_carries_its_reason_and_narration() {
    let mut s = find("happy-path").unwrap().scenario();
    s.events.insert(0, epochlab_core::scenario::Event::Fetch { broker: "B".into(), drop_response: false });
    let t = run_variant(&s, Variant::Kip279);
    let v = view(&t, Some(0), 0);
    assert_eq!(v.rejected, Some("LEADER_NOT_AVAILABLE"));
    assert!(v.narration.starts_with("Rejected with LEADER_NOT_AVAILABLE"), "{}", v.narration);
}

#[test]
fn the_focus_is_what_the_step_changed_or_flagged_else_the_commit_frontier() {
    let t = preset("kip101-scenario-1", Variant::HwTruncation);
    assert_eq!(view(&t, None, 0).focus(), None, "empty logs have no focus");
    for step in 0..t.steps.len() {
        let v = view(&t, Some(step), 0);
        let marked: Vec<u32> = v
            .brokers
            .iter()
            .flat_map(|b| b.cells.iter().filter(|c| c.changed || c.flagged).map(|c| c.offset))
            .collect();
        let focus = v.focus();
        match (marked.iter().min(), marked.iter().max()) {
            (Some(&lo), Some(&hi)) => assert_eq!(focus, Some(lo..hi + 1), "step {step}: the marked cells"),
            _ => {
                let hw = v.brokers.iter().map(|b| b.hw).max().unwrap();
                let leo = v.brokers.iter().map(|b| b.leo).max().unwrap();
                let want = (leo > 0).then(|| hw.saturating_sub(1).min(leo - 1)..leo);
                assert_eq!(focus, want, "step {step}: the commit frontier");
            }
        }
    }
    // The loss is flagged on the leader's row, so the last step's focus holds the lost offset.
    let last = view(&t, Some(t.steps.len() - 1), 0);
    let lost = last.brokers.iter().flat_map(|b| &b.cells).find(|c| c.lost.is_some()).expect("a lost cell").offset;
    assert!(last.focus().unwrap().contains(&lost));
}

/// Every cell of every step of every preset under every variant, with whether a bug holds at that step.
fn every_cell(mut visit: impl FnMut(&str, Variant, usize, bool, &epochlab_core::view::Cell)) {
    for p in &epochlab_core::presets::PRESETS {
        for v in Variant::ALL {
            let t = run_variant(&p.scenario(), v);
            for step in 0..t.steps.len() {
                let sv = view(&t, Some(step), 0);
                let bug = sv.violations.iter().any(|x| !x.by_design);
                for c in sv.brokers.iter().flat_map(|b| b.cells.iter()) {
                    visit(p.id, v, step, bug, c);
                }
            }
        }
    }
}

#[test]
fn red_means_a_bug_only_no_cell_is_divergent_lost_or_flagged_while_no_bug_holds() {
    let mut red = Vec::new();
    every_cell(|id, v, step, bug, c| {
        let is_red = matches!(c.status, CellStatus::Divergent | CellStatus::Lost) || c.flagged;
        if is_red && !bug {
            red.push(format!("{id} under {} at step {step}, offset {}: {:?}", v.id(), c.offset, c.status));
        }
    });
    assert!(red.is_empty(), "{}", red.join("\n"));
}

#[test]
fn under_a_variant_that_holds_every_invariant_no_cell_is_ever_red() {
    for p in &epochlab_core::presets::PRESETS {
        for v in Variant::ALL.into_iter().filter(|&v| p.expected(v).bugs.is_empty()) {
            let t = run_variant(&p.scenario(), v);
            for step in 0..t.steps.len() {
                for c in view(&t, Some(step), 0).brokers.iter().flat_map(|b| b.cells.iter()) {
                    assert!(
                        !matches!(c.status, CellStatus::Divergent | CellStatus::Lost) && !c.flagged,
                        "{} under {} at step {step}: {c:?}",
                        p.id,
                        v.id()
                    );
                }
            }
        }
    }
}

#[test]
fn losses_kafka_allows_and_differences_no_bug_explains_have_their_own_statuses() {
    // Unclean elections lose m1 and the acks=1 writes by design: kip-279 holds every invariant.
    let t = preset("unclean-elections-diverge", Variant::Kip279);
    let last = view(&t, Some(t.steps.len() - 1), 0);
    let cells: Vec<_> = last.brokers.iter().flat_map(|b| b.cells.iter()).collect();
    let allowed = (0..t.steps.len())
        .flat_map(|s| view(&t, Some(s), 0).brokers.into_iter().flat_map(|b| b.cells))
        .filter(|c| c.status == CellStatus::LostAllowed || (c.lost.is_some() && c.lost_allowed))
        .count();
    assert!(allowed > 0, "an allowed loss is shown as such");
    assert!(cells.iter().all(|c| c.status != CellStatus::Lost));
    // Under hw-truncation scenario 1 the loss of m2 is a bug and stays red.
    let bug = preset("kip101-scenario-1", Variant::HwTruncation);
    let cell = &view(&bug, Some(9), 0).brokers[0].cells[1];
    assert_eq!((cell.status, cell.lost_allowed), (CellStatus::Lost, false));
    // Somewhere a follower that has not truncated yet differs from its leader without a bug.
    let mut differs = 0;
    every_cell(|_, _, _, bug, c| differs += usize::from(c.status == CellStatus::Differs && !bug));
    assert!(differs > 0, "some preset shows a harmless difference");
}

#[test]
fn an_unnamed_produce_is_labelled_with_the_record_the_log_shows() {
    let json = r#"{"version": 1, "brokers": ["A", "B"], "config": {"min_insync_replicas": 2}, "events": [
        {"kind": "elect", "broker": "A"}, {"kind": "produce"}, {"kind": "produce", "record": "named"},
        {"kind": "crash", "broker": "B"}, {"kind": "produce"}, {"kind": "produce", "acks": 1}]}"#;
    let t = run_variant(&epochlab_core::parse_scenario(json).unwrap(), Variant::Kip279);
    assert_eq!(t.produced_label(0), None, "not a produce");
    assert_eq!(t.produced_label(1), Some("r0"));
    assert_eq!(t.produced_label(2), Some("named"));
    assert_eq!(t.steps[4].outcome.reason(), Some("NOT_ENOUGH_REPLICAS"));
    assert_eq!(t.produced_label(4), None, "a refused produce appends nothing");
    let last = view(&t, Some(5), 0);
    let labels: Vec<&str> =
        last.brokers[0].cells.iter().filter_map(|c| c.record.as_ref()).map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["r0", "named", t.produced_label(5).unwrap()], "the chip's name is the log's");
}

#[test]
fn a_trace_drawn_with_its_verdicts_withheld_shows_its_logs_and_no_failure() {
    // While a lesson's question is open the shell draws the trace without its violations; its steps still
    // name them by index.
    let mut t = preset("kip101-scenario-1", Variant::HwTruncation);
    assert!(t.steps.iter().any(|s| !s.violations.is_empty()));
    t.violations.clear();
    for step in 0..t.steps.len() {
        let v = view(&t, Some(step), 0);
        assert!(v.violations.is_empty(), "step {step}");
        assert_eq!(v.brokers.len(), 2);
    }
}
