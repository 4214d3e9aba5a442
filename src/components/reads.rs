//! What consumers saw under one variant, beside its logs: each `consume` up to the cursor, the records it
//! read (offset, record, from which broker, below which HW), and, from the step where the leader lost or
//! rewrote one, that record marked as a phantom read (the core's I5 finding, `epochlab_core::reads`).
//! Drawn as text with one listener (the page's first download stays smaller); a read's step button moves
//! the cursor there.
//!
//! Bounded, so that a scenario at the event limit draws a strip, not thousands of records per variant on
//! every drop: the last [`READS_SHOWN`] reads up to the cursor (the earlier ones are counted, with how many
//! hold a lost record, and shown by moving the cursor back), and in each read every lost record and the last
//! [`RECORDS_SHOWN`] records (the others, none of them lost, are counted).

use std::fmt::Write;

use epochlab_core::reads::{Read, SeenRecord};
use epochlab_core::Trace;
use yew::prelude::*;

use crate::browser::web;
use crate::formats::export::{escape_into, xml_escape};
use crate::model::Action;
use crate::model::CursorAction;

/// The reads drawn: the latest ones up to the cursor.
pub const READS_SHOWN: usize = 8;
/// The records drawn in full per read, besides every lost one: the latest ones.
pub const RECORDS_SHOWN: usize = 12;

fn record(out: &mut String, trace: &Trace, r: &SeenRecord, cursor: Option<usize>) {
    let label = trace.label(r.record);
    let lost = r.lost_by(cursor);
    let class = match lost {
        Some(l) if l.by_design => " reads__record--allowed",
        Some(_) => " reads__record--lost",
        None => "",
    };
    let title = lost.map_or_else(|| format!("{label} at offset {}", r.offset), |l| l.message.clone());
    let _ = write!(
        out,
        r#"<li class="reads__record{class}" title="{}" data-testid="read-record" data-lost="{}">"#,
        xml_escape(&title),
        lost.is_some()
    );
    escape_into(out, label);
    let _ = write!(out, "@{}", r.offset);
    if let Some(l) = lost {
        let why = if l.by_design { " (allowed)" } else { ": phantom read" };
        let _ = write!(out, r#"<span class="reads__loss"> ✕ gone since step {}{why}</span>"#, l.step);
    }
    out.push_str("</li>");
}

fn read_item(out: &mut String, trace: &Trace, read: &Read, cursor: Option<usize>) {
    let step = read.step;
    let _ = write!(
        out,
        r#"<li class="reads__read"><button type="button" class="reads__step" data-step="{step}" aria-label="Go to step {step}, this read">step {step}</button> from {} below HW {}: "#,
        xml_escape(trace.broker_name(read.broker)),
        read.hw
    );
    if read.records.is_empty() {
        out.push_str("nothing");
    }
    out.push_str(r#"<ul class="reads__records">"#);
    records(out, trace, &read.records, cursor);
    out.push_str("</ul>");
    if let Some(t) = read.truncated.as_ref().filter(|t| cursor.is_some_and(|c| t.step as usize <= c)) {
        let _ = write!(
            out,
            r#"<p class="reads__truncated" data-testid="read-truncated">From step {}, this consumer is past the leader's log: {}.</p>"#,
            t.step,
            xml_escape(&t.words())
        );
    }
    out.push_str("</li>");
}

/// A read's records: every lost one and the latest [`RECORDS_SHOWN`], the others counted where they would be.
fn records(out: &mut String, trace: &Trace, all: &[SeenRecord], cursor: Option<usize>) {
    let latest = all.len().saturating_sub(RECORDS_SHOWN);
    let folded = all[..latest].iter().filter(|r| r.lost_by(cursor).is_none()).count();
    if folded > 0 {
        let _ = write!(
            out,
            r#"<li class="reads__fold" data-testid="read-fold">{folded} earlier record(s), none lost</li>"#
        );
    }
    for (i, r) in all.iter().enumerate() {
        if i >= latest || r.lost_by(cursor).is_some() {
            record(out, trace, r, cursor);
        }
    }
}

/// The count of the reads up to the cursor that are not drawn, and of those that hold a lost record.
fn earlier(out: &mut String, hidden: &[&Read], cursor: Option<usize>) {
    if hidden.is_empty() {
        return;
    }
    let lossy = hidden.iter().filter(|r| r.records.iter().any(|x| x.lost_by(cursor).is_some())).count();
    let _ = write!(
        out,
        r#"<p class="reads__later" data-testid="reads-earlier">{} earlier read(s), {lossy} with a lost record: move the cursor back to see them.</p>"#,
        hidden.len()
    );
}

/// The strip's markup (empty when the scenario has no `consume`).
pub fn reads_html(trace: &Trace, all: &[Read], cursor: Option<usize>) -> String {
    if all.is_empty() {
        return String::new();
    }
    let seen: Vec<&Read> = all.iter().filter(|r| cursor.is_some_and(|c| r.step as usize <= c)).collect();
    let (hidden, shown) = seen.split_at(seen.len().saturating_sub(READS_SHOWN));
    let mut out = String::from(r#"<h3 class="reads__title">What consumers saw</h3>"#);
    earlier(&mut out, hidden, cursor);
    out.push_str(r#"<ol class="reads__list">"#);
    for r in shown {
        read_item(&mut out, trace, r, cursor);
    }
    out.push_str("</ol>");
    let later = all.len() - seen.len();
    if later > 0 {
        let _ = write!(out, r#"<p class="reads__later">{later} read(s) after this step.</p>"#);
    }
    out
}

/// The strip (nothing when the scenario has no `consume`).
pub fn consumer_reads(trace: &Trace, all: &[Read], cursor: Option<usize>, dispatch: &Callback<Action>) -> Html {
    let markup = reads_html(trace, all, cursor);
    if markup.is_empty() {
        return Html::default();
    }
    let id = trace.variant.id();
    let dispatch = dispatch.clone();
    let onclick = Callback::from(move |e: MouseEvent| {
        if let Some(step) = web::closest_attribute(&e, "data-step").and_then(|s| s.parse().ok()) {
            dispatch.emit(Action::Cursor(CursorAction::Set(Some(step))));
        }
    });
    html! {
        <section class="reads" aria-label={format!("What consumers saw under {id}")} data-testid={format!("reads-{id}")} {onclick}>
            { Html::from_html_unchecked(AttrValue::from(markup)) }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::presets::find;
    use epochlab_core::reads::reads;
    use epochlab_core::{run_variant, Variant};

    fn reads_html(trace: &Trace, cursor: Option<usize>) -> String {
        super::reads_html(trace, &reads(trace), cursor)
    }

    #[test]
    fn the_phantom_read_shows_from_its_step_and_labels_are_escaped() {
        let mut s = find("kip101-scenario-1").expect("preset").scenario();
        if let Some(epochlab_core::scenario::Event::Produce { record, .. }) = s.events.get_mut(1) {
            *record = Some("<m1>".into());
        }
        let t = run_variant(&s, Variant::HwTruncation);
        let at_end = reads_html(&t, Some(s.events.len() - 1));
        assert!(at_end.contains("&lt;m1&gt;@0") && !at_end.contains("<m1>"), "{at_end}");
        assert!(
            at_end.contains(r#"data-lost="true">m2@1<span class="reads__loss"> ✕ gone since step 9: phantom read"#),
            "{at_end}"
        );
        let before = reads_html(&t, Some(8));
        assert!(before.contains(r#"data-lost="false">m2@1</li>"#), "{before}");
        assert!(reads_html(&t, None).contains("1 read(s) after this step."));
        assert!(reads_html(&run_variant(&s, Variant::Kip279), Some(9)).matches(r#"data-lost="true""#).count() == 0);
    }

    /// Scenario 1 with 30 records and 20 reads before its ending: each read holds every record below the HW.
    fn long_scenario_1() -> epochlab_core::Scenario {
        let mut events = vec![r#"{"kind":"elect","broker":"B"}"#.to_string()];
        for i in 0..30 {
            events.push(format!(r#"{{"kind":"produce","record":"r{i}"}}"#));
            events.push(r#"{"kind":"settle"}"#.into());
            if i >= 10 {
                events.push(r#"{"kind":"consume"}"#.into());
            }
        }
        let ending = [
            r#"{"kind":"produce","record":"m2"}"#,
            r#"{"kind":"fetch","broker":"A"}"#,
            r#"{"kind":"fetch","broker":"A","drop_response":true}"#,
            r#"{"kind":"consume"}"#,
            r#"{"kind":"crash","broker":"A","notify_controller":false}"#,
            r#"{"kind":"restart","broker":"A"}"#,
            r#"{"kind":"crash","broker":"B"}"#,
        ];
        events.extend(ending.iter().map(|e| e.to_string()));
        let json = format!(r#"{{"version":1,"brokers":["A","B"],"events":[{}]}}"#, events.join(","));
        epochlab_core::Scenario::from_json(&json).expect("a valid scenario")
    }

    #[test]
    fn a_long_scenario_draws_the_latest_reads_and_records_and_never_folds_a_lost_one() {
        let s = long_scenario_1();
        let t = run_variant(&s, Variant::HwTruncation);
        let end = reads_html(&t, Some(s.events.len() - 1));
        assert_eq!(end.matches(r#"class="reads__read""#).count(), READS_SHOWN, "{end}");
        assert!(end.contains("13 earlier read(s), 0 with a lost record: move the cursor back to see them."), "{end}");
        // The last read holds 31 records: the lost m2 and the 11 before it are drawn, 19 are counted.
        let last = &end[end.rfind(r#"class="reads__read""#).unwrap()..];
        assert!(last.contains("19 earlier record(s), none lost"), "{last}");
        assert_eq!(last.matches(r#"data-testid="read-record""#).count(), RECORDS_SHOWN, "{last}");
        assert!(last.contains(r#"data-lost="true">m2@30"#), "{last}");
        assert_eq!(end.matches(r#"data-lost="true""#).count(), 1, "only the last read saw m2: {end}");
        let early = reads_html(&t, Some(6));
        assert!(!early.contains("earlier"), "nothing folded at the start: {early}");
    }
}
