//! `epochlab lesson check|link`: an author's lesson checked against the simulator, and the address that opens
//! it. The shipped lessons pass the same check; the e2e tests' lesson links are this command's output.

use std::path::Path;
use std::process::{Command, Output};

use epochlab_core::lesson::{link, parse_lesson};

fn epochlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_epochlab")).args(args).output().expect("the binary runs")
}

fn repo(path: &str) -> String {
    format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))
}

/// A lesson file written for one test (tests run in parallel).
fn lesson_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("epochlab-lesson-{}-{name}.json", std::process::id()));
    std::fs::write(&path, text).expect("write lesson");
    path.to_string_lossy().into_owned()
}

/// The first problem, on one line of stderr, with status 2.
fn refused(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    err
}

const EXAMPLE: &str = "docs/lessons/acks-one-lost-on-failover.json";

#[test]
fn every_shipped_lesson_and_the_authors_example_pass_lesson_check() {
    let dir = repo("crates/epochlab-core/lessons");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("index.json"));
    files.push(Path::new(&repo(EXAMPLE)).to_path_buf());
    assert!(files.len() >= 15, "{files:?}");
    for file in files {
        let out = epochlab(&["lesson", "check", file.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}: {}", file.display(), String::from_utf8_lossy(&out.stderr));
        assert!(text.lines().next().unwrap().contains(": ok: "), "{text}");
    }
    let out = epochlab(&["lesson", "check", &repo(EXAMPLE)]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("4 steps: 3 explanations, 1 question, 0 tasks, 0 comparisons"), "{text}");
    assert!(text.contains("steps[2] before step 8 (kip-279): which of A's offsets survive -> keep cut"), "{text}");
}

#[test]
fn lesson_check_names_the_step_of_each_problem() {
    let example = std::fs::read_to_string(repo(EXAMPLE)).unwrap();
    let past_the_end = example.replace("\"before\": 8", "\"before\": 40");
    let err = refused(&epochlab(&["lesson", "check", &lesson_file("past", &past_the_end)]));
    assert!(err.contains("steps[2]: the simulator cannot answer this question"), "{err}");
    let outside = example.replacen("\"offset\": 1", "\"offset\": 7", 1);
    let err = refused(&epochlab(&["lesson", "check", &lesson_file("outside", &outside)]));
    assert!(err.contains("steps[0]: highlights offset 7 of A, which its log never reaches"), "{err}");
    // Committed data lost under KIP-279 by a scripted solution that loses only an acks=1 write.
    let task = r#"{"task": "Lose a committed record.", "check": {"fails": "I1", "variant": "kip-279"}, "solution": [{"kind": "elect", "broker": "A"}, {"kind": "produce", "record": "m1", "acks": 1}, {"kind": "crash", "broker": "A"}, {"kind": "produce", "record": "m2"}], "wrong": []}"#;
    let never = example.replacen("\"steps\": [", &format!("\"steps\": [{task},"), 1);
    let err = refused(&epochlab(&["lesson", "check", &lesson_file("never", &never)]));
    assert!(err.contains("steps[0]: the scripted solution does not pass the task's check"), "{err}");
    let err = refused(&epochlab(&["lesson", "check", &lesson_file("json", "{\"id\": \"x\",\n\"title\": }")]));
    assert!(err.contains("not JSON") && err.contains("line 2"), "{err}");
}

#[test]
fn a_lesson_in_the_text_format_checks_links_and_converts_like_its_json() {
    let out = epochlab(&["lesson", "fmt", &repo(EXAMPLE)]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.starts_with("lesson: acks-one-lost-on-failover\ntitle: An acks=1 write lost on failover\n"), "{text}");
    let file = lesson_file("text", &text);
    let checked = epochlab(&["lesson", "check", &file]);
    assert!(String::from_utf8_lossy(&checked.stdout)
        .contains("steps[2] before step 8 (kip-279): which of A's offsets survive -> keep cut"));
    // The two links hold the same lesson (the text's JSON spells out the scenario's defaults).
    let opened = |out: Output| {
        let printed = String::from_utf8(out.stdout).unwrap();
        let reference = printed.trim().strip_prefix("#lesson=").unwrap().split('&').next().unwrap().to_string();
        let json = link::decode(link::inline_payload(&reference).unwrap()).unwrap();
        parse_lesson(&json).unwrap()
    };
    let (from_text, from_json) =
        (opened(epochlab(&["lesson", "link", &file])), opened(epochlab(&["lesson", "link", &repo(EXAMPLE)])));
    assert!(from_text == from_json, "the same lesson in both links");
    let back = epochlab(&["lesson", "fmt", &file, "--to", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&back.stdout).unwrap();
    assert_eq!(json["steps"][2]["predict"], "survivors");
    let broken = text.replace("predict survivors broker=A before=8", "predict survivors broker=A before=80");
    let err = refused(&epochlab(&["lesson", "check", &lesson_file("text-broken", &broken)]));
    let line = broken.lines().position(|l| l.starts_with("predict")).unwrap() + 1;
    assert!(
        err.contains(&format!("line {line}, column 1: steps[2]: the simulator cannot answer this question")),
        "{err}"
    );
}

#[test]
fn lesson_link_prints_the_address_the_e2e_tests_open() {
    for (file, fixture) in [
        (EXAMPLE, "e2e/fixtures/acks-one-lost-on-failover.link"),
        ("e2e/fixtures/hostile-lesson.json", "e2e/fixtures/hostile-lesson.link"),
    ] {
        let out = epochlab(&["lesson", "link", &repo(file)]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let expected = std::fs::read_to_string(repo(fixture)).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            expected,
            "regenerate {fixture} with `epochlab lesson link {file}`"
        );
        assert!(expected.starts_with("#lesson=~1") && expected.ends_with("&step=1\n"), "{expected}");
    }
    let out = epochlab(&[
        "lesson",
        "link",
        &repo(EXAMPLE),
        "--base",
        "https://x.example/epochlab/#old",
        "--step",
        "5",
        "--embed",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("https://x.example/epochlab/#lesson=~1") && text.ends_with("&step=5&embed=lesson\n"),
        "{text}"
    );
    let err = refused(&epochlab(&["lesson", "link", &repo(EXAMPLE), "--step", "6"]));
    assert!(err.contains("--step 6: the lesson has steps 1 to 4 (and 5, its end)"), "{err}");
}
