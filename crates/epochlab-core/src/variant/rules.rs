//! What a Kafka release does beyond its truncation rule (model §12): the controller's, the HW's and the
//! consumers' rules, the defaults it ships, and the inter-broker protocol and message format knobs that can
//! hold a broker to an older generation. A plain variant (no release named) has none of the release rules.

use super::kafka_release::{KafkaRelease, KafkaVersion, MINORS};
use super::metadata_mode::MetadataMode;
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

    /// The message format it writes: 1 below 0.11 (`KAFKA_0_10_2_IV0` is `RecordVersion.V1`), 2 from 0.11
    /// (`ApiVersion.scala@2.4.0` L218-230).
    pub fn record_version(self) -> u8 {
        if self.at_least("0.11.0", 0) {
            2
        } else {
            1
        }
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
    /// ZooKeeper or KRaft; `None` takes the release's own (model §13).
    pub metadata_mode: Option<MetadataMode>,
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
    /// Where the metadata lives, and what the controller does because of it (model §13).
    pub control: ControlPlane,
}

/// The controller's rules that depend on the metadata mode (model §13). A plain variant runs ZooKeeper's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ControlPlane {
    /// ZooKeeper or KRaft.
    pub mode: MetadataMode,
    /// The controller taking a broker out of the ISR bumps the leader epoch: always under ZooKeeper
    /// (`LeaderAndIsr.newLeaderAndIsr`, `ReplicaStateMachine.scala@3.7.0` L330-348), under KRaft only before
    /// metadata version 3.6-IV0 (KAFKA-15021, `PartitionChangeBuilder.java@3.6.0` L264-301).
    pub controller_shrink_bumps_leader_epoch: bool,
    /// The leader's own ISR shrink bumps the leader epoch: under KRaft before 3.6-IV0 only (the same builder
    /// serves AlterPartition, `ReplicationControlManager.java@3.3.0` L979-995); ZooKeeper's AlterIsr never.
    pub leader_shrink_bumps_leader_epoch: bool,
    /// KIP-966 under KRaft with Eligible Leader Replicas: with ISR and ELR empty, the last known leader is
    /// elected once it is unfenced, uncleanly, even with unclean election disabled.
    pub last_known_leader: bool,
    /// KRaft before 3.9 never elects uncleanly by itself, whatever `unclean.leader.election.enable` says
    /// (KAFKA-12670; `ConfigurationControlManager.java@3.8.0` L498-500 returns false): true when the setting
    /// is on and so ignored.
    pub unclean_setting_ignored: bool,
}

impl Default for ControlPlane {
    fn default() -> ControlPlane {
        ControlPlane {
            mode: MetadataMode::ZooKeeper,
            controller_shrink_bumps_leader_epoch: true,
            leader_shrink_bumps_leader_epoch: false,
            last_known_leader: false,
            unclean_setting_ignored: false,
        }
    }
}

impl ControlPlane {
    /// The control plane of `version` in `mode`, with Eligible Leader Replicas on or off.
    pub fn of_release(version: KafkaVersion, mode: MetadataMode, elr: bool, unclean: bool) -> ControlPlane {
        if mode == MetadataMode::ZooKeeper {
            return ControlPlane::default();
        }
        let before_3_6 = !version.at_least("3.6");
        ControlPlane {
            mode,
            controller_shrink_bumps_leader_epoch: before_3_6,
            leader_shrink_bumps_leader_epoch: before_3_6,
            last_known_leader: elr,
            unclean_setting_ignored: unclean && !version.at_least("3.9"),
        }
    }

    /// Whether this is KRaft.
    pub fn kraft(&self) -> bool {
        self.mode == MetadataMode::KRaft
    }
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

    /// A release's rules with the knobs applied.
    pub fn of_release(version: KafkaVersion, knobs: &Knobs) -> Rules {
        let line = version.line();
        let (elr_exists, elr_default) = line.elr();
        let elr = elr_exists && knobs.eligible_leader_replicas.unwrap_or(elr_default);
        // A mode the release lacks (a KRaft scenario bisected down to 2.7) runs the release's own.
        let mode = knobs.metadata_mode.filter(|m| m.offered_by(version).is_ok());
        let mode = mode.unwrap_or(MetadataMode::default_for(version));
        let unclean = knobs.unclean_leader_election.unwrap_or(line.unclean_default());
        let control = ControlPlane::of_release(version, mode, elr, unclean);
        Rules {
            line: Some(line),
            unclean_leader_election: unclean && !control.unclean_setting_ignored,
            unclean_by_default: knobs.unclean_leader_election.is_none(),
            min_isr_gates_hw: line >= KafkaRelease::V3_7,
            elr,
            // KRaft notices every new incarnation at registration (its broker epoch), like KIP-380.
            notices_bounce: line >= KafkaRelease::V2_2 || control.kraft(),
            consumers_validate: line >= KafkaRelease::V2_3,
            kafka_13141: line >= KafkaRelease::V2_8_1,
            no_halt_on_out_of_range: line >= KafkaRelease::V2_0_1,
            downgrade: None,
            control,
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
    if let Some(why) = knobs.metadata_mode.and_then(|m| m.offered_by(version).err()) {
        return Some(why);
    }
    let knob_set = knobs.inter_broker_protocol.is_some() || knobs.log_message_format.is_some();
    if version.line() >= KafkaRelease::V4_0 && knob_set {
        return Some(format!("Kafka {release} has neither setting: a 4.x cluster's metadata.version is 3.3 or later"));
    }
    if knobs.metadata_mode == Some(MetadataMode::KRaft) && knob_set {
        return Some(format!(
            "a KRaft cluster of Kafka {release} has neither setting: its metadata.version takes their place"
        ));
    }
    let ibp = knobs.inter_broker_protocol;
    if ibp.is_some_and(|v| v.minor_index() > version.minor_index()) {
        return Some(format!("inter_broker_protocol_version is above Kafka {release}'s own"));
    }
    if let Some(why) = ibp.and_then(|ibp| refuse_default_format(version, ibp, knobs.log_message_format)) {
        return Some(why);
    }
    let format_above = match (knobs.log_message_format, ibp) {
        // From 1.1 Kafka compares record versions (`KafkaConfig.scala@2.1.0` L1410-1413, `@2.4.0` L1525-1528);
        // 0.11 and 1.0 compared the versions themselves (`@1.0.0` L1205-1206).
        (Some(f), Some(ibp)) if version.at_least("1.1") => f.record_version() > ibp.record_version(),
        (Some(f), Some(ibp)) => f.minor_index() > ibp.minor_index(),
        (Some(f), None) => f.minor_index() > version.minor_index(),
        (None, _) => false,
    };
    format_above
        .then(|| "log_message_format_version is above the inter-broker protocol, which Kafka refuses".to_string())
}

/// An inter-broker protocol below 0.11 writes message format v1 at most, while the format defaults to the
/// release's latest (v2 from 0.11): Kafka refuses to start (`KafkaConfig.scala@1.0.0` L1205,
/// `@2.4.0` L1525-1528, model §12).
fn refuse_default_format(
    version: KafkaVersion,
    ibp: ProtocolVersion,
    format: Option<ProtocolVersion>,
) -> Option<String> {
    let v2 = MINORS.iter().position(|m| *m == "0.11.0").unwrap_or(0) as u8;
    if format.is_some() || ibp.minor_index() >= v2 || version.minor_index() < v2 {
        return None;
    }
    Some(format!(
        "inter_broker_protocol_version {} writes message format v1 at most, but log_message_format_version defaults to Kafka {}'s own (v2), which Kafka refuses at start-up: set log_message_format_version to {} or lower too",
        ibp.id(),
        version.id(),
        ibp.id()
    ))
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
        // A format above the protocol: refused by version in 1.0, by record version from 1.1.
        let format_above = Knobs { log_message_format: ProtocolVersion::parse("2.0").ok(), ..ibp("1.1") };
        assert_eq!(refuse_knobs(release("2.1"), &format_above), None, "format 2.0 and protocol 1.1 both write v2");
        let format_above = Knobs { log_message_format: ProtocolVersion::parse("1.0").ok(), ..ibp("0.11.0") };
        assert!(refuse_knobs(release("1.0"), &format_above).is_some());
        let v2_over_v1 = Knobs { log_message_format: ProtocolVersion::parse("0.11.0").ok(), ..ibp("0.10.2") };
        assert!(refuse_knobs(release("2.4"), &v2_over_v1).is_some());
        let refused = refuse_knobs(release("3.7"), &ibp("0.10.2")).unwrap_or_default();
        assert!(
            refused.contains("log_message_format_version") && refused.contains("inter_broker_protocol_version 0.10.2")
        );
        let both = Knobs { log_message_format: ProtocolVersion::parse("0.10.2").ok(), ..ibp("0.10.2") };
        assert_eq!(refuse_knobs(release("3.7"), &both), None, "the format lowered too: Kafka starts");
        assert_eq!(refuse_knobs(release("0.10.2"), &ibp("0.10.2")), None, "0.10.2's own format is v1");
        assert_eq!(refuse_knobs(release("2.1"), &ibp("0.11.0-IV0")), None, "0.11.0-IV0 writes v2");
        let kraft = Knobs { metadata_mode: Some(MetadataMode::KRaft), ..Knobs::default() };
        assert!(refuse_knobs(release("2.7"), &kraft).is_some_and(|e| e.contains("KRaft came in 2.8")));
        assert_eq!(refuse_knobs(release("3.3"), &kraft), None);
        assert!(
            refuse_knobs(release("3.3"), &Knobs { metadata_mode: Some(MetadataMode::KRaft), ..ibp("3.0") }).is_some()
        );
    }
}
