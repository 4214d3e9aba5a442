//! The web shell's house rules, read from its sources (`src/`):
//! - its Yew components and hooks stay under the workspace's 70-line rule (issues 22 and 43). Clippy's
//!   `too_many_lines` enforces it for ordinary functions, but it does not see inside a `#[function_component]`
//!   or `#[hook]` body (the macro rewrites it), so this test measures each one itself: from its `fn` line to
//!   its closing brace, counting every line, by matching braces outside comments and literals;
//! - its modules import each other without a cycle, inside every folder as between top-level modules (issue
//!   43 found `components::panels`' `config -> releases -> config`, and a tangle of nine in `model/`).
//!
//! The scan is `tests/support/source_scan.rs`, which the core's and the CLI's `tests/modules.rs` share; the
//! tests at the end show it on made-up sources.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/source_scan.rs"]
mod source_scan;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use source_scan::{code_only, is_ident, matching_brace, Crate};

/// The most lines a component or hook may take (as `too-many-lines-threshold` in clippy.toml).
const MAX_LINES: usize = 70;

/// Components and hooks allowed over the limit until split: (file, name). None now; the test fails once an
/// entry is no longer over the limit, so the list cannot go stale.
const TO_BE_SPLIT: [(&str, &str); 0] = [];

/// A function whose body a macro attribute rewrites, found in a source file.
#[derive(Debug, PartialEq, Eq)]
struct Measured {
    /// `function_component` or `hook`: the attribute's last path segment.
    kind: String,
    /// A component's name (the attribute's, else the function's), or a hook's function name.
    name: String,
    /// The line of its `fn` (from 1).
    line: usize,
    /// Lines from its `fn` line to its closing brace, both included.
    lines: usize,
}

/// The attributes whose functions are measured: clippy cannot see their bodies.
const MACROS: [&str; 2] = ["function_component", "hook"];

/// Every `#[function_component]` and `#[hook]` (also as `#[yew::hook]`) in `source` with its length, or where
/// a body never closes.
fn measured(source: &str) -> Result<Vec<Measured>, String> {
    let code = code_only(source);
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut out = Vec::new();
    for (at, _) in code.match_indices("#[") {
        let attribute = &code[at + 2..at + code[at..].find(']').ok_or(format!("line {}: no `]`", line_of(at)))?];
        let path: String = attribute.chars().take_while(|&c| is_ident(c) || c == ':').collect();
        let kind = path.rsplit("::").next().unwrap_or_default().to_string();
        if !MACROS.contains(&kind.as_str()) {
            continue;
        }
        let fn_at = fn_keyword(&code, at).ok_or(format!("line {}: no `fn` after the attribute", line_of(at)))?;
        let fn_name: String = code[fn_at + 2..].trim_start().chars().take_while(|&c| is_ident(c)).collect();
        let named = attribute[path.len()..].trim().strip_prefix('(').map(|rest| rest.trim_end_matches(')').trim());
        let name = named.filter(|n| !n.is_empty()).map_or(fn_name, str::to_string);
        let open = fn_at + code[fn_at..].find('{').ok_or(format!("line {}: `{name}` has no body", line_of(fn_at)))?;
        let close = matching_brace(&code, open).ok_or(format!("line {}: `{name}` never closes", line_of(fn_at)))?;
        out.push(Measured { kind, name, line: line_of(fn_at), lines: line_of(close) - line_of(fn_at) + 1 });
    }
    Ok(out)
}

/// The first `fn` keyword at or after `from`.
fn fn_keyword(code: &str, from: usize) -> Option<usize> {
    source_scan::word_at(&code[from..], "fn").into_iter().map(|k| from + k).find(|&k| {
        let before = code[..k].chars().next_back().is_none_or(|c| !is_ident(c));
        before && code[k + 2..].starts_with(char::is_whitespace)
    })
}

fn shell_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn every_component_and_hook_is_at_most_70_lines_or_listed_to_be_split() {
    let mut found: BTreeMap<String, usize> = BTreeMap::new();
    let (mut problems, mut listed_over) = (Vec::new(), Vec::new());
    for (under, source) in source_scan::rust_files(&shell_src()) {
        let file = format!("src/{under}");
        for m in measured(&source).unwrap_or_else(|e| panic!("{file}: {e}")) {
            *found.entry(m.kind.clone()).or_default() += 1;
            let listed = TO_BE_SPLIT.contains(&(file.as_str(), m.name.as_str()));
            if m.lines > MAX_LINES && listed {
                listed_over.push((file.clone(), m.name.clone()));
            } else if m.lines > MAX_LINES {
                problems.push(format!(
                    "{file}:{}: {} `{}` is {} lines (at most {MAX_LINES})",
                    m.line, m.kind, m.name, m.lines
                ));
            }
        }
    }
    for (file, name) in TO_BE_SPLIT {
        if !listed_over.iter().any(|(f, n)| f == file && n == name) {
            problems.push(format!("{file}: {name} is no longer over {MAX_LINES} lines: take it off TO_BE_SPLIT"));
        }
    }
    assert!(found["function_component"] >= 30 && found["hook"] >= 15, "the scan finds the shell's: {found:?}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Folders whose children import each other in a cycle, known and not yet untangled: (folder, the children
/// in the tangle). None now: `model/`'s, where `Action`, `ToPage`, `Forwarded` and their kin named each other,
/// went when the forwarded settings (`model::settings`), the files to import (`bridge`), the placement's data
/// (`placement`) and the name limit (`listing`) moved out of the modules that use them, and `Forwarded`'s
/// conversions into `action`. The test fails once a tangle appears, so the list cannot go stale.
const TANGLED: [(&str, &[&str]); 0] = [];

#[test]
fn the_shells_modules_import_each_other_without_a_cycle_in_any_folder() {
    // The library and the three programs' entry points (each its own crate, using the library by name).
    let roots = ["lib.rs", "main.rs", "worker_main.rs", "lessons_main.rs"];
    let crates = source_scan::read_crates(&shell_src(), &roots).unwrap_or_else(|e| panic!("{e}"));
    let shell = &crates[0];
    assert!(shell.imports("", "components", "model") && shell.imports("", "model", "formats"), "{:?}", shell.folders());
    assert!(shell.imports("components::panels", "config", "releases"), "{:?}", shell.folders());
    let tangles: Vec<_> = crates.iter().flat_map(Crate::tangles).collect();
    let listed = |t: &&source_scan::Tangle| TANGLED.iter().any(|(f, m)| t.folder == *f && t.members == *m);
    let mut problems: Vec<String> =
        tangles.iter().filter(|t| !listed(t)).map(|t| format!("import cycle: {t}")).collect();
    for (folder, members) in TANGLED {
        if !tangles.iter().any(|t| t.folder == folder && t.members == members) {
            problems.push(format!("{folder}: {members:?} no longer tangled like this: update TANGLED"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A component around `body` (inside its `html!`): its `fn` line to its closing brace spans the body's lines
/// and four more.
fn component(name: &str, body: &str) -> String {
    format!("#[function_component({name})]\npub fn f(p: &P) -> Html {{\n    html! {{\n{body}\n    }}\n}}\n")
}

/// A hook around `body`: its `fn` line to its closing brace spans the body's lines and two more.
fn hook(attribute: &str, name: &str, body: &str) -> String {
    format!("#[{attribute}]\npub fn {name}() -> UseStateHandle<u8> {{\n{body}\n}}\n")
}

fn measures(found: &[Measured]) -> Vec<(&str, &str, usize, usize)> {
    found.iter().map(|m| (m.kind.as_str(), m.name.as_str(), m.line, m.lines)).collect()
}

#[test]
fn a_71_line_hook_or_component_is_caught_and_70_lines_pass() {
    let lines = |n: usize| vec!["    let state = use_state(|| 0u8);"; n].join("\n");
    let long_hook = hook("hook", "use_long", &lines(71 - 2));
    let short_hook = hook("yew::hook", "use_short", &lines(70 - 2));
    let found = measured(&format!("use yew::prelude::*;\n\n{long_hook}\n{short_hook}")).expect("closes");
    assert_eq!(measures(&found), [("hook", "use_long", 4, 71), ("hook", "use_short", 77, 70)]);
    assert!(found[0].lines > MAX_LINES && found[1].lines <= MAX_LINES);
    let html = |n: usize| vec!["        <p>{ \"x\" }</p>"; n].join("\n");
    let (long, short) = (component("Long", &html(71 - 4)), component("Short", &html(69 - 4)));
    let found = measured(&format!("use yew::prelude::*;\n\n{long}\n{short}")).expect("closes");
    assert_eq!(measures(&found), [("function_component", "Long", 4, 71), ("function_component", "Short", 77, 69)]);
    // Other attributes are not measured, whatever their length.
    assert_eq!(measured(&format!("#[test]\nfn t() {{\n{}\n}}\n", lines(80))), Ok(vec![]));
}

#[test]
fn literals_and_comments_do_not_fool_the_measure() {
    // Braces in strings, raw strings, chars and comments; lifetimes and raw identifiers are code.
    let tricky = r###"        let a = "}}} \" }"; let b = r##"} "# }"##; let c = '}'; let d = '\''; let e = b'{';
        let f: &'static str = r"{"; let r#type = br"}"; /* } /* { */ } */ // }
        <p>{ "x" }</p>"###;
    let fooled = measured(&component("Tricky", tricky)).expect("closes");
    assert_eq!(measures(&fooled), [("function_component", "Tricky", 2, 3 + 4)]);
    let unnamed = "/// #[function_component] in a comment is not one\n#[function_component]\nfn plain() -> Html {\n}\n";
    assert_eq!(measures(&measured(unnamed).expect("closes")), [("function_component", "plain", 3, 2)]);
    assert!(measured("#[function_component(Open)]\nfn open() -> Html {\n    \"}\"\n").is_err());
    assert!(measured("#[hook]\nfn use_open() {\n    '}'\n").is_err());
}

/// The crate rooted at `lib.rs` among `files` (path, source).
fn tree(files: &[(&str, &str)]) -> Crate {
    let files = files.iter().map(|(p, s)| (p.to_string(), s.to_string())).collect();
    Crate::from_files(&files, "lib.rs").expect("every module has its file")
}

#[test]
fn a_cycle_through_a_file_module_and_its_folder_is_caught_either_way() {
    // `view.rs` imports `state`; its folder's `words.rs` imports nothing. Keyed by name, `view` and `view/`
    // were one key and the folder, read last, hid `view.rs`'s imports.
    let through_file = tree(&[
        ("lib.rs", "pub mod state;\npub mod view;\n"),
        ("view.rs", "mod words;\nuse crate::state::State;\npub struct View;\n"),
        ("view/words.rs", "pub fn word() {}\n"),
        ("state.rs", "use crate::view::View;\npub struct State;\n"),
    ]);
    assert_eq!(through_file.cycles(), ["crate: state -> view -> state"]);
    // The same cycle through a file of the folder: `view/words.rs` is part of `view`.
    let through_folder = tree(&[
        ("lib.rs", "pub mod state;\npub mod view;\n"),
        ("view.rs", "mod words;\npub struct View;\n"),
        ("view/words.rs", "use crate::state::State;\n"),
        ("state.rs", "use crate::view::View;\npub struct State;\n"),
    ]);
    assert_eq!(through_folder.cycles(), ["crate: state -> view -> state"]);
    assert!(through_folder.modules.contains_key(&vec!["view".to_string(), "words".to_string()]));
}

#[test]
fn a_cycle_between_files_of_a_folder_is_caught_through_super_and_crate_paths() {
    let files = [
        ("lib.rs", "mod lesson;\n"),
        ("lesson/mod.rs", "mod text;\n"),
        ("lesson/text/mod.rs", "mod read;\nmod read_step;\n"),
        ("lesson/text/read.rs", "pub fn read() { super::read_step::step(); }\npub struct Block;\n"),
        ("lesson/text/read_step.rs", "use crate::lesson::text::read::{Block, read as again};\npub fn step() {}\n"),
    ];
    assert_eq!(tree(&files).cycles(), ["crate::lesson::text: read -> read_step -> read"]);
    // Breaking one side (here with the helper moved out of `read`) breaks the cycle.
    let broken = [files[0], files[1], files[2], files[3], ("lesson/text/read_step.rs", "pub fn step() {}\n")];
    assert!(tree(&broken).cycles().is_empty());
}

#[test]
fn paths_resolve_as_rust_resolves_them() {
    let krate = tree(&[
        // `super` in `a/mod.rs` is the root, not `a`; `crate::Thing` is `c`'s, re-exported by the root.
        ("lib.rs", "mod a;\nmod b;\nmod c;\npub use c::Thing;\n"),
        ("a/mod.rs", "mod b;\nuse super::b::FromB;\n"),
        ("a/b.rs", "use crate::a::b as me;\n"),
        // Grouped and nested `use`, renamed, through a module brought in by name; comments and strings are
        // not code, nor are `#[cfg(test)]` items and `pub(in …)` visibilities.
        ("b.rs", "use crate::{c::{self as sea}, a::b::*};\nuse sea::Other;\n// use crate::a::X;\n"),
        ("c.rs", "pub struct Thing; const S: &str = \"crate::b::X\";\npub(in crate::b) fn f() {}\n#[cfg(test)]\nmod tests { use crate::a::Y; }\n"),
    ]);
    assert!(krate.imports("", "a", "b"), "{:?}", krate.folders());
    assert!(krate.imports("", "b", "c") && krate.imports("", "b", "a"), "{:?}", krate.folders());
    assert!(!krate.imports("", "c", "b") && !krate.imports("", "c", "a"), "{:?}", krate.folders());
    assert!(krate.modules[&vec!["c".to_string(), "tests".to_string()]].test_only);
    assert_eq!(krate.cycles(), ["crate: a -> b -> a"]);
    // Through the root's re-export: `crate::Thing` is `c::Thing`.
    let reexported = tree(&[
        ("lib.rs", "mod c;\nmod d;\npub use c::Thing;\n"),
        ("c.rs", "pub struct Thing(crate::d::D);\n"),
        ("d.rs", "pub struct D(Box<crate::Thing>);\n"),
    ]);
    assert_eq!(reexported.cycles(), ["crate: c -> d -> c"]);
}

#[test]
fn every_file_must_be_a_module_the_roots_reach() {
    let dir = std::env::temp_dir().join(format!("house-rules-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).expect("temp dir");
    std::fs::write(dir.join("lib.rs"), "mod a;\n").expect("write");
    std::fs::write(dir.join("a.rs"), "").expect("write");
    std::fs::write(dir.join("a/forgotten.rs"), "").expect("write");
    let read = source_scan::read_crates(&dir, &["lib.rs"]).map(|crates| crates.len());
    std::fs::remove_dir_all(&dir).expect("clean up");
    assert!(read.as_ref().is_err_and(|e| e.contains("a/forgotten.rs")), "{read:?}");
}
