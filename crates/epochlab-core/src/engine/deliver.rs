//! `deliver` (a held-back LeaderAndIsr finally arrives, model §3.4 E2) and `zombie` (KAFKA-6880, model §3.6).

use super::narrate::sentence;
use super::{Reject, Sim};
use crate::kafka_error::KafkaError;
use crate::state::BrokerId;

pub(crate) fn deliver(sim: &mut Sim<'_>, b: BrokerId) -> Result<String, Reject> {
    let r = sim.state.replica(b);
    if !r.up {
        return refuse!(sim, KafkaError::BrokerNotAvailable, "{} is down", sim.name(b));
    }
    if r.zombie {
        return refuse!(sim, KafkaError::Zombie, "{} is a zombie and ignores the controller", sim.name(b));
    }
    if sim.state.controller.outbox[b as usize].is_none() {
        return refuse!(sim, KafkaError::NoPendingRequest, "no {} is waiting for {}", sim.request_words(), sim.name(b));
    }
    Ok(sentence(&sim.apply_leader_and_isr(b)))
}

pub(crate) fn zombie(sim: &mut Sim<'_>, b: BrokerId) -> Result<String, Reject> {
    let r = sim.state.replica(b);
    if !r.up {
        return refuse!(sim, KafkaError::BrokerNotAvailable, "{} is down", sim.name(b));
    }
    if r.zombie {
        return refuse!(sim, KafkaError::AlreadyZombie, "{} is already a zombie", sim.name(b));
    }
    let leader = r.known_leader.map_or("nobody".to_string(), |l| sim.name(l).to_string());
    sim.state.replicas[b as usize].zombie = true;
    Ok(sentence(&say!(sim,
        "{} turns zombie (KAFKA-6880): it ignores every LeaderAndIsr from now on but keeps fetching from {leader}, the leader it last knew",
        sim.name(b)
    )))
}
