//! Which lessons a learner has done or started, kept in localStorage and exported or imported as a small
//! JSON file: `{"version": 1, "lessons": {"<id>": {"step": 3, "done": false}}}`.

use std::collections::BTreeMap;

use serde_json::Value;

/// One lesson's progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LessonProgress {
    /// The step last shown (0-based).
    pub step: u32,
    /// Reached the end at least once.
    pub done: bool,
}

/// Every lesson's progress, by lesson id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub lessons: BTreeMap<String, LessonProgress>,
}

/// At most this many lessons (a file with more is not ours).
const MAX_LESSONS: usize = 200;
/// At most this long an id.
const MAX_ID: usize = 100;

impl Progress {
    /// The progress file's text.
    pub fn to_json(&self) -> String {
        // Written by hand: serde's map serializer would cost the page's download more than these lines.
        let quote = |id: &str| serde_json::to_string(id).unwrap_or_default();
        let lessons: Vec<String> = self
            .lessons
            .iter()
            .map(|(id, p)| format!("{}:{{\"step\":{},\"done\":{}}}", quote(id), p.step, p.done))
            .collect();
        format!("{{\"version\":1,\"lessons\":{{{}}}}}", lessons.join(","))
    }

    /// Read a progress file; the error says what is wrong with it.
    pub fn from_json(text: &str) -> Result<Progress, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        if value.get("version").and_then(Value::as_u64) != Some(1) {
            return Err("not an Epochlab progress file (version 1)".into());
        }
        let Some(Value::Object(items)) = value.get("lessons") else { return Err("no \"lessons\" object".into()) };
        if items.len() > MAX_LESSONS {
            return Err(format!("more than {MAX_LESSONS} lessons"));
        }
        let mut lessons = BTreeMap::new();
        for (id, item) in items {
            let step = item.get("step").and_then(Value::as_u64).filter(|s| *s <= u64::from(u16::MAX));
            let done = item.get("done").and_then(Value::as_bool);
            match (step, done) {
                (Some(step), Some(done)) if id.len() <= MAX_ID => {
                    lessons.insert(id.clone(), LessonProgress { step: step as u32, done });
                }
                _ => {
                    return Err(format!(
                        "the lesson \"{}\" has no step and done",
                        id.chars().take(40).collect::<String>()
                    ))
                }
            }
        }
        Ok(Progress { lessons })
    }

    /// The progress after showing `step` of lesson `id` (`end`: its last step was passed).
    pub fn at(&self, id: &str, step: usize, end: bool) -> Progress {
        let mut next = self.clone();
        let entry = next.lessons.entry(id.to_string()).or_default();
        entry.step = step as u32;
        entry.done |= end;
        next
    }

    /// How many lessons are done.
    pub fn done(&self) -> usize {
        self.lessons.values().filter(|p| p.done).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_round_trips_through_its_file() {
        let p = Progress::default().at("a", 3, false).at("b", 9, true).at("b", 2, false);
        assert_eq!(p.lessons["b"], LessonProgress { step: 2, done: true }, "once done, done");
        assert_eq!(Progress::from_json(&p.to_json()), Ok(p.clone()));
        assert_eq!(p.done(), 1);
    }

    #[test]
    fn a_corrupt_file_is_an_error_saying_why() {
        for bad in ["", "{", "[]", r#"{"version": 2, "lessons": {}}"#, r#"{"version": 1}"#] {
            assert!(Progress::from_json(bad).is_err(), "{bad}");
        }
        let why = Progress::from_json(r#"{"version": 1, "lessons": {"x": {"step": "3"}}}"#).unwrap_err();
        assert!(why.contains("\"x\""), "{why}");
    }
}
