//! The leader-epoch cache (`LeaderEpochFileCache`, persisted as `leader-epoch-checkpoint`): a list of
//! `(epoch, start offset)` with both strictly increasing. Model §2 "Leader-epoch cache", §3.5 and §6.2.
//!
//! Two generations of semantics live here side by side, because variants differ exactly there:
//! 0.11/2.0 `assign` only appends, 2.1+ (KAFKA-7415) replaces conflicting entries; and three `endOffsetFor`s.

use std::sync::Arc;

use serde::Serialize;

use crate::cow::share_from;

/// Kafka's `UNDEFINED_EPOCH` / `UNDEFINED_EPOCH_OFFSET`.
pub const UNDEFINED: i64 = -1;

/// One cache entry: the first offset written in an epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct EpochEntry {
    /// Leader epoch.
    pub epoch: i32,
    /// First offset of that epoch.
    pub start_offset: u32,
}

/// An answer to an end-offset lookup: `(epoch, end offset)`, either may be [`UNDEFINED`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EpochEnd {
    /// The epoch the offset belongs to (UNDEFINED in OffsetsForLeaderEpoch v0).
    pub epoch: i64,
    /// The end offset (exclusive) of that epoch.
    pub offset: i64,
}

impl EpochEnd {
    /// The answer in words: `UNDEFINED`, `offset 2` (no epoch in it, 0.11) or `epoch 1 ends at 2`.
    pub fn describe(&self) -> String {
        match (self.epoch, self.offset) {
            (_, UNDEFINED) => "UNDEFINED".to_string(),
            (UNDEFINED, o) => format!("offset {o}"),
            (ep, o) => format!("epoch {ep} ends at {o}"),
        }
    }
}

impl EpochEnd {
    /// `(UNDEFINED, UNDEFINED)`.
    pub const UNDEFINED: EpochEnd = EpochEnd { epoch: UNDEFINED, offset: UNDEFINED };
}

/// The cache itself.
#[derive(Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct EpochCache {
    /// Shared copy-on-write: it changes only with a new epoch, and every step's snapshot in a trace (and
    /// every state a search tries) holds a copy.
    entries: Arc<Vec<EpochEntry>>,
}

/// As derived, but `clone_from` skips the reference counts when it already shares the entries.
impl Clone for EpochCache {
    #[inline]
    fn clone(&self) -> Self {
        EpochCache { entries: Arc::clone(&self.entries) }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        share_from(&mut self.entries, &source.entries);
    }
}

impl EpochCache {
    /// A cache holding these entries (for tests and fixtures). Entries must be strictly increasing.
    pub fn from_entries(entries: &[(i32, u32)]) -> EpochCache {
        let entries: Vec<EpochEntry> =
            entries.iter().map(|&(epoch, start_offset)| EpochEntry { epoch, start_offset }).collect();
        debug_assert!(entries.windows(2).all(|w| w[0].epoch < w[1].epoch && w[0].start_offset <= w[1].start_offset));
        EpochCache { entries: Arc::new(entries) }
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> &[EpochEntry] {
        &self.entries
    }

    /// Whether the cache has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The latest epoch, or UNDEFINED.
    pub fn latest_epoch(&self) -> i64 {
        self.entries.last().map_or(UNDEFINED, |e| i64::from(e.epoch))
    }

    /// 0.11 / 2.0 `assign`: append only if both epoch and start offset move forward; otherwise ignore
    /// (Kafka logs a warning). Returns whether the cache changed.
    pub fn assign_append_only(&mut self, epoch: i32, start_offset: u32) -> bool {
        let forward = self.entries.last().is_none_or(|l| epoch > l.epoch && start_offset >= l.start_offset);
        if forward {
            Arc::make_mut(&mut self.entries).push(EpochEntry { epoch, start_offset });
        }
        forward
    }

    /// 2.1+ `assign` (KAFKA-7415): when the epoch differs from the latest, or the offset is below the latest
    /// start, drop every entry with `epoch >= e` or `start >= o`, then append. Returns whether the cache changed.
    pub fn assign_replacing(&mut self, epoch: i32, start_offset: u32) -> bool {
        let needed = self.entries.last().is_none_or(|l| epoch != l.epoch || start_offset < l.start_offset);
        if needed {
            let entries = Arc::make_mut(&mut self.entries);
            entries.retain(|e| e.epoch < epoch && e.start_offset < start_offset);
            entries.push(EpochEntry { epoch, start_offset });
        }
        needed
    }

    /// Drop entries whose start offset is at or past `offset` (`truncateFromEnd`). Returns whether any went.
    pub fn truncate_from_end(&mut self, offset: u32) -> bool {
        let any_go = self.entries.iter().any(|e| e.start_offset >= offset);
        if any_go {
            Arc::make_mut(&mut self.entries).retain(|e| e.start_offset < offset);
        }
        any_go
    }

    /// 0.11 `endOffsetFor`: the start offset of the first epoch larger than `requested`, or the LEO when
    /// `requested` is the latest epoch; UNDEFINED when unknown (model §3.5).
    pub fn end_offset_011(&self, leo: u32, requested: i64) -> i64 {
        let Some(first) = self.entries.first() else { return UNDEFINED };
        if requested == UNDEFINED {
            return UNDEFINED;
        }
        if requested == self.latest_epoch() {
            return i64::from(leo);
        }
        match self.entries.iter().find(|e| i64::from(e.epoch) > requested) {
            Some(next) if requested >= i64::from(first.epoch) => i64::from(next.start_offset),
            _ => UNDEFINED,
        }
    }

    /// 2.0 `endOffsetFor` (KIP-279): the largest epoch <= `requested` and its end offset.
    pub fn end_offset_20(&self, leo: u32, requested: i64) -> EpochEnd {
        self.end_offset_with_floor(leo, requested, false)
    }

    /// 2.1+ `endOffsetFor` (KAFKA-7415): as 2.0, but a request older than every entry answers
    /// `(requested, first start offset)` instead of UNDEFINED.
    pub fn end_offset_21(&self, leo: u32, requested: i64) -> EpochEnd {
        self.end_offset_with_floor(leo, requested, true)
    }

    fn end_offset_with_floor(&self, leo: u32, requested: i64, floor: bool) -> EpochEnd {
        if requested == UNDEFINED || self.entries.is_empty() {
            return EpochEnd::UNDEFINED;
        }
        if requested == self.latest_epoch() {
            return EpochEnd { epoch: requested, offset: i64::from(leo) };
        }
        let next = self.entries.iter().find(|e| i64::from(e.epoch) > requested);
        let prev = self.entries.iter().rev().find(|e| i64::from(e.epoch) <= requested);
        match (prev, next) {
            (Some(prev), Some(next)) => EpochEnd { epoch: i64::from(prev.epoch), offset: i64::from(next.start_offset) },
            (None, Some(next)) if floor => EpochEnd { epoch: requested, offset: i64::from(next.start_offset) },
            _ => EpochEnd::UNDEFINED,
        }
    }

    /// The `leader-epoch-checkpoint` file as Kafka writes it: version, count, then `epoch startOffset` lines.
    pub fn checkpoint_file(&self) -> String {
        let mut text = format!("0\n{}\n", self.entries.len());
        for e in self.entries.iter() {
            text.push_str(&format!("{} {}\n", e.epoch, e.start_offset));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    //! The LeaderEpochFileCacheTest cases of model §7, plus the 0.11 lookup.
    use super::*;

    fn end(epoch: i64, offset: i64) -> EpochEnd {
        EpochEnd { epoch, offset }
    }

    #[test]
    fn should_return_log_end_offset_if_latest_epoch_requested() {
        let cache = EpochCache::from_entries(&[(0, 0), (1, 5), (2, 9)]);
        assert_eq!(cache.end_offset_20(12, 2), end(2, 12));
        assert_eq!(cache.end_offset_21(12, 2), end(2, 12));
        assert_eq!(cache.end_offset_011(12, 2), 12);
    }

    #[test]
    fn should_return_first_epoch_if_requested_epoch_less_than_first_epoch() {
        let cache = EpochCache::from_entries(&[(5, 11), (6, 12), (7, 13)]);
        assert_eq!(cache.end_offset_21(20, 4), end(4, 11));
        // Before 2.1 the same request was UNDEFINED.
        assert_eq!(cache.end_offset_20(20, 4), EpochEnd::UNDEFINED);
        assert_eq!(cache.end_offset_011(20, 4), UNDEFINED);
    }

    #[test]
    fn should_get_first_offset_of_subsequent_epoch_when_offset_requested_for_previous_epoch() {
        let cache = EpochCache::from_entries(&[(1, 11), (2, 13), (3, 15)]);
        assert_eq!(cache.end_offset_21(20, 2), end(2, 15));
        assert_eq!(cache.end_offset_011(20, 2), 15);
    }

    #[test]
    fn should_return_next_available_epoch_if_there_is_no_exact_epoch_for_the_one_requested() {
        let cache = EpochCache::from_entries(&[(0, 10), (2, 13), (4, 17)]);
        assert_eq!(cache.end_offset_20(20, 1), end(0, 13));
        assert_eq!(cache.end_offset_20(20, 2), end(2, 17));
        assert_eq!(cache.end_offset_20(20, 3), end(2, 17));
        // 0.11 answers only the next epoch's start offset.
        assert_eq!(cache.end_offset_011(20, 1), 13);
        assert_eq!(cache.end_offset_011(20, 3), 17);
    }

    #[test]
    fn should_return_invalid_offset_if_epoch_is_requested_which_is_not_currently_tracked() {
        let cache = EpochCache::from_entries(&[(2, 100)]);
        assert_eq!(cache.end_offset_21(120, 3), EpochEnd::UNDEFINED);
        assert_eq!(cache.end_offset_20(120, 3), EpochEnd::UNDEFINED);
        assert_eq!(cache.end_offset_011(120, 3), UNDEFINED);
    }

    #[test]
    fn should_truncate_if_matching_epoch_but_earlier_starting_offset() {
        let mut cache = EpochCache::from_entries(&[(5, 11), (6, 12), (7, 13)]);
        assert!(cache.assign_replacing(7, 12));
        assert_eq!(cache, EpochCache::from_entries(&[(5, 11), (7, 12)]));
        assert_eq!(cache.end_offset_21(20, 5), end(5, 12));
        assert_eq!(cache.end_offset_21(20, 6), end(5, 12));
    }

    #[test]
    fn should_not_overwrite_offset_for_a_leader_epoch_once_it_has_been_assigned() {
        let mut cache = EpochCache::default();
        cache.assign_replacing(2, 6);
        assert!(!cache.assign_replacing(2, 10));
        assert_eq!(cache, EpochCache::from_entries(&[(2, 6)]));
        let mut old = EpochCache::default();
        old.assign_append_only(2, 6);
        assert!(!old.assign_append_only(2, 10));
        assert_eq!(old, EpochCache::from_entries(&[(2, 6)]));
    }

    #[test]
    fn should_enforce_monotonically_increasing_start_offsets() {
        let mut cache = EpochCache::default();
        cache.assign_replacing(2, 9);
        cache.assign_replacing(3, 9);
        assert_eq!(cache, EpochCache::from_entries(&[(3, 9)]));
    }

    #[test]
    fn append_only_assign_ignores_older_epochs_and_earlier_offsets() {
        let mut cache = EpochCache::from_entries(&[(2, 9)]);
        assert!(!cache.assign_append_only(1, 10));
        assert!(!cache.assign_append_only(3, 8));
        assert!(cache.assign_append_only(3, 9));
        // 0.11 lets two epochs share a start offset: the first one then holds no record.
        let epochs: Vec<(i32, u32)> = cache.entries().iter().map(|e| (e.epoch, e.start_offset)).collect();
        assert_eq!(epochs, vec![(2, 9), (3, 9)]);
    }

    #[test]
    fn should_drop_entries_on_epoch_boundary_when_removing_latest_entries() {
        let mut cache = EpochCache::from_entries(&[(2, 6), (3, 8), (4, 11)]);
        assert!(cache.truncate_from_end(8));
        assert_eq!(cache, EpochCache::from_entries(&[(2, 6)]));
    }

    #[test]
    fn lookups_on_an_empty_cache_or_undefined_epoch_are_undefined() {
        let empty = EpochCache::default();
        assert_eq!(empty.end_offset_21(3, 0), EpochEnd::UNDEFINED);
        assert_eq!(empty.end_offset_011(3, 0), UNDEFINED);
        let cache = EpochCache::from_entries(&[(0, 0)]);
        assert_eq!(cache.end_offset_20(3, UNDEFINED), EpochEnd::UNDEFINED);
    }

    #[test]
    fn checkpoint_file_matches_kafkas_text_format() {
        let cache = EpochCache::from_entries(&[(0, 0), (1, 120)]);
        assert_eq!(cache.checkpoint_file(), "0\n2\n0 0\n1 120\n");
    }
}
