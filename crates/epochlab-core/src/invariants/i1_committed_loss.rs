//! I1 committed-data loss (spec §4): a record that was ever below a true leader's HW is missing, or a
//! different record, at its offset on the current true leader.
//!
//! By design when an unclean election happened after it was written, or every ISR member lost power since.
//! Source: KIP-101 scenario 1 ("Message m2 has been lost permanently"); TLA+ `StrongIsr` motivation.

use super::{instead, missing_on_leader, Ctx, Key, Sink};

pub(super) fn check(ctx: &Ctx<'_>, out: &mut Sink<'_>) {
    for (offset, id, committed_at) in ctx.history.committed() {
        let Some((leader, there)) = missing_on_leader(ctx, offset, id) else { continue };
        out.report(Key("I1", i64::from(id), 0, 0, 0), || {
            let written = ctx.records.get(id as usize).map_or(0, |r| r.step);
            let by_design = ctx.history.loss_by_design(written);
            let why = by_design.map_or(String::new(), |w| format!(" (allowed: {w})"));
            ctx.violation(
                "I1",
                by_design.is_some(),
                format!(
                    "{} at offset {offset} was committed (step {committed_at}) and is gone from leader {}{}{why}",
                    ctx.label(id),
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
