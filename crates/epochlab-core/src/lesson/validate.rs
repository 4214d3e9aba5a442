//! A lesson checked against the simulator, as Learn Git Branching tests every level's solution: every
//! question has an answer the simulator computes, no answer the lesson calls wrong is right, every wrong
//! choice of a choose question names its misconception, and every task's solution passes its check while
//! its near miss fails it.

use super::{answer, choices, Answer, Highlight, Lesson, LessonError, LessonStep, Prediction, Question, Task};

/// Check a lesson, an author's or a shipped one; the first problem is the error.
pub fn validate(lesson: &Lesson) -> Result<(), LessonError> {
    check(lesson, Rules::Author)
}

/// Check a shipped lesson: [`validate`]'s rules, and every wrong choice of a choose question names the
/// misconception it reveals (an author's lesson may leave a wrong choice unexplained).
pub fn validate_shipped(lesson: &Lesson) -> Result<(), LessonError> {
    check(lesson, Rules::Shipped)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    Author,
    Shipped,
}

fn check(lesson: &Lesson, rules: Rules) -> Result<(), LessonError> {
    // Run only if an explanation highlights a cell, and then once.
    let reach_once = std::cell::OnceCell::new();
    let reach = || reach_once.get_or_init(|| log_reach(lesson)).as_slice();
    let steps = lesson.scenario.events.len() as u32;
    for (i, step) in lesson.steps.iter().enumerate() {
        let at = format!("steps[{i}]");
        match step {
            LessonStep::Explain { at: cursor, highlight, .. } => {
                let in_range =
                    cursor.is_none_or(|c| c < steps) && highlight.iter().all(|h| h.step.is_none_or(|s| s < steps));
                let brokers = highlight
                    .iter()
                    .filter_map(|h| h.broker.as_deref())
                    .all(|b| lesson.scenario.broker_index(b).is_some());
                if !in_range || !brokers {
                    return problem(&at, "points at a step or broker the scenario does not have");
                }
                if let Some(h) = highlight.iter().find(|h| !offset_ever_held(lesson, reach(), h)) {
                    let (broker, offset) = (h.broker.as_deref().unwrap_or("?"), h.offset.unwrap_or(0));
                    return problem(
                        &at,
                        format!("highlights offset {offset} of {broker}, which its log never reaches"),
                    );
                }
            }
            LessonStep::Predict(p) => validate_prediction(lesson, p, &at, rules)?,
            LessonStep::Task(t) => validate_task(lesson, t, &at)?,
            LessonStep::Compare { .. } => {}
        }
    }
    Ok(())
}

/// A highlighted cell is one the broker's log holds at some step under some variant the lesson shows (a
/// highlight without an offset, a row or a chip, always is). `reach` is [`log_reach`]'s.
fn offset_ever_held(lesson: &Lesson, reach: &[u32], h: &Highlight) -> bool {
    let (Some(broker), Some(offset)) = (h.broker.as_deref(), h.offset) else { return true };
    lesson.scenario.broker_index(broker).is_some_and(|b| reach.get(b).is_some_and(|leo| *leo > offset))
}

/// Each broker's longest log at any step under any variant the lesson shows: the lesson's runs, once.
fn log_reach(lesson: &Lesson) -> Vec<u32> {
    let mut reach = vec![0; lesson.scenario.brokers.len()];
    for v in &lesson.variants {
        for step in &crate::run_variant(&lesson.scenario, *v).steps {
            for (leo, r) in reach.iter_mut().zip(&step.state.replicas) {
                *leo = (*leo).max(r.leo());
            }
        }
    }
    reach
}

fn problem(at: &str, message: impl Into<String>) -> Result<(), LessonError> {
    Err(LessonError { at: at.to_string(), message: message.into() })
}

fn validate_prediction(lesson: &Lesson, p: &Prediction, at: &str, rules: Rules) -> Result<(), LessonError> {
    let Some(right) = answer(lesson, p) else { return problem(at, "the simulator cannot answer this question") };
    if p.wrong.contains_key(&right.key()) {
        return problem(at, format!("\"{}\" is listed as wrong, but it is the right answer", right.key()));
    }
    let chosen = !matches!(p.question, Question::Survivors { .. } | Question::Hw { .. });
    if chosen {
        let offered: Vec<String> = choices(lesson, p).iter().map(Answer::key).collect();
        if p.offered.as_ref().is_some_and(|keys| keys.len() != offered.len()) || !offered.contains(&right.key()) {
            return problem(
                at,
                format!("the choices must be possible answers and include the right one, \"{}\"", right.key()),
            );
        }
        let unexplained = offered.iter().find(|c| **c != right.key() && !p.wrong.contains_key(*c));
        if let Some(missing) = unexplained.filter(|_| rules == Rules::Shipped) {
            return problem(at, format!("the wrong choice \"{missing}\" names no misconception"));
        }
        if let Some(stray) = p.wrong.keys().find(|k| !offered.contains(k)) {
            return problem(at, format!("\"{stray}\" is not one of the choices"));
        }
    }
    Ok(())
}

fn validate_task(lesson: &Lesson, t: &Task, at: &str) -> Result<(), LessonError> {
    if !t.check.passes(&lesson.with_events(&t.solution)) {
        return problem(at, "the scripted solution does not pass the task's check");
    }
    if t.check.passes(&lesson.with_events(&t.wrong)) {
        return problem(at, "the near miss passes the check too, so the check grades nothing");
    }
    if t.check.passes(&lesson.scenario) {
        return problem(at, "the lesson's own scenario already passes the check, so the task is done on arrival");
    }
    Ok(())
}
