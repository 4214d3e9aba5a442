//! The cluster state after a step: the controller (the ZooKeeper "quorum state") and every replica.
//! Model §3.2 and §3.3. Everything here is plain data; the rules that change it live in `engine`.

use std::sync::Arc;

use serde::Serialize;

use crate::cow::share_from;
use crate::epoch_cache::EpochCache;

/// A broker, by its position in replica assignment order (0 to 4).
pub type BrokerId = u8;

/// A set of brokers, as a bit mask in assignment order (cheap to copy into every step).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct BrokerSet(u8);

impl BrokerSet {
    /// No broker.
    pub const EMPTY: BrokerSet = BrokerSet(0);

    /// The first `n` brokers.
    pub fn first(n: usize) -> BrokerSet {
        BrokerSet(((1u16 << n.min(8)) - 1) as u8)
    }
    /// Just one broker.
    pub fn only(b: BrokerId) -> BrokerSet {
        BrokerSet(1 << b)
    }
    /// Membership.
    pub fn contains(self, b: BrokerId) -> bool {
        self.0 & (1 << b) != 0
    }
    /// Add a broker.
    pub fn insert(&mut self, b: BrokerId) {
        self.0 |= 1 << b;
    }
    /// Remove a broker.
    pub fn remove(&mut self, b: BrokerId) {
        self.0 &= !(1 << b);
    }
    /// Number of members.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    /// Whether empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Whether empty, by reference (for serde's `skip_serializing_if`).
    pub fn is_none(&self) -> bool {
        self.0 == 0
    }
    /// Members in assignment order.
    pub fn iter(self) -> impl Iterator<Item = BrokerId> {
        (0..8u8).filter(move |b| self.contains(*b))
    }
    /// The set with these bits (bit b = broker b).
    pub fn from_bits(bits: u8) -> BrokerSet {
        BrokerSet(bits)
    }
    /// Its bits (bit b = broker b).
    pub fn bits(self) -> u8 {
        self.0
    }
    /// Whether every member of `other` is in `self`.
    pub fn is_superset(self, other: BrokerSet) -> bool {
        self.0 & other.0 == other.0
    }
}

/// A record in a replica's log: its unique id (index into the trace's record table) and its leader epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Entry {
    /// Unique record id; two replicas hold "the same record" when the ids match.
    pub id: u32,
    /// The leader epoch stamped at append (shown, but ignored by the pre-KIP-101 protocol).
    pub epoch: i32,
}

/// What a replica believes about its part in the partition (in memory: lost on a crash).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// No LeaderAndIsr applied since start, or the partition is offline.
    None,
    /// Believes it leads.
    Leader,
    /// Follows `known_leader`.
    Follower,
}

/// The follower's fetcher state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FetchState {
    /// Not fetching (leader, down, or no leader known).
    Idle,
    /// Must reconcile with OffsetsForLeaderEpoch (or fall back to its HW) before fetching.
    Truncating,
    /// diverging-epoch: fetching, but no Fetch response has yet confirmed the log has not diverged.
    Validating,
    /// Fetching; truncation is finished.
    Fetching,
}

/// One replica (broker) of the partition.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct Replica {
    /// Process running.
    pub up: bool,
    /// Ignores the controller but keeps fetching (KAFKA-6880).
    pub zombie: bool,
    /// The log; offset = index, LEO = length. Shared copy-on-write, so that each step's snapshot in the trace
    /// costs a reference count, not a copy of every log.
    pub log: Arc<Vec<Entry>>,
    /// In-memory high watermark (exclusive).
    pub hw: u32,
    /// Persisted HW (`replication-offset-checkpoint`).
    pub hw_checkpoint: u32,
    /// Recovery point: records below survive a power loss.
    pub flushed: u32,
    /// Leader-epoch cache (`leader-epoch-checkpoint`), persisted on every change.
    pub epoch_cache: EpochCache,
    /// Epoch of the last LeaderAndIsr applied (-1: none).
    pub known_epoch: i32,
    /// Leader named by that LeaderAndIsr.
    pub known_leader: Option<BrokerId>,
    /// What the replica believes it is.
    pub role: Role,
    /// Fetcher state when following.
    pub fetch_state: FetchState,
    /// Leader only: its ISR view.
    pub isr: BrokerSet,
    /// Leader only: each follower's LEO as of its last fetch (-1: unknown since becoming leader).
    pub remote_leo: [i32; crate::scenario::MAX_BROKERS],
    /// Leader only: its LEO when it became leader (KAFKA-7128).
    pub leader_epoch_start_offset: u32,
    /// Leader only, 3.7 and later: followers proposed for the ISR in an AlterPartition the controller has
    /// not answered yet; with `isr` they make KIP-497's maximal ISR (model §13.5).
    #[serde(skip_serializing_if = "BrokerSet::is_none")]
    pub pending_isr: BrokerSet,
}

/// As derived, but the pending ISR is hashed only when it has members, so that runs without one hash as
/// before (the fingerprints of traces are pinned).
impl std::hash::Hash for Replica {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.up, self.zombie, &self.log, self.hw, self.hw_checkpoint, self.flushed, &self.epoch_cache).hash(h);
        (self.known_epoch, self.known_leader, self.role, self.fetch_state, self.isr).hash(h);
        (self.remote_leo, self.leader_epoch_start_offset).hash(h);
        if !self.pending_isr.is_empty() {
            self.pending_isr.hash(h);
        }
    }
}

/// As derived, but `clone_from` reuses the epoch cache's buffer and keeps a log it already shares: a search
/// resets one scratch state to its node's after every transition it tries (`checker::space`). Inline, as
/// derived ones are, so that callers in other crates copy as fast as before.
impl Clone for Replica {
    #[inline]
    fn clone(&self) -> Self {
        Replica { log: Arc::clone(&self.log), epoch_cache: self.epoch_cache.clone(), ..*self }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        share_from(&mut self.log, &source.log);
        self.epoch_cache.clone_from(&source.epoch_cache);
        // Every field by name, so that a new one cannot be missed.
        let Replica {
            up,
            zombie,
            log: _,
            hw,
            hw_checkpoint,
            flushed,
            epoch_cache: _,
            known_epoch,
            known_leader,
            role,
            fetch_state,
            isr,
            remote_leo,
            leader_epoch_start_offset,
            pending_isr,
        } = *source;
        (self.up, self.zombie, self.hw, self.hw_checkpoint, self.flushed) = (up, zombie, hw, hw_checkpoint, flushed);
        (self.known_epoch, self.known_leader, self.role, self.fetch_state) =
            (known_epoch, known_leader, role, fetch_state);
        (self.isr, self.remote_leo, self.leader_epoch_start_offset) = (isr, remote_leo, leader_epoch_start_offset);
        self.pending_isr = pending_isr;
    }
}

impl Replica {
    fn new() -> Replica {
        Replica {
            up: true,
            zombie: false,
            log: Arc::new(Vec::new()),
            hw: 0,
            hw_checkpoint: 0,
            flushed: 0,
            epoch_cache: EpochCache::default(),
            known_epoch: -1,
            known_leader: None,
            role: Role::None,
            fetch_state: FetchState::Idle,
            isr: BrokerSet::EMPTY,
            remote_leo: [-1; crate::scenario::MAX_BROKERS],
            leader_epoch_start_offset: 0,
            pending_isr: BrokerSet::EMPTY,
        }
    }

    /// Log end offset: the offset of the next record.
    pub fn leo(&self) -> u32 {
        self.log.len() as u32
    }

    /// The record id at an offset, if any.
    pub fn id_at(&self, offset: u32) -> Option<u32> {
        self.log.get(offset as usize).map(|e| e.id)
    }

    /// Leader only: KIP-497's maximal ISR, the committed ISR and any member proposed (model §13.5): what
    /// holds the HW back and what acks=all counts.
    pub fn maximal_isr(&self) -> BrokerSet {
        BrokerSet::from_bits(self.isr.bits() | self.pending_isr.bits())
    }

    /// Up and believing it leads.
    pub fn is_acting_leader(&self) -> bool {
        self.up && self.role == Role::Leader
    }
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// A LeaderAndIsr request as the controller sent it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct LeaderAndIsr {
    /// The leader, or none (offline).
    pub leader: Option<BrokerId>,
    /// Its leader epoch.
    pub epoch: i32,
    /// The ISR at the time.
    pub isr: BrokerSet,
}

/// The controller's view of the partition (ZooKeeper state) and its undelivered requests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Controller {
    /// The elected leader, if any.
    pub leader: Option<BrokerId>,
    /// The current leader epoch (-1 before the first election).
    pub leader_epoch: i32,
    /// The ISR as stored by the controller.
    pub isr: BrokerSet,
    /// Brokers with a live session, as the controller sees them.
    pub live: BrokerSet,
    /// KIP-966's Eligible Leader Replicas: members that left the ISR while it was below min ISR and may still
    /// lead once the ISR is empty (always empty without ELR).
    #[serde(skip_serializing_if = "BrokerSet::is_none")]
    pub elr: BrokerSet,
    /// Brokers down after an unclean shutdown (their clean-shutdown file is missing), which KIP-966 drops
    /// from the ELR when they register again. Kept only with ELR (nothing else reads it).
    #[serde(skip_serializing_if = "BrokerSet::is_none")]
    pub unclean_shutdowns: BrokerSet,
    /// KIP-966 under KRaft: the ISR members last seen before the ISR and ELR both emptied
    /// (`lastKnownElr`), who may be elected uncleanly once back (model §13.4). Empty otherwise.
    #[serde(skip_serializing_if = "BrokerSet::is_none")]
    pub last_known_elr: BrokerSet,
    /// KRaft's partition epoch: raised by every change of the partition's record, leader epoch or not
    /// (model §13.3). Stays 0 under ZooKeeper, where the model does not count the znode's version.
    #[serde(skip_serializing_if = "is_zero")]
    pub partition_epoch: i32,
    /// Per broker: the newest LeaderAndIsr sent to it and not yet applied.
    pub outbox: [Option<LeaderAndIsr>; crate::scenario::MAX_BROKERS],
}

/// The KIP-966 sets are hashed only when they have members, so that runs without ELR hash as before.
impl std::hash::Hash for Controller {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.leader, self.leader_epoch, self.isr, self.live, self.outbox).hash(h);
        if !self.elr.is_empty() || !self.unclean_shutdowns.is_empty() {
            (self.elr, self.unclean_shutdowns).hash(h);
        }
        // KRaft's own parts, likewise: ZooKeeper runs hash as before.
        if !self.last_known_elr.is_empty() || self.partition_epoch != 0 {
            (self.last_known_elr, self.partition_epoch).hash(h);
        }
    }
}

impl Controller {
    /// The current LeaderAndIsr.
    pub fn current(&self) -> LeaderAndIsr {
        LeaderAndIsr { leader: self.leader, epoch: self.leader_epoch, isr: self.isr }
    }
}

/// The whole cluster state.
#[derive(Debug, PartialEq, Eq, Hash, Serialize)]
pub struct State {
    /// Controller.
    pub controller: Controller,
    /// Replicas in assignment order.
    pub replicas: Vec<Replica>,
}

/// As derived, but `clone_from` reuses the replicas' buffers (see [`Replica`]'s).
impl Clone for State {
    #[inline]
    fn clone(&self) -> Self {
        State { controller: self.controller.clone(), replicas: self.replicas.clone() }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.controller.clone_from(&source.controller);
        self.replicas.clone_from(&source.replicas);
    }
}

impl State {
    /// The contract's initial state: no leader, epoch -1, ISR = every broker, all up and empty.
    pub fn initial(brokers: usize) -> State {
        State {
            controller: Controller {
                leader: None,
                leader_epoch: -1,
                isr: BrokerSet::first(brokers),
                live: BrokerSet::first(brokers),
                elr: BrokerSet::EMPTY,
                unclean_shutdowns: BrokerSet::EMPTY,
                last_known_elr: BrokerSet::EMPTY,
                partition_epoch: 0,
                outbox: [None; crate::scenario::MAX_BROKERS],
            },
            replicas: (0..brokers).map(|_| Replica::new()).collect(),
        }
    }

    /// The "true leader" of model §4: the controller's leader, up, believing it leads in the current epoch.
    pub fn true_leader(&self) -> Option<BrokerId> {
        let l = self.controller.leader?;
        let r = &self.replicas[l as usize];
        (r.is_acting_leader() && r.known_epoch == self.controller.leader_epoch).then_some(l)
    }

    /// A replica by id.
    pub fn replica(&self, b: BrokerId) -> &Replica {
        &self.replicas[b as usize]
    }

    /// Brokers that are up, as a set.
    pub fn up_set(&self) -> BrokerSet {
        let mut set = BrokerSet::EMPTY;
        for (i, r) in self.replicas.iter().enumerate() {
            if r.up {
                set.insert(i as BrokerId);
            }
        }
        set
    }
}
