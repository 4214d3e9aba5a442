//! The core's top-level modules depend on each other without a cycle (the groundwork issue broke
//! `engine -> trace -> resume -> engine` and `invariants -> trace -> invariants`): reading one module never
//! requires reading one that needs it back.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The core's sources, and the web shell's (the workspace root package).
fn core_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn shell_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src")
}

/// The text of a top-level module: its file, or every file under its folder, without their unit tests
/// (`#[cfg(test)]` modules may use anything, as integration tests do).
fn module_text(path: &Path) -> String {
    if path.is_file() {
        let text = fs::read_to_string(path).unwrap_or_default();
        return text.split("#[cfg(test)]\nmod tests {").next().unwrap_or_default().to_string();
    }
    let mut text = String::new();
    for entry in fs::read_dir(path).into_iter().flatten().flatten() {
        text.push_str(&module_text(&entry.path()));
    }
    text
}

/// Every top-level module and the others its code (not its comments) names as `crate::x`.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut modules = BTreeMap::new();
    for entry in fs::read_dir(src).expect("src").flatten() {
        let name = entry.file_name().to_string_lossy().trim_end_matches(".rs").to_string();
        if matches!(name.as_str(), "lib" | "main") || name.starts_with('.') {
            continue;
        }
        let code: String = module_text(&entry.path())
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let deps = code.match_indices("crate::").flat_map(|(at, _)| named_after(&code[at + 7..]));
        modules.insert(name.clone(), deps.filter(|d| !d.is_empty() && *d != name).collect());
    }
    modules
}

/// The top-level modules a path after `crate::` names: `engine::Sim` names engine, and a group
/// `{engine::Sim, trace::{Step, Trace}}` names each of its members' first segments.
fn named_after(rest: &str) -> Vec<String> {
    let word = |s: &str| s.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect::<String>();
    let Some(group) = rest.strip_prefix('{') else { return vec![word(rest)] };
    let mut depth = 0usize;
    let mut members = vec![String::new()];
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => members.push(String::new()),
            _ => {}
        }
        if let Some(member) = members.last_mut().filter(|_| depth == 0 && c != ',' && c != '}') {
            member.push(c);
        }
    }
    members.iter().map(|m| word(m.trim())).collect()
}

#[test]
fn a_grouped_use_names_each_module_it_reaches() {
    assert_eq!(named_after("engine::Sim;"), ["engine"]);
    assert_eq!(named_after("{engine::Sim, trace::{Step, Trace}, scenario};"), ["engine", "trace", "scenario"]);
}

/// A cycle through `at`, if the depth-first walk finds one.
fn cycle(
    at: &str,
    graph: &BTreeMap<String, BTreeSet<String>>,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(start) = path.iter().position(|m| m == at) {
        return Some(path[start..].iter().cloned().chain([at.to_string()]).collect());
    }
    if !done.insert(at.to_string()) {
        return None;
    }
    path.push(at.to_string());
    for next in graph.get(at).into_iter().flatten().filter(|d| graph.contains_key(*d)) {
        if let Some(found) = cycle(next, graph, path, done) {
            return Some(found);
        }
    }
    path.pop();
    None
}

fn assert_acyclic(graph: &BTreeMap<String, BTreeSet<String>>) {
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        if let Some(found) = cycle(module, graph, &mut Vec::new(), &mut done) {
            panic!("import cycle: {}", found.join(" -> "));
        }
    }
}

#[test]
fn the_cores_modules_depend_on_each_other_without_a_cycle() {
    let graph = graph(&core_src());
    assert!(graph.contains_key("engine") && graph["engine"].contains("invariants"), "the scan sees: {graph:?}");
    assert_acyclic(&graph);
}

#[test]
fn the_shells_modules_depend_on_each_other_without_a_cycle() {
    let graph = graph(&shell_src());
    assert!(graph.contains_key("model") && graph.contains_key("components"), "the scan sees: {graph:?}");
    assert_acyclic(&graph);
}
