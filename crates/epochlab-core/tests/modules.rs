//! The core's modules import each other without a cycle, inside every folder as between top-level modules
//! (the groundwork issue broke `engine -> trace -> resume -> engine` and `invariants -> trace -> invariants`;
//! issue 43 `lesson::text`'s `read -> read_step -> read`): reading one module never requires reading one that
//! needs it back. The scan (`tests/support/source_scan.rs` at the workspace root, shared with the shell's and
//! the CLI's checks) keys modules by path, so `view.rs` and its folder `view/` are one module.

#[path = "../../../tests/support/source_scan.rs"]
mod source_scan;

use std::path::Path;

#[test]
fn the_cores_modules_import_each_other_without_a_cycle_in_any_folder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let crates = source_scan::read_crates(&src, &["lib.rs"]).unwrap_or_else(|e| panic!("{e}"));
    let core = &crates[0];
    // The scan sees imports between top-level modules, through `view.rs` as well as `view/`, and in folders.
    assert!(core.imports("", "engine", "invariants"), "{:?}", core.folders());
    assert!(core.imports("", "view", "epoch_cache") && core.imports("", "view", "trace"), "{:?}", core.folders());
    assert!(core.imports("lesson::text", "read", "read_step"), "{:?}", core.folders());
    let cycles = core.cycles();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}
