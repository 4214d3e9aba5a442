//! The invariants' identities (model §4): the contract's ids as a type, with each one's name, source and
//! whether a loss of its kind can be one Kafka allows.

use std::fmt;

use serde::Serialize;

/// An invariant the checker knows, by the contract's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InvariantId {
    /// Committed-data loss.
    I1,
    /// Acknowledged-write loss.
    I2,
    /// Divergence after truncation.
    I3,
    /// ISR inconsistent below the HW.
    I4,
    /// Consumer-visible record lost or rewritten.
    I5,
    /// Log offsets strictly increasing (batch mode only: never checked, since the model has no batches).
    I6,
    /// Record epochs decreasing along a log.
    I7,
    /// HW went backwards.
    O1,
    /// Leader not in the ISR.
    L1,
}

impl InvariantId {
    /// Every id, in the contract's order.
    pub const ALL: [InvariantId; 9] = [
        InvariantId::I1,
        InvariantId::I2,
        InvariantId::I3,
        InvariantId::I4,
        InvariantId::I5,
        InvariantId::I6,
        InvariantId::I7,
        InvariantId::O1,
        InvariantId::L1,
    ];

    /// The ids the checker evaluates after every step (I6 needs batches, which the model does not have).
    pub const CHECKED: [InvariantId; 8] = [
        InvariantId::I1,
        InvariantId::I2,
        InvariantId::I3,
        InvariantId::I4,
        InvariantId::I5,
        InvariantId::I7,
        InvariantId::O1,
        InvariantId::L1,
    ];

    /// The checked ids by how much a learner should care: losses first, then divergence, then diagnostics.
    pub const BY_IMPORTANCE: [InvariantId; 8] = [
        InvariantId::I1,
        InvariantId::I2,
        InvariantId::I5,
        InvariantId::I3,
        InvariantId::I4,
        InvariantId::I7,
        InvariantId::L1,
        InvariantId::O1,
    ];

    /// Its position in [`InvariantId::ALL`] (the declaration order, which is also the sort order).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The contract's id, e.g. `"I1"`.
    pub fn id(self) -> &'static str {
        match self {
            InvariantId::I1 => "I1",
            InvariantId::I2 => "I2",
            InvariantId::I3 => "I3",
            InvariantId::I4 => "I4",
            InvariantId::I5 => "I5",
            InvariantId::I6 => "I6",
            InvariantId::I7 => "I7",
            InvariantId::O1 => "O1",
            InvariantId::L1 => "L1",
        }
    }

    /// The id spelled `id` (case-insensitive), if any.
    pub fn from_id(id: &str) -> Option<InvariantId> {
        InvariantId::ALL.into_iter().find(|i| i.id().eq_ignore_ascii_case(id))
    }

    /// Its name in words.
    pub fn name(self) -> &'static str {
        match self {
            InvariantId::I1 => "committed-data loss",
            InvariantId::I2 => "acknowledged-write loss",
            InvariantId::I3 => "divergence after truncation",
            InvariantId::I4 => "ISR inconsistent below the HW",
            InvariantId::I5 => "consumer-visible record lost or rewritten",
            InvariantId::I6 => "log offsets not strictly increasing",
            InvariantId::I7 => "record epochs decreasing along a log",
            InvariantId::O1 => "HW went backwards",
            InvariantId::L1 => "leader not in the ISR",
        }
    }

    /// Where the property comes from.
    pub fn source(self) -> &'static str {
        match self {
            InvariantId::I1 => "KIP-101 scenario 1; TLA+ StrongIsr",
            InvariantId::I2 => "acks=all's guarantee; KIP-101 scenario 1",
            InvariantId::I3 => "KIP-101 scenario 2; KAFKA-6361; logsShouldNotDivergeOnUncleanLeaderElections",
            InvariantId::I4 => "TLA+ WeakIsr and StrongIsr (hachikuji/kafka-specification); KAFKA-6880",
            InvariantId::I5 => "the KIP-101 walkthrough; KIP-320",
            InvariantId::I6 => "offsetsShouldNotGoBackwards (batch mode)",
            InvariantId::I7 => "KIP-101's leader epoch, monotonically increasing",
            InvariantId::O1 => "KAFKA-2334; TLA+ BecomeLeader",
            InvariantId::L1 => "TLA+ LeaderInIsr",
        }
    }

    /// The one of `ids` a learner should care about most ([`Self::BY_IMPORTANCE`]).
    pub fn gravest(ids: &[InvariantId]) -> Option<InvariantId> {
        InvariantId::BY_IMPORTANCE.into_iter().find(|id| ids.contains(id))
    }

    /// `I1, I3` for messages: the ids joined by `separator`.
    pub fn join(ids: &[InvariantId], separator: &str) -> String {
        ids.iter().map(|i| i.id()).collect::<Vec<_>>().join(separator)
    }

    /// Whether a violation of it can be one Kafka never promised to prevent (unclean election, power loss of
    /// every ISR member, acks=1; O1 always).
    pub fn can_be_by_design(self) -> bool {
        matches!(self, InvariantId::I1 | InvariantId::I2 | InvariantId::I5 | InvariantId::O1)
    }
}

impl fmt::Display for InvariantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.id())
    }
}

impl Serialize for InvariantId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::InvariantId;

    #[test]
    fn every_id_round_trips() {
        for id in InvariantId::ALL {
            assert_eq!(InvariantId::from_id(id.id()), Some(id));
            assert!(!id.name().is_empty() && !id.source().is_empty());
        }
        assert_eq!(InvariantId::from_id("i3"), Some(InvariantId::I3));
        assert_eq!(InvariantId::from_id("I8"), None);
        // `can_be_by_design` is checked against what the invariants decide, in tests/presets.rs.
    }

    #[test]
    fn all_is_in_index_and_sort_order() {
        for (i, id) in InvariantId::ALL.into_iter().enumerate() {
            assert_eq!(id.index(), i);
        }
        assert!(InvariantId::ALL.windows(2).all(|w| w[0] < w[1]));
    }
}
