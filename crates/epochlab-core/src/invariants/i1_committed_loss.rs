//! I1 committed-data loss (model §4): a record that was ever below a true leader's HW is missing, or a
//! different record, at its offset on the current true leader.
//!
//! By design when an unclean election happened after it was written, or every ISR member lost power since.
//! Source: KIP-101 scenario 1 ("Message m2 has been lost permanently"); TLA+ `StrongIsr` motivation.

use super::{holds, leader_log, report_loss, written_at, Ctx, InvariantId, Sink};

pub(super) fn check(ctx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(log) = leader_log(ctx) else { return };
    for (offset, id, committed_at) in ctx.history.committed() {
        if holds(log, offset, id) {
            continue;
        }
        report_loss(
            ctx,
            out,
            InvariantId::I1,
            (offset, id),
            || ctx.loss_by_design(written_at(ctx, id)),
            || format!("{} at offset {offset} was committed (step {committed_at}) and is", ctx.label(id)),
        );
    }
}
