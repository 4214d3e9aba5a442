//! Guided lessons as data: a scenario and a script of steps that explain, ask the learner to predict, ask
//! them to do something on the timeline, or compare variants. The right answer to every question is
//! computed by the simulator from the scenario (`answer`), never written in the lesson; a lesson only says
//! which question to ask about which step. Wrong answers the lesson knows map to named misconceptions
//! (`misconception`). Every lesson file is checked (`validate`): each question has a computable answer,
//! each task's scripted solution passes its check and its wrong solution fails it. What a lesson's prose states
//! about the cluster is read by `facts` and looked up in the runs each step shows by `passages`.
//!
//! Lesson files are JSON (`crates/epochlab-core/lessons/*.json`, see `docs/lessons.md`); the web app fetches
//! one when it is opened, so lesson text is not part of the page's first download.

mod answer;
mod check;
mod facts;
mod index;
pub mod link;
mod misconception;
mod parse;
mod passages;
mod releases;
mod source;
pub mod template;
pub mod text;
mod validate;

pub use answer::{answer, answer_from_trace, choices, choices_from_trace, Answer, CONSUMER_SEES, NO_LEADER};
pub use check::Check;
pub use facts::{facts, Fact, Who};
pub use index::{parse_index, IndexEntry, LessonIndex, MisconceptionText, Segment, Term};
pub use misconception::Misconception;
pub use parse::{parse_lesson, parse_lesson_value, LessonError};
pub use passages::{passages, Passage};
pub use releases::{release_columns, ReleaseColumn};
pub use source::Source;
pub use validate::{validate, validate_shipped};

use std::collections::BTreeMap;

use crate::scenario::{Event, Scenario};
use crate::variant::{KafkaVersion, Variant};

/// A whole lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    /// Stable id, used in links (`#lesson=<id>`) and progress.
    pub id: String,
    /// Title shown in the lesson list.
    pub title: String,
    /// How long it takes, roughly.
    pub minutes: u8,
    /// The scenario the lesson plays (the live timeline shows it).
    pub scenario: Scenario,
    /// The variants shown when the lesson opens.
    pub variants: Vec<Variant>,
    /// The script.
    pub steps: Vec<LessonStep>,
    /// The one sentence the learner should leave with.
    pub takeaway: String,
    /// What the lesson's claims rest on, shown under "Read more" at its end.
    pub sources: Vec<Source>,
}

/// One step of a lesson's script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonStep {
    /// A short paragraph, with the cursor at a step and the things it talks about highlighted.
    Explain {
        /// The paragraph.
        text: String,
        /// The step the cursor shows (`None`: it stays where it is).
        at: Option<u32>,
        /// What to highlight.
        highlight: Vec<Highlight>,
    },
    /// The cursor stops before a step and asks.
    Predict(Prediction),
    /// Something the learner does on the live timeline, graded by a check.
    Task(Task),
    /// Switch to or add variants, with the first difference marked; or, with `releases`, the lesson's story
    /// under each of those Kafka releases, side by side in the lesson (`release_columns`).
    Compare {
        /// What to look at.
        text: String,
        /// The variants side by side.
        variants: Vec<Variant>,
        /// Kafka releases whose outcomes stand side by side (none: a comparison of variants only).
        releases: Vec<KafkaVersion>,
    },
}

/// What an explanation points at on the live view: a broker's row, one of its cells, or a timeline chip.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Highlight {
    /// A broker's row (with `offset`: one cell of it).
    pub broker: Option<String>,
    /// An offset column.
    pub offset: Option<u32>,
    /// A timeline step (its chip).
    pub step: Option<u32>,
}

/// A question asked before a step plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prediction {
    /// The step about to play: the question is about the state right after it.
    pub before: u32,
    /// The variant the question is about.
    pub variant: Variant,
    /// What is asked.
    pub question: Question,
    /// The question in words.
    pub prompt: String,
    /// The choices offered (as [`Answer::key`]), when the lesson picks its distractors; else every
    /// broker, record or yes/no (see [`choices`]).
    pub offered: Option<Vec<String>>,
    /// Known wrong answers (as [`Answer::key`]) and the misconception each reveals.
    pub wrong: BTreeMap<String, Misconception>,
    /// The question's own scenario (a quiz question about a counter-scenario), shown while it is asked;
    /// `None`: the lesson's.
    pub scenario: Option<Box<Scenario>>,
}

impl Prediction {
    /// What it asks, in a few words: "which of A's offsets survive".
    pub fn words(&self) -> String {
        match &self.question {
            Question::Survivors { broker } => format!("which of {broker}'s offsets survive"),
            Question::Hw { broker } => format!("{broker}'s HW"),
            Question::Leader => "who leads".into(),
            Question::RecordAt { broker, offset } => format!("what {broker} holds at offset {offset}"),
            Question::AnyBug => "does an invariant fail as a bug".into(),
            Question::LogsAgree => "do the live brokers' logs agree".into(),
            Question::ConsumerSees => "what a consumer past a truncation meets".into(),
        }
    }
}

/// What is asked. Each has exactly one right answer in a given run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// Paint the log: which offsets of this broker's log (as it is before the step) are still there after it.
    Survivors {
        /// The broker whose log is painted.
        broker: String,
    },
    /// Drag the HW marker: this broker's HW after the step.
    Hw {
        /// The broker.
        broker: String,
    },
    /// Which broker leads after the step (or none).
    Leader,
    /// Which record sits at this offset on this broker after the step (or nothing).
    RecordAt {
        /// The broker.
        broker: String,
        /// The offset.
        offset: u32,
    },
    /// Does any invariant fail (as a bug, not an allowed loss) after the step?
    AnyBug,
    /// Do the live brokers' logs agree (the same record at every offset both hold) after the step?
    LogsAgree,
    /// What does a consumer that read past a truncation meet on its next poll, by the state after the step
    /// (`validated`, `out-of-range`, `unnoticed`, or `nothing` when no read has been truncated)?
    ConsumerSees,
}

/// A task on the live timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// What to do, in words.
    pub goal: String,
    /// How the result is graded.
    pub check: Check,
    /// A scripted solution: the events "Show me" puts on the timeline.
    pub solution: Vec<Event>,
    /// A near miss that must fail the check (the lesson's own regression test).
    pub wrong: Vec<Event>,
}

impl Lesson {
    /// The lesson's scenario with other events (a task's solution or the learner's timeline).
    pub fn with_events(&self, events: &[Event]) -> Scenario {
        Scenario { events: events.to_vec(), ..self.scenario.clone() }
    }

    /// The scenario a question is about: its own, else the lesson's.
    pub fn scenario_of<'a>(&'a self, p: &'a Prediction) -> &'a Scenario {
        p.scenario.as_deref().unwrap_or(&self.scenario)
    }

    /// The scenario step `step` shows (the lesson's past the last step).
    pub fn step_scenario(&self, step: usize) -> &Scenario {
        match self.steps.get(step) {
            Some(LessonStep::Predict(p)) => self.scenario_of(p),
            _ => &self.scenario,
        }
    }

    /// While step `step` (an explanation or a comparison) shows the lesson's story, the step the next question
    /// about what it shows asks of: the page shows nothing from it on, so that no verdict, description or mark
    /// answers the question before it is asked. A task ends the look ahead (the learner edits the timeline
    /// then); a question with a story of its own, or under a variant the step does not show, is about
    /// something else.
    pub fn next_question_about_its_story(&self, step: usize) -> Option<u32> {
        let shown = match self.steps.get(step) {
            Some(LessonStep::Compare { variants, .. }) => variants,
            Some(LessonStep::Explain { .. }) => &self.variants,
            _ => return None,
        };
        for later in &self.steps[step + 1..] {
            match later {
                LessonStep::Task(_) => return None,
                LessonStep::Predict(p) if p.scenario.is_none() && shown.contains(&p.variant) => return Some(p.before),
                _ => {}
            }
        }
        None
    }
}
