//! The controller's decisions (model §2 "Unclean leader election", §3.4 E1, E7) and how a broker applies the
//! LeaderAndIsr they send (E2): becoming leader never truncates; becoming follower applies the variant's rule.

use super::kraft::PartitionChange;
use super::narrate::list_names;
use super::{reject, Reject, Sim};
use crate::kafka_error::KafkaError;
use crate::state::{BrokerId, BrokerSet, FetchState, LeaderAndIsr, Role};
use crate::trace::{Annotation, TruncateCause};
use crate::variant::{BecomeFollowerRule, Downgrade};

/// The controller's choice of leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Choice {
    pub(crate) leader: Option<BrokerId>,
    pub(crate) unclean: bool,
    /// Chosen from KIP-966's Eligible Leader Replicas (the ISR was empty).
    pub(crate) from_elr: bool,
    /// KIP-966 under KRaft: the last known leader, elected uncleanly whatever the unclean setting says.
    pub(crate) last_known: bool,
}

impl Choice {
    fn clean(leader: Option<BrokerId>, from_elr: bool) -> Choice {
        Choice { leader, unclean: false, from_elr, last_known: false }
    }

    fn unclean(leader: Option<BrokerId>) -> Choice {
        Choice { leader, unclean: leader.is_some(), from_elr: false, last_known: false }
    }

    fn last_known(leader: BrokerId) -> Choice {
        Choice { leader: Some(leader), unclean: true, from_elr: false, last_known: true }
    }
}

impl Sim<'_> {
    /// The members that may lead cleanly: the ISR, or with KIP-966 and an empty ISR the ELR.
    fn eligible(&self) -> (BrokerSet, bool) {
        let c = &self.state.controller;
        match self.protocol.rules.elr && c.isr.is_empty() {
            true => (c.elr, true),
            false => (c.isr, false),
        }
    }

    /// Choose a leader: a named candidate must be live and eligible (or, with no live eligible member and
    /// unclean election enabled, any live broker); without a candidate, the first live eligible member in
    /// assignment order, else the first live broker if unclean election is enabled, else none (offline).
    pub(crate) fn choose_leader(&self, candidate: Option<BrokerId>) -> Result<Choice, Reject> {
        let c = &self.state.controller;
        let (eligible, from_elr) = self.eligible();
        let clean = eligible.iter().find(|b| c.live.contains(*b));
        let unclean_ok = self.protocol.rules.unclean_leader_election;
        let last_known = self.last_known_leader();
        match candidate {
            Some(b) if !c.live.contains(b) => {
                refuse!(self, KafkaError::BrokerNotAvailable, "the controller sees {} as dead", self.name(b))
            }
            Some(b) if eligible.contains(b) => Ok(Choice::clean(Some(b), from_elr)),
            Some(b) if clean.is_none() && last_known == Some(b) => Ok(Choice::last_known(b)),
            Some(b) if clean.is_none() && unclean_ok => Ok(Choice::unclean(Some(b))),
            Some(b) => reject(
                KafkaError::EligibleLeadersNotAvailable,
                if clean.is_some() {
                    say!(self, "{} is not in the {} {}", self.name(b), self.eligible_name(), self.set_names(eligible))
                } else {
                    say!(
                        self,
                        "{} is not in the {} {} and unclean leader election is disabled",
                        self.name(b),
                        self.eligible_name(),
                        self.set_names(eligible)
                    )
                },
            ),
            None => Ok(match (clean, last_known) {
                (Some(b), _) => Choice::clean(Some(b), from_elr),
                (None, Some(b)) => Choice::last_known(b),
                (None, None) if unclean_ok => Choice::unclean(c.live.iter().next()),
                (None, None) => Choice::clean(None, false),
            }),
        }
    }

    fn eligible_name(&self) -> &'static str {
        if self.eligible().1 {
            "ELR"
        } else {
            "ISR"
        }
    }

    /// Why the controller found no leader, in words true to the configuration and the state.
    pub(crate) fn why_no_leader(&self) -> String {
        let c = &self.state.controller;
        let (eligible, from_elr) = self.eligible();
        let members = if from_elr {
            say!(self, "the ISR is empty and no live member of the ELR {}", self.set_names(eligible))
        } else {
            say!(self, "no live ISR member of {}", self.set_names(eligible))
        };
        if c.live.is_empty() {
            "no broker is live".to_string()
        } else if self.protocol.rules.unclean_leader_election {
            say!(self, "no live broker can lead (live: {})", self.set_names(c.live))
        } else if self.protocol.rules.control.unclean_setting_ignored {
            say!(self, "{members}, and KRaft before 3.9 never elects uncleanly by itself: unclean.leader.election.enable is on but ignored (KAFKA-12670)")
        } else {
            say!(self, "{members} and unclean election is disabled{}", self.unclean_default_note())
        }
    }

    /// ", as Kafka 0.11.0 does by default" when the release's default decided the unclean setting.
    pub(crate) fn unclean_default_note(&self) -> String {
        match self.protocol.rules.line.filter(|_| self.protocol.rules.unclean_by_default) {
            Some(line) => say!(self, " (Kafka {}'s default)", line.label()),
            None => String::new(),
        }
    }

    /// Write the choice (epoch + 1), enqueue LeaderAndIsr for every live broker, deliver at once to `now`.
    /// Returns the narration of the election and of each delivery.
    pub(crate) fn install_leader(&mut self, choice: Choice, now: BrokerSet) -> String {
        self.write_partition(PartitionChange::Election);
        let c = &mut self.state.controller;
        c.leader = choice.leader;
        if let Some(l) = choice.leader.filter(|_| choice.unclean || choice.from_elr) {
            // An unclean election clears the ELR; one from the ELR makes the leader the ISR and leaves the
            // rest (`PartitionChangeBuilder.tryElection`, `maybeUpdateRecordElr`).
            c.isr = BrokerSet::only(l);
            c.elr = if choice.unclean { BrokerSet::EMPTY } else { BrokerSet::from_bits(c.elr.bits() & !(1 << l)) };
        }
        let (epoch, isr) = (c.leader_epoch, c.isr);
        self.forget_last_known_leader();
        if choice.unclean {
            self.memory.history.record_unclean(self.step);
        }
        self.annotate(Annotation::Elected { leader: choice.leader, epoch, unclean: choice.unclean, isr });
        let head = self.election_words(choice, epoch, isr);
        let deliveries = self.send_leader_and_isr(now);
        join_clauses(head, deliveries)
    }

    fn election_words(&self, choice: Choice, epoch: i32, isr: BrokerSet) -> String {
        let pe = self.partition_epoch_note();
        match choice.leader {
            Some(l) if choice.last_known => say!(self,
                "the ISR and the ELR are empty, so the controller elects {}, the last known leader, as leader of epoch {epoch}{pe} with ISR {}: KRaft elects it uncleanly once it is unfenced, whatever unclean.leader.election.enable says (KIP-966), so whatever it lost is lost for good",
                self.name(l),
                self.set_names(isr)
            ),
            Some(l) if choice.unclean => say!(self,
                "the controller elects {} leader of epoch {epoch}{pe} uncleanly: no live {} member was left, so the ISR becomes {{{}}}{}",
                self.name(l),
                if self.protocol.rules.elr { "ISR or ELR" } else { "ISR" },
                self.name(l),
                self.unclean_on_by_default_note()
            ),
            Some(l) if choice.from_elr => say!(self,
                "the ISR is empty, so the controller elects {} from the Eligible Leader Replicas (KIP-966) as leader of epoch {epoch}{pe}, with ISR {}: it left the ISR while the ISR was below min.insync.replicas and has had no unclean shutdown since, so it holds every committed record",
                self.name(l),
                self.set_names(isr)
            ),
            Some(l) => say!(self, "the controller elects {} leader of epoch {epoch}{pe} with ISR {}", self.name(l), self.set_names(isr)),
            None => say!(self, "the partition goes offline in epoch {epoch}{pe}: {}", self.why_no_leader()),
        }
    }

    fn unclean_on_by_default_note(&self) -> String {
        match self.protocol.rules.line.filter(|_| self.protocol.rules.unclean_by_default) {
            Some(line) => say!(self, " (unclean leader election is on by default in Kafka {})", line.label()),
            None => String::new(),
        }
    }

    /// The controller's ISR becomes `to`. With KIP-966, an ISR below min ISR moves the members that left it
    /// into the ELR, and an ISR at min ISR or above clears the ELR (`PartitionChangeBuilder.maybePopulateTargetElr`).
    pub(crate) fn set_controller_isr(&mut self, to: BrokerSet) {
        let min_isr = usize::from(self.scenario.config.min_insync_replicas);
        let elr_on = self.protocol.rules.elr;
        let c = &mut self.state.controller;
        let before = c.isr;
        if elr_on {
            c.elr = if to.len() >= min_isr {
                BrokerSet::EMPTY
            } else {
                BrokerSet::from_bits((c.elr.bits() | c.isr.bits()) & !to.bits())
            };
        }
        c.isr = to;
        self.remember_last_known_leader(before);
    }

    /// Enqueue the current LeaderAndIsr for every live broker and apply it at once on those in `now` that are up.
    pub(crate) fn send_leader_and_isr(&mut self, now: BrokerSet) -> Vec<String> {
        let req = self.state.controller.current();
        for b in self.state.controller.live.iter() {
            self.state.controller.outbox[b as usize] = Some(req);
        }
        let mut notes = Vec::new();
        let live = self.state.controller.live;
        // The new leader first, so that followers find it leading (and the narration reads in that order).
        let leader_first =
            req.leader.filter(|l| now.contains(*l)).into_iter().chain(now.iter().filter(|b| Some(*b) != req.leader));
        for b in leader_first.filter(|b| live.contains(*b)) {
            let r = self.state.replica(b);
            if r.up && !r.zombie {
                notes.push(self.apply_leader_and_isr(b));
            }
        }
        notes
    }

    /// E2: apply the newest LeaderAndIsr queued for `b`. The caller checks `b` is up and not a zombie.
    pub(crate) fn apply_leader_and_isr(&mut self, b: BrokerId) -> String {
        let Some(req) = self.state.controller.outbox[b as usize].take() else {
            return say!(self, "{} has no {} waiting", self.name(b), self.request_words());
        };
        let known = self.state.replica(b).known_epoch;
        if req.epoch == known && self.kraft() && req.leader == self.state.replica(b).known_leader {
            return self.replay_isr_change(b, req);
        }
        if req.epoch <= known {
            return say!(
                self,
                "{} ignores {} epoch {}: it already has epoch {known}",
                self.name(b),
                self.request_words(),
                req.epoch
            );
        }
        self.annotate(Annotation::LeaderAndIsrApplied { broker: b, leader: req.leader, epoch: req.epoch });
        match req.leader {
            Some(l) if l == b => self.become_leader(b, req),
            Some(l) => self.become_follower(b, l, req.epoch),
            None => {
                self.fail_pending_acks(b);
                let r = &mut self.state.replicas[b as usize];
                r.role = Role::None;
                r.known_epoch = req.epoch;
                r.known_leader = None;
                r.fetch_state = FetchState::Idle;
                r.isr = BrokerSet::EMPTY;
                r.pending_isr = BrokerSet::EMPTY;
                say!(
                    self,
                    "{} learns the partition has no leader in epoch {} and stops fetching",
                    self.name(b),
                    req.epoch
                )
            }
        }
    }

    fn become_leader(&mut self, b: BrokerId, req: LeaderAndIsr) -> String {
        let records_epoch = self.protocol.records_epoch_on_election();
        let r = &mut self.state.replicas[b as usize];
        r.role = Role::Leader;
        r.known_epoch = req.epoch;
        r.known_leader = Some(b);
        r.fetch_state = FetchState::Idle;
        r.isr = req.isr;
        r.pending_isr = BrokerSet::EMPTY;
        r.remote_leo = [-1; crate::scenario::MAX_BROKERS];
        r.leader_epoch_start_offset = r.leo();
        let (leo, hw) = (r.leo(), r.hw);
        if records_epoch {
            r.epoch_cache.assign_replacing(req.epoch, leo);
        }
        self.maybe_increment_hw(b);
        let cache_note = if records_epoch {
            say!(self, ", records ({}, {leo}) in its epoch cache (KAFKA-7415)", req.epoch)
        } else {
            String::new()
        };
        let now = self.state.replica(b).hw;
        let raised = if now == hw {
            String::new()
        } else {
            say!(self, ", and with every ISR member at its LEO it moves its HW to {now}")
        };
        say!(self,
            "{} becomes leader of epoch {} with its own HW {hw} and LEO {leo}{cache_note}{raised}; a leader never truncates",
            self.name(b),
            req.epoch
        )
    }

    fn become_follower(&mut self, b: BrokerId, leader: BrokerId, epoch: i32) -> String {
        self.fail_pending_acks(b);
        let rule = self.protocol.become_follower_rule();
        let every_epoch = self.protocol.truncates_on_every_epoch_change();
        let leader_hw = {
            let l = self.state.replica(leader);
            l.is_acting_leader().then_some(l.hw)
        };
        let r = &mut self.state.replicas[b as usize];
        let leader_changed = r.known_leader != Some(leader);
        let knew_leader = r.known_leader.is_some();
        let was_fetching = r.role == Role::Follower && r.fetch_state != FetchState::Idle;
        r.role = Role::Follower;
        r.known_leader = Some(leader);
        r.known_epoch = epoch;
        r.isr = BrokerSet::EMPTY;
        r.pending_isr = BrokerSet::EMPTY;
        let (hw, leo) = (r.hw, r.leo());
        let who = say!(
            self,
            "{} becomes follower of {} in epoch {epoch}{}",
            self.name(b),
            self.name(leader),
            self.downgrade_note()
        );
        let same_leader_note = "the leader did not change, so it keeps its fetcher state and truncates nothing";
        match rule {
            BecomeFollowerRule::TruncateToOwnHw | BecomeFollowerRule::TruncateToLeaderHw => {
                self.state.replicas[b as usize].fetch_state = FetchState::Fetching;
                if !leader_changed {
                    return say!(self, "{who}; {same_leader_note}");
                }
                self.truncate_on_becoming_follower(b, rule, leader_hw, who)
            }
            BecomeFollowerRule::AskLeaderEpoch => {
                if !leader_changed && !every_epoch && was_fetching {
                    return say!(self, "{who}; {same_leader_note} (before KAFKA-7164)");
                }
                self.state.replicas[b as usize].fetch_state = FetchState::Truncating;
                let why = match (knew_leader, leader_changed) {
                    (false, _) => "it knew no leader (it has just started, or the partition was offline)",
                    (true, true) => "the leader changed",
                    (true, false) => "the epoch changed (KAFKA-7164)",
                };
                say!(self, "{who}: {why}, so before fetching it must ask the leader where its log may have diverged (OffsetsForLeaderEpoch)")
            }
            BecomeFollowerRule::FetchWithLastFetchedEpoch => {
                self.state.replicas[b as usize].epoch_cache.truncate_from_end(leo);
                let r = &mut self.state.replicas[b as usize];
                if r.epoch_cache.is_empty() {
                    r.fetch_state = FetchState::Truncating;
                    say!(
                        self,
                        "{who}; with an empty epoch cache its first fetch falls back to truncating to its HW {hw}"
                    )
                } else {
                    r.fetch_state = FetchState::Validating;
                    say!(
                        self,
                        "{who}; its next Fetch carries LastFetchedEpoch {} so the leader can report any divergence",
                        r.epoch_cache.latest_epoch()
                    )
                }
            }
        }
    }

    /// " (… runs the kafka-2.1 rule: …)" when a knob holds the release to an older generation (model §12).
    fn downgrade_note(&self) -> String {
        let (Some(line), Some(why)) = (self.protocol.rules.line, self.protocol.rules.downgrade) else {
            return String::new();
        };
        let rule = self.protocol.generation().id();
        let because = match why {
            Downgrade::InterBrokerProtocol(v) => {
                say!(self, "its inter-broker protocol {} is too old for {}", v.id(), line.variant().id())
            }
            Downgrade::MessageFormat(v) => {
                say!(self, "message format {} carries no leader epoch, so the epoch cache stays empty", v.id())
            }
        };
        say!(self, " (Kafka {} runs the {rule} rule here: {because})", line.label())
    }

    /// The pre-KIP-101 rules (and the strawman): cut the log at once to the follower's own HW, or to the
    /// leader's HW when the strawman's leader is serving.
    fn truncate_on_becoming_follower(
        &mut self,
        b: BrokerId,
        rule: BecomeFollowerRule,
        leader_hw: Option<u32>,
        who: String,
    ) -> String {
        let (hw, leo) = (self.state.replica(b).hw, self.state.replica(b).leo());
        let (target, cause, basis) = match (rule, leader_hw) {
            (BecomeFollowerRule::TruncateToLeaderHw, Some(lhw)) => {
                (lhw.min(leo), TruncateCause::LeaderHw, say!(self, "the leader's HW {lhw}"))
            }
            (BecomeFollowerRule::TruncateToLeaderHw, None) => {
                (hw, TruncateCause::OwnHw, say!(self, "its own HW {hw} (the leader is not serving)"))
            }
            _ => (hw, TruncateCause::OwnHw, say!(self, "its own HW {hw}")),
        };
        let removed = self.truncate_to(b, target, cause);
        if removed.is_empty() {
            say!(self, "{who} and truncates to {basis}: nothing to discard")
        } else {
            let why = if cause == TruncateCause::OwnHw {
                ": a follower's HW lags the leader's by at least one fetch, so these may have been committed"
            } else {
                ""
            };
            say!(self, "{who} and truncates to {basis}, discarding {}{why}", self.labels(&removed))
        }
    }

    /// E7's controller reaction once it notices `b` is dead: re-elect if it led, else shrink the ISR (ZooKeeper
    /// keeps the last member, KIP-966 lets the ISR empty into the ELR; a controller-driven ISR change bumps
    /// the epoch).
    pub(crate) fn controller_on_failure(&mut self, b: BrokerId) -> Option<String> {
        let c = &mut self.state.controller;
        c.live.remove(b);
        c.outbox[b as usize] = None;
        let name = self.name(b).to_string();
        let keeps_last = !self.protocol.rules.elr;
        let isr = self.state.controller.isr;
        let shrinks = isr.contains(b) && (isr.len() > 1 || !keeps_last);
        let without = BrokerSet::from_bits(isr.bits() & !(1 << b));
        if self.state.controller.leader == Some(b) {
            if shrinks {
                self.set_controller_isr(without);
            }
            let choice = self.choose_leader(None).ok()?;
            let everyone = self.state.controller.live;
            let election = self.install_leader(choice, everyone);
            return Some(say!(self, "{name} led, so {election}"));
        }
        if !shrinks {
            return None;
        }
        self.set_controller_isr(without);
        self.write_partition(PartitionChange::ShrinkByController);
        let to = self.state.controller.isr;
        self.annotate(Annotation::IsrChanged { from: isr, to, by_leader: None });
        let everyone = self.state.controller.live;
        let notes = self.send_leader_and_isr(everyone);
        let head = say!(
            self,
            "the controller removes {name} from the ISR, now {}, in {}{}{}",
            self.set_names(to),
            self.epochs_words(),
            self.no_bump_words(),
            self.elr_words()
        );
        Some(join_clauses(head, notes))
    }

    /// ", with ELR {B}" while KIP-966's ELR has members (", " first when followed by more words).
    pub(crate) fn elr_words(&self) -> String {
        let elr = self.state.controller.elr;
        if elr.is_empty() {
            String::new()
        } else {
            say!(self, " (Eligible Leader Replicas {})", self.set_names(elr))
        }
    }

    /// `{A, B}`.
    pub(crate) fn set_names(&self, set: BrokerSet) -> String {
        say!(self, "{{{}}}", list_names(set.iter().map(|b| self.name(b))))
    }

    /// `m1, m2`.
    pub(crate) fn labels(&self, ids: &[u32]) -> String {
        list_names(ids.iter().map(|id| self.label(*id)))
    }
}

/// "head; a; b", without the empty clauses of a quiet run.
pub(crate) fn join_clauses(head: String, rest: Vec<String>) -> String {
    std::iter::once(head).chain(rest).filter(|c| !c.is_empty()).collect::<Vec<_>>().join("; ")
}
