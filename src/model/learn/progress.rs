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

/// A progress file as read: what it holds, and how many of its entries could not be read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadProgress {
    pub progress: Progress,
    pub skipped: usize,
}

impl ReadProgress {
    /// What the learner is told about the entries left out, if any.
    pub fn skipped_note(&self) -> Option<String> {
        let n = self.skipped;
        let was = if n == 1 { "was" } else { "were" };
        (n > 0).then(|| format!("{n} of its lessons could not be read and {was} left out, the rest is kept"))
    }
}

/// One lesson's entry, if it has a step and done (and a reasonable id).
fn entry(id: &str, item: &Value) -> Option<LessonProgress> {
    let step = item.get("step").and_then(Value::as_u64).filter(|s| *s <= u64::from(u16::MAX))?;
    let done = item.get("done").and_then(Value::as_bool)?;
    (id.len() <= MAX_ID).then_some(LessonProgress { step: step as u32, done })
}

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

    /// Read a progress file; the error says what is wrong with it. An entry that cannot be read is left
    /// out and counted (one bad lesson must not cost the learner every other lesson's progress).
    pub fn from_json(text: &str) -> Result<ReadProgress, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        if value.get("version").and_then(Value::as_u64) != Some(1) {
            return Err("not an Epochlab progress file (version 1)".into());
        }
        let Some(Value::Object(items)) = value.get("lessons") else { return Err("no \"lessons\" object".into()) };
        if items.len() > MAX_LESSONS {
            return Err(format!("more than {MAX_LESSONS} lessons"));
        }
        let mut read = ReadProgress::default();
        for (id, item) in items {
            match entry(id, item) {
                Some(p) => drop(read.progress.lessons.insert(id.clone(), p)),
                None => read.skipped += 1,
            }
        }
        Ok(read)
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
        assert_eq!(Progress::from_json(&p.to_json()), Ok(ReadProgress { progress: p.clone(), skipped: 0 }));
        assert_eq!(p.done(), 1);
    }

    #[test]
    fn a_corrupt_file_is_an_error_saying_why() {
        for bad in ["", "{", "[]", r#"{"version": 2, "lessons": {}}"#, r#"{"version": 1}"#] {
            assert!(Progress::from_json(bad).is_err(), "{bad}");
        }
        let read =
            Progress::from_json(r#"{"version": 1, "lessons": {"x": {"step": "3"}, "y": {"step": 2, "done": true}}}"#);
        let read = read.expect("one bad entry leaves the file readable");
        assert_eq!((read.progress.done(), read.skipped), (1, 1), "y kept, x left out");
        assert!(read.skipped_note().is_some_and(|n| n.starts_with("1 of its lessons")));
    }
}
