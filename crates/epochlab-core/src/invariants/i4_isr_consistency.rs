//! I4 ISR inconsistent below the HW (model §4; TLA+ `WeakIsr` and `StrongIsr`): a member of a presumed leader's
//! ISR view (weak), or of the controller's ISR (strong), holds a different record from that leader's at an
//! offset below that leader's HW. It predicts a loss: a later clean election may pick that member.
//!
//! Never by design. Source: hachikuji/kafka-specification `KafkaReplication.tla`; KAFKA-6880 (zombies
//! rejoining the ISR).

use super::{id_key, Ctx, InvariantId, Key, Sink};
use crate::state::BrokerId;

pub(super) fn check(ctx: &Ctx<'_>, out: &mut Sink<'_>) {
    for (l, leader) in ctx.state.replicas.iter().enumerate() {
        let l = l as BrokerId;
        if !leader.is_acting_leader() || leader.hw == 0 {
            continue;
        }
        let mut members = leader.isr;
        if ctx.state.controller.leader == Some(l) {
            for b in ctx.state.controller.isr.iter() {
                members.insert(b);
            }
        }
        for m in members.iter().filter(|m| *m != l) {
            let r = ctx.state.replica(m);
            let Some(offset) = (0..leader.hw).find(|&o| r.id_at(o) != leader.id_at(o)) else { continue };
            let (mine, theirs) = (r.id_at(offset), leader.id_at(offset));
            let key =
                Key(InvariantId::I4, i64::from(l) * 8 + i64::from(m), i64::from(offset), id_key(mine), id_key(theirs));
            out.report(key, || {
                let whose = if leader.isr.contains(m) {
                    format!("{}'s ISR", ctx.name(l))
                } else {
                    "the controller's ISR".to_string()
                };
                ctx.violation(
                    InvariantId::I4,
                    false,
                    format!(
                        "{} is in {whose} but holds {} at offset {offset}, below {}'s HW {}, where {} holds {}",
                        ctx.name(m),
                        ctx.describe(mine),
                        ctx.name(l),
                        leader.hw,
                        ctx.name(l),
                        ctx.describe(theirs)
                    ),
                    vec![m, l],
                    vec![offset],
                    Vec::new(),
                )
            });
        }
    }
}
