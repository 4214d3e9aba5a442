//! What consumers saw: for each `consume` step, the records the consumer read (offset, record, from which
//! broker, below which HW), and for each of them whether it was later lost or rewritten on the leader, as
//! the I5 check (model §4, "consumer-visible record lost or rewritten": a phantom read) found it. Nothing is
//! re-derived here: the reads come from the steps' annotations and the losses from the trace's violations.

mod unchanged;

pub use unchanged::unchanged;

use serde::Serialize;

use crate::invariants::{InvariantId, Violation};
use crate::state::{BrokerId, Entry};
use crate::trace::{Annotation, Step, Trace};

/// One `consume`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Read {
    /// Its step.
    pub step: u32,
    /// The broker read from.
    pub broker: BrokerId,
    /// That broker's HW then (the consumer sees everything below it).
    pub hw: u32,
    /// What it read, in offset order from 0.
    pub records: Vec<SeenRecord>,
    /// What the consumer meets at its next fetch once a leader no longer holds what it read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<Truncated>,
}

/// A consumer whose position lies past the point where the leader's log now differs from what it read
/// (model §12.7): how it finds out depends on the release.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Truncated {
    /// The first step at which a leader's log differs below the consumer's position.
    pub step: u32,
    /// The consumer's position: the offset after the last record it read.
    pub position: u32,
    /// The first offset where the leader's log no longer holds what the consumer read.
    pub diverged_at: u32,
    /// The leader's log end offset then.
    pub leader_leo: u32,
    /// How the consumer finds out.
    pub noticed: Noticed,
}

/// How a consumer past a truncation finds out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Noticed {
    /// 2.3 and later (KIP-320, KAFKA-7747): it validates its position with OffsetsForLeaderEpoch after the
    /// leader change and learns where the logs diverge.
    Validated,
    /// Before 2.3, its position is past the leader's log end: OFFSET_OUT_OF_RANGE, and auto.offset.reset
    /// decides.
    OutOfRange,
    /// Before 2.3, its position is still inside the leader's log: it reads on, and never learns that the
    /// records below its position changed.
    Unnoticed,
}

impl Noticed {
    /// Its key in a lesson's `consumer_sees` question.
    pub const fn key(self) -> &'static str {
        match self {
            Noticed::Validated => "validated",
            Noticed::OutOfRange => "out-of-range",
            Noticed::Unnoticed => "unnoticed",
        }
    }
}

impl Truncated {
    /// What the consumer sees, in words.
    pub fn words(&self) -> String {
        let (p, d, leo) = (self.position, self.diverged_at, self.leader_leo);
        match self.noticed {
            Noticed::Validated => format!(
                "after the leader change it validates position {p} with OffsetsForLeaderEpoch (Kafka 2.3 and later, KIP-320): the log diverged at offset {d}, so with auto.offset.reset=none it raises LogTruncationException naming offset {d}; with earliest or latest it resets to offset {d} and logs the truncation"
            ),
            Noticed::OutOfRange => format!(
                "its next fetch at offset {p} is past the leader's log end {leo}: OFFSET_OUT_OF_RANGE, and auto.offset.reset decides (latest, the default, jumps to {leo}; earliest re-reads from 0; none raises an error); nothing says that offsets from {d} changed (before Kafka 2.3)"
            ),
            Noticed::Unnoticed => format!(
                "its next fetch at offset {p} succeeds: offsets {d} to {} now hold other records, and the consumer never learns it (before Kafka 2.3)",
                p - 1
            ),
        }
    }
}

/// One record a consumer read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeenRecord {
    /// Its offset.
    pub offset: u32,
    /// Its id (its label is the trace's: `Trace::label`; a copy per record made every re-run allocate
    /// thousands of strings at the event limit).
    pub record: u32,
    /// Whether, and when, the leader lost it or holds another record there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost: Option<Loss>,
}

/// A phantom read: the I5 violation about the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Loss {
    /// The step from which the leader no longer holds it there.
    pub step: u32,
    /// Kafka never promised to keep it (unclean election, every ISR member lost power).
    pub by_design: bool,
    /// The checker's sentence.
    pub message: String,
}

impl SeenRecord {
    /// Lost by the cursor's step (`None`: before the first step).
    pub fn lost_by(&self, cursor: Option<usize>) -> Option<&Loss> {
        self.lost.as_ref().filter(|l| cursor.is_some_and(|c| l.step as usize <= c))
    }
}

/// Every `consume` of the run, in step order.
pub fn reads(trace: &Trace) -> Vec<Read> {
    let leaders = leader_logs(trace);
    // Few runs have phantom reads: each record is looked up among these only.
    let phantoms: Vec<&Violation> = trace.violations.iter().filter(|v| v.invariant == InvariantId::I5).collect();
    let mut out = Vec::new();
    for step in &trace.steps {
        for a in &step.annotations {
            let Annotation::Consumed { broker, records } = a else { continue };
            let hw = step.state.replicas.get(*broker as usize).map_or(0, |r| r.hw);
            let records: Vec<SeenRecord> = records
                .iter()
                .enumerate()
                .map(|(offset, id)| SeenRecord {
                    offset: offset as u32,
                    record: *id,
                    lost: loss(&phantoms, offset as u32, *id),
                })
                .collect();
            let truncated = truncation(trace, &leaders, step.index, &records);
            out.push(Read { step: step.index, broker: *broker, hw, records, truncated });
        }
    }
    out
}

/// A step's true leader's log, and the offsets below which it holds what the previous step's true leader
/// held (so that a read that agreed with that log can only part from this one at or above them).
struct LeaderLog<'a> {
    step: u32,
    log: &'a [Entry],
    agrees_below: usize,
    /// The next leader log (an index) that agrees with its predecessor below fewer offsets than this one:
    /// every log in between agrees below at least as many, so a read they cannot differ from skips them.
    next_lower: usize,
}

/// Every step that has a true leader, in order: one pass over the steps, shared by every read (a read
/// checked against every later step's whole log made a 1,000-event scenario cost millions of comparisons).
fn leader_logs(trace: &Trace) -> Vec<LeaderLog<'_>> {
    let mut out: Vec<LeaderLog<'_>> = Vec::new();
    for step in &trace.steps {
        let Some(log) = leader_log(step) else { continue };
        let agrees_below = out.last().map_or(0, |prev| common_prefix(prev.log, log));
        out.push(LeaderLog { step: step.index, log, agrees_below, next_lower: usize::MAX });
    }
    link_next_lower(&mut out);
    out
}

/// The true leader's log after a step, if it has a true leader.
fn leader_log(step: &Step) -> Option<&[Entry]> {
    step.state.true_leader().map(|l| step.state.replica(l).log.as_slice())
}

/// Sets each log's `next_lower` (the next smaller value, found with a stack from the end).
fn link_next_lower(logs: &mut [LeaderLog<'_>]) {
    let mut lower: Vec<usize> = Vec::new();
    for i in (0..logs.len()).rev() {
        while lower.last().is_some_and(|&j| logs[j].agrees_below >= logs[i].agrees_below) {
            lower.pop();
        }
        logs[i].next_lower = lower.last().copied().unwrap_or(logs.len());
        lower.push(i);
    }
}

fn common_prefix(a: &[Entry], b: &[Entry]) -> usize {
    // Most steps leave the leader's log as it was (shared, not copied): nothing to compare then.
    if std::ptr::eq(a, b) {
        return a.len();
    }
    a.iter().zip(b).take_while(|(x, y)| x.id == y.id).count()
}

/// The first step after the read at `at` where a true leader's log no longer holds every record below the
/// consumer's position, and how the consumer finds out under the run's release.
fn truncation(trace: &Trace, leaders: &[LeaderLog<'_>], at: u32, read: &[SeenRecord]) -> Option<Truncated> {
    let position = read.len() as u32;
    if position == 0 {
        return None;
    }
    let (diverged_at, leader) = first_differing(leaders, leaders.partition_point(|l| l.step <= at), read)?;
    let leader_leo = leader.log.len() as u32;
    let noticed = if trace.rules.consumers_validate {
        Noticed::Validated
    } else if position > leader_leo {
        Noticed::OutOfRange
    } else {
        Noticed::Unnoticed
    };
    Some(Truncated { step: leader.step, position, diverged_at, leader_leo, noticed })
}

/// The first leader log from `first` on that does not hold what `read` holds, and the first offset where it
/// differs: the first is compared from offset 0, each next one only where it may differ from the one before,
/// and a run of logs that agree with their predecessors below the read's end is skipped at once.
fn first_differing<'l, 'a>(
    leaders: &'l [LeaderLog<'a>],
    first: usize,
    read: &[SeenRecord],
) -> Option<(u32, &'l LeaderLog<'a>)> {
    let mut i = first;
    // Bounded: `i` grows at every turn (`next_lower` is always past its own index).
    while let Some(l) = leaders.get(i) {
        if i > first && l.agrees_below >= read.len() {
            i = l.next_lower;
            continue;
        }
        let from = if i == first { 0 } else { l.agrees_below };
        let differs = |r: &&SeenRecord| l.log.get(r.offset as usize).map(|e| e.id) != Some(r.record);
        if let Some(r) = read[from..].iter().find(differs) {
            return Some((r.offset, l));
        }
        i += 1;
    }
    None
}

fn loss(phantoms: &[&Violation], offset: u32, id: u32) -> Option<Loss> {
    phantoms.iter().find(|v| v.records.contains(&id) && v.offsets.contains(&offset)).map(|v| Loss {
        step: v.step,
        by_design: v.by_design,
        message: v.message.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::PRESETS;
    use crate::scenario::text::parse_text;
    use crate::scenario::Scenario;
    use crate::{run_variant, Variant};

    /// A consumer's read from a leader that was not told it was replaced (STALE and BACK below).
    const STALE_READ: &str = "name: stale\nbrokers: A B\n\nelect B\nproduce m1\nfetch A\nproduce m2\nfetch A\n\
        fetch A drop\ncrash A no-notify\nrestart A\nelect A deliver=A\nproduce m3 acks=1 broker=A\nconsume B\n";
    const TWICE: &str = "name: twice\nbrokers: A B C\nunclean_leader_election: true\n\nelect A\nproduce m1\n\
        fetch B\nfetch B\ncrash C\ncrash B\nproduce m2\nconsume\ncrash A\nrestart B\ncrash B\nrestart C\n";

    /// Stories the presets do not tell, each for a case `truncation` and `unchanged` must not miss.
    /// STALE: under the old rule A restarts without m2 and is elected while B, not told, still leads; a
    /// consumer reads m1 and m2 from B after A wrote m3 at offset 1, so the first leader log after the read
    /// differs from it below the offsets where that log agrees with the one before (a read made at the last
    /// leader step is compared whole). BACK: the same read, then B and A elected in turn: the first leader
    /// log after it holds what it read, the next differs from it where that next agrees with the leader log
    /// before the read. TWICE: a read truncated once (B leads without m2) loses a lower record later (C
    /// leads without m1), a new phantom read on a read no longer intact.
    pub(super) fn edge_stories() -> [(&'static str, Scenario); 3] {
        let story = |text: &str| parse_text(text).expect("an edge story");
        [
            ("stale", story(&format!("{STALE_READ}flush A\n"))),
            ("back", story(&format!("{STALE_READ}elect B deliver=B\nelect A deliver=A\n"))),
            ("twice", story(TWICE)),
        ]
    }

    /// The definition `truncation` shortens: every later step's true leader compared from offset 0.
    fn truncation_by_definition(trace: &Trace, read: &Read) -> Option<(u32, u32)> {
        trace.steps.iter().skip(read.step as usize + 1).find_map(|step| {
            let leader = step.state.replica(step.state.true_leader()?);
            let at = read.records.iter().position(|r| leader.id_at(r.offset) != Some(r.record))?;
            Some((step.index, at as u32))
        })
    }

    #[test]
    fn each_reads_truncation_is_the_first_later_leader_that_differs_below_its_position() {
        let mut checked = 0;
        // Each preset and edge story, and its events three times over (longer runs, where runs of leaders
        // agreeing below a read's end are skipped).
        let stories = PRESETS.iter().map(|p| (p.id, p.scenario())).chain(edge_stories()).flat_map(|(id, once)| {
            let mut thrice = once.clone();
            thrice.events = once.events.iter().chain(&once.events).chain(&once.events).cloned().collect();
            [(id, once), (id, thrice)]
        });
        for (id, story) in stories {
            for variant in Variant::ALL {
                let trace = run_variant(&story, variant);
                for read in reads(&trace).iter().filter(|r| !r.records.is_empty()) {
                    let found = read.truncated.as_ref().map(|t| (t.step, t.diverged_at));
                    assert_eq!(found, truncation_by_definition(&trace, read), "{id} under {variant:?}");
                    checked += usize::from(found.is_some());
                }
            }
        }
        assert!(checked > 0, "some preset's read is truncated");
    }

    /// Each edge story does what its comment says, so that the property tests here and in `unchanged` meet
    /// its case.
    #[test]
    fn the_edge_stories_read_what_they_are_written_for() {
        let [stale, back, twice] = edge_stories().map(|(_, story)| run_variant(&story, Variant::HwTruncation));
        let read = &reads(&stale)[0];
        let last_leader = stale.steps.iter().rev().nth(1).and_then(|s| leader_log(s)).expect("A leads");
        assert_eq!((read.broker, read.records.len(), last_leader.len()), (1, 2, 2));
        assert_ne!(last_leader[1].id, read.records[1].record, "A holds m3 where B's consumer read m2");
        assert_eq!(read.truncated.as_ref().map(|t| t.step), Some(read.step + 1));
        let read = &reads(&back)[0];
        let leaders: Vec<&[Entry]> =
            back.steps[read.step as usize + 1..].iter().filter_map(|s| leader_log(s)).collect();
        assert_eq!(leaders.len(), 2);
        assert_eq!(leaders[0][1].id, read.records[1].record, "B leads again with m2");
        assert_eq!(read.truncated.as_ref().map(|t| t.step), Some(read.step + 2), "A leads again with m3");
        let twice = reads(&twice).remove(0);
        let lost: Vec<Option<u32>> = twice.records.iter().map(|r| r.lost.as_ref().map(|l| l.step)).collect();
        let truncated_at = twice.truncated.as_ref().map(|t| t.step).expect("B leads without m2");
        assert!(lost[0] > Some(truncated_at) && lost[1] == Some(truncated_at), "{lost:?}, truncated at {truncated_at}");
    }
}
