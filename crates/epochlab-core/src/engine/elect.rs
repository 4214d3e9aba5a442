//! `elect`: a controller election with an optional candidate (model §3.4 E1). The current leader may be
//! re-elected (a new epoch). LeaderAndIsr reaches the named live brokers at once, the others later.

use super::narrate::sentence;
use super::{Reject, Sim};
use crate::kafka_error::KafkaError;
use crate::scenario::Delivery;
use crate::state::BrokerSet;

pub(crate) fn elect(sim: &mut Sim<'_>, candidate: Option<&str>, deliver: &Delivery) -> Result<String, Reject> {
    let candidate = candidate.map(|n| sim.broker(n)).transpose()?;
    let now = match deliver {
        Delivery::All => sim.state.controller.live,
        Delivery::None => BrokerSet::EMPTY,
        Delivery::Only(names) => {
            let mut set = BrokerSet::EMPTY;
            for n in names {
                set.insert(sim.broker(n)?);
            }
            set
        }
    };
    refuse_if_nobody_eligible(sim)?;
    let choice = sim.choose_leader(candidate)?;
    let mut text = sim.install_leader(choice, now);
    let undelivered: Vec<&str> = sim
        .state
        .controller
        .live
        .iter()
        .filter(|b| sim.state.controller.outbox[*b as usize].is_some())
        .map(|b| sim.name(b))
        .collect();
    if !undelivered.is_empty() {
        text.push_str(&say!(sim, "; {} will see it only when it is delivered", undelivered.join(", ")));
    }
    Ok(sentence(&text))
}

/// On a partition without a leader (offline, or never elected), an election that finds nobody eligible
/// writes nothing: Kafka's controller sends no LeaderAndIsr when the offline-partition election fails
/// (`PartitionStateMachine.doElectLeaderForPartitions`), so the epoch stays. Model §3.4 E1.
pub(crate) fn refuse_if_nobody_eligible(sim: &Sim<'_>) -> Result<(), Reject> {
    if sim.state.controller.leader.is_some() || sim.choose_leader(None)?.leader.is_some() {
        return Ok(());
    }
    let state = if sim.state.controller.leader_epoch < 0 { "has never had a leader" } else { "is offline" };
    refuse!(sim, KafkaError::EligibleLeadersNotAvailable, "the partition {state} and {}", sim.why_no_leader())
}
