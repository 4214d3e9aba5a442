//! The text panel's edits: the scenario its text reads as replaces the working one, as one undoable edit.
//! The panel reads the text with the core (`epochlab_core::scenario::text`); the model only takes the result.

use epochlab_core::scenario::Scenario;

use super::Model;

impl Model {
    /// Take the scenario the text reads as. The name stays as written (an edited preset is not renamed
    /// "(edited)" here, which would rewrite the line being typed); a new `variant:` is shown first.
    pub(super) fn apply_text(&mut self, scenario: Scenario) {
        if scenario == *self.shown.scenario {
            return;
        }
        let was_at_end = self.shown.cursor == self.shown.last_step();
        if let Some(id) = self.preset.take() {
            self.edited_preset = Some(id);
        }
        let variant = scenario.config.variant;
        self.shown.scenario = std::rc::Rc::new(scenario);
        if self.shown.variants.first() != Some(&variant) {
            self.shown.set_variants(super::with_first(self.shown.variants.clone(), variant));
        }
        self.clear_error();
        self.rerun();
        if was_at_end {
            self.shown.cursor = self.shown.last_step();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::EditAction;
    use crate::model::{Action, Model};
    use epochlab_core::scenario::text::{parse_text, to_text};
    use epochlab_core::Variant;

    fn applied(m: &Model, text: &str) -> Model {
        m.after(Action::Edit(EditAction::ApplyText(Box::new(parse_text(text).expect("valid text")))))
    }

    #[test]
    fn a_text_edit_is_one_undo_entry_and_undo_brings_the_timeline_back() {
        let m = Model::landing();
        let text = to_text(&m.shown.scenario).replace("\ncrash B\n", "\ncrash B power\nsettle\n");
        let edited = applied(&m, &text);
        assert_eq!(edited.shown.scenario.events.len(), m.shown.scenario.events.len() + 1);
        assert_eq!(edited.history.depth(), m.history.depth() + 1);
        assert_eq!(edited.shown.cursor, edited.shown.last_step(), "at the end, the cursor follows the end");
        assert_eq!(edited.shown.scenario.name, m.shown.scenario.name, "the name stays as written");
        assert_eq!((edited.preset, edited.edited_preset), (None, m.preset), "no longer the preset itself");
        let undone = edited.after(Action::Edit(EditAction::Undo));
        assert_eq!(undone.shown.scenario, m.shown.scenario);
        assert_eq!(to_text(&undone.shown.scenario), to_text(&m.shown.scenario), "the text follows");
    }

    #[test]
    fn the_same_scenario_again_is_no_edit_and_a_new_variant_is_shown_first() {
        let m = Model::landing();
        let same = applied(&m, &format!("# a comment\n{}", to_text(&m.shown.scenario)));
        assert!(!same.history.can_undo());
        assert_eq!(same.shown.traces, m.shown.traces, "no re-run");
        let text = to_text(&m.shown.scenario).replace("variant: hw-truncation", "variant: kip-101");
        let other = applied(&m, &text);
        assert_eq!(other.shown.variants, [Variant::Kip101, Variant::HwTruncation, Variant::Kip279]);
        assert_eq!(other.shown.traces.len(), 3);
    }

    #[test]
    fn a_view_only_embed_refuses_a_text_edit() {
        let mut m = Model::landing();
        m.page.read_only = true;
        let text = to_text(&m.shown.scenario).replace("\ncrash B\n", "\nsettle\n");
        assert_eq!(applied(&m, &text).shown.scenario, m.shown.scenario);
    }
}
