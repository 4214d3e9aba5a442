//! O1 HW went backwards (model §4): the true leader's HW is below the highest HW any true leader has exposed.
//! Always reported as allowed: it happens in every variant right after a leader change, because a new leader
//! starts from its own follower HW. Kafka 2.2+ hides it from ListOffsets (KAFKA-2334).
//!
//! Source: model §4 O1; KAFKA-2334; TLA+ `BecomeLeader` ("the high watermark upon becoming a leader is
//! typically behind the 'true' high watermark").

use super::{Ctx, InvariantId, Key, Sink};

pub(super) fn check(ctx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(tl) = ctx.state.true_leader() else { return };
    let Some((max, by, epoch)) = ctx.history.max_hw() else { return };
    let r = ctx.state.replica(tl);
    if r.hw >= max {
        return;
    }
    out.report(Key(InvariantId::O1, i64::from(tl), i64::from(r.known_epoch), 0, 0), || {
        ctx.violation(
            InvariantId::O1,
            true,
            format!(
                "leader {} exposes HW {} in epoch {}, below the HW {max} that {} exposed in epoch {epoch} (allowed: a new leader starts from its own, older HW)",
                ctx.name(tl),
                r.hw,
                r.known_epoch,
                ctx.name(by)
            ),
            vec![tl],
            vec![r.hw],
            Vec::new(),
        )
    });
}
