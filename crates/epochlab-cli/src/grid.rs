//! Plain-text drawing of a run: an offset-aligned grid per broker, then the verdicts.
//!
//! Everything shown comes from the core's view model; this file only chooses characters.
//!
//! ```text
//! offset               0      1
//! A  leader    e1 isr |=m1@0  xm2@0   HW 1  LEO 1  ...
//! ```

use epochlab_core::invariants::InvariantId;
use epochlab_core::presets::verdict_of;
use epochlab_core::view::{view, BrokerView, Cell, CellStatus, StepView};
use epochlab_core::Trace;

const LEGEND: &str = "legend: = committed  ~ uncommitted  ! diverges from the leader (a bug)  ^ differs, no bug  x committed record lost on the leader (a bug)  o lost, allowed by design  - truncated (ghost)  . empty  | HW";

/// Word-wrap `text` at `width` columns, every line starting with `indent`.
pub(crate) fn wrap(text: &str, width: usize, indent: &str) -> String {
    epochlab_core::text::wrap(text, width).iter().map(|line| format!("{indent}{line}\n")).collect()
}

/// The text of one cell, without padding.
fn cell_text(cell: &Cell) -> String {
    let mark = match cell.status {
        CellStatus::Committed => '=',
        CellStatus::Uncommitted => '~',
        CellStatus::Divergent => '!',
        CellStatus::Differs => '^',
        CellStatus::Lost => 'x',
        CellStatus::LostAllowed => 'o',
        CellStatus::Truncated => '-',
        CellStatus::Empty => return ".".to_string(),
    };
    let record = cell.record.as_ref().or(cell.lost.as_ref()).or(cell.ghost.as_ref().map(|g| &g.record));
    match record {
        Some(r) => format!("{mark}{}@{}", r.label, r.epoch),
        None => mark.to_string(),
    }
}

fn broker_row(b: &BrokerView, width: usize, name_width: usize) -> String {
    let isr = match (b.in_isr, b.in_elr) {
        (true, _) => "isr",
        (false, true) => "elr",
        (false, false) => "   ",
    };
    let stale = if b.stale_leader { "?" } else { " " };
    let epoch = if b.known_epoch >= 0 { format!("e{}", b.known_epoch) } else { "e-".to_string() };
    let mut row = format!("{:<name_width$} {:<8}{stale}{:<4}{isr} ", b.name, b.role.id(), epoch);
    for (i, cell) in b.cells.iter().enumerate() {
        row.push(if i as u32 == b.hw { '|' } else { ' ' });
        row.push_str(&format!("{:<width$}", cell_text(cell)));
    }
    row.push(if b.hw as usize == b.cells.len() { '|' } else { ' ' });
    let cache: Vec<String> = b.epoch_cache.iter().map(|e| format!("({},{})", e.epoch, e.start_offset)).collect();
    row.push_str(&format!(
        "  HW {}  LEO {}  ckpt {}  flushed {}  cache [{}]",
        b.hw,
        b.leo,
        b.hw_checkpoint,
        b.flushed,
        cache.join(" ")
    ));
    row.trim_end().to_string() + "\n"
}

/// The grid for one view.
pub(crate) fn draw(v: &StepView) -> String {
    let width = v.brokers.iter().flat_map(|b| b.cells.iter()).map(|c| cell_text(c).len()).max().unwrap_or(1).max(4) + 1;
    let name_width = v.brokers.iter().map(|b| b.name.len()).max().unwrap_or(1);
    let prefix = name_width + 1 + 8 + 1 + 4 + 3 + 1;
    let mut out = format!("{:>prefix$}", "offset");
    for o in 0..v.width {
        out.push(' ');
        out.push_str(&format!("{:<width$}", o));
    }
    out = out.trim_end().to_string() + "\n";
    for b in &v.brokers {
        out.push_str(&broker_row(b, width, name_width));
    }
    out
}

/// One variant's run: header, grid, verdicts (and optionally every step).
pub(crate) fn run_block(trace: &Trace, at: Option<usize>, steps: bool) -> String {
    let last = trace.steps.len().checked_sub(1);
    let step = at.or(last);
    let v = view(trace, step, 0);
    let flags: Vec<&str> = trace.flags.iter().map(|f| f.id()).collect();
    let mut out = format!("== {} ==\n", trace.scenario);
    out.push_str(&format!(
        "variant {} ({}); flags: {}\n",
        trace.variant.id(),
        trace.variant.title(),
        if flags.is_empty() { "none".to_string() } else { flags.join(", ") }
    ));
    if steps {
        out.push('\n');
        for s in &trace.steps {
            let head = format!("{:>3} {:<14}{:<9}", s.index, s.kind, s.outcome.label());
            let body = wrap(&s.narration, 72, &" ".repeat(head.len()));
            out.push_str(&head);
            out.push_str(body.trim_start());
        }
    }
    let when = match step {
        Some(i) => format!("after step {i} ({})", trace.steps[i].kind),
        None => "before any event".to_string(),
    };
    let leader = v.controller_leader.as_deref().unwrap_or("none");
    let elr =
        if v.controller_elr.is_empty() { String::new() } else { format!(", ELR {{{}}}", v.controller_elr.join(", ")) };
    let partition = v.partition_epoch.map_or(String::new(), |p| format!(" (partition epoch {p})"));
    out.push_str(&format!(
        "\n{when}: controller leader {leader}, epoch {}{partition}, ISR {{{}}}{elr}\n",
        v.controller_epoch,
        v.controller_isr.join(", ")
    ));
    out.push_str(&draw(&v));
    out.push_str(LEGEND);
    out.push_str("\n\n");
    out.push_str(&verdicts(trace));
    out
}

fn verdicts(trace: &Trace) -> String {
    let (bugs, _) = verdict_of(trace);
    let mut out = if bugs.is_empty() {
        "verdict: ok, no invariant fails".to_string()
    } else {
        format!("verdict: BUG, {} fail{}", InvariantId::join(&bugs, ", "), if bugs.len() == 1 { "s" } else { "" })
    };
    if trace.violations.iter().any(|v| v.by_design) && bugs.is_empty() {
        out.push_str(" beyond what Kafka allows");
    }
    out.push('\n');
    for v in &trace.violations {
        let tag = if v.by_design { "allowed" } else { "BUG" };
        let text = format!("{tag:<8}{} {} (step {}): {}", v.invariant, v.invariant.name(), v.step, v.message);
        let wrapped = wrap(&text, 96, "          ");
        out.push_str("  ");
        out.push_str(wrapped.trim_start());
    }
    out
}

/// A table of verdicts for several variants.
pub(crate) fn summary(traces: &[Trace]) -> String {
    let mut out = String::from("summary\n");
    for t in traces {
        let (bugs, allowed) = verdict_of(t);
        let verdict = match (bugs.is_empty(), t.first_bug_step()) {
            (false, Some(step)) => format!("BUG {} (first at step {step})", InvariantId::join(&bugs, " ")),
            _ => "ok".to_string(),
        };
        let allowed =
            if allowed.is_empty() { String::new() } else { format!("  allowed: {}", InvariantId::join(&allowed, " ")) };
        out.push_str(&format!("  {:<22}{verdict}{allowed}\n", t.variant.id()));
    }
    out
}
