//! The worker's side of the messages: requests read from JSON, replies worded and written as JSON.

use epochlab_core::checker::bounds::{Bound, BROKERS, DEPTH, EPOCHS, MAX_STATES, RECORDS};
use epochlab_core::checker::{
    no_failure_words, shrink, Alphabet, CheckConfig, CheckResult, Progress, SearchEnd, Stamp,
};
use epochlab_core::invariants::InvariantId;
use epochlab_core::scenario::Scenario;
use epochlab_core::Variant;
use serde_json::{json, Value};

/// A request, read.
pub enum Request {
    /// A search, and for a re-check the stamp it should confirm (its text).
    Check(Box<CheckConfig>, Option<String>),
    Cancel,
    Shrink(Box<Scenario>, Variant),
}

/// Read a request, or say why it cannot be.
pub fn read(text: &str) -> Result<Request, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("a garbled request: {e}"))?;
    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default();
    // A bound missing or out of range is refused with the reason, never defaulted or clamped.
    let n = |b: Bound| match v.get(b.name).and_then(Value::as_u64) {
        Some(value) => b.check(value),
        None => Err(format!("no {} given", b.name)),
    };
    let variant = || Variant::from_id(s("variant")).ok_or_else(|| format!("unknown variant {}", s("variant")));
    match s("t") {
        "cancel" => Ok(Request::Cancel),
        "shrink" => {
            let scenario = Scenario::from_json(s("scenario")).map_err(|e| e.to_string())?;
            Ok(Request::Shrink(Box::new(scenario), variant()?))
        }
        "check" => {
            let ids = v.get("invariants").and_then(Value::as_array).cloned().unwrap_or_default();
            let goal = ids
                .iter()
                .map(|id| id.as_str().and_then(InvariantId::from_id).ok_or_else(|| format!("unknown invariant {id}")))
                .collect::<Result<Vec<_>, _>>()?;
            if goal.is_empty() {
                return Err("choose at least one invariant".into());
            }
            let config = Scenario::from_json(s("settings")).map_err(|e| e.to_string())?.config;
            let alphabet = match s("alphabet") {
                "" => Alphabet::Default,
                id => Alphabet::from_id(id).ok_or_else(|| format!("unknown alphabet {id}"))?,
            };
            let claim = v.get("claim").and_then(Value::as_str).map(str::to_string);
            let config = Box::new(CheckConfig {
                variant: variant()?,
                brokers: n(BROKERS)? as u8,
                records: n(RECORDS)? as u8,
                epochs: n(EPOCHS)? as i32,
                depth: n(DEPTH)? as u32,
                max_states: MAX_STATES.default,
                goal,
                alphabet,
                config,
            });
            Ok(Request::Check(config, claim))
        }
        other => Err(format!("an unknown request \"{other}\"")),
    }
}

/// A progress line.
pub fn progress(p: &Progress, max_depth: u32, seconds: f64) -> String {
    let rate = if seconds > 0.0 { p.unique_states as f64 / seconds } else { 0.0 };
    let text = format!(
        "{} states · {:.0} states/s · depth {} of {max_depth} · queue {}",
        p.unique_states, rate, p.depth, p.queue
    );
    json!({ "t": "progress", "text": text, "depth": p.depth, "max": max_depth }).to_string()
}

/// The verdict of a search, and the counterexample to open if there is one; for a re-check, whether it
/// confirms the stamp `claim`; otherwise, after no failure, the stamp to offer for the share link.
pub fn finished(c: &CheckConfig, r: &CheckResult, seconds: f64, claim: Option<&str>) -> String {
    let counts = format!("{} states, depth {}, {:.1} s", r.unique_states, r.depth_reached, seconds);
    let rate = format!("{:.0} states/s", r.unique_states as f64 / seconds.max(0.001));
    let bounds = format!("{} brokers, {} records, epoch {}, depth {}", c.brokers, c.records, c.epochs, c.depth);
    let nothing = no_failure_words(&c.goal);
    let (text, open) = match r.counterexample.as_ref().zip(r.violation.as_ref()) {
        Some((s, v)) => {
            let what = format!("{} ({}) at step {}", v.invariant.id(), v.invariant.name(), v.step);
            let notice = format!("The shortest failure under {}: {what}.", c.variant.id());
            let text = format!(
                "Found the shortest failure under {}: {what}, in {} events ({counts}). It is on the timeline, the \
                 cursor on the violating step; Undo brings your scenario back. {}",
                c.variant.id(),
                s.events.len(),
                v.message
            );
            (text, json!({ "scenario": s.to_json(), "cursor": v.step, "notice": notice }))
        }
        None => match r.end {
            SearchEnd::Cancelled => (format!("Cancelled ({counts})."), Value::Null),
            SearchEnd::StateLimit => (format!("No failure in the first {counts}: {}.", r.end.words()), Value::Null),
            end => {
                let text =
                    format!("{}: {nothing} within {bounds}, {} ({counts}; {rate}).", c.variant.id(), end.words());
                (text, Value::Null)
            }
        },
    };
    let stamp = Stamp::of(c, r);
    let Some(claim) = claim else {
        return json!({ "t": "done", "text": text, "open": open, "stamp": stamp.map(|s| s.to_string()) }).to_string();
    };
    let text = match Stamp::parse(claim).and_then(|claimed| claimed.confirmed_by(stamp.as_ref())) {
        Ok(()) => format!("Re-check confirms the link's stamp: {text}"),
        Err(why) => format!("Re-check does not confirm the link's stamp: {why}. {text}"),
    };
    json!({ "t": "done", "text": text, "open": open }).to_string()
}

/// The shrunk scenario with a reason per event, or why it cannot be shrunk.
pub fn shrunk(scenario: &Scenario, variant: Variant) -> String {
    let s = match shrink(scenario, variant, None) {
        Ok(s) => s,
        Err(e) => return failed(&e.to_string()),
    };
    let events = &s.scenario.events;
    let list: Vec<String> = events
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
    let open = json!({ "scenario": s.scenario.to_json(), "cursor": events.len().saturating_sub(1), "notice": notice });
    json!({ "t": "done", "text": text, "list": list, "open": open }).to_string()
}

pub fn failed(why: &str) -> String {
    json!({ "t": "failed", "text": format!("Could not run: {why}.") }).to_string()
}

pub fn ready() -> String {
    json!({ "t": "ready" }).to_string()
}
