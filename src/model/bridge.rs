//! The page and the lessons talk through window events: the lessons are a second wasm module, loaded when
//! the Learn panel first opens (or a lesson link is opened), so that neither their content nor their code is
//! part of the page's first download. The lessons send what the page should show (a scenario at a step, the
//! cells a step points at, the lesson's part of the address, a notice); the page sends back what it shows
//! after every change, so that a task is graded on the learner's own timeline. Messages are JSON text in the
//! event's `detail`; encoding and decoding are pure and tested natively.

use epochlab_core::lesson::Highlight;
use epochlab_core::Variant;
use serde_json::{json, Value};

use super::listing::Listing;
use super::panels::{Forwarded, Panels};
use super::splice::Splice;
use super::Notice;
use crate::formats::snapshot::{self, Snapshot};
use crate::formats::wire::{number, object, parse, quote, text_of, Fields};

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
    /// The lesson no longer says this (its step or the lesson changed): the page takes the notice down if
    /// it still shows it.
    Unsay(String),
    /// A question waits for its answer about this step (the page neither plays it nor shows its outcome
    /// until then), or none waits.
    Pending(Option<HeldBack>),
    /// The log a question asks the learner to paint on its broker's row, or none.
    Paint(Option<Painting>),
    /// What the user did in a panel the module draws.
    Do(Forwarded),
}

/// A file to import (`Action::Module(ModuleAction::ImportFile)`), read by the lessons' module, which has the readers (the text
/// format's, a PNG's and an SVG's are not part of the page's first download); numbered so that importing
/// the same file twice is two imports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileImport {
    pub serial: u32,
    pub source: String,
    pub content: FileContent,
    pub shown: Vec<epochlab_core::Variant>,
}

/// A file's content as read: its text, or a PNG's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileContent {
    Text(String),
    Png(Vec<u8>),
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

/// Most marks a step points at (a lesson step names a few cells; more is a damaged message).
const MAX_MARKS: usize = 64;
/// Most offsets a painted log has (a scenario holds at most 1,000 records).
const MAX_PAINTED: usize = 4096;
/// Most variants a file import is shown under.
const MAX_SHOWN: usize = epochlab_core::share::MAX_VARIANTS;
/// The longest notice or held-back reason the page shows.
const MAX_WORDS: usize = 2000;

impl ToPage {
    pub fn to_json(&self) -> String {
        text_of(&match self {
            ToPage::Ready => json!({ "type": "ready" }),
            ToPage::Show(s) => json!({ "type": "show", "snapshot": snapshot::to_value(s) }),
            ToPage::Cursor(c) => json!({ "type": "cursor", "cursor": c }),
            ToPage::Marks(marks) => {
                let marks: Vec<Value> =
                    marks.iter().map(|h| json!({ "broker": h.broker, "offset": h.offset, "step": h.step })).collect();
                json!({ "type": "marks", "marks": marks })
            }
            ToPage::Params(p) => json!({ "type": "params", "params": p }),
            ToPage::Notice(n) => json!({ "type": "notice", "error": n.error, "text": n.text }),
            ToPage::Unsay(text) => json!({ "type": "unsay", "text": text }),
            ToPage::Pending(None) => json!({ "type": "pending", "held": null }),
            ToPage::Pending(Some(h)) => {
                json!({ "type": "pending", "held": { "step": h.step, "now": h.asked_now, "why": h.why } })
            }
            ToPage::Paint(p) => json!({ "type": "paint", "paint": p.as_ref().map(painting_json) }),
            ToPage::Do(f) => json!({ "type": "do", "action": f.to_value() }),
        })
    }

    pub fn from_json(text: &str) -> Result<ToPage, String> {
        let v = parse(text)?;
        let f = Fields::of(&v)?;
        Ok(match f.text("type")? {
            "ready" => ToPage::Ready,
            "cursor" => ToPage::Cursor(f.maybe_small("cursor")?),
            "show" => ToPage::Show(Box::new(snapshot::from_value(f.get("snapshot")?)?)),
            "marks" => ToPage::Marks(f.list("marks", MAX_MARKS)?.iter().map(mark).collect::<Result<_, _>>()?),
            // A shared lesson's params carry the lesson itself (`lesson=~<payload>&step=<n>`).
            "params" => ToPage::Params(f.maybe_text("params")?.map(|p| bounded(p, MAX_PARAMS, "params")).transpose()?),
            "notice" => {
                let text = f.short_text("text", MAX_WORDS)?.to_string();
                ToPage::Notice(Notice { error: f.flag("error")?, text, undo: false })
            }
            "unsay" => ToPage::Unsay(f.short_text("text", MAX_WORDS)?.to_string()),
            "pending" => ToPage::Pending(maybe(f.get("held")?, held_back)?),
            "paint" => ToPage::Paint(maybe(f.get("paint")?, painting)?),
            "do" => ToPage::Do(Forwarded::from_value(f.get("action")?)?),
            other => return Err(format!("an unknown message \"{other}\"")),
        })
    }
}

/// `read(v)` for a value that may be null.
fn maybe<T>(v: &Value, read: fn(&Value) -> Result<T, String>) -> Result<Option<T>, String> {
    match v {
        Value::Null => Ok(None),
        v => read(v).map(Some),
    }
}

/// A text no longer than `max` bytes, or why not.
fn bounded(text: &str, max: usize, what: &str) -> Result<String, String> {
    match text.len() <= max {
        true => Ok(text.to_string()),
        false => Err(format!("{what} is longer than {max} bytes")),
    }
}

fn mark(v: &Value) -> Result<Highlight, String> {
    let f = Fields::of(v)?;
    Ok(Highlight {
        broker: f.maybe_text("broker")?.map(str::to_string),
        offset: f.maybe_small("offset")?,
        step: f.maybe_small("step")?,
    })
}

fn held_back(v: &Value) -> Result<HeldBack, String> {
    let f = Fields::of(v)?;
    Ok(HeldBack { step: f.small("step")?, asked_now: f.flag("now")?, why: f.short_text("why", MAX_WORDS)?.into() })
}

fn painting_json(p: &Painting) -> Value {
    json!({ "variant": p.variant.id(), "broker": p.broker, "kept": p.kept })
}

fn painting(v: &Value) -> Result<Painting, String> {
    let f = Fields::of(v)?;
    let kept = f.list("kept", MAX_PAINTED)?.iter().map(|k| k.as_bool().ok_or("kept is not true or false"));
    Ok(Painting {
        variant: f.variant("variant")?,
        broker: f.text("broker")?.to_string(),
        kept: kept.collect::<Result<_, _>>()?,
    })
}

/// A file to import: its content text, or a PNG's bytes one per character (U+0000 to U+00FF).
fn read_file_json(t: &FileImport) -> String {
    let shown: Vec<String> = t.shown.iter().map(|v| quote(v.id())).collect();
    let (text, png) = match &t.content {
        FileContent::Text(text) => (quote(text), "null".to_string()),
        FileContent::Png(bytes) => {
            ("null".to_string(), quote(&bytes.iter().map(|b| char::from(*b)).collect::<String>()))
        }
    };
    object(&[
        ("type", quote("read-file")),
        ("serial", t.serial.to_string()),
        ("source", quote(&t.source)),
        ("text", text),
        ("png", png),
        ("shown", format!("[{}]", shown.join(","))),
    ])
}

fn read_file(f: &Fields) -> Result<FileImport, String> {
    let shown = f.list("shown", MAX_SHOWN)?.iter().map(|s| {
        let id = s.as_str().ok_or("a variant shown is not a text")?;
        Variant::from_id(id).ok_or_else(|| format!("unknown variant {id}"))
    });
    let content = match (f.maybe_text("text")?, f.maybe_text("png")?) {
        (Some(text), None) => FileContent::Text(text.to_string()),
        (None, Some(png)) => {
            let bytes = png.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect::<Option<Vec<u8>>>();
            FileContent::Png(bytes.ok_or("a PNG's bytes garbled")?)
        }
        _ => return Err("a file is either text or png".to_string()),
    };
    Ok(FileImport {
        serial: f.small("serial")?,
        source: f.text("source")?.to_string(),
        content,
        shown: shown.collect::<Result<_, String>>()?,
    })
}

impl ToLessons {
    /// Written with [`wire::object`] (the page sends these: see there).
    pub fn to_json(&self) -> String {
        let kind = |t: &str| ("type", quote(t));
        match self {
            ToLessons::Shown(s) => object(&[kind("shown"), ("snapshot", snapshot::to_json(s))]),
            ToLessons::Splice(s) => s.to_json(),
            ToLessons::Cursor(c) => object(&[kind("cursor"), ("cursor", number(*c))]),
            ToLessons::Toggle => object(&[kind("toggle")]),
            ToLessons::Panels(p) => object(&[kind("panels"), ("open", p.bits().to_string())]),
            ToLessons::Select(step) => object(&[kind("select"), ("cursor", number(*step))]),
            ToLessons::Library(l) => object(&[kind("library"), ("listing", l.to_value().to_string())]),
            ToLessons::ReadFile(t) => read_file_json(t),
        }
    }

    pub fn from_json(text: &str) -> Result<ToLessons, String> {
        let v = parse(text)?;
        let f = Fields::of(&v)?;
        Ok(match f.text("type")? {
            "toggle" => ToLessons::Toggle,
            "cursor" => ToLessons::Cursor(f.maybe_small("cursor")?),
            "splice" => ToLessons::Splice(Splice::from_value(&v)?),
            "panels" => ToLessons::Panels(Panels::from_json(f.get("open")?)?),
            "select" => ToLessons::Select(f.maybe_small("cursor")?),
            "read-file" => ToLessons::ReadFile(read_file(&f)?),
            "library" => ToLessons::Library(Box::new(Listing::from_value(f.get("listing")?)?)),
            "shown" => ToLessons::Shown(Box::new(snapshot::from_value(f.get("snapshot")?)?)),
            other => return Err(format!("an unknown message \"{other}\"")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;

    #[test]
    fn every_message_round_trips() {
        let snapshot = Box::new(Model::landing().shown.snapshot());
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
            ToPage::Unsay("why \"quoted\"".into()),
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
        assert_eq!(
            ToLessons::from_json(r#"{"type":"cursor","cursor":"2"}"#),
            Err("cursor is not a whole number".into())
        );
        assert_eq!(ToLessons::from_json(r#"{"type":"cursor"}"#), Err("no cursor given".to_string()));
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

    /// What the decoder used to fill in silently is now refused, naming the field.
    #[test]
    fn a_message_missing_or_mistyping_a_field_is_refused_with_its_name() {
        let refused = |text: &str| ToPage::from_json(text).err().unwrap_or_default();
        assert_eq!(refused(r#"{"type":"notice","text":"x"}"#), "no error given");
        assert_eq!(refused(r#"{"type":"notice","error":false}"#), "no text given");
        assert_eq!(refused(r#"{"type":"pending","held":{"step":3,"why":""}}"#), "no now given");
        assert_eq!(refused(r#"{"type":"pending","held":{"step":3,"now":true}}"#), "no why given");
        let kept = r#"{"type":"paint","paint":{"variant":"kip-101","broker":"A","kept":[true,1]}}"#;
        assert_eq!(refused(kept), "kept is not true or false");
        let marks: Vec<String> = (0..65).map(|_| r#"{"broker":null,"offset":1,"step":null}"#.to_string()).collect();
        assert_eq!(
            refused(&format!(r#"{{"type":"marks","marks":[{}]}}"#, marks.join(","))),
            "marks holds more than 64 items"
        );
        assert_eq!(
            refused(r#"{"type":"marks","marks":[{"broker":"A","offset":"1","step":null}]}"#),
            "offset is not a whole number"
        );
        let long = format!(r#"{{"type":"params","params":"{}"}}"#, "a".repeat(MAX_PARAMS + 1));
        assert!(refused(&long).contains("params is longer than"));
        let file = r#"{"type":"read-file","serial":1,"source":"s","text":"x","png":null,"shown":["kip-999"]}"#;
        assert_eq!(ToLessons::from_json(file).err().as_deref(), Some("unknown variant kip-999"));
        assert_eq!(refused(r#"{"type":"go"}"#), "an unknown message \"go\"");
    }
}
