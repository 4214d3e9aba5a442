//! `produce` (model §2 "acks / min.insync.replicas", §3.4 E3) and `consume` (E12).
//!
//! A broker that merely believes it leads accepts writes (TLA+ `LeaderWrite`): that is how a stale leader
//! creates records that later diverge.

use super::narrate::sentence;
use super::{reject, PendingAck, Reject, Sim};
use crate::kafka_error::KafkaError;
use crate::scenario::Acks;
use crate::state::{BrokerId, Entry, Role};
use crate::trace::{Annotation, ProduceResult};

/// The broker a client talks to: the named one, or the controller's leader.
fn target(sim: &Sim<'_>, broker: Option<&str>) -> Result<BrokerId, Reject> {
    let b = match broker {
        Some(name) => sim.broker(name)?,
        None => match sim.state.controller.leader {
            Some(l) => l,
            None => return reject(KafkaError::LeaderNotAvailable, "the partition has no leader"),
        },
    };
    let r = sim.state.replica(b);
    if !r.up {
        return refuse!(sim, KafkaError::BrokerNotAvailable, "{} is down", sim.name(b));
    }
    if r.role != Role::Leader {
        return refuse!(
            sim,
            KafkaError::NotLeaderOrFollower,
            "{} does not believe it leads the partition",
            sim.name(b)
        );
    }
    Ok(b)
}

pub(crate) fn produce(
    sim: &mut Sim<'_>,
    label: Option<&str>,
    acks: Acks,
    broker: Option<&str>,
) -> Result<String, Reject> {
    let p = target(sim, broker)?;
    let (isr, epoch) = {
        let r = sim.state.replica(p);
        (r.isr, r.known_epoch)
    };
    let min_isr = usize::from(sim.scenario.config.min_insync_replicas);
    if acks == Acks::All && isr.len() < min_isr {
        return refuse!(
            sim,
            KafkaError::NotEnoughReplicas,
            "{}'s ISR {} has fewer than min.insync.replicas = {min_isr} members",
            sim.name(p),
            sim.set_names(isr)
        );
    }
    let id = sim.new_record(label, epoch, p, acks);
    let offset = sim.state.replica(p).leo();
    sim.append(p, &[Entry { id, epoch }]);
    if acks == Acks::All {
        sim.memory.pending_acks.push(PendingAck { record: id, offset, leader: p });
    }
    sim.maybe_increment_hw(p);
    let name = sim.name(p).to_string();
    let label = sim.label(id).to_string();
    let head = say!(sim, "{name} appends {label} at offset {offset} in epoch {epoch}");
    let tail = match acks {
        Acks::Zero => {
            sim.annotate(Annotation::Produced { record: id, result: ProduceResult::NotAcked });
            "; with acks=0 the producer never learns whether it stuck".to_string()
        }
        Acks::One => {
            sim.memory.history.record_ack(id, offset, Acks::One, sim.step);
            sim.annotate(Annotation::Produced { record: id, result: ProduceResult::Acked });
            "; acks=1 acknowledges it at once, before any follower has it".to_string()
        }
        Acks::All => {
            if sim.memory.pending_acks.iter().any(|a| a.record == id) {
                sim.annotate(Annotation::Produced { record: id, result: ProduceResult::Pending });
                say!(
                    sim,
                    "; acks=all waits until the HW passes it, which needs every ISR member of {} to fetch it",
                    sim.set_names(isr)
                )
            } else {
                say!(
                    sim,
                    "; {name} is the only ISR member, so the HW passes it at once and it is committed and acknowledged"
                )
            }
        }
    };
    if sim.quiet {
        return Ok(String::new());
    }
    Ok(sentence(&(head + &tail)))
}

pub(crate) fn consume(sim: &mut Sim<'_>, broker: Option<&str>) -> Result<String, Reject> {
    let b = target(sim, broker)?;
    let r = sim.state.replica(b);
    let seen: Vec<(u32, u32)> = r.log.iter().take(r.hw as usize).enumerate().map(|(o, e)| (o as u32, e.id)).collect();
    let hw = r.hw;
    for &(offset, id) in &seen {
        sim.memory.history.record_seen(offset, id, sim.step);
    }
    let ids: Vec<u32> = seen.iter().map(|s| s.1).collect();
    sim.annotate(Annotation::Consumed { broker: b, records: ids.clone() });
    let what = if ids.is_empty() { "nothing".to_string() } else { sim.labels(&ids) };
    Ok(sentence(&say!(
        sim,
        "a consumer reads {what} from {}: everything below its HW {hw}, which is all a consumer may see",
        sim.name(b)
    )))
}
