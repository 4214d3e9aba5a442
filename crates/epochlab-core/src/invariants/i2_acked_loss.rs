//! I2 acknowledged-write loss (model §4): as I1, for a record whose produce was acknowledged.
//!
//! By design as I1, and also when it was acknowledged under acks=1 (the leader alone had it).
//! Source: model §2 "acks / min.insync.replicas"; KIP-101 scenario 1 ("producer acked").

use super::{holds, leader_log, report_loss, written_at, Ctx, InvariantId, Sink};
use crate::scenario::Acks;

pub(super) fn check(ctx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(log) = leader_log(ctx) else { return };
    for (offset, id, acks, acked_at) in ctx.history.acked() {
        if holds(log, offset, id) {
            continue;
        }
        report_loss(
            ctx,
            out,
            InvariantId::I2,
            (offset, id),
            || {
                if acks == Acks::One {
                    Some("acks=1 acknowledges before any follower has the record")
                } else {
                    ctx.loss_by_design(written_at(ctx, id))
                }
            },
            || {
                format!(
                    "{} at offset {offset} was acknowledged with acks={} (step {acked_at}) and is",
                    ctx.label(id),
                    acks.label()
                )
            },
        );
    }
}
