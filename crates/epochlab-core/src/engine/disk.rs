//! `checkpoint_hw` (model §3.4 E10, `replication-offset-checkpoint`) and `flush` (E11).

use super::narrate::sentence;
use super::{Reject, Sim};
use crate::kafka_error::KafkaError;
use crate::state::BrokerId;

pub(crate) fn checkpoint_hw(sim: &mut Sim<'_>, b: BrokerId) -> Result<String, Reject> {
    if !sim.state.replica(b).up {
        return refuse!(sim, KafkaError::BrokerNotAvailable, "{} is down", sim.name(b));
    }
    let r = &mut sim.state.replicas[b as usize];
    let before = r.hw_checkpoint;
    r.hw_checkpoint = r.hw;
    let hw = r.hw;
    Ok(sentence(&say!(
        sim,
        "{} writes HW {hw} to its replication-offset-checkpoint (was {before}); a restart will recover at most this",
        sim.name(b)
    )))
}

pub(crate) fn flush(sim: &mut Sim<'_>, b: BrokerId) -> Result<String, Reject> {
    if !sim.state.replica(b).up {
        return refuse!(sim, KafkaError::BrokerNotAvailable, "{} is down", sim.name(b));
    }
    let r = &mut sim.state.replicas[b as usize];
    let before = r.flushed;
    r.flushed = r.leo();
    let leo = r.leo();
    Ok(sentence(&say!(
        sim,
        "{} flushes its log to disk up to offset {leo} (was {before}); these records now survive a power loss",
        sim.name(b)
    )))
}
