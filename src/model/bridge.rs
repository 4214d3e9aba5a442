//! The page and the lessons talk through window events: the lessons are a second wasm module, loaded when
//! the Learn panel first opens (or a lesson link is opened), so that neither their content nor their code is
//! part of the page's first download. The lessons send what the page should show (a scenario at a step, the
//! cells a step points at, the lesson's part of the address, a notice); the page sends back what it shows
//! after every change, so that a task is graded on the learner's own timeline. Messages are JSON text in the
//! event's `detail`; encoding and decoding are pure and tested natively.

use epochlab_core::lesson::Highlight;
use epochlab_core::Variant;
use serde_json::Value;

use super::listing::Listing;
use super::panels::{Forwarded, Panels};
use super::splice::Splice;
use super::Notice;
use super::{FileContent, FileImport};
use crate::formats::snapshot::{self, Snapshot};

/// The event the lessons send to the page.
pub const TO_PAGE: &str = "epochlab-lesson";
/// The event the page sends to the lessons.
pub const TO_LESSONS: &str = "epochlab-page";
/// The lessons' module, beside the page (Trunk builds it as a second binary).
pub const MODULE_JS: &str = "epochlab-lessons.js";
pub const MODULE_WASM: &str = "epochlab-lessons_bg.wasm";
/// The element the lessons draw into.
pub const ROOT_ID: &str = "lesson-root";

/// From the lessons to the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToPage {
    /// The lessons started: send them what is shown.
    Ready,
    /// Show this scenario, under these variants, at this step.
    Show(Box<Snapshot>),
    /// Move the cursor to this step (the scenario and the variants shown stay).
    Cursor(Option<u32>),
    /// What the step points at.
    Marks(Vec<Highlight>),
    /// The lesson's part of the address (`lesson=<id>&step=<n>`), or none.
    Params(Option<String>),
    /// A notice for the banner.
    Notice(Notice),
    /// A question waits for its answer about this step (the page neither plays it nor shows its outcome
    /// until then), or none waits.
    Pending(Option<HeldBack>),
    /// The log a question asks the learner to paint on its broker's row, or none.
    Paint(Option<Painting>),
    /// What the user did in a panel the module draws.
    Do(Forwarded),
}

/// The step a lesson holds back: the one its question on screen asks about, or, while an explanation or a
/// comparison is read, the one a later question asks about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldBack {
    pub step: u32,
    /// The question is on screen now (not further on in the lesson).
    pub asked_now: bool,
    /// Said when something would step past it (worded by the lessons, so not part of the page's download).
    pub why: String,
}

/// A log being painted: on this variant's row of this broker, per offset whether the learner says it
/// survives. The page draws it on the cells (`data-paint`); the lessons take a click or Space on them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Painting {
    pub variant: Variant,
    pub broker: String,
    pub kept: Vec<bool>,
}

/// The longest lesson part of the address the page takes: a shared lesson's link and its step.
const MAX_PARAMS: usize = epochlab_core::share::MAX_PAYLOAD + 32;

/// From the page to the lessons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToLessons {
    /// What the page shows now.
    Shown(Box<Snapshot>),
    /// Only the events changed since what was shown before: these of them (with the scenario, whose brokers
    /// and settings the events are read against).
    Splice(Splice),
    /// The page moved its cursor to this step (the scenario and the variants shown stayed).
    Cursor(Option<u32>),
    /// Open or close the lesson list.
    Toggle,
    /// Which of the panels the module draws are open.
    Panels(Panels),
    /// The event selected (its editor, which the module draws, shows it), or none.
    Select(Option<u32>),
    /// Read and import a file in the text format.
    ReadFile(FileImport),
    /// What My scenarios lists (the page keeps the scenarios; the module draws the panel).
    Library(Box<Listing>),
}

/// A cursor message, the same both ways.
fn cursor_json(cursor: Option<u32>) -> String {
    format!(r#"{{"type":"cursor","cursor":{}}}"#, number(cursor))
}

/// A cursor message's step, read back: a whole number or null, nothing else.
fn cursor_of(v: &Value) -> Result<Option<u32>, String> {
    match v.get("cursor") {
        Some(Value::Null) => Ok(None),
        Some(c) => {
            c.as_u64().and_then(|c| u32::try_from(c).ok()).map(Some).ok_or_else(|| "a garbled cursor".to_string())
        }
        None => Err("no cursor".to_string()),
    }
}

fn quote(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

fn number(n: Option<u32>) -> String {
    n.map_or_else(|| "null".to_string(), |n| n.to_string())
}

impl ToPage {
    pub fn to_json(&self) -> String {
        match self {
            ToPage::Ready => r#"{"type":"ready"}"#.to_string(),
            ToPage::Show(s) => format!(r#"{{"type":"show","snapshot":{}}}"#, snapshot::to_json(s)),
            ToPage::Cursor(c) => cursor_json(*c),
            ToPage::Marks(marks) => {
                let items: Vec<String> = marks
                    .iter()
                    .map(|h| {
                        let broker = h.broker.as_deref().map_or_else(|| "null".to_string(), quote);
                        format!(r#"{{"broker":{broker},"offset":{},"step":{}}}"#, number(h.offset), number(h.step))
                    })
                    .collect();
                format!(r#"{{"type":"marks","marks":[{}]}}"#, items.join(","))
            }
            ToPage::Params(p) => {
                format!(r#"{{"type":"params","params":{}}}"#, p.as_deref().map_or_else(|| "null".to_string(), quote))
            }
            ToPage::Notice(n) => format!(r#"{{"type":"notice","error":{},"text":{}}}"#, n.error, quote(&n.text)),
            ToPage::Pending(None) => r#"{"type":"pending","step":null}"#.to_string(),
            ToPage::Pending(Some(h)) => {
                format!(r#"{{"type":"pending","step":{},"now":{},"why":{}}}"#, h.step, h.asked_now, quote(&h.why))
            }
            ToPage::Paint(None) => r#"{"type":"paint","paint":null}"#.to_string(),
            ToPage::Paint(Some(p)) => format!(
                r#"{{"type":"paint","paint":{{"variant":"{}","broker":{},"kept":{:?}}}}}"#,
                p.variant.id(),
                quote(&p.broker),
                p.kept
            ),
            ToPage::Do(f) => format!(r#"{{"type":"do","action":{}}}"#, f.to_json()),
        }
    }

    pub fn from_json(text: &str) -> Result<ToPage, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let field = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let small = |h: &Value, k: &str| h.get(k).and_then(Value::as_u64).map(|n| n.min(u64::from(u32::MAX)) as u32);
        match v.get("type").and_then(Value::as_str) {
            Some("ready") => Ok(ToPage::Ready),
            Some("cursor") => cursor_of(&v).map(ToPage::Cursor),
            Some("show") => {
                let s = v.get("snapshot").ok_or("no snapshot")?;
                snapshot::from_value(s).map(|s| ToPage::Show(Box::new(s)))
            }
            Some("marks") => {
                let items = v.get("marks").and_then(Value::as_array).ok_or("no marks")?;
                let marks = items
                    .iter()
                    .take(64)
                    .map(|h| Highlight {
                        broker: h.get("broker").and_then(Value::as_str).map(str::to_string),
                        offset: small(h, "offset"),
                        step: small(h, "step"),
                    })
                    .collect();
                Ok(ToPage::Marks(marks))
            }
            // A shared lesson's params carry the lesson itself (`lesson=~<payload>&step=<n>`).
            Some("params") => Ok(ToPage::Params(field("params").filter(|p| p.len() <= MAX_PARAMS))),
            Some("notice") => {
                let error = v.get("error").and_then(Value::as_bool).unwrap_or(false);
                Ok(ToPage::Notice(Notice { error, text: field("text").unwrap_or_default(), undo: false }))
            }
            Some("pending") => Ok(ToPage::Pending(small(&v, "step").map(|step| HeldBack {
                step,
                asked_now: v.get("now").and_then(Value::as_bool).unwrap_or(true),
                why: field("why").unwrap_or_default(),
            }))),
            Some("paint") => Ok(ToPage::Paint(painting(v.get("paint")))),
            Some("do") => Forwarded::from_json(v.get("action").ok_or("no action")?).map(ToPage::Do),
            _ => Err("an unknown message".to_string()),
        }
    }
}

/// A painting read back (none when absent or unreadable).
fn painting(v: Option<&Value>) -> Option<Painting> {
    let v = v?;
    let variant = Variant::from_id(v.get("variant")?.as_str()?)?;
    let broker = v.get("broker")?.as_str()?.to_string();
    let kept = v.get("kept")?.as_array()?.iter().take(4096).map(|k| k.as_bool().unwrap_or(true)).collect();
    Some(Painting { variant, broker, kept })
}

/// A file to import, read back: its content text, or a PNG's bytes one per character.
fn read_file(v: &Value) -> Result<FileImport, String> {
    let word = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let shown = v.get("shown").and_then(Value::as_array).ok_or("no variants")?;
    let shown = shown.iter().filter_map(|s| s.as_str().and_then(epochlab_core::Variant::from_id)).collect();
    let serial = v.get("serial").and_then(Value::as_u64).ok_or("no serial")? as u32;
    let content = match (word("text"), word("png")) {
        (Some(text), None) => FileContent::Text(text),
        (None, Some(png)) => {
            let bytes = png.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect::<Option<Vec<u8>>>();
            FileContent::Png(bytes.ok_or("a PNG's bytes garbled")?)
        }
        _ => return Err("no file content".to_string()),
    };
    Ok(FileImport { serial, source: word("source").ok_or("no source")?, content, shown })
}

impl ToLessons {
    pub fn to_json(&self) -> String {
        match self {
            ToLessons::Shown(s) => format!(r#"{{"type":"shown","snapshot":{}}}"#, snapshot::to_json(s)),
            ToLessons::Splice(s) => s.to_json(),
            ToLessons::Cursor(c) => cursor_json(*c),
            ToLessons::Toggle => r#"{"type":"toggle"}"#.to_string(),
            ToLessons::Panels(p) => format!(r#"{{"type":"panels","open":{}}}"#, p.to_json()),
            ToLessons::Select(step) => format!(r#"{{"type":"select","cursor":{}}}"#, number(*step)),
            ToLessons::Library(l) => format!(r#"{{"type":"library","listing":{}}}"#, l.to_value()),
            ToLessons::ReadFile(t) => {
                let shown: Vec<String> = t.shown.iter().map(|v| quote(v.id())).collect();
                // A PNG's bytes as the characters U+0000 to U+00FF, one per byte.
                let content = match &t.content {
                    FileContent::Text(text) => format!(r#""text":{}"#, quote(text)),
                    FileContent::Png(bytes) => {
                        format!(r#""png":{}"#, quote(&bytes.iter().map(|b| char::from(*b)).collect::<String>()))
                    }
                };
                format!(
                    r#"{{"type":"read-file","serial":{},"source":{},{content},"shown":[{}]}}"#,
                    t.serial,
                    quote(&t.source),
                    shown.join(",")
                )
            }
        }
    }

    pub fn from_json(text: &str) -> Result<ToLessons, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        match v.get("type").and_then(Value::as_str) {
            Some("toggle") => Ok(ToLessons::Toggle),
            Some("cursor") => cursor_of(&v).map(ToLessons::Cursor),
            Some("splice") => Splice::from_value(&v).map(ToLessons::Splice),
            Some("panels") => Panels::from_json(v.get("open").ok_or("no panels")?).map(ToLessons::Panels),
            Some("select") => cursor_of(&v).map(ToLessons::Select),
            Some("read-file") => read_file(&v).map(ToLessons::ReadFile),
            Some("library") => {
                Listing::from_value(v.get("listing").ok_or("no listing")?).map(|l| ToLessons::Library(Box::new(l)))
            }
            Some("shown") => {
                let s = v.get("snapshot").ok_or("no snapshot")?;
                snapshot::from_value(s).map(|s| ToLessons::Shown(Box::new(s)))
            }
            _ => Err("an unknown message".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;

    #[test]
    fn every_message_round_trips() {
        let snapshot = Box::new(Model::landing().snapshot());
        let marks = vec![
            Highlight { broker: Some("A".into()), offset: Some(1), step: None },
            Highlight { broker: None, offset: None, step: Some(5) },
        ];
        for m in [
            ToPage::Ready,
            ToPage::Show(snapshot.clone()),
            ToPage::Cursor(Some(3)),
            ToPage::Cursor(None),
            ToPage::Marks(marks),
            ToPage::Params(Some("lesson=x&step=2".into())),
            ToPage::Params(Some(format!("lesson=~1{}&step=3", "A".repeat(MAX_PARAMS - 16)))),
            ToPage::Params(None),
            ToPage::Pending(Some(HeldBack::new(8, true))),
            ToPage::Pending(Some(HeldBack::new(9, false))),
            ToPage::Pending(None),
            ToPage::Paint(Some(Painting {
                variant: Variant::HwTruncation,
                broker: "A \"b\"".into(),
                kept: vec![true, false],
            })),
            ToPage::Paint(None),
            ToPage::Notice(Notice { error: true, text: "why \"quoted\"".into(), undo: false }),
            ToPage::Do(Forwarded::SetCursor(Some(4))),
        ] {
            assert_eq!(ToPage::from_json(&m.to_json()), Ok(m.clone()), "{m:?}");
        }
        let panels = Panels::default().with(crate::model::panels::Panel::Checker, true);
        let text = FileImport {
            serial: 2,
            source: "a \"b\".txt".into(),
            content: FileContent::Text("elect A\n".into()),
            shown: vec![epochlab_core::Variant::Kip101],
        };
        let png = FileImport { content: FileContent::Png((0..=255).collect()), ..text.clone() };
        assert_eq!(ToLessons::from_json(r#"{"type":"cursor","cursor":"2"}"#), Err("a garbled cursor".to_string()));
        assert_eq!(ToLessons::from_json(r#"{"type":"cursor"}"#), Err("no cursor".to_string()));
        let mut grown = snapshot.scenario.clone();
        grown.events.push(epochlab_core::scenario::Event::Settle);
        let splice = crate::model::splice::Splice::between(&snapshot.scenario, &grown, Some(1)).unwrap();
        for m in [
            ToLessons::Splice(splice),
            ToLessons::Shown(snapshot),
            ToLessons::Cursor(Some(7)),
            ToLessons::Cursor(None),
            ToLessons::Toggle,
            ToLessons::Select(Some(4)),
            ToLessons::Select(None),
            ToLessons::Panels(panels),
            ToLessons::ReadFile(text),
            ToLessons::ReadFile(png),
            ToLessons::Library(Box::new(Listing {
                entries: vec![super::super::listing::Listed { id: 3, name: "a \"b\"".into(), edited: 7 }],
                open: Some(3),
            })),
        ] {
            assert_eq!(ToLessons::from_json(&m.to_json()), Ok(m.clone()));
        }
        assert!(ToPage::from_json("{").is_err() && ToPage::from_json(r#"{"type":"other"}"#).is_err());
    }
}
