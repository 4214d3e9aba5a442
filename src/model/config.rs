//! Configuration: the variants shown side by side, the brokers, and the cluster settings and flags. Showing
//! variants is viewing (a view-only embed allows it); everything else is a scenario edit.

use epochlab_core::scenario::edit;
use epochlab_core::scenario::Config;
use epochlab_core::{Flag, Variant};

use super::{Model, MAX_VARIANTS};

impl Model {
    /// Show these variants (1 to [`MAX_VARIANTS`]); the first is the scenario's configured variant.
    pub(super) fn set_variants(&mut self, mut variants: Vec<Variant>) {
        variants.dedup();
        variants.truncate(MAX_VARIANTS);
        if variants.is_empty() {
            variants.push(self.scenario.config.variant);
        }
        self.scenario.config.variant = variants[0];
        self.variants = variants;
    }

    pub(super) fn show_variants(&mut self, variants: Vec<Variant>) {
        self.set_variants(variants);
        self.rerun();
    }

    /// Show or hide a variant, in the core's order; at least one stays and at most four are shown.
    pub(super) fn toggle_variant(&mut self, v: Variant) {
        let mut vs = self.variants.clone();
        if vs.contains(&v) {
            if vs.len() == 1 {
                return self.error("at least one variant stays shown");
            }
            vs.retain(|x| *x != v);
        } else if vs.len() >= MAX_VARIANTS {
            return self.error(format!("at most {MAX_VARIANTS} variants side by side"));
        } else {
            vs.push(v);
            vs.sort_by_key(|x| x.index());
        }
        self.show_variants(vs);
    }

    pub(super) fn add_broker(&mut self) {
        self.edit(|s| edit::add_broker(s).map(|_| ()), |m| m.cursor);
    }

    /// Remove a broker, saying how many of its events went with it.
    pub(super) fn remove_broker(&mut self, name: &str) {
        let mut removed = 0;
        self.edit(|s| edit::remove_broker(s, name).map(|n| removed = n), |m| m.cursor);
        if removed > 0 && self.notice.is_none() {
            self.inform(format!("Removed broker {name} and its {removed} event(s)."));
        }
    }

    pub(super) fn rename_broker(&mut self, old: &str, new: &str) {
        self.edit(|s| edit::rename_broker(s, old, new.trim()), |m| m.cursor);
    }

    /// Change the cluster settings.
    pub(super) fn configure(&mut self, change: impl FnOnce(&mut Config)) {
        self.edit(
            |s| {
                change(&mut s.config);
                Ok(())
            },
            |m| m.cursor,
        );
    }

    /// min.insync.replicas, kept between 1 and the number of brokers.
    pub(super) fn set_min_isr(&mut self, n: u8) {
        let max = self.scenario.brokers.len() as u8;
        self.configure(|c| c.min_insync_replicas = n.clamp(1, max));
    }

    /// Turn a flag on or off; the flags stay in the contract's order.
    pub(super) fn toggle_flag(&mut self, f: Flag) {
        self.configure(|c| {
            if c.flags.contains(&f) {
                c.flags.retain(|x| *x != f);
            } else {
                c.flags.push(f);
                c.flags.sort();
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Action;
    use epochlab_core::Scenario;

    #[test]
    fn variants_can_be_shown_up_to_four_and_never_none() {
        let m = Model::landing().after(Action::ToggleVariant(Variant::Kip101));
        assert_eq!(m.variants, [Variant::HwTruncation, Variant::Kip101, Variant::Kip279]);
        let m = m.after(Action::ToggleVariant(Variant::DivergingEpoch)).after(Action::ToggleVariant(Variant::Kafka21));
        assert_eq!(m.variants.len(), 4);
        assert!(m.notice.is_some());
        let m =
            Model::new(Scenario::empty(), vec![Variant::Kip279], None).after(Action::ToggleVariant(Variant::Kip279));
        assert_eq!(m.variants, [Variant::Kip279]);
    }

    #[test]
    fn brokers_and_config_edits_rerun() {
        let m = Model::landing().after(Action::AddBroker);
        assert_eq!(m.scenario.brokers, ["A", "B", "C"]);
        assert_eq!(m.traces[0].initial.replicas.len(), 3);
        let m = m.after(Action::RenameBroker("C".into(), "carol".into()));
        assert_eq!(m.scenario.brokers[2], "carol");
        let m = m.after(Action::RenameBroker("carol".into(), "A".into()));
        assert!(m.notice.as_ref().is_some_and(|n| n.error));
        let m = m.after(Action::RemoveBroker("A".into()));
        assert_eq!(m.scenario.brokers, ["B", "carol"]);
        assert!(m.notice.as_ref().is_some_and(|n| n.text.contains("Removed broker A")));
        let m = m.after(Action::SetUnclean(true)).after(Action::ToggleFlag(Flag::Kip320));
        assert!(m.scenario.config.unclean_leader_election);
        assert_eq!(m.scenario.config.flags, [Flag::Kip320]);
    }
}
