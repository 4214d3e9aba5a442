//! Kafka releases, as the model knows them (model §1): each maps to the protocol variant and hardening
//! flags it shipped, with the KIPs and JIRAs that made the change from the release before. A scenario may
//! name one (`config.kafka_version`); [`crate::release`] bisects a scenario across them.

use serde::Serialize;

use super::{Flag, Protocol, Variant};

/// A Kafka release line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum KafkaRelease {
    /// 0.10.2 and before.
    V0_10_2,
    /// 0.11.0.
    V0_11_0,
    /// 1.0.
    V1_0,
    /// 1.1.
    V1_1,
    /// 2.0.
    V2_0,
    /// 2.1.
    V2_1,
    /// 2.4 (2.2 to 2.7 behave alike here).
    V2_4,
    /// 2.8 and later, ZooKeeper mode.
    V2_8,
    /// KRaft.
    Kraft,
}

impl KafkaRelease {
    /// Every release, oldest first.
    pub const ALL: [KafkaRelease; 9] = [
        KafkaRelease::V0_10_2,
        KafkaRelease::V0_11_0,
        KafkaRelease::V1_0,
        KafkaRelease::V1_1,
        KafkaRelease::V2_0,
        KafkaRelease::V2_1,
        KafkaRelease::V2_4,
        KafkaRelease::V2_8,
        KafkaRelease::Kraft,
    ];

    /// Its position in [`KafkaRelease::ALL`] (the share link's index).
    pub fn index(self) -> usize {
        KafkaRelease::ALL.iter().position(|r| *r == self).unwrap_or(0)
    }

    /// Every release's name, for messages.
    pub fn id_list() -> String {
        KafkaRelease::ALL.map(KafkaRelease::id).join(", ")
    }

    /// The release's name: `0.10.2`, `2.8`, `kraft`.
    pub fn id(self) -> &'static str {
        match self {
            KafkaRelease::V0_10_2 => "0.10.2",
            KafkaRelease::V0_11_0 => "0.11.0",
            KafkaRelease::V1_0 => "1.0",
            KafkaRelease::V1_1 => "1.1",
            KafkaRelease::V2_0 => "2.0",
            KafkaRelease::V2_1 => "2.1",
            KafkaRelease::V2_4 => "2.4",
            KafkaRelease::V2_8 => "2.8",
            KafkaRelease::Kraft => "kraft",
        }
    }

    /// The release named `id` (`0.11` and `0.11.0` alike; `2.8+`, `3.x` and later lines map to 2.8).
    pub fn from_id(id: &str) -> Option<KafkaRelease> {
        let id = id.trim_end_matches('+').to_ascii_lowercase();
        // `0.11` is `0.11.0`; strip_suffix, not trim_end_matches, keeps a string searcher out of the wasm.
        let cut = |s: &str| s.strip_suffix(".0").unwrap_or(s).to_string();
        let short = |r: &KafkaRelease| cut(r.id()) == cut(&id);
        KafkaRelease::ALL.into_iter().find(|r| r.id() == id || short(r)).or_else(|| {
            let major: u32 = id.split('.').next()?.parse().ok()?;
            (major >= 3).then_some(KafkaRelease::V2_8)
        })
    }

    /// The protocol variant it runs.
    pub fn variant(self) -> Variant {
        match self {
            KafkaRelease::V0_10_2 => Variant::HwTruncation,
            KafkaRelease::V0_11_0 | KafkaRelease::V1_0 | KafkaRelease::V1_1 => Variant::Kip101,
            KafkaRelease::V2_0 => Variant::Kip279,
            KafkaRelease::V2_1 | KafkaRelease::V2_4 => Variant::Kafka21,
            KafkaRelease::V2_8 | KafkaRelease::Kraft => Variant::DivergingEpoch,
        }
    }

    /// The protocol: the variant with the flags it implies (a release has no optional flags).
    pub fn protocol(self) -> Protocol {
        Protocol::new(self.variant(), &[])
    }

    /// What changed in the model from the previous release, and where that is written down.
    pub fn changes(self) -> &'static str {
        match self {
            KafkaRelease::V0_10_2 => "followers truncate to their own HW on becoming follower",
            KafkaRelease::V0_11_0 => "KIP-101: leader epochs and OffsetsForLeaderEpoch",
            KafkaRelease::V1_0 | KafkaRelease::V1_1 => "nothing the model sees",
            KafkaRelease::V2_0 => "KIP-279 (KAFKA-6361): the answer names the epoch, and the follower iterates",
            KafkaRelease::V2_1 => {
                "KAFKA-7415, KAFKA-7128, KAFKA-7164, KIP-320 and KAFKA-7414 (no halt on out of range)"
            }
            KafkaRelease::V2_4 => "nothing the model sees (KAFKA-2334 hides a HW going back from ListOffsets)",
            KafkaRelease::V2_8 => "KAFKA-10554 (KIP-595's scheme): the diverging epoch in Fetch",
            KafkaRelease::Kraft => "nothing the model sees (KAFKA-15021, no epoch bump on ISR shrink, is not modelled)",
        }
    }

    /// The flags in force.
    pub fn flags(self) -> Vec<Flag> {
        self.protocol().flags()
    }
}

impl Serialize for KafkaRelease {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}
