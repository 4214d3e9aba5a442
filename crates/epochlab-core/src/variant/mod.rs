//! Protocol variants and hardening flags: the one place where behaviour branches on the protocol.
//!
//! The engine never matches on [`Variant`]. It asks [`Protocol`] (a variant plus its effective flags) for the
//! rule that applies, and each rule is defined in the variant's own file with its source (model §1, §3.4, §3.5).

mod diverging_epoch;
mod hw_truncation;
mod kafka_2_1;
mod kafka_release;
mod kip_101;
mod kip_279;
mod leader_hw_truncation;
mod metadata_mode;
mod rules;

use serde::Serialize;

use crate::epoch_cache::{EpochCache, EpochEnd};

pub use kafka_release::{KafkaRelease, KafkaVersion};
pub use kip_279::FollowerDecision;
pub use metadata_mode::MetadataMode;
pub use rules::{refuse_knobs, ControlPlane, Downgrade, Knobs, ProtocolVersion, Rules};

/// Variants shown side by side, at most (the playground, its links and embeds, the CLI's `compare`).
pub const MAX_VARIANTS: usize = 4;

/// A protocol generation (the contract's variant ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Variant {
    /// Kafka <= 0.10.2: truncate to the follower's own HW.
    HwTruncation,
    /// Kafka 0.11 to 1.1: leader epochs, OffsetsForLeaderEpoch v0.
    Kip101,
    /// Kafka 2.0: OffsetsForLeaderEpoch v1, the follower may iterate.
    Kip279,
    /// Kafka 2.1: KIP-279 plus the four hardening flags.
    Kafka21,
    /// Kafka 2.8+ / KRaft: divergence detected inside Fetch.
    DivergingEpoch,
    /// A teaching strawman: truncate to the leader's HW.
    LeaderHwTruncation,
}

impl Variant {
    /// Every variant, in the order the UI and `--all-variants` list them.
    pub const ALL: [Variant; 6] = [
        Variant::HwTruncation,
        Variant::Kip101,
        Variant::Kip279,
        Variant::Kafka21,
        Variant::DivergingEpoch,
        Variant::LeaderHwTruncation,
    ];

    /// The contract id, e.g. `kip-279`.
    pub fn id(self) -> &'static str {
        match self {
            Variant::HwTruncation => "hw-truncation",
            Variant::Kip101 => "kip-101",
            Variant::Kip279 => "kip-279",
            Variant::Kafka21 => "kafka-2.1",
            Variant::DivergingEpoch => "diverging-epoch",
            Variant::LeaderHwTruncation => "leader-hw-truncation",
        }
    }

    /// Its position in [`Variant::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Parse a contract id.
    pub fn from_id(id: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.id() == id)
    }

    /// `hw-truncation, kip-101, …` for error messages.
    pub fn id_list() -> String {
        Variant::ALL.map(Variant::id).join(", ")
    }

    /// A short human title with the Kafka versions it stands for.
    pub fn title(self) -> &'static str {
        match self {
            Variant::HwTruncation => "HW truncation (Kafka <= 0.10.2)",
            Variant::Kip101 => "KIP-101 leader epochs (0.11 to 1.1)",
            Variant::Kip279 => "KIP-279 (2.0)",
            Variant::Kafka21 => "Kafka 2.1 hardening",
            Variant::DivergingEpoch => "Diverging epoch in Fetch (2.8+, KRaft)",
            Variant::LeaderHwTruncation => "Strawman: truncate to the leader's HW",
        }
    }

    /// Whether records are stamped into an epoch cache and the follower consults it.
    pub fn uses_epochs(self) -> bool {
        !matches!(self, Variant::HwTruncation | Variant::LeaderHwTruncation)
    }

    /// Flags the variant always has on (the configuration panel shows them as set and fixed).
    pub fn implied_flags(self) -> &'static [Flag] {
        match self {
            Variant::Kafka21 => kafka_2_1::IMPLIED_FLAGS,
            Variant::DivergingEpoch => diverging_epoch::IMPLIED_FLAGS,
            _ => &[],
        }
    }
}

impl Serialize for Variant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// A hardening flag from Kafka 2.1 (model §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Flag {
    /// KAFKA-7415: a new leader records its epoch in its cache at election; 2.1 cache semantics.
    Kafka7415,
    /// KAFKA-7128: a follower joins the ISR only once it reaches the leader's epoch start offset.
    Kafka7128,
    /// KAFKA-7164: truncate on every epoch change, not only on a leader change.
    Kafka7164,
    /// KIP-320: fetches carry the current leader epoch; stale ones are fenced.
    Kip320,
}

impl Flag {
    /// Every flag, in contract order.
    pub const ALL: [Flag; 4] = [Flag::Kafka7415, Flag::Kafka7128, Flag::Kafka7164, Flag::Kip320];

    /// The contract id, e.g. `kafka-7415`.
    pub fn id(self) -> &'static str {
        match self {
            Flag::Kafka7415 => "kafka-7415",
            Flag::Kafka7128 => "kafka-7128",
            Flag::Kafka7164 => "kafka-7164",
            Flag::Kip320 => "kip-320",
        }
    }

    /// Its position in [`Flag::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Parse a contract id.
    pub fn from_id(id: &str) -> Option<Flag> {
        Flag::ALL.into_iter().find(|f| f.id() == id)
    }

    /// `kafka-7415, …` for error messages.
    pub fn id_list() -> String {
        Flag::ALL.map(Flag::id).join(", ")
    }

    /// One line on what the flag changes.
    pub fn summary(self) -> &'static str {
        match self {
            Flag::Kafka7415 => "a new leader records its epoch in its cache at election",
            Flag::Kafka7128 => "a follower joins the ISR only once it reaches the leader's epoch start offset",
            Flag::Kafka7164 => "followers truncate on every epoch change, not only on a leader change",
            Flag::Kip320 => "fetches carry the current leader epoch and stale ones are fenced",
        }
    }
}

impl Serialize for Flag {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// What a replica does when a LeaderAndIsr makes it follower (model §3.4 E2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BecomeFollowerRule {
    /// Truncate to the replica's own HW, at once, when the leader changed.
    TruncateToOwnHw,
    /// Truncate to min(own LEO, the new leader's HW), at once, when the leader changed.
    TruncateToLeaderHw,
    /// Enter the truncating state: the next fetcher iteration asks OffsetsForLeaderEpoch.
    AskLeaderEpoch,
    /// Fetch at once with LastFetchedEpoch; the leader reports any divergence in the Fetch response.
    FetchWithLastFetchedEpoch,
}

/// How the leader answers an epoch end-offset lookup (model §3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpochLookup {
    /// 0.11: the start offset of the first larger epoch (no epoch in the answer).
    StartOfNextEpoch,
    /// 2.0: the largest epoch <= requested and its end offset.
    LargestEpochAtMost,
    /// 2.1+ (KAFKA-7415): as 2.0, but a request below the first entry answers with the first start offset.
    LargestEpochAtMostWithFloor,
}

/// A variant together with the flags and the release's rules in force: everything the engine asks about
/// the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Protocol {
    /// The protocol generation shown (a release's own, even when a knob holds it to an older one).
    pub variant: Variant,
    /// The generation whose truncation rule runs (model §12: an old inter-broker protocol or message format).
    generation: Variant,
    flags: [bool; 4],
    /// What the release adds beyond the truncation rule (none for a plain variant).
    pub rules: Rules,
}

impl Protocol {
    /// The variant with the configured flags plus those it implies. Flags are ignored by the two variants
    /// without epochs, which have no epoch cache or epoch-carrying requests for them to change.
    pub fn new(variant: Variant, configured: &[Flag]) -> Protocol {
        let mut flags = [false; 4];
        if variant.uses_epochs() {
            for flag in configured.iter().chain(variant.implied_flags()) {
                flags[flag.index()] = true;
            }
        }
        Protocol { variant, generation: variant, flags, rules: Rules::plain(variant, &Knobs::default()) }
    }

    /// A plain variant with the scenario's knobs (the unclean setting; release knobs need a release).
    pub fn plain(variant: Variant, configured: &[Flag], knobs: &Knobs) -> Protocol {
        Protocol::new(variant, configured).with_rules(Rules::plain(variant, knobs))
    }

    /// A Kafka release as it shipped, with the scenario's knobs (model §12).
    pub fn of_release(version: KafkaVersion, knobs: &Knobs) -> Protocol {
        let line = version.line();
        let (generation, flags, downgrade) = rules::generation(version, knobs);
        let mut p = Protocol::new(generation, &flags);
        p.variant = line.variant();
        let own = Rules::of_release(version, knobs);
        // Consumers validate against epochs: records without one (format below v2) leave nothing to check.
        let consumers_validate = own.consumers_validate && generation.uses_epochs();
        p.rules = Rules { downgrade, consumers_validate, ..own };
        p
    }

    /// The same protocol under other release rules.
    pub fn with_rules(self, rules: Rules) -> Protocol {
        Protocol { rules, ..self }
    }

    /// The generation whose truncation rule runs.
    pub fn generation(&self) -> Variant {
        self.generation
    }

    /// Whether a flag is in force.
    pub fn has(&self, flag: Flag) -> bool {
        self.flags[flag.index()]
    }

    /// The flags in force, in contract order.
    pub fn flags(&self) -> Vec<Flag> {
        Flag::ALL.into_iter().filter(|f| self.has(*f)).collect()
    }

    /// What becoming follower does.
    pub fn become_follower_rule(&self) -> BecomeFollowerRule {
        match self.generation {
            Variant::HwTruncation => hw_truncation::BECOME_FOLLOWER,
            Variant::LeaderHwTruncation => leader_hw_truncation::BECOME_FOLLOWER,
            Variant::Kip101 => kip_101::BECOME_FOLLOWER,
            Variant::Kip279 => kip_279::BECOME_FOLLOWER,
            Variant::Kafka21 => kafka_2_1::BECOME_FOLLOWER,
            Variant::DivergingEpoch => diverging_epoch::BECOME_FOLLOWER,
        }
    }

    /// Whether records carry epochs into an epoch cache.
    pub fn uses_epoch_cache(&self) -> bool {
        self.generation.uses_epochs()
    }

    /// Whether a follower re-truncates when only the epoch changed (KAFKA-7164, always on for diverging-epoch).
    pub fn truncates_on_every_epoch_change(&self) -> bool {
        self.has(Flag::Kafka7164)
    }

    /// 2.1 cache semantics (KAFKA-7415): assign removes conflicting entries; lookups below the first entry floor.
    pub fn cache_21(&self) -> bool {
        self.has(Flag::Kafka7415)
    }

    /// The leader's end-offset lookup.
    pub fn epoch_lookup(&self) -> EpochLookup {
        match self.generation {
            Variant::Kip101 => kip_101::LOOKUP,
            _ if self.cache_21() => EpochLookup::LargestEpochAtMostWithFloor,
            _ => kip_279::LOOKUP,
        }
    }

    /// The leader's answer to an epoch lookup on its cache.
    pub fn leader_end_offset(&self, cache: &EpochCache, leo: u32, epoch: i64) -> EpochEnd {
        match self.epoch_lookup() {
            // A 2.1+ leader held to OffsetsForLeaderEpoch v0 by its inter-broker protocol still looks up as 2.1
            // does and only drops the epoch from the answer (model §12).
            EpochLookup::StartOfNextEpoch if self.rules.downgrade.is_some() && self.cache_21() => {
                EpochEnd { epoch: crate::epoch_cache::UNDEFINED, offset: cache.end_offset_21(leo, epoch).offset }
            }
            EpochLookup::StartOfNextEpoch => {
                EpochEnd { epoch: crate::epoch_cache::UNDEFINED, offset: cache.end_offset_011(leo, epoch) }
            }
            EpochLookup::LargestEpochAtMost => cache.end_offset_20(leo, epoch),
            EpochLookup::LargestEpochAtMostWithFloor => cache.end_offset_21(leo, epoch),
        }
    }

    /// The follower's decision on the leader's answer (model §3.5 `followerTruncate`, or the 0.11 rule).
    pub fn follower_decision(&self, answer: EpochEnd, follower: &EpochCache, leo: u32, hw: u32) -> FollowerDecision {
        match self.generation {
            Variant::Kip101 => kip_101::follower_decision(answer.offset, leo, hw),
            _ => kip_279::follower_decision(answer, follower, leo, hw, self.cache_21()),
        }
    }

    /// A follower out of range with a shorter leader halts (Kafka < 2.1 with unclean election disabled).
    pub fn halts_on_out_of_range(&self) -> bool {
        !self.rules.unclean_leader_election && !self.rules.no_halt_on_out_of_range
    }

    /// KIP-320: requests carry the current leader epoch and the leader fences a mismatch.
    pub fn fences_stale_epochs(&self) -> bool {
        self.has(Flag::Kip320)
    }

    /// KAFKA-7128: ISR expansion waits for the follower to reach the leader's epoch start offset.
    pub fn isr_join_needs_epoch_start(&self) -> bool {
        self.has(Flag::Kafka7128)
    }

    /// KAFKA-7415: a new leader assigns (epoch, LEO) in its cache when it becomes leader.
    pub fn records_epoch_on_election(&self) -> bool {
        self.has(Flag::Kafka7415)
    }

    /// Divergence is found by the leader inside Fetch (variant d).
    pub fn divergence_in_fetch(&self) -> bool {
        self.generation == Variant::DivergingEpoch
    }

    /// The LastFetchedEpoch a follower with this cache sends in Fetch (UNDEFINED: the field is not sent).
    pub fn last_fetched_epoch(&self, follower: &EpochCache) -> i64 {
        if self.divergence_in_fetch() {
            follower.latest_epoch()
        } else {
            crate::epoch_cache::UNDEFINED
        }
    }

    /// The leader's DivergingEpoch answer to a Fetch, when its variant checks and the logs diverge.
    pub fn diverging_epoch(
        &self,
        leader: &EpochCache,
        leo: u32,
        last_fetched_epoch: i64,
        offset: u32,
    ) -> Option<EpochEnd> {
        if self.divergence_in_fetch() {
            diverging_epoch::diverging(leader, leo, last_fetched_epoch, offset)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    //! The follower's truncation decision per generation (model §3.5), on the KAFKA-6361 and unclean-election
    //! shapes of model §5.3 and §5.4.
    use super::*;

    fn cache(entries: &[(i32, u32)]) -> EpochCache {
        EpochCache::from_entries(entries)
    }

    #[test]
    fn flags_are_implied_by_kafka_2_1_and_diverging_epoch_and_ignored_without_epochs() {
        assert_eq!(Protocol::new(Variant::Kafka21, &[]).flags(), Flag::ALL.to_vec());
        assert_eq!(Protocol::new(Variant::DivergingEpoch, &[]).flags(), Flag::ALL.to_vec());
        assert!(Protocol::new(Variant::Kip279, &[]).flags().is_empty());
        assert_eq!(Protocol::new(Variant::Kip279, &[Flag::Kip320]).flags(), [Flag::Kip320]);
        assert!(Protocol::new(Variant::HwTruncation, &[Flag::Kip320]).flags().is_empty());
        for v in Variant::ALL {
            assert_eq!(Variant::from_id(v.id()), Some(v));
        }
    }

    #[test]
    fn kip_101_answers_the_start_of_the_next_epoch_and_the_follower_keeps_its_log_when_that_is_its_end() {
        // KAFKA-6361 "eq": A = [r0/e0, r1/e0, r3/e2], B = [r0/e0, r2/e1]; B asks about epoch 1.
        let p = Protocol::new(Variant::Kip101, &[]);
        let answer = p.leader_end_offset(&cache(&[(0, 0), (2, 2)]), 3, 1);
        assert_eq!(answer.offset, 2);
        let d = p.follower_decision(answer, &cache(&[(0, 0), (1, 1)]), 2, 1);
        assert_eq!((d.truncate_to, d.truncates, d.done), (2, false, true));
    }

    #[test]
    fn kip_279_answers_the_largest_epoch_at_most_the_one_asked_and_the_follower_cuts_back() {
        let p = Protocol::new(Variant::Kip279, &[]);
        let answer = p.leader_end_offset(&cache(&[(0, 0), (2, 2)]), 3, 1);
        assert_eq!(answer, EpochEnd { epoch: 0, offset: 2 });
        let d = p.follower_decision(answer, &cache(&[(0, 0), (1, 1)]), 2, 1);
        assert_eq!((d.truncate_to, d.truncates, d.done), (1, true, true));
    }

    #[test]
    fn kip_279_takes_two_round_trips_after_three_unclean_elections() {
        // model §5.4 with this model's epochs: X = [(0,0),(3,1),(7,4)], LEO 6; Y = [(0,0),(1,1),(5,2)], LEO 3.
        let p = Protocol::new(Variant::Kip279, &[]);
        let x = cache(&[(0, 0), (3, 1), (7, 4)]);
        let first = p.leader_end_offset(&x, 6, 5);
        assert_eq!(first, EpochEnd { epoch: 3, offset: 4 });
        let d = p.follower_decision(first, &cache(&[(0, 0), (1, 1), (5, 2)]), 3, 3);
        assert_eq!((d.truncate_to, d.done), (2, false), "Y never had epoch 3: it cuts back to the end of epoch 1");
        let second = p.leader_end_offset(&x, 6, 1);
        assert_eq!(second, EpochEnd { epoch: 0, offset: 1 });
        let d = p.follower_decision(second, &cache(&[(0, 0), (1, 1)]), 2, 2);
        assert_eq!((d.truncate_to, d.done), (1, true));
    }

    #[test]
    fn an_undefined_answer_falls_back_to_the_followers_hw() {
        for v in [Variant::Kip101, Variant::Kip279, Variant::Kafka21] {
            let p = Protocol::new(v, &[]);
            let d = p.follower_decision(EpochEnd::UNDEFINED, &cache(&[(4, 0)]), 5, 3);
            assert_eq!((d.truncate_to, d.done), (3, true), "{}", v.id());
        }
    }

    #[test]
    fn only_pre_2_1_variants_halt_on_out_of_range_and_only_with_unclean_election_off() {
        let unclean = Knobs { unclean_leader_election: Some(true), ..Knobs::default() };
        assert!(Protocol::new(Variant::HwTruncation, &[]).halts_on_out_of_range());
        assert!(!Protocol::plain(Variant::HwTruncation, &[], &unclean).halts_on_out_of_range());
        assert!(Protocol::new(Variant::Kip279, &[]).halts_on_out_of_range());
        assert!(!Protocol::new(Variant::Kafka21, &[]).halts_on_out_of_range());
        assert!(!Protocol::new(Variant::DivergingEpoch, &[]).halts_on_out_of_range());
        let v0_10_2 = KafkaVersion::parse("0.10.2").expect("release");
        assert!(!Protocol::of_release(v0_10_2, &Knobs::default()).halts_on_out_of_range(), "unclean on by default");
    }
}
