//! The misconceptions a learner's wrong answers reveal (the seed's list, and the slips on the way to it),
//! each with the shipped scenario that disproves it. Their words (the belief and its one-line correction) are
//! data, in `lessons/index.json`, fetched with the lessons rather than shipped in the page's first download.

/// A named wrong belief.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Misconception {
    /// "It was only a performance issue."
    OnlyPerformance,
    /// "Truncating to the HW is always safe."
    HwTruncationIsSafe,
    /// "A follower's HW is as fresh as the leader's."
    FollowerHwIsCurrent,
    /// "Records below the HW are the same on every replica."
    HwMarksLineage,
    /// "min.insync.replicas alone prevents the divergence."
    MinIsrPrevents,
    /// "This is about consumer offset reset."
    ConsumerOffsetReset,
    /// "It needs an unclean election."
    NeedsUncleanElection,
    /// "Truncating to the leader's HW fixes it."
    LeaderHwFixes,
    /// "A restarted broker keeps what its log held."
    RestartKeepsTheLog,
    /// "Leader epochs as KIP-101 shipped them close every divergence."
    Kip101IsComplete,
    /// "The last in-sync replica is always safe to elect again."
    LastReplicaIsSafe,
    /// "An unclean election leaves the replicas' logs diverged."
    UncleanMeansDivergence,
    /// "A record is committed once a follower receives it."
    ReceiptCommits,
    /// "Consumers have always checked their position against the leader's log."
    ConsumersAlwaysValidated,
    /// "A consumer learns of a truncation only from OFFSET_OUT_OF_RANGE."
    ConsumersNeverValidate,
}

impl Misconception {
    /// Every misconception, in the quiz's order.
    pub const ALL: [Misconception; 15] = [
        Misconception::OnlyPerformance,
        Misconception::HwTruncationIsSafe,
        Misconception::FollowerHwIsCurrent,
        Misconception::HwMarksLineage,
        Misconception::MinIsrPrevents,
        Misconception::ConsumerOffsetReset,
        Misconception::NeedsUncleanElection,
        Misconception::LeaderHwFixes,
        Misconception::RestartKeepsTheLog,
        Misconception::Kip101IsComplete,
        Misconception::LastReplicaIsSafe,
        Misconception::UncleanMeansDivergence,
        Misconception::ReceiptCommits,
        Misconception::ConsumersAlwaysValidated,
        Misconception::ConsumersNeverValidate,
    ];

    /// Its id in lesson files.
    pub fn id(self) -> &'static str {
        match self {
            Misconception::OnlyPerformance => "only-performance",
            Misconception::HwTruncationIsSafe => "hw-truncation-is-safe",
            Misconception::FollowerHwIsCurrent => "follower-hw-is-current",
            Misconception::HwMarksLineage => "hw-marks-lineage",
            Misconception::MinIsrPrevents => "min-isr-prevents",
            Misconception::ConsumerOffsetReset => "consumer-offset-reset",
            Misconception::NeedsUncleanElection => "needs-unclean-election",
            Misconception::LeaderHwFixes => "leader-hw-fixes",
            Misconception::RestartKeepsTheLog => "restart-keeps-the-log",
            Misconception::Kip101IsComplete => "kip-101-is-complete",
            Misconception::LastReplicaIsSafe => "last-replica-is-safe",
            Misconception::UncleanMeansDivergence => "unclean-means-divergence",
            Misconception::ReceiptCommits => "receipt-commits",
            Misconception::ConsumersAlwaysValidated => "consumers-always-validated",
            Misconception::ConsumersNeverValidate => "consumers-never-validate",
        }
    }

    /// The misconception with this id.
    pub fn from_id(id: &str) -> Option<Misconception> {
        Misconception::ALL.into_iter().find(|m| m.id() == id)
    }

    /// The shipped preset whose run disproves it.
    pub fn counter_scenario(self) -> &'static str {
        match self {
            Misconception::HwMarksLineage => "kip101-scenario-2",
            Misconception::MinIsrPrevents => "acks-all-min-isr",
            Misconception::ConsumerOffsetReset | Misconception::NeedsUncleanElection => "three-brokers-clean-elections",
            Misconception::LeaderHwFixes => "leader-hw-no-fix",
            Misconception::Kip101IsComplete => "kafka-6361-fast-failover",
            Misconception::LastReplicaIsSafe => "last-replica-standing",
            Misconception::UncleanMeansDivergence => "unclean-elections-diverge",
            Misconception::ReceiptCommits => "happy-path",
            // The landing story under the old rule: its consumer read m2, which is gone (a phantom read).
            Misconception::ConsumersAlwaysValidated => "kip101-scenario-1",
            Misconception::ConsumersNeverValidate => "last-replica-standing",
            _ => "kip101-scenario-1",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Misconception;
    use crate::presets;

    #[test]
    fn every_misconception_has_an_id_and_a_shipped_counter_scenario() {
        for m in Misconception::ALL {
            assert_eq!(Misconception::from_id(m.id()), Some(m));
            assert!(presets::find(m.counter_scenario()).is_some(), "{}", m.id());
        }
    }
}
