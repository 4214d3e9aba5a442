//! What every conformance case shares: the citation of the Kafka test it re-expresses, running a scenario
//! written in the text format under a Kafka release, and reading a trace the way Kafka's assertions read a
//! broker (its log, epoch cache, HW, the controller's leader, ISR and ELR, what a fetcher did).

use epochlab_core::epoch_cache::EpochEnd;
use epochlab_core::invariants::InvariantId;
use epochlab_core::scenario::text::parse_text;
use epochlab_core::state::{BrokerId, BrokerSet, Replica, State};
use epochlab_core::trace::{Annotation, FetchAnswer, TruncateCause};
use epochlab_core::{run, run_variant, Trace, Variant};

/// The Kafka test a case re-expresses: a test file of apache/kafka, a release tag, and a test method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Citation {
    /// Path of the test file in apache/kafka, e.g. `core/src/test/scala/unit/kafka/cluster/PartitionTest.scala`.
    pub path: String,
    /// A release tag, e.g. `2.1.0` or `0.11.0.0`.
    pub tag: String,
    /// The test method.
    pub method: String,
}

/// The test roots a citation may point into: Scala unit tests of `core`, Java tests of `metadata`.
const ROOTS: [(&str, &str); 2] =
    [("core/src/test/scala/unit/kafka/", "Test.scala"), ("metadata/src/test/java/org/apache/kafka/", "Test.java")];

/// Read `path@tag#method`, saying what is wrong when it is not that shape.
pub fn parse_citation(text: &str) -> Result<Citation, String> {
    let (path, rest) = text.split_once('@').ok_or("no '@' between the path and the tag")?;
    let (tag, method) = rest.split_once('#').ok_or("no '#' between the tag and the method")?;
    let Some((root, suffix)) = ROOTS.iter().find(|(root, _)| path.starts_with(root)) else {
        return Err(format!("the path must start with one of {:?}", ROOTS.map(|r| r.0)));
    };
    let file = path.rsplit('/').next().unwrap_or_default();
    let class = file.strip_suffix(suffix).ok_or_else(|| format!("the file must be a *{suffix}"))?;
    let segments_ok = path[root.len()..].split('/').all(|s| !s.is_empty() && s.chars().all(is_path_char));
    if !segments_ok || !class.starts_with(|c: char| c.is_ascii_uppercase()) {
        return Err(format!("{path:?} is not a test file path"));
    }
    let parts: Vec<&str> = tag.split('.').collect();
    let numeric = parts.iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    if !(3..=4).contains(&parts.len()) || !numeric {
        return Err(format!("{tag:?} is not a release tag (like 2.0.0 or 0.11.0.0)"));
    }
    let identifier = method.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !method.starts_with(|c: char| c.is_ascii_lowercase()) || !identifier {
        return Err(format!("{method:?} is not a test method name"));
    }
    Ok(Citation { path: path.to_string(), tag: tag.to_string(), method: method.to_string() })
}

fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

/// Names the Kafka test a case re-expresses, as `path@tag#method`; panics on any other shape.
pub fn source(text: &str) -> Citation {
    parse_citation(text).unwrap_or_else(|e| panic!("bad citation {text:?}: {e}"))
}

/// Run a scenario in the text format under the Kafka release `release` (the `kafka_version` header).
pub fn run_at(release: &str, body: &str) -> Trace {
    let text = format!("kafka_version: {release}\n{body}");
    let scenario = parse_text(&text).unwrap_or_else(|e| panic!("bad test scenario: {e}\n{text}"));
    run(&scenario)
}

/// Run a scenario in the text format under the Kafka release `release` in KRaft mode (`metadata_mode: kraft`).
pub fn run_kraft(release: &str, body: &str) -> Trace {
    run_at(release, &format!("metadata_mode: kraft\n{body}"))
}

/// Run a scenario in the text format (its header names the release or variant).
pub fn run_text(text: &str) -> Trace {
    run(&parse_text(text).unwrap_or_else(|e| panic!("bad test scenario: {e}\n{text}")))
}

/// Run a scenario in the text format under another variant (for contrasts with the cited release).
pub fn run_text_as(text: &str, variant: Variant) -> Trace {
    run_variant(&parse_text(text).unwrap_or_else(|e| panic!("bad test scenario: {e}\n{text}")), variant)
}

/// A broker's id by name.
pub fn id(t: &Trace, name: &str) -> BrokerId {
    t.brokers.iter().position(|b| b == name).unwrap_or_else(|| panic!("no broker {name}")) as BrokerId
}

/// The state after a step.
pub fn at(t: &Trace, step: usize) -> &State {
    &t.steps.get(step).unwrap_or_else(|| panic!("no step {step}")).state
}

/// A replica after a step.
pub fn replica<'a>(t: &'a Trace, step: usize, name: &str) -> &'a Replica {
    at(t, step).replica(id(t, name))
}

/// The record labels in a replica's log after a step, in offset order.
pub fn labels(t: &Trace, step: usize, name: &str) -> Vec<String> {
    replica(t, step, name).log.iter().map(|e| t.label(e.id).to_string()).collect()
}

/// The leader epochs stamped on a replica's records after a step, in offset order.
pub fn epochs(t: &Trace, step: usize, name: &str) -> Vec<i32> {
    replica(t, step, name).log.iter().map(|e| e.epoch).collect()
}

/// A replica's leader-epoch cache after a step, as `(epoch, start offset)` pairs.
pub fn cache(t: &Trace, step: usize, name: &str) -> Vec<(i32, u32)> {
    replica(t, step, name).epoch_cache.entries().iter().map(|e| (e.epoch, e.start_offset)).collect()
}

/// Two replicas hold the same records (ids and epochs) after a step.
pub fn logs_match(t: &Trace, step: usize, a: &str, b: &str) -> bool {
    replica(t, step, a).log == replica(t, step, b).log
}

fn names(t: &Trace, set: BrokerSet) -> Vec<String> {
    set.iter().map(|b| t.broker_name(b).to_string()).collect()
}

/// The controller's ISR after a step, by name in assignment order.
pub fn isr(t: &Trace, step: usize) -> Vec<String> {
    names(t, at(t, step).controller.isr)
}

/// The leader's own ISR view after a step.
pub fn leader_isr(t: &Trace, step: usize, leader: &str) -> Vec<String> {
    names(t, replica(t, step, leader).isr)
}

/// The controller's leader after a step.
pub fn leader(t: &Trace, step: usize) -> Option<String> {
    at(t, step).controller.leader.map(|b| t.broker_name(b).to_string())
}

/// The controller's leader epoch after a step.
pub fn leader_epoch(t: &Trace, step: usize) -> i32 {
    at(t, step).controller.leader_epoch
}

/// KRaft's partition epoch after a step, counted as Kafka counts it: the record that creates the partition
/// (here the first election, step 0) holds partition epoch 0. The model raises its own count at that first
/// election too, so this is the model's partition epoch less the one it had after step 0.
pub fn partition_epoch(t: &Trace, step: usize) -> i32 {
    at(t, step).controller.partition_epoch - at(t, 0).controller.partition_epoch
}

/// The controller's last known leader (KIP-966's `lastKnownElr`) after a step.
pub fn last_known_elr(t: &Trace, step: usize) -> Vec<String> {
    names(t, at(t, step).controller.last_known_elr)
}

/// The elections a step made: the leader and whether it was unclean.
pub fn elections(t: &Trace, step: usize) -> Vec<(Option<String>, bool)> {
    let elected = t.steps[step].annotations.iter().filter_map(|a| match a {
        Annotation::Elected { leader, unclean, .. } => Some((leader.map(|b| t.broker_name(b).to_string()), *unclean)),
        _ => None,
    });
    elected.collect()
}

/// The controller's eligible leader replicas (KIP-966) after a step.
pub fn elr(t: &Trace, step: usize) -> Vec<String> {
    names(t, at(t, step).controller.elr)
}

/// The invariants violated as bugs (not by design) anywhere in the run.
pub fn bugs(t: &Trace) -> Vec<InvariantId> {
    let mut ids: Vec<InvariantId> = t.violations.iter().filter(|v| !v.by_design).map(|v| v.invariant).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The error a step was rejected with, if it was.
pub fn rejected(t: &Trace, step: usize) -> Option<&'static str> {
    t.steps[step].outcome.reason()
}

/// The OffsetsForLeaderEpoch round trips of a step: the epoch asked and the answer.
pub fn epoch_requests(t: &Trace, step: usize) -> Vec<(i64, EpochEnd)> {
    let requests = t.steps[step].annotations.iter().filter_map(|a| match a {
        Annotation::OffsetsForLeaderEpoch { epoch, answer: Ok(end), .. } => Some((*epoch, *end)),
        _ => None,
    });
    requests.collect()
}

/// How many Fetch round trips a step made (OffsetsForLeaderEpoch rounds not counted).
pub fn fetches(t: &Trace, step: usize) -> usize {
    t.steps[step].annotations.iter().filter(|a| matches!(a, Annotation::Fetch { .. })).count()
}

/// The DivergingEpoch answers of a step's fetches.
pub fn diverging(t: &Trace, step: usize) -> Vec<EpochEnd> {
    let answers = t.steps[step].annotations.iter().filter_map(|a| match a {
        Annotation::Fetch { answer: FetchAnswer::DivergingEpoch { end }, .. } => Some(*end),
        _ => None,
    });
    answers.collect()
}

/// The truncations of a step on one broker: the new LEO, the labels removed, and why.
pub fn truncations(t: &Trace, step: usize, name: &str) -> Vec<(u32, Vec<String>, TruncateCause)> {
    let b = id(t, name);
    let cuts = t.steps[step].annotations.iter().filter_map(|a| match a {
        Annotation::Truncated { broker, to, removed, cause } if *broker == b => {
            Some((*to, removed.iter().map(|r| t.label(*r).to_string()).collect(), *cause))
        }
        _ => None,
    });
    cuts.collect()
}

/// `(epoch, offset)` as an [`EpochEnd`].
pub fn end(epoch: i64, offset: i64) -> EpochEnd {
    EpochEnd { epoch, offset }
}

/// Owned names, for comparisons with [`isr`], [`elr`] and [`labels`].
pub fn list(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}
