//! A record's identity: what the simulator remembers of every record ever produced (model §3.4 E3).

use serde::Serialize;

use crate::scenario::Acks;
use crate::state::BrokerId;

/// A record's identity and origin, indexed by its unique id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordInfo {
    /// The label the user gave (or `r<N>`).
    pub label: String,
    /// The leader epoch it was written in.
    pub epoch: i32,
    /// The step that produced it.
    pub step: u32,
    /// The broker that appended it as leader.
    pub leader: BrokerId,
    /// The producer's acks.
    #[serde(skip)]
    pub acks: Acks,
}
