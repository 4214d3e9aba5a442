//! Where a cluster keeps its metadata (model §13): ZooKeeper, with a controller broker that sends
//! LeaderAndIsr, or KRaft (KIP-500), a controller quorum whose metadata log the brokers replay. Kafka offers
//! KRaft from 2.8 (early access until 3.3, KIP-833) and only KRaft from 4.0 (ZooKeeper removed).

use serde::Serialize;

use super::kafka_release::{KafkaRelease, KafkaVersion};

/// The metadata mode a cluster runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum MetadataMode {
    /// A ZooKeeper ensemble and a controller broker (every release through 3.9).
    #[default]
    ZooKeeper,
    /// A KRaft controller quorum (2.8 early access, production from 3.3, the only mode from 4.0).
    KRaft,
}

impl MetadataMode {
    /// Both modes, ZooKeeper first.
    pub const ALL: [MetadataMode; 2] = [MetadataMode::ZooKeeper, MetadataMode::KRaft];

    /// The spelling in files, links and the CLI: `zookeeper`, `kraft`.
    pub fn id(self) -> &'static str {
        match self {
            MetadataMode::ZooKeeper => "zookeeper",
            MetadataMode::KRaft => "kraft",
        }
    }

    /// `ZooKeeper`, `KRaft`.
    pub fn title(self) -> &'static str {
        match self {
            MetadataMode::ZooKeeper => "ZooKeeper",
            MetadataMode::KRaft => "KRaft",
        }
    }

    /// The mode spelled `id`.
    pub fn from_id(id: &str) -> Result<MetadataMode, String> {
        MetadataMode::ALL
            .into_iter()
            .find(|m| m.id() == id.trim())
            .ok_or_else(|| format!("unknown metadata mode \"{id}\" (expected zookeeper or kraft)"))
    }

    /// The mode a release runs when none is named: ZooKeeper through 3.9, KRaft from 4.0.
    pub fn default_for(version: KafkaVersion) -> MetadataMode {
        if version.line() >= KafkaRelease::V4_0 {
            MetadataMode::KRaft
        } else {
            MetadataMode::ZooKeeper
        }
    }

    /// Whether Kafka `version` offers this mode, and if not, why not.
    pub fn offered_by(self, version: KafkaVersion) -> Result<(), String> {
        let release = version.id();
        match self {
            MetadataMode::ZooKeeper if version.line() >= KafkaRelease::V4_0 => Err(format!(
                "Kafka {release} has no ZooKeeper mode: 4.0 removed it (KIP-833), so metadata_mode is kraft"
            )),
            MetadataMode::KRaft if !version.has_kraft() => {
                Err(format!("Kafka {release} has no KRaft mode: KRaft came in 2.8 (KIP-500, early access until 3.3)"))
            }
            _ => Ok(()),
        }
    }

    /// What the picker says beside a release that offers KRaft before it was ready for production.
    pub fn early_access(self, version: KafkaVersion) -> bool {
        self == MetadataMode::KRaft && version.has_kraft() && !version.at_least("3.3")
    }
}

impl Serialize for MetadataMode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(id: &str) -> KafkaVersion {
        KafkaVersion::parse(id).expect("release")
    }

    #[test]
    fn kafka_offers_kraft_from_2_8_and_only_kraft_from_4_0() {
        assert_eq!(MetadataMode::default_for(v("3.9")), MetadataMode::ZooKeeper);
        assert_eq!(MetadataMode::default_for(v("4.0")), MetadataMode::KRaft);
        assert!(MetadataMode::KRaft.offered_by(v("2.8.0")).is_ok());
        assert!(MetadataMode::KRaft.offered_by(v("2.7")).is_err_and(|e| e.contains("2.8")));
        assert!(MetadataMode::ZooKeeper.offered_by(v("4.1")).is_err_and(|e| e.contains("KIP-833")));
        assert!(MetadataMode::KRaft.early_access(v("3.2")));
        assert!(!MetadataMode::KRaft.early_access(v("3.3")));
        assert_eq!(MetadataMode::from_id("kraft"), Ok(MetadataMode::KRaft));
        assert!(MetadataMode::from_id("zk").is_err());
    }
}
