//! What consumers saw under one variant, beside its logs: each `consume` up to the cursor, the records it
//! read (offset, record, from which broker, below which HW), and, from the step where the leader lost or
//! rewrote one, that record marked as a phantom read (the core's I5 finding, `epochlab_core::reads`).
//! Drawn as text with one listener (the page's first download stays smaller); a read's step button moves
//! the cursor there.

use std::fmt::Write;

use epochlab_core::reads::{reads, Read, SeenRecord};
use epochlab_core::Trace;
use yew::prelude::*;

use crate::browser::web;
use crate::formats::export::xml_escape;
use crate::model::Action;

fn record(out: &mut String, r: &SeenRecord, cursor: Option<usize>) {
    let lost = r.lost_by(cursor);
    let class = match lost {
        Some(l) if l.by_design => " reads__record--allowed",
        Some(_) => " reads__record--lost",
        None => "",
    };
    let title = lost.map_or_else(|| format!("{} at offset {}", r.label, r.offset), |l| l.message.clone());
    let _ = write!(
        out,
        r#"<li class="reads__record{class}" title="{}" data-testid="read-record" data-lost="{}">{}@{}"#,
        xml_escape(&title),
        lost.is_some(),
        xml_escape(&r.label),
        r.offset
    );
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
    for r in &read.records {
        record(out, r, cursor);
    }
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

/// The strip's markup (empty when the scenario has no `consume`).
pub fn reads_html(trace: &Trace, cursor: Option<usize>) -> String {
    let all = reads(trace);
    if all.is_empty() {
        return String::new();
    }
    let seen: Vec<&Read> = all.iter().filter(|r| cursor.is_some_and(|c| r.step as usize <= c)).collect();
    let mut out = String::from(r#"<h3 class="reads__title">What consumers saw</h3><ol class="reads__list">"#);
    for r in &seen {
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
pub fn consumer_reads(trace: &Trace, cursor: Option<usize>, dispatch: &Callback<Action>) -> Html {
    let markup = reads_html(trace, cursor);
    if markup.is_empty() {
        return Html::default();
    }
    let id = trace.variant.id();
    let dispatch = dispatch.clone();
    let onclick = Callback::from(move |e: MouseEvent| {
        if let Some(step) = web::closest_attribute(&e, "data-step").and_then(|s| s.parse().ok()) {
            dispatch.emit(Action::SetCursor(Some(step)));
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
    use epochlab_core::{run_variant, Variant};

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
}
