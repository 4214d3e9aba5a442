//! `restart`: log recovery, then the controller brings the broker back (model §3.4 E9).
//!
//! Recovery keeps what survived on disk, drops epoch-cache entries at or past the LEO, and restores the HW
//! from the checkpoint: `min(persisted HW, LEO)`. That checkpoint may be a fetch or more behind, which is why
//! a restarted replica's HW is stale.

use super::controller::join_clauses;
use super::kraft::PartitionChange;
use super::narrate::sentence;
use super::{Reject, Sim};
use crate::kafka_error::KafkaError;
use crate::state::{BrokerId, BrokerSet};
use crate::trace::Annotation;

pub(crate) fn restart(sim: &mut Sim<'_>, b: BrokerId, deliver: bool) -> Result<String, Reject> {
    if sim.state.replica(b).up {
        return refuse!(sim, KafkaError::BrokerAlreadyUp, "{} is already running", sim.name(b));
    }
    let r = &mut sim.state.replicas[b as usize];
    r.up = true;
    let leo = r.leo();
    r.flushed = r.flushed.min(leo);
    r.epoch_cache.truncate_from_end(leo);
    r.hw = r.hw_checkpoint.min(leo);
    let hw = r.hw;
    let unclean = sim.state.controller.unclean_shutdowns.contains(b);
    sim.state.controller.unclean_shutdowns.remove(b);
    sim.annotate(Annotation::Restarted { broker: b });
    let name = sim.name(b).to_string();
    let head = say!(sim, "{name} restarts with LEO {leo} and recovers HW {hw} from its checkpoint");
    let bounce = notice_bounce(sim, b);
    let was_dead = !sim.state.controller.live.contains(b);
    sim.state.controller.live.insert(b);
    let registration = format!("{bounce}{}", drop_from_elr(sim, b, unclean));
    let mut stays_offline = String::new();
    if sim.state.controller.leader.is_none() && sim.state.controller.leader_epoch >= 0 {
        match rejoin_offline(sim)? {
            Ok(election) => {
                return Ok(sentence(&say!(sim, "{head}{registration}; the partition was offline, so {election}")))
            }
            Err(why) => stays_offline = why,
        }
    }
    let current = sim.state.controller.current();
    sim.state.controller.outbox[b as usize] = Some(current);
    let now = if deliver { BrokerSet::only(b) } else { BrokerSet::EMPTY };
    let notes = if current.epoch < 0 { Vec::new() } else { deliveries(sim, b, now) };
    let controller = comes_back_words(sim.kraft(), was_dead, bounce.is_empty());
    let held = if deliver || current.epoch < 0 {
        String::new()
    } else if sim.kraft() {
        "; it has not replayed the partition's latest record yet (held back until delivered)".to_string()
    } else {
        "; its LeaderAndIsr is held back until delivered".to_string()
    };
    if current.epoch < 0 {
        sim.state.controller.outbox[b as usize] = None;
    }
    Ok(sentence(&join_clauses(say!(sim, "{head}{registration}{controller}{stays_offline}{held}"), notes)))
}

/// How the controller takes the broker back, in the mode's words: ZooKeeper marks it live; KRaft registers
/// it and unfences it once it has caught up with the metadata log (model §13.2).
fn comes_back_words(kraft: bool, was_dead: bool, no_bounce: bool) -> &'static str {
    match (kraft, was_dead, no_bounce) {
        (false, true, true) => "; the controller marks it live",
        (false, true, false) => ", and marks it live",
        (false, false, _) => UNNOTICED,
        (true, _, true) => "; it registers with a new broker epoch, and the controller unfences it once it has caught up with the metadata log",
        (true, _, false) => ", and unfences it once it has caught up with the metadata log",
    }
}

/// What the restart of a broker the controller never saw go down stands for (model §12.6).
const UNNOTICED: &str = "; the controller never noticed it was gone: a bounce faster than ZooKeeper's session timeout, which Kafka before 2.2 did not detect (0.10.2 would not even let it register again until the old session expired)";

/// The offline partition's election once the broker is back (`Ok(Ok(words))`), or why it stays offline.
fn rejoin_offline(sim: &mut Sim<'_>) -> Result<Result<String, String>, Reject> {
    let choice = sim.choose_leader(None)?;
    if choice.leader.is_some() {
        let everyone = sim.state.controller.live;
        return Ok(Ok(sim.install_leader(choice, everyone)));
    }
    // Model §3.4 E1: the offline-partition election finds nobody, so the controller writes nothing.
    Ok(Err(say!(sim,
        "; the partition stays offline: the election finds no eligible leader ({}, ELIGIBLE_LEADERS_NOT_AVAILABLE), so the epoch stays {}",
        sim.why_no_leader(),
        sim.state.controller.leader_epoch
    )))
}

/// KIP-380 (2.2): a broker that registers with a new broker epoch while the controller still counts it live
/// has bounced; the controller handles it as a failure first (`onBrokerFailure`, then `onBrokerStartup`).
fn notice_bounce(sim: &mut Sim<'_>, b: BrokerId) -> String {
    if !sim.protocol.rules.notices_bounce || !sim.state.controller.live.contains(b) {
        return String::new();
    }
    let reaction = sim.controller_on_failure(b);
    let what = reaction.map(|r| say!(sim, ": {r}")).unwrap_or_default();
    if sim.kraft() {
        return say!(sim, "; it registers again with a new incarnation before its old session expired, so the KRaft controller fences the old registration first and handles it as a failure{what}");
    }
    say!(sim, "; it registers with a new broker epoch, so the controller notices it bounced (KIP-380, Kafka 2.2 and later) and handles the failure first{what}")
}

/// KIP-966: a broker registering after an unclean shutdown (no clean-shutdown file) leaves the ELR and
/// the ISR (`ReplicationControlManager.handleBrokerUncleanShutdown`).
fn drop_from_elr(sim: &mut Sim<'_>, b: BrokerId, unclean: bool) -> String {
    let c = &sim.state.controller;
    if !sim.protocol.rules.elr || !unclean || !(c.elr.contains(b) || c.isr.contains(b)) {
        return String::new();
    }
    let set = if c.elr.contains(b) { "Eligible Leader Replicas" } else { "ISR" };
    let head = say!(sim, "; it shut down uncleanly, so on registering it is removed from the {set} (KIP-966): it may have lost committed records");
    sim.state.controller.elr.remove(b);
    let from = sim.state.controller.isr;
    if !from.contains(b) {
        sim.write_partition(PartitionChange::WithoutLeaderEpoch);
        return head;
    }
    let to = BrokerSet::from_bits(from.bits() & !(1 << b));
    sim.state.controller.isr = to;
    sim.remember_last_known_leader(from);
    sim.write_partition(PartitionChange::ShrinkByController);
    sim.annotate(Annotation::IsrChanged { from, to, by_leader: None });
    let others = BrokerSet::from_bits(sim.state.controller.live.bits() & !(1 << b));
    let notes = sim.send_leader_and_isr(others);
    join_clauses(head, notes)
}
fn deliveries(sim: &mut Sim<'_>, b: BrokerId, now: BrokerSet) -> Vec<String> {
    if now.contains(b) {
        vec![sim.apply_leader_and_isr(b)]
    } else {
        Vec::new()
    }
}
