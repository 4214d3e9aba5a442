//! The ordering rules the model itself promises about a state (model §3.2, §3.3): what must hold after every
//! step whatever the protocol variant does. Protocol invariants that a variant may break (I1 to L1, model §4)
//! are reported by the checker, never asserted here. Debug builds (and so every test) check each step's
//! state; release builds never do.

use std::fmt;

use crate::state::{BrokerId, Controller, FetchState, Replica, Role, State};

/// A broken rule: which broker (if any) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    /// The replica the rule is about, or `None` for the controller.
    pub broker: Option<BrokerId>,
    /// The rule and the values that break it.
    pub rule: String,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.broker {
            Some(b) => write!(f, "broker #{b}: {}", self.rule),
            None => write!(f, "controller: {}", self.rule),
        }
    }
}

/// `Err` with the rule unless `holds`.
fn rule(holds: bool, broker: Option<BrokerId>, text: impl FnOnce() -> String) -> Result<(), Invalid> {
    if holds {
        Ok(())
    } else {
        Err(Invalid { broker, rule: text() })
    }
}

impl State {
    /// Check every ordering rule of the model; the first broken one is the error.
    pub fn validate(&self) -> Result<(), Invalid> {
        validate_controller(&self.controller, self.replicas.len())?;
        for (b, r) in self.replicas.iter().enumerate() {
            let b = b as BrokerId;
            validate_offsets(r, b)?;
            validate_epoch_cache(r, b, self.controller.leader_epoch)?;
            validate_role(r, b, self.replicas.len())?;
        }
        Ok(())
    }
}

fn validate_controller(c: &Controller, brokers: usize) -> Result<(), Invalid> {
    let every = crate::state::BrokerSet::first(brokers);
    rule(c.leader_epoch >= -1, None, || format!("leader epoch {} below -1", c.leader_epoch))?;
    rule(c.leader.is_none_or(|l| usize::from(l) < brokers), None, || format!("leader {:?} is no broker", c.leader))?;
    // ZooKeeper and KRaft without ELR keep the last member; with KIP-966's ELR only a leaderless ISR is empty.
    rule(!c.isr.is_empty() || c.leader.is_none(), None, || "empty ISR under a leader".to_string())?;
    rule(every.is_superset(c.isr) && every.is_superset(c.live) && every.is_superset(c.elr), None, || {
        "ISR, ELR or live set names no broker".into()
    })?;
    rule(c.isr.iter().all(|b| !c.elr.contains(b)), None, || "a broker is in both the ISR and the ELR".into())?;
    for (b, sent) in c.outbox.iter().enumerate() {
        let Some(req) = sent else { continue };
        rule(b < brokers && req.epoch <= c.leader_epoch, None, || {
            format!("LeaderAndIsr epoch {} queued for #{b} is newer than epoch {}", req.epoch, c.leader_epoch)
        })?;
    }
    Ok(())
}

fn validate_offsets(r: &Replica, b: BrokerId) -> Result<(), Invalid> {
    let (leo, hw, flushed) = (r.leo(), r.hw, r.flushed);
    rule(hw <= leo, Some(b), || format!("HW {hw} past LEO {leo}"))?;
    rule(flushed <= leo, Some(b), || format!("flushed offset {flushed} past LEO {leo}"))?;
    if r.role == Role::Leader {
        let start = r.leader_epoch_start_offset;
        rule(start <= leo, Some(b), || format!("leader epoch start offset {start} past LEO {leo}"))?;
    }
    Ok(())
}

fn validate_epoch_cache(r: &Replica, b: BrokerId, controller_epoch: i32) -> Result<(), Invalid> {
    let entries = r.epoch_cache.entries();
    let ordered = entries.windows(2).all(|w| w[0].epoch < w[1].epoch && w[0].start_offset <= w[1].start_offset);
    rule(ordered, Some(b), || format!("epoch cache not strictly increasing: {entries:?}"))?;
    // The leader-epoch-checkpoint file is written on every change: after a power loss it can name offsets
    // the log lost, until recovery trims it at restart.
    let leo = r.leo();
    let within = !r.up || entries.iter().all(|e| e.start_offset <= leo);
    rule(within, Some(b), || format!("epoch cache {entries:?} past LEO {leo}"))?;
    let stamped = entries.iter().all(|e| e.epoch >= 0 && e.epoch <= controller_epoch);
    rule(stamped, Some(b), || format!("epoch cache {entries:?} names an epoch the controller never made"))?;
    // Records are stamped with the producing leader's epoch, which came from a controller decision.
    let bad = r.log.iter().position(|e| e.epoch < 0 || e.epoch > controller_epoch);
    rule(bad.is_none(), Some(b), || format!("record at offset {bad:?} has an epoch the controller never made"))?;
    let known = r.known_epoch;
    rule(known <= controller_epoch, Some(b), || format!("knows epoch {known}, newer than {controller_epoch}"))
}

fn validate_role(r: &Replica, b: BrokerId, brokers: usize) -> Result<(), Invalid> {
    if !r.up {
        let forgot = r.role == Role::None && r.fetch_state == FetchState::Idle && !r.zombie && r.known_epoch == -1;
        rule(forgot, Some(b), || "down but remembers a role, a fetcher or zombie mode".to_string())?;
    }
    match r.role {
        Role::Leader => rule(r.known_leader == Some(b), Some(b), || "leads but names another leader".into())?,
        Role::Follower => rule(r.known_leader.is_some_and(|l| l != b), Some(b), || "follows itself or nobody".into())?,
        Role::None => rule(r.known_leader.is_none(), Some(b), || "has no role but names a leader".into())?,
    }
    rule(r.role == Role::Follower || r.fetch_state == FetchState::Idle, Some(b), || {
        "fetches but does not follow".into()
    })?;
    rule(r.role == Role::Leader || r.isr.is_empty(), Some(b), || "keeps an ISR view but does not lead".into())?;
    let remote_ok = r.remote_leo.iter().enumerate().all(|(i, &l)| l >= -1 && (l == -1 || i < brokers));
    rule(remote_ok, Some(b), || format!("follower LEOs {:?} out of range", r.remote_leo))
}
