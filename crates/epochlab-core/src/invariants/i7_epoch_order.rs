//! I7 record epochs decreasing along a log (model §4, a diagnostic): a symptom of divergence, e.g. a follower
//! left with epochs `[0, 1, 0, 2]` under KIP-101 (model §5.3 "lt").
//!
//! Never by design. Source: KIP-101's definition of the leader epoch ("monotonically increasing").

use super::{Ctx, InvariantId, Key, Sink};
use crate::state::BrokerId;

pub(super) fn check(ctx: &Ctx<'_>, out: &mut Sink<'_>) {
    for (b, r) in ctx.state.replicas.iter().enumerate() {
        let Some(o) = r.log.windows(2).position(|w| w[1].epoch < w[0].epoch) else { continue };
        let offset = o as u32 + 1;
        let (prev, next) = (r.log[o], r.log[o + 1]);
        out.report(Key(InvariantId::I7, b as i64, i64::from(offset), i64::from(next.id), 0), || {
            ctx.violation(
                InvariantId::I7,
                false,
                format!(
                    "{}'s log goes from epoch {} at offset {} to epoch {} at offset {offset} ({} after {})",
                    ctx.name(b as BrokerId),
                    prev.epoch,
                    offset - 1,
                    next.epoch,
                    ctx.label(next.id),
                    ctx.label(prev.id)
                ),
                vec![b as BrokerId],
                vec![offset - 1, offset],
                Vec::new(),
            )
        });
    }
}
