//! The embed's postMessage API (version 1): what a blog page can ask of an embedded Epochlab, and what the
//! embed announces back. Parsing and validation are pure and tested natively; `listeners` turns messages
//! into actions (`Action::for_command`), and announcements are effects the reducer returns, which
//! `effect_runner` posts to `window.parent`.
//!
//! Every message is a JSON object with `"epochlab": 1` and a `"type"`:
//!
//! | type | fields | effect |
//! |---|---|---|
//! | `load` | `scenario` (contract-v1 object), `variants`? (1 to 4 ids), `step`? | replace the scenario |
//! | `goto` | `step` (a step number, `-1` for before the first, or `"end"`) | move the cursor |
//! | `play` / `pause` | none | start or stop playback |
//! | `variants` | `variants` (1 to 4 ids) | choose the variants shown |
//!
//! The embed posts `{"epochlab": 1, "type": "ready", ...}` once mounted and `{"type": "step", ...}` whenever
//! the cursor moves, each with `step` (or null), `steps`, `variants` and `narration`.

use epochlab_core::scenario::{parse_scenario_value, MAX_BROKERS, MAX_EVENTS};
use epochlab_core::variant::MAX_VARIANTS;
use epochlab_core::{Scenario, Variant};
use serde_json::Value;

/// The protocol version this build speaks.
pub const VERSION: u64 = 1;
/// A message's JSON text may be at most this long: ten times the largest scenario of 1,000 events (about
/// 100 KB), and a quarter of an imported file's limit, since a message's reading grows the page's memory
/// for good (a 3.8 MB message kept about 100 MB).
pub const MAX_MESSAGE_BYTES: usize = 1024 * 1024;

/// Who sent a message, as far as the embed decides whether to follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sender<'a> {
    /// `event.source === window.parent`, and the page really is framed.
    pub from_parent: bool,
    /// `event.origin`.
    pub origin: &'a str,
}

/// Whether a page embedded with `origin=` (`required`) follows a message from `sender`. Only the embedding
/// page may drive an embed: a popup's opener or a sibling frame may not replace the reader's scenario.
pub fn accepts(sender: Sender, required: Option<&str>) -> Result<(), String> {
    if !sender.from_parent {
        return Err(format!("it came from {} but not from the embedding page", sender.origin));
    }
    match required {
        Some(origin) if origin != sender.origin => {
            Err(format!("it came from {}, and this embed follows only {origin}", sender.origin))
        }
        _ => Ok(()),
    }
}

/// Messages ignored so far, by the origin that sent them: a flood from another frame costs a count, and a
/// console warning only for the 1st, 10th, 100th... message from each origin.
#[derive(Debug, Default)]
pub struct IgnoredCounts(Vec<(String, u64)>);

/// Origins counted one by one; past this many, the rest are counted together.
const MAX_ORIGINS: usize = 32;

impl IgnoredCounts {
    /// Count one message from `origin` ignored because `why`; the warning to print, when one is due.
    pub fn warning(&mut self, origin: &str, why: &str) -> Option<String> {
        let known = |key: &str| self.0.iter().position(|(o, _)| o == key);
        let key = if self.0.len() < MAX_ORIGINS || known(origin).is_some() { origin } else { "other origins" };
        let at = known(key).unwrap_or_else(|| {
            self.0.push((key.to_string(), 0));
            self.0.len() - 1
        });
        let (key, n) = &mut self.0[at];
        *n += 1;
        // 1, 10, 100...: a power of ten (no text made for the other messages of a flood).
        let mut m = *n;
        while m % 10 == 0 {
            m /= 10;
        }
        (m == 1).then(|| format!("Epochlab ignored {n} message(s) from {key} so far (the last: {why})"))
    }
}

/// The scenario's counts as the host page sent them, read off the message before any of it is copied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// `scenario.events.length`, if an array.
    pub events: Option<usize>,
    /// `scenario.brokers.length`, if an array.
    pub brokers: Option<usize>,
}

/// Refuse a message over the scenario limits before it is serialised or parsed (a million events would
/// hold hundreds of megabytes for the page's life). `bytes`: its JSON text's length, once known.
pub fn precheck(counts: Counts, bytes: Option<usize>) -> Result<(), String> {
    if let Some(n) = counts.events.filter(|n| *n > MAX_EVENTS) {
        return Err(format!("its scenario has {n} events; a scenario holds at most {MAX_EVENTS}"));
    }
    if let Some(n) = counts.brokers.filter(|n| *n > MAX_BROKERS) {
        return Err(format!("its scenario has {n} brokers; a partition has 1 to {MAX_BROKERS}"));
    }
    match bytes {
        Some(n) if n > MAX_MESSAGE_BYTES => Err(format!(
            "it is {} KB long; a message may be at most 1 MB (a scenario of 1,000 events is about 100 KB)",
            n / 1024
        )),
        _ => Ok(()),
    }
}

/// Where `goto` moves the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goto {
    /// Before the first step.
    Start,
    /// A step.
    Step(usize),
    /// The last step.
    End,
}

/// A validated command from the host page.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Replace the scenario.
    Load {
        /// The scenario.
        scenario: Box<Scenario>,
        /// Variants to show, if given.
        variants: Option<Vec<Variant>>,
        /// Where to put the cursor, if given.
        step: Option<Goto>,
    },
    /// Move the cursor.
    Goto(Goto),
    /// Start playback.
    Play,
    /// Stop playback.
    Pause,
    /// Choose the variants shown.
    Variants(Vec<Variant>),
}

fn variants(value: &Value) -> Result<Vec<Variant>, String> {
    let items = value.as_array().ok_or("\"variants\" must be an array of variant ids")?;
    if items.is_empty() || items.len() > MAX_VARIANTS {
        return Err(format!("\"variants\" lists {} variants; 1 to {MAX_VARIANTS} can be shown", items.len()));
    }
    items
        .iter()
        .map(|v| {
            v.as_str()
                .and_then(Variant::from_id)
                .ok_or_else(|| format!("unknown variant {v} (expected one of {})", Variant::id_list()))
        })
        .collect()
}

fn goto(value: &Value) -> Result<Goto, String> {
    match value {
        Value::String(s) if s == "end" => Ok(Goto::End),
        Value::Number(n) if n.as_i64() == Some(-1) => Ok(Goto::Start),
        Value::Number(n) => n
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .map(Goto::Step)
            .ok_or_else(|| format!("\"step\" must be a step number, -1 or \"end\", not {n}")),
        other => Err(format!("\"step\" must be a step number, -1 or \"end\", not {other}")),
    }
}

/// Validate a message posted to the embed. `Err` explains why it is ignored (for the console warning).
pub fn parse(data: &Value) -> Result<Command, String> {
    let obj = data.as_object().ok_or("not an object")?;
    match obj.get("epochlab").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(v) => return Err(format!("protocol version {v} is not supported (this embed speaks version {VERSION})")),
        None => return Err("no \"epochlab\": 1 version field".to_string()),
    }
    let kind = obj.get("type").and_then(Value::as_str).ok_or("no \"type\"")?;
    match kind {
        "load" => {
            let scenario = obj.get("scenario").ok_or("a load needs a \"scenario\"")?;
            let scenario = parse_scenario_value(scenario).map_err(|e| format!("invalid scenario: {e}"))?;
            let variants = obj.get("variants").map(variants).transpose()?;
            let step = obj.get("step").map(goto).transpose()?;
            Ok(Command::Load { scenario: Box::new(scenario), variants, step })
        }
        "goto" => Ok(Command::Goto(goto(obj.get("step").ok_or("a goto needs a \"step\"")?)?)),
        "play" => Ok(Command::Play),
        "pause" => Ok(Command::Pause),
        "variants" => Ok(Command::Variants(variants(obj.get("variants").ok_or("\"variants\" is missing")?)?)),
        other => Err(format!("unknown message type \"{other}\" (expected load, goto, play, pause or variants)")),
    }
}

/// A JSON string literal (written by hand: the app then carries no JSON serialiser for values).
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Which announcement: `ready` once mounted, then `step` on every cursor move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Announced {
    /// The embed is mounted.
    Ready,
    /// The cursor, the number of steps or the variants changed.
    Step,
}

impl Announced {
    fn id(self) -> &'static str {
        match self {
            Announced::Ready => "ready",
            Announced::Step => "step",
        }
    }
}

/// What the embed tells its parent page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Announcement {
    /// Which announcement.
    pub kind: Announced,
    /// The cursor (`None`: before the first step).
    pub step: Option<usize>,
    /// The number of steps.
    pub steps: usize,
    /// The variants shown.
    pub variants: Vec<Variant>,
    /// The narration of the step shown (empty before the first).
    pub narration: String,
}

impl Announcement {
    /// The message, as JSON text.
    pub fn to_json(&self) -> String {
        let step = self.step.map_or_else(|| "null".to_string(), |s| s.to_string());
        let variants: Vec<String> = self.variants.iter().map(|v| json_string(v.id())).collect();
        format!(
            r#"{{"epochlab": {VERSION}, "type": {}, "step": {step}, "steps": {}, "variants": [{}], "narration": {}}}"#,
            json_string(self.kind.id()),
            self.steps,
            variants.join(", "),
            json_string(&self.narration)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_of_ignored_messages_warns_once_per_origin_then_at_each_power_of_ten() {
        let mut counts = IgnoredCounts::default();
        let warned: Vec<String> =
            (0..100_000).filter_map(|_| counts.warning("http://evil.test", "not from the embedding page")).collect();
        assert_eq!(warned.len(), 6, "{warned:?}");
        assert!(warned[0].starts_with("Epochlab ignored 1 message(s) from http://evil.test so far (the last: not from"));
        assert!(warned[5].starts_with("Epochlab ignored 100000 message(s) from http://evil.test"), "{}", warned[5]);
        assert!(counts.warning("http://other.test", "x").is_some(), "another origin is warned about once too");
        for i in 0..100 {
            counts.warning(&format!("http://o{i}.test"), "x");
        }
        assert!(counts.0.len() <= MAX_ORIGINS + 1, "the origins counted stay bounded");
    }
    use serde_json::json;

    #[test]
    fn every_command_parses() {
        assert_eq!(parse(&json!({"epochlab": 1, "type": "play"})), Ok(Command::Play));
        assert_eq!(parse(&json!({"epochlab": 1, "type": "pause"})), Ok(Command::Pause));
        assert_eq!(parse(&json!({"epochlab": 1, "type": "goto", "step": 3})), Ok(Command::Goto(Goto::Step(3))));
        assert_eq!(parse(&json!({"epochlab": 1, "type": "goto", "step": -1})), Ok(Command::Goto(Goto::Start)));
        assert_eq!(parse(&json!({"epochlab": 1, "type": "goto", "step": "end"})), Ok(Command::Goto(Goto::End)));
        assert_eq!(
            parse(&json!({"epochlab": 1, "type": "variants", "variants": ["kip-101", "kip-279"]})),
            Ok(Command::Variants(vec![Variant::Kip101, Variant::Kip279]))
        );
        let load =
            parse(&json!({"epochlab": 1, "type": "load", "scenario": {"version": 1, "brokers": ["A"]}, "step": "end"}));
        assert!(matches!(load, Ok(Command::Load { variants: None, step: Some(Goto::End), .. })));
    }

    #[test]
    fn malformed_or_unknown_messages_are_refused_with_a_reason() {
        let cases = [
            (json!("hello"), "not an object"),
            (json!({"type": "play"}), "no \"epochlab\": 1 version field"),
            (json!({"epochlab": 2, "type": "play"}), "protocol version 2 is not supported"),
            (json!({"epochlab": 1}), "no \"type\""),
            (json!({"epochlab": 1, "type": "explode"}), "unknown message type \"explode\""),
            (json!({"epochlab": 1, "type": "goto"}), "a goto needs a \"step\""),
            (json!({"epochlab": 1, "type": "goto", "step": 1.5}), "\"step\" must be a step number"),
            (json!({"epochlab": 1, "type": "variants", "variants": []}), "1 to 4 can be shown"),
            (json!({"epochlab": 1, "type": "variants", "variants": ["kip-9"]}), "unknown variant \"kip-9\""),
            (json!({"epochlab": 1, "type": "load", "scenario": {"version": 1}}), "invalid scenario: brokers: missing"),
        ];
        for (message, why) in cases {
            let err = parse(&message).expect_err("refused");
            assert!(err.contains(why), "{message}: {err}");
        }
    }

    #[test]
    fn only_the_embedding_page_and_its_named_origin_are_followed() {
        let parent = Sender { from_parent: true, origin: "https://blog.example" };
        assert_eq!(accepts(parent, None), Ok(()));
        assert_eq!(accepts(parent, Some("https://blog.example")), Ok(()));
        let other = accepts(parent, Some("https://other.example")).unwrap_err();
        assert!(other.contains("follows only https://other.example"), "{other}");
        let popup = accepts(Sender { from_parent: false, origin: "https://evil.example" }, None).unwrap_err();
        assert!(popup.contains("https://evil.example") && popup.contains("not from the embedding page"), "{popup}");
    }

    #[test]
    fn an_oversized_load_is_refused_before_it_is_parsed() {
        let ok = Counts { events: Some(MAX_EVENTS), brokers: Some(MAX_BROKERS) };
        assert_eq!(precheck(ok, Some(MAX_MESSAGE_BYTES)), Ok(()));
        let many = precheck(Counts { events: Some(1_000_000), brokers: Some(2) }, None).unwrap_err();
        assert!(many.contains("1000000 events") && many.contains("at most 1000"), "{many}");
        assert!(precheck(Counts { events: None, brokers: Some(6) }, None).unwrap_err().contains("6 brokers"));
        assert!(precheck(Counts::default(), Some(MAX_MESSAGE_BYTES + 1)).unwrap_err().contains("at most 1 MB"));
    }

    #[test]
    fn announcements_carry_the_cursor_and_variants() {
        let parsed = |a: Announcement| serde_json::from_str::<Value>(&a.to_json()).expect("valid JSON");
        let tricky = "A \"fetches\"\n\u{1}\\ ✓";
        let step = Announcement {
            kind: Announced::Step,
            step: Some(4),
            steps: 10,
            variants: vec![Variant::Kip279],
            narration: tricky.to_string(),
        };
        assert_eq!(
            parsed(step),
            json!({"epochlab": 1, "type": "step", "step": 4, "steps": 10, "variants": ["kip-279"], "narration": tricky})
        );
        let ready =
            Announcement { kind: Announced::Ready, step: None, steps: 0, variants: vec![], narration: String::new() };
        assert_eq!(parsed(ready)["step"], Value::Null);
    }
}
