//! The model checker's speed and memory, measured, never asserted: unique states per second for our
//! breadth-first search and for stateright 0.31's single-threaded BFS over the same space
//! (`tests/support/stateright_model.rs`), at the default bounds for every variant and at 3 brokers for
//! kafka-2.1 (depth 8, and depth 21, the whole space), with the ratio; and memory per state, as the growth of the process's peak resident set
//! (VmHWM, Linux) during the search divided by the unique states. Each measurement runs in its own child
//! process (this binary, re-run with `case ...`) so that peaks do not mix; a row but the last prints the run
//! with the median rate of five.
//!
//! `cargo bench -p epochlab-core --bench checker` (`-- quick` for the kafka-2.1 rows only).

#[path = "../tests/support/stateright_model.rs"]
#[allow(dead_code)] // the counterexample length is for the cross-check tests
mod stateright_model;

use std::process::Command;
use std::time::Instant;

use epochlab_core::checker::{check, default_goal, CheckConfig};
use epochlab_core::Variant;

/// One row: a name, the bounds. A variant with a failure to find is searched with no goal, so that the
/// whole bounded space is explored; kafka-2.1, which has none, with the default goal, so that its rows are
/// the very searches the worker's rows (scripts/bench.sh) run from the page's panel.
fn cases(quick: bool) -> Vec<(String, CheckConfig)> {
    let mut rows = Vec::new();
    let goal = |variant: Variant| if variant == Variant::Kafka21 { default_goal() } else { Vec::new() };
    for variant in Variant::ALL {
        if quick && variant != Variant::Kafka21 {
            continue;
        }
        rows.push((
            format!("{} defaults", variant.id()),
            CheckConfig { variant, goal: goal(variant), ..CheckConfig::default() },
        ));
    }
    let three = CheckConfig { variant: Variant::Kafka21, brokers: 3, depth: 8, ..CheckConfig::default() };
    rows.push(("kafka-2.1 3 brokers depth 8".to_string(), three.clone()));
    // The whole 3-broker space: every reachable state is explored by depth 21 (564,974 of them).
    rows.push(("kafka-2.1 3 brokers depth 21".to_string(), CheckConfig { depth: 21, ..three }));
    rows
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if args.first().map(String::as_str) == Some("case") {
        return run_case(&args[1..]);
    }
    let quick = args.iter().any(|a| a == "quick");
    println!("model checker, unique states per second (one thread, native, this machine; not asserted)");
    println!(
        "{:<32} {:>10} {:>11} {:>9} {:>13} {:>9} {:>7} {:>9} {:>9}",
        "bounds", "states", "ours/s", "ours s", "stateright/s", "sr s", "ratio", "ours B/st", "sr B/st"
    );
    let mut measured = Vec::new();
    let all = cases(quick);
    for (index, (name, _)) in all.iter().enumerate() {
        // The whole 3-broker space (the last row) takes seconds: once. The others take tens of milliseconds,
        // where one busy moment of a shared machine moves the figure: the median of a few runs.
        let runs = if index + 1 == all.len() { 1 } else { SHORT_RUNS };
        let ours = median_child(index, "ours", quick, runs);
        let theirs = median_child(index, "stateright", quick, runs);
        println!(
            "{:<32} {:>10} {:>11.0} {:>9.2} {:>13.0} {:>9.2} {:>6.2}x {:>9.0} {:>9.0}",
            name,
            ours.states,
            ours.rate(),
            ours.seconds,
            theirs.rate(),
            theirs.seconds,
            ours.rate() / theirs.rate(),
            ours.bytes_per_state(),
            theirs.bytes_per_state()
        );
        if ours.states != theirs.states {
            println!("    (unique states differ: ours {}, stateright {})", ours.states, theirs.states);
        }
        measured.push((name.clone(), ours.rate(), theirs.rate()));
    }
    println!("(ratio = ours / stateright; B/st = peak resident growth / unique states, queue and paths included)");
    wasm_rows(&measured);
}

/// The wasm worker's rates measured in Chromium (scripts/bench.sh passes them as EPOCHLAB_WASM_RATES,
/// `name=states per second;...`), beside this run's native ones.
fn wasm_rows(measured: &[(String, f64, f64)]) {
    let Ok(rates) = std::env::var("EPOCHLAB_WASM_RATES") else { return };
    for pair in rates.split(';').filter(|p| !p.is_empty()) {
        let Some((name, rate)) = pair.split_once('=') else { continue };
        let Ok(wasm) = rate.parse::<f64>() else { continue };
        let Some((_, ours, theirs)) = measured.iter().find(|(n, ..)| n == name) else { continue };
        println!(
            "wasm worker, {name}: {wasm:.0} states/s = {:.2}x ours native ({ours:.0}/s), {:.2}x stateright native ({theirs:.0}/s)",
            wasm / ours,
            wasm / theirs
        );
    }
}

struct Measured {
    states: u64,
    seconds: f64,
    peak_growth: u64,
}

impl Measured {
    fn rate(&self) -> f64 {
        self.states as f64 / self.seconds
    }
    fn bytes_per_state(&self) -> f64 {
        self.peak_growth as f64 / self.states as f64
    }
}

/// Runs of each short measurement, of which the median rate is printed.
const SHORT_RUNS: usize = 5;

/// The run with the median rate of `runs` child runs.
fn median_child(index: usize, which: &str, quick: bool, runs: usize) -> Measured {
    let mut all: Vec<Measured> = (0..runs).map(|_| child(index, which, quick)).collect();
    all.sort_by(|a, b| a.rate().total_cmp(&b.rate()));
    all.swap_remove(runs / 2)
}

fn child(index: usize, which: &str, quick: bool) -> Measured {
    let exe = std::env::current_exe().expect("this binary");
    let quick = if quick { "quick" } else { "full" };
    let out = Command::new(exe).args(["case", &index.to_string(), which, quick]).output().expect("child run");
    let text = String::from_utf8_lossy(&out.stdout);
    let numbers: Vec<f64> = text.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    assert!(numbers.len() == 3, "child said {text:?} {}", String::from_utf8_lossy(&out.stderr));
    Measured { states: numbers[0] as u64, seconds: numbers[1], peak_growth: numbers[2] as u64 }
}

fn run_case(args: &[String]) {
    let index: usize = args[0].parse().expect("case index");
    let (_, config) = cases(args.get(2).map(String::as_str) == Some("quick")).swap_remove(index);
    let before = peak_resident();
    #[allow(clippy::disallowed_methods)] // a benchmark measures time; the core itself has no clock
    let started = Instant::now();
    let states = if args[1] == "ours" {
        check(&config, |_| true).unique_states
    } else {
        stateright_model::stateright_bfs(&config).unique_states as u64
    };
    let seconds = started.elapsed().as_secs_f64();
    println!("{states} {seconds} {}", peak_resident().saturating_sub(before));
}

/// The process's peak resident set in bytes (0 where /proc is missing).
fn peak_resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap_or("VmHWM: 0 kB");
    line.split_whitespace().nth(1).and_then(|kb| kb.parse::<u64>().ok()).unwrap_or(0) * 1024
}
