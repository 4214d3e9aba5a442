//! The facts a lesson's prose states about the cluster, read clause by clause (issue 12: "a test compares
//! every number or record name a lesson states with the trace"). What is read:
//!
//! - a record name (`m2`, `r0`);
//! - `<record> at offset N`;
//! - `HW N`, `LEO N` (with connecting words: `HW is 2`, `HW stays at 1`, `HWs are 2`), about the broker the
//!   clause names last (`A's HW`, `A ... its HW`), or the leader for `the leader's HW`, or else any broker;
//! - `epoch N`, `LastFetchedEpoch N`;
//! - `offset N`;
//! - `step N`;
//! - `(E, O)`: an epoch-cache entry, epoch E from offset O;
//! - `ISR {A, B}`.
//!
//! Where each fact is looked up is [`passages`](super::passages)' business; this module only reads words.

/// A fact a text states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    /// A record by name (`m2`).
    Record(String),
    /// A record at an offset (`m2 at offset 1`).
    RecordAt(String, u32),
    /// A HW's value.
    Hw(Who, u32),
    /// A LEO's value.
    Leo(Who, u32),
    /// A leader epoch (`epoch 2`, `LastFetchedEpoch 2`).
    Epoch(u32),
    /// An offset some log reaches.
    Offset(u32),
    /// A step of the timeline.
    Step(u32),
    /// An epoch-cache entry: (epoch, start offset).
    CacheEntry(u32, u32),
    /// The controller's ISR, as broker indices.
    Isr(Vec<usize>),
}

/// Whose HW or LEO a fact is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Who {
    /// The broker at this index.
    Broker(usize),
    /// Whichever broker leads.
    Leader,
    /// Some broker, not named.
    Anyone,
}

impl Fact {
    /// The fact in plain ASCII words (`A's HW 1`, `m2 at offset 1`, `ISR {A, B}`), brokers by name.
    pub fn words(&self, brokers: &[String]) -> String {
        let name = |b: usize| brokers.get(b).map_or("?", String::as_str);
        let whose = |who: &Who| match who {
            Who::Broker(b) => format!("{}'s ", name(*b)),
            Who::Leader => "the leader's ".to_string(),
            Who::Anyone => String::new(),
        };
        match self {
            Fact::Record(r) => format!("record {r}"),
            Fact::RecordAt(r, o) => format!("{r} at offset {o}"),
            Fact::Hw(who, n) => format!("{}HW {n}", whose(who)),
            Fact::Leo(who, n) => format!("{}LEO {n}", whose(who)),
            Fact::Epoch(n) => format!("epoch {n}"),
            Fact::Offset(n) => format!("offset {n}"),
            Fact::Step(n) => format!("step {n}"),
            Fact::CacheEntry(e, o) => format!("cache entry ({e}, {o})"),
            Fact::Isr(members) => {
                let names: Vec<&str> = members.iter().map(|b| name(*b)).collect();
                format!("ISR {{{}}}", names.join(", "))
            }
        }
    }
}

/// Words that may stand between `HW`/`LEO`/`epoch`/... and its number.
const CONNECTORS: [&str; 17] = [
    "is", "are", "was", "of", "to", "at", "stays", "stayed", "still", "moves", "reaches", "becomes", "now", "=",
    "goes", "rises", "back",
];

/// The facts `text` states, read clause by clause; `brokers` are the names a clause may use.
pub fn facts(text: &str, brokers: &[String]) -> Vec<Fact> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut out = Vec::new();
    let mut named: Option<usize> = None;
    for (i, token) in tokens.iter().enumerate() {
        let word = trim(token);
        if let Some(b) = broker_named(word, brokers) {
            named = Some(b);
        }
        let who = || match (i.checked_sub(1).map(|p| trim(tokens[p])), named) {
            (Some("leader's"), _) => Who::Leader,
            (_, Some(b)) => Who::Broker(b),
            _ => Who::Anyone,
        };
        match (word, number_after(&tokens, i)) {
            ("HW" | "HWs", Some(n)) => out.push(Fact::Hw(who(), n)),
            ("LEO" | "LEOs", Some(n)) => out.push(Fact::Leo(who(), n)),
            ("epoch" | "LastFetchedEpoch", Some(n)) => out.push(Fact::Epoch(n)),
            ("offset", Some(n)) => out.push(Fact::Offset(n)),
            ("step", Some(n)) => out.push(Fact::Step(n)),
            _ => {}
        }
        if is_record_name(word) {
            out.push(Fact::Record(word.to_string()));
            let at_offset = tokens.get(i + 1..i + 3).is_some_and(|t| trim(t[0]) == "at" && trim(t[1]) == "offset");
            if let Some(o) = tokens.get(i + 3).filter(|_| at_offset).and_then(|t| trim(t).parse().ok()) {
                out.push(Fact::RecordAt(word.to_string(), o));
            }
        }
        out.extend(cache_entry(token, tokens.get(i + 1)));
        if word == "ISR" {
            out.extend(isr(&tokens[i + 1..], brokers));
        }
        if ends_clause(token) {
            named = None;
        }
    }
    out
}

fn trim(token: &str) -> &str {
    token.trim_matches(|c: char| "()[]{},.;:!?\"\u{201c}\u{201d}".contains(c))
}

fn ends_clause(token: &str) -> bool {
    let t = token.trim_end_matches(|c: char| ")\"\u{201d}".contains(c));
    t.ends_with(['.', ';', ':', '!', '?'])
}

fn is_record_name(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase()) && word.len() >= 2 && chars.all(|c| c.is_ascii_digit())
}

/// The number after token `i` (skipping connecting words), if there is one.
fn number_after(tokens: &[&str], i: usize) -> Option<u32> {
    for t in tokens.iter().skip(i + 1).take(4) {
        let word = trim(t);
        if let Ok(n) = word.parse::<u32>() {
            return Some(n);
        }
        if !CONNECTORS.contains(&word) {
            return None;
        }
    }
    None
}

/// The broker a token names (`A`, `A's`), if any.
fn broker_named(word: &str, brokers: &[String]) -> Option<usize> {
    let name = word.strip_suffix("'s").unwrap_or(word);
    brokers.iter().position(|b| b == name)
}

/// `(E, O)` spread over two tokens: `(2,` and `1)`.
fn cache_entry(token: &str, next: Option<&&str>) -> Option<Fact> {
    let e = token.strip_prefix('(')?.strip_suffix(',')?.parse().ok()?;
    let o = next?.split(')').next()?.parse().ok()?;
    Some(Fact::CacheEntry(e, o))
}

/// `{A, B}` after `ISR`.
fn isr(after: &[&str], brokers: &[String]) -> Option<Fact> {
    if !after.first()?.starts_with('{') {
        return None;
    }
    let end = after.iter().position(|t| t.contains('}'))?;
    let names = after[..=end].iter().map(|t| t.trim_matches(|c: char| "{},.;:()".contains(c)));
    names.map(|n| brokers.iter().position(|b| b == n)).collect::<Option<Vec<_>>>().map(Fact::Isr)
}
