//! What a run returns: for every step its outcome, one narration sentence, structured annotations, the full
//! state and the violations holding after it. The UI, the CLI and the tests all read this.

use std::sync::Arc;

use serde::Serialize;

use crate::epoch_cache::EpochEnd;
use crate::invariants::Violation;
use crate::kafka_error::KafkaError;
pub use crate::record::RecordInfo;
use crate::scenario::EventKind;
use crate::state::{BrokerId, BrokerSet, State};
use crate::variant::{Flag, Variant};

/// Whether a step's event took effect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The event happened (its state change may be empty).
    Applied,
    /// The event could not apply in this state; nothing changed.
    Rejected {
        /// Kafka's error (e.g. `NOT_LEADER_OR_FOLLOWER`) or the model's (`BROKER_ALREADY_UP`).
        reason: KafkaError,
    },
}

impl Outcome {
    /// `"applied"` or `"rejected"`.
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Applied => "applied",
            Outcome::Rejected { .. } => "rejected",
        }
    }
    /// The rejection's code, if rejected.
    pub fn error(&self) -> Option<KafkaError> {
        match self {
            Outcome::Applied => None,
            Outcome::Rejected { reason } => Some(*reason),
        }
    }

    /// The rejection's code as Kafka writes it, if rejected.
    pub fn reason(&self) -> Option<&'static str> {
        self.error().map(KafkaError::name)
    }
}

/// Why records left a log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TruncateCause {
    /// Pre-KIP-101: truncated to its own HW on becoming follower.
    OwnHw,
    /// Strawman: truncated to the leader's HW.
    LeaderHw,
    /// Reconciled by an OffsetsForLeaderEpoch answer.
    LeaderEpoch,
    /// Reconciled by a DivergingEpoch in a Fetch response.
    DivergingEpoch,
    /// OFFSET_OUT_OF_RANGE: truncated to the leader's LEO.
    OutOfRange,
    /// Power loss: the unflushed tail was never on disk.
    PowerLoss,
}

impl TruncateCause {
    /// Plain words for the UI's hover text.
    pub fn describe(self) -> &'static str {
        match self {
            TruncateCause::OwnHw => "truncated to its own high watermark on becoming follower",
            TruncateCause::LeaderHw => "truncated to the leader's high watermark on becoming follower",
            TruncateCause::LeaderEpoch => "truncated after the OffsetsForLeaderEpoch exchange",
            TruncateCause::DivergingEpoch => "truncated after a Fetch response reported a diverging epoch",
            TruncateCause::OutOfRange => "truncated to the leader's log end after OFFSET_OUT_OF_RANGE",
            TruncateCause::PowerLoss => "lost in a power failure before it was flushed",
        }
    }
}

/// What a produce request got: written as `acked`, `pending`, `not_acked` or Kafka's error name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProduceResult {
    /// Acknowledged.
    Acked,
    /// acks=all: waiting for the HW to pass the record.
    Pending,
    /// acks=0: nothing is sent back.
    NotAcked,
    /// Answered with an error.
    Failed(KafkaError),
}

impl ProduceResult {
    /// `acked`, `pending`, `not_acked`, or the error's name (`NOT_LEADER_OR_FOLLOWER`).
    pub fn name(self) -> &'static str {
        match self {
            ProduceResult::Acked => "acked",
            ProduceResult::Pending => "pending",
            ProduceResult::NotAcked => "not_acked",
            ProduceResult::Failed(error) => error.name(),
        }
    }

    /// Whether the producer hears back now (an ack or an error).
    pub fn is_answer(self) -> bool {
        matches!(self, ProduceResult::Acked | ProduceResult::Failed(_))
    }
}

impl Serialize for ProduceResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The leader's answer to a Fetch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum FetchAnswer {
    /// Records from the fetch offset on, and the leader's HW.
    Records {
        /// Record ids sent.
        records: Vec<u32>,
        /// The HW carried in the response.
        hw: u32,
    },
    /// diverging-epoch: no records, the epoch and end offset the follower must reconcile with.
    DivergingEpoch {
        /// The answer.
        end: EpochEnd,
    },
    /// An error code (NOT_LEADER_OR_FOLLOWER, FENCED_LEADER_EPOCH, OFFSET_OUT_OF_RANGE, …).
    Error {
        /// Kafka's error.
        error: KafkaError,
    },
}

/// A structured fact about a step, for highlighting and the explanation panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Annotation {
    /// Records appended to a log at `from`.
    Appended {
        /// Broker.
        broker: BrokerId,
        /// First offset appended.
        from: u32,
        /// Record ids.
        records: Vec<u32>,
    },
    /// Records removed from a log from offset `to` on.
    Truncated {
        /// Broker.
        broker: BrokerId,
        /// New LEO.
        to: u32,
        /// Record ids removed, in offset order.
        removed: Vec<u32>,
        /// Why.
        cause: TruncateCause,
    },
    /// A broker's HW changed.
    HwMoved {
        /// Broker.
        broker: BrokerId,
        /// Old HW.
        from: u32,
        /// New HW.
        to: u32,
    },
    /// The ISR changed, on the controller (and the leader's view, when the leader changed it).
    IsrChanged {
        /// Old ISR.
        from: BrokerSet,
        /// New ISR.
        to: BrokerSet,
        /// The leader that changed it, or `None` for the controller.
        by_leader: Option<BrokerId>,
    },
    /// A controller decision that sends LeaderAndIsr.
    Elected {
        /// The new leader, or none (offline).
        leader: Option<BrokerId>,
        /// The new epoch.
        epoch: i32,
        /// Whether the leader came from outside the ISR.
        unclean: bool,
        /// The ISR sent.
        isr: BrokerSet,
    },
    /// A broker applied a LeaderAndIsr.
    LeaderAndIsrApplied {
        /// Broker.
        broker: BrokerId,
        /// The leader it names.
        leader: Option<BrokerId>,
        /// Its epoch.
        epoch: i32,
    },
    /// One OffsetsForLeaderEpoch round trip.
    OffsetsForLeaderEpoch {
        /// Requesting follower.
        follower: BrokerId,
        /// Asked leader.
        leader: BrokerId,
        /// The epoch asked about.
        epoch: i64,
        /// The answer, or an error.
        answer: Result<EpochEnd, &'static str>,
        /// The response never arrived.
        dropped: bool,
    },
    /// One Fetch round trip.
    Fetch {
        /// Fetching follower.
        follower: BrokerId,
        /// Leader fetched from.
        leader: BrokerId,
        /// The fetch offset (the follower's LEO).
        offset: u32,
        /// LastFetchedEpoch (diverging-epoch only, else -1).
        last_fetched_epoch: i64,
        /// The leader's answer.
        answer: FetchAnswer,
        /// The response never arrived.
        dropped: bool,
    },
    /// A produce was acknowledged or failed.
    Produced {
        /// Record id.
        record: u32,
        /// What the producer was told, or will be.
        result: ProduceResult,
    },
    /// A broker went down.
    Crashed {
        /// Broker.
        broker: BrokerId,
        /// Power loss.
        power: bool,
    },
    /// A follower halted on OFFSET_OUT_OF_RANGE (Kafka before 2.1 with unclean election disabled).
    Halted {
        /// Broker.
        broker: BrokerId,
    },
    /// A broker restarted with log recovery.
    Restarted {
        /// Broker.
        broker: BrokerId,
    },
    /// A consumer read records.
    Consumed {
        /// Broker read from.
        broker: BrokerId,
        /// Record ids seen.
        records: Vec<u32>,
    },
}

/// One step of the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The event's index in the scenario.
    pub index: u32,
    /// The event kind.
    pub kind: EventKind,
    /// Applied or rejected.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// One sentence: what happened and why.
    pub narration: String,
    /// Structured facts.
    pub annotations: Vec<Annotation>,
    /// The state after the step.
    pub state: State,
    /// Indices into [`Trace::violations`] of the violations holding after this step.
    pub violations: Vec<u16>,
}

/// A whole run of one scenario under one protocol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trace {
    /// Scenario name.
    pub scenario: String,
    /// Broker names, in assignment order.
    pub brokers: Vec<String>,
    /// Variant run.
    pub variant: Variant,
    /// Flags in force.
    pub flags: Vec<Flag>,
    /// State before the first event.
    pub initial: State,
    /// One per event (shared with the traces of edited versions of the scenario that re-ran from it).
    pub steps: Vec<Arc<Step>>,
    /// Every distinct violation, at the first step it held.
    pub violations: Vec<Violation>,
    /// Every record ever produced, by id.
    pub records: Vec<RecordInfo>,
    /// The release's rules the run followed (model §12; none for a plain variant).
    #[serde(skip)]
    pub rules: crate::variant::Rules,
}

impl Trace {
    /// The state after `step` (`None`: before any event). Out-of-range steps give the final state.
    pub fn state_at(&self, step: Option<usize>) -> &State {
        match step {
            None => &self.initial,
            Some(i) => self.steps.get(i).or(self.steps.last()).map_or(&self.initial, |s| &s.state),
        }
    }

    /// The final state.
    pub fn final_state(&self) -> &State {
        self.state_at(Some(self.steps.len()))
    }

    /// A broker's name.
    pub fn broker_name(&self, b: BrokerId) -> &str {
        self.brokers.get(b as usize).map_or("?", String::as_str)
    }

    /// A record's label.
    pub fn label(&self, id: u32) -> &str {
        self.records.get(id as usize).map_or("?", |r| r.label.as_str())
    }

    /// The record a produce step appended, as the log shows it (`r3` for an unnamed one); `None` for any
    /// other step, or a produce that was refused.
    pub fn produced_label(&self, step: usize) -> Option<&str> {
        self.steps.get(step)?.annotations.iter().find_map(|a| match a {
            Annotation::Produced { record, .. } => Some(self.label(*record)),
            _ => None,
        })
    }

    /// The first step at which a violation that is not by design holds, if any.
    pub fn first_bug_step(&self) -> Option<u32> {
        self.violations.iter().filter(|v| !v.by_design).map(|v| v.step).min()
    }

    /// A stable digest of the whole trace (FNV-1a over its JSON), for determinism checks.
    pub fn digest(&self) -> u64 {
        let json = serde_json::to_string(self).unwrap_or_default();
        json.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    }
}

impl Trace {
    /// `{A, B}`: a set of brokers by name.
    pub(crate) fn names(&self, set: BrokerSet) -> String {
        format!("{{{}}}", set.iter().map(|b| self.broker_name(b)).collect::<Vec<_>>().join(", "))
    }

    /// `m1, m2`: the records' labels.
    pub fn labels(&self, ids: &[u32]) -> String {
        ids.iter().map(|id| self.label(*id)).collect::<Vec<_>>().join(", ")
    }

    /// One short line describing an annotation, for the explanation panel.
    pub fn describe(&self, a: &Annotation) -> String {
        let n = |b: BrokerId| self.broker_name(b);
        let end = EpochEnd::describe;
        let lost = |dropped: bool| if dropped { " (response lost)" } else { "" };
        match a {
            Annotation::Appended { broker, from, records } => {
                format!("{} appends {} at offset {from}", n(*broker), self.labels(records))
            }
            Annotation::Truncated { broker, to, removed, cause } => {
                format!("{} truncates to {to}, removing {}: {}", n(*broker), self.labels(removed), cause.describe())
            }
            Annotation::HwMoved { broker, from, to } => format!("{}'s HW {from} → {to}", n(*broker)),
            Annotation::IsrChanged { from, to, by_leader } => {
                let who = by_leader.map_or("the controller".to_string(), |l| format!("leader {}", n(l)));
                format!("ISR {} → {} by {who}", self.names(*from), self.names(*to))
            }
            Annotation::Elected { leader, epoch, unclean, isr } => match leader {
                Some(l) => format!(
                    "{} elected leader of epoch {epoch}{}, ISR {}",
                    n(*l),
                    if *unclean { " (unclean)" } else { "" },
                    self.names(*isr)
                ),
                None => format!("partition offline in epoch {epoch}"),
            },
            Annotation::LeaderAndIsrApplied { broker, leader, epoch } => format!(
                "{} applies LeaderAndIsr epoch {epoch}, leader {}",
                n(*broker),
                leader.map_or("none", |l| self.broker_name(l))
            ),
            Annotation::OffsetsForLeaderEpoch { follower, leader, epoch, answer, dropped } => format!(
                "OffsetsForLeaderEpoch {} → {}: epoch {epoch}? {}{}",
                n(*follower),
                n(*leader),
                match answer {
                    Ok(e) => end(e),
                    Err(code) => code.to_string(),
                },
                lost(*dropped)
            ),
            Annotation::Fetch { follower, leader, offset, last_fetched_epoch, answer, dropped } => {
                let lfe = if *last_fetched_epoch >= 0 {
                    format!(", LastFetchedEpoch {last_fetched_epoch}")
                } else {
                    String::new()
                };
                let ans = match answer {
                    FetchAnswer::Records { records, hw } if records.is_empty() => format!("no new records, HW {hw}"),
                    FetchAnswer::Records { records, hw } => format!("{}, HW {hw}", self.labels(records)),
                    FetchAnswer::DivergingEpoch { end: e } => format!("DivergingEpoch: {}", end(e)),
                    FetchAnswer::Error { error } => error.name().to_string(),
                };
                format!("Fetch {} → {} at {offset}{lfe}: {ans}{}", n(*follower), n(*leader), lost(*dropped))
            }
            Annotation::Produced { record, result } => {
                format!("produce {}: {}", self.label(*record), result.name().replace('_', " "))
            }
            Annotation::Crashed { broker, power } => {
                format!("{} {}", n(*broker), if *power { "loses power" } else { "crashes" })
            }
            Annotation::Halted { broker } => format!("{} halts on OFFSET_OUT_OF_RANGE", n(*broker)),
            Annotation::Restarted { broker } => format!("{} restarts", n(*broker)),
            Annotation::Consumed { broker, records } => {
                format!("consumer reads [{}] from {}", self.labels(records), n(*broker))
            }
        }
    }
}
