//! I5 consumer-visible record lost or rewritten (spec §4): a record a consumer read is missing, or a different
//! record, at its offset on the current true leader: a "phantom read".
//!
//! By design under the same rules as I1. Source: the KIP-101 walkthrough ("m2 was committed and consumers
//! could read it through B"); KIP-320's consumer-side motivation.

use super::{instead, missing_on_leader, Ctx, Key, Sink};

pub(super) fn check(ctx: &Ctx<'_>, out: &mut Sink<'_>) {
    for (offset, id, seen_at) in ctx.history.seen() {
        let Some((leader, there)) = missing_on_leader(ctx, offset, id) else { continue };
        out.report(Key("I5", i64::from(id), 0, 0, 0), || {
            let written = ctx.records.get(id as usize).map_or(0, |r| r.step);
            let by_design = ctx.history.loss_by_design(written);
            let why = by_design.map_or(String::new(), |w| format!(" (allowed: {w})"));
            ctx.violation(
                "I5",
                by_design.is_some(),
                format!(
                    "a consumer read {} at offset {offset} (step {seen_at}) and it is gone from leader {}{}{why}",
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
