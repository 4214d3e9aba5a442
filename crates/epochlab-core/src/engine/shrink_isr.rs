//! `shrink_isr`: the leader drops a lagging follower (replica.lag.time.max.ms passed without it catching up;
//! model §2 "ISR", §3.4 E6, TLA+ `LeaderShrinkIsr`). No leader epoch bump (but under KRaft before 3.6,
//! model §13.3); the leader re-evaluates its HW. A proposal of its own in flight is answered first (§13.5).

use super::kraft::PartitionChange;
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
    // A refused event changes nothing: the answer is taken back if the drop is refused.
    let before = (!sim.state.replica(l).pending_isr.is_empty()).then(|| (sim.state.clone(), sim.memory.clone()));
    let answer = sim.answer_alter_partition(l);
    match drop_follower(sim, l, f) {
        Ok(text) => Ok(sentence(&sim.after_answer(l, answer.as_ref(), text))),
        Err(refused) => {
            if let Some((state, memory)) = before {
                (sim.state, sim.memory) = (state, memory);
                sim.annotations.clear();
            }
            Err(refused)
        }
    }
}

/// The leader drops `f`, once any AlterPartition of its own has been answered.
fn drop_follower(sim: &mut Sim<'_>, l: BrokerId, f: BrokerId) -> Result<String, Reject> {
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
    let bumped = sim.write_partition(PartitionChange::ShrinkByLeader);
    sim.annotate(Annotation::IsrChanged { from, to, by_leader: Some(l) });
    if bumped {
        return Ok(shrink_with_new_epoch(sim, l, f, to));
    }
    let hw_before = sim.state.replica(l).hw;
    sim.maybe_increment_hw(l);
    let hw_after = sim.state.replica(l).hw;
    let (fname, lname) = (sim.name(f).to_string(), sim.name(l).to_string());
    let hw_note = if hw_after > hw_before {
        say!(sim, ", and without waiting for {fname} its HW advances to {hw_after}")
    } else {
        String::new()
    };
    let how = if sim.kraft() { "; the controller keeps the leader epoch (KAFKA-15021)" } else { " (no epoch bump)" };
    Ok(say!(sim,
        "{lname} drops {fname} from the ISR, now {}: {fname} has not caught up within replica.lag.time.max.ms{how}{hw_note}{}",
        sim.set_names(to),
        sim.elr_words()
    ))
}

/// KRaft before metadata version 3.6-IV0: the controller writes the leader's AlterPartition shrink with a
/// new leader epoch (`PartitionChangeBuilder.java@3.5.0` L246-271), which every broker then replays.
fn shrink_with_new_epoch(sim: &mut Sim<'_>, l: BrokerId, f: BrokerId, to: crate::state::BrokerSet) -> String {
    let everyone = sim.state.controller.live;
    let notes = sim.send_leader_and_isr(everyone);
    let head = say!(sim,
        "{} drops {} from the ISR, now {}: it has not caught up within replica.lag.time.max.ms; KRaft before metadata version 3.6 writes every ISR shrink with a new leader epoch (KAFKA-15021), so the controller's record carries {}",
        sim.name(l),
        sim.name(f),
        sim.set_names(to),
        sim.epochs_words()
    );
    super::controller::join_clauses(head, notes)
}
