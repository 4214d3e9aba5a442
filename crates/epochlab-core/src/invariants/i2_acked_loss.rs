//! I2 acknowledged-write loss (spec §4): as I1, for a record whose produce was acknowledged.
//!
//! By design as I1, and also when it was acknowledged under acks=1 (the leader alone had it).
//! Source: spec §2 "acks / min.insync.replicas"; KIP-101 scenario 1 ("producer acked").

use super::{instead, missing_on_leader, Ctx, Key, Sink};
use crate::scenario::Acks;

pub(super) fn check(ctx: &Ctx<'_>, out: &mut Sink<'_>) {
    for (offset, id, acks, acked_at) in ctx.history.acked() {
        let Some((leader, there)) = missing_on_leader(ctx, offset, id) else { continue };
        out.report(Key("I2", i64::from(id), 0, 0, 0), || {
            let written = ctx.records.get(id as usize).map_or(0, |r| r.step);
            let by_design = if acks == Acks::One {
                Some("acks=1 acknowledges before any follower has the record")
            } else {
                ctx.history.loss_by_design(written)
            };
            let why = by_design.map_or(String::new(), |w| format!(" (allowed: {w})"));
            ctx.violation(
                "I2",
                by_design.is_some(),
                format!(
                    "{} at offset {offset} was acknowledged with acks={} (step {acked_at}) and is gone from leader {}{}{why}",
                    ctx.label(id),
                    acks.label(),
                    ctx.name(leader),
                    instead(ctx, there)
                ),
                vec![leader],
                vec![offset],
                vec![id],
            )
        });
    }
}
