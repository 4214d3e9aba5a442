//! Configuration: the variants shown side by side, the brokers, and the cluster settings and flags. Showing
//! variants is viewing (a view-only embed allows it); everything else is a scenario edit.

use epochlab_core::scenario::edit;
use epochlab_core::scenario::Config;
use epochlab_core::variant::KafkaVersion;
#[cfg(test)]
use epochlab_core::variant::ProtocolVersion;
use epochlab_core::{Flag, Variant};

use super::{ConfigAction, Model, MAX_VARIANTS};

impl Model {
    /// A change of the cluster's settings: each one, named here (a new one is a compiler error).
    pub(super) fn change_config(&mut self, change: ConfigAction) {
        match change {
            ConfigAction::AddBroker => self.add_broker(),
            ConfigAction::RemoveBroker(name) => self.remove_broker(&name),
            ConfigAction::RenameBroker(old, new) => self.rename_broker(&old, &new),
            ConfigAction::SetMinIsr(n) => self.set_min_isr(n),
            ConfigAction::SetUnclean(on) => self.configure(|c| c.unclean_leader_election = on),
            ConfigAction::SetHwCheckpoint(p) => self.configure(|c| c.hw_checkpoint = p),
            ConfigAction::SetFlush(p) => self.configure(|c| c.flush = p),
            ConfigAction::ToggleFlag(f) => self.toggle_flag(f),
            ConfigAction::SetKafkaRelease(r) => self.set_release(r),
            ConfigAction::SetElr(on) => self.configure(|c| c.eligible_leader_replicas = on),
            ConfigAction::SetMetadataMode(mode) => self.configure(|c| {
                c.metadata_mode = mode;
                c.drop_refused_knobs();
            }),
            ConfigAction::SetInterBrokerProtocol(v) => self.configure(|c| c.set_inter_broker_protocol(v)),
            ConfigAction::SetMessageFormat(v) => self.configure(|c| {
                c.log_message_format_version = v;
                c.drop_refused_knobs();
            }),
        }
    }

    /// Run as a Kafka release (its variant shown first, the other shown variants kept beside it), or forget
    /// the release. A column that choosing a release added goes when the release is forgotten or another is
    /// chosen, rather than stay to travel into links and embed codes unasked; the columns shown otherwise stay.
    pub(super) fn set_release(&mut self, release: Option<KafkaVersion>) {
        let added = self.shown.scenario.config.kafka_version.and(self.release_column.take());
        let kept: Vec<Variant> = self.shown.variants.iter().copied().filter(|v| Some(*v) != added).collect();
        let Some(r) = release else {
            self.configure(Config::forget_release);
            if added.is_some() && !kept.is_empty() {
                self.show_variants(kept);
            }
            return;
        };
        self.release_column = (!kept.contains(&r.variant())).then_some(r.variant());
        let mut shown = vec![r.variant()];
        shown.extend(kept.into_iter().filter(|v| *v != r.variant()));
        self.configure(|c| c.set_release(r));
        self.show_variants(shown);
    }

    pub(super) fn show_variants(&mut self, variants: Vec<Variant>) {
        self.shown.set_variants(variants);
        self.rerun();
    }

    /// Show or hide a variant, in the core's order; at least one stays and at most four are shown.
    pub(super) fn toggle_variant(&mut self, v: Variant) {
        let mut vs = self.shown.variants.clone();
        if vs.contains(&v) {
            if vs.len() == 1 {
                return self.error("at least one variant stays shown");
            }
            vs.retain(|x| *x != v);
        } else if vs.len() >= MAX_VARIANTS {
            return self.error(format!("at most {MAX_VARIANTS} variants side by side"));
        } else {
            // In the picker's order (Variant::ALL), as a sort would leave them, without a sort in the page.
            vs = Variant::ALL.into_iter().filter(|x| *x == v || vs.contains(x)).collect();
        }
        self.show_variants(vs);
    }

    pub(super) fn add_broker(&mut self) {
        self.edit(|s| edit::add_broker(s).map(|_| ()), |m| m.shown.cursor);
    }

    /// Remove a broker, saying how many of its events went with it.
    pub(super) fn remove_broker(&mut self, name: &str) {
        let mut removed = 0;
        self.edit(|s| edit::remove_broker(s, name).map(|n| removed = n), |m| m.shown.cursor);
        if removed > 0 && self.notice.is_none() {
            self.inform(format!("Removed broker {name} and its {removed} event(s)."));
        }
    }

    pub(super) fn rename_broker(&mut self, old: &str, new: &str) {
        self.edit(|s| edit::rename_broker(s, old, new.trim()), |m| m.shown.cursor);
    }

    /// Change the cluster settings.
    pub(super) fn configure(&mut self, change: impl FnOnce(&mut Config)) {
        self.edit(
            |s| {
                change(&mut s.config);
                Ok(())
            },
            |m| m.shown.cursor,
        );
    }

    /// min.insync.replicas, kept between 1 and the number of brokers.
    pub(super) fn set_min_isr(&mut self, n: u8) {
        let max = self.shown.scenario.brokers.len() as u8;
        self.configure(|c| c.min_insync_replicas = n.clamp(1, max));
    }

    /// Turn a flag on or off; the flags stay in the contract's order.
    pub(super) fn toggle_flag(&mut self, f: Flag) {
        self.configure(|c| {
            if c.flags.contains(&f) {
                c.flags.retain(|x| *x != f);
            } else {
                // The contract's order (Flag::ALL; a scenario never holds a flag twice), without a sort.
                c.flags = Flag::ALL.into_iter().filter(|x| *x == f || c.flags.contains(x)).collect();
            }
            c.keep_release_consistent();
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Action;
    use crate::model::{EditAction, VariantsAction};
    use epochlab_core::Scenario;

    #[test]
    fn variants_can_be_shown_up_to_four_and_never_none() {
        let m = Model::landing().after(Action::Variants(VariantsAction::Toggle(Variant::Kip101)));
        assert_eq!(m.shown.variants, [Variant::HwTruncation, Variant::Kip101, Variant::Kip279]);
        let m = m
            .after(Action::Variants(VariantsAction::Toggle(Variant::DivergingEpoch)))
            .after(Action::Variants(VariantsAction::Toggle(Variant::Kafka21)));
        assert_eq!(m.shown.variants.len(), 4);
        assert!(m.notice.is_some());
        let m = Model::new(Scenario::empty(), vec![Variant::Kip279], None)
            .after(Action::Variants(VariantsAction::Toggle(Variant::Kip279)));
        assert_eq!(m.shown.variants, [Variant::Kip279]);
    }

    #[test]
    fn brokers_and_config_edits_rerun() {
        let m = Model::landing().after(Action::Config(ConfigAction::AddBroker));
        assert_eq!(m.shown.scenario.brokers, ["A", "B", "C"]);
        assert_eq!(m.shown.traces[0].initial.replicas.len(), 3);
        let m = m.after(Action::Config(ConfigAction::RenameBroker("C".into(), "carol".into())));
        assert_eq!(m.shown.scenario.brokers[2], "carol");
        let m = m.after(Action::Config(ConfigAction::RenameBroker("carol".into(), "A".into())));
        assert!(m.notice.as_ref().is_some_and(|n| n.error));
        let m = m.after(Action::Config(ConfigAction::RemoveBroker("A".into())));
        assert_eq!(m.shown.scenario.brokers, ["B", "carol"]);
        assert!(m.notice.as_ref().is_some_and(|n| n.text.contains("Removed broker A")));
        let m = m
            .after(Action::Config(ConfigAction::SetUnclean(Some(true))))
            .after(Action::Config(ConfigAction::ToggleFlag(Flag::Kip320)));
        assert_eq!(m.shown.scenario.config.unclean_leader_election, Some(true));
        assert_eq!(m.shown.scenario.config.flags, [Flag::Kip320]);
    }

    #[test]
    fn a_release_sets_the_first_variant_and_a_variant_or_flag_of_its_own_forgets_it() {
        let m = Model::landing()
            .after(Action::Config(ConfigAction::ToggleFlag(Flag::Kip320)))
            .after(Action::Config(ConfigAction::SetKafkaRelease(KafkaVersion::parse("1.1").ok())));
        assert_eq!(m.shown.scenario.config.kafka_version, KafkaVersion::parse("1.1").ok());
        assert_eq!(m.shown.variants, [Variant::Kip101, Variant::HwTruncation, Variant::Kip279]);
        assert_eq!((m.shown.scenario.config.variant, m.shown.scenario.config.flags.len()), (Variant::Kip101, 0));
        assert_eq!(m.shown.traces[0].variant, Variant::Kip101);
        // Undo brings back the variant and the flag in one step.
        let back = m.after(Action::Edit(EditAction::Undo));
        assert_eq!(
            (back.shown.scenario.config.kafka_version, back.shown.scenario.config.flags.clone()),
            (None, vec![Flag::Kip320])
        );
        // A flag of one's own is no longer the release.
        let flagged = m.after(Action::Config(ConfigAction::ToggleFlag(Flag::Kafka7415)));
        assert_eq!(flagged.shown.scenario.config.kafka_version, None);
        // Nor is another first variant; hiding a variant beside it keeps it.
        let beside = m.after(Action::Variants(VariantsAction::Toggle(Variant::Kip279)));
        assert_eq!(beside.shown.scenario.config.kafka_version, KafkaVersion::parse("1.1").ok());
        let other = m.after(Action::Variants(VariantsAction::Set(vec![Variant::Kip279])));
        assert_eq!(other.shown.scenario.config.kafka_version, None);
        // Forgetting the release takes away the column choosing it added; one shown before stays.
        let cleared = m.after(Action::Config(ConfigAction::SetKafkaRelease(None)));
        assert_eq!(cleared.shown.scenario.config.kafka_version, None);
        assert_eq!(cleared.shown.variants, [Variant::HwTruncation, Variant::Kip279]);
        assert_eq!(cleared.shown.scenario.config.variant, Variant::HwTruncation);
        let again = Model::landing()
            .after(Action::Variants(VariantsAction::Toggle(Variant::Kip101)))
            .after(Action::Config(ConfigAction::SetKafkaRelease(KafkaVersion::parse("1.1").ok())))
            .after(Action::Config(ConfigAction::SetKafkaRelease(KafkaVersion::parse("2.1").ok())))
            .after(Action::Config(ConfigAction::SetKafkaRelease(None)));
        assert!(
            again.shown.variants.contains(&Variant::Kip101),
            "shown before 1.1 was chosen: {:?}",
            again.shown.variants
        );
        assert!(!again.shown.variants.contains(&Variant::Kafka21), "2.1 column went: {:?}", again.shown.variants);
    }

    #[test]
    fn a_releases_settings_are_kept_with_it_and_forgotten_with_it() {
        let m = Model::landing()
            .after(Action::Config(ConfigAction::SetKafkaRelease(KafkaVersion::parse("4.0").ok())))
            .after(Action::Config(ConfigAction::SetElr(Some(true))));
        assert_eq!(m.shown.scenario.config.eligible_leader_replicas, Some(true));
        assert!(m.shown.traces[0].rules.elr, "the release's column runs with ELR");
        // 3.9 has no ELR: the setting goes; an inter-broker protocol may be set there.
        let older = m
            .after(Action::Config(ConfigAction::SetKafkaRelease(KafkaVersion::parse("3.9").ok())))
            .after(Action::Config(ConfigAction::SetInterBrokerProtocol(ProtocolVersion::parse("2.7-IV0").ok())));
        let c = &older.shown.scenario.config;
        assert_eq!(
            (c.eligible_leader_replicas, c.inter_broker_protocol_version.map(ProtocolVersion::id)),
            (None, Some("2.7-IV0".into()))
        );
        // Back to 4.x, which has no inter-broker protocol setting: it goes too.
        let newer = older.after(Action::Config(ConfigAction::SetKafkaRelease(KafkaVersion::parse("4.1").ok())));
        assert_eq!(newer.shown.scenario.config.inter_broker_protocol_version, None);
        let none = older.after(Action::Config(ConfigAction::SetKafkaRelease(None)));
        assert_eq!(none.shown.scenario.config.inter_broker_protocol_version, None);
        assert!(epochlab_core::parse_scenario(&none.shown.scenario.to_json()).is_ok(), "what is left is a valid file");
    }
}
