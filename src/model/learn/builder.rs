//! The lesson builder: an author writes a lesson in the lesson text format (`docs/lessons.md`) on the
//! scenario shown, adds steps of each kind at the cursor, sees what the simulator answers to each question
//! and what is wrong and where, previews the lesson as a learner takes it, and makes the link that shares
//! it. The text is read and checked by the core on every edit; the builder keeps its own undo, and the
//! draft and the lessons kept in My scenarios are kept in this browser (`LessonsEffect::SaveDraft`,
//! `LessonsEffect::SaveMine`).

use std::rc::Rc;

use epochlab_core::lesson::template::{self, StepKind};
use epochlab_core::lesson::text::check_any_placed;
use epochlab_core::lesson::{answer, Lesson, LessonStep};

use super::LessonsModel;
use super::Origin;

/// How many edits the builder can undo.
const UNDO_DEPTH: usize = 100;

/// A lesson being written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    /// The lesson's text (the text format; JSON reads too).
    pub text: Rc<str>,
    /// The lesson it reads as, checked against the simulator, or what is wrong and where.
    pub read: Result<Rc<Lesson>, String>,
    /// Each question's computed answer, in words.
    pub answers: Rc<Vec<String>>,
    undo: Vec<Rc<str>>,
    redo: Vec<Rc<str>>,
    /// The last edit was typing (a run of keystrokes is undone at once).
    typing: bool,
    /// The share link's lesson reference (`~<payload>`), once made for this text.
    pub link: Option<String>,
}

impl Draft {
    /// A draft holding `text`, read and checked.
    pub fn new(text: &str) -> Draft {
        let (read, answers) = read(text);
        Draft { text: text.into(), read, answers, undo: Vec::new(), redo: Vec::new(), typing: false, link: None }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Replace the text, undoably (`typing`: joined to the edit before when that was typing too).
    fn set(&mut self, text: &str, typing: bool) {
        if !(typing && self.typing) {
            self.undo.push(self.text.clone());
            if self.undo.len() > UNDO_DEPTH {
                self.undo.remove(0);
            }
        }
        self.redo.clear();
        self.replace(text);
        self.typing = typing;
    }

    fn replace(&mut self, text: &str) {
        *self =
            Draft { undo: std::mem::take(&mut self.undo), redo: std::mem::take(&mut self.redo), ..Draft::new(text) };
    }

    fn step_back(&mut self, back: bool) {
        let (from, to) = if back { (&mut self.undo, &mut self.redo) } else { (&mut self.redo, &mut self.undo) };
        let Some(text) = from.pop() else { return };
        to.push(self.text.clone());
        self.replace(&text);
    }
}

/// The lesson a text reads as and its questions' answers, or the first problem and its line.
fn read(text: &str) -> (Result<Rc<Lesson>, String>, Rc<Vec<String>>) {
    // With the line each step is on, to say where each answer belongs (a JSON text has none).
    let (lesson, lines) = match check_any_placed(text) {
        Ok((lesson, lines)) => (lesson, lines.map(|l| l.steps).unwrap_or_default()),
        Err(why) => return (Err(why), Rc::default()),
    };
    let answers = lesson
        .steps
        .iter()
        .enumerate()
        .filter_map(|(i, step)| {
            let LessonStep::Predict(p) = step else { return None };
            let key = answer(&lesson, p).map(|a| a.key()).unwrap_or_default();
            let place = lines.get(i).map_or_else(|| format!("steps[{i}]"), |l| format!("line {l}, steps[{i}]"));
            Some(format!("{place}, before step {} under {}: {} \u{2192} {key}", p.before, p.variant.id(), p.words()))
        })
        .collect();
    (Ok(Rc::new(lesson)), Rc::new(answers))
}

/// A lesson the author kept in My scenarios (this browser).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptLesson {
    pub id: String,
    pub title: String,
    pub text: Rc<str>,
}

/// The author's kept lessons, as stored: `{"version": 1, "lessons": [{"id", "title", "text"}]}`.
pub fn mine_to_json(mine: &[KeptLesson]) -> String {
    let items: Vec<serde_json::Value> =
        mine.iter().map(|k| serde_json::json!({"id": k.id, "title": k.title, "text": &*k.text})).collect();
    serde_json::json!({"version": 1, "lessons": items}).to_string()
}

/// The stored kept lessons; an entry that does not read is left out, and counted.
pub fn mine_from_json(text: &str) -> Result<(Vec<KeptLesson>, usize), String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let Some(items) = value.get("lessons").and_then(|l| l.as_array()).filter(|_| value["version"] == 1) else {
        return Err("not Epochlab's kept lessons (version 1)".into());
    };
    let read = |item: &serde_json::Value| {
        let field = |k: &str| item.get(k).and_then(|v| v.as_str()).map(str::to_string);
        Some(KeptLesson { id: field("id")?, title: field("title")?, text: field("text")?.into() })
    };
    let kept: Vec<KeptLesson> = items.iter().filter_map(read).collect();
    let skipped = items.len() - kept.len();
    Ok((kept, skipped))
}

/// The id and title a lesson's text gives, read as far as it reads.
fn named(text: &str) -> (String, String) {
    let json = epochlab_core::lesson::text::lesson_json(text).map(|(j, _)| j).ok();
    let field = |k: &str, or: &str| json.as_ref().and_then(|j| j[k].as_str()).unwrap_or(or).to_string();
    (field("id", "my-lesson"), field("title", "Untitled lesson"))
}

/// What an author does in the builder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DraftAction {
    /// Open the builder: the draft kept, or a new lesson on the scenario shown.
    Write,
    /// Start again: a new lesson on the scenario shown (undoable).
    Fresh,
    /// The text as typed.
    Text(String),
    /// Add a step at the cursor.
    Add(StepKind),
    Undo,
    Redo,
    /// Take the lesson as a learner would (nothing kept, the builder a click away).
    Preview,
    /// Make the link that shares the lesson.
    Share,
    /// The link's lesson reference, made by the browser, for this text.
    Linked(Rc<str>, Result<String, String>),
    /// A cell, a broker's row or a step's chip pointed at (`A@1`, `A`, `#5`) while writing: highlighted in
    /// the last explanation.
    Point(String),
    /// Keep the lesson in My scenarios (replacing the one kept under its id).
    Keep,
    /// Open a kept lesson in the builder (undoably).
    Open(usize),
    /// Take a lesson out of My scenarios.
    Forget(usize),
    /// Put back the lesson taken out last.
    Restore,
    Close,
}

impl super::Learn {
    /// The lesson removed last and where it was, while it can be put back: not once a lesson of its id was
    /// kept since (which is newer).
    pub fn restorable(&self) -> Option<&(usize, KeptLesson)> {
        self.forgotten.as_ref().filter(|(_, k)| self.mine.iter().all(|m| m.id != k.id))
    }
}

impl LessonsModel {
    /// An author's action in the builder.
    pub(super) fn draft(&mut self, action: DraftAction) {
        let cursor = self.shown.cursor.map(|c| c as u32);
        match action {
            DraftAction::Write => self.write(),
            DraftAction::Fresh => {
                let text = template::new_lesson(&self.shown.scenario, &self.shown.variants, cursor);
                self.with_draft(|d| d.set(&text, false));
            }
            DraftAction::Text(text) => self.with_draft(|d| d.set(&text, true)),
            DraftAction::Add(kind) => self.add_step(kind, cursor),
            DraftAction::Undo => self.with_draft(|d| d.step_back(true)),
            DraftAction::Redo => self.with_draft(|d| d.step_back(false)),
            DraftAction::Preview => self.preview(),
            DraftAction::Share => self.share_draft(),
            DraftAction::Close => self.learn_mut().writing = false,
            DraftAction::Linked(text, made) => self.linked(&text, made),
            DraftAction::Point(word) => self.point_at(&word),
            DraftAction::Keep => self.keep_draft(),
            DraftAction::Open(i) => self.open_kept(i),
            DraftAction::Forget(i) => self.forget(i),
            DraftAction::Restore => self.restore_kept(),
        }
    }

    /// Open a kept lesson in the builder, the text written before a click away (Undo).
    fn open_kept(&mut self, i: usize) {
        let Some(text) = self.learn.mine.get(i).map(|k| k.text.clone()) else { return };
        self.write();
        self.with_draft(|d| d.set(&text, false));
    }

    fn forget(&mut self, i: usize) {
        if i >= self.learn.mine.len() {
            return;
        }
        let mut mine = (*self.learn.mine).clone();
        let gone = mine.remove(i);
        let learn = self.learn_mut();
        learn.mine = Rc::new(mine);
        learn.forgotten = Some((i, gone));
    }

    /// Put back the lesson removed last (see [`Learn::restorable`]).
    fn restore_kept(&mut self) {
        let restorable = self.learn.restorable().cloned();
        let learn = self.learn_mut();
        learn.forgotten = None;
        let Some((i, kept)) = restorable else { return };
        let mut mine = (*learn.mine).clone();
        mine.insert(i.min(mine.len()), kept);
        learn.mine = Rc::new(mine);
    }

    fn write(&mut self) {
        if self.learn.draft.is_none() {
            let cursor = self.shown.cursor.map(|c| c as u32);
            let text = template::new_lesson(&self.shown.scenario, &self.shown.variants, cursor);
            self.learn_mut().draft = Some(Draft::new(&text));
        }
        let learn = self.learn_mut();
        (learn.writing, learn.shown) = (true, false);
        // Writing, the author leaves a preview (a lesson followed stays, to go back to).
        if learn.run.as_ref().is_some_and(|r| r.origin == Origin::Draft) {
            learn.run = None;
        }
    }

    fn with_draft(&mut self, f: impl FnOnce(&mut Draft)) {
        if let Some(draft) = self.learn_mut().draft.as_mut() {
            f(draft);
        }
    }

    fn add_step(&mut self, kind: StepKind, cursor: Option<u32>) {
        let Some(text) = self.learn.draft.as_ref().map(|d| d.text.clone()) else { return };
        match template::add_step(&text, kind, cursor, &self.shown.scenario.events) {
            Ok(text) => self.with_draft(|d| d.set(&text, false)),
            Err(why) => self.error(format!("The step could not be added: {why}.")),
        }
    }

    fn preview(&mut self) {
        let Some(draft) = &self.learn.draft else { return };
        match &draft.read {
            Ok(lesson) => {
                let lesson = lesson.clone();
                self.learn_mut().writing = false;
                self.open_lesson(lesson, Origin::Draft, 0);
            }
            Err(why) => self.error(format!("The lesson cannot be previewed yet: {why}.")),
        }
    }

    fn point_at(&mut self, word: &str) {
        let Some(text) = self.learn.draft.as_ref().filter(|_| self.learn.writing).map(|d| d.text.clone()) else {
            return;
        };
        match template::point(&text, word) {
            Ok(text) => self.with_draft(|d| d.set(&text, false)),
            Err(why) => self.error(format!("It is not highlighted: {why}.")),
        }
    }

    fn keep_draft(&mut self) {
        let Some(text) = self.learn.draft.as_ref().map(|d| d.text.clone()) else { return };
        let (id, title) = named(&text);
        let mut mine = (*self.learn.mine).clone();
        mine.retain(|k| k.id != id);
        mine.insert(0, KeptLesson { id, title: title.clone(), text });
        self.learn_mut().mine = Rc::new(mine);
        self.inform(format!("Kept \u{201c}{title}\u{201d} in My scenarios (below the timeline), in this browser."));
    }

    fn share_draft(&mut self) {
        let Some(draft) = &self.learn.draft else { return };
        match &draft.read {
            Ok(_) => self.learn_mut().packing = Some(draft.text.clone()),
            Err(why) => self.error(format!("The lesson cannot be shared yet: {why}.")),
        }
    }

    fn linked(&mut self, text: &str, made: Result<String, String>) {
        self.learn_mut().packing = None;
        // The author may have typed since the link was asked for.
        if self.learn.draft.as_ref().is_none_or(|d| &*d.text != text) {
            return;
        }
        match made {
            Ok(reference) => self.with_draft(|d| d.link = Some(reference)),
            Err(why) => self.error(format!("The lesson cannot be shared in a link: {why}.")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::learn::LessonsEffect;
    use crate::model::LearnAction;

    fn act(m: &LessonsModel, a: DraftAction) -> (LessonsModel, Vec<LessonsEffect>) {
        m.learn_reduce(LearnAction::Draft(a))
    }

    /// The lessons' mirror of the landing page.
    fn landing() -> LessonsModel {
        LessonsModel::mirroring(crate::model::Model::landing().shown)
    }

    fn text(m: &LessonsModel) -> String {
        m.learn.draft.as_ref().unwrap().text.to_string()
    }

    #[test]
    fn writing_starts_on_the_scenario_shown_and_typing_is_undone_at_once() {
        let (m, effects) = act(&landing(), DraftAction::Write);
        assert!(m.learn.writing && m.learn.draft.as_ref().unwrap().read.is_ok());
        assert!(matches!(&effects[..], [LessonsEffect::SaveDraft(_)]), "{effects:?}");
        let first = text(&m);
        let (m, _) = act(&m, DraftAction::Text(first.replace("minutes: 3", "minutes: 4")));
        let (m, _) = act(&m, DraftAction::Text(first.replace("minutes: 3", "minutes: 45")));
        let (m, _) = act(&m, DraftAction::Add(StepKind::Explain));
        assert!(text(&m).contains("minutes: 45") && text(&m).trim_end().ends_with("Say what the learner sees here."));
        let (m, _) = act(&m, DraftAction::Undo);
        assert!(text(&m).contains("minutes: 45"), "the step undone");
        let (m, _) = act(&m, DraftAction::Undo);
        assert_eq!(text(&m), first, "the typing undone at once");
        let (m, _) = act(&m, DraftAction::Redo);
        assert!(text(&m).contains("minutes: 45"));
    }

    #[test]
    fn my_lessons_keep_one_lesson_per_id_and_survive_storage() {
        let (m, _) = act(&landing(), DraftAction::Write);
        let (m, effects) = act(&m, DraftAction::Keep);
        assert!(effects.contains(&LessonsEffect::SaveMine));
        let (m, _) = act(&m, DraftAction::Text(text(&m).replace("minutes: 3", "minutes: 7")));
        let (m, _) = act(&m, DraftAction::Keep);
        assert_eq!(m.learn.mine.len(), 1, "kept again under its id");
        assert!(m.learn.mine[0].text.contains("minutes: 7"));
        let (read, skipped) = mine_from_json(&mine_to_json(&m.learn.mine)).unwrap();
        assert_eq!((read, skipped), ((*m.learn.mine).clone(), 0));
        let kept_title = m.learn.mine[0].title.clone();
        let (m, _) = act(&m, DraftAction::Fresh);
        let (m, _) = act(&m, DraftAction::Close);
        let (m, _) = act(&m, DraftAction::Open(0));
        assert!(m.learn.writing && text(&m).contains("minutes: 7"), "opened in the builder");
        let (m, _) = act(&m, DraftAction::Forget(0));
        assert!(m.learn.mine.is_empty());
        let (m, effects) = act(&m, DraftAction::Restore);
        assert_eq!(m.learn.mine[0].title, kept_title, "put back");
        assert!(effects.contains(&LessonsEffect::SaveMine) && m.learn.forgotten.is_none());
        // Removed, then kept again under its id: putting the removed one back would lose the newer.
        let (m, _) = act(&m, DraftAction::Forget(0));
        let (m, _) = act(&m, DraftAction::Text(text(&m).replace("minutes: 7", "minutes: 8")));
        let (m, _) = act(&m, DraftAction::Keep);
        let (m, _) = act(&m, DraftAction::Restore);
        assert_eq!(m.learn.mine.len(), 1);
        assert!(m.learn.mine[0].text.contains("minutes: 8"), "the newer kept");
        let partly = r#"{"version": 1, "lessons": [{"id": "a", "title": "A", "text": "lesson: a"}, {"id": 3}]}"#;
        assert_eq!(mine_from_json(partly).unwrap().1, 1, "one left out");
        assert!(mine_from_json("[]").is_err());
    }
}
