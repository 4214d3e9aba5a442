//! Opening a whole scenario: a preset, a new one, one sent by an embedding page, or a snapshot (a link, the
//! stored working state, an import). What the page is (a read-only embed) outlives every load.

use epochlab_core::presets;
use epochlab_core::scenario::Scenario;

use super::action::LoadAction;
use super::Model;
use crate::formats::snapshot::Snapshot;

impl Model {
    /// Open a whole scenario.
    pub(super) fn apply_load(&mut self, load: LoadAction) {
        match load {
            LoadAction::Preset(id) => self.load_preset(&id),
            LoadAction::New => self.new_scenario(),
            LoadAction::Replace(scenario) => self.replace(*scenario),
            LoadAction::Import(snapshot) => self.import(*snapshot),
            LoadAction::Found { scenario, cursor, what } => self.load_found(*scenario, cursor, what),
            LoadAction::AddProof(stamp) => self.proof = Some(stamp.into()),
        }
    }

    /// The model a snapshot opens: its cursor clamped to the timeline, and the preset it came from recognised.
    pub fn open(snapshot: Snapshot) -> Model {
        let Snapshot { scenario, variants, cursor } = snapshot;
        let mut model = Model::new(scenario, variants, None);
        model.shown.cursor = cursor.and_then(|c| model.shown.last_step().map(|last| (c as usize).min(last)));
        let recognised = presets::recognise(&model.shown.scenario);
        (model.preset, model.edited_preset) = (recognised.preset, recognised.edited);
        model
    }

    /// Load `next`, staying what this page is, with its history and library.
    pub(super) fn load(&mut self, next: Model) {
        let (page, history, library, now) = (self.page, self.history.clone(), self.library.clone(), self.now);
        let (lessons, params) = (self.lessons.clone(), self.lesson_params.take());
        let shown = self.shown_by_lesson.take();
        *self = next;
        (self.page, self.history, self.library, self.now) = (page, history, library, now);
        (self.lessons, self.lesson_params, self.shown_by_lesson) = (lessons, params, shown);
    }

    /// Open a preset under exactly the variants it is about (nothing carries over from the last scenario).
    pub(super) fn load_preset(&mut self, id: &str) {
        let Some(p) = presets::find(id) else { return self.error(format!("there is no preset \"{id}\"")) };
        let kept = self.keep_working();
        let scenario = p.scenario();
        let what = format!("Opened the preset \u{201c}{}\u{201d}.", scenario.name);
        self.load(Model::new(scenario, p.variants.to_vec(), Some(p.id)));
        self.tell_replaced(kept, what, false);
    }

    /// An empty scenario under the landing comparison (the old rule and leader epochs).
    pub(super) fn new_scenario(&mut self) {
        let kept = self.keep_working();
        self.load(Model::new(Scenario::empty(), super::LANDING_VARIANTS.to_vec(), None));
        self.tell_replaced(kept, "Started a new scenario.".to_string(), false);
    }

    /// Replace the scenario (from an embedding page), showing its configured variant first.
    pub(super) fn replace(&mut self, scenario: Scenario) {
        let variants = self.variants_first(scenario.config.variant);
        let kept = self.keep_working();
        self.load(Model::new(scenario, variants, None));
        self.tell_replaced(kept, "The embedding page opened a scenario.".to_string(), false);
    }

    /// The variants shown, `first` first (added when it was not shown).
    fn variants_first(&self, first: epochlab_core::Variant) -> Vec<epochlab_core::Variant> {
        super::with_first(self.shown.variants.clone(), first)
    }

    /// Open what the checker found under its variant (the others shown beside it), the cursor on `cursor`.
    pub(super) fn load_found(&mut self, scenario: Scenario, cursor: Option<usize>, what: String) {
        let variants = self.variants_first(scenario.config.variant);
        let kept = self.keep_working();
        self.load(Model::new(scenario, variants, None));
        self.shown.cursor = cursor.and_then(|c| self.shown.last_step().map(|last| c.min(last)));
        self.tell_replaced(kept, what, true);
    }

    pub(super) fn import(&mut self, snapshot: Snapshot) {
        let name = snapshot.scenario.name.clone();
        let kept = self.keep_working();
        self.load(Model::open(snapshot));
        self.tell_replaced(kept, format!("Imported \"{name}\"."), true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Action;
    use crate::model::EditAction;
    use epochlab_core::Variant;

    #[test]
    fn an_import_brings_its_variants_and_cursor_and_says_so() {
        let imported = Snapshot {
            scenario: presets::find("happy-path").unwrap().scenario(),
            variants: vec![Variant::Kip101],
            cursor: Some(3),
        };
        let m = Model::landing().after(Action::Load(LoadAction::Import(Box::new(imported))));
        assert_eq!(m.shown.variants, [Variant::Kip101]);
        assert_eq!(m.shown.cursor, Some(3));
        assert!(m.notice.as_ref().is_some_and(|n| !n.error && n.text.contains("Happy path")));
    }

    #[test]
    fn what_the_checker_found_opens_on_its_step_and_undo_brings_the_scenario_back() {
        use epochlab_core::checker::{check, CheckConfig};
        let r = check(&CheckConfig { variant: Variant::HwTruncation, ..CheckConfig::default() }, |_| true);
        let found = r.counterexample.expect("hw-truncation fails");
        let step = r.violation.expect("violation").step as usize;
        let before = Model::landing();
        let what = "The shortest failure.".to_string();
        let m = before.after(Action::Load(LoadAction::Found {
            scenario: Box::new(found.clone()),
            cursor: Some(step),
            what,
        }));
        assert_eq!(*m.shown.scenario, found);
        assert_eq!(m.shown.cursor, Some(step));
        assert_eq!(m.shown.variants[0], Variant::HwTruncation);
        assert!(m.shown.variants.contains(&Variant::Kip279), "the other shown variant stays beside it");
        assert!(m.notice.as_ref().is_some_and(|n| n.text.contains("shortest failure") && n.undo));
        let undone = m.after(Action::Edit(EditAction::Undo));
        assert_eq!(undone.shown.scenario, before.shown.scenario);
    }

    #[test]
    fn a_snapshot_opens_with_its_cursor_clamped_and_its_preset_recognised() {
        let landing = Model::landing().shown.snapshot();
        let m = Model::open(Snapshot { cursor: Some(99), ..landing.clone() });
        assert_eq!((m.shown.cursor, m.preset), (Some(9), Some("kip101-scenario-1")));
        assert_eq!(Model::open(Snapshot { cursor: None, ..landing }).shown.cursor, None);
    }

    #[test]
    fn a_preset_reopened_under_other_variants_is_still_the_preset() {
        let happy = Model::landing().after(Action::Load(LoadAction::Preset("happy-path".into())));
        assert_eq!(Model::open(happy.shown.snapshot()).preset, Some("happy-path"));
        assert!(!Model::open(happy.shown.snapshot()).is_users(), "so it is not kept in My scenarios");
    }

    #[test]
    fn a_preset_opens_with_exactly_its_own_variants() {
        let shown = vec![Variant::DivergingEpoch, Variant::Kafka21, Variant::Kip101];
        let m = Model::new(Scenario::empty(), shown.clone(), None)
            .after(Action::Load(LoadAction::Preset("happy-path".into())));
        assert_eq!(m.preset, Some("happy-path"));
        assert_eq!(m.shown.variants, [Variant::Kip279]);
        let m = m.after(Action::Load(LoadAction::Preset("unclean-elections-diverge".into())));
        assert_eq!(m.shown.variants, [Variant::Kip279, Variant::Kip101]);
        assert_eq!(m.preset, Some("unclean-elections-diverge"), "still the preset itself");
        let fresh = Model::new(Scenario::empty(), shown, None).after(Action::Load(LoadAction::New));
        assert_eq!(fresh.shown.variants, crate::model::LANDING_VARIANTS);
        let n = m.after(Action::Load(LoadAction::Preset("nope".into())));
        assert!(n.notice.is_some_and(|n| n.error && n.text.contains("no preset")));
    }

    #[test]
    fn a_scenario_run_as_a_release_opens_with_the_release_and_its_variant_first() {
        let mut scenario = Scenario::empty();
        scenario.config.set_release(epochlab_core::variant::KafkaVersion::parse("4.1").unwrap());
        let shown = vec![Variant::HwTruncation, Variant::Kip279];
        let m = Model::landing().after(Action::Load(LoadAction::Import(Box::new(Snapshot {
            scenario,
            variants: shown,
            cursor: None,
        }))));
        assert_eq!(m.shown.scenario.config.kafka_version.map(|v| v.id()), Some("4.1".to_string()));
        assert_eq!(m.shown.variants, [Variant::DivergingEpoch, Variant::HwTruncation, Variant::Kip279]);
    }
}
