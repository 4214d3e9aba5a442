//! The misconceptions a learner's wrong answers reveal (the seed's list, and the slips on the way to it),
//! each with a one-line correction and the shipped scenario that disproves it.

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
}

impl Misconception {
    /// Every misconception, in the quiz's order.
    pub const ALL: [Misconception; 10] = [
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
        }
    }

    /// The misconception with this id.
    pub fn from_id(id: &str) -> Option<Misconception> {
        Misconception::ALL.into_iter().find(|m| m.id() == id)
    }

    /// The belief, as a learner might say it.
    pub fn belief(self) -> &'static str {
        match self {
            Misconception::OnlyPerformance => "It was only a performance problem.",
            Misconception::HwTruncationIsSafe => "Truncating a follower to its high watermark is always safe.",
            Misconception::FollowerHwIsCurrent => "A follower's high watermark is as fresh as the leader's.",
            Misconception::HwMarksLineage => "Below the high watermark, every replica holds the same records.",
            Misconception::MinIsrPrevents => "min.insync.replicas alone prevents the divergence.",
            Misconception::ConsumerOffsetReset => "This is about where a consumer resets its offset.",
            Misconception::NeedsUncleanElection => "Losing committed data needs an unclean election.",
            Misconception::LeaderHwFixes => "Truncating to the leader's high watermark instead fixes it.",
            Misconception::RestartKeepsTheLog => "Under the old rule, a restarted follower keeps its whole log.",
            Misconception::Kip101IsComplete => "Leader epochs, as KIP-101 shipped them, close every divergence.",
        }
    }

    /// The one-line correction.
    pub fn correction(self) -> &'static str {
        match self {
            Misconception::OnlyPerformance => "It lost committed, acknowledged records and left two replicas with different records at one offset.",
            Misconception::HwTruncationIsSafe => "Cutting to the HW checks nothing against the leader: a stale HW cuts committed records, and a HW that covers a conflicting record keeps it.",
            Misconception::FollowerHwIsCurrent => "A follower learns the HW only from the next fetch response; a lost or late response leaves it behind.",
            Misconception::HwMarksLineage => "The HW is a commit boundary, not a lineage marker: it says how much is committed, not who wrote each offset.",
            Misconception::MinIsrPrevents => "It refuses writes while the ISR is small, trading availability; with acks=1 the same story diverges again.",
            Misconception::ConsumerOffsetReset => "It is about a broker truncating its own log on becoming follower, not about where consumers start reading.",
            Misconception::NeedsUncleanElection => "KIP-101's first scenario loses a committed record with clean elections only.",
            Misconception::LeaderHwFixes => "The leader's HW is a commit boundary too: it cannot tell a record the follower shares with the leader from one that conflicts.",
            Misconception::RestartKeepsTheLog => "On becoming follower the old rule cuts everything above the broker's own HW, which a restart recovers from a stale checkpoint.",
            Misconception::Kip101IsComplete => "KIP-101's answer is an offset without its epoch; after fast back-to-back leader changes it can name the follower's own log end (KAFKA-6361), which KIP-279 fixed.",
        }
    }

    /// The shipped preset whose run disproves it.
    pub fn counter_scenario(self) -> &'static str {
        match self {
            Misconception::HwMarksLineage | Misconception::ConsumerOffsetReset | Misconception::MinIsrPrevents => {
                "kip101-scenario-2"
            }
            Misconception::LeaderHwFixes => "leader-hw-no-fix",
            Misconception::Kip101IsComplete => "kafka-6361-fast-failover",
            _ => "kip101-scenario-1",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Misconception;
    use crate::presets;

    #[test]
    fn every_misconception_has_an_id_a_correction_and_a_shipped_counter_scenario() {
        for m in Misconception::ALL {
            assert_eq!(Misconception::from_id(m.id()), Some(m));
            assert!(!m.belief().is_empty() && !m.correction().is_empty());
            assert!(presets::find(m.counter_scenario()).is_some(), "{}", m.id());
        }
    }
}
