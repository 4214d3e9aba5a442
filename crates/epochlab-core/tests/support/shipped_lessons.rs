//! The lessons the app ships (`lessons/`, every file but the index), read for the tests that check them.

use std::fs;
use std::path::Path;

use epochlab_core::lesson::{parse_lesson, Lesson};

/// Each shipped lesson with its file name, in file order.
pub fn shipped_lessons() -> Vec<(String, Lesson)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let mut files: Vec<_> = fs::read_dir(dir)
        .expect("lessons/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|n| n != "index.json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = fs::read_to_string(&f).expect("readable");
            let name = f.file_name().unwrap_or_default().to_string_lossy().to_string();
            let lesson = parse_lesson(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, lesson)
        })
        .collect()
}
