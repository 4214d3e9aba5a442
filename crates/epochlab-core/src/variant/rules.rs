//! What a Kafka release does beyond its truncation rule (model §12): the controller's, the HW's and the
//! consumers' rules, the defaults it ships, and the inter-broker protocol and message format knobs that can
//! hold a broker to an older generation. A plain variant (no release named) has none of the release rules.

use super::kafka_release::{KafkaRelease, KafkaVersion, MINORS};
use super::{Flag, Variant};

/// An inter-broker protocol or message format version: a minor release and, optionally, its internal
/// version (`2.7-IV1`). Without an `-IV` it stands for the minor release's last one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProtocolVersion {
    minor: u8,
    iv: u8,
}

/// No `-IV` suffix: the minor release's last internal version.
const LAST_IV: u8 = u8::MAX;

impl ProtocolVersion {
    /// Parse `0.10.2`, `0.11.0-IV2`, `2.7-IV1`, `3.0`.
    pub fn parse(text: &str) -> Result<ProtocolVersion, String> {
        let text = text.trim();
        let (release, iv) = match text.split_once(['-']) {
            Some((r, iv)) => {
                let n = iv.strip_prefix("IV").or_else(|| iv.strip_prefix("iv")).and_then(|n| n.parse::<u8>().ok());
                (r, n.filter(|n| *n < LAST_IV).ok_or_else(|| bad(text))?)
            }
            None => (text, LAST_IV),
        };
        // `0.11` is `0.11.0`, as in Kafka's own version strings.
        let name = match release.matches('.').count() {
            1 if release.starts_with("0.") => format!("{release}.0"),
            _ => release.to_string(),
        };
        let minor = MINORS.iter().position(|m| *m == name).ok_or_else(|| bad(text))?;
        Ok(ProtocolVersion { minor: minor as u8, iv })
    }

    /// `2.7-IV1`, `0.10.2`.
    pub fn id(self) -> String {
        let release = MINORS[usize::from(self.minor)];
        if self.iv == LAST_IV {
            release.to_string()
        } else {
            format!("{release}-IV{}", self.iv)
        }
    }

    /// Its minor release's place in [`MINORS`].
    pub fn minor_index(self) -> u8 {
        self.minor
    }

    fn at_least(self, release: &str, iv: u8) -> bool {
        let minor = MINORS.iter().position(|m| *m == release).unwrap_or(0) as u8;
        (self.minor, self.iv) >= (minor, iv)
    }
}

impl serde::Serialize for ProtocolVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.id())
    }
}

fn bad(text: &str) -> String {
    format!("\"{text}\" is not a Kafka version such as 0.10.2, 0.11.0-IV2 or 2.7-IV1")
}

/// The release knobs a scenario may set; `None` takes the release's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Knobs {
    /// `unclean.leader.election.enable`.
    pub unclean_leader_election: Option<bool>,
    /// KIP-966's Eligible Leader Replicas (4.0 opt-in, 4.1 default).
    pub eligible_leader_replicas: Option<bool>,
    /// `inter.broker.protocol.version`.
    pub inter_broker_protocol: Option<ProtocolVersion>,
    /// `log.message.format.version`.
    pub log_message_format: Option<ProtocolVersion>,
}

/// Why a broker runs an older generation than its release's (model §12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Downgrade {
    /// The inter-broker protocol is below the generation's threshold.
    InterBrokerProtocol(ProtocolVersion),
    /// The message format is below v2 (0.11): no batch carries an epoch, so the cache stays empty.
    MessageFormat(ProtocolVersion),
}

/// The release's rules in force, with the effective settings (model §12).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The release line, when a release is named.
    pub line: Option<KafkaRelease>,
    /// `unclean.leader.election.enable` in force (the configured value, or the release's default).
    pub unclean_leader_election: bool,
    /// Whether the unclean setting is the release's default (the narration says when it decided something).
    pub unclean_by_default: bool,
    /// KAFKA-15583 (3.7): no HW advance while the ISR is below min ISR.
    pub min_isr_gates_hw: bool,
    /// KIP-966: Eligible Leader Replicas.
    pub elr: bool,
    /// KIP-380 (2.2): the controller notices a bounce when the broker registers again.
    pub notices_bounce: bool,
    /// KIP-320's consumer half (2.3): consumers validate their position after a leader change.
    pub consumers_validate: bool,
    /// KAFKA-13141 (2.8.1): a diverging fetch does not update the leader's view of the follower.
    pub kafka_13141: bool,
    /// KAFKA-7414 (2.1): OFFSET_OUT_OF_RANGE never stops a follower.
    pub no_halt_on_out_of_range: bool,
    /// Why the generation is older than the release's, if it is.
    pub downgrade: Option<Downgrade>,
}

impl Rules {
    /// A plain variant: the truncation rule alone, with the settings as configured (unclean off by default).
    pub fn plain(variant: Variant, knobs: &Knobs) -> Rules {
        Rules {
            unclean_leader_election: knobs.unclean_leader_election.unwrap_or(false),
            kafka_13141: true,
            no_halt_on_out_of_range: matches!(variant, Variant::Kafka21 | Variant::DivergingEpoch),
            ..Rules::default()
        }
    }

    /// A release line's rules with the knobs applied.
    pub fn of_line(line: KafkaRelease, knobs: &Knobs) -> Rules {
        let (elr_exists, elr_default) = line.elr();
        Rules {
            line: Some(line),
            unclean_leader_election: knobs.unclean_leader_election.unwrap_or(line.unclean_default()),
            unclean_by_default: knobs.unclean_leader_election.is_none(),
            min_isr_gates_hw: line >= KafkaRelease::V3_7,
            elr: elr_exists && knobs.eligible_leader_replicas.unwrap_or(elr_default),
            notices_bounce: line >= KafkaRelease::V2_2,
            consumers_validate: line >= KafkaRelease::V2_3,
            kafka_13141: line >= KafkaRelease::V2_8_1,
            no_halt_on_out_of_range: line >= KafkaRelease::V2_0_1,
            downgrade: None,
        }
    }
}

/// The generation and flags a release runs once its knobs are applied: the release's own, or an older one
/// when the inter-broker protocol or the message format holds it back (model §12, `ApiVersion.scala@2.8.0`).
/// The format counts only below inter-broker protocol 3.0-IV1 (`LogConfig.scala@3.0.0`).
pub fn generation(version: KafkaVersion, knobs: &Knobs) -> (Variant, Vec<Flag>, Option<Downgrade>) {
    let line = version.line();
    let own = line.variant();
    let mut flags: Vec<Flag> = line.own_flags();
    let three = MINORS.iter().position(|m| *m == "3.0").unwrap_or(0) as u8;
    let ibp_below_3 = knobs.inter_broker_protocol.map_or(version.minor_index() < three, |v| !v.at_least("3.0", 1));
    let old_format = knobs.log_message_format.filter(|f| !f.at_least("0.11.0", 0) && ibp_below_3);
    if let Some(format) = old_format {
        return (Variant::HwTruncation, Vec::new(), Some(Downgrade::MessageFormat(format)));
    }
    let Some(ibp) = knobs.inter_broker_protocol else { return (own, flags, None) };
    let held = Some(Downgrade::InterBrokerProtocol(ibp));
    if !ibp.at_least("0.11.0", 2) && own.uses_epochs() {
        return (Variant::HwTruncation, Vec::new(), held);
    }
    let mut variant = own;
    let mut downgrade = None;
    if own == Variant::DivergingEpoch && !ibp.at_least("2.7", 1) {
        (variant, downgrade) = (Variant::Kafka21, held);
    }
    // The follower's Fetch carries its epoch only from Fetch v10, sent from 2.1-IV2 (model §12, the knobs table).
    if flags.contains(&Flag::Kip320) && !ibp.at_least("2.1", 2) {
        flags.retain(|f| *f != Flag::Kip320);
        (variant, downgrade) = (Variant::Kip279, held);
    }
    if own >= Variant::Kip279 && own != Variant::LeaderHwTruncation && !ibp.at_least("2.0", 0) {
        (variant, downgrade) = (Variant::Kip101, held);
    }
    (variant, flags, downgrade)
}

/// Why these settings cannot go with this release, if they cannot (what Kafka refuses at start-up).
pub fn refuse_knobs(version: KafkaVersion, knobs: &Knobs) -> Option<String> {
    let release = version.id();
    if version.line() >= KafkaRelease::V4_0
        && (knobs.inter_broker_protocol.is_some() || knobs.log_message_format.is_some())
    {
        return Some(format!("Kafka {release} has neither setting: a 4.x cluster's metadata.version is 3.3 or later"));
    }
    let ibp = knobs.inter_broker_protocol;
    if ibp.is_some_and(|v| v.minor_index() > version.minor_index()) {
        return Some(format!("inter_broker_protocol_version is above Kafka {release}'s own"));
    }
    let ceiling = ibp.map_or(version.minor_index(), ProtocolVersion::minor_index);
    if knobs.log_message_format.is_some_and(|f| f.minor_index() > ceiling) {
        return Some("log_message_format_version is above the inter-broker protocol, which Kafka refuses".to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ibp(text: &str) -> Knobs {
        Knobs { inter_broker_protocol: Some(ProtocolVersion::parse(text).expect("version")), ..Knobs::default() }
    }

    #[test]
    fn protocol_versions_read_with_or_without_an_internal_version() {
        assert_eq!(ProtocolVersion::parse("2.7-IV1").map(ProtocolVersion::id), Ok("2.7-IV1".to_string()));
        assert_eq!(ProtocolVersion::parse("0.11.0").map(ProtocolVersion::id), Ok("0.11.0".to_string()));
        assert!(ProtocolVersion::parse("0.11.0-IV1").is_ok_and(|v| !v.at_least("0.11.0", 2)));
        assert!(ProtocolVersion::parse("0.11.0").is_ok_and(|v| v.at_least("0.11.0", 2)));
        for bad in ["2.7-V1", "9.9", "2.7.1", "banana", "2.7-IV", "3.0-IV255"] {
            assert!(ProtocolVersion::parse(bad).is_err(), "{bad}");
        }
    }

    fn release(id: &str) -> KafkaVersion {
        KafkaVersion::parse(id).expect("release")
    }

    #[test]
    fn an_old_inter_broker_protocol_or_format_holds_a_release_to_an_older_generation() {
        let gen = |id, knobs: Knobs| generation(release(id), &knobs).0;
        assert_eq!(gen("3.7", ibp("0.10.2")), Variant::HwTruncation);
        assert_eq!(gen("3.7", ibp("2.7-IV0")), Variant::Kafka21);
        assert_eq!(gen("3.7", ibp("2.7-IV1")), Variant::DivergingEpoch);
        assert_eq!(gen("2.1", ibp("2.1-IV1")), Variant::Kip279, "Fetch v10 comes with 2.1-IV2");
        assert_eq!(gen("2.1", ibp("1.1")), Variant::Kip101);
        assert_eq!(gen("0.11.0", ibp("0.11.0-IV1")), Variant::HwTruncation);
        assert_eq!(gen("2.1", Knobs::default()), Variant::Kafka21);
        assert_eq!(generation(release("2.1"), &ibp("2.1-IV0")).1.len(), 3, "all but KIP-320's fencing");
        // The message format counts only below inter-broker protocol 3.0-IV1.
        let format = |ibp_id: Option<&str>| Knobs {
            log_message_format: ProtocolVersion::parse("0.10.2").ok(),
            inter_broker_protocol: ibp_id.and_then(|v| ProtocolVersion::parse(v).ok()),
            ..Knobs::default()
        };
        assert_eq!(gen("2.8", format(None)), Variant::HwTruncation);
        assert_eq!(gen("3.7", format(None)), Variant::DivergingEpoch, "ignored from 3.0-IV1");
        assert_eq!(gen("3.7", format(Some("2.8"))), Variant::HwTruncation);
    }

    #[test]
    fn settings_kafka_refuses_are_refused() {
        assert!(refuse_knobs(release("4.1"), &ibp("2.8")).is_some_and(|e| e.contains("metadata.version")));
        assert!(refuse_knobs(release("2.1"), &ibp("2.7")).is_some_and(|e| e.contains("above Kafka 2.1")));
        let format_above = Knobs { log_message_format: ProtocolVersion::parse("2.0").ok(), ..ibp("1.1") };
        assert!(refuse_knobs(release("2.1"), &format_above).is_some());
        assert_eq!(refuse_knobs(release("3.7"), &ibp("0.10.2")), None);
    }
}
