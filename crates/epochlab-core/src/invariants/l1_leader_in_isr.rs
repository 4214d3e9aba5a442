//! L1 the controller's leader is not in the controller's ISR (model §4; TLA+ `LeaderInIsr`, added by Guozhang
//! Wang in 2020). Holds with the controller rules of E1, which keep the last ISR member.
//!
//! Never by design. Source: hachikuji/kafka-specification `KafkaReplication.tla`.

use super::{Ctx, InvariantId, Key, Sink};

pub(super) fn check(ctx: &Ctx<'_>, out: &mut Sink<'_>) {
    let c = &ctx.state.controller;
    let Some(l) = c.leader else { return };
    if c.isr.contains(l) {
        return;
    }
    out.report(Key(InvariantId::L1, i64::from(l), i64::from(c.leader_epoch), 0, 0), || {
        ctx.violation(
            InvariantId::L1,
            false,
            format!(
                "the controller's leader {} of epoch {} is not in its ISR {{{}}}",
                ctx.name(l),
                c.leader_epoch,
                c.isr.iter().map(|b| ctx.name(b)).collect::<Vec<_>>().join(", ")
            ),
            vec![l],
            vec![],
            Vec::new(),
        )
    });
}
