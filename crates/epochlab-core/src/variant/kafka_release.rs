//! Kafka releases, as the model knows them (model §1, §12). A [`KafkaVersion`] is what a scenario names
//! (`3.3`, `4.0.1`); it belongs to a [`KafkaRelease`] line, the releases between two changes the model sees.
//! Each line runs a protocol variant plus the controller, HW and consumer rules it shipped ([`Rules`]), with
//! the KIPs and JIRAs that made the change from the line before; [`crate::release`] bisects across lines.

use serde::Serialize;

use super::{Flag, Protocol, Variant};

/// A Kafka release line: the releases that behave alike in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KafkaRelease {
    /// 0.10.2: truncate to the HW; unclean election on by default.
    V0_10_2,
    /// 0.11.0: KIP-101.
    V0_11_0,
    /// 1.0 and 1.1: as 0.11.0 in the model.
    V1_0,
    /// 2.0.0: KIP-279.
    V2_0,
    /// 2.0.1: KIP-279 with three of 2.1's fixes backported, but not KIP-320's fencing.
    V2_0_1,
    /// 2.1: the 2.1 hardening.
    V2_1,
    /// 2.2: KIP-380's broker epoch.
    V2_2,
    /// 2.3 to 2.7: KIP-320's consumer half.
    V2_3,
    /// 2.8.0: the diverging epoch in Fetch, without KAFKA-13141.
    V2_8_0,
    /// 2.8.1 to 3.6: with KAFKA-13141.
    V2_8_1,
    /// 3.7 to 3.9: min ISR gates the HW.
    V3_7,
    /// 4.0: KRaft only; Eligible Leader Replicas opt-in.
    V4_0,
    /// 4.1 to 4.3: Eligible Leader Replicas on by default.
    V4_1,
}

impl KafkaRelease {
    /// Every line, oldest first.
    pub const ALL: [KafkaRelease; 13] = [
        KafkaRelease::V0_10_2,
        KafkaRelease::V0_11_0,
        KafkaRelease::V1_0,
        KafkaRelease::V2_0,
        KafkaRelease::V2_0_1,
        KafkaRelease::V2_1,
        KafkaRelease::V2_2,
        KafkaRelease::V2_3,
        KafkaRelease::V2_8_0,
        KafkaRelease::V2_8_1,
        KafkaRelease::V3_7,
        KafkaRelease::V4_0,
        KafkaRelease::V4_1,
    ];

    /// Every line's name, for messages.
    pub fn id_list() -> String {
        KafkaRelease::ALL.map(KafkaRelease::label).join(", ")
    }

    /// The line's first release: `0.10.2`, `2.3`, `2.8.1`.
    pub fn id(self) -> &'static str {
        match self {
            KafkaRelease::V0_10_2 => "0.10.2",
            KafkaRelease::V0_11_0 => "0.11.0",
            KafkaRelease::V1_0 => "1.0",
            KafkaRelease::V2_0 => "2.0.0",
            KafkaRelease::V2_0_1 => "2.0.1",
            KafkaRelease::V2_1 => "2.1",
            KafkaRelease::V2_2 => "2.2",
            KafkaRelease::V2_3 => "2.3",
            KafkaRelease::V2_8_0 => "2.8.0",
            KafkaRelease::V2_8_1 => "2.8.1",
            KafkaRelease::V3_7 => "3.7",
            KafkaRelease::V4_0 => "4.0",
            KafkaRelease::V4_1 => "4.1",
        }
    }

    /// The releases it covers: `2.3–2.7`, `4.1`.
    pub fn label(self) -> &'static str {
        match self {
            KafkaRelease::V1_0 => "1.0–1.1",
            KafkaRelease::V2_3 => "2.3–2.7",
            KafkaRelease::V2_8_1 => "2.8.1–3.6",
            KafkaRelease::V3_7 => "3.7–3.9",
            KafkaRelease::V4_1 => "4.1–4.3",
            other => other.id(),
        }
    }

    /// The line's last release: `1.1`, `3.9`, `4.1`.
    pub fn last_id(self) -> &'static str {
        self.label().rsplit('–').next().unwrap_or(self.id())
    }

    /// The line a release belongs to (`3.3`, `0.11`, `4.0.1`, and the old ids `2.8+`, `kraft`), if known.
    pub fn from_id(id: &str) -> Option<KafkaRelease> {
        KafkaVersion::parse(id).ok().map(KafkaVersion::line)
    }

    /// The protocol variant it runs.
    pub fn variant(self) -> Variant {
        match self {
            KafkaRelease::V0_10_2 => Variant::HwTruncation,
            KafkaRelease::V0_11_0 | KafkaRelease::V1_0 => Variant::Kip101,
            KafkaRelease::V2_0 | KafkaRelease::V2_0_1 => Variant::Kip279,
            KafkaRelease::V2_1 | KafkaRelease::V2_2 | KafkaRelease::V2_3 => Variant::Kafka21,
            _ => Variant::DivergingEpoch,
        }
    }

    /// The protocol with the line's own defaults (no knob changed).
    pub fn protocol(self) -> Protocol {
        Protocol::of_release(KafkaVersion::of_line(self), &Default::default())
    }

    /// The hardening flags it ships on top of its variant's: 2.0.1 backported three of 2.1's (model §12.4).
    pub fn own_flags(self) -> Vec<Flag> {
        match self {
            KafkaRelease::V2_0_1 => vec![Flag::Kafka7415, Flag::Kafka7128, Flag::Kafka7164],
            other => other.variant().implied_flags().to_vec(),
        }
    }

    /// What changed in the model from the previous line, and where that is written down.
    pub fn changes(self) -> &'static str {
        match self {
            KafkaRelease::V0_10_2 => "followers truncate to their own HW on becoming follower; unclean leader election is on by default",
            KafkaRelease::V0_11_0 => "KIP-101: leader epochs on v2 batches, the epoch cache and OffsetsForLeaderEpoch; unclean leader election off by default",
            KafkaRelease::V1_0 => "nothing the model sees",
            KafkaRelease::V2_0 => "KIP-279 (KAFKA-6361): the answer names the epoch, and the follower iterates",
            KafkaRelease::V2_0_1 => "KAFKA-7415, KAFKA-7128, KAFKA-7164 and KAFKA-7414 backported from 2.1 (not KIP-320's fencing)",
            KafkaRelease::V2_1 => {
                "KAFKA-7415, KAFKA-7128, KAFKA-7164, KIP-320's fencing (KAFKA-7395) and KAFKA-7414 (no halt on out of range)"
            }
            KafkaRelease::V2_2 => "KIP-380 (KAFKA-7235): a broker epoch lets the controller notice a bounce at re-registration",
            KafkaRelease::V2_3 => "KIP-320's consumer half (KAFKA-7747): consumers detect a truncation past their position",
            KafkaRelease::V2_8_0 => "KAFKA-10554 (KIP-595's scheme): the diverging epoch in Fetch",
            KafkaRelease::V2_8_1 => "KAFKA-13141: a fetch answered with a diverging epoch does not move the leader's view of that follower",
            KafkaRelease::V3_7 => "KAFKA-15583: the leader holds its HW while the ISR is below min.insync.replicas, for every acks",
            KafkaRelease::V4_0 => "KRaft only (no ZooKeeper); KIP-966's Eligible Leader Replicas, and with them the last known leader, can be enabled",
            KafkaRelease::V4_1 => "KIP-966: Eligible Leader Replicas on by default, so a member that left the ISR below min ISR may lead cleanly, and the last known leader is elected when no other is left",
        }
    }

    /// The flags in force.
    pub fn flags(self) -> Vec<Flag> {
        self.protocol().flags()
    }

    /// `unclean.leader.election.enable`'s default (model §12.1, §12.2).
    pub fn unclean_default(self) -> bool {
        self == KafkaRelease::V0_10_2
    }

    /// Whether Eligible Leader Replicas exist (4.0 opt-in) and whether they are on by default (4.1).
    pub fn elr(self) -> (bool, bool) {
        (self >= KafkaRelease::V4_0, self >= KafkaRelease::V4_1)
    }
}

impl Serialize for KafkaRelease {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// Every minor release the model knows, oldest first (0.x releases have three numbers before the patch).
pub const MINORS: [&str; 27] = [
    "0.10.2", "0.11.0", "1.0", "1.1", "2.0", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "3.0", "3.1",
    "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "3.9", "4.0", "4.1", "4.2", "4.3",
];

/// A Kafka release as a scenario names it: a minor release and, optionally, its patch (`4.0.1`). Without a
/// patch it stands for the minor release's last patch (model §12: `2.8` behaves as 2.8.1 and later).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KafkaVersion {
    minor: u8,
    patch: Option<u8>,
}

impl KafkaVersion {
    /// The newest release of a line (what choosing a line in the picker names).
    pub fn of_line(line: KafkaRelease) -> KafkaVersion {
        let id = match line {
            KafkaRelease::V1_0 => "1.1",
            KafkaRelease::V2_3 => "2.7",
            KafkaRelease::V2_8_0 => "2.8.0",
            KafkaRelease::V2_8_1 => "3.6",
            KafkaRelease::V3_7 => "3.9",
            KafkaRelease::V4_1 => "4.3",
            other => other.id(),
        };
        KafkaVersion::parse(id).unwrap_or(KafkaVersion { minor: 0, patch: None })
    }

    /// Every minor release, oldest first, and the first patch where the line splits (2.0.0, 2.8.0): the
    /// picker's options.
    pub fn all() -> impl Iterator<Item = KafkaVersion> {
        (0..MINORS.len() as u8).map(|minor| KafkaVersion { minor, patch: None }).flat_map(|v| {
            let first = matches!(v.minor_id(), "2.0" | "2.8").then_some(KafkaVersion { patch: Some(0), ..v });
            first.into_iter().chain(std::iter::once(v))
        })
    }

    /// Parse `3.3`, `4.0.1`, `0.11`, `0.10.2.1`, or an old id (`2.8+`, `kraft`: the 3.6 line it modelled).
    pub fn parse(id: &str) -> Result<KafkaVersion, String> {
        let id = id.trim_end_matches('+').to_ascii_lowercase();
        let id = if id == "kraft" { "3.6".to_string() } else { id };
        let unknown = || {
            format!(
                "unknown Kafka release \"{id}\" (known: {} to {}, with an optional patch)",
                MINORS[0],
                MINORS[MINORS.len() - 1]
            )
        };
        let parts: Vec<&str> = id.split('.').collect();
        // Read strictly: digits only, no leading zero (`03.7`, ` 3.7` and `3.7 ` are no releases).
        let number = |p: &&str| {
            let digits = !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && (*p == "0" || !p.starts_with('0'));
            digits.then(|| p.parse::<u8>().ok()).flatten()
        };
        let numbers: Option<Vec<u8>> = parts.iter().map(number).collect();
        let numbers = numbers.filter(|n| (2..=4).contains(&n.len())).ok_or_else(unknown)?;
        // 0.x releases: three numbers name the minor release (0.11 alone is 0.11.0); 1.0 and later: two.
        let width = if numbers[0] == 0 { 3 } else { 2 };
        let mut minor_parts = numbers.clone();
        if numbers[0] == 0 && numbers.len() == 2 {
            minor_parts.push(0);
        }
        let (head, patch) = minor_parts.split_at(width.min(minor_parts.len()));
        let name = head.iter().map(u8::to_string).collect::<Vec<_>>().join(".");
        let minor = MINORS.iter().position(|m| *m == name).ok_or_else(unknown)?;
        let patch = match patch {
            [] => None,
            [p] => Some(*p),
            _ => return Err(unknown()),
        };
        Ok(KafkaVersion { minor: minor as u8, patch })
    }

    /// How the release picker names it: where a minor release splits in two lines (2.0.0 and 2.0.1, 2.8.0
    /// and 2.8.1), each option says what tells it from the other.
    pub fn option_label(self) -> String {
        match (self.minor_id(), self.patch) {
            ("2.0", Some(0)) => "Kafka 2.0.0: KIP-279 alone".to_string(),
            ("2.0", None) => "Kafka 2.0 (2.0.1 on): three of 2.1's fixes, not KIP-320".to_string(),
            ("2.8", Some(0)) => "Kafka 2.8.0: without the KAFKA-13141 fix".to_string(),
            ("2.8", None) => "Kafka 2.8 (2.8.1 on): with the KAFKA-13141 fix".to_string(),
            _ => format!("Kafka {}", self.id()),
        }
    }

    /// `3.3`, `4.0.1`, `0.10.2.1`.
    pub fn id(self) -> String {
        match self.patch {
            Some(p) => format!("{}.{p}", self.minor_id()),
            None => self.minor_id().to_string(),
        }
    }

    /// Its minor release's place in [`MINORS`] (what an inter-broker protocol is compared with).
    pub fn minor_index(self) -> u8 {
        self.minor
    }

    fn minor_id(self) -> &'static str {
        MINORS[usize::from(self.minor)]
    }

    /// Whether it is `minor` (`3.6`) or a later minor release.
    pub fn at_least(self, minor: &str) -> bool {
        MINORS.iter().position(|m| *m == minor).is_some_and(|i| usize::from(self.minor) >= i)
    }

    /// Whether it can run KRaft (2.8 and later, model §13).
    pub fn has_kraft(self) -> bool {
        self.at_least("2.8")
    }

    /// The line it belongs to.
    pub fn line(self) -> KafkaRelease {
        let name = self.minor_id();
        let at_least = |m: &str| MINORS.iter().position(|x| *x == m).is_some_and(|i| usize::from(self.minor) >= i);
        match name {
            "0.10.2" => KafkaRelease::V0_10_2,
            "0.11.0" => KafkaRelease::V0_11_0,
            "1.0" | "1.1" => KafkaRelease::V1_0,
            "2.0" if self.patch == Some(0) => KafkaRelease::V2_0,
            "2.0" => KafkaRelease::V2_0_1,
            "2.1" => KafkaRelease::V2_1,
            "2.2" => KafkaRelease::V2_2,
            "2.8" if self.patch == Some(0) => KafkaRelease::V2_8_0,
            "4.0" => KafkaRelease::V4_0,
            _ if at_least("4.1") => KafkaRelease::V4_1,
            _ if at_least("3.7") => KafkaRelease::V3_7,
            _ if at_least("2.8") => KafkaRelease::V2_8_1,
            _ => KafkaRelease::V2_3,
        }
    }

    /// The protocol variant its line runs.
    pub fn variant(self) -> Variant {
        self.line().variant()
    }

    /// What its line changed.
    pub fn changes(self) -> &'static str {
        self.line().changes()
    }
}

impl Serialize for KafkaVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_minor_release_maps_to_its_line_and_old_ids_still_read() {
        let line = |id: &str| KafkaVersion::parse(id).map(KafkaVersion::line);
        assert_eq!(line("0.10.2.1"), Ok(KafkaRelease::V0_10_2));
        assert_eq!(line("0.11"), Ok(KafkaRelease::V0_11_0));
        assert_eq!(line("1.1"), Ok(KafkaRelease::V1_0));
        assert_eq!(line("2.4"), Ok(KafkaRelease::V2_3));
        assert_eq!(line("2.0.0"), Ok(KafkaRelease::V2_0));
        assert_eq!(line("2.0"), Ok(KafkaRelease::V2_0_1), "2.0 is the line's last patch, 2.0.1");
        assert_eq!(line("2.8.0"), Ok(KafkaRelease::V2_8_0));
        assert_eq!(line("2.8"), Ok(KafkaRelease::V2_8_1), "2.8 is the line's last patch");
        assert_eq!(line("2.8+"), Ok(KafkaRelease::V2_8_1));
        assert_eq!(line("3.3"), Ok(KafkaRelease::V2_8_1));
        assert_eq!(line("kraft"), Ok(KafkaRelease::V2_8_1));
        assert_eq!(line("3.9"), Ok(KafkaRelease::V3_7));
        assert_eq!(line("4.0.1"), Ok(KafkaRelease::V4_0));
        assert_eq!(line("4.1"), Ok(KafkaRelease::V4_1));
        assert_eq!(line("4.2"), Ok(KafkaRelease::V4_1), "4.2 changed no rule the model has");
        assert_eq!(line("4.3.1"), Ok(KafkaRelease::V4_1), "nor did 4.3 (KIP-1023 is opt-in tiered storage)");
        let strict = ["3.7 ", " 3.7", "03.7", "3.07", "3..7", "3.7.", "+3.7", "3.7.-1", "3.7.1e0"];
        for bad in ["5.0", "banana", "0.10.1", "3.10", "4", "", "2.8.1.1.1", "1.1.1.1", "4.4"].into_iter().chain(strict)
        {
            let e = KafkaVersion::parse(bad).unwrap_err();
            assert!(e.contains("0.10.2 to 4.3"), "{bad}: {e}");
        }
        assert_eq!(KafkaVersion::parse("4.0.1").map(KafkaVersion::id), Ok("4.0.1".to_string()));
        // The picker tells apart the two options of a minor release that splits.
        let label = |id: &str| KafkaVersion::parse(id).map(KafkaVersion::option_label).unwrap();
        assert_eq!(label("3.7"), "Kafka 3.7");
        assert!(label("2.0.0").contains("KIP-279 alone") && label("2.0").contains("2.0.1 on"));
        assert!(label("2.8.0").contains("without") && label("2.8").contains("2.8.1 on"));
        assert_eq!(KafkaVersion::parse("0.11").map(KafkaVersion::id), Ok("0.11.0".to_string()));
    }

    #[test]
    fn every_line_has_releases_and_the_newest_of_a_line_is_in_it() {
        for line in KafkaRelease::ALL {
            assert_eq!(KafkaVersion::of_line(line).line(), line, "{}", line.id());
            assert_eq!(KafkaRelease::from_id(line.id()), Some(line), "{}", line.id());
        }
        assert_eq!(KafkaVersion::all().count(), MINORS.len() + 2, "every minor release, and 2.0.0 and 2.8.0 besides");
    }
}
