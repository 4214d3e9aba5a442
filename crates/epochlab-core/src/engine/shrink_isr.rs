//! `shrink_isr`: the leader drops a lagging follower (replica.lag.time.max.ms passed without it catching up;
//! model §2 "ISR", §3.4 E6, TLA+ `LeaderShrinkIsr`). No epoch bump; the leader re-evaluates its HW.

use super::narrate::sentence;
use super::{reject, Reject, Sim};
use crate::kafka_error::KafkaError;
use crate::state::BrokerId;
use crate::trace::Annotation;

pub(crate) fn shrink_isr(sim: &mut Sim<'_>, f: BrokerId) -> Result<String, Reject> {
    let Some(l) = sim.state.controller.leader else {
        return reject(KafkaError::LeaderNotAvailable, "the partition has no leader to shrink the ISR");
    };
    if sim.state.true_leader() != Some(l) {
        return refuse!(
            sim,
            KafkaError::NotLeaderOrFollower,
            "{} has not taken up leadership of epoch {} yet",
            sim.name(l),
            sim.state.controller.leader_epoch
        );
    }
    let lr = sim.state.replica(l);
    let (fname, lname) = (sim.name(f), sim.name(l));
    if f == l {
        return refuse!(sim, KafkaError::InvalidRequest, "{fname} is the leader; a leader never drops itself");
    }
    if !lr.isr.contains(f) {
        return refuse!(sim, KafkaError::NotInIsr, "{fname} is not in {lname}'s ISR {}", sim.set_names(lr.isr));
    }
    if lr.remote_leo[f as usize] >= lr.leo() as i32 {
        return refuse!(
            sim,
            KafkaError::ReplicaCaughtUp,
            "{fname} has caught up with {lname}'s log end, so it is not lagging"
        );
    }
    let from = lr.isr;
    sim.state.replicas[l as usize].isr.remove(f);
    let to = sim.state.replica(l).isr;
    sim.set_controller_isr(to);
    sim.annotate(Annotation::IsrChanged { from, to, by_leader: Some(l) });
    let hw_before = sim.state.replica(l).hw;
    sim.maybe_increment_hw(l);
    let hw_after = sim.state.replica(l).hw;
    let (fname, lname) = (sim.name(f).to_string(), sim.name(l).to_string());
    let hw_note = if hw_after > hw_before {
        say!(sim, ", and without waiting for {fname} its HW advances to {hw_after}")
    } else {
        String::new()
    };
    Ok(sentence(&say!(sim,
        "{lname} drops {fname} from the ISR, now {}: {fname} has not caught up within replica.lag.time.max.ms (no epoch bump){hw_note}{}",
        sim.set_names(to),
        sim.elr_words()
    )))
}
