//! `elect`: a controller election with an optional candidate (spec §3.4 E1). The current leader may be
//! re-elected (a new epoch). LeaderAndIsr reaches the named live brokers at once, the others later.

use super::narrate::sentence;
use super::{Reject, Sim};
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
        text.push_str(&format!("; {} will see it only when it is delivered", undelivered.join(", ")));
    }
    Ok(sentence(&text))
}
