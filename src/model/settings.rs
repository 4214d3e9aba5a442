//! The changes the lessons module's panels hand to the page, typed: the cluster's settings, and the scenario's
//! name, description and My scenarios. Kept apart from `Action` so that the messages between the programs
//! (`bridge`, `panels`) name them without naming every action.

use epochlab_core::scenario::Policy;
use epochlab_core::variant::{KafkaVersion, MetadataMode, ProtocolVersion};
use epochlab_core::Flag;

/// A change of the cluster's settings: one group, so that every place that must handle them (the reducer,
/// what counts as an edit, what the lessons module forwards) names the group, and a new setting is a
/// compiler error wherever it must be handled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigAction {
    /// Add a broker.
    AddBroker,
    /// Remove a broker (and its events).
    RemoveBroker(String),
    /// Rename a broker.
    RenameBroker(String, String),
    /// min.insync.replicas.
    SetMinIsr(u8),
    /// unclean.leader.election.enable (`None`: the release's default).
    SetUnclean(Option<bool>),
    /// KIP-966's Eligible Leader Replicas on a 4.x release (`None`: the release's default).
    SetElr(Option<bool>),
    /// ZooKeeper or KRaft on a release that offers both (`None`: the release's own, model §13).
    SetMetadataMode(Option<MetadataMode>),
    /// inter.broker.protocol.version (`None`: the release's own).
    SetInterBrokerProtocol(Option<ProtocolVersion>),
    /// log.message.format.version (`None`: the release's own).
    SetMessageFormat(Option<ProtocolVersion>),
    /// HW checkpoint policy.
    SetHwCheckpoint(Policy),
    /// Flush policy.
    SetFlush(Policy),
    /// Turn a flag on or off.
    ToggleFlag(Flag),
    /// Run as a Kafka release (its variant and flags), or forget the release.
    SetKafkaRelease(Option<KafkaVersion>),
}

/// The scenario's name and description, and the scenarios kept in My scenarios: one group, forwarded typed
/// from the panel the lessons module draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SavedAction {
    /// Name the scenario.
    SetName(String),
    /// Describe the scenario.
    SetDescription(String),
    /// Open a scenario from "My scenarios" (the working one is kept there first).
    OpenSaved(u64),
    /// Rename a scenario in "My scenarios".
    RenameSaved(u64, String),
    /// Copy a scenario in "My scenarios".
    DuplicateSaved(u64),
    /// Delete a scenario from "My scenarios".
    DeleteSaved(u64),
}
