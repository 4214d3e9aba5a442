//! The `epochlab` binary end to end: output contract, text grid, and bad input (status 2, one line on stderr).

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn epochlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_epochlab")).args(args).output().expect("the binary runs")
}

fn epochlab_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_epochlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    child.wait_with_output().expect("wait")
}

fn preset_file(id: &str) -> std::path::PathBuf {
    let out = epochlab(&["presets", id]);
    assert!(out.status.success());
    // Tests run in parallel: every call gets its own file.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("epochlab-cli-test-{}-{n}-{id}.json", std::process::id()));
    std::fs::write(&path, &out.stdout).expect("write preset");
    path
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn assert_bad_input(out: &Output, needle: &str) {
    assert_eq!(out.status.code(), Some(2), "status for {needle}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "one line on stderr: {err}");
    assert!(err.contains(needle), "stderr {err:?} should contain {needle:?}");
    assert!(!err.contains("panicked"));
}

#[test]
fn run_json_follows_the_contract() {
    let file = preset_file("kip101-scenario-1");
    let out = epochlab(&["run", file.to_str().unwrap(), "--variant", "hw-truncation", "--json"]);
    assert!(out.status.success());
    let runs: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let run = &runs[0];
    assert_eq!(run["scenario"], "KIP-101 scenario 1: a committed record lost");
    assert_eq!(run["variant"], "hw-truncation");
    assert_eq!(run["flags"], serde_json::json!([]));
    assert_eq!(run["steps"][0]["index"], 0);
    assert_eq!(run["steps"][0]["kind"], "elect");
    assert_eq!(run["steps"][0]["outcome"], "applied");
    assert!(run["steps"][0]["detail"].as_str().unwrap().contains("elects B leader of epoch 0"));
    let fin = &run["final"];
    assert_eq!(fin["controller"], serde_json::json!({"leader": "A", "leader_epoch": 1, "isr": ["A"]}));
    let a = &fin["brokers"]["A"];
    assert_eq!(a["up"], true);
    assert_eq!(a["role"], "leader");
    assert_eq!(a["log"], serde_json::json!([{"record": "m1", "epoch": 0}]));
    assert_eq!((a["leo"].as_u64(), a["hw"].as_u64()), (Some(1), Some(1)));
    assert_eq!(fin["brokers"]["B"]["role"], "down");
    let i1 = run["violations"].as_array().unwrap().iter().find(|v| v["invariant"] == "I1").expect("I1");
    assert_eq!(i1["step"], 9);
    assert_eq!(i1["by_design"], false);
    assert!(i1["message"].as_str().unwrap().starts_with("m2 at offset 1 was committed"));
    // Brokers keep assignment order in the object.
    let text = stdout(&out);
    assert!(text.find("\"A\": {").unwrap() < text.find("\"B\": {").unwrap());
}

#[test]
fn run_without_variant_uses_the_scenarios_own_and_all_variants_runs_six() {
    let file = preset_file("kip101-scenario-1");
    let one: serde_json::Value =
        serde_json::from_slice(&epochlab(&["run", file.to_str().unwrap(), "--json"]).stdout).unwrap();
    assert_eq!(one.as_array().unwrap().len(), 1);
    assert_eq!(one[0]["variant"], "hw-truncation");
    let all: serde_json::Value =
        serde_json::from_slice(&epochlab(&["run", file.to_str().unwrap(), "--all-variants", "--json"]).stdout).unwrap();
    let ids: Vec<&str> = all.as_array().unwrap().iter().map(|r| r["variant"].as_str().unwrap()).collect();
    assert_eq!(ids, ["hw-truncation", "kip-101", "kip-279", "kafka-2.1", "diverging-epoch", "leader-hw-truncation"]);
    assert_eq!(all[3]["flags"], serde_json::json!(["kafka-7415", "kafka-7128", "kafka-7164", "kip-320"]));
}

#[test]
fn run_text_draws_an_offset_grid_with_marks_and_the_verdicts() {
    let file = preset_file("kip101-scenario-1");
    let out = epochlab(&["run", file.to_str().unwrap(), "-v", "hw-truncation", "-v", "kip-279"]);
    let text = stdout(&out);
    assert!(text.contains("offset 0"), "{text}");
    assert!(text.contains("A leader   e1  isr  =m1@0 |xm2@0"), "{text}");
    assert!(text.contains("HW 1  LEO 1"));
    assert!(text.contains("verdict: BUG, I1, I2, I4, I5 fail"));
    assert!(text.contains("verdict: ok, no invariant fails"));
    assert!(text.contains("summary\n  hw-truncation         BUG I1 I2 I4 I5 (first at step 8)"), "{text}");
}

#[test]
fn run_at_a_step_and_with_steps_lists_narration() {
    let file = preset_file("kip101-scenario-1");
    let out = epochlab(&["run", file.to_str().unwrap(), "--at", "5", "--steps"]);
    let text = stdout(&out);
    assert!(text.contains("after step 5 (fetch)"));
    assert!(text.contains("  8 restart"), "{text}");
    assert_bad_input(
        &epochlab(&["run", file.to_str().unwrap(), "--at", "99"]),
        "--at 99: the scenario has 10 steps (0 to 9)",
    );
}

#[test]
fn presets_lists_every_preset_and_prints_one_as_a_scenario_file() {
    let list = stdout(&epochlab(&["presets"]));
    for p in &epochlab_core::presets::PRESETS {
        assert!(list.contains(p.id), "{} missing", p.id);
    }
    let one = epochlab(&["presets", "happy-path"]);
    let parsed = epochlab_core::parse_scenario(&stdout(&one)).expect("a valid scenario file");
    assert_eq!(parsed.brokers, ["A", "B", "C"]);
    assert_bad_input(&epochlab(&["presets", "nope"]), "no preset \"nope\"");
}

#[test]
fn compare_says_where_variants_part_ways() {
    let file = preset_file("kip101-scenario-1");
    let text =
        stdout(&epochlab(&["compare", file.to_str().unwrap(), "--variant", "hw-truncation", "--variant", "kip-279"]));
    assert!(text.contains("They part ways at step 8 (restart)"), "{text}");
    assert!(text.contains("first fails at step 8: I1, I2, I4, I5"), "{text}");
    assert!(text.contains("no invariant fails"), "{text}");
    assert_bad_input(&epochlab(&["compare", file.to_str().unwrap(), "--variant", "kip-279"]), "at least two");
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let json = stdout(&epochlab(&["presets", "happy-path"]));
    let out = epochlab_stdin(&["run", "-", "--json"], &json);
    assert!(out.status.success());
    assert_bad_input(
        &epochlab_stdin(&["run", "-"], "{"),
        "standard input: line 1 column 1: EOF while parsing an object",
    );
}

#[test]
fn bad_input_exits_2_with_one_line_naming_the_file_and_the_problem() {
    assert_bad_input(&epochlab(&["run", "/nonexistent/x.json"]), "/nonexistent/x.json: cannot read");
    let dir = std::env::temp_dir();
    let write = |name: &str, text: &str| {
        let p = dir.join(format!("epochlab-bad-{}-{name}", std::process::id()));
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let bad_json = write("json", "{\"version\": 1,,}");
    assert_bad_input(&epochlab(&["run", &bad_json]), "line 1 column 15");
    let bad_broker =
        write("broker", r#"{"version": 1, "brokers": ["A"], "events": [{"kind": "fetch", "broker": "Z"}]}"#);
    assert_bad_input(&epochlab(&["run", &bad_broker]), "events[0] (fetch): unknown broker \"Z\"");
    let bad_kind = write("kind", r#"{"version": 1, "brokers": ["A"], "events": [{"kind": "explode"}]}"#);
    assert_bad_input(&epochlab(&["run", &bad_kind]), "unknown event kind \"explode\"");
    let ok = write("ok", r#"{"version": 1, "brokers": ["A"]}"#);
    assert_bad_input(&epochlab(&["run", &ok, "--variant", "kip-9"]), "unknown variant \"kip-9\"");
    assert_eq!(epochlab(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn link_prints_a_share_fragment_that_decodes_to_the_scenario() {
    let file = preset_file("kip101-scenario-1");
    let path = file.to_str().unwrap();
    let scenario = epochlab_core::presets::find("kip101-scenario-1").unwrap().scenario();

    let out = epochlab(&["link", path]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.starts_with("#s=1") && text.ends_with('\n') && text.lines().count() == 1, "{text}");
    let state = epochlab_core::share::from_fragment(text.trim_end()).expect("decodes").expect("has s=");
    assert_eq!(state.scenario, scenario);
    assert_eq!(state.variants, [epochlab_core::Variant::HwTruncation]);
    assert_eq!(state.cursor, None);

    let out = epochlab(&[
        "link",
        path,
        "--base",
        "https://example.org/epochlab/#old",
        "-v",
        "kip-101",
        "--variant",
        "diverging-epoch",
        "--step",
        "4",
    ]);
    let text = stdout(&out);
    assert!(text.starts_with("https://example.org/epochlab/#s=1"), "{text}");
    let state = epochlab_core::share::from_fragment(text.trim_end()).unwrap().unwrap();
    assert_eq!(state.variants, [epochlab_core::Variant::Kip101, epochlab_core::Variant::DivergingEpoch]);
    assert_eq!(state.cursor, Some(4));

    assert_bad_input(&epochlab(&["link", path, "--step", "10"]), "--step 10: the scenario has 10 steps (0 to 9)");
    let five = ["-v", "kip-101", "-v", "kip-279", "-v", "kafka-2.1", "-v", "hw-truncation", "-v", "diverging-epoch"];
    assert_bad_input(&epochlab(&[&["link", path][..], &five].concat()), "at most 4 variants");
    assert_bad_input(&epochlab(&["link", path, "-v", "kip-9"]), "unknown variant \"kip-9\"");
}

#[test]
fn check_finds_hw_truncations_shortest_failure_and_prints_it_as_json_that_runs() {
    let out = epochlab(&["check", "--variant", "hw-truncation", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["verdict"], "counterexample");
    for key in ["exhausted", "unique_states", "transitions", "depth_reached", "seconds"] {
        assert!(!v[key].is_null(), "{key}");
    }
    let step = v["violation"]["step"].as_u64().expect("step");
    let path = std::env::temp_dir().join(format!("epochlab-cli-check-{}.json", std::process::id()));
    std::fs::write(&path, v["counterexample"].to_string()).expect("write");
    let run = epochlab(&["run", path.to_str().unwrap(), "--variant", "hw-truncation", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).expect("run JSON");
    let violations = report[0]["violations"].as_array().expect("violations");
    assert!(violations.iter().any(|x| x["step"].as_u64() == Some(step) && x["by_design"] == false), "{violations:?}");
}

#[test]
fn check_reports_no_failure_with_its_counts_in_words() {
    let out = epochlab(&["check", "--variant", "kafka-2.1", "--depth", "6"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.starts_with("kafka-2.1: no failure within 2 brokers, 2 records, epoch 3, depth 6"), "{text}");
    assert!(text.contains("unique states") && text.contains("states/s"), "{text}");
    assert!(text.contains("(stopped at the depth bound: longer paths were not tried)"), "{text}");
}

#[test]
fn check_at_the_default_bounds_sees_every_state_of_kafka_2_1() {
    let out = epochlab(&["check", "--variant", "kafka-2.1"]);
    let text = stdout(&out);
    assert!(text.starts_with("kafka-2.1: no failure within 2 brokers, 2 records, epoch 3, depth 13"), "{text}");
    assert!(text.contains("(every reachable state explored)"), "{text}");
    let out = epochlab(&["check", "--variant", "diverging-epoch", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!((&v["verdict"], &v["exhausted"]), (&"none".into(), &true.into()), "{v}");
    assert_eq!((&v["counterexample"], &v["violation"]), (&serde_json::Value::Null, &serde_json::Value::Null));
}

#[test]
fn check_refuses_bad_bounds_with_one_line() {
    assert_bad_input(&epochlab(&["check", "--variant", "kip-999"]), "unknown variant");
    assert_bad_input(&epochlab(&["check", "--variant", "kip-279", "--brokers", "7"]), "--brokers 7 is out of range");
    assert_bad_input(&epochlab(&["check", "--variant", "kip-279", "--invariant", "Q9"]), "unknown invariant");
    assert_bad_input(&epochlab(&["check", "--variant", "kip-279", "--alphabet", "huge"]), "unknown alphabet");
}

#[test]
fn shrink_prints_a_smaller_scenario_that_still_fails_with_a_reason_per_event() {
    let file = preset_file("kip101-scenario-1");
    let out = epochlab(&["shrink", file.to_str().unwrap(), "--invariant", "I1", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let events = v["scenario"]["events"].as_array().expect("events").len();
    assert!(events < 10, "{events}");
    assert_eq!(v["reasons"].as_array().expect("reasons").len(), events);
    assert_eq!(v["invariant"], "I1");
    let text = stdout(&epochlab(&["shrink", file.to_str().unwrap()]));
    assert!(text.contains("under hw-truncation in") && text.contains("no longer fails"), "{text}");
}

#[test]
fn shrink_refuses_a_scenario_without_the_violation() {
    let file = preset_file("happy-path");
    assert_bad_input(&epochlab(&["shrink", file.to_str().unwrap()]), "nothing to shrink");
    assert_bad_input(&epochlab(&["shrink", file.to_str().unwrap(), "--invariant", "Z1"]), "unknown invariant");
}

#[test]
fn fmt_converts_both_ways_and_every_command_reads_text_by_content() {
    let json_file = preset_file("kip101-scenario-2");
    let text = stdout(&epochlab(&["fmt", json_file.to_str().unwrap()]));
    assert!(text.starts_with("name: KIP-101 scenario 2") && text.contains("\nfetch B\n"), "{text}");
    // A text file with a .json name is still read as text: the content decides.
    let text_file = std::env::temp_dir().join(format!("epochlab-cli-text-{}.json", std::process::id()));
    std::fs::write(&text_file, &text).expect("write");
    let back = stdout(&epochlab(&["fmt", text_file.to_str().unwrap(), "--to", "json"]));
    let original = std::fs::read_to_string(&json_file).expect("read");
    let parse = |s: &str| serde_json::from_str::<serde_json::Value>(s).expect("JSON");
    assert_eq!(parse(&back), parse(&original));
    let run = epochlab(&["run", text_file.to_str().unwrap(), "--variant", "hw-truncation"]);
    assert!(stdout(&run).contains("verdict: BUG"), "{}", stdout(&run));
}

#[test]
fn a_text_file_with_a_typo_names_its_line_and_column() {
    let out = epochlab_stdin(&["run", "-"], "brokers: A B\nelect A\n  crsh A\n");
    assert_bad_input(&out, "line 3, column 3: unknown event kind 'crsh' (did you mean 'crash'?)");
    assert_bad_input(&epochlab(&["fmt", "-", "--to", "yaml"]), "--to yaml: expected text or json");
}

#[test]
fn run_messages_lists_each_exchange_with_lost_responses_marked() {
    let file = preset_file("kip101-scenario-1");
    let text = stdout(&epochlab(&["run", file.to_str().unwrap(), "--variant", "hw-truncation", "--messages"]));
    assert!(text.contains("messages under hw-truncation:"), "{text}");
    assert!(
        text.contains("   5  A -> B                  Fetch at 2\n   5  B -x A                  nothing, HW 2 (lost)"),
        "{text}"
    );
    assert!(text.contains("[truncate to 1 (m2)]"), "{text}");
}

#[test]
fn bisect_names_the_release_and_the_kip_that_fixed_a_story() {
    let file = preset_file("kafka-6361-fast-failover");
    let out = epochlab(&["bisect", file.to_str().unwrap(), "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["releases"].as_array().expect("releases").len(), 13, "thirteen release lines, 0.10.2 to 4.1");
    assert!(v["summary"].as_str().unwrap_or_default().contains("holds from 2.0.0: KIP-279"), "{v}");
    let run = stdout(&epochlab(&["run", file.to_str().unwrap(), "--kafka", "1.1"]));
    assert!(run.starts_with("Kafka 1.1 (the 1.0–1.1 line): runs as kip-101") && run.contains("verdict: BUG"), "{run}");
    assert_bad_input(&epochlab(&["run", file.to_str().unwrap(), "--kafka", "0.9"]), "unknown Kafka release \"0.9\"");
    assert_bad_input(&epochlab(&["run", file.to_str().unwrap(), "--kafka", "5.0"]), "known: 0.10.2 to 4.3");
    let later = stdout(&epochlab(&["run", file.to_str().unwrap(), "--kafka", "3.3"]));
    assert!(later.starts_with("Kafka 3.3 in ZooKeeper mode (the 2.8.1–3.6 line): runs as diverging-epoch"), "{later}");
}

#[test]
fn a_file_that_names_its_kafka_release_runs_as_it_and_says_so() {
    let text = "name: fast fail-over\nbrokers: A B\nkafka_version: 1.1\n\nelect A\nproduce\nfetch B\nfetch B\n\
                produce acks=1\nelect B deliver=B\nproduce acks=1 broker=B\nelect A deliver=A\nproduce\ndeliver B\nsettle\n";
    let run = stdout(&epochlab_stdin(&["run", "-"], text));
    assert!(
        run.starts_with("Kafka 1.1 (the 1.0–1.1 line): runs as kip-101") && run.contains("verdict: BUG, I3, I4 fail"),
        "{run}"
    );
    let fixed = stdout(&epochlab_stdin(&["run", "-"], &text.replace("1.1", "2.0")));
    assert!(
        fixed.starts_with("Kafka 2.0 (the 2.0.1 line): runs as kip-279") && fixed.contains("verdict: ok"),
        "{fixed}"
    );
    // The JSON form keeps it; --kafka with --messages lists the messages too.
    let json = stdout(&epochlab_stdin(&["fmt", "-", "--to", "json"], text));
    assert!(json.contains(r#""kafka_version": "1.1""#), "{json}");
    let messages = stdout(&epochlab_stdin(&["run", "-", "--kafka", "2.0", "--messages"], text));
    assert!(messages.contains("messages under kip-279:") && messages.contains("epoch 0 ends at 2"), "{messages}");
    assert_bad_input(
        &epochlab_stdin(&["run", "-"], &text.replace("kafka_version: 1.1", "kafka_version: 1.1\nvariant: kip-279")),
        "line 3, column 16: Kafka 1.1 runs kip-101, but config.variant is kip-279",
    );
}

#[test]
fn kafka_4_1_shows_the_eligible_leader_replicas_beside_the_isr_and_the_checker_searches_a_release() {
    let text = "name: last replica standing\nbrokers: A B C\nkafka_version: 4.1\nmin_insync_replicas: 2\nflush: manual\n\n\
                elect A\nproduce m1\nsettle\nflush A\nflush B\nflush C\ncrash C\nproduce m2\nfetch B\nfetch B\nshutdown B\n";
    let run = stdout(&epochlab_stdin(&["run", "-"], text));
    assert!(run.starts_with("Kafka 4.1 in KRaft mode (the 4.1–4.3 line): runs as diverging-epoch"), "{run}");
    assert!(run.contains("ISR {A}, ELR {B}"), "{run}");
    assert!(run.contains("\nB down     e-  elr "), "B's row is marked as an ELR member: {run}");
    // The same file under 3.9 has no ELR; asking 3.9 for it is refused.
    let old = stdout(&epochlab_stdin(&["run", "-", "--kafka", "3.9"], text));
    assert!(old.contains("ISR {A}\n"), "{old}");
    let forced = text.replace("flush: manual", "flush: manual\neligible_leader_replicas: true");
    assert_bad_input(
        &epochlab_stdin(&["run", "-", "--kafka", "3.9"], &forced),
        "Kafka 3.9 has no Eligible Leader Replicas",
    );
    let checked = stdout(&epochlab(&["check", "--kafka", "4.1", "--depth", "6"]));
    assert!(checked.starts_with("Kafka 4.1 in KRaft mode (diverging-epoch): no failure within 2 brokers"), "{checked}");
    assert_bad_input(&epochlab(&["check", "--kafka", "banana"]), "unknown Kafka release \"banana\"");
    for sloppy in ["3.7 ", "03.7", "3.07"] {
        assert_bad_input(&epochlab_stdin(&["run", "-", "--kafka", sloppy], text), "unknown Kafka release");
    }
    // A settings file's knob that the release given refuses is refused by check as by run, not dropped.
    let config = std::env::temp_dir().join(format!("epochlab-cli-test-{}-elr-config.txt", std::process::id()));
    std::fs::write(&config, &forced).unwrap();
    let config = config.to_str().unwrap();
    assert_bad_input(
        &epochlab(&["check", "--config", config, "--kafka", "3.9", "--depth", "2"]),
        "Kafka 3.9 has no Eligible Leader Replicas",
    );
    let under_4_1 = stdout(&epochlab(&["check", "--config", config, "--kafka", "4.1", "--depth", "2"]));
    assert!(under_4_1.starts_with("Kafka 4.1 in KRaft mode"), "{under_4_1}");
}

/// A copy of the shipped lessons in a folder of its own, with `from` replaced by `to` in `file`.
fn lessons_copy(file: &str, from: &str, to: &str) -> std::path::PathBuf {
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../epochlab-core/lessons");
    let name = file.trim_end_matches(".json");
    let dir = std::env::temp_dir().join(format!("epochlab-cli-test-{}-lessons-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for entry in std::fs::read_dir(&shipped).expect("lessons/").flatten() {
        let mut text = std::fs::read_to_string(entry.path()).expect("readable");
        if entry.file_name() == file {
            assert!(text.contains(from), "{file} says {from:?}");
            text = text.replace(from, to);
        }
        std::fs::write(dir.join(entry.file_name()), text).expect("write lesson");
    }
    dir
}

#[test]
fn lessons_answers_lists_every_question_with_the_simulators_answer() {
    let out = epochlab(&["lessons", "answers"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.is_ascii());
    // Lesson 2's restart cuts m2 from A's log; lesson 1's first question is B's HW, still 0.
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(
        &"committed-record-lost steps[3] before step 8 (hw-truncation): which of A's offsets survive -> keep cut"
    ));
    assert_eq!(lines[0], "log-end-and-high-watermark steps[2] before step 2 (kip-279): B's HW -> 0");
    assert!(lines.len() > 30 && lines.iter().all(|l| l.contains(" -> ")), "{text}");
}

#[test]
fn lessons_facts_lists_what_the_reader_read_and_marks_a_fact_the_trace_contradicts() {
    let out = epochlab(&["lessons", "facts"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.is_ascii() && !text.contains("NOT in the trace"));
    let first = text.lines().find(|l| l.starts_with("hardening-and-diverging-epoch steps[0]: ")).expect("the line");
    assert!(first.contains("A's HW 1") && first.contains("B's HW 0") && first.contains("record r0"), "{first}");
    assert!(text.contains("\nlog-end-and-high-watermark takeaway: "), "the takeaway is read too");
    let dir = lessons_copy("10-hardening-and-diverging-epoch.json", "A's HW moves to 1", "A's HW moves to 3");
    let out = epochlab(&["lessons", "facts", dir.to_str().unwrap()]);
    assert!(out.status.success());
    let marked: Vec<String> = stdout(&out).lines().filter(|l| l.contains("NOT")).map(str::to_string).collect();
    assert_eq!(marked.len(), 1, "{marked:?}");
    assert!(marked[0].starts_with("hardening-and-diverging-epoch steps[0]: "), "{marked:?}");
    assert!(marked[0].contains("A's HW 3 (NOT in the trace)"), "{marked:?}");
}

#[test]
fn lessons_refuse_a_missing_folder_or_a_broken_lesson_with_one_line() {
    let missing = std::env::temp_dir().join("epochlab-cli-test-no-such-lessons");
    assert_bad_input(&epochlab(&["lessons", "answers", missing.to_str().unwrap()]), "index.json: cannot read");
    assert_bad_input(&epochlab(&["lessons", "facts", missing.to_str().unwrap()]), "index.json: cannot read");
    let dir = lessons_copy("02-committed-record-lost.json", "\"steps\"", "\"stops\"");
    assert_bad_input(&epochlab(&["lessons", "answers", dir.to_str().unwrap()]), "02-committed-record-lost.json: ");
}

#[test]
fn conformance_lists_every_case_with_where_it_holds_and_fails_as_a_table_or_json() {
    let count = epochlab_core::conformance::cases().len();
    let out = epochlab(&["conformance"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.starts_with(&format!("{count} conformance cases (")), "{text}");
    let header = text.lines().nth(2).expect("the header");
    assert!(header.starts_with("Kafka test (path@tag#method)") && header.ends_with("coverage"), "{header}");
    let column = header.find("holds under").expect("a column");
    let rows: Vec<&str> = text.lines().skip(3).collect();
    assert_eq!(rows.len(), count);
    let shrink = rows.iter().find(|r| r.contains("#testNoLeaderEpochBumpOnIsrShrink")).expect("a KRaft case");
    assert!(shrink.contains("kraft::kraft_from_3_6_keeps_the_leader_epoch_when_the_isr_shrinks"), "{shrink}");
    assert_eq!(&shrink[column..column + "KRaft 3.6".len()], "KRaft 3.6", "aligned: {shrink}");
    assert!(rows.iter().any(|r| r.ends_with("whole")) && rows.iter().any(|r| r.contains("partial: ")));
    // The README shows the same table, regenerated with the command whenever a case changes.
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).expect("README");
    let (summary, table) = text.split_once("\n\n").expect("a summary line, then the table");
    assert!(readme.contains(summary) && readme.contains(table.trim_end()), "README.md: run `epochlab conformance`");

    let out = epochlab(&["conformance", "--json"]);
    assert!(out.status.success());
    let cases: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let cases = cases.as_array().expect("an array");
    assert_eq!(cases.len(), count);
    for case in cases {
        for key in ["citation", "test", "holds_under", "fails_under"] {
            assert!(case[key].as_str().is_some_and(|s| !s.is_empty()), "{key} in {case}");
        }
        assert_eq!(case["whole"].as_bool(), Some(case["part"].is_null()), "{case}");
    }
}

#[test]
fn the_metadata_mode_is_chosen_on_the_command_line_and_refused_where_kafka_lacks_it() {
    let text = "name: a follower dies\nbrokers: A B C\n\nelect A\nproduce m1\nsettle\ncrash C\n";
    let zk = stdout(&epochlab_stdin(&["run", "-", "--kafka", "3.6"], text));
    assert!(zk.starts_with("Kafka 3.6 in ZooKeeper mode") && zk.contains("epoch 1, ISR {A, B}"), "{zk}");
    let kraft =
        stdout(&epochlab_stdin(&["run", "-", "--kafka", "3.6", "--metadata-mode", "kraft", "--messages"], text));
    assert!(kraft.starts_with("Kafka 3.6 in KRaft mode"), "{kraft}");
    assert!(kraft.contains("epoch 0 (partition epoch 1), ISR {A, B}"), "{kraft}");
    assert!(kraft.contains("PartitionChangeRecord") && !kraft.contains("LeaderAndIsr"), "{kraft}");
    assert_bad_input(
        &epochlab_stdin(&["run", "-", "--kafka", "2.7", "--metadata-mode", "kraft"], text),
        "KRaft came in 2.8",
    );
    assert_bad_input(&epochlab_stdin(&["run", "-", "--kafka", "4.1", "--metadata-mode", "zookeeper"], text), "KIP-833");
    let checked = stdout(&epochlab(&["check", "--kafka", "3.6", "--metadata-mode", "kraft", "--depth", "5"]));
    assert!(checked.starts_with("Kafka 3.6 in KRaft mode (diverging-epoch): no failure"), "{checked}");
}

#[test]
fn a_file_past_the_size_limit_is_refused_not_read_until_memory_runs_out() {
    if std::path::Path::new("/dev/zero").exists() {
        assert_bad_input(&epochlab(&["run", "/dev/zero"]), "/dev/zero: larger than 4 MB");
        assert_bad_input(&epochlab(&["lesson", "check", "/dev/zero"]), "/dev/zero: larger than 4 MB");
    }
    let big = std::env::temp_dir().join(format!("epochlab-cli-test-{}-big.txt", std::process::id()));
    std::fs::write(&big, "x".repeat(4 * 1024 * 1024 + 1)).unwrap();
    assert_bad_input(&epochlab(&["run", big.to_str().unwrap()]), "larger than 4 MB");
    std::fs::write(&big, [0xffu8, 0xfe]).unwrap();
    assert_bad_input(&epochlab(&["run", big.to_str().unwrap()]), "not UTF-8 text");
    std::fs::remove_file(&big).ok();
}
