//! Every "model §N" the code cites resolves to a section of `docs/model.md`, the model's reference in the
//! repository (section numbers there are stable because of this).

use std::fs;
use std::path::{Path, PathBuf};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `dir`, skipping build output.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if path.is_dir() && !matches!(name.as_str(), "target" | "node_modules" | ".git") && !name.starts_with("dist") {
            sources(&path, out);
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// The section numbers `docs/model.md` defines: "3", "3.4", ... from its `## 3.` and `### 3.4` headings.
fn sections(model: &str) -> Vec<String> {
    let headings = model.lines().filter_map(|l| l.strip_prefix("## ").or_else(|| l.strip_prefix("### ")));
    headings.filter_map(|h| h.split_whitespace().next()).map(|n| n.trim_end_matches('.').to_string()).collect()
}

/// The section numbers cited in a text: the digits and dots after each "odel §" (model § or Model §).
fn citations(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("odel §") {
        let rest = &text[at + "odel §".len()..];
        let number: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
        let number = number.trim_end_matches('.');
        if !number.is_empty() {
            found.push(number.to_string());
        }
    }
    found
}

#[test]
fn every_model_citation_in_the_code_names_a_section_of_docs_model_md() {
    let root = repository();
    let model = fs::read_to_string(root.join("docs/model.md")).expect("docs/model.md exists");
    let defined = sections(&model);
    let mut files = Vec::new();
    for dir in ["crates", "src", "tests"] {
        sources(&root.join(dir), &mut files);
    }
    let mut cited = 0;
    for file in &files {
        let text = fs::read_to_string(file).unwrap_or_default();
        for number in citations(&text) {
            cited += 1;
            assert!(defined.contains(&number), "{} cites model §{number}, which docs/model.md lacks", file.display());
        }
    }
    assert!(cited > 40, "only {cited} citations found: is the scan looking in the right place?");
}

#[test]
fn no_code_cites_the_research_notes_outside_the_repository() {
    let mut files = Vec::new();
    sources(&repository().join("crates"), &mut files);
    sources(&repository().join("src"), &mut files);
    for file in files {
        let text = fs::read_to_string(&file).unwrap_or_default();
        let old = concat!("spec ", "§");
        assert!(!text.contains(old), "{} still cites \"{old}\": point it at docs/model.md", file.display());
    }
}
