//! Why an event is refused, or a request answered with an error: Kafka's error codes, and the few the model
//! adds where Kafka has no request to refuse (a broker that is already up, a zombie). One name per code, so a verdict that looks for a refusal
//! (`verdict::held_by_refusal`) cannot miss it through a misspelt string.

use std::fmt;

use serde::Serialize;

/// A refusal's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum KafkaError {
    /// Kafka: the broker is down, or the controller sees it as dead.
    BrokerNotAvailable,
    /// Kafka: no leader for the partition.
    LeaderNotAvailable,
    /// Kafka: the broker addressed neither leads nor follows as asked.
    NotLeaderOrFollower,
    /// Kafka: an acks=all write while the ISR is below min.insync.replicas.
    NotEnoughReplicas,
    /// Kafka: an acks=all write appended, but the ISR fell below min.insync.replicas before it committed.
    NotEnoughReplicasAfterAppend,
    /// Kafka: a fetch past the leader's log end.
    OffsetOutOfRange,
    /// Kafka: no live ISR member (nor, in 4.x, Eligible Leader Replica) to elect.
    EligibleLeadersNotAvailable,
    /// Kafka: a request that makes no sense (a leader dropping itself from its ISR).
    InvalidRequest,
    /// Kafka (KIP-320): the sender's current leader epoch is older than the leader's.
    FencedLeaderEpoch,
    /// Kafka (KIP-320): the sender's current leader epoch is newer than the leader's.
    UnknownLeaderEpoch,
    /// The model's: the broker is a zombie and ignores the controller.
    Zombie,
    /// The model's: the broker is a zombie already.
    AlreadyZombie,
    /// The model's: no LeaderAndIsr is waiting for the broker.
    NoPendingRequest,
    /// The model's: restart of a broker that is running.
    BrokerAlreadyUp,
    /// The model's: a fetch by a broker that believes it leads.
    NotFollower,
    /// The model's: shrinking the ISR of a broker not in it.
    NotInIsr,
    /// The model's: shrinking the ISR of a follower that has caught up.
    ReplicaCaughtUp,
    /// The model's: a broker name the scenario does not have.
    UnknownBroker,
}

impl KafkaError {
    /// The code as Kafka (or, for the model's own, Kafka's style) writes it: `NOT_ENOUGH_REPLICAS`.
    pub fn name(self) -> &'static str {
        NAMES[self as usize]
    }
}

/// The names, in the order of the variants (a table costs the page's download less than a match).
const NAMES: [&str; 18] = [
    "BROKER_NOT_AVAILABLE",
    "LEADER_NOT_AVAILABLE",
    "NOT_LEADER_OR_FOLLOWER",
    "NOT_ENOUGH_REPLICAS",
    "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
    "OFFSET_OUT_OF_RANGE",
    "ELIGIBLE_LEADERS_NOT_AVAILABLE",
    "INVALID_REQUEST",
    "FENCED_LEADER_EPOCH",
    "UNKNOWN_LEADER_EPOCH",
    "ZOMBIE",
    "ALREADY_ZOMBIE",
    "NO_PENDING_REQUEST",
    "BROKER_ALREADY_UP",
    "NOT_FOLLOWER",
    "NOT_IN_ISR",
    "REPLICA_CAUGHT_UP",
    "UNKNOWN_BROKER",
];

impl fmt::Display for KafkaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl Serialize for KafkaError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::KafkaError;

    const ALL: [KafkaError; 18] = [
        KafkaError::BrokerNotAvailable,
        KafkaError::LeaderNotAvailable,
        KafkaError::NotLeaderOrFollower,
        KafkaError::NotEnoughReplicas,
        KafkaError::NotEnoughReplicasAfterAppend,
        KafkaError::OffsetOutOfRange,
        KafkaError::EligibleLeadersNotAvailable,
        KafkaError::InvalidRequest,
        KafkaError::FencedLeaderEpoch,
        KafkaError::UnknownLeaderEpoch,
        KafkaError::Zombie,
        KafkaError::AlreadyZombie,
        KafkaError::NoPendingRequest,
        KafkaError::BrokerAlreadyUp,
        KafkaError::NotFollower,
        KafkaError::NotInIsr,
        KafkaError::ReplicaCaughtUp,
        KafkaError::UnknownBroker,
    ];

    /// The table follows the variants: each name is its own variant's, in Kafka's SCREAMING_SNAKE_CASE.
    #[test]
    fn each_name_is_its_variants() {
        assert_eq!(ALL.len(), super::NAMES.len());
        for e in ALL {
            let snake: String = format!("{e:?}")
                .chars()
                .enumerate()
                .flat_map(|(k, c)| {
                    let sep = (k > 0 && c.is_ascii_uppercase()).then_some('_');
                    sep.into_iter().chain(std::iter::once(c.to_ascii_uppercase()))
                })
                .collect();
            assert_eq!(e.name(), snake);
        }
    }
}
