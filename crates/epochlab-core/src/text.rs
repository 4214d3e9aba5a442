//! Plain-text layout shared by the CLI's output and the exported pictures.

/// Greedy word wrap: lines of at most `width` characters (a longer word gets a line of its own).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wraps_at_word_boundaries_counting_characters_not_bytes() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("ISR {A, B} → {A}", 12), ["ISR {A, B} →", "{A}"]);
        assert_eq!(wrap("unbreakable-word x", 4), ["unbreakable-word", "x"]);
        assert!(wrap("   ", 10).is_empty());
    }
}
