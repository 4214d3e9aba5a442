//! Small wording helpers shared by the handlers' narration.

/// Join names with commas: `A, B`.
pub(crate) fn list_names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names.collect::<Vec<_>>().join(", ")
}

/// Upper-case the first letter of a clause so that it starts a sentence, and end it with a full stop.
pub(crate) fn sentence(clause: &str) -> String {
    if clause.is_empty() {
        return String::new();
    }
    // Clauses start with a broker name or an ASCII word; ASCII casing keeps Unicode tables out of the wasm.
    let mut s = clause.to_string();
    if let Some(first) = s.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    if !s.ends_with('.') {
        s.push('.');
    }
    s
}

/// `1 record` / `3 records`.
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
