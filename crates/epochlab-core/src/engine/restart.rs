//! `restart`: log recovery, then the controller brings the broker back (model §3.4 E9).
//!
//! Recovery keeps what survived on disk, drops epoch-cache entries at or past the LEO, and restores the HW
//! from the checkpoint: `min(persisted HW, LEO)`. That checkpoint may be a fetch or more behind, which is why
//! a restarted replica's HW is stale.

use super::controller::join_clauses;
use super::narrate::sentence;
use super::{Reject, Sim};
use crate::state::{BrokerId, BrokerSet};
use crate::trace::Annotation;

pub(crate) fn restart(sim: &mut Sim<'_>, b: BrokerId, deliver: bool) -> Result<String, Reject> {
    if sim.state.replica(b).up {
        return refuse!(sim, "BROKER_ALREADY_UP", "{} is already running", sim.name(b));
    }
    let r = &mut sim.state.replicas[b as usize];
    r.up = true;
    let leo = r.leo();
    r.flushed = r.flushed.min(leo);
    r.epoch_cache.truncate_from_end(leo);
    r.hw = r.hw_checkpoint.min(leo);
    let hw = r.hw;
    sim.annotate(Annotation::Restarted { broker: b });
    let name = sim.name(b).to_string();
    let head = say!(sim, "{name} restarts with LEO {leo} and recovers HW {hw} from its checkpoint");

    let was_dead = !sim.state.controller.live.contains(b);
    sim.state.controller.live.insert(b);
    let mut stays_offline = String::new();
    if sim.state.controller.leader.is_none() && sim.state.controller.leader_epoch >= 0 {
        let choice = sim.choose_leader(None)?;
        if choice.leader.is_some() {
            let everyone = sim.state.controller.live;
            let election = sim.install_leader(choice, everyone);
            return Ok(sentence(&say!(sim, "{head}; the partition was offline, so {election}")));
        }
        // Model §3.4 E1: the offline-partition election finds nobody, so the controller writes nothing.
        stays_offline = say!(sim,
            "; the partition stays offline: the election finds no eligible leader ({}, ELIGIBLE_LEADERS_NOT_AVAILABLE), so the epoch stays {}",
            sim.why_no_leader(),
            sim.state.controller.leader_epoch
        );
    }
    let current = sim.state.controller.current();
    sim.state.controller.outbox[b as usize] = Some(current);
    let now = if deliver { BrokerSet::only(b) } else { BrokerSet::EMPTY };
    let notes = if current.epoch < 0 { Vec::new() } else { deliveries(sim, b, now) };
    let controller = if was_dead { "the controller marks it live" } else { "the controller never noticed it was gone" };
    let held = if deliver || current.epoch < 0 {
        String::new()
    } else {
        "; its LeaderAndIsr is held back until delivered".to_string()
    };
    if current.epoch < 0 {
        sim.state.controller.outbox[b as usize] = None;
    }
    Ok(sentence(&join_clauses(say!(sim, "{head}; {controller}{stays_offline}{held}"), notes)))
}

fn deliveries(sim: &mut Sim<'_>, b: BrokerId, now: BrokerSet) -> Vec<String> {
    if now.contains(b) {
        vec![sim.apply_leader_and_isr(b)]
    } else {
        Vec::new()
    }
}
