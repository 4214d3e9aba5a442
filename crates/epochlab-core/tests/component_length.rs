//! The web shell's Yew components stay under the workspace's 70-line rule (issue 22). Clippy's `too_many_lines`
//! enforces it for ordinary functions, but it does not see inside a `#[function_component]` body (the macro
//! rewrites it), so this test measures each component itself: from its `fn` line to its closing brace,
//! counting every line, by matching braces outside comments and string, char and raw string literals.

use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a component may take (as `too-many-lines-threshold` in clippy.toml).
const MAX_LINES: usize = 70;

/// Components allowed over the limit until split: (file, component name). None now; the test fails once an
/// entry is no longer over the limit, so the list cannot go stale.
const TO_BE_SPLIT: [(&str, &str); 0] = [];

/// A `#[function_component]` found in a source file.
#[derive(Debug, PartialEq, Eq)]
struct Component {
    /// The component's name: the attribute's, else the function's.
    name: String,
    /// The line of its `fn` (from 1).
    line: usize,
    /// Lines from its `fn` line to its closing brace, both included.
    lines: usize,
}

/// `source` with every comment and literal blanked to spaces (newlines kept, so lines still count).
fn code_only(source: &str) -> String {
    let s: Vec<char> = source.chars().collect();
    let mut out = s.clone();
    let mut i = 0;
    while i < s.len() {
        let starts_token = i == 0 || !is_ident(s[i - 1]);
        match skipped_span(&s, i, starts_token) {
            Some(end) => {
                for c in &mut out[i..end] {
                    if *c != '\n' {
                        *c = ' ';
                    }
                }
                i = end;
            }
            None => i += 1,
        }
    }
    out.into_iter().collect()
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where the comment or literal that starts at `i` ends (exclusive), if one starts there. A raw string's `r`
/// only counts at the start of a token (not the end of `bar`).
fn skipped_span(s: &[char], i: usize, starts_token: bool) -> Option<usize> {
    match (s[i], s.get(i + 1)) {
        ('/', Some('/')) => Some(s[i..].iter().position(|&c| c == '\n').map_or(s.len(), |p| i + p)),
        ('/', Some('*')) => Some(block_comment_end(s, i)),
        ('"', _) => Some(string_end(s, i + 1)),
        ('\'', _) => char_literal_end(s, i),
        ('r' | 'b', _) if starts_token => raw_string_end(s, i),
        _ => None,
    }
}

/// The end of a (nested) `/* */` comment starting at `i`.
fn block_comment_end(s: &[char], i: usize) -> usize {
    let (mut depth, mut j) = (0usize, i);
    while j + 1 < s.len() {
        match (s[j], s[j + 1]) {
            ('/', '*') => (depth, j) = (depth + 1, j + 2),
            ('*', '/') if depth == 1 => return j + 2,
            ('*', '/') => (depth, j) = (depth - 1, j + 2),
            _ => j += 1,
        }
    }
    s.len()
}

/// The end of a string whose text starts at `j` (after its opening quote).
fn string_end(s: &[char], mut j: usize) -> usize {
    while j < s.len() {
        match s[j] {
            '\\' => j += 2,
            '"' => return j + 1,
            _ => j += 1,
        }
    }
    s.len()
}

/// The end of a char literal at `i` (`'{'`, `'\''`, `'\u{7b}'`); `None` for a lifetime or a label (`'a`).
fn char_literal_end(s: &[char], i: usize) -> Option<usize> {
    if s.get(i + 1) == Some(&'\\') {
        return s.iter().skip(i + 3).position(|&c| c == '\'').map(|p| i + 3 + p + 1);
    }
    (s.get(i + 2) == Some(&'\'')).then_some(i + 3)
}

/// The end of a raw string at `i` (`r"…"`, `r#"…"#`, `br"…"`); `None` for anything else (`r#type`, `bar`).
fn raw_string_end(s: &[char], i: usize) -> Option<usize> {
    let mut j = i + usize::from(s[i] == 'b');
    if s.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = s[j..].iter().take_while(|&&c| c == '#').count();
    j += hashes;
    if s.get(j) != Some(&'"') {
        return None;
    }
    let closing: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
    let text = j + 1;
    let found = s[text..].windows(closing.len()).position(|w| w == closing.as_slice());
    Some(found.map_or(s.len(), |p| text + p + closing.len()))
}

/// The index of the brace that closes the one at `open`, in code without comments or literals.
fn matching_brace(code: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 1 => return Some(open + k),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Every `#[function_component]` in `source` with its length, or where a body never closes.
fn components(source: &str) -> Result<Vec<Component>, String> {
    let code = code_only(source);
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut out = Vec::new();
    for (at, _) in code.match_indices("#[function_component") {
        let attribute = &code[at..at + code[at..].find(']').ok_or(format!("line {}: no `]`", line_of(at)))?];
        let fn_at = fn_keyword(&code, at).ok_or(format!("line {}: no `fn` after the attribute", line_of(at)))?;
        let fn_name: String = code[fn_at + 2..].trim_start().chars().take_while(|&c| is_ident(c)).collect();
        let named = attribute.split_once('(').map(|(_, rest)| rest.trim_end_matches(')').trim().to_string());
        let name = named.filter(|n| !n.is_empty()).unwrap_or(fn_name);
        let open = fn_at + code[fn_at..].find('{').ok_or(format!("line {}: `{name}` has no body", line_of(fn_at)))?;
        let close = matching_brace(&code, open).ok_or(format!("line {}: `{name}` never closes", line_of(fn_at)))?;
        out.push(Component { name, line: line_of(fn_at), lines: line_of(close) - line_of(fn_at) + 1 });
    }
    Ok(out)
}

/// The first `fn` keyword at or after `from`.
fn fn_keyword(code: &str, from: usize) -> Option<usize> {
    code[from..].match_indices("fn").map(|(k, _)| from + k).find(|&k| {
        let before = code[..k].chars().next_back().is_none_or(|c| !is_ident(c));
        let after = code[k + 2..].chars().next().is_some_and(char::is_whitespace);
        before && after
    })
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

#[test]
fn every_component_is_at_most_70_lines_or_listed_to_be_split() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src");
    let (mut found, mut problems) = (0, Vec::new());
    let mut listed_over: Vec<(String, String)> = Vec::new();
    for path in rust_files(&src) {
        let under = path.strip_prefix(&src).expect("under src/").to_string_lossy().replace('\\', "/");
        let file = format!("src/{under}");
        let source = fs::read_to_string(&path).expect("readable");
        for c in components(&source).unwrap_or_else(|e| panic!("{file}: {e}")) {
            found += 1;
            let listed = TO_BE_SPLIT.contains(&(file.as_str(), c.name.as_str()));
            if c.lines > MAX_LINES && listed {
                listed_over.push((file.clone(), c.name.clone()));
            } else if c.lines > MAX_LINES {
                problems.push(format!("{file}:{}: {} is {} lines (at most {MAX_LINES})", c.line, c.name, c.lines));
            }
        }
    }
    for (file, name) in TO_BE_SPLIT {
        if !listed_over.iter().any(|(f, n)| f == file && n == name) {
            problems.push(format!("{file}: {name} is no longer over {MAX_LINES} lines: take it off TO_BE_SPLIT"));
        }
    }
    assert!(found >= 30, "the scan finds the shell's components ({found})");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A component around `body` (inside its `html!`): its `fn` line to its closing brace spans the body's lines
/// and four more.
fn synthetic(name: &str, body: &str) -> String {
    format!("#[function_component({name})]\npub fn f(p: &P) -> Html {{\n    html! {{\n{body}\n    }}\n}}\n")
}

#[test]
fn the_measure_counts_fn_to_closing_brace_and_literals_and_comments_do_not_fool_it() {
    let lines = |n: usize| vec!["        <p>{ \"x\" }</p>"; n].join("\n");
    let (long, short) = (synthetic("Long", &lines(71 - 4)), synthetic("Short", &lines(69 - 4)));
    let found = components(&format!("use yew::prelude::*;\n\n{long}\n{short}")).expect("closes");
    let measured: Vec<(&str, usize, usize)> = found.iter().map(|c| (c.name.as_str(), c.line, c.lines)).collect();
    assert_eq!(measured, [("Long", 4, 71), ("Short", 77, 69)]);
    assert!(found[0].lines > MAX_LINES && found[1].lines <= MAX_LINES);
    // Braces in strings, raw strings, chars and comments; lifetimes and raw identifiers are code.
    let tricky = r###"        let a = "}}} \" }"; let b = r##"} "# }"##; let c = '}'; let d = '\''; let e = b'{';
        let f: &'static str = r"{"; let r#type = br"}"; /* } /* { */ } */ // }
        <p>{ "x" }</p>"###;
    let fooled = components(&synthetic("Tricky", tricky)).expect("closes");
    assert_eq!(fooled, [Component { name: "Tricky".into(), line: 2, lines: 3 + 4 }]);
    let unnamed = "/// #[function_component] in a comment is not one\n#[function_component]\nfn plain() -> Html {\n}\n";
    assert_eq!(components(unnamed), Ok(vec![Component { name: "plain".into(), line: 3, lines: 2 }]));
    assert!(components("#[function_component(Open)]\nfn open() -> Html {\n    \"}\"\n").is_err());
}
