//! `crash` (model §3.4 E7) and `shutdown` (E8).
//!
//! A crash loses all in-memory state; a power crash also loses the unflushed tail of the log. When the
//! controller notices, it re-elects if the broker led, or removes it from the ISR. A controlled shutdown is a
//! crash after flushing and checkpointing, with the controller told at once.

use super::narrate::sentence;
use super::{Reject, Sim};
use crate::kafka_error::KafkaError;
use crate::state::BrokerId;
use crate::trace::{Annotation, TruncateCause};

pub(crate) fn crash(sim: &mut Sim<'_>, b: BrokerId, power: bool, notify: bool) -> Result<String, Reject> {
    if !sim.state.replica(b).up {
        return refuse!(sim, KafkaError::BrokerNotAvailable, "{} is already down", sim.name(b));
    }
    let flushed = sim.state.replica(b).flushed;
    let lost = power.then(|| {
        let removed = lose_unflushed(sim, b, flushed);
        let isr = sim.state.controller.isr;
        sim.memory.history.record_power_crash(b, isr, sim.step);
        removed
    });
    sim.annotate(Annotation::Crashed { broker: b, power });
    sim.lose_memory(b);
    // Only KIP-966 reads it (at registration): without ELR the mark would split states that behave alike.
    if sim.protocol.rules.elr {
        sim.state.controller.unclean_shutdowns.insert(b);
    }
    let reaction = if notify { Some(sim.controller_on_failure(b)) } else { None };
    if sim.quiet {
        return Ok(String::new());
    }
    Ok(sentence(&crash_narration(sim, b, lost.as_deref().map(|r| (r, flushed)), reaction)))
}

/// What a crash did: `lost` the records past the flushed offset (a power crash), `reaction` the
/// controller's if it noticed (and what it did, if anything).
fn crash_narration(
    sim: &Sim<'_>,
    b: BrokerId,
    lost: Option<(&[u32], u32)>,
    reaction: Option<Option<String>>,
) -> String {
    let name = sim.name(b);
    let mut text = match lost {
        Some(([], _)) => {
            format!("{name} loses power; every record was flushed, so its log survives")
        }
        Some((removed, flushed)) => {
            let were = if removed.len() == 1 { "was" } else { "were" };
            format!(
                "{name} loses power and with it {}, which {were} past its flushed offset {flushed}",
                sim.labels(removed)
            )
        }
        None => format!("{name}'s process crashes; the page cache keeps its whole log"),
    };
    text.push_str(&format!(
        "; its in-memory state is gone and on restart its HW will be the checkpointed {}",
        sim.state.replica(b).hw
    ));
    let notices = sim.notices_words();
    text.push_str(&match (reaction, sim.kraft()) {
        (Some(Some(reaction)), _) => format!("; {notices}: {reaction}"),
        (Some(None), false) => "; the controller notices and marks it dead".to_string(),
        (Some(None), true) => format!("; {notices}"),
        (None, false) => "; the controller has not noticed yet, so the ISR and epoch stay as they were".to_string(),
        (None, true) => "; its session has not expired yet (broker.session.timeout.ms), so the controller has not fenced it and the ISR and epochs stay as they were".to_string(),
    });
    text
}

/// The power-loss cut: the log keeps what was flushed. The epoch cache file is written synchronously, so it
/// survives as it was; log recovery at restart trims it.
fn lose_unflushed(sim: &mut Sim<'_>, b: BrokerId, flushed: u32) -> Vec<u32> {
    let r = &mut sim.state.replicas[b as usize];
    if flushed >= r.leo() {
        return Vec::new();
    }
    let removed: Vec<u32> = r.log[flushed as usize..].iter().map(|e| e.id).collect();
    std::sync::Arc::make_mut(&mut r.log).truncate(flushed as usize);
    r.hw = r.hw.min(flushed);
    sim.annotate(Annotation::Truncated {
        broker: b,
        to: flushed,
        removed: removed.clone(),
        cause: TruncateCause::PowerLoss,
    });
    removed
}

pub(crate) fn shutdown(sim: &mut Sim<'_>, b: BrokerId) -> Result<String, Reject> {
    if !sim.state.replica(b).up {
        return refuse!(sim, KafkaError::BrokerNotAvailable, "{} is already down", sim.name(b));
    }
    let r = &mut sim.state.replicas[b as usize];
    r.flushed = r.leo();
    r.hw_checkpoint = r.hw;
    let hw = r.hw;
    sim.state.controller.unclean_shutdowns.remove(b);
    sim.lose_memory(b);
    let name = sim.name(b).to_string();
    let reaction = sim.controller_on_failure(b).map(|t| say!(sim, "; {t}")).unwrap_or_default();
    Ok(sentence(&say!(
        sim,
        "{name} shuts down cleanly: it flushes its log and checkpoints its HW {hw}, then goes down{reaction}"
    )))
}
