//! How long running a scenario takes: a full run (what the UI pays to open a scenario or change its
//! configuration) and a re-run after an edit (what it pays on a drop). A realistic 200-event, 3-broker
//! scenario (built by a fixed-seed xorshift, so every machine measures the same events) run under all six
//! variants: (a) traces only, (b) plus the view model of each variant's last step, (c) plus the view model of
//! every step, for reference; then each trace going on from its previous version after (d) an event appended
//! at the end and (e) an event removed at step 100; and (f) what a drop at the end costs the playground at
//! the 1,000-event limit under four variants (the comparison going on from the previous one; per event
//! figures divide by 200 all the same), (g) the same on a story where the variants never part ways, (h)
//! what consumers saw in (f)'s traces, and (i) what opening a link at the limit costs (the four runs from
//! nothing).
//!
//! Plain `std::time::Instant`, a warm-up, then many iterations; prints a small table and asserts nothing.
//! Run with `cargo bench -p epochlab-core --bench rerun` (append `-- a` … `-- e` for one measurement).

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use epochlab_core::scenario::{Acks, Config, Delivery, Event, Scenario, FORMAT_VERSION};
use epochlab_core::trace::Outcome;
use epochlab_core::{recompare, rerun_protocol, run_variant, view, Protocol, Resume, Resumes, Variant};

const EVENTS: usize = 200;
const BROKERS: [&str; 3] = ["A", "B", "C"];

/// Marsaglia's xorshift64 with a fixed seed: the scenario is the same on every run and every machine.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn broker(&mut self) -> String {
        BROKERS[self.below(3) as usize].to_string()
    }
}

/// A realistic mix: mostly produce / fetch / settle, with crashes and restarts (at most one broker down at a
/// time), elections with full or partial delivery, late deliveries, ISR shrinks, consumes and checkpoints.
fn scenario() -> Scenario {
    scenario_of(EVENTS)
}

/// The same mix, `len` events long.
fn scenario_of(len: usize) -> Scenario {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut events = vec![Event::Elect { broker: None, deliver: Delivery::All }];
    let mut down: Option<String> = None;
    while events.len() < len {
        let event = match rng.below(100) {
            0..=34 => {
                let acks = match rng.below(10) {
                    0 => Acks::Zero,
                    1..=3 => Acks::One,
                    _ => Acks::All,
                };
                Event::Produce { record: None, acks, broker: None }
            }
            35..=56 => Event::Fetch { broker: rng.broker(), drop_response: rng.below(10) == 0 },
            57..=66 => Event::Settle,
            67..=80 => match down.take() {
                Some(broker) => Event::Restart { broker, deliver: rng.below(5) != 0 },
                None => {
                    let broker = rng.broker();
                    down = Some(broker.clone());
                    Event::Crash { broker, power: rng.below(5) == 0, notify_controller: rng.below(10) < 7 }
                }
            },
            81..=85 => {
                let deliver = if rng.below(10) < 7 {
                    Delivery::All
                } else {
                    Delivery::Only(BROKERS.iter().filter(|_| rng.below(2) == 0).map(|b| b.to_string()).collect())
                };
                Event::Elect { broker: None, deliver }
            }
            86..=89 => Event::Deliver { broker: rng.broker() },
            90..=92 => Event::ShrinkIsr { broker: rng.broker() },
            93..=95 => Event::Consume { broker: None },
            96..=97 => Event::CheckpointHw { broker: rng.broker() },
            _ => Event::Flush { broker: rng.broker() },
        };
        events.push(event);
    }
    Scenario {
        version: FORMAT_VERSION,
        name: "bench: 200 events, 3 brokers".to_string(),
        description: String::new(),
        brokers: BROKERS.iter().map(|b| b.to_string()).collect(),
        config: Config::default(),
        events,
    }
}

/// (a) Traces under all six variants.
fn traces_only(s: &Scenario) {
    for v in Variant::ALL {
        black_box(run_variant(black_box(s), v));
    }
}

/// (b) Traces, plus the view model of each variant's last step (what the UI draws after an edit).
fn traces_and_last_view(s: &Scenario) {
    for v in Variant::ALL {
        let trace = run_variant(black_box(s), v);
        black_box(view::view(&trace, Some(trace.steps.len().saturating_sub(1)), 0));
    }
}

/// (c) Traces, plus the view model of every step (as if the timeline were scrubbed end to end).
fn traces_and_every_view(s: &Scenario) {
    for v in Variant::ALL {
        let trace = run_variant(black_box(s), v);
        for i in 0..trace.steps.len() {
            black_box(view::view(&trace, Some(i), 0));
        }
    }
}

/// The six traces of the benchmark scenario, made once: what the playground holds when an edit comes.
fn previous(s: &Scenario) -> &'static [Resume] {
    static RUNS: OnceLock<Vec<Resume>> = OnceLock::new();
    RUNS.get_or_init(|| {
        Variant::ALL.iter().map(|&v| rerun_protocol(None, s, Protocol::new(v, &s.config.flags)).resume).collect()
    })
}

/// Re-run the six traces of `edited` from the previous ones, as the playground does after an edit.
fn rerun_all(s: &Scenario, edited: &Scenario) {
    for (t, &v) in previous(s).iter().zip(Variant::ALL.iter()) {
        black_box(rerun_protocol(Some(t), black_box(edited), Protocol::new(v, &edited.config.flags)));
    }
}

/// (d) An event appended at the end (a drop on the timeline's last column): every earlier step is reused.
fn rerun_after_append(s: &Scenario) {
    let mut edited = s.clone();
    edited.events.push(Event::Flush { broker: BROKERS[0].to_string() });
    rerun_all(s, &edited);
}

/// (e) An event removed in the middle: the steps before the last checkpoint before it are reused.
fn rerun_after_middle_edit(s: &Scenario) {
    let mut edited = s.clone();
    edited.events.remove(EVENTS / 2);
    rerun_all(s, &edited);
}

/// The playground at the scenario limit: 999 events under four variants, and the comparison it holds.
fn at_the_limit() -> &'static (Scenario, Resumes) {
    static HELD: OnceLock<(Scenario, Resumes)> = OnceLock::new();
    HELD.get_or_init(|| held(scenario_of(999)))
}

/// The same with a story on which the four variants never part ways (produce and settle, no failure): the
/// worst case for finding the first difference, which scans to the end.
fn in_agreement() -> &'static (Scenario, Resumes) {
    static HELD: OnceLock<(Scenario, Resumes)> = OnceLock::new();
    HELD.get_or_init(|| {
        let mut s = scenario_of(1);
        while s.events.len() < 999 {
            s.events.push(Event::Produce { record: None, acks: Acks::All, broker: None });
            s.events.push(Event::Settle);
        }
        s.events.truncate(999);
        held(s)
    })
}

fn held(s: Scenario) -> (Scenario, Resumes) {
    let resumes = recompare(&Resumes::default(), &s, &LIMIT_VARIANTS).1;
    (s, resumes)
}

const LIMIT_VARIANTS: [Variant; 4] = [Variant::HwTruncation, Variant::Kip101, Variant::Kip279, Variant::Kafka21];

/// (f) What a drop at the end costs the playground at the limit: the comparison of four variants going on
/// from the previous one (re-runs and the first difference), for a 1,000th event appended.
fn recompare_at_the_limit(_: &Scenario) {
    append_and_recompare(at_the_limit());
}

/// (g) As (f), on the story where the variants never part ways.
fn recompare_in_agreement(_: &Scenario) {
    append_and_recompare(in_agreement());
}

/// (h) What consumers saw, worked out for each of the four traces at the limit after a drop: the page does it
/// once per re-run for every variant panel.
fn reads_at_the_limit(_: &Scenario) {
    static TRACES: OnceLock<Vec<epochlab_core::Trace>> = OnceLock::new();
    let traces = TRACES.get_or_init(|| {
        let (s, resumes) = at_the_limit();
        let mut edited = s.clone();
        edited.events.push(Event::Flush { broker: BROKERS[0].to_string() });
        recompare(resumes, &edited, &LIMIT_VARIANTS).0.traces
    });
    for t in traces {
        black_box(epochlab_core::reads::reads(black_box(t)));
    }
}

/// (i) What opening a link at the limit costs: the comparison of four variants run from nothing.
fn open_at_the_limit(_: &Scenario) {
    let (s, _) = at_the_limit();
    black_box(recompare(&Resumes::default(), black_box(s), &LIMIT_VARIANTS));
}

fn append_and_recompare((s, resumes): &(Scenario, Resumes)) {
    let mut edited = s.clone();
    edited.events.push(Event::Flush { broker: BROKERS[0].to_string() });
    black_box(recompare(resumes, black_box(&edited), &LIMIT_VARIANTS));
}

/// One measurement: its label, what one run does, warm-up runs and measured runs.
type Case = (&'static str, fn(&Scenario), u32, u32);

struct Timing {
    mean: Duration,
    median: Duration,
    min: Duration,
}

fn measure(f: impl Fn(&Scenario), s: &Scenario, warmup: u32, iterations: u32) -> Timing {
    for _ in 0..warmup {
        f(s);
    }
    let mut samples: Vec<Duration> = (0..iterations)
        .map(|_| {
            // The benchmark measures the core from outside; the core itself never reads a clock.
            #[allow(clippy::disallowed_methods)]
            let start = Instant::now();
            f(s);
            start.elapsed()
        })
        .collect();
    samples.sort_unstable();
    let total: Duration = samples.iter().sum();
    Timing { mean: total / iterations, median: samples[samples.len() / 2], min: samples[0] }
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let s = scenario();
    assert_eq!(s.events.len(), EVENTS);
    let applied: Vec<String> = Variant::ALL
        .iter()
        .map(|&v| {
            let t = run_variant(&s, v);
            let n = t.steps.iter().filter(|st| st.outcome == Outcome::Applied).count();
            let leo = t.final_state().replicas.iter().map(|r| r.leo()).max().unwrap_or(0);
            format!("{} {n} applied, max LEO {leo}", v.id())
        })
        .collect();
    println!("scenario: {} events, {} brokers, all {} variants", EVENTS, BROKERS.len(), Variant::ALL.len());
    println!("  {}", applied.join("; "));
    println!();
    println!(
        "{:<44} {:>11} {:>11} {:>11} {:>13}",
        "measurement (one run = six variants)", "mean µs", "median µs", "min µs", "mean µs/event"
    );
    let cases: [Case; 9] = [
        ("(a) traces", traces_only, 50, 500),
        ("(b) traces + view of the last step", traces_and_last_view, 50, 500),
        ("(c) traces + view of every step", traces_and_every_view, 5, 30),
        ("(d) re-run after an event appended", rerun_after_append, 50, 500),
        ("(e) re-run after an edit at step 100", rerun_after_middle_edit, 50, 500),
        ("(f) 1,000 events x 4 variants, append (app)", recompare_at_the_limit, 20, 200),
        ("(g) as (f), variants that never part ways", recompare_in_agreement, 20, 200),
        ("(h) what consumers saw, (f)'s 4 traces", reads_at_the_limit, 20, 200),
        ("(i) 1,000 events x 4 variants, opened", open_at_the_limit, 5, 50),
    ];
    // `cargo bench -p epochlab-core --bench rerun -- b` runs only measurement (b); cargo itself passes
    // `--bench`, which is ignored.
    let filters: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    for (name, f, warmup, iterations) in cases {
        if !filters.is_empty() && !filters.iter().any(|x| name.starts_with(&format!("({x})"))) {
            continue;
        }
        let t = measure(f, &s, warmup, iterations);
        println!(
            "{:<44} {:>11.1} {:>11.1} {:>11.1} {:>13.2}",
            name,
            micros(t.mean),
            micros(t.median),
            micros(t.min),
            micros(t.mean) / EVENTS as f64
        );
    }
}
