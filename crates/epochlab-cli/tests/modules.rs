//! The CLI's modules import each other without a cycle, inside every folder as between top-level modules
//! (issue 43 found `commands -> release -> commands`). The scan is the workspace's
//! `tests/support/source_scan.rs`, shared with the core's and the shell's checks.

#[path = "../../../tests/support/source_scan.rs"]
mod source_scan;

use std::path::Path;

#[test]
fn the_clis_modules_import_each_other_without_a_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let crates = source_scan::read_crates(&src, &["main.rs"]).unwrap_or_else(|e| panic!("{e}"));
    let cli = &crates[0];
    assert!(cli.imports("", "release", "grid") && cli.imports("", "commands", "messages"), "{:?}", cli.folders());
    let cycles = cli.cycles();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}
