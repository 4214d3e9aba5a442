use super::*;
use crate::lesson::parse_lesson;

fn shipped() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/lessons");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("index.json"));
    files.sort();
    files.into_iter().map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap())).collect()
}

const EXAMPLE: &str = include_str!("../../../../../docs/lessons/acks-one-lost-on-failover.json");

#[test]
fn every_shipped_lesson_reads_back_from_its_text() {
    let mut files = shipped();
    files.push(("the author's example".into(), EXAMPLE.into()));
    assert!(files.len() >= 15);
    for (name, json) in files {
        let lesson = parse_lesson(&json).unwrap();
        let text = to_text(&lesson);
        let (back, lines) = parse_lesson_text(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(back, lesson, "{name}:\n{text}");
        assert_eq!(lines.steps.len(), lesson.steps.len());
        assert_eq!(check_any(&text).map(|l| l.id), Ok(lesson.id.clone()), "{name}");
    }
}

fn error(text: &str) -> String {
    check_any(text).unwrap_err()
}

const HEAD: &str = "lesson: mine\ntitle: Mine\nvariants: kip-279\ntakeaway: T.\npreset: kip101-scenario-1\n";

#[test]
fn errors_name_their_line_and_column() {
    assert_eq!(error(&format!("{HEAD}titel: x\n")), "line 6, column 1: unknown header \"titel:\" (one of lesson, title, minutes, variants, takeaway, source, preset, or scenario:)");
    assert_eq!(error(&format!("{HEAD}explain at=x: Hi.\n")), "line 6, column 9: at= expects a whole number, not \"x\"");
    assert_eq!(
        error(&format!("{HEAD}explain brokr=A: Hi.\n")),
        "line 6, column 9: \"brokr=A\": explain takes at=, highlight="
    );
    assert_eq!(
        error(&format!("{HEAD}explain at=2 Hi.\n")),
        "line 6, column 17: expected \":\" and the step's words after its settings"
    );
    let past = format!("{HEAD}explain: Hi.\npredict hw broker=A before=40 variant=kip-279: HW?\n");
    assert_eq!(error(&past), "line 7, column 1: steps[1]: the simulator cannot answer this question");
    let task = format!(
        "{HEAD}task: Do.\n  check: {{\"holds\": \"kip-279\"}}\n  solution:\n    elect B\n    fetc A\n  wrong:\n"
    );
    assert!(error(&task).starts_with("line 10, column 5: unknown event kind 'fetc'"), "{}", error(&task));
    let scenario = "lesson: x\ntitle: X\nvariants: kip-279\ntakeaway: T.\n\nscenario:\n  name: s\n  brokers: A B\n\n  elect A\n  crsh A\n";
    assert!(error(scenario).starts_with("line 11, column 3: unknown event kind 'crsh'"), "{}", error(scenario));
    assert_eq!(
        error("  explain: Hi.\n"),
        "line 1, column 1: an indented line must belong to the step or the scenario above it"
    );
    assert_eq!(
        error(&format!("{HEAD}title: Again\n")),
        "line 6, column 1: \"title:\" is given twice (only source: may repeat)"
    );
}

#[test]
fn prose_with_colons_and_quotes_reads_as_written() {
    let text = format!(
        "{HEAD}explain at=3 highlight=A@1,#5,B: Step 3: A's \"HW\" # is not a comment.\nexplain: \"  spaced  \"\n"
    );
    let lesson = check_any(&text).unwrap();
    let crate::lesson::LessonStep::Explain { text, at, highlight } = &lesson.steps[0] else { panic!() };
    assert_eq!((text.as_str(), *at, highlight.len()), ("Step 3: A's \"HW\" # is not a comment.", Some(3), 3));
    let crate::lesson::LessonStep::Explain { text, .. } = &lesson.steps[1] else { panic!() };
    assert_eq!(text, "  spaced  ");
}
