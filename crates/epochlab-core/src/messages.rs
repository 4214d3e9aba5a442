//! The messages of a run, for a message-sequence diagram: who sent what to whom at which step, derived
//! from the steps' annotations (no rule is re-derived here). Lanes are the producer, the controller, each
//! broker and the consumer; local actions (truncation, crash, restart, halt) are marks on a broker's lane.

use serde::Serialize;

use crate::scenario::{Event, Scenario};
use crate::state::{BrokerId, BrokerSet};
use crate::trace::{Annotation, FetchAnswer, ProduceResult, Step, Trace};

/// A lane of the diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "lane", content = "broker", rename_all = "snake_case")]
pub enum Party {
    /// The producing client.
    Producer,
    /// The controller.
    Controller,
    /// A broker, by assignment order.
    Broker(BrokerId),
    /// The consuming client.
    Consumer,
}

/// What a message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    /// A produce request.
    Produce,
    /// Its acknowledgement or error.
    ProduceResponse,
    /// A LeaderAndIsr request, or under KRaft the PartitionChangeRecord a broker replays.
    LeaderAndIsr,
    /// A leader's AlterPartition (KRaft): the ISR it proposes.
    AlterPartition,
    /// The controller's answer: the ISR committed.
    AlterPartitionResponse,
    /// A Fetch request (a follower's or a consumer's).
    Fetch,
    /// Its response.
    FetchResponse,
    /// An OffsetsForLeaderEpoch request.
    OffsetsForLeaderEpoch,
    /// Its answer.
    OffsetsForLeaderEpochResponse,
    /// Not a message: something a broker did on its own (truncate, crash, restart, halt).
    Local,
}

/// One arrow (or mark) of the diagram.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Message {
    /// The step it belongs to.
    pub step: u32,
    /// Sender (for a mark: the broker).
    pub from: Party,
    /// Receiver (for a mark: the broker).
    pub to: Party,
    /// What it is.
    pub kind: MessageKind,
    /// What it carries, in words.
    pub label: String,
    /// The response never arrived (drawn ending in a cross).
    pub lost: bool,
    /// Sent but not delivered yet (a LeaderAndIsr held back: dashed).
    pub held: bool,
    /// Part of a Fetch round trip that carried no records (a diagram may fold a run of them).
    #[serde(skip_serializing_if = "is_false")]
    pub idle: bool,
    /// The HW a Fetch response carries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hw: Option<u32>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Every message of the run, in step order.
pub fn messages(scenario: &Scenario, trace: &Trace) -> Vec<Message> {
    let mut out = Vec::new();
    for (step, event) in trace.steps.iter().zip(&scenario.events) {
        step_messages(trace, step, event, &mut out);
    }
    for read in crate::reads::reads(trace) {
        if let Some(t) = read.truncated.as_ref() {
            consumer_finds_truncation(trace, &read, t, &mut out);
        }
    }
    out
}

/// The consumer's next poll once the leader no longer holds what it read (model §12.7): the
/// OffsetsForLeaderEpoch that validates its position (2.3 and later), or the Fetch at its position.
fn consumer_finds_truncation(
    trace: &Trace,
    read: &crate::reads::Read,
    t: &crate::reads::Truncated,
    out: &mut Vec<Message>,
) {
    use crate::reads::Noticed;
    let Some(step) = trace.steps.get(t.step as usize) else { return };
    let Some(leader) = step.state.true_leader() else { return };
    let epoch = read.records.last().and_then(|r| trace.records.get(r.record as usize)).map_or(0, |r| r.epoch);
    let (ask, kind, answer, reply_kind) = match t.noticed {
        Noticed::Validated => (
            format!("OffsetsForLeaderEpoch (consumer, next poll) epoch {epoch}"),
            MessageKind::OffsetsForLeaderEpoch,
            format!("diverged at {}: LogTruncationException, or reset to {}", t.diverged_at, t.diverged_at),
            MessageKind::OffsetsForLeaderEpochResponse,
        ),
        Noticed::OutOfRange => (
            format!("Fetch (consumer, next poll) at {}", t.position),
            MessageKind::Fetch,
            "OFFSET_OUT_OF_RANGE: auto.offset.reset decides".to_string(),
            MessageKind::FetchResponse,
        ),
        Noticed::Unnoticed => (
            format!("Fetch (consumer, next poll) at {}", t.position),
            MessageKind::Fetch,
            format!("later records; offsets {} to {} changed unseen", t.diverged_at, t.position - 1),
            MessageKind::FetchResponse,
        ),
    };
    let at = out.iter().rposition(|m| m.step <= t.step).map_or(out.len(), |i| i + 1);
    let (c, l) = (Party::Consumer, Party::Broker(leader));
    out.insert(at, message(step, l, c, reply_kind, answer));
    out.insert(at, message(step, c, l, kind, ask));
}

fn message(step: &Step, from: Party, to: Party, kind: MessageKind, label: String) -> Message {
    Message { step: step.index, from, to, kind, label, lost: false, held: false, idle: false, hw: None }
}

/// The marks of a checkpoint or flush event, which leave no annotation of their own.
fn disk_mark(trace: &Trace, step: &Step, event: &Event, out: &mut Vec<Message>) {
    let (broker, label) = match event {
        Event::CheckpointHw { broker } => (broker, "checkpoint HW"),
        Event::Flush { broker } => (broker, "flush to"),
        _ => return,
    };
    let Some(b) = trace.brokers.iter().position(|n| n == broker) else { return };
    let Some(r) = step.state.replicas.get(b) else { return };
    let at = if matches!(event, Event::Flush { .. }) { r.flushed } else { r.hw_checkpoint };
    let me = Party::Broker(b as BrokerId);
    out.push(message(step, me, me, MessageKind::Local, format!("{label} {at}")));
}

fn step_messages(trace: &Trace, step: &Step, event: &Event, out: &mut Vec<Message>) {
    if let (Event::Produce { .. }, Some(reason)) = (event, step.outcome.reason()) {
        let to = produce_target(trace, step, event);
        out.push(message(step, Party::Producer, to, MessageKind::Produce, "Produce".into()));
        out.push(message(step, to, Party::Producer, MessageKind::ProduceResponse, reason.to_string()));
        return;
    }
    if step.outcome.reason().is_none() {
        disk_mark(trace, step, event, out);
    }
    let delivered: Vec<BrokerId> = step
        .annotations
        .iter()
        .filter_map(|a| match a {
            Annotation::LeaderAndIsrApplied { broker, .. } => Some(*broker),
            _ => None,
        })
        .collect();
    // Acknowledgements last: the fetch that raised the HW comes first in the diagram.
    let (acks, rest): (Vec<&Annotation>, Vec<&Annotation>) =
        step.annotations.iter().partition(|a| matches!(a, Annotation::Produced { .. }));
    for a in rest.into_iter().chain(acks) {
        annotation_messages(trace, step, event, a, &delivered, out);
    }
}

/// Where a rejected produce went: the named broker, else the controller's leader, else the first broker.
fn produce_target(trace: &Trace, step: &Step, event: &Event) -> Party {
    let named = event.broker().and_then(|n| trace.brokers.iter().position(|b| b == n));
    let leader = step.state.controller.leader.map(usize::from);
    Party::Broker(named.or(leader).unwrap_or(0) as BrokerId)
}

/// Messages with the producer and the controller; the rest go to `replica_messages`.
fn annotation_messages(
    trace: &Trace,
    step: &Step,
    event: &Event,
    a: &Annotation,
    delivered: &[BrokerId],
    out: &mut Vec<Message>,
) {
    let b = Party::Broker;
    let m = |from, to, kind, label| message(step, from, to, kind, label);
    match a {
        Annotation::Appended { broker, records, .. } if matches!(event, Event::Produce { .. }) => {
            out.push(m(
                Party::Producer,
                b(*broker),
                MessageKind::Produce,
                format!("Produce {}", trace.labels(records)),
            ));
        }
        Annotation::Produced { record, result } if result.is_answer() => {
            let leader = trace.records.get(*record as usize).map_or(0, |r| r.leader);
            let what = if *result == ProduceResult::Acked { "ack" } else { result.name() };
            out.push(m(
                b(leader),
                Party::Producer,
                MessageKind::ProduceResponse,
                format!("{what} {}", trace.label(*record)),
            ));
        }
        Annotation::Elected { leader, epoch, isr, .. } => {
            let who = leader.map_or("no leader".to_string(), |l| format!("leader {}", trace.broker_name(l)));
            let text = format!(
                "{} {who}, {}",
                request_words(trace, step, *epoch),
                isr_words(trace, *isr, step.state.controller.elr)
            );
            for r in step.state.controller.live.iter() {
                let mut msg = m(Party::Controller, b(r), MessageKind::LeaderAndIsr, text.clone());
                msg.held = !delivered.contains(&r);
                out.push(msg);
            }
        }
        Annotation::LeaderAndIsrApplied { broker, epoch, leader } if !elected_in(step) => {
            let who = leader.map_or("no leader".to_string(), |l| format!("leader {}", trace.broker_name(l)));
            // The controller's ISR and ELR are the request's only while its epoch is still the current one.
            let c = &step.state.controller;
            let sets =
                if *epoch == c.leader_epoch { format!(", {}", isr_words(trace, c.isr, c.elr)) } else { String::new() };
            let how = if trace.rules.control.kraft() { "replayed" } else { "delivered" };
            out.push(m(
                Party::Controller,
                b(*broker),
                MessageKind::LeaderAndIsr,
                format!("{} {who}{sets} ({how})", request_words(trace, step, *epoch)),
            ));
        }
        Annotation::IsrChanged { to, by_leader: Some(l), .. } if trace.rules.control.kraft() => {
            let isr = isr_words(trace, *to, step.state.controller.elr);
            out.push(m(b(*l), Party::Controller, MessageKind::AlterPartition, format!("AlterPartition {isr}")));
            let committed = format!("{isr} committed, partition epoch {}", step.state.controller.partition_epoch);
            out.push(m(Party::Controller, b(*l), MessageKind::AlterPartitionResponse, committed));
        }
        _ => replica_messages(trace, step, a, out),
    }
}

/// "LeaderAndIsr epoch 2," or, under KRaft, the record every broker replays: "PartitionChangeRecord leader
/// epoch 2, partition epoch 5," (model §13.1).
fn request_words(trace: &Trace, step: &Step, epoch: i32) -> String {
    if trace.rules.control.kraft() {
        let partition = step.state.controller.partition_epoch;
        format!("PartitionChangeRecord leader epoch {epoch}, partition epoch {partition},")
    } else {
        format!("LeaderAndIsr epoch {epoch},")
    }
}

/// `ISR {A, B}`, and under KIP-966 `, ELR {C}` beside it (the partition's record carries both).
fn isr_words(trace: &Trace, isr: BrokerSet, elr: BrokerSet) -> String {
    let elr = if elr.is_empty() { String::new() } else { format!(", ELR {}", trace.names(elr)) };
    format!("ISR {}{elr}", trace.names(isr))
}

/// Messages between brokers and the consumer, and the marks of local actions.
fn replica_messages(trace: &Trace, step: &Step, a: &Annotation, out: &mut Vec<Message>) {
    let b = Party::Broker;
    let m = |from, to, kind, label| message(step, from, to, kind, label);
    match a {
        Annotation::OffsetsForLeaderEpoch { follower, leader, epoch, answer, dropped } => {
            out.push(m(
                b(*follower),
                b(*leader),
                MessageKind::OffsetsForLeaderEpoch,
                format!("OffsetsForLeaderEpoch epoch {epoch}"),
            ));
            let text = answer.map_or_else(|e| e.to_string(), |e| e.describe());
            let mut reply = m(b(*leader), b(*follower), MessageKind::OffsetsForLeaderEpochResponse, text);
            reply.lost = *dropped;
            out.push(reply);
        }
        Annotation::Fetch { follower, leader, offset, last_fetched_epoch, answer, dropped } => {
            let lfe = if *last_fetched_epoch >= 0 {
                format!(", LastFetchedEpoch {last_fetched_epoch}")
            } else {
                String::new()
            };
            out.push(m(b(*follower), b(*leader), MessageKind::Fetch, format!("Fetch at {offset}{lfe}")));
            let mut reply = m(b(*leader), b(*follower), MessageKind::FetchResponse, fetch_answer(trace, answer));
            reply.lost = *dropped;
            if let FetchAnswer::Records { records, hw } = answer {
                reply.hw = Some(*hw);
                reply.idle = records.is_empty() && !*dropped;
            }
            if let Some(request) = out.last_mut() {
                request.idle = reply.idle;
            }
            out.push(reply);
        }
        Annotation::Consumed { broker, records } => {
            out.push(m(Party::Consumer, b(*broker), MessageKind::Fetch, "Fetch (consumer) from 0".into()));
            let hw = step.state.replicas[*broker as usize].hw;
            out.push(m(
                b(*broker),
                Party::Consumer,
                MessageKind::FetchResponse,
                format!("{}, HW {hw}", or_nothing(trace.labels(records))),
            ));
        }
        Annotation::Truncated { broker, to, removed, .. } => {
            out.push(m(
                b(*broker),
                b(*broker),
                MessageKind::Local,
                format!("truncate to {to} ({})", trace.labels(removed)),
            ));
        }
        Annotation::Crashed { broker, power } => {
            out.push(m(b(*broker), b(*broker), MessageKind::Local, if *power { "power loss" } else { "crash" }.into()));
        }
        Annotation::Restarted { broker } => out.push(m(b(*broker), b(*broker), MessageKind::Local, "restart".into())),
        Annotation::Halted { broker } => out.push(m(b(*broker), b(*broker), MessageKind::Local, "halt".into())),
        _ => {}
    }
}

fn elected_in(step: &Step) -> bool {
    step.annotations.iter().any(|a| matches!(a, Annotation::Elected { .. }))
}

fn or_nothing(text: String) -> String {
    if text.is_empty() {
        "nothing".into()
    } else {
        text
    }
}

fn fetch_answer(trace: &Trace, answer: &FetchAnswer) -> String {
    match answer {
        FetchAnswer::Records { records, hw } => format!("{}, HW {hw}", or_nothing(trace.labels(records))),
        FetchAnswer::DivergingEpoch { end } => format!("DivergingEpoch: {}", end.describe()),
        FetchAnswer::Error { error } => error.name().to_string(),
    }
}
