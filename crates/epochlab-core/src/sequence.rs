//! A message-sequence diagram of one scenario under the shown variants, on shared lanes: each variant's
//! messages ([`crate::messages`]) aligned step by step, a message drawn once where every variant sent the
//! same, and marked where their payloads differ (the OffsetsForLeaderEpoch answer that makes kip-101 and
//! kip-279 part ways, model §6). Consecutive Fetch round trips that carried no records fold into one run,
//! so that a long scenario stays legible.

use crate::messages::{messages, Message, MessageKind, Party};
use crate::scenario::Scenario;
use crate::state::BrokerId;
use crate::trace::Trace;
use crate::variant::Variant;

/// At least this many idle Fetch round trips in a row fold into a run.
pub const MIN_RUN: u32 = 2;
/// Above this many cells, a step's messages are aligned by position instead of by common subsequence.
const MAX_ALIGN_CELLS: usize = 40_000;

/// A lane of the diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    /// Who it is.
    pub party: Party,
    /// Its header.
    pub name: String,
}

/// One line of the diagram: the same exchange under each shown variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The step it belongs to.
    pub step: u32,
    /// Per shown variant, its message (`None`: that variant did not send it).
    pub shown: Vec<Option<Message>>,
    /// The variants do not all send the same message here (drawn once per variant, marked).
    pub differs: bool,
}

impl Row {
    /// The message drawn when the variants agree (the first present one).
    pub fn first(&self) -> &Message {
        self.shown.iter().flatten().next().expect("a row holds at least one message")
    }
}

/// Idle Fetch round trips in a row, folded into one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The rows it folds (requests and responses).
    pub rows: Vec<Row>,
    /// How many round trips.
    pub rounds: u32,
    /// "Fetch ×3, no new records (steps 10–12, HW 3)".
    pub label: String,
}

impl Run {
    /// The first step it covers.
    pub fn first_step(&self) -> u32 {
        self.rows.first().map_or(0, |r| r.step)
    }

    /// The last step it covers.
    pub fn last_step(&self) -> u32 {
        self.rows.last().map_or(0, |r| r.step)
    }
}

/// A line or a folded run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// One exchange.
    Row(Row),
    /// Several idle fetches.
    Run(Run),
}

/// The whole diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// The lanes, left to right: producer, controller, each broker, consumer.
    pub lanes: Vec<Lane>,
    /// The variants, in the order of [`Row::shown`].
    pub variants: Vec<Variant>,
    /// The lines, in step order.
    pub items: Vec<Item>,
    /// The index into `items` of the first line where the variants differ.
    pub first_difference: Option<usize>,
}

impl Diagram {
    /// The lane index of a party.
    pub fn lane(&self, party: Party) -> usize {
        self.lanes.iter().position(|l| l.party == party).unwrap_or(0)
    }

    /// The message in words, for a screen reader and a tooltip: "B → A: Fetch at 2 (lost)".
    pub fn describe(&self, m: &Message) -> String {
        let name = |p: Party| self.lanes.get(self.lane(p)).map_or("", |l| l.name.as_str());
        let note = if m.lost {
            " (response lost)"
        } else if m.held {
            " (held back)"
        } else {
            ""
        };
        if m.kind == MessageKind::Local {
            format!("step {}, {}: {}", m.step, name(m.from), m.label)
        } else {
            format!("step {}, {} → {}: {}{note}", m.step, name(m.from), name(m.to), m.label)
        }
    }
}

/// The diagram of the scenario under these traces (one per shown variant, of the same scenario).
pub fn diagram(scenario: &Scenario, traces: &[Trace]) -> Diagram {
    let per_variant: Vec<Vec<Message>> = traces.iter().map(|t| messages(scenario, t)).collect();
    let steps = traces.first().map_or(0, |t| t.steps.len());
    let mut rows = Vec::new();
    let mut cursors = vec![0usize; per_variant.len()];
    for step in 0..steps as u32 {
        let seqs: Vec<&[Message]> = per_variant
            .iter()
            .zip(cursors.iter_mut())
            .map(|(ms, at)| {
                let start = *at;
                *at += ms[start..].iter().take_while(|m| m.step == step).count();
                &ms[start..*at]
            })
            .collect();
        rows.extend(align(step, &seqs));
    }
    let items = fold(rows);
    let first_difference = items.iter().position(|i| matches!(i, Item::Row(r) if r.differs));
    Diagram { lanes: lanes(traces), variants: traces.iter().map(|t| t.variant).collect(), items, first_difference }
}

fn lanes(traces: &[Trace]) -> Vec<Lane> {
    let brokers = traces.first().map(|t| t.brokers.clone()).unwrap_or_default();
    let lane = |party, name: &str| Lane { party, name: name.to_string() };
    let mut out = vec![lane(Party::Producer, "producer"), lane(Party::Controller, "controller")];
    out.extend(brokers.iter().enumerate().map(|(i, b)| lane(Party::Broker(i as BrokerId), b)));
    out.push(lane(Party::Consumer, "consumer"));
    out
}

type Key = (Party, Party, MessageKind);

fn key(m: &Message) -> Key {
    (m.from, m.to, m.kind)
}

/// One step's rows: the variants' messages aligned on their (sender, receiver, kind), one variant at a time.
fn align(step: u32, seqs: &[&[Message]]) -> Vec<Row> {
    let mut lines: Vec<Vec<Option<Message>>> = Vec::new();
    for (v, seq) in seqs.iter().enumerate() {
        let keys: Vec<Key> =
            lines.iter().map(|l| key(l.iter().flatten().next().expect("a line holds a message"))).collect();
        let pairs = common_subsequence(&keys, &seq.iter().map(key).collect::<Vec<_>>());
        let mut merged = Vec::with_capacity(lines.len() + seq.len());
        let (mut i, mut j) = (0, 0);
        let mut old = std::mem::take(&mut lines).into_iter();
        for (pi, pj) in pairs.into_iter().chain(std::iter::once((keys.len(), seq.len()))) {
            for _ in i..pi {
                let mut l = old.next().expect("line");
                l.push(None);
                merged.push(l);
            }
            for m in &seq[j..pj] {
                let mut l = vec![None; v];
                l.push(Some(m.clone()));
                merged.push(l);
            }
            if pi < keys.len() {
                let mut l = old.next().expect("line");
                l.push(Some(seq[pj].clone()));
                merged.push(l);
            }
            (i, j) = (pi + 1, pj + 1);
        }
        lines = merged;
    }
    lines
        .into_iter()
        .map(|shown| {
            let differs = shown.iter().any(|m| m.as_ref() != shown[0].as_ref());
            Row { step, shown, differs }
        })
        .collect()
}

/// The index pairs of a longest common subsequence of `a` and `b` (positional pairs when too large).
fn common_subsequence(a: &[Key], b: &[Key]) -> Vec<(usize, usize)> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    if (a.len() + 1) * (b.len() + 1) > MAX_ALIGN_CELLS {
        return (0..a.len().min(b.len())).filter(|&i| a[i] == b[i]).map(|i| (i, i)).collect();
    }
    let w = b.len() + 1;
    let mut len = vec![0u32; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            len[i * w + j] =
                if a[i] == b[j] { len[(i + 1) * w + j + 1] + 1 } else { len[(i + 1) * w + j].max(len[i * w + j + 1]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            out.push((i, j));
            (i, j) = (i + 1, j + 1);
        } else if len[(i + 1) * w + j] >= len[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// A row every variant agrees on that is half of an idle Fetch round trip.
fn idle(row: &Row) -> bool {
    !row.differs && row.first().idle
}

/// Fold each stretch of at least [`MIN_RUN`] idle round trips into a [`Run`].
fn fold(rows: Vec<Row>) -> Vec<Item> {
    let mut items = Vec::new();
    let mut pending: Vec<Row> = Vec::new();
    for row in rows {
        if idle(&row) {
            pending.push(row);
        } else {
            flush(&mut pending, &mut items);
            items.push(Item::Row(row));
        }
    }
    flush(&mut pending, &mut items);
    items
}

fn flush(pending: &mut Vec<Row>, items: &mut Vec<Item>) {
    let rows = std::mem::take(pending);
    let rounds = rows.iter().filter(|r| r.first().kind == MessageKind::Fetch).count() as u32;
    if rounds < MIN_RUN {
        items.extend(rows.into_iter().map(Item::Row));
        return;
    }
    let label = run_label(&rows, rounds);
    items.push(Item::Run(Run { rows, rounds, label }));
}

fn run_label(rows: &[Row], rounds: u32) -> String {
    let hws: Vec<u32> = rows.iter().filter_map(|r| r.first().hw).collect();
    let hw = match (hws.first(), hws.last()) {
        (Some(a), Some(b)) if a != b => format!("HW {a} → {b}"),
        (Some(a), _) => format!("HW {a}"),
        _ => String::new(),
    };
    let (first, last) = (rows[0].step, rows[rows.len() - 1].step);
    let steps = if first == last { format!("step {first}") } else { format!("steps {first}–{last}") };
    format!("Fetch ×{rounds}, no new records ({steps}, {hw})")
}
