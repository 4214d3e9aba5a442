//! Re-runs go on from the previous trace: the unchanged steps are shared, not recomputed. (That a re-run
//! equals a full run is a property test in `properties.rs`.)

use std::sync::Arc;

use epochlab_core::presets::find;
use epochlab_core::scenario::{Event, Scenario};
use epochlab_core::{rerun_protocol, Protocol, Run, Variant};

/// A 40-step story: the KIP-101 scenario 2 preset, padded with produce and settle rounds.
fn story() -> (Scenario, Protocol) {
    let mut s = find("kip101-scenario-2").expect("preset").scenario();
    while s.events.len() < 40 {
        s.events.push(Event::Produce { record: None, acks: Default::default(), broker: None });
        s.events.push(Event::Settle);
    }
    s.events.truncate(40);
    let p = Protocol::new(Variant::Kip279, &s.config.flags);
    (s, p)
}

/// How many leading steps two runs' traces share (the same allocation, not equal copies).
fn shared(a: &Run, b: &Run) -> usize {
    a.trace.steps.iter().zip(&b.trace.steps).take_while(|(x, y)| Arc::ptr_eq(x, y)).count()
}

fn full(s: &Scenario, p: Protocol) -> Run {
    rerun_protocol(None, s, p)
}

/// A re-run says what a full run says, and remembers the same: its last state and memory fingerprint alike.
fn assert_same_as_full_run(after: &Run, s: &Scenario, p: Protocol) {
    let whole = full(s, p);
    assert_eq!(after.trace, whole.trace);
    assert_eq!(after.resume.fingerprint(), whole.resume.fingerprint());
}

#[test]
fn an_event_appended_at_the_end_reuses_every_earlier_step() {
    let (s, p) = story();
    let before = full(&s, p);
    let mut e = s.clone();
    e.events.push(Event::Settle);
    let after = rerun_protocol(Some(&before.resume), &e, p);
    assert_eq!(shared(&before, &after), 40);
    assert_same_as_full_run(&after, &e, p);
}

#[test]
fn an_edit_in_the_middle_goes_on_from_the_checkpoint_before_it() {
    let (s, p) = story();
    let before = full(&s, p);
    let mut e = s.clone();
    e.events.remove(20);
    let after = rerun_protocol(Some(&before.resume), &e, p);
    assert_eq!(shared(&before, &after), 16, "checkpoints every 16 steps: steps 0 to 15 are reused");
    assert_same_as_full_run(&after, &e, p);
}

#[test]
fn another_protocol_or_configuration_runs_from_the_start() {
    let (s, p) = story();
    let before = full(&s, p);
    let other = Protocol::new(Variant::HwTruncation, &s.config.flags);
    assert_eq!(shared(&before, &rerun_protocol(Some(&before.resume), &s, other)), 0);
    let mut e = s.clone();
    e.config.unclean_leader_election = Some(!e.config.unclean_in_force());
    let after = rerun_protocol(Some(&before.resume), &e, p);
    assert_eq!(shared(&before, &after), 0);
    assert_same_as_full_run(&after, &e, p);
}
