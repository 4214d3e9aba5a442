//! The worker's words: a progress line, a search's verdict and a shrink's, as the replies that carry them.

use epochlab_core::checker::{no_failure_words, shrink, CheckConfig, CheckResult, Progress, SearchEnd, Stamp};
use epochlab_core::scenario::Scenario;
use epochlab_core::Variant;

use super::protocol::{CheckReply, Found, Underway, Verdict};

/// A progress line.
pub fn progress(p: &Progress, max_depth: u32, seconds: f64) -> CheckReply {
    let rate = if seconds > 0.0 { p.unique_states as f64 / seconds } else { 0.0 };
    let text = format!(
        "{} states · {:.0} states/s · depth {} of {max_depth} · queue {}",
        p.unique_states, rate, p.depth, p.queue
    );
    CheckReply::Progress(Underway { text, depth: p.depth, max: max_depth })
}

/// The verdict of a search, and the counterexample to open if there is one; for a re-check, whether it
/// confirms the stamp `claim`; otherwise, after no failure, the stamp to offer for the share link.
pub fn finished(c: &CheckConfig, r: &CheckResult, seconds: f64, claim: Option<&Stamp>) -> CheckReply {
    let (text, found) = found_or_not(c, r, seconds);
    let stamp = Stamp::of(c, r);
    let Some(claimed) = claim else {
        return CheckReply::Done(Box::new(Verdict { text, found, stamp, ..Verdict::default() }));
    };
    let text = match claimed.confirmed_by(stamp.as_ref()) {
        Ok(()) => format!("Re-check confirms the link's stamp: {text}"),
        Err(why) => format!("Re-check does not confirm the link's stamp: {why}. {text}"),
    };
    CheckReply::Done(Box::new(Verdict { text, found, ..Verdict::default() }))
}

/// What a search found, in words, with the scenario to open; or in words why it found nothing.
fn found_or_not(c: &CheckConfig, r: &CheckResult, seconds: f64) -> (String, Option<Found>) {
    let counts = format!("{} states, depth {}, {:.1} s", r.unique_states, r.depth_reached, seconds);
    if let Some((s, v)) = r.counterexample.as_ref().zip(r.violation.as_ref()) {
        let what = format!("{} ({}) at step {}", v.invariant.id(), v.invariant.name(), v.step);
        let notice = format!("The shortest failure under {}: {what}.", c.searched());
        let text = format!(
            "Found the shortest failure under {}: {what}, in {} events ({counts}). It is on the timeline, the \
             cursor on the violating step; Undo brings your scenario back. {}",
            c.searched(),
            s.events.len(),
            v.message
        );
        return (text, Some(Found { scenario: Box::new(s.clone()), cursor: Some(v.step as usize), notice }));
    }
    let rate = format!("{:.0} states/s", r.unique_states as f64 / seconds.max(0.001));
    let bounds = format!("{} brokers, {} records, epoch {}, depth {}", c.brokers, c.records, c.epochs, c.depth);
    let text = match r.end {
        SearchEnd::Cancelled => format!("Cancelled ({counts})."),
        SearchEnd::StateLimit => format!("No failure in the first {counts}: {}.", r.end.words()),
        end => format!(
            "{}: {} within {bounds}, {} ({counts}; {rate}).",
            c.searched(),
            no_failure_words(&c.goal),
            end.words()
        ),
    };
    (text, None)
}

/// The shrunk scenario with a reason per event, or why it cannot be shrunk.
pub fn shrunk(scenario: &Scenario, variant: Variant) -> CheckReply {
    let s = match shrink(scenario, variant, None) {
        Ok(s) => s,
        Err(e) => return failed(&e.to_string()),
    };
    let events = &s.scenario.events;
    let reasons = events
        .iter()
        .zip(&s.reasons)
        .enumerate()
        .map(|(i, (e, why))| format!("Step {i} ({}): {why}", e.kind().id()))
        .collect();
    let caveat = s.caveat(variant).map(|c| format!(" {c}")).unwrap_or_default();
    let text = format!(
        "Shrunk from {} to {} events for {}, each needed for {} to fail (on the timeline now; Undo brings the \
         longer one back).{caveat} Why each event is needed:",
        scenario.events.len(),
        events.len(),
        variant.id(),
        s.invariant.id()
    );
    let notice = format!(
        "The shrunk scenario: {} events, each needed for {} to fail under {}.{caveat}",
        events.len(),
        s.invariant.id(),
        variant.id()
    );
    let cursor = Some(events.len().saturating_sub(1));
    let found = Some(Found { scenario: Box::new(s.scenario), cursor, notice });
    CheckReply::Done(Box::new(Verdict { text, reasons, found, stamp: None }))
}

pub fn failed(why: &str) -> CheckReply {
    CheckReply::Failed(format!("Could not run: {why}."))
}
