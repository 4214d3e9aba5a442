//! The scenario file (contract version 1): brokers, configuration and the list of events.
//!
//! One format serves the CLI, the web app's import/export and share links, and the presets. Parsing lives in
//! [`parse`]; this module holds the types and their canonical JSON form (defaults are left out on export).

pub mod edit;
mod kind;
mod parse;
pub mod text;

pub use kind::EventKind;

/// The largest scenario or lesson file read, in bytes (the page's imports and the CLI's files alike): a
/// scenario at the event limit is far smaller.
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;
pub use parse::{parse_config_value, parse_scenario, parse_scenario_value, valid_broker_name, ScenarioError};

use serde::Serialize;

use crate::variant::{Flag, KafkaVersion, Knobs, MetadataMode, Protocol, ProtocolVersion, Variant};

/// The only scenario format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Brokers per partition, at most (the contract allows 1 to 5).
pub const MAX_BROKERS: usize = 5;
/// Events per scenario, at most: keeps every re-run cheap enough for a drag.
pub const MAX_EVENTS: usize = 1000;

/// A whole scenario: what the user edits, shares and runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Scenario {
    /// Always [`FORMAT_VERSION`].
    pub version: u32,
    /// Title shown in the UI and the CLI.
    pub name: String,
    /// Optional prose shown beside the timeline.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Broker names in replica assignment order (decides the controller's choice of leader).
    pub brokers: Vec<String>,
    /// Protocol and cluster settings.
    pub config: Config,
    /// The timeline: an event's index is its step number.
    pub events: Vec<Event>,
}

/// Settings given beside a scenario file (the command line's `--kafka` and `--metadata-mode`) that count
/// as the file's own, so that the file's release settings are read against that release. A release
/// decides the variant and the flags, so the file's are set aside.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// `config.kafka_version`.
    pub kafka_version: Option<String>,
    /// `config.metadata_mode`.
    pub metadata_mode: Option<String>,
}

impl Overrides {
    /// Nothing to override.
    pub fn is_empty(&self) -> bool {
        self.kafka_version.is_none() && self.metadata_mode.is_none()
    }

    pub(crate) fn apply(&self, config: &mut serde_json::Map<String, serde_json::Value>) {
        if let Some(release) = &self.kafka_version {
            config.remove("variant");
            config.remove("flags");
            config.insert("kafka_version".into(), release.as_str().into());
        }
        if let Some(mode) = &self.metadata_mode {
            config.insert("metadata_mode".into(), mode.as_str().into());
        }
    }
}

/// `config`: every field is optional in the file; defaults are those of [`Config::default`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Config {
    /// The protocol generation the scenario runs under unless the caller picks another.
    pub variant: Variant,
    /// Hardening flags added on top of the variant.
    pub flags: Vec<Flag>,
    /// `min.insync.replicas` (1 to 5).
    pub min_insync_replicas: u8,
    /// `unclean.leader.election.enable`; `None` takes the release's default (model §12).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unclean_leader_election: Option<bool>,
    /// When a broker's persisted HW (replication-offset-checkpoint) follows its in-memory HW.
    pub hw_checkpoint: Policy,
    /// When appended records become durable (survive a power crash).
    pub flush: Policy,
    /// The Kafka release chosen instead of a variant: it decides `variant` (its own) and `flags` (none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kafka_version: Option<KafkaVersion>,
    /// KIP-966's Eligible Leader Replicas (needs 4.0 or later); `None` takes the release's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eligible_leader_replicas: Option<bool>,
    /// `inter.broker.protocol.version` (needs a release); `None`: the release's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inter_broker_protocol_version: Option<ProtocolVersion>,
    /// `log.message.format.version` (needs a release); `None`: the release's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_message_format_version: Option<ProtocolVersion>,
    /// ZooKeeper or KRaft (needs a release); `None`: the release's own, ZooKeeper through 3.9, KRaft from 4.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata_mode: Option<MetadataMode>,
}

impl Config {
    /// The knobs a release reads.
    pub fn knobs(&self) -> Knobs {
        Knobs {
            unclean_leader_election: self.unclean_leader_election,
            eligible_leader_replicas: self.eligible_leader_replicas,
            inter_broker_protocol: self.inter_broker_protocol_version,
            log_message_format: self.log_message_format_version,
            metadata_mode: self.metadata_mode,
        }
    }

    /// The protocol a run of `variant` uses: the named release's (its rules and knobs) when `variant` is the
    /// release's own, else the plain variant with the configured flags.
    pub fn protocol(&self, variant: Variant) -> Protocol {
        match self.kafka_version {
            Some(v) if v.variant() == variant => Protocol::of_release(v, &self.knobs()),
            _ => Protocol::plain(variant, &self.flags, &self.knobs()),
        }
    }

    /// `unclean.leader.election.enable` in force for a run of the configured variant.
    pub fn unclean_in_force(&self) -> bool {
        self.protocol(self.variant).rules.unclean_leader_election
    }

    /// Run as this Kafka release: its variant, no optional flags.
    pub fn set_release(&mut self, release: KafkaVersion) {
        self.kafka_version = Some(release);
        self.variant = release.variant();
        self.flags.clear();
        // Eligible Leader Replicas exist from 4.0 only.
        if !release.line().elr().0 {
            self.eligible_leader_replicas = None;
        }
        self.drop_refused_knobs();
    }

    /// Set `inter.broker.protocol.version` as Kafka lets one: a protocol below 0.11 writes message format v1
    /// at most, so the format is lowered with it unless it already is (Kafka refuses to start otherwise,
    /// model §12); then anything else the release refuses is dropped.
    pub fn set_inter_broker_protocol(&mut self, v: Option<ProtocolVersion>) {
        self.inter_broker_protocol_version = v;
        let below_0_11 =
            v.and_then(|v| ProtocolVersion::parse("0.11.0-IV0").ok().map(|v2| v.minor_index() < v2.minor_index()));
        if below_0_11 == Some(true) && self.log_message_format_version.is_none() {
            self.log_message_format_version = v;
        }
        self.drop_refused_knobs();
    }

    /// The metadata mode in force: the configured one, else the release's own (ZooKeeper without a release).
    pub fn metadata_mode_in_force(&self) -> MetadataMode {
        match (self.metadata_mode, self.kafka_version) {
            (Some(mode), _) => mode,
            (None, Some(release)) => MetadataMode::default_for(release),
            (None, None) => MetadataMode::ZooKeeper,
        }
    }

    /// Drop the settings the release would refuse (a metadata mode it lacks; 4.x and KRaft have no protocol
    /// knobs; none above the release; a format above the inter-broker protocol), the mode first, then the
    /// format: what is left is always a valid file.
    pub fn drop_refused_knobs(&mut self) {
        let Some(release) = self.kafka_version else { return };
        if self.metadata_mode.is_some_and(|m| m.offered_by(release).is_err()) {
            self.metadata_mode = None;
        }
        if crate::variant::refuse_knobs(release, &self.knobs()).is_some() {
            self.log_message_format_version = None;
        }
        if crate::variant::refuse_knobs(release, &self.knobs()).is_some() {
            self.inter_broker_protocol_version = None;
        }
    }

    /// Forget the release once the variant or flags no longer are its own.
    pub fn keep_release_consistent(&mut self) {
        if self.kafka_version.is_some_and(|r| r.variant() != self.variant || !self.flags.is_empty()) {
            self.forget_release();
        }
    }

    /// No release: the plain variant, without the settings only a release has.
    pub fn forget_release(&mut self) {
        self.kafka_version = None;
        self.eligible_leader_replicas = None;
        self.inter_broker_protocol_version = None;
        self.log_message_format_version = None;
        self.metadata_mode = None;
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            variant: Variant::Kip279,
            flags: Vec::new(),
            min_insync_replicas: 1,
            unclean_leader_election: None,
            hw_checkpoint: Policy::Always,
            flush: Policy::Always,
            kafka_version: None,
            eligible_leader_replicas: None,
            inter_broker_protocol_version: None,
            log_message_format_version: None,
            metadata_mode: None,
        }
    }
}

/// `"always"` (after every event) or `"manual"` (only on the explicit event, or `shutdown`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Follows automatically after every event.
    Always,
    /// Changes only on `checkpoint_hw` / `flush` or `shutdown`.
    Manual,
}

impl Policy {
    /// The contract's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::Always => "always",
            Policy::Manual => "manual",
        }
    }
}

/// Producer `acks`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Acks {
    /// Fire and forget: never acknowledged.
    Zero,
    /// Acknowledged once the leader has appended.
    One,
    /// Acknowledged once the leader's HW passes the record (the default).
    #[default]
    All,
}

impl Acks {
    /// The contract's spelling, for messages.
    pub fn label(self) -> &'static str {
        match self {
            Acks::Zero => "0",
            Acks::One => "1",
            Acks::All => "all",
        }
    }
}

impl Serialize for Acks {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Acks::Zero => s.serialize_u8(0),
            Acks::One => s.serialize_u8(1),
            Acks::All => s.serialize_str("all"),
        }
    }
}

/// Which live brokers an election's LeaderAndIsr reaches at once.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Delivery {
    /// Every live broker (the default).
    #[default]
    All,
    /// Nobody yet: each broker gets it later by `deliver` or `restart`.
    None,
    /// Only these brokers.
    Only(Vec<String>),
}

impl Delivery {
    fn is_all(&self) -> bool {
        *self == Delivery::All
    }
}

impl Serialize for Delivery {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Delivery::All => s.serialize_str("all"),
            Delivery::None => s.serialize_str("none"),
            Delivery::Only(names) => names.serialize(s),
        }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}
fn is_true(b: &bool) -> bool {
    *b
}
fn is_acks_all(a: &Acks) -> bool {
    *a == Acks::All
}

/// One timeline event. Field names and defaults are the contract's (see the README's scenario format).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// Controller election, with an optional candidate.
    Elect {
        /// The candidate; `None` lets the controller choose.
        #[serde(skip_serializing_if = "Option::is_none")]
        broker: Option<String>,
        /// Who receives the LeaderAndIsr at once.
        #[serde(skip_serializing_if = "Delivery::is_all")]
        deliver: Delivery,
    },
    /// The broker applies the newest LeaderAndIsr it has not applied.
    Deliver {
        /// Receiving broker.
        broker: String,
    },
    /// A producer writes one record.
    Produce {
        /// Record label; `None` means `r<N>`.
        #[serde(skip_serializing_if = "Option::is_none")]
        record: Option<String>,
        /// Producer acks.
        #[serde(skip_serializing_if = "is_acks_all")]
        acks: Acks,
        /// Target broker; `None` means the controller's leader.
        #[serde(skip_serializing_if = "Option::is_none")]
        broker: Option<String>,
    },
    /// One fetcher iteration of a follower.
    Fetch {
        /// The fetching follower.
        broker: String,
        /// The leader side happens, the follower receives nothing.
        #[serde(skip_serializing_if = "is_false")]
        drop_response: bool,
    },
    /// Fetch rounds for every live follower until nothing changes.
    Settle,
    /// The leader drops a lagging follower from its ISR.
    ShrinkIsr {
        /// The follower to drop.
        broker: String,
    },
    /// The broker goes down.
    Crash {
        /// Crashing broker.
        broker: String,
        /// Power loss: records past the flushed offset are lost.
        #[serde(skip_serializing_if = "is_false")]
        power: bool,
        /// Whether the controller notices at once.
        #[serde(skip_serializing_if = "is_true")]
        notify_controller: bool,
    },
    /// The broker comes back with log recovery.
    Restart {
        /// Restarting broker.
        broker: String,
        /// Whether the current LeaderAndIsr reaches it at once.
        #[serde(skip_serializing_if = "is_true")]
        deliver: bool,
    },
    /// Controlled shutdown.
    Shutdown {
        /// Broker shutting down.
        broker: String,
    },
    /// Persist the broker's current HW.
    CheckpointHw {
        /// Broker.
        broker: String,
    },
    /// Make the broker's whole log durable.
    Flush {
        /// Broker.
        broker: String,
    },
    /// A consumer reads everything below a broker's HW.
    Consume {
        /// Broker read from; `None` means the controller's leader.
        #[serde(skip_serializing_if = "Option::is_none")]
        broker: Option<String>,
    },
    /// The broker ignores the controller from now on but keeps fetching (KAFKA-6880).
    Zombie {
        /// Broker.
        broker: String,
    },
}

/// An event's broker field, borrowed for editing.
pub enum BrokerFieldMut<'a> {
    /// A broker the event needs (fetch, crash, …).
    Required(&'a mut String),
    /// A broker the event may name (elect, produce, consume).
    Optional(&'a mut Option<String>),
    /// No broker (settle).
    None,
}

impl Event {
    /// What kind of event it is.
    pub fn kind(&self) -> EventKind {
        match self {
            Event::Elect { .. } => EventKind::Elect,
            Event::Deliver { .. } => EventKind::Deliver,
            Event::Produce { .. } => EventKind::Produce,
            Event::Fetch { .. } => EventKind::Fetch,
            Event::Settle => EventKind::Settle,
            Event::ShrinkIsr { .. } => EventKind::ShrinkIsr,
            Event::Crash { .. } => EventKind::Crash,
            Event::Restart { .. } => EventKind::Restart,
            Event::Shutdown { .. } => EventKind::Shutdown,
            Event::CheckpointHw { .. } => EventKind::CheckpointHw,
            Event::Flush { .. } => EventKind::Flush,
            Event::Consume { .. } => EventKind::Consume,
            Event::Zombie { .. } => EventKind::Zombie,
        }
    }

    /// The broker the event is aimed at, if any (its lane in the timeline).
    pub fn broker(&self) -> Option<&str> {
        match self {
            Event::Elect { broker, .. } | Event::Produce { broker, .. } | Event::Consume { broker } => {
                broker.as_deref()
            }
            Event::Settle => None,
            Event::Deliver { broker }
            | Event::Fetch { broker, .. }
            | Event::ShrinkIsr { broker }
            | Event::Crash { broker, .. }
            | Event::Restart { broker, .. }
            | Event::Shutdown { broker }
            | Event::CheckpointHw { broker }
            | Event::Flush { broker }
            | Event::Zombie { broker } => Some(broker),
        }
    }

    /// The field that aims the event at a broker, for edits (the mutable twin of [`Event::broker`]).
    pub fn broker_field_mut(&mut self) -> BrokerFieldMut<'_> {
        match self {
            Event::Elect { broker, .. } | Event::Produce { broker, .. } | Event::Consume { broker } => {
                BrokerFieldMut::Optional(broker)
            }
            Event::Settle => BrokerFieldMut::None,
            Event::Deliver { broker }
            | Event::Fetch { broker, .. }
            | Event::ShrinkIsr { broker }
            | Event::Crash { broker, .. }
            | Event::Restart { broker, .. }
            | Event::Shutdown { broker }
            | Event::CheckpointHw { broker }
            | Event::Flush { broker }
            | Event::Zombie { broker } => BrokerFieldMut::Required(broker),
        }
    }

    /// A fresh event of this kind with its defaults, aimed at `broker` where it takes one.
    /// `None` when the kind needs a broker and none was given.
    pub fn new_of_kind(kind: EventKind, broker: Option<&str>) -> Option<Event> {
        let named = || broker.map(str::to_string);
        let required = || broker.map(str::to_string);
        Some(match kind {
            EventKind::Elect => Event::Elect { broker: named(), deliver: Delivery::All },
            EventKind::Produce => Event::Produce { record: None, acks: Acks::All, broker: named() },
            EventKind::Consume => Event::Consume { broker: named() },
            EventKind::Settle => Event::Settle,
            EventKind::Deliver => Event::Deliver { broker: required()? },
            EventKind::Fetch => Event::Fetch { broker: required()?, drop_response: false },
            EventKind::ShrinkIsr => Event::ShrinkIsr { broker: required()? },
            EventKind::Crash => Event::Crash { broker: required()?, power: false, notify_controller: true },
            EventKind::Restart => Event::Restart { broker: required()?, deliver: true },
            EventKind::Shutdown => Event::Shutdown { broker: required()? },
            EventKind::CheckpointHw => Event::CheckpointHw { broker: required()? },
            EventKind::Flush => Event::Flush { broker: required()? },
            EventKind::Zombie => Event::Zombie { broker: required()? },
        })
    }

    /// Every broker name the event mentions (its target and, for `elect`, the delivery list).
    pub fn mentioned_brokers(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.broker().into_iter().collect();
        if let Event::Elect { deliver: Delivery::Only(list), .. } = self {
            names.extend(list.iter().map(String::as_str));
        }
        names
    }
}

impl Scenario {
    /// Parse contract-v1 JSON (see [`parse_scenario`]).
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        parse_scenario(text)
    }

    /// The canonical, pretty-printed contract-v1 JSON (defaults omitted).
    pub fn to_json(&self) -> String {
        // Serialising plain data to a String cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The position of a broker name in assignment order.
    pub fn broker_index(&self, name: &str) -> Option<usize> {
        self.brokers.iter().position(|b| b == name)
    }

    /// An empty two-broker scenario: the "new scenario" starting point.
    pub fn empty() -> Scenario {
        Scenario {
            version: FORMAT_VERSION,
            name: "New scenario".to_string(),
            description: String::new(),
            brokers: vec!["A".to_string(), "B".to_string()],
            config: Config::default(),
            events: Vec::new(),
        }
    }
}
