//! What consumers saw under one variant, beside its logs: each `consume` up to the cursor, the records it
//! read (offset, record, from which broker, below which HW), and, from the step where the leader lost or
//! rewrote one, that record marked as a phantom read (the core's I5 finding, `epochlab_core::reads`).

use epochlab_core::reads::{reads, Read, SeenRecord};
use epochlab_core::Trace;
use yew::prelude::*;

use crate::model::Action;

fn record(r: &SeenRecord, cursor: Option<usize>) -> Html {
    let lost = r.lost_by(cursor);
    let class = classes!(
        "reads__record",
        lost.map(|l| if l.by_design { "reads__record--allowed" } else { "reads__record--lost" })
    );
    let text = format!("{}@{}", r.label, r.offset);
    let title = lost.map_or_else(|| format!("{} at offset {}", r.label, r.offset), |l| l.message.clone());
    html! {
        <li {class} {title} data-testid="read-record" data-lost={lost.is_some().to_string()}>
            { text }
            if let Some(l) = lost {
                <span class="reads__loss">
                    { format!(" ✕ gone since step {}{}", l.step, if l.by_design { " (allowed)" } else { ": phantom read" }) }
                </span>
            }
        </li>
    }
}

fn read_item(trace: &Trace, read: &Read, cursor: Option<usize>, dispatch: &Callback<Action>) -> Html {
    let step = read.step as usize;
    let onclick = dispatch.reform(move |_| Action::SetCursor(Some(step)));
    let from = format!(" from {} below HW {}: ", trace.broker_name(read.broker), read.hw);
    html! {
        <li class="reads__read">
            <button type="button" class="reads__step" {onclick} aria-label={format!("Go to step {step}, this read")}>{ format!("step {step}") }</button>
            { from }
            if read.records.is_empty() { { "nothing" } }
            <ul class="reads__records">{ for read.records.iter().map(|r| record(r, cursor)) }</ul>
        </li>
    }
}

/// The strip (nothing when the scenario has no `consume`).
pub fn consumer_reads(trace: &Trace, cursor: Option<usize>, dispatch: &Callback<Action>) -> Html {
    let all = reads(trace);
    if all.is_empty() {
        return Html::default();
    }
    let id = trace.variant.id();
    let seen: Vec<&Read> = all.iter().filter(|r| cursor.is_some_and(|c| r.step as usize <= c)).collect();
    let later = all.len() - seen.len();
    html! {
        <section class="reads" aria-label={format!("What consumers saw under {id}")} data-testid={format!("reads-{id}")}>
            <h4 class="reads__title">{ "What consumers saw" }</h4>
            <ol class="reads__list">{ for seen.iter().map(|r| read_item(trace, r, cursor, dispatch)) }</ol>
            if later > 0 { <p class="reads__later">{ format!("{later} read(s) after this step.") }</p> }
        </section>
    }
}
