//! I3 divergence after truncation (model §4): a follower of the true leader, in the leader's epoch, that has
//! finished truncating holds a different record from the leader's at an offset below both LEOs. In
//! diverging-epoch, truncation counts as finished after the first Fetch response that reported no divergence.
//!
//! Never by design. Source: KIP-101 scenario 2; KAFKA-6361; Kafka's `logsShouldNotDivergeOnUncleanLeaderElections`
//! and `waitForLogsToMatch`.

use super::{id_key, Ctx, InvariantId, Key, Sink};
use crate::state::{BrokerId, FetchState, Role};

pub(super) fn check(ctx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(tl) = ctx.state.true_leader() else { return };
    let leader = ctx.state.replica(tl);
    for (f, r) in ctx.state.replicas.iter().enumerate() {
        let f = f as BrokerId;
        let following = r.up && r.role == Role::Follower && r.fetch_state == FetchState::Fetching;
        if f == tl || !following || r.known_leader != Some(tl) || r.known_epoch != leader.known_epoch {
            continue;
        }
        let common = r.leo().min(leader.leo());
        let Some(offset) = (0..common).find(|&o| r.id_at(o) != leader.id_at(o)) else { continue };
        let (mine, theirs) = (r.id_at(offset), leader.id_at(offset));
        let key = Key(InvariantId::I3, i64::from(f), i64::from(offset), id_key(mine), id_key(theirs));
        out.report(key, || {
            ctx.violation(
                InvariantId::I3,
                false,
                format!(
                    "{} holds {} at offset {offset} but its leader {} holds {}: {} finished truncating and its log has diverged",
                    ctx.name(f),
                    ctx.describe(mine),
                    ctx.name(tl),
                    ctx.describe(theirs),
                    ctx.name(f)
                ),
                vec![f, tl],
                vec![offset],
                Vec::new(),
            )
        });
    }
}
