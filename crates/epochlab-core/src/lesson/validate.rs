//! A lesson checked against the simulator, as Learn Git Branching tests every level's solution: every
//! question has an answer the simulator computes, no answer the lesson calls wrong is right, every wrong
//! choice of a choose question names its misconception, and every task's solution passes its check while
//! its near miss fails it.

use super::{answer, choices, Answer, Lesson, LessonError, LessonStep, Prediction, Question, Task};

/// Check a lesson; the first problem is the error.
pub fn validate(lesson: &Lesson) -> Result<(), LessonError> {
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
            }
            LessonStep::Predict(p) => validate_prediction(lesson, p, &at)?,
            LessonStep::Task(t) => validate_task(lesson, t, &at)?,
            LessonStep::Compare { .. } => {}
        }
    }
    Ok(())
}

fn problem(at: &str, message: impl Into<String>) -> Result<(), LessonError> {
    Err(LessonError { at: at.to_string(), message: message.into() })
}

fn validate_prediction(lesson: &Lesson, p: &Prediction, at: &str) -> Result<(), LessonError> {
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
        if let Some(missing) = offered.iter().find(|c| **c != right.key() && !p.wrong.contains_key(*c)) {
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
