//! Reading the workspace's Rust sources for its house rules: `tests/house_rules.rs` (the web shell) and
//! `crates/*/tests/modules.rs` (the core, the CLI) include this file with `#[path]`.
//!
//! Code is read with its comments and literals blanked, and `#[cfg(test)]` items too for the module graph (a
//! unit test may use anything, as an integration test does). Modules are found as rustc finds them, from the
//! crate root through each `mod` declaration, and keyed by path: a file module (`view.rs`) and the files of
//! its folder (`view/words.rs`) are one module and its children. Paths are resolved as Rust resolves them:
//! `crate::` from the root, `super::` from the module's parent (the parent of `a/mod.rs` is the root), `self::`
//! from the module, a `use` path from the module's own children and imports, and through `use` re-exports
//! (`crate::Trace` is `trace::Trace` when the root says `pub use trace::Trace`).
//!
//! The rule checked: inside every folder (the crate root included), the child modules, each with everything
//! under it, import each other without a cycle. A module using its own parent or children is not an import
//! between siblings and is not counted (but a name the parent only re-exports is followed to its module).
//! Children that all reach each other are reported together, as one tangle with a shortest cycle through it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// `source` with every comment and literal blanked to spaces, byte for byte (so offsets and lines still match).
pub fn code_only(source: &str) -> String {
    let s: Vec<char> = source.chars().collect();
    let mut blank = vec![false; s.len()];
    let mut i = 0;
    while i < s.len() {
        let starts_token = i == 0 || !is_ident(s[i - 1]);
        match skipped_span(&s, i, starts_token) {
            Some(end) => {
                blank[i..end].iter_mut().for_each(|b| *b = true);
                i = end;
            }
            None => i += 1,
        }
    }
    let mut out = String::with_capacity(source.len());
    for (c, blanked) in s.into_iter().zip(blank) {
        match (blanked, c) {
            (false, c) | (true, c @ '\n') => out.push(c),
            (true, c) => out.extend(std::iter::repeat_n(' ', c.len_utf8())),
        }
    }
    out
}

pub fn is_ident(c: char) -> bool {
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
pub fn matching_brace(code: &str, open: usize) -> Option<usize> {
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

/// Where each occurrence of the word `word` starts in `code` (not inside a longer identifier).
pub fn word_at(code: &str, word: &str) -> Vec<usize> {
    let before = |at: usize| code[..at].chars().next_back().is_none_or(|c| !is_ident(c));
    let after = |at: usize| code[at + word.len()..].chars().next().is_none_or(|c| !is_ident(c));
    code.match_indices(word).map(|(at, _)| at).filter(|&at| before(at) && after(at)).collect()
}

/// `code` with `from..to` blanked, byte for byte (newlines kept).
fn blank(code: &mut String, from: usize, to: usize) {
    let spaced: String = code[from..to]
        .chars()
        .flat_map(|c| std::iter::repeat_n(if c == '\n' { '\n' } else { ' ' }, c.len_utf8()))
        .collect();
    code.replace_range(from..to, &spaced);
}

/// The end (exclusive) of the item that starts at `from`: its first `;` outside brackets, or the brace that
/// closes its body.
fn item_end(code: &str, from: usize) -> usize {
    let mut depth = 0usize;
    for (k, c) in code[from..].char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            '}' if depth <= 1 => return from + k + 1,
            '}' => depth -= 1,
            ';' if depth == 0 => return from + k + 1,
            _ => {}
        }
    }
    code.len()
}

/// `code` (without comments or literals) without its `#[cfg(test)]` items and `pub(in …)` visibilities
/// (`pub(in crate::model)` names where an item is seen, not what it uses).
pub fn without_tests(code: &str) -> String {
    let mut out = code.to_string();
    for (at, _) in code.match_indices("#[cfg(test)]") {
        blank(&mut out, at, item_end(code, at + "#[cfg(test)]".len()));
    }
    for (at, _) in code.match_indices("pub(in ") {
        blank(&mut out, at, code[at..].find(')').map_or(code.len(), |p| at + p + 1));
    }
    out
}

/// A path as written in a `use` tree or in code: its segments (`crate`, `super`, `self`, names; an empty
/// first segment for a leading `::`) and the name it is brought in as (`None` for a glob).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub segments: Vec<String>,
    pub name: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Path,
    Open,
    Close,
    Comma,
    Glob,
}

/// The tokens of a `use` tree or a path at the start of `code`, up to the first that belongs to neither.
fn tokens(code: &str) -> Vec<Token> {
    let (mut out, mut rest) = (Vec::new(), code.trim_start());
    loop {
        let token = match rest.chars().next() {
            Some(c) if is_ident(c) => Token::Word(rest.chars().take_while(|&c| is_ident(c)).collect()),
            Some(':') if rest.starts_with("::") => Token::Path,
            Some('{') => Token::Open,
            Some('}') => Token::Close,
            Some(',') => Token::Comma,
            Some('*') => Token::Glob,
            _ => return out,
        };
        let len = match &token {
            Token::Word(w) => w.len(),
            Token::Path => 2,
            _ => 1,
        };
        out.push(token);
        rest = rest[len..].trim_start();
    }
}

/// The paths the `use` tree (or plain path) at `t[*i..]` names after `prefix`: `a::{b, c::d as e, self}`
/// gives `a::b`, `a::c::d` as `e`, and `a` as `a`; `a::*` gives `a` as a glob.
fn tree(t: &[Token], i: &mut usize, prefix: &[String], out: &mut Vec<Written>) {
    let mut path = prefix.to_vec();
    if *i == 0 && t.first() == Some(&Token::Path) {
        path.push(String::new());
        *i += 1;
    }
    loop {
        match t.get(*i) {
            Some(Token::Word(w)) => {
                path.push(w.clone());
                *i += 1;
                if t.get(*i) == Some(&Token::Path) {
                    *i += 1;
                    continue;
                }
                out.push(named(path, t, i));
                return;
            }
            Some(Token::Open) => {
                *i += 1;
                while !matches!(t.get(*i), Some(Token::Close) | None) {
                    let before = *i;
                    tree(t, i, &path, out);
                    if t.get(*i) == Some(&Token::Comma) {
                        *i += 1;
                    } else if *i == before {
                        break;
                    }
                }
                *i += 1;
                return;
            }
            Some(Token::Glob) => {
                *i += 1;
                out.push(Written { segments: path, name: None });
                return;
            }
            _ => {
                if path.len() > prefix.len() {
                    out.push(Written { name: path.last().cloned(), segments: path });
                }
                return;
            }
        }
    }
}

/// `path` with the name it is brought in as: after `as`, else its last segment (`a::{self}` is `a`).
fn named(mut path: Vec<String>, t: &[Token], i: &mut usize) -> Written {
    if path.len() > 1 && path.last().is_some_and(|s| s == "self") {
        path.pop();
    }
    let mut name = path.last().cloned();
    if let (Some(Token::Word(as_)), Some(Token::Word(alias))) = (t.get(*i), t.get(*i + 1)) {
        if as_ == "as" {
            name = Some(alias.clone());
            *i += 2;
        }
    }
    Written { segments: path, name }
}

/// The paths the `use` tree or path at the start of `code` names.
pub fn paths(code: &str) -> Vec<Written> {
    let mut out = Vec::new();
    tree(&tokens(code), &mut 0, &[], &mut out);
    out
}

/// A module path from the crate root: `[]` for the root, `["view", "words"]` for `view/words.rs`.
pub type ModPath = Vec<String>;

/// One module of a crate.
#[derive(Debug)]
pub struct Module {
    /// Its file, from `src/` (an inline module's is its parent's).
    pub file: String,
    /// Whether only tests compile it (`#[cfg(test)] mod tests;`): followed for its files, never for imports.
    pub test_only: bool,
    /// Its code without comments, literals, `#[cfg(test)]` items or inline child modules.
    code: String,
    /// The names its top-level `use` declarations bring in, and the path each stands for.
    imports: BTreeMap<String, Written>,
}

/// A crate's modules by path, found from its root file through each `mod` declaration.
#[derive(Debug)]
pub struct Crate {
    pub modules: BTreeMap<ModPath, Module>,
}

/// The name, and where its `;` or `{` is, of a `mod` declaration at `at`.
fn declaration(code: &str, at: usize) -> Option<(String, usize)> {
    let rest = &code[at + 3..];
    let name: String = rest.trim_start().chars().take_while(|&c| is_ident(c)).collect();
    let after = at + 3 + (rest.len() - rest.trim_start().len()) + name.len();
    let end = after + (code[after..].len() - code[after..].trim_start().len());
    (!name.is_empty() && matches!(code.as_bytes().get(end), Some(b';' | b'{'))).then_some((name, end))
}

/// The names `code`'s top-level `use` declarations bring in (not a glob's, nor `_`), with their paths.
fn imports(code: &str) -> BTreeMap<String, Written> {
    let top_level = |at: usize| code[..at].matches('{').count() == code[..at].matches('}').count();
    let used = word_at(code, "use").into_iter().filter(|&at| top_level(at)).flat_map(|at| paths(&code[at + 3..]));
    used.filter_map(|w| w.name.clone().filter(|n| n != "_").map(|n| (n, w))).collect()
}

/// Every path `code` names: each `use` tree, and each path that starts `crate::`, `super::` or `self::`.
fn written(code: &str) -> Vec<Written> {
    let mut out: Vec<Written> = word_at(code, "use").into_iter().flat_map(|at| paths(&code[at + 3..])).collect();
    for word in ["crate", "super", "self"] {
        for at in word_at(code, word) {
            let starts = !code[..at].trim_end().ends_with("::") && code[at + word.len()..].starts_with("::");
            if starts {
                out.extend(paths(&code[at..]));
            }
        }
    }
    out
}

impl Crate {
    /// The crate whose root file is `root` among `files` (path from `src/` to source).
    pub fn from_files(files: &BTreeMap<String, String>, root: &str) -> Result<Crate, String> {
        let mut krate = Crate { modules: BTreeMap::new() };
        let source = files.get(root).ok_or(format!("no {root}"))?;
        krate.add(files, Vec::new(), root, &code_only(source), false)?;
        Ok(krate)
    }

    /// Adds the module at `path` whose code (without comments or literals) is `text`, and its children.
    fn add(
        &mut self,
        files: &BTreeMap<String, String>,
        path: ModPath,
        file: &str,
        text: &str,
        test_only: bool,
    ) -> Result<(), String> {
        if text.contains("#[path") {
            return Err(format!("{file}: a `#[path]` module, which this scan does not follow"));
        }
        let stripped = without_tests(text);
        let mut code = if test_only { String::new() } else { stripped.clone() };
        let mut inline_until = 0;
        for at in word_at(text, "mod") {
            let Some((name, end)) = declaration(text, at).filter(|_| at >= inline_until) else { continue };
            let child_test = test_only || stripped.as_bytes()[at] == b' ';
            let child: ModPath = path.iter().cloned().chain([name]).collect();
            if text.as_bytes()[end] == b'{' {
                let close =
                    matching_brace(text, end).ok_or(format!("{file}: `mod {}` never closes", child.join("::")))?;
                self.add(files, child, file, &text[end + 1..close], child_test)?;
                if !test_only {
                    blank(&mut code, end, close + 1);
                }
                inline_until = close;
                continue;
            }
            let dir = child.join("/");
            let (flat, folder) = (format!("{dir}.rs"), format!("{dir}/mod.rs"));
            let (child_file, source) = match (files.get(&flat), files.get(&folder)) {
                (Some(source), None) => (flat, source),
                (None, Some(source)) => (folder, source),
                (Some(_), Some(_)) => return Err(format!("{file}: both {flat} and {folder}")),
                (None, None) => return Err(format!("{file}: `mod {}` has no {flat} or {folder}", child.join("::"))),
            };
            self.add(files, child, &child_file, &code_only(source), child_test)?;
        }
        let module = Module { file: file.to_string(), test_only, imports: imports(&code), code };
        match self.modules.insert(path.clone(), module) {
            Some(_) => Err(format!("{file}: module {} declared twice", path.join("::"))),
            None => Ok(()),
        }
    }

    /// The path (from the root) that `w`, written in module `at`, stands for; `None` outside the crate.
    fn absolute(&self, at: &[String], w: &[String], hops: usize) -> Option<ModPath> {
        let join = |base: &[String], rest: &[String]| base.iter().chain(rest).cloned().collect::<ModPath>();
        match w.first()?.as_str() {
            "crate" => Some(w[1..].to_vec()),
            "super" => {
                let ups = w.iter().take_while(|s| *s == "super").count();
                Some(join(&at[..at.len().checked_sub(ups)?], &w[ups..]))
            }
            "self" => Some(join(at, &w[1..])),
            "" => None,
            name => {
                if self.modules.contains_key(&join(at, &w[..1])) {
                    return Some(join(at, w));
                }
                let import = self.modules.get(at)?.imports.get(name).filter(|_| hops < 16)?;
                Some(join(&self.absolute(at, &import.segments, hops + 1)?, &w[1..]))
            }
        }
    }

    /// The module a path from the root ends in: its longest prefix that is a module, followed through each
    /// name that module imports (`crate::Trace`, with `pub use trace::Trace` in the root, ends in `trace`).
    fn resolve(&self, mut path: ModPath) -> ModPath {
        for _ in 0..16 {
            let k = (0..=path.len()).rev().find(|&k| self.modules.contains_key(&path[..k])).unwrap_or(0);
            let (module, rest) = path.split_at(k);
            let Some(next) = rest.first() else { return path };
            let import = self.modules.get(module).and_then(|m| m.imports.get(next));
            match import.and_then(|w| self.absolute(module, &w.segments, 0)) {
                Some(target) => path = target.into_iter().chain(rest[1..].iter().cloned()).collect(),
                None => return module.to_vec(),
            }
        }
        path
    }

    /// For each folder (`[]` for the root), the imports between its children, each with everything under
    /// it: child → the children it uses. A module using its own parent or child is not counted.
    pub fn folders(&self) -> BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> {
        let mut out: BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
        for (from, module) in self.modules.iter().filter(|(_, m)| !m.test_only) {
            let uses = written(&module.code).into_iter().filter_map(|w| self.absolute(from, &w.segments, 0));
            for to in uses.map(|path| self.resolve(path)) {
                let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
                if common < from.len() && common < to.len() {
                    let folder = out.entry(from[..common].to_vec()).or_default();
                    folder.entry(from[common].clone()).or_default().insert(to[common].clone());
                }
            }
        }
        out
    }

    /// Whether, inside `folder` (`""` for the root, else `a::b`), the child `from` imports the child `to`.
    pub fn imports(&self, folder: &str, from: &str, to: &str) -> bool {
        let folder: ModPath = folder.split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
        self.folders().get(&folder).and_then(|g| g.get(from)).is_some_and(|uses| uses.contains(to))
    }

    /// Every tangle: children of one folder that all reach each other through imports.
    pub fn tangles(&self) -> Vec<Tangle> {
        let mut out = Vec::new();
        for (folder, graph) in self.folders() {
            let folder = std::iter::once("crate").chain(folder.iter().map(String::as_str)).collect::<Vec<_>>();
            let reach: BTreeMap<&str, BTreeSet<&str>> =
                graph.keys().map(|n| (n.as_str(), reachable(&graph, n))).collect();
            let mut seen = BTreeSet::new();
            for (n, reached) in &reach {
                let members: Vec<String> = reached
                    .iter()
                    .filter(|m| reach.get(*m).is_some_and(|back| back.contains(n)))
                    .map(|m| m.to_string())
                    .collect();
                if members.len() > 1 && seen.insert(members.clone()) {
                    let cycle = shortest_cycle(&graph, &members[0]);
                    out.push(Tangle { folder: folder.join("::"), members, cycle });
                }
            }
        }
        out
    }

    /// Every tangle, as `crate::a: b -> c -> b`.
    pub fn cycles(&self) -> Vec<String> {
        self.tangles().iter().map(Tangle::to_string).collect()
    }
}

/// Children of one folder that all reach each other through imports (two or more).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tangle {
    /// The folder, as `crate::a::b`.
    pub folder: String,
    /// Its children in the tangle, sorted.
    pub members: Vec<String>,
    /// A shortest cycle from the first of them.
    pub cycle: Vec<String>,
}

impl std::fmt::Display for Tangle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.folder, self.cycle.join(" -> "))?;
        let others: Vec<&str> =
            self.members.iter().map(String::as_str).filter(|m| !self.cycle.iter().any(|c| c == m)).collect();
        if !others.is_empty() {
            write!(f, ", in a tangle with {}", others.join(", "))?;
        }
        Ok(())
    }
}

/// Every child `from` reaches through one import or more (itself only if on a cycle).
fn reachable<'a>(graph: &'a BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<&'a str> {
    let mut reached = BTreeSet::new();
    let mut next: Vec<&str> = graph.get(from).into_iter().flatten().map(String::as_str).collect();
    while let Some(at) = next.pop() {
        if reached.insert(at) {
            next.extend(graph.get(at).into_iter().flatten().map(String::as_str));
        }
    }
    reached
}

/// A shortest cycle from `start` back to it (breadth first), as `[start, …, start]`; empty if none.
fn shortest_cycle(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Vec<String> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        for next in graph.get(at).into_iter().flatten().map(String::as_str) {
            if next == start {
                let mut cycle = vec![start.to_string(), at.to_string()];
                let mut back = at;
                while let Some(&before) = came_from.get(back) {
                    cycle.push(before.to_string());
                    back = before;
                }
                cycle.reverse();
                return cycle;
            }
            if !came_from.contains_key(next) {
                came_from.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    Vec::new()
}

/// Every `.rs` file under `src`, by path from it (`view/words.rs`), with its source.
pub fn rust_files(src: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut folders = vec![src.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display())).flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let under = path.strip_prefix(src).expect("under src").to_string_lossy().replace('\\', "/");
                files.insert(under, fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
            }
        }
    }
    files
}

/// The crates whose root files are `roots` (from `src`), having checked that every `.rs` file under `src` is
/// one of their modules, so the scan misses none.
pub fn read_crates(src: &Path, roots: &[&str]) -> Result<Vec<Crate>, String> {
    let files = rust_files(src);
    let crates = roots.iter().map(|root| Crate::from_files(&files, root)).collect::<Result<Vec<_>, _>>()?;
    let read: BTreeSet<&str> = crates.iter().flat_map(|c| c.modules.values().map(|m| m.file.as_str())).collect();
    let unread: Vec<&str> = files.keys().map(String::as_str).filter(|f| !read.contains(f)).collect();
    if unread.is_empty() {
        Ok(crates)
    } else {
        Err(format!("{}: files no crate root reaches: {unread:?}", src.display()))
    }
}
