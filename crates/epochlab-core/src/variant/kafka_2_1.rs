//! `kafka-2.1`: KIP-279 with the four hardening fixes of Kafka 2.1 always on.
//!
//! **Rule.** As `kip-279`, plus:
//! - KAFKA-7415: a new leader writes `(epoch, LEO)` into its epoch cache when it becomes leader, the cache
//!   replaces conflicting entries, and a lookup below the first entry answers with the first start offset.
//! - KAFKA-7128: a follower joins the ISR only once it has reached the leader's epoch start offset, so a
//!   stale HW can no longer let it in.
//! - KAFKA-7164: a follower truncates after every leader-epoch change, not only a leader change.
//! - KIP-320 (KAFKA-6880): Fetch and OffsetsForLeaderEpoch carry the current leader epoch, and a mismatch is
//!   fenced with FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH, so zombies and stale fetchers make no progress.
//!   Also from 2.1, OFFSET_OUT_OF_RANGE never halts a follower (KAFKA-7414).
//!
//! **The bugs they fixed.** Divergence when a leader is elected without writing in its epoch, ISR joins that
//! lose committed data, zombies rejoining the ISR (model §1, §3.6, §4 I3/I4 notes).
//!
//! **Source.** Kafka 2.1.0 commits `f2dd6aa2698`, `70c51633f2f`, `69283b4038a`, `bcef30d614b`; KIP-320; TLA+
//! `Kip320.tla` (its four rules, model §8.4).

use super::{BecomeFollowerRule, Flag};

pub(super) const BECOME_FOLLOWER: BecomeFollowerRule = BecomeFollowerRule::AskLeaderEpoch;
pub(super) const IMPLIED_FLAGS: &[Flag] = &[Flag::Kafka7415, Flag::Kafka7128, Flag::Kafka7164, Flag::Kip320];
