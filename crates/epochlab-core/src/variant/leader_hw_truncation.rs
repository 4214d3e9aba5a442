//! `leader-hw-truncation`: a teaching strawman, not a Kafka release.
//!
//! **Rule.** On becoming follower of a different leader, truncate to min(own LEO, the *leader's* HW) instead
//! of one's own stale HW. It is what many people first propose after seeing KIP-101 scenario 1.
//!
//! **Why it is no fix.** It does stop scenario 1: the leader's HW covers the record the follower's stale HW
//! did not, so nothing committed is discarded. But the HW says how far records are *committed*, not whether
//! two logs hold the *same* records. After a double power failure (KIP-101 scenario 2) the new leader can
//! commit a different record at an offset where the returning replica still holds its old one; the leader's
//! HW then covers that offset, nothing is truncated, and the logs diverge (invariant I3). Only comparing
//! epochs (KIP-101 and after) finds where two logs part ways.
//!
//! **Source.** Derived from model §5.2 (the divergence needs a HW that covers data the new leader lost) and the
//! KIP-101 motivation; the preset "why truncating to the leader's HW is no fix" shows it.

use super::BecomeFollowerRule;

pub(super) const BECOME_FOLLOWER: BecomeFollowerRule = BecomeFollowerRule::TruncateToLeaderHw;
