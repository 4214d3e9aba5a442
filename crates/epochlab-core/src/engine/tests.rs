//! Handler tests live in `tests/handlers.rs` (integration tests on the public API). Here: what only the
//! crate can see, that a quiet simulation (a search's) changes the state exactly as a narrated one does.

use super::Sim;
use crate::presets::PRESETS;
use crate::scenario::Scenario;
use crate::variant::Variant;

/// Every preset under every variant, step by step: the quiet run reaches the same state and memory as the
/// narrated run, applies and refuses the same events, and formats no narration.
#[test]
fn a_quiet_run_changes_the_state_as_a_narrated_run_does() {
    let mut narrated_steps = 0;
    for preset in PRESETS {
        let scenario: Scenario = preset.scenario();
        for variant in Variant::ALL {
            let protocol = scenario.config.protocol(variant);
            let mut loud = Sim::new(&scenario, protocol);
            let mut quiet = Sim::resume(&scenario, protocol, loud.state.clone(), loud.memory.clone());
            for (index, event) in scenario.events.iter().enumerate() {
                let step = loud.step(index as u32, event);
                let said = quiet.apply(index as u32, event);
                let context = format!("{} under {} at step {index}", preset.id, variant.id());
                assert_eq!(said.outcome, step.outcome, "{context}");
                assert_eq!(said.narration, "", "{context}");
                if said.outcome == crate::trace::Outcome::Applied {
                    quiet.check_invariants(index as u32);
                }
                assert_eq!(quiet.state, loud.state, "{context}: {:?}", step.outcome);
                assert_eq!(quiet.memory, loud.memory, "{context}: {:?}", step.outcome);
                narrated_steps += usize::from(!step.narration.is_empty());
            }
        }
    }
    assert!(narrated_steps > 100, "the narrated runs said something: {narrated_steps} steps");
}
