//! A lesson's steps on the live playground: what each step shows (scenario, variants, cursor), a
//! question's answer judged by the core, a task graded by its check, and what the view highlights.

use std::rc::Rc;

use epochlab_core::lesson::{
    answer, answer_from_trace, choices, choices_from_trace, Answer, Highlight, Lesson, LessonStep, Prediction, Question,
};
use epochlab_core::scenario::Scenario;
use epochlab_core::trace::Trace;
use epochlab_core::Variant;

use super::LessonsModel;
use super::{CounterScenario, LessonRun, Outcome};

/// The same scenario, whichever variant it is configured under.
pub(super) fn same_story(a: &Scenario, b: &Scenario) -> bool {
    let mut a = a.clone();
    a.config.variant = b.config.variant;
    a == *b
}

/// The variants a step shows: a comparison's own, else the lesson's (with a question's variant first).
fn variants_for(lesson: &Lesson, step: Option<&LessonStep>) -> Vec<Variant> {
    match step {
        Some(LessonStep::Compare { variants, .. }) => variants.clone(),
        Some(LessonStep::Predict(p)) if !lesson.variants.contains(&p.variant) => {
            std::iter::once(p.variant).chain(lesson.variants.iter().copied()).collect()
        }
        _ => lesson.variants.clone(),
    }
}

impl LessonsModel {
    /// Show step `step` of the lesson (the end past the last one) and record it in the progress. Only the
    /// learner's own Next past the last step marks the lesson done (`lesson_go`), never a link's step number.
    pub(super) fn enter_step(&mut self, step: usize) {
        // What the last step said (a solution shown, a wrong answer) does not follow the learner on.
        self.notice = None;
        let Some(run) = self.learn_mut().run.as_mut() else { return };
        let (lesson, origin) = (run.lesson.clone(), run.origin.clone());
        let step = step.min(lesson.steps.len());
        *run = LessonRun::at(lesson.clone(), origin, step);
        let key = run.progress_key();
        self.selected = None;
        let current = lesson.steps.get(step);
        if !matches!(current, Some(LessonStep::Task(_))) {
            self.show_lesson_scenario(lesson.step_scenario(step), variants_for(&lesson, current));
        }
        match current {
            None => self.shown.cursor = self.shown.last_step(),
            Some(LessonStep::Explain { at: Some(at), .. }) => {
                self.shown.cursor = Some(*at as usize).filter(|_| self.shown.last_step().is_some())
            }
            Some(LessonStep::Predict(p)) => self.ask(&lesson, p),
            _ => {}
        }
        self.record_progress(key.as_deref(), step, false);
        self.grade_task();
    }

    /// Keep `step` as where lesson `id` was left, and mark it done when `finished`.
    pub(super) fn record_progress(&mut self, key: Option<&str>, step: usize, finished: bool) {
        // A draft previewed keeps none.
        let Some(key) = key else { return };
        let progress = Rc::new(self.learn.progress.at(key, step, finished));
        self.learn_mut().progress = progress;
    }

    /// The step's scenario (the lesson's, or a quiz question's own) under `variants`, unless it is shown already.
    fn show_lesson_scenario(&mut self, scenario: &Scenario, variants: Vec<Variant>) {
        if same_story(&self.shown.scenario, scenario) && self.shown.variants == variants {
            return;
        }
        self.shown.scenario = Rc::new(scenario.clone());
        self.show_variants(variants);
    }

    /// Stop before the step asked about, with the painted log as it is before it and the choices offered
    /// (worked out here, once, so that no render runs the scenario).
    fn ask(&mut self, lesson: &Lesson, p: &Prediction) {
        self.shown.cursor = (p.before as usize).checked_sub(1);
        let before = self.state_before(p).map(|(log, _)| log.len()).unwrap_or(0);
        let scenario = lesson.scenario_of(p);
        let offered = match self.held_trace(scenario, p.variant) {
            Some(trace) => choices_from_trace(trace, scenario, p),
            None => choices(lesson, p),
        };
        self.with_run(|r| {
            r.painted = vec![true; before];
            r.choices = Rc::new(offered);
        });
    }

    /// The run of `scenario` under `variant` when the model holds it: the timeline shows that story, configured
    /// under any variant (a run under `variant` does not read the configured one).
    pub(super) fn held_trace(&self, scenario: &Scenario, variant: Variant) -> Option<&Trace> {
        if !same_story(&self.shown.scenario, scenario) {
            return None;
        }
        self.shown.traces.iter().find(|t| t.variant == variant)
    }

    /// The simulator's answer to `p`: from the run the model holds when it is the question's story, else
    /// from a run of its own.
    fn right_answer(&self, lesson: &Lesson, p: &Prediction) -> Option<Answer> {
        let scenario = lesson.scenario_of(p);
        match self.held_trace(scenario, p.variant) {
            Some(trace) => answer_from_trace(trace, scenario, p),
            None => answer(lesson, p),
        }
    }

    /// The asked broker's record labels and HW before the question's step, under the question's variant.
    fn state_before(&self, p: &Prediction) -> Option<(Vec<String>, u32)> {
        let broker = match &p.question {
            Question::Survivors { broker } | Question::Hw { broker } | Question::RecordAt { broker, .. } => broker,
            _ => return None,
        };
        let trace = self.shown.traces.iter().find(|t| t.variant == p.variant)?;
        let b = self.shown.scenario.broker_index(broker)?;
        let replica = trace.state_at((p.before as usize).checked_sub(1)).replicas.get(b)?;
        Some((replica.log.iter().map(|e| trace.label(e.id).to_string()).collect(), replica.hw))
    }

    /// The records of the log a question asks to paint, in offset order.
    pub fn painted_log(&self) -> Vec<String> {
        match self.learn.run.as_ref().and_then(LessonRun::current) {
            Some(LessonStep::Predict(p)) => self.state_before(p).map(|(log, _)| log).unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// Judge an answer with the core, then play the step.
    pub(super) fn answer(&mut self, chosen: Answer) {
        let Some(run) = self.learn.run.as_ref() else { return };
        let Some(LessonStep::Predict(p)) = run.current().cloned() else { return };
        if run.outcome.is_some() {
            return;
        }
        let Some(right) = self.right_answer(&run.lesson, &p) else {
            return self.error("this question has no answer here");
        };
        // The lesson file names its wrong answers by key.
        let misconception = if chosen == right { None } else { p.wrong.get(&chosen.key()).copied() };
        let counter = misconception.map(CounterScenario::of);
        self.with_run(|r| r.outcome = Some(Outcome { chosen, right, misconception, counter }));
        self.shown.cursor = Some(p.before as usize).filter(|s| *s < self.shown.scenario.events.len());
    }

    pub(super) fn paint(&mut self, offset: usize) {
        self.with_run(|r| {
            if r.outcome.is_none() {
                if let Some(kept) = r.painted.get_mut(offset) {
                    *kept = !*kept;
                }
            }
        });
    }

    /// "Show me": the task's scripted solution on the timeline (an edit, so Undo takes it back).
    pub(super) fn show_me(&mut self) {
        let Some(run) = self.learn.run.as_ref() else { return };
        let Some(LessonStep::Task(t)) = run.current() else { return };
        self.shown.scenario = Rc::new(run.lesson.with_events(&t.solution));
        self.show_variants(self.shown.variants.clone());
        self.shown.cursor = self.shown.last_step();
        self.with_run(|r| r.aside = false);
        self.inform_undoable("The lesson's solution is on the timeline; Undo takes it back.");
    }

    /// Grade the current task on the timeline as it is now (the core's check).
    pub(in crate::model) fn grade_task(&mut self) {
        let Some(run) = self.learn.run.as_ref() else { return };
        let passed = match run.current() {
            Some(LessonStep::Task(t)) => t.check.passes(&self.shown.scenario),
            _ => false,
        };
        self.with_run(|r| r.passed = passed);
    }

    /// What the view highlights for the step shown: an explanation's marks, or the broker a question is about.
    pub fn lesson_highlights(&self) -> Vec<Highlight> {
        let Some(run) = self.learn.run.as_ref().filter(|r| !r.aside) else { return Vec::new() };
        match run.current() {
            Some(LessonStep::Explain { highlight, .. }) => highlight.clone(),
            Some(LessonStep::Predict(p)) => match &p.question {
                Question::Survivors { broker } | Question::Hw { broker } => {
                    vec![Highlight { broker: Some(broker.clone()), ..Highlight::default() }]
                }
                Question::RecordAt { broker, offset } => {
                    vec![Highlight { broker: Some(broker.clone()), offset: Some(*offset), step: None }]
                }
                _ => vec![Highlight { step: Some(p.before), ..Highlight::default() }],
            },
            _ => Vec::new(),
        }
    }
}
