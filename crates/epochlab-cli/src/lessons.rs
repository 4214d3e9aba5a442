//! `epochlab lessons answers|facts [DIR]`: what the simulator and the facts reader make of the lessons, for
//! authors checking their prose. The lessons are read as the app reads them: `index.json` lists the files.

use std::path::Path;

use epochlab_core::lesson::{answer, parse_index, parse_lesson, passages, Lesson, LessonStep};

/// The lessons of the source tree this binary was built from.
pub(crate) const DEFAULT_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../epochlab-core/lessons");

/// Every lesson the index in `dir` lists, in its order. Errors name the file.
fn load_all(dir: &str) -> Result<Vec<Lesson>, String> {
    let dir = Path::new(dir);
    let read = |path: &Path| std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()));
    let index_path = dir.join("index.json");
    let index = parse_index(&read(&index_path)?).map_err(|e| format!("{}: {e}", index_path.display()))?;
    index
        .lessons
        .iter()
        .map(|entry| {
            let path = dir.join(&entry.file);
            let lesson = parse_lesson(&read(&path)?).map_err(|e| format!("{}: {e}", path.display()))?;
            if lesson.id != entry.id {
                return Err(format!("{}: id \"{}\", but index.json lists \"{}\"", path.display(), lesson.id, entry.id));
            }
            Ok(lesson)
        })
        .collect()
}

/// `epochlab lessons answers`: one line per question, with the answer the simulator computes (as the lesson
/// file's `wrong` and `choices` name answers).
pub(crate) fn answers(dir: &str) -> Result<String, String> {
    let mut out = String::new();
    for lesson in load_all(dir)? {
        for (i, step) in lesson.steps.iter().enumerate() {
            let LessonStep::Predict(p) = step else { continue };
            let key =
                answer(&lesson, p).map_or("(no answer: past the last step or an unknown broker)".into(), |a| a.key());
            let own = if p.scenario.is_some() { ", its own scenario" } else { "" };
            out.push_str(&format!(
                "{} steps[{i}] before step {} ({}{own}): {} -> {key}\n",
                lesson.id,
                p.before,
                p.variant.id(),
                p.words()
            ));
        }
    }
    Ok(out)
}

/// `epochlab lessons facts`: one line per step (and the takeaway) with the facts read from its words, each
/// marked when the runs the step shows contradict it (`tests/lesson_facts.rs` fails on those).
pub(crate) fn facts(dir: &str) -> Result<String, String> {
    let mut out = String::new();
    for lesson in load_all(dir)? {
        for passage in passages(&lesson) {
            let words: Vec<String> = passage
                .checked()
                .iter()
                .map(|(fact, held)| {
                    let words = fact.words(passage.brokers());
                    if *held {
                        words
                    } else {
                        format!("{words} (NOT in the trace)")
                    }
                })
                .collect();
            let listed = if words.is_empty() { "(none)".to_string() } else { words.join(", ") };
            out.push_str(&format!("{} {}: {listed}\n", lesson.id, passage.at));
        }
    }
    Ok(out)
}
