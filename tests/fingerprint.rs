//! The core's state fingerprint is the same in wasm as natively (the native twin of this test pins the same
//! value in crates/epochlab-core/tests/fingerprint.rs): the model checker's deduplication does not depend
//! on where it runs.
#![cfg(target_arch = "wasm32")]

use epochlab_core::presets::find;
use epochlab_core::{rerun_protocol, Protocol, Variant};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_fingerprint_of_a_fixed_scenario_matches_the_native_one() {
    let s = find("kip101-scenario-2").expect("preset").scenario();
    let run = rerun_protocol(None, &s, Protocol::new(Variant::Kip279, &s.config.flags));
    assert_eq!(run.resume.fingerprint(), 5_137_759_246_193_180_334);
}
