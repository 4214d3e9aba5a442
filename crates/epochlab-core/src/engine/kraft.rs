//! What the controller does differently under KRaft (model §13): the partition epoch every change of the
//! partition's record raises, the leader epoch an ISR change no longer raises (KAFKA-15021), the last known
//! leader (KIP-966), and the words each mode uses for the same moments.

use super::Sim;
use crate::state::{BrokerId, BrokerSet, LeaderAndIsr, Role};
use crate::trace::Annotation;

impl Sim<'_> {
    /// A broker replays a change of the partition that kept its leader and leader epoch (KRaft, model
    /// §13.3): the leader takes the new ISR and re-evaluates its HW; a follower has nothing to do.
    pub(crate) fn replay_isr_change(&mut self, b: BrokerId, req: LeaderAndIsr) -> String {
        let r = &mut self.state.replicas[b as usize];
        if r.role != Role::Leader {
            return String::new();
        }
        // Any update of the partition's record ends a proposal in flight (`Partition.scala@3.7.0` L984-990).
        r.pending_isr = BrokerSet::EMPTY;
        if r.isr == req.isr {
            return String::new();
        }
        r.isr = req.isr;
        self.annotate(Annotation::LeaderAndIsrApplied { broker: b, leader: req.leader, epoch: req.epoch });
        let hw = self.state.replica(b).hw;
        self.maybe_increment_hw(b);
        let now = self.state.replica(b).hw;
        let raised = if now > hw { say!(self, ", and its HW advances to {now}") } else { String::new() };
        say!(
            self,
            "{} replays the PartitionChangeRecord and leads with ISR {} in the same leader epoch {}{raised}",
            self.name(b),
            self.set_names(req.isr),
            req.epoch
        )
    }

    /// Whether the cluster runs KRaft.
    pub(crate) fn kraft(&self) -> bool {
        self.protocol.rules.control.kraft()
    }

    /// The controller writes a change of the partition: KRaft raises the partition epoch every time
    /// (`PartitionRegistration.merge`), and the leader epoch for an election or an ISR shrink that must
    /// raise it ([`crate::variant::ControlPlane`]). Returns whether the leader epoch rose.
    pub(crate) fn write_partition(&mut self, change: PartitionChange) -> bool {
        let control = &self.protocol.rules.control;
        let bump_leader_epoch = match change {
            PartitionChange::Election => true,
            PartitionChange::ShrinkByController => control.controller_shrink_bumps_leader_epoch,
            PartitionChange::ShrinkByLeader => control.leader_shrink_bumps_leader_epoch,
            PartitionChange::WithoutLeaderEpoch => false,
        };
        let kraft = self.kraft();
        let c = &mut self.state.controller;
        // The first election stands for the partition's creation, whose record starts both epochs at 0.
        if kraft && c.leader_epoch >= 0 {
            c.partition_epoch += 1;
        }
        if bump_leader_epoch {
            c.leader_epoch += 1;
        }
        bump_leader_epoch
    }

    /// KIP-966 under KRaft with ELR: the change that empties the ISR remembers the leader of the time
    /// (`lastKnownElr`, `PartitionChangeBuilder.maybeUpdateLastKnownLeader`, `@trunk` L496-507); a leader
    /// elected, or an ISR back at min ISR (`maybePopulateTargetElr` L539-570), forgets it.
    pub(crate) fn remember_last_known_leader(&mut self, isr_before: BrokerSet) {
        if !self.protocol.rules.control.last_known_leader {
            return;
        }
        let min_isr = usize::from(self.scenario.config.min_insync_replicas);
        let c = &mut self.state.controller;
        if c.isr.is_empty() && !isr_before.is_empty() {
            c.last_known_elr = c.leader.map_or(BrokerSet::EMPTY, BrokerSet::only);
        } else if c.isr.len() >= min_isr {
            c.last_known_elr = BrokerSet::EMPTY;
        }
    }

    /// A leader elected: KIP-966 forgets the last known leader.
    pub(crate) fn forget_last_known_leader(&mut self) {
        if self.state.controller.leader.is_some() {
            self.state.controller.last_known_elr = BrokerSet::EMPTY;
        }
    }

    /// The last known leader that may be elected now: ISR and ELR empty, the member live (unfenced).
    pub(crate) fn last_known_leader(&self) -> Option<BrokerId> {
        let c = &self.state.controller;
        if !self.protocol.rules.control.last_known_leader || !c.isr.is_empty() || !c.elr.is_empty() {
            return None;
        }
        c.last_known_elr.iter().find(|b| c.live.contains(*b))
    }

    /// "leader epoch 2" or, under KRaft, "leader epoch 2, partition epoch 5".
    pub(crate) fn epochs_words(&self) -> String {
        let c = &self.state.controller;
        if self.kraft() {
            say!(self, "leader epoch {}, partition epoch {}", c.leader_epoch, c.partition_epoch)
        } else {
            say!(self, "epoch {}", c.leader_epoch)
        }
    }

    /// " (partition epoch 5)" under KRaft.
    pub(crate) fn partition_epoch_note(&self) -> String {
        if self.kraft() {
            say!(self, " (partition epoch {})", self.state.controller.partition_epoch)
        } else {
            String::new()
        }
    }

    /// " (KRaft keeps the leader epoch …, KAFKA-15021)" where that decided a controller's shrink.
    pub(crate) fn no_bump_words(&self) -> &'static str {
        if self.kraft() && !self.protocol.rules.control.controller_shrink_bumps_leader_epoch {
            " (KRaft keeps the leader epoch when only the ISR changes, KAFKA-15021)"
        } else {
            ""
        }
    }

    /// How the controller learns that a broker is gone, in the mode's words.
    pub(crate) fn notices_words(&self) -> &'static str {
        if self.kraft() {
            "its heartbeats stop, and once broker.session.timeout.ms passes the controller fences it"
        } else {
            "the controller notices"
        }
    }

    /// How a request of the controller reaches a broker: LeaderAndIsr, or a partition record the broker
    /// replays from the metadata log.
    pub(crate) fn request_words(&self) -> &'static str {
        if self.kraft() {
            "PartitionChangeRecord"
        } else {
            "LeaderAndIsr"
        }
    }
}

/// What kind of change of the partition the controller writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PartitionChange {
    /// A new leader (or none): the leader epoch always rises.
    Election,
    /// The controller takes a broker out of the ISR (it failed, or registered after an unclean shutdown).
    ShrinkByController,
    /// The leader takes a lagging follower out of the ISR (AlterPartition, or ZooKeeper's conditional write).
    ShrinkByLeader,
    /// The leader adds a follower to the ISR, or only the ELR changes.
    WithoutLeaderEpoch,
}
