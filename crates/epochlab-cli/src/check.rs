//! `epochlab check`: the model checker's verdict, counts and time, and the counterexample drawn as `run`
//! draws it.

use std::time::Instant;

use epochlab_core::checker::bounds::{Bound, BROKERS, DEPTH, EPOCHS, MAX_STATES, RECORDS};
use epochlab_core::checker::{check, Alphabet, CheckConfig, CheckResult, SearchEnd};
use epochlab_core::invariants::InvariantId;
use epochlab_core::variant::{KafkaVersion, MetadataMode};
use epochlab_core::Variant;
use serde_json::json;

use crate::{commands, grid, release};

/// What is searched: a variant, or a Kafka release (its variant with its rules).
pub(crate) struct Searched {
    pub(crate) variant: Option<String>,
    pub(crate) kafka: Option<String>,
    pub(crate) metadata_mode: Option<String>,
}

/// The command line's bounds, as given.
pub(crate) struct Bounds {
    pub(crate) searched: Searched,
    pub(crate) brokers: u8,
    pub(crate) records: u8,
    pub(crate) epochs: i32,
    pub(crate) depth: u32,
    pub(crate) max_states: u64,
    pub(crate) invariants: Vec<String>,
    pub(crate) alphabet: String,
    pub(crate) config: Option<String>,
}

pub(crate) fn run(bounds: &Bounds, as_json: bool) -> Result<String, String> {
    let config = check_config(bounds)?;
    let started = Instant::now();
    let result = check(&config, |_| true);
    let seconds = started.elapsed().as_secs_f64();
    Ok(if as_json { to_json(&result, seconds) } else { to_text(&config, &result, seconds) })
}

fn check_config(b: &Bounds) -> Result<CheckConfig, String> {
    let range = |bound: Bound, value: u64| bound.check(value).map_err(|why| format!("--{why}"));
    range(BROKERS, u64::from(b.brokers))?;
    range(RECORDS, u64::from(b.records))?;
    range(EPOCHS, b.epochs.max(0) as u64)?;
    range(DEPTH, u64::from(b.depth))?;
    range(MAX_STATES, b.max_states)?;
    let alphabet = Alphabet::from_id(&b.alphabet)
        .ok_or_else(|| format!("unknown alphabet \"{}\" (expected default or full)", b.alphabet))?;
    let goal = b
        .invariants
        .iter()
        .map(|id| InvariantId::from_id(id).ok_or_else(|| format!("unknown invariant \"{id}\"")))
        .collect::<Result<Vec<_>, _>>()?;
    let defaults = CheckConfig::default();
    // A release given on the command line counts as the file's own, so a setting that release refuses is
    // refused with its reason (as `run --kafka` does), not dropped.
    let overrides = release::overrides(b.searched.kafka.as_deref(), b.searched.metadata_mode.as_deref())?;
    let mut cluster = match &b.config {
        Some(file) => commands::load_with(file, &overrides)?.config,
        None => defaults.config.clone(),
    };
    let variant = searched_variant(&b.searched, &mut cluster)?;
    Ok(CheckConfig {
        variant,
        brokers: b.brokers,
        records: b.records,
        epochs: b.epochs,
        depth: b.depth,
        max_states: b.max_states,
        goal: if goal.is_empty() { defaults.goal } else { goal },
        alphabet,
        config: cluster,
    })
}

/// The variant searched; a release is set on the cluster settings, whose knobs it then reads.
fn searched_variant(s: &Searched, cluster: &mut epochlab_core::scenario::Config) -> Result<Variant, String> {
    if let Some(id) = &s.kafka {
        let release = KafkaVersion::parse(id)?;
        cluster.set_release(release);
        if let Some(mode) = &s.metadata_mode {
            let mode = MetadataMode::from_id(mode)?;
            mode.offered_by(release)?;
            cluster.metadata_mode = Some(mode);
            cluster.drop_refused_knobs();
        }
        return Ok(release.variant());
    }
    let id = s.variant.as_deref().unwrap_or_default();
    Variant::from_id(id).ok_or_else(|| format!("unknown variant \"{id}\" (expected one of {})", Variant::id_list()))
}

fn verdict(r: &CheckResult) -> &'static str {
    if r.counterexample.is_some() {
        "counterexample"
    } else {
        "none"
    }
}

fn to_json(r: &CheckResult, seconds: f64) -> String {
    let scenario =
        r.counterexample.as_ref().map(|s| serde_json::from_str::<serde_json::Value>(&s.to_json()).unwrap_or_default());
    let violation =
        r.violation.as_ref().map(|v| json!({"invariant": v.invariant.id(), "step": v.step, "message": v.message}));
    let out = json!({
        "verdict": verdict(r),
        "exhausted": r.end == SearchEnd::Exhausted,
        "end": r.end.words(),
        "unique_states": r.unique_states,
        "transitions": r.transitions,
        "depth_reached": r.depth_reached,
        "seconds": seconds,
        "counterexample": scenario,
        "violation": violation,
    });
    serde_json::to_string_pretty(&out).unwrap_or_default() + "\n"
}

fn to_text(c: &CheckConfig, r: &CheckResult, seconds: f64) -> String {
    let bounds = format!("{} brokers, {} records, epoch {}, depth {}", c.brokers, c.records, c.epochs, c.depth);
    let rate = r.unique_states as f64 / seconds.max(1e-9);
    let counts = format!(
        "{} unique states, {} transitions, depth {} reached, {seconds:.2} s ({rate:.0} states/s)",
        r.unique_states, r.transitions, r.depth_reached
    );
    let Some(scenario) = &r.counterexample else {
        let nothing = epochlab_core::checker::no_failure_words(&c.goal);
        return format!("{}: {nothing} within {bounds} ({})\n{counts}\n", c.searched(), r.end.words());
    };
    let v = r.violation.as_ref().map_or(String::new(), |v| {
        format!("{} {} at step {}: {}", v.invariant.id(), v.invariant.name(), v.step, v.message)
    });
    let trace = epochlab_core::run_variant(scenario, c.variant);
    format!(
        "{}: counterexample in {} steps within {bounds}\n{v}\n{counts}\n\n{}",
        c.searched(),
        scenario.events.len(),
        grid::run_block(&trace, None, true)
    )
}
