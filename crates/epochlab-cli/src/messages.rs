//! `epochlab run FILE --messages`: the run's messages as text, one line each, in step order.

use epochlab_core::messages::{messages, Message, MessageKind, Party};
use epochlab_core::{Scenario, Trace};

pub(crate) fn text(scenario: &Scenario, trace: &Trace) -> String {
    let mut out = format!("messages under {}:\n", trace.variant.id());
    for m in messages(scenario, trace) {
        out.push_str(&line(trace, &m));
        out.push('\n');
    }
    out
}

fn party(trace: &Trace, p: Party) -> String {
    match p {
        Party::Producer => "producer".into(),
        Party::Controller => "controller".into(),
        Party::Broker(b) => trace.broker_name(b).to_string(),
        Party::Consumer => "consumer".into(),
    }
}

fn line(trace: &Trace, m: &Message) -> String {
    if m.kind == MessageKind::Local {
        return format!("{:>4}  {:<22}  [{}]", m.step, party(trace, m.from), m.label);
    }
    let arrow = if m.lost {
        "-x"
    } else if m.held {
        ".."
    } else {
        "->"
    };
    let route = format!("{} {arrow} {}", party(trace, m.from), party(trace, m.to));
    let note = if m.lost {
        " (lost)"
    } else if m.held {
        " (held back)"
    } else {
        ""
    };
    format!("{:>4}  {route:<22}  {}{note}", m.step, m.label)
}
