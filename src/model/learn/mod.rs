//! Guided lessons in the model: the Learn panel (the lesson list, fetched with the glossary when it first
//! opens), the lesson running beside the playground, and the learner's progress. A lesson plays on the
//! live timeline: each step sets the scenario, the variants and the cursor, a question's right answer and a
//! task's grade come from the core (`epochlab_core::lesson`), never from here or from a component.

mod builder;
mod effects;
mod model;
mod progress;
mod steps;

use std::rc::Rc;

use epochlab_core::lesson::{
    link, parse_index, parse_lesson, validate, Answer, Lesson, LessonIndex, LessonStep, Misconception, Question,
};

use super::{Notice, Shared};
use crate::model::bridge::{HeldBack, Painting, ToPage};

pub use self::builder::{mine_from_json, mine_to_json, Draft, DraftAction, KeptLesson};
pub use self::effects::LessonsEffect;
pub use self::model::LessonsModel;
pub use self::progress::{LessonProgress, Progress, ReadProgress};

/// Something fetched when first needed.
#[derive(Clone, Debug, Default)]
pub enum Fetched<T> {
    /// Not asked for yet.
    #[default]
    Not,
    /// On its way.
    Loading,
    /// Here.
    Ready(T),
    /// It could not be fetched or read (why).
    Failed(String),
}

/// The learner's answer to a question, judged by the core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// What the learner answered.
    pub chosen: Answer,
    /// The simulator's answer.
    pub right: Answer,
    /// The misconception the lesson names for this wrong answer.
    pub misconception: Option<Misconception>,
    /// The misconception's counter-scenario, named once when the answer is judged, not at every render.
    pub counter: Option<CounterScenario>,
}

/// A preset that disproves a misconception.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterScenario {
    /// The preset's id (what `LearnAction::Counter` opens).
    pub preset: &'static str,
    /// Its scenario's name, as the button says it.
    pub name: String,
}

impl CounterScenario {
    /// The counter-scenario of `m` (naming it parses its preset).
    pub fn of(m: Misconception) -> CounterScenario {
        let preset = m.counter_scenario();
        let name = epochlab_core::presets::find(preset).map(|p| p.scenario().name).unwrap_or_default();
        CounterScenario { preset, name }
    }
}

impl Outcome {
    pub fn is_right(&self) -> bool {
        self.chosen == self.right
    }
}

/// Where a followed lesson came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Shipped with Epochlab: its id names its file.
    Shipped,
    /// An author's, inline in the link that opened it: that link's `~<payload>` (the address keeps it).
    Shared(Rc<str>),
    /// The lesson being written, previewed as a learner takes it: no progress, no address.
    Draft,
}

/// A lesson being followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonRun {
    pub lesson: Rc<Lesson>,
    pub origin: Origin,
    /// The step shown (0-based); `steps.len()` is the end, with the takeaway.
    pub step: usize,
    /// A question's answer, once given.
    pub outcome: Option<Outcome>,
    /// A painted log: per offset of the broker's log before the step, whether the learner says it survives.
    pub painted: Vec<bool>,
    /// A question's choices (the HW slider's range), worked out once when the step is entered.
    pub choices: Rc<Vec<Answer>>,
    /// The HW the learner dragged the marker to; none until they move it (a marker that started somewhere
    /// could start on the answer).
    pub hw: Option<u32>,
    /// A task's grade on the current timeline.
    pub passed: bool,
    /// The learner left the lesson to try something on the timeline ("Try it yourself").
    pub aside: bool,
}

impl LessonRun {
    /// `lesson` at `step`, nothing answered, painted or chosen yet.
    fn at(lesson: Rc<Lesson>, origin: Origin, step: usize) -> LessonRun {
        LessonRun {
            lesson,
            origin,
            step,
            outcome: None,
            painted: Vec::new(),
            choices: Rc::default(),
            hw: None,
            passed: false,
            aside: false,
        }
    }

    /// What the address names the lesson by (`lesson=`): its id, or a shared lesson's `~<payload>`; a
    /// draft is not in the address.
    pub fn reference(&self) -> Option<&str> {
        match &self.origin {
            Origin::Shipped => Some(&self.lesson.id),
            Origin::Shared(reference) => Some(reference),
            Origin::Draft => None,
        }
    }

    /// Where its progress is kept: a shared lesson's apart from the shipped lessons', whatever its id; a
    /// draft's nowhere.
    pub fn progress_key(&self) -> Option<String> {
        match &self.origin {
            Origin::Shipped => Some(self.lesson.id.clone()),
            Origin::Shared(_) => Some(format!("shared:{}", self.lesson.id)),
            Origin::Draft => None,
        }
    }

    /// The painted log as an answer.
    pub fn painted_answer(&self) -> Answer {
        Answer::Offsets(self.painted.clone())
    }

    /// The step shown (`None` at the end).
    pub fn current(&self) -> Option<&LessonStep> {
        self.lesson.steps.get(self.step)
    }

    pub fn at_end(&self) -> bool {
        self.step >= self.lesson.steps.len()
    }

    /// A question waits for its answer: the step before it is not played yet.
    pub fn waiting(&self) -> bool {
        matches!(self.current(), Some(LessonStep::Predict(_))) && self.outcome.is_none()
    }

    /// The step a waiting question asks about, while the lesson is on screen; before it, the step the next
    /// question asks about (the page shows the story only up to it).
    pub fn asked(&self) -> Option<HeldBack> {
        match self.current() {
            _ if self.aside => None,
            Some(LessonStep::Predict(p)) if self.waiting() => Some(HeldBack::new(p.before, true)),
            _ => self.lesson.next_question_about_its_story(self.step).map(|step| HeldBack::new(step, false)),
        }
    }
}

/// Everything about lessons.
#[derive(Clone, Debug, Default)]
pub struct Learn {
    /// The Learn panel (lesson list and glossary) is open.
    pub shown: bool,
    /// The lesson list and the glossary.
    pub index: Fetched<Rc<LessonIndex>>,
    pub progress: Rc<Progress>,
    /// The lesson being followed.
    pub run: Option<LessonRun>,
    /// A lesson asked for (by id, at a step) whose file is on its way.
    pub wanted: Option<(String, usize)>,
    /// The glossary entry opened from a lesson's words.
    pub term: Option<String>,
    /// The lesson being written (kept while the builder is closed).
    pub draft: Option<Draft>,
    /// The builder is open.
    pub writing: bool,
    /// The draft's text whose link the browser is making.
    pub packing: Option<Rc<str>>,
    /// The lessons the author kept, listed in My scenarios.
    pub mine: Rc<Vec<KeptLesson>>,
    /// The kept lesson removed last, and where it was, to put back.
    pub forgotten: Option<(usize, KeptLesson)>,
    /// What My scenarios lists of the page's scenarios (the page keeps them).
    pub listing: Rc<crate::model::listing::Listing>,
}

/// What a learner does with lessons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LearnAction {
    /// Open or close the Learn panel (the first opening fetches the lesson list).
    Toggle,
    /// The index file arrived (its text) or could not be fetched (why).
    IndexLoaded(Result<String, String>),
    /// Open a lesson at a step (0-based): a shipped lesson's id, or a shared lesson's `~<payload>`.
    Start(String, usize),
    /// A lesson file arrived (its text), or a shared lesson was unpacked, for the lesson and step asked for.
    LessonLoaded(String, usize, Result<String, String>),
    Next,
    Back,
    Restart,
    /// Stop following the lesson (the timeline stays as it is).
    Leave,
    /// Answer the question.
    Answer(Answer),
    /// Mark an offset of the painted log as surviving or truncated.
    Paint(usize),
    /// Move the dragged HW.
    SetHw(u32),
    /// Put the task's scripted solution on the timeline (undoably).
    ShowMe,
    /// Leave the lesson aside to work on the timeline.
    TryIt,
    /// Come back to the lesson from the timeline or a counter-scenario.
    Resume,
    /// Open a misconception's counter-scenario (a preset), the lesson kept aside.
    Counter(&'static str),
    /// Show a glossary entry (or none).
    Term(Option<String>),
    /// Replace the progress with a progress file's (its text).
    ImportProgress(String),
    /// Write a lesson (the builder).
    Draft(DraftAction),
}

/// What the lessons tell the page after an action changed `before` into `after`: what to show, what to mark,
/// the address's lesson part, and a notice.
pub fn page_messages(before: &LessonsModel, after: &LessonsModel) -> Vec<ToPage> {
    let mut out = Vec::new();
    // First, so that the page lets the step play (or stops before it) when shown.
    if after.question_asked() != before.question_asked() {
        out.push(ToPage::Pending(after.question_asked()));
    }
    let (was, now) = (&before.shown, &after.shown);
    // The scenario is shared until a lesson changes it: compared by pointer first, copied only to be sent.
    if now.scenario != was.scenario || now.variants != was.variants {
        out.push(ToPage::Show(Box::new(now.snapshot())));
    } else if now.cursor != was.cursor {
        out.push(ToPage::Cursor(now.cursor.map(|c| c as u32)));
    }
    if after.painting() != before.painting() {
        out.push(ToPage::Paint(after.painting()));
    }
    if after.marks != before.marks {
        out.push(ToPage::Marks((*after.marks).clone()));
    }
    if after.lesson_params != before.lesson_params {
        out.push(ToPage::Params(after.lesson_params.clone()));
    }
    match (&before.notice, &after.notice) {
        (_, Some(now)) if after.notice != before.notice => out.push(ToPage::Notice(now.clone())),
        // A notice belongs to the step that raised it: it goes with it.
        (Some(was), None) => out.push(ToPage::Unsay(was.text.clone())),
        _ => {}
    }
    out
}

/// Said when stored progress cannot be read.
fn unreadable_progress(why: &str) -> String {
    format!("Your lesson progress could not be read ({why}), so it starts afresh. Nothing else is affected.")
}

/// Stored progress opened: what it holds, and the notice to show if some of it could not be read.
pub fn opened_progress(text: &str) -> (Progress, Option<Notice>) {
    let notice = |text: String| Some(Notice { error: true, text, undo: false });
    match Progress::from_json(text) {
        Ok(read) => {
            let note = read.skipped_note().map(|n| format!("Your lesson progress opened, but {n}."));
            (read.progress, note.and_then(notice))
        }
        Err(why) => (Progress::default(), notice(unreadable_progress(&why))),
    }
}

impl LessonsModel {
    /// In the lessons' module: the next model after a lesson action, with what the page must be told (the
    /// marks and the address's lesson part are kept on the model, as the page keeps them) and the effects.
    pub fn learn_reduce(&self, action: LearnAction) -> (LessonsModel, Vec<LessonsEffect>) {
        let mut next = self.clone();
        next.learn(action);
        if next.shown.traces != self.shown.traces {
            next.grade_task();
        }
        next.marks = Rc::new(next.lesson_highlights());
        next.lesson_params = next.run_fragment();
        let effects = next.lesson_effects(self);
        (next, effects)
    }

    /// In the lessons' module: the page now shows this (the learner edited, undid, or a lesson step was
    /// shown); a task is graded on it.
    pub fn mirror(&mut self, shown: crate::formats::snapshot::Snapshot) {
        if shown.scenario != *self.shown.scenario || shown.variants != self.shown.variants {
            self.shown.scenario = Rc::new(shown.scenario);
            self.show_variants(shown.variants);
            self.grade_task();
        }
        self.mirror_cursor(shown.cursor);
    }

    /// In the lessons' module: the page moved its cursor (nothing else it shows changed).
    pub fn mirror_cursor(&mut self, cursor: Option<u32>) {
        self.shown.cursor = cursor.map(|c| c as usize);
        self.marks = Rc::new(self.lesson_highlights());
    }

    /// Route a lesson action.
    fn learn(&mut self, action: LearnAction) {
        match action {
            LearnAction::Toggle => self.toggle_learn(),
            LearnAction::IndexLoaded(text) => self.index_loaded(text),
            LearnAction::Start(id, step) => self.start_lesson(id, step),
            LearnAction::LessonLoaded(id, step, text) => self.lesson_loaded(&id, step, text),
            LearnAction::Next => self.lesson_go(1),
            LearnAction::Back => self.lesson_go(-1),
            LearnAction::Restart => self.enter_step(0),
            LearnAction::Leave => {
                self.learn_mut().run = None;
                self.notice = None;
            }
            LearnAction::Answer(chosen) => self.answer(chosen),
            LearnAction::Paint(offset) => self.paint(offset),
            LearnAction::SetHw(hw) => self.with_run(|r| r.hw = Some(hw)),
            LearnAction::ShowMe => self.show_me(),
            LearnAction::TryIt => self.with_run(|r| r.aside = true),
            LearnAction::Resume => self.resume(),
            LearnAction::Counter(preset) => {
                self.load_preset(preset);
                self.with_run(|r| r.aside = true);
            }
            LearnAction::Term(id) => self.learn_mut().term = id,
            LearnAction::ImportProgress(text) => self.import_progress(&text),
            LearnAction::Draft(action) => self.draft(action),
        }
    }

    /// The lessons' state to change (shared until it changes, so comparing models stays cheap).
    pub fn learn_mut(&mut self) -> &mut Learn {
        Shared::make_mut(&mut self.learn)
    }

    fn with_run(&mut self, f: impl FnOnce(&mut LessonRun)) {
        if let Some(run) = self.learn_mut().run.as_mut() {
            f(run);
        }
    }

    fn toggle_learn(&mut self) {
        self.learn_mut().shown = !self.learn.shown;
        if self.learn.shown && matches!(self.learn.index, Fetched::Not | Fetched::Failed(_)) {
            self.learn_mut().index = Fetched::Loading;
        }
    }

    fn index_loaded(&mut self, text: Result<String, String>) {
        let read = text.and_then(|t| parse_index(&t).map_err(|e| e.to_string()));
        match read {
            Ok(index) => self.learn_mut().index = Fetched::Ready(Rc::new(index)),
            Err(why) => {
                self.error(format!("The lessons could not be loaded ({why})."));
                self.learn_mut().index = Fetched::Failed(why);
                self.learn_mut().wanted = None;
            }
        }
        if let Some((id, _)) = self.learn.wanted.clone() {
            if self.lesson_file(&id).is_none() && link::inline_payload(&id).is_none() {
                self.learn_mut().wanted = None;
                self.error(format!("There is no lesson \"{id}\"."));
            }
        }
    }

    /// The file of a lesson in the loaded index.
    pub fn lesson_file(&self, id: &str) -> Option<String> {
        let Fetched::Ready(index) = &self.learn.index else { return None };
        index.lessons.iter().find(|l| l.id == id).map(|l| l.file.clone())
    }

    fn start_lesson(&mut self, id: String, step: usize) {
        // A shared lesson is in its link: no list to look it up in.
        if link::inline_payload(&id).is_some() {
            self.learn_mut().wanted = Some((id, step));
            return;
        }
        if matches!(self.learn.index, Fetched::Not | Fetched::Failed(_)) {
            self.learn_mut().index = Fetched::Loading;
        }
        if matches!(self.learn.index, Fetched::Ready(_)) && self.lesson_file(&id).is_none() {
            return self.error(format!("There is no lesson \"{id}\"."));
        }
        self.learn_mut().wanted = Some((id, step));
    }

    fn lesson_loaded(&mut self, id: &str, step: usize, text: Result<String, String>) {
        if self.learn.wanted.as_ref().is_none_or(|(w, _)| w != id) {
            return;
        }
        self.learn_mut().wanted = None;
        let lesson = text.and_then(|t| {
            let lesson = parse_lesson(&t).map_err(|e| e.to_string())?;
            validate(&lesson).map_err(|e| e.to_string())?;
            Ok(lesson)
        });
        let shared = link::inline_payload(id).is_some();
        let lesson = match lesson {
            Ok(lesson) if shared || lesson.id == id => lesson,
            Ok(_) => return self.error(format!("The lesson \"{id}\" could not be opened (its file names another).")),
            Err(why) if shared => {
                return self.error(format!("The shared lesson in this link could not be opened ({why})."))
            }
            Err(why) => return self.error(format!("The lesson \"{id}\" could not be opened ({why}).")),
        };
        let origin = if shared { Origin::Shared(id.into()) } else { Origin::Shipped };
        self.open_lesson(Rc::new(lesson), origin, step);
    }

    /// Follow `lesson` from `step`, on its own scenario (the user's kept in My scenarios first).
    pub(super) fn open_lesson(&mut self, lesson: Rc<Lesson>, origin: Origin, step: usize) {
        // A definition opened in the last lesson does not follow the learner into this one.
        self.learn_mut().term = None;
        // The page keeps the user's scenario in My scenarios as it shows the lesson's, and says so.
        self.show(lesson.scenario.clone(), lesson.variants.clone());
        self.learn_mut().run = Some(LessonRun::at(lesson, origin, 0));
        self.learn_mut().shown = false;
        self.enter_step(step);
    }

    fn lesson_go(&mut self, by: i32) {
        let Some(run) = &self.learn.run else { return };
        if by > 0 && run.waiting() {
            return self.error("answer the question first: the step plays once you have predicted it");
        }
        // A button that is off (aria-disabled, so it keeps the focus) is still pressed: nothing to do.
        if (by < 0 && run.step == 0) || (by > 0 && run.at_end()) {
            return;
        }
        let (key, end) = (run.progress_key(), run.lesson.steps.len());
        let step = (run.step as i64 + i64::from(by)).clamp(0, end as i64) as usize;
        self.enter_step(step);
        if by > 0 && step == end {
            self.record_progress(key.as_deref(), step, true);
        }
    }

    fn resume(&mut self) {
        let Some(step) = self.learn.run.as_ref().map(|r| r.step) else { return };
        let task = matches!(self.learn.run.as_ref().and_then(LessonRun::current), Some(LessonStep::Task(_)));
        self.with_run(|r| r.aside = false);
        // A task goes on from the learner's timeline; any other step shows the lesson's own scenario again.
        if !task {
            self.enter_step(step);
        }
        self.grade_task();
    }

    fn import_progress(&mut self, text: &str) {
        match Progress::from_json(text) {
            Ok(read) => {
                let done = read.progress.done();
                let note = read.skipped_note().map(|n| format!(" ({n})")).unwrap_or_default();
                self.learn_mut().progress = Rc::new(read.progress);
                self.inform(format!("Imported your lesson progress: {done} lesson(s) done{note}."));
            }
            Err(why) => {
                self.error(format!("That progress file could not be read ({why}); your progress is unchanged."))
            }
        }
    }

    /// The log a waiting question asks to paint, for the page to draw on the broker's row.
    pub fn painting(&self) -> Option<Painting> {
        let run = self.learn.run.as_ref().filter(|r| r.waiting() && !r.aside)?;
        match run.current() {
            Some(LessonStep::Predict(p)) => match &p.question {
                Question::Survivors { broker } => {
                    Some(Painting { variant: p.variant, broker: broker.clone(), kept: run.painted.clone() })
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The step a question waits to play, for the page to hold back.
    pub fn question_asked(&self) -> Option<HeldBack> {
        self.learn.run.as_ref().and_then(LessonRun::asked)
    }

    /// The `lesson=<id>&step=<n>` of the address (`n` counts from 1), while a lesson is followed.
    pub fn run_fragment(&self) -> Option<String> {
        let run = self.learn.run.as_ref()?;
        Some(format!("lesson={}&step={}", run.reference()?, run.step + 1))
    }

    /// The scenario shown is the lesson's own (so not the user's to keep in My scenarios).
    pub fn is_lesson_scenario(&self) -> bool {
        self.learn.run.as_ref().is_some_and(|r| steps::same_story(&self.shown.scenario, r.lesson.step_scenario(r.step)))
    }
}

#[cfg(test)]
mod quiz_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod walk;
