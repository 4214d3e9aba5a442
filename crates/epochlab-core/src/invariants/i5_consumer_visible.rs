//! I5 consumer-visible record lost or rewritten (model §4): a record a consumer read is missing, or a different
//! record, at its offset on the current true leader: a "phantom read".
//!
//! By design under the same rules as I1. Source: the KIP-101 walkthrough ("m2 was committed and consumers
//! could read it through B"); KIP-320's consumer-side motivation.

use super::{holds, leader_log, report_loss, written_at, Ctx, InvariantId, Sink};

pub(super) fn check(ctx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(log) = leader_log(ctx) else { return };
    for (offset, id, seen_at) in ctx.history.seen() {
        if holds(log, offset, id) {
            continue;
        }
        report_loss(
            ctx,
            out,
            InvariantId::I5,
            (offset, id),
            || ctx.loss_by_design(written_at(ctx, id)),
            || format!("a consumer read {} at offset {offset} (step {seen_at}) and it is", ctx.label(id)),
        );
    }
}
