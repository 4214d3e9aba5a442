//! The list of shipped lessons and the glossary, in one small file (`lessons/index.json`) that the web app
//! fetches when the Learn panel first opens, so neither is part of the page's first download.

use serde_json::Value;

use super::LessonError;

/// One lesson in the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    /// The lesson's id (as in its file).
    pub id: String,
    /// Its title (as in its file).
    pub title: String,
    /// Roughly how long it takes.
    pub minutes: u8,
    /// Its file, beside the index.
    pub file: String,
}

/// A glossary entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// Stable id (`hw`).
    pub id: String,
    /// The term as the entry's title.
    pub term: String,
    /// The words that link to it in a text, matched whole and case-sensitively (`HW`, `high watermark`).
    pub words: Vec<String>,
    /// What it means.
    pub definition: String,
}

/// A misconception's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisconceptionText {
    /// Its id ([`Misconception::id`](super::Misconception::id)).
    pub id: String,
    /// The belief, as a learner might say it.
    pub belief: String,
    /// The one-line correction.
    pub correction: String,
}

/// The index file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LessonIndex {
    /// The lessons, in order.
    pub lessons: Vec<IndexEntry>,
    /// The glossary, in order.
    pub glossary: Vec<Term>,
    /// What each misconception believes and its correction.
    pub misconceptions: Vec<MisconceptionText>,
}

/// At most this many lessons and terms (an index is small; anything bigger is not ours).
const MAX_ITEMS: usize = 200;

fn problem<T>(message: impl Into<String>) -> Result<T, LessonError> {
    Err(LessonError { at: "index".into(), message: message.into() })
}

fn text(item: &Value, key: &str) -> Result<String, LessonError> {
    item.get(key).and_then(Value::as_str).map(str::to_string).map_or_else(|| problem(format!("missing \"{key}\"")), Ok)
}

fn list<'a>(value: &'a Value, key: &str) -> Result<&'a Vec<Value>, LessonError> {
    match value.get(key) {
        Some(Value::Array(items)) if items.len() <= MAX_ITEMS => Ok(items),
        Some(Value::Array(_)) => problem("too many entries"),
        _ => problem(format!("expected an array \"{key}\"")),
    }
}

fn entry(item: &Value) -> Result<IndexEntry, LessonError> {
    let minutes = item.get("minutes").and_then(Value::as_u64).map_or(5, |m| m.min(60) as u8);
    Ok(IndexEntry { id: text(item, "id")?, title: text(item, "title")?, minutes, file: text(item, "file")? })
}

fn misconception(item: &Value) -> Result<MisconceptionText, LessonError> {
    Ok(MisconceptionText {
        id: text(item, "id")?,
        belief: text(item, "belief")?,
        correction: text(item, "correction")?,
    })
}

fn term(item: &Value) -> Result<Term, LessonError> {
    let words = match item.get("words") {
        Some(Value::Array(w)) => w.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        _ => return problem("a term needs its \"words\""),
    };
    Ok(Term { id: text(item, "id")?, term: text(item, "term")?, words, definition: text(item, "definition")? })
}

/// Read the index file.
pub fn parse_index(text: &str) -> Result<LessonIndex, LessonError> {
    let value: Value = serde_json::from_str(text).or_else(|e| problem(format!("not JSON: {e}")))?;
    let lessons = list(&value, "lessons")?.iter().map(entry).collect::<Result<_, _>>()?;
    let glossary = list(&value, "glossary")?.iter().map(term).collect::<Result<_, _>>()?;
    let misconceptions = list(&value, "misconceptions")?.iter().map(misconception).collect::<Result<_, _>>()?;
    Ok(LessonIndex { lessons, glossary, misconceptions })
}

/// A piece of a text: plain words, or words that name a glossary term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    /// Plain text.
    Text(String),
    /// Words naming a term (its id).
    Term(String, String),
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '.' || c == '-' || c == '_'
}

/// The earliest whole-word occurrence in `text` (from byte `from`) of one of the term's words: (start, end).
fn find_word(text: &str, from: usize, words: &[String]) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for word in words.iter().filter(|w| !w.is_empty()) {
        let mut at = from;
        while let Some(i) = text.get(at..).and_then(|t| t.find(word.as_str())) {
            let (start, end) = (at + i, at + i + word.len());
            let before = text[..start].chars().next_back().is_none_or(|c| !is_word(c));
            // A sentence's full stop after the word is not part of it.
            let after =
                text[end..].chars().next().is_none_or(|c| !is_word(c) || (c == '.' && !next_is_word(text, end)));
            if before && after {
                if best.is_none_or(|(s, e)| start < s || (start == s && end > e)) {
                    best = Some((start, end));
                }
                break;
            }
            at = end;
        }
    }
    best
}

fn next_is_word(text: &str, at: usize) -> bool {
    text[at..].chars().nth(1).is_some_and(is_word)
}

impl LessonIndex {
    /// `text` cut into plain words and the first mention of each glossary term in it.
    pub fn segments(&self, text: &str) -> Vec<Segment> {
        // Each term's first mention, earliest first; overlapping mentions keep the earlier one.
        let mut found: Vec<(usize, usize, &str)> = self
            .glossary
            .iter()
            .filter_map(|t| find_word(text, 0, &t.words).map(|(s, e)| (s, e, t.id.as_str())))
            .collect();
        found.sort();
        let mut out = Vec::new();
        let mut at = 0;
        for (start, end, id) in found {
            if start < at {
                continue;
            }
            if start > at {
                out.push(Segment::Text(text[at..start].to_string()));
            }
            out.push(Segment::Term(text[start..end].to_string(), id.to_string()));
            at = end;
        }
        if at < text.len() {
            out.push(Segment::Text(text[at..].to_string()));
        }
        out
    }

    /// A misconception's words.
    pub fn misconception(&self, m: super::Misconception) -> Option<&MisconceptionText> {
        self.misconceptions.iter().find(|t| t.id == m.id())
    }

    /// The term with this id.
    pub fn term(&self, id: &str) -> Option<&Term> {
        self.glossary.iter().find(|t| t.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> LessonIndex {
        let term = |id: &str, words: &[&str]| Term {
            id: id.into(),
            term: id.into(),
            words: words.iter().map(|w| w.to_string()).collect(),
            definition: String::new(),
        };
        LessonIndex {
            lessons: Vec::new(),
            misconceptions: Vec::new(),
            glossary: vec![
                term("hw", &["HW", "high watermark"]),
                term("isr", &["ISR"]),
                term("min-isr", &["min.insync.replicas"]),
            ],
        }
    }

    #[test]
    fn the_first_whole_word_mention_of_each_term_is_linked() {
        let s = index().segments("The high watermark (HW) moves; ISR members, not ISRs. HW again.");
        assert_eq!(
            s,
            [
                Segment::Text("The ".into()),
                Segment::Term("high watermark".into(), "hw".into()),
                Segment::Text(" (HW) moves; ".into()),
                Segment::Term("ISR".into(), "isr".into()),
                Segment::Text(" members, not ISRs. HW again.".into()),
            ]
        );
    }

    #[test]
    fn a_dotted_name_is_one_word_and_a_full_stop_is_not_part_of_it() {
        let s = index().segments("Set min.insync.replicas. Then HWs and the HW.");
        assert_eq!(s[1], Segment::Term("min.insync.replicas".into(), "min-isr".into()));
        assert_eq!(s[3], Segment::Term("HW".into(), "hw".into()));
        assert_eq!(s.last(), Some(&Segment::Text(".".into())));
        assert_eq!(index().segments("no terms"), [Segment::Text("no terms".into())]);
    }

    #[test]
    fn a_bad_index_is_an_error_not_a_panic() {
        assert!(parse_index("{").is_err());
        assert!(parse_index(r#"{"lessons": 3, "glossary": []}"#).is_err());
        assert_eq!(parse_index(r#"{"lessons": [], "glossary": [], "misconceptions": []}"#), Ok(LessonIndex::default()));
    }
}
